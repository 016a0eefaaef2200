"""How the judge plays for a seat that erred (RULINGS.md): it discards the tile just drawn and never claims.

The match runner (:func:`mjarena.arena.match.run_match`), the pre-flight check and the single-seat environment
(:class:`mjarena.env.single_agent.SingleAgentEnv`) all play erring seats with it.

>>> from mjarena.variants.base import Action
>>> class Game:
...     last_drawn = [5, None, None, None]
>>> JudgeFallback().act(Game(), 0, [Action("play", tile=4), Action("play", tile=5)])
Action(type='play', tile=5, target=None, tiles=())
>>> JudgeFallback().act(Game(), 1, [Action("peng", tile=5), Action("pass")])
Action(type='pass', tile=None, target=None, tiles=())
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjarena.variants.base import Action

__all__ = ["JudgeFallback"]

_DISCARDS = ("play", "discard")  # the discard verb of NOI 2014 and 百搭, and of THUPC 2021


class JudgeFallback:
    """How the judge plays for a seat that erred: discard the tile just drawn, never claim."""

    name = "judge"

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        if not legal:  # the target hand: none given
            return Action("target")
        drawn = getattr(game, "last_drawn", [None] * 4)[seat]
        for action in legal:
            if action.type in _DISCARDS and action.tile == drawn:
                return action
        for action in legal:
            if action.type in _DISCARDS or action.type == "pass":
                return action
        return legal[0]
