"""One seat as a Gymnasium environment; the other three are mjarena agents (built-in, programs, policies).

The opponents are bot specs, made as a match makes them (:func:`mjarena.agents.factory.make_agent`), one set
per episode: ``builtin:greedy``, ``builtin:random``, a command line speaking the rule set's protocol, or
``python:MODULE:NAME``; or, in process, policies ``policy(observation, action_mask) -> index`` (the policy being
trained, for self-play) and agents (objects with ``act(game, seat, legal)``).  An opponent that fails (timeout,
crash, an answer the rules refuse) is played by the judge's fallback for the rest of the episode, as in a match;
``info["opponent_errors"]`` names it.

Observations, the action space and the rewards are the AEC environment's (``docs/env/``); the reward of a step
is what the seat earned since its previous action, so an episode's rewards add up to the seat's points.  The
episode ends when the seat's game does (a NOI 2014 winner leaves the game at once: its episode ends there).

>>> import numpy as np
>>> table = SingleAgentEnv("noi2014", opponents=["builtin:greedy"] * 3, seat=1)
>>> observation, info = table.reset(seed=5)
>>> total, done = 0.0, False
>>> while not done:
...     action = int(np.flatnonzero(observation["action_mask"])[0])
...     observation, reward, done, truncated, info = table.step(action)
...     total += reward
>>> total == info["points"]
True

An index outside the mask ends the episode with a penalty (``illegal_action="penalty"``, the default) or raises
(``"raise"``); ``action_masks()`` is the mask as sb3-contrib's ``MaskablePPO`` asks for it:

>>> observation, info = table.reset(seed=5)
>>> bool(table.action_masks()[0]), table.step(0)[1:]
(False, (-1.0, True, False, {'illegal_action': True}))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np

from mjarena.agents.errors import AgentError
from mjarena.agents.factory import check_spec, make_agent
from mjarena.agents.fallback import JudgeFallback
from mjarena.env import spec_for
from mjarena.env._aec import AGENTS, MahjongEnv
from mjarena.env._spec import IllegalActionError
from mjarena.env.policy_agent import Policy, PolicyAgent
from mjarena.limits import Limits
from mjarena.rulesets import judge_rules
from mjarena.variants.base import Action, Agent

__all__ = ["SingleAgentEnv"]


Opponent = str | Policy | Agent
"""A bot spec, a policy ``policy(observation, action_mask) -> index`` or an agent (an object with ``act``)."""

ILLEGAL_ACTIONS = ("penalty", "raise")


class SingleAgentEnv(gymnasium.Env):
    """Seat ``seat`` of a game of ``rules``; ``opponents`` are the other seats, in seat order: bot specs, policies
    (self-play: the live policy itself) or agents.

    ``observation``: ``"planes"`` (``(11, kinds)``) or ``"history"`` (the planes with the discards and melds in
    order, :mod:`mjarena.env._history`).  ``illegal_action``: ``"penalty"`` ends the episode at an index outside
    the mask with ``illegal_reward`` (``info["illegal_action"]`` True), as PettingZoo's classic games do;
    ``"raise"`` raises :class:`~mjarena.env._spec.IllegalActionError`.  :meth:`action_masks` is the mask as
    sb3-contrib's ``MaskablePPO`` asks for it.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        rules: str = "noi2014",
        opponents: Sequence[Opponent] = ("builtin:greedy", "builtin:greedy", "builtin:greedy"),
        seat: int = 0,
        limits: Any = None,
        render_mode: str | None = None,
        observation: str = "planes",
        illegal_action: str = "penalty",
        illegal_reward: float = -1.0,
    ) -> None:
        if len(opponents) != 3 or seat not in range(4):
            raise ValueError(f"three opponents and a seat 0..3, not {len(opponents)} and seat {seat}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action {illegal_action!r}: expected one of {', '.join(ILLEGAL_ACTIONS)}")
        self.judge = judge_rules(rules)
        for opponent in opponents:
            if isinstance(opponent, str):
                check_spec(opponent, self.judge)
            elif not callable(opponent) and not callable(getattr(opponent, "act", None)):
                raise ValueError(f"opponent {opponent!r}: expected a bot spec, a policy or an agent")
        self.table = MahjongEnv(spec_for(rules), render_mode="ansi", observation=observation)
        self.seat, self.agent = seat, AGENTS[seat]
        self.opponents = dict(zip([s for s in range(4) if s != seat], opponents, strict=True))
        self.limits = limits or Limits()
        self.render_mode = render_mode
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.observation_space = self.table.observation_space(self.agent)
        self.action_space = self.table.action_space(self.agent)
        self._agents: dict[int, Any] = {}
        self._errors: dict[int, str] = {}
        self._ended = False  # by an illegal action: the game is left unfinished

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict[str, np.ndarray], dict]:
        """A new game (its wall from ``seed`` as in the AEC environment) and new opponents, seeded from it."""
        super().reset(seed=seed)
        self._close_opponents()
        self.table.reset(seed=seed)
        game_seed = self.table.seed
        assert game_seed is not None
        self._agents = {seat: self._make(opponent, seat, game_seed) for seat, opponent in self.opponents.items()}
        self._errors = {}
        self._ended = False
        self._play_others()
        observation, _, _, info = self._outcome()
        return observation, info

    def _make(self, opponent: Opponent, seat: int, game_seed: int) -> Agent:
        if isinstance(opponent, str):
            return make_agent(opponent, seat, self.limits, seed=game_seed * 4 + seat, rules=self.judge)
        if callable(getattr(opponent, "act", None)):
            return opponent  # type: ignore[return-value]
        return PolicyAgent(opponent, rules=self.judge.name)  # type: ignore[arg-type]

    def action_masks(self) -> np.ndarray:
        """The legal actions of the seat now, as booleans (all False once the episode has ended)."""
        if self._ended or self.table.terminations[self.agent]:
            return np.zeros(self.action_space.n, bool)
        return self.table.spec.mask(self.table.options(self.seat)).astype(bool)

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        if self._ended:
            raise RuntimeError("the episode has ended: call reset()")
        try:
            self.table.step(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._ended = True
            self._close_opponents()
            observation = self.table.observe(self.agent)
            return observation, self.illegal_reward, True, False, {"illegal_action": True}
        self._play_others()
        observation, reward, terminated, info = self._outcome()
        if terminated:
            self._close_opponents()
        return observation, reward, terminated, False, info

    def _play_others(self) -> None:
        """Let the opponents answer (and the seats that left be stepped) until this seat is asked or done."""
        table = self.table
        while table.agents:
            agent = table.agent_selection
            if agent == self.agent:
                return
            if table.terminations[agent]:
                table.step(None)
            else:
                table.step_action(self._answer(AGENTS.index(agent)))

    def _answer(self, seat: int) -> Action:
        game = self.table.game
        decision = game.decision
        legal = decision.legal[seat]
        if seat not in self._errors:
            try:
                action = self._agents[seat].act(game, seat, legal)
            except AgentError as error:
                self._errors[seat] = error.reason
            else:
                if game.accepts(decision, action, legal):
                    return action
                self._errors[seat] = "illegal_action"
        return JudgeFallback().act(game, seat, legal)

    def _outcome(self) -> tuple[dict[str, np.ndarray], float, bool, dict]:
        table, agent = self.table, self.agent
        info = dict(table.infos[agent])
        if self._errors:
            info["opponent_errors"] = dict(self._errors)
        return table.observe(agent), float(table._cumulative_rewards[agent]), table.terminations[agent], info

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed)."""
        text = self.table.table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text if self.render_mode == "ansi" else None

    def _close_opponents(self) -> None:
        for agent in self._agents.values():
            close = getattr(agent, "close", None)
            if close is not None:
                close()
        self._agents = {}

    def close(self) -> None:
        """Stop the opponents' programs, if any."""
        self._close_opponents()
