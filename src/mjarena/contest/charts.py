"""The contest's charts (drawn by :mod:`mjarena.charts` on the server): the race, points after each round per
team with the rounds where a new version started marked, and one team's points per game by version.

Each chart comes as a ``<figure>`` with the same data as a table in a ``<details>`` (for screen readers, and for
reading the exact numbers).

>>> history = {"rounds": [1, 2], "teams": {"red": {"first": 1, "points": [3.0, 7.0], "versions": [[1, 1], [2, 2]]}}}
>>> figure = race_chart(history, ["red"])
>>> figure.count('class="chart-line"'), figure.count('class="chart-mark"'), 'data-last="7"' in figure
(1, 2, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mjarena.charts import Series, data_table, line_chart

__all__ = ["SHOWN_TEAMS", "race_chart", "versions_chart"]

SHOWN_TEAMS = 10
"""Teams drawn at first on the standings' chart (the top ones); the others are a click away."""


def _figure(chart_id: str, svg: str, table: str, extra: str = "") -> str:
    return (f'<figure class="chart-figure" id="{chart_id}">{svg}{extra}<details class="chart-data"><summary>The '
            f'chart as a table</summary>{table}</details></figure>')


def race_series(history: Mapping[str, Any], order: Sequence[str]) -> list[Series]:
    """A series per team that has played, in the order of ``order`` (the standings): its points after each
    round, marked where a version started."""
    series = []
    for name in order:
        team = history["teams"].get(name)
        if team is None:
            continue
        rounds = range(team["first"], team["first"] + len(team["points"]))
        after = dict(zip(rounds, team["points"], strict=True))
        marks = [(number, after[number], f"{name} v{version} from round {number}")
                 for number, version in team["versions"] if number in after]
        series.append(Series(name, list(after.items()), marks=marks))
    return series


def race_chart(history: Mapping[str, Any], order: Sequence[str], *, shown: int = SHOWN_TEAMS) -> str:
    """Points after each round, a line per team (``order``: the standings' order; the first ``shown`` drawn,
    the others hidden behind a button that ``contest.js`` wires)."""
    series = race_series(history, order)
    hidden = {item.name for item in series[shown:]}
    svg = line_chart(series, title="Points after each round", x_label="round", y_label="points", hidden=hidden,
                     chart_id="race")
    table = data_table(series, caption="Points after each round (a version's first round marked)",
                       x_label="round", y_label="points")
    more = (f'<p><button type="button" id="race-all" aria-pressed="false" data-hidden="{len(hidden)}">Show all '
            f'{len(series)} teams</button></p>' if hidden else "")
    return _figure("race-chart", svg, table, more)


def versions_chart(team: str, figures: Mapping[int, Mapping[str, Any]]) -> str:
    """``team``'s points per game by version (each point's tooltip gives the games it played); empty when no
    version has played yet."""
    if not figures:
        return ""
    versions = sorted(figures)
    item = Series(team, [(version, figures[version]["points_per_game"]) for version in versions],
                  marks=[(version, figures[version]["points_per_game"],
                          f"v{version}: {figures[version]['games']} game(s), {figures[version]['errors']} with an "
                          "error") for version in versions])
    svg = line_chart([item], title=f"Points per game by version: {team}", x_label="version",
                     y_label="points per game", chart_id="versions")
    table = data_table([item], caption=f"Points per game of each version of {team}", x_label="version",
                       y_label="points per game")
    return _figure("versions-chart", svg, table)
