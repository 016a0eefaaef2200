"""Per-request cost of each language's example bot (examples/bots/), as the judge sees it, in the sandbox.

Each bot is built (the fresh build time is printed, then played from the cache) and plays whole NOI 2014 games
in seat 0 against three built-in greedy bots, under a generous 10 s limit so that slow answers are measured, not
cut off. Every exchange of its transcript is counted by how it was delivered: ``restart`` (a new process given
the whole history: process start, runtime start-up and the bot's own work) or ``keep`` (a bare request to a
kept process). A keep-running bot's first request in a game is a restart too: that is its start-up cost, what
a restart-mode bot of the language pays on every request. The last column counts answers over the statement's
1000 ms.

Run: ``.venv/bin/python benchmarks/languages.py [--games N] [--sandbox bwrap|none] [--json FILE]``
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, machine_line, parser

from mjarena.arena.match import run_match
from mjarena.builds import build
from mjarena.limits import Limits
from mjarena.sandbox import Sandbox

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "bots"
BOTS = [("c", "bot.c"), ("cpp", "bot.cpp"), ("pascal", "bot.pas"), ("java", "Main.java"),
        ("javascript", "bot.js"), ("python", "restart_bot.py"), ("python", "keep_running_bot.py")]
STATEMENT_MS = 1000.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--games", type=int, default=2, help="games per bot (2)")
    arguments.add_argument("--sandbox", choices=("bwrap", "none"), default="bwrap")
    args = arguments.parse_args()
    record = Record("languages")
    sandbox = Sandbox(kind=args.sandbox)
    print(f"{machine_line()}; sandbox {args.sandbox}; {args.games} game(s) per bot, seat 0 against 3 builtin:greedy, "
          "bots in turn game by game; anchor: the C bot's median restart request")
    header = f"{'language':<11} {'bot':<20} {'build s':>7}  {'mode':<7} {'answers':>7} {'× C':>6} {'median ms':>9} " \
             f"{'p95 ms':>8} {'max ms':>8} {'>1000 ms':>8}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(prefix="mjarena-bench-") as cache:
        os.environ["MJARENA_CACHE"] = cache  # the matches find the builds there
        built: dict[tuple[str, str], float] = {}
        for language, name in BOTS:
            fresh = build(EXAMPLES / name, sandbox=sandbox, cache_dir=cache)
            if fresh.ok:
                built[language, name] = fresh.seconds
            else:
                print(f"{language:<11} {name:<20} does not build: {fresh.message.splitlines()[:1]}")
        limits = Limits(time=10.0, memory_mib=256, sandbox=sandbox)
        times = {bot: {"restart": [], "keep": []} for bot in built}
        errors = dict.fromkeys(built, 0)
        for seed in range(1, args.games + 1):  # every bot plays game 1, then every bot game 2, ...
            for language, name in built:
                result = run_match([str(EXAMPLES / name)] + ["builtin:greedy"] * 3, seed=seed, limits=limits)
                errors[language, name] += result.seats[0].reason is not None
                for exchange in result.transcripts.get(0, []):
                    if exchange["mode"] in ("restart", "keep") and exchange["response"] is not None:
                        times[language, name][exchange["mode"]].append(exchange["elapsed_ms"])
    c_restart = times.get(("c", "bot.c"), {}).get("restart")
    anchor = statistics.median(c_restart) if c_restart else None
    for (language, name), modes in times.items():
        for mode, values in modes.items():
            if not values:
                continue
            middle = statistics.median(values)
            if anchor:
                figure = record.add(f"{language} {name} {mode} request / C restart request", middle, "ms",
                                    anchor=("C bot.c restart request, ms", anchor))
                ratio = f"{figure['ratio']:6.2f}"
            else:
                record.add(f"{language} {name} {mode} request", middle, "ms")
                ratio = f"{'-':>6}"
            over = sum(value > STATEMENT_MS for value in values)
            print(f"{language:<11} {name:<20} {built[language, name]:>7.2f}  {mode:<7} {len(values):>7} {ratio} "
                  f"{middle:>9.1f} {percentile(values, 0.95):>8.1f} {max(values):>8.1f} {over:>8}")
        if errors[language, name]:
            print(f"{'':<11} {name:<20} erred in {errors[language, name]} game(s)", file=sys.stderr)
    record.save(args.json)


if __name__ == "__main__":
    main()
