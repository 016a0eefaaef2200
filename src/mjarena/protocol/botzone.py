"""The NOI 2014 / Botzone bot protocol as strings: requests, responses and the JSON framing.  No I/O here.

Requests one seat receives (one per judge turn, always answered), as views of the event stream of
:mod:`mjarena.variants.noi2014`.  Tiles are NOI names ``W1``..``W9``, ``B1``..``B9``, ``T1``..``T9``.

========================  ===========================  ========================  =====================
event                     request                      to whom                   the answer carries
========================  ===========================  ========================  =====================
``deal``                  ``0 id`` then ``1 t1 … t13``  the seat dealt            nothing (``PASS``)
``draw`` / ``draw_back``  ``2 X``                      the seat that drew        its turn (``draw``)
``play``                  ``3 p PLAY X``               every other seat still in a claim (``discard``)
``peng``                  ``3 p PENG X``               every other seat still in nothing (``PASS``)
``gang`` / ``angang`` /   ``3 p GANG X``               every other seat still in nothing (``PASS``)
``bugang`` /
``gang_on_peng``
``hu``                    ``3 p HU X``                 every other seat still in nothing (``PASS``)
``hu_self``               ``3 p HU SELF``              every other seat still in nothing (``PASS``)
``exhausted``             ``4``                        every seat still in       its target (``target``)
========================  ===========================  ========================  =====================

A bot is never told of its own action, and a seat that has won (``hu``/``hu_self``) or left by a false HU
(``false_hu``) receives nothing more.

Responses (:func:`parse_response`, :func:`format_response`), by the kind of request they answer:

==============  ================================================================  ==========================
request kind    response                                                          action
==============  ================================================================  ==========================
``pass``        ``PASS``                                                          ``Action("pass")``
``draw``        ``PLAY Y`` / ``GANG Y`` / ``HU``                                  ``play`` / ``gang`` / ``hu``
``discard``     ``PASS`` / ``PENG Y`` / ``GANG`` / ``HU``                         ``pass`` / ``peng`` / ...
``target``      ``T1 T2 … W9`` (the target hand, melded tiles included)           ``Action("target", tiles)``
==============  ================================================================  ==========================

Letter case is ignored throughout (``play w2``, ``t2 t2 t2``), and so is extra white space.  Text that is none of
these forms is ``bad_output`` (:class:`~mjarena.agents.errors.BotBadOutput`, the detail quotes the text).  A
form of the table that does not belong to this request (``PASS`` to a ``2 X``, ``PLAY Y`` to a discard) is
parsed into its action all the same and left to the rules, which reject it as an illegal action; the one
exception is a ``pass`` request, where anything but ``PASS`` is refused here (:func:`check_pass`).  At ``4``
only a list of tile names is a target; whether it is a winning shape is the rules' business (a malformed
target ranks with the worst distance).

JSON framing (restart mode, the spec's): the bot reads one line :func:`encode_input` (the whole history; one
more request than responses) and prints one line ``{"response": "...", "data": "..."}`` (:func:`decode_output`;
``data`` optional).  Keep-running mode (Botzone's): after its answer the bot prints :data:`KEEP_RUNNING`; its
next request then comes alone, JSON-encoded on one line (:func:`encode_request`).

>>> from mjarena.variants.base import Event
>>> events = [Event("deal", 0, (0, 1, 2, 9, 10, 11, 18, 19, 20, 26, 26, 8, 8)), Event("draw", 0, (4,)),
...           Event("play", 0, (4,)), Event("play", 1, (13,))]
>>> [(r.text, r.kind) for r in requests_for(events, 0)]  # doctest: +NORMALIZE_WHITESPACE
[('0 0', 'pass'), ('1 W1 W2 W3 B1 B2 B3 T1 T2 T3 T9 T9 W9 W9', 'pass'), ('2 W5', 'draw'),
 ('3 1 PLAY B5', 'discard')]
>>> parse_response("peng t2", "discard")
Action(type='peng', tile=19, target=None, tiles=())
>>> format_response(Action("gang", 20))
'GANG T3'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from mjarena.agents.errors import BotBadOutput, IllegalAnswer
from mjarena.tiles import format_tile
from mjarena.untrusted import excerpt, parse_json, trim_utf8
from mjarena.variants.base import Action, Event

__all__ = [
    "DEBUG_LIMIT",
    "KEEP_RUNNING",
    "PASS",
    "Output",
    "Request",
    "RequestKind",
    "check_pass",
    "decode_output",
    "encode_input",
    "encode_output",
    "encode_request",
    "format_response",
    "parse_noi_tile",
    "parse_response",
    "request_kind",
    "requests_for",
    "stage_kind",
]

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
"""The line a bot prints after its answer to be kept running (Botzone's convention)."""

PASS = "PASS"

RequestKind = Literal["pass", "draw", "discard", "target"]
"""What a request asks for: ``pass`` (acknowledge only), ``draw`` (its turn after drawing), ``discard`` (a claim
on another player's discard), ``target`` (its target hand at an exhausted wall)."""

_STAGE_KINDS: dict[str, RequestKind] = {"draw": "draw", "claim": "discard", "target": "target"}
_EXCERPT = 120
_OUTPUT_EXCERPT = 80  # a whole output line is quoted shorter: the detail names its problem besides

DEBUG_LIMIT = 4096
"""Bytes of UTF-8 kept of a bot's ``debug`` per answer."""


class Request(NamedTuple):
    """One request for one seat: its ``text``, its ``kind`` and the index in the events of the one it reports
    (``event_index``: a field named ``index`` would hide the tuple's method)."""

    text: str
    kind: RequestKind
    event_index: int


def stage_kind(stage: str) -> RequestKind:
    """The kind of request that carries a decision of the given engine stage.

    >>> stage_kind("claim")
    'discard'
    """
    try:
        return _STAGE_KINDS[stage]
    except KeyError:
        raise ValueError(f"no Botzone request carries a decision of stage {stage!r}") from None


def _tile(kind: int) -> str:
    return format_tile(kind, "noi")


def requests_for(events: Sequence[Event], seat: int, start: int = 0) -> list[Request]:
    """The requests ``seat`` receives for ``events[start:]`` (the events before ``start`` only set its status).

    >>> from mjarena.variants.base import Event
    >>> events = [Event("play", 2, (20,)), Event("peng", 3, (20,)), Event("play", 3, (0,)),
    ...           Event("hu", 1, (0,), 3), Event("angang", 0, (9,)), Event("draw_back", 0, (5,)),
    ...           Event("hu_self", 0, (5,)), Event("exhausted")]
    >>> [r.text for r in requests_for(events, 1)]
    ['3 2 PLAY T3', '3 3 PENG T3', '3 3 PLAY W1']
    >>> [r.text for r in requests_for(events, 2, start=3)]
    ['3 1 HU W1', '3 0 GANG B1', '3 0 HU SELF', '4']
    """
    status_in = True
    requests: list[Request] = []
    for index, event in enumerate(events):
        if not status_in:
            break
        own = event.seat == seat
        emit = index >= start
        kind = event.type
        if own:
            if kind == "deal" and emit:
                requests.append(Request(f"0 {seat}", "pass", index))
                text = " ".join(["1", *map(_tile, event.tiles)])
                requests.append(Request(text, "pass", index))
            elif kind in ("draw", "draw_back") and emit:
                requests.append(Request(f"2 {_tile(event.tiles[0])}", "draw", index))
            elif kind in ("hu", "hu_self", "false_hu"):
                status_in = False
            continue
        if not emit:
            continue
        player = event.seat
        if kind == "play":
            requests.append(Request(f"3 {player} PLAY {_tile(event.tiles[0])}", "discard", index))
        elif kind == "peng":
            requests.append(Request(f"3 {player} PENG {_tile(event.tiles[0])}", "pass", index))
        elif kind in ("gang", "angang", "bugang", "gang_on_peng"):
            requests.append(Request(f"3 {player} GANG {_tile(event.tiles[0])}", "pass", index))
        elif kind == "hu":
            requests.append(Request(f"3 {player} HU {_tile(event.tiles[0])}", "pass", index))
        elif kind == "hu_self":
            requests.append(Request(f"3 {player} HU SELF", "pass", index))
        elif kind == "exhausted":
            requests.append(Request("4", "target", index))
    return requests


def request_kind(text: str) -> RequestKind:
    """The kind of a request string (for replays and for checking a transcript).

    >>> [request_kind(t) for t in ("0 2", "2 T3", "3 1 PLAY W2", "3 1 HU SELF", "4")]
    ['pass', 'draw', 'discard', 'pass', 'target']
    """
    tokens = text.split()
    head = tokens[0] if tokens else ""
    if head in ("0", "1"):
        return "pass"
    if head == "2" and len(tokens) == 2:
        return "draw"
    if head == "3" and len(tokens) == 4:
        return "discard" if tokens[2] == "PLAY" else "pass"
    if head == "4" and len(tokens) == 1:
        return "target"
    raise ValueError(f"not a NOI 2014 request: {text!r}")


def _excerpt(text: str) -> str:
    return excerpt(text, _EXCERPT)


def parse_noi_tile(token: str) -> int:
    """The kind of a NOI tile name, any letter case (``W1``..``W9``, ``B1``..``B9``, ``T1``..``T9``).

    >>> parse_noi_tile("b4"), parse_noi_tile("T6")
    (12, 23)
    >>> parse_noi_tile("Z1")
    Traceback (most recent call last):
    ...
    ValueError: unknown tile name 'Z1'
    """
    name = token.upper()
    if len(name) == 2 and name[0] in "WBT" and name[1] in "123456789":
        return "WBT".index(name[0]) * 9 + int(name[1]) - 1
    raise ValueError(f"unknown tile name {token!r}")


def _tiles(tokens: Sequence[str], text: str, request: str | None, first: int = 1) -> tuple[int, ...]:
    kinds = []
    for position, token in enumerate(tokens, start=first):
        try:
            kinds.append(parse_noi_tile(token))
        except ValueError as error:
            raise bad_output(f"{error} (token {position})", text, request) from None
    return tuple(kinds)


def bad_output(problem: str, text: str, request: str | None) -> BotBadOutput:
    to = f" to {request!r}" if request is not None else ""
    return BotBadOutput(f"response {_excerpt(text)}{to}: {problem}", request=request)


_ARITY = {"PASS": (0,), "HU": (0,), "PLAY": (1,), "PENG": (1,), "GANG": (0, 1)}


def parse_response(text: str, kind: RequestKind, request: str | None = None) -> Action:
    """The action a response stands for, answering a request of ``kind``; :class:`BotBadOutput` if malformed.

    ``request`` (the request text) only makes error messages clearer.

    >>> parse_response("PLAY W2", "draw"), parse_response("GANG", "discard").type
    (Action(type='play', tile=1, target=None, tiles=()), 'gang')
    >>> parse_response("t1 t1 t1 W2 W3 W4 b5 B5 B5 B7 B8 B9 T9 T9", "target").tiles[:4]
    (18, 18, 18, 1)
    >>> parse_response("PLAY X9", "draw", request="2 T3")
    Traceback (most recent call last):
    ...
    mjarena.agents.errors.BotBadOutput: bad_output: response 'PLAY X9' to '2 T3': unknown tile name 'X9' (token 2)
    >>> parse_response("HU W1", "discard")
    Traceback (most recent call last):
    ...
    mjarena.agents.errors.BotBadOutput: bad_output: response 'HU W1': HU takes no tile
    """
    tokens = text.split()
    if not tokens:
        raise bad_output("empty response", text, request)
    if kind == "target":
        if tokens[0].upper() in _ARITY:
            raise bad_output(f"the answer to 4 is a target hand (tile names), not {tokens[0].upper()}", text, request)
        return Action("target", tiles=_tiles(tokens, text, request))
    verb = tokens[0].upper()
    arity = _ARITY.get(verb)
    if arity is None:
        try:
            tiles = tuple(parse_noi_tile(token) for token in tokens)
        except ValueError:
            raise bad_output(f"unknown verb {tokens[0]!r} (PASS, PLAY, PENG, GANG, HU)", text, request) from None
        return Action("target", tiles=tiles)  # a target out of turn: well formed, the rules refuse it
    arguments = tokens[1:]
    if len(arguments) not in arity:
        if arity == (0,):
            raise bad_output(f"{verb} takes no tile", text, request)
        if arity == (1,):
            raise bad_output(f"{verb} takes exactly one tile", text, request)
        raise bad_output(f"{verb} takes at most one tile", text, request)
    tile = _tiles(arguments, text, request, first=2)[0] if arguments else None
    return Action(verb.lower(), tile)


def format_response(action: Action) -> str:
    """The response string of an action (the inverse of :func:`parse_response`).

    >>> [format_response(a) for a in (Action("pass"), Action("play", 1), Action("gang"), Action("hu"))]
    ['PASS', 'PLAY W2', 'GANG', 'HU']
    >>> format_response(Action("target", tiles=(18, 19, 20)))
    'T1 T2 T3'
    """
    verb = action.type
    if verb == "target":
        return " ".join(map(_tile, action.tiles))
    if verb in ("pass", "hu"):
        return verb.upper()
    if verb in ("play", "peng"):
        if action.tile is None:
            raise ValueError(f"{action} needs a tile")
        return f"{verb.upper()} {_tile(action.tile)}"
    if verb == "gang":
        return "GANG" if action.tile is None else f"GANG {_tile(action.tile)}"
    raise ValueError(f"{action} has no NOI 2014 response")


def check_pass(action: Action, text: str, request: str) -> None:
    """Raise :class:`IllegalAnswer` unless ``action`` is ``pass``: requests that only inform take only PASS.

    >>> check_pass(Action("hu"), "HU", "3 2 PENG W2")
    Traceback (most recent call last):
    ...
    mjarena.agents.errors.IllegalAnswer: illegal_action: 'HU' to '3 2 PENG W2': only PASS answers this request
    """
    if action.type != "pass":
        raise IllegalAnswer(f"{_excerpt(text)} to {request!r}: only PASS answers this request", request=request)


# -- JSON framing -----------------------------------------------------------------------------------------


def encode_input(
    requests: Sequence[str],
    responses: Sequence[str],
    data: str = "",
    time_limit: str = "",
    memory_limit: str = "",
) -> str:
    """The one-line JSON input of a restarted bot: the whole history, one more request than responses.

    >>> encode_input(["0 1", "1 W1"], ["PASS"], "", "1000", "256")
    '{"requests": ["0 1", "1 W1"], "responses": ["PASS"], "data": "", "time_limit": "1000", "memory_limit": "256"}'
    """
    if len(requests) != len(responses) + 1:
        raise ValueError(f"{len(requests)} requests need {len(requests) - 1} responses, not {len(responses)}")
    return json.dumps(
        {
            "requests": list(requests),
            "responses": list(responses),
            "data": data,
            "time_limit": time_limit,
            "memory_limit": memory_limit,
        }
    )


def encode_request(request: str) -> str:
    """A bare request for a kept-running bot: the string JSON-encoded, quotes included.

    >>> print(encode_request("2 T3"))
    "2 T3"
    """
    return json.dumps(request)


def encode_output(response: str, data: str | None = None) -> str:
    """A bot's one-line output (what the example bots print).

    >>> encode_output("PASS")
    '{"response": "PASS"}'
    """
    output: dict[str, Any] = {"response": response}
    if data is not None:
        output["data"] = data
    return json.dumps(output)


class Output(NamedTuple):
    """What a bot's output line says: its ``response``, its ``data`` (None when left out) and its ``debug``
    (Botzone's field for the bot's own log: None when left out; trimmed to :data:`DEBUG_LIMIT` bytes; a value
    that is not a string is kept as its JSON text)."""

    response: str
    data: str | None = None
    debug: str | None = None


_globaldata_said: list[bool] = []


def _say_globaldata_dropped() -> None:
    """Say once per judge process, in one line on stderr, that a bot's ``globaldata`` is dropped: Botzone keeps
    it across games, mjarena keeps none by design (no memory from one game to the next: a replayed game would be
    one the bot knows)."""
    if not _globaldata_said:
        _globaldata_said.append(True)
        print('mjarena: a bot printed "globaldata" (data Botzone keeps across games): dropped, every game starts '
              "with none (docs/protocol.md)", file=sys.stderr)


def decode_output(text: str, request: str | None = None) -> Output:
    """The :class:`Output` in a bot's output; :class:`BotBadOutput` with a short detail if it is not an answer.

    Any text is judged, none raises anything else: deep nesting, huge numbers, NUL bytes, lone surrogates (which
    come back as U+FFFD, see :func:`mjarena.untrusted.parse_json`).

    >>> decode_output('{"response": "PLAY W2", "data": "x"}\\n')
    Output(response='PLAY W2', data='x', debug=None)
    >>> decode_output('{"response": "PASS", "debug": {"think": [1, 2]}}').debug
    '{"think": [1, 2]}'
    >>> decode_output('{"data": "x"}')
    Traceback (most recent call last):
    ...
    mjarena.agents.errors.BotBadOutput: bad_output: output '{"data": "x"}' has no "response" key
    >>> decode_output("[" * 10_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjarena.agents.errors.BotBadOutput: bad_output: output '[[[[...[[[…' is not JSON (nested too deeply)
    """
    stripped = text.strip()
    where = f" to {request!r}" if request is not None else ""
    if not stripped:
        raise BotBadOutput(f"printed nothing{where}", request=request)
    shown = excerpt(stripped, _OUTPUT_EXCERPT)
    try:
        value = parse_json(stripped)
    except ValueError as error:
        raise BotBadOutput(f"output {shown}{where} is not JSON ({error})", request=request) from None
    if not isinstance(value, dict):
        raise BotBadOutput(f"output {shown}{where} is not a JSON object", request=request)
    if "response" not in value:
        raise BotBadOutput(f'output {shown}{where} has no "response" key', request=request)
    response = value["response"]
    if not isinstance(response, str):
        raise BotBadOutput(f'"response" of {shown}{where} is not a string', request=request)
    data = value.get("data")
    if data is not None and not isinstance(data, str):
        raise BotBadOutput(f'"data" of {shown}{where} is not a string', request=request)
    if "globaldata" in value:
        _say_globaldata_dropped()
    debug = value.get("debug")
    if debug is not None:
        debug = trim_utf8(debug if isinstance(debug, str) else json.dumps(debug, ensure_ascii=False), DEBUG_LIMIT)
    return Output(response, data, debug)
