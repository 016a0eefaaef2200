"""NumPy batch versions of the wildcard-aware distance and win check (``pip install 'mjarena[fast]'``).

The same tables and the same definitions as :mod:`mjarena.hand.wild` (seven pairs included), for an ``(N, 38)``
array of count vectors at once.  NumPy is imported on first use, never by ``import mjarena.hand``.  A C-ordered
``int8`` array goes through the optional C accelerator (one pass per row, validation included); any other array,
and any array holding a row that is not a hand, through NumPy (:func:`_distance`), which explains the error.

>>> import numpy as np
>>> from mjarena.hand.options import RULES
>>> from mjarena.tiles import counts_of, parse_mpsz
>>> hands = np.array([counts_of(parse_mpsz(t)) for t in ("123m456p789s22m11z*", "123m456p789s22m12z")])
>>> batch_distance(hands, rules=RULES["baida"]).tolist(), batch_can_win(hands, rules=RULES["baida"]).tolist()
([0, 2], [True, False])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mjarena.hand.options import HandRules
from mjarena.hand.wild import table_for
from mjarena.tiles import NUM_KINDS, WILD

if TYPE_CHECKING:
    import numpy as np

__all__ = ["batch_can_win", "batch_distance"]

DEFAULT_RULES = HandRules()
_ARRAYS: dict[int, tuple[Any, ...]] = {}


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("mjarena.hand.batch needs NumPy: pip install 'mjarena[fast]'") from None
    return numpy


def _arrays(table: Any) -> tuple[Any, ...]:
    """The look-up tables of one variant as NumPy arrays (cached)."""
    key = id(table)
    if key not in _ARRAYS:
        np = _numpy()

        def array(data: Any) -> Any:
            view = memoryview(data)
            return np.frombuffer(view, dtype=np.uint16 if view.format == "H" else np.uint8).astype(np.int32)

        _ARRAYS[key] = (array(table.suit_class), array(table.honour_class), array(table.pair), array(table.triple),
                        array(table.final), table.suit_classes, table.honour_classes, table.excess)
    return _ARRAYS[key]


def _weights(rules: HandRules) -> Any:
    np = _numpy()
    weights = np.zeros((NUM_KINDS, 4), dtype=np.float32)
    for kind in range(27):
        weights[kind, kind // 9] = 5 ** (kind % 9)
    if rules.honours:
        for kind in range(27, 34):
            weights[kind, 3] = 5 ** (kind - 27)
    if rules.wild_kind is not None and rules.wild_kind < 34:
        weights[rules.wild_kind] = 0
    return weights


def _validate(counts: Any, melds: Any) -> tuple[Any, Any, Any]:
    """(counts, melds per row, tiles per row); raises ValueError naming the first bad row."""
    np = _numpy()
    c = np.asarray(counts)
    if c.ndim != 2 or c.shape[1] != NUM_KINDS:
        raise ValueError(f"counts must be an (N, {NUM_KINDS}) array of count vectors, not shape {c.shape}")
    if not np.issubdtype(c.dtype, np.integer):
        raise ValueError(f"counts must hold integers, not {c.dtype}")
    m = np.broadcast_to(np.asarray(melds, dtype=np.int64), (len(c),))
    total = c.sum(axis=1, dtype=np.int64)
    wrong_size = (((total + 3 * m - 13) >> 1) != 0).any()  # not 13 - 3n or 14 - 3n tiles
    if len(c) and (int(c.min()) < 0 or int(c[:, :WILD].max()) > 4 or int(c[:, WILD].max()) > 8
                   or int(m.min()) < 0 or int(m.max()) > 4 or wrong_size):
        bad = (c[:, :WILD] < 0).any(axis=1) | (c[:, :WILD] > 4).any(axis=1) | (c[:, WILD] < 0) | (c[:, WILD] > 8)
        bad |= (m < 0) | (m > 4) | (total < 13 - 3 * m) | (total > 14 - 3 * m)
        row = int(np.argmax(bad))
        raise ValueError(
            f"hand {row}: counts must be 0..4 (wildcards 0..8), melds 0..4 and the tiles {13 - 3 * int(m[row])} "
            f"or {14 - 3 * int(m[row])}; got {int(total[row])} tiles with {int(m[row])} meld(s)"
        )
    return c, m, total


CHUNK = 32768
"""Rows per step: small enough for the caches (and to keep a multi-threaded BLAS from thrashing on 2 cores)."""


def _distance(c: Any, m: Any, rules: HandRules) -> Any:
    np = _numpy()
    weights = _weights(rules)
    live = np.zeros((NUM_KINDS, 1), np.float32)
    live[[kind for kind in range(NUM_KINDS) if kind in rules.kinds and kind != rules.wild_kind]] = 1
    weights = np.concatenate([weights, live], axis=1)  # 4 keys and the number of live real tiles
    # one table for every row: with no wildcard, "at most 0 kinds represented five times" is the cap of 4
    table = table_for(rules, 0 if rules.wild_kind is None else 1)[0]
    suit, honour, pair, triple, final, suit_classes, honour_classes, excess = _arrays(table)
    out = np.empty(len(c), dtype=np.int32)
    for start in range(0, len(c), CHUNK):
        rows = c[start : start + CHUNK]
        melds = m[start : start + CHUNK]
        keys = (rows.astype(np.float32) @ weights).astype(np.int32)  # keys < 5**9 < 2**24: exact in float32
        if rules.wild_kind is not None:
            wilds = rows[:, rules.wild_kind].astype(np.int32)
        else:
            wilds = np.zeros(len(rows), np.int32)
        p = pair[suit[keys[:, 0]] * suit_classes + suit[keys[:, 1]]]
        t = triple[p * suit_classes + suit[keys[:, 2]]]
        index = (t * honour_classes + honour[keys[:, 3]]) * 5 + melds
        if excess > 1:
            index = index * excess + np.minimum(wilds, excess - 1)
        result = final[index] - wilds
        if rules.seven_pairs:
            singles = (np.bitwise_and(rows, 1).astype(np.float32) @ live[:, 0]).astype(np.int32)
            doubles = np.minimum((keys[:, 4] - singles) >> 1, 7)
            seven = 14 - wilds - 2 * doubles - np.minimum(singles, 7 - doubles)
            result = np.where(melds == 0, np.minimum(result, seven), result)
        out[start : start + CHUNK] = result
    return out


try:  # the optional C accelerator: the same look-ups row by row, validation included, in one pass
    from mjarena.hand._speedups import batch_distance as _c_batch_distance
except ImportError:  # pragma: no cover - depends on the install
    _c_batch_distance = None

_KIND_MAPS: dict[int, tuple[Any, ...]] = {}


def _kind_maps(rules: HandRules) -> tuple[Any, ...]:
    """(group, weight, live) per kind for the C kernel: what :func:`_weights` and ``live`` say, as arrays."""
    maps = _KIND_MAPS.get(id(rules))
    if maps is None or maps[0] is not rules:
        np = _numpy()
        weights = _weights(rules)
        group = np.full(NUM_KINDS, 255, np.uint8)
        weight = np.zeros(NUM_KINDS, np.int32)
        for kind in range(NUM_KINDS):
            nonzero = np.flatnonzero(weights[kind])
            if len(nonzero):
                group[kind], weight[kind] = nonzero[0], int(weights[kind, nonzero[0]])
        live = np.array([kind in rules.kinds and kind != rules.wild_kind for kind in range(NUM_KINDS)], np.uint8)
        maps = _KIND_MAPS[id(rules)] = (rules, group, weight, live)
    return maps[1:]


def _distance_accelerated(counts: Any, melds: Any, rules: HandRules, win_check: bool = False) -> Any:
    """The C kernel's distances (with ``win_check``: whether each row wins), or None when it cannot take this
    input (the NumPy path then runs, and explains what is wrong when a row is not a hand)."""
    np = _numpy()
    c = counts if isinstance(counts, np.ndarray) else None
    if (_c_batch_distance is None or c is None or c.dtype != np.int8 or c.ndim != 2 or c.shape[1] != NUM_KINDS
            or not c.flags.c_contiguous):
        return None
    m = np.asarray(melds)
    if m.ndim == 0 and np.issubdtype(m.dtype, np.integer) and 0 <= int(m) <= 4:
        m, per_row = np.array([int(m)], np.int64), False
    elif m.shape == (len(c),) and np.issubdtype(m.dtype, np.integer):
        m, per_row = np.ascontiguousarray(m, np.int64), True
    else:
        return None
    table = table_for(rules, 0 if rules.wild_kind is None else 1)[0]
    suit, honour, pair, triple, final, suit_classes, honour_classes, excess = _arrays(table)
    group, weight, live = _kind_maps(rules)
    out = np.empty(len(c), np.int32)
    wild_kind = -1 if rules.wild_kind is None else rules.wild_kind
    bad = _c_batch_distance(c, m, per_row, out, group, weight, live, suit, honour, pair, triple, final,
                            suit_classes, honour_classes, excess, wild_kind, rules.seven_pairs, win_check)
    if bad >= 0:
        return None
    return out != 0 if win_check else out


def batch_distance(counts: Any, melds: Any = 0, rules: HandRules = DEFAULT_RULES) -> np.ndarray:
    """The distance of every row of an ``(N, 38)`` count array (``melds``: a number or one per row)."""
    fast = _distance_accelerated(counts, melds, rules)
    if fast is not None:
        return fast
    c, m, _ = _validate(counts, melds)
    return _distance(c, m, rules)


def batch_can_win(counts: Any, melds: Any = 0, rules: HandRules = DEFAULT_RULES) -> np.ndarray:
    """Whether each row wins (``14 - 3 * melds`` tiles and distance 0)."""
    fast = _distance_accelerated(counts, melds, rules, win_check=True)
    if fast is not None:
        return fast
    c, m, total = _validate(counts, melds)
    return (total == 14 - 3 * m) & (_distance(c, m, rules) == 0)
