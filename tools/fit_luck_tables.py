"""Fit the value tables of the luck adjustment (:mod:`mjarena.arena.luck`) and write ``luck_tables.json``.

For each rule set, games of ``builtin:strong`` against ``builtin:greedy`` in the 14 seatings of a duplicate set
(walls from ``derive_seed(SEED, "luck-fit", i)``, none of them a wall ``mjarena compare`` deals) are followed
draw by draw; every seat still playing at a draw gives one case, its features after the draw (own distance,
the others' lowest, stage) and the points it scored in the end.  A cell's value is its mean points, shrunk
towards the mean of its (distance, stage) and that towards the mean of its distance (``SHRINK`` cases' weight),
so that sparse cells stay sensible.  Any table keeps the adjustment's mean exact; a better one removes more.

    python tools/fit_luck_tables.py                    # all three rule sets, 5,600 games each (~4 min)
    python tools/fit_luck_tables.py --games 1400 --out /tmp/luck_tables.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

from mjarena.arena.compare import SEATINGS
from mjarena.arena.draws import derive_seed
from mjarena.arena.luck import CAP, STAGE_DRAWS, draws
from mjarena.arena.match import run_match
from mjarena.rulesets import RULE_SETS

SEED = 0
SHRINK = 20.0
OUT = Path(__file__).resolve().parents[1] / "src" / "mjarena" / "arena" / "luck_tables.json"


def cases(rules: str, games: int) -> tuple[list[tuple[int, int, int, float]], int]:
    """(own distance, others' lowest, stage, points) of every playing seat at every draw; the most draws."""
    found = []
    most = 0
    for index in range(games):
        seating = SEATINGS[index % len(SEATINGS)]
        specs = ["builtin:strong" if letter == "A" else "builtin:greedy" for letter in seating]
        result = run_match(specs, rules=rules, seed=derive_seed(SEED, "luck-fit", index))
        points = {seat.seat: seat.points for seat in result.seats}
        for draw in draws(rules, result.wall, result.events):
            most = max(most, draw.draws + 1)
            for seat in (draw.drawer, *draw.distances):
                own, low = draw.features(seat, draw.actual)
                found.append((own, low, draw.draws // STAGE_DRAWS, points[seat]))
    return found, most


def fit(found: list[tuple[int, int, int, float]], stages: int) -> list[list[list[float]]]:
    """``values[own][low][stage]``: cell means shrunk towards (own, stage), that towards (own), that towards all."""
    sums: dict[tuple[int, ...], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for own, low, stage, points in found:
        stage = min(stage, stages - 1)
        for key in ((), (own,), (own, stage), (own, low, stage)):
            cell = sums[key]
            cell[0] += points
            cell[1] += 1.0

    def shrunk(key: tuple[int, ...], prior: float) -> float:
        total, count = sums.get(key, (0.0, 0.0))
        return (total + SHRINK * prior) / (count + SHRINK)

    overall = sums[()][0] / max(sums[()][1], 1.0)
    values = []
    for own in range(CAP + 1):
        by_own = shrunk((own,), overall)
        rows = []
        for low in range(CAP + 1):
            rows.append([round(shrunk((own, low, stage), shrunk((own, stage), by_own)), 4) for stage in range(stages)])
        values.append(rows)
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5600, help="games per rule set (5600)")
    parser.add_argument("--rules", nargs="*", default=list(RULE_SETS), choices=RULE_SETS)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    tables = json.loads(args.out.read_text(encoding="utf-8"))["tables"] if args.out.exists() else {}
    for rules in args.rules:
        start = time.perf_counter()
        found, most = cases(rules, args.games)
        stages = most // STAGE_DRAWS + 1
        tables[rules] = {"games": args.games, "cases": len(found), "stages": stages, "values": fit(found, stages)}
        print(f"{rules}: {args.games} games, {len(found)} cases, {stages} stages "
              f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    data = {
        "about": "Value tables of mjarena.arena.luck: mean points by [own distance][others' lowest][stage], "
                 "written by tools/fit_luck_tables.py from builtin:strong against builtin:greedy.",
        "cap": CAP, "stage_draws": STAGE_DRAWS, "seed": SEED, "shrink": SHRINK,
        "tables": {name: tables[name] for name in sorted(tables)},
    }
    text = re.sub(r"\[\s+([-0-9.,\s]+?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]",
                  json.dumps(data, indent=1))  # each row of numbers on one line
    args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
