"""Time ``arrangements()`` before and after, per number of wildcards.

    python benchmarks/arrangements.py [--hands 300] [--seed 1] [--python] [--json FILE]

"Before" is the depth-first enumerator the library had until the rank-by-rank rewrite, kept as
``tests/previous_arrangements.py`` (a test reference, and the baseline of issue 16); "after" is
:func:`mjarena.hand.wild.arrangements` as installed: the C enumerator of the optional accelerator
(``mjarena.hand._speedups``) when it is built, else the pure-Python path.  ``--python`` times the pure-Python path
(``mjarena.hand.wild._arrangements_python``, what an install without a C compiler runs) whatever is built.  Before
and after must list the same arrangements on every hand timed (the script counts disagreements).  Hands, 14 tiles
and no melds, for each wildcard count 0..4:

- ``winning``: four random sets and a pair (any pair under the default rules, a 2-5-8 pair under 百搭), then that
  many tiles turned into wildcards; so every hand wins, often in many ways;
- ``random``: drawn from the 144-tile 百搭 wall (most do not win).

Each figure is the median over hands of one call (``time.perf_counter_ns``), before and after timed one after the
other on each hand; the ratio before / after is the figure (``--json FILE`` keeps them):

- ``cold``: the enumerators' per-suit caches emptied before the call (a hand whose suits were never seen);
  hand-independent tables (the catalogue of groups, the choices at one rank, the C enumerator of each rule set)
  stay filled after first use;
- ``warm``: the same hand again at once (every suit cached), the steady state of a caller that sees the same
  suits often, like a replay viewer or an RL feature.  The C enumerator keeps no cache at all: its cold and warm
  calls do the same work and differ only in what the processor's caches still hold from the call before, while
  the previous enumerator's warm call skips every suit's search.

The spec's example ``123m456p78s11z****`` (105 arrangements under the default rules) is timed apart.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _bench import Record, machine_line, parser

import previous_arrangements as previous
from mjarena.hand import wild
from mjarena.hand.options import RULES, HandRules
from mjarena.tiles import WILD, counts_of, parse_mpsz

WALL = [kind for kind in range(34) for _ in range(4)]
Enumerator = Callable[[Sequence[int], int, HandRules], list]


def winning_hand(rng: random.Random, wilds: int, rules: HandRules) -> list[int]:
    while True:
        kinds: list[int] = []
        for _ in range(4):
            start = rng.randrange(34)
            kinds += [start, start + 1, start + 2] if start < 27 and start % 9 <= 6 and rng.random() < 0.6 \
                else [start] * 3
        pair = rng.choice([1, 4, 7, 10, 13, 16, 19, 22, 25]) if rules.pair_258 else rng.randrange(34)
        kinds += [pair, pair]
        for index in rng.sample(range(14), wilds):
            kinds[index] = WILD
        counts = counts_of(kinds)
        if max(counts[:34]) <= 4:
            return counts


def random_hand(rng: random.Random, wilds: int) -> list[int]:
    return counts_of([WILD] * wilds + rng.sample(WALL, 14 - wilds))


def timed(enumerate_: Enumerator, clear: Callable[[], None], counts: list[int], rules: HandRules) -> tuple[int, int]:
    """(cold ns, warm ns) of one hand."""
    clock = time.perf_counter_ns
    clear()
    start = clock()
    enumerate_(counts, 0, rules)
    cold = clock() - start
    start = clock()
    enumerate_(counts, 0, rules)
    return cold, clock() - start


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--hands", type=int, default=300, help="hands per wildcard count and kind (default 300)")
    arguments.add_argument("--seed", type=int, default=1)
    arguments.add_argument("--python", action="store_true", help="time the pure-Python path, not the C enumerator")
    args = arguments.parse_args()
    in_c = not args.python and wild._c_arranger is not None
    record = Record("arrangements" if in_c else "arrangements (pure Python)")
    rng = random.Random(args.seed)
    before = (previous.arrangements, previous._suit_options.cache_clear)
    after = (wild.arrangements if in_c else wild._arrangements_python, wild._suit_options.cache_clear)
    path = "the C enumerator" if in_c else "the pure-Python path"
    print(machine_line())
    print(f"{args.hands} hands per row, 14 tiles, no melds; median per call in µs; before = tests/previous_arrangements"
          f".py, after = mjarena.hand.wild.arrangements ({path})")
    print(f"{'hands':<22}{'wild':>5}{'found':>7}{'before cold':>13}{'after cold':>12}{'×':>7}"
          f"{'before warm':>13}{'after warm':>12}{'×':>7}")
    disagreements = 0
    for label, rules in (("winning, default", HandRules()), ("winning, 百搭", RULES["baida"]),
                         ("random, 百搭 wall", RULES["baida"])):
        for wilds in range(5):
            hands = [random_hand(rng, wilds) if label.startswith("random") else winning_hand(rng, wilds, rules)
                     for _ in range(args.hands)]
            after[0](hands[0], 0, rules)  # first use: the hand-independent tables
            times: dict[str, list[tuple[int, int]]] = {"before": [], "after": []}
            found = 0
            for counts in hands:
                times["before"].append(timed(*before, counts, rules))
                times["after"].append(timed(*after, counts, rules))
                listed = after[0](counts, 0, rules)
                found += len(listed)
                disagreements += listed != previous.arrangements(counts, 0, rules)
            cold = {name: statistics.median(t[0] for t in pairs) / 1000 for name, pairs in times.items()}
            warm = {name: statistics.median(t[1] for t in pairs) / 1000 for name, pairs in times.items()}
            for state, values in (("cold", cold), ("warm", warm)):
                record.add(f"{label}, {wilds} wildcards, {state}: before / after", values["before"], "µs",
                           anchor=("after, µs", values["after"]))
            print(f"{label:<22}{wilds:>5}{found / len(hands):>7.1f}{cold['before']:>13.1f}{cold['after']:>12.1f}"
                  f"{cold['before'] / cold['after']:>7.0f}{warm['before']:>13.1f}{warm['after']:>12.1f}"
                  f"{warm['before'] / warm['after']:>7.0f}")
    example = counts_of(parse_mpsz("123m456p78s11z****"))
    for name, (enumerate_, clear) in (("before", before), ("after", after)):
        runs = [timed(enumerate_, clear, example, HandRules()) for _ in range(20)]
        print(f"123m456p78s11z**** (default rules, {len(after[0](example, 0, HandRules()))} arrangements) {name}: "
              f"cold {statistics.median(r[0] for r in runs) / 1000:.0f} µs, "
              f"warm {statistics.median(r[1] for r in runs) / 1000:.0f} µs")
    print(f"hands where before and after disagree: {disagreements}")
    record.note("hands where before and after disagree", disagreements)
    record.note("after", f"mjarena.hand.wild.arrangements, {path}")
    record.save(args.json)


if __name__ == "__main__":
    main()
