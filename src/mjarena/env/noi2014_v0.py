"""NOI 2014 mahjong as a PettingZoo AEC environment (``docs/env/noi2014_v0.md`` has the whole layout).

Observation: ``(11, 27)`` ``uint8``, columns W1..W9 B1..B9 T1..T9 (:mod:`mjarena.env._spec` has the rows).
Actions (86):

=======  ==================================================================================================
index    action
=======  ==================================================================================================
0-26     ``play`` kind k (after a draw)
27-53    ``gang`` kind k - 27 after a draw: a concealed kong, or the fourth tile added to one's own PENG
54-80    ``peng`` the discard, then play kind k - 54
81       ``hu`` (self-drawn or on the discard)
82       ``gang`` the discard (open kong)
83       ``pass``
84       target hand (when the wall ran out): declare the closest winning hand
         (:func:`mjarena.agents.builtin.best_target`)
85       target hand: declare none (ranks last among the players still in)
=======  ==================================================================================================

Rewards: the spec's points (4, 3, 2, 1 by rank, ties share the average; :func:`mjarena.variants.noi2014.rank`).
A winner leaves at once with its points; the others get theirs when the game ends.

A whole game, every seat choosing its lowest legal index (declaring the closest target hand if the wall runs out):

>>> game = env()
>>> game.reset(seed=1)
>>> points = {}
>>> for agent in game.agent_iter():
...     observation, reward, terminated, truncated, info = game.last()
...     if terminated:
...         points[agent] = reward
...     game.step(None if terminated else int(observation["action_mask"].nonzero()[0][0]))
>>> sorted(points.values())
[1.0, 2.5, 2.5, 4.0]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pettingzoo import AECEnv

from mjarena.agents.builtin import best_target
from mjarena.env._aec import MahjongEnv, make_env
from mjarena.env._parallel import ParallelMahjongEnv
from mjarena.env._spec import Options, RuleSpec
from mjarena.tiles import format_tile
from mjarena.variants import noi2014
from mjarena.variants.base import Action

__all__ = ["SPEC", "env", "parallel_env", "raw_env"]

KINDS = noi2014.KINDS
PLAY, GANG, PENG = 0, KINDS, 2 * KINDS
HU, OPEN_GANG, PASS, TARGET_BEST, TARGET_NONE = range(3 * KINDS, 3 * KINDS + 5)

_NAMES = [f"play {format_tile(k, 'noi')}" for k in range(KINDS)]
_NAMES += [f"gang {format_tile(k, 'noi')}" for k in range(KINDS)]
_NAMES += [f"peng, play {format_tile(k, 'noi')}" for k in range(KINDS)]
_NAMES += ["hu", "gang (open)", "pass", "target: closest winning hand", "target: none"]

_INDEX: dict[Action, int] = {Action("hu"): HU, Action("gang"): OPEN_GANG, Action("pass"): PASS}
for _k in range(KINDS):
    _INDEX[Action("play", _k)] = PLAY + _k
    _INDEX[Action("gang", _k)] = GANG + _k
    _INDEX[Action("peng", _k)] = PENG + _k


def _encode(game: Any, seat: int, action: Action) -> int:
    if action.type == "target":
        return TARGET_NONE if not action.tiles else TARGET_BEST
    return _INDEX[action]


class _TargetOptions(Mapping[int, Action]):
    """The two choices of a target decision; the closest winning hand (a search: a quarter of a millisecond) is
    worked out only when that choice is looked up, not for every mask."""

    def __init__(self, game: Any, seat: int) -> None:
        self._game, self._seat = game, seat
        self._best: Action | None = None

    def __getitem__(self, index: int) -> Action:
        if index == TARGET_NONE:
            return Action("target")
        if index != TARGET_BEST:
            raise KeyError(index)
        if self._best is None:
            game, seat = self._game, self._seat
            self._best = Action("target", tiles=best_target(game.hands[seat], game.melds[seat]))
        return self._best

    def __iter__(self) -> Iterator[int]:
        return iter((TARGET_BEST, TARGET_NONE))

    def __len__(self) -> int:
        return 2


def _options(game: Any, stage: str, seat: int, legal: Sequence[Action]) -> Options:
    if stage == "target":
        return _TargetOptions(game, seat)
    if len(legal) == 1:  # most claims: pass only
        action = legal[0]
        return {_INDEX[action]: action}
    index = _INDEX
    return {index[action]: action for action in legal}


def _decision_options(game: Any, stage: str, legal: Mapping[int, Sequence[Action]]) -> dict[int, Options]:
    """:func:`_options` of every seat asked, in one call (a claim asks three seats, most with ``pass`` alone)."""
    if stage == "target":
        return {seat: _TargetOptions(game, seat) for seat in legal}
    index = _INDEX
    options: dict[int, Options] = {}
    for seat, actions in legal.items():
        if len(actions) == 1:
            action = actions[0]
            options[seat] = {index[action]: action}
        else:
            options[seat] = {index[action]: action for action in actions}
    return options


def _points(game: Any) -> list[float]:
    return [result.points for result in noi2014.rank(game)]


def _left_points(game: Any, seat: int) -> float | None:
    """A winner's points are known when it leaves: the k-th winner ranks k-th."""
    if game.status[seat] != "won":
        return None
    return noi2014.points_for_ranks([1, 2, 3, 4])[game.win_order.index(seat)]


SPEC = RuleSpec(
    name="noi2014",
    kinds=KINDS,
    notation="noi",
    stages=("draw", "claim", "target"),
    action_names=tuple(_NAMES),
    new_game=noi2014.NoiGame,
    shuffled_wall=noi2014.shuffled_wall,
    encode=_encode,
    points=_points,
    options=_options,
    decision_options=_decision_options,
    seats_in=lambda game: [status == "in" for status in game.status],
    left_points=_left_points,
    leave_events=frozenset({"hu", "hu_self", "false_hu"}),
)


def raw_env(
    render_mode: str | None = None, observation: str = "planes", action_mask: str = "observation"
) -> MahjongEnv:
    """The environment without PettingZoo's wrappers (``observation``, ``action_mask``: ``docs/env/index.md``)."""
    return MahjongEnv(SPEC, render_mode, observation, action_mask)


def env(render_mode: str | None = None, observation: str = "planes", action_mask: str = "observation") -> AECEnv:
    """The environment in PettingZoo's call-order checks (its ``unwrapped`` is the :func:`raw_env`)."""
    return make_env(SPEC, render_mode, observation, action_mask)


def parallel_env(render_mode: str | None = None, observation: str = "planes", illegal_action: str = "raise",
                 illegal_reward: float = -1.0) -> ParallelMahjongEnv:
    """The environment as a PettingZoo ``ParallelEnv``: one step is one decision of the rules, every seat it asks
    answering at once (:mod:`mjarena.env._parallel`)."""
    return ParallelMahjongEnv(SPEC, render_mode, observation, illegal_action, illegal_reward)
