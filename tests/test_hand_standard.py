"""Exchange distance (和牌距离) and the win check of the standard form, against a brute-force reference.

Hands are written in mpsz (``123m456p789s1122z``) or, with special tiles, in THUPC names.  The reference
(``tests/reference.py``) follows the THUPC 2021 statement literally; see its docstring.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mjarena.hand import distance, is_winning, suit_keys
from mjarena.hand import tables as hand_tables
from mjarena.tiles import (
    DOUBLE,
    NUM_KINDS,
    PASS,
    REVERSE,
    WILD,
    TileError,
    counts_of,
    format_tiles,
    parse_tiles,
    tiles_of,
)

import reference as ref

SPECIALS = (PASS, REVERSE, DOUBLE, WILD)
"""Tiles that can never be part of a winning hand (the wildcard too: wildcards are off here)."""


def hand(text: str) -> list[int]:
    """The count vector of a hand typed in mpsz or THUPC names."""
    return counts_of(parse_tiles(text))


def show(counts: list[int], melds: int) -> str:
    """A hand in THUPC names, for failure messages."""
    return f"{format_tiles(tiles_of(counts))} with {melds} meld(s)"


# ---------------------------------------------------------------- table-driven cases

# (hand, melds, distance); every row is also checked against the reference.
DISTANCES = [
    # winning hands
    ("123m456p789s11122z", 0, 0),
    ("11122233344455m", 0, 0),
    ("11112222333344m", 0, 0),  # 123m four times and 44m: four of 1m, 2m, 3m, all in the hand
    ("11123456789999m", 0, 0),
    ("123m456p789s11z", 1, 0),
    ("55z777z", 3, 0),
    ("11m", 4, 0),
    # ready (听牌)
    ("123m456p789s1122z", 0, 1),
    ("1112345678999m", 0, 1),  # nine gates
    ("1112223334445m", 0, 1),
    ("1111222233334m", 0, 1),  # ready on 4m; a 1m, 2m or 3m would be a fifth copy
    ("1112345678999m1p", 0, 1),  # 14 tiles: discard 1p and be ready
    ("1111m234p567p789s1z", 0, 1),  # discard a 1m and wait on 1z
    ("1234m", 3, 1),
    ("11112m", 3, 1),
    ("1111m1z", 3, 1),
    ("12m", 4, 1),
    ("5z", 4, 1),
    # the statement's cap examples: the cap counts the hand only
    ("1111m", 3, 2),  # a fifth 1m would win, but the hand may not hold five: not ready
    ("2222m", 3, 2),
    ("1m", 4, 1),  # ready even if 1m was ponged: melded tiles do not count toward the cap
    ("1111m234p567p789s", 0, 2),  # the same cap with no melds
    # far from winning
    ("19m19p19s1234567z", 0, 9),  # each set or pair can use one of these tiles only
    ("19m19p19s12345677z", 0, 8),
    ("147m258p369s1234z", 0, 9),
    ("147m258p369s12345z", 0, 9),
    ("1111m1111p1111s1z", 0, 3),
    # special tiles never stay
    ("1M 2M 3M 4P 5P 6P 7S 8S 9S E E E PASS", 0, 2),
    ("1M 2M 3M 4P 5P 6P 7S 8S 9S E E E PASS REVERSE", 0, 2),
    ("1M 2M 3M 4P 5P 6P 7S 8S 9S E E E E PASS", 0, 2),  # the fourth E cannot be the pair
    ("PASS PASS PASS PASS REVERSE REVERSE REVERSE REVERSE DOUBLE DOUBLE DOUBLE DOUBLE BAIDA", 0, 14),
    ("PASS", 4, 2),
    ("PASS E", 4, 1),
    ("PASS DOUBLE", 4, 2),
    ("E E E PASS", 3, 2),
    ("E E E E PASS", 3, 2),
]


@pytest.mark.parametrize(("text", "melds", "expected"), DISTANCES)
def test_distance_table(text: str, melds: int, expected: int) -> None:
    counts = hand(text)
    assert distance(counts, melds) == expected
    assert distance(counts, melds=melds) == expected
    assert ref.reference_distance(counts, melds) == expected
    assert is_winning(counts, melds) is (expected == 0)
    assert ref.is_winning_bruteforce(counts, melds) is (expected == 0)


@pytest.mark.parametrize(
    ("text", "melds", "capped", "uncapped"),
    [
        ("1111m", 3, 2, 1),
        ("2222m", 3, 2, 1),
        ("1111m234p567p789s", 0, 2, 1),
        ("1M 1M 1M 1M 2P 3P 4P 5P 6P 7P 7S 8S 9S PASS", 0, 2, 1),
        ("1111m222p345s", 1, 2, 1),
    ],
)
def test_the_cap_is_what_makes_the_difference(text: str, melds: int, capped: int, uncapped: int) -> None:
    """Hands whose distance would be smaller if the hand could hold a fifth copy of a kind."""
    counts = hand(text)
    assert distance(counts, melds) == capped
    assert ref.reference_distance(counts, melds) == capped
    assert ref.reference_distance(counts, melds, cap=None) == uncapped


@pytest.mark.parametrize(
    ("text", "melds"),
    [
        ("123m456p789s11122z", 0),
        ("11122233344455m", 0),
        ("123m123m123m123m55z", 0),
        ("234m234m33m", 2),
        ("11m", 4),
        ("777z11s", 3),
    ],
)
def test_winning_hands(text: str, melds: int) -> None:
    assert is_winning(hand(text), melds)
    assert ref.is_winning_bruteforce(hand(text), melds)


@pytest.mark.parametrize(
    ("text", "melds"),
    [
        ("123m456p789s1122z", 0),  # 13 tiles never win
        ("123m456p789s11223z", 0),
        ("123m456p789s111z2z", 0),
        ("1M 2M 3M 4P 5P 6P 7S 8S 9S E E E PASS", 0),
        ("1M 2M 3M 4P 5P 6P 7S 8S 9S E E PASS PASS", 0),  # a pair of PASS is no pair
        ("PASS PASS", 4),
        ("12m", 4),
        ("789s1z", 3),
        ("899s1z", 3),  # 8 9 1z: no run wraps round
        ("12z", 4),
    ],
)
def test_not_winning_hands(text: str, melds: int) -> None:
    assert not is_winning(hand(text), melds)
    assert not ref.is_winning_bruteforce(hand(text), melds)


def test_honours_make_no_runs() -> None:
    counts = hand("567z11m")
    assert not is_winning(counts, 3)
    assert distance(counts, 3) == 2
    assert ref.reference_distance(counts, 3) == 2


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("counts", "melds", "error", "message"),
    [
        (hand("123m"), 0, ValueError, "a hand with 0 meld(s) holds 13 or 14 tiles, not 3"),
        (hand("123m456p789s11223z"), 1, ValueError, "a hand with 1 meld(s) holds 10 or 11 tiles, not 14"),
        (hand("123m456p789s112233z"), 0, ValueError, "a hand with 0 meld(s) holds 13 or 14 tiles, not 15"),
        (hand("111m"), 3, ValueError, "a hand with 3 meld(s) holds 4 or 5 tiles, not 3"),
        ([0] * NUM_KINDS, 4, ValueError, "a hand with 4 meld(s) holds 1 or 2 tiles, not 0"),
        (hand("11111m"), 3, TileError, "5 tiles of kind 0: a hand holds 0 to 4 of each kind"),
        (hand("11111p123456789s"), 0, TileError, "5 tiles of kind 9: a hand holds 0 to 4 of each kind"),
        (hand("1z"), 5, ValueError, "melds must be 0..4, not 5"),
        (hand("123m456p789s1122z"), -1, ValueError, "melds must be 0..4, not -1"),
    ],
)
def test_errors(counts: list[int], melds: int, error: type[Exception], message: str) -> None:
    for function in (distance, is_winning):
        with pytest.raises(error) as raised:
            function(counts, melds)
        assert str(raised.value) == message


def test_negative_count_is_an_error() -> None:
    counts = hand("1111p2222p3333p444p")  # 15 tiles
    counts[0] = -1  # and minus one 1m: 14 in all
    with pytest.raises(TileError, match=r"-1 tiles of kind 0: a hand holds 0 to 4 of each kind"):
        distance(counts)


def test_import_in_a_fresh_process() -> None:
    code = (
        "import mjarena.hand as h\n"
        "from mjarena.tiles import counts_of, parse_mpsz\n"
        "print(h.distance(counts_of(parse_mpsz('123m456p789s1122z'))),\n"
        "      h.is_winning(counts_of(parse_mpsz('11m')), 4))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "True"]


# ---------------------------------------------------------------- property tests against the reference

STANDARD_PLUS_SPECIALS = [*range(34), *SPECIALS]


@st.composite
def scattered_hands(draw: st.DrawFn, melds: int) -> list[int]:
    """A hand of 13 - 3n or 14 - 3n tiles drawn from a few kinds, at most 4 of each, specials now and then."""
    size = 14 - 3 * melds - draw(st.integers(0, 1))
    palette = draw(
        st.lists(
            st.sampled_from(STANDARD_PLUS_SPECIALS),
            min_size=(size + 3) // 4,
            max_size=max(12, size),
            unique=True,
        )
    )
    counts = [0] * NUM_KINDS
    for _ in range(size):
        kind = draw(st.sampled_from([k for k in palette if counts[k] < 4]))
        counts[kind] += 1
    return counts


@st.composite
def near_winning_hands(draw: st.DrawFn, melds: int) -> list[int]:
    """A winning hand (any sets, any pair) with a few tiles swapped for others and perhaps one dropped."""
    tiles = [draw(st.integers(0, 33))] * 2
    for _ in range(4 - melds):
        tiles += ref.SETS[draw(st.integers(0, len(ref.SETS) - 1))]
    for _ in range(draw(st.integers(0, 3))):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.sampled_from(STANDARD_PLUS_SPECIALS))
    if draw(st.booleans()):
        del tiles[draw(st.integers(0, len(tiles) - 1))]
    counts = counts_of(tiles)
    assume(max(counts) <= 4)
    return counts


def small_hands(melds: int) -> st.SearchStrategy[list[int]]:
    return st.one_of(scattered_hands(melds), near_winning_hands(melds))


def check_against_reference(counts: list[int], melds: int) -> None:
    expected = ref.reference_distance(counts, melds)
    assert distance(counts, melds) == expected, show(counts, melds)
    wins = ref.is_winning_bruteforce(counts, melds)
    assert is_winning(counts, melds) is wins
    assert wins is (expected == 0)
    if any(counts[k] for k in SPECIALS):
        assert expected >= 1  # a hand holding a special tile never wins


PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.mark.parametrize(("melds", "examples"), [(4, 300), (3, 300), (2, 150)])
def test_distance_agrees_with_exhaustive_reference(melds: int, examples: int) -> None:
    @settings(PROPERTY, max_examples=examples)
    @given(small_hands(melds))
    def check(counts: list[int]) -> None:
        check_against_reference(counts, melds)

    check()


@pytest.mark.parametrize(("melds", "examples"), [(1, 300), (0, 300)])
def test_distance_agrees_with_search_reference(melds: int, examples: int) -> None:
    @settings(PROPERTY, max_examples=examples)
    @given(small_hands(melds))
    def check(counts: list[int]) -> None:
        check_against_reference(counts, melds)

    check()


@pytest.mark.parametrize("melds", [2, 3, 4])
def test_the_two_references_agree(melds: int) -> None:
    """The search reference is checked against plain enumeration where both are practical, cap or no cap."""

    @settings(PROPERTY, max_examples=40)
    @given(small_hands(melds))
    def check(counts: list[int]) -> None:
        assert ref.distance_dfs(counts, melds) == ref.distance_exhaustive(counts, melds)
        assert ref.distance_dfs(counts, melds, cap=None) == ref.distance_exhaustive(counts, melds, cap=None)

    check()


# ---------------------------------------------------------------- the shipped per-suit tables

HAND_SIZES = {14 - 3 * melds - short: melds for melds in range(5) for short in (0, 1)}


def _sample_keys(table_size: int, ranks: int, seed: int, wanted: int) -> list[tuple[list[int], int]]:
    """Random keys of a one-group table whose tiles make a hand of a valid size: (ranks' counts, melds)."""
    rng = random.Random(seed)
    found: list[tuple[list[int], int]] = []
    while len(found) < wanted:
        key = rng.randrange(table_size)
        digits = [key // 5**rank % 5 for rank in range(ranks)]
        if sum(digits) in HAND_SIZES:
            found.append((digits, HAND_SIZES[sum(digits)]))
    return found


@pytest.mark.parametrize("suit", [0, 1, 2])
def test_suit_table_keys_against_reference(suit: int) -> None:
    assert len(hand_tables.SUIT_CLASS) == 5**9
    for digits, melds in _sample_keys(len(hand_tables.SUIT_CLASS), 9, seed=suit, wanted=40):
        counts = [0] * NUM_KINDS
        counts[9 * suit : 9 * suit + 9] = digits
        key = sum(d * 5**rank for rank, d in enumerate(digits))
        assert suit_keys(counts)[suit] == key
        assert distance(counts, melds) == ref.reference_distance(counts, melds), show(counts, melds)


def test_honour_table_keys_against_reference() -> None:
    assert len(hand_tables.HONOUR_CLASS) == 5**7
    for digits, melds in _sample_keys(len(hand_tables.HONOUR_CLASS), 7, seed=7, wanted=40):
        counts = [0] * NUM_KINDS
        counts[27:34] = digits
        assert suit_keys(counts)[3] == sum(d * 5**rank for rank, d in enumerate(digits))
        assert distance(counts, melds) == ref.reference_distance(counts, melds), show(counts, melds)


def test_a_tracked_hand_answers_wins_with_as_the_whole_check_does_as_it_changes() -> None:
    """TrackedHand.wins_with remembers a hand that is not ready until a tile comes or goes or the melds change:
    along random draws and discards (and melds laid), its answer for every kind is ``is_winning`` of the hand
    with that tile added."""
    from mjarena.hand.tracked import TrackedHand

    rng = random.Random(46)
    for _ in range(40):
        melds = rng.randrange(3)
        wall = [kind for kind in range(34) for _ in range(4)]
        rng.shuffle(wall)
        hand = TrackedHand(wall[: 13 - 3 * melds], melds)
        for position in range(13, 40):
            for kind in range(34):
                grown = hand.counts.copy()
                grown[kind] += 1
                expected = grown[kind] <= 4 and is_winning(grown, hand.melds)
                assert hand.wins_with(kind) == expected, (hand.kinds(), hand.melds, kind)
            hand.add(wall[position])
            hand.remove(rng.choice(hand.kinds()))
            if hand.melds < 4 and rng.random() < 0.1:  # a meld laid: three tiles out of the concealed hand
                for kind in rng.sample(hand.kinds(), 3):
                    hand.remove(kind)
                hand.melds += 1
