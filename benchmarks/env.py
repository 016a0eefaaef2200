"""RL environment speed: steps and games per second with random legal actions, as ratios to RLCard's mahjong.

    python benchmarks/env.py [--games 10] [--anchor-games 2] [--rounds 40] [--json FILE]

One step is one decision of one seat: the PettingZoo loop ``for agent in env.agent_iter(): observation, ... =
env.last(); env.step(action)`` with a random legal action drawn from the action mask (the dead steps of seats
that have left count too): ``mask.nonzero()`` and ``random.Random.randrange`` (NumPy's ``flatnonzero`` and
``Generator.integers`` cost 1.7 µs more a step, a tenth of it, for the same draw).  RLCard's side draws with its
own ``RandomAgent``, as its users do.  Measured for ``env()`` (PettingZoo's call-order wrapper included, as users
get it) and ``raw_env()`` of each rule set, then for RLCard's ``rlcard.make("mahjong")`` with its random agents on the
same machine, stepped the same way (``pip install 'mjarena[bench]'``; without it the figures are printed without
their anchor).

How the ratio is made robust to a shared machine's load: every contender runs in many short alternating rounds
(A B C ... then ... C B A, ``--rounds`` times; a round is ``--games`` games of ours, ``--anchor-games`` of
RLCard's, about 50 ms each), each round is timed in CPU time (``time.process_time``: the time the process was
descheduled does not count), each round of ours is divided by RLCard's round *of the same pass*, and the ratio
reported is the median of those per-round ratios, with their interquartile range as the spread.  Games per
second are steps per second over the steps of an average game over all rounds (a mjarena game has more steps
than RLCard's: every seat still in answers every discard, as the rules ask it), so the games ratio is the steps
ratio times RLCard's steps per game over ours.  Goals: ``noi2014_v0`` ``env()`` >= 20x RLCard's steps/s and >=
8x its games/s, and >= 50,000 steps/s on an idle 2-core machine of the CI's kind.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, machine_line, median, parser

from mjarena.env import baida_v0, noi2014_v0, thupc2021_v0

GOALS = {"noi2014_v0 env()": (20, 8)}
"""The goals of ``noi2014_v0`` ``env()``, as ratios to RLCard's mahjong: steps per second, games per second."""
ANCHOR = "rlcard mahjong"

Runner = Callable[[int], tuple[int, float]]
"""Plays some games; returns (steps, CPU seconds)."""


def ours(make: Callable[[], object]) -> Runner:
    """A runner of one of our environments, seeded games in sequence (the seeds go on from round to round)."""
    table = make()
    pick = random.Random(0).randrange
    seeds = iter(range(2**31))

    def run(games: int) -> tuple[int, float]:
        steps = 0
        start = time.process_time()
        for seed in seeds:
            table.reset(seed=seed)  # type: ignore[attr-defined]
            for _agent in table.agent_iter():  # type: ignore[attr-defined]
                observation, _reward, terminated, _truncated, _info = table.last()  # type: ignore[attr-defined]
                if terminated:
                    action = None
                else:
                    legal = observation["action_mask"].nonzero()[0]
                    action = int(legal[pick(len(legal))])
                table.step(action)  # type: ignore[attr-defined]
                steps += 1
            games -= 1
            if not games:
                break
        return steps, time.process_time() - start

    return run


def rlcard_runner() -> Runner | None:
    """A runner of RLCard's mahjong with its random agents, stepped one decision at a time; None without RLCard."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": 0})
    agent = RandomAgent(num_actions=env.num_actions)
    np.random.seed(0)

    def run(games: int) -> tuple[int, float]:
        steps = 0
        start = time.process_time()
        for _ in range(games):
            state, _player = env.reset()
            while not env.is_over():
                state, _player = env.step(agent.step(state))
                steps += 1
        return steps, time.process_time() - start

    return run


def quartiles(values: list[float]) -> tuple[float, float]:
    """The first and third quartiles (the spread printed beside a median).

    >>> quartiles([1.0, 2.0, 3.0, 4.0, 5.0])
    (1.5, 4.5)
    """
    if len(values) < 2:
        return values[0], values[0]
    low, _, high = statistics.quantiles(values, n=4)
    return low, high


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--games", type=int, default=10, help="games of ours per round (default 10)")
    arguments.add_argument("--anchor-games", type=int, default=2,
                           help="games of RLCard's per round (default 2: about as long as 10 of ours)")
    arguments.add_argument("--rounds", "--repeat", type=int, default=40,
                           help="alternating rounds (default 40: many short rounds, so that a burst of load on a "
                                "shared machine moves few of them and the median leaves those out)")
    args = arguments.parse_args()
    record = Record("env")
    print(machine_line())
    runners: dict[str, Runner] = {}
    for module in (noi2014_v0, baida_v0, thupc2021_v0):
        name = module.__name__.rsplit(".", 1)[1]
        for label, make in (("env()", module.env), ("raw_env()", module.raw_env)):
            runners[f"{name} {label}"] = ours(make)
    anchor_run = rlcard_runner()
    if anchor_run is not None:
        runners[ANCHOR] = anchor_run
    games = {label: args.anchor_games if label == ANCHOR else args.games for label in runners}
    for run in runners.values():  # warm up
        run(1)
    rounds: dict[str, list[tuple[int, float]]] = {label: [] for label in runners}
    order = list(runners)
    for number in range(args.rounds):
        for label in order if number % 2 == 0 else reversed(order):
            rounds[label].append(runners[label](games[label]))
    steps_per_game = {label: sum(s for s, _ in done) / (games[label] * len(done)) for label, done in rounds.items()}
    rates = {label: [s / t for s, t in done] for label, done in rounds.items()}
    print(f"random legal actions, CPU time, {args.rounds} alternating rounds of {args.games} games each "
          f"({args.anchor_games} of RLCard's)" + ("; ratios: medians of the rounds' ratios to RLCard's round of "
                                                   "the same pass [interquartile range]" if anchor_run else ""))
    for label, values in rates.items():
        rate = median(values)
        per_game = rate / steps_per_game[label]
        goals = GOALS.get(label)
        ratio = ""
        if anchor_run is not None and label != ANCHOR:
            games_scale = steps_per_game[ANCHOR] / steps_per_game[label]
            ratios = [ours_rate / anchor_rate for ours_rate, anchor_rate in zip(values, rates[ANCHOR], strict=True)]
            steps_ratio, (low, high) = median(ratios), quartiles(ratios)
            anchor_rate = rate / steps_ratio
            steps = record.add(f"{label} steps/s", rate, "steps/s", anchor=(f"{ANCHOR} steps/s", anchor_rate),
                               goal=(">=", goals[0]) if goals else None)
            steps["ratio"] = round(steps_ratio, 2)
            steps["ratio_quartiles"] = [round(low, 2), round(high, 2)]
            game_figure = record.add(f"{label} games/s", per_game, "games/s",
                                     anchor=(f"{ANCHOR} games/s", anchor_rate / steps_per_game[ANCHOR]),
                                     goal=(">=", goals[1]) if goals else None)
            game_figure["ratio"] = round(steps_ratio * games_scale, 2)
            game_figure["ratio_quartiles"] = [round(low * games_scale, 2), round(high * games_scale, 2)]
            if goals:
                steps["met"] = bool(steps_ratio >= goals[0])
                game_figure["met"] = bool(game_figure["ratio"] >= goals[1])
            ratio = (f"{steps_ratio:5.1f}x [{low:4.1f}-{high:4.1f}] / {game_figure['ratio']:4.1f}x "
                     f"[{low * games_scale:4.1f}-{high * games_scale:4.1f}] RLCard")
            ratio += f" (goals {goals[0]}x / {goals[1]}x)" if goals else ""
        else:
            record.add(f"{label} steps/s", rate, "steps/s", goal=(">=", 50_000) if goals else None)
        print(f"  {label:<20} {ratio:<58} {rate:>7,.0f} steps/s {per_game:>6,.1f} games/s "
              f"({steps_per_game[label]:.0f} steps per game)")
    if anchor_run is None:
        print("RLCard is not installed (pip install 'mjarena[bench]'): no anchor, absolute figures only")
    else:
        record.add("noi2014_v0 env() steps/s (absolute)", median(rates["noi2014_v0 env()"]), "steps/s",
                   goal=(">=", 50_000))
    record.note("clock", "time.process_time per round; ratios are medians of per-round ratios")
    record.save(args.json)


if __name__ == "__main__":
    main()
