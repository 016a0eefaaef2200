"""The complete hand analysis for every rule set: win check, distance, waits, discards, every arrangement.

Wildcards (百搭), the 2-5-8 pair rule, seven pairs (七巧对), the fifth-copy option and the tile kinds that exist
are rule options (:class:`~mjarena.hand.options.HandRules`).  A hand is a count vector of length 38 (see
:mod:`mjarena.tiles`) with ``melds`` sets laid down: ``14 - 3 * melds`` tiles (it must discard) or
``13 - 3 * melds`` (it waits), wildcards included.

**Winning.**  The standard form is ``4 - melds`` sets (a run of three consecutive ranks of one numbered suit, or
a triplet) and one pair (a 2, 5 or 8 of a numbered suit under ``pair_258``).  Each wildcard stands for one tile
of :attr:`HandRules.kinds`; a kind is represented (real tiles plus wildcards standing for it) at most 4 times,
or 5 times under ``wild_fifth_copy`` (the fifth then being a wildcard).  Melded tiles do not count toward that
cap.  With ``seven_pairs``, 14 concealed tiles making seven pairs (four of a kind is two pairs) also win.
Tiles of kinds that do not exist (honours in NOI 2014), PASS/REVERSE/DOUBLE, and kind 37 when wildcards are
off are *dead*: a hand holding one never wins.

**Distance.**  The THUPC 2021 exchange distance (和牌距离), generalised: the least ``x`` such that drawing ``x``
chosen real tiles of the existing, non-wild kinds and discarding ``x`` (14 - 3n tiles) or ``x - 1``
(13 - 3n tiles) gives a winning hand, the hand holding at most 4 real tiles of a kind throughout (the cap
counts the hand only, as in THUPC).  Wildcards are never drawn by the exchange, but the hand's own wildcards
keep standing for anything.  Keeping every wildcard is never worse, so the distance is
``14 - 3n - W - overlap``: W wildcards held and ``overlap`` the most real tiles a winning target can keep.  With
no wildcard and the default options it equals :func:`mjarena.hand.distance`.

All of it is table-driven: the yes/no check and the distance are four group keys and four look-ups (tables
built by ``tools/build_tables.py``); :func:`arrangements` searches, but only within one suit at a time.

>>> from mjarena.tiles import counts_of, parse_mpsz
>>> baida = RULES["baida"]
>>> hand = counts_of(parse_mpsz("123m456p789s22m11z*"))
>>> can_win(hand), can_win(hand, rules=baida)  # 111z(*) and the 2-5-8 pair 22m
(True, True)
>>> [format_arrangement(a) for a in arrangements(hand, rules=baida)]
['123m 456p 789s 111z(*) 22m']
>>> distance(counts_of(parse_mpsz("19m19p19s1234567z")), rules=RULES["thupc2021"])
9
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import Literal, NoReturn

from mjarena.hand import tables as _std
from mjarena.hand.options import RULES, HandRules
from mjarena.hand.standard import key_weight, suit_keys
from mjarena.tiles import NUM_KINDS, STANDARD_KINDS, WILD, TileError, format_tile

__all__ = [
    "ACCELERATED",
    "RULES",
    "Analysis",
    "Arrangement",
    "DiscardOption",
    "Group",
    "HandRules",
    "Wait",
    "analyse",
    "arrangements",
    "can_win",
    "discards",
    "distance",
    "distance_function",
    "format_arrangement",
    "format_group",
    "group_keys",
    "waits",
]

DEFAULT_RULES = HandRules()
MAX_MELDS = 4
MAX_WILD_COPIES = 8
"""A table of 144 tiles holds 8 百搭: the most wildcards a hand may hold."""


# ---------------------------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Wait:
    """A tile kind that helps: it completes the hand (:func:`waits`) or brings it closer (:func:`discards`).

    ``unseen`` is ``4 - held - visible`` of that kind, or ``None`` when no visible counts were given.
    """

    kind: int
    unseen: int | None = None


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """Discarding ``kind`` leaves a hand at ``distance``; ``useful`` are the kinds that would then help."""

    kind: int
    distance: int
    useful: list[Wait] = field(default_factory=list)


@dataclass(frozen=True, slots=True, order=True)
class Group:
    """One set or the pair of an arrangement.

    ``kinds``: the (sorted) tiles the group stands for; ``wild``: the (sorted) kinds that wildcards stand for in
    it.  A group made of wildcards only is written with kind :data:`~mjarena.tiles.WILD` (37) for every tile:
    it stands for any set (any pair; any 2-5-8 pair under the 2-5-8 rule), and arrangements that differ only in
    what such a group stands for are one arrangement.  Such a set is written as a triplet.
    """

    type: Literal["run", "triplet", "pair"]
    kinds: tuple[int, ...]
    wild: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One way to read a winning hand: its form and its groups (sets first, then pairs, each sorted)."""

    form: Literal["standard", "seven_pairs"]
    groups: tuple[Group, ...]


@dataclass(frozen=True, slots=True)
class Analysis:
    """Everything :func:`analyse` knows about a hand.

    ``waits`` is filled for a 13 - 3n hand, ``discards`` for a 14 - 3n hand; ``arrangements`` lists every
    distinct winning arrangement (empty unless the hand wins).
    """

    tiles: int
    melds: int
    wilds: int
    can_win: bool
    distance: int
    waits: list[Wait]
    discards: list[DiscardOption]
    arrangements: list[Arrangement]


# ---------------------------------------------------------------------------------------------- tables


class _Table:
    """One variant's look-up tables: group keys -> classes -> combined classes -> distance."""

    __slots__ = ("excess", "final", "honour_class", "honour_classes", "pair", "suit_class", "suit_classes", "triple")

    def __init__(self, suit_class: Sequence[int], honour_class: Sequence[int], pair: Sequence[int],
                 triple: Sequence[int], final: bytes, suit_classes: int, honour_classes: int, excess: int) -> None:
        self.suit_class = suit_class
        self.honour_class = honour_class
        self.pair = pair
        self.triple = triple
        self.final = final
        self.suit_classes = suit_classes
        self.honour_classes = honour_classes
        self.excess = excess

    def lookup(self, m: int, p: int, s: int, h: int, melds: int, excess: int) -> int:
        """``3s + 2 - overlap`` (s = 4 - melds) with at most ``excess`` kinds represented five times."""
        sc = self.suit_class
        pair = self.pair[sc[m] * self.suit_classes + sc[p]]
        triple = self.triple[pair * self.suit_classes + sc[s]]
        return self.final[((triple * self.honour_classes + self.honour_class[h]) * 5 + melds) * self.excess + excess]


_TABLES: dict[str, _Table] = {
    "cap4": _Table(_std.SUIT_CLASS, _std.HONOUR_CLASS, _std.PAIR, _std.TRIPLE, _std.FINAL, _std.SUIT_CLASSES,
                   len(_std.FINAL) // (_std.STRIDE * (max(_std.TRIPLE) + 1)), 1),
}


def _load_wild() -> None:
    """Read ``data/wild.bin`` (the 2-5-8 and fifth-copy variants) on first use; ~10 ms, not at import."""
    sections = _std.read_sections("wild.bin")
    for variant in ("cap4_258", "cap5", "cap5_258"):
        suit = memoryview(sections[f"{variant}.suit_class"]).cast("H")
        honour = memoryview(sections[f"{variant}.honour_class"]).cast("H")
        pair = memoryview(sections[f"{variant}.pair"]).cast("H")
        triple = memoryview(sections[f"{variant}.triple"]).cast("H")
        final = sections[f"{variant}.final"]
        excess = 3 if variant.startswith("cap5") else 1
        suit_classes = math.isqrt(len(pair))  # pair: suit class x suit class
        honour_classes = len(final) // ((max(triple) + 1) * 5 * excess)  # final: triple x honour x melds x excess
        _TABLES[variant] = _Table(suit, honour, pair, triple, final, suit_classes, honour_classes, excess)


def _table(rules: HandRules, wilds: int) -> tuple[_Table, int]:
    """The variant table for these rules and the number of kinds that may be represented five times."""
    fifth = rules.wild_fifth_copy and wilds > 0
    name = ("cap5" if fifth else "cap4") + ("_258" if rules.pair_258 else "")
    table = _TABLES.get(name)
    if table is None:
        _load_wild()
        table = _TABLES[name]
    return table, (min(wilds, 2) if fifth else 0)


# ---------------------------------------------------------------------------------------------- checks

def _check(counts: Sequence[int], melds: int) -> int:
    """The number of tiles; raises unless the hand is a count vector of 38 that fits ``melds``."""
    return _scanned(counts, melds, STANDARD_KINDS)[4]


def _explain(counts: Sequence[int], melds: int) -> NoReturn:
    if isinstance(counts, (str, bytes)) or not isinstance(counts, Sequence):
        raise TileError(f"a hand is a count vector of {NUM_KINDS} counts, not {type(counts).__name__}")
    if len(counts) != NUM_KINDS:
        raise TileError(f"a hand is a count vector of {NUM_KINDS} counts (kinds 0..37), not {len(counts)}")
    for kind, count in enumerate(counts):
        top = MAX_WILD_COPIES if kind == WILD else 4
        if not (isinstance(count, int) and 0 <= count <= top):
            name = format_tile(kind)
            raise TileError(f"{count!r} tiles of {name} (kind {kind}): a hand holds 0 to {top} of that kind")
    if not (isinstance(melds, int) and 0 <= melds <= MAX_MELDS):
        raise ValueError(f"melds must be 0..{MAX_MELDS}, not {melds!r}")
    total = sum(counts)
    raise ValueError(
        f"wrong number of tiles (相公): a hand with {melds} meld(s) holds {13 - 3 * melds} or {14 - 3 * melds} "
        f"tiles, wildcards included, not {total}"
    )


def _check_visible(visible: Sequence[int] | None) -> None:
    if visible is None:
        return
    if len(visible) < STANDARD_KINDS or any(not isinstance(v, int) or v < 0 for v in visible):
        raise ValueError("visible must be a count vector (length 34 or 38) of tiles seen outside the hand, each >= 0")


def group_keys(counts: Sequence[int], rules: HandRules = DEFAULT_RULES) -> tuple[int, int, int, int, int]:
    """(m, p, s, h, wildcards): the table keys of the live real tiles of each group and the wildcard count.

    Real tiles of the wild kind are not keyed, and the honours are keyed only when they exist.  No validation:
    this is the input of the fast entry point :func:`distance_function`.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> group_keys(counts_of(parse_mpsz("12m1z**")))
    (6, 0, 0, 1, 2)
    >>> group_keys(counts_of(parse_mpsz("12m1z**")), RULES["noi2014"])
    (6, 0, 0, 0, 0)
    """
    c = counts
    m, p, s, h = suit_keys(c)
    if not rules.honours:
        h = 0
    wild_kind = rules.wild_kind
    if wild_kind is None:
        return m, p, s, h, 0
    wilds = c[wild_kind]
    if wild_kind < STANDARD_KINDS and wilds:
        keys = [m, p, s, h]
        group = wild_kind // 9 if wild_kind < 27 else 3
        if group < 3 or rules.honours:
            keys[group] -= wilds * key_weight(wild_kind)
        m, p, s, h = keys
    return m, p, s, h, wilds


_OVER = 255
_PAIR_STATS = bytes(64 * (c >> 1) + (c & 1) if c <= 4 else _OVER for c in range(256))
"""Per count 0..4: 64 x its pairs + its odd tile; :data:`_OVER` for larger counts (a ``find`` spots them).
Summed over at most 37 kinds, the low six bits count the odd counts exactly, so one ``translate`` and a ``sum``
give the pairs, the singles and the number of tiles."""


class _Plan:
    """What the hot path needs to know about one :class:`HandRules`, worked out once."""

    __slots__ = ("fifth", "honours", "live_end", "plain", "rules", "seven", "wild_kind", "wild_std", "with_wild")

    def __init__(self, rules: HandRules) -> None:
        self.rules = rules  # held, so that its id is not reused while the plan is cached
        self.wild_kind = rules.wild_kind
        self.wild_std = rules.wild_kind is not None and rules.wild_kind < STANDARD_KINDS
        self.honours = rules.honours
        self.seven = rules.seven_pairs
        self.fifth = rules.wild_fifth_copy
        self.live_end = STANDARD_KINDS if rules.honours else 27
        self.plain = _table(rules, 0)[0]
        self.with_wild = _table(rules, 1)[0] if rules.wild_fifth_copy else self.plain


_PLANS: dict[int, _Plan] = {}  # by id(rules): hashing a HandRules costs more than the rest of a look-up


def _plan(rules: HandRules) -> _Plan:
    if len(_PLANS) > 256:  # callers that make a new HandRules per call: do not grow without bound
        _PLANS.clear()
    plan = _PLANS[id(rules)] = _Plan(rules)
    return plan


def _scan_python(counts: Sequence[int], live_end: int) -> tuple[int, int, int, int, int, int] | None:
    """(m, p, s, h, tiles, pairs) of a hand, or None if ``counts`` is not a hand's count vector.

    ``m, p, s, h``: the base-5 keys of the four groups; ``pairs``: 64 x the pairs + the odd counts of kinds
    ``< live_end`` (four of a kind is two pairs).  ``bytes`` checks the counts are small ints, one ``translate``
    maps each to its pair statistics or marks it too large, and a ``sum`` gives pairs, singles and tiles.  The
    reference and fallback of the C accelerator ``_speedups.scan``, which computes the same for lists and tuples.
    """
    c = counts
    try:
        packed = bytes(c)
    except (ValueError, TypeError):
        return None
    stats = packed.translate(_PAIR_STATS)
    if len(stats) != NUM_KINDS or stats.find(_OVER, 0, WILD) >= 0 or packed[WILD] > MAX_WILD_COPIES:
        return None
    pairs = sum(stats[:live_end])
    other = sum(stats[live_end:WILD]) + pairs
    m = c[0] + 5 * c[1] + 25 * c[2] + 125 * c[3] + 625 * c[4] + 3125 * c[5] + 15625 * c[6] + 78125 * c[7] \
        + 390625 * c[8]
    p = c[9] + 5 * c[10] + 25 * c[11] + 125 * c[12] + 625 * c[13] + 3125 * c[14] + 15625 * c[15] \
        + 78125 * c[16] + 390625 * c[17]
    s = c[18] + 5 * c[19] + 25 * c[20] + 125 * c[21] + 625 * c[22] + 3125 * c[23] + 15625 * c[24] \
        + 78125 * c[25] + 390625 * c[26]
    h = c[27] + 5 * c[28] + 25 * c[29] + 125 * c[30] + 625 * c[31] + 3125 * c[32] + 15625 * c[33]
    return m, p, s, h, 2 * (other >> 6) + (other & 63) + packed[WILD], pairs


try:  # the optional C accelerator (setup.py builds it when a compiler is at hand)
    from mjarena.hand._speedups import scan as _scan

    ACCELERATED = True
except ImportError:  # pragma: no cover - depends on the install
    _scan = _scan_python
    ACCELERATED = False


def _scanned(counts: Sequence[int], melds: int, live_end: int) -> tuple[int, int, int, int, int, int]:
    """The scan of a hand (see :func:`_scan_python`), which must fit ``melds``; raises saying what is wrong."""
    scanned = _scan(counts, live_end) or _scan_python(counts, live_end)
    if scanned is None:
        _explain(counts, melds)
    total = scanned[4]
    if not (melds.__class__ is int and 0 <= melds <= MAX_MELDS and 13 - 3 * melds <= total <= 14 - 3 * melds):
        _explain(counts, melds)
    return scanned


# ---------------------------------------------------------------------------------------------- the API


def distance(counts: Sequence[int], melds: int = 0, rules: HandRules = DEFAULT_RULES) -> int:
    """The exchange distance (see the module docstring); 0 exactly when the hand wins.

    The one validated hot path behind every function here: one pass over the counts validates them and gives
    the tile count, the seven-pairs statistics and the four group keys (in C when the optional accelerator is
    built, see :data:`ACCELERATED`); then the distance is four table look-ups.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> distance(counts_of(parse_mpsz("123m456p789s1122z")))
    1
    >>> distance(counts_of(parse_mpsz("123m456p789s111z2z*")))  # the wildcard is the second 2z
    0
    >>> distance(counts_of(parse_mpsz("1111m*")), melds=3)  # 111m + 1m(*): a fifth 1m, allowed by default
    0
    >>> distance(counts_of(parse_mpsz("1111m*")), melds=3, rules=HandRules(wild_fifth_copy=False))
    1
    """
    plan = _PLANS.get(id(rules)) or _plan(rules)
    m, p, s, h, _, pairs = _scanned(counts, melds, plan.live_end)
    if not plan.honours:
        h = 0
    wild_kind = plan.wild_kind
    wilds = 0 if wild_kind is None else counts[wild_kind]
    if wilds and plan.wild_std:
        m, p, s, h, _ = group_keys(counts, rules)
        pairs -= _PAIR_STATS[wilds]
    if wilds and plan.fifth:
        table = plan.with_wild
        excess = 2 if wilds > 2 else wilds
    else:
        table = plan.plain
        excess = 0
    sc = table.suit_class
    pair = table.pair[sc[m] * table.suit_classes + sc[p]]
    triple = table.triple[pair * table.suit_classes + sc[s]]
    result = table.final[((triple * table.honour_classes + table.honour_class[h]) * 5 + melds) * table.excess
                         + excess] - wilds
    if plan.seven and melds == 0 and result:
        # 14 - W - the most real tiles seven pairs keep: its pairs (four of a kind is two), then singles
        doubles = pairs >> 6
        if doubles > 7:
            doubles = 7
        singles = pairs & 63
        seven = 14 - wilds - 2 * doubles - (singles if singles < 7 - doubles else 7 - doubles)
        if seven < result:
            return seven
    return result


def distance_function(rules: HandRules = DEFAULT_RULES) -> Callable[[int, int, int, int, int, int], int]:
    """A fast distance from precomputed :func:`group_keys`: ``f(m, p, s, h, wilds, melds) -> int``.

    No validation and **standard form only** (no seven pairs): for game loops and benchmarks that keep the
    keys current as tiles come and go.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> f = distance_function(RULES["baida"])
    >>> f(*group_keys(counts_of(parse_mpsz("123m456p789s22m11z*"))), 0)
    0
    """
    fifth = rules.wild_fifth_copy
    plain, _ = _table(rules, 0)
    with_wild, _ = _table(rules, 1) if fifth else (plain, 0)

    def fast(m: int, p: int, s: int, h: int, wilds: int, melds: int) -> int:
        if wilds and fifth:
            return with_wild.lookup(m, p, s, h, melds, 2 if wilds > 2 else wilds) - wilds
        return plain.lookup(m, p, s, h, melds, 0) - wilds

    return fast


def can_win(counts: Sequence[int], melds: int = 0, rules: HandRules = DEFAULT_RULES) -> bool:
    """Whether ``14 - 3 * melds`` tiles, wildcards included, win under ``rules``.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> can_win(counts_of(parse_mpsz("1m*")), melds=4)  # a wildcard pairs with any single tile
    True
    >>> can_win(counts_of(parse_mpsz("1m*")), melds=4, rules=RULES["baida"])  # but the pair must be 2-5-8
    False
    >>> can_win(counts_of(parse_mpsz("**")), melds=4, rules=RULES["baida"])  # two wildcards: any 2-5-8 pair
    True
    """
    return distance(counts, melds, rules) == 0 and sum(counts) == 14 - 3 * melds


def _unseen(kind: int, held: Sequence[int], visible: Sequence[int] | None) -> int | None:
    if visible is None:
        return None
    unseen = 4 - held[kind] - visible[kind]
    if unseen < 0:
        raise ValueError(f"{format_tile(kind)}: {held[kind]} held and {visible[kind]} visible is more than 4")
    return unseen


def _drawable(rules: HandRules) -> list[int]:
    """The kinds the exchange may draw: existing, non-wild kinds."""
    return sorted(kind for kind in rules.kinds if kind != rules.wild_kind)


def waits(counts: Sequence[int], melds: int = 0, rules: HandRules = DEFAULT_RULES,
          visible: Sequence[int] | None = None) -> list[Wait]:
    """The real tile kinds that complete a ``13 - 3 * melds`` hand (drawing a wildcard completes any ready hand).

    A kind already held four times is no wait (there is no fifth real tile).  ``visible``: counts of tiles seen
    outside the hand (discards, melds, other hands); then ``unseen = 4 - held - visible``.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> [w.kind for w in waits(counts_of(parse_mpsz("12m5p*")), melds=3)]  # 12m3m 5p(*)5p or 12m3m(*) 5p5p
    [2, 13]
    >>> waits(counts_of(parse_mpsz("1112345678999m")), visible=counts_of(parse_mpsz("5m")))[4]
    Wait(kind=4, unseen=2)
    """
    total = _check(counts, melds)
    if total != 13 - 3 * melds:
        raise ValueError(f"waits need a hand of {13 - 3 * melds} tiles with {melds} meld(s), not {total}")
    _check_visible(visible)
    hand = list(counts)
    found = []
    for kind in _drawable(rules):
        if hand[kind] < 4:
            hand[kind] += 1
            if distance(hand, melds, rules) == 0:
                found.append(Wait(kind, _unseen(kind, counts, visible)))
            hand[kind] -= 1
    return found


def discards(counts: Sequence[int], melds: int = 0, rules: HandRules = DEFAULT_RULES,
             visible: Sequence[int] | None = None) -> list[DiscardOption]:
    """Every distinct discard of a ``14 - 3 * melds`` hand, best first.

    For each kind held: the distance after discarding it and the ``useful`` kinds, whose draw would lower that
    distance (the waits when it is 1).  Their ``unseen`` counts the discarded tile as seen.  Best first: lowest
    distance, then most useful tiles (unseen ones when ``visible`` is given, else 4 - held), then kind.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> best = discards(counts_of(parse_mpsz("123m456p789s1122z7z")))[0]
    >>> best.kind, best.distance, [w.kind for w in best.useful]
    (33, 1, [27, 28])
    """
    total = _check(counts, melds)
    if total != 14 - 3 * melds:
        raise ValueError(f"discards need a hand of {14 - 3 * melds} tiles with {melds} meld(s), not {total}")
    _check_visible(visible)
    hand = list(counts)
    drawable = _drawable(rules)
    options = []
    for kind in range(NUM_KINDS):
        if not hand[kind]:
            continue
        hand[kind] -= 1
        after = distance(hand, melds, rules)
        useful = []
        score = 0
        for other in drawable:
            if hand[other] < 4:
                hand[other] += 1
                if distance(hand, melds, rules) < after:
                    unseen = _unseen(other, counts, visible)
                    useful.append(Wait(other, unseen))
                    score += 4 - counts[other] if unseen is None else unseen
                hand[other] -= 1
        hand[kind] += 1
        options.append((after, -score, kind, DiscardOption(kind, after, useful)))
    options.sort(key=lambda option: option[:3])
    return [option[3] for option in options]


# ---------------------------------------------------------------------------------------------- arrangements

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


def arrangements(counts: Sequence[int], melds: int = 0, rules: HandRules = DEFAULT_RULES) -> list[Arrangement]:
    """Every distinct winning arrangement of a ``14 - 3 * melds`` hand (distinct as multisets of groups).

    Empty when the hand does not win (a ``13 - 3 * melds`` hand never does).  Standard forms come first,
    then seven pairs.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> [format_arrangement(a) for a in arrangements(counts_of(parse_mpsz("1123m*")), melds=3)]
    ['123m 11m(*)', '1m(*)23m 11m', '234m(*) 11m']
    >>> [format_arrangement(a) for a in arrangements(counts_of(parse_mpsz("5m*")), melds=4)]
    ['55m(*)']
    >>> [format_arrangement(a) for a in arrangements(counts_of(parse_mpsz("**")), melds=4)]
    ['**']
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


def analyse(counts: Sequence[int], melds: int = 0, rules: HandRules = DEFAULT_RULES,
            visible: Sequence[int] | None = None) -> Analysis:
    """Win check, distance, waits (13 - 3n tiles) or discards (14 - 3n tiles), and every arrangement.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> result = analyse(counts_of(parse_mpsz("123m456p789s22m1z*")), rules=RULES["baida"])
    >>> result.can_win, result.distance, [w.kind for w in result.waits]
    (False, 1, [27])
    """
    total = _check(counts, melds)
    _check_visible(visible)
    wilds = 0 if rules.wild_kind is None else counts[rules.wild_kind]
    dist = distance(counts, melds, rules)
    full = total == 14 - 3 * melds
    return Analysis(
        tiles=total,
        melds=melds,
        wilds=wilds,
        can_win=full and dist == 0,
        distance=dist,
        waits=[] if full else waits(counts, melds, rules, visible),
        discards=discards(counts, melds, rules, visible) if full else [],
        arrangements=arrangements(counts, melds, rules) if full and dist == 0 else [],
    )


# ---------------------------------------------------------------------------------------------- formatting


def format_group(group: Group) -> str:
    """A group in mpsz, each wildcard shown after the tile it stands for: ``5m(*)``; all-wild groups as ``*``.

    >>> format_group(Group("run", (2, 3, 4), (3,)))
    '34m(*)5m'
    >>> format_group(Group("triplet", (WILD,) * 3, (WILD,) * 3))
    '***'
    """
    wild_left = {kind: group.wild.count(kind) for kind in group.wild}
    parts = []
    for index, kind in enumerate(group.kinds):
        if kind == _ANY:
            parts.append("*")
            continue
        name = format_tile(kind, "mpsz")
        if wild_left.get(kind, 0) >= group.kinds[index:].count(kind):  # the last copies of a kind are the wild ones
            wild_left[kind] -= 1
            name += "(*)"
        parts.append(name)
    # run the digits of one suit together: 3m4m(*)5m -> 34m(*)5m
    out = ""
    for index, part in enumerate(parts):
        following = parts[index + 1] if index + 1 < len(parts) else ""
        if part != "*" and not part.endswith("(*)") and following[1:2] == part[1] and following != "*":
            out += part[0]
        else:
            out += part
    return out


def format_arrangement(arrangement: Arrangement) -> str:
    """The groups of an arrangement in mpsz, separated by spaces (sets, then pairs)."""
    return " ".join(format_group(group) for group in arrangement.groups)
