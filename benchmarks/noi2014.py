"""NOI 2014 judge speed: whole games per second, as ratios to the rules engine alone in the same run.

    python benchmarks/noi2014.py [--games 60] [--subprocess-games 6] [--repeat 3] [--json FILE]

In alternating rounds (medians):

1. the anchor: the rules engine alone (``variants.base.play``) with the same four built-in bots (builtin:greedy
   x2, builtin:random x2) on the same seeds: no judge, no records;
2. the judge (``run_match``) with those bots in process, one core: the ratio is what the judge's bookkeeping
   (records, ranking, checks) costs;
3. the judge with four keep-running Python subprocess bots: a minimal one (tests/bots/good_bot.py: plays the tile
   it drew, passes otherwise), so the figure is the judge's and the pipes', and the example bot
   (examples/bots/keep_running_bot.py), whose own strategy takes most of its time.

The judge's own overhead per request in restart mode is measured by benchmarks/protocol_overhead.py.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, interleave, machine_line, median, parser

from mjarena.agents.builtin import GreedyAgent, RandomAgent
from mjarena.arena.match import run_match
from mjarena.variants.base import play
from mjarena.variants.noi2014 import NoiGame, shuffled_wall

ROOT = Path(__file__).resolve().parents[1]
MINIMAL = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'good_bot.py'} keep"
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'bots' / 'keep_running_bot.py'}"
BUILTINS = ["builtin:greedy", "builtin:greedy", "builtin:random", "builtin:random"]


def engine_rate(games: int) -> float:
    """Games per second of the rules engine alone, the built-in bots of ``BUILTINS`` seeded as the judge seeds them
    (the figure does not depend on that)."""
    start = time.perf_counter()
    for seed in range(games):
        agents = [GreedyAgent(seed=seed), GreedyAgent(seed=seed), RandomAgent(seed=seed), RandomAgent(seed=seed)]
        play(NoiGame(shuffled_wall(seed)), agents)
    return games / (time.perf_counter() - start)


def judge_rate(bots: list[str], games: int, errors: list[int]) -> float:
    start = time.perf_counter()
    for seed in range(games):
        result = run_match(bots, seed=seed)
        errors.append(sum(seat.reason is not None for seat in result.seats))
    return games / (time.perf_counter() - start)


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--games", type=int, default=60, help="in-process games per round (default 60)")
    arguments.add_argument("--subprocess-games", type=int, default=6, help="subprocess games per round (default 6)")
    arguments.add_argument("--repeat", type=int, default=3, help="alternating rounds (default 3)")
    args = arguments.parse_args()
    record = Record("noi2014")
    print(machine_line())
    errors: dict[str, list[int]] = {"in process": [], "minimal": [], "example": []}
    contenders = {
        "engine": lambda: engine_rate(args.games),
        "in process": lambda: judge_rate(BUILTINS, args.games, errors["in process"]),
        "minimal": lambda: judge_rate([MINIMAL] * 4, args.subprocess_games, errors["minimal"]),
        "example": lambda: judge_rate([EXAMPLE] * 4, args.subprocess_games, errors["example"]),
    }
    engine_rate(2)
    judge_rate(BUILTINS, 2, [])
    rates = {name: median(values) for name, values in interleave(contenders, args.repeat).items()}
    engine = rates["engine"]
    anchor = ("rules engine alone, same bots, games/s", engine)
    print(f"games per second, medians of {args.repeat} alternating rounds; anchor: the rules engine alone with the "
          f"same built-in bots, {engine:.0f} games/s")
    for name, label in (("in process", "judge, in-process built-in bots"),
                        ("minimal", "judge, keep-running subprocess bots (minimal)"),
                        ("example", "judge, keep-running subprocess bots (examples/bots/keep_running_bot.py)")):
        figure = record.add(f"{label} / engine alone", rates[name], "games/s", anchor=anchor)
        print(f"  {label:<72} {figure['ratio']:6.3f}x the engine  {rates[name]:7.1f} games/s "
              f"({sum(errors[name])} seat errors)")
    record.save(args.json)


if __name__ == "__main__":
    main()
