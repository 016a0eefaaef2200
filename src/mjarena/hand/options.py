"""Rule options of the hand analysis (:mod:`mjarena.hand.wild`), one frozen object per rule set.

The options describe the *rules*, never the situation of one hand (melds laid down, tiles seen): those are
arguments of the analysis functions.

>>> RULES["baida"].pair_258, RULES["baida"].seven_pairs, RULES["baida"].wild_kind
(True, True, 37)
>>> len(RULES["noi2014"].kinds), RULES["thupc2021"].wild_kind is None
(27, True)
>>> HandRules(kinds=frozenset({0, 1, 2}))
Traceback (most recent call last):
...
ValueError: HandRules.kinds must be whole groups (suits 0-8, 9-17, 18-26, honours 27-33); got 3 kinds
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mjarena.tiles import STANDARD_KINDS, WILD

__all__ = ["ALL_KINDS", "RULES", "SUITED_KINDS", "HandRules", "get_rules"]

ALL_KINDS: frozenset[int] = frozenset(range(STANDARD_KINDS))
"""The 34 standard kinds: three numbered suits and seven honours."""
SUITED_KINDS: frozenset[int] = frozenset(range(27))
"""The 27 kinds of the three numbered suits (NOI 2014 has no honours)."""

_GROUPS = (range(0, 9), range(9, 18), range(18, 27), range(27, 34))


@dataclass(frozen=True)
class HandRules:
    """What makes a winning hand.

    - ``wild_kind``: tiles of this kind are wildcards (百搭) that may stand for any tile of :attr:`kinds`.
      Default :data:`~mjarena.tiles.WILD` (kind 37, ``*`` in mpsz, ``BAIDA``); ``None``: no wildcards (a
      kind-37 tile is then a dead tile that can never be part of a winning hand); a standard kind (say 33 for
      中) makes those tiles wild instead (they may then also stand for themselves).
    - ``pair_258``: the pair of the standard form must be a 2, 5 or 8 of a numbered suit (二五八作将).
    - ``seven_pairs``: 七巧对 also wins: 14 concealed tiles (no melds) that make seven pairs; four of a kind
      counts as two pairs and a wildcard pairs with anything.  The 2-5-8 rule does not apply to it.
    - ``wild_fifth_copy``: a wildcard may stand for a fifth copy of a kind (so a kind may be represented five
      times: four real tiles and one wildcard).  ``False``: every kind is represented at most 4 times.
      Real tiles are always at most 4 of a kind; nothing is ever represented six times.
    - ``kinds``: the tile kinds that exist, a union of whole groups (the three suits, the honours).  Tiles
      of other kinds are dead and wildcards never stand for them.
    """

    wild_kind: int | None = WILD
    pair_258: bool = False
    seven_pairs: bool = False
    wild_fifth_copy: bool = True
    kinds: frozenset[int] = field(default=ALL_KINDS)

    def __post_init__(self) -> None:
        if self.wild_kind is not None and not (
            isinstance(self.wild_kind, int) and (0 <= self.wild_kind < STANDARD_KINDS or self.wild_kind == WILD)
        ):
            raise ValueError(f"HandRules.wild_kind must be None, {WILD} or a kind 0..33, not {self.wild_kind!r}")
        kinds = frozenset(self.kinds)
        object.__setattr__(self, "kinds", kinds)
        if not kinds <= ALL_KINDS:
            raise ValueError(f"HandRules.kinds holds kinds outside 0..33: {sorted(kinds - ALL_KINDS)}")
        if any(0 < len(kinds & frozenset(group)) < len(group) for group in _GROUPS):
            raise ValueError(
                f"HandRules.kinds must be whole groups (suits 0-8, 9-17, 18-26, honours 27-33); got {len(kinds)} kinds"
            )
        if not kinds & SUITED_KINDS:
            raise ValueError("HandRules.kinds must hold at least one numbered suit")

    @property
    def honours(self) -> bool:
        """Whether the honours exist."""
        return 27 in self.kinds

    def live(self, kind: int) -> bool:
        """Whether a real (non-wild) tile of ``kind`` can be part of a winning hand.

        >>> HandRules().live(27), RULES["noi2014"].live(27), HandRules().live(37)
        (True, False, False)
        """
        return kind in self.kinds and kind != self.wild_kind


RULES: dict[str, HandRules] = {
    "thupc2021": HandRules(wild_kind=None),
    "noi2014": HandRules(wild_kind=None, kinds=SUITED_KINDS),
    "baida": HandRules(pair_258=True, seven_pairs=True),
}
"""The hand rules of each variant, by variant name."""

_ALIASES = {"thupc": "thupc2021", "noi": "noi2014", "百搭": "baida", "wild": "baida"}


def get_rules(name: str) -> HandRules:
    """The rules of a variant by name or alias (case ignored).

    >>> get_rules("NOI") == RULES["noi2014"]
    True
    >>> get_rules("riichi")
    Traceback (most recent call last):
    ...
    ValueError: unknown rule set 'riichi'; known: thupc2021, noi2014, baida
    """
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in RULES:
        raise ValueError(f"unknown rule set {name!r}; known: {', '.join(RULES)}")
    return RULES[key]

