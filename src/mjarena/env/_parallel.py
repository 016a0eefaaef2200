"""Every rule set as a PettingZoo ``ParallelEnv``: one step is one decision of the rules.

Mahjong's claims after a discard are simultaneous: each seat decides without seeing the others' answers.  The
parallel environment says so directly: ``step(actions)`` takes the answer of every seat the decision asks (those
whose action mask has a legal action) and carries them out together; the seats not asked get an all-zero mask
and their action, if any, is ignored.  The observations, masks, rewards and seeds are the AEC environment's
(``docs/env/index.md``); a seat leaves ``agents`` when it is terminated, with its points as reward.

An index outside the mask raises :class:`~mjarena.env._spec.IllegalActionError` (``illegal_action="raise"``), or
ends the game (``"penalty"``): the seat that chose it gets ``illegal_reward`` and ``info["illegal_action"]``,
the others 0, as PettingZoo's classic games do.

>>> from mjarena.env.noi2014_v0 import parallel_env
>>> table = parallel_env()
>>> observations, infos = table.reset(seed=7)
>>> asked = [agent for agent, seen in observations.items() if seen["action_mask"].any()]
>>> asked
['player_0']
>>> steps, points = 0, {}
>>> while table.agents:
...     masks = {agent: observations[agent]["action_mask"] for agent in table.agents}
...     actions = {agent: int(mask.nonzero()[0][0]) for agent, mask in masks.items() if mask.any()}
...     observations, rewards, terminations, truncations, infos = table.step(actions)
...     points.update({agent: reward for agent, reward in rewards.items() if terminations[agent]})
...     steps += 1
>>> sum(points.values())
10.0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv

from mjarena.env._aec import AGENTS, MahjongEnv
from mjarena.env._spec import IllegalActionError, RuleSpec

__all__ = ["ILLEGAL_ACTIONS", "ParallelMahjongEnv"]

ILLEGAL_ACTIONS = ("raise", "penalty")
_SEAT = {agent: seat for seat, agent in enumerate(AGENTS)}


class ParallelMahjongEnv(ParallelEnv):
    """The parallel environment of one rule set (use the modules' ``parallel_env()``); ``aec`` is the raw AEC
    environment it steps, seat by seat, in the order the rules list the seats asked."""

    def __init__(self, spec: RuleSpec, render_mode: str | None = None, observation: str = "planes",
                 illegal_action: str = "raise", illegal_reward: float = -1.0) -> None:
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action {illegal_action!r}: expected one of {', '.join(ILLEGAL_ACTIONS)}")
        self.aec = MahjongEnv(spec, render_mode, observation)
        self.metadata: dict[str, Any] = {**self.aec.metadata, "is_parallelizable": True}
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.observation_spaces = self.aec.observation_spaces
        self.action_spaces = self.aec.action_spaces
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game, dealt as the AEC environment deals it for the same seed."""
        self.aec.reset(seed=seed, options=options)
        self.agents = list(AGENTS)
        return {agent: self.aec.observe(agent) for agent in self.agents}, {agent: {} for agent in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Carry out one decision: the answers of the seats it asks, from ``actions``."""
        aec, live = self.aec, self.agents
        rewards = dict.fromkeys(live, 0.0)
        terminations = dict.fromkeys(live, False)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in live}
        asked = len(aec._queue)
        while asked and aec.agents:
            agent = aec.agent_selection
            if aec.terminations[agent]:  # a seat that has left: PettingZoo's step of the dead
                aec.step(None)
                continue
            try:
                aec.step(actions.get(agent))
            except IllegalActionError:
                if self.illegal_action == "raise":
                    raise
                return self._penalty(agent, live)
            asked -= 1
            for other in live:
                if aec.terminations[other] and not terminations[other]:
                    terminations[other], rewards[other] = True, aec.infos[other]["points"]
                    infos[other] = dict(aec.infos[other])
        while aec.agents and aec.terminations[aec.agent_selection]:
            aec.step(None)
        observations = {agent: aec.observe(agent) for agent in live}
        self.agents = [agent for agent in live if not terminations[agent]]
        return observations, rewards, terminations, dict.fromkeys(live, False), infos

    def _penalty(self, offender: str, live: list[str]) -> tuple[dict, dict, dict, dict, dict]:
        """The end of the game at an illegal action: ``illegal_reward`` to its seat, 0 to the others."""
        observations = {agent: self.aec.observe(agent) for agent in live}
        rewards = {agent: self.illegal_reward if agent == offender else 0.0 for agent in live}
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in live}
        infos[offender]["illegal_action"] = True
        self.agents = []
        return observations, rewards, dict.fromkeys(live, True), dict.fromkeys(live, False), infos

    def render(self) -> str | None:
        """The table as text, as the AEC environment renders it."""
        return self.aec.render()

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""
