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
from typing import Any, TypeGuard

__all__ = ["CHART_SHOWN", "answer_times", "eta_seconds", "head_to_head", "merge_times", "rating_chart",
           "seat_answer_ms"]

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


def seat_answer_ms(data: Mapping[str, Any]) -> dict[int, list[float]]:
    """Each seat's answer times in one replay, in milliseconds: for a program, the ``elapsed_ms`` of every exchange
    of its transcript (one request, one answer: what its time limit is judged on, and what the replay viewer
    shows); for an in-process agent (no transcript), the ``ms`` of each decision it made itself.

    A decision's ``ms`` is the runner's wall time for the whole turn: a program told of several events at once
    answers several requests in one turn (each answered ``PASS`` but the last), so a turn's ``ms`` can be several
    answers long.  Reading it as one answer once made a tournament page show a slowest answer of 3,212 ms where
    the largest ``elapsed_ms`` was 1,253 ms.

    >>> data = {"decisions": [{"seat": 0, "ms": 300.0, "by": "bot"}, {"seat": 1, "ms": 2.0, "by": "bot"},
    ...                       {"seat": 1, "ms": 0.1, "by": "judge"}],
    ...         "transcripts": {"0": [{"elapsed_ms": 120.0}, {"elapsed_ms": 150.0}]}}
    >>> seat_answer_ms(data)
    {0: [120.0, 150.0], 1: [2.0]}
    """
    kept = data.get("transcripts")
    kept = kept if isinstance(kept, Mapping) else {}
    times: dict[int, list[float]] = {}
    for seat, exchanges in kept.items():
        if not str(seat).isdigit() or not isinstance(exchanges, list):
            continue
        elapsed = [item.get("elapsed_ms") for item in exchanges if isinstance(item, Mapping)]
        times[int(seat)] = [float(ms) for ms in elapsed if _is_number(ms)]
    for decision in data.get("decisions") or []:
        if not isinstance(decision, Mapping) or decision.get("by") == "judge":
            continue
        seat, ms = decision.get("seat"), decision.get("ms")
        if type(seat) is int and str(seat) not in kept and _is_number(ms):
            times.setdefault(seat, []).append(float(ms))
    return times


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def answer_times(data: Mapping[str, Any], names: Sequence[str]) -> dict[str, dict[str, float]]:
    """Per entrant of one replay (``names``: the entrant of each seat): ``answers``, ``total_ms`` and ``max_ms`` of
    the answers it gave itself (:func:`seat_answer_ms`: a program's exchanges, an in-process agent's decisions;
    the judge's answers for a seat that erred are left out)."""
    times: dict[str, dict[str, float]] = {}
    for seat, values in sorted(seat_answer_ms(data).items()):
        if not 0 <= seat < len(names) or not values:
            continue
        item = times.setdefault(names[seat], {"answers": 0, "total_ms": 0.0, "max_ms": 0.0})
        item["answers"] += len(values)
        item["total_ms"] += sum(values)
        item["max_ms"] = max(item["max_ms"], *values)
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
    house bots are not rated), its words in the active language: a line of μ per entrant with its ±σ band, in
    standings order, the first :data:`CHART_SHOWN` drawn and the others hidden until asked for; the table holds
    every value.

    >>> standings = [{"bot": "a"}, {"bot": "b"}]
    >>> chart = rating_chart(standings, {"a": [(0, 25.0, 8.3), (1, 27.1, 7.9)], "b": [(0, 25.0, 8.3), (1, 22.9, 7.9)]})
    >>> chart["svg"].count('class="chart-line"'), chart["table"].count("<tr>")
    (2, 3)
    """
    from mjarena.charts import Series, data_table, line_chart
    from mjarena.i18n import gettext as _

    names = [str(row["bot"]) for row in standings]
    history = {name: ratings_by_round[name] for name in names}
    series = [Series(name, [(r, mu) for r, mu, _ in history[name]],
                     band=[(r, mu - sigma, mu + sigma) for r, mu, sigma in history[name]]) for name in names]
    svg = line_chart(series, title=_("Rating μ (band: ± σ) after each round"), x_label=_("round"), y_label="μ",
                     hidden=set(names[CHART_SHOWN:]), chart_id="rating-chart-svg")
    table = data_table(series, caption=_("μ (μ − σ to μ + σ) of each entrant after each round (round 0: before "
                                         "the first game)"), x_label=_("round"), y_label=_("entrant"))
    return {"svg": svg, "table": table}
