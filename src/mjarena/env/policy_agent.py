"""A policy over the environments' observations, as an mjarena agent: it plays matches and tournaments.

A policy is any callable ``policy(observation, action_mask) -> action index``: ``observation`` the
``(11, kinds)`` array and ``action_mask`` the ``int8`` mask the environments give (``docs/env/``).  A trained
network, a rule of thumb or a random choice all fit.  In a match or a tournament, name it as a bot spec
``python:MODULE:NAME`` (:mod:`mjarena.agents.factory`), or make the agent yourself:

>>> import numpy as np
>>> from mjarena.agents.builtin import GreedyAgent
>>> from mjarena.variants.base import play
>>> from mjarena.variants.noi2014 import NoiGame, rank, shuffled_wall
>>> def last_legal(observation, action_mask):
...     return int(np.flatnonzero(action_mask)[-1])
>>> game = play(NoiGame(shuffled_wall(3)), [PolicyAgent(last_legal), GreedyAgent(), GreedyAgent(), GreedyAgent()])
>>> sum(result.points for result in rank(game))
10.0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mjarena.agents.errors import IllegalAnswer
from mjarena.env import spec_for
from mjarena.env._history import History
from mjarena.env._spec import Observer
from mjarena.variants.base import Action

__all__ = ["Policy", "PolicyAgent"]

Policy = Callable[[np.ndarray, np.ndarray], int]


class PolicyAgent:
    """Plays ``rules`` (a rule set name) by ``policy``; an index outside the mask is the error
    ``illegal_action`` (in a match the judge then plays for the seat).

    ``observation``: ``"planes"`` or ``"history"`` (:mod:`mjarena.env._history`), as the environments offer
    them; by default the policy's own ``observation`` attribute if it has one (a trained policy says what it was
    trained on), else ``"planes"``.
    """

    def __init__(self, policy: Policy, rules: str = "noi2014", name: str = "policy",
                 observation: str | None = None) -> None:
        self.policy = policy
        self.spec = spec_for(rules)
        self.name = name
        self.observation = observation or getattr(policy, "observation", "planes")
        if self.observation not in ("planes", "history"):
            raise ValueError(f"observation {self.observation!r}: expected planes or history")
        self._game: Any = None
        self._observer = Observer(self.spec)
        self._history = History(self.spec)

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        if game is not self._game:
            self._game, self._observer, self._history = game, Observer(self.spec), History(self.spec)
        self._observer.update(game.events)
        stage = game.decision.stage
        options = self.spec.legal_options(game, stage, seat, legal)
        table = self._observer.observe(game, seat, stage)
        if self.observation == "history":
            self._history.update(game.events)
            table = self._history.observe(table, seat)
        index = self.policy(table, self.spec.mask(options))
        try:
            return options[int(index)]
        except (KeyError, TypeError, ValueError):
            detail = f"the policy chose action {index!r}, not legal here; legal: {sorted(options)}"
            raise IllegalAnswer(detail) from None
