"""When bots ran out of time in a tournament: the count by entrant and seat, said in one line after the standings.

A timeout is the bot's verdict, but a machine running more than its cores (other jobs, too many ``--workers``)
delays every bot's answers too; a line that says how many games had timeouts, and whose, is the first sign to
look for (``docs/tournament.md``).

>>> records = {"r001-t001-g001": {"results": [
...     {"seat": 0, "bot": "slow", "house": False, "status": "error", "reason": "timeout"},
...     {"seat": 1, "bot": "g", "house": False, "status": "in", "reason": None}]},
...     "r001-t001-g002": {"results": [
...     {"seat": 1, "bot": "slow", "house": False, "status": "error", "reason": "timeout"},
...     {"seat": 0, "bot": "g", "house": False, "status": "error", "reason": "crash"}]}}
>>> timeout_counts(records)
{'slow': {0: 1, 1: 1}}
>>> print(timeouts_line(records).split(";")[0])
timeouts in 2 of 2 games: slow 2 (seat 0: 1, seat 1: 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["timeout_counts", "timeouts_line"]


def timeout_counts(records: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[int, int]]:
    """Each entrant's timeouts by seat (house bots included under their names), from the games' records."""
    counts: dict[str, dict[int, int]] = {}
    for record in records.values():
        for seat in record.get("results", []):
            if seat.get("status") == "error" and seat.get("reason") == "timeout":
                by_seat = counts.setdefault(str(seat.get("bot")), {})
                by_seat[seat.get("seat", -1)] = by_seat.get(seat.get("seat", -1), 0) + 1
    return {bot: dict(sorted(by_seat.items())) for bot, by_seat in sorted(counts.items())}


def timeouts_line(records: Mapping[str, Mapping[str, Any]]) -> str | None:
    """One line when any game had a timeout (None otherwise): in how many games, and each entrant's timeouts by
    seat."""
    games = sum(1 for record in records.values()
                if any(seat.get("reason") == "timeout" for seat in record.get("results", [])))
    if not games:
        return None
    counts = timeout_counts(records)
    whose = ", ".join(f"{bot} {sum(by_seat.values())} ("
                      + ", ".join(f"seat {seat}: {count}" for seat, count in by_seat.items()) + ")"
                      for bot, by_seat in counts.items())
    return (f"timeouts in {games} of {len(records)} games: {whose}; a machine busier than its cores also makes bots "
            "time out: see docs/tournament.md")
