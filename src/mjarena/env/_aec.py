"""One PettingZoo AEC environment for every rule set, parameterised by a :class:`~mjarena.env._spec.RuleSpec`.

Turns: a decision of the rules may ask several seats at once (the claims after a discard).  The environment asks
them one at a time, in the order the rules list them (counter-clockwise from the discarder), and carries the
choices out when the last one has answered; nobody sees another's choice before answering.  A seat that leaves a
game that goes on (a NOI 2014 winner) is terminated at once with its points as reward; everyone else is
terminated when the game ends, with the rule set's points.  An action index outside the mask raises
:class:`~mjarena.env._spec.IllegalActionError`.

>>> from mjarena.env.noi2014_v0 import env
>>> table = env()
>>> table.reset(seed=7)
>>> table.agent_selection, int(table.last()[0]["action_mask"].sum())
('player_0', 11)
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NoReturn

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from mjarena.env._history import History, history_rows
from mjarena.env._spec import CHANNELS, IllegalActionError, Observer, Options, RuleSpec, mask_maker
from mjarena.replay import MatchResult, SeatOutcome
from mjarena.rulesets import judge_rules
from mjarena.tiles import format_tile, format_tiles
from mjarena.variants.base import Action, IllegalAction

__all__ = ["AGENTS", "MASK_PLACES", "OBSERVATIONS", "MahjongEnv", "make_env"]

OBSERVATIONS = ("planes", "history")
"""The observations on offer: the ``(11, kinds)`` planes, or those and the history below (``docs/env/``)."""
MASK_PLACES = ("observation", "info")
"""Where the action mask goes: in a ``Dict`` observation, or in ``info["action_mask"]`` beside a ``Box`` one."""
AGENTS = ("player_0", "player_1", "player_2", "player_3")
_SEAT = {agent: seat for seat, agent in enumerate(AGENTS)}
_clock = time.perf_counter  # the time of each answer, for the replay's decisions
_NONE: Options = {}  # the options of a seat not asked (never written to)


class MahjongEnv(AECEnv):
    """The raw AEC environment of one rule set (use the modules' ``env()``, which adds PettingZoo's checks).

    After a game, :meth:`to_replay` gives it as a replay (:mod:`mjarena.replay`); ``game`` is the rules engine's
    state machine, ``seed`` the seed its wall was shuffled from.
    """

    def __init__(self, spec: RuleSpec, render_mode: str | None = None, observation: str = "planes",
                 action_mask: str = "observation") -> None:
        super().__init__()
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation {observation!r}: expected one of {', '.join(OBSERVATIONS)}")
        if action_mask not in MASK_PLACES:
            raise ValueError(f"action_mask {action_mask!r}: expected one of {', '.join(MASK_PLACES)}")
        self.metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": f"{spec.name}_v0",
                                         "is_parallelizable": False}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected one of {self.metadata['render_modes']}")
        self.spec = spec
        self._legal_options = spec.options or spec.legal_options
        self._decision_options = spec.decision_options
        self._mask = mask_maker(spec.num_actions)  # spec.mask's masks, without its numpy calls per index
        # mask_maker's buffer, copy and zeros of last()'s own masks, there without a call
        self._mask_buffer, self._mask_zeros = bytearray(spec.num_actions), bytes(spec.num_actions)
        self._mask_copy = np.frombuffer(self._mask_buffer, np.int8).copy
        # the copy of a mask of one choice (a claim's pass alone: most steps) by the index of that choice
        self._one_choice_copies = [np.frombuffer(bytes(i == index for i in range(spec.num_actions)), np.int8).copy
                                   for index in range(spec.num_actions)]
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self._with_history = observation == "history"
        self._mask_in_info = action_mask == "info"
        rows = history_rows(spec) if self._with_history else CHANNELS
        space: spaces.Space = spaces.Box(0, 255, (rows, spec.kinds), np.uint8)
        if not self._mask_in_info:
            space = spaces.Dict({"observation": space, "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8)})
        self.observation_spaces = {agent: space for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(spec.num_actions) for agent in AGENTS}
        self._seeds = random.Random()
        self.seed: int | None = None
        self.game: Any = None
        self._history: History | None = None
        self._steps = 0  # steps made (answered or not) and resets: how _ordered_agents sees an agent was stepped
        self._given_at = -1  # the value of _steps when _ordered_agents last gave an agent

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """PettingZoo's ``agent_iter``, its iterator a generator."""
        return _Agents(self, max_iter)

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the game ----------------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: the wall is ``spec.shuffled_wall(seed)``; without a seed, the next of a seeded sequence."""
        if seed is not None:
            self._seeds.seed(seed)
        else:
            seed = self._seeds.randrange(2**31)
        self.seed = seed
        self.game = self.spec.new_game(self.spec.shuffled_wall(seed))
        self._steps += 1  # a reset counts as a step for agent_iter()'s check
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._observer = Observer(self.spec)
        self._observer.update(self.game.events)
        self._history = History(self.spec) if self._with_history else None
        if self._history is not None:
            self._history.update(self.game.events)
        # each decision: (stage, when asked, seat -> answer, when each answered), filled in as the seats answer
        self._decisions: list[tuple[str, float, dict[int, Action], list[float]]] = []
        self._skip_agent_selection = None
        self._rewarded = False  # some reward is not 0 (PettingZoo's clearing and summing are skipped otherwise)
        self._dead = 0  # seats terminated and not yet stepped out with None
        self._leaves_seen = 0  # the observer's count of leaving events when the left seats were last looked for
        self._begin_decision()

    def _begin_decision(self) -> None:
        """The decision the rules ask now: its queue of seats, and the options of each (for the whole decision:
        the loop asks every seat queued, and a seat that has answered still sees what it was offered)."""
        game = self.game
        stage, legal = game.decision  # a NamedTuple's fields by name are generic attribute lookups: unpacked
        self._queue = queue = list(legal)
        self._stage: str = stage
        if self._decision_options is not None:
            self._options: dict[int, Options] = self._decision_options(game, stage, legal)
        else:
            options = self._legal_options
            self._options = {seat: options(game, stage, seat, legal[seat]) for seat in queue}
        self._choices: dict[int, Action] = {}
        self._times: list[float] = []
        self.agent_selection = AGENTS[queue[0]]
        self._decisions.append((stage, _clock(), self._choices, self._times))

    def options(self, seat: int) -> Options:
        """Index -> engine action for every choice ``seat`` has at this decision (empty when it is not asked)."""
        return self._options.get(seat, _NONE)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last`` (observation, cumulative reward, terminated, truncated, info of the agent to
        act), without its assertion and method lookups: the loop calls it every step."""
        agent = self.agent_selection
        if observe and not self._mask_in_info:  # observe() inlined: the loop's most frequent path
            seat = _SEAT[agent]
            options = self._options.get(seat, _NONE)
            table = self._observer.observe(self.game, seat, self._stage if options else None)
            if self._history is not None:
                table = self._history.observe(table, seat)
            if len(options) == 1:  # self._mask(options), inlined: one choice, its mask copied ready-made
                for index in options:
                    mask = self._one_choice_copies[index]()
            else:
                buffer = self._mask_buffer
                for index in options:
                    buffer[index] = 1
                mask = self._mask_copy()
                buffer[:] = self._mask_zeros
            return ({"observation": table, "action_mask": mask}, self._cumulative_rewards[agent],
                    self.terminations[agent], self.truncations[agent], self.infos[agent])
        info = self.infos[agent]
        terminated = self.terminations[agent]
        if self._mask_in_info and not terminated:
            info["action_mask"] = self._mask(self._options.get(_SEAT[agent], _NONE))
        observation = self.observe(agent) if observe else None
        return observation, self._cumulative_rewards[agent], terminated, self.truncations[agent], info

    def observe(self, agent: str) -> Any:
        """The agent's observation: ``{"observation": table, "action_mask": mask}``, or the table alone when the
        mask is in the info (``action_mask="info"``)."""
        seat = _SEAT[agent]
        options = self._options.get(seat, _NONE)
        table = self._observer.observe(self.game, seat, self._stage if options else None)
        if self._history is not None:
            table = self._history.observe(table, seat)
        if self._mask_in_info:
            return table
        return {"observation": table, "action_mask": self._mask(options)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        seat = _SEAT[agent]
        options = self._options.get(seat)
        if options is None:  # not asked: a seat that has left (PettingZoo's step of the dead), or the game is over
            self._steps += 1
            if not self.agents:
                EnvLogger.warn_step_after_terminated_truncated()  # as PettingZoo's call-order checks do
            elif self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
            else:
                self._refuse(agent, action, _NONE)
            return
        try:  # an int (or NumPy's) is its own index: int() only for the rest
            chosen = options[action]  # type: ignore[index]
        except (KeyError, TypeError):
            try:
                chosen = options[int(action)]  # type: ignore[arg-type]  # None too: its TypeError is refused below
            except (KeyError, TypeError, ValueError):
                self._steps += 1
                self._refuse(agent, action, options)
        # self._answer(seat, chosen), inlined: the loop's most frequent path
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        self._times.append(_clock())
        self._choices[seat] = chosen
        self._steps += 1
        queue = self._queue
        del queue[0]
        if queue:
            self.agent_selection = AGENTS[queue[0]]
        else:
            self._carry_out()

    def _refuse(self, agent: str, action: Any, options: Options) -> NoReturn:
        raise IllegalActionError(
            f"{agent}: action {action!r} is not legal now; legal: {sorted(options)} "
            f"({', '.join(self.spec.action_names[i] for i in sorted(options))})"
        ) from None

    def step_action(self, action: Action) -> None:
        """Answer for the seat asked now with any engine action the rules accept (an outside agent's answer, a
        NOI 2014 target hand of one's own); :class:`~mjarena.variants.base.IllegalAction` otherwise."""
        agent = self.agent_selection
        seat = _SEAT[agent]
        if self.terminations[agent] or self.truncations[agent]:
            raise ValueError(f"{agent} has left the game: step it with None")
        decision = self.game.decision
        legal = decision.legal[seat]
        if not self.game.accepts(decision, action, legal):
            raise IllegalAction(seat, action, legal)
        self._answer(seat, action)

    def _answer(self, seat: int, action: Action) -> None:
        # the seat's cumulative reward is 0 already (PettingZoo's reset of it for the agent acting): only a seat
        # that has left is rewarded, and it steps out with None, never here
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        self._times.append(_clock())
        self._choices[seat] = action
        self._steps += 1
        queue = self._queue
        del queue[0]
        if queue:
            self.agent_selection = AGENTS[queue[0]]
        else:
            self._carry_out()

    def _carry_out(self) -> None:
        """The decision's last answer is in: the rules carry the choices out, and the next decision begins."""
        game = self.game
        game.advance(self._choices)  # every choice is legal: from the options, or checked by step_action
        observer = self._observer
        observer.update(game.events)
        if self._history is not None:
            self._history.update(game.events)
        if game.decision is not None and self._leaves_seen == observer.leaves and not self._dead:
            self._begin_decision()  # the usual: nobody has left, nobody to reward (_after_decision's own path)
            return
        self._after_decision()
        if self._rewarded:
            self._accumulate_rewards()

    def _after_decision(self) -> None:
        game, spec = self.game, self.spec
        if game.decision is None:
            self._options, self._queue = {}, []
            points = spec.points(game)
            for agent in self.agents:
                if not self.terminations[agent]:
                    self._terminate(agent, points[_SEAT[agent]])
        else:
            if spec.left_points is not None and self._leaves_seen != self._observer.leaves:
                self._leaves_seen = self._observer.leaves
                for agent in self.agents:
                    if not self.terminations[agent]:
                        left = spec.left_points(game, _SEAT[agent])
                        if left is not None:
                            self._terminate(agent, left)
            self._begin_decision()
        if self._dead:
            self._deads_step_first()

    def _terminate(self, agent: str, points: float) -> None:
        self.terminations[agent] = True
        self.rewards[agent] = points
        self.infos[agent] = {"points": points}
        self._rewarded = True
        self._dead += 1

    def _was_dead_step(self, action: int | None) -> None:
        """The step of an agent already terminated: PettingZoo's (a ValueError unless ``action`` is None)."""
        super()._was_dead_step(action)  # which clears the rewards
        self._rewarded = False
        self._dead -= 1

    # -- views -------------------------------------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as text: wall, each seat's hand, melds and discards, and who is asked what."""
        if self.render_mode is None:
            return None
        text = self.table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def table_text(self) -> str:
        game, spec = self.game, self.spec
        if game is None:
            return "no game yet: call reset()"
        notation = spec.notation
        observer = self._observer
        decision = game.decision
        lines = [f"{spec.name}: {game.wall_left} tiles in the wall, "
                 + ("game over" if decision is None else f"{decision.stage} decision")]
        seats_in = spec.seats_in(game)
        for seat in range(4):
            hand = [kind for kind, count in enumerate(spec.hand(game, seat)) for _ in range(count)]
            melds = [kind for kind, count in enumerate(observer.public[seat]) for _ in range(count)]
            pool = [kind for kind, count in enumerate(observer.public[4 + seat]) for _ in range(count)]
            mark = ">" if decision is not None and self._queue and self._queue[0] == seat else " "
            lines.append(
                f"{mark} {AGENTS[seat]} {'in ' if seats_in[seat] else 'out'}  hand {format_tiles(hand, notation)}"
                f" | melds {format_tiles(melds, notation) or '-'} | discards {format_tiles(pool, notation) or '-'}"
            )
        if decision is not None and self._queue:
            seat = self._queue[0]
            names = [spec.action_names[index] for index in sorted(self.options(seat))]
            lines.append(f"{AGENTS[seat]} may: {', '.join(names)}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""

    @property
    def _answers(self) -> list[tuple[int, str, Action, float]]:
        """Every answer so far, in order: (seat, stage, action, seconds from its ask to it)."""
        answers = []
        for stage, asked_at, choices, times in self._decisions:
            for (seat, action), at in zip(choices.items(), times, strict=True):
                answers.append((seat, stage, action, at - asked_at))
                asked_at = at
        return answers

    def to_replay(self, bots: Sequence[str] | None = None) -> dict[str, Any]:
        """The finished game as a replay (the JSON object :func:`mjarena.replay.load` reads), with the decisions
        recorded as a match records them; ``bots`` names the seats (``env:player_N`` by default)."""
        game = self.game
        if game is None or game.decision is not None:
            raise ValueError("the game is not over: play it to its end before saving it")
        judge = judge_rules(self.spec.name)
        bots = list(bots) if bots is not None else [f"env:{agent}" for agent in AGENTS]
        decisions = [
            {"seat": seat, "stage": stage, "response": judge.protocol.format_response(action),
             "ms": round(seconds * 1000, 3), "by": "bot"}
            for seat, stage, action, seconds in self._answers
        ]
        targets = {seat: action.tiles or None for seat, stage, action, _ in self._answers if stage == "target"}
        errors = {seat: "false_hu" for seat in range(4) if getattr(game, "status", ["in"] * 4)[seat] == "out"}
        seats = [
            SeatOutcome(
                seat=r.seat, bot=bots[r.seat], status=r.status, reason=r.reason, rank=r.rank, points=r.points,
                distance=r.distance, chance=r.chance,
                target=[format_tile(k, judge.notation) for k in r.target] if r.target else None,
            )
            for r in sorted(judge.rank(game, targets, errors), key=lambda r: r.seat)
        ]
        return MatchResult(judge.name, self.seed, list(game.wall), seats, list(game.events), decisions).to_json()


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's call-order checks, with ``last()``, ``step()``, ``agent_iter()``, ``agents`` and
    ``agent_selection`` passed straight to the environment: through the wrapper's ``__getattr__`` and its base
    classes they cost a quarter of a step.  The checks and their messages are PettingZoo's.

    Once reset, ``last`` and ``step`` are the environment's own: their one check (reset first) holds for good,
    the environment warns of a step after the game's end itself, and ``agent_iter()`` sees that each agent it
    gave was stepped from the environment's count of steps (:func:`_ordered_agents`) instead of a flag
    that every step sets.
    """

    env: MahjongEnv

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed, options=options)
        self.last = self.env.last  # type: ignore[method-assign]
        self.step = self.env.step  # type: ignore[method-assign]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Agents(self, max_iter)

    # read three times a step (by step() and agent_iter()): straight from the environment, not through the two
    # levels of __getattr__, with the same check
    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection

    def __str__(self) -> str:
        return str(self.env)


class _Agents(Iterable[str]):
    """``agent_iter()``: PettingZoo's iterable of the agents to act (a fresh iterator at each ``iter``), its
    iterator a generator (resumed for less than a method call costs); of :class:`_OrderEnforcing`, with its check
    that every agent yielded was stepped.

    >>> from mjarena.env.noi2014_v0 import env
    >>> table = env()
    >>> table.reset(seed=1)
    >>> next(iter(table.agent_iter())), next(iter(table.agent_iter(0)), "none")
    ('player_0', 'none')
    """

    def __init__(self, table: AECEnv, max_iter: int) -> None:
        self._table, self._max_iter = table, max_iter

    def __iter__(self) -> Iterator[str]:
        table = self._table
        if isinstance(table, _OrderEnforcing):
            return _ordered_agents(table.env, self._max_iter)
        return _agents(table, self._max_iter)


def _agents(table: AECEnv, left: int) -> Iterator[str]:
    while table.agents and left > 0:
        left -= 1
        yield table.agent_selection


def _ordered_agents(table: MahjongEnv, left: int) -> Iterator[str]:
    """The agents to act, as PettingZoo's iterator gives them, with its check that each one given was stepped
    (or the environment reset) before the next is given, by this iterator or another: the environment's count of
    steps and resets, compared with its value when it last gave one."""
    while table.agents and left > 0:
        left -= 1
        steps = table._steps
        if steps == table._given_at:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        table._given_at = steps
        yield table.agent_selection


def make_env(spec: RuleSpec, render_mode: str | None = None, observation: str = "planes",
             action_mask: str = "observation") -> AECEnv:
    """The raw environment in PettingZoo's call-order checks (reset before step, and so on).

    PettingZoo's out-of-bounds wrapper is left out: :meth:`MahjongEnv.step` refuses every index outside the
    mask already, and the wrapper would cost a quarter of the speed.
    """
    return _OrderEnforcing(MahjongEnv(spec, render_mode, observation, action_mask))
