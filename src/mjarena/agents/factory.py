"""Turn a bot SPEC into an agent: ``builtin:NAME`` (in-process) or a command line (a program).

>>> check_spec("builtin:greedy")
>>> check_spec("builtin:nope")
Traceback (most recent call last):
...
mjarena.agents.factory.BotSpecError: unknown built-in bot 'nope'; known: greedy, random
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mjarena.arena.match import Limits
    from mjarena.arena.rulesets import JudgeRules
    from mjarena.variants.base import Agent

__all__ = ["BotSpecError", "check_spec", "make_agent"]

BUILTIN = "builtin:"


class BotSpecError(ValueError):
    """A bot spec that names no built-in bot or is not a usable command line."""


def check_spec(spec: str, rules: JudgeRules | None = None) -> None:
    """Raise :class:`BotSpecError` unless ``spec`` can make an agent (for ``rules``; NOI 2014 by default)."""
    from mjarena.arena.rulesets import judge_rules

    agents = (rules or judge_rules("noi2014")).agents
    if spec.startswith(BUILTIN):
        name = spec[len(BUILTIN):]
        if name not in agents:
            known = ", ".join(sorted(agents))
            raise BotSpecError(f"unknown built-in bot {name!r}; known: {known}")
        return
    try:
        words = shlex.split(spec)
    except ValueError as error:
        raise BotSpecError(f"bot command {spec!r}: {error}") from None
    if not words:
        raise BotSpecError("an empty bot command")


def make_agent(
    spec: str, seat: int, limits: Limits, seed: int | None = None, rules: JudgeRules | None = None
) -> Agent:
    """The agent for one seat: a built-in policy of ``rules`` (seeded with ``seed``), or a program spoken to
    over that rule set's protocol (NOI 2014 by default)."""
    from mjarena.arena.rulesets import judge_rules

    rules = rules or judge_rules("noi2014")
    check_spec(spec, rules)
    if spec.startswith(BUILTIN):
        return rules.agents[spec[len(BUILTIN):]](seed=seed)
    from mjarena.agents.botzone_agent import BotzoneAgent
    from mjarena.protocol.process import BotProcess
    from mjarena.protocol.transport import ProcessTransport

    process = BotProcess(
        shlex.split(spec), time_limit=limits.time, memory_limit_mib=limits.memory_mib,
        output_limit=limits.output_bytes,
    )
    return BotzoneAgent(ProcessTransport(process), name=spec, protocol=rules.protocol)
