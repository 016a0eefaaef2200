"""Time ``mjarena.hand.distance`` against the ``mahjong`` package's regular-hand shanten on random hands.

    python benchmarks/distance.py [--hands 20000] [--seed 1] [--batch 5] [--repeat 5] [--quads 2000] [--show 5]
                                  [--json FILE]

Draws hands of 13 and 14 tiles (alternately) from a 136-tile wall (4 of each of the 34 standard kinds), times
each function per call (``time.perf_counter_ns`` around a small batch of calls on one hand, divided by the
batch size; the median over hands), in ``--repeat`` alternating rounds (the median of the rounds' medians), and
checks that ``distance == shanten + 1`` on every hand.  The figure is the ratio of ``mahjong``'s time to ours;
beside it the ratio of ours to ``sum(counts)`` on the same lists (a C builtin that touches the 38 counts once:
a floor for any call through the public API).  Goal: <= 1 µs per call on the CI's kind of machine.

The THUPC distance caps each kind at 4 in the hand, so a hand that holds four of a kind may not use a fifth;
a shanten calculator that ignores this can be one lower.  Every disagreement is re-checked with the slow
reference of ``tests/reference.py``: with the cap (is our distance right?) and with the cap lifted (does the
cap explain the difference?).  Random hands seldom hold four of a kind near a win, so ``--quads`` more
hands that do are checked the same way (not timed).  The ``mahjong`` package's regular shanten is
``Shanten.calculate_shanten_for_regular_hand(tiles_34)`` (no seven pairs, no thirteen orphans).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import Record, interleave, machine_line
from _bench import parser as make_parser
from mahjong.shanten import Shanten

from mjarena.hand import distance
from mjarena.tiles import counts_of, format_tiles

import reference

STANDARD = 34
WALL = [kind for kind in range(STANDARD) for _ in range(4)]


def draw_hands(count: int, seed: int) -> list[list[int]]:
    """``count`` hands as lists of kinds, 13 and 14 tiles alternately, each from a fresh 136-tile wall."""
    rng = random.Random(seed)
    return [rng.sample(WALL, 13 + index % 2) for index in range(count)]


def draw_hands_with_quads(count: int, seed: int) -> list[list[int]]:
    """Near-winning hands that hold all four tiles of some kind, where a fifth copy could matter.

    Four of a kind and three random sets (13 tiles; a fifth copy would make the pair), plus one random tile
    for every other hand (14 tiles); half of them have one tile of the sets swapped for a random one.
    Hands with more than four of a kind are drawn again.
    """
    rng = random.Random(seed)
    hands: list[list[int]] = []
    while len(hands) < count:
        quad = rng.randrange(STANDARD)
        others = [kind for _ in range(3) for kind in rng.choice(reference.SETS)]
        if rng.random() < 0.5:
            others[rng.randrange(len(others))] = rng.randrange(STANDARD)
        if len(hands) % 2:
            others.append(rng.randrange(STANDARD))
        kinds = [quad] * 4 + others
        if max(counts_of(kinds)) <= 4:
            hands.append(kinds)
    return hands


def time_per_call(
    function: Callable[[Sequence[int]], int], inputs: list[list[int]], batch: int
) -> list[float]:
    """Nanoseconds per call on each input: ``batch`` calls timed together, divided by ``batch``."""
    clock = time.perf_counter_ns
    per_call = []
    for argument in inputs:
        start = clock()
        for _ in range(batch):
            function(argument)
        per_call.append((clock() - start) / batch)
    return per_call


def empty(_: Sequence[int]) -> int:
    """A call that does nothing: the loop and call overhead included in both timings."""
    return 0


@dataclass
class Disagreements:
    """Hands where ``distance != shanten + 1``, sorted by what explains them."""

    explained_by_cap: list[str] = field(default_factory=list)
    our_error: list[str] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.explained_by_cap) + len(self.our_error) + len(self.unexplained)


def classify(kinds: list[int], ours: int, shanten: int, sink: Disagreements) -> None:
    """Sort one disagreement with the brute-force reference, with and without the cap of 4."""
    counts = counts_of(kinds)
    capped = reference.reference_distance(counts, 0)
    uncapped = reference.reference_distance(counts, 0, cap=None)
    four_of_a_kind = any(counts[kind] == 4 for kind in range(STANDARD))
    line = (
        f"{format_tiles(sorted(kinds), 'mpsz')}: distance {ours}, shanten + 1 = {shanten + 1}, "
        f"reference {capped}, reference without the cap {uncapped}"
    )
    if capped != ours:
        sink.our_error.append(line)
    elif uncapped == shanten + 1 and four_of_a_kind:
        sink.explained_by_cap.append(line)
    else:
        sink.unexplained.append(line)


def report(title: str, hands: list[list[int]], ours: list[int], theirs: list[int], show: int) -> int:
    """Print the disagreements on ``hands`` sorted by cause; return how many are mjarena's errors."""
    sink = Disagreements()
    for kinds, distance_, shanten in zip(hands, ours, theirs, strict=True):
        if distance_ != shanten + 1:
            classify(kinds, distance_, shanten, sink)
    print(f"{title}: {sink.total} of {len(hands)} disagree (distance != shanten + 1)")
    print(f"  explained by the cap of 4 (the reference agrees with distance, and without the cap "
          f"with shanten + 1): {len(sink.explained_by_cap)}")
    print(f"  unexplained (the reference agrees with distance, the cap does not explain it): "
          f"{len(sink.unexplained)}")
    print(f"  distance differs from the reference (a bug in mjarena): {len(sink.our_error)}")
    for label, lines in (("explained", sink.explained_by_cap), ("unexplained", sink.unexplained),
                         ("mjarena bug", sink.our_error)):
        for line in lines[:show]:
            print(f"    {label}: {line}")
    return len(sink.our_error)


def main() -> None:
    parser = arguments = make_parser(__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--hands", type=int, default=20000, help="number of random hands (default 20000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--batch", type=int, default=5, help="calls timed together per hand (default 5)")
    parser.add_argument("--quads", type=int, default=2000,
                        help="extra hands holding four of a kind, checked but not timed (default 2000)")
    parser.add_argument("--show", type=int, default=5, help="disagreements to print per category (default 5)")
    args = arguments.parse_args()
    record = Record("distance")
    print(machine_line())
    print(f"mahjong {metadata.version('mahjong')}, mjarena {metadata.version('mjarena')}")
    hands = draw_hands(args.hands, args.seed)
    ours_in = [counts_of(kinds) for kinds in hands]
    theirs_in = [counts[:STANDARD] for counts in ours_in]
    regular_shanten = Shanten().calculate_shanten_for_regular_hand

    ours_out = [distance(counts) for counts in ours_in]  # also warms up
    theirs_out = [regular_shanten(tiles) for tiles in theirs_in]

    start = time.perf_counter()
    rounds = interleave({
        "overhead": lambda: statistics.median(time_per_call(empty, ours_in, args.batch)),
        "ours": lambda: statistics.median(time_per_call(distance, ours_in, args.batch)),
        "theirs": lambda: statistics.median(time_per_call(regular_shanten, theirs_in, args.batch)),
        "sum": lambda: statistics.median(time_per_call(sum, ours_in, args.batch)),
    }, args.repeat)
    overhead, ours_ns, theirs_ns, sum_ns = (statistics.median(rounds[name]) for name in ("overhead", "ours", "theirs",
                                                                                         "sum"))
    timing_seconds = time.perf_counter() - start
    faster = record.add("mahjong shanten time / mjarena distance time", theirs_ns, "ns",
                        anchor=("mjarena.hand.distance, ns", ours_ns))
    floor = record.add("mjarena distance time / sum(counts) time", ours_ns, "ns", anchor=("sum(counts), ns", sum_ns))
    record.add("mjarena.hand.distance per call", ours_ns / 1000, "µs", goal=("<=", 1))

    print(f"hands: {args.hands} (13 and 14 tiles alternately), seed {args.seed}, "
          f"{args.batch} calls per timing")
    for label, nanoseconds in (
        ("mjarena.hand.distance", ours_ns),
        ("mahjong Shanten.calculate_shanten_for_regular_hand", theirs_ns),
        ("loop and call overhead (included in both)", overhead),
    ):
        print(f"{label + ':':52} median {nanoseconds / 1000:8.2f} us per call")
    print(f"{'sum(counts), the floor of a call over 38 counts:':52} median {sum_ns / 1000:8.2f} us per call")
    print(f"ratios: mahjong takes {faster['ratio']:.1f}x our time; ours is {floor['ratio']:.1f}x sum(counts)")
    print(f"speed ratio: mjarena is {theirs_ns / ours_ns:.1f}x faster "
          f"({(theirs_ns - overhead) / max(ours_ns - overhead, 1):.1f}x without the overhead); "
          f"timing took {timing_seconds:.1f} s")

    histogram = {d: ours_out.count(d) for d in sorted(set(ours_out))}
    print(f"distance histogram: {histogram}")
    errors = report("random hands", hands, ours_out, theirs_out, args.show)
    if args.quads:
        quads = draw_hands_with_quads(args.quads, args.seed)
        quads_ours = [distance(counts_of(kinds)) for kinds in quads]
        quads_theirs = [regular_shanten(counts_of(kinds)[:STANDARD]) for kinds in quads]
        title = "near-winning hands holding four of a kind (not timed)"
        errors += report(title, quads, quads_ours, quads_theirs, args.show)
        capped_by_rule = [
            index for index, kinds in enumerate(quads)
            if reference.reference_distance(counts_of(kinds), 0, cap=None) < quads_ours[index]
        ]
        follow = sum(quads_theirs[index] + 1 == quads_ours[index] for index in capped_by_rule)
        print(f"  the cap raises the distance of {len(capped_by_rule)} of them (the reference without "
              f"the cap is lower);")
        print(f"  mahjong's shanten + 1 equals the capped distance on {follow} of those")
    record.note("distance errors against the reference", errors)
    record.save(args.json)
    if errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
