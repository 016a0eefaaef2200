"""Evaluate a policy against builtin:greedy in a NOI 2014 tournament.

    python examples/rl/evaluate_policy.py [--games 2] [--rounds 2] [--workers 1] [--out DIR]

A policy is any ``policy(observation, action_mask) -> action index`` over the environments' observations
(``docs/env/noi2014_v0.md``): a trained network's forward pass and an argmax over the legal actions, or, as here,
a rule of thumb that reads the same arrays.  The tournament names it as a bot spec,
``python:evaluate_policy:policy`` (this file, importable because its folder is on the path), next to three
built-in bots; with ``--duplicate`` every wall is played once per seat rotation.  Standings go to ``--out``
(a temporary folder by default) as for ``mjarena tournament``.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

import numpy as np

from mjarena.arena.standings import format_standings
from mjarena.arena.tournament import run_tournament
from mjarena.arena.tournament_settings import Entrant, Settings
from mjarena.env.noi2014_v0 import HU, PASS, PLAY, TARGET_BEST

KINDS = 27


def keep_value(hand: np.ndarray, kind: int) -> int:
    """How useful a tile is to the hand: its copies and its neighbours in the same suit."""
    rank = kind % 9
    near = [kind + step for step in (-2, -1, 1, 2) if 0 <= rank + step <= 8]
    return 3 * int(hand[kind] - 1) + sum(int(hand[other]) for other in near)


def policy(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """Win when possible, declare the closest target, never claim, and discard the least connected tile."""
    for preferred in (HU, TARGET_BEST, PASS):
        if action_mask[preferred]:
            return preferred
    plays = np.flatnonzero(action_mask[PLAY : PLAY + KINDS])
    if len(plays):
        return int(PLAY + min(plays, key=lambda kind: keep_value(observation[0], int(kind))))
    return int(np.flatnonzero(action_mask)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="walls per table (default 2)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2014)
    parser.add_argument("--duplicate", action="store_true", help="play each wall once per seat rotation")
    parser.add_argument("--out", help="results folder (default: a temporary one)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # the tournament imports this file by its name
    bots = [
        Entrant("policy", "python:evaluate_policy:policy"),
        Entrant("greedy-1", "builtin:greedy"),
        Entrant("greedy-2", "builtin:greedy"),
        Entrant("greedy-3", "builtin:greedy"),
    ]
    settings = Settings.create(bots, format="round-robin", rounds=args.rounds, games_per_table=args.games,
                               duplicate=args.duplicate, seed=args.seed)
    with tempfile.TemporaryDirectory() as scratch:
        rows = run_tournament(settings, args.out or scratch, workers=args.workers, progress=False, log=io.StringIO())
    print(format_standings(rows))


if __name__ == "__main__":
    main()
