"""Scenario helpers for the NOI 2014 tests: walls that deal chosen hands, scripted agents, transcripts.

:func:`build_wall` builds a wall whose deal gives chosen hands; a :class:`Script` holds, per seat, a queue of
actions used one per decision of that seat; a seat with an empty queue plays the tile it just drew, passes
every claim and names no target.  :func:`transcript` shows the events as
``"<seat> <event> <tiles> [from <seat>]"``.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from mjarena.tiles import format_tiles, parse_tiles
from mjarena.variants.base import Action, Event
from mjarena.variants.noi2014 import NoiGame

HU = Action("hu")
PASS = Action("pass")
OPEN_GANG = Action("gang")
DEALT = 52  # tiles dealt: 13 to each of four seats


# -- helpers ------------------------------------------------------------------------------------------------


def tiles(text: str) -> list[int]:
    """Tile kinds from NOI names: ``tiles("W1 B2 T3") == [0, 10, 20]``."""
    return parse_tiles(text, "noi")


def tile(name: str) -> int:
    return tiles(name)[0]


def play(name: str) -> Action:
    return Action("play", tile(name))


def peng(discard: str) -> Action:
    return Action("peng", tile(discard))


def gang(name: str) -> Action:
    return Action("gang", tile(name))


def build_wall(hands: Mapping[int, str] = {}, draws: str = "", back: str = "") -> list[int]:
    """A 108-tile wall whose deal gives ``hands`` (seat -> 13 NOI names), whose front draws after the deal
    are ``draws`` (in order) and whose back draws are ``back`` (``back[0]`` is the last tile of the wall).
    Everything else is filled with the remaining tiles in kind order."""
    pool = Counter({kind: 4 for kind in range(27)})
    chosen = {seat: tiles(text) for seat, text in hands.items()}
    front, rear = tiles(draws), tiles(back)
    for kind in [k for hand in chosen.values() for k in hand] + front + rear:
        pool[kind] -= 1
        if pool[kind] < 0:
            raise ValueError(f"the scenario uses a fifth {format_tiles([kind], 'noi')}")
    filler = iter(sorted(pool.elements()))
    dealt = {seat: chosen.get(seat) or [next(filler) for _ in range(13)] for seat in range(4)}
    for seat, hand in dealt.items():
        assert len(hand) == 13, f"seat {seat} is dealt {len(hand)} tiles"
    wall: list[int] = []
    for round_ in range(3):
        for seat in range(4):
            wall += dealt[seat][4 * round_ : 4 * round_ + 4]
    wall += [dealt[seat][12] for seat in range(4)]
    middle = list(filler)
    wall += front + middle + rear[::-1]
    assert len(wall) == 108
    return wall


def dealt_hands(wall: Sequence[int]) -> list[list[int]]:
    """What the deal gives each seat, straight from the rule text: 4 at a time to 12, then 1 each."""
    return [
        [*wall[4 * seat : 4 * seat + 4], *wall[16 + 4 * seat : 20 + 4 * seat], *wall[32 + 4 * seat : 36 + 4 * seat],
         wall[48 + seat]]
        for seat in range(4)
    ]


class Script:
    """Queued actions per seat, one per decision of that seat; defaults when a queue is empty."""

    name = "script"

    def __init__(self, queues: Mapping[int, Iterable[Action | None]] | None = None) -> None:
        self.queues = {seat: deque(actions) for seat, actions in (queues or {}).items()}

    def pending(self) -> bool:
        return any(self.queues.values())

    def act(self, game: NoiGame, seat: int, legal: Sequence[Action]) -> Action:
        queue = self.queues.get(seat)
        action = queue.popleft() if queue else None
        if action is not None:
            return action
        if not legal:
            return Action("target")
        if legal[-1] == PASS:
            return PASS
        return Action("play", game.last_drawn[seat])


def run(game: NoiGame, script: Script) -> NoiGame:
    """Apply decisions until every queued action is used (or the game ends)."""
    while script.pending() and game.decision is not None:
        step(game, script)
    return game


def finish(game: NoiGame, script: Script | None = None) -> NoiGame:
    """Play to the end, with the script's defaults once its queues are empty."""
    script = script or Script()
    while game.decision is not None:
        step(game, script)
    return game


def step(game: NoiGame, agent: Any) -> None:
    decision = game.decision
    assert decision is not None
    game.apply({seat: agent.act(game, seat, legal) for seat, legal in decision.legal.items()})


def say(event: Event) -> str:
    words = [] if event.seat is None else [str(event.seat)]
    words.append(event.type)
    if event.tiles:
        words.append(format_tiles(event.tiles, "noi"))
    if event.target is not None:
        words.append(f"from {event.target}")
    return " ".join(words)


def transcript(game: NoiGame, start: int = 4) -> list[str]:
    """The events from ``start`` (after the four deals by default) as short lines."""
    return [say(event) for event in game.events[start:]]


def tile_census(game: NoiGame) -> Counter[int]:
    """Every tile where it is now: the wall, concealed hands, melds, discards still on the table."""
    census: Counter[int] = Counter(game.wall_remainder())
    for seat in range(4):
        census.update(game.hands[seat].kinds())
        for meld in game.melds[seat]:
            census[meld.kind] += meld.size
    census.update(game.pool())
    return census


FULL_SET = Counter({kind: 4 for kind in range(27)})
WAIT_T9 = "W1 W2 W3 B1 B2 B3 B4 B5 B6 T1 T2 T3 T9"
"""A ready hand that wins only on T9 (a single wait)."""
HOLDS_T9 = "T9 W4 W4 W5 W6 W7 B7 B8 B9 T4 T5 T6 T7"
"""A hand with one T9 to discard, far from winning."""
PAIR_T9 = "T9 T9 W1 W1 W2 W3 B1 B2 B3 B4 B5 B6 T1"
"""A hand that may PENG a T9 (and not win on it)."""
