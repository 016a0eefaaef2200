"""Time the wildcard-aware hand analysis on random 14-tile hands with 0 to 4 wildcards.

    python benchmarks/hand.py [--hands 20000] [--seed 1] [--batch 5] [--numpy 1000000]

Hands are 14 tiles from a 144-tile wall (136 ordinary tiles + 8 百搭), drawn so that each wildcard count 0..4
is equally common.  Each figure is the median over hands of ``time.perf_counter_ns`` around ``--batch`` calls
on one hand, divided by the batch size, minus nothing (the loop overhead is printed apart).

- ``can_win``: the public yes/no check, full validation, 百搭 rules (2-5-8 pair, seven pairs).
- ``distance``: the public distance, full validation, same rules.
- ``distance_function(rules)(m, p, s, h, wilds, melds)``: the fast entry point on precomputed group keys
  (:func:`mjarena.hand.wild.group_keys`), no validation, standard form only (no seven pairs).
- ``batch_distance``: NumPy over an (N, 38) int8 array, hands per second, validation included.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import describe

from mjarena.hand import wild
from mjarena.hand.options import RULES, HandRules
from mjarena.hand.wild import can_win, distance, distance_function, group_keys
from mjarena.tiles import WILD, counts_of

ORDINARY = [kind for kind in range(34) for _ in range(4)]


def draw_hands(count: int, seed: int) -> list[list[int]]:
    """``count`` count vectors of 14 tiles; hand i holds ``i % 5`` wildcards."""
    rng = random.Random(seed)
    return [counts_of([WILD] * (i % 5) + rng.sample(ORDINARY, 14 - i % 5)) for i in range(count)]


@contextlib.contextmanager
def _python_scan() -> Iterator[None]:
    """Route the hand analysis through its pure-Python scan for a while."""
    accelerated = wild._scan
    wild._scan = wild._scan_python
    try:
        yield
    finally:
        wild._scan = accelerated


def median_ns(function: Callable[[list[int]], object], hands: list[list[int]], batch: int) -> float:
    clock = time.perf_counter_ns
    per_call = []
    for hand in hands:
        start = clock()
        for _ in range(batch):
            function(hand)
        per_call.append((clock() - start) / batch)
    return statistics.median(per_call)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=5)
    parser.add_argument("--numpy", type=int, default=1_000_000, metavar="N", help="hands for the batch API")
    args = parser.parse_args()
    rules: HandRules = RULES["baida"]
    hands = draw_hands(args.hands, args.seed)
    print(f"machine: {describe()}")
    print(f"{args.hands} random 14-tile hands, 0-4 wildcards (equally often), rules baida; median per call; "
          f"C accelerator {'built' if wild.ACCELERATED else 'not built'}")
    for function in (can_win, distance):  # warm up: load the tables
        function(hands[0], 0, rules)
        function(hands[1], 0, rules)
    loop = median_ns(lambda hand: None, hands, args.batch)
    print(f"  empty call (loop overhead, included below)  {loop / 1000:6.2f} µs")
    print(f"  can_win(counts, 0, rules)                   "
          f"{median_ns(lambda h: can_win(h, 0, rules), hands, args.batch) / 1000:6.2f} µs   (target <= 4)")
    print(f"  distance(counts, 0, rules)                  "
          f"{median_ns(lambda h: distance(h, 0, rules), hands, args.batch) / 1000:6.2f} µs   (target <= 2)")
    if wild.ACCELERATED:  # the same calls through the pure-Python scan, as without a C compiler
        with _python_scan():
            print(f"    without the C accelerator: can_win "
                  f"{median_ns(lambda h: can_win(h, 0, rules), hands, args.batch) / 1000:.2f} µs, distance "
                  f"{median_ns(lambda h: distance(h, 0, rules), hands, args.batch) / 1000:.2f} µs")
    else:
        print("    (the C accelerator is not built: these are the pure-Python figures)")
    fast = distance_function(rules)
    keys = {id(h): group_keys(h, rules) for h in hands}
    timed = median_ns(lambda h: fast(*keys[id(h)], 0), hands, args.batch)
    print(f"  distance_function(rules)(*keys, melds)      {timed / 1000:6.2f} µs   (keys precomputed, no validation, "
          "no seven pairs; includes a dict look-up for the keys)")
    try:
        import numpy as np

        from mjarena.hand.batch import batch_can_win, batch_distance
    except ImportError:
        print("  batch API: NumPy not installed (pip install 'mjarena[fast]')")
        return
    base = np.array(hands, dtype=np.int8)
    array = base[np.random.default_rng(args.seed).integers(0, len(base), args.numpy)]
    for name, function in (("batch_distance", batch_distance), ("batch_can_win", batch_can_win)):
        function(array[:1000], 0, rules)
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            function(array, 0, rules)
            runs.append(time.perf_counter() - start)
        best = statistics.median(runs)
        print(f"  {name}(array of {args.numpy:,} hands)   {args.numpy / best / 1e6:6.2f} million hands/s "
              "(median of 5; target >= 5)")


if __name__ == "__main__":
    main()
