"""Random agents at a PettingZoo table: the environment loop every RL library builds on.

    python examples/rl/random_agents.py [--rules noi2014|baida|thupc2021] [--games 3] [--seed 0]
                                        [--render] [--replay game.json]

Each seat draws a random legal action from its action mask.  Prints each game's points; ``--render`` shows the
table before every decision, ``--replay`` saves the last game (``mjarena replay game.json --check`` plays it
again).
"""

from __future__ import annotations

import argparse
from importlib import import_module

import numpy as np

from mjarena.env import ENVIRONMENTS
from mjarena.replay import save


def play(module_name: str, games: int, seed: int, render: bool) -> object:
    """Play ``games`` games from ``seed`` on; returns the (unwrapped) environment of the last one."""
    env = import_module(f"mjarena.env.{module_name}").env(render_mode="ansi" if render else None)
    rng = np.random.default_rng(seed)
    for game in range(games):
        env.reset(seed=seed + game)
        points = {}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                points[agent] = reward
                env.step(None)
                continue
            if render:
                print(env.render(), end="\n\n")
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        print(f"game {game + 1} (seed {seed + game}): " + ", ".join(f"{a} {p:g}" for a, p in sorted(points.items())))
    return env.unwrapped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", choices=sorted(ENVIRONMENTS), default="noi2014")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--render", action="store_true", help="print the table before every decision")
    parser.add_argument("--replay", help="save the last game as a replay to this file")
    args = parser.parse_args()
    env = play(ENVIRONMENTS[args.rules], args.games, args.seed, args.render)
    if args.replay:
        save(env.to_replay(bots=["random"] * 4), args.replay)
        print(f"replay of the last game: {args.replay}")


if __name__ == "__main__":
    main()
