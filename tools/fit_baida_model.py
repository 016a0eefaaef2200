"""Measure the 百搭 strong player's table model: ``DISCARD_RATES`` and ``DANGER_MODEL`` of
``mjarena.agents.strong_baida``.

    python tools/fit_baida_model.py [--games 1500] [--seed 1000000]

Plays ``--games`` games of ``builtin:strong`` against ``builtin:greedy`` (seatings SGSG, SSGG, SGGG, GSSS in
turn; walls ``shuffled_wall(seed + game)``) and prints, ready to paste:

- the discard rates: per stage (8 discards) and tile class, the percent of the discards that are one given kind;
- the danger model: at every discard decision (a hand that cannot win), for every other player and every kind
  the decider could discard that is not :func:`~mjarena.agents.strong_baida.exactly_safe` (and has a copy
  left), the terms :func:`~mjarena.agents.strong_baida.danger_features` and whether that player's hidden hand
  would win on it; a logistic regression by Newton's method (needs NumPy, a dev dependency).

The shipped constants were measured on the strong player before it used them: the danger model on 5,000 games
(the default seed; about 10 million cases), the rates on 1,500 games of the seating SGSG.  Against the current
player the figures move a little (300 games: every coefficient within 0.5 of the shipped one).
"""

from __future__ import annotations

import argparse

import numpy as np

from mjarena.agents.baida_agents import GreedyAgent
from mjarena.agents.strong import StrongBaidaAgent, seen_tiles
from mjarena.agents.strong_baida import (
    DANGER_FEATURES,
    DISCARD_RATES,
    STAGE_DISCARDS,
    Table,
    danger_features,
    exactly_safe,
    tile_class,
)
from mjarena.variants.baida import BaidaGame, shuffled_wall
from mjarena.variants.base import play

PATTERNS = ("SGSG", "SSGG", "SGGG", "GSSS")


class Recorder:
    """Wraps an agent; before each discard decision records the danger cases of every other player."""

    def __init__(self, agent: object, rows: list[list[float]], labels: list[float]) -> None:
        self.agent, self.rows, self.labels = agent, rows, labels

    def act(self, game, seat, legal):  # type: ignore[no-untyped-def]
        if legal[0].type != "hu" and legal[-1].type != "pass":
            seen = seen_tiles(game.events)
            table = Table.of(game, seat)
            others = [other for other in range(4) if other != seat]
            for other, opponent in zip(others, table.opponents, strict=True):
                for kind in range(34):
                    visible = seen[kind] + game.hands[seat][kind]
                    if visible >= 4 or exactly_safe(kind, opponent):
                        continue
                    self.rows.append(danger_features(kind, visible, table.discards, opponent))
                    self.labels.append(float(game.hands[other][kind] < 4 and game.wins(other, kind)))
        return self.agent.act(game, seat, legal)  # type: ignore[attr-defined]


def logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Maximum-likelihood logistic coefficients (Newton's method)."""
    w = np.zeros(x.shape[1])
    w[0] = np.log(y.mean() / (1.0 - y.mean()))
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        hessian = (x * (p * (1.0 - p))[:, None]).T @ x + 1e-6 * np.eye(len(w))
        step = np.linalg.solve(hessian, x.T @ (y - p))
        w += step
        if np.abs(step).max() < 1e-7:
            break
    return w


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1_000_000)
    args = parser.parse_args()
    rows: list[list[float]] = []
    labels: list[float] = []
    stages = len(DISCARD_RATES)
    counts = np.zeros((stages, 6))
    totals = np.zeros(stages)
    for number in range(args.games):
        pattern = PATTERNS[number % len(PATTERNS)]
        agents = [Recorder(StrongBaidaAgent() if letter == "S" else GreedyAgent(), rows, labels)
                  for letter in pattern]
        game = play(BaidaGame(shuffled_wall(args.seed + number)), agents)
        for index, kind in enumerate(game.discards):
            stage = min(index // STAGE_DISCARDS, stages - 1)
            counts[stage, tile_class(kind)] += 1
            totals[stage] += 1
    kinds_per_class = np.array([sum(tile_class(kind) == c for kind in range(34)) for c in range(6)])
    rates = 100.0 * counts / np.maximum(totals, 1)[:, None] / kinds_per_class
    print("DISCARD_RATES = (")
    for row in rates:
        print("    (" + ", ".join(f"{value:.2f}" for value in row) + "),")
    print(")")
    x, y = np.array(rows), np.array(labels)
    print(f"# {len(y):,} danger cases, {int(y.sum()):,} wins")
    weights = logistic(x, y)
    for name, value in zip(DANGER_FEATURES, weights, strict=True):
        print(f"#   {name:<15} {value:+.3f}")
    print("DANGER_MODEL = (" + ", ".join(f"{value:.3f}" for value in weights) + ")")


if __name__ == "__main__":
    main()
