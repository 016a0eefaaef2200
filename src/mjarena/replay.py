"""Replays: a saved game (rules, wall, seats, every decision and every bot request/response with its
timing) that can be read back, checked and played again.

A replay is one JSON object (see :meth:`mjarena.arena.match.MatchResult.to_json`).  Playing it again feeds
the recorded answers back to the rules engine from the recorded wall; the events must come out the same.

>>> from mjarena.arena.match import run_match
>>> data = run_match(["builtin:random", "builtin:greedy"] * 2, seed=3).to_json()
>>> replay_game(data).events == load_events(data)
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mjarena.files import write_atomically
from mjarena.variants.base import Action, Event

__all__ = ["ReplayError", "load", "load_events", "replay_game", "save"]


class ReplayError(ValueError):
    """A replay file that cannot be read, or whose game does not play out as recorded."""


def save(data: dict[str, Any], path: str | Path) -> None:
    """Write a replay atomically (see :func:`mjarena.files.write_atomically`), creating its folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, json.dumps(data, ensure_ascii=False) + "\n")


def load(path: str | Path) -> dict[str, Any]:
    """Read a replay, with errors that say what is wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ReplayError(f"{path}: cannot read: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReplayError(f"{path}: not a replay (invalid JSON: {error})") from None
    if not isinstance(data, dict) or data.get("format") != "mjarena-replay":
        raise ReplayError(f"{path}: not an mjarena replay (no \"format\": \"mjarena-replay\")")
    for key in ("rules", "wall", "seats", "events", "decisions"):
        if key not in data:
            raise ReplayError(f"{path}: the replay has no {key!r}")
    return data


def load_events(data: dict[str, Any]) -> list[Event]:
    """The recorded events as :class:`Event` records."""
    from mjarena.arena.rulesets import judge_rules
    from mjarena.formats import event_from_dict

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
    from mjarena.arena.rulesets import judge_rules
    from mjarena.tiles import TileError, parse_tiles
    from mjarena.variants.base import play

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
    for item in data["decisions"]:
        response, stage = item["response"], item["stage"]
        no_target = stage == "target" and not response.strip()
        answers[item["seat"]].append(Action("target") if no_target else parse_response(response, stage_kind(stage)))
    play(game, [_Recorded(seat_answers) for seat_answers in answers])
    recorded = load_events(data)
    if game.events != recorded:
        first = next((i for i, (a, b) in enumerate(zip(game.events, recorded, strict=False)) if a != b), len(recorded))
        raise ReplayError(f"the game does not play out as recorded (first difference at event {first + 1})")
    return game

