"""In-process NOI 2014 agents written to feed each other, for the collusion report's tests (issue 36).

A :class:`Colluder` plays like the built-in greedy agent, except towards its partner (the other colluder at the
table), whose seat it learns from a registry the colluders share (their perfect channel: what the sandbox's side
of issue 36 closes between real bots):

- it discards, when it can, a tile its partner wins on, else one its partner holds a pair of (the partner's hand
  is read from the game: an in-process agent sees it);
- it takes every discard of its partner that it can: HU, else GANG, else PENG.

>>> from mjarena.variants.base import play
>>> from mjarena.variants.noi2014 import NoiGame, shuffled_wall
>>> from mjarena.agents.builtin import GreedyAgent
>>> game = play(NoiGame(shuffled_wall(seed=4)), [Colluder(), Colluder(), GreedyAgent(), GreedyAgent()])
>>> game.events[-1].type
'end'
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

from mjarena.agents.builtin import GreedyAgent
from mjarena.variants.base import Action

_SEATS: weakref.WeakKeyDictionary[Any, set[int]] = weakref.WeakKeyDictionary()
"""For each game being played, the seats of the colluders seen so far (their channel)."""


class Colluder(GreedyAgent):
    """Greedy, but feeds its partner what it can win on or PENG, and takes every discard of its partner it can."""

    name = "colluder"

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        seats = _SEATS.setdefault(game, set())
        seats.add(seat)
        partner = next((other for other in seats if other != seat and game.status[other] == "in"), None)
        if partner is None or not legal or any(action.type == "hu" for action in legal):
            return super().act(game, seat, legal)
        if legal[-1].type == "pass":  # a claim: take the partner's discard
            if game.discarder != partner:
                return super().act(game, seat, legal)
            for action in legal:
                if action.type == "gang":
                    return action
            pengs = [action for action in legal if action.type == "peng"]
            if pengs:
                chosen = super().act(game, seat, legal)
                return chosen if chosen.type == "peng" else pengs[0]
            return super().act(game, seat, legal)
        plays = [action for action in legal if action.type == "play"]
        for action in plays:
            if game.wins_with(partner, action.tile):
                return action
        for action in plays:
            if game.hands[partner].counts[action.tile] >= 2:
                return action
        return super().act(game, seat, legal)
