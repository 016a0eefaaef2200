"""Tournaments: Swiss or round-robin rounds of NOI 2014 games, played in parallel, never losing a result.

The schedule is made of pure functions of the tournament seed and of finished results:

* :func:`swiss_tables` — the spec's Swiss system: entrants sorted by total points (ties by a seeded random
  draw, per RULINGS.md), places 1–4, 5–8, … at one table each;
* :func:`round_robin_schedule` — every round seats everyone so that each pair meets about equally often;
* :func:`table_games` — the games at one table: ``games_per_table`` walls, each either played once with the
  seats drawn at random, or (``duplicate``) four times, once per seat rotation, so every bot sits in every seat
  of that wall once.

An entrant count that is not a multiple of 4 is padded with house bots (``builtin:random``, named ``house-1``,
…) that take the last places of a Swiss round; their results are neither scored nor rated nor listed.

Results on disk (``DIR``): ``tournament.json`` (the parameters; a resume with other parameters is refused),
``games.jsonl`` (one line per finished game, appended and fsync'ed at once), ``replays/<game id>.json``,
``standings.json`` and ``standings.csv``.  Running again on the same ``DIR`` plays only the games that are not
in ``games.jsonl``: game ids are ``r<round>-t<table>-g<game>``, walls and seats derive from the seed, and round
``r + 1`` of a Swiss tournament depends only on the results of rounds ``<= r``, so the schedule comes out the
same.  Results are applied in game-id order, never in completion order, so the executor and the number of
workers change nothing but the speed.

A game the judge fails (:class:`~mjarena.agents.errors.JudgeError`: a bot's box that cannot start, its build
gone) is never recorded as a bot's ``crash``: the run stops with that error (``mjarena tournament`` says the judge
failed and exits with status 3), the finished games kept, and running again plays the rest.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import random
import re
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from mjarena.agents.errors import JudgeError
from mjarena.arena.draws import Draws, as_draws, derive_seed
from mjarena.files import sync_files, write_atomically
from mjarena.sandbox import DEFAULT_SANDBOX, Sandbox
from mjarena.untrusted import excerpt, parse_json

if TYPE_CHECKING:
    from mjarena.arena.executors import Executor

__all__ = [
    "ERROR_KINDS",
    "FORMATS",
    "HOUSE_SPEC",
    "Entrant",
    "GameTask",
    "Seating",
    "Settings",
    "Tally",
    "Tournament",
    "TournamentError",
    "check_records",
    "compute_standings",
    "default_rounds",
    "derive_seed",
    "format_standings",
    "game_id",
    "house_names",
    "load_records",
    "parse_bot",
    "play_game",
    "read_records",
    "read_tournament",
    "round_robin_schedule",
    "round_tables",
    "run_tournament",
    "swiss_tables",
    "table_games",
]

FORMATS = ("swiss", "round-robin")
HOUSE_SPEC = "builtin:random"
HOUSE_PREFIX = "house-"
ERROR_KINDS = ("timeout", "crash", "memory", "output_limit", "bad_output", "illegal_action", "false_hu")
TABLE = 4
_NAME = re.compile(r"[A-Za-z0-9_.+-]{1,64}")
_ATTEMPTS = 24  # random starts per round-robin round, each improved by swaps


class TournamentError(ValueError):
    """Bad tournament parameters, or a DIR that holds another tournament."""


_PARAMETERS: dict[str, tuple[type, ...]] = {
    "rules": (str,), "format": (str,), "rounds": (int,), "games_per_table": (int,), "duplicate": (bool,),
    "seed": (int, type(None)), "time_limit": (float, int), "memory_limit": (int,), "bots": (list,),
}
"""The keys every ``tournament.json`` has in its parameters, and their JSON types (exactly: true is no integer)."""


# -- parameters ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """A bot in the tournament: a unique name and its SPEC (``builtin:NAME`` or a command line)."""

    name: str
    spec: str


def parse_bot(text: str) -> Entrant:
    """``NAME=SPEC`` as given to ``--bot``.

    >>> parse_bot("greedy=builtin:greedy")
    Entrant(name='greedy', spec='builtin:greedy')
    """
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep or not _NAME.fullmatch(name) or not spec:
        raise TournamentError(f"--bot {text!r}: expected NAME=SPEC (NAME of letters, digits, _ . + -)")
    if name.startswith(HOUSE_PREFIX):
        raise TournamentError(f"--bot {text!r}: names starting with {HOUSE_PREFIX!r} are kept for house bots")
    return Entrant(name, spec)


def house_names(count: int) -> list[str]:
    """The house bots that pad ``count`` entrants to a multiple of 4.

    >>> house_names(5), house_names(8)
    (['house-1', 'house-2', 'house-3'], [])
    """
    return [f"{HOUSE_PREFIX}{i}" for i in range(1, (-count) % TABLE + 1)]


def default_rounds(count: int) -> int:
    """Enough rounds for every entrant to be able to meet every other once: ``ceil((padded - 1) / 3)``.

    >>> default_rounds(4), default_rounds(8), default_rounds(5)
    (1, 3, 3)
    """
    padded = count + len(house_names(count))
    return max(1, math.ceil((padded - 1) / (TABLE - 1)))


@dataclass(frozen=True)
class Settings:
    """Everything that decides the games of a tournament (stored in ``tournament.json``).

    How the games are run (executor, workers) is not part of it: it changes nothing in the results.
    """

    bots: tuple[Entrant, ...]
    format: str = "swiss"
    rounds: int = 1
    games_per_table: int = 1
    duplicate: bool = False
    seed: int | None = 0  # None: the walls come from the secret in DIR/secret (SECRET_FILE), never stored here
    rules: str = "noi2014"
    time_limit: float = 1.0
    memory_limit: int = 256
    toolchains: str | None = None  # the user's toolchain table for source-file entrants (absolute path)
    language_limits: bool = False  # each language's time factor and memory from that table
    game_budget: float | None = None  # a seat's thinking seconds per game (None: 30 times the time limit)
    secret: bytes | None = field(default=None, repr=False, compare=False)  # with seed None: read from DIR/secret

    @property
    def draws(self) -> Draws:
        """Where the walls, seats and draws come from: the public seed, or the secret of a seedless run."""
        if self.seed is not None:
            return Draws.public(self.seed)
        if self.secret is None:
            raise TournamentError("this tournament's walls come from its secret (DIR/secret), which is not loaded")
        return Draws.secret(self.secret)

    @classmethod
    def create(
        cls,
        bots: Sequence[Entrant],
        *,
        format: str = "swiss",
        rounds: int | None = None,
        games_per_table: int = 1,
        duplicate: bool = False,
        seed: int | None = 0,
        rules: str = "noi2014",
        time_limit: float = 1.0,
        memory_limit: int = 256,
        toolchains: str | None = None,
        language_limits: bool = False,
        secret: bytes | None = None,
        game_budget: float | None = None,
    ) -> Settings:
        """Checked settings; ``rounds`` defaults to :func:`default_rounds`; ``seed`` None: the walls come from
        ``secret`` (read from or written to ``DIR/secret`` by :class:`Tournament`)."""
        from mjarena.rulesets import judge_rules

        try:
            judge = judge_rules(rules)
        except KeyError as error:
            raise TournamentError(f"--rules {rules}: {error.args[0]}") from None
        rules = judge.name
        if format not in FORMATS:
            raise TournamentError(f"--format {format}: expected one of {', '.join(FORMATS)}")
        if len(bots) < 2:
            raise TournamentError(f"a tournament needs at least 2 bots, got {len(bots)}")
        names = [bot.name for bot in bots]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise TournamentError(f"bot names must be unique: {', '.join(duplicates)} given twice")
        from mjarena.agents.factory import BotSpecError, check_spec

        for bot in bots:
            try:
                check_spec(bot.spec, judge)
            except BotSpecError as error:
                raise TournamentError(f"--bot {bot.name}: {error}") from None
        rounds = default_rounds(len(bots)) if rounds is None else rounds
        if rounds < 1 or games_per_table < 1:
            raise TournamentError("--rounds and --games-per-table must be at least 1")
        from mjarena.limits import check_budget, check_limits

        try:
            check_limits(time_limit, memory_limit)
            check_budget(game_budget)
        except ValueError as error:
            raise TournamentError(str(error)) from None
        return cls(tuple(bots), format, rounds, games_per_table, duplicate, seed, rules, time_limit,
                   memory_limit, toolchains, language_limits, game_budget, secret)

    def to_json(self) -> dict[str, Any]:
        """The parameters as stored in ``tournament.json``."""
        return {
            "rules": self.rules, "format": self.format, "rounds": self.rounds,
            "games_per_table": self.games_per_table, "duplicate": self.duplicate, "seed": self.seed,
            "time_limit": self.time_limit, "memory_limit": self.memory_limit,
            **({"toolchains": self.toolchains} if self.toolchains else {}),
            **({"language_limits": True} if self.language_limits else {}),
            **({"game_budget": self.game_budget} if self.game_budget is not None else {}),
            "bots": [{"name": bot.name, "spec": bot.spec} for bot in self.bots],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        """Read back :meth:`to_json`."""
        return cls(
            tuple(Entrant(bot["name"], bot["spec"]) for bot in data["bots"]), data["format"], int(data["rounds"]),
            int(data["games_per_table"]), bool(data["duplicate"]),
            None if data["seed"] is None else int(data["seed"]), data["rules"],
            float(data["time_limit"]), int(data["memory_limit"]), data.get("toolchains"),
            bool(data.get("language_limits", False)),
            None if data.get("game_budget") is None else float(data["game_budget"]),
        )

    @property
    def names(self) -> list[str]:
        """The entrants' names, in the order given."""
        return [bot.name for bot in self.bots]

    @property
    def tables(self) -> int:
        """Tables per round (house bots included)."""
        return (len(self.bots) + len(house_names(len(self.bots)))) // TABLE

    @property
    def games_at_table(self) -> int:
        """Games per table and round: one per wall, or four (one per seat rotation) with ``duplicate``."""
        return self.games_per_table * (TABLE if self.duplicate else 1)

    @property
    def total_games(self) -> int:
        """Games in the whole tournament."""
        return self.rounds * self.tables * self.games_at_table


# -- scheduling (pure functions) -----------------------------------------------------------------------


def game_id(round_no: int, table: int, number: int) -> str:
    """``r001-t002-g003``: sorts in play order (round, table, game).

    >>> game_id(1, 2, 3)
    'r001-t002-g003'
    """
    return f"r{round_no:03d}-t{table:03d}-g{number:03d}"


def swiss_tables(names: Sequence[str], points: Mapping[str, float], rng: random.Random,
                 house_meetings: Mapping[str, int] | None = None) -> list[tuple[str, ...]]:
    """One Swiss round: sort by total points (highest first; ties by a random draw from ``rng``), then seat
    places 1–4, 5–8, … together; house bots pad the last table.

    With ``house_meetings`` (how often each entrant has sat with house bots), the entrants of the house bots'
    table are those that sat with them least (ties: the lowest placed), so that seat rotates instead of being
    the fixed lot of the last placed; the others are seated by places as before.

    >>> swiss_tables(list("abcdefgh"), {"h": 9, "g": 8, "f": 7, "e": 6, "d": 5, "c": 4}, random.Random(1))
    [('h', 'g', 'f', 'e'), ('d', 'c', 'a', 'b')]
    >>> swiss_tables(list("abcde"), {"a": 5, "b": 4, "c": 3, "d": 2, "e": 1}, random.Random(1),
    ...              {"e": 2, "d": 1, "c": 1, "b": 0, "a": 0})
    [('a', 'c', 'd', 'e'), ('b', 'house-1', 'house-2', 'house-3')]
    """
    draw = {name: rng.random() for name in names}
    order = sorted(names, key=lambda name: (-points.get(name, 0.0), draw[name]))
    house = house_names(len(names))
    if house and house_meetings is not None:
        place = {name: index for index, name in enumerate(order)}
        seated = TABLE - len(house)
        with_house = sorted(order, key=lambda name: (house_meetings.get(name, 0), -place[name]))[:seated]
        order = [name for name in order if name not in with_house] + sorted(with_house, key=place.__getitem__)
    order += house
    return [tuple(order[i:i + TABLE]) for i in range(0, len(order), TABLE)]


def round_robin_schedule(names: Sequence[str], rounds: int, seed: int | Draws) -> list[list[tuple[str, ...]]]:
    """``rounds`` rounds of tables of 4 (house bots pad the count) in which every pair meets about equally
    often: each round is the cheapest of several seeded random seatings improved by swaps, where a pair that
    has met ``k`` times costs ``4 ** k`` (so a third meeting is avoided before a second one; meetings with house
    bots are free: they are not scored); then the whole schedule is evened out (:func:`_balance`).

    >>> schedule = round_robin_schedule(list("abcd"), 2, seed=1)
    >>> [sorted(table) for round_ in schedule for table in round_]
    [['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'd']]
    """
    players = list(names) + house_names(len(names))
    rng = random.Random(as_draws(seed)("round-robin"))
    meetings = _Meetings(players, rounds)
    schedule: list[list[list[int]]] = []
    for _ in range(rounds):
        best: list[list[int]] | None = None
        best_cost = 0
        for _attempt in range(_ATTEMPTS if len(players) > TABLE else 1):
            order = list(range(len(players)))
            rng.shuffle(order)
            tables = meetings.improve([order[i:i + TABLE] for i in range(0, len(order), TABLE)])
            cost = sum(meetings.cost(table) for table in tables)
            if best is None or cost < best_cost:
                best, best_cost = tables, cost
        assert best is not None
        for table in best:
            meetings.seat(table)
        schedule.append(best)
    _balance(schedule, meetings, rng)
    return [[tuple(players[player] for player in table) for table in round_] for round_ in schedule]


class _Meetings:
    """How often each pair of players has met, over players numbered 0..n-1 (a flat n x n table), the cost of a
    table, and what swapping two players of different tables would change; house bots count for nothing."""

    def __init__(self, names: Sequence[str], rounds: int) -> None:
        self.size = len(names)
        self.house = [name.startswith(HOUSE_PREFIX) for name in names]
        self.count = [0] * (self.size * self.size)
        power = self.power = [4 ** (k - 1) for k in range(rounds + 3)]
        """``power[k + 1] == 4 ** k`` for k from -1 (0.25) to ``rounds + 1``: the cost of a pair that met k times."""
        met = range(rounds + 1)
        self.unseated = ([-power[k + 1] for k in met], [power[k + 1] for k in met])
        """The costs for :meth:`swap_change` between tables not counted yet (:meth:`cost` of the two)."""
        self.seated = ([power[k] - power[k + 1] for k in met], [power[k + 2] - power[k + 1] for k in met])
        """The costs for :meth:`swap_change` between seated tables (the whole ``sum(4 ** meetings)``)."""

    def seat(self, table: Sequence[int]) -> None:
        """Count one meeting of every pair at ``table``."""
        count, size = self.count, self.size
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                count[a * size + b] += 1
                count[b * size + a] += 1

    def cost(self, table: Sequence[int]) -> int:
        """``sum(4 ** meetings)`` over the pairs of scored players at ``table``."""
        count, size, power = self.count, self.size, self.power
        players = [player for player in table if not self.house[player]]
        return sum(power[count[a * size + b] + 1] for i, a in enumerate(players) for b in players[i + 1:])

    def improve(self, tables: list[list[int]]) -> list[list[int]]:
        """Swap players between tables while a swap lowers the cost of the two (a deterministic hill climb)."""
        change, costs = self.swap_change, self.unseated
        improved = True
        while improved:
            improved = False
            for i in range(len(tables)):
                for j in range(i + 1, len(tables)):
                    first, second = tables[i], tables[j]
                    for x in range(TABLE):
                        for y in range(TABLE):
                            if change(first, x, second, y, costs) < 0:
                                first[x], second[y] = second[y], first[x]
                                improved = True
        return tables

    def swap_change(self, first: list[int], x: int, second: list[int], y: int,
                    costs: tuple[Sequence[float], Sequence[float]]) -> float:
        """The change in cost if ``first[x]`` and ``second[y]`` swapped tables: a and b sit at different tables, so
        only the pairs of a or b with the others of the two tables change, each parting or meeting once (``costs``:
        what a pair that has met k times adds when it parts, ``costs[0][k]``, and when it meets, ``costs[1][k]``).
        Sums of multiples of 1/4: exact in any order."""
        part, meet = costs
        a, b = first[x], second[y]
        house, count, size = self.house, self.count, self.size
        change: float = 0
        for player, mate, old, new in ((a, b, first, second), (b, a, second, first)):
            if house[player]:
                continue
            row = player * size
            for other in old:
                if other != player and not house[other]:
                    change += part[count[row + other]]
            for other in new:
                if other != mate and not house[other]:
                    change += meet[count[row + other]]
        return change

    def apply(self, first: list[int], x: int, second: list[int], y: int) -> None:
        """Swap ``first[x]`` and ``second[y]`` and count the meetings this changes."""
        a, b = first[x], second[y]
        house, count, size = self.house, self.count, self.size
        for player, old, new in ((a, first, second), (b, second, first)):
            if house[player]:
                continue
            for others, step in ((old, -1), (new, 1)):
                for other in others:
                    if other != a and other != b and not house[other]:
                        count[player * size + other] += step
                        count[other * size + player] += step
        first[x], second[y] = b, a


def _balance(schedule: list[list[list[int]]], meetings: _Meetings, rng: random.Random) -> None:
    """Even the meeting counts out over the whole schedule: seeded simulated annealing on swaps of two players
    of different tables in one round (round by round choices paint themselves into corners), then swaps while
    any one still lowers the cost.

    The draws are those of ``rng.randrange(n)`` and ``rng.sample(range(n), 2)``, made through
    ``Random._randbelow`` as both do (three times faster; ``tests/data/round_robin_schedules.json`` holds
    schedules made with the public calls, and the tests check they come out the same)."""
    if len(schedule[0]) < 2:
        return
    change, costs, apply = meetings.swap_change, meetings.seated, meetings.apply
    below, uniform = rng._randbelow, rng.random  # type: ignore[attr-defined]
    rounds, tables_per_round = len(schedule), len(schedule[0])
    steps = 4000 * tables_per_round
    for step in range(steps):
        temperature = 8.0 * (0.005 ** (step / steps))
        tables = schedule[below(rounds)]
        i, j = _two_of(tables_per_round, below)
        x, y = below(TABLE), below(TABLE)
        delta = change(tables[i], x, tables[j], y, costs)
        if delta <= 0 or uniform() < math.exp(-delta / temperature):
            apply(tables[i], x, tables[j], y)
    improved = True
    while improved:
        improved = False
        for tables in schedule:
            for i in range(len(tables)):
                for j in range(i + 1, len(tables)):
                    for x in range(TABLE):
                        for y in range(TABLE):
                            if change(tables[i], x, tables[j], y, costs) < 0:
                                apply(tables[i], x, tables[j], y)
                                improved = True


def _two_of(n: int, below: Callable[[int], int]) -> tuple[int, int]:
    """``random.sample(range(n), 2)`` with ``below = rng._randbelow``: the same two numbers from the same draws
    (CPython's ``sample`` takes them from a pool for ``n <= 21`` and by rejection above)."""
    if n <= 21:
        first = below(n)
        second = below(n - 1)
        return first, (n - 1 if second == first else second)
    first = below(n)
    second = below(n)
    while second == first:
        second = below(n)
    return first, second


@dataclass(frozen=True)
class Seating:
    """One game at a table: its number there (from 1), the names in seats 0..3, the wall's seed, and the seat
    rotation (0..3) of a duplicate wall (None otherwise)."""

    number: int
    seats: tuple[str, ...]
    wall_seed: int
    rotation: int | None = None


def table_games(
    players: Sequence[str], *, seed: int | Draws, round_no: int, table: int, games_per_table: int, duplicate: bool
) -> list[Seating]:
    """The games at one table.  Each of the ``games_per_table`` walls gets a seeded random seating; with
    ``duplicate`` the wall is played four times, the seating rotated by one each time, so that every player
    sits in every seat of that wall exactly once.

    >>> games = table_games("abcd", seed=1, round_no=1, table=1, games_per_table=1, duplicate=True)
    >>> sorted(game.seats.index("a") for game in games), len({game.wall_seed for game in games})
    ([0, 1, 2, 3], 1)
    """
    draws = as_draws(seed)
    games: list[Seating] = []
    for wall in range(games_per_table):
        wall_seed = draws("wall", round_no, table, wall)
        base = list(players)
        random.Random(draws("seats", round_no, table, wall)).shuffle(base)
        if duplicate:
            for rotation in range(TABLE):
                seats = tuple(base[(seat + rotation) % TABLE] for seat in range(TABLE))
                games.append(Seating(len(games) + 1, seats, wall_seed, rotation))
        else:
            games.append(Seating(len(games) + 1, tuple(base), wall_seed))
    return games


# -- one game (runs in a worker) -----------------------------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game (picklable)."""

    game_id: str
    round: int
    table: int
    number: int
    wall_seed: int
    rotation: int | None
    names: tuple[str, ...]
    specs: tuple[str, ...]
    time_limit: float
    memory_limit: int
    replay_path: str | None  # the worker writes the replay there; None: it returns the replay instead
    rules: str = "noi2014"
    sandbox: Sandbox = DEFAULT_SANDBOX
    toolchains: str | None = None
    language_limits: bool = False
    sync_replay: bool = True  # False: the caller fsyncs the replay (Tournament.run does, a batch at a time)
    game_budget: float | None = None  # a seat's thinking seconds per game (None: 30 times the time limit)

    def __str__(self) -> str:
        return self.game_id


def play_game(task: GameTask) -> dict[str, Any]:
    """Play one game: ``{"record": <the games.jsonl line>}``, plus ``"replay"`` when ``replay_path`` is None."""
    from mjarena.arena.match import run_match
    from mjarena.limits import Limits
    from mjarena.replay import save

    result = run_match(list(task.specs), rules=task.rules, seed=task.wall_seed,
                       limits=Limits(time=task.time_limit, memory_mib=task.memory_limit, sandbox=task.sandbox,
                                     toolchains=task.toolchains, language_limits=task.language_limits,
                                     game_budget=task.game_budget))
    house = {name for name in task.names if name.startswith(HOUSE_PREFIX)}
    record = {
        "game": task.game_id, "round": task.round, "table": task.table, "number": task.number,
        "wall_seed": task.wall_seed, "rotation": task.rotation, "bots": list(task.names),
        "results": [
            {"seat": seat.seat, "bot": task.names[seat.seat], "house": task.names[seat.seat] in house,
             "status": seat.status, "reason": seat.reason, "detail": seat.detail, "rank": seat.rank,
             "points": seat.points}
            for seat in result.seats
        ],
    }
    replay = result.to_json()
    replay["tournament"] = {key: record[key] for key in ("game", "round", "table", "number", "bots")}
    if task.replay_path is not None:
        save(replay, task.replay_path, sync=task.sync_replay)
        return {"record": record}
    return {"record": record, "replay": replay}


# -- standings -----------------------------------------------------------------------------------------


def compute_standings(settings: Settings, records: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The table: one row per entrant (house bots left out) with ``rank``, ``bot``, ``spec``, ``games``,
    ``points``, ``average_rank``, ``rating`` (OpenSkill ordinal), ``mu``, ``sigma`` and ``errors`` (kind ->
    games).  Games are applied in game-id order; rows are sorted by points, then rating, then name."""
    tally = Tally(settings)
    tally.extend(records)
    return tally.rows()


class Tally:
    """The standings of a growing set of games, taken in game-id order (:func:`compute_standings` in steps).

    A tournament reports its standings after every round; a tally carried from round to round rates each game
    once instead of every game again at every report (the ratings are the work: a tenth of a millisecond a game).
    :meth:`extend` takes the games not yet counted, all of which must come after the last one counted.
    """

    def __init__(self, settings: Settings) -> None:
        from mjarena.arena.ratings import Ratings

        self.settings = settings
        self._stats: dict[str, dict[str, Any]] = {
            name: {"games": 0, "points": 0.0, "rank_sum": 0, "errors": {}} for name in settings.names
        }
        self._ratings = Ratings(settings.names)
        self.counted: list[str] = []
        """The game ids counted, in order."""
        self._by_round: dict[str, list[tuple[int, float, float]]] = {name: [] for name in settings.names}
        self._round = 0  # the round of the last game counted (0: none yet)
        self._snapshot(0)

    def can_extend(self, records: Mapping[str, Any]) -> bool:
        """Whether ``records`` holds every game counted and only later games besides (else: a fresh tally)."""
        counted = self.counted
        if not counted:
            return True
        last = counted[-1]
        return sum(1 for gid in records if gid <= last) == len(counted) and all(gid in records for gid in counted)

    def extend(self, records: Mapping[str, Mapping[str, Any]]) -> None:
        """Count the games of ``records`` not counted yet (see :meth:`can_extend`)."""
        last = self.counted[-1] if self.counted else None
        stats, ratings = self._stats, self._ratings
        for gid in sorted(gid for gid in records if last is None or gid > last):
            round_no = records[gid].get("round")
            if type(round_no) is int and round_no != self._round:
                if self._round:
                    self._snapshot(self._round)  # the ratings at the end of the round before
                self._round = round_no
            ranks: dict[str, int] = {}
            for seat in records[gid]["results"]:
                name = seat["bot"]
                if seat["house"] or name not in stats:
                    continue
                row = stats[name]
                row["games"] += 1
                row["points"] += seat["points"]
                row["rank_sum"] += seat["rank"]
                if seat["status"] == "error":
                    kind = seat["reason"] or "error"
                    row["errors"][kind] = row["errors"].get(kind, 0) + 1
                ranks[name] = seat["rank"]
            ratings.update(ranks)
            self.counted.append(gid)

    def _rating(self, name: str, round_no: int) -> tuple[int, float, float]:
        return round_no, round(self._ratings.mu(name), 4), round(self._ratings.sigma(name), 4)

    def _snapshot(self, round_no: int) -> None:
        for name, history in self._by_round.items():
            history.append(self._rating(name, round_no))

    def ratings_by_round(self) -> dict[str, list[tuple[int, float, float]]]:
        """Each entrant's ``(round, mu, sigma)`` before the first game (round 0) and after each round counted
        so far (the last one as it stands), from the one pass that rates the games for :meth:`rows`."""
        return {name: [*history, self._rating(name, self._round)] if self._round else list(history)
                for name, history in self._by_round.items()}

    def rows(self) -> list[dict[str, Any]]:
        """The table of the games counted so far."""
        specs = {bot.name: bot.spec for bot in self.settings.bots}
        ratings = self._ratings
        rows = []
        for name in self.settings.names:
            row = self._stats[name]
            rows.append({
                "bot": name, "spec": specs[name], "games": row["games"], "points": row["points"],
                "average_rank": round(row["rank_sum"] / row["games"], 4) if row["games"] else None,
                "rating": round(ratings.ordinal(name), 4), "mu": round(ratings.mu(name), 4),
                "sigma": round(ratings.sigma(name), 4), "errors": dict(sorted(row["errors"].items())),
            })
        rows.sort(key=lambda row: (-row["points"], -row["rating"], row["bot"]))
        return [{"rank": place, **row} for place, row in enumerate(rows, 1)]


def _errors_text(errors: Mapping[str, int]) -> str:
    return ", ".join(f"{kind} {count}" for kind, count in errors.items()) or "-"


def format_standings(rows: Sequence[Mapping[str, Any]]) -> str:
    """The table as text: rank, bot, games, points, average rank, rating, errors by kind."""
    header = ("rank", "bot", "games", "points", "avg rank", "rating", "errors")
    lines = [header]
    for row in rows:
        average = "-" if row["average_rank"] is None else f"{row['average_rank']:.2f}"
        lines.append((str(row["rank"]), row["bot"], str(row["games"]), f"{row['points']:g}", average,
                      f"{row['rating']:.2f}", _errors_text(row["errors"])))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    right = {0, 2, 3, 4, 5}
    text = [
        "  ".join(cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in enumerate(zip(line, widths,
                                                                                                    strict=True)))
        .rstrip()
        for line in lines
    ]
    text.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(text)


def _standings_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "bot", "spec", "games", "points", "average_rank", "rating", "mu", "sigma", "errors",
                     *(f"errors_{kind}" for kind in ERROR_KINDS)])
    for row in rows:
        errors = row["errors"]
        writer.writerow([row["rank"], row["bot"], row["spec"], row["games"], row["points"],
                         "" if row["average_rank"] is None else row["average_rank"], row["rating"], row["mu"],
                         row["sigma"], sum(errors.values()), *(errors.get(kind, 0) for kind in ERROR_KINDS)])
    return out.getvalue()


# -- the directory -------------------------------------------------------------------------------------


def _has_games(path: Path) -> bool:
    """Whether ``games.jsonl`` at ``path`` holds anything but white space."""
    try:
        with open(path, "rb") as games:
            return any(line.strip() for line in games)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise TournamentError(f"{path}: cannot read: {error.strerror or error}") from None


_RESULT_KEYS: dict[str, tuple[type, ...]] = {
    "seat": (int,), "bot": (str,), "house": (bool,), "status": (str,), "reason": (str, type(None)),
    "rank": (int,), "points": (int, float),
}
_RECORD_KEYS: dict[str, tuple[type, ...]] = {
    "game": (str,), "round": (int,), "table": (int,), "number": (int,), "wall_seed": (int,),
    "rotation": (int, type(None)), "bots": (list,), "results": (list,),
}
_GAME_ID = re.compile(r"r(\d{3})-t(\d{3})-g(\d{3})")


def _record_problem(record: Any) -> str | None:
    """What is wrong with one parsed line of ``games.jsonl`` as a game record, or None."""
    if not isinstance(record, dict):
        return "not a JSON object"
    for key, types in _RECORD_KEYS.items():
        if type(record.get(key)) not in types:
            return f"{key!r} is missing or {excerpt(json.dumps(record.get(key)), 30)}"
    match = _GAME_ID.fullmatch(record["game"])
    if match is None or tuple(map(int, match.groups())) != (record["round"], record["table"], record["number"]):
        return f"game id {excerpt(record['game'], 30)} does not match its round, table and number"
    bots = record["bots"]
    if len(bots) != TABLE or not all(type(name) is str for name in bots):
        return f"{len(bots)} bots, not {TABLE} names"
    results = record["results"]
    if len(results) != TABLE or not all(isinstance(seat, dict) for seat in results):
        return f"{len(results)} results, not one object per seat"
    for index, seat in enumerate(results):
        for key, types in _RESULT_KEYS.items():
            value = seat.get(key)
            if type(value) not in types or (type(value) is float and not math.isfinite(value)):
                return f"seat {index}: {key!r} is missing or {excerpt(json.dumps(value), 30)}"
        if seat["seat"] != index or seat["bot"] != bots[index] or seat["house"] != bots[index].startswith(HOUSE_PREFIX):
            return f"seat {index}: its seat, bot or house flag does not match \"bots\""
        if seat["status"] not in ("won", "in", "error") or not 1 <= seat["rank"] <= TABLE:
            return f"seat {index}: status {excerpt(seat['status'], 20)}, rank {seat['rank']}"
    return None


def read_records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The finished games in ``games.jsonl``, each with its line number, in file order.

    A last line cut short by a crash is dropped from the file (it was never acknowledged), so that the next line
    appended starts on a line of its own.  Any other line that is not a game record (not UTF-8, not JSON, a key
    missing or of the wrong type), and a game id seen before, are refused: :class:`TournamentError`
    ``"FILE:LINE: what"``; the file was changed by something else than the tournament.
    """
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as error:
        raise TournamentError(f"{path}: cannot read: {error.strerror or error}") from None
    end = raw.rfind(b"\n") + 1
    if end != len(raw):
        with open(path, "r+b") as fix:
            fix.truncate(end)
            fix.flush()
            os.fsync(fix.fileno())
    numbered: list[tuple[int, dict[str, Any]]] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(raw[:end].split(b"\n")[:-1], 1):
        if not line.strip():
            continue
        try:
            record = parse_json(line.decode("utf-8"))
        except UnicodeDecodeError:
            raise TournamentError(f"{path}:{number}: not UTF-8 text") from None
        except ValueError as error:
            raise TournamentError(f"{path}:{number}: not a game record ({error})") from None
        problem = _record_problem(record)
        if problem is not None:
            raise TournamentError(f"{path}:{number}: not a game record: {problem}")
        first = seen.setdefault(record["game"], number)
        if first != number:
            raise TournamentError(f"{path}:{number}: game {record['game']} again (first on line {first})")
        numbered.append((number, record))
    return numbered


def load_records(path: Path) -> dict[str, dict[str, Any]]:
    """The finished games in ``games.jsonl``, by game id (see :func:`read_records`)."""
    return {record["game"]: record for _, record in read_records(path)}


def round_tables(settings: Settings, round_no: int, records: Mapping[str, Mapping[str, Any]],
                 round_robin: Sequence[Sequence[tuple[str, ...]]] | None = None) -> list[tuple[str, ...]]:
    """The tables of round ``round_no``: from ``round_robin`` (the schedule; computed when None), or Swiss from
    the points in ``records`` of the rounds before it."""
    if settings.format == "round-robin":
        if round_robin is None:
            round_robin = round_robin_schedule(settings.names, settings.rounds, settings.draws)
        return list(round_robin[round_no - 1])
    points: dict[str, float] = {}
    for gid in sorted(records):
        if records[gid]["round"] < round_no:
            for seat in records[gid]["results"]:
                if not seat["house"]:
                    points[seat["bot"]] = points.get(seat["bot"], 0.0) + seat["points"]
    return swiss_tables(settings.names, points, random.Random(settings.draws("swiss", round_no)))


def check_records(settings: Settings, numbered: Sequence[tuple[int, dict[str, Any]]], path: Path,
                  round_robin: Sequence[Sequence[tuple[str, ...]]] | None = None) -> dict[str, dict[str, Any]]:
    """The records by game id, once each is shown to be a game of this tournament's schedule: its id, seats
    (which entrant sat where), wall and rotation as the seed and the earlier rounds give them, and for Swiss,
    every game of the rounds before it present.  :class:`TournamentError` ``"FILE:LINE: what"`` otherwise."""
    by_round: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for number, record in numbered:
        if not 1 <= record["round"] <= settings.rounds:
            raise TournamentError(f"{path}:{number}: game {record['game']} of round {record['round']}; this "
                                  f"tournament has {settings.rounds} round(s)")
        by_round.setdefault(record["round"], []).append((number, record))
    if by_round and settings.format == "round-robin" and round_robin is None:
        round_robin = round_robin_schedule(settings.names, settings.rounds, settings.draws)
    records: dict[str, dict[str, Any]] = {}
    for round_no in sorted(by_round):
        first = by_round[round_no][0][0]
        before = (round_no - 1) * settings.tables * settings.games_at_table
        if settings.format == "swiss" and len(records) != before:
            raise TournamentError(f"{path}:{first}: a game of round {round_no}, but only {len(records)} of the "
                                  f"{before} games before it are here")
        scheduled = {
            game_id(round_no, table, game.number): game
            for table, players in enumerate(round_tables(settings, round_no, records, round_robin), 1)
            for game in table_games(players, seed=settings.draws, round_no=round_no, table=table,
                                    games_per_table=settings.games_per_table, duplicate=settings.duplicate)
        }
        for number, record in by_round[round_no]:
            game = scheduled.get(record["game"])
            if game is None:
                raise TournamentError(f"{path}:{number}: game {record['game']} is not in this tournament's schedule")
            if (tuple(record["bots"]), record["wall_seed"], record["rotation"]) != (
                game.seats, game.wall_seed, game.rotation
            ):
                raise TournamentError(
                    f"{path}:{number}: game {record['game']} has seats {', '.join(record['bots'])}; this "
                    f"tournament's schedule seats {', '.join(game.seats)} (or its wall differs)"
                )
            records[record["game"]] = record
    return records


def read_settings(out_dir: Path) -> Settings:
    """The settings in ``out_dir/tournament.json``; :class:`TournamentError` naming the file and the problem."""
    from mjarena.limits import check_limits

    meta = out_dir / "tournament.json"
    try:
        text = meta.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise TournamentError(f"{out_dir}: no tournament here (no tournament.json)") from None
    except OSError as error:
        raise TournamentError(f"{meta}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise TournamentError(f"{meta}: not UTF-8 text") from None
    try:
        data = parse_json(text)
        if not isinstance(data, dict) or not isinstance(data.get("parameters"), dict):
            raise TournamentError('not a tournament (no "parameters" object)')
        parameters = data["parameters"]
        for key, types in _PARAMETERS.items():
            if key not in parameters or type(parameters[key]) not in types:
                raise TournamentError(f'"{key}" is missing or {excerpt(json.dumps(parameters.get(key)), 40)}')
        for number, bot in enumerate(parameters["bots"], 1):
            if not isinstance(bot, dict) or type(bot.get("name")) is not str or type(bot.get("spec")) is not str:
                raise TournamentError(f'bot {number} is not {{"name": NAME, "spec": SPEC}}')
            parse_bot(f"{bot['name']}={bot['spec']}")  # a name that a --bot could have given
        check_limits(parameters["time_limit"], parameters["memory_limit"])
        stored = Settings.from_json(parameters)
        if stored.seed is None:
            stored = replace(stored, secret=read_secret(out_dir))
        return Settings.create(stored.bots, **{field.name: getattr(stored, field.name) for field in fields(Settings)
                                               if field.name != "bots"})  # checked as a new one is
    except ValueError as error:  # TournamentError included
        raise TournamentError(f"{meta}: {error}") from None


SECRET_FILE = "secret"
"""The file of ``DIR`` that holds a seedless tournament's secret (hex digits; only its owner may read it)."""


def read_secret(out_dir: Path) -> bytes:
    """The secret in ``out_dir/secret``; :class:`TournamentError` naming the file when it is missing or bad."""
    from mjarena.arena.draws import parse_secret

    path = out_dir / SECRET_FILE
    try:
        return parse_secret(path.read_text(encoding="ascii"))
    except FileNotFoundError:
        raise TournamentError(f"{path}: missing: this tournament's walls come from the secret kept there") from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise TournamentError(f"{path}: cannot read the secret: {error}") from None


def write_secret(out_dir: Path, secret: bytes) -> None:
    """Keep ``secret`` in ``out_dir/secret``, readable by its owner only."""
    path = out_dir / SECRET_FILE
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(secret.hex() + "\n")
        file.flush()
        os.fsync(file.fileno())


def read_tournament(out_dir: str | Path) -> tuple[Settings, dict[str, dict[str, Any]]]:
    """The settings and finished games of the tournament in ``out_dir``, both checked (:func:`read_settings`,
    :func:`read_records`, :func:`check_records`)."""
    out_dir = Path(out_dir)
    settings = read_settings(out_dir)
    path = out_dir / "games.jsonl"
    return settings, check_records(settings, read_records(path), path)


class Tournament:
    """A tournament bound to its directory: opening it checks or writes ``tournament.json`` and reads the
    games already finished; :meth:`run` plays the rest."""

    def __init__(
        self, settings: Settings, out_dir: str | Path, *, seed_given: bool = True, sandbox: Sandbox = DEFAULT_SANDBOX
    ) -> None:
        """``seed_given=False``: take the seed stored in an existing ``DIR`` (a fresh ``DIR`` keeps
        ``settings.seed``).  A seed of None: the walls come from a random secret, made now in ``DIR/secret``
        for a fresh ``DIR``.  ``sandbox`` is the box of the program bots (a choice of this run, not a parameter
        of the tournament: a resumed tournament may use another)."""
        self.out_dir = Path(out_dir)
        self.sandbox = sandbox
        try:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            (self.out_dir / "replays").mkdir(exist_ok=True)
        except OSError as error:
            raise TournamentError(f"{self.out_dir}: cannot create the folder: {error.strerror or error}") from None
        meta = self.out_dir / "tournament.json"
        if meta.exists():
            stored = read_settings(self.out_dir)
            if not seed_given:
                settings = replace(settings, seed=stored.seed)
            mine, theirs = settings.to_json(), stored.to_json()
            if mine != theirs:
                changed = ", ".join(key for key in theirs if mine.get(key) != theirs[key])
                raise TournamentError(
                    f"{self.out_dir} holds a tournament with other parameters ({changed}); "
                    "use the same command to resume it, or another --out"
                )
        elif _has_games(self.out_dir / "games.jsonl"):
            raise TournamentError(
                f"{self.out_dir}: this folder holds games of another tournament (games.jsonl without "
                "tournament.json); use another --out"
            )
        else:
            if settings.seed is None:  # a fresh secret, kept before any game can be dealt from it
                from mjarena.arena.draws import new_secret

                (self.out_dir / SECRET_FILE).unlink(missing_ok=True)  # left by a run that dealt no game
                write_secret(self.out_dir, new_secret())
            write_atomically(meta, json.dumps({"format": "mjarena-tournament", "version": 1,
                                                "parameters": settings.to_json()}, indent=2) + "\n")
        if settings.seed is None:
            settings = replace(settings, secret=read_secret(self.out_dir))
        self.settings = settings
        self._round_robin: list[list[tuple[str, ...]]] | None = None
        self._tally: Tally | None = None  # the standings as last written, carried on to the next report
        numbered = read_records(self.out_dir / "games.jsonl")
        if numbered and settings.format == "round-robin":
            self._round_robin = round_robin_schedule(settings.names, settings.rounds, settings.draws)
        self.records = check_records(settings, numbered, self.out_dir / "games.jsonl", self._round_robin)

    def tables(self, round_no: int) -> list[tuple[str, ...]]:
        """The tables of round ``round_no`` (from 1); a Swiss round needs every game of the rounds before."""
        settings = self.settings
        if settings.format == "round-robin":
            if self._round_robin is None:
                self._round_robin = round_robin_schedule(settings.names, settings.rounds, settings.draws)
            return self._round_robin[round_no - 1]
        earlier = {gid: record for gid, record in self.records.items() if record["round"] < round_no}
        expected = (round_no - 1) * settings.tables * settings.games_at_table
        if len(earlier) != expected:
            raise RuntimeError(f"round {round_no} needs the {expected} games before it, {len(earlier)} finished")
        return round_tables(settings, round_no, earlier)

    def tasks(self, round_no: int, *, replays_here: bool = True, sync_replays: bool = True) -> list[GameTask]:
        """Every game of round ``round_no``, finished or not, in game-id order (``sync_replays=False``: the worker
        does not fsync the replay it writes; the caller does)."""
        settings = self.settings
        specs = {bot.name: bot.spec for bot in settings.bots}
        tasks = []
        for table_no, players in enumerate(self.tables(round_no), 1):
            for game in table_games(players, seed=settings.draws, round_no=round_no, table=table_no,
                                    games_per_table=settings.games_per_table, duplicate=settings.duplicate):
                gid = game_id(round_no, table_no, game.number)
                tasks.append(GameTask(
                    gid, round_no, table_no, game.number, game.wall_seed, game.rotation, game.seats,
                    tuple(specs.get(name, HOUSE_SPEC) for name in game.seats), settings.time_limit,
                    settings.memory_limit, str(self.replay_path(gid)) if replays_here else None, settings.rules,
                    self.sandbox, settings.toolchains, settings.language_limits, sync_replays,
                    game_budget=settings.game_budget,
                ))
        return tasks

    def replay_path(self, gid: str) -> Path:
        """Where the replay of game ``gid`` goes."""
        return self.out_dir / "replays" / f"{gid}.json"

    def standings(self) -> list[dict[str, Any]]:
        """The table from every finished game."""
        return compute_standings(self.settings, self.records)

    def write_standings(self, through_round: int | None = None) -> list[dict[str, Any]]:
        """Write ``standings.json`` and ``standings.csv``; return the rows.  ``through_round``: only the games of
        rounds up to that one (the next round's games may be finishing already)."""
        records = self.records
        if through_round is not None:
            records = {gid: record for gid, record in records.items() if record["round"] <= through_round}
        if self._tally is None or not self._tally.can_extend(records):
            self._tally = Tally(self.settings)
        self._tally.extend(records)
        rows = self._tally.rows()
        write_atomically(self.out_dir / "standings.json", json.dumps(rows, indent=2, ensure_ascii=False) + "\n")
        write_atomically(self.out_dir / "standings.csv", _standings_csv(rows))
        return rows

    def _finish(self, commits: _GroupCommit, outcome: Mapping[str, Any]) -> None:
        """Keep one finished game: its replay (when the worker could not write it), then its line (written and
        fsync'ed after the replay by ``commits``, with the other games finished meanwhile)."""
        record = outcome["record"]
        replay = self.replay_path(record["game"])
        if "replay" in outcome:
            from mjarena.replay import save

            save(outcome["replay"], replay, sync=False)
        commits.put(json.dumps(record, ensure_ascii=False) + "\n", replay)
        self.records[record["game"]] = record

    def run(self, executor: Executor, *, progress: bool | None = None, log: IO[str] | None = None
            ) -> list[dict[str, Any]]:
        """Play every game not yet in ``games.jsonl``, round by round; print the standings to ``log`` (stderr)
        after each round played.  ``progress``: on stderr, a live bar on a terminal and a line every few percent
        on a pipe or file (:func:`mjarena.progress.progress_bar`; False: none)."""
        from mjarena.progress import progress_bar

        log = sys.stderr if log is None else log
        settings = self.settings
        shown = progress_bar(settings.total_games, desc="games", initial=len(self.records),
                             enabled=progress is not False)
        with open(self.out_dir / "games.jsonl", "a", encoding="utf-8") as out, _GroupCommit(out) as commits, \
                shown as bar:
            def report(round_no: int) -> None:
                commits.wait()
                rows = self.write_standings(through_round=round_no)
                bar.clear()
                print(f"standings after round {round_no}/{settings.rounds}:\n{format_standings(rows)}\n", file=log,
                      flush=True)
                bar.refresh()

            # A round-robin schedule is known in advance: every round is queued at once, so the workers go on with
            # the next round while a round's standings are written (no barrier between rounds); a Swiss round
            # needs the standings of the rounds before it.
            batches = [range(1, settings.rounds + 1)] if settings.format == "round-robin" else [
                range(round_no, round_no + 1) for round_no in range(1, settings.rounds + 1)]
            for rounds in batches:
                pending = [task for round_no in rounds
                           for task in self.tasks(round_no, replays_here=not executor.remote, sync_replays=False)
                           if task.game_id not in self.records]
                left = {round_no: 0 for round_no in rounds}
                for task in pending:
                    left[task.round] += 1
                unreported = [round_no for round_no in rounds if left[round_no]]
                try:
                    for task, outcome in executor.run(play_game, pending):
                        self._finish(commits, outcome)
                        bar.update(1)
                        left[task.round] -= 1
                        while unreported and not left[unreported[0]]:
                            report(unreported.pop(0))
                except JudgeError as error:  # no bot's fault: no game of it recorded, none charged to a bot
                    raise JudgeError(f"{error}; the {len(self.records)} games finished are kept: run the same "
                                     "command again to play the rest") from None
        return self.write_standings()


class _GroupCommit:
    """Appends finished games to ``games.jsonl`` from a thread of its own, a batch at a time (a group commit):
    the replays of the batch are put on disk (:func:`~mjarena.files.sync_files`: one ``syncfs`` on Linux), then its
    lines are written and the file is fsync'ed once.

    One fsync per game in the main loop capped two workers at about 1.4 times one (the main process waited on
    the disk while results queued up); here the main loop hands a game over and goes on, and every game handed
    over is on disk when :meth:`wait` returns (before each round's standings) and when the ``with`` block ends,
    however it ends.  A line is never on disk before its replay.
    """

    def __init__(self, out: IO[str]) -> None:
        self._out = out
        self._queue: list[tuple[str, Path]] = []
        self._busy = False
        self._closed = False
        self._error: BaseException | None = None
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._loop, name="mjarena-games-jsonl", daemon=True)
        self._thread.start()

    def __enter__(self) -> _GroupCommit:
        return self

    def __exit__(self, *exc_info: object) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self._thread.join()
        if exc_info[0] is None:
            self._raise()

    def put(self, line: str, replay: Path) -> None:
        """Commit one game's line after its replay."""
        with self._changed:
            self._raise()
            self._queue.append((line, replay))
            self._changed.notify_all()

    def wait(self) -> None:
        """Return once every game put so far is written and fsync'ed; raise the error that stopped that."""
        with self._changed:
            while (self._queue or self._busy) and self._error is None:
                self._changed.wait()
            self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error

    def _loop(self) -> None:
        while True:
            with self._changed:
                while not self._queue and not self._closed:
                    self._changed.wait()
                if not self._queue or self._error is not None:
                    return
                batch, self._queue, self._busy = self._queue, [], True
            try:
                self._commit(batch)
            except BaseException as error:  # handed to the main thread: put, wait and the with block raise it
                with self._changed:
                    self._error = error
            with self._changed:
                self._busy = False
                self._changed.notify_all()

    def _commit(self, batch: list[tuple[str, Path]]) -> None:
        sync_files(replay for _line, replay in batch)
        self._out.write("".join(line for line, _replay in batch))
        self._out.flush()
        os.fsync(self._out.fileno())


def run_tournament(
    settings: Settings,
    out_dir: str | Path,
    *,
    executor: str = "local",
    workers: int | None = None,
    progress: bool | None = None,
    seed_given: bool = True,
    log: IO[str] | None = None,
    sandbox: Sandbox = DEFAULT_SANDBOX,
) -> list[dict[str, Any]]:
    """Open (or resume) the tournament in ``out_dir`` and play it to the end on ``executor`` (``local`` or
    ``ray``); returns the final standings.  Stopped (Ctrl-C, SIGTERM, SIGHUP: :mod:`mjarena.lifetime`), the
    finished games are kept, the running ones are dropped at once (their workers and bots killed); running again
    resumes."""
    from mjarena.arena.executors import make_executor

    tournament = Tournament(settings, out_dir, seed_given=seed_given, sandbox=sandbox)
    with make_executor(executor, workers) as pool:  # on an exception: the workers killed, nothing waited for
        return tournament.run(pool, progress=progress, log=log)

