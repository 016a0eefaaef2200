"""A replay as a list of table snapshots, one per step: what the viewer shows, computed in plain Python.

Step 0 is the empty table; step ``i`` is the table after the first ``i`` events.  A snapshot holds each
seat's concealed hand (sorted, the tile just drawn apart), melds, discards in order (claimed ones marked),
status, the wall count, whose turn it is and the last action in words.  The table itself is
:class:`mjarena.table.Table`, which also folds a live game's events for the play page.  Each discard step also
carries its ``effect`` on the discarder's hand (:mod:`mjarena.web.effects`).

Errors are placed where they happened: a seat's first decision answered by the judge (found by playing the
replay's recorded answers again, step by step) or its ``false_hu`` event.

>>> from mjarena.arena.match import run_match
>>> data = run_match(["builtin:greedy"] * 4, seed=7).to_json()
>>> view = timeline(data)
>>> len(view["steps"]) == len(data["events"]) + 1, view["steps"][0]["wall"]
(True, 108)
>>> view["steps"][-1]["text"]
'game over'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import EllipsisType
from typing import Any

from mjarena.rulesets import judge_rules
from mjarena.table import Table, TimelineError
from mjarena.tiles import NUM_KINDS
from mjarena.variants.base import Event
from mjarena.web.move_words import describe, move_texts, seat_words

__all__ = ["decision_steps", "describe", "error_words", "opening_step", "seat_names", "tile_names", "timeline"]

def seat_names(rules: str) -> tuple[str, ...]:
    """How the rule set names its seats.

    >>> seat_names("thupc2021"), seat_names("noi2014")[0]
    (('A', 'B', 'C', 'D'), 'East')
    """
    return judge_rules(rules).seats


def decision_steps(data: dict[str, Any]) -> list[int] | None:
    """For each recorded decision, the number of events before it (the step at which it was asked); None when
    the replay cannot be played again (a rule set this version cannot run, or answers that do not fit)."""
    from mjarena.tiles import parse_tiles
    from mjarena.variants.base import Action

    try:
        judge = judge_rules(data["rules"])
        game = judge.new_game(parse_tiles(data["wall"], judge.notation))
        steps: list[int] = []
        pending = list(data["decisions"])
        while game.decision is not None and pending:
            choices = {}
            for seat in game.decision.legal:
                item = pending.pop(0)
                if item["seat"] != seat:
                    return None
                steps.append(len(game.events))
                response, stage = item["response"], item["stage"]
                no_target = stage == "target" and not response.strip()
                choices[seat] = Action("target") if no_target else judge.protocol.parse_response(
                    response, judge.protocol.stage_kind(stage))
            game.apply(choices)
        return steps if not pending and game.decision is None else None
    except Exception:  # a damaged or foreign replay: the viewer shows it without error places
        return None


def _error_marks(data: dict[str, Any], events: Sequence[Event],
                 decided: list[int] | EllipsisType | None = ...) -> list[dict[str, Any]]:
    """Where each erring seat's error happened: ``{"seat", "step", "reason", "detail"}`` (``decided``: the
    replay's :func:`decision_steps` when the caller has them, else worked out here)."""
    seats = [seat for seat in data["seats"] if seat.get("reason")]
    if not seats:
        return []
    steps = decision_steps(data) if decided is ... else decided
    marks = []
    for seat in seats:
        number, step = seat["seat"], None
        if seat["reason"] == "false_hu":
            step = next((i + 1 for i, e in enumerate(events) if e.type == "false_hu" and e.seat == number), None)
        elif steps is not None:
            step = next((steps[i] for i, d in enumerate(data["decisions"])
                         if d["seat"] == number and d.get("by") == "judge"), None)
        marks.append({"seat": number, "step": step, **error_words(seat)})
    return marks


def error_words(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat's error as stored (``reason``, a stable code; ``detail``, the judge's English) and in the reader's
    language (``reason_text``, ``detail_text``: :mod:`mjarena.verdicts`); nothing for a seat without one."""
    from mjarena.verdicts import kind_label, render

    reason, detail = seat.get("reason"), seat.get("detail")
    if not reason:
        return {"reason": reason, "detail": detail}
    return {"reason": reason, "detail": detail, "reason_text": kind_label(str(reason)),
            "detail_text": render(detail) if isinstance(detail, str) else detail}


def _effect(table: Table, event: Event, name: Callable[[int], str]) -> dict[str, Any]:
    """For a discard (before :meth:`Table.apply`): ``{"effect": ...}``, its
    :func:`~mjarena.web.effects.discard_annotation` with the discarder's ``seat``, or ``{"effect": None,
    "effect_note": why}`` when it cannot be measured; for any other event, nothing."""
    from mjarena.web.effects import discard_annotation

    if event.type not in ("play", "discard"):
        return {}
    try:
        if event.seat not in range(4):
            raise ValueError(f"no seat {event.seat!r}")
        seat = table.seats[event.seat]  # type: ignore[index]
        effect = discard_annotation(table.rules, seat.hand, event.tiles[0], len(seat.melds), table.seen, name)
    except (ValueError, TypeError, IndexError, KeyError) as error:  # a special tile, a hand that does not add up
        return {"effect": None, "effect_note": str(error)[:200]}
    return {"effect": {"seat": event.seat, **effect}}


def timeline(data: dict[str, Any], decided: list[int] | EllipsisType | None = ...) -> dict[str, Any]:
    """Everything the replay viewer shows, from a replay (as read by :func:`mjarena.replay.load`).

    A discard's step carries ``effect``: what it did to the discarder's hand (:func:`_effect`).  ``distances``
    holds each seat's distance to a win after every step (seat 0 first, one value per step, None where the
    hand is not whole: :mod:`mjarena.web.distances`).  ``opening`` is the step the viewer opens at (the first move:
    :func:`opening_step`), ``first_error`` the step of the first error placed (where a link from an error opens;
    None when there is none).  ``decided``: the replay's :func:`decision_steps` when the caller has them (the
    viewer's data shares them with its transcripts), else worked out here when an error needs placing.

    Raises :class:`TimelineError` (a ``ValueError``) for a replay whose content does not hold together.
    """
    from mjarena.formats import event_dict
    from mjarena.i18n import gettext as _
    from mjarena.replay import load_events, max_events
    from mjarena.tiles import TileError
    from mjarena.web.distances import DistanceTracker

    rules = data.get("rules")
    try:
        judge = judge_rules(str(rules))
    except KeyError as error:
        raise TimelineError(f"cannot show replays of rule set {rules!r}: {error.args[0]}") from None
    limit = max_events(len(judge.shuffled_wall(0)))  # each step shows the whole table: the work grows as its square
    if isinstance(data["events"], list) and len(data["events"]) > limit:
        raise TimelineError(f"the replay has {len(data['events'])} events; a game of {judge.name} has at most "
                            f"{limit}")
    try:
        events = load_events(data)
    except KeyError as error:
        raise TimelineError(f"cannot show replays of rule set {rules!r}: {error.args[0]}") from None
    except (TileError, TypeError, AttributeError) as error:
        raise TimelineError(f"the replay's events are damaged: {error}") from None
    table = Table(judge.name, len(data["wall"]))
    tracker = DistanceTracker(judge.name)
    texts = move_texts(events, judge.name)
    steps = [{"step": 0, "text": _("the table before the deal"), "event": None, **table.snapshot()}]
    distances = [tracker.update(table)]
    for number, (event, text) in enumerate(zip(events, texts, strict=True), start=1):
        effect = _effect(table, event, judge.tile_name)  # the hand before the discard
        table.apply(event)
        steps.append({"step": number, "text": text, "event": event_dict(event, notation=judge.notation),
                      **table.snapshot(), **effect})
        distances.append(tracker.update(table))
    marks = _error_marks(data, events, decided)
    for mark in marks:
        if mark["step"] is not None:
            steps[mark["step"]].setdefault("errors", []).append(mark)
    placed = [mark["step"] for mark in marks if mark["step"] is not None]
    return {
        "rules": judge.name,
        "seed": data.get("seed"),
        "opening": opening_step(steps),
        "first_error": min(placed, default=None),
        "seat_names": seat_words(judge.name),
        "seats": [{**{key: seat.get(key) for key in ("seat", "bot", "status", "rank", "points")}, **error_words(seat)}
                  for seat in data["seats"]],
        "errors": marks,
        "tournament": data.get("tournament"),
        "tile_names": tile_names(judge.name),
        "steps": steps,
        "distances": [list(seat) for seat in zip(*distances, strict=True)],
    }


def opening_step(steps: Sequence[dict[str, Any]]) -> int:
    """The step the viewer opens at: the game's first move (the first event that is neither the deal nor the dice;
    the table just dealt is the step before it), or the last step of a game that has none.

    >>> opening_step([{"event": None}, {"event": {"type": "dice"}}, {"event": {"type": "deal"}},
    ...               {"event": {"type": "draw"}}, {"event": {"type": "play"}}])
    3
    """
    moves = (number for number, step in enumerate(steps)
             if step.get("event") is not None and step["event"]["type"] not in ("deal", "dice"))
    return next(moves, len(steps) - 1)


def tile_names(rules: str) -> dict[int, str]:
    """Kind -> the tile's name in rule set ``rules``, as its bots and its log name it, for the kinds it has.

    >>> tile_names("baida")[27], tile_names("thupc2021")[27], 27 in tile_names("noi2014")
    ('F1', 'E', False)
    """
    name = judge_rules(rules).tile_name
    names = {}
    for kind in range(NUM_KINDS):
        try:
            names[kind] = name(kind)
        except ValueError:  # TileError is one
            continue
    return names
