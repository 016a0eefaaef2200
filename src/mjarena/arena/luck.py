"""Luck-adjusted points: take out of a game's result what the draws dealt each seat, keeping the mean exact.

Two bots on the same wall still draw different tiles once their choices differ, and in a game as short as
百搭's a lucky draw decides much.  The correction is the one of control variates over chance events (as
AIVAT does for poker and luck-adjusted results for backgammon): a **value** ``V_s`` estimates the points
seat ``s`` will score from the state of the table, and at every draw from the wall each seat's luck grows by

    V_s(after the tile drawn) - E[V_s(after a tile drawn from what is left of the wall)].

A wall is shuffled uniformly (``mjarena compare`` deals every wall with ``random.Random.shuffle``), so whatever
happened before, the next tile drawn is any tile still in the wall with equal chance, and each term has mean
exactly 0, whatever ``V`` is and whatever the bots do (on a wall picked by hand it need not).  A seat's
**luck-adjusted points** are its points less the sum of its terms: the same mean as the points, and the better
``V`` predicts the points, the less variance left.  ``V`` only has to be a fixed function of the table; here
it is a table of mean points (:func:`value_table`, fitted by ``tools/fit_luck_tables.py`` on games of the built-in
bots) by three features after the draw: the seat's distance to a win, the lowest distance among the other
seats still playing, and the stage (tiles drawn from the wall so far, :data:`STAGE_DRAWS` a stage).  The deal
is left alone: in a duplicate set every bot holds every seat's hand equally often.

>>> from mjarena.arena.match import run_match
>>> result = run_match(["builtin:strong", "builtin:greedy"] * 2, rules="baida", seed=3)
>>> luck = seat_luck("baida", result.wall, result.events)
>>> [seat.points for seat in result.seats], [round(value, 2) for value in luck]  # the winner drew well
([0.0, 4.0, 0.0, 0.0], [-1.99, 3.36, -0.44, -1.71])
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from mjarena.hand.options import RULES, HandRules
from mjarena.hand.wild import distance
from mjarena.rulesets import judge_rules
from mjarena.table import Table, TimelineError
from mjarena.tiles import NUM_KINDS, counts_of
from mjarena.variants.base import Event

__all__ = ["CAP", "STAGE_DRAWS", "Draw", "LuckError", "ValueTable", "draws", "seat_luck", "value_table"]

CAP = 5
"""Distances of :data:`CAP` and more share one row of a value table."""
STAGE_DRAWS = 8
"""Tiles drawn from the wall (by anyone) per stage of a value table."""
_DRAWS = ("draw", "draw_back")


class LuckError(ValueError):
    """A game whose events cannot be followed draw by draw (a tile drawn that the wall no longer holds, ...)."""


@dataclass(frozen=True)
class ValueTable:
    """Mean points of a seat by (its distance, the others' lowest distance, stage), each capped."""

    rules: str
    stages: int
    values: tuple[tuple[tuple[float, ...], ...], ...]
    """``values[own][others][stage]``."""

    def stage(self, draws: int) -> int:
        """The stage after ``draws`` tiles drawn from the wall."""
        return min(draws // STAGE_DRAWS, self.stages - 1)


@cache
def value_table(rules: str) -> ValueTable:
    """The fitted value table of a rule set, by any of its names (``luck_tables.json``).

    >>> value_table("百搭").rules, value_table("noi").stages
    ('baida', 8)
    """
    name = judge_rules(rules).name
    text = resources.files("mjarena.arena").joinpath("luck_tables.json").read_text(encoding="utf-8")
    tables = json.loads(text)["tables"]
    if name not in tables:
        raise LuckError(f"no value table for the rule set {name} (tools/fit_luck_tables.py makes one)")
    entry = tables[name]
    values = tuple(tuple(tuple(float(v) for v in row) for row in own) for own in entry["values"])
    return ValueTable(name, int(entry["stages"]), values)


@dataclass(frozen=True)
class Draw:
    """One tile drawn from the wall, seen by the luck correction."""

    draws: int
    """Tiles drawn from the wall before this one."""
    drawer: int
    distances: dict[int, int]
    """The distance (capped) of every other seat still playing, as its hand stands."""
    weights: tuple[int, ...]
    """Tiles left in the wall by the distance (capped) the drawer would have after drawing one."""
    actual: int
    """The drawer's distance (capped) after the tile it drew."""

    def features(self, seat: int, drawer_distance: int) -> tuple[int, int]:
        """(``seat``'s distance, the lowest distance of the other playing seats) when the drawer's is
        ``drawer_distance``; :data:`CAP` when nobody else plays."""
        others = [d for other, d in self.distances.items() if other != seat]
        if seat == self.drawer:
            return drawer_distance, min(others, default=CAP)
        return self.distances[seat], min([*others, drawer_distance])


def draws(rules: str, wall: Sequence[int], events: Sequence[Event]) -> Iterator[Draw]:
    """The game's draws from the wall, in order (:class:`LuckError` if the events do not fit the wall)."""
    rules = judge_rules(rules).name
    hand_rules = RULES[rules]
    state = Table(rules, wall_size=len(wall))
    left = counts_of(wall)
    count = 0
    for event in events:
        if event.type in _DRAWS:
            drawer, drawn = event.seat, event.tiles[0] if event.tiles else -1
            if drawer is None or not 0 <= drawer < 4 or not 0 <= drawn < NUM_KINDS or not left[drawn]:
                raise LuckError(f"event {state.count + 1}: a {event.type} the wall cannot give")
            try:
                weights, actual = _weights(state.seats[drawer], drawn, left, hand_rules)
                others = {seat: _distance(state.seats[seat], hand_rules) for seat in range(4)
                          if seat != drawer and state.seats[seat].status == "in"}
            except ValueError as error:  # a hand of a size no rule set has
                raise LuckError(f"event {state.count + 1}: {error}") from None
            yield Draw(count, drawer, others, weights, actual)
            count += 1
        if event.type == "deal" or event.type in _DRAWS:
            for kind in event.tiles:
                if not 0 <= kind < NUM_KINDS or not left[kind]:
                    raise LuckError(f"event {state.count + 1}: a tile the wall no longer holds")
                left[kind] -= 1
        try:
            state.apply(event)
        except TimelineError as error:
            raise LuckError(str(error)) from None


def seat_luck(rules: str, wall: Sequence[int], events: Sequence[Event], table: ValueTable | None = None) -> list[float]:
    """Each seat's luck in one game: the sum over the wall's draws of its value's surprise (module docstring).

    ``rules``: a rule set's name (:func:`~mjarena.rulesets.judge_rules`: :class:`KeyError` if unknown);
    ``wall``: every tile of the game (the deal included) as kinds; ``events``: the game's events in order.
    :class:`LuckError` if the events do not fit the wall.
    """
    table = value_table(rules) if table is None else table
    values = table.values
    luck = [0.0] * 4
    for draw in draws(rules, wall, events):
        stage = table.stage(draw.draws)
        total = sum(draw.weights)
        for seat in (draw.drawer, *draw.distances):
            row = []
            for drawer_distance in range(CAP + 1):
                own, low = draw.features(seat, drawer_distance)
                row.append(values[own][low][stage])
            mean = sum(w * v for w, v in zip(draw.weights, row, strict=True)) / total
            luck[seat] += row[draw.actual] - mean
    return luck


def _weights(player: Any, drawn: int, left: Sequence[int], rules: HandRules) -> tuple[tuple[int, ...], int]:
    """(tiles left by the distance ``player`` would have after drawing one, its distance after ``drawn``)."""
    hand = counts_of(player.hand)
    melds = len(player.melds)
    weights = [0] * (CAP + 1)
    actual = CAP
    for kind in range(NUM_KINDS):
        if left[kind]:
            hand[kind] += 1
            after = min(distance(hand, melds, rules), CAP)
            hand[kind] -= 1
            weights[after] += left[kind]
            if kind == drawn:
                actual = after
    return tuple(weights), actual


def _distance(player: Any, rules: HandRules) -> int:
    return min(distance(counts_of(player.hand), len(player.melds), rules), CAP)
