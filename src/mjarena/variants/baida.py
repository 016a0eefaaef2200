"""Regional 百搭 (wildcard) mahjong: 144 tiles, walls and dice, CHI/PENG/GANG/HU, 台 scoring; one hand.

The rules as a state machine in the style of :mod:`mjarena.variants.noi2014`.  Win checks and the winning
arrangements come from :mod:`mjarena.hand` (``RULES["baida"]``: wildcards, a 2/5/8 pair, seven pairs); the
台 items are in :mod:`mjarena.variants.baida_scoring`.  ``docs/rules.md`` ("## 百搭 (baida)") records every
reading of an open point.

- Tiles: 4 each of the 34 kinds (three suits, E S W N, 白 发 中) and 8 百搭 (kind 37): 144.
- Walls: the shuffled wall order is seat 0's wall, then seat 1's, 2's, 3's, 36 tiles each; within a wall,
  stack by stack from its right end (as its owner sees it), the upper tile of each stack first.  The walls
  form one ring of 72 stacks in the clockwise (drawing) order: seat 0's wall right to left, then seat 3's,
  seat 2's, seat 1's (see :func:`ring_stack`).
- Dice: the dealer (seat 0) rolls two dice; their total ``t`` counts the players from the dealer (1) counter-
  clockwise, so the wall of seat ``(t - 1) % 4`` is broken, ``t`` stacks from its right end: the ``t`` counted
  stacks stay as the ring's end and the deal starts at the next stack (:func:`break_point`).
- Deal: the dealer takes 2 stacks (4 tiles), then seats 1, 2, 3 in turn, three rounds (12 tiles each); then
  the dealer's jump (跳牌): the upper tiles of the 1st and the 3rd next stacks; seat 1 takes the lower tile of
  the 1st, seat 2 the upper and seat 3 the lower tile of the 2nd.  The dealer holds 14 and discards first.
- Ordinary draws continue clockwise from there (upper tile first); a replacement draw after any kong comes
  from the ring's other end (the last counted stack, upper tile first, going counter-clockwise).
- Decision ``draw`` (the seat to discard): ``hu`` (a winning hand), ``gang`` k (four k in hand, or adding k to
  its own PENG; then a replacement draw) or ``play`` k (百搭 too).  Decision ``claim`` (every other seat,
  after each discard): ``pass``; ``hu``; ``peng`` y (then discard y); ``gang`` (open kong, then a replacement
  draw); ``chi`` (next player only): ``Action("chi", low, tiles=(y,))`` for the run ``low, low+1, low+2``
  and the discard ``y`` after it.  HU (nearest the discarder in turn order) > PENG/GANG > CHI.  A discarded
  百搭 is dead: only ``pass``.  百搭 never take part in melds.
- The hand ends at the first win (``hu`` or ``hu_self``, then ``score``) or when a draw finds the wall empty
  (``exhausted``).  Points (:func:`rank`): the winner 4, the others 0; a drawn hand 0 for all.

Events: ``dice`` (seat 0, ``tiles`` = the two dice faces), ``deal``, ``draw``, ``draw_back``, ``play``,
``chi`` (``tiles`` = the run), ``peng``, ``gang`` (``target`` = the discarder), ``angang``, ``bugang``,
``hu`` (``target`` = the discarder), ``hu_self``, ``score`` (the winner; ``target`` = its 台 total; the items
are in :attr:`BaidaGame.score`), ``exhausted``, ``end``.

>>> from mjarena.agents.baida_agents import GreedyAgent
>>> from mjarena.variants.base import play
>>> game = play(BaidaGame(shuffled_wall(seed=1), dice=(3, 4)), [GreedyAgent()] * 4)
>>> [event.type for event in game.events[:2]], game.events[-1].type
(['dice', 'deal'], 'end')
>>> sum(result.points for result in rank(game)) in (0.0, 4.0)
True
"""

from __future__ import annotations

import random
from collections.abc import Generator, Mapping, Sequence
from itertools import compress
from typing import NamedTuple

from mjarena.hand import RULES, arrangements, can_win
from mjarena.tiles import WILD, TileError, format_tile
from mjarena.variants.baida_scoring import Score, best_score
from mjarena.variants.base import Action, Decision, Event, StateMachine, VariantInfo, register
from mjarena.variants.noi2014_ranking import SeatResult, winner_results

__all__ = [
    "HAND_SIZE",
    "KINDS",
    "STACKS",
    "WALL_SIZE",
    "WILD",
    "BaidaGame",
    "Meld",
    "Walls",
    "break_point",
    "rank",
    "ring_stack",
    "roll_dice",
    "shuffled_wall",
    "validate_wall",
]

KINDS = 34
WILDCARDS = 8
WALL_SIZE = 4 * KINDS + WILDCARDS
STACKS = WALL_SIZE // 2
WALL_STACKS = STACKS // 4
HAND_SIZE = 13
RULES_BAIDA = RULES["baida"]

HU = Action("hu")
PASS = Action("pass")
OPEN_GANG = Action("gang")
HELD = (*range(KINDS), WILD)
"""The kinds a hand can hold, in the order legal actions list them."""
PLAY = tuple(Action("play", k) for k in range(WILD + 1))
PENG = tuple(Action("peng", k) for k in range(WILD + 1))
"""``PLAY[k]``, ``PENG[k]``: the actions naming kind k to discard (the engine's own, built once)."""

Choices = Mapping[int, Action]
Flow = Generator[Decision, Choices, "int | None"]


class Meld(NamedTuple):
    """A laid-down set: ``type`` ``chi``, ``peng`` or ``gang``; ``tiles`` its kinds; ``source`` ``open`` (claimed
    from a discard), ``concealed`` (four in hand) or ``added`` (a fourth tile added to one's own PENG)."""

    type: str
    tiles: tuple[int, ...]
    source: str


# -- the wall -------------------------------------------------------------------------------------------------


def _held(actions: Sequence[Action], counts: Sequence[int]) -> list[Action]:
    """``actions[k]`` for each kind k of ``counts`` held, in :data:`HELD` order."""
    held = list(compress(actions[:KINDS], counts))
    if counts[WILD]:
        held.append(actions[WILD])
    return held


def validate_wall(wall: Sequence[int]) -> None:
    """Raise :class:`TileError` unless ``wall`` is 144 tiles: 4 of each of kinds 0..33 and 8 百搭 (37).

    >>> validate_wall([36] * 144)
    Traceback (most recent call last):
    ...
    mjarena.tiles.TileError: tile 1 is not a baida tile (kind 36); baida uses kinds 0..33 and 37 (BAIDA)
    >>> validate_wall(shuffled_wall(0)[:-1])
    Traceback (most recent call last):
    ...
    mjarena.tiles.TileError: a baida wall has 144 tiles (4 of each of 34 kinds and 8 BAIDA), not 143
    """
    seen = [0] * (WILD + 1)
    for position, kind in enumerate(wall, start=1):
        if type(kind) is not int or not (0 <= kind < KINDS or kind == WILD):
            raise TileError(
                f"tile {position} is not a baida tile (kind {kind!r}); baida uses kinds 0..33 and 37 (BAIDA)"
            )
        seen[kind] += 1
        limit = WILDCARDS if kind == WILD else 4
        if seen[kind] > limit:
            raise TileError(f"tile {position}: more than {limit} of {format_tile(kind)}")
    if len(wall) != WALL_SIZE:
        raise TileError(f"a baida wall has {WALL_SIZE} tiles (4 of each of 34 kinds and 8 BAIDA), not {len(wall)}")


def shuffled_wall(seed: int | None = None) -> list[int]:
    """The 144 tiles shuffled by ``random.Random(seed)``.

    >>> wall = shuffled_wall(7)
    >>> len(wall), wall.count(WILD), wall == shuffled_wall(7)
    (144, 8, True)
    """
    wall = [kind for kind in range(KINDS) for _ in range(4)] + [WILD] * WILDCARDS
    random.Random(seed).shuffle(wall)
    return wall


def roll_dice(seed: int | str | None = None) -> tuple[int, int]:
    """Two dice rolled by ``random.Random(seed)``.

    >>> roll_dice(3) == roll_dice(3), all(1 <= d <= 6 for d in roll_dice(3))
    (True, True)
    """
    rng = random.Random(seed)
    return rng.randint(1, 6), rng.randint(1, 6)


def ring_stack(seat: int, stack: int) -> int:
    """The ring index (clockwise, the drawing order) of stack ``stack`` (0 = right end) of ``seat``'s wall.

    The ring runs seat 0's wall, then seat 3's, seat 2's, seat 1's: drawing goes clockwise, the turn order
    counter-clockwise.

    >>> ring_stack(0, 0), ring_stack(3, 0), ring_stack(1, 17)
    (0, 18, 71)
    """
    return (-seat) % 4 * WALL_STACKS + stack


def break_point(dice: Sequence[int]) -> tuple[int, int]:
    """``(seat, stack)``: whose wall is broken and the first stack dealt (counted from its right end, 0-based).

    The dice total counts the players from the dealer (1) counter-clockwise, then that many stacks of the wall
    from its right end; the deal starts at the next stack.

    >>> break_point((1, 1)), break_point((3, 4)), break_point((6, 6))
    ((1, 2), (2, 7), (3, 12))
    """
    total = sum(dice)
    if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
        raise ValueError(f"two dice of 1..6, not {tuple(dice)}")
    return (total - 1) % 4, total


class Walls:
    """The ring of 72 stacks built from a 144-tile wall and broken by the dice.

    ``stacks[r]`` lists the wall positions (indexes into the shuffled wall) still in ring stack ``r``, upper tile
    first.  Ordinary draws go clockwise from the break, replacement draws counter-clockwise from the other end.

    >>> walls = Walls(list(range(144)), (3, 4))
    >>> walls.front_draw(), walls.front_draw(), walls.back_draw(), walls.left
    (86, 87, 84, 141)
    """

    def __init__(self, wall: Sequence[int], dice: Sequence[int]) -> None:
        self.wall = tuple(wall)
        seat, stack = break_point(dice)
        self.stacks: list[list[int]] = [[] for _ in range(STACKS)]
        for owner in range(4):
            for j in range(WALL_STACKS):
                base = 2 * (owner * WALL_STACKS + j)
                self.stacks[ring_stack(owner, j)] = [base, base + 1]
        self.front = ring_stack(seat, stack)
        self.back = (self.front - 1) % STACKS
        self.left = WALL_SIZE

    def take(self, ring: int, layer: int) -> int:
        """Take the upper (0) or lower (1) tile of ring stack ``ring`` (while both are there); its position."""
        position = self.stacks[ring % STACKS].pop(layer)
        self.left -= 1
        return position

    def front_draw(self) -> int:
        """The position of the next ordinary draw (clockwise), taken off the ring."""
        while not self.stacks[self.front]:
            self.front = (self.front + 1) % STACKS
        self.left -= 1
        return self.stacks[self.front].pop(0)

    def back_draw(self) -> int:
        """The position of the next replacement draw (counter-clockwise from the other end), taken off."""
        while not self.stacks[self.back]:
            self.back = (self.back - 1) % STACKS
        self.left -= 1
        return self.stacks[self.back].pop(0)

    def deal(self) -> list[list[int]]:
        """The wall positions each seat is dealt, in the order taken: 14 for the dealer, 13 for the others."""
        dealt: list[list[int]] = [[] for _ in range(4)]
        for _ in range(3):
            for seat in range(4):
                dealt[seat] += [self.front_draw() for _ in range(4)]
        first = (self.front + 1) % STACKS  # 48 tiles are 24 whole stacks: the jump starts at a fresh one
        dealt[0] += [self.take(first, 0), self.take(first + 2, 0)]  # the jump: upper tiles of the 1st and 3rd
        dealt[1].append(self.take(first, 0))  # the lower tile of the 1st
        dealt[2].append(self.take(first + 1, 0))
        dealt[3].append(self.take(first + 1, 0))
        return dealt


# -- the game -------------------------------------------------------------------------------------------------


class BaidaGame(StateMachine):
    """One hand of 百搭 mahjong from a 144-tile wall and two dice (by default rolled from the wall itself).

    Attributes: ``hands`` (per seat, counts by kind, length 38), ``melds`` (per seat, :class:`Meld` list),
    ``discards`` (every discard in order), ``claimed`` (indexes of the discards taken), ``events``,
    ``decision`` (None once over), ``claimable`` and ``discarder`` (during a ``claim``), ``last_drawn``,
    ``winner``, ``score`` (:class:`~mjarena.variants.baida_scoring.Score` of the win) and ``exhausted``.
    """

    def __init__(self, wall: Sequence[int], dice: Sequence[int] | None = None) -> None:
        validate_wall(wall)
        self.wall = tuple(wall)
        self.dice = tuple(dice) if dice is not None else roll_dice(",".join(map(str, self.wall)))
        self.walls = Walls(self.wall, self.dice)
        self.hands = [[0] * (WILD + 1) for _ in range(4)]
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.discards: list[int] = []
        self.claimed: list[int] = []
        self.events: list[Event] = []
        self.claimable: int | None = None
        self.discarder: int | None = None
        self.last_drawn: list[int | None] = [None] * 4
        self.winner: int | None = None
        self.score: Score | None = None
        self.exhausted = False
        self._flow = self._play()
        self.decision: Decision | None = next(self._flow)

    # -- views ---------------------------------------------------------------------------------------------

    @property
    def wall_left(self) -> int:
        return self.walls.left

    def wall_remainder(self) -> list[int]:
        """The kinds of the tiles not yet drawn (in no particular order)."""
        return [self.wall[position] for stack in self.walls.stacks for position in stack]

    def pool(self) -> list[int]:
        """The discards still on the table (not taken by a claim), in order."""
        taken = set(self.claimed)
        return [kind for index, kind in enumerate(self.discards) if index not in taken]

    def wins(self, seat: int, extra: int | None = None) -> bool:
        """Whether the seat's concealed hand (plus one tile of ``extra``) wins under ``RULES["baida"]``."""
        counts = self.hands[seat]
        if extra is not None:
            counts = counts.copy()
            counts[extra] += 1
        return can_win(counts, len(self.melds[seat]), RULES_BAIDA)

    # -- decisions -----------------------------------------------------------------------------------------

    def draw_options(self, seat: int) -> list[Action]:
        """The legal actions of the seat to discard: ``hu``, ``gang`` k (concealed or added), ``play`` k."""
        counts = self.hands[seat]
        legal = [HU] if self.wins(seat) else []
        pengs = {meld.tiles[0] for meld in self.melds[seat] if meld.type == "peng"}
        if pengs or 4 in counts:
            legal += [Action("gang", k) for k in range(KINDS) if counts[k] == 4 or (counts[k] and k in pengs)]
        return legal + _held(PLAY, counts)

    def claim_options(self, seat: int, kind: int, discarder: int) -> list[Action]:
        """What ``seat`` may do with ``discarder``'s discard of ``kind``; always ends with ``pass``."""
        if kind == WILD:
            return [PASS]
        counts = self.hands[seat]
        legal = [HU] if self.wins(seat, kind) else []
        if counts[kind] >= 2:
            legal += _held(PENG, counts)  # then discard any kind held but a third ``kind`` not held
            if counts[kind] == 2:
                legal.remove(PENG[kind])
            if counts[kind] >= 3:
                legal.append(OPEN_GANG)
        if seat == (discarder + 1) % 4 and kind < 27:
            for low in range(max(kind - kind % 9, kind - 2), min(kind, kind - kind % 9 + 6) + 1):
                rest = counts.copy()
                rest[kind] += 1
                if all(rest[t] for t in (low, low + 1, low + 2)):
                    for t in (low, low + 1, low + 2):
                        rest[t] -= 1
                    legal += [Action("chi", low, tiles=(y,)) for y in HELD if rest[y]]
        legal.append(PASS)
        return legal

    # -- the flow of play ----------------------------------------------------------------------------------

    def _play(self) -> Generator[Decision, Choices, None]:
        self.events.append(Event("dice", 0, self.dice))
        for seat, positions in enumerate(self.walls.deal()):
            tiles = tuple(self.wall[p] for p in positions)
            for kind in tiles:
                self.hands[seat][kind] += 1
            self.events.append(Event("deal", seat, tiles))
        self.last_drawn[0] = self.events[-4].tiles[-1]  # the dealer's last jump tile
        turn: int | None = 0  # the seat whose turn it is; None: the hand is over
        while turn is not None:
            turn = yield from self._turn(turn)
            if turn is not None and not self._draw(turn, back=False):
                break
        self.events.append(Event("end"))

    def _draw(self, seat: int, back: bool) -> bool:
        """Draw one tile (ordinary or replacement); if the wall is empty the hand is drawn: False."""
        if self.walls.left == 0:
            self.exhausted = True
            self.events.append(Event("exhausted"))
            return False
        kind = self.wall[self.walls.back_draw() if back else self.walls.front_draw()]
        self.hands[seat][kind] += 1
        self.last_drawn[seat] = kind
        self.events.append(Event("draw_back" if back else "draw", seat, (kind,)))
        return True

    def _turn(self, seat: int) -> Flow:
        """The seat holds 14 - 3n tiles.  Returns the next seat to draw, or None: the hand is over."""
        while True:
            action = (yield Decision("draw", {seat: self.draw_options(seat)}))[seat]
            if action.type == "hu":
                kind = self.last_drawn[seat]
                assert kind is not None
                self._win(seat, kind, Event("hu_self", seat, (kind,)))
                return None
            assert action.tile is not None
            if action.type == "gang":
                self._kong_from_hand(seat, action.tile)
            else:
                outcome = yield from self._discard(seat, action.tile)
                if outcome is None or outcome >= 0:
                    return outcome
                seat = ~outcome  # an open kong: that seat draws a replacement
            if not self._draw(seat, back=True):
                return None

    def _discard(self, seat: int, kind: int) -> Flow:
        """Discard and let the others claim, through any chain of PENGs and CHIs.

        Returns the next seat to draw, None (a win) or ``~seat`` for a seat that made an open kong.
        """
        while True:
            self.hands[seat][kind] -= 1
            self.discards.append(kind)
            self.events.append(Event("play", seat, (kind,)))
            order = [(seat + step) % 4 for step in (1, 2, 3)]
            self.claimable, self.discarder = kind, seat
            choices = yield Decision("claim", {other: self.claim_options(other, kind, seat) for other in order})
            self.claimable = self.discarder = None
            for other in order:
                if choices[other].type == "hu":
                    self.hands[other][kind] += 1
                    self.claimed.append(len(self.discards) - 1)
                    self._win(other, kind, Event("hu", other, (kind,), seat))
                    return None
            claim = next(((o, choices[o]) for o in order if choices[o].type in ("peng", "gang")), None)
            if claim is None and choices[order[0]].type == "chi":
                claim = (order[0], choices[order[0]])
            if claim is None:
                return order[0]
            other, action = claim
            if action.type == "gang":
                self._take(other, kind, (kind,) * 4, Event("gang", other, (kind,), seat))
                return ~other
            if action.type == "peng":
                self._take(other, kind, (kind,) * 3, Event("peng", other, (kind,), seat))
            else:
                assert action.tile is not None
                run = (action.tile, action.tile + 1, action.tile + 2)
                self._take(other, kind, run, Event("chi", other, run, seat))
            seat, kind = other, action.tile if action.type == "peng" else action.tiles[0]  # type: ignore[assignment]

    def _take(self, seat: int, kind: int, tiles: tuple[int, ...], event: Event) -> None:
        """Lay down an open meld of ``tiles`` made with the discard ``kind``."""
        rest = list(tiles)
        rest.remove(kind)
        for tile in rest:
            self.hands[seat][tile] -= 1
        self.melds[seat].append(Meld(event.type, tiles, "open"))
        self.claimed.append(len(self.discards) - 1)
        self.events.append(event)

    def _kong_from_hand(self, seat: int, kind: int) -> None:
        counts = self.hands[seat]
        if counts[kind] == 4:
            counts[kind] = 0
            self.melds[seat].append(Meld("gang", (kind,) * 4, "concealed"))
            self.events.append(Event("angang", seat, (kind,)))
            return
        counts[kind] -= 1
        melds = self.melds[seat]
        index = melds.index(Meld("peng", (kind,) * 3, "open"))
        melds[index] = Meld("gang", (kind,) * 4, "added")
        self.events.append(Event("bugang", seat, (kind,)))

    def _win(self, seat: int, kind: int, event: Event) -> None:
        self.winner = seat
        self.events.append(event)
        counts = self.hands[seat]
        found = arrangements(counts, len(self.melds[seat]), RULES_BAIDA)
        self.score = best_score(found, [meld.tiles for meld in self.melds[seat]], kind)
        self.events.append(Event("score", seat, target=self.score.total))


# -- results --------------------------------------------------------------------------------------------------

WIN_POINTS = 4.0


def rank(game: BaidaGame) -> list[SeatResult]:
    """Per-seat results of a finished hand: the winner ranks 1st with 4 points, the others 2nd with 0; a drawn
    hand ranks everyone 1st with 0 points.  ``status`` is ``won`` or ``in``.

    >>> from mjarena.agents.baida_agents import RandomAgent
    >>> from mjarena.variants.base import play
    >>> game = play(BaidaGame(shuffled_wall(3)), [RandomAgent(seed=s) for s in range(4)])
    >>> len(rank(game))
    4
    """
    if game.decision is not None:
        raise ValueError("the hand is not over")
    return winner_results(game.winner, WIN_POINTS)


register(
    VariantInfo(
        name="baida",
        title="Regional 百搭 (wildcard) mahjong",
        tiles=WALL_SIZE,
        players=4,
        hand_size=HAND_SIZE,
        claims=("hu", "peng", "gang", "chi"),
        win_forms=("小胡", "七巧对", "清一色"),
        new_game=BaidaGame,
        aliases=("百搭",),
        notes={"scoring": "mjarena.variants.baida_scoring", "ranking": "mjarena.variants.baida.rank"},
    )
)
