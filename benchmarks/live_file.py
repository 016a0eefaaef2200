"""What a contest game's live file costs the worker that plays it (:mod:`mjarena.contest.live_file`).

    python benchmarks/live_file.py [--games 10] [--repeat 4] [--sandbox none|bwrap] [--json FILE]

The worker's own CPU time (``getrusage(RUSAGE_SELF)``: the judge loop, the protocol, the live file; not the bots'
processes) per game, in alternating rounds, for two fields of NOI 2014 games on the same walls:

- ``program bots``: two seats played by the test bot of the contest's tests (``tests/bots/contest_bot.py``, Python,
  keep-running, in ``--sandbox``) beside two built-in ``greedy`` players: a contest game as it is played, a team's
  program at a table padded with house bots;
- ``built-in players``: four ``greedy`` players in this process, no program: the live file's worst case, where a
  turn costs the judge least.

Each field is played with the live file (``watch``) and without (the anchor, same run, same walls).  On a shared
machine the difference of the two is mostly the load's noise, so the writer's own CPU time is also summed where
it is spent (``time.thread_time`` around each of its calls, in the games played with it): that, over the game's
CPU without it, is the cost to read.  The server's judge thread does nothing per turn either way.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, interleave, machine_line, median, parser

from mjarena.arena.match import run_match
from mjarena.contest.live_file import LiveFile
from mjarena.limits import Limits
from mjarena.sandbox import Sandbox

BOT = Path(__file__).resolve().parent.parent / "tests" / "bots" / "contest_bot.py"


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Timed(LiveFile):
    """The live file's writer, adding up the CPU time of its making, its calls and its closing (in :data:`SPENT`)."""

    def __init__(self, *args: Any) -> None:
        start = time.thread_time()
        super().__init__(*args)
        SPENT[0] += time.thread_time() - start

    def __call__(self, wall: Any, events: Any, decisions: Any) -> None:
        start = time.thread_time()
        try:
            super().__call__(wall, events, decisions)
        finally:
            SPENT[0] += time.thread_time() - start

    def close(self) -> None:
        start = time.thread_time()
        super().close()
        SPENT[0] += time.thread_time() - start


SPENT = [0.0]


def field(bots: list[str], limits: Limits, games: int, folder: Path | None) -> Callable[[], float]:
    """A contender: this process's CPU seconds per game over ``games`` games (seeds 1..games), each writing its
    live file under ``folder`` (None: none)."""
    def measure() -> float:
        start = own_cpu()
        for seed in range(1, games + 1):
            writer = None if folder is None else Timed(folder / f"{seed}.jsonl", "noi2014", bots)
            run_match(bots, seed=seed, limits=limits, watch=writer)
            if writer is not None:
                writer.close()
        return (own_cpu() - start) / games
    return measure


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--games", type=int, default=10, help="games per round and contender (default 10)")
    arguments.add_argument("--repeat", type=int, default=4, help="alternating rounds (default 4)")
    arguments.add_argument("--sandbox", default="none", help="the program bots' box: none or bwrap (default none)")
    args = arguments.parse_args()
    record = Record("live_file")
    print(machine_line())
    program = f"{sys.executable} {BOT}"
    limits = Limits(time=2.0, sandbox=Sandbox.parse(args.sandbox))
    folder = Path(tempfile.mkdtemp(prefix="mjarena-live-")) / "live"
    LiveFile(folder / "0.jsonl", "noi2014", ["builtin:greedy"] * 4).close()  # its imports, once a worker
    fields = {f"program bots ({args.sandbox})": [program, program, "builtin:greedy", "builtin:greedy"],
              "built-in players": ["builtin:greedy"] * 4}
    for name, bots in fields.items():
        contenders = {"with": field(bots, limits, args.games, folder), "without": field(bots, limits, args.games, None)}
        SPENT[0] = 0.0
        times = {key: median(values) for key, values in interleave(contenders, args.repeat).items()}
        writer = SPENT[0] / (args.repeat * args.games)
        without = ("the game without it, ms", times["without"] * 1000)
        own = record.add(f"{name}: the live file's writer, CPU a game", writer * 1000, "ms", anchor=without)
        both = record.add(f"{name}: worker CPU a game with the live file", times["with"] * 1000, "ms", anchor=without)
        print(f"{name} (medians of {args.repeat} rounds of {args.games} games):\n"
              f"  the writer's own CPU {own['value']:.3f} ms a game: {own['ratio']:.4f}x the game's "
              f"{own['anchor_value']:.2f} ms without it\n"
              f"  the worker's CPU with it {both['value']:.2f} ms a game: {both['ratio']:.3f}x (the load's noise too)")
    record.save(args.json)


if __name__ == "__main__":
    main()
