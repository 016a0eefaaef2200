"""Per-request cost of each language's example bot (examples/bots/), as the judge sees it, in the sandbox.

Each bot is built (the fresh build time is printed, then played from the cache) and plays whole NOI 2014 games
in seat 0 against three built-in greedy bots, under a generous 10 s limit so that slow answers are measured, not
cut off. Every exchange of its transcript is counted by how it was delivered: ``restart`` (a new process given
the whole history: process start, runtime start-up and the bot's own work) or ``keep`` (a bare request to a
kept process). A keep-running bot's first request in a game is a restart too: that is its start-up cost, what
a restart-mode bot of the language pays on every request. The last column counts answers over the statement's
1000 ms.

Run: ``.venv/bin/python benchmarks/languages.py [--games N] [--sandbox bwrap|none]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from _machine import describe

from mjarena.arena.match import Limits, run_match
from mjarena.builds import build
from mjarena.sandbox import Sandbox

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "bots"
BOTS = [("c", "bot.c"), ("cpp", "bot.cpp"), ("pascal", "bot.pas"), ("java", "Main.java"),
        ("javascript", "bot.js"), ("python", "restart_bot.py"), ("python", "keep_running_bot.py")]
STATEMENT_MS = 1000.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per bot (2)")
    parser.add_argument("--sandbox", choices=("bwrap", "none"), default="bwrap")
    args = parser.parse_args()
    sandbox = Sandbox(kind=args.sandbox)
    print(f"{describe()}; sandbox {args.sandbox}; {args.games} game(s) per bot, seat 0 against 3 builtin:greedy")
    header = f"{'language':<11} {'bot':<20} {'build s':>7}  {'mode':<7} {'answers':>7} {'median ms':>9} " \
             f"{'p95 ms':>8} {'max ms':>8} {'>1000 ms':>8}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(prefix="mjarena-bench-") as cache:
        os.environ["MJARENA_CACHE"] = cache  # the matches find the builds there
        for language, name in BOTS:
            source = EXAMPLES / name
            fresh = build(source, sandbox=sandbox, cache_dir=cache)
            if not fresh.ok:
                print(f"{language:<11} {name:<20} does not build: {fresh.message.splitlines()[:1]}")
                continue
            limits = Limits(time=10.0, memory_mib=256, sandbox=sandbox)
            times: dict[str, list[float]] = {"restart": [], "keep": []}
            errors = 0
            for seed in range(1, args.games + 1):
                result = run_match([str(source)] + ["builtin:greedy"] * 3, seed=seed, limits=limits)
                errors += result.seats[0].reason is not None
                for exchange in result.transcripts.get(0, []):
                    if exchange["mode"] in times and exchange["response"] is not None:
                        times[exchange["mode"]].append(exchange["elapsed_ms"])
            for mode, values in times.items():
                if not values:
                    continue
                over = sum(value > STATEMENT_MS for value in values)
                print(f"{language:<11} {name:<20} {fresh.seconds:>7.2f}  {mode:<7} {len(values):>7} "
                      f"{statistics.median(values):>9.1f} {percentile(values, 0.95):>8.1f} {max(values):>8.1f} "
                      f"{over:>8}")
            if errors:
                print(f"{'':<11} {name:<20} erred in {errors} game(s)", file=sys.stderr)


if __name__ == "__main__":
    main()
