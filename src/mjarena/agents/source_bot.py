"""Bot specs that are source files (``bots/mine.cpp``, ``NAME=bots/mine.java``): built through
:mod:`mjarena.builds` (cached, so a tournament builds each entrant once) and played as a program in the
sandbox, its build folder visible read-only.

Per-language limits: the statement's time and memory limit for every language by default; with
``Limits.language_limits`` on, the time limit and the game budget are multiplied by the language's
``time_factor`` and the language's ``memory_mib`` (when the toolchain table sets one) replaces the memory limit,
as Botzone does.

A source that does not build plays as a bot that errs at its first request (reason ``crash``, the compiler's
first line as the detail); pre-flight (:mod:`mjarena.arena.preflight`) normally stops a match before that.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

from mjarena.agents.errors import BotCrash
from mjarena.rulesets import JudgeRules

if TYPE_CHECKING:
    from mjarena.builds import BuildResult
    from mjarena.limits import Limits
    from mjarena.variants.base import Action, Agent

__all__ = ["BrokenBuild", "build_for_play", "is_source", "language_limits", "source_agent"]

_SPACE = re.compile(r"\s")


def is_source(spec: str, toolchains: str | os.PathLike[str] | None = None) -> bool:
    """Whether ``spec`` names a source file: one word (no white space) with a suffix of the toolchain table.

    >>> is_source("bots/mine.cpp"), is_source("python3 bots/mine.py"), is_source("builtin:greedy")
    (True, False, False)
    """
    from mjarena.builds import language_of

    return bool(spec) and not _SPACE.search(spec) and language_of(spec, toolchains) is not None


def language_limits(result: BuildResult, limits: Limits) -> tuple[float, int, float]:
    """(seconds per answer, MiB, seconds of thinking per game) for a bot built as ``result`` under ``limits``.

    >>> from types import SimpleNamespace as N
    >>> built = N(time_factor=3.0, memory_mib=512)
    >>> language_limits(built, N(time=1.0, memory_mib=256, budget=30.0, language_limits=False))
    (1.0, 256, 30.0)
    >>> language_limits(built, N(time=1.0, memory_mib=256, budget=30.0, language_limits=True))
    (3.0, 512, 90.0)
    """
    if not limits.language_limits:
        return limits.time, limits.memory_mib, limits.budget
    factor = result.time_factor
    return limits.time * factor, result.memory_mib or limits.memory_mib, limits.budget * factor


class BrokenBuild:
    """The agent of a source that does not build: it errs (``crash``) at its first request."""

    def __init__(self, spec: str, why: str) -> None:
        self.name = spec
        self.why = why

    def act(self, game: Any, seat: int, legal: Any) -> Action:
        raise BotCrash(f"does not build: {self.why}")


def build_for_play(spec: str, limits: Limits) -> BuildResult | str:
    """The build of the source-file ``spec`` under ``limits`` (built now, or from the cache), or why it does not
    build (what its :class:`BrokenBuild` says at its first request)."""
    from mjarena.builds import BuildError, build

    try:
        result = build(spec, sandbox=limits.sandbox, toolchains=limits.toolchains)
    except BuildError as error:
        return str(error)
    if not result.ok:
        first = next((line for line in result.message.splitlines() if "error" in line.lower()), None)
        return f"compile_error: {first or result.message.partition(chr(10))[0]}"
    return result


def source_agent(spec: str, limits: Limits, rules: JudgeRules, seat: int | None = None) -> Agent:
    """The agent of a source-file spec: its build played over ``rules``' protocol (at ``seat``: its box shows its
    seat slot's own copies of its runtime), or a :class:`BrokenBuild`."""
    from mjarena.agents.botzone_agent import BotzoneAgent
    from mjarena.protocol.process import BotProcess, ProcessTransport

    result = build_for_play(spec, limits)
    if isinstance(result, str):
        return BrokenBuild(spec, result)
    seconds, memory, budget = language_limits(result, limits)
    process = BotProcess(
        result.command(memory), time_limit=seconds, memory_limit_mib=memory, output_limit=limits.output_bytes,
        sandbox=limits.sandbox, readable=result.readable, game_budget=budget, seat=seat,
    )
    return BotzoneAgent(ProcessTransport(process), name=spec, protocol=rules.protocol)
