"""Formatters: each turns an event stream into one text format.  The engines never print.

>>> from mjarena.variants.base import Event
>>> thupc_log([Event("deal", 0, (7,)), Event("discard", 0, (34,), 1), Event("exhausted")])
['A IN 8M', 'A OUT PASS B', 'DRAW']
>>> event_json(Event("discard", 0, (34,), 1), SEATS_THUPC)
'{"type": "discard", "seat": "A", "tiles": ["PASS"], "target": "B"}'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence

from mjarena.tiles import Notation, format_tile
from mjarena.variants.base import Event

__all__ = ["SEATS_NOI", "SEATS_THUPC", "event_dict", "event_from_dict", "event_json", "noi_log", "thupc_log"]

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


_NUMBER_EVENTS = {"dice": "dice", "score": "tai"}
"""Events whose ``tiles`` (dice) or ``target`` (the 台 total) hold numbers, not tiles or seats."""


def event_dict(event: Event, seats: Sequence[str] | None = None, notation: Notation = "thupc") -> dict:
    """A JSON-ready dict of one event; seats by name when ``seats`` is given, else by number.

    >>> event_dict(Event("dice", 0, (3, 5)))
    {'type': 'dice', 'seat': 0, 'dice': [3, 5]}
    """
    out: dict = {"type": event.type}
    if event.seat is not None:
        out["seat"] = seats[event.seat] if seats else event.seat
    if event.type == "dice":
        out["dice"] = list(event.tiles)
    elif event.tiles:
        out["tiles"] = [format_tile(kind, notation) for kind in event.tiles]
    if event.type == "score":
        out["tai"] = event.target
    elif event.target is not None:
        out["target"] = seats[event.target] if seats else event.target
    return out


def event_from_dict(item: dict, notation: Notation = "noi") -> Event:
    """The inverse of :func:`event_dict` for events whose seats are numbers.

    >>> event_from_dict(event_dict(Event("hu", 1, (2,), 0), notation="noi"))
    Event(type='hu', seat=1, tiles=(2,), target=0)
    >>> event_from_dict(event_dict(Event("dice", 0, (3, 5))))
    Event(type='dice', seat=0, tiles=(3, 5), target=None)
    """
    from mjarena.tiles import parse_tile

    if item["type"] == "dice":
        tiles = tuple(item.get("dice", ()))
    else:
        tiles = tuple(parse_tile(name, notation) for name in item.get("tiles", ()))
    target = item.get("tai") if item["type"] == "score" else item.get("target")
    return Event(item["type"], item.get("seat"), tiles, target)


def event_json(event: Event, seats: Sequence[str] | None = None, notation: Notation = "thupc") -> str:
    """One event as one line of JSON."""
    return json.dumps(event_dict(event, seats, notation), ensure_ascii=False)


# -- NOI 2014 ------------------------------------------------------------------------------------------

SEATS_NOI = ("East", "South", "West", "North")

_NOI_LINES = {
    "deal": "{seat:<6} dealt  {tiles}",
    "draw": "{seat:<6} draws  {tiles}",
    "draw_back": "{seat:<6} draws  {tiles} from the back of the wall",
    "play": "{seat:<6} plays  {tiles}",
    "peng": "{seat:<6} PENG   {tiles}",
    "gang": "{seat:<6} GANG   {tiles} (open, from {target})",
    "angang": "{seat:<6} GANG   {tiles} (concealed)",
    "bugang": "{seat:<6} GANG   {tiles} (added to the PENG)",
    "gang_on_peng": "{seat:<6} GANG   {tiles} (the discard from {target}, added to the PENG)",
    "hu": "{seat:<6} HU     on {tiles} from {target}",
    "hu_self": "{seat:<6} HU     self-drawn {tiles}",
    "false_hu": "{seat:<6} declares HU without a winning hand (诈胡) and leaves the game",
    "chi": "{seat:<6} CHI    {tiles} (from {target})",
    "dice": "{seat:<6} rolls  {dice}",
    "score": "{seat:<6} scores {tai} 台",
    "exhausted": "the wall is empty",
    "end": "game over",
}


def noi_log(events: Iterable[Event], notation: Notation = "noi",
            tile_name: Callable[[int], str] | None = None) -> list[str]:
    """A readable log of a NOI 2014 (or 百搭) game, one line per event; tiles named in ``notation``, or by
    ``tile_name`` (百搭 uses its protocol's names, as its bots read them: ``F1`` for East, ``J1`` for 中).

    >>> noi_log([Event("draw", 0, (2,)), Event("hu", 1, (2,), 0)])
    ['East   draws  W3', 'South  HU     on W3 from East']
    """
    name = tile_name or (lambda kind: format_tile(kind, notation))
    lines = []
    for event in events:
        template = _NOI_LINES.get(event.type, "{type} {seat} {tiles}")
        numbers = event.type in _NUMBER_EVENTS
        shown = sorted(event.tiles) if event.type == "deal" else event.tiles
        lines.append(
            template.format(
                type=event.type,
                seat=SEATS_NOI[event.seat] if event.seat is not None else "",
                tiles="" if numbers else " ".join(name(kind) for kind in shown),
                dice=" and ".join(map(str, event.tiles)),
                tai=event.target,
                target=SEATS_NOI[event.target] if event.target is not None and not numbers else "",
            )
        )
    return lines
