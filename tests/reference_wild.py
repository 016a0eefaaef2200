"""A slow, literal reference for the wildcard hand analysis (:mod:`mjarena.hand.wild`), for tests only.

- Win check and arrangements: enumerate what each wildcard stands for (every multiset of kinds of
  ``rules.kinds``), drop the choices that represent a kind more than the cap (4, or 5 with the fifth-copy
  option), then decompose the tiles, each tagged real or wild, in every possible way.  A group made only of
  wildcards is then written as "any" (kind 37), as the library does.
- Distance: the exchange definition over every winning target T (a multiset of represented tiles).  Keeping
  ``W2 <= W`` wildcards, the final hand holds real tiles ``T - w`` for some wildcard placement ``w`` (``w[k]``
  wildcards stand for kind k), at most 4 real of a kind; the tiles drawn are ``(T - w) - H``.  For 2-4 melds
  every T is enumerated.

>>> from mjarena.hand.options import HandRules
>>> from mjarena.tiles import counts_of, parse_mpsz
>>> can_win_bruteforce(counts_of(parse_mpsz("1m*")), 4, HandRules())
True
>>> distance_reference(counts_of(parse_mpsz("1111m")), 3, HandRules())
2
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

from mjarena.hand.options import HandRules
from mjarena.hand.wild import Arrangement, Group

ANY = 37
NUM = 38


def _sets(kinds: frozenset[int]) -> list[tuple[int, int, int]]:
    triplets = [(k, k, k) for k in sorted(kinds)]
    runs = [(k, k + 1, k + 2) for k in sorted(kinds) if k < 27 and k % 9 <= 6]
    return triplets + runs


def _pair_kinds(rules: HandRules) -> list[int]:
    if rules.pair_258:
        return [k for k in sorted(rules.kinds) if k < 27 and k % 9 in (1, 4, 7)]
    return sorted(rules.kinds)


def _cap(rules: HandRules) -> int:
    return 5 if rules.wild_fifth_copy else 4


def _split(counts: Sequence[int], rules: HandRules) -> tuple[list[int], int, bool]:
    """(real counts of live kinds, wildcards, whether a dead tile is held)."""
    wilds = 0 if rules.wild_kind is None else counts[rules.wild_kind]
    real = [0] * NUM
    dead = False
    for kind, count in enumerate(counts):
        if kind == rules.wild_kind or not count:
            continue
        if kind in rules.kinds:
            real[kind] = count
        else:
            dead = True
    return real, wilds, dead


def _assignments(wilds: int, rules: HandRules) -> list[tuple[int, ...]]:
    return list(combinations_with_replacement(sorted(rules.kinds), wilds))


def _decompositions(real: list[int], wild: list[int], sets_left: int, pairs_left: int,
                    rules: HandRules, pair_kinds: set[int]) -> set[tuple[Group, ...]]:
    """Every multiset of groups that uses up exactly the tagged tiles (real[k] real and wild[k] wild of each k)."""
    found: set[tuple[Group, ...]] = set()
    chosen: list[Group] = []

    def members_tags(kinds: tuple[int, ...]) -> list[tuple[bool, ...]]:
        out: list[tuple[bool, ...]] = [()]
        for _ in kinds:
            out = [(*tags, t) for tags in out for t in (False, True)]
        return out

    def take(kinds: tuple[int, ...], tags: tuple[bool, ...]) -> bool:
        need_real: dict[int, int] = {}
        need_wild: dict[int, int] = {}
        for kind, is_wild in zip(kinds, tags, strict=True):
            bucket = need_wild if is_wild else need_real
            bucket[kind] = bucket.get(kind, 0) + 1
        if any(real[k] < n for k, n in need_real.items()) or any(wild[k] < n for k, n in need_wild.items()):
            return False
        for k, n in need_real.items():
            real[k] -= n
        for k, n in need_wild.items():
            wild[k] -= n
        return True

    def give(kinds: tuple[int, ...], tags: tuple[bool, ...]) -> None:
        for kind, is_wild in zip(kinds, tags, strict=True):
            if is_wild:
                wild[kind] += 1
            else:
                real[kind] += 1

    def search(sets: int, pairs: int) -> None:
        lowest = next((k for k in range(NUM) if real[k] or wild[k]), None)
        if lowest is None:
            if sets == 0 and pairs == 0:
                found.add(tuple(sorted(chosen)))
            return
        options: list[tuple[str, tuple[int, ...]]] = []
        if sets:
            options.append(("triplet", (lowest,) * 3))
            if lowest < 27 and lowest % 9 <= 6:
                options.append(("run", (lowest, lowest + 1, lowest + 2)))
        if pairs and lowest in pair_kinds:
            options.append(("pair", (lowest, lowest)))
        for kind, kinds in options:
            for tags in members_tags(kinds):
                if not take(kinds, tags):
                    continue
                wild_kinds = tuple(sorted(k for k, t in zip(kinds, tags, strict=True) if t))
                if len(wild_kinds) == len(kinds):
                    group = Group("triplet" if kind != "pair" else "pair", (ANY,) * len(kinds), (ANY,) * len(kinds))
                else:
                    group = Group(kind, kinds, wild_kinds)  # type: ignore[arg-type]
                chosen.append(group)
                search(sets - (kind != "pair"), pairs - (kind == "pair"))
                chosen.pop()
                give(kinds, tags)

    search(sets_left, pairs_left)
    return found


def _order(groups: tuple[Group, ...]) -> tuple[Group, ...]:
    return tuple(sorted(groups, key=lambda g: (g.type == "pair", g.kinds, g.type, g.wild)))


def arrangements_bruteforce(counts: Sequence[int], melds: int, rules: HandRules) -> list[Arrangement]:
    """Every distinct winning arrangement, by enumerating what each wildcard stands for."""
    if sum(counts) != 14 - 3 * melds:
        return []
    real, wilds, dead = _split(counts, rules)
    if dead:
        return []
    cap = _cap(rules)
    standard: set[tuple[Group, ...]] = set()
    seven: set[tuple[Group, ...]] = set()
    for assignment in _assignments(wilds, rules):
        wild = [0] * NUM
        for kind in assignment:
            wild[kind] += 1
        if any(real[k] + wild[k] > cap for k in range(NUM)):
            continue
        for groups in _decompositions(list(real), list(wild), 4 - melds, 1, rules, set(_pair_kinds(rules))):
            standard.add(_order(groups))
        if rules.seven_pairs and melds == 0:
            if any(real[k] + wild[k] > 4 for k in range(NUM)):
                continue  # three pairs of a kind would be six copies
            for groups in _decompositions(list(real), list(wild), 0, 7, rules, set(rules.kinds)):
                seven.add(_order(groups))
    out = [Arrangement("standard", g) for g in sorted(standard)]
    return out + [Arrangement("seven_pairs", g) for g in sorted(seven)]


def can_win_bruteforce(counts: Sequence[int], melds: int, rules: HandRules) -> bool:
    """Whether some choice of what the wildcards stand for makes sets and a pair (or seven pairs)."""
    if sum(counts) != 14 - 3 * melds:
        return False
    real, wilds, dead = _split(counts, rules)
    if dead:
        return False
    cap = _cap(rules)
    pair_kinds = _pair_kinds(rules)
    for assignment in _assignments(wilds, rules):
        h = list(real)
        for kind in assignment:
            h[kind] += 1
        if max(h) > cap:
            continue
        if rules.seven_pairs and melds == 0 and all(c % 2 == 0 and c <= 4 for c in h):
            return True
        for pair in pair_kinds:
            if h[pair] >= 2:
                h[pair] -= 2
                ok = _sets_only(h, 4 - melds)
                h[pair] += 2
                if ok:
                    return True
    return False


def _sets_only(h: list[int], sets_left: int) -> bool:
    lowest = next((k for k in range(34) if h[k]), None)
    if lowest is None:
        return sets_left == 0
    if sets_left == 0:
        return False
    if h[lowest] >= 3:
        h[lowest] -= 3
        ok = _sets_only(h, sets_left - 1)
        h[lowest] += 3
        if ok:
            return True
    if lowest < 27 and lowest % 9 <= 6 and h[lowest + 1] and h[lowest + 2]:
        for k in (lowest, lowest + 1, lowest + 2):
            h[k] -= 1
        ok = _sets_only(h, sets_left - 1)
        for k in (lowest, lowest + 1, lowest + 2):
            h[k] += 1
        return ok
    return False


@cache
def winning_targets(melds: int, rules: HandRules) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every standard-form target (represented tiles as sorted (kind, count)), at most ``cap`` of a kind."""
    cap = _cap(rules)
    found = set()
    for sets in combinations_with_replacement(_sets(rules.kinds), 4 - melds):
        for pair in _pair_kinds(rules):
            t: dict[int, int] = {pair: 2}
            for s in sets:
                for k in s:
                    t[k] = t.get(k, 0) + 1
            if max(t.values()) <= cap:
                found.add(tuple(sorted(t.items())))
    return tuple(sorted(found))


def distance_reference(counts: Sequence[int], melds: int, rules: HandRules) -> int:
    """The exchange distance by its definition (2-4 melds: every target is enumerated; no seven pairs)."""
    if melds < 2:
        raise ValueError("the reference distance enumerates targets for 2-4 melds only")
    real, wilds, _ = _split(counts, rules)  # dead tiles simply have to go
    best = 99
    for target in winning_targets(melds, rules):
        for kept in range(wilds + 1):
            # kept wildcards must cover every copy beyond the fourth; the rest go where T lacks real tiles
            forced = sum(max(0, c - 4) for _, c in target)
            if forced > kept:
                continue
            deficit = sum(max(0, c - real[k]) for k, c in target)
            best = min(best, max(0, deficit - kept))
    return best
