"""Regional 百搭 (wildcard) mahjong as a PettingZoo AEC environment (``docs/env/baida_v0.md`` has the layout).

Observation: ``(11, 38)`` ``uint8``, column k is tile kind k (34-36 stay 0; 37 is the 百搭); rows in
:mod:`mjarena.env._spec`.  Actions (212); ``HELD`` is the kinds a hand holds, 0..33 then 37 (the 百搭) at 34:

=========  ================================================================================================
index      action
=========  ================================================================================================
0-34       ``play`` HELD[i] (after a draw, or the dealer's first turn)
35-68      ``gang`` kind i - 35 after a draw: a concealed kong, or the fourth tile added to one's own PENG
69-103     ``peng`` the discard, then play HELD[i - 69]
104-208    ``chi`` (next player only): ``104 + 35 * p + i``, the discard at place p of the run (0 lowest,
           2 highest), then play HELD[i]
209        ``hu``
210        ``gang`` the discard (open kong)
211        ``pass``
=========  ================================================================================================

Rewards: the points of :func:`mjarena.variants.baida.rank`: 4 to the winner, 0 to the others and to everyone
in a drawn hand.  The winner's 台 are in the game's ``score``.

>>> game = env()
>>> game.reset(seed=4)
>>> game.unwrapped.observe("player_0")["observation"].shape
(11, 38)
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from mjarena.env._aec import MahjongEnv, make_env
from mjarena.env._parallel import ParallelMahjongEnv
from mjarena.env._spec import RuleSpec
from mjarena.tiles import WILD, format_tile
from mjarena.variants import baida
from mjarena.variants.base import Action

__all__ = ["SPEC", "env", "parallel_env", "raw_env"]

HELD = (*range(baida.KINDS), WILD)
_SLOT = {kind: i for i, kind in enumerate(HELD)}
PLAY, GANG, PENG, CHI = 0, len(HELD), len(HELD) + baida.KINDS, 2 * len(HELD) + baida.KINDS
HU, OPEN_GANG, PASS = range(CHI + 3 * len(HELD), CHI + 3 * len(HELD) + 3)

_NAMES = [f"play {format_tile(k)}" for k in HELD]
_NAMES += [f"gang {format_tile(k)}" for k in range(baida.KINDS)]
_NAMES += [f"peng, play {format_tile(k)}" for k in HELD]
_NAMES += [f"chi ({('low', 'middle', 'high')[p]}), play {format_tile(k)}" for p in range(3) for k in HELD]
_NAMES += ["hu", "gang (open)", "pass"]

_INDEX: dict[Action, int] = {Action("hu"): HU, Action("gang"): OPEN_GANG, Action("pass"): PASS}
for _k in HELD:
    _INDEX[Action("play", _k)] = PLAY + _SLOT[_k]
    _INDEX[Action("peng", _k)] = PENG + _SLOT[_k]
for _k in range(baida.KINDS):
    _INDEX[Action("gang", _k)] = GANG + _k


def _encode(game: Any, seat: int, action: Action) -> int:
    if action.type == "chi":
        return CHI + len(HELD) * (game.claimable - action.tile) + _SLOT[action.tiles[0]]
    return _INDEX[action]


SPEC = RuleSpec(
    name="baida",
    kinds=WILD + 1,
    notation="thupc",
    stages=("draw", "claim"),
    action_names=tuple(_NAMES),
    new_game=baida.BaidaGame,
    shuffled_wall=baida.shuffled_wall,
    encode=_encode,
    points=lambda game: [result.points for result in baida.rank(game)],
    hand=lambda game, seat: game.hands[seat],
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
