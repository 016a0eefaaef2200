"""Each seat's distance to a win (和牌距离) after every step of a replay: the replay viewer's chart.

:func:`seat_distance` is the exchange distance of one seat's hand as the table holds it
(:func:`mjarena.hand.wild.distance` under the rule set's :data:`~mjarena.hand.options.RULES`: 0 is a winning
hand, 1 ready), or None while the hand is not a whole hand (before and during the deal) or does not add up.
A seat that won stays at 0; a seat out of the game (a false HU) has no distance from then on.

:class:`DistanceTracker` follows a :class:`~mjarena.table.Table` step by step and measures only the seat
the step changed (a draw, a discard, a meld), so a whole game costs about as many table look-ups as it has
steps.  :func:`distance_series` gives the per-seat series from a timeline's steps; :func:`distance_chart` draws
them with :mod:`mjarena.charts` (the SVG and its table), with wins and errors marked.

>>> from mjarena.arena.match import run_match
>>> from mjarena.web.timeline import timeline
>>> view = timeline(run_match(["builtin:greedy"] * 4, seed=7).to_json())
>>> series = view["distances"]
>>> len(series) == 4 and all(len(seat) == len(view["steps"]) for seat in series)
True
>>> series[0][0] is None  # the empty table before the deal
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mjarena.i18n import gettext as _
from mjarena.tiles import NUM_KINDS

if TYPE_CHECKING:
    from mjarena.table import Table

__all__ = ["WIN_EVENTS", "DistanceTracker", "distance_chart", "seat_distance", "series_names"]

WIN_EVENTS = frozenset({"hu", "ron", "hu_self", "self_drawn", "win"})
"""The event types of a win, in every rule set's vocabulary."""
_LABEL = 28
"""Characters of a bot's name kept in a series name."""


def seat_distance(rules: str, hand: Sequence[int], melds: int) -> int | None:
    """The exchange distance of a hand of tile kinds ``hand`` with ``melds`` melds laid down under rule set
    ``rules``; None unless it holds ``13 - 3 * melds`` or ``14 - 3 * melds`` tiles that add up.

    >>> from mjarena.tiles import parse_tiles
    >>> seat_distance("noi2014", parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6", "noi"), 0)
    1
    >>> seat_distance("noi2014", parse_tiles("W1 W2 W3 W4", "noi"), 0) is None  # still being dealt
    True
    """
    from mjarena.hand.options import RULES
    from mjarena.hand.wild import distance

    if not 13 - 3 * melds <= len(hand) <= 14 - 3 * melds:
        return None
    counts = [0] * NUM_KINDS
    for kind in hand:
        counts[kind] += 1
    try:
        return distance(counts, melds, RULES[rules])
    except (ValueError, KeyError):  # TileError is a ValueError: five of a kind, a rule set with no hand rules
        return None


class DistanceTracker:
    """Each seat's distance as a :class:`~mjarena.table.Table` changes: call :meth:`update` after every
    :meth:`~mjarena.table.Table.apply`; only the seats whose hand, melds or status changed are measured.

    >>> from mjarena.variants.base import Event
    >>> from mjarena.table import Table
    >>> table, tracker = Table("noi2014"), DistanceTracker("noi2014")
    >>> table.apply(Event("deal", 0, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 13, 14)))
    >>> tracker.update(table)
    [1, None, None, None]
    """

    def __init__(self, rules: str) -> None:
        self.rules = rules
        self._keys: list[tuple[tuple[int, ...], int, str] | None] = [None] * 4
        self._values: list[int | None] = [None] * 4

    def update(self, table: Table) -> list[int | None]:
        """The distances now, seat 0 first (see the module docstring for None, won and out seats)."""
        for number, seat in enumerate(table.seats):
            key = (tuple(seat.hand), len(seat.melds), seat.status)
            if key == self._keys[number]:  # nothing this seat holds changed
                continue
            self._keys[number] = key
            if seat.status == "won":
                self._values[number] = 0
            elif seat.status == "out":
                self._values[number] = None
            else:
                self._values[number] = seat_distance(self.rules, seat.hand, len(seat.melds))
        return list(self._values)


def series_names(seat_names: Sequence[str], bots: Sequence[str]) -> list[str]:
    """One name per seat for the chart: the seat and who played it (long names cut).

    >>> series_names(["East", "South"], ["builtin:greedy", "python3 " + "x" * 40])
    ['East: builtin:greedy', 'South: python3 xxxxxxxxxxxxxxxxxxx…']
    """
    return [f"{seat}: {bot if len(bot) <= _LABEL else bot[:_LABEL - 1] + '…'}"
            for seat, bot in zip(seat_names, bots, strict=True)]


def _marks(view: dict[str, Any], seat: int) -> list[tuple[float, float, str]]:
    """(step, distance, words) for the seat's win and error, each on the step it happened (the chart puts the
    series' name before the words)."""
    series = view["distances"][seat]
    marks: list[tuple[float, float, str]] = []
    won = next((item["step"] for item in view["steps"] if (item.get("event") or {}).get("type") in WIN_EVENTS
                and item["event"].get("seat") == seat), None)  # THUPC's RON is followed by a WIN: the first
    if won is not None:
        marks.append((won, 0, _("wins at move %(move)s") % {"move": won}))
    for mark in view["errors"]:
        step = mark["step"]
        if mark["seat"] != seat or step is None:
            continue
        before = [value for value in series[: step + 1] if value is not None]
        after = [value for value in series[step:] if value is not None]  # an error before the deal ended
        reason = mark.get("reason_text") or mark["reason"]
        marks.append((step, before[-1] if before else after[0] if after else 0,
                      _("%(reason)s at move %(move)s") % {"reason": reason, "move": step}))
    return marks


def distance_chart(view: dict[str, Any], bots: Sequence[str] | None = None) -> dict[str, str]:
    """The chart of a timeline's ``distances``: ``{"svg": ..., "table": ...}`` from :mod:`mjarena.charts`.

    One line per seat (named by :func:`series_names`; ``bots``: who played each seat, by default the
    replay's bot specs), x the step as the viewer counts them, y the distance; wins and errors marked.
    """
    from mjarena.charts import Series, data_table, line_chart

    names = series_names(view["seat_names"], bots or [str(seat.get("bot")) for seat in view["seats"]])
    series = [Series(name=name, marks=_marks(view, seat),
                     points=[(step, value) for step, value in enumerate(view["distances"][seat]) if value is not None])
              for seat, name in enumerate(names)]
    x_label, y_label = _("move"), _("distance (1: ready)")
    return {
        "svg": line_chart(series, title=_("Distance to a win"), hlines=[(0, _("win"))], x_marker=0, clickable_x=True,
                          chart_id="distance-chart", x_label=x_label, y_label=y_label),
        "table": data_table(series, caption=_("Each seat's distance to a win after each move"), x_label=x_label,
                            y_label=y_label),
    }
