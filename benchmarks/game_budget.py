"""How much a seat thinks in one NOI 2014 game: the basis of the judge's thinking budget per game.

Each example bot (examples/bots/, built as the contest builds it, in the sandbox) plays whole games in seat 0
against three built-in greedy bots, under a generous 10 s limit per answer and no game budget, so that nothing
is cut off; the built-in bots play seat 0 too (in the judge's process: their time is the judge's clock around
their decision). Per game and seat it counts the answers (every request of the protocol, the ones that only
inform included) and adds up the thinking time as the judge measures it for the per-answer limit (each
answer's wall time: the process start in restart mode, the bot's work, the answer read). ``Main.java`` also plays
in restart mode (a copy without its keep-running line): the costliest real bot of the examples' kind, a JVM start
for every request. The anchor is the C bot's median thinking per game.

Run: ``.venv/bin/python benchmarks/game_budget.py [--games N] [--sandbox bwrap|none] [--json FILE]``
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
from mjarena.limits import MAX_GAME_BUDGET, Limits
from mjarena.sandbox import Sandbox

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "bots"
PROGRAMS = ["bot.c", "bot.cpp", "bot.pas", "Main.java", "bot.js", "restart_bot.py", "keep_running_bot.py"]
BUILTINS = ["builtin:greedy", "builtin:random", "builtin:strong"]
KEEP_LINE = "System.out.println(KEEP_RUNNING);"


def restart_java(folder: Path) -> Path:
    """A copy of ``Main.java`` that never asks to keep running (restart mode: a JVM start for every request)."""
    source = (EXAMPLES / "Main.java").read_text(encoding="utf-8")
    if KEEP_LINE not in source:
        raise SystemExit(f"Main.java no longer holds {KEEP_LINE!r}: update benchmarks/game_budget.py")
    path = folder / "restart" / "Main.java"
    path.parent.mkdir()
    path.write_text(source.replace(KEEP_LINE, "if (true) { System.out.flush(); return; }"), encoding="utf-8")
    return path


def seat_figures(result: object, program: bool) -> tuple[int, float, float]:
    """(answers, thinking seconds, longest answer in seconds) of seat 0 in ``result``."""
    if program:
        lines = [line for line in result.transcripts.get(0, []) if line["response"] is not None]
        times = [line["elapsed_ms"] / 1000.0 for line in lines]
    else:
        times = [row["ms"] / 1000.0 for row in result.decisions if row["seat"] == 0 and row["by"] == "bot"]
    return len(times), sum(times), max(times, default=0.0)


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--games", type=int, default=4, help="games per bot (4)")
    arguments.add_argument("--sandbox", choices=("bwrap", "none"), default="bwrap")
    args = arguments.parse_args()
    record = Record("game_budget")
    sandbox = Sandbox(kind=args.sandbox)
    print(f"{machine_line()}; sandbox {args.sandbox}; {args.games} game(s) per bot, seat 0 against 3 builtin:greedy, "
          "10 s per answer, no game budget; anchor: the C bot's median thinking per game")
    header = f"{'bot':<28} {'games':>5} {'answers':>11} {'thinking s/game':>22} {'max s/answer':>12} {'× C':>6}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(prefix="mjarena-bench-") as cache:
        os.environ["MJARENA_CACHE"] = cache  # the matches find the builds there
        bots: list[tuple[str, str, bool]] = []
        for name in PROGRAMS:
            bots.append((name, str(EXAMPLES / name), True))
        bots.append(("Main.java (restart mode)", str(restart_java(Path(cache))), True))
        bots.extend((spec, spec, False) for spec in BUILTINS)
        broken = {label for label, spec, program in bots
                  if program and not build(spec, sandbox=sandbox, cache_dir=cache).ok}
        for label in sorted(broken):
            print(f"{label:<28} does not build here", file=sys.stderr)
        bots = [bot for bot in bots if bot[0] not in broken]
        limits = Limits(time=10.0, memory_mib=256, sandbox=sandbox, game_budget=MAX_GAME_BUDGET)
        figures: dict[str, list[tuple[int, float, float]]] = {label: [] for label, _, _ in bots}
        for seed in range(1, args.games + 1):  # every bot plays game 1, then every bot game 2, ...
            for label, spec, program in bots:
                result = run_match([spec] + ["builtin:greedy"] * 3, seed=seed, limits=limits)
                if result.seats[0].reason is not None:
                    print(f"{label}: erred in game {seed}: {result.seats[0].reason}", file=sys.stderr)
                figures[label].append(seat_figures(result, program))
    c_bot = [thinking for _, thinking, _ in figures.get("bot.c", [])]
    anchor = statistics.median(c_bot) if c_bot else None
    everything = [row for rows in figures.values() for row in rows]
    for label, rows in figures.items():
        answers = [row[0] for row in rows]
        thinking = [row[1] for row in rows]
        middle = statistics.median(thinking)
        if anchor:
            figure = record.add(f"{label} thinking per game / C bot's", middle, "s",
                                anchor=("C bot.c thinking per game, s", anchor))
            ratio = f"{figure['ratio']:6.2f}"
        else:
            record.add(f"{label} thinking per game", middle, "s")
            ratio = f"{'-':>6}"
        print(f"{label:<28} {len(rows):>5} {min(answers):>5}-{max(answers):<5} "
              f"{middle:>9.2f} (max {max(thinking):>7.2f}) {max(row[2] for row in rows):>12.3f} {ratio}")
    record.note("most answers by a seat in a game", max(row[0] for row in everything))
    record.note("most thinking by a seat in a game, s", round(max(row[1] for row in everything), 3))
    print(f"most answers by a seat in a game: {max(row[0] for row in everything)}; "
          f"most thinking by a seat in a game: {max(row[1] for row in everything):.2f} s")
    record.save(args.json)


if __name__ == "__main__":
    main()
