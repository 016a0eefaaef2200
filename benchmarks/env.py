"""RL environment speed: environment steps per second with random agents, one core.

    python benchmarks/env.py [--games 300] [--rlcard-games 300]

One step is one decision of one seat: the PettingZoo loop ``for agent in env.agent_iter(): observation, ... =
env.last(); env.step(action)`` with a random legal action drawn from the action mask (the dead steps of seats
that have left count too).  Measured for ``env()`` (PettingZoo's call-order wrapper included, as users get it)
and ``raw_env()`` of each rule set, then for RLCard's ``rlcard.make("mahjong")`` with its random agents on the
same machine, stepped the same way (``pip install rlcard``; skipped with a note when it is missing).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _machine import describe

from mjarena.env import baida_v0, noi2014_v0, thupc2021_v0


def ours(make: Callable[[], object], games: int) -> tuple[float, float]:
    """(steps per second, steps per game) over ``games`` seeded games."""
    table = make()
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    for seed in range(games):
        table.reset(seed=seed)  # type: ignore[attr-defined]
        for _agent in table.agent_iter():  # type: ignore[attr-defined]
            observation, _reward, terminated, _truncated, _info = table.last()  # type: ignore[attr-defined]
            if terminated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            table.step(action)  # type: ignore[attr-defined]
            steps += 1
    return steps / (time.perf_counter() - start), steps / games


def rlcard_mahjong(games: int) -> tuple[float, float] | None:
    """RLCard's mahjong with its random agents, stepped one decision at a time; None if RLCard is missing."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 0})
    agent = RandomAgent(num_actions=env.num_actions)
    np.random.seed(0)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        state, _player = env.reset()
        while not env.is_over():
            state, _player = env.step(agent.step(state))
            steps += 1
    return steps / (time.perf_counter() - start), steps / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per environment (default 300)")
    parser.add_argument("--rlcard-games", type=int, default=300, help="RLCard mahjong games (default 300)")
    args = parser.parse_args()
    print(f"machine: {describe()}")
    for module in (noi2014_v0, baida_v0, thupc2021_v0):
        name = module.__name__.rsplit(".", 1)[1]
        for label, make in (("env()", module.env), ("raw_env()", module.raw_env)):
            rate, per_game = ours(make, args.games)
            print(f"{name:<13} {label:<10} {rate:>9,.0f} steps/s ({per_game:.0f} steps per game, {args.games} games)")
    measured = rlcard_mahjong(args.rlcard_games)
    if measured is None:
        print("RLCard is not installed: pip install rlcard, then run again for its mahjong figure")
    else:
        rate, per_game = measured
        games = args.rlcard_games
        print(f"{'rlcard mahjong':<24} {rate:>9,.0f} steps/s ({per_game:.0f} steps per game, {games} games)")


if __name__ == "__main__":
    main()
