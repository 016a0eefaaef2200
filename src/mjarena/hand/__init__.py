"""Hand analysis: exchange distance (和牌距离) and win checks, table-driven.

>>> from mjarena.tiles import counts_of, parse_mpsz
>>> distance(counts_of(parse_mpsz("19m19p19s1234567z")))
9
"""

from mjarena.hand.standard import distance, distance_of_keys, group_of, is_winning, key_weight, suit_keys

__all__ = ["distance", "distance_of_keys", "group_of", "is_winning", "key_weight", "suit_keys"]
