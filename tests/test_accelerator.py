"""The C accelerator's standard distance, batch kernel and arrangement enumerator against their pure-Python and
NumPy references.

``mjarena.hand.standard.distance``, ``mjarena.hand.batch.batch_distance`` / ``batch_can_win`` and
``mjarena.hand.wild.arrangements`` take a C path when ``mjarena.hand._speedups`` is built
(``MJARENA_REQUIRE_ACCELERATOR=1`` in CI makes it required, see ``test_hand_wild.py``); these tests check that
both paths give the same results, and the same errors, on random hands and on input that is not a hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjarena.hand import standard
from mjarena.hand.options import RULES, HandRules
from mjarena.tiles import WILD, TileError, counts_of

speedups = pytest.importorskip("mjarena.hand._speedups", reason="the C accelerator is not built here")

WALL = [kind for kind in range(34) for _ in range(4)]
ALL_RULES = [HandRules(), *RULES.values(), HandRules(seven_pairs=True, pair_258=True),
             HandRules(wild_kind=None, seven_pairs=True)]


def random_hand(rng: random.Random, melds: int, wilds: int = 0) -> list[int]:
    tiles = 14 - 3 * melds - rng.randrange(2)
    wilds = min(wilds, tiles)
    return counts_of([WILD] * wilds + rng.sample(WALL, tiles - wilds))


def outcome(function: Callable[..., object], *args: object) -> object:
    """The result, or the error's type and message: what two paths must agree on."""
    try:
        return function(*args)
    except (TileError, ValueError, TypeError, IndexError) as error:
        return type(error), str(error)


@pytest.mark.parametrize("seed", range(3))
def test_standard_distance_in_c_equals_python(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3000):
        melds = rng.randrange(5)
        counts = random_hand(rng, melds)
        assert standard.distance(counts, melds) == standard._distance_python(counts, melds)
        assert speedups.standard_distance(tuple(counts), melds) == standard._distance_python(counts, melds)


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.lists(st.integers(-1, 5), min_size=30, max_size=40),
        st.lists(st.sampled_from([0, 1, 2, 3, 4, True, 1.0, None, 2**70]), min_size=34, max_size=38),
        st.lists(st.integers(0, 2), min_size=34, max_size=38),
    ),
    st.sampled_from([0, 1, 3, 4, 5, -1, True, 2.0]),
)
def test_standard_distance_refuses_what_python_refuses(counts: list, melds: int) -> None:
    """Anything the C path does not take goes to the Python path: the same result or the same error."""
    assert outcome(standard.distance, counts, melds) == outcome(standard._distance_python, counts, melds)
    direct = speedups.standard_distance(counts, melds)
    if direct is not None:
        assert direct == standard._distance_python(counts, melds)


@pytest.mark.parametrize("rules", ALL_RULES, ids=repr)
def test_batch_kernel_equals_numpy(rules: HandRules) -> None:
    np = pytest.importorskip("numpy")
    from mjarena.hand import batch

    rng = random.Random(repr(rules))
    hands, melds = [], []
    for index in range(600):
        n = rng.choice((0, 0, 1, 2, 3, 4))
        hands.append(random_hand(rng, n, index % 5 if rules.wild_kind is not None else 0))
        melds.append(n)
    array = np.array(hands, np.int8)
    reference, melds_array, _ = batch._validate(array, melds)
    expected = batch._distance(reference, melds_array, rules)
    wins = (array.sum(axis=1) == 14 - 3 * melds_array) & (expected == 0)
    accelerated = batch._distance_accelerated(array, np.array(melds), rules)
    assert accelerated is not None and accelerated.tolist() == expected.tolist()
    assert batch._distance_accelerated(array, np.array(melds), rules, win_check=True).tolist() == wins.tolist()
    flat = array[np.array(melds) == 0]
    assert batch._distance_accelerated(flat, 0, rules).tolist() == batch._distance(flat, np.zeros(len(flat),
                                                                                                   int), rules).tolist()
    # other dtypes and layouts take the NumPy path and agree
    assert batch.batch_distance(array.astype(np.int64), np.array(melds), rules).tolist() == expected.tolist()
    assert batch.batch_distance(np.asfortranarray(array), np.array(melds), rules).tolist() == expected.tolist()


def test_batch_kernel_leaves_bad_rows_to_numpy_which_names_them() -> None:
    np = pytest.importorskip("numpy")
    from mjarena.hand import batch

    rng = random.Random(5)
    array = np.array([random_hand(rng, 0, 1) for _ in range(50)], np.int8)
    for row, column, value in ((7, 3, 5), (9, WILD, 9), (11, 0, -1)):
        bad = array.copy()
        bad[row, column] = value
        assert batch._distance_accelerated(bad, 0, RULES["baida"]) is None
        with pytest.raises(ValueError, match=f"hand {row}:"):
            batch.batch_distance(bad, 0, RULES["baida"])
    with pytest.raises(ValueError, match="hand 0:"):
        batch.batch_can_win(array, 2, RULES["baida"])  # 13 or 14 tiles cannot go with 2 melds
    with pytest.raises(ValueError, match="hand 3:"):
        batch.batch_distance(array, np.array([0, 0, 0, 7] + [0] * 46), RULES["baida"])


# ---------------------------------------------------------------------------------------------- arrangements

ARRANGEMENT_RULES = [*ALL_RULES, HandRules(wild_fifth_copy=False), HandRules(pair_258=True, seven_pairs=True,
                     wild_fifth_copy=False), HandRules(kinds=frozenset(range(27))), HandRules(wild_kind=33),
                     HandRules(wild_kind=33, pair_258=True, seven_pairs=True),
                     HandRules(wild_kind=4, kinds=frozenset(range(27)), seven_pairs=True)]


def near_win(rng: random.Random, melds: int, rules: HandRules) -> list[int] | None:
    """Sets and a pair (or seven pairs), sometimes one tile swapped (a dead one now and then), then up to 5
    tiles (8 with two or more melds) turned into wildcards."""
    kinds: list[int] = []
    if melds == 0 and rng.random() < 0.2:
        for _ in range(7):
            kinds += [rng.randrange(34)] * 2
    else:
        for _ in range(4 - melds):
            start = rng.randrange(34)
            kinds += [start, start + 1, start + 2] if start < 27 and start % 9 <= 6 and rng.random() < 0.6 \
                else [start] * 3
        kinds += [rng.choice([1, 4, 7, 10, 13, 16, 19, 22, 25, rng.randrange(34)])] * 2
    if rng.random() < 0.3:
        kinds[rng.randrange(len(kinds))] = rng.choice([*range(34), 34, WILD])
    wild_kind = WILD if rules.wild_kind is None else rules.wild_kind
    for index in rng.sample(range(len(kinds)), rng.randint(0, min(len(kinds), 5 if melds < 2 else 8))):
        kinds[index] = wild_kind
    counts = counts_of(kinds)
    return counts if max(counts[:WILD]) <= 4 and counts[WILD] <= 8 else None


@pytest.mark.parametrize("seed", range(4))
def test_arrangements_in_c_equal_python(seed: int) -> None:
    """The C enumerator lists what the pure-Python one lists (itself checked against the previous enumerator
    and the brute force in test_hand_wild.py), in the same order, for lists and tuples."""
    from mjarena.hand import wild

    rng = random.Random(seed)
    wall = [kind for kind in range(38) for _ in range(4)] + [WILD] * 4  # dead tiles too
    plan = wild._PLANS.get(id(ARRANGEMENT_RULES[0])) or wild._plan(ARRANGEMENT_RULES[0])
    assert (plan.arrange or wild._arranger(plan)) is not wild._no_arranger
    winning = 0
    for index in range(3000):
        rules = rng.choice(ARRANGEMENT_RULES)
        melds = rng.choice((0, 0, 1, 2, 3, 4))
        counts = near_win(rng, melds, rules) if index % 2 else counts_of(
            rng.sample(wall, 14 - 3 * melds - (index % 10 == 0)))
        if counts is None or max(counts[:WILD]) > 4:
            continue
        expected = wild._arrangements_python(counts, melds, rules)
        assert wild.arrangements(counts, melds, rules) == expected, (counts, melds, rules)
        assert wild.arrangements(tuple(counts), melds, rules) == expected
        winning += bool(expected)
    assert winning > 500


@pytest.mark.parametrize(("text", "melds"), [
    ("1234556p7p******", 0), ("4m3p5p6p6p7p********", 0), ("1m34456s7s*******", 0), ("2345s88s********", 0),
    ("1m*******", 2), ("********", 2), ("5p*******", 2), ("1122334455667z*", 0), ("11223344556677m", 0),
])
def test_arrangements_in_c_equal_python_on_many_wildcards(text: str, melds: int) -> None:
    """Hands with hundreds or thousands of arrangements: the C enumerator's buffers grow on the heap."""
    from mjarena.hand import wild
    from mjarena.tiles import parse_mpsz

    counts = counts_of(parse_mpsz(text))
    for rules in (HandRules(), RULES["baida"], HandRules(wild_fifth_copy=False, seven_pairs=True)):
        expected = wild._arrangements_python(counts, melds, rules)
        assert wild.arrangements(counts, melds, rules) == expected
    assert len(wild.arrangements(counts_of(parse_mpsz("1234556p7p******")), 0)) > 2000


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.lists(st.integers(-1, 5), min_size=36, max_size=39),
        st.lists(st.sampled_from([0, 1, 2, True, 1.0, None, 2**70]), min_size=38, max_size=38),
        st.lists(st.integers(0, 2), min_size=38, max_size=38),
    ),
    st.sampled_from([0, 1, 3, 4, 5, -1, True, 2.0]),
)
def test_arrangements_refuse_what_python_refuses(counts: list, melds: int) -> None:
    """Anything the C enumerator does not take goes to the Python path: the same result or the same error."""
    from mjarena.hand import wild

    for rules in (HandRules(), RULES["baida"]):
        assert outcome(wild.arrangements, counts, melds, rules) == outcome(wild._arrangements_python, counts,
                                                                           melds, rules)
