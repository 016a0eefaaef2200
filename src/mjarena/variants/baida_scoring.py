"""台 scoring of a 百搭 (baida) win: the win form (小胡, 七巧对, 清一色) and the 台 items, by name and count.

The items (RULINGS.md, regional section), read as documented in ``docs/rules.md`` ("## 百搭 (baida)"):

=========  ===  ====================================================================================
item       台   when
=========  ===  ====================================================================================
凑一台      1    apart from winds (E S W N) and 大料 (read as the dragons 白 发 中), all tiles are of one
                suit, and there is at least one wind or dragon (without any it is 清三台)
清三台      3    only tiles of one suit (万, 筒 or 条)
清四台      4    清三台 and 七巧对 at once; reported instead of 清三台 (七巧对 carries no 台 of its own)
边张        1    the winning tile is a real 3 completing 1-2-3, or a real 7 completing 7-8-9, in a run of
                the chosen arrangement (won on a self-draw or on a discard)
=========  ===  ====================================================================================

A wildcard counts as the tile it stands for in the chosen arrangement; a group made of wildcards only (it
could stand for anything) takes no side.  Melds count with their real tiles.  When a hand wins in several
arrangements, the one with the most 台 is reported (the first such in the analysis' order on a tie).

>>> from types import SimpleNamespace as G
>>> pair = G(type="pair", kinds=(1, 1), wild=())
>>> runs = [G(type="run", kinds=(0, 1, 2), wild=()), G(type="run", kinds=(6, 7, 8), wild=(8,))]
>>> arrangement = G(form="standard", groups=(pair, *runs, G(type="triplet", kinds=(4, 4, 4), wild=())))
>>> items = tai_items(arrangement, melds=[(3, 3, 3)], win_tile=2)
>>> items
(TaiItem(name='清三台', tai=3), TaiItem(name='边张', tai=1))
>>> win_form_name(arrangement, items)
'清一色'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from mjarena.tiles import WILD

__all__ = ["TAI", "Score", "TaiItem", "best_score", "suits_used", "tai_items", "win_form_name"]

TAI = {"凑一台": 1, "清三台": 3, "清四台": 4, "边张": 1}
"""Every 台 item and its count."""

WINDS = range(27, 31)
DRAGONS = range(31, 34)
"""大料 is read as the three dragons 白 发 中 (kinds 31..33)."""


class TaiItem(NamedTuple):
    """One scoring item of a win: its Chinese ``name`` and its 台 count."""

    name: str
    tai: int


class Score(NamedTuple):
    """What a win scores: ``win_form`` (``小胡``, ``七巧对`` or ``清一色``), the 台 ``items``, their ``total``, and
    the ``arrangement`` (of the concealed tiles) they were counted on."""

    win_form: str
    items: tuple[TaiItem, ...]
    total: int
    arrangement: Any


def suits_used(arrangement: Any, melds: Iterable[Sequence[int]]) -> tuple[set[int], bool]:
    """The suits (0, 1, 2) of the tiles in the arrangement and the melds, and whether any honour is among them.

    Wildcards count as what they stand for; a group of wildcards only counts for nothing.

    >>> from types import SimpleNamespace as G
    >>> wild_pair = G(type="pair", kinds=(4, 4), wild=(4, 4))
    >>> suits_used(G(form="standard", groups=(wild_pair,)), [(27, 27, 27), (9, 10, 11)])
    ({1}, True)
    """
    kinds: list[int] = []
    for group in arrangement.groups:
        if len(group.wild) < len(group.kinds):
            kinds += group.kinds
    for meld in melds:
        kinds += [kind for kind in meld if kind != WILD]
    suits = {kind // 9 for kind in kinds if kind < 27}
    return suits, any(27 <= kind < 34 for kind in kinds)


def _edge_wait(arrangement: Any, win_tile: int) -> bool:
    """Whether ``win_tile`` (a real tile) is the 3 of a 1-2-3 run or the 7 of a 7-8-9 run of the arrangement.

    The 1-2 (or 8-9) may be wildcards.  A winning 百搭 is never 边张 (its kind is 37, not a 3 or a 7).
    """
    if win_tile >= 27 or win_tile % 9 not in (2, 6):
        return False
    low = win_tile - 2 if win_tile % 9 == 2 else win_tile
    return any(group.type == "run" and tuple(group.kinds) == (low, low + 1, low + 2) for group in arrangement.groups)


def tai_items(arrangement: Any, melds: Iterable[Sequence[int]], win_tile: int) -> tuple[TaiItem, ...]:
    """The 台 items of a win in this arrangement (``melds``: the tiles of each laid-down set).

    >>> from types import SimpleNamespace as G
    >>> pairs = G(form="seven_pairs", groups=tuple(G(type="pair", kinds=(k, k), wild=()) for k in range(7)))
    >>> tai_items(pairs, [], win_tile=6)
    (TaiItem(name='清四台', tai=4),)
    >>> kinds = (0, 1, 2, 27, 28, 31, 3)
    >>> mixed = G(form="seven_pairs", groups=tuple(G(type="pair", kinds=(k, k), wild=()) for k in kinds))
    >>> tai_items(mixed, [], win_tile=3)
    (TaiItem(name='凑一台', tai=1),)
    """
    melds = list(melds)
    suits, honours = suits_used(arrangement, melds)
    items: list[TaiItem] = []
    if len(suits) <= 1 and not honours:
        name = "清四台" if arrangement.form == "seven_pairs" else "清三台"
        items.append(TaiItem(name, TAI[name]))
    elif len(suits) == 1 and honours:
        items.append(TaiItem("凑一台", TAI["凑一台"]))
    if arrangement.form == "standard" and _edge_wait(arrangement, win_tile):
        items.append(TaiItem("边张", TAI["边张"]))
    return tuple(items)


def win_form_name(arrangement: Any, items: Sequence[TaiItem]) -> str:
    """``七巧对`` for seven pairs, ``清一色`` for a standard hand of one suit (清三台), else ``小胡``."""
    if arrangement.form == "seven_pairs":
        return "七巧对"
    return "清一色" if any(item.name == "清三台" for item in items) else "小胡"


def best_score(arrangements: Sequence[Any], melds: Iterable[Sequence[int]], win_tile: int) -> Score:
    """The score of the arrangement with the most 台 (the first of them on a tie).

    >>> from types import SimpleNamespace as G
    >>> best_score([], [], 0)
    Traceback (most recent call last):
    ...
    ValueError: a win needs at least one winning arrangement
    """
    melds = [tuple(meld) for meld in melds]
    best: Score | None = None
    for arrangement in arrangements:
        items = tai_items(arrangement, melds, win_tile)
        total = sum(item.tai for item in items)
        if best is None or total > best.total:
            best = Score(win_form_name(arrangement, items), items, total, arrangement)
    if best is None:
        raise ValueError("a win needs at least one winning arrangement")
    return best


