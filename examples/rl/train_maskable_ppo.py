"""Train a NOI 2014 (or any rule set's) agent with sb3-contrib's MaskablePPO, and save it as an mjarena bot.

    pip install -e '.[rl-train]'     # torch, stable-baselines3, sb3-contrib (the CPU build of torch is enough)
    python examples/rl/train_maskable_ppo.py --seconds 600 --out examples/rl/policy.npz
    PYTHONPATH=examples/rl mjarena compare python:trained_policy:policy builtin:random --games 280 --workers 2

What it does, step by step:

1. Four single-seat environments (``mjarena.env.single_agent.SingleAgentEnv``), one for each seat, so that the
   agent plays every seat; the other three seats are ``--opponents`` (bot specs, by default ``builtin:random``,
   ``builtin:greedy``, ``builtin:random``: against three greedy bots a beginner finishes last almost every game
   and learns little; or ``self``, the policy being trained, asked at every move: self-play).
2. The observation is the ``(11, 27)`` planes (or ``--observation history``), flattened and divided by 4; the
   action mask comes from the environment's ``action_masks()``, which MaskablePPO reads at every step, so the
   agent never picks an illegal action (the environments are made with ``illegal_action="raise"`` to prove it).
3. The reward is the seat's points at the end of its game (NOI 2014: 4, 3, 2, 1 by rank; a winner's at its win),
   and, as a guide while the points are far off, ``--shaping`` times each step's fall in the hand's distance to a
   win (potential-based shaping: it adds up to a small constant-bounded term per episode).
4. MaskablePPO's default MLP (two layers of 64, tanh) learns until ``--seconds`` or ``--steps`` runs out.
5. The policy network is saved as NumPy arrays (``--out``): ``examples/rl/trained_policy.py`` plays it, without
   torch, as the bot spec ``python:trained_policy:policy`` (``MJARENA_POLICY=FILE`` names another file).

``docs/env/training.md`` gives the baseline a ten-minute run reached, and the commands that measured it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from mjarena.env.single_agent import SingleAgentEnv
from mjarena.hand.standard import distance

SCALE = 4.0  # tile counts are 0..4: the observation divided by this (the wall count reaches 14 or so)


class FlatObservation(gymnasium.ObservationWrapper):
    """The table alone, flattened to floats (the mask reaches MaskablePPO through ``action_masks()``)."""

    def __init__(self, env: SingleAgentEnv) -> None:
        super().__init__(env)
        shape = env.observation_space["observation"].shape
        size = int(np.prod(shape))
        self.observation_space = gymnasium.spaces.Box(0.0, 255.0 / SCALE, (size,), np.float32)

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"].reshape(-1).astype(np.float32) / SCALE

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


class Shaping(gymnasium.Wrapper):
    """Potential-based reward shaping (Ng et al., 1999): each step also earns ``weight`` times the fall of the
    hand's distance to a win (``mjarena.hand.standard.distance``: tiles to change), so a discard that brings the
    hand closer pays at once instead of only at the game's end.  The shaped rewards of an episode add up to its
    points plus ``weight`` times (first distance - last distance): the points still dominate.  ``weight`` 0
    trains on the points alone."""

    def __init__(self, env: gymnasium.Env, weight: float) -> None:
        super().__init__(env)
        self.weight = weight
        self.before = 0

    def _distance(self) -> int:
        table: SingleAgentEnv = self.env.unwrapped  # type: ignore[assignment]
        game, seat = table.table.game, table.seat
        try:
            return distance(table.table.spec.hand(game, seat), len(game.melds[seat]))
        except ValueError:  # a hand the standard distance does not measure (wildcards): no shaping this step
            return self.before

    def reset(self, **kwargs: Any) -> tuple[Any, dict]:
        observation, info = self.env.reset(**kwargs)
        self.before = self._distance()
        return observation, info

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        if self.weight:
            after = self._distance()
            reward += self.weight * (self.before - after)
            self.before = after
        return observation, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


class LivePolicy:
    """The policy being trained, as an opponent: ``policy(observation, action_mask) -> index`` (self-play)."""

    def __init__(self) -> None:
        self.model: MaskablePPO | None = None

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if self.model is None:  # before the model exists (the environments' first reset): any legal action
            return int(np.flatnonzero(action_mask)[0])
        flat = observation.reshape(-1).astype(np.float32) / SCALE
        action, _ = self.model.predict(flat, action_masks=action_mask.astype(bool), deterministic=False)
        return int(action)


class Budget(BaseCallback):
    """Stops the learning when ``seconds`` have passed; prints progress every ``every`` seconds."""

    def __init__(self, seconds: float, every: float = 30.0) -> None:
        super().__init__()
        self.seconds, self.every = seconds, every
        self.start = self.last = time.monotonic()
        self.episodes: list[float] = []

    def _on_step(self) -> bool:
        for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
            if done and "points" in info:
                self.episodes.append(info["points"])
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            recent = self.episodes[-200:]
            mean = f"{np.mean(recent):.3f}" if recent else "-"
            print(f"{now - self.start:6.0f} s  {self.num_timesteps:7d} steps  {len(self.episodes):5d} episodes  "
                  f"mean points (last 200) {mean}", flush=True)
        return now - self.start < self.seconds


def make_envs(rules: str, opponents: list[Any], observation: str, seed: int, shaping: float) -> DummyVecEnv:
    """One environment per seat, each the agent at that seat against ``opponents``."""
    def maker(seat: int) -> Any:
        def make() -> gymnasium.Env:
            env = SingleAgentEnv(rules, opponents=opponents, seat=seat, observation=observation,
                                 illegal_action="raise")
            env.reset(seed=seed + seat)
            return FlatObservation(Shaping(env, shaping))
        return make
    return DummyVecEnv([maker(seat) for seat in range(4)])


def save_numpy(model: MaskablePPO, path: Path, rules: str, observation: str) -> None:
    """The policy network's layers as NumPy arrays, for ``trained_policy.py``: the hidden layers, then the action
    head (MaskablePPO's MlpPolicy: flatten, Linear+Tanh per hidden layer, a Linear to the logits)."""
    linears = [layer for layer in model.policy.mlp_extractor.policy_net if isinstance(layer, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    arrays = {}
    for i, layer in enumerate(linears):
        arrays[f"w{i}"] = layer.weight.detach().numpy().T.copy()
        arrays[f"b{i}"] = layer.bias.detach().numpy().copy()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, scale=np.float32(SCALE), rules=np.str_(rules), observation=np.str_(observation), **arrays)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="noi2014", help="noi2014 (default), baida or thupc2021")
    parser.add_argument("--seconds", type=float, default=600.0, help="wall-clock budget (default 600)")
    parser.add_argument("--steps", type=int, default=10**9, help="stop after this many agent steps, if sooner")
    parser.add_argument("--opponents", default="builtin:random,builtin:greedy,builtin:random",
                        help="three bot specs, comma-separated; 'self' is the policy being trained (self-play)")
    parser.add_argument("--observation", choices=("planes", "history"), default="planes")
    parser.add_argument("--shaping", type=float, default=0.1,
                        help="weight of the reward for bringing the hand closer to a win (0: the points alone)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-steps", type=int, default=512, help="rollout length per environment (4 of them)")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "policy.npz"))
    args = parser.parse_args()

    torch.set_num_threads(1)  # a small network: one thread is the fastest, and leaves the other cores free
    live = LivePolicy()
    specs = [spec.strip() for spec in args.opponents.split(",")]
    if len(specs) != 3:
        parser.error(f"--opponents: three bot specs, not {len(specs)}")
    opponents = [live if spec == "self" else spec for spec in specs]
    envs = make_envs(args.rules, opponents, args.observation, args.seed, args.shaping)
    model = MaskablePPO("MlpPolicy", envs, n_steps=args.n_steps, batch_size=256, n_epochs=4, gamma=1.0,
                        learning_rate=3e-4, ent_coef=0.01, seed=args.seed, verbose=0, device="cpu")
    live.model = model
    budget = Budget(args.seconds)
    model.learn(total_timesteps=args.steps, callback=budget)
    out = Path(args.out)
    save_numpy(model, out, args.rules, args.observation)
    elapsed = time.monotonic() - budget.start
    print(f"trained {model.num_timesteps} steps ({len(budget.episodes)} episodes) in {elapsed:.0f} s; "
          f"saved {out}")
    print(f"play it: MJARENA_POLICY={out} PYTHONPATH=examples/rl "
          f"mjarena compare python:trained_policy:policy builtin:greedy --rules {args.rules}")


if __name__ == "__main__":
    main()
