"""The table rebuilt from a game's events: each seat's hand, melds, discards and status, the wall, the turn.

Every rule set's event vocabulary folds into one :class:`Table`, one :meth:`Table.apply` at a time: the replay
viewer's steps (:mod:`mjarena.web.timeline`), the play page's live game (:mod:`mjarena.web.play`), the luck
measures (:mod:`mjarena.arena.luck`) and the distance charts (:mod:`mjarena.web.distances`) all read it.
Events that cannot have happened (a tile discarded that was not held, a claim with no discard) raise
:class:`TimelineError`.

>>> from mjarena.variants.base import Event
>>> table = Table("noi2014")
>>> table.apply(Event("deal", 1, (3, 4, 5)))
>>> table.apply(Event("play", 1, (9,)))
Traceback (most recent call last):
...
mjarena.table.TimelineError: event 2: seat 1 does not hold tile kind 9
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mjarena.tiles import NUM_KINDS
from mjarena.variants.base import Event

__all__ = ["Table", "TimelineError"]

_WALL_SIZES = {"noi2014": 108, "baida": 144, "thupc2021": 148}
_OPEN_MELDS = {"peng": 3, "pong": 3, "gang": 4}
_ONE_TILE_NAMED = frozenset({"draw", "draw_back", "play", "discard", *_OPEN_MELDS, "angang", "bugang", "gang_on_peng"})
"""The events of one seat that name a tile (``tiles[0]``); a CHI or CHOW names its run."""
_SEATED = frozenset({*_ONE_TILE_NAMED, "deal", "chi", "chow", "hu", "ron", "hu_self", "self_drawn", "win", "false_hu"})
"""The events of one seat: each names it."""


class TimelineError(ValueError):
    """Events that do not make sense as a game (a tile discarded that was not held, ...), of a replay or not."""


@dataclass
class _Seat:
    hand: list[int] = field(default_factory=list)
    drawn: int | None = None
    melds: list[dict[str, Any]] = field(default_factory=list)
    discards: list[dict[str, Any]] = field(default_factory=list)
    status: str = "in"


class Table:
    """The table rebuilt from events, one :meth:`apply` at a time (for every rule set's event vocabulary).

    >>> table = Table("noi2014")
    >>> table.apply(Event("deal", 0, (0, 0, 1)))
    >>> table.apply(Event("play", 0, (1,)))
    >>> snap = table.snapshot()
    >>> snap["seats"][0]["hand"], snap["seats"][0]["discards"], snap["wall"]
    ([0, 0], [{'tile': 1, 'claimed': False}], 105)
    """

    def __init__(self, rules: str, wall_size: int | None = None) -> None:
        self.rules = rules
        self.seats = [_Seat() for _ in range(4)]
        self.wall = _WALL_SIZES.get(rules, 0) if wall_size is None else wall_size
        self.turn: int | None = None
        self.last_discard: tuple[int, int] | None = None  # (seat, index in its discards)
        self.extra: dict[str, Any] = {}
        self.count = 0
        self.seen = [0] * NUM_KINDS
        """Counts by kind of the tiles every seat has seen outside its own hand: discards (claimed ones too),
        the tiles a meld took from a hand, and concealed kongs (announced to every seat as ``GANG X``)."""

    def _take(self, seat: int, kinds: Iterable[int]) -> None:
        """Take ``kinds`` from the seat's hand: a discard, or tiles laid in a meld (seen by every seat from now)."""
        hand = self.seats[seat].hand
        for kind in kinds:
            try:
                hand.remove(kind)
            except ValueError:
                raise TimelineError(f"event {self.count + 1}: seat {seat} does not hold tile kind {kind}") from None
            self.seen[kind] += 1

    def _claim(self) -> int:
        """Mark the last discard claimed; its kind."""
        if self.last_discard is None:
            raise TimelineError(f"event {self.count + 1}: a claim with no discard before it")
        seat, index = self.last_discard
        item = self.seats[seat].discards[index]
        item["claimed"] = True
        self.last_discard = None
        return item["tile"]

    def apply(self, event: Event) -> None:
        """Fold one event into the table; :class:`TimelineError` if it cannot have happened.

        >>> Table("noi2014").apply(Event("play", None, (3,)))
        Traceback (most recent call last):
        ...
        mjarena.table.TimelineError: event 1: a play names no seat
        """
        kind, seat = event.type, event.seat
        if seat is not None and not 0 <= seat < 4:
            raise TimelineError(f"event {self.count + 1}: no seat {seat}")
        for other in self.seats:
            other.drawn = None
        if kind in _SEATED:
            if seat is None:
                raise TimelineError(f"event {self.count + 1}: a {kind} names no seat")
            if kind in _ONE_TILE_NAMED and not event.tiles:
                raise TimelineError(f"event {self.count + 1}: a {kind} names no tile")
            self._apply_seated(kind, seat, event)
        elif kind == "score":
            self.extra["tai"] = {"seat": seat, "total": event.target}
        elif kind == "dice":
            self.extra["dice"] = list(event.tiles)
        elif kind in ("exhausted", "end"):
            self.turn = None
        self.count += 1

    def _apply_seated(self, kind: str, seat: int, event: Event) -> None:
        """:meth:`apply` for the events of one seat (of :data:`_SEATED`)."""
        player = self.seats[seat]
        if kind == "deal":
            player.hand += event.tiles
            self.wall -= len(event.tiles)
        elif kind in ("draw", "draw_back"):
            player.hand += event.tiles
            player.drawn = event.tiles[0]
            self.wall -= 1
            self.turn = seat
        elif kind in ("play", "discard"):
            self._take(seat, event.tiles[:1])
            player.discards.append({"tile": event.tiles[0], "claimed": False})
            self.last_discard = (seat, len(player.discards) - 1)
            self.turn = seat
        elif kind in _OPEN_MELDS or kind in ("chi", "chow"):
            claimed = self._claim()
            tiles = list(event.tiles) if kind in ("chi", "chow") else [event.tiles[0]] * _OPEN_MELDS[kind]
            if claimed not in tiles:
                raise TimelineError(f"event {self.count + 1}: a {kind} of tile kinds {tiles} without the discard "
                                    f"it claims ({claimed})")
            rest = list(tiles)
            rest.remove(claimed)
            self._take(seat, rest)
            player.melds.append({"type": kind, "tiles": tiles, "concealed": False, "from": event.target})
            self.turn = seat
        elif kind == "angang":
            self._take(seat, [event.tiles[0]] * 4)
            player.melds.append({"type": "gang", "tiles": [event.tiles[0]] * 4, "concealed": True, "from": None})
        elif kind in ("bugang", "gang_on_peng"):  # the fourth tile from the hand, or the discard (NOI 2014)
            if kind == "bugang":
                self._take(seat, event.tiles[:1])
            else:
                self._claim()
                self.turn = seat
            for meld in player.melds:
                if meld["type"] in ("peng", "pong") and meld["tiles"][0] == event.tiles[0]:
                    meld.update(type="gang", tiles=[event.tiles[0]] * 4)
                    break
        elif kind in ("hu", "ron"):
            player.hand.append(self._claim())
            player.status = "won"
            self.turn = seat
        elif kind in ("hu_self", "self_drawn", "win"):
            player.status = "won"
            self.turn = seat
        elif kind == "false_hu":
            player.status = "out"

    def snapshot(self, hidden: Sequence[int] = ()) -> dict[str, Any]:
        """The table now as JSON-ready data; the hands of the seats in ``hidden`` become a count of tiles."""
        seats = []
        for number, seat in enumerate(self.seats):
            hand = list(seat.hand)
            if seat.drawn is not None:
                hand.remove(seat.drawn)
            item: dict[str, Any] = {
                "hand": sorted(hand), "drawn": seat.drawn, "melds": [dict(m) for m in seat.melds],
                "discards": [dict(d) for d in seat.discards], "status": seat.status,
            }
            if number in hidden:
                item.update(hand=None, drawn=None, hidden=len(seat.hand))
            seats.append(item)
        last = None
        if self.last_discard is not None:
            last = {"seat": self.last_discard[0], "index": self.last_discard[1]}
        return {"wall": self.wall, "turn": self.turn, "seats": seats, "last_discard": last, **self.extra}
