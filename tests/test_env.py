"""The RL environments: PettingZoo's API and seed checks, observations and masks against the game, rewards against
the rule set's points, replays, the single-agent wrapper, and policies entered in matches and tournaments."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mjarena.agents.builtin import best_target
from mjarena.agents.factory import BotSpecError, check_spec
from mjarena.arena.match import run_match
from mjarena.arena.tournament import run_tournament
from mjarena.arena.tournament_settings import Entrant, Settings
from mjarena.env import baida_v0, noi2014_v0, spec_for, thupc2021_v0
from mjarena.env._aec import MahjongEnv
from mjarena.env._spec import DISCARDER, REQUEST, STAGE, STATE, WALL, IllegalActionError
from mjarena.env.single_agent import SingleAgentEnv
from mjarena.replay import load, replay_game, save
from mjarena.variants.base import Action

ENVS = [noi2014_v0, baida_v0, thupc2021_v0]
IDS = [module.__name__.rsplit(".", 1)[1] for module in ENVS]
BOTS = Path(__file__).parent / "bots"
POLICY = "python:test_env:first_legal"


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A policy for the match and tournament tests (imported by its spec as ``test_env``)."""
    return int(np.flatnonzero(action_mask)[0])


def out_of_mask(observation: np.ndarray, action_mask: np.ndarray) -> int:
    return len(action_mask)


def play_random(
    table: MahjongEnv, seed: int, check: Callable[[MahjongEnv, str, dict[str, np.ndarray]], None] | None = None
) -> dict[str, float]:
    """One game of random legal actions; returns each agent's summed rewards."""
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, terminated, _, _ = table.last()
        totals[agent] += reward
        if terminated:
            table.step(None)
            continue
        if check is not None:
            check(table, agent, observation)
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


# -- PettingZoo's own checks -----------------------------------------------------------------------------------


@pytest.mark.parametrize("module", ENVS, ids=IDS)
def test_pettingzoo_api_and_seed(module: ModuleType) -> None:
    with warnings.catch_warnings():  # what PettingZoo says of every environment with an action mask
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        api_test(module.env(), num_cycles=1000)
    seed_test(module.env, num_cycles=500)


@pytest.mark.parametrize("module", ENVS, ids=IDS)
def test_a_seed_is_a_wall_and_replays_the_same_game(module: ModuleType) -> None:
    first, second = module.raw_env(), module.raw_env()
    play_random(first, 11)
    play_random(second, 11)
    assert first.game.wall == tuple(module.SPEC.shuffled_wall(11))
    assert first.game.events == second.game.events
    first.reset()  # unseeded: the next game of the seeded sequence, on either copy
    second.reset()
    assert first.seed == second.seed != 11


# -- observations, masks and rewards against the game ----------------------------------------------------------


def melded(game: Any, seat: int, kinds: int) -> list[int]:
    counts = [0] * kinds
    for meld in game.melds[seat]:
        if hasattr(meld, "kind"):  # NOI 2014
            counts[meld.kind] += 4 if meld.type == "gang" else 3
        else:
            for kind in getattr(meld, "tiles", meld):
                counts[kind] += 1
    return counts


def check_observation(table: MahjongEnv, agent: str, observation: dict[str, np.ndarray]) -> None:
    game, spec = table.game, table.spec
    seat = table.possible_agents.index(agent)
    decision = game.decision
    legal = decision.legal[seat]
    table_obs, mask = observation["observation"], observation["action_mask"]
    hand = list(spec.hand(game, seat))
    assert table_obs[0].tolist() == hand[: spec.kinds] and not any(hand[spec.kinds :])
    for relative in range(4):
        assert table_obs[1 + relative].tolist() == melded(game, (seat + relative) % 4, spec.kinds)
    in_hands = sum(sum(spec.hand(game, s)) for s in range(4))
    in_melds = sum(sum(melded(game, s, spec.kinds)) for s in range(4))
    on_table = int(table_obs[5:9].sum())
    assert in_hands + in_melds + on_table + game.wall_left == len(game.wall)  # every tile somewhere, once
    if hasattr(game, "pool"):
        assert table_obs[5:9].sum(axis=0).tolist() == np.bincount(game.pool(), minlength=spec.kinds).tolist()
    state = table_obs[STATE]
    assert state[WALL] == game.wall_left
    assert state[STAGE + spec.stages.index(decision.stage)] == 1 and state[STAGE : STAGE + 3].sum() == 1
    if decision.stage == "claim":
        assert np.flatnonzero(table_obs[REQUEST]).tolist() == [game.claimable]
        assert state[DISCARDER + (game.discarder - seat) % 4] == 1
    options = table.options(seat)
    assert np.flatnonzero(mask).tolist() == sorted(options)
    if decision.stage == "target":
        target = best_target(game.hands[seat], game.melds[seat])
        assert options == {noi2014_v0.TARGET_BEST: Action("target", tiles=target),
                           noi2014_v0.TARGET_NONE: Action("target")}
    else:
        assert sorted(options.values()) == sorted(legal) and len(options) == len(legal)  # one index per action
        assert all(spec.encode(game, seat, action) == index for index, action in options.items())


@pytest.mark.parametrize("module", ENVS, ids=IDS)
def test_observations_masks_and_rewards_follow_the_game(module: ModuleType) -> None:
    table = module.raw_env()
    stages: set[str] = set()
    for seed in range(12):
        totals = play_random(
            table, seed, lambda t, a, o: (stages.add(t.game.decision.stage), check_observation(t, a, o))
        )
        assert totals == dict(zip(table.possible_agents, table.spec.points(table.game), strict=True))
        assert not table.agents
    assert stages == set(module.SPEC.stages)


def trajectory(table: Any, seed: int, observe_apart: bool) -> list[tuple[Any, ...]]:
    """Everything a learner sees in one seeded game of random legal actions: each step's agent, observation,
    mask (with its dtype and whether it is writable), reward and flags.  ``observe_apart``: the observation from
    ``observe()`` beside ``last(observe=False)`` instead of from ``last()``."""
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    seen = []
    for agent in table.agent_iter():
        if observe_apart:
            _, reward, terminated, truncated, info = table.last(observe=False)
            observation = table.observe(agent)
        else:
            observation, reward, terminated, truncated, info = table.last()
        mask = observation["action_mask"]
        seen.append((agent, observation["observation"].tobytes(), mask.tobytes(), mask.dtype, mask.shape,
                     mask.flags.writeable, reward, terminated, truncated, dict(info)))
        table.step(None if terminated else int(rng.choice(np.flatnonzero(mask))))
    return seen


@pytest.mark.parametrize("module", ENVS, ids=IDS)
def test_every_path_to_an_observation_and_to_the_game_agrees(module: ModuleType) -> None:
    """``last()`` (which builds the observation itself) and ``observe()`` give the same, through the wrapper and
    without; the game the environment carries out unchecked (``advance``) is the game ``apply`` checks."""
    for seed in (3, 4):
        wrapped, raw = module.env(), module.raw_env()
        assert trajectory(wrapped, seed, False) == trajectory(raw, seed, True)
        game = module.SPEC.new_game(module.SPEC.shuffled_wall(seed))
        answers = iter(raw.unwrapped._answers)
        while game.decision is not None:
            game.apply(dict(next(answers)[:3:2] for _ in game.decision.legal))
        assert game.events == raw.game.events


def test_noi2014_winners_leave_with_their_points_and_the_game_goes_on() -> None:
    table = noi2014_v0.raw_env()
    for seed in range(40):
        table.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in table.agent_iter():
            observation, reward, terminated, _, _ = table.last()
            if terminated and table.game.decision is not None:
                seat = table.possible_agents.index(agent)
                assert table.game.status[seat] == "won"
                assert reward == 4.0 - table.game.win_order.index(seat)
                return
            mask = observation["action_mask"]
            hu = noi2014_v0.HU
            table.step(None if terminated else hu if mask[hu] else int(rng.choice(np.flatnonzero(mask))))
    pytest.fail("no game of 40 had a winner leave before the end")


def test_an_index_outside_the_mask_is_refused() -> None:
    table = noi2014_v0.env()
    table.reset(seed=0)
    mask = table.last()[0]["action_mask"]
    with pytest.raises(IllegalActionError, match="not legal now"):
        table.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(IllegalActionError):
        table.step(10_000)


def test_the_call_order_checks_are_pettingzoos(caplog: pytest.LogCaptureFixture) -> None:
    """env()'s ``agent_iter()`` wants a step (a refused one too, as PettingZoo's wrapper counts it) or a reset
    between two agents; a step after the game's end warns, in env() and raw_env() alike."""
    table = noi2014_v0.env()
    with pytest.raises(AssertionError, match="reset"):
        table.step(0)
    table.reset(seed=0)
    agents = iter(table.agent_iter())
    first = next(agents)
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)
    with pytest.raises(AssertionError, match="need to call step"):
        next(iter(table.agent_iter()))  # the check is the environment's, not one iterator's
    with pytest.raises(IllegalActionError):
        table.step(10_000)
    agents = iter(table.agent_iter())
    assert next(agents) == first
    table.reset(seed=1)
    assert next(agents) == table.agent_selection
    for make in (noi2014_v0.env, noi2014_v0.raw_env):
        table = make()
        play_random(table, 2)  # type: ignore[arg-type]
        caplog.clear()
        table.step(None)
        assert "after all agents are terminated" in caplog.text


@pytest.mark.parametrize("module", ENVS, ids=IDS)
def test_render_shows_the_table(module: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    table = module.env(render_mode="ansi")
    table.reset(seed=3)
    text = table.render()
    assert "tiles in the wall" in text and text.count("player_") >= 5 and "may:" in text
    human = module.env(render_mode="human")
    human.reset(seed=3)
    assert human.render() is None and capsys.readouterr().out.strip() == text.strip()


# -- replays -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("module", ENVS, ids=IDS)
def test_an_env_game_is_a_replay(module: ModuleType, tmp_path: Path) -> None:
    table = module.raw_env()
    for seed in (1, 2, 3):
        play_random(table, seed)
        path = tmp_path / f"{seed}.json"
        save(table.unwrapped.to_replay(), path)
        data = load(path)
        assert data["seed"] == seed and len(data["decisions"]) == len(table._answers)
        assert replay_game(data).events == table.game.events
        assert [seat["points"] for seat in data["seats"]] == table.spec.points(table.game)


def test_a_replay_needs_a_finished_game() -> None:
    table = noi2014_v0.raw_env()
    table.reset(seed=0)
    with pytest.raises(ValueError, match="not over"):
        table.to_replay()


# -- the single-agent wrapper ------------------------------------------------------------------------------------


def run_episode(env: SingleAgentEnv, seed: int) -> tuple[float, dict[str, Any]]:
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    assert env.observation_space.contains(observation)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
    return total, info


@pytest.mark.parametrize("rules", ["noi2014", "baida", "thupc2021"])
def test_single_agent_rewards_add_up_to_the_seats_points(rules: str) -> None:
    env = SingleAgentEnv(rules, opponents=["builtin:greedy", "builtin:random", "builtin:greedy"], seat=2)
    for seed in range(5):
        total, info = run_episode(env, seed)
        assert total == info["points"] and "opponent_errors" not in info
    env.close()


def test_single_agent_opponents_can_be_programs_and_failures_are_played_by_the_judge() -> None:
    good = f"{sys.executable} {BOTS / 'good_bot.py'} keep"
    crash = f"{sys.executable} {BOTS / 'crash_bot.py'}"
    env = SingleAgentEnv("noi2014", opponents=[good, crash, "builtin:greedy"], seat=0)
    total, info = run_episode(env, 4)
    assert total == info["points"]
    assert info["opponent_errors"] == {2: "crash"}
    env.close()


def test_single_agent_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="three opponents"):
        SingleAgentEnv("noi2014", opponents=["builtin:greedy"])
    with pytest.raises(BotSpecError):
        SingleAgentEnv("noi2014", opponents=["builtin:greedy", "builtin:nope", "builtin:greedy"])


# -- policies as agents ------------------------------------------------------------------------------------------


def test_a_policy_plays_a_match_by_its_spec() -> None:
    result = run_match([POLICY, "builtin:greedy", "builtin:random", "builtin:greedy"], seed=9)
    assert result.seats[0].reason is None and sum(seat.points for seat in result.seats) == 10
    assert replay_game(result.to_json()).events == result.events
    erring = run_match(["python:test_env:out_of_mask", "builtin:greedy"] * 2, seed=9)
    assert [seat.reason for seat in erring.seats] == ["illegal_action", None, "illegal_action", None]


@pytest.mark.parametrize("rules", ["baida", "thupc2021"])
def test_policies_play_every_rule_set(rules: str) -> None:
    result = run_match([POLICY, "builtin:greedy"] * 2, rules=rules, seed=5)
    assert all(seat.reason is None for seat in result.seats)


def test_an_agent_class_and_a_policy_enter_a_tournament(tmp_path: Path) -> None:
    bots = [Entrant("policy", POLICY), Entrant("greedy", "builtin:greedy"),
            Entrant("classy", "python:mjarena.agents.builtin:GreedyAgent"), Entrant("random", "builtin:random")]
    settings = Settings.create(bots, rounds=2, games_per_table=2, seed=3)
    rows = run_tournament(settings, tmp_path, workers=1, progress=False)
    assert sorted(row["bot"] for row in rows) == ["classy", "greedy", "policy", "random"]
    assert all(row["games"] == 4 and not row["errors"] for row in rows)
    replays = sorted((tmp_path / "replays").glob("*.json"))
    assert len(replays) == 4 and replay_game(load(replays[0])).events


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("python:no_such_module_here:policy", "cannot import no_such_module_here"),
        ("python:test_env:nothing", "has no 'nothing'"),
        ("python:test_env:IDS", "neither an agent"),
        ("python:test_env", "expected python:MODULE:NAME"),
    ],
)
def test_bad_python_specs_say_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        check_spec(spec)


def test_spec_for_names_every_environment() -> None:
    assert [spec_for(name).name for name in ("noi", "百搭", "thupc")] == ["noi2014", "baida", "thupc2021"]
    assert {spec_for(name).num_actions for name in ("noi", "baida", "thupc")} == {86, 212, 46}


def test_action_names_cover_every_index() -> None:
    for module in ENVS:
        names: Sequence[str] = module.SPEC.action_names
        assert len(set(names)) == len(names) == module.SPEC.num_actions
