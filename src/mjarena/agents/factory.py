"""Turn a bot SPEC into an agent: ``builtin:NAME`` (in-process), ``python:MODULE:NAME`` (in-process, your
code), a source file (``bots/mine.cpp``: built and cached, then played as a program, see
:mod:`mjarena.agents.source_bot`) or a command line (a program; its words split by the system's rules,
:func:`mjarena.command_line.split_command`).

``python:MODULE:NAME`` names an importable object (the module must be on the path of the process that plays,
tournament workers included; installed, or on ``PYTHONPATH``):

- a class with an ``act(game, seat, legal)`` method: one agent per game and seat, made with ``seed=`` when its
  ``__init__`` takes a ``seed``, else with no argument;
- an object with an ``act`` method: that agent itself, for every seat that names it;
- any other callable: a policy ``policy(observation, action_mask) -> action index`` over the observations of
  :mod:`mjarena.env` (``pip install 'mjarena[rl]'``), played by the class registered as the entry point
  ``policy`` of the group ``mjarena.policy_players`` (``pyproject.toml`` registers
  :class:`mjarena.env.policy_agent.PolicyAgent` there): the factory, a layer below the environments, never
  imports them.

>>> check_spec("builtin:greedy")
>>> check_spec("python:mjarena.agents.builtin:GreedyAgent")
>>> check_spec("builtin:nope")
Traceback (most recent call last):
...
mjarena.agents.factory.BotSpecError: unknown built-in bot 'nope'; known: greedy, random, strong
>>> check_spec("python:mjarena.no_such_module:policy")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mjarena.agents.factory.BotSpecError: python:mjarena.no_such_module:policy: cannot import mjarena.no_such_module: ...
"""

from __future__ import annotations

import inspect
import os
from importlib import import_module
from typing import TYPE_CHECKING, Any

from mjarena.command_line import split_command
from mjarena.rulesets import JudgeRules, judge_rules

if TYPE_CHECKING:
    from mjarena.limits import Limits
    from mjarena.variants.base import Agent

__all__ = ["POLICY_PLAYERS", "BotSpecError", "check_spec", "make_agent", "policy_player"]

BUILTIN = "builtin:"
PYTHON = "python:"
POLICY_PLAYERS = "mjarena.policy_players"
"""The entry-point group of the classes that play a policy over observations: ``policy`` is the one used."""


class BotSpecError(ValueError):
    """A bot spec that names no built-in bot or is not a usable command line."""


def check_spec(spec: str, rules: JudgeRules | None = None, *, toolchains: str | None = None) -> None:
    """Raise :class:`BotSpecError` unless ``spec`` can make an agent (for ``rules``; NOI 2014 by default;
    ``toolchains``: the user's toolchain table, whose suffixes make a spec a source file)."""
    agents = (rules or judge_rules("noi2014")).agents
    if spec.startswith(BUILTIN):
        name = spec[len(BUILTIN):]
        if name not in agents:
            known = ", ".join(sorted(agents))
            raise BotSpecError(f"unknown built-in bot {name!r}; known: {known}")
        return
    if spec.startswith(PYTHON):
        _load(spec)
        return
    from mjarena.agents.source_bot import is_source

    if is_source(spec, toolchains):
        if not os.path.isfile(spec):
            raise BotSpecError(f"{spec}: no such source file")
        return
    try:
        words = split_command(spec)
    except ValueError as error:
        raise BotSpecError(f"bot command {spec!r}: {error}") from None
    if not words:
        raise BotSpecError("an empty bot command")


def make_agent(
    spec: str, seat: int, limits: Limits, seed: int | None = None, rules: JudgeRules | None = None
) -> Agent:
    """The agent for one seat: a built-in policy of ``rules`` (seeded with ``seed``), or a program spoken to
    over that rule set's protocol (NOI 2014 by default)."""
    rules = rules or judge_rules("noi2014")
    check_spec(spec, rules, toolchains=limits.toolchains)
    if spec.startswith(BUILTIN):
        return rules.agents[spec[len(BUILTIN):]](seed=seed)
    if spec.startswith(PYTHON):
        return _python_agent(_load(spec), seed, rules)
    from mjarena.agents.source_bot import is_source, source_agent

    if is_source(spec, limits.toolchains):
        return source_agent(spec, limits, rules, seat)
    from mjarena.agents.botzone_agent import BotzoneAgent
    from mjarena.protocol.process import BotProcess, ProcessTransport

    process = BotProcess(
        split_command(spec), time_limit=limits.time, memory_limit_mib=limits.memory_mib,
        output_limit=limits.output_bytes, sandbox=limits.sandbox, game_budget=limits.budget, seat=seat,
    )
    return BotzoneAgent(ProcessTransport(process), name=spec, protocol=rules.protocol)


def _load(spec: str) -> Any:
    """The object a ``python:MODULE:NAME`` spec names; :class:`BotSpecError` saying what is wrong."""
    module_name, sep, name = spec[len(PYTHON):].partition(":")
    if not sep or not module_name or not name:
        raise BotSpecError(f"{spec}: expected python:MODULE:NAME (an agent class, an agent, or a policy)")
    try:
        module = import_module(module_name)
    except Exception as error:  # any failure of the import is the spec's problem, said as such
        raise BotSpecError(f"{spec}: cannot import {module_name}: {error}") from None
    try:
        target = getattr(module, name)
    except AttributeError:
        raise BotSpecError(f"{spec}: module {module_name} has no {name!r}") from None
    if not callable(target) and not callable(getattr(target, "act", None)):
        raise BotSpecError(f"{spec}: {name} is neither an agent (a class or an object with act()) nor a policy")
    return target


def _python_agent(target: Any, seed: int | None, rules: JudgeRules) -> Agent:
    """An agent from what a ``python:`` spec names (see the module's docstring)."""
    if isinstance(target, type):
        try:
            takes_seed = "seed" in inspect.signature(target).parameters
        except (TypeError, ValueError):
            takes_seed = False
        return target(seed=seed) if takes_seed else target()
    if callable(getattr(target, "act", None)):
        return target
    player = policy_player()
    return player(target, rules=rules.name, name=getattr(target, "__name__", "policy"))


def policy_player() -> Any:
    """The class that plays a policy: the entry point ``policy`` of :data:`POLICY_PLAYERS`, loaded when a spec
    first names a policy (the environments it lives in need numpy, ``mjarena[rl]``); :class:`BotSpecError` when
    no installed package registers one.

    >>> policy_player().__name__  # mjarena.env.policy_agent registers itself in pyproject.toml
    'PolicyAgent'
    """
    from importlib.metadata import entry_points

    for entry in entry_points(group=POLICY_PLAYERS, name="policy"):
        return entry.load()
    raise BotSpecError(f"no player of policies is installed (entry point 'policy' of {POLICY_PLAYERS}): "
                       "install mjarena again, with pip install -e '.[rl]' or pip install 'mjarena[rl]'")
