"""One contest game, played in a worker process: the task (picklable), the match, and what comes back.

The scheduler pins each seat's program when the game starts (:class:`SeatPlan`), so a game keeps the versions
it started with whatever is submitted meanwhile, and a game replayed after a crash plays the same versions.
House bots are ``builtin:greedy``.  The replay names players as ``TEAM v2`` (never a file path) and keeps each
bot's per-turn output beside its answers, within a budget per seat (:mod:`mjarena.contest.replay_budget`);
:func:`public_replay` removes what only the bot's own team may see.

>>> task = GameTask(7, "noi2014", 2014, (SeatPlan(None, None, None),) * 4, 1.0, 256, "none")
>>> outcome = play_game(task)
>>> [seat["team"] for seat in outcome["results"]], sum(seat["points"] for seat in outcome["results"])
([None, None, None, None], 10.0)
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from mjarena.arena.node_check import node_name
from mjarena.contest.replay_budget import within_budget
from mjarena.contest.sources import Program

__all__ = ["HOUSE_BOT", "PUBLIC_EXCHANGE_KEYS", "BoxTurns", "GameTask", "SeatPlan", "play_game", "public_detail",
           "public_replay", "thinking"]

HOUSE_BOT = "builtin:greedy"
PUBLIC_EXCHANGE_KEYS = ("request", "response", "elapsed_ms", "mode")
"""What anyone may see of a bot's exchange with the judge; the rest (``debug``, ``stderr``, ...) is its team's."""
_STDERR_MARK = "; stderr:"


@dataclass(frozen=True)
class SeatPlan:
    """Who plays a seat: a team's submission (``team``, ``version`` and its :class:`Program`) or a house bot
    (all None)."""

    team: str | None
    version: int | None
    program: Program | None

    @property
    def label(self) -> str:
        return f"{self.team} v{self.version}" if self.team is not None else f"house ({HOUSE_BOT})"


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game."""

    game_id: int
    rules: str
    wall_seed: int
    seats: tuple[SeatPlan, ...]
    time_limit: float
    memory_limit: int
    sandbox: str  # bwrap | none
    live: str | Callable[[bytes], None] | None = None
    """Where the worker writes the game as it is played (:func:`~mjarena.contest.live_file.live_writer`): the live
    file's path on this machine, or a cluster node's relay to it (:class:`~mjarena.contest.live_relay.RelaySink`);
    None: nowhere (a finished game played again)."""

    def __str__(self) -> str:
        return f"game {self.game_id}"

    def folders(self) -> dict[str, list[str]]:
        """The build folders its bots run from, each with the files in it that need not leave this machine (a
        compiled bot's source): what an executor ships to a node without the contest folder
        (:mod:`mjarena.builds.shipping`).

        >>> seat = SeatPlan("red", 1, Program(["/c/builds/K/work/bot"], ["/c/builds/K/work"]))
        >>> GameTask(1, "noi2014", 1, (seat,), 1.0, 256, "none").folders()["/c/builds/K/work"]
        []
        """
        from mjarena.builds.shipping import held_back

        found: dict[str, list[str]] = {}
        for plan in self.seats:
            program = plan.program
            if program is None:  # a house bot
                continue
            for folder in program.readable:
                try:
                    names = os.listdir(folder)
                except OSError:  # gone: the box says so when it starts (a judge error)
                    names = []
                found[folder] = held_back(names, program.argv)
        return found

    def relocated(self, places: Mapping[str, str]) -> GameTask:
        """The same game with each build folder ``places`` names at its new place (in the argv and readable
        paths of its bots), and no live file's path (the node's disk is not the contest's; a relay goes with it).

        >>> seat = SeatPlan("red", 1, Program(["java", "-cp", "/c/K/work", "Main"], ["/c/K/work"]))
        >>> moved = GameTask(1, "noi2014", 1, (seat,), 1.0, 256, "none").relocated({"/c/K/work": "/n/D"})
        >>> moved.seats[0].program.argv, moved.seats[0].program.readable
        (['java', '-cp', '/n/D', 'Main'], ['/n/D'])
        """
        def moved(word: str) -> str:
            for old, new in places.items():
                if word == old or word.startswith(old + "/"):
                    return new + word[len(old):]
            return word

        seats = tuple(plan if plan.program is None else replace(plan, program=replace(
            plan.program, argv=[moved(word) for word in plan.program.argv],
            readable=[moved(path) for path in plan.program.readable])) for plan in self.seats)
        return replace(self, seats=seats, live=None if isinstance(self.live, str) else self.live)


def public_detail(detail: str | None) -> str | None:
    """An error's detail without the bot's standard error (which only its team sees).

    >>> public_detail("exit code 3; stderr: secret")
    'exit code 3'
    """
    if detail is None:
        return None
    return detail.split(_STDERR_MARK, 1)[0]


def _limits(task: GameTask) -> Any:
    from mjarena.limits import Limits
    from mjarena.sandbox import Sandbox

    return Limits(time=task.time_limit, memory_mib=task.memory_limit, sandbox=Sandbox.parse(task.sandbox))


def _factory(task: GameTask) -> Any:
    """The match's agent factory: house bots as usual, each team's pinned program with the limits in force for it
    (:class:`~mjarena.contest.sources.Program`: the contest's, or its language's with per-language limits)."""
    from mjarena.agents.botzone_agent import BotzoneAgent
    from mjarena.agents.factory import make_agent
    from mjarena.protocol.process import BotProcess, ProcessTransport

    def factory(spec: str, seat: int, limits: Any, seed: int | None = None, rules: Any = None) -> Any:
        program = task.seats[seat].program
        if program is None:
            return make_agent(spec, seat, limits, seed=seed, rules=rules)
        process = BotProcess(program.argv, time_limit=program.time_limit, memory_limit_mib=program.memory_mib,
                             output_limit=limits.output_bytes, sandbox=limits.sandbox, readable=program.readable,
                             game_budget=program.game_budget, seat=seat)
        return BotzoneAgent(BoxTurns(ProcessTransport(process), seat, order), name=spec, protocol=rules.protocol)

    order: list[int] = []  # the seat whose box ran last in this game (none yet: empty)
    return factory


class BoxTurns:
    """A seat's transport that notes in ``order`` (shared by the game's seats) that its box ran last, and names
    on a :class:`~mjarena.agents.errors.JudgeError` met there the seat (``seat``) and the seat whose box ran last
    before it (``after_seat``, None when none did): what the console shows, so that one team behind repeated
    judge errors is seen.

    >>> from mjarena.agents.errors import JudgeError
    >>> from mjarena.protocol.transport import ScriptedTransport
    >>> order = []
    >>> BoxTurns(ScriptedTransport().expect("x", "PASS"), 2, order).ask("x").response, order
    ('PASS', [2])
    >>> class Failing:
    ...     def ask(self, request): raise JudgeError("the box's init did not answer within 10 s")
    >>> try:
    ...     BoxTurns(Failing(), 0, order).ask("x")
    ... except JudgeError as error:
    ...     print(error.seat, error.after_seat, order)
    0 2 [0]
    """

    def __init__(self, transport: Any, seat: int, order: list[int]) -> None:
        self.transport = transport
        self.seat = seat
        self.order = order

    def ask(self, request: str) -> Any:
        from mjarena.agents.errors import JudgeError

        before = self.order[-1] if self.order else None
        try:
            return self.transport.ask(request)
        except JudgeError as error:  # (its attributes travel with it from a worker: an exception's __dict__ does)
            error.seat, error.after_seat = self.seat, before  # type: ignore[attr-defined]
            raise
        finally:
            self.order[:] = [self.seat]

    def close(self) -> None:
        self.transport.close()


def play_game(task: GameTask) -> dict[str, Any]:
    """Play the game: ``{"game_id", "results": [per seat: seat, team, status, reason, detail, rank, points],
    "replay": <replay JSON text>}``; the replay's ``contest`` part names the game, its players and the machine
    that played it (``node``: its host name, and on a Ray node the start of its node id:
    :func:`~mjarena.arena.node_check.node_name`), and ``"load"``: the answers' waits for a CPU, summed here
    (:meth:`~mjarena.arena.overload.Overload.figures`: the scheduler adds four numbers a game, not a transcript)."""
    from mjarena.arena.match import run_match
    from mjarena.arena.overload import Overload
    from mjarena.contest.live_file import live_writer

    labels = [plan.label for plan in task.seats]
    specs = [label if plan.program is not None else HOUSE_BOT for plan, label in zip(task.seats, labels,
                                                                                      strict=True)]
    watch = None if task.live is None else live_writer(task.live, task.rules, specs)
    try:
        result = run_match(specs, rules=task.rules, seed=task.wall_seed, limits=_limits(task),
                           make_agent=_factory(task), watch=watch)
    finally:
        if watch is not None:
            watch.close()
    replay = within_budget(result.to_json())
    replay["seed"] = None  # the wall is there; its seed, an HMAC of the contest's secret, is the judge's business
    replay["contest"] = {"game": task.game_id, "node": node_name(), "players": [
        {"seat": seat, "team": plan.team, "version": plan.version} for seat, plan in enumerate(task.seats)]}
    results = [
        {"seat": seat.seat, "team": task.seats[seat.seat].team, "status": seat.status, "reason": seat.reason,
         "detail": _relative(seat.detail), "rank": seat.rank, "points": seat.points,
         "peak_mib": seat.peak_mib, **thinking(result.transcripts.get(seat.seat, []))}
        for seat in result.seats
    ]
    # the errors and standard error a bot wrote name its files relative to its folder, not where the server keeps it
    return {"game_id": task.game_id, "results": results, "node": replay["contest"]["node"],
            "load": Overload.of([result.transcripts], task.time_limit).figures(),
            "replay": _BUILD_FOLDER.sub("", json.dumps(replay, ensure_ascii=False))}


_BUILD_FOLDER = re.compile(r"(?:/[^\s/:'\"\\]+)*/builds/[0-9a-f]{6,}/work/")
"""A path to a bot's build folder on the server (``CONTEST/builds/KEY/work/``), as a bot's errors name it."""


def _relative(text: str | None) -> str | None:
    """``text`` with the server's paths to a bot's build folder left out: relative to the bot's folder.

    >>> _relative('File "/tmp/cup/builds/0a1b2c3d4e/work/bot.py", line 3'), _relative(None)
    ('File "bot.py", line 3', None)
    """
    return None if text is None else _BUILD_FOLDER.sub("", text)


def thinking(transcript: list[dict[str, Any]]) -> dict[str, Any]:
    """A seat's thinking in a game, from its transcript: ``{"thinking": seconds, "answers": count}`` (the wall
    time of every answer, as the judge times it against the limits; an in-process house bot has none).

    >>> thinking([{"elapsed_ms": 250.0}, {"elapsed_ms": 1000.5}])
    {'thinking': 1.2505, 'answers': 2}
    """
    return {"thinking": round(sum(line["elapsed_ms"] for line in transcript) / 1000.0, 4),
            "answers": len(transcript)}


def public_replay(replay: Mapping[str, Any], viewer: str | None) -> dict[str, Any]:
    """``replay`` as team ``viewer`` (None: the public) may see it: no seed, no node, other seats' exchanges keep only
    :data:`PUBLIC_EXCHANGE_KEYS`, and their error details lose their standard error."""
    players = {player["seat"]: player["team"] for player in replay.get("contest", {}).get("players", [])}

    def own(seat: int) -> bool:
        return viewer is not None and players.get(seat) == viewer

    shown = dict(replay)
    if "contest" in shown:  # which machine played it is the organiser's business (to find a bad node)
        shown["contest"] = {key: value for key, value in shown["contest"].items() if key != "node"}
    shown["seed"] = None  # (a contest made before secrets kept each wall's seed, from which others followed)
    shown["seats"] = [
        seat if own(seat.get("seat", -1)) else {**seat, "detail": public_detail(seat.get("detail"))}
        for seat in replay.get("seats", [])
    ]
    shown["transcripts"] = {
        key: lines if own(int(key)) else [{k: line.get(k) for k in PUBLIC_EXCHANGE_KEYS} for line in lines]
        for key, lines in replay.get("transcripts", {}).items()
    }
    return shown
