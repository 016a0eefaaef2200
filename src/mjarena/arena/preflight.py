"""Pre-flight: before a match or a tournament starts, every entrant that is a program (a source file or a
command line) is built and started once, in the sandbox, on a real first request of the rule set; one that
does not build, does not start, or cannot answer is reported with the reason, in seconds, before any game.

The probe is the opening of a real game (a fixed wall) with the entrant in seat 0, the judge playing the other
seats: the entrant receives exactly what it would receive in its first turn of a game, under the match's
limits (per-language limits included), and its answer must be well formed and legal.

>>> from mjarena.limits import Limits
>>> preflight(["builtin:greedy", "python:mjarena.agents.builtin:GreedyAgent"], limits=Limits())
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from mjarena.agents.errors import AgentError, JudgeError
from mjarena.agents.fallback import JudgeFallback
from mjarena.arena.illegal import why_illegal
from mjarena.limits import Limits
from mjarena.rulesets import judge_rules

__all__ = ["PROBE_SEED", "Problem", "describe", "is_program", "preflight", "probe"]

PROBE_SEED = 2014
"""The seed of the probe game's wall."""
_PROBE_SEAT = 0
_MAX_DECISIONS = 64  # the probe ends at the entrant's first answer, which comes at the game's first decision


@dataclass(frozen=True)
class Problem:
    """Why an entrant cannot play: ``reason`` is ``build`` (it cannot be built here: no such file, a missing
    toolchain), ``compile_error``, ``start`` (its program cannot be started here: no such program, a box that
    cannot be made), or a reason of the result vocabulary (``timeout``, ``crash``, ``memory``,
    ``output_limit``, ``bad_output``, ``illegal_action``); ``detail`` says what happened."""

    spec: str
    reason: str
    detail: str

    def __str__(self) -> str:
        return f"{self.spec}: {self.reason}: {self.detail}"


def is_program(spec: str) -> bool:
    """Whether ``spec`` runs as a program (a source file or a command line), not in process.

    >>> is_program("builtin:random"), is_program("bots/mine.cpp"), is_program("python3 bot.py")
    (False, True, True)
    """
    return not spec.startswith(("builtin:", "python:"))


def _build_problem(spec: str, limits: Limits) -> Problem | None:
    from mjarena.agents.source_bot import is_source
    from mjarena.builds import BuildError, build

    if not is_source(spec, limits.toolchains):
        return None
    try:
        result = build(spec, sandbox=limits.sandbox, toolchains=limits.toolchains)
    except BuildError as error:
        return Problem(spec, "build", str(error))
    if not result.ok:
        return Problem(spec, "compile_error", result.message or "the compiler failed without a message")
    return None


def probe(spec: str, *, rules: str = "noi2014", limits: Limits | None = None) -> Problem | None:
    """Start ``spec`` once on the first request of a ``rules`` game (under ``limits``, the defaults when None);
    None when it answered well."""
    limits = limits or Limits()
    from mjarena.agents.factory import BotSpecError, make_agent

    problem = _build_problem(spec, limits)
    if problem is not None:
        return problem
    judge = judge_rules(rules)
    try:
        agent = make_agent(spec, _PROBE_SEAT, limits, seed=PROBE_SEED, rules=judge)
    except BotSpecError as error:
        return Problem(spec, "build", str(error))
    game = judge.new_game(judge.shuffled_wall(PROBE_SEED))
    fallback = JudgeFallback()
    try:
        for _ in range(_MAX_DECISIONS):
            decision = game.decision
            if decision is None:
                break
            choices = {}
            for seat, legal in decision.legal.items():
                if seat != _PROBE_SEAT:
                    choices[seat] = fallback.act(game, seat, legal)
                    continue
                try:
                    action = agent.act(game, seat, legal)
                except AgentError as error:
                    return Problem(spec, error.reason, error.detail)
                except JudgeError as error:  # no program there, or no box can start it here
                    return Problem(spec, "start", str(error))
                if action in legal or decision.stage == "target" or (action.type == "hu" and judge.hu_always_accepted):
                    return None
                return Problem(spec, "illegal_action", f"{judge.protocol.format_response(action)!r} is not legal "
                               f"at its first {decision.stage}: "
                               f"{why_illegal(judge, game, seat, action, decision.stage, legal)}")
            game.apply(choices)
    finally:
        close = getattr(agent, "close", None)
        if close is not None:
            close()
    return Problem(spec, "bad_output", "the probe game never asked it anything")  # pragma: no cover


def preflight(specs: Sequence[str], *, rules: str = "noi2014", limits: Limits | None = None,
              workers: int = 4) -> list[Problem]:
    """The problems of the program entrants among ``specs`` (each distinct spec probed once, sources built
    first, one at a time; then the probes, ``workers`` at a time); an empty list when every one can play."""
    limits = limits or Limits()
    programs = list(dict.fromkeys(spec for spec in specs if is_program(spec)))
    if not programs:
        return []
    built = {spec: _build_problem(spec, limits) for spec in programs}
    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(programs)))) as pool:
        probes = dict(zip(programs, pool.map(
            lambda spec: built[spec] or probe(spec, rules=rules, limits=limits), programs), strict=True))
    return [problem for problem in probes.values() if problem is not None]


def describe(problems: Sequence[Problem], names: Sequence[tuple[str, str]]) -> str:
    """The problems as lines for a person: ``names`` pairs each label (``seat 1``, an entrant's name) with its
    spec; a compiler's message is indented under its line."""
    lines = []
    for problem in problems:
        labels = ", ".join(label for label, spec in names if spec == problem.spec) or problem.spec
        first, _, rest = problem.detail.partition("\n")
        lines.append(f"  {labels} ({problem.spec}): {problem.reason}: {first}")
        lines += [f"      {line}" for line in rest.splitlines()]
    return "\n".join(lines)
