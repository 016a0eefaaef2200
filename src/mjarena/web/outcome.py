"""The end of a game explained, per rule set: who won on which tile and how, why the others rank as they do.

- NOI 2014: each winner in the order of winning; when the wall ran out, each other seat's target hand, its
  distance and 胡牌机会值 ("win chance"), and for each pair of seats with the same distance why one ranks above
  the other (the higher win chance) or why they tie.
- 百搭: the winner's win form (小胡, 七巧对, 清一色), each 台 item by name with its count (or that there are
  none), and the arrangement the items were counted on; the game is played again from the replay to get them.
- THUPC 2021: the winner, its winning hand and tile, and whether it won on a discard, by its own draw, or the
  wall ran out first (DRAW).

>>> from mjarena.arena.match import run_match
>>> panel = outcome(run_match(["builtin:fixed"] * 4, rules="thupc2021", seed=5).to_json())
>>> panel["ended"], panel["wins"][0]["how"]
('A won on a discard of 4P from C', 'discard')
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from mjarena.i18n import DEFAULT, N_, active
from mjarena.i18n import gettext as _
from mjarena.rulesets import judge_rules
from mjarena.web.latin import latin

__all__ = ["outcome"]

_ON_DISCARD = {"hu", "ron"}
_SELF_DRAWN = {"hu_self", "self_drawn"}
_DRAWS = {"draw", "draw_back"}
_DISCARDS = {"play", "discard"}


def _wins(events: Sequence[Any]) -> list[dict[str, Any]]:
    """Each win in order: seat, the winning tile (kind), ``how`` (discard or self-drawn) and from whom."""
    last_discard: tuple[int, int] | None = None
    drawn: dict[int, int] = {}
    hands: dict[int, list[int]] = {}
    wins = []
    for event in events:
        if event.type == "deal":
            hands.setdefault(event.seat, []).extend(event.tiles)
        if event.type in _DRAWS and event.tiles:
            drawn[event.seat] = event.tiles[0]
        elif event.type in _DISCARDS and event.tiles:
            last_discard = (event.seat, event.tiles[0])
        elif event.type in _ON_DISCARD and last_discard is not None:
            wins.append({"seat": event.seat, "tile": last_discard[1], "how": "discard", "from": last_discard[0]})
        elif event.type in _SELF_DRAWN:
            wins.append({"seat": event.seat, "tile": drawn.get(event.seat), "how": "self-drawn", "from": None})
    return wins


def _noi_notes(seats: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    """Why seats with equal distances rank as they do (RULINGS: the higher 胡牌机会值 ranks higher)."""
    rated = sorted((s for s in seats if s.get("distance") is not None and not s.get("reason")),
                   key=lambda s: (s["rank"], s["seat"]))
    notes = []
    for upper, lower in itertools.pairwise(rated):
        if upper["distance"] != lower["distance"]:
            continue
        a, b = names[upper["seat"]], names[lower["seat"]]
        values = {"a": a, "b": b, "distance": upper["distance"], "chance": upper["chance"], "lower": lower["chance"]}
        if upper["rank"] == lower["rank"]:
            notes.append(_("%(a)s and %(b)s tie: both %(distance)s away, both with win chance %(chance)s") % values)
        else:
            notes.append(_("%(a)s ranks above %(b)s: both %(distance)s away, and %(a)s's win chance %(chance)s > "
                           "%(lower)s (the tiles %(a)s lacks were discarded later)") % values)
    return notes


def _baida_score(data: dict[str, Any]) -> dict[str, Any] | None:
    from mjarena.hand.wild import format_arrangement
    from mjarena.replay import ReplayError, replay_game

    try:
        game = replay_game(data)
    except (ReplayError, ValueError, KeyError, TypeError, IndexError):
        return None
    score = getattr(game, "score", None)
    if score is None:
        return None
    shown = latin if active() == DEFAULT else str  # a Chinese reader has the fonts: the terms as they are
    return {"form": shown(score.win_form), "form_zh": score.win_form,
            "items": [{"name": shown(item.name), "name_zh": item.name, "tai": item.tai} for item in score.items],
            "total": score.total, "arrangement": format_arrangement(score.arrangement)}


def outcome(data: dict[str, Any], events: Sequence[Any] | None = None) -> dict[str, Any]:
    """The end-of-game panel of a finished replay ``data`` (``events``: its events, if already read)."""
    from mjarena.replay import load_events
    from mjarena.verdicts import kind_label
    from mjarena.web.move_words import seat_words

    judge = judge_rules(data["rules"])
    names = seat_words(judge.name)
    events = load_events(data) if events is None else events
    seats = data["seats"]
    wins = _wins(events)
    for win in wins:
        win["tile_name"] = judge.tile_name(win["tile"]) if win["tile"] is not None else None
    exhausted = any(event.type == "exhausted" for event in events) or (judge.name == "thupc2021" and not wins)
    said = [_("%(seat)s won on a discard of %(tile)s from %(from)s") % {
                "seat": names[win["seat"]], "tile": win["tile_name"], "from": names[win["from"]]}
            if win["how"] == "discard" else _("%(seat)s won by its own draw of %(tile)s") % {
                "seat": names[win["seat"]], "tile": win["tile_name"]}
            for win in wins]
    if exhausted:
        said.append(_("the wall ran out: every seat still in gives its target hand") if judge.name == "noi2014"
                    else _("the wall ran out (DRAW)"))
    elif judge.name == "noi2014" and wins:
        said.append(_("one player was left"))
    ended = _("; then ").join(said) or _("the game ended")
    rows = []
    for seat in sorted(seats, key=lambda s: (s["rank"], s["seat"])):
        number = seat["seat"]
        if seat.get("reason"):
            why = _("error (%(reason)s): ranks below every seat that did not err") % {
                "reason": kind_label(str(seat["reason"]))}
        elif seat["status"] == "won":
            order = next((i for i, w in enumerate(wins) if w["seat"] == number), None)
            why = _("won") if order is None or judge.name != "noi2014" else _ordinal(order + 1)
        elif seat.get("distance") is not None:
            values = {"target": " ".join(seat.get("target") or []) or _("(none)"), "distance": seat["distance"],
                      "chance": seat.get("chance"), "unit": _chance_unit(seat.get("chance"))}
            why = _("target %(target)s: %(distance)s away") % values if seat.get("chance") is None else \
                _("target %(target)s: %(distance)s away, win chance %(chance)s (%(unit)s)") % values
        elif judge.name == "noi2014" and seat["status"] == "in" and not exhausted:
            why = _("the last player in: gives no target")
        else:
            why = _("did not win")
        rows.append({"seat": number, "rank": seat["rank"], "points": seat["points"], "why": why})
    panel: dict[str, Any] = {"rules": judge.name, "ended": ended, "wins": wins, "rows": rows, "notes": []}
    if judge.name == "noi2014":
        panel["notes"] = _noi_notes(seats, names)
    elif judge.name == "baida" and wins:
        panel["score"] = _baida_score(data)
    return panel


def _chance_unit(chance: Any) -> str:
    """What a 胡牌机会值 counts: a position in the game's discards (RULINGS: the earliest of the last appearances
    of the tiles the target lacks); the later, the better.

    >>> _chance_unit(56)
    'discard 56 of the game: the tiles it lacks were last seen there or later; the later, the better'
    """
    return _("discard %(chance)s of the game: the tiles it lacks were last seen there or later; the later, the "
             "better") % {"chance": chance}


_ORDINALS = {1: N_("won, 1st to win"), 2: N_("won, 2nd to win"), 3: N_("won, 3rd to win")}


def _ordinal(number: int) -> str:
    """Why a NOI 2014 winner ranks where it does: the order it won in (at most three win: one player is left).

    >>> _ordinal(2)
    'won, 2nd to win'
    """
    return _(_ORDINALS[number]) if number in _ORDINALS else _("won, %(number)sth to win") % {"number": number}
