"""Why an answer is not legal: the judge's message for an ``illegal_action`` names what made it illegal.

The game is read as it stands when the seat is asked (before the answer is applied): the seat's concealed tiles,
its PENGs, the discard that can be claimed, and the legal answers.  The reasons:

- a tile to discard (``PLAY X``, or the discard after a PENG or a CHI) that the seat does not hold, after the
  claim's tiles are taken from the hand;
- a claim that is not offered: a PENG or an open GANG without the tiles for it, a CHI by a seat that is not the
  discarder's next player or without the run, a HU whose hand does not win, any claim when nothing was
  discarded;
- a GANG from the hand without four of the kind (or one and a PENG of it);
- otherwise, the answer is not among the ones offered, and the message lists them.

>>> from mjarena.rulesets import judge_rules
>>> from mjarena.variants.base import Action
>>> judge = judge_rules("noi2014")
>>> game = judge.new_game(judge.shuffled_wall(2014))
>>> decision = game.decision  # East has drawn: it must play (or GANG, or HU)
>>> held = game.hands[0].counts
>>> missing = next(kind for kind in range(27) if held[kind] == 0)
>>> why_illegal(judge, game, 0, Action("play", missing), decision.stage, decision.legal[0]).startswith(
...     f"it does not hold {judge.tile_name(missing)}")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjarena.variants.base import Action

__all__ = ["why_illegal"]

_DISCARDS = ("play", "discard")
_PENGS = ("peng", "pong")
_CHIS = ("chi", "chow")
_HUS = ("hu", "ron", "self_drawn")
_SHOWN = 12
"""Legal answers listed at most in a message."""


def _counts(game: Any, seat: int) -> list[int]:
    hand = game.hands[seat]
    return list(getattr(hand, "counts", hand))


def _pengs(game: Any, seat: int) -> set[int]:
    """The kinds the seat has a PENG of (NOI 2014 and 百搭 melds; THUPC's are tuples of kinds, no kongs)."""
    kinds = set()
    for meld in getattr(game, "melds", [[]] * 4)[seat]:
        if getattr(meld, "type", None) == "peng":
            kinds.add(meld.kind if hasattr(meld, "kind") else meld.tiles[0])
    return kinds


def _answer(judge: Any, action: Action) -> str:
    try:
        return str(judge.protocol.format_response(action))
    except ValueError:
        return repr(action)


def _verb(judge: Any, action: Action) -> str:
    """The answer's verb as the protocol writes it (``PENG``, ``CHI``, ``PLAY``)."""
    try:
        return str(judge.protocol.format_response(action)).split(" ")[0]
    except ValueError:
        return action.type.upper()


def _choices(judge: Any, legal: Sequence[Action]) -> str:
    shown = [_answer(judge, action) for action in legal[:_SHOWN]]
    more = f" and {len(legal) - _SHOWN} more" if len(legal) > _SHOWN else ""
    return f"its choices were {', '.join(shown)}{more}" if shown else "it had no choice to make"


def _held(judge: Any, counts: Sequence[int], kind: int) -> str:
    """``no W3`` / ``one W3`` / ``two W3`` ..."""
    count = counts[kind] if 0 <= kind < len(counts) else 0
    return f"{('no', 'one', 'two', 'three', 'four')[count] if count <= 4 else count} {judge.tile_name(kind)}"


def _discard_after(judge: Any, counts: list[int], action: Action, taken: Sequence[int], claim: str) -> str | None:
    """Why the discard that follows a claim cannot be made: the tile is not held once ``taken`` are melded."""
    if action.tile is None:
        return None
    rest = list(counts)
    for kind in taken:
        rest[kind] -= 1
    if 0 <= action.tile < len(rest) and rest[action.tile] > 0:
        return None
    return (f"after the {claim} it would discard {judge.tile_name(action.tile)}, which it does not hold"
            + (" (the claim takes it)" if 0 <= action.tile < len(counts) and counts[action.tile] > 0 else ""))


def _run(low: int) -> list[int] | None:
    """The run ``low, low+1, low+2`` if it is a run of one suit."""
    if low < 0 or low % 9 > 6 or low >= 27:
        return None
    return [low, low + 1, low + 2]


def _claim_reason(judge: Any, game: Any, seat: int, action: Action, counts: list[int], offered: set[str]) -> \
        str | None:
    """Why a claim on the discard fails (None: no reason found beyond "not offered")."""
    discard = getattr(game, "claimable", None)
    if discard is None:
        return None
    name = judge.tile_name(discard)
    verb = _verb(judge, action)
    if action.type in _PENGS:
        if counts[discard] < 2:
            return (f"a {verb} of the discard {name} needs two {name} in the hand; it holds "
                    f"{_held(judge, counts, discard)}")
        return _discard_after(judge, counts, action, [discard, discard], f"{verb} of {name}")
    if action.type == "gang":
        on_peng = getattr(getattr(game, "options", None), "gang_on_peng", False)  # NOI 2014's option
        if counts[discard] < 3 and not (on_peng and discard in _pengs(game, seat)):
            return (f"an open {verb} of the discard {name} needs three {name} in the hand"
                    + (f" (or a PENG of {name})" if on_peng else "") + f"; it holds {_held(judge, counts, discard)}")
        return None
    if action.type in _CHIS:
        discarder = getattr(game, "discarder", None)
        nexts = {game.next_seat(discarder) if hasattr(game, "next_seat") else (discarder + 1) % 4} \
            if discarder is not None else set()
        if seat not in nexts:
            return f"only the discarder's next player may {verb}"
        run = _run(action.tile if action.tile is not None else -1)
        if run is None:
            return f"no run of one suit starts at {judge.tile_name(action.tile)}" if action.tile is not None else None
        if discard not in run:
            return f"the run {' '.join(judge.tile_name(k) for k in run)} does not take the discard {name}"
        need = list(run)
        need.remove(discard)
        missing = [kind for kind in need if counts[kind] < 1]
        if missing:
            return (f"the run {' '.join(judge.tile_name(k) for k in run)} needs "
                    f"{' and '.join(judge.tile_name(k) for k in need)} in the hand; it holds "
                    f"{', '.join(_held(judge, counts, k) for k in missing)}")
        after = Action("play", action.tiles[0]) if action.tiles else None
        return None if after is None else _discard_after(judge, counts, after, need, f"{verb}")
    if action.type in _HUS and "hu" not in offered and "ron" not in offered:
        return f"the hand does not win with the discard {name}"
    return None


def _draw_reason(judge: Any, game: Any, seat: int, action: Action, counts: list[int]) -> str | None:
    """Why an answer on the seat's own turn fails."""
    if action.type in _DISCARDS and action.tile is not None:
        if not 0 <= action.tile < len(counts) or counts[action.tile] == 0:
            return f"it does not hold {judge.tile_name(action.tile)}" if 0 <= action.tile < len(counts) else None
        if action.target is not None and (action.target == seat or not 0 <= action.target < 4):
            return "PASS must name another player"
        return None
    if action.type == "gang" and action.tile is not None:
        kind = action.tile
        if counts[kind] != 4 and not (counts[kind] and kind in _pengs(game, seat)):
            return (f"a {_verb(judge, action)} of {judge.tile_name(kind)} needs four {judge.tile_name(kind)} in the "
                    f"hand, or one and a PENG of it; it holds {_held(judge, counts, kind)}"
                    + (" and has a PENG of it" if kind in _pengs(game, seat) else ""))
        return None
    if action.type in _PENGS + _CHIS or (action.type == "gang" and action.tile is None) or action.type == "pass":
        return "nothing was discarded to claim: it is its own turn to discard"
    if action.type in _HUS:
        return "the hand does not win"
    return None


def why_illegal(judge: Any, game: Any, seat: int, action: Action, stage: str, legal: Sequence[Action]) -> str:
    """What made ``action`` illegal for ``seat`` at this ``stage`` of ``game`` (``judge``: the rule set's
    :class:`~mjarena.rulesets.JudgeRules`), as a clause for the judge's message; the choices it had when no
    rule names the fault.

    >>> from mjarena.rulesets import judge_rules
    >>> judge = judge_rules("noi2014")
    >>> game = judge.new_game(judge.shuffled_wall(2014))
    >>> why_illegal(judge, game, 0, Action("peng", 0), "draw", game.decision.legal[0])[:80]
    'nothing was discarded to claim: it is its own turn to discard; its choices were '
    """
    offered = {choice.type for choice in legal}
    counts = _counts(game, seat)
    try:
        if stage == "claim":
            if action.type in _DISCARDS:
                reason: str | None = "it is not its turn to discard: this is a claim on the discard " \
                    f"{judge.tile_name(game.claimable)}"
            else:
                reason = _claim_reason(judge, game, seat, action, counts, offered)
        else:
            reason = _draw_reason(judge, game, seat, action, counts)
    except (AttributeError, IndexError, TypeError):  # a game without these attributes: the choices say it
        reason = None
    if reason is None:
        reason = f"{_verb(judge, action)} is not offered here" if action.type not in offered else \
            "it is not among the answers offered"
    return f"{reason}; {_choices(judge, legal)}"
