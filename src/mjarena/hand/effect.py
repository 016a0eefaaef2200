"""What one discard does to a hand: the distance and the useful tiles before and after, and the best discard.

For a replay viewer that annotates each discard with its "efficiency loss", in every rule set (wildcards
included: pass the rule set's :class:`~mjarena.hand.options.HandRules`).  Built on
:func:`mjarena.hand.wild.discards`, so the figures are the ones the hand analysis gives everywhere else.

>>> from mjarena.hand.options import RULES
>>> from mjarena.tiles import counts_of, parse_mpsz
>>> effect = discard_effect(counts_of(parse_mpsz("123m456p789s1122z7z")), 33, rules=RULES["thupc2021"])
>>> effect.distance_before, effect.distance_after, effect.useful_after, effect.best_kind  # waits: 1z, 2z
(1, 1, 4, 33)
>>> effect = discard_effect(counts_of(parse_mpsz("123m456p789s1122z7z")), 0, rules=RULES["thupc2021"])  # 1m
>>> effect.distance_after, effect.useful_after, effect.distance_loss, effect.useful_loss
(2, 11, 1, -7)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mjarena.hand.options import HandRules
from mjarena.hand.wild import DEFAULT_RULES, discards, distance
from mjarena.tiles import format_tile

__all__ = ["DiscardEffect", "discard_effect"]


@dataclass(frozen=True, slots=True)
class DiscardEffect:
    """One discard's effect on a ``14 - 3 * melds`` hand.

    ``distance_before``: the exchange distance of the hand holding the tile; ``distance_after``: of the hand
    after the discard; ``useful_after``: how many tiles would lower ``distance_after`` (unseen copies when
    visible counts were given, else ``4 - held``), of the kinds ``useful_kinds``.  ``best_*``: the same for the
    best discard (:func:`mjarena.hand.wild.discards` order: lowest distance, then most useful tiles).
    A wildcard drawn always helps and is not counted among the useful tiles.
    """

    kind: int
    distance_before: int
    distance_after: int
    useful_after: int
    useful_kinds: tuple[int, ...]
    best_kind: int
    best_distance: int
    best_useful: int

    @property
    def distance_loss(self) -> int:
        """How much farther from a win than the best discard (0 for a discard as close as the best)."""
        return self.distance_after - self.best_distance

    @property
    def useful_loss(self) -> int:
        """How many fewer useful tiles than the best discard (negative: more, at a greater distance)."""
        return self.best_useful - self.useful_after


def discard_effect(counts: Sequence[int], kind: int, melds: int = 0, rules: HandRules = DEFAULT_RULES,
                   visible: Sequence[int] | None = None) -> DiscardEffect:
    """The effect of discarding ``kind`` from a hand of ``14 - 3 * melds`` tiles (count vector of 38).

    ``visible``: counts of the tiles seen outside the hand (discards, melds), for unseen counts.  Raises
    ValueError (a one-line message) for a hand of the wrong size or a kind the hand does not hold.
    """
    if not (isinstance(kind, int) and 0 <= kind < len(counts) and counts[kind] > 0):
        raise ValueError(f"cannot discard {_name(kind)}: the hand holds none")
    options = discards(counts, melds, rules, visible)
    chosen = next(option for option in options if option.kind == kind)
    best = options[0]

    def useful(option: object) -> int:
        return sum(4 - counts[w.kind] if w.unseen is None else w.unseen for w in option.useful)  # type: ignore[attr-defined]

    return DiscardEffect(
        kind=kind, distance_before=distance(counts, melds, rules), distance_after=chosen.distance,
        useful_after=useful(chosen), useful_kinds=tuple(w.kind for w in chosen.useful), best_kind=best.kind,
        best_distance=best.distance, best_useful=useful(best),
    )


def _name(kind: object) -> str:
    try:
        return format_tile(kind)  # type: ignore[arg-type]
    except (ValueError, TypeError, IndexError, KeyError):
        return repr(kind)
