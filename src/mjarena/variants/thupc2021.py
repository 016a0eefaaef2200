"""THUPC 2021 (preliminary) mahjong simulator rules: 148 tiles with PASS, REVERSE and DOUBLE.

The rules as a state machine.  Every decision goes to an agent; the statement's fixed strategy is
:class:`mjarena.agents.thupc_fixed.FixedStrategy`.  The ``A IN 8M`` log is one formatter of the events
(:func:`mjarena.formats.thupc_log`).

Rules, in the statement's words where they decide something:

- The wall is dealt one tile at a time, A B C D A ..., until each holds 13 (every deal draw is logged).
- A turn: draw one tile, then discard one.  "一旦有一名玩家荣和或自摸,游戏立即结束"; "如果某名玩家摸牌时发现
  牌堆中已经无牌可摸,游戏立即结束" (a DRAW), whoever draws, a DOUBLE's extra turn included.
- PASS names a player (the fixed strategy: the discarder's next) whose next turn is skipped.  REVERSE flips
  the order; "从出牌者原先的上家开始进行回合".  DOUBLE: "该名玩家立即进入一个额外的回合".
- After a discard of an ordinary tile: RON first, "从上一名出牌玩家开始,沿回合进行顺序的第一名能荣和的玩家"
  (截和 for the others); then PONG by any *other* player; then CHOW, only by the discarder's next player in the
  current order.  A claimer skips the players between and discards at once without drawing.
- A hand with a special tile never wins.

>>> from mjarena.agents.thupc_fixed import FixedStrategy
>>> from mjarena.variants.base import play
>>> game = play(ThupcGame(shuffled_wall(seed=1)), [FixedStrategy()] * 4)
>>> game.events[-1].type in ("win", "exhausted")
True
"""

from __future__ import annotations

import random
from collections.abc import Generator, Mapping, Sequence
from itertools import compress

from mjarena.hand.tracked import TrackedHand
from mjarena.tiles import DOUBLE, PASS, REVERSE, STANDARD_KINDS, TileError, check_counts, format_tile
from mjarena.variants.base import Action, Decision, Event, StateMachine, VariantInfo, register
from mjarena.variants.noi2014_ranking import SeatResult, winner_results

__all__ = [
    "KINDS", "SEAT_NAMES", "WALL_SIZE", "WIN_POINTS", "ThupcGame", "parse_deck", "rank", "shuffled_wall",
    "validate_wall",
]

SEAT_NAMES = "ABCD"
KINDS = 37  # 34 ordinary kinds and PASS, REVERSE, DOUBLE
WALL_SIZE = 4 * KINDS
HAND_SIZE = 13

SELF_DRAWN = Action("self_drawn")
RON = Action("ron")
PONG = Action("pong")
NO_CLAIM = Action("pass")
DISCARD = tuple(Action("discard", kind) for kind in range(KINDS))  # but PASS, which names a seat:
DISCARD_PASS = tuple(
    tuple(Action("discard", PASS, target) for target in range(4) if target != seat) for seat in range(4)
)

Choices = Mapping[int, Action]
_THUPC_NAMES = {format_tile(kind): kind for kind in range(KINDS)}


def validate_wall(wall: Sequence[int]) -> None:
    """Raise :class:`TileError` unless ``wall`` is 148 THUPC tiles, 4 of each of the 37 kinds.

    >>> validate_wall([0] * 148)
    Traceback (most recent call last):
    ...
    mjarena.tiles.TileError: a fifth copy of 1M (tile 5); there are only 4 of each kind
    """
    for position, kind in enumerate(wall, start=1):
        if not 0 <= kind < KINDS:
            raise TileError(f"tile {position} is not a THUPC 2021 tile (kind {kind})")
    check_counts(wall)
    if len(wall) != WALL_SIZE:
        raise TileError(f"a THUPC 2021 wall has {WALL_SIZE} tiles, not {len(wall)}")


def parse_deck(text: str) -> list[int]:
    """Read a deck: 148 THUPC tile names, one per line or separated by any white space.

    Errors name the line (and the tile's place in the deck) of the first thing that is wrong.

    >>> parse_deck("1M\\n2M Q")
    Traceback (most recent call last):
    ...
    mjarena.tiles.TileError: line 2: unknown tile name 'Q' (tile 3)
    >>> parse_deck(" ")
    Traceback (most recent call last):
    ...
    mjarena.tiles.TileError: empty input: no tiles
    """
    wall: list[int] = []
    seen = [0] * KINDS
    for number, line in enumerate(text.splitlines(), start=1):
        for token in line.split():
            kind = _THUPC_NAMES.get(token)
            if kind is None:
                hint = " (names are upper case)" if token.upper() in _THUPC_NAMES else ""
                raise TileError(f"line {number}: unknown tile name {token!r}{hint} (tile {len(wall) + 1})")
            seen[kind] += 1
            if seen[kind] > 4:
                raise TileError(f"line {number}: a fifth copy of {token} (tile {len(wall) + 1})")
            wall.append(kind)
    if not wall:
        raise TileError("empty input: no tiles")
    if len(wall) != WALL_SIZE:
        raise TileError(f"a THUPC 2021 deck has {WALL_SIZE} tiles, this one has {len(wall)}")
    return wall


def shuffled_wall(seed: int | None = None) -> list[int]:
    """A wall of the 148 tiles shuffled by ``random.Random(seed)``."""
    wall = [kind for kind in range(KINDS) for _ in range(4)]
    random.Random(seed).shuffle(wall)
    return wall


class ThupcGame(StateMachine):
    """One game from a given wall (front of the wall first).

    Attributes: ``hands`` (:class:`TrackedHand` per seat), ``melds`` (per seat, tuples of 3 kinds),
    ``direction`` (+1 for A B C D, -1 after an odd number of REVERSEs), ``events``, ``winner`` (a seat or
    None) and ``decision`` (None once the game is over).
    """

    def __init__(self, wall: Sequence[int]) -> None:
        validate_wall(wall)
        self.wall = tuple(wall)
        self.drawn = 0
        self.hands = [TrackedHand() for _ in range(4)]
        self.melds: list[list[tuple[int, int, int]]] = [[] for _ in range(4)]
        self.direction = 1
        self.skips = [0, 0, 0, 0]
        self.events: list[Event] = []
        self.winner: int | None = None
        self.claimable: int | None = None  # the discard that seats may claim now
        self.discarder: int | None = None
        self._flow = self._play()
        self.decision: Decision | None = next(self._flow)

    @property
    def wall_left(self) -> int:
        return len(self.wall) - self.drawn

    def next_seat(self, seat: int) -> int:
        """The next player after ``seat`` in the current order."""
        return (seat + self.direction) % 4

    # -- the flow of play -------------------------------------------------------------------------------

    def _play(self) -> Generator[Decision, Choices, None]:
        for i in range(4 * HAND_SIZE):
            self._draw(i % 4, "deal")
        seat = 0
        must_draw = True
        while True:
            if must_draw:
                if self.drawn == len(self.wall):
                    self.events.append(Event("exhausted"))
                    return
                self._draw(seat, "draw")
            hand = self.hands[seat]
            legal = self._discards(seat)
            if must_draw and hand.wins():
                legal.insert(0, SELF_DRAWN)
            action = (yield Decision("discard", {seat: legal}))[seat]
            if action is SELF_DRAWN or action.type == "self_drawn":
                self._win(seat, "self_drawn")
                return
            kind = action.tile
            assert kind is not None
            hand.remove(kind)
            self.events.append(Event("discard", seat, (kind,), action.target))
            must_draw = True
            if kind == PASS:
                assert action.target is not None
                self.skips[action.target] += 1
                following = self.next_seat(seat)
            elif kind == REVERSE:
                self.direction = -self.direction
                following = self.next_seat(seat)
            elif kind == DOUBLE:
                following = seat
            else:
                claimer = yield from self._claims(seat, kind)
                if claimer is None:
                    following = self.next_seat(seat)
                elif self.winner is not None:
                    return
                else:
                    seat = claimer
                    must_draw = False
                    continue
            while self.skips[following]:
                self.skips[following] -= 1
                following = self.next_seat(following)
            seat = following

    def _draw(self, seat: int, event: str) -> None:
        kind = self.wall[self.drawn]
        self.drawn += 1
        self.hands[seat].add(kind)
        self.events.append(Event(event, seat, (kind,)))

    def _discards(self, seat: int) -> list[Action]:
        counts = self.hands[seat].counts
        legal = list(compress(DISCARD[:STANDARD_KINDS], counts))  # each ordinary kind held, in kind order
        if counts[PASS]:
            legal += DISCARD_PASS[seat]
        legal += [DISCARD[kind] for kind in (REVERSE, DOUBLE) if counts[kind]]
        return legal

    def claim_options(self, discarder: int, kind: int) -> dict[int, list[Action]]:
        """What each other seat may do with a discard of ``kind`` (seats with nothing to do are left out)."""
        options: dict[int, list[Action]] = {}
        chower = self.next_seat(discarder)
        for seat in range(4):
            if seat == discarder:
                continue
            hand = self.hands[seat]
            legal: list[Action] = []
            if hand.wins_with(kind):
                legal.append(RON)
            if hand.counts[kind] >= 2:
                legal.append(PONG)
            if seat == chower and kind < 27:
                rank = kind % 9
                for low in range(max(0, rank - 2), min(rank, 6) + 1):
                    first = kind - rank + low
                    if all(hand.counts[t] for t in (first, first + 1, first + 2) if t != kind):
                        legal.append(Action("chow", first))
            if legal:
                legal.append(NO_CLAIM)
                options[seat] = legal
        return options

    def _claims(self, discarder: int, kind: int) -> Generator[Decision, Choices, int | None]:
        options = self.claim_options(discarder, kind)
        if not options:
            return None
        self.claimable, self.discarder = kind, discarder
        choices = yield Decision("claim", options)
        self.claimable = self.discarder = None
        order = [(discarder + self.direction * step) % 4 for step in (1, 2, 3)]
        for seat in order:
            if choices.get(seat, NO_CLAIM).type == "ron":
                self.hands[seat].add(kind)
                self._win(seat, "ron")
                return seat
        for seat in order:
            if choices.get(seat, NO_CLAIM).type == "pong":
                self._meld(seat, "pong", (kind, kind, kind), kind)
                return seat
        chower = order[0]
        choice = choices.get(chower, NO_CLAIM)
        if choice.type == "chow":
            low = choice.tile
            assert low is not None
            self._meld(chower, "chow", (low, low + 1, low + 2), kind)
            return chower
        return None

    def _meld(self, seat: int, verb: str, tiles: tuple[int, int, int], claimed: int) -> None:
        hand = self.hands[seat]
        taken = list(tiles)
        taken.remove(claimed)
        for tile in taken:
            hand.remove(tile)
        hand.melds += 1
        self.melds[seat].append(tiles)
        self.events.append(Event(verb, seat, tiles))

    def _win(self, seat: int, how: str) -> None:
        self.winner = seat
        self.events.append(Event(how, seat))
        self.events.append(Event("win", seat))


WIN_POINTS = 1.0
"""The statement scores nothing but who wins; mjarena's matches give the winner 1 point."""


def rank(game: ThupcGame) -> list[SeatResult]:
    """Per-seat results of a finished game: the winner 1st with :data:`WIN_POINTS`, the others 2nd with 0; an
    exhausted wall ranks everyone 1st with 0.

    >>> from mjarena.agents.thupc_fixed import FixedStrategy
    >>> from mjarena.variants.base import play
    >>> game = play(ThupcGame(shuffled_wall(1)), [FixedStrategy()] * 4)
    >>> sum(r.points for r in rank(game)) == (WIN_POINTS if game.winner is not None else 0.0)
    True
    """
    if game.decision is not None:
        raise ValueError("the game is not over")
    return winner_results(game.winner, WIN_POINTS)


register(
    VariantInfo(
        name="thupc2021",
        title="THUPC 2021 mahjong simulator",
        tiles=WALL_SIZE,
        players=4,
        hand_size=HAND_SIZE,
        claims=("ron", "pong", "chow"),
        win_forms=("standard",),
        new_game=ThupcGame,
        aliases=("thupc",),
    )
)
