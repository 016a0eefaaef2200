"""What the tournament page adds to the standings: head-to-head results, answer times and errors per entrant,
when the tournament will finish, and each entrant's rating over the rounds (a chart and its table).

>>> records = {"g1": {"results": [{"bot": "a", "rank": 1, "house": False}, {"bot": "b", "rank": 2, "house": False},
...                               {"bot": "c", "rank": 2, "house": False}, {"bot": "h", "rank": 4, "house": True}]}}
>>> head_to_head(records)["a"]["b"], head_to_head(records)["b"]["c"]
([1, 0, 0], [0, 1, 0])
>>> eta_seconds(started=100.0, finished=[130.0, 160.0], played=2, total=6)
120.0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["CHART_SHOWN", "answer_times", "eta_seconds", "head_to_head", "merge_times", "rating_chart"]

CHART_SHOWN = 10
"""Entrants drawn in the rating chart at first (the best by the standings); the others are in its legend, shown on
demand."""


def head_to_head(records: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, list[int]]]:
    """For each pair of entrants that met: ``[better, tied, worse]`` games of the first against the second (by
    rank in the game; house bots left out)."""
    table: dict[str, dict[str, list[int]]] = {}
    for record in records.values():
        seats = [(seat["bot"], seat["rank"]) for seat in record.get("results", []) if not seat.get("house")]
        for name, rank in seats:
            row = table.setdefault(name, {})
            for other, other_rank in seats:
                if other == name:
                    continue
                cell = row.setdefault(other, [0, 0, 0])
                cell[0 if rank < other_rank else 1 if rank == other_rank else 2] += 1
    return table


def answer_times(data: Mapping[str, Any], names: Sequence[str]) -> dict[str, dict[str, float]]:
    """Per entrant of one replay (``names``: the entrant of each seat): ``answers``, ``total_ms`` and ``max_ms`` of
    the answers it gave itself (the judge's answers for a seat that erred are left out)."""
    times: dict[str, dict[str, float]] = {}
    for decision in data.get("decisions") or []:
        if not isinstance(decision, dict) or decision.get("by") == "judge":
            continue
        seat, ms = decision.get("seat"), decision.get("ms")
        if type(seat) is not int or not 0 <= seat < len(names) or not isinstance(ms, (int, float)):
            continue
        item = times.setdefault(names[seat], {"answers": 0, "total_ms": 0.0, "max_ms": 0.0})
        item["answers"] += 1
        item["total_ms"] += ms
        item["max_ms"] = max(item["max_ms"], ms)
    return times


def merge_times(parts: Iterable[Mapping[str, Mapping[str, float]]]) -> dict[str, dict[str, float | None]]:
    """The :func:`answer_times` of many games as ``{"mean_ms", "max_ms", "answers"}`` per entrant."""
    total: dict[str, dict[str, float]] = {}
    for part in parts:
        for name, item in part.items():
            into = total.setdefault(name, {"answers": 0, "total_ms": 0.0, "max_ms": 0.0})
            into["answers"] += item["answers"]
            into["total_ms"] += item["total_ms"]
            into["max_ms"] = max(into["max_ms"], item["max_ms"])
    return {name: {"answers": item["answers"], "max_ms": round(item["max_ms"], 2),
                   "mean_ms": round(item["total_ms"] / item["answers"], 2) if item["answers"] else None}
            for name, item in total.items()}


def eta_seconds(started: float, finished: Sequence[float], played: int, total: int) -> float | None:
    """Seconds until the last game is done, at the pace so far (games finished at the times ``finished``, since
    ``started``); None before the first game or once all are played."""
    if not finished or played >= total or played <= 0:
        return None
    elapsed = max(finished) - started
    if elapsed <= 0:
        return None
    return round(elapsed / played * (total - played), 1)


def rating_chart(standings: Sequence[Mapping[str, Any]],
                 ratings_by_round: Mapping[str, Sequence[tuple[int, float, float]]]) -> dict[str, str]:
    """The tournament page's chart of each entrant's rating over the rounds, ``{"svg": ..., "table": ...}``
    (:mod:`mjarena.charts`), from ``ratings_by_round`` (:meth:`mjarena.arena.standings.Tally.ratings_by_round`:
    house bots are not rated): a line of μ per entrant with its ±σ band, in standings order, the first
    :data:`CHART_SHOWN` drawn and the others hidden until asked for; the table holds every value.

    >>> standings = [{"bot": "a"}, {"bot": "b"}]
    >>> chart = rating_chart(standings, {"a": [(0, 25.0, 8.3), (1, 27.1, 7.9)], "b": [(0, 25.0, 8.3), (1, 22.9, 7.9)]})
    >>> chart["svg"].count('class="chart-line"'), chart["table"].count("<tr>")
    (2, 3)
    """
    from mjarena.charts import Series, data_table, line_chart

    names = [str(row["bot"]) for row in standings]
    history = {name: ratings_by_round[name] for name in names}
    series = [Series(name, [(r, mu) for r, mu, _ in history[name]],
                     band=[(r, mu - sigma, mu + sigma) for r, mu, sigma in history[name]]) for name in names]
    svg = line_chart(series, title="Rating μ (band: ± σ) after each round", x_label="round", y_label="μ",
                     hidden=set(names[CHART_SHOWN:]), chart_id="rating-chart-svg")
    table = data_table(series, caption="μ (μ − σ to μ + σ) of each entrant after each round (round 0: before "
                       "the first game)", x_label="round", y_label="entrant")
    return {"svg": svg, "table": table}
