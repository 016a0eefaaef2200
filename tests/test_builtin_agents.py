"""The built-in NOI 2014 agents: RandomAgent, GreedyAgent and the greedy target hand (best_target)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from mjarena.agents.builtin import BUILTIN_AGENTS, GreedyAgent, RandomAgent, best_target
from mjarena.hand.tracked import TrackedHand
from mjarena.variants.base import Action, play
from mjarena.variants.noi2014 import (
    Meld,
    NoiGame,
    is_winning_shape,
    rank,
    shuffled_wall,
    target_distance,
    whole_hand_counts,
)

import noi_scenarios as scenario
from noi_scenarios import HU, PASS, WAIT_T9, Script, build_wall, run, tiles

EAST_DISCARDS_T9 = "T9 W4 W4 W5 W6 W7 B7 B8 B9 T4 T5 T6 T7"


def test_registry_names_both_agents() -> None:
    assert set(BUILTIN_AGENTS) == {"random", "greedy"}
    assert [BUILTIN_AGENTS[name]().name for name in ("random", "greedy")] == ["random", "greedy"]


# -- RandomAgent --------------------------------------------------------------------------------------------


def test_random_agent_is_deterministic_given_its_seed() -> None:
    def events(seed: int) -> list:
        return play(NoiGame(shuffled_wall(4)), [RandomAgent(seed + seat) for seat in range(4)]).events

    assert events(1) == events(1)
    assert events(1) != events(2)


def test_random_agents_play_legal_games_without_false_hu_and_name_winning_targets() -> None:
    for seed in range(15):
        game = play(NoiGame(shuffled_wall(seed)), [RandomAgent(seed * 4 + seat) for seat in range(4)])
        assert not any(event.type == "false_hu" for event in game.events)
        for target in game.targets.values():
            assert target is not None and is_winning_shape(target)


def test_random_agent_picks_an_action_type_first() -> None:
    game = NoiGame(build_wall({0: EAST_DISCARDS_T9, 2: "T9 T9 W1 W1 W2 W3 B1 B2 B3 B4 B5 B6 T1"}, draws="W8"))
    run(game, Script({0: [scenario.play("T9")]}))
    legal = game.decision.legal[2]
    assert len(legal) == 11  # ten PENGs and a pass
    agent = RandomAgent(seed=0)
    passes = sum(agent.act(game, 2, legal) == PASS for _ in range(400))
    assert 140 < passes < 260  # about half, not one in eleven


# -- GreedyAgent --------------------------------------------------------------------------------------------


def test_greedy_wins_whenever_it_can() -> None:
    game = NoiGame(build_wall({0: WAIT_T9}, draws="T9"))
    assert GreedyAgent().act(game, 0, game.decision.legal[0]) == HU
    game = NoiGame(build_wall({0: EAST_DISCARDS_T9, 3: WAIT_T9}, draws="W8"))
    run(game, Script({0: [scenario.play("T9")]}))
    assert GreedyAgent().act(game, 3, game.decision.legal[3]) == HU


def test_greedy_discards_the_tile_that_leaves_the_lowest_distance() -> None:
    game = NoiGame(build_wall({0: "W1 W2 W3 B4 B5 B6 T7 T8 T9 T1 T1 T5 B9"}, draws="T5"))
    assert GreedyAgent().act(game, 0, game.decision.legal[0]) == scenario.play("B9")  # then ready on T1 / T5


def test_greedy_makes_a_concealed_kong_only_if_the_distance_does_not_rise() -> None:
    keeps = NoiGame(build_wall({0: "W1 W1 W1 W5 W6 W7 B5 B6 B7 T1 T2 T4 T9"}, draws="W1"))
    assert GreedyAgent().act(keeps, 0, keeps.decision.legal[0]) == scenario.gang("W1")
    # Here W1 W2 W3 is needed as a run as well as W1 W1 W1: the kong would raise the distance from 2 to 3.
    raises = NoiGame(build_wall({0: "W1 W1 W1 W2 W3 B5 B6 B7 T1 T2 T4 T5 T9"}, draws="W1"))
    action = GreedyAgent().act(raises, 0, raises.decision.legal[0])
    assert action.type == "play" and raises.hands[0].distance_without(action.tile) == 2


def test_greedy_pengs_only_when_that_lowers_the_distance() -> None:
    lowers = NoiGame(build_wall({0: EAST_DISCARDS_T9, 1: "T8 T9 T9 W1 W2 W3 B1 B2 B3 B4 B5 B6 W9"}, draws="W8"))
    run(lowers, Script({0: [scenario.play("T9")]}))
    # From 2 to 1: PENG, then of T8 and W9 (equally good) let the terminal go.
    assert GreedyAgent().act(lowers, 1, lowers.decision.legal[1]) == scenario.peng("W9")
    same = NoiGame(build_wall({0: EAST_DISCARDS_T9, 1: "T9 T9 W1 W2 W3 B1 B2 B3 B5 B7 T1 T4 T6"}, draws="W8"))
    run(same, Script({0: [scenario.play("T9")]}))
    assert GreedyAgent().act(same, 1, same.decision.legal[1]) == PASS


def test_greedy_makes_an_open_kong_when_the_distance_stays() -> None:
    triplet_t9 = "T9 T9 T9 W1 W2 W3 B1 B2 B3 B5 B7 T1 T4"  # distance 2, and 2 after the kong
    game = NoiGame(build_wall({0: EAST_DISCARDS_T9, 1: triplet_t9}, draws="W8"))
    run(game, Script({0: [scenario.play("T9")]}))
    assert GreedyAgent().act(game, 1, game.decision.legal[1]) == Action("gang")


def test_greedy_games_end_and_rank() -> None:
    for seed in range(10):
        game = play(NoiGame(shuffled_wall(seed)), [GreedyAgent()] * 4)
        assert game.events[-1].type == "end"
        assert sum(result.points for result in rank(game)) == 10


# -- best_target --------------------------------------------------------------------------------------------

SETS = [
    *((k, k, k) for k in range(27)),
    *((k, k + 1, k + 2) for k in range(27) if k % 9 <= 6),
    *((k,) * 4 for k in range(27)),
]


def brute_force_cost(concealed: list[int], in_melds: list[int], sets: int) -> int:
    """The least symmetric difference between the concealed tiles and any ``sets`` sets (runs, triplets,
    kongs) plus a pair, with at most 4 of a kind counting the melds."""
    best = 99
    for combo in itertools.combinations_with_replacement(SETS, sets):
        base = [0] * 27
        for shape in combo:
            for kind in shape:
                base[kind] += 1
        if any(base[k] + in_melds[k] > 4 for k in range(27)):
            continue
        for pair in range(27):
            if base[pair] + in_melds[pair] + 2 > 4:
                continue
            base[pair] += 2
            best = min(best, sum(abs(base[k] - concealed[k]) for k in range(27)))
            base[pair] -= 2
    return best


@st.composite
def hands_with_melds(draw: st.DrawFn, melds: tuple[int, ...]) -> tuple[list[int], list[Meld]]:
    """A concealed hand of 13 - 3n tiles and n melds, at most 4 of a kind in all."""
    n = draw(st.sampled_from(melds))
    kinds = draw(st.lists(st.integers(0, 26), min_size=n, max_size=n, unique=True))
    laid = [Meld(draw(st.sampled_from(["peng", "gang"])), kind, "open") for kind in kinds]
    left = [4] * 27
    for meld in laid:
        left[meld.kind] -= meld.size
    pool = [kind for kind in range(27) for _ in range(left[kind])]
    # Concealed tiles drawn near one another make richer hands than a uniform draw.
    centre = draw(st.integers(0, 26))
    near = sorted(pool, key=lambda kind: abs(kind - centre))[:40]
    picks = draw(st.lists(st.integers(0, len(near) - 1), min_size=13 - 3 * n, max_size=13 - 3 * n, unique=True))
    return [near[i] for i in picks], laid


@settings(max_examples=40, deadline=None)
@given(hands_with_melds((2, 3, 4)))
def test_best_target_is_optimal_with_melds_fixed(case: tuple[list[int], list[Meld]]) -> None:
    concealed, laid = case
    hand = TrackedHand(concealed, len(laid))
    target = best_target(hand, laid)
    assert is_winning_shape(target)
    whole = whole_hand_counts(hand.counts, laid)
    in_melds = [0] * 27
    for meld in laid:
        in_melds[meld.kind] += meld.size
        assert target.count(meld.kind) >= meld.size  # the melds stay
    assert target_distance(target, whole) == brute_force_cost(hand.counts[:27], in_melds, 4 - len(laid))


@settings(max_examples=150, deadline=None)
@given(hands_with_melds((0, 1)))
def test_best_target_matches_the_distance_tables_without_caps(case: tuple[list[int], list[Meld]]) -> None:
    concealed, laid = case
    hand = TrackedHand(concealed, len(laid))
    target = best_target(hand, laid)
    assert is_winning_shape(target)
    cost = target_distance(target, whole_hand_counts(hand.counts, laid))
    # Without kongs a closest winning hand of 14 - 3n tiles shares 14 - 3n - d tiles with the 13 - 3n held:
    # symmetric difference 2d - 1.  A kong of four held tiles can only do better; caps only worse.
    bound = 2 * hand.distance() - 1
    if not laid and max(hand.counts) < 4:
        assert cost == bound
    elif not laid:
        assert cost <= bound


def test_best_target_keeps_four_held_tiles_as_a_kong() -> None:
    hand = TrackedHand(tiles("W1 W1 W1 W1 B2 B3 B4 B5 B6 B7 T1 T2 T9"))
    target = best_target(hand, [])
    assert len(target) == 15 and target.count(tiles("W1")[0]) == 4
    # Needs T3 and a second T9; without the kong a fourth W1 would also have to go (3, i.e. 2d - 1).
    assert target_distance(target, hand.counts) == 2 and 2 * hand.distance() - 1 == 3


def test_best_target_never_asks_for_a_fifth_tile_of_a_melded_kind() -> None:
    # A PENG of B1 and the fourth B1 in hand: a pair of B1 would be a fifth.  (The tables alone allow it.)
    hand = TrackedHand(tiles("B1 W1 W2 W3 W4 W5 W6 T4 T5 T6"), melds=1)
    target = best_target(hand, [Meld("peng", tiles("B1")[0], "open")])
    assert is_winning_shape(target) and target.count(tiles("B1")[0]) <= 4
