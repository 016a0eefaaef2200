"""The 百搭 (baida) bot protocol as strings: the NOI 2014 requests and responses extended with CHI, honours and
BAIDA.  No I/O here; the JSON framing is NOI's (:mod:`mjarena.protocol.botzone`, re-exported).

Tiles: ``W1``..``W9`` (万), ``B1``..``B9`` (筒), ``T1``..``T9`` (条) as in NOI 2014; the honours by Botzone's
Chinese-standard names, ``F1``..``F4`` (东 南 西 北) and ``J1``..``J3`` (中 发 白); the wildcard ``BAIDA``.
Letter case is ignored in answers.

Requests one seat receives, as views of the events of :mod:`mjarena.variants.baida`:

========================  ==============================  =========================  =====================
event                     request                         to whom                    the answer carries
========================  ==============================  =========================  =====================
``deal``                  ``0 id`` then ``1 t1 … t13``     the seat dealt             nothing (``PASS``)
``deal`` (dealer)         also ``2 X``: its 14th tile      the dealer                 its turn (``draw``)
``draw`` / ``draw_back``  ``2 X``                         the seat that drew         its turn (``draw``)
``play``                  ``3 p PLAY X``                  every other seat           a claim (``discard``)
``chi``                   ``3 p CHI L`` (L: run's lowest) every other seat           nothing (``PASS``)
``peng``                  ``3 p PENG X``                  every other seat           nothing (``PASS``)
``gang`` / ``angang`` /   ``3 p GANG X``                  every other seat           nothing (``PASS``)
``bugang``
``hu``                    ``3 p HU X``                    every other seat           nothing (``PASS``)
``hu_self``               ``3 p HU SELF``                 every other seat           nothing (``PASS``)
========================  ==============================  =========================  =====================

``dice``, ``score``, ``exhausted`` and ``end`` send nothing (the hand is over, or nothing is asked).  A seat is
never told of its own action; after a ``CHI``/``PENG`` the claimer's discard follows as ``3 p PLAY Y``.

Responses (:func:`parse_response`, :func:`format_response`):

==============  =====================================================================  ==========================
request kind    response                                                               action
==============  =====================================================================  ==========================
``pass``        ``PASS``                                                               ``Action("pass")``
``draw``        ``PLAY Y`` / ``GANG Y`` / ``HU``                                       ``play`` / ``gang`` / ``hu``
``discard``     ``PASS`` / ``PENG Y`` / ``GANG`` / ``CHI L Y`` / ``HU``                ``chi``: ``Action("chi", L,
                                                                                       tiles=(Y,))``
==============  =====================================================================  ==========================

>>> from mjarena.variants.base import Event
>>> events = [Event("dice", 0, (3, 4)), Event("deal", 1, tuple(range(13))), Event("play", 0, (37,)),
...           Event("chi", 2, (4, 5, 6), 1), Event("play", 2, (33,)), Event("draw", 1, (27,))]
>>> [r.text for r in requests_for(events, 1)]  # doctest: +NORMALIZE_WHITESPACE
['0 1', '1 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4', '3 0 PLAY BAIDA', '3 2 CHI W5', '3 2 PLAY J1', '2 F1']
>>> parse_response("chi w5 j2", "discard")
Action(type='chi', tile=4, target=None, tiles=(32,))
>>> format_response(Action("chi", 4, tiles=(37,)))
'CHI W5 BAIDA'
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
from mjarena.tiles import WILD
from mjarena.variants.base import Action, Event

__all__ = [
    "KEEP_RUNNING",
    "TILE_NAMES",
    "Request",
    "check_pass",
    "decode_output",
    "encode_input",
    "encode_output",
    "encode_request",
    "format_response",
    "format_tile",
    "parse_response",
    "parse_tile",
    "request_kind",
    "requests_for",
    "stage_kind",
]

TILE_NAMES: dict[int, str] = {kind: f"{'WBT'[kind // 9]}{kind % 9 + 1}" for kind in range(27)}
TILE_NAMES.update({27: "F1", 28: "F2", 29: "F3", 30: "F4", 33: "J1", 32: "J2", 31: "J3", WILD: "BAIDA"})
"""Kind -> name: ``W1``.. ``T9``, ``F1``..``F4`` (E S W N), ``J1`` 中 (33), ``J2`` 发 (32), ``J3`` 白 (31),
``BAIDA`` (37)."""
_KINDS = {name: kind for kind, name in TILE_NAMES.items()}
_STAGE_KINDS = {"draw": "draw", "claim": "discard"}


def stage_kind(stage: str) -> str:
    """The kind of request that carries a decision of the given engine stage.

    >>> stage_kind("claim")
    'discard'
    """
    try:
        return _STAGE_KINDS[stage]
    except KeyError:
        raise ValueError(f"no baida request carries a decision of stage {stage!r}") from None


def format_tile(kind: int) -> str:
    """The protocol name of a kind.

    >>> format_tile(0), format_tile(27), format_tile(33), format_tile(37)
    ('W1', 'F1', 'J1', 'BAIDA')
    """
    try:
        return TILE_NAMES[kind]
    except KeyError:
        raise ValueError(f"tile kind {kind!r} has no baida name") from None


def parse_tile(token: str) -> int:
    """The kind of a protocol tile name, any letter case.

    >>> parse_tile("j3"), parse_tile("baida"), parse_tile("T9")
    (31, 37, 26)
    >>> parse_tile("Z1")
    Traceback (most recent call last):
    ...
    ValueError: unknown tile name 'Z1'
    """
    kind = _KINDS.get(token.upper())
    if kind is None:
        raise ValueError(f"unknown tile name {token!r}")
    return kind


def requests_for(events: Sequence[Event], seat: int, start: int = 0) -> list[Request]:
    """The requests ``seat`` receives for ``events[start:]``.

    >>> from mjarena.variants.base import Event
    >>> events = [Event("deal", 0, tuple(range(14))), Event("play", 0, (13,)), Event("peng", 2, (13,), 0),
    ...           Event("play", 2, (0,)), Event("angang", 3, (9,)), Event("draw_back", 3, (5,)),
    ...           Event("hu_self", 3, (5,)), Event("score", 3, target=1), Event("end")]
    >>> [(r.text, r.kind) for r in requests_for(events, 0)][1:]  # doctest: +NORMALIZE_WHITESPACE
    [('1 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4', 'pass'), ('2 B5', 'draw'), ('3 2 PENG B5', 'pass'),
     ('3 2 PLAY W1', 'discard'), ('3 3 GANG B1', 'pass'), ('3 3 HU SELF', 'pass')]
    """
    requests: list[Request] = []
    for index, event in enumerate(events):
        kind = event.type
        if event.seat == seat:
            if kind in ("hu", "hu_self"):
                break
            if index < start:
                continue
            if kind == "deal":
                requests.append(Request(f"0 {seat}", "pass", index))
                requests.append(Request(" ".join(["1", *map(format_tile, event.tiles[:13])]), "pass", index))
                if len(event.tiles) == 14:
                    requests.append(Request(f"2 {format_tile(event.tiles[13])}", "draw", index))
            elif kind in ("draw", "draw_back"):
                requests.append(Request(f"2 {format_tile(event.tiles[0])}", "draw", index))
            continue
        if index < start or event.seat is None:
            continue
        player = event.seat
        if kind == "play":
            requests.append(Request(f"3 {player} PLAY {format_tile(event.tiles[0])}", "discard", index))
        elif kind == "chi":
            requests.append(Request(f"3 {player} CHI {format_tile(event.tiles[0])}", "pass", index))
        elif kind == "peng":
            requests.append(Request(f"3 {player} PENG {format_tile(event.tiles[0])}", "pass", index))
        elif kind in ("gang", "angang", "bugang"):
            requests.append(Request(f"3 {player} GANG {format_tile(event.tiles[0])}", "pass", index))
        elif kind == "hu":
            requests.append(Request(f"3 {player} HU {format_tile(event.tiles[0])}", "pass", index))
        elif kind == "hu_self":
            requests.append(Request(f"3 {player} HU SELF", "pass", index))
    return requests


def request_kind(text: str) -> str:
    """The kind of a request string.

    >>> [request_kind(t) for t in ("0 2", "2 BAIDA", "3 1 PLAY J1", "3 1 CHI W1", "3 1 HU SELF")]
    ['pass', 'draw', 'discard', 'pass', 'pass']
    """
    tokens = text.split()
    head = tokens[0] if tokens else ""
    if head in ("0", "1"):
        return "pass"
    if head == "2" and len(tokens) == 2:
        return "draw"
    if head == "3" and len(tokens) == 4:
        return "discard" if tokens[2] == "PLAY" else "pass"
    raise ValueError(f"not a baida request: {text!r}")


_ARITY = {"PASS": (0,), "HU": (0,), "PLAY": (1,), "PENG": (1,), "GANG": (0, 1), "CHI": (2,)}


def parse_response(text: str, kind: str, request: str | None = None) -> Action:
    """The action a response stands for; :class:`BotBadOutput` if it is none of the forms.

    ``kind`` (the request's kind) is accepted for symmetry with NOI; a form that does not belong to the request
    is parsed all the same and left to the rules, which reject it as illegal.

    >>> parse_response("PLAY baida", "draw"), parse_response("GANG", "discard").type
    (Action(type='play', tile=37, target=None, tiles=()), 'gang')
    >>> parse_response("CHI W1", "discard")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjarena.agents.errors.BotBadOutput: bad_output: response 'CHI W1': CHI takes two tiles (the run's lowest, ...)
    """
    tokens = text.split()
    if not tokens:
        raise bad_output("empty response", text, request)
    verb = tokens[0].upper()
    arity = _ARITY.get(verb)
    if arity is None:
        raise bad_output(f"unknown verb {tokens[0]!r} (PASS, PLAY, CHI, PENG, GANG, HU)", text, request)
    arguments = tokens[1:]
    if len(arguments) not in arity:
        problem = {
            (0,): "takes no tile",
            (1,): "takes exactly one tile",
            (0, 1): "takes at most one tile",
            (2,): "takes two tiles (the run's lowest, then the discard)",
        }[arity]
        raise bad_output(f"{verb} {problem}", text, request)
    kinds = []
    for position, token in enumerate(arguments, start=2):
        try:
            kinds.append(parse_tile(token))
        except ValueError as error:
            raise bad_output(f"{error} (token {position})", text, request) from None
    if verb == "CHI":
        return Action("chi", kinds[0], tiles=(kinds[1],))
    return Action(verb.lower(), kinds[0] if kinds else None)


def format_response(action: Action) -> str:
    """The response string of an action (the inverse of :func:`parse_response`).

    >>> [format_response(a) for a in (Action("pass"), Action("play", 37), Action("gang"), Action("peng", 27))]
    ['PASS', 'PLAY BAIDA', 'GANG', 'PENG F1']
    """
    verb = action.type
    if verb in ("pass", "hu"):
        return verb.upper()
    if verb in ("play", "peng") and action.tile is not None:
        return f"{verb.upper()} {format_tile(action.tile)}"
    if verb == "gang":
        return "GANG" if action.tile is None else f"GANG {format_tile(action.tile)}"
    if verb == "chi" and action.tile is not None and len(action.tiles) == 1:
        return f"CHI {format_tile(action.tile)} {format_tile(action.tiles[0])}"
    raise ValueError(f"{action} has no baida response")
