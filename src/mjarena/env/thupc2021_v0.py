"""THUPC 2021 mahjong as a PettingZoo AEC environment (``docs/env/thupc2021_v0.md`` has the layout).

Observation: ``(11, 37)`` ``uint8``, column k is tile kind k (34-36: PASS, REVERSE, DOUBLE); rows in
:mod:`mjarena.env._spec`; state-row extras: column 16 is 1 when the order is reversed, 17-20 the turns each
relative seat will skip (PASS tiles against it).  Actions (46):

=======  ==================================================================================================
index    action
=======  ==================================================================================================
0-33     ``discard`` kind k
34-36    ``discard`` PASS naming seat + 1, + 2, + 3 (mod 4)
37, 38   ``discard`` REVERSE, DOUBLE
39       ``self_drawn`` (win on one's own draw)
40       ``ron`` (win on the discard)
41       ``pong`` the discard (then a discard decision, without a draw)
42-44    ``chow`` (next player only): the discard at place i - 42 of the run (0 lowest, 2 highest)
45       ``pass``
=======  ==================================================================================================

A seat with nothing to claim is not asked.  Rewards: the points of :func:`mjarena.variants.thupc2021.rank`, 1 to
the winner and 0 to the others (the statement scores nothing but who wins); 0 to everyone in a drawn game.

>>> game = env()
>>> game.reset(seed=2)
>>> int(game.unwrapped.observe("player_0")["observation"][0].sum())
14
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pettingzoo import AECEnv

from mjarena.env._aec import MahjongEnv, make_env
from mjarena.env._parallel import ParallelMahjongEnv
from mjarena.env._spec import EXTRA, Options, RuleSpec
from mjarena.tiles import DOUBLE, PASS, REVERSE, STANDARD_KINDS, format_tile
from mjarena.variants import thupc2021
from mjarena.variants.base import Action

__all__ = ["SPEC", "env", "parallel_env", "raw_env"]

DISCARD_PASS = STANDARD_KINDS
DISCARD_REVERSE, DISCARD_DOUBLE, SELF_DRAWN, RON, PONG, CHOW = range(STANDARD_KINDS + 3, STANDARD_KINDS + 9)
NO_CLAIM = CHOW + 3

_NAMES = [f"discard {format_tile(k)}" for k in range(STANDARD_KINDS)]
_NAMES += [f"discard PASS naming seat +{step}" for step in (1, 2, 3)]
_NAMES += ["discard REVERSE", "discard DOUBLE", "self_drawn", "ron", "pong"]
_NAMES += [f"chow ({place})" for place in ("low", "middle", "high")]
_NAMES += ["pass"]

_INDEX: dict[Action, int] = {
    Action("discard", REVERSE): DISCARD_REVERSE, Action("discard", DOUBLE): DISCARD_DOUBLE,
    Action("self_drawn"): SELF_DRAWN, Action("ron"): RON, Action("pong"): PONG, Action("pass"): NO_CLAIM,
}
for _k in range(STANDARD_KINDS):
    _INDEX[Action("discard", _k)] = _k


def _encode(game: Any, seat: int, action: Action) -> int:
    if action.type == "chow":
        return CHOW + game.claimable - action.tile
    if action.tile == PASS and action.type == "discard":
        assert action.target is not None  # a legal PASS names its seat
        return DISCARD_PASS + (action.target - seat) % 4 - 1
    return _INDEX[action]


def _options(game: Any, stage: str, seat: int, legal: Sequence[Action]) -> Options:
    """The index of each legal action: a look-up for most, :func:`_encode` for a chow or a PASS naming a seat."""
    index, options = _INDEX, {}
    for action in legal:
        known = index.get(action)
        options[_encode(game, seat, action) if known is None else known] = action
    return options


def _extra(game: Any, seat: int, row: Any) -> None:
    if game.direction < 0:
        row[EXTRA] = 1
    for relative in range(4):
        row[EXTRA + 1 + relative] = game.skips[(seat + relative) % 4]


SPEC = RuleSpec(
    name="thupc2021",
    kinds=STANDARD_KINDS + 3,
    notation="thupc",
    stages=("discard", "claim"),
    action_names=tuple(_NAMES),
    new_game=thupc2021.ThupcGame,
    shuffled_wall=thupc2021.shuffled_wall,
    encode=_encode,
    options=_options,
    points=lambda game: [result.points for result in thupc2021.rank(game)],
    extra=_extra,
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
