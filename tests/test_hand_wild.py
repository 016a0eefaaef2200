"""The complete hand analysis (mjarena.hand.wild) against the literal reference of tests/reference_wild.py.

Hands are written in mpsz with ``*`` for a wildcard (百搭).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import previous_arrangements as previous
import reference_wild as ref
from mjarena.hand import distance as standard_distance
from mjarena.hand.options import RULES, SUITED_KINDS, HandRules, get_rules
from mjarena.hand.wild import (
    Group,
    _arrangements_python,
    analyse,
    arrangements,
    can_win,
    discards,
    distance,
    distance_function,
    format_arrangement,
    group_keys,
    waits,
)
from mjarena.tiles import WILD, TileError, counts_of, parse_tiles

DEFAULT = HandRules()
NO_FIFTH = HandRules(wild_fifth_copy=False)
BAIDA = RULES["baida"]
BAIDA_NO_FIFTH = HandRules(pair_258=True, seven_pairs=True, wild_fifth_copy=False)
NOI_WILD = HandRules(kinds=SUITED_KINDS)
RED_DRAGON_WILD = HandRules(wild_kind=33)
ALL_RULES = [DEFAULT, NO_FIFTH, BAIDA, BAIDA_NO_FIFTH, NOI_WILD, RULES["thupc2021"], RULES["noi2014"],
             RED_DRAGON_WILD]


def hand(text: str) -> list[int]:
    return counts_of(parse_tiles(text))


def shown(counts: list[int], melds: int, rules: HandRules) -> str:
    from mjarena.tiles import format_tiles, tiles_of

    return f"{format_tiles(tiles_of(counts))} melds={melds} {rules}"


# ---------------------------------------------------------------------------------------------- spec cases

WINS = [
    # (hand, melds, rules, wins)
    ("123m456p789s11122z", 0, DEFAULT, True),  # 0 wildcards
    ("123m456p789s1112z*", 0, DEFAULT, True),  # 1 wildcard pairs with a single tile
    ("123m456p789s11z2z**", 0, DEFAULT, True),  # 2 wildcards
    ("123m456p789s12z***", 0, DEFAULT, True),  # 3 wildcards: 1z(*)(*) and 2z(*)
    ("123m456p789s1z***", 0, DEFAULT, False),  # 13 tiles: never a win
    ("123m456p78s11z****", 0, DEFAULT, True),  # 4 wildcards: 78s(*), 11z and ***
    ("159m***", 2, DEFAULT, False),  # 13 - 3n tiles never win
    ("15m****", 2, DEFAULT, False),  # 6 tiles with 2 melds: wrong count (相公), raises
    ("**", 4, DEFAULT, True),  # the pair made of two wildcards
    ("1z*", 4, DEFAULT, True),  # a wildcard and a single tile make the pair
    ("1z*", 4, BAIDA, False),  # 2-5-8: an honour is never the pair
    ("2m*", 4, BAIDA, True),
    ("3m*", 4, BAIDA, False),
    ("**", 4, BAIDA, True),
    ("123m456p789s111z22m", 0, BAIDA, True),
    ("123m456p789s11z22m", 0, BAIDA, False),  # 13 tiles
    ("123m456p789s111z33m", 0, BAIDA, False),  # 33m is no 2-5-8 pair
    ("123m456p789s111z3m*", 0, BAIDA, False),
    ("123m456p789s111z2m*", 0, BAIDA, True),
    ("11223344556677m", 0, DEFAULT, True),  # standard form too
    ("1122334455667z*", 0, BAIDA, True),  # seven pairs with a wildcard pair
    ("1111m2222p33s4455z", 0, BAIDA, True),  # four of a kind counts as two pairs
    ("1111m2222p33s4455z", 0, DEFAULT, False),  # no seven pairs without the option
    ("1122334455667z*", 0, DEFAULT, False),
    ("1111m*", 3, DEFAULT, True),  # a fifth 1m made by the wildcard
    ("1111m*", 3, NO_FIFTH, False),
    ("1111m*", 3, RULES["thupc2021"], False),  # wildcards off: the * is a dead tile
    ("11m", 4, RULES["noi2014"], True),
    ("11z", 4, RULES["noi2014"], False),  # no honours in NOI 2014
    ("1z*", 4, NOI_WILD, False),
    ("2m7z", 4, RED_DRAGON_WILD, True),  # 中 is the wildcard
    ("7z7z", 4, RED_DRAGON_WILD, True),
]


@pytest.mark.parametrize(("text", "melds", "rules", "wins"), WINS)
def test_win_cases(text: str, melds: int, rules: HandRules, wins: bool) -> None:
    counts = hand(text)
    if sum(counts) not in (13 - 3 * melds, 14 - 3 * melds):
        with pytest.raises(ValueError, match="相公"):
            can_win(counts, melds, rules)
        return
    assert can_win(counts, melds, rules) is wins
    assert (distance(counts, melds, rules) == 0) is wins
    assert bool(arrangements(counts, melds, rules)) is wins
    if melds >= 3 or counts[WILD] <= 2:
        assert ref.can_win_bruteforce(counts, melds, rules) is wins


def test_wrong_count_is_reported() -> None:
    with pytest.raises(ValueError, match=r"wrong number of tiles \(相公\).*not 12"):
        can_win(hand("123m456p789s12z*"), 0, BAIDA)
    with pytest.raises(TileError, match="a hand holds 0 to 4"):
        can_win(hand("11111m*"), 3)
    with pytest.raises(TileError, match="count vector of 38"):
        can_win([0] * 34, 0)
    with pytest.raises(ValueError, match=r"melds must be 0\.\.4"):
        distance(hand("1m"), 5)
    with pytest.raises(ValueError, match="waits need a hand of 13"):
        waits(hand("123m456p789s11122z"))
    with pytest.raises(ValueError, match="discards need a hand of 14"):
        discards(hand("123m456p789s1122z"))
    with pytest.raises(ValueError, match="unknown rule set"):
        get_rules("mcr")


ARRANGEMENTS = [
    ("1z*", 4, DEFAULT, ["11z(*)"]),
    ("**", 4, DEFAULT, ["**"]),
    ("**", 4, BAIDA, ["**"]),
    ("5m*", 4, BAIDA, ["55m(*)"]),
    ("1123m*", 3, DEFAULT, ["123m 11m(*)", "1m(*)23m 11m", "234m(*) 11m"]),
    ("1111m*", 3, DEFAULT, ["111m 11m(*)", "111m(*) 11m"]),
    ("2222m", 3, DEFAULT, []),
    ("1122334455667z*", 0, BAIDA, ["11z 22z 33z 44z 55z 66z 77z(*)"]),
    ("1111m2222p33s4455z", 0, BAIDA, ["11m 11m 22p 22p 33s 44z 55z"]),
]


@pytest.mark.parametrize(("text", "melds", "rules", "expected"), ARRANGEMENTS)
def test_arrangement_cases(text: str, melds: int, rules: HandRules, expected: list[str]) -> None:
    counts = hand(text)
    found = arrangements(counts, melds, rules)
    assert [format_arrangement(a) for a in found] == expected
    assert found == ref.arrangements_bruteforce(counts, melds, rules)


def test_every_arrangement_of_a_wildcard_run() -> None:
    # 4m + two wildcards as the last set: 4m(*)(*) or a run 234, 345, 456 with two wild members
    counts = hand("123m456p789s11z4m**")
    found = {format_arrangement(a) for a in arrangements(counts, 0, DEFAULT)}
    assert {"123m 44m(*)4m(*) 456p 789s 11z", "123m 2m(*)3m(*)4m 456p 789s 11z",
            "123m 3m(*)45m(*) 456p 789s 11z", "123m 45m(*)6m(*) 456p 789s 11z"} <= found
    assert arrangements(counts, 0, DEFAULT) == ref.arrangements_bruteforce(counts, 0, DEFAULT)


def test_arrangements_distinguish_what_the_wildcards_stand_for() -> None:
    groups = [a.groups for a in arrangements(hand("1123m*"), 3, DEFAULT)]
    assert (Group("run", (0, 1, 2)), Group("pair", (0, 0), (0,))) in groups
    assert (Group("run", (0, 1, 2), (0,)), Group("pair", (0, 0))) in groups


def test_fifth_copy_both_ways() -> None:
    counts = hand("1111m*")
    assert can_win(counts, 3, DEFAULT) and not can_win(counts, 3, NO_FIFTH)
    assert [format_arrangement(a) for a in arrangements(counts, 3, DEFAULT)] == ["111m 11m(*)", "111m(*) 11m"]
    assert arrangements(counts, 3, NO_FIFTH) == []
    assert distance(counts, 3, DEFAULT) == 0 and distance(counts, 3, NO_FIFTH) == 1
    # drawing a fifth real 1m is never possible: 1111m waits on nothing real, with or without the option
    assert waits(hand("1111m"), 3, DEFAULT) == [] and distance(hand("1111m"), 3, DEFAULT) == 2
    # 111m*: any tile X pairs with the wildcard; a drawn 1m needs the wildcard as the fifth 1m (111m + 1m(*)1m)
    assert [w.kind for w in waits(hand("111m*"), 3, DEFAULT)] == list(range(34))
    assert [w.kind for w in waits(hand("111m*"), 3, NO_FIFTH)] == list(range(1, 34))


def test_seven_pairs_distance_and_discards() -> None:
    counts = hand("113355779m1133p1z")  # 14 tiles, six pairs and two singles
    assert distance(counts, 0, BAIDA) == 1
    assert distance(counts, 0, DEFAULT) > 1
    best = discards(counts, 0, BAIDA)[0]
    assert best.distance == 1 and best.kind in (8, 27)
    assert distance(hand("1111222233334z"), 0, BAIDA) >= 1


def test_waits_and_visible() -> None:
    counts = hand("1112345678999m")
    found = waits(counts, 0, DEFAULT)
    assert [w.kind for w in found] == list(range(9)) and all(w.unseen is None for w in found)
    visible = [0] * 38
    visible[4] = 3
    found = waits(counts, 0, DEFAULT, visible)
    assert found[4].unseen == 0 and found[0].unseen == 1
    visible[4] = 4
    with pytest.raises(ValueError, match="more than 4"):
        waits(counts, 0, DEFAULT, visible)


def test_analyse_bundles_everything() -> None:
    result = analyse(hand("123m456p789s22m1z*"), 0, BAIDA)
    assert (result.can_win, result.distance, result.wilds, result.tiles) == (False, 1, 1, 13)
    assert [w.kind for w in result.waits] == [27] and result.discards == [] and result.arrangements == []
    result = analyse(hand("123m456p789s22m11z*"), 0, BAIDA)
    assert result.can_win and result.distance == 0 and result.arrangements and result.discards


def test_no_wildcards_matches_the_standard_distance() -> None:
    rng = random.Random(7)
    wall = [k for k in range(34) for _ in range(4)]
    for index in range(300):
        counts = counts_of(rng.sample(wall, 13 + index % 2))
        counts += [0] * (38 - len(counts))
        assert distance(counts, 0, RULES["thupc2021"]) == standard_distance(counts)
        assert distance(counts, 0, DEFAULT) == standard_distance(counts)


def test_fast_entry_point_agrees() -> None:
    rng = random.Random(3)
    wall = [k for k in range(34) for _ in range(4)] + [WILD] * 8
    for rules in (DEFAULT, BAIDA, NO_FIFTH):
        fast = distance_function(rules)
        for _ in range(200):
            counts = counts_of(rng.sample(wall, 14))
            expected = distance(counts, 0, HandRules(rules.wild_kind, rules.pair_258, False, rules.wild_fifth_copy))
            assert fast(*group_keys(counts, rules), 0) == expected


# ---------------------------------------------------------------------------------------------- properties

KINDS = list(range(34))


@st.composite
def small_hands(draw: st.DrawFn) -> tuple[list[int], int, HandRules]:
    """2-4 melds, 0-3 wildcards, often near a win; sometimes a dead tile."""
    rules = draw(st.sampled_from(ALL_RULES))
    melds = draw(st.integers(2, 4))
    size = draw(st.sampled_from((13, 14))) - 3 * melds
    wilds = draw(st.integers(0, min(3 if melds >= 3 else 2, size)))
    kinds: list[int] = [WILD] * wilds
    if draw(st.booleans()):  # near a win: sets and a pair, then trimmed
        for _ in range(4 - melds):
            start = draw(st.sampled_from(KINDS))
            if start < 27 and start % 9 <= 6 and draw(st.booleans()):
                kinds += [start, start + 1, start + 2]
            else:
                kinds += [start] * 3
        kinds += [draw(st.sampled_from(KINDS))] * 2
    while len(kinds) < size:
        kinds.append(draw(st.sampled_from([*KINDS, 34, 33, 4, 13, 22])))
    real = kinds[wilds:]
    real = draw(st.permutations(real))
    kinds = [WILD] * wilds + list(real)[: size - wilds]
    counts = counts_of(kinds)
    if max(counts[:37]) > 4:
        counts = counts_of([WILD] * wilds + list(range(size - wilds)))
    return counts, melds, rules


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands())
def test_small_hands_agree_with_the_reference(case: tuple[list[int], int, HandRules]) -> None:
    counts, melds, rules = case
    label = shown(counts, melds, rules)
    assert distance(counts, melds, rules) == ref.distance_reference(counts, melds, rules), label
    if sum(counts) == 14 - 3 * melds:
        assert can_win(counts, melds, rules) == ref.can_win_bruteforce(counts, melds, rules), label
        assert arrangements(counts, melds, rules) == ref.arrangements_bruteforce(counts, melds, rules), label
    else:
        expected = []
        for kind in sorted(k for k in rules.kinds if k != rules.wild_kind):
            if counts[kind] < 4:
                counts[kind] += 1
                if ref.can_win_bruteforce(counts, melds, rules):
                    expected.append(kind)
                counts[kind] -= 1
        assert [w.kind for w in waits(counts, melds, rules)] == expected, label


@st.composite
def full_hands(draw: st.DrawFn) -> tuple[list[int], HandRules]:
    """0 melds, 14 tiles, 0-2 wildcards, built from four sets and a pair (or seven pairs) with swaps."""
    rules = draw(st.sampled_from([DEFAULT, BAIDA, NO_FIFTH, BAIDA_NO_FIFTH]))
    kinds: list[int] = []
    if draw(st.integers(0, 3)) == 0:
        for _ in range(7):
            kinds += [draw(st.sampled_from(KINDS))] * 2
    else:
        for _ in range(4):
            start = draw(st.sampled_from(KINDS))
            kinds += [start, start + 1, start + 2] if start < 27 and start % 9 <= 6 and draw(st.booleans()) \
                else [start] * 3
        kinds += [draw(st.sampled_from([1, 4, 7, 10, 13, 16, 19, 22, 25, *KINDS]))] * 2
    for _ in range(draw(st.integers(0, 2))):
        kinds[draw(st.integers(0, 13))] = draw(st.sampled_from(KINDS))
    for _ in range(draw(st.integers(0, 2))):
        kinds[draw(st.integers(0, 13))] = WILD
    counts = counts_of(kinds)
    if max(counts[:37]) > 4:
        counts = counts_of([k % 34 for k in range(14)])
    return counts, rules


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(full_hands())
def test_full_hands_agree_with_the_reference(case: tuple[list[int], HandRules]) -> None:
    counts, rules = case
    label = shown(counts, 0, rules)
    wins = ref.can_win_bruteforce(counts, 0, rules)
    assert can_win(counts, 0, rules) == wins, label
    assert (distance(counts, 0, rules) == 0) == wins, label
    assert arrangements(counts, 0, rules) == ref.arrangements_bruteforce(counts, 0, rules), label


@pytest.mark.parametrize("text", ["123m456p789s1z***", "12m456p789s11z***", "1m456p789s11z****", "14m456p789s11z***"])
def test_three_and_four_wildcards(text: str) -> None:
    """13-tile hands with 3 or 4 wildcards: every wait agrees with the brute force (wins with 14 tiles)."""
    counts = hand(text)
    found = [w.kind for w in waits(counts, 0, DEFAULT)]
    assert found  # with 3+ wildcards these hands are ready
    sample = sorted({*found[:3], 33, 8})
    for kind in sample:
        counts[kind] += 1
        assert ref.can_win_bruteforce(counts, 0, DEFAULT) == (kind in found), (text, kind)
        counts[kind] -= 1


@pytest.mark.parametrize("rules", ALL_RULES)
def test_batch_agrees_with_the_scalar_api(rules: HandRules) -> None:
    np = pytest.importorskip("numpy")
    from mjarena.hand.batch import batch_can_win, batch_distance

    rng = random.Random(11)
    wall = [k for k in range(34) for _ in range(4)] + [WILD] * 8 + [34, 35]
    hands, melds = [], []
    for index in range(400):
        n = rng.choice((0, 0, 1, 2, 3, 4))
        hands.append(counts_of(rng.sample(wall, 14 - 3 * n - index % 2)))
        melds.append(n)
    hands.append(hand("1122334455667z*"))
    melds.append(0)
    array = np.array(hands, dtype=np.int8)
    expected = [distance(h, n, rules) for h, n in zip(hands, melds, strict=True)]
    assert batch_distance(array, np.array(melds), rules).tolist() == expected
    wins = [sum(h) == 14 - 3 * n and can_win(h, n, rules) for h, n in zip(hands, melds, strict=True)]
    assert batch_can_win(array, np.array(melds), rules).tolist() == wins
    with pytest.raises(ValueError, match="hand 0"):
        batch_distance(array[:1], 3, rules)


# ---------------------------------------------------------------------------------------------- the C accelerator

counts_vectors = st.one_of(
    st.lists(st.integers(0, 4), min_size=38, max_size=38).map(lambda c: [*c[:37], c[37] * 2]),
    st.lists(st.integers(-2, 9), min_size=36, max_size=39),
    st.lists(st.sampled_from([0, 1, 2, True, 1.0, "1", None, 2**70]), min_size=38, max_size=38),
)


def test_the_accelerator_is_built_where_required() -> None:
    import os

    from mjarena.hand import wild

    if os.environ.get("MJARENA_REQUIRE_ACCELERATOR") == "1":
        assert wild.ACCELERATED, "the C accelerator (setup.py: mjarena.hand._speedups) did not build"
        assert wild._c_arranger is not None, "the C accelerator was built without the arrangement enumerator"
    else:
        assert wild.ACCELERATED in (True, False)
        pytest.skip("set MJARENA_REQUIRE_ACCELERATOR=1 (as .ci/run does) to require the C accelerator")


@settings(max_examples=400, deadline=None)
@given(counts_vectors, st.sampled_from([27, 34]), st.booleans())
def test_the_accelerator_scans_as_the_python_reference(counts: list, live_end: int, as_tuple: bool) -> None:
    speedups = pytest.importorskip("mjarena.hand._speedups")
    from mjarena.hand.wild import _scan_python

    value = tuple(counts) if as_tuple else counts
    assert speedups.scan(value, live_end) == _scan_python(value, live_end) or (
        speedups.scan(value, live_end) is None and not all(type(c) is int for c in counts)  # bool, exotic ints
    )


@pytest.fixture(params=["accelerated", "python"])
def scan_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test through the C scan (when built) and through the pure-Python fallback."""
    from mjarena.hand import wild

    if request.param == "python":
        monkeypatch.setattr(wild, "_scan", wild._scan_python)
    elif not wild.ACCELERATED:
        pytest.skip("the C accelerator is not built here")
    return request.param


@pytest.mark.parametrize("seed", range(3))
def test_both_paths_agree_with_the_reference(scan_path: str, seed: int) -> None:
    rng = random.Random(seed)
    wall = [k for k in range(34) for _ in range(4)] + [WILD] * 8
    for rules in ALL_RULES:
        for _ in range(30):
            melds = rng.choice((2, 3, 4))
            counts = counts_of(rng.sample(wall, rng.choice((13, 14)) - 3 * melds))
            assert distance(counts, melds, rules) == ref.distance_reference(counts, melds, rules), shown(
                counts, melds, rules
            )


@pytest.mark.parametrize(
    ("counts", "problem"),
    [([0] * 37, "not 37"), ([5] + [0] * 37, "5 tiles of 1M"), ([True] * 14 + [0] * 24, None),
     ((1,) * 13 + (0,) * 25, None), ([0] * 37 + [9], "9 tiles of BAIDA"), ([1.0] * 14 + [0] * 24, "1.0 tiles")],
)
def test_both_paths_validate_alike(scan_path: str, counts: list, problem: str | None) -> None:
    if problem is None:
        assert distance(counts) == distance([int(c) for c in counts])
    else:
        with pytest.raises((TileError, ValueError), match=problem):
            distance(counts)


# ---------------------------------------------------------------------------------------------- the enumerator


@st.composite
def winning_hands(draw: st.DrawFn) -> tuple[list[int], int, HandRules]:
    """0-4 melds, sets and a pair (or seven pairs) with 0-4 tiles turned into wildcards (up to 8 with melds)."""
    rules = draw(st.sampled_from(ALL_RULES))
    melds = draw(st.integers(0, 4))
    kinds: list[int] = []
    if melds == 0 and draw(st.integers(0, 4)) == 0:
        for _ in range(7):
            kinds += [draw(st.sampled_from(KINDS))] * 2
    else:
        for _ in range(4 - melds):
            start = draw(st.sampled_from(KINDS))
            run = start < 27 and start % 9 <= 6 and draw(st.booleans())
            kinds += [start, start + 1, start + 2] if run else [start] * 3
        kinds += [draw(st.sampled_from([1, 4, 7, 10, 13, 16, 19, 22, 25, *KINDS]))] * 2
    if draw(st.booleans()):  # a near miss: one tile swapped
        kinds[draw(st.integers(0, len(kinds) - 1))] = draw(st.sampled_from(KINDS))
    wild_kind = WILD if rules.wild_kind is None else rules.wild_kind
    for index in draw(st.sets(st.integers(0, len(kinds) - 1), max_size=min(len(kinds), 4 if melds < 2 else 8))):
        kinds[index] = wild_kind
    counts = counts_of(kinds)
    if max(counts[:34]) > 4 or counts[WILD] > 8:
        counts = counts_of([k % 34 for k in range(14 - 3 * melds)])
    return counts, melds, rules


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(winning_hands())
def test_arrangements_list_what_the_previous_enumerator_listed(case: tuple[list[int], int, HandRules]) -> None:
    """The rank-by-rank enumerator against the depth-first one it replaced (itself checked against the brute
    force): the same arrangements in the same order, with up to 4 wildcards (8 with two or more melds)."""
    counts, melds, rules = case
    label = shown(counts, melds, rules)
    expected = previous.arrangements(counts, melds, rules)
    assert arrangements(counts, melds, rules) == expected, label  # in C when the accelerator is built
    assert _arrangements_python(counts, melds, rules) == expected, label


@pytest.mark.parametrize(("text", "melds", "rules"), [
    ("123m456p78s11z****", 0, DEFAULT), ("123m456p78s11z****", 0, BAIDA), ("1234567899m****", 0, DEFAULT),
    ("2223334445556m*", 0, DEFAULT), ("11223344m5566p**", 0, BAIDA), ("1122334455667z*", 0, BAIDA),
    ("45m77z****", 2, DEFAULT), ("4m77z*****", 2, BAIDA), ("1m*******", 2, DEFAULT), ("1p1z***", 3, NO_FIFTH),
    ("1235m7777z", 2, RED_DRAGON_WILD), ("5m****", 3, BAIDA_NO_FIFTH),
])
def test_many_wildcards_against_both_references(text: str, melds: int, rules: HandRules) -> None:
    counts = hand(text)
    found = arrangements(counts, melds, rules)
    assert found == previous.arrangements(counts, melds, rules)
    assert _arrangements_python(counts, melds, rules) == found
    assert len({tuple(a.groups) for a in found}) == len(found)  # each multiset of groups once
    wilds = 0 if rules.wild_kind is None else counts[rules.wild_kind]
    if melds >= 2 and wilds <= 3:  # the brute force tries what every wildcard stands for: quick for a few only
        assert found == ref.arrangements_bruteforce(counts, melds, rules)


# ---------------------------------------------------------------------------------------------- one discard's effect


@pytest.mark.parametrize(("text", "melds", "rules"), [
    ("123m456p789s1122z7z", 0, RULES["thupc2021"]), ("123m456p789s11z3z5p*", 0, BAIDA),
    ("1m2m5p7p9p1s3s5s7s9s1z4z6z7z", 0, BAIDA), ("11z468m", 3, RULES["thupc2021"]), ("13579m258p4z**", 1, BAIDA),
    ("1122m3344p5566s79s", 0, RULES["noi2014"]),
])
def test_discard_effect_matches_the_distance_and_the_waits(text: str, melds: int, rules: HandRules) -> None:
    from mjarena.hand.effect import discard_effect

    counts = hand(text)
    visible = [0] * 38
    visible[4] = 2  # two 5m seen elsewhere
    before = distance(counts, melds, rules)
    best = None
    for kind in sorted({k for k in range(38) if counts[k]}):
        effect = discard_effect(counts, kind, melds, rules, visible)
        after = list(counts)
        after[kind] -= 1
        assert effect.distance_before == before and effect.distance_after == distance(after, melds, rules)
        useful = []
        for other in sorted(k for k in rules.kinds if k != rules.wild_kind):
            if after[other] < 4:
                after[other] += 1
                if distance(after, melds, rules) < effect.distance_after:
                    useful.append(other)
                after[other] -= 1
        assert list(effect.useful_kinds) == useful
        assert effect.useful_after == sum(4 - counts[k] - visible[k] for k in useful)
        key = (effect.distance_after, -effect.useful_after, kind)
        best = key if best is None or key < best else best
        assert effect.distance_loss >= 0
    assert best is not None
    assert discard_effect(counts, best[2], melds, rules, visible).distance_loss == 0
    assert discard_effect(counts, best[2], melds, rules, visible).useful_loss == 0


def test_discard_effect_says_what_is_wrong() -> None:
    from mjarena.hand.effect import discard_effect

    with pytest.raises(ValueError, match="cannot discard 5M: the hand holds none"):
        discard_effect(hand("123m456p789s1122z7z"), 4)
    with pytest.raises(ValueError, match="cannot discard 99: the hand holds none"):
        discard_effect(hand("123m456p789s1122z7z"), 99)
    with pytest.raises(ValueError, match="discards need a hand of 14"):
        discard_effect(hand("123m456p789s1122z"), 0)
