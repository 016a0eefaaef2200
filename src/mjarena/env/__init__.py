"""Reinforcement-learning environments for every rule set (``pip install 'mjarena[rl]'``).

- :mod:`mjarena.env.noi2014_v0`, :mod:`mjarena.env.baida_v0`, :mod:`mjarena.env.thupc2021_v0`: PettingZoo AEC
  environments, each with the conventional ``env()`` and ``raw_env()``; observations and action encodings are
  documented in each module and in ``docs/env/``.
- :class:`mjarena.env.single_agent.SingleAgentEnv`: a Gymnasium environment for one seat, the others played
  by any mjarena agents (``builtin:greedy``, a program, a policy).
- :class:`mjarena.env.policy_agent.PolicyAgent`: a policy over these observations as an mjarena agent, for
  matches and tournaments (or ``python:MODULE:NAME`` as a bot spec).
- Each module's ``parallel_env()``: the PettingZoo ``ParallelEnv``, one step a decision of the rules.
- Gymnasium ids, registered when this package is imported (with Gymnasium installed): ``mjarena/NOI2014-v0``,
  ``mjarena/Baida-v0`` and ``mjarena/THUPC2021-v0``, the :class:`~mjarena.env.single_agent.SingleAgentEnv` of
  each rule set (its keyword arguments pass through ``gymnasium.make`` and ``gymnasium.make_vec``).

>>> spec_for("noi").name, spec_for("thupc2021").num_actions
('noi2014', 46)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mjarena.env._spec import RuleSpec

__all__ = ["ENVIRONMENTS", "GYMNASIUM_IDS", "spec_for"]

ENVIRONMENTS = {"noi2014": "noi2014_v0", "baida": "baida_v0", "thupc2021": "thupc2021_v0"}
"""Rule set name -> its environment module in this package."""
GYMNASIUM_IDS = {"noi2014": "mjarena/NOI2014-v0", "baida": "mjarena/Baida-v0", "thupc2021": "mjarena/THUPC2021-v0"}
"""Rule set name -> its Gymnasium id (the single-seat environment)."""


def _register_gymnasium_ids() -> None:
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # the [rl] extra is not installed: nothing to register with
        return
    for rules, env_id in GYMNASIUM_IDS.items():
        if env_id not in registry:
            register(id=env_id, entry_point="mjarena.env.single_agent:SingleAgentEnv", kwargs={"rules": rules})


def spec_for(rules: str) -> RuleSpec:
    """The :class:`~mjarena.env._spec.RuleSpec` of a rule set, by name or alias."""
    from mjarena.variants import get_variant

    name = get_variant(rules).name
    if name not in ENVIRONMENTS:
        raise KeyError(f"no environment for {rules!r}; environments: {', '.join(ENVIRONMENTS)}")
    return import_module(f"mjarena.env.{ENVIRONMENTS[name]}").SPEC


_register_gymnasium_ids()
