"""Hand analysis: exchange distance (和牌距离), win checks, waits and arrangements, table-driven.

:func:`distance` and :func:`is_winning` are the standard form without wildcards (THUPC 2021, NOI 2014);
the rest is the complete analysis for every rule set, wildcards (百搭) included (:mod:`mjarena.hand.wild`,
options in :mod:`mjarena.hand.options`).  The wildcard-aware distance is :func:`wild_distance`
(``mjarena.hand.wild.distance``).  Those names are imported on first use, so ``import mjarena.hand`` stays
as fast as before.

>>> from mjarena.tiles import counts_of, parse_mpsz
>>> distance(counts_of(parse_mpsz("19m19p19s1234567z")))
9
>>> from mjarena.hand import RULES, can_win
>>> can_win(counts_of(parse_mpsz("123m456p789s22m1z*")), rules=RULES["baida"])
False
"""

from __future__ import annotations

from typing import Any

from mjarena.hand.standard import distance, distance_of_keys, group_of, is_winning, key_weight, suit_keys

_LAZY = {
    "RULES": "mjarena.hand.options",
    "HandRules": "mjarena.hand.options",
    "get_rules": "mjarena.hand.options",
    "Analysis": "mjarena.hand.wild",
    "Arrangement": "mjarena.hand.wild",
    "DiscardOption": "mjarena.hand.wild",
    "Group": "mjarena.hand.wild",
    "Wait": "mjarena.hand.wild",
    "analyse": "mjarena.hand.wild",
    "arrangements": "mjarena.hand.wild",
    "can_win": "mjarena.hand.wild",
    "discards": "mjarena.hand.wild",
    "distance_function": "mjarena.hand.wild",
    "format_arrangement": "mjarena.hand.wild",
    "group_keys": "mjarena.hand.wild",
    "waits": "mjarena.hand.wild",
    "wild_distance": "mjarena.hand.wild",
}

__all__ = ["distance", "distance_of_keys", "group_of", "is_winning", "key_weight", "suit_keys", *_LAZY]


def __getattr__(name: str) -> Any:
    """The wildcard-aware API, imported on first use (PEP 562)."""
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module_name), "distance" if name == "wild_distance" else name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
