"""Rule sets, each a state machine that emits events; looked up by name with :func:`get_variant`.

The rule sets' modules (``noi2014``, ``baida``, ``thupc2021``) are imported when first used, not with the package:
``from mjarena.variants.base import Action`` costs no rule set, and a THUPC run does not load the 百搭 tables.

>>> get_variant("THUPC").name
'thupc2021'
"""

from __future__ import annotations

import importlib
from types import ModuleType

from mjarena.variants.base import RULE_SETS, VARIANTS, get_variant

__all__ = ["RULE_SETS", "VARIANTS", "get_variant"]


def __getattr__(name: str) -> ModuleType:
    if name not in RULE_SETS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return importlib.import_module(f"{__name__}.{name}")
