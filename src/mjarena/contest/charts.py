"""The contest's charts (drawn by :mod:`mjarena.charts` on the server): the race, points after each round per
team with the rounds where a new version started marked, and below it each team's points minus the leader's (a
line each in both: two lines for one team), and one team's points per game by version.

Each chart comes as a ``<figure>`` with the same data as a table in a ``<details>`` (for screen readers, and for
reading the exact numbers).

>>> history = {"rounds": [1, 2], "teams": {"red": {"first": 1, "points": [3.0, 7.0], "versions": [[1, 1], [2, 2]]}}}
>>> figure = race_chart(history, ["red"])
>>> figure.count('class="chart-line"'), figure.count('class="chart-mark"'), 'data-last="7"' in figure
(2, 2, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mjarena.charts import DASHES, PALETTE, SHAPES, Series, data_table, line_chart
from mjarena.i18n import gettext as _

__all__ = ["SHOWN_TEAMS", "gap_series", "race_chart", "team_style", "versions_chart"]

SHOWN_TEAMS = 10
"""Teams drawn at first on the standings' chart (the top ones); the others are a click away."""


def team_style(identity: int) -> tuple[str, str, str]:
    """The ``(colour, dash, shape)`` of the team with this identity (its place among every team of the contest,
    hidden ones included, in the order they were added: 0, 1, ...): the same for the whole contest, and distinct
    for the first 42 teams; two teams of one colour differ in dash and marker both.

    >>> len({team_style(identity) for identity in range(42)}), team_style(0), team_style(7)
    (42, ('#0072B2', '', 'circle'), ('#0072B2', '8 4', 'square'))
    """
    colours, dashes, shapes = len(PALETTE), len(DASHES), len(SHAPES)
    turn = identity // colours
    return PALETTE[identity % colours], DASHES[turn % dashes], SHAPES[(identity + turn) % shapes]


def _figure(chart_id: str, svg: str, table: str, extra: str = "") -> str:
    return (f'<figure class="chart-figure" id="{chart_id}">{svg}{extra}<details class="chart-data"><summary>'
            f'{_("The chart as a table")}</summary>{table}</details></figure>')


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
        marks = [(number, after[number], _("%(team)s v%(version)s from round %(round)s")
                  % {"team": name, "version": version, "round": number})
                 for number, version in team["versions"] if number in after]
        series.append(Series(name, list(after.items()), marks=marks))
    return series


def gap_series(history: Mapping[str, Any], teams: Sequence[str]) -> list[Series]:
    """A series per team of ``teams`` (empty for one that has not played): its points minus the leader's after
    each round from its first one (0 for the leader; the leader is the team with the most points then).

    >>> history = {"rounds": [1, 2], "teams": {"a": {"first": 1, "points": [4.0, 5.0], "versions": []},
    ...                                        "b": {"first": 1, "points": [1.0, 8.0], "versions": []}}}
    >>> [list(item.points) for item in gap_series(history, ["a", "b", "c"])]
    [[(1, 0.0), (2, -3.0)], [(1, -3.0), (2, 0.0)], []]
    """
    totals: dict[int, dict[str, float]] = {}
    for name, team in history["teams"].items():
        for offset, points in enumerate(team["points"]):
            totals.setdefault(team["first"] + offset, {})[name] = points
    leader = {number: max(values.values()) for number, values in totals.items()}
    series = []
    for name in teams:
        team = history["teams"].get(name)
        points = [] if team is None else [
            (team["first"] + offset, round(value - leader[team["first"] + offset], 3))
            for offset, value in enumerate(team["points"])]
        series.append(Series(name, points))
    return series


def race_chart(history: Mapping[str, Any], order: Sequence[str], *, shown: int = SHOWN_TEAMS,
               teams: Sequence[str] | None = None) -> str:
    """Points after each round, a line per team, then each team's points minus the leader's (``order``: the
    standings' order: the first ``shown`` drawn, the others hidden behind a button that ``contest.js`` wires).

    Each team keeps its colour, dash and marker for the whole contest (:func:`team_style` of its place in
    ``teams``: every team in the order they were added, hidden ones too; by default ``order``), whatever the
    ranking and whoever is hidden; a team that has not played yet keeps its place with an empty line."""
    every = list(teams if teams is not None else order)
    identity = {name: index for index, name in enumerate(every)}
    fixed = [name for name in every if name in set(order)]
    styles = [team_style(identity[name]) for name in fixed]
    played = {item.name: item for item in race_series(history, fixed)}
    series = [played.get(name, Series(name, [])) for name in fixed]
    top = set(order[:shown])
    hidden = {item.name for item in series if item.name not in top or not item.points}
    axis, points, behind = _("round"), _("points"), _("points behind")
    svg = line_chart(series, title=_("Points after each round"), x_label=axis, y_label=points, hidden=hidden,
                     chart_id="race", styles=styles)
    table = data_table([item for item in series if item.points],
                       caption=_("Points after each round (a version's first round marked)"), x_label=axis,
                       y_label=points)
    gaps = gap_series(history, fixed)
    gap_title = _("Points minus the leader's after each round")
    gap_svg = line_chart(gaps, title=gap_title, x_label=axis, y_label=behind, hidden=hidden, chart_id="race-gap",
                         styles=styles)
    gap_table = data_table([item for item in gaps if item.points], caption=gap_title, x_label=axis, y_label=behind)
    drawn = sum(1 for item in series if item.points)
    label = _("Show all %(count)s teams") % {"count": drawn}
    more = (f'<p><button type="button" id="race-all" aria-pressed="false" data-hidden="{len(hidden)}">{label}'
            '</button></p>' if drawn > len(top & {item.name for item in series if item.points}) else "")
    return _figure("race-chart", svg, table, more) + _figure("race-gap-chart", gap_svg, gap_table)


def versions_chart(team: str, figures: Mapping[int, Mapping[str, Any]]) -> str:
    """``team``'s points per game by version (each point's tooltip gives the games it played); empty when no
    version has played yet."""
    if not figures:
        return ""
    versions = sorted(figures)
    item = Series(team, [(version, figures[version]["points_per_game"]) for version in versions],
                  marks=[(version, figures[version]["points_per_game"],
                          _("v%(version)s: %(games)s game(s), %(errors)s with an error")
                          % {"version": version, "games": figures[version]["games"],
                             "errors": figures[version]["errors"]}) for version in versions])
    axis, per_game = _("version"), _("points per game")
    svg = line_chart([item], title=_("Points per game by version: %(team)s") % {"team": team}, x_label=axis,
                     y_label=per_game, chart_id="versions")
    table = data_table([item], caption=_("Points per game of each version of %(team)s") % {"team": team},
                       x_label=axis, y_label=per_game)
    return _figure("versions-chart", svg, table)
