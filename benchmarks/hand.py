"""Time the wildcard-aware hand analysis on random 14-tile hands with 0 to 4 wildcards.

    python benchmarks/hand.py [--hands 20000] [--seed 1] [--batch 5] [--repeat 3] [--numpy 1000000] [--json FILE]

Hands are 14 tiles from a 144-tile wall (136 ordinary tiles + 8 百搭), drawn so that each wildcard count 0..4
is equally common.  Each figure is the median over hands of ``time.perf_counter_ns`` around ``--batch`` calls
on one hand, divided by the batch size, minus nothing (the loop overhead is printed apart).

- ``can_win``: the public yes/no check, full validation, 百搭 rules (2-5-8 pair, seven pairs).
- ``distance``: the public distance, full validation, same rules.
- ``distance_function(rules)(m, p, s, h, wilds, melds)``: the fast entry point on precomputed group keys
  (:func:`mjarena.hand.wild.group_keys`), no validation, standard form only (no seven pairs).
- ``batch_distance``: an (N, 38) int8 array (the C kernel when built, else NumPy), hands per second, validation
  included.

Anchors, in the same alternating rounds: ``sum(counts)`` on the same lists for the per-call figures (a C builtin
that touches the 38 counts once), the pure-Python path for the C accelerator, and NumPy's ``array.sum(axis=1)`` on
the same array for the batch API (one pass over the memory).
"""

from __future__ import annotations

import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, interleave, machine_line, parser

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
    arguments = parser(__doc__)
    arguments.add_argument("--hands", type=int, default=20000)
    arguments.add_argument("--seed", type=int, default=1)
    arguments.add_argument("--batch", type=int, default=5)
    arguments.add_argument("--repeat", type=int, default=3, help="alternating rounds (default 3)")
    arguments.add_argument("--numpy", type=int, default=1_000_000, metavar="N", help="hands for the batch API")
    args = arguments.parse_args()
    record = Record("hand")
    rules: HandRules = RULES["baida"]
    hands = draw_hands(args.hands, args.seed)
    print(machine_line())
    print(f"{args.hands} random 14-tile hands, 0-4 wildcards (equally often), rules baida; median per call over "
          f"hands, median of {args.repeat} alternating rounds; C accelerator "
          f"{'built' if wild.ACCELERATED else 'not built'}")
    for function in (can_win, distance):  # warm up: load the tables
        function(hands[0], 0, rules)
        function(hands[1], 0, rules)

    fast = distance_function(rules)
    keys = {id(h): group_keys(h, rules) for h in hands}
    contenders = {
        "sum": lambda: median_ns(sum, hands, args.batch),
        "can_win": lambda: median_ns(lambda h: can_win(h, 0, rules), hands, args.batch),
        "distance": lambda: median_ns(lambda h: distance(h, 0, rules), hands, args.batch),
        "keys": lambda: median_ns(lambda h: fast(*keys[id(h)], 0), hands, args.batch),
    }
    if wild.ACCELERATED:  # the same calls through the pure-Python scan, as without a C compiler
        def pure(function: Callable[[list[int], int, HandRules], object]) -> float:
            with _python_scan():
                return median_ns(lambda h: function(h, 0, rules), hands, args.batch)

        contenders["can_win, pure Python"] = lambda: pure(can_win)
        contenders["distance, pure Python"] = lambda: pure(distance)
    ns = {name: statistics.median(values) for name, values in interleave(contenders, args.repeat).items()}
    anchor = ("sum(counts), ns", ns["sum"])
    print(f"  sum(counts) (a C builtin over the 38 counts: the anchor)   {ns['sum'] / 1000:6.2f} µs")
    for name, label, goal in (("can_win", "can_win(counts, 0, rules)", 4), ("distance", "distance(counts, 0, rules)",
                                                                            2)):
        figure = record.add(f"{label} / sum(counts)", ns[name], "ns", anchor=anchor)
        record.add(f"{label} per call", ns[name] / 1000, "µs", goal=("<=", goal))
        line = f"  {label:<28} {figure['ratio']:5.1f}x sum(counts)   {ns[name] / 1000:6.2f} µs (goal <= {goal})"
        pure_name = f"{name}, pure Python"
        if pure_name in ns:
            speedup = record.add(f"{label}: pure Python / C accelerator", ns[pure_name], "ns",
                                 anchor=("with the C accelerator, ns", ns[name]))
            line += f"; pure Python {ns[pure_name] / 1000:.2f} µs ({speedup['ratio']:.1f}x the time)"
        print(line)
    figure = record.add("distance_function(rules)(*keys, melds) / sum(counts)", ns["keys"], "ns", anchor=anchor)
    print(f"  distance_function(*keys, 0)  {figure['ratio']:5.1f}x sum(counts)   {ns['keys'] / 1000:6.2f} µs "
          "(keys precomputed, no validation, no seven pairs; includes a dict look-up for the keys)")
    try:
        import numpy as np

        from mjarena.hand.batch import batch_can_win, batch_distance
    except ImportError:
        print("  batch API: NumPy not installed (pip install 'mjarena[fast]')")
        record.save(args.json)
        return
    base = np.array(hands, dtype=np.int8)
    array = base[np.random.default_rng(args.seed).integers(0, len(base), args.numpy)]

    def seconds(function: Callable[[], object]) -> float:
        start = time.perf_counter()
        function()
        return time.perf_counter() - start

    batch_contenders = {
        "numpy sum": lambda: seconds(lambda: array.sum(axis=1, dtype=np.int64)),
        "batch_distance": lambda: seconds(lambda: batch_distance(array, 0, rules)),
        "batch_can_win": lambda: seconds(lambda: batch_can_win(array, 0, rules)),
    }
    for measure in batch_contenders.values():
        measure()
    times = {name: statistics.median(values) for name, values in interleave(batch_contenders, 5).items()}
    print(f"  {args.numpy:,} hands (int8 array), medians of 5 alternating rounds; anchor: NumPy's "
          f"array.sum(axis=1) over the same array, {args.numpy / times['numpy sum'] / 1e6:.1f} million rows/s")
    for name in ("batch_distance", "batch_can_win"):
        rate = args.numpy / times[name]
        figure = record.add(f"{name} hands/s / numpy row sums/s", rate, "hands/s",
                            anchor=("numpy array.sum(axis=1) rows/s", args.numpy / times["numpy sum"]))
        record.add(f"{name} (absolute)", rate / 1e6, "million hands/s", goal=(">=", 20))
        print(f"  {name:<16} {figure['ratio']:5.2f}x NumPy's row sums   {rate / 1e6:6.2f} million hands/s "
              "(goal >= 20)")
    record.save(args.json)


if __name__ == "__main__":
    main()
