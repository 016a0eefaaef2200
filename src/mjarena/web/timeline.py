"""A replay as a list of table snapshots, one per step: what the viewer shows, computed in plain Python.

Step 0 is the empty table; step ``i`` is the table after the first ``i`` events.  A snapshot holds each
seat's concealed hand (sorted, the tile just drawn apart), melds, discards in order (claimed ones marked),
status, the wall count, whose turn it is and the last action in words.  The same :class:`Table` folds a live
game's events for the play page.  Each discard step also carries its ``effect`` on the discarder's hand
(:mod:`mjarena.web.effects`).

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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mjarena.arena.rulesets import judge_rules
from mjarena.tiles import NUM_KINDS
from mjarena.variants.base import Event

__all__ = ["Table", "TimelineError", "decision_steps", "describe", "seat_names", "tile_names", "timeline"]

_WALL_SIZES = {"noi2014": 108, "baida": 144, "thupc2021": 148}
_OPEN_MELDS = {"peng": 3, "pong": 3, "gang": 4}


class TimelineError(ValueError):
    """A replay whose events do not make sense as a game (a tile discarded that was not held, ...)."""


def seat_names(rules: str) -> tuple[str, ...]:
    """How the rule set names its seats.

    >>> seat_names("thupc2021"), seat_names("noi2014")[0]
    (('A', 'B', 'C', 'D'), 'East')
    """
    return judge_rules(rules).seats


def describe(events: Sequence[Event], rules: str) -> list[str]:
    """One line of words per event, by the rule set's own log formatter (THUPC's ``A OUT 1M`` lines), with
    Chinese terms in Latin letters (:func:`~mjarena.web.latin.latin`)."""
    from mjarena.web.latin import latin

    return [latin(line) for line in judge_rules(rules).log(events)]


@dataclass
class _Seat:
    hand: list[int] = field(default_factory=list)
    drawn: int | None = None
    melds: list[dict[str, Any]] = field(default_factory=list)
    discards: list[dict[str, Any]] = field(default_factory=list)
    status: str = "in"


class Table:
    """The table rebuilt from events, one :meth:`apply` at a time (for every rule set's event vocabulary).

    >>> table = Table("noi2014")
    >>> table.apply(Event("deal", 0, (0, 0, 1)))
    >>> table.apply(Event("play", 0, (1,)))
    >>> snap = table.snapshot()
    >>> snap["seats"][0]["hand"], snap["seats"][0]["discards"], snap["wall"]
    ([0, 0], [{'tile': 1, 'claimed': False}], 105)
    """

    def __init__(self, rules: str, wall_size: int | None = None) -> None:
        self.rules = rules
        self.seats = [_Seat() for _ in range(4)]
        self.wall = _WALL_SIZES.get(rules, 0) if wall_size is None else wall_size
        self.turn: int | None = None
        self.last_discard: tuple[int, int] | None = None  # (seat, index in its discards)
        self.extra: dict[str, Any] = {}
        self.count = 0
        self.seen = [0] * NUM_KINDS
        """Counts by kind of the tiles every seat has seen outside its own hand: discards (claimed ones too),
        the tiles a meld took from a hand, and concealed kongs (announced to every seat as ``GANG X``)."""

    def _take(self, seat: int, kinds: Iterable[int]) -> None:
        """Take ``kinds`` from the seat's hand: a discard, or tiles laid in a meld (seen by every seat from now)."""
        hand = self.seats[seat].hand
        for kind in kinds:
            try:
                hand.remove(kind)
            except ValueError:
                raise TimelineError(f"event {self.count + 1}: seat {seat} does not hold tile kind {kind}") from None
            self.seen[kind] += 1

    def _claim(self) -> int:
        """Mark the last discard claimed; its kind."""
        if self.last_discard is None:
            raise TimelineError(f"event {self.count + 1}: a claim with no discard before it")
        seat, index = self.last_discard
        item = self.seats[seat].discards[index]
        item["claimed"] = True
        self.last_discard = None
        return item["tile"]

    def apply(self, event: Event) -> None:
        """Fold one event into the table; :class:`TimelineError` if it cannot have happened."""
        kind, seat = event.type, event.seat
        player = self.seats[seat] if seat is not None and 0 <= seat < 4 else None
        if seat is not None and player is None:
            raise TimelineError(f"event {self.count + 1}: no seat {seat}")
        for other in self.seats:
            other.drawn = None
        if kind == "deal":
            player.hand += event.tiles  # type: ignore[union-attr]
            self.wall -= len(event.tiles)
        elif kind in ("draw", "draw_back"):
            player.hand += event.tiles  # type: ignore[union-attr]
            player.drawn = event.tiles[0]  # type: ignore[union-attr]
            self.wall -= 1
            self.turn = seat
        elif kind in ("play", "discard"):
            self._take(seat, event.tiles[:1])  # type: ignore[arg-type]
            player.discards.append({"tile": event.tiles[0], "claimed": False})  # type: ignore[union-attr]
            self.last_discard = (seat, len(player.discards) - 1)  # type: ignore[union-attr,assignment]
            self.turn = seat
        elif kind in _OPEN_MELDS or kind in ("chi", "chow"):
            claimed = self._claim()
            tiles = list(event.tiles) if kind in ("chi", "chow") else [event.tiles[0]] * _OPEN_MELDS[kind]
            rest = list(tiles)
            rest.remove(claimed)
            self._take(seat, rest)  # type: ignore[arg-type]
            player.melds.append({"type": kind, "tiles": tiles, "concealed": False,  # type: ignore[union-attr]
                                 "from": event.target})
            self.turn = seat
        elif kind == "angang":
            self._take(seat, [event.tiles[0]] * 4)  # type: ignore[arg-type]
            player.melds.append({"type": "gang", "tiles": [event.tiles[0]] * 4,  # type: ignore[union-attr]
                                 "concealed": True, "from": None})
        elif kind in ("bugang", "gang_on_peng"):  # the fourth tile from the hand, or the discard (NOI 2014)
            if kind == "bugang":
                self._take(seat, event.tiles[:1])  # type: ignore[arg-type]
            else:
                self._claim()
                self.turn = seat
            for meld in player.melds:  # type: ignore[union-attr]
                if meld["type"] in ("peng", "pong") and meld["tiles"][0] == event.tiles[0]:
                    meld.update(type="gang", tiles=[event.tiles[0]] * 4)
                    break
        elif kind in ("hu", "ron"):
            player.hand.append(self._claim())  # type: ignore[union-attr]
            player.status = "won"  # type: ignore[union-attr]
            self.turn = seat
        elif kind in ("hu_self", "self_drawn", "win"):
            player.status = "won"  # type: ignore[union-attr]
            self.turn = seat
        elif kind == "false_hu":
            player.status = "out"  # type: ignore[union-attr]
        elif kind == "score":
            self.extra["tai"] = {"seat": seat, "total": event.target}
        elif kind == "dice":
            self.extra["dice"] = list(event.tiles)
        elif kind in ("exhausted", "end"):
            self.turn = None
        self.count += 1

    def snapshot(self, hidden: Sequence[int] = ()) -> dict[str, Any]:
        """The table now as JSON-ready data; the hands of the seats in ``hidden`` become a count of tiles."""
        seats = []
        for number, seat in enumerate(self.seats):
            hand = list(seat.hand)
            if seat.drawn is not None:
                hand.remove(seat.drawn)
            item: dict[str, Any] = {
                "hand": sorted(hand), "drawn": seat.drawn, "melds": [dict(m) for m in seat.melds],
                "discards": [dict(d) for d in seat.discards], "status": seat.status,
            }
            if number in hidden:
                item.update(hand=None, drawn=None, hidden=len(seat.hand))
            seats.append(item)
        last = None
        if self.last_discard is not None:
            last = {"seat": self.last_discard[0], "index": self.last_discard[1]}
        return {"wall": self.wall, "turn": self.turn, "seats": seats, "last_discard": last, **self.extra}


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


def _error_marks(data: dict[str, Any], events: Sequence[Event]) -> list[dict[str, Any]]:
    """Where each erring seat's error happened: ``{"seat", "step", "reason", "detail"}``."""
    seats = [seat for seat in data["seats"] if seat.get("reason")]
    if not seats:
        return []
    steps = decision_steps(data)
    marks = []
    for seat in seats:
        number, step = seat["seat"], None
        if seat["reason"] == "false_hu":
            step = next((i + 1 for i, e in enumerate(events) if e.type == "false_hu" and e.seat == number), None)
        elif steps is not None:
            step = next((steps[i] for i, d in enumerate(data["decisions"])
                         if d["seat"] == number and d.get("by") == "judge"), None)
        marks.append({"seat": number, "step": step, "reason": seat["reason"], "detail": seat.get("detail")})
    return marks


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


def timeline(data: dict[str, Any]) -> dict[str, Any]:
    """Everything the replay viewer shows, from a replay (as read by :func:`mjarena.replay.load`).

    A discard's step carries ``effect``: what it did to the discarder's hand (:func:`_effect`).  ``distances``
    holds each seat's distance to a win after every step (seat 0 first, one value per step, None where the
    hand is not whole: :mod:`mjarena.web.distances`).

    Raises :class:`TimelineError` (a ``ValueError``) for a replay whose content does not hold together.
    """
    from mjarena.formats import event_dict
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
    texts = describe(events, judge.name)
    steps = [{"step": 0, "text": "the table before the deal", "event": None, **table.snapshot()}]
    distances = [tracker.update(table)]
    for number, (event, text) in enumerate(zip(events, texts, strict=True), start=1):
        effect = _effect(table, event, judge.tile_name)  # the hand before the discard
        table.apply(event)
        steps.append({"step": number, "text": text, "event": event_dict(event, notation=judge.notation),
                      **table.snapshot(), **effect})
        distances.append(tracker.update(table))
    marks = _error_marks(data, events)
    for mark in marks:
        if mark["step"] is not None:
            steps[mark["step"]].setdefault("errors", []).append(mark)
    return {
        "rules": judge.name,
        "seed": data.get("seed"),
        "seat_names": list(seat_names(judge.name)),
        "seats": [{key: seat.get(key) for key in ("seat", "bot", "status", "reason", "detail", "rank", "points")}
                  for seat in data["seats"]],
        "errors": marks,
        "tournament": data.get("tournament"),
        "tile_names": tile_names(judge.name),
        "steps": steps,
        "distances": [list(seat) for seat in zip(*distances, strict=True)],
    }


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
