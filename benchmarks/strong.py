"""builtin:strong: time per decision; the variance reduction of duplicate pairing and of the luck adjustment.

    python benchmarks/strong.py [--games 40] [--deals 1000] [--workers 2] [--seed 1] [--rules noi2014,baida,thupc2021]

1. Decisions: ``--games`` games of two builtin:strong against two builtin:greedy per rule set, in this process;
   every call of the strong agents' ``act`` is timed, after one untimed warm-up game (the hand tables load on
   first use, some 30 ms once) (``time.perf_counter_ns``): median, 99th percentile and
   largest time per decision, and decisions per second (the target is at most 20 ms a decision).
2. Duplicate pairing: ``mjarena.arena.compare.compare(builtin:strong, builtin:greedy)`` on ``--deals`` walls,
   each a duplicate set of 14 games (``--deals 0`` skips it); prints the measured variance reduction (1 - the
   variance of the per-set difference over the variance the same games would have on independent walls),
   the share of the variance the luck adjustment removed (:mod:`mjarena.arena.luck`), the points per game and
   the likelihood of superiority, luck-adjusted and as scored.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _machine import describe

from mjarena.agents.strong import STRONG_AGENTS
from mjarena.arena.compare import SEATINGS, compare
from mjarena.arena.executors import LocalExecutor
from mjarena.rulesets import judge_rules
from mjarena.variants.base import play


class Timed:
    """An agent whose every decision is timed."""

    def __init__(self, agent: Any, times: list[int]) -> None:
        self.agent = agent
        self.times = times

    def act(self, game: Any, seat: int, legal: Any) -> Any:
        start = time.perf_counter_ns()
        action = self.agent.act(game, seat, legal)
        self.times.append(time.perf_counter_ns() - start)
        return action


def decisions(rules: str, games: int, seed: int) -> list[int]:
    judge = judge_rules(rules)
    play(judge.new_game(judge.shuffled_wall(seed)), [STRONG_AGENTS[rules]()] * 4)  # warm-up: tables load on first use
    times: list[int] = []
    for number in range(games):
        agents = [Timed(STRONG_AGENTS[rules](), times), judge.agents["greedy"](), Timed(STRONG_AGENTS[rules](), times),
                  judge.agents["greedy"]()]
        play(judge.new_game(judge.shuffled_wall(seed * 100_000 + number)), agents)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--deals", type=int, default=1000, help="duplicate sets for the variance figure (0: skip)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="noi2014,baida,thupc2021")
    args = parser.parse_args()
    print(f"machine: {describe()}")
    names = args.rules.split(",")
    for rules in names:
        times = sorted(decisions(rules, args.games, args.seed))
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(f"{rules:<10} {len(times):>6} decisions in {args.games} games: "
              f"median {statistics.median(times) / 1e6:.2f} ms, 99th percentile {p99 / 1e6:.2f} ms, "
              f"largest {times[-1] / 1e6:.2f} ms, "
              f"{len(times) / (sum(times) / 1e9):,.0f} decisions/s (target: at most 20 ms a decision)")
    if args.deals <= 0:
        return
    for rules in names:
        executor = LocalExecutor(args.workers)
        start = time.perf_counter()
        try:
            result = compare("builtin:strong", "builtin:greedy", rules=rules, games=args.deals * len(SEATINGS),
                             seed=args.seed, executor=executor).to_json()
        finally:
            executor.close()
        took = time.perf_counter() - start
        raw = result["raw"]
        print(f"{rules:<10} {result['sets']} deals, {result['games']} games in {took:.0f} s: duplicate pairing's "
              f"variance reduction {raw['variance_reduction']:.3f} on the points as scored, "
              f"{result['variance_reduction']:.3f} on luck-adjusted points; the luck adjustment removed "
              f"{result['luck']['variance_removed']:.3f} of the variance; luck-adjusted: strong "
              f"{result['a']['mean']:.3f} {result['a']['ci95']}, greedy {result['b']['mean']:.3f} "
              f"{result['b']['ci95']}, LOS {result['los']:.4f}; as scored: strong {raw['a']['mean']:.3f}, "
              f"greedy {raw['b']['mean']:.3f}, LOS {raw['los']:.4f}")


if __name__ == "__main__":
    main()
