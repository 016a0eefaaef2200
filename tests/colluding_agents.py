"""Two in-process NOI 2014 agents written to feed each other, for the collusion report's tests (issue 36).

Each plays like the built-in greedy agent, except towards its partner, whose seat they learn from a registry
shared by the two (their perfect channel: what the sandbox's side of issue 36 closes between real bots):

- :class:`Feeder` discards, when it can, a tile its partner wins on, else one its partner holds a pair of (the
  partner's hand is read from the game: an in-process agent sees it);
- :class:`Taker` takes every discard of its partner that it can: HU, else GANG, else PENG.

>>> from mjarena.variants.base import play
>>> from mjarena.variants.noi2014 import NoiGame, shuffled_wall
>>> from mjarena.agents.builtin import GreedyAgent
>>> game = play(NoiGame(shuffled_wall(seed=4)), [Feeder(), Taker(), GreedyAgent(), GreedyAgent()])
>>> game.events[-1].type
'end'
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

from mjarena.agents.builtin import GreedyAgent
from mjarena.variants.base import Action

_SEATS: weakref.WeakKeyDictionary[Any, dict[str, int]] = weakref.WeakKeyDictionary()
"""For each game being played, the seat of each role (the colluders' channel)."""


def _partner(game: Any, role: str, seat: int, other: str) -> int | None:
    seats = _SEATS.setdefault(game, {})
    seats[role] = seat
    partner = seats.get(other)
    return partner if partner is not None and game.status[partner] == "in" else None


class Feeder(GreedyAgent):
    """Greedy, but discards what its partner (a :class:`Taker`) can win on or PENG when it holds such a tile."""

    name = "feeder"

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        partner = _partner(game, "feeder", seat, "taker")
        plays = [action for action in legal if action.type == "play"]
        if partner is None or not plays or any(action.type == "hu" for action in legal):
            return super().act(game, seat, legal)
        wanted = game.hands[partner]
        for action in plays:
            if game.wins_with(partner, action.tile):
                return action
        for action in plays:
            if wanted.counts[action.tile] >= 2:
                return action
        return super().act(game, seat, legal)


class Taker(GreedyAgent):
    """Greedy, but takes every discard of its partner (a :class:`Feeder`) that it can."""

    name = "taker"

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        partner = _partner(game, "taker", seat, "feeder")
        if partner is not None and legal and legal[-1].type == "pass" and game.discarder == partner:
            for kind in ("hu", "gang"):
                for action in legal:
                    if action.type == kind:
                        return action
            pengs = [action for action in legal if action.type == "peng"]
            if pengs:
                chosen = super().act(game, seat, legal)
                return chosen if chosen.type == "peng" else pengs[0]
        return super().act(game, seat, legal)
