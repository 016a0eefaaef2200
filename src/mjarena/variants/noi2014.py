"""NOI 2014 team contest (团体对抗赛) mahjong: 108 tiles, PENG, GANG and HU; winners leave, the rest play on.

The rules as a state machine in the style of :mod:`mjarena.variants.thupc2021`: every decision goes to an
agent (:mod:`mjarena.agents.builtin` has two); the Botzone request strings are a view of :attr:`NoiGame.events`
written by the protocol layer.  Ranking and points are in :mod:`mjarena.variants.noi2014_ranking` and
re-exported here.

Rules, in the spec's words where they decide something (RULINGS.md settles the rest):

- "只使用万、筒、条三种花色": kinds 0..26 (W1-W9, B1-B9, T1-T9), four of each, 108 tiles.
- "开局每名选手顺序拿 4 张牌，直到所有选手拥有 12 张牌。之后每名选手再按顺序摸 1 张牌": 4 tiles at a time to
  seats 0, 1, 2, 3 until each holds 12, then one each; East (seat 0) then draws.  Normal draws take the
  front of the wall; "杠牌以后需要从牌堆末尾摸一张牌": a draw after any GANG takes the back.
- Decision ``draw`` (the seat that just drew): ``play`` a tile, ``gang`` (four in hand, or adding to its
  own PENG), or ``hu``.  Decision ``claim`` (every other seat still in, after each discard): ``pass``,
  ``peng`` (then "碰牌的选手需打出一张牌": the action names the discard), ``gang`` (then a draw from the back)
  or ``hu``.  ``gang`` on a discard of X is legal with three concealed X (an open kong, event ``gang``) or
  with a PENG of X (RULINGS, overriding the earlier reading: "melded tiles stay in the hand, only shown"; the
  discard joins the PENG, event ``gang_on_peng``; :class:`NoiOptions` ``gang_on_peng=False`` forbids it).
  "胡牌的优先度高于碰牌。若同时有多个人能够胡牌，则按照逆时针顺序，离出牌者近的选手优先": the others' HU is
  not carried out, and is no error.
- HU: "不论是否操作成功都判定选手程序结束游戏".  :meth:`NoiGame.apply` accepts ``hu`` from any seat asked;
  a HU whose hand does not win is a false HU (诈胡): the seat's status becomes ``out``, it leaves the table
  and play goes on (ranked as an error, ``false_hu``).
- "任何一选手胡牌之后该选手退出当前游戏 ... 剩下尚未胡牌的选手继续游戏": play goes on with the next remaining
  player after the winner.  "当只剩下一方选手未胡牌或是牌堆无剩余牌后，游戏结束": the game ends when one
  player is left, or when a player (after a GANG too) must draw from an empty wall; then each player still
  in answers a ``target`` decision (its target hand, judged by the ranking).
- Options: :class:`NoiOptions` ``seven_pairs`` (七对, off; four of a kind counts as two pairs) and
  ``gang_on_peng`` (on).  Robbing a
  kong (抢杠) is not implemented: the spec names neither, RULINGS keeps both off.

>>> from mjarena.agents.builtin import GreedyAgent
>>> from mjarena.variants.base import play
>>> game = play(NoiGame(shuffled_wall(seed=1)), [GreedyAgent()] * 4)
>>> game.events[0].type, game.events[-1].type
('deal', 'end')
>>> sorted(r.points for r in rank(game))
[1.0, 2.0, 3.0, 4.0]
"""

from __future__ import annotations

import random
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import NamedTuple

from mjarena.hand.tracked import TrackedHand
from mjarena.tiles import TileError, check_counts
from mjarena.variants.base import Action, Decision, Event, StateMachine, VariantInfo, register
from mjarena.variants.noi2014_ranking import (
    WORST_DISTANCE,
    SeatResult,
    is_winning_shape,
    points_for_ranks,
    rank,
    target_distance,
    whole_hand_counts,
)

__all__ = [
    "HAND_SIZE",
    "KINDS",
    "SEAT_NAMES",
    "WALL_SIZE",
    "WORST_DISTANCE",
    "Meld",
    "NoiGame",
    "NoiOptions",
    "SeatResult",
    "is_winning_shape",
    "points_for_ranks",
    "rank",
    "shuffled_wall",
    "target_distance",
    "validate_wall",
    "whole_hand_counts",
]

SEAT_NAMES = ("East", "South", "West", "North")
KINDS = 27
WALL_SIZE = 4 * KINDS
HAND_SIZE = 13

HU = Action("hu")
PASS = Action("pass")
OPEN_GANG = Action("gang")
PLAY = tuple(Action("play", kind) for kind in range(KINDS))
GANG = tuple(Action("gang", kind) for kind in range(KINDS))
PENG = tuple(Action("peng", kind) for kind in range(KINDS))

_FULL_WALL = [kind for kind in range(KINDS) for _ in range(4)]
_new = tuple.__new__  # Event(...) and Decision(...) of the most frequent ones, without NamedTuple's __new__ call
_OTHERS = [((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4) for seat in range(4)]

Choices = Mapping[int, Action]
Flow = Generator[Decision, Choices, "int | None"]


@dataclass(frozen=True)
class NoiOptions:
    """Rule options.  ``seven_pairs``: seven pairs (七对, no melds, four of a kind = two pairs) also wins.
    ``gang_on_peng``: ``gang`` on a discard of X is also legal with a PENG of X (the discard joins the meld).

    >>> NoiOptions(), NoiOptions(gang_on_peng=False).gang_on_peng
    (NoiOptions(seven_pairs=False, gang_on_peng=True), False)
    """

    seven_pairs: bool = False
    gang_on_peng: bool = True


class Meld(NamedTuple):
    """A laid-down set: ``type`` ``peng`` or ``gang``; ``source`` ``open`` (claimed from a discard),
    ``concealed`` (four in hand) or ``added`` (a fourth tile, drawn or discarded, added to one's own PENG)."""

    type: str
    kind: int
    source: str

    @property
    def size(self) -> int:
        return 4 if self.type == "gang" else 3


def validate_wall(wall: Sequence[int]) -> None:
    """Raise :class:`TileError` unless ``wall`` is 108 NOI tiles, 4 of each of the 27 kinds.

    >>> validate_wall([0] * 108)
    Traceback (most recent call last):
    ...
    mjarena.tiles.TileError: a fifth copy of W1 (tile 5); there are only 4 of each kind
    >>> validate_wall([27] + [0] * 107)
    Traceback (most recent call last):
    ...
    mjarena.tiles.TileError: tile 1 is not a NOI 2014 tile (kind 27); NOI uses kinds 0..26 (W1..T9)
    """
    if len(wall) == WALL_SIZE and set(map(type, wall)) == {int} and sorted(wall) == _FULL_WALL:
        return  # the usual wall, checked in C; any other goes through the checks that explain what is wrong
    for position, kind in enumerate(wall, start=1):
        if type(kind) is not int or not 0 <= kind < KINDS:
            raise TileError(f"tile {position} is not a NOI 2014 tile (kind {kind!r}); NOI uses kinds 0..26 (W1..T9)")
    check_counts(wall, notation="noi")
    if len(wall) != WALL_SIZE:
        raise TileError(f"a NOI 2014 wall has {WALL_SIZE} tiles (4 of each of 27 kinds), not {len(wall)}")


def shuffled_wall(seed: int | None = None) -> list[int]:
    """A wall of the 108 tiles shuffled by ``random.Random(seed)``.

    >>> len(shuffled_wall(1)), shuffled_wall(1) == shuffled_wall(1)
    (108, True)
    """
    wall = [kind for kind in range(KINDS) for _ in range(4)]
    random.Random(seed).shuffle(wall)
    return wall


class NoiGame(StateMachine):
    """One game from a given wall (front first; draws after a GANG come from the end).

    Attributes: ``hands`` (:class:`TrackedHand` of concealed tiles per seat; ``melds`` counts laid sets, a
    kong as one), ``melds`` (per seat, :class:`Meld` list), ``status`` (``in``, ``won`` or ``out``),
    ``win_order``, ``discards`` (every discard in order, claimed ones too), ``events``, ``decision`` (None
    once over), ``claimable`` and ``discarder`` (during a ``claim`` decision), ``last_drawn`` (per seat),
    ``wall_left`` (tiles not drawn yet), ``exhausted`` (the wall ran out) and ``targets`` (seat -> the tiles of
    its ``target`` answer, or None).
    """

    def __init__(self, wall: Sequence[int], options: NoiOptions = NoiOptions()) -> None:
        validate_wall(wall)
        self.wall = tuple(wall)
        self.options = options
        self.front = 0
        self.back = 0
        self.wall_left = WALL_SIZE  # WALL_SIZE - front - back, kept as they move: read at every observation
        self.hands = [TrackedHand() for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.status = ["in"] * 4
        self.win_order: list[int] = []
        self.discards: list[int] = []
        self.claimed: list[int] = []  # indexes into discards of the tiles taken by PENG, GANG or HU
        self.events: list[Event] = []
        self.claimable: int | None = None
        self.discarder: int | None = None
        self.last_drawn: list[int | None] = [None] * 4
        self.exhausted = False
        self.targets: dict[int, tuple[int, ...] | None] = {}
        self._flow = self._play()
        self.decision: Decision | None = next(self._flow)

    # -- views -------------------------------------------------------------------------------------------

    def wall_remainder(self) -> tuple[int, ...]:
        """The tiles not yet drawn, front first."""
        return self.wall[self.front : WALL_SIZE - self.back]

    def pool(self) -> list[int]:
        """The discards still on the table (not taken by a PENG, GANG or HU), in order."""
        taken = set(self.claimed)
        return [kind for index, kind in enumerate(self.discards) if index not in taken]

    def whole_hand(self, seat: int) -> list[int]:
        """Counts (27 kinds) of the seat's concealed and melded tiles."""
        return whole_hand_counts(self.hands[seat].counts, self.melds[seat])

    def next_in(self, seat: int) -> int | None:
        """The next player after ``seat`` (counter-clockwise: 0 -> 1 -> 2 -> 3) still in, if any."""
        for step in (1, 2, 3):
            following = (seat + step) % 4
            if self.status[following] == "in":
                return following
        return None

    def players_in(self) -> list[int]:
        return [seat for seat in range(4) if self.status[seat] == "in"]

    def wins(self, seat: int) -> bool:
        """Whether the seat's concealed hand (14 - 3n tiles) wins as it is."""
        hand = self.hands[seat]
        return hand.wins() or (self.options.seven_pairs and _seven_pairs(hand, 0))

    def wins_with(self, seat: int, kind: int) -> bool:
        """Whether the seat's hand (13 - 3n tiles) wins with one more tile of ``kind``."""
        hand = self.hands[seat]
        return hand.wins_with(kind) or (self.options.seven_pairs and _seven_pairs(hand, kind + 1))

    # -- decisions ---------------------------------------------------------------------------------------

    def accepts(self, decision: Decision, action: Action | None, legal: Sequence[Action]) -> bool:
        """Any answer to a ``target`` decision (the ranking judges it), and ``hu`` always: a false HU if the hand
        does not win; otherwise only the legal actions."""
        return decision.stage == "target" or action in legal or getattr(action, "type", None) == "hu"

    def draw_options(self, seat: int) -> list[Action]:
        """The legal actions of a seat that has just drawn: ``hu``, ``gang`` k, ``play`` k."""
        counts = self.hands[seat].counts
        legal = [HU] if self.wins(seat) else []
        melds = self.melds[seat]
        if melds or 4 in counts:  # a kong: four held, or one of a PENG's kind (never both), in kind order
            kinds = [meld.kind for meld in melds if meld.type == "peng" and counts[meld.kind]]
            if 4 in counts:
                kinds += [k for k in range(KINDS) if counts[k] == 4]
            legal += [GANG[k] for k in sorted(kinds)]
        legal += compress(PLAY, counts)  # PLAY[k] for each kind k held, in kind order
        return legal

    def claim_options(self, seat: int, kind: int) -> list[Action]:
        """What a seat may do with a discard of ``kind``: ``hu``, ``peng`` y, ``gang`` (three in hand, or a PENG
        of ``kind`` when the options allow), and always ``pass``."""
        hand = self.hands[seat]
        counts = hand.counts
        held = counts[kind]
        wins = hand.wins_with(kind) or (self.options.seven_pairs and _seven_pairs(hand, kind + 1))  # wins_with's
        if held < 2 and not wins and not self.melds[seat]:
            return [PASS]  # most seats: nothing to claim
        legal = [HU] if wins else []
        if held >= 2:
            legal += compress(PENG, counts)  # then play any kind held but a third ``kind`` not held
            if held == 2:
                legal.remove(PENG[kind])
        if held >= 3 or (self.options.gang_on_peng and self._has_peng(seat, kind)):
            legal.append(OPEN_GANG)
        legal.append(PASS)
        return legal

    def _has_peng(self, seat: int, kind: int) -> bool:
        melds = self.melds[seat]
        return bool(melds) and _new(Meld, ("peng", kind, "open")) in melds  # most seats have no meld: no tuple

    # -- the flow of play --------------------------------------------------------------------------------

    def _play(self) -> Generator[Decision, Choices, None]:
        self._deal()
        seat: int | None = 0
        while seat is not None:
            if not self._draw(seat, back=False):
                yield from self._exhaust()
                break
            seat = yield from self._turn(seat)
        self.events.append(Event("end"))

    def _deal(self) -> None:
        dealt: list[list[int]] = [[] for _ in range(4)]
        for _ in range(3):
            for seat in range(4):
                dealt[seat] += self.wall[self.front : self.front + 4]
                self.front += 4
        for seat in range(4):
            dealt[seat].append(self.wall[self.front])
            self.front += 1
        self.wall_left = WALL_SIZE - self.front
        for seat, tiles in enumerate(dealt):
            self.hands[seat] = TrackedHand(tiles)
            self.events.append(Event("deal", seat, tuple(tiles)))

    def _draw(self, seat: int, back: bool) -> bool:
        """Draw one tile (front, or back after a GANG); False if the wall is empty."""
        if self.wall_left == 0:
            return False
        self.wall_left -= 1
        if back:
            self.back += 1
            kind = self.wall[WALL_SIZE - self.back]
        else:
            kind = self.wall[self.front]
            self.front += 1
        self.hands[seat].add(kind)
        self.last_drawn[seat] = kind
        self.events.append(_new(Event, ("draw_back" if back else "draw", seat, (kind,), None)))
        return True

    def _turn(self, seat: int) -> Flow:
        """The seat has just drawn.  Returns the next seat to draw from the front, or None: game over."""
        while True:
            verb, tile, _, _ = (yield _new(Decision, ("draw", {seat: self.draw_options(seat)})))[seat]  # unpacked:
            if verb == "hu":  # a NamedTuple's fields by name are generic attribute lookups
                if self.wins(seat):
                    self._win(seat, Event("hu_self", seat, (self.last_drawn[seat],)))  # type: ignore[arg-type]
                else:
                    self._false_hu(seat)
                return self._after_leaving(seat)
            if verb == "gang":
                assert tile is not None
                self._kong_from_hand(seat, tile)
            else:
                assert tile is not None
                outcome = yield from self._discard(seat, tile)
                if outcome is None or outcome >= 0:
                    return outcome
                seat = ~outcome  # an open kong: that seat draws from the back
            if not self._draw(seat, back=True):
                yield from self._exhaust()
                return None

    def _discard(self, seat: int, kind: int) -> Flow:
        """Discard and let the others claim, through any chain of PENGs.

        Returns the next seat to draw from the front, None (game over) or ``~seat`` for a seat that made an
        open kong and must draw from the back.
        """
        while True:
            self.hands[seat].remove(kind)
            self.discards.append(kind)
            self.events.append(_new(Event, ("play", seat, (kind,), None)))
            self.claimable, self.discarder = kind, seat
            others = self._others_in(seat)
            choices = yield _new(Decision, ("claim", {other: self.claim_options(other, kind) for other in others}))
            self.claimable = self.discarder = None
            winner = self._resolve_hu(seat, others, kind, choices)
            if winner is not None:
                return self._after_leaving(winner)
            if self.status.count("in") <= 1:
                return None
            for other in others:  # a false HU has left, and its choice is no PENG or GANG
                action = choices[other]
                if action is PASS:  # most do: the rules' own pass (a NamedTuple's field by name costs a lookup)
                    continue
                if action.type == "peng":
                    self._take(other, kind, 2, Meld("peng", kind, "open"), Event("peng", other, (kind,)))
                    seat, kind = other, action.tile  # type: ignore[assignment]
                    break
                if action.type == "gang":
                    if self._has_peng(other, kind):  # then no X is concealed: the fourth is the discard
                        self._add_to_peng(other, kind, Event("gang_on_peng", other, (kind,), seat))
                        self.claimed.append(len(self.discards) - 1)
                    else:
                        self._take(other, kind, 3, Meld("gang", kind, "open"), Event("gang", other, (kind,), seat))
                    return ~other
            else:
                return self.next_in(seat)

    def _resolve_hu(self, discarder: int, others: Sequence[int], kind: int, choices: Choices) -> int | None:
        """Carry out the nearest true HU among ``others`` (the discarder's, counter-clockwise from it); every
        false HU leaves."""
        winner = None
        for seat in others:
            action = choices[seat]
            if action is PASS or action.type != "hu":  # most answer the rules' own pass
                continue
            if not self.wins_with(seat, kind):
                self._false_hu(seat)
            elif winner is None:
                winner = seat
                self.hands[seat].add(kind)
                self.claimed.append(len(self.discards) - 1)
                self._win(seat, Event("hu", seat, (kind,), discarder))
        return winner

    def _others_in(self, seat: int) -> Sequence[int]:
        """The other seats still in, counter-clockwise from ``seat``."""
        status = self.status
        if status.count("in") == 4:  # most discards: nobody has left
            return _OTHERS[seat]
        return [other for other in _OTHERS[seat] if status[other] == "in"]

    def _take(self, seat: int, kind: int, from_hand: int, meld: Meld, event: Event) -> None:
        hand = self.hands[seat]
        for _ in range(from_hand):
            hand.remove(kind)
        hand.melds += 1
        self.melds[seat].append(meld)
        self.claimed.append(len(self.discards) - 1)
        self.events.append(event)

    def _kong_from_hand(self, seat: int, kind: int) -> None:
        hand = self.hands[seat]
        if hand.counts[kind] == 4:
            for _ in range(4):
                hand.remove(kind)
            hand.melds += 1
            self.melds[seat].append(Meld("gang", kind, "concealed"))
            self.events.append(Event("angang", seat, (kind,)))
            return
        hand.remove(kind)
        self._add_to_peng(seat, kind, Event("bugang", seat, (kind,)))

    def _add_to_peng(self, seat: int, kind: int, event: Event) -> None:
        """The seat's PENG of ``kind`` becomes a kong (its fourth tile already taken from where it was)."""
        melds = self.melds[seat]
        melds[melds.index(Meld("peng", kind, "open"))] = Meld("gang", kind, "added")
        self.events.append(event)

    def _win(self, seat: int, event: Event) -> None:
        self.status[seat] = "won"
        self.win_order.append(seat)
        self.events.append(event)

    def _false_hu(self, seat: int) -> None:
        self.status[seat] = "out"
        self.events.append(Event("false_hu", seat))

    def _after_leaving(self, seat: int) -> int | None:
        """After ``seat`` left: the next remaining player, or None if at most one is left."""
        return self.next_in(seat) if len(self.players_in()) > 1 else None

    def _exhaust(self) -> Generator[Decision, Choices, None]:
        self.exhausted = True
        self.events.append(Event("exhausted"))
        seats = self.players_in()
        if len(seats) < 2:
            return
        choices = yield Decision("target", {seat: () for seat in seats})
        for seat in seats:
            action = choices.get(seat)
            if getattr(action, "type", None) == "target":
                self.targets[seat] = tuple(action.tiles)  # type: ignore[union-attr]
            else:
                self.targets[seat] = None


def _seven_pairs(hand: TrackedHand, extra: int) -> bool:
    """Seven pairs with no melds; ``extra`` is one plus the kind of an added tile (0: none)."""
    if hand.melds or hand.size + (extra > 0) != 14:
        return False
    counts = hand.counts
    return all((counts[k] + (extra == k + 1)) % 2 == 0 for k in range(KINDS))


register(
    VariantInfo(
        name="noi2014",
        title="NOI 2014 team contest mahjong",
        tiles=WALL_SIZE,
        players=4,
        hand_size=HAND_SIZE,
        claims=("hu", "peng", "gang"),
        win_forms=("standard",),
        new_game=NoiGame,
        aliases=("noi",),
        notes={"options": "seven_pairs (off), gang_on_peng (on)", "ranking": "mjarena.variants.noi2014_ranking.rank"},
    )
)
