"""The play page's choices: how each legal choice of the person's decision shows (its label, the button or tile
it sits under), and the exchange distance each discard would leave.

The session (:mod:`mjarena.web.play`) offers these; a target-hand decision offers :data:`NO_TARGET` and
:data:`AUTO_TARGET` (the greedy bot's pick) instead of the rules' own choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjarena.i18n import N_
from mjarena.i18n import gettext as _
from mjarena.variants.base import Action

__all__ = ["AUTO_TARGET", "NO_TARGET", "VERBS", "choice_views", "discard_distances"]

NO_TARGET = Action("target")
AUTO_TARGET = "auto"


def discard_distances(rules: str, counts: Sequence[int], melds: int, kinds: Sequence[int]) -> dict[int, int]:
    """The exchange distance (和牌距离) left after discarding each kind of ``kinds`` from a hand with ``counts``
    and ``melds`` sets laid down, under the rule set's hand rules: the tiles still to draw to win (1: ready).
    The figures are :func:`mjarena.hand.wild.discards`' (as in the replay viewer's annotations,
    :mod:`mjarena.web.effects`); kinds the hand does not hold, or a hand that is not ``14 - 3 * melds`` tiles,
    get none.

    >>> from mjarena.tiles import counts_of, parse_tiles
    >>> hand = counts_of(parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6 T9", "noi"))
    >>> discard_distances("noi2014", hand, 0, [8, 14, 26])  # T9 leaves the hand ready; W9 breaks a run
    {8: 2, 14: 2, 26: 1}
    """
    from mjarena.hand import RULES
    from mjarena.hand.wild import discards

    try:
        after = {option.kind: option.distance for option in discards(counts, melds, RULES[rules])}
    except ValueError:  # TileError is one
        return {}
    return {kind: after[kind] for kind in dict.fromkeys(kinds) if kind in after}


VERBS = {"hu": N_("HU"), "gang": N_("GANG"), "peng": N_("PENG"), "pong": N_("PONG"), "ron": N_("RON")}
"""The words of the verbs that show as ``VERB TILE`` (THUPC's RON and PONG beside NOI's HU, GANG and PENG)."""


def choice_views(stage: str, choices: Sequence[Action | str], names: dict[int, str],
                 seats: Sequence[str], distances: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """How the page shows each legal choice: ``label``, the ``group`` button it sits under (None: clicking the
    ``tile`` in hand chooses it), the ``tile`` to click (the tile discarded), if any, and for a plain discard
    the ``distance`` it leaves (from ``distances``, by kind).  ``group`` is a stable name (English, what the
    page's keys go by); ``group_text`` and ``label`` are in the active language (:mod:`mjarena.i18n`), the seats
    named as ``seats`` says.

    >>> names = {0: "W1", 1: "W2"}
    >>> [(c["group"], c["tile"]) for c in choice_views("draw", [Action("hu"), Action("play", 1)], names, "ESWN")]
    [('HU', None), (None, 1)]
    >>> choice_views("claim", [Action("peng", 0)], names, "ESWN")[0]["label"]
    'PENG, then discard W1'
    >>> from mjarena.i18n import activated
    >>> with activated("zh-CN"):
    ...     [(c["group"], c["group_text"], c["label"]) for c in choice_views("claim", [Action("peng", 0)], names,
    ...                                                                       "ESWN")]
    [('PENG', '碰', '碰，然后打出 W1')]
    """
    views = []
    for index, action in enumerate(choices):
        if action == AUTO_TARGET:
            views.append({"index": index, "type": "target", "label": _("Let the greedy bot choose my target hand"),
                          "group": "Greedy target", "group_text": _("Greedy target"), "tile": None})
            continue
        assert isinstance(action, Action)
        group, group_text, label, tile = _words_of(stage, action, names, seats)
        view = {"index": index, "type": action.type, "label": label, "group": group, "group_text": group_text,
                "tile": tile}
        if group is None and distances and tile in distances:
            view["distance"] = distances[tile]
        views.append(view)
    return views


def _words_of(stage: str, action: Action, names: dict[int, str],
              seats: Sequence[str]) -> tuple[str | None, str | None, str, int | None]:
    """(group, its words, label, tile to click) of one legal action."""
    verb, name = action.type, names.get(action.tile, "") if action.tile is not None else ""
    if verb == "target":
        return "No target hand", _("No target hand"), _("No target hand"), None
    if verb in ("play", "discard"):
        label = (_("discard %(tile)s") % {"tile": name} if action.target is None
                 else _("discard %(tile)s → %(seat)s") % {"tile": name, "seat": seats[action.target]})
        return None, None, label, action.tile
    if verb == "peng" and stage == "claim":
        return "PENG", _("PENG"), _("PENG, then discard %(tile)s") % {"tile": name}, action.tile
    if verb in ("chi", "chow"):
        run = "-".join(names.get(action.tile + i, "?") for i in range(3))  # type: ignore[operator]
        if verb == "chow":
            words = _("CHOW %(run)s") % {"run": run}
            return f"CHOW {run}", words, words, None
        group, words = f"CHI {run}", _("CHI %(run)s") % {"run": run}
        label = _("CHI %(run)s, then discard %(tile)s") % {"run": run, "tile": names.get(action.tiles[0], "?")}
        return group, words, label, action.tiles[0]
    if verb == "pass":
        return "Pass", _("Pass"), _("Pass"), None
    if verb == "self_drawn":
        return "SELF-DRAWN win", _("SELF-DRAWN win"), _("SELF-DRAWN win"), None
    group = f"{verb.upper()} {name}".strip()
    words = f"{_(VERBS[verb]) if verb in VERBS else verb.upper()} {name}".strip()
    return group, words, words, None
