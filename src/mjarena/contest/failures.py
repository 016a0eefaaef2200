"""Why bots fail, for the organiser: each seat's error sorted into a kind, and each version's games and errors by
kind, with the games they happened in.

A seat's ``reason`` (set by the match, :mod:`mjarena.arena.match`) falls into one of :data:`ERROR_KINDS`; a
judge error is no seat's and never counted here (the console lists those apart).

>>> kind_of("output_limit"), kind_of("false_hu"), kind_of(None), kind_of("something new")
('bad_output', 'illegal_action', None, 'other')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mjarena.contest.rows import GameRow

__all__ = ["ERROR_KINDS", "KIND_LABELS", "kind_of", "version_errors"]

ERROR_KINDS: Mapping[str, tuple[str, ...]] = {
    "crash": ("crash",),
    "timeout": ("timeout",),
    "memory": ("memory",),
    "bad_output": ("bad_output", "output_limit"),
    "illegal_action": ("illegal_action", "false_hu"),
}
"""Each kind of error and the seats' ``reason`` values it gathers (``other``: any reason not listed here)."""
KIND_LABELS = {"crash": "crash", "timeout": "timeout", "memory": "memory", "bad_output": "bad output",
               "illegal_action": "illegal action", "other": "other"}
_KIND_OF = {reason: kind for kind, reasons in ERROR_KINDS.items() for reason in reasons}


def kind_of(reason: str | None) -> str | None:
    """The kind of error of a seat's ``reason`` (None: no error)."""
    if not reason:
        return None
    return _KIND_OF.get(reason, "other")


def version_errors(games: Iterable[GameRow]) -> dict[str, dict[int, dict[str, Any]]]:
    """``{team: {version: {"games": [ids], "errors": {kind: [game ids]}}}}`` over the finished ``games`` (house
    bots left out), game ids in the order given.

    >>> from mjarena.contest.rows import SeatRow
    >>> seat = SeatRow(0, "red", 2, 5, "error", "crash", "exit code 1", 4, 1.0)
    >>> version_errors([GameRow(9, 1, 1, 1, 0, "finished", 0.0, 1.0, (seat,))])
    {'red': {2: {'games': [9], 'errors': {'crash': [9]}}}}
    """
    figures: dict[str, dict[int, dict[str, Any]]] = {}
    for game in games:
        if game.state != "finished":
            continue
        for seat in game.seats:
            if seat.team is None or seat.version is None:
                continue
            row = figures.setdefault(seat.team, {}).setdefault(seat.version, {"games": [], "errors": {}})
            row["games"].append(game.id)
            kind = kind_of(seat.reason)
            if kind is not None:
                row["errors"].setdefault(kind, []).append(game.id)
    return figures
