"""RL environment speed: steps and games per second with random legal actions, as ratios to RLCard's mahjong.

    python benchmarks/env.py [--games 20] [--repeat 15] [--json FILE]

One step is one decision of one seat: the PettingZoo loop ``for agent in env.agent_iter(): observation, ... =
env.last(); env.step(action)`` with a random legal action drawn from the action mask (the dead steps of seats
that have left count too).  Measured for ``env()`` (PettingZoo's call-order wrapper included, as users get it)
and ``raw_env()`` of each rule set, then for RLCard's ``rlcard.make("mahjong")`` with its random agents on the
same machine, stepped the same way (``pip install 'mjarena[bench]'``; without it the figures are printed without
their anchor).  All of them run in alternating rounds of ``--games`` games each (medians of ``--repeat`` rounds),
so a change in the machine's load hits them alike.  Games per second are steps per second over the steps of an
average game (a mjarena game has more steps than RLCard's: every seat still in answers every discard, as the
rules ask it).  Goals: ``noi2014_v0`` ``env()`` >= 20x RLCard's steps/s and >= 8x its games/s, and >= 50,000
steps/s on an idle 2-core machine of the CI's kind.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, interleave, machine_line, median, parser

from mjarena.env import baida_v0, noi2014_v0, thupc2021_v0

GOALS = {"noi2014_v0 env()": (20, 8)}
"""The goals of ``noi2014_v0`` ``env()``, as ratios to RLCard's mahjong: steps per second, games per second."""


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


def rlcard_maker() -> Callable[[int], tuple[float, float]] | None:
    """A runner of RLCard's mahjong with its random agents, stepped one decision at a time; None without RLCard."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 0})
    agent = RandomAgent(num_actions=env.num_actions)
    np.random.seed(0)

    def run(games: int) -> tuple[float, float]:
        steps = 0
        start = time.perf_counter()
        for _ in range(games):
            state, _player = env.reset()
            while not env.is_over():
                state, _player = env.step(agent.step(state))
                steps += 1
        return steps / (time.perf_counter() - start), steps / games

    return run


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--games", type=int, default=20, help="games per environment per round (default 20)")
    arguments.add_argument("--repeat", type=int, default=15,
                           help="alternating rounds (default 15: many short rounds, so that a burst of load on a "
                                "shared machine moves few of them)")
    args = arguments.parse_args()
    record = Record("env")
    print(machine_line())
    runners: dict[str, Callable[[int], tuple[float, float]]] = {}
    for module in (noi2014_v0, baida_v0, thupc2021_v0):
        name = module.__name__.rsplit(".", 1)[1]
        for label, make in (("env()", module.env), ("raw_env()", module.raw_env)):
            runners[f"{name} {label}"] = lambda games, make=make: ours(make, games)
    rlcard = rlcard_maker()
    if rlcard is not None:
        runners["rlcard mahjong"] = rlcard
    steps_per_game: dict[str, float] = {}

    def measure(label: str, games: int) -> float:
        rate, steps_per_game[label] = runners[label](games)
        return rate

    for label in runners:  # warm up
        measure(label, 2)
    contenders = {label: lambda label=label: measure(label, args.games) for label in runners}
    rates = {label: median(values) for label, values in interleave(contenders, args.repeat).items()}
    anchor = rates.get("rlcard mahjong")
    print(f"random legal actions, medians of {args.repeat} alternating rounds of {args.games} games each"
          + ("; ratios to RLCard's mahjong in the same rounds" if anchor else ""))
    anchor_games = anchor / steps_per_game["rlcard mahjong"] if anchor else None
    for label, rate in rates.items():
        games = rate / steps_per_game[label]
        goals = GOALS.get(label)
        if anchor and anchor_games and label != "rlcard mahjong":
            steps = record.add(f"{label} steps/s", rate, "steps/s", anchor=("rlcard mahjong steps/s", anchor),
                               goal=(">=", goals[0]) if goals else None)
            per_game = record.add(f"{label} games/s", games, "games/s",
                                  anchor=("rlcard mahjong games/s", anchor_games),
                                  goal=(">=", goals[1]) if goals else None)
            ratio = f"{steps['ratio']:5.1f}x / {per_game['ratio']:4.1f}x RLCard"
            ratio += f" (goals {goals[0]}x / {goals[1]}x)" if goals else ""
        else:
            record.add(f"{label} steps/s", rate, "steps/s", goal=(">=", 50_000) if goals else None)
            ratio = ""
        print(f"  {label:<22} {ratio:<38} {rate:>9,.0f} steps/s {games:>7,.1f} games/s "
              f"({steps_per_game[label]:.0f} steps per game)")
    if anchor is None:
        print("RLCard is not installed (pip install 'mjarena[bench]'): no anchor, absolute figures only")
    else:
        record.add("noi2014_v0 env() steps/s (absolute)", rates["noi2014_v0 env()"], "steps/s", goal=(">=", 50_000))
    record.save(args.json)


if __name__ == "__main__":
    main()
