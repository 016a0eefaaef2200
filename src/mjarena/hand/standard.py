"""Exchange distance (和牌距离) and the win check for the standard form: sets and one pair.

A hand is a count vector indexed by tile kind (see :mod:`mjarena.tiles`); kinds 34 and up (PASS, REVERSE,
DOUBLE, and the wildcard when wildcards are off) can never be part of a winning hand: they are tiles that
must go.  ``melds`` is the number of sets already laid down; the concealed hand then holds ``14 - 3 * melds``
tiles (it must discard) or ``13 - 3 * melds`` (it waits).

The distance follows the THUPC 2021 statement: the least ``x`` such that adding ``x`` chosen tiles and
removing ``x`` (for 14 - 3n tiles) or ``x - 1`` (for 13 - 3n) leaves a winning hand with at most 4 of any kind
*in the hand* (melds do not count toward that cap).  Equivalently ``14 - 3n`` minus the largest number of tiles
that a winning hand shares with this one; the tables of :mod:`mjarena.hand.tables` hold that, so a call is a
few look-ups.

>>> from mjarena.tiles import counts_of, parse_mpsz
>>> distance(counts_of(parse_mpsz("123m456p789s1122z")))
1
>>> is_winning(counts_of(parse_mpsz("123m456p789s11122z")))
True
>>> distance(counts_of(parse_mpsz("1111m")), melds=3)  # a fifth 1m is not allowed
2
"""

from __future__ import annotations

from collections.abc import Sequence

from mjarena.hand.tables import FINAL, HONOUR_CLASS, MAX_MELDS, PAIR, STRIDE, SUIT_CLASS, SUIT_CLASSES, TRIPLE
from mjarena.tiles import TileError

__all__ = ["distance", "distance_of_keys", "group_of", "is_winning", "key_weight", "suit_keys"]

_HONOUR_CLASSES = len(FINAL) // (STRIDE * (max(TRIPLE) + 1))


def group_of(kind: int) -> int:
    """The table group of a kind: 0, 1, 2 for the suits, 3 for honours."""
    return kind // 9 if kind < 27 else 3


def key_weight(kind: int) -> int:
    """What one tile of ``kind`` adds to its group's key (keys are base 5, rank 1 lowest)."""
    return 5 ** (kind % 9) if kind < 27 else 5 ** (kind - 27)


def suit_keys(c: Sequence[int]) -> tuple[int, int, int, int]:
    """The table keys of the four groups (characters, dots, bamboo, honours) of a count vector.

    >>> suit_keys([1] + [0] * 26 + [2] + [0] * 6)
    (1, 0, 0, 2)
    """
    return (
        c[0] + 5 * c[1] + 25 * c[2] + 125 * c[3] + 625 * c[4] + 3125 * c[5] + 15625 * c[6] + 78125 * c[7]
        + 390625 * c[8],
        c[9] + 5 * c[10] + 25 * c[11] + 125 * c[12] + 625 * c[13] + 3125 * c[14] + 15625 * c[15]
        + 78125 * c[16] + 390625 * c[17],
        c[18] + 5 * c[19] + 25 * c[20] + 125 * c[21] + 625 * c[22] + 3125 * c[23] + 15625 * c[24]
        + 78125 * c[25] + 390625 * c[26],
        c[27] + 5 * c[28] + 25 * c[29] + 125 * c[30] + 625 * c[31] + 3125 * c[32] + 15625 * c[33],
    )


def distance_of_keys(m: int, p: int, s: int, h: int, melds: int) -> int:
    """The distance from the four group keys; the hot path of every game loop."""
    pair = PAIR[SUIT_CLASS[m] * SUIT_CLASSES + SUIT_CLASS[p]]
    triple = TRIPLE[pair * SUIT_CLASSES + SUIT_CLASS[s]]
    return FINAL[(triple * _HONOUR_CLASSES + HONOUR_CLASS[h]) * STRIDE + melds]


_COUNTS_0_TO_4 = bytes(range(5))


def _check(counts: Sequence[int], melds: int) -> int:
    """The number of tiles; raises unless the hand fits ``melds`` and holds 0..4 of each kind."""
    try:
        packed = bytes(counts)  # fails on a negative count
    except (ValueError, TypeError):
        packed = b"\xff"
    total = sum(packed)
    fits = 0 <= melds <= MAX_MELDS and (total == 14 - 3 * melds or total == 13 - 3 * melds)
    if fits and not packed.translate(None, _COUNTS_0_TO_4):
        return total
    _explain(counts, melds)
    raise AssertionError("unreachable")


def _explain(counts: Sequence[int], melds: int) -> None:
    for kind, count in enumerate(counts):
        if not (isinstance(count, int) and 0 <= count <= 4):
            raise TileError(f"{count!r} tiles of kind {kind}: a hand holds 0 to 4 of each kind")
    if not 0 <= melds <= MAX_MELDS:
        raise ValueError(f"melds must be 0..{MAX_MELDS}, not {melds}")
    total = sum(counts)
    raise ValueError(f"a hand with {melds} meld(s) holds {13 - 3 * melds} or {14 - 3 * melds} tiles, not {total}")


def _distance_python(counts: Sequence[int], melds: int = 0) -> int:
    """:func:`distance` in pure Python: the reference of the C accelerator, and the path of every input it refuses."""
    _check(counts, melds)
    m, p, s, h = suit_keys(counts)
    pair = PAIR[SUIT_CLASS[m] * SUIT_CLASSES + SUIT_CLASS[p]]
    triple = TRIPLE[pair * SUIT_CLASSES + SUIT_CLASS[s]]
    return FINAL[(triple * _HONOUR_CLASSES + HONOUR_CLASS[h]) * STRIDE + melds]


def _no_accelerator(counts: Sequence[int], melds: int) -> None:
    return None


try:  # the optional C accelerator (setup.py builds it when a compiler is at hand): the same tables, in C
    from mjarena.hand import _speedups

    _speedups.install_standard_tables(SUIT_CLASS, HONOUR_CLASS, PAIR.obj, TRIPLE.obj, FINAL, SUIT_CLASSES,
                                      _HONOUR_CLASSES)
    _accelerated = _speedups.standard_distance
except ImportError:  # pragma: no cover - depends on the install
    _accelerated = _no_accelerator


def distance(counts: Sequence[int], melds: int = 0) -> int:
    """The exchange distance of a hand of ``13 - 3 * melds`` or ``14 - 3 * melds`` tiles.

    0 means the hand wins (only possible with 14 - 3n tiles); 1 means it is ready (听牌).  A list or tuple of
    ints goes through the C accelerator when it is built; anything else, and every hand it refuses, through
    :func:`_distance_python`, which explains what is wrong.

    >>> from mjarena.tiles import counts_of, parse_tiles
    >>> distance(counts_of(parse_tiles("1M 2M 3M 4P 5P 6P 7S 8S 9S E E E PASS")))
    2
    """
    result = _accelerated(counts, melds)
    return _distance_python(counts, melds) if result is None else result


def is_winning(counts: Sequence[int], melds: int = 0) -> bool:
    """Whether ``14 - 3 * melds`` tiles make sets and one pair (no special tiles).

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> is_winning(counts_of(parse_mpsz("11m")), melds=4)
    True
    """
    total = _check(counts, melds)
    if total != 14 - 3 * melds:
        return False
    m, p, s, h = suit_keys(counts)
    return distance_of_keys(m, p, s, h, melds) == 0
