"""The environments as RL libraries use them: Gymnasium's checker, ids and vector environments, masks and illegal
actions, PettingZoo's parallel API, the history observation, opponents that are policies, and the training
example (only where its extra, torch and sb3-contrib, is installed)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import mjarena.env
from mjarena.agents.builtin import GreedyAgent
from mjarena.env import baida_v0, noi2014_v0, thupc2021_v0
from mjarena.env._history import MELD_ROWS
from mjarena.env._spec import CHANNELS, IllegalActionError
from mjarena.env.policy_agent import PolicyAgent
from mjarena.env.single_agent import SingleAgentEnv
from mjarena.variants.base import play
from mjarena.variants.noi2014 import NoiGame, shuffled_wall

ENVS = [noi2014_v0, baida_v0, thupc2021_v0]
IDS = [module.__name__.rsplit(".", 1)[1] for module in ENVS]
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "rl"


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    return int(np.flatnonzero(action_mask)[0])


# -- Gymnasium ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("observation", ["planes", "history"])
def test_gymnasium_check_env_passes(observation: str) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("error")
        warnings.filterwarnings("ignore", ".*Not able to test alternative render modes")  # an instance: no spec
        check_env(SingleAgentEnv("noi2014", opponents=["builtin:random"] * 3, observation=observation))


def test_an_illegal_action_ends_the_episode_with_the_penalty_or_raises() -> None:
    env = SingleAgentEnv("noi2014", opponents=["builtin:random"] * 3, illegal_reward=-5)
    observation, _ = env.reset(seed=3)
    mask = env.action_masks()
    assert mask.dtype == bool and mask.tolist() == observation["action_mask"].astype(bool).tolist()
    illegal = int(np.flatnonzero(~mask)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-5.0, True, False, {"illegal_action": True})
    assert not env.action_masks().any()
    strict = SingleAgentEnv("noi2014", opponents=["builtin:random"] * 3, illegal_action="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalActionError, match="not legal now"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="illegal_action"):
        SingleAgentEnv("noi2014", illegal_action="ignore")


def test_gymnasium_ids_make_and_make_vec_step_four_environments() -> None:
    assert set(mjarena.env.GYMNASIUM_IDS.values()) <= set(gymnasium.registry)
    single = gymnasium.make("mjarena/Baida-v0", opponents=["builtin:random"] * 3)
    assert single.unwrapped.judge.name == "baida"
    envs = gymnasium.make_vec("mjarena/NOI2014-v0", num_envs=4, vectorization_mode="sync",
                              opponents=["builtin:random"] * 3)
    observations, _ = envs.reset(seed=1)
    assert observations["observation"].shape == (4, CHANNELS, 27)
    finished = 0
    for _ in range(400):
        masks = np.stack(envs.call("action_masks"))
        actions = [np.flatnonzero(mask)[0] if mask.any() else 0 for mask in masks]  # 0: an autoreset step
        observations, rewards, terminated, _, _infos = envs.step(np.array(actions))
        finished += int(terminated.sum())
        assert set(rewards[terminated].tolist()) <= {1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0}
    assert finished >= 4
    envs.close()


# -- opponents that are policies or agents ---------------------------------------------------------------------


def test_opponents_may_be_policies_and_agents_as_well_as_specs() -> None:
    calls: list[tuple[int, ...]] = []

    def counting(observation: np.ndarray, action_mask: np.ndarray) -> int:
        calls.append(observation.shape)
        return first_legal(observation, action_mask)

    agent = PolicyAgent(first_legal, observation="history")
    env = SingleAgentEnv("noi2014", opponents=[counting, agent, "builtin:greedy"], seat=1)
    observation, info = env.reset(seed=2)
    total, done = 0.0, False
    while not done:
        observation, reward, done, _, info = env.step(first_legal(observation["observation"], env.action_masks()))
        total += reward
    assert total == info["points"] and "opponent_errors" not in info
    assert calls and set(calls) == {(CHANNELS, 27)}
    with pytest.raises(ValueError, match="expected a bot spec"):
        SingleAgentEnv("noi2014", opponents=[1, "builtin:greedy", "builtin:greedy"])


def test_a_policy_sees_the_observation_it_asks_for() -> None:
    shapes: set[tuple[int, ...]] = set()

    def history_policy(observation: np.ndarray, action_mask: np.ndarray) -> int:
        shapes.add(observation.shape)
        return first_legal(observation, action_mask)

    history_policy.observation = "history"  # type: ignore[attr-defined]
    game = play(NoiGame(shuffled_wall(4)), [PolicyAgent(history_policy), GreedyAgent(), GreedyAgent(), GreedyAgent()])
    assert game.decision is None
    assert shapes == {(CHANNELS + noi2014_v0.SPEC.max_discards + MELD_ROWS, 27)}


# -- PettingZoo: the parallel environment, Box observations --------------------------------------------------


@pytest.mark.parametrize("module", ENVS, ids=IDS)
def test_parallel_api_and_the_same_game_as_the_aec_environment(module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(module.parallel_env(), num_cycles=400)
    parallel, aec = module.parallel_env(), module.raw_env()
    observations, _ = parallel.reset(seed=5)
    points: dict[str, float] = {}
    while parallel.agents:
        asked = {agent: seen["action_mask"] for agent, seen in observations.items() if seen["action_mask"].any()}
        assert asked and set(asked) <= set(parallel.agents)
        actions = {agent: first_legal(None, mask) for agent, mask in asked.items()}  # type: ignore[arg-type]
        observations, rewards, terminations, _, _ = parallel.step(actions)
        points.update({agent: rewards[agent] for agent in rewards if terminations[agent]})
    aec.reset(seed=5)
    for _agent in aec.agent_iter():
        observation, _, terminated, _, _ = aec.last()
        aec.step(None if terminated else first_legal(None, observation["action_mask"]))  # type: ignore[arg-type]
    assert parallel.aec.game.events == aec.game.events
    assert points == dict(zip(aec.possible_agents, aec.spec.points(aec.game), strict=True))


def test_parallel_illegal_action_penalty_ends_the_game() -> None:
    table = noi2014_v0.parallel_env(illegal_action="penalty")
    observations, _ = table.reset(seed=1)
    mask = observations["player_0"]["action_mask"]
    _, rewards, terminations, _, infos = table.step({"player_0": int(np.flatnonzero(mask == 0)[0])})
    assert rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0, "player_3": 0.0}
    assert all(terminations.values()) and infos["player_0"] == {"illegal_action": True} and not table.agents
    strict = noi2014_v0.parallel_env()
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step({})


@pytest.mark.parametrize("module", ENVS, ids=IDS)
def test_box_observations_pass_api_test_without_warnings(module: ModuleType) -> None:
    table = module.env(observation="history", action_mask="info")
    assert isinstance(table.observation_space("player_0"), gymnasium.spaces.Box)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(table, num_cycles=300)


# -- the history observation against the game --------------------------------------------------------------------


@pytest.mark.parametrize("module", ENVS, ids=IDS)
def test_history_rows_are_the_discards_and_melds_in_order(module: ModuleType) -> None:
    table = module.raw_env(observation="history")
    spec = table.spec
    rng = np.random.default_rng(0)
    for seed in range(3):
        table.reset(seed=seed)
        for agent in table.agent_iter():
            observation, _, terminated, _, _ = table.last()
            if terminated:
                table.step(None)
                continue
            check_history(table, table.possible_agents.index(agent), observation["observation"], spec)
            table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def check_history(table: Any, seat: int, seen: np.ndarray, spec: Any) -> None:
    discards = [event for event in table.game.events if event.type in ("play", "discard")]
    rows = seen[CHANNELS : CHANNELS + spec.max_discards]
    assert len(discards) <= spec.max_discards
    for index, event in enumerate(discards):
        assert np.flatnonzero(rows[index]).tolist() == [event.tiles[0]]
        assert (rows[index, event.tiles[0]] - 1) % 4 == (event.seat - seat) % 4
    assert not rows[len(discards) :].any()
    on_table = (rows > 0) & (rows <= 4)  # not claimed: the planes' discard rows hold them by relative seat
    for relative in range(4):
        mine = (rows == 1 + relative) | (rows == 5 + relative)
        assert (mine & on_table).sum(axis=0).tolist() == seen[5 + relative].tolist()
        melds = seen[CHANNELS + spec.max_discards + 4 * relative :][:4]
        assert melds.sum(axis=0).tolist() == seen[1 + relative].tolist()
    assert seen.shape == (CHANNELS + spec.max_discards + MELD_ROWS, spec.kinds)


# -- the training example ---------------------------------------------------------------------------------------


def test_the_trained_policy_file_plays_a_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(EXAMPLES))
    try:
        trained = importlib.import_module("trained_policy")
    finally:
        sys.path.remove(str(EXAMPLES))
    rng = np.random.default_rng(0)
    path = tmp_path / "policy.npz"
    size = CHANNELS * 27
    np.savez(path, w0=rng.normal(size=(size, 8)).astype(np.float32), b0=np.zeros(8, np.float32),
             w1=rng.normal(size=(8, 86)).astype(np.float32), b1=np.zeros(86, np.float32),
             scale=np.float32(4), rules=np.str_("noi2014"), observation=np.str_("planes"))
    agent = PolicyAgent(trained.NumpyPolicy.load(path))
    game = play(NoiGame(shuffled_wall(3)), [agent, GreedyAgent(), GreedyAgent(), GreedyAgent()])
    assert game.decision is None  # every answer legal: PolicyAgent raises on any other


needs_training_extra = pytest.mark.skipif(
    not all(importlib.util.find_spec(name) for name in ("torch", "sb3_contrib")),
    reason="the training example needs the rl-train extra (torch, stable-baselines3, sb3-contrib)",
)


@pytest.mark.slow
@needs_training_extra
def test_the_training_script_trains_and_its_policy_plays(tmp_path: Path) -> None:
    out = tmp_path / "policy.npz"
    script = EXAMPLES / "train_maskable_ppo.py"
    subprocess.run([sys.executable, str(script), "--seconds", "60", "--steps", "256", "--n-steps", "64",
                    "--opponents", "builtin:random,self,builtin:random", "--out", str(out)],
                   check=True, capture_output=True, timeout=300)
    environment = {**os.environ, "MJARENA_POLICY": str(out), "PYTHONPATH": str(EXAMPLES)}
    bots = ["python:trained_policy:policy", "builtin:greedy", "builtin:random", "builtin:greedy"]
    played = subprocess.run([sys.executable, "-m", "mjarena", "match", *(f"--bot={bot}" for bot in bots),
                             "--seed", "1"],
                            capture_output=True, text=True, env=environment, timeout=120)
    assert played.returncode == 0, played.stderr
    assert "illegal" not in played.stdout
