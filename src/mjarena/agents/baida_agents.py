"""Built-in policies for 百搭 mahjong (:mod:`mjarena.variants.baida`): a random player and a greedy one.

- :class:`RandomAgent`: an action type uniformly among the legal ones, then one action of that type.
- :class:`GreedyAgent`: HU whenever it can; otherwise the discard (or claim) that leaves the lowest estimated
  distance to a win.  The estimate is the table-driven exchange distance of the ordinary tiles
  (:func:`mjarena.hand.standard.distance_of_keys`, wildcards left out) minus the number of wildcards held: each
  wildcard fills one missing tile.  It ignores the 2/5/8 pair rule and seven pairs, so it is only a guide; the
  game's exact win check decides every HU.  Ties keep wildcards, pairs and connected tiles.

>>> from mjarena.variants.baida import BaidaGame, shuffled_wall
>>> from mjarena.variants.base import play
>>> agents = [GreedyAgent(), RandomAgent(seed=1), GreedyAgent(), RandomAgent(seed=2)]
>>> play(BaidaGame(shuffled_wall(seed=4)), agents).events[-1].type
'end'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjarena.agents.builtin import RandomAgent, keep_value  # a random legal action serves any rule set
from mjarena.hand.wild import RULES, distance_function, group_keys
from mjarena.variants.base import Action, tiles_of

__all__ = ["BAIDA_AGENTS", "GreedyAgent", "RandomAgent", "estimate"]


_BAIDA_DISTANCE = distance_function(RULES["baida"])


def estimate(counts: Sequence[int], melds: int) -> int:
    """The exchange distance to a 小胡 or 清一色 under the 百搭 rules (2-5-8 pair, wildcards), from the tables;
    seven pairs is left out.

    >>> from mjarena.tiles import counts_of, parse_mpsz
    >>> estimate(counts_of(parse_mpsz("123m456p789s111z5p*")), 0)
    0
    >>> estimate(counts_of(parse_mpsz("123m456p789s111z2z*")), 0)  # a 2z pair is not 2-5-8
    1
    """
    return _BAIDA_DISTANCE(*group_keys(counts, RULES["baida"]), melds)


def _best_discard(counts: list[int], melds: int, kinds: Sequence[int]) -> tuple[int, int]:
    """``(estimate, kind)`` of the best discard among ``kinds`` (``counts`` is restored)."""
    best = (99, 0, -1)
    for kind in kinds:
        counts[kind] -= 1
        after = estimate(counts, melds)
        counts[kind] += 1
        key = (after, keep_value(counts, kind), kind)
        if key < best:
            best = key
    return best[0], best[2]


class GreedyAgent:
    """Lowest estimated distance first (:func:`estimate`); deterministic."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        """``seed`` is accepted like every built-in agent's; the greedy choice is deterministic anyway."""

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        if legal[0].type == "hu":
            return legal[0]
        counts = list(game.hands[seat])
        melds = len(game.melds[seat])
        if legal[-1].type == "pass":
            return self._claim(counts, melds, game.claimable, legal)
        distance, kind = _best_discard(counts, melds, tiles_of(legal, "play"))
        for action in legal:
            if action.type == "gang":
                tile = action.tile
                assert tile is not None
                after = counts.copy()
                concealed = after[tile] == 4
                after[tile] -= 4 if concealed else 1
                if estimate(after, melds + concealed) <= distance:
                    return action
        return Action("play", kind)

    @staticmethod
    def _claim(counts: list[int], melds: int, kind: int, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        choice, best = legal[-1], estimate(counts, melds)
        pengs = tiles_of(legal, "peng")
        if pengs:
            after = counts.copy()
            after[kind] -= 2
            distance, discard = _best_discard(after, melds + 1, pengs)
            if distance < best:
                choice, best = Action("peng", discard), distance
        for action in legal:
            if action.type == "gang":
                after = counts.copy()
                after[kind] -= 3
                if estimate(after, melds + 1) <= best:
                    choice = action
        runs = sorted(set(tiles_of(legal, "chi")))
        for low in runs:
            after = counts.copy()
            after[kind] += 1
            for tile in (low, low + 1, low + 2):
                after[tile] -= 1
            discards = [a.tiles[0] for a in legal if a.type == "chi" and a.tile == low]
            distance, discard = _best_discard(after, melds + 1, discards)
            if distance < best:
                choice, best = Action("chi", low, tiles=(discard,)), distance
        return choice


BAIDA_AGENTS: dict[str, type[RandomAgent] | type[GreedyAgent]] = {"random": RandomAgent, "greedy": GreedyAgent}
"""The 百搭 built-in agents by name; call the class, with an optional ``seed``, to get an agent."""
