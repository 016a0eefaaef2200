"""Run one NOI 2014 game between four agents and keep everything needed to replay it.

A bot's errors never stop a match.  When an agent fails (timeout, crash, memory, output, bad output, an illegal
action) the seat's status becomes ``error`` with the reason, and from then on the judge plays for it as
RULINGS.md says: it discards the tile just drawn and never claims.  A false HU is the rules' business: the
engine lets that seat leave and the match records it as the error ``false_hu``.  A failure of the judge's own
(:class:`~mjarena.agents.errors.JudgeError`: a bot's build gone, its box that cannot start) is no seat's error:
it stops the match and reaches the caller.

>>> result = run_match(["builtin:greedy"] * 4, seed=7)
>>> sum(seat.points for seat in result.seats)
10.0
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from mjarena.agents.errors import AgentError, JudgeError
from mjarena.agents.fallback import JudgeFallback
from mjarena.arena.illegal import why_illegal
from mjarena.limits import DEFAULT_LIMITS, Limits
from mjarena.replay import MatchResult, SeatOutcome
from mjarena.rulesets import JudgeRules, judge_rules
from mjarena.tiles import format_tile
from mjarena.variants.base import Action, Agent, Decision

__all__ = ["run_match"]


def run_match(
    bots: Sequence[str],
    *,
    rules: str = "noi2014",
    seed: int | None = None,
    wall: Sequence[int] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    make_agent: Callable[..., Agent] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    watch: Callable[[Sequence[int], Sequence[Any], Sequence[dict[str, Any]]], None] | None = None,
) -> MatchResult:
    """Play one game of ``rules`` (``noi2014``, ``baida`` or ``thupc2021``); ``bots`` are four specs
    (``builtin:NAME`` or a command line) for seats 0..3.

    The wall is ``wall`` or, failing that, shuffled from ``seed`` (a random seed when None, recorded in the
    result); built-in agents are seeded from the seed too, so one seed is one game.  ``watch(wall, events,
    decisions)``, when given, is called before the first decision and after each turn, with the game's events and
    decisions so far (the contest's live view of a game in progress: :class:`mjarena.contest.live_file.LiveFile`).
    """
    from mjarena.agents.factory import make_agent as default_factory

    judge = judge_rules(rules)
    if len(bots) != 4:
        raise ValueError(f"a game needs 4 bots, got {len(bots)}")
    if wall is None:
        seed = random.SystemRandom().randrange(2**31) if seed is None else seed
        wall = judge.shuffled_wall(seed)
    game = judge.new_game(wall)
    factory = make_agent or default_factory
    agents: list[Agent] = []
    try:
        for seat, spec in enumerate(bots):
            agents.append(factory(spec, seat, limits, seed=None if seed is None else seed * 4 + seat, rules=judge))
        errors: dict[int, tuple[str, str]] = {}
        erring_exchange: dict[int, int] = {}  # seat -> the index in its transcript of the answer that erred
        decisions: list[dict[str, Any]] = []
        targets: dict[int, tuple[int, ...] | None] = {}
        fallback = JudgeFallback()
        if watch is not None:
            watch(wall, game.events, decisions)
        while (decision := game.decision) is not None:
            choices = {}
            for seat, legal in decision.legal.items():
                erred = seat in errors
                agent = fallback if erred else agents[seat]
                start = clock()
                action = _ask(agent, game, seat, legal, decision, errors, fallback, judge)
                entry = {"seat": seat, "stage": decision.stage, "response": judge.protocol.format_response(action),
                         "ms": round((clock() - start) * 1000, 3), "by": "judge" if seat in errors else "bot"}
                if not erred and seat in errors:  # the answer where the seat erred: marked where it happened
                    entry["error"] = "{}: {}".format(*errors[seat])
                    entry["event"] = len(game.events)
                    transcript = getattr(agent, "transcript", None)  # a program's exchanges
                    if transcript:
                        erring_exchange[seat] = len(transcript) - 1
                decisions.append(entry)
                choices[seat] = action
                if decision.stage == "target":
                    targets[seat] = action.tiles or None
            game.apply(choices)
            if watch is not None:
                watch(wall, game.events, decisions)
        for event in game.events:
            if event.type == "false_hu":
                errors.setdefault(event.seat, ("false_hu", "declared HU without a winning hand"))
        transcripts = {
            seat: [exchange.to_json() for exchange in transcript]
            for seat, agent in enumerate(agents)
            if (transcript := getattr(agent, "transcript", None))
        }
        for seat, index in erring_exchange.items():
            transcripts[seat][index]["error"] = "{}: {}".format(*errors[seat])
    finally:
        for agent in agents:
            close = getattr(agent, "close", None)
            if close is not None:
                close()
    peaks = {seat: getattr(agent, "peak_kib", None) for seat, agent in enumerate(agents)}
    results = judge.rank(game, targets, {seat: reason for seat, (reason, _) in errors.items()})
    seats = []
    for result in sorted(results, key=lambda r: r.seat):
        reason, detail = errors.get(result.seat, (None, None))
        seats.append(
            SeatOutcome(
                seat=result.seat, bot=bots[result.seat], status=result.status, reason=reason, detail=detail,
                rank=result.rank, points=result.points, distance=result.distance, chance=result.chance,
                target=[format_tile(k, judge.notation) for k in result.target] if result.target else None,
                peak_mib=round(kib / 1024, 1) if (kib := peaks.get(result.seat)) else None,
            )
        )
    return MatchResult(judge.name, seed, list(wall), seats, list(game.events), decisions, transcripts)


def _ask(
    agent: Agent,
    game: Any,
    seat: int,
    legal: Sequence[Action],
    decision: Decision,
    errors: dict[int, tuple[str, str]],
    fallback: JudgeFallback,
    judge: JudgeRules,
) -> Action:
    """One answer; on any agent failure the error is recorded and the judge answers instead.

    An exception raised inside an in-process agent (``python:``, a built-in) is that seat's ``crash``, with the
    end of the traceback as the detail; the game goes on.
    """
    try:
        action = agent.act(game, seat, legal)
    except AgentError as error:
        errors[seat] = (error.reason, error.detail)
        return fallback.act(game, seat, legal)
    except JudgeError:  # the judge's failure, not the seat's: the game stands for nothing
        raise
    except Exception as error:  # any bug in an agent is that seat's error, never the match's
        errors[seat] = ("crash", _traceback_tail(error))
        return fallback.act(game, seat, legal)
    if decision.stage == "target" or action in legal or (action.type == "hu" and judge.hu_always_accepted):
        return action
    errors[seat] = ("illegal_action", f"{_answer(judge, action)!r} is not legal at this {decision.stage}: "
                    f"{why_illegal(judge, game, seat, action, decision.stage, legal)}")
    return fallback.act(game, seat, legal)


def _traceback_tail(error: BaseException, limit: int = 2000) -> str:
    """The traceback of ``error`` as the agent's author needs it: its last frames, at most ``limit`` characters.

    >>> try:
    ...     {}["missing"]
    ... except KeyError as error:
    ...     print(_traceback_tail(error).splitlines()[-1])
    KeyError: 'missing'
    """
    import traceback

    text = "".join(traceback.format_exception(type(error), error, error.__traceback__, limit=-4)).strip()
    return text if len(text) <= limit else "…" + text[-limit + 1:]


def _answer(judge: JudgeRules, action: Action) -> str:
    try:
        return judge.protocol.format_response(action)
    except ValueError:
        return repr(action)
