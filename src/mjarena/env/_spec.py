"""What an environment needs to know of one rule set (:class:`RuleSpec`), and the observation builder every rule set
shares (:class:`Observer`).

The observation is a ``(CHANNELS, spec.kinds)`` array of ``uint8``; column ``k`` is tile kind ``k`` (see
:mod:`mjarena.tiles`) and seats are relative: 0 is the observer, 1 the next seat (seat + 1), 2 the one across,
3 the previous one.

=======  ===========================================================================================
row      content
=======  ===========================================================================================
0        own concealed hand: count of each kind
1-4      melds of relative seats 0..3: tiles of each kind laid down (a kong counts 4, a chow 1 of each)
5-8      discards of relative seats 0..3 still on the table (claimed ones leave): count of each kind
9        the tile the decision is about, one-hot: the discard at a claim, the tile just drawn after a draw
10       state, by column: 0 wall tiles left; 1-3 the stage (``spec.stages`` order); 4-7 relative seats still
         playing; 8-11 the discarder at a claim; 12-15 the dealer (seat 0); 16-20 per rule set (``spec.extra``)
=======  ===========================================================================================

Everything but row 0 is public: it is kept current from the event stream, never rebuilt.

>>> from mjarena.env.noi2014_v0 import SPEC
>>> from mjarena.variants.noi2014 import NoiGame, shuffled_wall
>>> game = NoiGame(shuffled_wall(1))
>>> observer = Observer(SPEC)
>>> observer.update(game.events)
>>> table = observer.observe(game, 0, "draw")
>>> table.shape, int(table[0].sum()), int(table[STATE, WALL])
((11, 27), 14, 55)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from mjarena.tiles import Notation
from mjarena.variants.base import Action, Event

__all__ = ["CHANNELS", "EXTRA", "REQUEST", "STATE", "WALL", "IllegalActionError", "Observer", "RuleSpec", "mask_maker"]

HAND, MELDS, DISCARDS, REQUEST, STATE = 0, 1, 5, 9, 10
CHANNELS = 11
WALL, STAGE, SEATS_IN, DISCARDER, DEALER, EXTRA = 0, 1, 4, 8, 12, 16
"""Columns of the state row."""

Options = Mapping[int, Action]
_INT8, _UINT8 = np.dtype(np.int8), np.dtype(np.uint8)  # dtype objects: numpy converts np.uint8 at every call


class IllegalActionError(ValueError):
    """An action index that the action mask does not allow."""


@dataclass(frozen=True)
class RuleSpec:
    """One rule set as the environments see it: the action encoding, the observation's extras and the points.

    ``options(game, stage, seat, legal)`` maps every index the seat may choose now to the engine's
    :class:`~mjarena.variants.base.Action`; ``encode(game, seat, action)`` is the index of any legal action.
    ``decision_options(game, stage, legal)``, where given, is ``options`` of every seat a decision asks (its
    ``legal``, by seat) in one call.
    ``points(game)`` are the final points of a finished game, by seat, and ``left_points(game, seat)`` the
    points of a seat that has left a game still going on (None while its points can still change).
    ``hand(game, seat)`` is the seat's concealed counts by kind; ``extra(game, seat, row)`` fills the rule set's
    columns of the state row.  ``leave_events`` are the event types after which a seat may have left a game
    that goes on: only after one of them are ``seats_in`` and ``left_points`` asked again.
    """

    name: str
    kinds: int
    notation: Notation
    stages: tuple[str, ...]
    action_names: tuple[str, ...]
    new_game: Callable[[Sequence[int]], Any]
    shuffled_wall: Callable[[int], list[int]]
    encode: Callable[[Any, int, Action], int]
    points: Callable[[Any], list[float]]
    options: Callable[[Any, str, int, Sequence[Action]], Options] | None = None
    decision_options: Callable[[Any, str, Mapping[int, Sequence[Action]]], dict[int, Options]] | None = None
    hand: Callable[[Any, int], Sequence[int]] = lambda game, seat: game.hands[seat].counts
    seats_in: Callable[[Any], Sequence[bool]] = lambda game: (True, True, True, True)
    left_points: Callable[[Any, int], float | None] | None = None
    extra: Callable[[Any, int, Any], None] | None = None
    leave_events: frozenset[str] = frozenset()
    notes: Mapping[str, str] = field(default_factory=dict)

    @property
    def num_actions(self) -> int:
        return len(self.action_names)

    @cached_property
    def max_discards(self) -> int:
        """The most discards a game can have: its wall less the 36 tiles that a deal of 13 and four melds of
        three keep out of the pool (the rows of the history observation, :mod:`mjarena.env._history`)."""
        return len(self.shuffled_wall(0)) - 36

    def legal_options(self, game: Any, stage: str, seat: int, legal: Sequence[Action]) -> Options:
        """Index -> action for every choice the seat has at this decision."""
        if self.options is not None:
            return self.options(game, stage, seat, legal)
        encode = self.encode
        return {encode(game, seat, action): action for action in legal}

    def mask(self, options: Options) -> np.ndarray:
        """The action mask (``int8``, 1 for each legal index) of some options."""
        if len(options) < 4:  # most asks (a claim: pass, and maybe one more): np.zeros and a store or two
            array = np.zeros(len(self.action_names), _INT8)
            for index in options:
                array[index] = 1
            return array
        mask = bytearray(len(self.action_names))  # more: stores into a writable buffer, viewed as an array
        for index in options:
            mask[index] = 1
        return np.ndarray((len(mask),), _INT8, mask)


def mask_maker(size: int) -> Callable[[Options], np.ndarray]:
    """A maker of action masks of ``size`` actions for one environment: it sets the options' bytes in a buffer of
    its own, copies the buffer as an array and clears them again (one numpy call a mask; not for threads to share).

    >>> mask = mask_maker(5)
    >>> mask({1: None, 3: None}).tolist(), mask({}).tolist()
    ([0, 1, 0, 1, 0], [0, 0, 0, 0, 0])
    """
    buffer, zeros = bytearray(size), bytes(size)
    copy = np.frombuffer(buffer, _INT8).copy

    def mask(options: Options) -> np.ndarray:
        for index in options:
            buffer[index] = 1
        array = copy()
        buffer[:] = zeros
        return array

    return mask


_COUNTS = RuleSpec.hand  # the default of RuleSpec.hand
_MELD_TILES = {"peng": 3, "pong": 3, "gang": 4, "angang": 4, "bugang": 1, "gang_on_peng": 1}
_CLAIMS = frozenset({"peng", "pong", "gang", "gang_on_peng", "chi", "chow", "hu", "ron"})
_ROTATIONS = [[(seat + step) % 4 for step in range(4)] for seat in range(4)]


class Observer:
    """The public part of the table (melds and discards of every seat), kept current from the events, and the
    observations built on it.

    Each seat's whole table (its 11 rows, the public ones rotated so that the observer comes first) is kept in
    a buffer of its own: an event updates four bytes, and an observation sets the few cells of the decision
    asked, copies the buffer as an array and clears them again.  The hand row is written again only after an
    event that names the seat (every change of a hand is one).  ``public`` is the table by absolute seat
    (rows 0-3 melds of seat 0-3, rows 4-7 their discards) as an array.  ``leaves`` counts the events of
    ``spec.leave_events`` seen (a seat may have left after each).
    """

    def __init__(self, spec: RuleSpec) -> None:
        self.spec = spec
        kinds = spec.kinds
        self._buffers = [bytearray(CHANNELS * kinds) for _ in range(4)]  # [observer]: its rows, relative seats
        self._arrays = [np.frombuffer(buffer, _UINT8).reshape(CHANNELS, kinds) for buffer in self._buffers]
        self.public = self._arrays[0][MELDS:REQUEST]  # seat 0's view is absolute
        self._cells = [  # [block][seat]: (buffer, offset of that seat's row in it) for every observer
            [[(self._buffers[me], (MELDS + block + (seat - me) % 4) * kinds) for me in range(4)] for seat in range(4)]
            for block in (0, 4)
        ]
        self._stage_column = {stage: STATE * kinds + STAGE + i for i, stage in enumerate(spec.stages)}
        self._kinds, self._hand, self._extra = kinds, spec.hand, spec.extra
        self._counts = spec.hand is _COUNTS  # the hand row is the seat's counts: read without the call
        self._wall_cell, self._discarder_cell = STATE * kinds + WALL, STATE * kinds + DISCARDER
        self._request = REQUEST * kinds
        self._hand_current = [False] * 4  # whether a seat's hand row holds its hand (no event named it since)
        self._tails_at = -1  # the value of ``leaves`` the seats-in columns were written at
        self.seen = 0
        self.leaves = 0
        self.last_play: tuple[int, int] | None = None
        self.drawn: tuple[int, int] | None = None  # (seat, kind) when the last event is a draw

    def _add(self, block: int, seat: int, tile: int, count: int) -> None:
        for buffer, offset in self._cells[block][seat]:
            buffer[offset + tile] += count

    def update(self, events: Sequence[Event]) -> None:
        """Take in the events not seen yet.

        A draw or a discard moves one tile of the seat's hand: where the hand row is the seat's counts and holds
        them, that cell is moved with it (a draw adds the tile to the counts, a discard takes it out, before its
        event); any other event that names a seat has its hand row written again when next observed.
        """
        pools = self._cells[1]
        hand_current = self._hand_current
        kinds = self._kinds if self._counts else 0  # 0: no cell moved, the row is written again
        for event in events[self.seen :]:
            kind, seat, tiles, _ = event
            if seat is None:  # (an event of no seat is neither a draw nor a discard)
                self.drawn = None
                hand_current[:] = (False, False, False, False)
                self._take_in(kind, seat, tiles)
                continue
            if kind == "draw" or kind == "draw_back":
                tile = tiles[0]
                self.drawn = (seat, tile)
                if tile < kinds and hand_current[seat]:
                    self._buffers[seat][tile] += 1
                else:
                    hand_current[seat] = False
                continue
            self.drawn = None
            if kind == "play" or kind == "discard":
                tile = tiles[0]
                self.last_play = (seat, tile)
                for buffer, offset in pools[seat]:
                    buffer[offset + tile] += 1
                if tile < kinds and hand_current[seat]:
                    self._buffers[seat][tile] -= 1
                else:
                    hand_current[seat] = False
                continue
            hand_current[seat] = False
            self._take_in(kind, seat, tiles)
        self.seen = len(events)

    def _take_in(self, kind: str, seat: Any, tiles: tuple[int, ...]) -> None:
        """An event neither a draw nor a discard: a claim takes the last discard off its pool, a meld is laid."""
        if kind in _CLAIMS and self.last_play is not None:
            discarder, tile = self.last_play
            self._add(1, discarder, tile, -1)
            self.last_play = None
        if kind in _MELD_TILES:
            self._add(0, seat, tiles[0], _MELD_TILES[kind])
        elif kind in ("chi", "chow"):
            for tile in tiles:
                self._add(0, seat, tile, 1)
        if kind in self.spec.leave_events:
            self.leaves += 1

    def _write_tails(self, game: Any) -> None:
        """The state row's columns that change only when a seat leaves: seats in, dealer."""
        kinds = self._kinds
        seats_in = self.spec.seats_in(game)
        state = STATE * kinds
        for seat, buffer in enumerate(self._buffers):
            for relative, other in enumerate(_ROTATIONS[seat]):
                buffer[state + SEATS_IN + relative] = 1 if seats_in[other] else 0
            buffer[state + DEALER + (-seat) % 4] = 1
        self._tails_at = self.leaves

    def observe(self, game: Any, seat: int, stage: str | None) -> np.ndarray:
        """The observation of ``seat`` (the table, without the mask); ``stage`` None when it is not asked.

        A copy of the seat's buffer with the decision's cells set: numpy's cost of making an array from bytes
        is twice that of copying one.
        """
        if self._tails_at != self.leaves:
            self._write_tails(game)
        buffer = self._buffers[seat]
        if not self._hand_current[seat]:
            kinds = self._kinds
            buffer[:kinds] = (game.hands[seat].counts if self._counts else self._hand(game, seat))[:kinds]
            self._hand_current[seat] = True
        buffer[self._wall_cell] = game.wall_left
        discarder = getattr(game, "discarder", None)
        if discarder is not None:  # the cells set, copied and cleared one by one: no list of them to build
            mark = self._discarder_cell + (discarder - seat) % 4
            if stage is None:
                buffer[mark] = 1
                array = self._arrays[seat].copy()
                buffer[mark] = 0
            else:
                column, request = self._stage_column[stage], self._request + game.claimable
                buffer[column] = buffer[request] = buffer[mark] = 1
                array = self._arrays[seat].copy()
                buffer[column] = buffer[request] = buffer[mark] = 0
        elif stage is None:
            array = self._arrays[seat].copy()
        else:
            column, drawn = self._stage_column[stage], self.drawn
            if drawn is not None and drawn[0] == seat:
                request = self._request + drawn[1]
                buffer[column] = buffer[request] = 1
                array = self._arrays[seat].copy()
                buffer[column] = buffer[request] = 0
            else:
                buffer[column] = 1
                array = self._arrays[seat].copy()
                buffer[column] = 0
        if self._extra is not None:
            self._extra(game, seat, array[STATE])
        return array
