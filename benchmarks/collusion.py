"""The report of pairs of teams (collusion): how often it flags pairs that do not collude, how often it finds two
bots that feed each other, and what it costs beside reading the games.

    python benchmarks/collusion.py [--teams N] [--rounds R] [--contests K] [--json FILE]

Each contest is a round-robin of N teams of built-in bots (greedy, random, strong in turn), R rounds, the seats
drawn at random; played twice from the same seed: as it is ("ordinary"), and with the last two teams replaced by
two :class:`colluding_agents.Colluder` (tests/: greedy bots that discard what the other can win on or PENG, and
take whatever the other discards).  Figures:

- ordinary contests: the share of p-values below 0.05 and below 0.01 over every tested row (about 0.05 and 0.01
  or less when the p-values are honest), and the contests in which any pair stands out (goal: none);
- with the colluders: the share of contests in which they stand out (the power at that size), and the contests
  in which another pair stands out beside them;
- the report's time for one contest's games, against the anchor of reading those games' events as JSON (each
  game's events dumped and parsed once: the least any report must do).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _bench import Record, machine_line, median, parser

from colluding_agents import Colluder
from mjarena.agents.builtin import GreedyAgent, RandomAgent
from mjarena.agents.strong import StrongNoiAgent
from mjarena.arena.collusion import TableGame, collusion_report
from mjarena.arena.schedules import round_robin_schedule
from mjarena.formats import event_dict
from mjarena.variants.base import play
from mjarena.variants.noi2014 import NoiGame, shuffled_wall

KINDS = (GreedyAgent, RandomAgent, StrongNoiAgent)


def contest(teams: int, rounds: int, seed: int, colluders: bool) -> list[TableGame]:
    names = [f"t{i}" for i in range(1, teams + 1)]
    agents = {name: KINDS[i % len(KINDS)] for i, name in enumerate(names)}
    if colluders:
        agents[names[-1]] = agents[names[-2]] = Colluder
    rng = random.Random(seed)
    games = []
    for tables in round_robin_schedule(names, rounds, seed):
        for table in tables:
            seats = list(table)
            rng.shuffle(seats)
            players = [agents.get(name, GreedyAgent)(seed=rng.randrange(1 << 30)) for name in seats]
            game = play(NoiGame(shuffled_wall(seed=rng.randrange(1 << 30))), players)
            games.append(TableGame(tuple(None if name.startswith("house") else name for name in seats),
                                   [event_dict(event) for event in game.events]))
    return games


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--teams", type=int, default=8)
    arguments.add_argument("--rounds", type=int, default=50)
    arguments.add_argument("--contests", type=int, default=6)
    args = arguments.parse_args()
    print(machine_line())
    record = Record("collusion")
    p_values: list[float] = []
    flagged_ordinary = found = beside = 0
    report_times, read_times = [], []
    colluding = {f"t{args.teams - 1}", f"t{args.teams}"}
    for number in range(args.contests):
        for colluders in (False, True):
            games = contest(args.teams, args.rounds, 1000 + number, colluders)
            start = time.perf_counter()
            for game in games:
                json.loads(json.dumps(game.events))
            read_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            report = collusion_report(games)
            report_times.append(time.perf_counter() - start)
            standing = [{row["from"], row["to"]} for row in report["standing_out"]]
            if colluders:
                found += colluding in standing
                beside += any(pair != colluding for pair in standing)
            else:
                p_values += [row["p"] for row in report["pairs"] if row["p"] is not None]
                flagged_ordinary += bool(standing)
            print(f"contest {number + 1} {'with' if colluders else 'without'} colluders: "
                  f"{len(report['standing_out'])} rows stand out", file=sys.stderr)
    games = len(contest(args.teams, 1, 0, False)) * args.rounds
    record.note("contest", {"teams": args.teams, "rounds": args.rounds, "games": games, "contests": args.contests})
    share = sum(p < 0.05 for p in p_values) / len(p_values)
    record.add("ordinary: share of p below 0.05", share, "share", goal=("<=", 0.07))
    record.add("ordinary: share of p below 0.01", sum(p < 0.01 for p in p_values) / len(p_values), "share",
               goal=("<=", 0.02))
    record.add("ordinary: contests with a pair standing out", flagged_ordinary, "contests", goal=("<=", 0))
    record.add("colluders: share of contests where they stand out", found / args.contests, "share",
               goal=(">=", 0.8))
    record.add("colluders: contests where another pair stands out too", beside, "contests")
    record.add("report time per contest", median(report_times), "s", anchor=("reading the events as JSON",
                                                                          median(read_times)), goal=("<=", 10))
    for figure in record.figures:
        ratio = f" = {figure['ratio']:g} x {figure['anchor']}" if "ratio" in figure else ""
        goal = f" (goal {figure['goal']}: {'met' if figure['met'] else 'NOT met'})" if "goal" in figure else ""
        print(f"{figure['name']}: {figure['value']:g} {figure['unit']}{ratio}{goal}")
    record.save(args.json)


if __name__ == "__main__":
    main()
