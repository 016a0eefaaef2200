"""Built-in policies for NOI 2014 (:mod:`mjarena.variants.noi2014`): a random player and a greedy one.

Both sit at any seat, are deterministic (the random one given its seed) and are fast enough to play
hundreds of whole games per second in process.  :data:`BUILTIN_AGENTS` maps their names to their classes.

- :class:`RandomAgent`: a random legal action (an action type first, then one of that type), so it never
  makes a false HU; its target hand is the greedy one.
- :class:`GreedyAgent`: always HU when it can; otherwise discards the tile that leaves the lowest exchange
  distance (和牌距离) of the concealed hand; declares a kong (concealed, added or open) when it does not raise
  the distance, and PENGs only if that lowers it.  (An open kong of a triplet can never lower the distance:
  the triplet already is a set; so "does not raise" is the only useful test.)  Its target hand is a closest
  winning hand (:func:`best_target`).

>>> from mjarena.variants.base import play
>>> from mjarena.variants.noi2014 import NoiGame, shuffled_wall
>>> agents = [BUILTIN_AGENTS[name](**({"seed": 5} if name == "random" else {})) for name in ("greedy", "random") * 2]
>>> play(NoiGame(shuffled_wall(seed=2)), agents).events[-1].type
'end'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from mjarena.hand.standard import distance_of_keys
from mjarena.hand.tracked import TrackedHand
from mjarena.tiles import STANDARD_KINDS, WILD
from mjarena.variants.base import Action, tiles_of

__all__ = ["BUILTIN_AGENTS", "GreedyAgent", "RandomAgent", "best_target", "keep_value"]

KINDS = 27
_GROUP = [kind // 9 for kind in range(KINDS)]
_WEIGHT = [5 ** (kind % 9) for kind in range(KINDS)]
_RUNS_WITH = [
    [start for start in range(kind - 2, kind + 1) if start >= kind - kind % 9 and start % 9 <= 6]
    for kind in range(KINDS)
]
"""For each kind, the lowest kinds of the runs (same suit) that contain it."""
_TRIPLES = [(kind, kind, kind) for kind in range(KINDS)]
_PAIRS = [(kind, kind) for kind in range(KINDS)]
_RUNS_HOLDING = [[(low, (low, low + 1, low + 2)) for low in _RUNS_WITH[kind]] for kind in range(KINDS)]
"""For each kind, the runs that contain it: (lowest kind, the run's kinds)."""


def _by_gain(option: tuple[int, tuple[int, ...], bool]) -> int:
    return -option[0]


# -- target hands ------------------------------------------------------------------------------------------


def best_target(hand: TrackedHand, melds: Sequence[Any]) -> tuple[int, ...]:
    """A winning hand (14-18 tiles, kongs as 4-tile sets) closest to the whole hand by symmetric difference.

    The melds stay as they are; the concealed tiles are completed into the remaining sets and the pair
    (four of a kind may stay a kong), at most 4 of a kind in all.  Exact within that family.

    >>> from mjarena.tiles import format_tiles, parse_tiles
    >>> hand = TrackedHand(parse_tiles("W1 W2 W3 B4 B5 B6 T7 T8 T9 T1 T1 T1 B9"))
    >>> format_tiles(best_target(hand, []), "noi")
    'W1 W2 W3 B4 B5 B6 B9 B9 T1 T1 T1 T7 T8 T9'
    """
    fixed: list[int] = []
    in_melds = [0] * KINDS
    for meld in melds:
        size = 4 if meld.type == "gang" else 3
        fixed += [meld.kind] * size
        in_melds[meld.kind] += size
    concealed = list(hand.counts[:KINDS])
    sets = 4 - len(melds)
    fours = [kind for kind in range(KINDS) if concealed[kind] == 4]
    best: tuple[int, list[int]] | None = None
    for quads in (q for size in range(min(len(fours), sets) + 1) for q in combinations(fours, size)):
        rest = concealed.copy()
        cap = [4 - laid for laid in in_melds]
        for kind in quads:
            rest[kind] = cap[kind] = 0
        completion = Completion(rest, cap, sets - len(quads)).run()
        if completion is None:
            continue
        tiles = [kind for kind in quads for _ in range(4)] + completion
        cost = _symmetric_difference(tiles, concealed)
        if best is None or cost < best[0]:
            best = (cost, tiles)
    assert best is not None, "a completion always exists with 27 kinds"
    return tuple(sorted(fixed + best[1]))


def _symmetric_difference(tiles: list[int], counts: list[int]) -> int:
    wanted = [0] * KINDS
    for kind in tiles:
        wanted[kind] += 1
    return sum(abs(wanted[k] - counts[k]) for k in range(KINDS))


class Completion:
    """Branch and bound for ``sets`` sets and a pair sharing the most tiles with ``rest``, under ``cap``.

    Branches on the lowest kind still held: a set or the pair containing it, or leaving its copies out.  The
    bound is the uncapped optimum from the distance tables (exact when no cap binds), so the first descent
    usually reaches it and the rest is cut off.
    """

    def __init__(self, rest: list[int], cap: list[int], sets: int) -> None:
        self.rest = rest
        self.cap = cap
        self.sets = sets
        self.used = [0] * KINDS
        self.chosen: list[tuple[int, ...]] = []
        self.best = -1
        self.best_tiles: list[int] | None = None
        self.held = [kind for kind in range(KINDS) if rest[kind]]  # no other kind is ever held in the search
        self.limit = self._bound(sets, 1)

    def run(self) -> list[int] | None:
        """The tiles of a best completion, or None if the caps leave no room for one."""
        self._search(0, self.sets, 1, 0)
        return self.best_tiles

    def _bound(self, sets: int, pairs: int, start: int = 0) -> int:
        """At most this many more tiles can be shared: the uncapped optimum for what is held and may still
        be added (each kind clamped to its free cap); ``start`` is the lowest kind held (none below it is, so
        the kinds held at the start of the search are looked at, whatever ``start``).

        With the pair already chosen, two honour tiles stand in for it: they can only be a pair, so the
        tables' optimum with them is the optimum without a pair plus 2.
        """
        cap, used, rest = self.cap, self.used, self.rest
        keys = [0, 0, 0]
        total = 0
        for kind in self.held:  # the group keys of min(held, free) per kind (suit_keys's, unlisted); none below
            count = rest[kind]  # ``start`` is held any more: no need to skip them
            if count:
                free = cap[kind] - used[kind]
                if free < count:
                    count = free
                keys[_GROUP[kind]] += count * _WEIGHT[kind]
                total += count
        overlap = 3 * sets + 2 - distance_of_keys(keys[0], keys[1], keys[2], 0 if pairs else 2, 4 - sets) - (
            0 if pairs else 2)
        return overlap if overlap < total else total

    def _search(self, start: int, sets: int, pairs: int, gained: int) -> None:
        rest = self.rest
        kind = start
        while kind < KINDS and not rest[kind]:
            kind += 1
        if kind == KINDS or sets + pairs == 0:
            self._leaf(sets, pairs, gained)
            return
        if gained + self._bound(sets, pairs, kind) <= self.best:
            return
        for gain, shape, is_pair in self._options(kind, sets, pairs):
            taken = self._take(shape)
            self.chosen.append(shape)
            self._search(kind, sets - (not is_pair), pairs - is_pair, gained + gain)
            self.chosen.pop()
            self._give_back(shape, taken)
            if self.best >= self.limit:
                return
        held, rest[kind] = rest[kind], 0
        self._search(kind + 1, sets, pairs, gained)
        rest[kind] = held

    def _options(self, kind: int, sets: int, pairs: int) -> list[tuple[int, tuple[int, ...], bool]]:
        """The sets and the pair holding ``kind`` that fit, each with its gain, the greatest gain first (ties
        in the order triple, runs from the lowest, pair)."""
        cap, used, rest = self.cap, self.used, self.rest
        options: list[tuple[int, tuple[int, ...], bool]] = []
        free = cap[kind] - used[kind]
        held = rest[kind]
        if sets:
            if free >= 3:
                options.append((held if held < 3 else 3, _TRIPLES[kind], False))
            for low, run in _RUNS_HOLDING[kind]:
                if cap[low] != used[low] and cap[low + 1] != used[low + 1] and cap[low + 2] != used[low + 2]:
                    options.append(((rest[low] != 0) + (rest[low + 1] != 0) + (rest[low + 2] != 0), run, False))
        if pairs and free >= 2:
            options.append((held if held < 2 else 2, _PAIRS[kind], True))
        if len(options) > 1:
            options.sort(key=_by_gain)
        return options

    def _take(self, shape: tuple[int, ...]) -> list[int]:
        taken = []
        for kind in shape:
            self.used[kind] += 1
            if self.rest[kind]:
                self.rest[kind] -= 1
                taken.append(kind)
        return taken

    def _give_back(self, shape: tuple[int, ...], taken: list[int]) -> None:
        for kind in shape:
            self.used[kind] -= 1
        for kind in taken:
            self.rest[kind] += 1

    def _leaf(self, sets: int, pairs: int, gained: int) -> None:
        if gained <= self.best:
            return
        fillers = self._fillers(sets, pairs)
        if fillers is None:
            return
        self.best = gained
        self.best_tiles = [kind for shape in self.chosen for kind in shape] + fillers

    def _fillers(self, sets: int, pairs: int) -> list[int] | None:
        """Any ``sets`` sets and ``pairs`` pair that fit under the caps (they add nothing to the overlap)."""
        used = self.used.copy()
        tiles: list[int] = []
        for size in [3] * sets + [2] * pairs:
            kind = next((k for k in range(KINDS) if self.cap[k] - used[k] >= size), None)
            if kind is not None:
                shape = [kind] * size
            elif size == 3:
                low = next(
                    (k for k in range(KINDS) if k % 9 <= 6 and all(self.cap[t] > used[t] for t in (k, k + 1, k + 2))),
                    None,
                )
                if low is None:
                    return None
                shape = [low, low + 1, low + 2]
            else:
                return None
            for t in shape:
                used[t] += 1
            tiles += shape
        return tiles


# -- agents ------------------------------------------------------------------------------------------------


def keep_value(counts: Sequence[int], kind: int) -> int:
    """How much a tile is worth keeping when distances tie: a wildcard most, THUPC's special tiles least, else
    copies and neighbours, then nearness to the middle of its suit (the built-in and strong agents' tie-break).

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> hand = counts_of(parse_mpsz("1239m11z"))
    >>> keep_value(hand, 1) > keep_value(hand, 0) > keep_value(hand, 8)  # 2m links both ways, 1m one, 9m none
    True
    """
    if kind >= STANDARD_KINDS:
        return 1000 if kind == WILD else -1000
    value = 3 * (counts[kind] - 1)
    if kind >= 27:  # an honour: copies only
        return 5 * value
    rank = kind % 9
    for offset, weight in ((1, 2), (2, 1)):
        if rank >= offset:
            value += weight * counts[kind - offset]
        if rank + offset <= 8:
            value += weight * counts[kind + offset]
    return 5 * value + min(rank, 8 - rank)


def _target_action(game: Any, seat: int) -> Action:
    return Action("target", tiles=best_target(game.hands[seat], game.melds[seat]))


class RandomAgent:
    """A random legal action: an action type uniformly, then one action of that type.

    Never a false HU (``hu`` is offered only when the hand wins); its target hand is :func:`best_target`.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        if not legal:
            return _target_action(game, seat)
        types = list(dict.fromkeys(action.type for action in legal))
        kind = self.rng.choice(types)
        return self.rng.choice([action for action in legal if action.type == kind])


class GreedyAgent:
    """Lowest exchange distance first; ties by keeping connected tiles and discarding terminals first."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        """``seed`` is accepted like every built-in agent's; the greedy choice is deterministic anyway."""

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        if not legal:
            return _target_action(game, seat)
        if legal[0].type == "hu":
            return legal[0]
        hand = game.hands[seat]
        if legal[-1].type == "pass":
            return self._claim(hand, game.claimable, legal)
        return self._draw(hand, legal)

    @staticmethod
    def _best_discard(counts: Sequence[int], keys: list[int], melds: int, kinds: Sequence[int]) -> tuple[int, int]:
        """(distance, kind) of the best discard among ``kinds`` from a hand with these counts and table keys."""
        best_distance, best_kind, best_value = 99, -1, 0
        for kind in kinds:
            group, weight = _GROUP[kind], _WEIGHT[kind]
            keys[group] -= weight
            distance = distance_of_keys(keys[0], keys[1], keys[2], keys[3], melds)
            keys[group] += weight
            if distance > best_distance:
                continue
            value = keep_value(counts, kind)
            if distance < best_distance or value < best_value:
                best_distance, best_kind, best_value = distance, kind, value
        return best_distance, best_kind

    def _draw(self, hand: TrackedHand, legal: Sequence[Action]) -> Action:
        distance, kind = self._best_discard(hand.counts, hand.keys.copy(), hand.melds, tiles_of(legal, "play"))
        for action in legal:
            if action.type == "gang":
                tile = action.tile
                assert tile is not None
                concealed = hand.counts[tile] == 4
                after = hand.distance_without(tile, 4 if concealed else 1, 1 if concealed else 0)
                if after <= distance:
                    return action
        return Action("play", kind)

    def _claim(self, hand: TrackedHand, kind: int, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]  # pass is the only option
        now = hand.distance()
        choice, best = legal[-1], now
        pengs = tiles_of(legal, "peng")
        if pengs:
            keys = hand.keys.copy()
            keys[_GROUP[kind]] -= 2 * _WEIGHT[kind]
            counts = hand.counts.copy()
            counts[kind] -= 2
            distance, discard = self._best_discard(counts, keys, hand.melds + 1, pengs)
            if distance < best:
                choice, best = Action("peng", discard), distance
        concealed = hand.counts[kind] >= 3  # else the kong adds the discard to a PENG: the hand stays as it is
        if legal[-2].type == "gang" and (not concealed or hand.distance_without(kind, 3, 1) <= best):
            choice = legal[-2]  # an open kong keeps the distance at best, and brings a free draw
        return choice


BUILTIN_AGENTS: dict[str, type[RandomAgent] | type[GreedyAgent]] = {"random": RandomAgent, "greedy": GreedyAgent}
"""The built-in agents by name; call the class, with an optional ``seed``, to get an agent."""
