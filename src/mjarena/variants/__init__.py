"""Rule sets, each a state machine that emits events; looked up by name in :data:`VARIANTS`.

>>> get_variant("THUPC").name
'thupc2021'
"""

from mjarena.variants import baida as baida
from mjarena.variants import noi2014 as noi2014
from mjarena.variants import thupc2021
from mjarena.variants.base import VARIANTS, get_variant

__all__ = ["VARIANTS", "get_variant", "thupc2021"]
