"""Schedules and seating: who sits with whom in each round, and in which seat of which wall.

Pure functions of a seed and of the points so far, shared by the tournament (:mod:`mjarena.arena.tournament`) and
the contest (:mod:`mjarena.contest.scheduler`):

* :func:`swiss_tables` — the spec's Swiss system: entrants sorted by total points (ties by a seeded random
  draw, per RULINGS.md), places 1–4, 5–8, … at one table each;
* :func:`round_robin_schedule` — every round seats everyone so that each pair meets about equally often;
* :func:`table_games` — the games at one table: ``games_per_table`` walls, each either played once with the
  seats drawn at random, or (``duplicate``) four times, once per seat rotation, so every bot sits in every seat
  of that wall once (:class:`Seating`); :func:`table_game`, one of them by its number;
* :func:`house_names` — the house bots that pad an entrant count that is not a multiple of 4; they take the last
  places of a Swiss round, and their results are neither scored nor rated nor listed;
* :func:`game_id` — ``r<round>-t<table>-g<game>``, which sorts in play order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from mjarena.arena.draws import Draws, as_draws

__all__ = [
    "HOUSE_PREFIX",
    "HOUSE_SPEC",
    "TABLE",
    "Seating",
    "default_rounds",
    "game_id",
    "house_names",
    "round_robin_schedule",
    "swiss_tables",
    "table_game",
    "table_games",
]

TABLE = 4
"""Seats at a table."""
HOUSE_SPEC = "builtin:random"
"""The bot a tournament's house seats play."""
HOUSE_PREFIX = "house-"
"""The start of every house bot's name (an entrant's name may not start so)."""
_ATTEMPTS = 24  # random starts per round-robin round, each improved by swaps


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
    shuffler = random.Random()  # seeded again for each wall: the draws of random.Random(seed), without a new one
    for wall in range(games_per_table):
        wall_seed = draws("wall", round_no, table, wall)
        base = list(players)
        shuffler.seed(draws("seats", round_no, table, wall))
        shuffler.shuffle(base)
        if duplicate:
            for rotation in range(TABLE):
                seats = tuple(base[(seat + rotation) % TABLE] for seat in range(TABLE))
                games.append(Seating(len(games) + 1, seats, wall_seed, rotation))
        else:
            games.append(Seating(len(games) + 1, tuple(base), wall_seed))
    return games



def table_game(
    players: Sequence[str], *, seed: int | Draws, round_no: int, table: int, number: int, duplicate: bool
) -> Seating:
    """Game ``number`` (from 1) of :func:`table_games` alone: the same seats and wall, dealt without the games
    before it (a tournament's worker deals its own game from the table's players).

    >>> all(table_game("abcd", seed=3, round_no=2, table=1, number=game.number, duplicate=duplicate) == game
    ...     for duplicate in (False, True)
    ...     for game in table_games("abcd", seed=3, round_no=2, table=1, games_per_table=2, duplicate=duplicate))
    True
    """
    draws = as_draws(seed)
    wall, rotation = divmod(number - 1, TABLE) if duplicate else (number - 1, None)
    base = list(players)
    random.Random(draws("seats", round_no, table, wall)).shuffle(base)  # as table_games' shuffler, seeded so
    wall_seed = draws("wall", round_no, table, wall)
    if rotation is None:
        return Seating(number, tuple(base), wall_seed)
    return Seating(number, tuple(base[(seat + rotation) % TABLE] for seat in range(TABLE)), wall_seed, rotation)
