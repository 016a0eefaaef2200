"""Replays: a saved game (rules, wall, seats, every decision and every bot request/response with its
timing) that can be read back, checked and played again.

A replay is one JSON object (see :meth:`MatchResult.to_json`).  Playing it again feeds
the recorded answers back to the rules engine from the recorded wall; the events must come out the same.

Replays come from users, so reading one never ends in a traceback: :func:`load` checks the whole structure
(:func:`check`: types, seats, tile names, every event writable as the rule set's log) and every problem is a
:class:`ReplayError` naming the file and the place in it.

>>> from mjarena.arena.match import run_match
>>> data = run_match(["builtin:random", "builtin:greedy"] * 2, seed=3).to_json()
>>> replay_game(data).events == load_events(data)
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mjarena.agents.errors import AgentError
from mjarena.files import write_atomically
from mjarena.formats import event_dict, event_from_dict
from mjarena.rulesets import judge_rules
from mjarena.tiles import TileError, format_tile, parse_tile, parse_tiles
from mjarena.untrusted import excerpt, parse_json
from mjarena.variants.base import Action, Event, play

__all__ = ["HAND_TILES", "MAX_DEAL", "MAX_TAI", "MELD_TILES", "MatchResult", "ReplayError", "SeatOutcome", "check",
           "load", "load_events", "max_decisions", "max_events", "replay_game", "save"]


class ReplayError(ValueError):
    """A replay file that cannot be read, or whose game does not play out as recorded."""


@dataclass
class SeatOutcome:
    """What became of one seat: the result vocabulary of RULINGS.md."""

    seat: int
    bot: str
    status: str  # won | in | error
    reason: str | None = None
    detail: str | None = None
    rank: int = 0
    points: float = 0.0
    target: list[str] | None = None
    distance: int | None = None
    chance: int | None = None
    peak_mib: float | None = None  # a program's peak resident memory over the game (left out of a replay if None)


@dataclass
class MatchResult:
    """A played game: what :func:`mjarena.arena.match.run_match` gives back, and its replay (:meth:`to_json`)."""

    rules: str
    seed: int | None
    wall: list[int]
    seats: list[SeatOutcome]
    events: list[Any]
    decisions: list[dict[str, Any]] = field(default_factory=list)
    transcripts: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The match's JSON: ``seed``, ``wall`` (tile names), ``seats``, ``events``, and the replay data."""
        notation = judge_rules(self.rules).notation
        return {
            "format": "mjarena-replay",
            "version": 1,
            "rules": self.rules,
            "seed": self.seed,
            "wall": [format_tile(kind, notation) for kind in self.wall],
            "seats": [{key: value for key, value in asdict(seat).items() if value is not None or key != "peak_mib"}
                      for seat in self.seats],
            "events": [event_dict(event, notation=notation) for event in self.events],
            "decisions": self.decisions,
            "transcripts": {str(seat): lines for seat, lines in self.transcripts.items()},
        }


def save(data: dict[str, Any], path: str | Path, *, sync: bool = True) -> None:
    """Write a replay atomically (see :func:`mjarena.files.write_atomically`, and ``sync`` there), creating its
    folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(data, ensure_ascii=False) + "\n", sync=sync)


def load(path: str | Path) -> dict[str, Any]:
    """Read a replay and :func:`check` it; :class:`ReplayError` ``"FILE: what is wrong (where)"`` otherwise."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise ReplayError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ReplayError(f"{path}: not a replay (not UTF-8 text: byte {error.start + 1})") from None
    try:
        data = parse_json(text)
    except ValueError as error:
        raise ReplayError(f"{path}: not a replay ({error})") from None
    try:
        return check(data)
    except ReplayError as error:
        raise ReplayError(f"{path}: {error}") from None


_SEAT_KEYS: dict[str, tuple[type, ...]] = {
    "seat": (int,), "bot": (str,), "status": (str,), "reason": (str, type(None)), "detail": (str, type(None)),
    "rank": (int,), "points": (int, float), "target": (list, type(None)), "distance": (int, type(None)),
    "chance": (int, type(None)), "peak_mib": (int, float, type(None)),
}
_STATUSES = ("won", "in", "error")


_NAMES = {dict: "an object", list: "a list", str: "a string", int: "an integer", float: "a number",
          bool: "true/false", type(None): "null"}


def _typed(value: object, types: tuple[type, ...], where: str) -> None:
    """Raise :class:`ReplayError` unless ``value``'s type is one of ``types`` (exactly: true is no integer);
    a float must be finite."""
    if type(value) not in types or (type(value) is float and not math.isfinite(value)):
        actual = "not finite" if type(value) is float else _NAMES[type(value)]
        raise ReplayError(f"{where} is {actual}, not {' or '.join(_NAMES[t] for t in types)}")


def _seat_index(value: object, where: str) -> None:
    if value is not None and (type(value) is not int or not 0 <= value < 4):
        raise ReplayError(f"{where} is {excerpt(str(value), 20)}, not a seat 0..3")


def check(data: Any) -> dict[str, Any]:
    """``data`` if it is a replay that can be printed and played again, else :class:`ReplayError` saying what is
    wrong and where.

    >>> check({"format": "mjarena-replay", "rules": "noi2014", "wall": ["W1"], "seats": [], "events": [],
    ...        "decisions": []})
    Traceback (most recent call last):
    ...
    mjarena.replay.ReplayError: the wall: a NOI 2014 wall has 108 tiles (4 of each of 27 kinds), not 1
    """

    if not isinstance(data, dict) or data.get("format") != "mjarena-replay":
        raise ReplayError('not an mjarena replay (no "format": "mjarena-replay")')
    for key in ("rules", "wall", "seats", "events", "decisions"):
        if key not in data:
            raise ReplayError(f"the replay has no {key!r}")
    _typed(data["rules"], (str,), '"rules"')
    try:
        judge = judge_rules(data["rules"])
    except KeyError as error:
        raise ReplayError(f'"rules": {error.args[0]}') from None
    _typed(data.get("seed"), (int, type(None)), '"seed"')
    _typed(data["wall"], (list,), "the wall")
    wall = []
    for position, name in enumerate(data["wall"], 1):
        _typed(name, (str,), f"tile {position} of the wall")
        try:
            wall.append(parse_tile(name, judge.notation))
        except TileError as error:
            raise ReplayError(f"tile {position} of the wall: {error}") from None
    try:
        judge.validate_wall(wall)
    except TileError as error:
        raise ReplayError(f"the wall: {error}") from None
    _typed(data["seats"], (list,), '"seats"')
    if len(data["seats"]) != 4:
        raise ReplayError(f'"seats" lists {len(data["seats"])} seats, not 4')
    known = {field.name for field in SeatOutcome.__dataclass_fields__.values()}
    for index, seat in enumerate(data["seats"]):
        where = f"seat {index}"
        _typed(seat, (dict,), where)
        unknown = sorted(set(seat) - known)
        if unknown:
            raise ReplayError(f"{where} has an unknown key {excerpt(unknown[0], 40)}")
        for key, types in _SEAT_KEYS.items():
            if key in seat or key in ("seat", "bot", "status"):
                _typed(seat.get(key), types, f"{where}: {key!r}")
        if seat["seat"] != index or seat["status"] not in _STATUSES:
            raise ReplayError(f"{where} has \"seat\" {seat['seat']} and \"status\" {excerpt(seat['status'], 20)} "
                              f"(expected {index} and one of {', '.join(_STATUSES)})")
        for position, name in enumerate(seat.get("target") or (), 1):
            _typed(name, (str,), f"{where}: tile {position} of its target")
    _typed(data["events"], (list,), '"events"')
    if len(data["events"]) > max_events(len(wall)):
        raise ReplayError(f'"events": {len(data["events"])} events; a game of {judge.name} on a {len(wall)}-tile '
                          f"wall has at most {max_events(len(wall))}")
    hands = _Hands()
    for number, item in enumerate(data["events"], 1):
        where = f"event {number}"
        _typed(item, (dict,), where)
        _typed(item.get("type"), (str,), f"{where}: its type")
        _seat_index(item.get("seat"), f"{where}: its seat")
        numbers = item["type"] in ("dice", "score")
        _typed(item.get("tiles", []), (list,), f"{where}: its tiles")
        _typed(item.get("dice", []), (list,), f"{where}: its dice")
        for value in item.get("dice", []):
            _typed(value, (int,), f"{where}: a die")
        if not numbers:
            _seat_index(item.get("target"), f"{where}: its target")
        else:
            _typed(item.get("tai"), (int, type(None)), f"{where}: its 台")
        _check_shape(item, where)
        hands.apply(item, where)
        try:
            event = event_from_dict(item, judge.notation)
            judge.log([event])  # every event must be one the rule set's log can write
        except TileError as error:
            raise ReplayError(f"{where}: {error}") from None
        except (KeyError, IndexError, TypeError, ValueError):
            raise ReplayError(f"{where}: not an event of {judge.name} ({excerpt(item['type'], 20)})") from None
    _typed(data["decisions"], (list,), '"decisions"')
    if len(data["decisions"]) > max_decisions(len(wall)):
        raise ReplayError(f'"decisions": {len(data["decisions"])} decisions; a game of {judge.name} on a '
                          f"{len(wall)}-tile wall has at most {max_decisions(len(wall))}")
    for number, item in enumerate(data["decisions"], 1):
        where = f"decision {number}"
        _typed(item, (dict,), where)
        _seat_index(item.get("seat"), f"{where}: its seat")
        for key in ("seat", "stage", "response"):
            _typed(item.get(key), (int,) if key == "seat" else (str,), f"{where}: {key!r}")
    return data


def max_events(wall_tiles: int) -> int:
    """More events than any game on a wall of ``wall_tiles`` tiles can have, in every rule set: each draw takes a
    tile of the wall, each discard follows a draw or a meld, a seat holds at most 4 melds, and the deal, the dice,
    the wins and the scores are a few dozen besides: about 2 events a tile, bounded here by 4 a tile and 64.
    (Longest of 150 games of random and greedy bots: 137 events on NOI 2014's 108 tiles, 262 on THUPC 2021's 148,
    147 on 百搭's 144.)  The viewer's work grows with the square of the events, so a replay with more is refused
    before it is read further.

    >>> max_events(108)
    496
    """
    return 4 * wall_tiles + 64


def max_decisions(wall_tiles: int) -> int:
    """More decisions than any game on a wall of ``wall_tiles`` tiles can ask for: each event asks at most the four
    seats once.  (Longest of 150 games of random and greedy bots: 200 decisions in NOI 2014, 194 in 百搭.)

    >>> max_decisions(108)
    1984
    """
    return 4 * max_events(wall_tiles)


HAND_TILES = 14
"""The most tiles a seat holds concealed: 13, and the one just drawn."""
MAX_DEAL = 14
"""The most tiles one ``deal`` event gives (百搭's dealer is dealt 14; THUPC 2021 deals one at a time)."""
MELD_TILES = 4
"""The most tiles of any other event (a kong)."""
MAX_TAI = 1000
"""The most 台 a score may say (a 百搭 hand scores a few dozen at most)."""
_ONE_TILE = ("draw", "draw_back", "play", "discard")
"""Events that move exactly one tile into or out of a hand."""


def _check_shape(item: dict[str, Any], where: str) -> None:
    """Each event's size as the rules allow it: a deal of 1 to :data:`MAX_DEAL` tiles, a draw or a discard of one
    tile, two dice of 1 to 6, at most :data:`MELD_TILES` tiles otherwise, a 台 total within :data:`MAX_TAI`.  (A
    1 MiB replay with one ``dice`` event of 500,000 numbers made a 500 MB view.)

    >>> _check_shape({"type": "dice", "seat": 0, "dice": [3, 9]}, "event 1")
    Traceback (most recent call last):
    ...
    mjarena.replay.ReplayError: event 1: 2 dice (3, 9), not two dice of 1 to 6
    >>> _check_shape({"type": "deal", "seat": 0, "tiles": ["W1"] * 200}, "event 2")
    Traceback (most recent call last):
    ...
    mjarena.replay.ReplayError: event 2: a deal of 200 tiles; the rules deal 1 to 14 at a time
    """
    kind, tiles, dice = item["type"], item.get("tiles", []), item.get("dice", [])
    if kind == "dice":
        if len(dice) != 2 or not all(1 <= value <= 6 for value in dice):
            shown = ", ".join(map(str, dice[:3])) + (", …" if len(dice) > 3 else "")
            raise ReplayError(f"{where}: {len(dice)} dice ({shown}), not two dice of 1 to 6")
    elif dice:
        raise ReplayError(f"{where}: a {excerpt(kind, 20)} event has no dice")
    if kind == "deal" and not 1 <= len(tiles) <= MAX_DEAL:
        raise ReplayError(f"{where}: a deal of {len(tiles)} tiles; the rules deal 1 to {MAX_DEAL} at a time")
    if kind in _ONE_TILE and len(tiles) != 1:
        raise ReplayError(f"{where}: a {kind} of {len(tiles)} tiles, not one")
    if len(tiles) > MELD_TILES and kind != "deal":
        raise ReplayError(f"{where}: {len(tiles)} tiles; no {excerpt(kind, 20)} event has more than {MELD_TILES}")
    if kind in ("deal", *_ONE_TILE) and item.get("seat") is None:
        raise ReplayError(f"{where}: a {kind} names no seat")
    tai = item.get("tai")
    if kind == "score" and tai is not None and not 0 <= tai <= MAX_TAI:
        raise ReplayError(f"{where}: a score of {excerpt(str(tai), 20)} 台, not 0 to {MAX_TAI}")


class _Hands:
    """How many tiles each seat may hold after each event, within what the rules allow: every tile dealt or
    drawn, less every discard, is at most :data:`HAND_TILES` plus the tiles its melds took from its hand
    (:data:`MELD_TILES` for each of at most four; claims and wins by the seat count as melds here, which only
    loosens the bound).  A deal of 200,000 tiles, or deals and draws without discards, are refused.

    >>> hands = _Hands()
    >>> hands.apply({"type": "deal", "seat": 1, "tiles": ["W1"] * 14}, "event 1")
    >>> hands.apply({"type": "draw", "seat": 1, "tiles": ["W2"]}, "event 2")
    Traceback (most recent call last):
    ...
    mjarena.replay.ReplayError: event 2: seat 1 would hold 15 tiles; the rules allow at most 14 here
    """

    def __init__(self) -> None:
        self.held = [0, 0, 0, 0]
        self.melds = [0, 0, 0, 0]

    def apply(self, item: dict[str, Any], where: str) -> None:
        seat, kind, tiles = item.get("seat"), item["type"], item.get("tiles", [])
        if seat is None:
            return
        if kind in ("deal", "draw", "draw_back"):
            self.held[seat] += len(tiles)
        elif kind in ("play", "discard"):
            self.held[seat] -= 1
        elif tiles:
            self.melds[seat] += 1
        allowed = HAND_TILES + MELD_TILES * min(4, self.melds[seat])
        if self.held[seat] > allowed:
            raise ReplayError(f"{where}: seat {seat} would hold {self.held[seat]} tiles; the rules allow at most "
                              f"{allowed} here")


def load_events(data: dict[str, Any]) -> list[Event]:
    """The recorded events as :class:`Event` records."""

    notation = judge_rules(data["rules"]).notation
    return [event_from_dict(item, notation) for item in data["events"]]


class _Recorded:
    """Answers each decision with the next recorded answer of that seat."""

    def __init__(self, answers: Sequence[Action]) -> None:
        self._answers = iter(answers)

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        try:
            return next(self._answers)
        except StopIteration:
            raise ReplayError(f"the replay has no more recorded answers for seat {seat}") from None


def replay_game(data: dict[str, Any]) -> Any:
    """Play a replay's game again from its wall and recorded answers; check the events match."""

    try:
        judge = judge_rules(data["rules"])
    except KeyError as error:
        raise ReplayError(f"replays of {data['rules']!r} cannot be played again: {error}") from None
    parse_response, stage_kind = judge.protocol.parse_response, judge.protocol.stage_kind
    try:
        game = judge.new_game(parse_tiles(data["wall"], judge.notation))
    except TileError as error:
        raise ReplayError(f"the replay's wall: {error}") from None
    answers: list[list[Action]] = [[], [], [], []]
    for number, item in enumerate(data["decisions"], 1):
        response, stage = item["response"], item["stage"]
        no_target = stage == "target" and not response.strip()
        try:
            answers[item["seat"]].append(Action("target") if no_target else parse_response(response, stage_kind(stage)))
        except (AgentError, ValueError) as error:
            raise ReplayError(f"decision {number}: {getattr(error, 'detail', error)}") from None
    try:
        play(game, [_Recorded(seat_answers) for seat_answers in answers])
    except ReplayError:
        raise
    except ValueError as error:  # an answer the rules refuse (IllegalAction)
        raise ReplayError(f"the recorded answers do not play out: {excerpt(str(error), 200)}") from None
    recorded = load_events(data)
    if game.events != recorded:
        first = next((i for i, (a, b) in enumerate(zip(game.events, recorded, strict=False)) if a != b), len(recorded))
        raise ReplayError(f"the game does not play out as recorded (first difference at event {first + 1})")
    return game

