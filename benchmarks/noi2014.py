"""NOI 2014 judge speed: whole games per second.

    python benchmarks/noi2014.py [--games 300] [--subprocess-games 20]

1. four in-process built-in bots (builtin:greedy x2, builtin:random x2), one core;
2. four keep-running Python subprocess bots: a minimal one (tests/bots/good_bot.py: plays the tile it drew,
   passes otherwise), so the figure is the judge's, and the example bot (examples/bots/keep_running_bot.py),
   whose own strategy takes most of its time.
The judge's own overhead per request in restart mode is measured by benchmarks/protocol_overhead.py.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import describe

from mjarena.arena.match import run_match

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'good_bot.py'} keep"
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'keep_running_bot.py'}"


def games_per_second(bots: list[str], games: int) -> tuple[float, int]:
    errors = 0
    start = time.perf_counter()
    for seed in range(games):
        result = run_match(bots, seed=seed)
        errors += sum(seat.reason is not None for seat in result.seats)
    return games / (time.perf_counter() - start), errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--subprocess-games", type=int, default=20)
    args = parser.parse_args()
    print(f"machine: {describe()}")
    rate, errors = games_per_second(["builtin:greedy", "builtin:greedy", "builtin:random", "builtin:random"],
                                    args.games)
    print(f"in-process built-in bots: {rate:.0f} games/s over {args.games} games ({errors} seat errors)")
    for label, bot in (("minimal", MINIMAL), ("example", EXAMPLE)):
        rate, errors = games_per_second([bot] * 4, args.subprocess_games)
        print(f"keep-running subprocess bots ({label}): {rate:.1f} games/s over {args.subprocess_games} games "
              f"({errors} seat errors)")


if __name__ == "__main__":
    main()
