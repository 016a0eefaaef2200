"""Time what the server does to show one replay: the viewer's data, and in it each seat's distance to a win.

    python benchmarks/replay_view.py [--games 20] [--repeat 5] [--json FILE]

For each rule set, ``--games`` games of built-in bots are played once (seeded); then, in alternating rounds:

- ``viewer data``: :func:`mjarena.web.library.viewer_data` on the parsed replay: the timeline (with the distance
  tracker), the transcripts, the outcome and the drawn distance chart;
- ``distance chart``: :func:`mjarena.web.distances.distance_chart` alone (the SVG and its table);
- ``distance series``: the time spent in the distance tracker's updates while the timelines are made (it runs
  inside :func:`mjarena.web.timeline.timeline`; a tracker that adds up its own time, about 0.2 µs a step);
- the anchor: ``json.dumps`` of the viewer's data, the serialisation the server does for every view anyway.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, interleave, machine_line, median, parser

from mjarena.arena.match import run_match
from mjarena.web import distances, library
from mjarena.web.timeline import timeline

RULES = ("noi2014", "thupc2021", "baida")


def replays(rules: str, games: int) -> list[dict[str, Any]]:
    """``games`` replays of four built-in greedy bots under ``rules``, as the server reads them."""
    return [json.loads(json.dumps(run_match(["builtin:greedy"] * 4, rules=rules, seed=seed).to_json()))
            for seed in range(1, games + 1)]


def per_game(function: Callable[[dict[str, Any]], object], games: list[dict[str, Any]]) -> Callable[[], float]:
    """A contender: seconds per game of ``function`` over all ``games``."""
    def measure() -> float:
        start = time.perf_counter()
        for game in games:
            function(game)
        return (time.perf_counter() - start) / len(games)
    return measure


class _Timed(distances.DistanceTracker):
    """The tracker, adding up the time its updates take (in :data:`SPENT`)."""

    def update(self, table: Any) -> list[int | None]:
        start = time.perf_counter()
        try:
            return super().update(table)
        finally:
            SPENT[0] += time.perf_counter() - start


SPENT = [0.0]


def tracked(games: list[dict[str, Any]]) -> Callable[[], float]:
    """A contender: seconds per game spent in the distance tracker's updates while the timelines are made."""
    def measure() -> float:
        real, SPENT[0] = distances.DistanceTracker, 0.0
        distances.DistanceTracker = _Timed  # type: ignore[misc]
        try:
            for game in games:
                timeline(game)
        finally:
            distances.DistanceTracker = real  # type: ignore[misc]
        return SPENT[0] / len(games)
    return measure


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--games", type=int, default=20, help="games per rule set (default 20)")
    arguments.add_argument("--repeat", type=int, default=5, help="alternating rounds (default 5)")
    args = arguments.parse_args()
    record = Record("replay_view")
    print(machine_line())
    for rules in RULES:
        games = replays(rules, args.games)
        views = [library.viewer_data(game) for game in games]
        players = [[str(seat.get("bot")) for seat in view["seats"]] for view in views]
        pairs = list(zip(views, players, strict=True))
        contenders = {
            "viewer data": per_game(library.viewer_data, games),
            "distance chart": per_game(lambda pair: distances.distance_chart(*pair), pairs),  # type: ignore[misc]
            "distance series": tracked(games),
            "json.dumps": per_game(json.dumps, views),
        }
        times = {name: median(values) for name, values in interleave(contenders, args.repeat).items()}
        steps = sum(len(view["steps"]) for view in views) / len(views)
        anchor = ("json.dumps of the view, ms", times["json.dumps"] * 1000)
        view = record.add(f"{rules}: viewer data", times["viewer data"] * 1000, "ms", anchor=anchor)
        chart = record.add(f"{rules}: distance chart", times["distance chart"] * 1000, "ms", anchor=anchor)
        series = record.add(f"{rules}: distance series", times["distance series"] * 1000, "ms", anchor=anchor)
        record.note(f"{rules}: steps a game", round(steps, 1))
        print(f"{rules} ({steps:.0f} steps a game, medians of {args.repeat} rounds over {args.games} games):")
        print(f"  viewer data     {view['value']:8.2f} ms  {view['ratio']:.2f}x json.dumps of it "
              f"({anchor[1]:.2f} ms)")
        print(f"  distance chart  {chart['value']:8.2f} ms  {chart['ratio']:.2f}x json.dumps")
        print(f"  distance series {series['value']:8.2f} ms  {series['ratio']:.2f}x json.dumps (the tracker's updates "
              "while the timeline is made)")
    record.save(args.json)


if __name__ == "__main__":
    main()
