"""The play page's choices: how each legal choice of the person's decision shows (its label, the button or tile
it sits under), and the exchange distance each discard would leave.

The session (:mod:`mjarena.web.play`) offers these; a target-hand decision offers :data:`NO_TARGET` and
:data:`AUTO_TARGET` (the greedy bot's pick) instead of the rules' own choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjarena.variants.base import Action

__all__ = ["AUTO_TARGET", "NO_TARGET", "choice_views", "discard_distances"]

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


def choice_views(stage: str, choices: Sequence[Action | str], names: dict[int, str],
                 seats: Sequence[str], distances: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """How the page shows each legal choice: ``label``, the ``group`` button it sits under (None: clicking the
    ``tile`` in hand chooses it), the ``tile`` to click (the tile discarded), if any, and for a plain discard
    the ``distance`` it leaves (from ``distances``, by kind).

    >>> names = {0: "W1", 1: "W2"}
    >>> [(c["group"], c["tile"]) for c in choice_views("draw", [Action("hu"), Action("play", 1)], names, "ESWN")]
    [('HU', None), (None, 1)]
    >>> choice_views("claim", [Action("peng", 0)], names, "ESWN")[0]["label"]
    'PENG, then discard W1'
    """
    views = []
    for index, action in enumerate(choices):
        group: str | None
        tile: int | None = None
        if action == AUTO_TARGET:
            views.append({"index": index, "type": "target", "label": "Let the greedy bot choose my target hand",
                          "group": "Greedy target", "tile": None})
            continue
        assert isinstance(action, Action)
        verb, name = action.type, names.get(action.tile, "") if action.tile is not None else ""
        if verb == "target":
            group = label = "No target hand"
        elif verb in ("play", "discard"):
            group, tile = None, action.tile
            label = f"discard {name}" + (f" → {seats[action.target]}" if action.target is not None else "")
        elif verb == "peng" and stage == "claim":
            group, tile, label = "PENG", action.tile, f"PENG, then discard {name}"
        elif verb == "chi":
            run = "-".join(names.get(action.tile + i, "?") for i in range(3))  # type: ignore[operator]
            group, tile = f"CHI {run}", action.tiles[0]
            label = f"CHI {run}, then discard {names.get(action.tiles[0], '?')}"
        elif verb == "chow":
            group = label = "CHOW " + "-".join(names.get(action.tile + i, "?") for i in range(3))  # type: ignore[operator]
        elif verb == "pass":
            group = label = "Pass"
        elif verb == "self_drawn":
            group = label = "SELF-DRAWN win"
        else:
            group = label = f"{verb.upper()} {name}".strip()
        view = {"index": index, "type": verb, "label": label, "group": group, "tile": tile}
        if group is None and distances and tile in distances:
            view["distance"] = distances[tile]
        views.append(view)
    return views
