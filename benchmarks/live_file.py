"""What a contest game's live file costs the worker that plays it (:mod:`mjarena.contest.live_file`).

    python benchmarks/live_file.py [--games 10] [--repeat 4] [--sandbox none|bwrap] [--json FILE]

The worker's own CPU time (``getrusage(RUSAGE_SELF)``: the judge loop, the protocol, the live file; not the bots'
processes) per game, in alternating rounds, for two fields of NOI 2014 games on the same walls:

- ``program bots``: two seats played by the test bot of the contest's tests (``tests/bots/contest_bot.py``, Python,
  keep-running, in ``--sandbox``) beside two built-in ``greedy`` players: a contest game as it is played, a team's
  program at a table padded with house bots;
- ``built-in players``: four ``greedy`` players in this process, no program: the live file's worst case, where a
  turn costs the judge least.

Each field is played with the live file (``watch``) and without (the anchor, same run, same walls); the ratio
is the one to read.  The server's judge thread does nothing per turn either way.
"""

from __future__ import annotations

import resource
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

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


def field(bots: list[str], limits: Limits, games: int, folder: Path | None) -> Callable[[], float]:
    """A contender: this process's CPU seconds per game over ``games`` games (seeds 1..games), each writing its
    live file under ``folder`` (None: none)."""
    def measure() -> float:
        start = own_cpu()
        for seed in range(1, games + 1):
            writer = None if folder is None else LiveFile(folder / f"{seed}.jsonl", "noi2014", bots)
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
    fields = {f"program bots ({args.sandbox})": [program, program, "builtin:greedy", "builtin:greedy"],
              "built-in players": ["builtin:greedy"] * 4}
    for name, bots in fields.items():
        contenders = {"with": field(bots, limits, args.games, folder), "without": field(bots, limits, args.games, None)}
        times = {key: median(values) for key, values in interleave(contenders, args.repeat).items()}
        figure = record.add(f"{name}: worker CPU a game with the live file", times["with"] * 1000, "ms",
                            anchor=("without it, ms", times["without"] * 1000))
        print(f"{name}: {figure['value']:.2f} ms of the worker's CPU a game with the live file, "
              f"{figure['anchor_value']:.2f} ms without: {figure['ratio']:.3f}x "
              f"(medians of {args.repeat} rounds of {args.games} games)")
    record.save(args.json)


if __name__ == "__main__":
    main()
