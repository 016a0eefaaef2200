"""A bot protocol for the THUPC 2021 rules, in the shape of the NOI 2014 strings, so that programs, replays,
the web player and the RL environments treat the three rule sets alike.  No I/O here; the JSON framing is
NOI's (:mod:`mjarena.protocol.botzone`, re-exported).

The THUPC statement gives every seat a fixed strategy and no protocol; this one is mjarena's.  Tiles are
written in the statement's notation: ``1M``..``9M``, ``1P``..``9P``, ``1S``..``9S``, ``E S W N B F Z``, and the
specials ``PASS``, ``REVERSE``, ``DOUBLE``.  Letter case is ignored in answers.

Requests one seat receives, as views of the events of :mod:`mjarena.variants.thupc2021`:

=====================  ==================================  =====================  ===============================
event                  request                             to whom                the answer carries
=====================  ==================================  =====================  ===============================
``deal`` (13 tiles)    ``0 id`` then ``1 t1 … t13``         the seat dealt         nothing (``PASS``)
``draw``               ``2 X``                             the seat that drew     its turn (``draw``)
``discard``            ``3 p PLAY X`` (``PLAY PASS q``:    every other seat       a claim (``discard``); after a
                       the PASS names seat q)                                     special tile nothing (``PASS``)
``pong`` / ``chow``    ``3 p PENG X`` / ``3 p CHI L``       every seat             its turn to discard (``draw``)
                       (L: the run's lowest)                                      for p itself, else ``PASS``
``ron`` / ``self_…``   nothing: the game is over
=====================  ==================================  =====================  ===============================

Responses (:func:`parse_response`, :func:`format_response`):

==============  ==================================================  ===============================================
request kind    response                                            action
==============  ==================================================  ===============================================
``pass``        ``PASS``                                            ``Action("pass")``
``draw``        ``PLAY Y`` / ``PLAY PASS q`` / ``HU``               ``discard`` (``target`` q) / ``self_drawn``
``discard``     ``PASS`` / ``PENG`` / ``CHI L`` / ``HU``            ``pass`` / ``pong`` / ``chow`` L / ``ron``
==============  ==================================================  ===============================================

>>> from mjarena.variants.base import Event
>>> deal = [Event("deal", seat, (k,)) for k in range(13) for seat in (1, 2)]
>>> events = deal + [Event("draw", 0, (30,)), Event("discard", 0, (34,), 2), Event("draw", 1, (4,)),
...                  Event("discard", 1, (4,)), Event("chow", 2, (3, 4, 5))]
>>> [r.text for r in requests_for(events, 2)][:3]
['0 2', '1 1M 2M 3M 4M 5M 6M 7M 8M 9M 1P 2P 3P 4P', '3 0 PLAY PASS 2']
>>> [(r.text, r.kind) for r in requests_for(events, 1)][3:]
[('2 5M', 'draw'), ('3 2 CHI 4M', 'pass')]
>>> [(r.text, r.kind) for r in requests_for(events, 2, start=28)]
[('3 1 PLAY 5M', 'discard'), ('3 2 CHI 4M', 'draw')]
>>> parse_response("play pass 3", "draw"), parse_response("HU", "discard")
(Action(type='discard', tile=34, target=3, tiles=()), Action(type='ron', tile=None, target=None, tiles=()))
"""

from __future__ import annotations

from collections.abc import Sequence

from mjarena.protocol.botzone import (  # the framing and the answer checks are NOI 2014's
    KEEP_RUNNING,
    Request,
    bad_output,
    check_pass,
    decode_output,
    encode_input,
    encode_output,
    encode_request,
)
from mjarena.tiles import PASS, STANDARD_KINDS, WILD, TileError, format_tile, parse_tile
from mjarena.variants.base import Action, Event

__all__ = [
    "KEEP_RUNNING",
    "Request",
    "check_pass",
    "decode_output",
    "encode_input",
    "encode_output",
    "encode_request",
    "format_response",
    "parse_response",
    "requests_for",
    "stage_kind",
]

_STAGE_KINDS = {"discard": "draw", "claim": "discard"}


def stage_kind(stage: str) -> str:
    """The kind of request that carries a decision of the given engine stage.

    >>> stage_kind("discard"), stage_kind("claim")
    ('draw', 'discard')
    """
    try:
        return _STAGE_KINDS[stage]
    except KeyError:
        raise ValueError(f"no thupc request carries a decision of stage {stage!r}") from None


def _name(kind: int) -> str:
    return format_tile(kind, "thupc")


def requests_for(events: Sequence[Event], seat: int, start: int = 0) -> list[Request]:
    """The requests ``seat`` receives for ``events[start:]`` (the deal is told once, at its last tile)."""
    requests: list[Request] = []
    dealt: list[int] = []
    for index, event in enumerate(events):
        kind, player = event.type, event.seat
        if kind == "deal":
            if player == seat:
                dealt.extend(event.tiles)
                if len(dealt) == 13 and index >= start:
                    requests.append(Request(f"0 {seat}", "pass", index))
                    requests.append(Request(" ".join(["1", *map(_name, dealt)]), "pass", index))
            continue
        if index < start:
            continue
        if kind == "draw" and player == seat:
            requests.append(Request(f"2 {_name(event.tiles[0])}", "draw", index))
        elif kind == "discard" and player != seat:
            tile = event.tiles[0]
            if tile == PASS:
                requests.append(Request(f"3 {player} PLAY PASS {event.target}", "pass", index))
            else:
                claimable = tile < STANDARD_KINDS
                requests.append(Request(f"3 {player} PLAY {_name(tile)}", "discard" if claimable else "pass", index))
        elif kind in ("pong", "chow"):
            verb = "PENG" if kind == "pong" else "CHI"
            text = f"3 {player} {verb} {_name(event.tiles[0])}"
            requests.append(Request(text, "draw" if player == seat else "pass", index))
    return requests


def _tile(token: str, position: int, text: str, request: str | None) -> int:
    try:
        kind = parse_tile(token.upper(), "thupc")
    except TileError as error:
        raise bad_output(f"{error} (token {position})", text, request) from None
    if kind == WILD:
        raise bad_output(f"no {token!r} tile in the THUPC rules (token {position})", text, request)
    return kind


def parse_response(text: str, kind: str, request: str | None = None) -> Action:
    """The action a response stands for; :class:`BotBadOutput` if it is none of the forms.

    ``HU`` is a self-drawn win when it answers a ``draw`` request, a RON otherwise.  A form that does not belong
    to the request is parsed all the same and left to the rules, which reject it as illegal.

    >>> parse_response("CHI 3S", "discard"), parse_response("PENG", "discard").type
    (Action(type='chow', tile=20, target=None, tiles=()), 'pong')
    >>> parse_response("PLAY PASS", "draw")
    Traceback (most recent call last):
    ...
    mjarena.agents.errors.BotBadOutput: bad_output: response 'PLAY PASS': PLAY PASS names a seat: PLAY PASS 0..3
    """
    tokens = text.split()
    if not tokens:
        raise bad_output("empty response", text, request)
    verb, arguments = tokens[0].upper(), tokens[1:]
    if verb in ("PASS", "HU", "PENG"):
        if arguments:
            raise bad_output(f"{verb} takes nothing after it", text, request)
        if verb == "HU":
            return Action("self_drawn" if kind == "draw" else "ron")
        return Action("pass" if verb == "PASS" else "pong")
    if verb == "CHI":
        if len(arguments) != 1:
            raise bad_output("CHI takes one tile (the run's lowest)", text, request)
        return Action("chow", _tile(arguments[0], 2, text, request))
    if verb == "PLAY":
        if not arguments:
            raise bad_output("PLAY takes a tile", text, request)
        tile = _tile(arguments[0], 2, text, request)
        if tile == PASS:
            if len(arguments) != 2 or arguments[1] not in ("0", "1", "2", "3"):
                raise bad_output("PLAY PASS names a seat: PLAY PASS 0..3", text, request)
            return Action("discard", tile, int(arguments[1]))
        if len(arguments) != 1:
            raise bad_output("PLAY takes exactly one tile", text, request)
        return Action("discard", tile)
    raise bad_output(f"unknown verb {tokens[0]!r} (PASS, PLAY, CHI, PENG, HU)", text, request)


def format_response(action: Action) -> str:
    """The response string of an action (the inverse of :func:`parse_response`).

    >>> [format_response(a) for a in (Action("pass"), Action("discard", 34, 1), Action("chow", 0), Action("ron"))]
    ['PASS', 'PLAY PASS 1', 'CHI 1M', 'HU']
    """
    verb = action.type
    if verb in ("self_drawn", "ron"):
        return "HU"
    if verb == "pass":
        return "PASS"
    if verb == "pong":
        return "PENG"
    if verb == "chow" and action.tile is not None:
        return f"CHI {_name(action.tile)}"
    if verb == "discard" and action.tile is not None:
        if action.tile == PASS:
            return f"PLAY PASS {action.target}"
        return f"PLAY {_name(action.tile)}"
    raise ValueError(f"{action} has no thupc response")
