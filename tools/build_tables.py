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


def write(sections: dict[str, bytes], path: Path) -> None:
    header = {name: len(blob) for name, blob in sections.items()}
    payload = b"".join(sections.values())
    head = json.dumps({"format": 1, "sections": header}).encode()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(len(head).to_bytes(4, "little") + head + zlib.compress(payload, 9))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    start = time.perf_counter()
    write(build(), args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes) in {time.perf_counter() - start:.1f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
