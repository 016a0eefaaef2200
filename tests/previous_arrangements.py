"""The arrangement enumerator as it was before the rank-by-rank rewrite (commit bdcf11c), for tests and benchmarks.

A depth-first search per suit (the lowest real tile goes into every group that can hold it) and the full product
of the suits' options.  Kept only as a second reference next to the brute force of ``reference_wild.py`` and as
the "before" of ``benchmarks/arrangements.py``; :func:`mjarena.hand.wild.arrangements` must list exactly the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product

from mjarena.hand.options import HandRules
from mjarena.hand.wild import MAX_MELDS, Arrangement, Group, _check
from mjarena.tiles import NUM_KINDS, WILD

_ANY = WILD
_GroupTuple = tuple[Group, ...]


def _cap(rules: HandRules) -> int:
    return 5 if rules.wild_fifth_copy else 4


@lru_cache(maxsize=4096)
def _suit_options(base: int, real: tuple[int, ...], wilds: int, runs: bool, pair_ranks: tuple[int, ...],
                  wild_ranks: tuple[int, ...], cap: int) -> tuple[tuple[int, int, int, _GroupTuple], ...]:
    """Every distinct way to split one group's real tiles into sets and at most one pair, with wildcards.

    Returns (wildcards used, sets, pairs, groups) for each; every group holds at least one real tile; wildcards
    stand only for ranks in ``wild_ranks``; no kind is represented more than ``cap`` times.
    """
    size = len(real)
    found: set[tuple[int, int, int, _GroupTuple]] = set()
    left = list(real)
    represented = [0] * size
    chosen: list[Group] = []
    wild_ok = set(wild_ranks)

    def place(members: list[tuple[int, bool]], kind: str) -> bool:
        for rank, is_wild in members:
            if is_wild and rank not in wild_ok:
                return False
        for rank, is_wild in members:
            represented[rank] += 1
            if not is_wild:
                left[rank] -= 1
        if any(represented[rank] > cap for rank, _ in members):
            unplace(members)
            return False
        chosen.append(Group(kind, tuple(base + r for r, _ in members),  # type: ignore[arg-type]
                            tuple(sorted(base + r for r, w in members if w))))
        return True

    def unplace(members: list[tuple[int, bool]]) -> None:
        for rank, is_wild in members:
            represented[rank] -= 1
            if not is_wild:
                left[rank] += 1

    def search(wild_left: int, pairs: int) -> None:
        lowest = next((r for r in range(size) if left[r]), None)
        if lowest is None:
            groups = tuple(sorted(chosen))
            found.add((wilds - wild_left, len(groups) - pairs, pairs, groups))
            return
        candidates: list[tuple[str, list[tuple[int, bool]]]] = []
        for reals in range(1, min(3, left[lowest]) + 1):
            candidates.append(("triplet", [(lowest, False)] * reals + [(lowest, True)] * (3 - reals)))
        if pairs == 0 and lowest in pair_ranks:
            for reals in range(1, min(2, left[lowest]) + 1):
                candidates.append(("pair", [(lowest, False)] * reals + [(lowest, True)] * (2 - reals)))
        if runs:
            for start in range(max(0, lowest - 2), min(lowest, size - 3) + 1):
                above = [r for r in range(start, start + 3) if r > lowest]
                below = [(r, True) for r in range(start, lowest)]
                for real_above in product((False, True), repeat=len(above)):
                    if any(is_real and left[r] == 0 for r, is_real in zip(above, real_above, strict=True)):
                        continue
                    members = [*below, (lowest, False), *((r, not is_real) for r, is_real in
                                                          zip(above, real_above, strict=True))]
                    candidates.append(("run", members))
        for kind, members in candidates:
            cost = sum(1 for _, is_wild in members if is_wild)
            if cost > wild_left or not place(members, kind):
                continue
            search(wild_left - cost, pairs + (kind == "pair"))
            chosen.pop()
            unplace(members)

    search(wilds, 0)
    return tuple(sorted(found, key=lambda option: (option[0], option[3])))


def _standard_arrangements(counts: Sequence[int], melds: int, rules: HandRules, wilds: int) -> list[Arrangement]:
    cap = _cap(rules)
    per_group = []
    for group, base in enumerate((0, 9, 18, 27)):
        size = 9 if group < 3 else 7
        kinds = range(base, base + size)
        exists = base in rules.kinds
        real = tuple(0 if kind == rules.wild_kind else counts[kind] for kind in kinds)
        if not any(real):
            continue
        if not exists:
            return []
        if rules.pair_258:
            pair_ranks: tuple[int, ...] = (1, 4, 7) if group < 3 else ()
        else:
            pair_ranks = tuple(range(size))
        wild_ranks = tuple(range(size)) if wilds else ()
        options = _suit_options(base, real, wilds, group < 3, pair_ranks, wild_ranks, cap)
        if not options:
            return []
        per_group.append(options)
    sets_needed = MAX_MELDS - melds
    found: set[_GroupTuple] = set()
    for combination in product(*per_group):
        used = sum(option[0] for option in combination)
        sets = sum(option[1] for option in combination)
        pairs = sum(option[2] for option in combination)
        if used > wilds or sets > sets_needed or pairs > 1:
            continue
        free_sets, free_pairs = sets_needed - sets, 1 - pairs
        if wilds - used != 3 * free_sets + 2 * free_pairs:
            continue
        groups = [group for option in combination for group in option[3]]
        groups += [Group("triplet", (_ANY,) * 3, (_ANY,) * 3)] * free_sets
        groups += [Group("pair", (_ANY,) * 2, (_ANY,) * 2)] * free_pairs
        found.add(_ordered(groups))
    return [Arrangement("standard", groups) for groups in sorted(found)]


def _ordered(groups: list[Group]) -> _GroupTuple:
    """Sets first (sorted), then the pairs (sorted)."""
    return tuple(sorted(groups, key=lambda g: (g.type == "pair", g.kinds, g.type, g.wild)))


def _seven_pairs_arrangements(counts: Sequence[int], rules: HandRules, wilds: int) -> list[Arrangement]:
    per_kind: list[list[tuple[int, list[Group]]]] = []
    for kind in range(NUM_KINDS):
        count = 0 if kind == rules.wild_kind else counts[kind]
        if not count:
            continue
        if kind not in rules.kinds:
            return []
        options = []
        for real_pairs in range(count // 2 + 1):
            mixed = count - 2 * real_pairs
            if real_pairs + mixed <= 2 and mixed <= wilds:  # four copies at most: two pairs of a kind
                groups = [Group("pair", (kind, kind))] * real_pairs + [Group("pair", (kind, kind), (kind,))] * mixed
                options.append((mixed, groups))
        if not options:
            return []
        per_kind.append(options)
    found: set[_GroupTuple] = set()
    for combination in product(*per_kind):
        used = sum(option[0] for option in combination)
        left = wilds - used
        if left < 0 or left % 2:
            continue
        groups = [group for option in combination for group in option[1]]
        groups += [Group("pair", (_ANY, _ANY), (_ANY, _ANY))] * (left // 2)
        found.add(_ordered(groups))
    return [Arrangement("seven_pairs", groups) for groups in sorted(found)]


def arrangements(counts: Sequence[int], melds: int, rules: HandRules) -> list[Arrangement]:
    """Every distinct winning arrangement of a ``14 - 3 * melds`` hand (distinct as multisets of groups).

    Empty when the hand does not win (a ``13 - 3 * melds`` hand never does).  Standard forms come first,
    then seven pairs.
    """
    total = _check(counts, melds)
    if total != 14 - 3 * melds:
        return []
    wilds = 0 if rules.wild_kind is None else counts[rules.wild_kind]
    if any(counts[kind] for kind in range(NUM_KINDS) if kind != rules.wild_kind and kind not in rules.kinds):
        return []
    found = _standard_arrangements(counts, melds, rules, wilds)
    if rules.seven_pairs and melds == 0:
        found += _seven_pairs_arrangements(counts, rules, wilds)
    return found

