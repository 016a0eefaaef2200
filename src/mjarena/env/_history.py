"""The ``"history"`` observation: the planes of :mod:`mjarena.env._spec` and, below them, the game's discards in
order and every seat's melds in the order they were laid down.

Shape ``(CHANNELS + spec.max_discards + 16, spec.kinds)``, ``uint8``; seats are relative to the observer as in
the planes (0 the observer, 1 the next seat, 2 the one across, 3 the previous one).

==================================  =========================================================================
rows                                content
==================================  =========================================================================
0-10                                the planes (``docs/env/index.md``)
11 .. 11 + T - 1                    the game's t-th discard, in order (T = ``spec.max_discards``): a single
                                    cell at the tile's column, holding 1 + the discarder's relative seat
                                    (1..4), plus 4 once a seat has claimed it (5..8); rows after the last
                                    discard are 0
11 + T .. 11 + T + 15               melds in order: row ``11 + T + 4 * s + m`` is relative seat s's m-th meld,
                                    the count of each kind in it (a kong 4 of its kind, a chow 1 of each)
==================================  =========================================================================

Whose turn it is reads from the planes' state row (the stage, the discarder at a claim) and the last discard
row.  A seat melds at most four times, and the discards of a game are at most ``spec.max_discards`` (its wall
less the 36 tiles a deal and four melds keep out of the pool), so nothing is ever cut off.

>>> from mjarena.env.noi2014_v0 import SPEC
>>> from mjarena.variants.noi2014 import NoiGame, shuffled_wall
>>> from mjarena.env._spec import Observer
>>> game = NoiGame(shuffled_wall(1))
>>> observer, history = Observer(SPEC), History(SPEC)
>>> observer.update(game.events)
>>> history.update(game.events)
>>> history.observe(observer.observe(game, 0, "draw"), 0).shape
(99, 27)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mjarena.env._spec import CHANNELS, RuleSpec
from mjarena.variants.base import Event

__all__ = ["MELD_ROWS", "History", "history_rows"]

MELD_ROWS = 16
"""Four melds for each of four seats."""

_ADDS = {"peng": 3, "pong": 3, "gang": 4, "angang": 4}  # a new meld of tiles[0]
_UPGRADES = frozenset({"bugang", "gang_on_peng"})  # the fourth tile added to a seat's own PENG
_CLAIMS = frozenset({"peng", "pong", "gang", "gang_on_peng", "chi", "chow", "hu", "ron"})


def history_rows(spec: RuleSpec) -> int:
    """The rows of the history observation of ``spec``.

    >>> from mjarena.env.thupc2021_v0 import SPEC
    >>> history_rows(SPEC) == CHANNELS + SPEC.max_discards + MELD_ROWS
    True
    """
    return CHANNELS + spec.max_discards + MELD_ROWS


class History:
    """The discards in order and the melds in order, kept from the events as :class:`~mjarena.env._spec.Observer`
    keeps the planes; :meth:`observe` stacks them under an observation's planes."""

    def __init__(self, spec: RuleSpec) -> None:
        self.kinds, self.limit = spec.kinds, spec.max_discards
        self.discards: list[tuple[int, int]] = []  # (absolute seat, tile)
        self.claimed: set[int] = set()  # indexes in ``discards``
        self.melds: list[list[list[int]]] = [[] for _ in range(4)]  # [seat][m]: counts by kind
        self.seen = 0
        self._pending: int | None = None  # the index of the last discard while it may still be claimed

    def update(self, events: Sequence[Event]) -> None:
        """Take in the events not seen yet."""
        for event in events[self.seen :]:
            kind, seat = event.type, event.seat
            if kind in ("play", "discard"):
                self._pending = len(self.discards)
                self.discards.append((seat, event.tiles[0]))  # type: ignore[arg-type]
                continue
            if kind in _CLAIMS:
                if self._pending is not None:
                    self.claimed.add(self._pending)
                self._pending = None
            elif kind in ("draw", "draw_back"):
                self._pending = None  # the discard before a draw was not claimed
            if seat is None:
                continue
            if kind in _ADDS:
                meld = [0] * self.kinds
                meld[event.tiles[0]] = _ADDS[kind]
                self.melds[seat].append(meld)
            elif kind in ("chi", "chow"):
                meld = [0] * self.kinds
                for tile in event.tiles:
                    meld[tile] += 1
                self.melds[seat].append(meld)
            elif kind in _UPGRADES:
                for meld in self.melds[seat]:
                    if meld[event.tiles[0]] == 3:
                        meld[event.tiles[0]] = 4
                        break
        self.seen = len(events)

    def observe(self, planes: np.ndarray, seat: int) -> np.ndarray:
        """The history observation of ``seat``: its ``planes`` (``(CHANNELS, kinds)``) with the history below."""
        kinds, limit = self.kinds, self.limit
        out = np.zeros((CHANNELS + limit + MELD_ROWS, kinds), np.uint8)
        out[:CHANNELS] = planes
        claimed = self.claimed
        for index, (discarder, tile) in enumerate(self.discards[:limit]):
            out[CHANNELS + index, tile] = 1 + (discarder - seat) % 4 + (4 if index in claimed else 0)
        base = CHANNELS + limit
        for other in range(4):
            row = base + 4 * ((other - seat) % 4)
            for m, meld in enumerate(self.melds[other][:4]):
                out[row + m] = meld
        return out
