"""NOI 2014 ranking: winners, target hands (海明距离, 胡牌机会值), ties and their points, errors.

Most tests rank a small stand-in table (:func:`table`): the ranking reads only the finished game's
``status``, ``win_order``, ``exhausted``, ``discards``, ``hands``, ``melds`` and ``options``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from mjarena.hand.tracked import TrackedHand
from mjarena.tiles import counts_of
from mjarena.variants.base import Action
from mjarena.variants.noi2014 import (
    WORST_DISTANCE,
    Meld,
    NoiGame,
    NoiOptions,
    is_winning_shape,
    points_for_ranks,
    rank,
    shuffled_wall,
    target_distance,
    whole_hand_counts,
)
from mjarena.variants.noi2014_ranking import chance_value

from noi_scenarios import Script, finish, step, tiles

# Four hands at the end of a game; each comment says what its target needs.
NEEDS_T9 = "B1 B2 B3 B2 B3 B4 T2 T2 T2 T4 T5 T6 T9"  # T9 (one is in its own hand)
NEEDS_B9 = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 B7 B8"  # B9 (the last one was discarded at position 2)
NEEDS_B6 = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T3 T3 T3 B6"  # B6 (one is in its own hand)
NEEDS_TWO = "W1 W2 W3 W4 W5 W6 B5 B6 B7 T7 T7 T8 B1"  # T9 and T7 (or T6) ... and B1 must go: distance 3
WINNER = "W4 W5 W6 B4 B5 B6 T3 T4 T5 T8 T8 T8 B8 B8"
WINNER2 = "W7 W8 W9 B7 B8 B9 T6 T7 T8 B1 B1 B1 T1 T1"
WINNER3 = "W1 W2 W3 B5 B6 B7 T5 T6 T7 W9 W9 W9 T3 T3"

TARGETS = {
    "needs T9": tiles(NEEDS_T9) + tiles("T9"),
    "needs B9": tiles(NEEDS_B9) + tiles("B9"),
    "needs B6": tiles(NEEDS_B6) + tiles("B6"),
    "needs two": tiles("W1 W2 W3 W4 W5 W6 B5 B6 B7 T7 T7 T7 T8 T9"),
}


def table(
    hands: list[str],
    status: list[str],
    win_order: list[int],
    discards: str = "B9 B9 W7",
    exhausted: bool = True,
    targets: dict[int, Any] | None = None,
    melds: list[list[Meld]] | None = None,
) -> Any:
    """A finished game as the ranking sees it."""
    melds = melds or [[] for _ in range(4)]
    return SimpleNamespace(
        decision=None,
        status=status,
        win_order=win_order,
        exhausted=exhausted,
        discards=tiles(discards),
        hands=[TrackedHand(tiles(text), len(melds[seat])) for seat, text in enumerate(hands)],
        melds=melds,
        targets=targets or {},
        options=NoiOptions(),
    )


def results_of(results: list[Any]) -> list[tuple[Any, ...]]:
    return [(r.seat, r.status, r.rank, r.points, r.distance, r.chance) for r in results]


# -- distance and chance ------------------------------------------------------------------------------------


def test_spec_example_one_tile_needed_is_distance_one() -> None:
    hand = counts_of(tiles(NEEDS_T9))
    assert target_distance(TARGETS["needs T9"], hand) == 1


def test_spec_example_two_tiles_needed_and_one_to_discard_is_distance_three() -> None:
    hand = counts_of(tiles(NEEDS_TWO))
    assert is_winning_shape(TARGETS["needs two"])
    assert target_distance(TARGETS["needs two"], hand) == 3


def test_melded_tiles_count_in_the_whole_hand_kong_included() -> None:
    concealed = TrackedHand(tiles("B1 B2 B3 B4 B5 B6 T4 T5 T6 W8"), melds=1)
    whole = whole_hand_counts(concealed.counts, [Meld("gang", tiles("T2")[0], "concealed")])
    target = tiles("B1 B2 B3 B4 B5 B6 T2 T2 T2 T2 T4 T5 T6 W8 W8")
    assert sum(whole) == 14 and target_distance(target, whole) == 1
    assert target_distance(tiles("B1 B2 B3 B4 B5 B6 T2 T2 T2 T4 T5 T6 W8 W8"), whole) == 2  # the 4th T2 goes


def test_chance_value_is_the_earliest_last_appearance_of_a_needed_kind() -> None:
    # "若其需要得到 A, B 才能胡牌，且最后一张 A 出现在序列 30 位，最后一张 B 出现在选手手牌中 ... 胡牌机会值为 30"
    positions = [0] * 27
    a, b = tiles("B4 T6")
    positions[a], positions[b] = 30, 41  # 40 discards, the hands at 41
    whole = counts_of(tiles("W1 W2 W3 B5 B6 T4 T5 T7 T8 T9 W9 W9 W9"))
    target = tiles("W1 W2 W3 B4 B5 B6 T4 T5 T6 T7 T8 T9 W9 W9")
    assert chance_value(target, whole, positions) == 30


# -- the order ----------------------------------------------------------------------------------------------


def test_winners_first_then_distance_then_chance() -> None:
    game = table(
        [WINNER, NEEDS_T9, NEEDS_B9, NEEDS_TWO], ["won", "in", "in", "in"], [0],
        targets={1: TARGETS["needs T9"], 2: TARGETS["needs B9"], 3: TARGETS["needs two"]},
    )
    # Seats 1 and 2 both need one tile: the last T9 is in a hand (position 4 = 3 discards + 1), the last
    # B9 was the 2nd discard.  Seat 3 needs two tiles and must discard one.
    assert results_of(rank(game)) == [
        (0, "won", 1, 4.0, None, None),
        (1, "in", 2, 3.0, 1, 4),
        (2, "in", 3, 2.0, 1, 2),
        (3, "in", 4, 1.0, 3, 4),
    ]
    assert rank(game)[1].target == tuple(TARGETS["needs T9"])


def test_equal_distance_and_chance_tie_and_share_points() -> None:
    # Both need one tile that they already hold one of: the last copy is in a hand, position 4.
    game = table([NEEDS_T9, WINNER, NEEDS_B6, NEEDS_TWO], ["in", "won", "in", "in"], [1],
                 targets={0: TARGETS["needs T9"], 2: TARGETS["needs B6"], 3: TARGETS["needs two"]})
    results = rank(game)
    assert [(r.rank, r.points) for r in results] == [(2, 2.5), (1, 4.0), (2, 2.5), (4, 1.0)]
    assert sum(r.points for r in results) == 10


def test_two_tied_after_two_winners_share_third_and_fourth() -> None:
    game = table([WINNER, NEEDS_T9, WINNER2, NEEDS_B6], ["won", "in", "won", "in"], [2, 0],
                 targets={1: TARGETS["needs T9"], 3: TARGETS["needs B6"]})
    assert [(r.rank, r.points) for r in rank(game)] == [(2, 3.0), (3, 1.5), (1, 4.0), (3, 1.5)]


@pytest.mark.parametrize(
    "target",
    [
        None,
        (),
        "W1 W2 W3",  # not a tile list
        tiles("B1 B2 B3 B2 B3 B4 T2 T2 T2 T4 T5 T6 T9"),  # 13 tiles
        tiles("B1 B2 B3 B2 B3 B4 T2 T2 T2 T4 T5 T6 T9 T8"),  # 14 tiles, no win
        tiles("T9 T9 T9 T9 T9 B2 B3 B4 T2 T2 T2 T4 T5 T6"),  # a fifth T9
        (*tiles("B1 B2 B3 B2 B3 B4 T2 T2 T2 T4 T5 T6 T9"), 27),  # not a NOI tile
        (*tiles("B1 B2 B3 B2 B3 B4 T2 T2 T2 T4 T5 T6 T9"), "T9"),  # a name, not a kind
        tiles("W1 W1 W1 W1 W2 W2 W2 W2 W3 W3 W3 W3 W4 W4 W4 W4 W5 W5 W6"),  # 19 tiles
    ],
)
def test_a_malformed_target_counts_as_the_worst_distance(target: Any) -> None:
    game = table([WINNER, NEEDS_T9, NEEDS_B9, NEEDS_TWO], ["won", "in", "in", "in"], [0],
                 targets={1: target, 2: TARGETS["needs B9"], 3: TARGETS["needs two"]})
    results = rank(game)
    assert (results[1].distance, results[1].chance, results[1].rank, results[1].points) == (
        WORST_DISTANCE, None, 4, 1.0)
    assert [r.rank for r in results] == [1, 4, 2, 3]


def test_two_malformed_targets_tie() -> None:
    game = table([WINNER, NEEDS_T9, NEEDS_B9, NEEDS_TWO], ["won", "in", "in", "in"], [0],
                 targets={1: None, 2: tiles("W1"), 3: TARGETS["needs two"]})
    assert [(r.rank, r.points) for r in rank(game)] == [(1, 4.0), (3, 1.5), (3, 1.5), (2, 3.0)]


def test_error_seats_rank_below_all_others_tied() -> None:
    game = table([WINNER, NEEDS_T9, NEEDS_B9, NEEDS_TWO], ["won", "in", "in", "in"], [0],
                 targets={1: TARGETS["needs T9"], 2: None, 3: TARGETS["needs two"]})
    results = rank(game, errors={1: "timeout", 3: "crash"})
    assert [(r.status, r.rank, r.points, r.reason) for r in results] == [
        ("won", 1, 4.0, None), ("error", 3, 1.5, "timeout"), ("in", 2, 3.0, None), ("error", 3, 1.5, "crash")]


def test_a_false_hu_seat_is_an_error_even_when_errors_do_not_name_it() -> None:
    game = table([WINNER, NEEDS_T9, NEEDS_B9, NEEDS_TWO], ["won", "out", "in", "in"], [0],
                 targets={2: TARGETS["needs B9"], 3: TARGETS["needs two"]})
    results = rank(game)
    assert (results[1].status, results[1].reason, results[1].rank) == ("error", "false_hu", 4)
    assert [r.rank for r in results] == [1, 4, 2, 3]


def test_the_last_player_left_ranks_after_the_winners_without_a_target() -> None:
    game = table([WINNER, NEEDS_T9, WINNER2, WINNER3], ["won", "in", "won", "won"], [2, 0, 3], exhausted=False,
                 targets={1: TARGETS["needs T9"]})
    assert results_of(rank(game)) == [
        (0, "won", 2, 3.0, None, None), (1, "in", 4, 1.0, None, None),
        (2, "won", 1, 4.0, None, None), (3, "won", 3, 2.0, None, None)]
    assert rank(game)[1].target is None


def test_an_unfinished_game_is_not_ranked() -> None:
    with pytest.raises(ValueError, match="not over"):
        rank(NoiGame(shuffled_wall(seed=1)))


def test_ranking_a_played_out_game_uses_the_whole_hands() -> None:
    game = NoiGame(shuffled_wall(seed=5))
    finish(game, Script({seat: [] for seat in range(4)}))  # nobody claims, the wall runs out
    assert game.exhausted and game.targets == {0: (), 1: (), 2: (), 3: ()}
    target = tuple(tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B1 B2 B2"))
    results = rank(game, {0: target, 1: target, 2: None, 3: target}, {3: "bad_output"})
    for seat in (0, 1):
        assert results[seat].distance == target_distance(target, game.whole_hand(seat))
    assert results[2].distance == WORST_DISTANCE and results[3].status == "error"
    assert sorted(r.points for r in results) in ([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.5, 3.5])


def test_a_target_answer_reaches_the_ranking_through_the_game() -> None:
    game = NoiGame(shuffled_wall(seed=5))
    script = Script()
    while game.decision.stage != "target":
        step(game, script)
    target = tuple(tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B1 B2 B2"))
    game.apply({seat: Action("target", tiles=target) for seat in range(4)})
    assert [r.target for r in rank(game)] == [target] * 4


# -- shapes and points --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "wins"),
    [
        ("B1 B2 B3 B2 B3 B4 T2 T2 T2 T4 T5 T6 W8 W8", True),
        ("B1 B2 B3 B2 B3 B4 T2 T2 T2 T2 T4 T5 T6 W8 W8", True),  # the spec's example with a kong
        ("W1 W1 W1 W1 B2 B2 B2 B2 T3 T3 T3 T3 T9 T9 T9 T9 W5 W5", True),  # four kongs: 18 tiles
        ("W1 W1 W1 W1 W2 W3 B2 B2 B2 T3 T3 T3 T9 T9", True),  # four W1 as a triplet and a run, no kong
        ("W1 W1 W1 W1 W2 W3 W5 B2 B2 B2 T3 T3 T3 T9 T9", False),  # 15 tiles need a kong: W1, then W2 W3 W5
        ("W1 W1 W1 W1 W2 W3 W4 B2 B2 B2 T3 T3 T3 T9 T9", True),  # W1 kong, W2 W3 W4, B2 B2 B2, T3 T3 T3, T9 T9
        ("W1 W1 W1 W1 W2 W2 W2 W2 W3 W3 W3 W3 W4 W4 W4", True),  # W1 kong, W222, W333, W234, W4 pair
        ("W1 W1 W2 W2 W3 W3 B4 B4 B5 B5 T7 T7 T9 T9", False),  # seven pairs is off
        ("W1 W2 W3 B2 B3 B4 T2 T2 T2 T4 T5 T6 W8", False),  # 13 tiles
    ],
)
def test_winning_shapes_with_kongs(text: str, wins: bool) -> None:
    assert is_winning_shape(tiles(text)) is wins


def test_seven_pairs_target_only_with_the_option() -> None:
    pairs = tiles("W1 W1 W2 W2 W3 W3 B4 B4 B5 B5 T7 T7 T7 T7")
    assert not is_winning_shape(pairs) and is_winning_shape(pairs, seven_pairs=True)


@pytest.mark.parametrize(
    ("ranks", "points"),
    [
        ([1, 2, 3, 4], [4.0, 3.0, 2.0, 1.0]),
        ([4, 3, 2, 1], [1.0, 2.0, 3.0, 4.0]),
        ([1, 2, 2, 4], [4.0, 2.5, 2.5, 1.0]),  # "两人并列第 2 ... 2.5 分"
        ([1, 1, 3, 3], [3.5, 3.5, 1.5, 1.5]),
        ([1, 1, 1, 4], [3.0, 3.0, 3.0, 1.0]),
        ([2, 2, 2, 1], [2.0, 2.0, 2.0, 4.0]),
    ],
)
def test_points_for_ranks_average_ties(ranks: list[int], points: list[float]) -> None:
    assert points_for_ranks(ranks) == points
    assert sum(points) == 10


@pytest.mark.parametrize("ranks", [[1, 2, 2, 3], [0, 1, 2, 3], [1, 1, 2, 4], [2, 3, 4, 5]])
def test_points_for_ranks_refuses_inconsistent_ranks(ranks: list[int]) -> None:
    with pytest.raises(ValueError, match="not 1-based ranks"):
        points_for_ranks(ranks)
