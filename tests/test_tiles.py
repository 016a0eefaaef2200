"""Tile kinds and the three notations: THUPC, NOI 2014 / Botzone, mpsz."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjarena.tiles import (
    DOUBLE,
    NUM_KINDS,
    PASS,
    REVERSE,
    STANDARD_KINDS,
    WILD,
    TileError,
    check_counts,
    counts_of,
    format_tile,
    format_tiles,
    is_honour,
    is_suited,
    parse_mpsz,
    parse_tile,
    parse_tiles,
    rank_of,
    suit_of,
    tiles_of,
)

# (kind, THUPC name, NOI name or None, mpsz name or None)
NAMES = [
    (0, "1M", "W1", "1m"),
    (4, "5M", "W5", "5m"),
    (8, "9M", "W9", "9m"),
    (9, "1P", "B1", "1p"),
    (17, "9P", "B9", "9p"),
    (18, "1S", "T1", "1s"),
    (26, "9S", "T9", "9s"),
    (27, "E", None, "1z"),
    (28, "S", None, "2z"),
    (29, "W", None, "3z"),
    (30, "N", None, "4z"),
    (31, "B", None, "5z"),
    (32, "F", None, "6z"),
    (33, "Z", None, "7z"),
    (PASS, "PASS", None, None),
    (REVERSE, "REVERSE", None, None),
    (DOUBLE, "DOUBLE", None, None),
    (WILD, "BAIDA", "BAIDA", "*"),
]


def named_kinds(notation: str) -> list[int]:
    """Every kind that has a name in ``notation``."""
    column = {"thupc": 1, "noi": 2, "mpsz": 3}[notation]
    kinds = []
    for kind in range(NUM_KINDS):
        try:
            format_tile(kind, notation)  # type: ignore[arg-type]
        except TileError:
            continue
        kinds.append(kind)
    assert all(row[0] in kinds for row in NAMES if row[column] is not None)
    return kinds


# ---------------------------------------------------------------- the kinds


def test_kind_layout() -> None:
    assert (STANDARD_KINDS, PASS, REVERSE, DOUBLE, WILD, NUM_KINDS) == (34, 34, 35, 36, 37, 38)
    assert [suit_of(k) for k in (0, 8, 9, 17, 18, 26, 27, 33, 34, 37)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert [rank_of(k) for k in (0, 8, 9, 22, 27, 33)] == [1, 9, 1, 5, 1, 7]
    assert [k for k in range(NUM_KINDS) if is_suited(k)] == list(range(27))
    assert [k for k in range(NUM_KINDS) if is_honour(k)] == list(range(27, 34))


# ---------------------------------------------------------------- THUPC names


@pytest.mark.parametrize(("kind", "thupc"), [(row[0], row[1]) for row in NAMES])
def test_thupc_names(kind: int, thupc: str) -> None:
    assert parse_tile(thupc) == kind
    assert parse_tile(thupc, "thupc") == kind
    assert format_tile(kind) == thupc
    assert format_tile(kind, "thupc") == thupc


def test_thupc_every_kind_round_trips() -> None:
    assert named_kinds("thupc") == list(range(NUM_KINDS))
    names = [format_tile(k) for k in range(NUM_KINDS)]
    assert len(set(names)) == NUM_KINDS
    assert parse_tiles(" ".join(names)) == list(range(NUM_KINDS))


def test_thupc_statement_hand() -> None:
    text = "1M 2M 3M 4P 5P 6P 7S 8S 9S E E E PASS"
    kinds = parse_tiles(text)
    assert kinds == [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 27, PASS]
    assert format_tiles(kinds) == text
    assert format_tiles(kinds, sep=",") == text.replace(" ", ",")


@pytest.mark.parametrize("token", ["1m", "pass", "Pass", "0M", "10M", "1Z", "e", "EE", "B0", "*"])
def test_thupc_rejects(token: str) -> None:
    with pytest.raises(TileError, match=re.escape(f"unknown thupc tile name {token!r}")):
        parse_tile(token, "thupc")


# ---------------------------------------------------------------- NOI names


@pytest.mark.parametrize(("kind", "noi"), [(row[0], row[2]) for row in NAMES if row[2]])
def test_noi_names(kind: int, noi: str) -> None:
    assert parse_tile(noi, "noi") == kind
    assert parse_tile(noi) == kind
    assert format_tile(kind, "noi") == noi


@pytest.mark.parametrize(("lower", "kind"), [("w1", 0), ("b2", 10), ("t9", 26), ("T2", 19), ("w9", 8)])
def test_noi_melded_tiles_are_lower_case(lower: str, kind: int) -> None:
    assert parse_tile(lower, "noi") == kind
    assert parse_tile(lower) == kind
    assert format_tile(kind, "noi") == lower.upper()


def test_noi_hand_with_melds() -> None:
    assert parse_tiles("W1 W2 W3 t2 t2 t2 B9", "noi") == [0, 1, 2, 19, 19, 19, 17]
    assert parse_tiles("W1 w2 T3") == [0, 1, 20]


@pytest.mark.parametrize("kind", [27, 33, PASS, REVERSE, DOUBLE])
def test_noi_has_no_honours_or_specials(kind: int) -> None:
    with pytest.raises(TileError, match=f"tile kind {kind} has no name in noi notation"):
        format_tile(kind, "noi")


@pytest.mark.parametrize("token", ["E", "1M", "W0", "W10", "X1", "PASS"])
def test_noi_rejects(token: str) -> None:
    with pytest.raises(TileError, match=re.escape(f"unknown noi tile name {token!r}")):
        parse_tile(token, "noi")


def test_noi_round_trip() -> None:
    kinds = named_kinds("noi")
    assert kinds == [*range(27), WILD]
    assert parse_tiles(format_tiles(kinds, "noi"), "noi") == kinds


# ---------------------------------------------------------------- mpsz


@pytest.mark.parametrize(("kind", "mpsz"), [(row[0], row[3]) for row in NAMES if row[3]])
def test_mpsz_names(kind: int, mpsz: str) -> None:
    assert parse_tile(mpsz, "mpsz") == kind
    assert parse_mpsz(mpsz) == [kind]
    assert format_tile(kind, "mpsz") == mpsz


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("123m5z*", [0, 1, 2, 31, WILD]),
        ("123m456p789s1122z", [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 28, 28]),
        ("19m19p19s1234567z", [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]),
        ("0m0p0s", [4, 13, 22]),  # 0 is a red five, read as a 5
        ("1m 2m\t3m", [0, 1, 2]),  # white space is ignored
        ("*1m*", [WILD, 0, WILD]),
        ("", []),
    ],
)
def test_mpsz_parse(text: str, kinds: list[int]) -> None:
    assert parse_mpsz(text) == kinds
    if text.strip():
        assert parse_tiles(text, "mpsz") == kinds


@pytest.mark.parametrize(
    ("kinds", "text"),
    [
        ([0, 1, 2, 31, WILD], "123m5z*"),
        ([WILD, 0, 9, 1], "*1m1p2m"),  # the order of the tiles is kept
        ([27, 27, 33], "117z"),
        ([], ""),
    ],
)
def test_mpsz_format(kinds: list[int], text: str) -> None:
    assert format_tiles(kinds, "mpsz") == text
    assert parse_mpsz(text) == kinds


@pytest.mark.parametrize(("text", "kinds"), [("123m 5z", [0, 1, 2, 31]), ("1z", [27]), ("*", [WILD])])
def test_mpsz_is_detected_without_a_notation(text: str, kinds: list[int]) -> None:
    assert parse_tiles(text) == kinds


def test_thupc_names_are_not_taken_for_mpsz() -> None:
    # "S" and "Z" end in letters that are not mpsz suits; they are honours in THUPC.
    assert parse_tiles("S Z") == [28, 33]


@pytest.mark.parametrize("kind", [PASS, REVERSE, DOUBLE, NUM_KINDS, -2])
def test_mpsz_unnamed_kinds(kind: int) -> None:
    with pytest.raises(TileError, match=re.escape(f"tile kind {kind} has no name in mpsz notation")):
        format_tile(kind, "mpsz")


@pytest.mark.parametrize("notation", ["thupc", "noi", "mpsz"])
def test_negative_kinds_have_no_name(notation: str) -> None:
    with pytest.raises(TileError, match=re.escape(f"tile kind -1 has no name in {notation} notation")):
        format_tile(-1, notation)  # type: ignore[arg-type]


# ---------------------------------------------------------------- errors name the token and its position


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("12x", "mpsz: unknown suit letter 'x' at position 3 in '12x'"),
        ("123m4M", "mpsz: unknown suit letter 'M' at position 6 in '123m4M'"),
        ("1m2p3q", "mpsz: unknown suit letter 'q' at position 6 in '1m2p3q'"),
        ("m", "mpsz: suit letter 'm' at position 1 has no digits in 'm'"),
        ("11mp", "mpsz: suit letter 'p' at position 4 has no digits in '11mp'"),
        ("123", "mpsz: digits at position 1 have no suit letter in '123'"),
        ("11m23", "mpsz: digits at position 4 have no suit letter in '11m23'"),
        ("8z", "mpsz: honour 8z at position 1 in '8z'"),
        ("123m79z", "mpsz: honour 9z at position 6 in '123m79z'"),
        ("1m 9z", "mpsz: honour 9z at position 4 in '1m 9z'"),
        ("0z", "mpsz: honour 0z at position 1 in '0z' (0 is a red five, which honours do not have)"),
        ("11z05z", "mpsz: honour 0z at position 4 in '11z05z' (0 is a red five, which honours do not have)"),
    ],
)
def test_mpsz_errors(text: str, message: str) -> None:
    with pytest.raises(TileError) as error:
        parse_mpsz(text)
    assert str(error.value) == message


@pytest.mark.parametrize(
    ("text", "notation", "message"),
    [
        ("1M 1X", None, "unknown tile name '1X' (token 2)"),
        ("1M 2M 3M PAS", None, "unknown tile name 'PAS' (token 4)"),
        ("W1 w2 X9", None, "unknown tile name 'X9' (token 3)"),
        ("1M 2M", "noi", "unknown noi tile name '1M' (token 1)"),
        ("E S W1", "thupc", "unknown thupc tile name 'W1' (token 3)"),
    ],
)
def test_unknown_names_in_lists(text: str, notation: str | None, message: str) -> None:
    with pytest.raises(TileError) as error:
        parse_tiles(text, notation)  # type: ignore[arg-type]
    assert str(error.value) == message


def test_unknown_name_in_an_iterable() -> None:
    with pytest.raises(TileError, match=re.escape("unknown tile name '??' (token 2)")):
        parse_tiles(["1M", "??"])


def test_tile_error_is_a_value_error() -> None:
    assert issubclass(TileError, ValueError)


def test_mpsz_typo_names_the_bad_token() -> None:
    with pytest.raises(TileError) as error:
        parse_tiles("123m 4x")
    assert "'x'" in str(error.value) or "'4x'" in str(error.value)


# ---------------------------------------------------------------- check_counts


@pytest.mark.parametrize(
    ("kinds", "notation", "message"),
    [
        ([0] * 5, "thupc", "a fifth copy of 1M (tile 5); there are only 4 of each kind"),
        ([0, 1, 0, 0, 0, 2, 0], "mpsz", "a fifth copy of 1m (tile 7); there are only 4 of each kind"),
        ([26, 26, 3, 26, 26, 26], "noi", "a fifth copy of T9 (tile 6); there are only 4 of each kind"),
        ([PASS] * 5, "thupc", "a fifth copy of PASS (tile 5); there are only 4 of each kind"),
        ([33] * 4 + [32] * 4 + [33], "thupc", "a fifth copy of Z (tile 9); there are only 4 of each kind"),
    ],
)
def test_check_counts_names_the_fifth_copy(kinds: list[int], notation: str, message: str) -> None:
    with pytest.raises(TileError) as error:
        check_counts(kinds, notation=notation)  # type: ignore[arg-type]
    assert str(error.value) == message


def test_check_counts_accepts_four_of_each() -> None:
    check_counts([k for k in range(NUM_KINDS) for _ in range(4)])  # raises if wrong
    with pytest.raises(TileError, match="a ninth copy of E"):
        check_counts([27] * 9, copies=8)


def test_check_counts_ordinal_words() -> None:
    with pytest.raises(TileError, match=r"a (second|2nd) copy of 1M"):
        check_counts([0, 0], copies=1)


# ---------------------------------------------------------------- count vectors


def test_counts_and_tiles() -> None:
    counts = counts_of([*parse_mpsz("1123m*"), PASS])
    assert len(counts) == NUM_KINDS
    assert counts[0] == 2 and counts[1] == 1 and counts[2] == 1 and counts[WILD] == 1 and counts[PASS] == 1
    assert sum(counts) == 6
    assert tiles_of(counts) == [0, 0, 1, 2, PASS, WILD]


# ---------------------------------------------------------------- round trips (property)

thupc_lists = st.lists(st.integers(0, NUM_KINDS - 1), max_size=20)
noi_lists = st.lists(st.sampled_from([*range(27), WILD]), max_size=20)
mpsz_lists = st.lists(st.sampled_from([*range(STANDARD_KINDS), WILD]), max_size=20)


@given(thupc_lists)
def test_thupc_round_trip(kinds: list[int]) -> None:
    text = format_tiles(kinds)
    assert parse_tiles(text) == kinds
    assert parse_tiles(text, "thupc") == kinds
    assert parse_tiles(text.split()) == kinds


@given(noi_lists, st.data())
def test_noi_round_trip_any_case(kinds: list[int], data: st.DataObject) -> None:
    names = format_tiles(kinds, "noi").split()
    assert parse_tiles(names, "noi") == kinds
    melded = [name.lower() if data.draw(st.booleans()) else name for name in names]
    assert parse_tiles(" ".join(melded), "noi") == kinds


@given(mpsz_lists)
def test_mpsz_round_trip(kinds: list[int]) -> None:
    text = format_tiles(kinds, "mpsz")
    assert parse_mpsz(text) == kinds
    assert re.fullmatch(r"(\*|[1-9]+[mps]|[1-7]+z)*", text)
    assert tiles_of(counts_of(kinds)) == sorted(kinds)
