"""A hand that keeps its table keys current, for game loops.

Adding or removing a tile changes one group key by one weight, so every distance question a game loop asks
(now, after discarding this, after claiming that) is a handful of look-ups.

>>> from mjarena.tiles import parse_tiles
>>> hand = TrackedHand(parse_tiles("1M 2M 3M 4P 5P 6P 7S 8S 9S E E E S"))
>>> hand.distance(), hand.wins_with(parse_tiles("S")[0])
(1, True)
>>> hand.distance_without(27)  # discard an East: 12 tiles, still 0 melds
2
"""

from __future__ import annotations

from collections.abc import Iterable

from mjarena.hand.standard import distance_of_keys, group_of, key_weight, suit_keys
from mjarena.tiles import NUM_KINDS, STANDARD_KINDS

__all__ = ["TrackedHand"]

_GROUP = [group_of(kind) for kind in range(STANDARD_KINDS)]
_WEIGHT = [key_weight(kind) for kind in range(STANDARD_KINDS)]


class TrackedHand:
    """A concealed hand: counts by kind, the number of melds laid down, and the table keys.

    Kinds 34 and up (special tiles) are counted in :attr:`extra`: they never belong to a winning hand.
    :meth:`wins_with` remembers when the hand (of 13 - 3n tiles) is not ready, until a tile is added or removed
    or the melds change: a game asks it about every discard, and most hands are not ready.
    """

    __slots__ = ("_unready_at", "counts", "extra", "keys", "melds", "size")

    def __init__(self, kinds: Iterable[int] = (), melds: int = 0) -> None:
        self.counts = [0] * NUM_KINDS
        for kind in kinds:
            self.counts[kind] += 1
        self.melds = melds
        self.size = sum(self.counts)
        self.extra = sum(self.counts[STANDARD_KINDS:])
        self.keys = list(suit_keys(self.counts))
        self._unready_at = -1  # the melds at which the hand, unchanged since, was found not ready; -1: unknown

    def add(self, kind: int) -> None:
        self.counts[kind] += 1
        self._unready_at = -1
        self.size += 1
        if kind < STANDARD_KINDS:
            self.keys[_GROUP[kind]] += _WEIGHT[kind]
        else:
            self.extra += 1

    def remove(self, kind: int) -> None:
        if self.counts[kind] <= 0:
            raise ValueError(f"the hand holds no tile of kind {kind}")
        self.counts[kind] -= 1
        self._unready_at = -1
        self.size -= 1
        if kind < STANDARD_KINDS:
            self.keys[_GROUP[kind]] -= _WEIGHT[kind]
        else:
            self.extra -= 1

    def distance(self) -> int:
        """The exchange distance of the hand as it is (13 - 3n or 14 - 3n tiles)."""
        m, p, s, h = self.keys
        return distance_of_keys(m, p, s, h, self.melds)

    def distance_without(self, kind: int, copies: int = 1, extra_melds: int = 0) -> int:
        """The distance after taking ``copies`` tiles of ``kind`` out (and laying ``extra_melds`` down)."""
        keys = self.keys.copy()
        if kind < STANDARD_KINDS:
            keys[_GROUP[kind]] -= copies * _WEIGHT[kind]
        return distance_of_keys(keys[0], keys[1], keys[2], keys[3], self.melds + extra_melds)

    def distances_without(self, kinds: Iterable[int]) -> list[int]:
        """The distance after discarding each of ``kinds``, one at a time (a loop of :meth:`distance_without`
        without its copy and call per kind).

        >>> from mjarena.tiles import parse_tiles
        >>> hand = TrackedHand(parse_tiles("1M 2M 3M 4P 5P 6P 7S 8S 9S E E E S N"))
        >>> hand.distances_without([0, 27, 30])  # 1M, East, North: only the North leaves it ready
        [2, 2, 1]
        """
        keys, melds = self.keys.copy(), self.melds
        distances = []
        for kind in kinds:
            group, weight = _GROUP[kind], _WEIGHT[kind]
            keys[group] -= weight
            distances.append(distance_of_keys(keys[0], keys[1], keys[2], keys[3], melds))
            keys[group] += weight
        return distances

    def distance_without_pair(self, first: int, second: int) -> int:
        """The distance after a claim that takes ``first`` and ``second`` out and lays one meld down."""
        keys = self.keys.copy()
        keys[_GROUP[first]] -= _WEIGHT[first]
        keys[_GROUP[second]] -= _WEIGHT[second]
        return distance_of_keys(keys[0], keys[1], keys[2], keys[3], self.melds + 1)

    def wins(self) -> bool:
        """Whether the hand, as it is, wins (14 - 3n tiles, no special tile, sets and a pair)."""
        return self.extra == 0 and self.size == 14 - 3 * self.melds and self.distance() == 0

    def wins_with(self, kind: int) -> bool:
        """Whether the hand plus one tile of ``kind`` wins.

        Only a ready hand (distance 1) wins with some tile: a hand found not ready is not asked the tables
        again until it changes.

        >>> hand = TrackedHand([0, 0, 0, 1, 2, 3, 9, 9, 9, 18, 18, 18, 27])  # waits on East (kind 27)
        >>> hand.wins_with(27), hand.wins_with(26)
        (True, False)
        >>> hand.remove(27); hand.add(28); hand.wins_with(27), hand.wins_with(28)
        (False, True)
        """
        melds = self.melds
        if (self._unready_at == melds or self.extra or kind >= STANDARD_KINDS or self.size != 13 - 3 * melds
                or self.counts[kind] >= 4):  # the remembered not-ready first: the most frequent answer
            return False
        keys = self.keys
        if distance_of_keys(keys[0], keys[1], keys[2], keys[3], melds) != 1:
            self._unready_at = melds
            return False
        keys = keys.copy()
        keys[_GROUP[kind]] += _WEIGHT[kind]
        return distance_of_keys(keys[0], keys[1], keys[2], keys[3], melds) == 0

    def kinds(self) -> list[int]:
        """The tiles held, sorted by kind."""
        return [kind for kind, count in enumerate(self.counts) for _ in range(count)]
