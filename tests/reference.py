"""A slow, obviously correct reference for the exchange distance (和牌距离) and the win check.

It follows the THUPC 2021 statement literally, for tests only.  A hand ``H`` (a count vector, see
:mod:`mjarena.tiles`) with ``n`` melds holds ``14 - 3n`` or ``13 - 3n`` tiles.  A winning hand ``W`` holds
``14 - 3n`` tiles: ``4 - n`` sets (a run of three consecutive ranks in one numbered suit, or a triplet of
any of the 34 standard kinds) and one pair, no special tile (kinds 34 and up), at most ``cap`` (4) of each
kind *in W* (melded tiles do not count toward the cap).

The distance is the least ``x`` such that adding ``x`` chosen tiles to H and removing ``x`` (14 - 3n tiles) or
``x - 1`` (13 - 3n tiles) leaves some W.  For a given W the cheapest way is to add the multiset difference
``W - H`` and remove ``H - W``; any other way adds and removes the same extra tiles, so it is no cheaper.  As
``|W| - |H|`` is 0 or 1, the numbers removed are automatically ``x`` or ``x - 1``; :func:`_edit` checks it.

So the distance is ``min over W of |W - H|``.  For 2, 3 or 4 melds every W is enumerated
(:func:`distance_exhaustive`); for 0 or 1 meld there are too many (about 13 million for 0 melds), and
:func:`distance_dfs` walks the same W (sets in nondecreasing order of their index in :data:`SETS`, then the
pair) depth first, cutting a branch only when even a perfect completion could not beat the best W found.

``cap=None`` lifts the cap of 4 (a fifth copy of a kind is then allowed), to see whether the cap explains a
difference from another shanten calculator.

>>> from mjarena.tiles import counts_of, parse_mpsz
>>> reference_distance(counts_of(parse_mpsz("1111m")), melds=3)
2
>>> reference_distance(counts_of(parse_mpsz("1111m")), melds=3, cap=None)
1
>>> reference_distance(counts_of(parse_mpsz("123m456p789s1122z")))
1
>>> is_winning_bruteforce(counts_of(parse_mpsz("123m456p789s11122z")))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

__all__ = [
    "SETS",
    "STANDARD",
    "distance_dfs",
    "distance_exhaustive",
    "is_winning_bruteforce",
    "reference_distance",
    "winning_hands",
]

STANDARD = 34
"""Kinds 0..33 can be part of a winning hand; 34 and up (PASS, REVERSE, DOUBLE, wildcard) never."""

Hand = tuple[tuple[int, int], ...]
"""A winning hand as sorted (kind, count) pairs, for the exhaustive enumeration."""


def _all_sets() -> tuple[tuple[int, int, int], ...]:
    """The 55 sets: 34 triplets (one of each standard kind) and 21 runs (7 per numbered suit)."""
    triplets = [(k, k, k) for k in range(STANDARD)]
    runs = [(9 * suit + r, 9 * suit + r + 1, 9 * suit + r + 2) for suit in range(3) for r in range(7)]
    return tuple(triplets + runs)


SETS: tuple[tuple[int, int, int], ...] = _all_sets()


def _standard_size(melds: int) -> int:
    if not 0 <= melds <= 4:
        raise ValueError(f"melds must be 0..4, not {melds}")
    return 14 - 3 * melds


def _check_hand(counts: Sequence[int], melds: int) -> int:
    size = _standard_size(melds)
    total = sum(counts)
    if total not in (size, size - 1):
        raise ValueError(f"a hand with {melds} meld(s) holds {size - 1} or {size} tiles, not {total}")
    return total


@cache
def winning_hands(melds: int, cap: int | None = 4) -> tuple[Hand, ...]:
    """Every distinct winning hand of ``14 - 3 * melds`` tiles (at most ``cap`` of a kind), as (kind, count).

    >>> len(winning_hands(4)), len(winning_hands(4, cap=1))
    (34, 0)
    >>> ((0, 3), (1, 2)) in winning_hands(3)
    True
    """
    size = _standard_size(melds)
    found: set[Hand] = set()
    for sets in combinations_with_replacement(SETS, 4 - melds):
        for pair in range(STANDARD):
            w: dict[int, int] = {pair: 2}
            for tile_set in sets:
                for kind in tile_set:
                    w[kind] = w.get(kind, 0) + 1
            if cap is not None and max(w.values()) > cap:
                continue
            assert sum(w.values()) == size
            found.add(tuple(sorted(w.items())))
    return tuple(sorted(found))


def _edit(counts: Sequence[int], w: dict[int, int] | Hand, melds: int) -> tuple[int, int]:
    """(tiles to add, tiles to remove) to turn the hand into W; checks the statement's x / x - 1 rule."""
    w = dict(w)
    added = sum(max(c - counts[k], 0) for k, c in w.items())
    removed = sum(max(c - w.get(k, 0), 0) for k, c in enumerate(counts))
    expected_removed = added if sum(counts) == _standard_size(melds) else added - 1
    assert removed == expected_removed, (added, removed, sum(counts), melds)
    return added, removed


def distance_exhaustive(counts: Sequence[int], melds: int, cap: int | None = 4) -> int:
    """min over every winning hand W of |W - H|; practical for 2, 3 or 4 melds.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> distance_exhaustive(counts_of(parse_mpsz("1m")), melds=4)
    1
    """
    _check_hand(counts, melds)
    best: Hand | None = None
    best_added = 99
    for w in winning_hands(melds, cap):
        added = sum(c - counts[k] for k, c in w if c > counts[k])
        if added < best_added:
            best, best_added = w, added
    assert best is not None
    added, _ = _edit(counts, best, melds)
    assert added == best_added
    return best_added


def distance_dfs(counts: Sequence[int], melds: int, cap: int | None = 4) -> int:
    """The same minimum as :func:`distance_exhaustive`, by depth-first search over W with branch and bound.

    W is built set by set, the sets in nondecreasing order of their index in :data:`SETS` (so each multiset
    of sets is visited once), then the pair.  ``overlap`` counts the tiles W shares with H: the next copy of
    a kind added to W is shared exactly when W holds fewer of that kind than H.  |W - H| = |W| - overlap, so
    the search maximises the overlap.  A branch is cut when ``overlap + min(tiles W still needs, tiles of H
    not yet shared)`` cannot beat the best overlap found: each tile still to come adds at most one, and no
    W shares more tiles than H has.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> distance_dfs(counts_of(parse_mpsz("19m19p19s1234567z")), melds=0)
    9
    >>> distance_dfs(counts_of(parse_mpsz("1111m234p567p789s")), melds=0)
    2
    >>> distance_dfs(counts_of(parse_mpsz("1111m234p567p789s")), melds=0, cap=None)
    1
    """
    _check_hand(counts, melds)
    size = _standard_size(melds)
    h = [counts[k] for k in range(STANDARD)]
    shareable = sum(h)  # tiles of H that a W could share: the special tiles never can
    limit = size if cap is None else cap
    w = [0] * STANDARD
    best = -1
    best_w: list[int] = []

    def add(kind: int) -> int:
        gain = 1 if w[kind] < h[kind] else 0
        w[kind] += 1
        return gain

    def search(start: int, sets_left: int, overlap: int) -> None:
        nonlocal best, best_w
        if best == min(size, shareable):
            return  # no W can share more
        if sets_left == 0:
            for pair in range(STANDARD):
                if w[pair] + 2 <= limit:
                    gain = add(pair) + add(pair)
                    if overlap + gain > best:
                        best, best_w = overlap + gain, list(w)
                    w[pair] -= 2
            return
        for index in range(start, len(SETS)):
            tile_set = SETS[index]
            if any(w[k] + tile_set.count(k) > limit for k in tile_set):
                continue
            gain = sum(add(k) for k in tile_set)
            still_needed = 3 * (sets_left - 1) + 2
            if overlap + gain + min(still_needed, shareable - overlap - gain) > best:
                search(index, sets_left - 1, overlap + gain)
            for k in tile_set:
                w[k] -= 1

    search(0, 4 - melds, 0)
    assert sum(best_w) == size and best >= 0
    added, _ = _edit(counts, {k: c for k, c in enumerate(best_w) if c}, melds)
    assert added == size - best
    return added


def reference_distance(counts: Sequence[int], melds: int = 0, cap: int | None = 4) -> int:
    """The distance by the statement: exhaustive for 2-4 melds, depth-first search for 0 or 1."""
    if melds >= 2:
        return distance_exhaustive(counts, melds, cap)
    return distance_dfs(counts, melds, cap)


def _sets_only(h: list[int], sets_left: int) -> bool:
    """Whether ``h`` splits into exactly ``sets_left`` sets (tries every split).

    The lowest kind still held must belong to some set, and that set can only be its triplet or the run that
    starts at it (a run starting lower would need a lower tile).  Trying both, recursively, tries every split.
    """
    lowest = next((k for k in range(STANDARD) if h[k]), None)
    if lowest is None:
        return sets_left == 0
    if sets_left == 0:
        return False
    found = False
    if h[lowest] >= 3:
        h[lowest] -= 3
        found = _sets_only(h, sets_left - 1)
        h[lowest] += 3
    if not found and lowest < 27 and lowest % 9 <= 6 and h[lowest + 1] and h[lowest + 2]:
        for k in (lowest, lowest + 1, lowest + 2):
            h[k] -= 1
        found = _sets_only(h, sets_left - 1)
        for k in (lowest, lowest + 1, lowest + 2):
            h[k] += 1
    return found


def is_winning_bruteforce(counts: Sequence[int], melds: int = 0) -> bool:
    """Whether the hand is ``14 - 3 * melds`` standard tiles that split into ``4 - melds`` sets and a pair.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> is_winning_bruteforce(counts_of(parse_mpsz("11m")), melds=4)
    True
    >>> is_winning_bruteforce(counts_of(parse_mpsz("1112345678999m1p")))
    False
    """
    size = _standard_size(melds)
    if sum(counts) != size or any(counts[STANDARD:]):
        return False
    h = [counts[k] for k in range(STANDARD)]
    for pair in range(STANDARD):
        if h[pair] >= 2:
            h[pair] -= 2
            found = _sets_only(h, 4 - melds)
            h[pair] += 2
            if found:
                return True
    return False
