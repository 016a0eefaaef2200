"""Build the hand tables shipped in ``src/mjarena/hand/data/tables.bin``.

Run ``make tables`` (needs NumPy, a dev dependency only; the package reads the file with the standard library).

The exchange distance of a hand H that must make ``s`` sets and one pair is ``3s + 2 - overlap`` where
``overlap`` is the largest number of tiles a winning hand W (at most 4 of a kind) shares with H.
W splits by suit, so the overlap does too:

1. For every count vector of one numbered suit (5**9 vectors, each count 0..4) and of the honours (5**7),
   ``value[m][p]`` is the largest overlap with at most ``m`` sets and ``p`` pairs of that suit.  A dynamic
   programme over the ranks computes it for all vectors at once, one rank at a time.
2. Only 126 distinct value tables occur for a numbered suit and 55 for the honours: each vector is stored as
   its class number (one byte).
3. Two classes combine by max-plus convolution into the class of the two suits together; the shipped
   ``combine`` tables map (suit class, suit class) -> pair class, (pair class, suit class) -> triple class,
   and ``final`` maps (triple class, honour class) -> the distance for 0..4 melds.

So a distance is four key computations and four byte look-ups, with no search at run time.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "src" / "mjarena" / "hand" / "data" / "tables.bin"
WILD_OUT = OUT.with_name("wild.bin")
NEG = -100
MAX_SETS = 4


def suit_values(ranks: int, sequences: bool) -> np.ndarray:
    """value[key, m, p] for every count vector of a suit with ``ranks`` kinds (key: base 5, rank 1 lowest)."""
    # DP state (a, b, m, p): a = tiles of W already fixed at this rank by earlier runs, b = at the next rank.
    states = 250
    current = np.full((1, states), NEG, dtype=np.int16)
    current[0, 0] = 0
    for rank in range(ranks):
        n = current.shape[0]
        nxt = np.full((5, n, states), NEG, dtype=np.int16)
        for state in np.nonzero((current > NEG // 2).any(axis=0))[0]:
            a, rest = divmod(int(state), 50)
            b, rest = divmod(rest, 10)
            m, p = divmod(rest, 2)
            column = current[:, state]
            max_runs = 4 if sequences and rank <= ranks - 3 else 0
            for triplet in (0, 1):
                for pair in (0, 1 - p):
                    for runs in range(max_runs + 1):
                        w = a + 3 * triplet + 2 * pair + runs
                        if w > 4 or m + triplet + runs > MAX_SETS:
                            continue
                        target = (b + runs) * 50 + runs * 10 + (m + triplet + runs) * 2 + p + pair
                        for held in range(5):
                            np.maximum(nxt[held, :, target], column + min(w, held), out=nxt[held, :, target])
        current = nxt.reshape(5 * n, states)
    values = np.stack([current[:, m * 2 : m * 2 + 2] for m in range(MAX_SETS + 1)], axis=1)
    values = np.maximum.accumulate(np.maximum.accumulate(values, axis=1), axis=2)
    return values.astype(np.int8)


def classify(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct value tables, class of each key)."""
    flat = values.reshape(len(values), -1)
    distinct, inverse = np.unique(flat, axis=0, return_inverse=True)
    return distinct.reshape(-1, MAX_SETS + 1, 2), inverse.reshape(-1).astype(np.int64)


def convolve(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Max-plus convolution of two value tables (at most m sets, at most p pairs)."""
    out = np.full((MAX_SETS + 1, 2), NEG, dtype=np.int16)
    for m1 in range(MAX_SETS + 1):
        for m2 in range(MAX_SETS + 1 - m1):
            for p1 in (0, 1):
                for p2 in (0, 1 - p1):
                    total = int(x[m1, p1]) + int(y[m2, p2])
                    out[m1 + m2, p1 + p2] = max(out[m1 + m2, p1 + p2], total)
    return np.maximum.accumulate(np.maximum.accumulate(out, axis=0), axis=1)


def combine(left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct combined tables, index table [len(left) * len(right)] of combined classes)."""
    tables = np.stack([convolve(x, y) for x in left for y in right])
    distinct, inverse = classify(tables)
    return distinct, inverse


def build() -> dict[str, bytes]:
    suited = suit_values(9, sequences=True)
    honours = suit_values(7, sequences=False)
    suit_classes, suit_of_key = classify(suited)
    honour_classes, honour_of_key = classify(honours)
    pair_classes, pair_index = combine(suit_classes, suit_classes)
    triple_classes, triple_index = combine(pair_classes, suit_classes)
    final = np.zeros((len(triple_classes), len(honour_classes), MAX_SETS + 1), dtype=np.uint8)
    for t, triple in enumerate(triple_classes):
        for h, honour in enumerate(honour_classes):
            table = convolve(triple, honour)
            for melds in range(MAX_SETS + 1):
                sets = MAX_SETS - melds
                final[t, h, melds] = 3 * sets + 2 - int(table[sets, 1])
    for name, size in (("suit", len(suit_classes)), ("honour", len(honour_classes)),
                       ("pair", len(pair_classes)), ("triple", len(triple_classes))):
        if size > 255 and name in ("suit", "honour"):
            raise SystemExit(f"{name} classes do not fit in a byte: {size}")
        print(f"{name} classes: {size}", file=sys.stderr)
    return {
        "suit_class": suit_of_key.astype(np.uint8).tobytes(),
        "honour_class": honour_of_key.astype(np.uint8).tobytes(),
        "pair": pair_index.astype(np.uint16).tobytes(),
        "triple": triple_index.astype(np.uint16).tobytes(),
        "final": final.tobytes(),
        "suit_values": suit_classes.astype(np.int8).tobytes(),
        "honour_values": honour_classes.astype(np.int8).tobytes(),
    }


# -- wildcard variants (data/wild.bin) -------------------------------------------------------------------
#
# With wildcards the distance is ``3s + 2 - W - overlap`` where W is the number of wildcards held and
# ``overlap`` the largest number of *real* tiles a target winning hand shares with the hand (keeping every
# wildcard is never worse; see ``mjarena.hand.wild``).  The slots of the target that the hand does not cover are
# filled by wildcards or by drawn tiles, so they are free, except for two things the shipped tables do not know:
#
# - the 2-5-8 rule: the pair may only stand at ranks 2, 5, 8 (never among the honours);
# - the fifth copy: a kind may be represented 5 times when a wildcard stands for the fifth one.  Drawn tiles keep
#   the hand at 4 of a kind, so each kind represented 5 times needs its own wildcard: the tables count such
#   kinds, ``e`` (at most 2, as 3 x 5 > 14), and the look-up allows ``e <= min(W, 2)``.
#
# value[key, m, p, e] = the largest overlap with at most m sets, at most p pairs and at most e kinds represented
# five times.  Variants: "cap4_258" (fifth copy forbidden, 2-5-8 pair), "cap5" and "cap5_258"; cap 4 with any
# pair is the shipped standard table.

WILD_VARIANTS = {"cap4_258": (4, True), "cap5": (5, False), "cap5_258": (5, True)}
PAIR_RANKS_258 = (1, 4, 7)  # ranks 2, 5, 8 (0-based)


def wild_suit_values(ranks: int, sequences: bool, cap: int, pair_ranks: tuple[int, ...]) -> np.ndarray:
    """value[key, m, p, e] for every count vector of a group (see above); vectorised over keys and states."""
    excess = 3 if cap == 5 else 1
    shape = (5, 5, MAX_SETS + 1, 2, excess)  # a, b, m, p, e
    states = int(np.prod(shape))
    index = np.arange(states).reshape(shape)
    current = np.full((1, states), NEG, dtype=np.int8)
    current[0, 0] = 0
    b, m, p, e = np.meshgrid(*(np.arange(n) for n in shape[1:]), indexing="ij")
    for rank in range(ranks):
        n = current.shape[0]
        nxt = np.full((5, n, states), NEG, dtype=np.int8)
        max_runs = MAX_SETS if sequences and rank <= ranks - 3 else 0
        for a in range(5):
            for triplet in (0, 1):
                for pair in (0, 1) if rank in pair_ranks else (0,):
                    for runs in range(max_runs + 1):
                        w = a + 3 * triplet + 2 * pair + runs
                        if w > cap:
                            continue
                        over = int(w == 5)
                        ok = (m + triplet + runs <= MAX_SETS) & (p + pair <= 1) & (e + over < excess) & (b + runs <= 4)
                        src = index[a][ok]
                        tgt = index[b[ok] + runs, runs, m[ok] + triplet + runs, p[ok] + pair, e[ok] + over]
                        block = current[:, src]
                        for held in range(5):
                            view = nxt[held]
                            view[:, tgt] = np.maximum(view[:, tgt], block + min(w, held))
        current = nxt.reshape(5 * n, states)
        del nxt
    values = current[:, index[0, 0].reshape(-1)].reshape(-1, MAX_SETS + 1, 2, excess)
    for axis in (1, 2, 3):
        values = np.maximum.accumulate(values, axis=axis)
    return values


def classify_any(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distinct value tables, class of each row) for tables of any shape."""
    flat = values.reshape(len(values), -1)
    distinct, inverse = np.unique(flat, axis=0, return_inverse=True)
    return distinct.reshape(-1, *values.shape[1:]), inverse.reshape(-1).astype(np.int64)


def convolve_wild(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Max-plus convolution of two value[m, p, e] tables."""
    sets, pairs, excess = x.shape
    out = np.full(x.shape, NEG, dtype=np.int16)
    for m1 in range(sets):
        for p1 in range(pairs):
            for e1 in range(excess):
                total = np.int16(x[m1, p1, e1]) + y[: sets - m1, : pairs - p1, : excess - e1].astype(np.int16)
                region = out[m1:, p1:, e1:]
                np.maximum(region, total, out=region)
    for axis in range(3):
        out = np.maximum.accumulate(out, axis=axis)
    return out


def combine_wild(left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    tables = np.stack([convolve_wild(x, y) for x in left for y in right])
    return classify_any(tables)


def build_wild() -> dict[str, bytes]:
    sections: dict[str, bytes] = {}
    for name, (cap, rule_258) in WILD_VARIANTS.items():
        start = time.perf_counter()
        suit_pairs = PAIR_RANKS_258 if rule_258 else tuple(range(9))
        honour_pairs = () if rule_258 else tuple(range(7))
        suit_classes, suit_of_key = classify_any(wild_suit_values(9, True, cap, suit_pairs))
        honour_classes, honour_of_key = classify_any(wild_suit_values(7, False, cap, honour_pairs))
        pair_classes, pair_index = combine_wild(suit_classes, suit_classes)
        triple_classes, triple_index = combine_wild(pair_classes, suit_classes)
        excess = suit_classes.shape[3]
        final = np.zeros((len(triple_classes), len(honour_classes), MAX_SETS + 1, excess), dtype=np.uint8)
        for t, triple in enumerate(triple_classes):
            for h, honour in enumerate(honour_classes):
                table = convolve_wild(triple, honour)
                for melds in range(MAX_SETS + 1):
                    sets = MAX_SETS - melds
                    final[t, h, melds, :] = 3 * sets + 2 - table[sets, 1, :]
        sizes = (len(suit_classes), len(honour_classes), len(pair_classes), len(triple_classes))
        if max(sizes) > 65535:
            raise SystemExit(f"{name}: classes do not fit in 16 bits: {sizes}")
        print(f"{name}: suit/honour/pair/triple classes {sizes} in {time.perf_counter() - start:.1f} s",
              file=sys.stderr)
        sections[f"{name}.suit_class"] = suit_of_key.astype(np.uint16).tobytes()
        sections[f"{name}.honour_class"] = honour_of_key.astype(np.uint16).tobytes()
        sections[f"{name}.pair"] = pair_index.astype(np.uint16).tobytes()
        sections[f"{name}.triple"] = triple_index.astype(np.uint16).tobytes()
        sections[f"{name}.final"] = final.tobytes()
    return sections


def write(sections: dict[str, bytes], path: Path) -> None:
    header = {name: len(blob) for name, blob in sections.items()}
    payload = b"".join(sections.values())
    head = json.dumps({"format": 1, "sections": header}).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(len(head).to_bytes(4, "little") + head + zlib.compress(payload, 9))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--wild-out", type=Path, default=WILD_OUT)
    parser.add_argument("--only", choices=("standard", "wild"), help="build one of the two files")
    args = parser.parse_args()
    jobs = [("standard", build, args.out), ("wild", build_wild, args.wild_out)]
    for name, builder, path in jobs:
        if args.only in (None, name):
            start = time.perf_counter()
            write(builder(), path)
            print(f"wrote {path} ({path.stat().st_size} bytes) in {time.perf_counter() - start:.1f} s",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
