"""A trained policy as an mjarena bot, with NumPy only: the network that ``train_maskable_ppo.py`` saves.

    PYTHONPATH=examples/rl mjarena compare python:trained_policy:policy builtin:random --games 280
    MJARENA_POLICY=runs/ppo.npz PYTHONPATH=examples/rl mjarena match --bot python:trained_policy:policy \
        --bot builtin:greedy --bot builtin:random --bot builtin:greedy

``policy`` loads the ``.npz`` named by ``MJARENA_POLICY`` at its first move (by default ``examples/rl/policy.npz``,
what the training script saves, or before any training the shipped ten-minute baseline
``examples/rl/baseline_noi2014.npz``: ``docs/env/training.md``), and plays the legal action of highest
probability.  The file holds the layers of the policy network (``w0``, ``b0``, ``w1``, ``b1``, ..., tanh between
them, the last one giving the logits), the ``scale`` the observation was divided by, and the ``rules`` and
``observation`` it was trained on; a policy trained on the ``"history"`` observation is played with that
observation (``PolicyAgent`` reads ``policy.observation``).
Torch is not needed to play: the forward pass is a few matrix products.

>>> import numpy as np
>>> layers = NumpyPolicy([np.zeros((297, 86), np.float32)], [np.arange(86, dtype=np.float32)], scale=4.0)
>>> mask = np.zeros(86, np.int8)
>>> mask[[3, 7]] = 1
>>> layers(np.zeros((11, 27), np.uint8), mask)
7
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
TRAINED, BASELINE = HERE / "policy.npz", HERE / "baseline_noi2014.npz"


class NumpyPolicy:
    """A multilayer perceptron (tanh) read from the arrays ``train_maskable_ppo.py`` saves."""

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], scale: float = 4.0,
                 rules: str = "noi2014", observation: str = "planes") -> None:
        self.weights, self.biases, self.scale = weights, biases, float(scale)
        self.rules, self.observation = rules, observation

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> NumpyPolicy:
        with np.load(path) as data:
            count = sum(1 for name in data.files if name.startswith("w"))
            return cls([data[f"w{i}"] for i in range(count)], [data[f"b{i}"] for i in range(count)],
                       float(data["scale"]), str(data["rules"]), str(data["observation"]))

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The unnormalised log-probabilities of every action (the mask not applied)."""
        hidden = observation.reshape(-1).astype(np.float32) / self.scale
        last = len(self.weights) - 1
        for i, (weight, bias) in enumerate(zip(self.weights, self.biases, strict=True)):
            hidden = hidden @ weight + bias
            if i < last:
                hidden = np.tanh(hidden)
        return hidden

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        logits = self.logits(observation)
        return int(np.argmax(np.where(action_mask.astype(bool), logits, -np.inf)))


class _Lazy:
    """The policy in ``MJARENA_POLICY`` (or ``policy.npz``, or ``baseline_noi2014.npz`` here), loaded at its first
    use."""

    def __init__(self) -> None:
        self._policy: NumpyPolicy | None = None

    def _loaded(self) -> NumpyPolicy:
        if self._policy is None:
            path = os.environ.get("MJARENA_POLICY") or str(TRAINED if TRAINED.is_file() else BASELINE)
            if not os.path.isfile(path):
                raise FileNotFoundError(f"{path}: no trained policy; run examples/rl/train_maskable_ppo.py first")
            self._policy = NumpyPolicy.load(path)
        return self._policy

    def __getattr__(self, name: str) -> Any:  # observation, rules: the loaded policy's
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._loaded(), name)

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self._loaded()(observation, action_mask)


policy = _Lazy()
