"""What each discard of a replay did to the discarder's hand: the replay viewer's discard annotations.

For a discard, :func:`discard_annotation` gives the exchange distance (和牌距离: tiles still to draw to win, 1
meaning ready) before and after it, the useful tiles left after it (the unseen copies of the kinds whose draw
would lower that distance), and the same for the best discard of that hand, as one JSON-ready dict with a
sentence and a short verdict for the page.  The figures are :func:`mjarena.hand.effect.discard_effect`'s, under
the rule set's :class:`~mjarena.hand.options.HandRules` (百搭's wildcards included).  "Useful" counts the copies
the discarder has not seen: four, less those in its hand, less those seen outside it (``seen``: discards and
melds, the same for every seat, see :attr:`mjarena.table.Table.seen`).

A discard that cannot be measured raises :class:`ValueError` with the reason: a THUPC special tile (PASS,
REVERSE, DOUBLE: they never belong to a hand, and discarding one is a move of the game, not of the hand), or a
hand that does not fit (a replay whose tiles do not add up).  The viewer then shows no annotation for that step.

>>> from mjarena.tiles import parse_tiles
>>> hand = parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6 T9", "noi")
>>> note = discard_annotation("noi2014", hand, 8)  # W9 breaks the run 789m; T9 was the one to go
>>> note["distance_before"], note["distance_after"], note["best_tile"], note["best_distance"], note["best"]
(1, 2, 26, 1, False)
>>> note["verdict"], note["useful_after"]
('1 farther from a win than T9', 17)
>>> note["text"]
'W9: ready → distance 2 with 17 useful tiles; best: T9, ready with 8 useful tiles'
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from mjarena.i18n import gettext as _
from mjarena.i18n import ngettext
from mjarena.tiles import NUM_KINDS, SPECIALS, STANDARD_KINDS, WILD

__all__ = ["discard_annotation", "state_words"]

_CACHE_SIZE = 8192
"""Hand situations kept (a replay has about a hundred discards): a replay shown again costs dictionary look-ups."""


def state_words(distance: int, useful: int | None = None) -> str:
    """A distance (and useful tiles) in words, in the active language (:mod:`mjarena.i18n`).

    >>> state_words(0), state_words(1, 8), state_words(3, 1)
    ('a winning hand', 'ready with 8 useful tiles', 'distance 3 with 1 useful tile')
    """
    words = _("a winning hand") if distance == 0 else _("ready") if distance == 1 else \
        _("distance %(distance)s") % {"distance": distance}
    if useful is None:
        return words
    return ngettext("%(state)s with %(count)s useful tile", "%(state)s with %(count)s useful tiles", useful) % {
        "state": words, "count": useful}


def _words(name: Callable[[int], str], kind: int, figures: tuple[int, int, int, int, int, int],
           best: bool) -> tuple[str, str]:
    """The verdict and the sentence of a discard of ``kind``: ``figures`` are (distance before, after, useful
    after, best kind, best distance, best useful)."""
    before, after, useful, best_kind, best_distance, best_useful = figures
    distance_loss, useful_loss = after - best_distance, best_useful - useful
    values = {"tile": name(best_kind), "loss": distance_loss if distance_loss else useful_loss}
    if best:
        verdict = _("the best discard")
    elif distance_loss:
        verdict = _("%(loss)s farther from a win than %(tile)s") % values
    else:
        verdict = ngettext("%(loss)s fewer useful tile than %(tile)s", "%(loss)s fewer useful tiles than %(tile)s",
                           useful_loss) % values
    moved = _("distance %(before)s → %(after)s") % {"before": before, "after": after} if min(before, after) > 1 \
        else f"{state_words(before)} → {state_words(after)}"
    text = ngettext("%(tile)s: %(moved)s with %(count)s useful tile", "%(tile)s: %(moved)s with %(count)s useful tiles",
                    useful) % {"tile": name(kind), "moved": moved, "count": useful}
    if not best:
        text = _("%(text)s; best: %(tile)s, %(state)s") % {
            "text": text, "tile": name(best_kind), "state": state_words(best_distance, best_useful)}
    return verdict, text


def discard_annotation(rules: str, hand: Sequence[int], kind: int, melds: int = 0,
                       seen: Sequence[int] | None = None,
                       name: Callable[[int], str] | None = None) -> dict[str, Any]:
    """The effect of discarding ``kind`` from ``hand`` (the tiles held, as kinds) with ``melds`` melds laid down,
    in rule set ``rules``; ``seen``: counts by kind of the tiles seen outside the hand (None: only the hand's own
    tiles count as seen); ``name``: a kind's name (default: the rule set's, as its bots read it).

    Keys: ``tile``, ``distance_before``, ``distance_after``, ``useful_after``, ``useful_tiles`` (kinds),
    ``best_tile``, ``best_distance``, ``best_useful``, ``distance_loss``, ``useful_loss``, ``best`` (as good
    as the best discard: neither farther nor fewer useful tiles), ``verdict`` and ``text`` (words, in the active
    language: :func:`mjarena.i18n.active`).
    :class:`ValueError` says why a discard cannot be measured.
    """
    from mjarena.hand.options import RULES

    if rules not in RULES:
        raise ValueError(f"no hand rules for rule set {rules!r}")
    if kind in SPECIALS:
        raise ValueError("a special tile: not part of any hand")
    counts = [0] * NUM_KINDS
    for tile in hand:
        if not (type(tile) is int and 0 <= tile < NUM_KINDS):
            raise ValueError(f"not a tile kind: {tile!r}")
        counts[tile] += 1
    if not (type(melds) is int and 0 <= melds <= 4) or len(hand) != 14 - 3 * melds:
        raise ValueError(f"the hand holds {len(hand)} tiles with {melds!r} meld(s), not the 14 - 3 x melds "
                         "of a hand about to discard")
    for tile, count in enumerate(counts):
        if count > (8 if tile == WILD else 4):
            raise ValueError(f"the hand holds {count} tiles of kind {tile}")
    if seen is not None:
        seen = tuple(seen)
        if len(seen) != NUM_KINDS or any(type(count) is not int or count < 0 for count in seen):
            raise ValueError("seen must hold a count of 0 or more for each of the 38 kinds")
        for tile in range(STANDARD_KINDS):
            if counts[tile] + seen[tile] > 4:
                raise ValueError(f"{counts[tile]} held and {seen[tile]} seen: more than 4 tiles of kind {tile}")
    figures = _figures(rules, tuple(counts), kind, melds, seen)
    if name is None:
        from mjarena.rulesets import judge_rules

        name = judge_rules(rules).tile_name
    (before, after, useful, useful_kinds, best_kind, best_distance, best_useful) = figures
    distance_loss, useful_loss = after - best_distance, best_useful - useful
    best = distance_loss == 0 and useful_loss <= 0
    verdict, text = _words(name, kind, (before, after, useful, best_kind, best_distance, best_useful), best)
    return {
        "tile": kind, "distance_before": before, "distance_after": after, "useful_after": useful,
        "useful_tiles": list(useful_kinds), "best_tile": best_kind, "best_distance": best_distance,
        "best_useful": best_useful, "distance_loss": distance_loss, "useful_loss": useful_loss, "best": best,
        "verdict": verdict, "text": text,
    }


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _figures(rules: str, counts: tuple[int, ...], kind: int, melds: int,
             seen: tuple[int, ...] | None) -> tuple[int, int, int, tuple[int, ...], int, int, int]:
    """:func:`~mjarena.hand.effect.discard_effect`'s figures, cached by the whole situation (the arguments)."""
    from mjarena.hand.effect import discard_effect
    from mjarena.hand.options import RULES

    effect = discard_effect(counts, kind, melds, RULES[rules], seen)
    return (effect.distance_before, effect.distance_after, effect.useful_after, effect.useful_kinds,
            effect.best_kind, effect.best_distance, effect.best_useful)
