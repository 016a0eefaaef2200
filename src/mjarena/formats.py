"""Formatters: each turns an event stream into one text format.  The engines never print.

>>> from mjarena.variants.base import Event
>>> thupc_log([Event("deal", 0, (7,)), Event("discard", 0, (34,), 1), Event("exhausted")])
['A IN 8M', 'A OUT PASS B', 'DRAW']
>>> event_json(Event("discard", 0, (34,), 1), SEATS_THUPC)
'{"type": "discard", "seat": "A", "tiles": ["PASS"], "target": "B"}'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from mjarena.tiles import Notation, format_tile
from mjarena.variants.base import Event

__all__ = ["SEATS_THUPC", "event_dict", "event_json", "thupc_log"]

SEATS_THUPC = ("A", "B", "C", "D")

_THUPC_VERBS = {
    "deal": "IN",
    "draw": "IN",
    "discard": "OUT",
    "chow": "CHOW",
    "pong": "PONG",
    "ron": "RON",
    "self_drawn": "SELFDRAWN",
    "win": "WIN",
}


def thupc_log(events: Iterable[Event]) -> list[str]:
    """The THUPC 2021 statement's output lines for an event stream."""
    lines = []
    for event in events:
        if event.type == "exhausted":
            lines.append("DRAW")
            continue
        parts = [SEATS_THUPC[event.seat], _THUPC_VERBS[event.type]]  # type: ignore[index]
        parts += [format_tile(kind) for kind in event.tiles]
        if event.target is not None:
            parts.append(SEATS_THUPC[event.target])
        lines.append(" ".join(parts))
    return lines


def event_dict(event: Event, seats: Sequence[str] | None = None, notation: Notation = "thupc") -> dict:
    """A JSON-ready dict of one event; seats by name when ``seats`` is given, else by number."""
    out: dict = {"type": event.type}
    if event.seat is not None:
        out["seat"] = seats[event.seat] if seats else event.seat
    if event.tiles:
        out["tiles"] = [format_tile(kind, notation) for kind in event.tiles]
    if event.target is not None:
        out["target"] = seats[event.target] if seats else event.target
    return out


def event_json(event: Event, seats: Sequence[str] | None = None, notation: Notation = "thupc") -> str:
    """One event as one line of JSON."""
    return json.dumps(event_dict(event, seats, notation), ensure_ascii=False)
