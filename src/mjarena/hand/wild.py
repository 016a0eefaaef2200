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
built by ``tools/build_tables.py``); :func:`arrangements` searches, but only within one suit at a time (in C
when the optional accelerator is built, with the pure-Python search as its reference and fallback).

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
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import chain, combinations_with_replacement, product
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


class WildTable:
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


_TABLES: dict[str, WildTable] = {
    "cap4": WildTable(_std.SUIT_CLASS, _std.HONOUR_CLASS, _std.PAIR, _std.TRIPLE, _std.FINAL, _std.SUIT_CLASSES,
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
        _TABLES[variant] = WildTable(suit, honour, pair, triple, final, suit_classes, honour_classes, excess)


def table_for(rules: HandRules, wilds: int) -> tuple[WildTable, int]:
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

    __slots__ = ("arrange", "fifth", "honours", "live_end", "plain", "rules", "seven", "wild_kind", "wild_std",
                 "with_wild")

    def __init__(self, rules: HandRules) -> None:
        self.rules = rules  # held, so that its id is not reused while the plan is cached
        self.wild_kind = rules.wild_kind
        self.wild_std = rules.wild_kind is not None and rules.wild_kind < STANDARD_KINDS
        self.honours = rules.honours
        self.seven = rules.seven_pairs
        self.fifth = rules.wild_fifth_copy
        self.live_end = STANDARD_KINDS if rules.honours else 27
        self.plain = table_for(rules, 0)[0]
        self.with_wild = table_for(rules, 1)[0] if rules.wild_fifth_copy else self.plain
        self.arrange: Callable[[Sequence[int], int], list[Arrangement] | None] | None = None  # see _arranger


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

try:  # the same accelerator's arrangement enumerator (None: the pure-Python one, _arrangements_python)
    from mjarena.hand._speedups import arranger as _c_arranger
except ImportError:  # pragma: no cover - depends on the install
    _c_arranger = None


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
    plain, _ = table_for(rules, 0)
    with_wild, _ = table_for(rules, 1) if fifth else (plain, 0)

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
#
# Groups of different suits (and the honours) never share a tile, so the arrangements of a winning hand are
# the combinations of each suit's own decompositions, completed by groups made of wildcards only.  A suit is
# decomposed rank by rank: at each rank, every multiset of groups whose lowest member sits there (a triplet, the
# pair, runs; each member real or wild, at least one real tile per group) that uses up the real tiles of the rank
# left over by the runs started below.  What those runs still ask of the next two ranks is the state carried
# upward, so equal tails are solved once (memoised) and each multiset of groups comes out exactly once.  The
# decompositions are bucketed by signature (wildcards used, sets, pairs) and the suits are combined only along
# signatures that add up to a whole hand.  Groups are numbered in their sort order, so the search handles small
# ints and the final sort compares tuples of ints.
#
# The C accelerator (``arranger`` in _speedups.c) runs the same search without the memo (a suit's tree is small;
# a suit that may use no wildcard takes a plain path: real triplet, real pair, real runs), encodes each
# arrangement's group numbers in one 64-bit key (numbers < 512, at most 7 groups: the key order is the tuple
# order) and builds the Arrangement objects itself, sharing the catalogue's Group objects as this path does.  It
# keeps nothing between calls.  This pure-Python path is its reference (tests/test_accelerator.py) and the path
# of every input it refuses.

_ANY = WILD
_GroupTuple = tuple[Group, ...]
_Signature = tuple[int, int, int]
"""(wildcards used, sets, pairs) of a suit's decomposition."""
_Option = tuple[tuple[int, ...], tuple[int, ...]]
"""A decomposition of one suit: its sets and its pair (zero or one group), as group numbers, sets in output order."""
_Choice = tuple[int, int, int, int, int, tuple[int, ...], tuple[int, ...]]
"""The groups starting at one rank: (wildcards, pairs, real tiles asked of rank + 1, of rank + 2, runs, sets, pair)."""

_RUN_SHAPES = ((1, 1, 1), (1, 1, 0), (1, 0, 1), (1, 0, 0), (0, 1, 1), (0, 1, 0), (0, 0, 1))
"""Runs by which members are real (1) or wild (0); at least one is real.  The first four hold a real lowest tile."""


_PAIR_258 = (1, 4, 7)
_RANKS = {9: tuple(range(9)), 7: tuple(range(7))}


def _cap(rules: HandRules) -> int:
    return 5 if rules.wild_fifth_copy else 4


@cache
def _catalogue() -> tuple[tuple[Group, ...], dict[tuple[str, tuple[int, ...], tuple[int, ...]], int]]:
    """Every group an arrangement can hold, in :class:`Group`'s order, and the number of each by its fields."""
    fields: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = [
        ("triplet", (_ANY,) * 3, (_ANY,) * 3), ("pair", (_ANY,) * 2, (_ANY,) * 2)]
    for kind in range(STANDARD_KINDS):
        fields += [("triplet", (kind,) * 3, (kind,) * wild) for wild in range(3)]
        fields += [("pair", (kind,) * 2, (kind,) * wild) for wild in range(2)]
        if kind < 27 and kind % 9 <= 6:
            fields += [("run", (kind, kind + 1, kind + 2), tuple(kind + i for i in range(3) if not shape[i]))
                       for shape in _RUN_SHAPES]
    fields.sort()
    return tuple(Group(*item) for item in fields), {item: number for number, item in enumerate(fields)}  # type: ignore[arg-type]


def _number(kind: str, kinds: tuple[int, ...], wild: tuple[int, ...]) -> int:
    return _catalogue()[1][kind, kinds, wild]


@cache
def _rank_choices(kind: int, real: int, room: int, budget: int, pair_ok: bool, runs_ok: bool) -> tuple[_Choice, ...]:
    """Every multiset of groups whose lowest member is ``kind`` and that holds exactly ``real`` real tiles of it.

    At most ``room`` members stand for ``kind`` (the cap less the runs from below), at most ``budget`` are
    wildcards; a pair only if ``pair_ok``, runs only if ``runs_ok``.  Hand-independent: a small table filled on use.
    """
    choices: list[_Choice] = []
    for triplet_real in range(4):  # 0: no triplet
        for pair_real in range(3 if pair_ok else 1):  # 0: no pair
            cost = (3 - triplet_real if triplet_real else 0) + (2 - pair_real if pair_real else 0)
            low_runs = real - triplet_real - pair_real  # runs holding a real tile of this kind
            spare = room - (3 if triplet_real else 0) - (2 if pair_real else 0) - low_runs
            if low_runs < 0 or spare < 0 or cost > budget or (low_runs and not runs_ok):
                continue
            fixed = [("triplet", (kind,) * 3, (kind,) * (3 - triplet_real))] if triplet_real else []
            pair = (_number("pair", (kind,) * 2, (kind,) * (2 - pair_real)),) if pair_real else ()
            for real_low in combinations_with_replacement(_RUN_SHAPES[:4], low_runs):
                for wild_lows in range(min(spare, budget) + 1 if runs_ok else 1):
                    for wild_low in combinations_with_replacement(_RUN_SHAPES[4:], wild_lows):
                        runs = real_low + wild_low
                        total = cost + sum(3 - sum(shape) for shape in runs)
                        if total > budget:
                            continue
                        sets = fixed + [("run", (kind, kind + 1, kind + 2), tuple(
                            kind + i for i in range(3) if not shape[i])) for shape in runs]
                        sets.sort(key=lambda group: (group[1], group[2]))  # output order: kinds, then wild
                        choices.append((total, len(pair), sum(shape[1] for shape in runs),
                                        sum(shape[2] for shape in runs), len(runs),
                                        tuple(_number(*group) for group in sets), pair))
    return tuple(choices)


@lru_cache(maxsize=4096)
def _suit_options(base: int, real: tuple[int, ...], wilds: int, runs: bool, pair_ranks: tuple[int, ...],
                  cap: int) -> dict[_Signature, list[_Option]]:
    """Every distinct way to split one suit's real tiles into sets and at most one pair with up to ``wilds``
    wildcards, by signature.  Every group holds a real tile; no kind is represented more than ``cap`` times."""
    size = len(real)
    last = max(rank for rank in range(size) if real[rank])
    memo: dict[tuple[int, int, int, int, int, int, int], list[tuple[int, int, int, _Option]]] = {}
    done: list[tuple[int, int, int, _Option]] = [(0, 0, 0, ((), ()))]

    def tail(rank: int, asked: int, asked_next: int, covered: int, covered_next: int, budget: int,
             paired: int) -> list[tuple[int, int, int, _Option]]:
        """The decompositions of ranks ``rank`` and up: (wildcards, sets, pairs, option) each."""
        if rank > last and not asked:  # nothing real is left, and a group needs a real tile
            return done
        key = (rank, asked, asked_next, covered, covered_next, budget, paired)
        found = memo.get(key)
        if found is not None:
            return found
        found = []
        here = real[rank] - asked
        if here >= 0:
            above = real[rank + 1] - asked_next if rank + 1 < size else 0
            above_next = real[rank + 2] if rank + 2 < size else 0
            for cost, pair, ask1, ask2, started, sets, pairs in _rank_choices(
                    base + rank, here, cap - covered, budget, not paired and rank in pair_ranks,
                    runs and rank + 2 < size):
                if ask1 > above or ask2 > above_next or covered_next + started > cap:
                    continue
                for used, n_sets, n_pairs, (more, more_pairs) in tail(
                        rank + 1, asked_next + ask1, ask2, covered_next + started, started, budget - cost,
                        paired + pair):
                    found.append((cost + used, len(sets) + n_sets, pair + n_pairs, (sets + more, pairs + more_pairs)))
        memo[key] = found
        return found

    first = next(rank for rank in range(size) if real[rank])
    by_signature: dict[_Signature, list[_Option]] = {}
    start = max(0, first - 2) if runs else first  # a run may start with wildcards below the first real tile
    for used, sets, pairs, option in tail(start, 0, 0, 0, 0, wilds, 0):
        by_signature.setdefault((used, sets, pairs), []).append(option)
    return by_signature


def _signature_paths(per_suit: list[dict[_Signature, list[_Option]]], wilds: int,
                     sets_needed: int) -> list[tuple[tuple[_Signature, ...], int, int]]:
    """Every choice of one signature per suit that the wildcards left complete: (signatures, free sets, pairs)."""
    paths: list[tuple[tuple[_Signature, ...], int, int]] = []
    if all(len(options) == 1 for options in per_suit):  # the usual case without wildcards: one way per suit
        chosen = tuple(next(iter(options)) for options in per_suit)
        used, sets, pairs = (sum(column) for column in zip(*chosen, strict=True)) if chosen else (0, 0, 0)
        free_sets = sets_needed - sets
        if free_sets >= 0 and pairs <= 1 and wilds - used == 3 * free_sets + 2 * (1 - pairs):
            paths.append((chosen, free_sets, pairs))
        return paths

    def extend(index: int, used: int, sets: int, pairs: int, chosen: tuple[_Signature, ...]) -> None:
        if index == len(per_suit):
            free_sets, free_pairs = sets_needed - sets, 1 - pairs
            if wilds - used == 3 * free_sets + 2 * free_pairs:
                paths.append((chosen, free_sets, pairs))
            return
        for signature in per_suit[index]:
            u, s, p = signature
            if used + u <= wilds and sets + s <= sets_needed and pairs + p <= 1:
                extend(index + 1, used + u, sets + s, pairs + p, (*chosen, signature))

    extend(0, 0, 0, 0, ())
    return paths


def _standard_arrangements(counts: Sequence[int], melds: int, rules: HandRules, wilds: int) -> list[Arrangement]:
    cap = _cap(rules)
    suits: list[tuple[int, tuple[int, ...], bool, tuple[int, ...]]] = []  # base, real counts, runs, pair ranks
    wild_kind = rules.wild_kind
    for base, size in ((0, 9), (9, 9), (18, 9), (27, 7)):
        real = tuple(counts[base:base + size])
        if wild_kind is not None and base <= wild_kind < base + size:  # a standard kind is wild: not real here
            real = (*real[:wild_kind - base], 0, *real[wild_kind - base + 1:])
        if not any(real):
            continue
        if base not in rules.kinds:
            return []
        suited = base < 27
        suits.append((base, real, suited, (_PAIR_258 if suited else ()) if rules.pair_258 else _RANKS[size]))
    # A suit of r real tiles makes 3s tiles (3s + 2 with the pair): it needs at least (-r) % 3 wildcards, or
    # (2 - r) % 3 holding the pair, which one suit at most holds.  What the others need at least is not left to
    # a suit: its search stops there.
    alone = [-sum(real) % 3 for _, real, _, _ in suits]
    paired = [(2 - sum(real)) % 3 if pair_ranks else alone[i] for i, (_, real, _, pair_ranks) in enumerate(suits)]
    per_suit: list[dict[_Signature, list[_Option]]] = []
    for index, (base, real, runs, pair_ranks) in enumerate(suits):
        least = 0
        if wilds:
            others = [j for j in range(len(suits)) if j != index]
            least = sum(alone[j] for j in others) - max([0] + [alone[j] - paired[j] for j in others])
            if least > wilds:
                return []
        options = _suit_options(base, real, wilds - least, runs, pair_ranks, cap)
        if not options:
            return []
        per_suit.append(options)
    groups_by_number, numbers = _catalogue()
    any_set, any_pair = numbers["triplet", (_ANY,) * 3, (_ANY,) * 3], numbers["pair", (_ANY,) * 2, (_ANY,) * 2]
    found: list[tuple[int, ...]] = []
    for signatures, free_sets, pairs in _signature_paths(per_suit, wilds, MAX_MELDS - melds):
        tail = (any_set,) * free_sets + (() if pairs else (any_pair,))
        for combination in product(*(options[signature] for options, signature in zip(per_suit, signatures,
                                                                                        strict=True))):
            found.append(tuple(chain.from_iterable(sets for sets, _ in combination)) + tail
                         + tuple(chain.from_iterable(pair for _, pair in combination)))
    found.sort()
    return [Arrangement("standard", tuple(map(groups_by_number.__getitem__, numbers_))) for numbers_ in found]


@cache
def _pair_options(kind: int, count: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The ways ``count`` real tiles of ``kind`` make pairs (four of a kind is two): (wildcards, group numbers)."""
    real_pair, mixed_pair = _number("pair", (kind, kind), ()), _number("pair", (kind, kind), (kind,))
    return tuple((count - 2 * real_pairs, (real_pair,) * real_pairs + (mixed_pair,) * (count - 2 * real_pairs))
                 for real_pairs in range(count // 2 + 1) if real_pairs + count - 2 * real_pairs <= 2)


def _seven_pairs_arrangements(counts: Sequence[int], rules: HandRules, wilds: int) -> list[Arrangement]:
    partial: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for kind in range(NUM_KINDS):
        count = 0 if kind == rules.wild_kind else counts[kind]
        if not count:
            continue
        if kind not in rules.kinds:
            return []
        partial = [(used + mixed, pairs + more) for used, pairs in partial
                   for mixed, more in _pair_options(kind, count) if used + mixed <= wilds]
        if not partial:
            return []
    groups_by_number, numbers = _catalogue()
    any_pair = numbers["pair", (_ANY,) * 2, (_ANY,) * 2]
    found = sorted(pairs + (any_pair,) * ((wilds - used) // 2) for used, pairs in partial if (wilds - used) % 2 == 0)
    return [Arrangement("seven_pairs", tuple(map(groups_by_number.__getitem__, numbers_))) for numbers_ in found]


def _arrangements_python(counts: Sequence[int], melds: int, rules: HandRules) -> list[Arrangement]:
    """:func:`arrangements` in pure Python: the reference of the C enumerator and the path of every input it
    refuses (the distance validates and explains what is wrong)."""
    if distance(counts, melds, rules):  # validates; 0 exactly when some arrangement exists (never for 13 - 3n tiles)
        return []
    wilds = 0 if rules.wild_kind is None else counts[rules.wild_kind]
    found = _standard_arrangements(counts, melds, rules, wilds)
    if rules.seven_pairs and melds == 0:
        found += _seven_pairs_arrangements(counts, rules, wilds)
    return found


_NO_GROUP = 0xFFFF


@cache
def _arranger_tables() -> tuple[tuple[Group, ...], bytes, bytes]:
    """The catalogue of groups and, per group id of the C search (``kind * 12 + slot``: triplets with 0-2 wild
    members, pairs with 0-1, runs by :data:`_RUN_SHAPES`; 408 and 409 the wildcard-only set and pair), the group's
    number and a set's rank in (kinds, wild) order, as uint16 arrays.  Hand-independent, made once."""
    groups, numbers = _catalogue()
    items: list[tuple[str, tuple[int, ...], tuple[int, ...]] | None] = []
    for kind in range(STANDARD_KINDS):
        items += [("triplet", (kind,) * 3, (kind,) * wild) for wild in range(3)]
        items += [("pair", (kind,) * 2, (kind,) * wild) for wild in range(2)]
        runs = kind < 27 and kind % 9 <= 6
        items += [("run", (kind, kind + 1, kind + 2), tuple(kind + i for i in range(3) if not shape[i])) if runs
                  else None for shape in _RUN_SHAPES]
    items += [("triplet", (_ANY,) * 3, (_ANY,) * 3), ("pair", (_ANY,) * 2, (_ANY,) * 2)]
    sets = sorted((item[1], item[2]) for item in items if item is not None and item[0] != "pair")
    rank = {key: index for index, key in enumerate(sets)}
    number = array("H", [_NO_GROUP if item is None else numbers[item] for item in items])
    order = array("H", [_NO_GROUP if item is None or item[0] == "pair" else rank[item[1], item[2]] for item in items])
    return groups, number.tobytes(), order.tobytes()


def _no_arranger(counts: Sequence[int], melds: int) -> None:
    return None


def _arranger(plan: _Plan) -> Callable[[Sequence[int], int], list[Arrangement] | None]:
    """The C enumerator for the plan's rules (made on first use and kept in the plan), or a stand-in that
    leaves every hand to :func:`_arrangements_python` when the accelerator is not built."""
    rules = plan.rules
    if _c_arranger is None:  # pragma: no cover - depends on the install
        plan.arrange = _no_arranger
        return _no_arranger
    groups, numbers, order = _arranger_tables()
    live = sum(1 << index for index, base in enumerate((0, 9, 18, 27)) if base in rules.kinds)
    arrange = _c_arranger(groups, numbers, order, Arrangement, "standard", "seven_pairs", _cap(rules),
                          -1 if rules.wild_kind is None else rules.wild_kind, rules.seven_pairs, rules.pair_258,
                          live).arrangements
    plan.arrange = arrange
    return arrange


def arrangements(counts: Sequence[int], melds: int = 0, rules: HandRules = DEFAULT_RULES) -> list[Arrangement]:
    """Every distinct winning arrangement of a ``14 - 3 * melds`` hand (distinct as multisets of groups).

    Empty when the hand does not win (a ``13 - 3 * melds`` hand never does).  Standard forms come first,
    then seven pairs, each sorted by their groups (as :class:`Group` orders them).  In C when the optional
    accelerator is built, else :func:`_arrangements_python`; the same list either way.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> [format_arrangement(a) for a in arrangements(counts_of(parse_mpsz("1123m*")), melds=3)]
    ['123m 11m(*)', '1m(*)23m 11m', '234m(*) 11m']
    >>> [format_arrangement(a) for a in arrangements(counts_of(parse_mpsz("5m*")), melds=4)]
    ['55m(*)']
    >>> [format_arrangement(a) for a in arrangements(counts_of(parse_mpsz("**")), melds=4)]
    ['**']
    """
    plan = _PLANS.get(id(rules)) or _plan(rules)
    found = (plan.arrange or _arranger(plan))(counts, melds)
    return _arrangements_python(counts, melds, rules) if found is None else found


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
