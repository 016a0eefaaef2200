"""NOI 2014 rules engine: scripted games on constructed walls, read as transcripts, and property tests.

Every scenario builds a wall whose deal gives chosen hands (:func:`build_wall`), then plays it with a
:class:`Script`: per seat, a queue of actions used one per decision of that seat; a seat with an empty queue
plays the tile it just drew, passes every claim and names no target.  :func:`transcript` shows the events
as ``"<seat> <event> <tiles> [from <seat>]"``.

The helpers live in ``tests/noi_scenarios.py``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjarena.agents.builtin import GreedyAgent, RandomAgent
from mjarena.env import noi2014_v0
from mjarena.env._spec import Observer
from mjarena.formats import noi_log
from mjarena.protocol.botzone import requests_for
from mjarena.table import Table
from mjarena.tiles import TileError, format_tiles
from mjarena.variants.base import Action, Event, IllegalAction, get_variant
from mjarena.variants.noi2014 import Meld, NoiGame, NoiOptions, rank, shuffled_wall, validate_wall

from noi_scenarios import (
    DEALT,
    FULL_SET,
    HOLDS_T9,
    HU,
    OPEN_GANG,
    PAIR_T9,
    PASS,
    WAIT_T9,
    Script,
    build_wall,
    dealt_hands,
    finish,
    gang,
    peng,
    play,
    run,
    step,
    tile,
    tile_census,
    tiles,
    transcript,
)

# -- the wall and the deal ----------------------------------------------------------------------------------


def test_variant_is_registered_under_its_name_and_alias() -> None:
    info = get_variant("NOI")
    assert (info.name, info.tiles, info.players, info.hand_size) == ("noi2014", 108, 4, 13)
    assert info.claims == ("hu", "peng", "gang") and info.new_game is NoiGame


@pytest.mark.parametrize(
    ("wall", "message"),
    [
        ([0, 1, 2] * 4, "a NOI 2014 wall has 108 tiles (4 of each of 27 kinds), not 12"),
        ([5] * 5 + [0] * 3, "a fifth copy of W6 (tile 5); there are only 4 of each kind"),
        ([0, 1, 33], "tile 3 is not a NOI 2014 tile (kind 33); NOI uses kinds 0..26 (W1..T9)"),
        ([0, -1], "tile 2 is not a NOI 2014 tile (kind -1)"),
    ],
)
def test_bad_walls_are_refused_with_a_clear_message(wall: list[int], message: str) -> None:
    with pytest.raises(TileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        NoiGame(wall)


def test_deal_gives_four_at_a_time_then_one_each_and_east_draws() -> None:
    wall = shuffled_wall(seed=11)
    game = NoiGame(wall)
    expected = dealt_hands(wall)
    assert [event.type for event in game.events[:4]] == ["deal"] * 4
    assert [list(event.tiles) for event in game.events[:4]] == expected
    assert [sorted(hand.kinds()) for hand in game.hands[1:]] == [sorted(h) for h in expected[1:]]
    assert game.events[4] == Event("draw", 0, (wall[DEALT],))
    assert game.last_drawn == [wall[DEALT], None, None, None]
    assert game.wall_left == 108 - DEALT - 1
    assert game.decision is not None and game.decision.stage == "draw" and list(game.decision.legal) == [0]


def test_build_wall_deals_the_chosen_hands() -> None:
    wall = build_wall({2: WAIT_T9}, draws="T9 W9", back="B9 B8")
    validate_wall(wall)
    assert dealt_hands(wall)[2] == tiles(WAIT_T9)
    assert wall[DEALT : DEALT + 2] == tiles("T9 W9") and wall[-2:] == tiles("B8 B9")


# -- the draw decision --------------------------------------------------------------------------------------


def test_draw_decision_offers_each_kind_held_and_a_concealed_kong() -> None:
    game = NoiGame(build_wall({0: "W1 W1 W1 W2 W3 W4 B5 B6 B7 T1 T2 T3 T9"}, draws="W1"))
    assert transcript(game) == ["0 draw W1"]
    legal = game.decision.legal[0]
    plays = [Action("play", kind) for kind in tiles("W1 W2 W3 W4 B5 B6 B7 T1 T2 T3 T9")]
    assert sorted(legal) == sorted([gang("W1"), *plays])
    assert HU not in legal


def test_draw_decision_offers_hu_only_for_a_winning_hand() -> None:
    game = NoiGame(build_wall({0: WAIT_T9}, draws="T9 B9"))
    assert game.decision.legal[0][0] == HU
    run(game, Script({0: [HU]}))
    assert transcript(game) == ["0 draw T9", "0 hu_self T9", "1 draw B9"]
    assert game.status == ["won", "in", "in", "in"] and game.win_order == [0]
    assert game.decision.stage == "draw" and list(game.decision.legal) == [1]


def test_playing_a_tile_not_held_is_illegal_and_changes_nothing() -> None:
    game = NoiGame(build_wall({0: WAIT_T9}, draws="W9"))
    before = (len(game.events), game.decision, game.hands[0].kinds())
    with pytest.raises(IllegalAction, match="seat 0"):
        game.apply({0: play("T8")})
    with pytest.raises(IllegalAction):
        game.apply({0: gang("W1")})  # one W1 is no kong
    with pytest.raises(IllegalAction):
        game.apply({})  # no answer at all
    assert (len(game.events), game.decision, game.hands[0].kinds()) == before


# -- the claim decision -------------------------------------------------------------------------------------


def test_every_other_seat_is_asked_after_a_discard_even_to_pass() -> None:
    game = NoiGame(build_wall({0: HOLDS_T9, 2: PAIR_T9}, draws="W8 T8"))
    run(game, Script({0: [play("T9")]}))
    decision = game.decision
    assert transcript(game) == ["0 draw W8", "0 play T9"]
    assert decision.stage == "claim" and list(decision.legal) == [1, 2, 3]
    assert (game.claimable, game.discarder) == (tile("T9"), 0)
    assert decision.legal[1] == [PASS] and decision.legal[3] == [PASS]
    after_pair = tiles("W1 W2 W3 B1 B2 B3 B4 B5 B6 T1")  # a PENG may discard any kind left after the pair
    assert decision.legal[2] == [*(Action("peng", kind) for kind in after_pair), PASS]
    run(game, Script({1: [PASS], 2: [PASS], 3: [PASS]}))
    assert transcript(game)[2:] == ["1 draw T8"]
    assert game.claimable is None and game.discards == [tile("T9")]


def test_peng_lays_the_set_discards_at_once_and_the_pongers_next_plays() -> None:
    game = NoiGame(build_wall({0: HOLDS_T9, 2: PAIR_T9}, draws="W8 T8"))
    run(game, Script({0: [play("T9")], 2: [peng("T1")]}))
    assert transcript(game) == ["0 draw W8", "0 play T9", "2 peng T9", "2 play T1"]
    assert game.melds[2] == [Meld("peng", tile("T9"), "open")]
    assert game.hands[2].melds == 1 and game.hands[2].size == 13 - 3
    assert game.decision.stage == "claim" and list(game.decision.legal) == [3, 0, 1]  # the ponger's discard
    assert (game.claimable, game.discarder) == (tile("T1"), 2)
    run(game, Script({3: [PASS], 0: [PASS], 1: [PASS]}))
    assert transcript(game)[4:] == ["3 draw T8"]  # West ponged: North, West's next, draws
    assert game.discards == tiles("T9 T1") and game.pool() == tiles("T1")


def test_a_claim_that_is_not_offered_is_illegal() -> None:
    game = NoiGame(build_wall({0: HOLDS_T9, 2: PAIR_T9}, draws="W8"))
    run(game, Script({0: [play("T9")]}))
    with pytest.raises(IllegalAction, match="seat 1"):
        game.apply({1: peng("W8"), 2: PASS, 3: PASS})  # North has no pair of T9
    with pytest.raises(IllegalAction, match="seat 2"):
        game.apply({1: PASS, 2: OPEN_GANG, 3: PASS})  # two T9 are no kong
    with pytest.raises(IllegalAction, match="seat 2"):
        game.apply({1: PASS, 2: peng("T9"), 3: PASS})  # no T9 left to discard after the pair


def test_open_gang_draws_from_the_back_and_wins_on_the_replacement_as_self_draw() -> None:
    kong_then_ready = "T9 T9 T9 W1 W2 W3 B1 B2 B3 B4 B5 B6 W5"
    east = "T9 W4 W4 W6 W7 W8 B7 B8 B9 T4 T5 T6 T7"
    game = NoiGame(build_wall({0: east, 1: kong_then_ready}, draws="W9 B9", back="W5"))
    run(game, Script({0: [play("T9")]}))
    assert OPEN_GANG in game.decision.legal[1] and peng("W5") in game.decision.legal[1]
    run(game, Script({1: [OPEN_GANG], 2: [PASS], 3: [PASS]}))
    assert transcript(game) == ["0 draw W9", "0 play T9", "1 gang T9 from 0", "1 draw_back W5"]
    assert game.melds[1] == [Meld("gang", tile("T9"), "open")] and game.hands[1].melds == 1
    assert game.decision.stage == "draw" and game.decision.legal[1][0] == HU
    assert game.wall_left == 108 - DEALT - 2
    run(game, Script({1: [HU]}))
    assert transcript(game)[4:] == ["1 hu_self W5", "2 draw B9"]  # play goes on from the winner's next
    assert game.win_order == [1]


def test_concealed_kong_then_a_win_on_the_replacement() -> None:
    game = NoiGame(build_wall({0: "W1 W1 W1 W2 W3 W4 B5 B6 B7 T1 T2 T3 T9"}, draws="W1 B9", back="T9"))
    run(game, Script({0: [gang("W1")]}))
    assert transcript(game) == ["0 draw W1", "0 angang W1", "0 draw_back T9"]
    assert game.melds[0] == [Meld("gang", tile("W1"), "concealed")]
    assert game.hands[0].melds == 1 and game.hands[0].size == 14 - 3
    assert game.decision.stage == "draw" and game.decision.legal[0][0] == HU
    run(game, Script({0: [HU]}))
    assert transcript(game)[3:] == ["0 hu_self T9", "1 draw B9"]


def test_added_kong_on_an_own_peng() -> None:
    pair_b1 = "B1 B1 W9 W1 W2 W3 B2 B3 B4 T1 T2 T3 T8"
    east = "B1 W4 W4 W5 W6 W7 B7 B8 B9 T4 T5 T6 T7"
    game = NoiGame(build_wall({0: east, 1: pair_b1}, draws="T5 T6 T7 T8 B1", back="W8"))
    script = Script({
        0: [play("B1")],
        1: [peng("W9"),  # on East's B1, discarding W9
            PASS, PASS, PASS,  # West's, North's and East's discards
            gang("B1")],  # draws the fourth B1 and adds it to the PENG
    })
    run(game, script)
    assert transcript(game) == [
        "0 draw T5", "0 play B1", "1 peng B1", "1 play W9",
        "2 draw T6", "2 play T6", "3 draw T7", "3 play T7", "0 draw T8", "0 play T8",
        "1 draw B1", "1 bugang B1", "1 draw_back W8",
    ]
    assert game.melds[1] == [Meld("gang", tile("B1"), "added")] and game.hands[1].melds == 1
    assert game.decision.stage == "draw" and list(game.decision.legal) == [1]


def gang_on_peng_game(options: NoiOptions | None = None) -> NoiGame:
    """South pongs East's B1; three turns later West discards the fourth B1 (South is asked about it)."""
    pair_b1 = "B1 B1 W9 W1 W2 W3 B2 B3 B4 T1 T2 T3 T8"
    east = "B1 W4 W4 W5 W6 W7 B7 B8 B9 T4 T5 T6 T7"
    game = NoiGame(build_wall({0: east, 1: pair_b1}, draws="T5 T6 T7 T8 T9 B1", back="W8"), options or NoiOptions())
    run(game, Script({0: [play("B1")], 1: [peng("W9"), PASS, PASS, PASS, play("T9")]}))
    while game.events[-1].type != "play" or game.events[-1].seat != 2:
        step(game, Script())  # everyone passes; West draws B1 and plays it
    assert transcript(game)[-2:] == ["2 draw B1", "2 play B1"] and game.decision.stage == "claim"
    return game


def test_gang_on_a_discard_with_a_peng_of_it_joins_the_meld_and_draws_from_the_back() -> None:
    game = gang_on_peng_game()
    assert game.decision.legal[1] == [OPEN_GANG, PASS] and game.hands[1].counts[tile("B1")] == 0
    run(game, Script({1: [OPEN_GANG], 3: [PASS], 0: [PASS]}))
    assert transcript(game)[-4:] == ["2 draw B1", "2 play B1", "1 gang_on_peng B1 from 2", "1 draw_back W8"]
    assert game.melds[1] == [Meld("gang", tile("B1"), "added")] and game.hands[1].melds == 1
    assert game.hands[1].size == 13 - 3 + 1 and game.whole_hand(1)[tile("B1")] == 4
    assert game.decision.stage == "draw" and list(game.decision.legal) == [1]
    assert game.pool()[-1] != tile("B1") and game.claimed[-1] == len(game.discards) - 1
    assert tile_census(game) == FULL_SET
    west = [request.text for request in requests_for(game.events, 2)]
    assert west[-1] == "3 1 GANG B1"  # announced to the others as any kong
    assert [request.text for request in requests_for(game.events, 1)][-1] == "2 W8"  # never told of its own


def test_gang_on_peng_is_no_claim_when_the_option_forbids_it() -> None:
    game = gang_on_peng_game(NoiOptions(gang_on_peng=False))
    assert game.decision.legal[1] == [PASS]
    with pytest.raises(IllegalAction, match="seat 1"):
        game.apply({1: OPEN_GANG, 3: PASS, 0: PASS})
    run(game, Script({1: [PASS], 3: [PASS], 0: [PASS]}))
    assert transcript(game)[-1] == "3 draw " + format_tiles([game.wall[DEALT + 6]], "noi")
    assert game.melds[1] == [Meld("peng", tile("B1"), "open")]


def test_gang_on_peng_reads_the_same_in_the_log_the_web_table_and_the_env_observation() -> None:
    game = gang_on_peng_game()
    run(game, Script({1: [OPEN_GANG], 3: [PASS], 0: [PASS]}))
    assert noi_log(game.events)[-2] == "South  GANG   B1 (the discard from West, added to the PENG)"
    table = Table("noi2014")
    for event in game.events:
        table.apply(event)
    south, west = table.snapshot()["seats"][1:3]
    assert [meld["tiles"] for meld in south["melds"]] == [[tile("B1")] * 4]
    assert west["discards"][-1] == {"tile": tile("B1"), "claimed": True}
    assert sorted([*south["hand"], south["drawn"]]) == game.hands[1].kinds()
    observer = Observer(noi2014_v0.SPEC)
    observer.update(game.events)
    assert observer.public[1, tile("B1")] == 4 and observer.public[4 + 2, tile("B1")] == 0  # meld; West's pool


def test_greedy_takes_the_gang_on_its_peng() -> None:
    game = gang_on_peng_game()
    assert GreedyAgent().act(game, 1, game.decision.legal[1]) == OPEN_GANG


# -- claim conflicts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("discarder", "hu_seats", "winner"),
    [(0, (2, 3), 2), (3, (0, 2), 0), (1, (3, 0), 3), (2, (1, 3), 3)],
)
def test_of_several_hu_the_nearest_counter_clockwise_wins(discarder: int, hu_seats: tuple[int, int],
                                                         winner: int) -> None:
    hands = {seat: WAIT_T9 for seat in hu_seats}
    hands[discarder] = HOLDS_T9
    draws = ["W9", "W9", "W9", "W9", "B9"]
    game = NoiGame(build_wall(hands, draws=" ".join(draws)))
    # The seats before the discarder play the W9 they draw; every seat lets those discards go.
    queues: dict[int, list[Action | None]] = {seat: [*[None] * discarder, HU] for seat in hu_seats}
    queues[discarder] = [*[None] * discarder, play("T9")]
    run(game, Script(queues))
    lines = transcript(game)
    assert lines[-3:] == [f"{discarder} play T9", f"{winner} hu T9 from {discarder}",
                          f"{(winner + 1) % 4} draw {draws[discarder + 1]}"]  # the winner's next draws
    loser = next(seat for seat in hu_seats if seat != winner)
    assert game.status[winner] == "won" and game.status[loser] == "in"  # not carried out, no error
    assert not any(event.type == "false_hu" for event in game.events)
    assert Counter(tiles(WAIT_T9)) <= Counter(game.hands[loser].kinds()) and game.melds[loser] == []


def test_hu_beats_a_nearer_peng_and_the_peng_is_not_carried_out() -> None:
    game = NoiGame(build_wall({0: HOLDS_T9, 1: "T9 T9 W1 W1 W2 W3 B1 B2 B3 B4 B5 B6 T1",
                               3: WAIT_T9}, draws="W8 W9"))
    run(game, Script({0: [play("T9")]}))
    assert peng("W1") in game.decision.legal[1] and game.decision.legal[3][0] == HU
    run(game, Script({1: [peng("W1")], 2: [PASS], 3: [HU]}))
    assert transcript(game) == ["0 draw W8", "0 play T9", "3 hu T9 from 0", "0 draw W9"]
    assert game.melds[1] == [] and game.hands[1].size == 13 and game.status[1] == "in"
    assert game.claimed == [0]  # the discard went to the winner


def test_winners_leave_in_turn_and_play_goes_on_until_one_is_left() -> None:
    game = NoiGame(build_wall({
        0: "T9 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B9",
        1: "W1 W2 W3 B2 B3 B4 B5 B6 B7 T1 T2 T3 T9",
        2: "T4 T5 T6 T7 T8 T9 W4 W5 W6 B5 B6 B7 T1",
    }, draws="B9 T1 B9"))
    run(game, Script({0: [play("T9"), HU], 1: [HU], 2: [PASS, HU]}))
    assert transcript(game) == [
        "0 draw B9", "0 play T9", "1 hu T9 from 0",  # South wins on East's discard and leaves
        "2 draw T1", "2 hu_self T1",  # West, South's next, wins by self-draw
        "3 draw B9", "3 play B9", "0 hu B9 from 3",  # only East is asked about North's discard
        "end",  # North is the only one left
    ]
    assert game.decision is None and game.win_order == [1, 2, 0] and not game.exhausted
    assert [(r.status, r.rank, r.points, r.target) for r in rank(game)] == [
        ("won", 3, 2.0, None), ("won", 1, 4.0, None), ("won", 2, 3.0, None), ("in", 4, 1.0, None)]


# -- false HU -----------------------------------------------------------------------------------------------


def test_false_hu_on_a_draw_leaves_the_game_and_play_goes_on() -> None:
    game = NoiGame(build_wall({0: WAIT_T9}, draws="W9 T8"))
    assert HU not in game.decision.legal[0]
    run(game, Script({0: [HU]}))
    assert transcript(game) == ["0 draw W9", "0 false_hu", "1 draw T8"]
    assert game.status == ["out", "in", "in", "in"] and game.win_order == []
    run(game, Script({1: [play("T8")]}))
    assert list(game.decision.legal) == [2, 3]  # East is no longer asked
    finish(game)
    assert game.events[-1] == Event("end") and 0 not in game.targets
    results = rank(game)
    assert (results[0].status, results[0].reason, results[0].rank) == ("error", "false_hu", 4)


def test_false_hu_on_a_discard_leaves_while_a_true_hu_wins() -> None:
    game = NoiGame(build_wall({0: HOLDS_T9, 1: WAIT_T9}, draws="W8 W9"))
    run(game, Script({0: [play("T9")], 1: [HU], 2: [PASS], 3: [HU]}))
    assert transcript(game) == ["0 draw W8", "0 play T9", "1 hu T9 from 0", "3 false_hu", "2 draw W9"]
    assert game.status == ["in", "won", "in", "out"]


def test_false_hu_on_a_discard_without_a_winner_passes_the_turn_on() -> None:
    game = NoiGame(build_wall({0: HOLDS_T9}, draws="W8 W9"))
    run(game, Script({0: [play("T9")], 1: [PASS], 2: [HU], 3: [PASS]}))
    assert transcript(game) == ["0 draw W8", "0 play T9", "2 false_hu", "1 draw W9"]


# -- the end of the wall ------------------------------------------------------------------------------------


def test_the_wall_runs_out_and_each_player_still_in_names_a_target() -> None:
    game = NoiGame(shuffled_wall(seed=5))
    script = Script()
    while game.decision is not None and game.decision.stage != "target":
        step(game, script)
    assert game.events[-1] == Event("exhausted") and game.wall_left == 0 and game.exhausted
    assert sum(event.type == "draw" for event in game.events) == 108 - DEALT
    assert game.decision.legal == {0: (), 1: (), 2: (), 3: ()}
    target = tuple(tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B1 B2 B2"))
    game.apply({0: Action("target", tiles=target), 1: Action("target"), 2: PASS, 3: Action("target", tiles=(99,))})
    assert game.events[-1] == Event("end") and game.decision is None
    assert game.targets == {0: target, 1: (), 2: None, 3: (99,)}


def test_a_gang_with_an_empty_wall_ends_the_game() -> None:
    wall = build_wall({3: "W1 W1 W1 W2 W3 W4 B5 B6 B7 T1 T2 T3 T9"}, back="W1")  # the last tile: the 56th draw
    game = NoiGame(wall)
    while game.decision.stage != "draw" or game.wall_left:
        step(game, Script())
    assert transcript(game)[-1] == "3 draw W1" and gang("W1") in game.decision.legal[3]
    run(game, Script({3: [gang("W1")]}))
    assert transcript(game)[-2:] == ["3 angang W1", "exhausted"]
    assert game.decision.stage == "target" and list(game.decision.legal) == [0, 1, 2, 3]


def test_seven_pairs_wins_only_with_the_option() -> None:
    hand, draw = "W1 W1 W2 W2 W3 W3 B4 B4 B5 B5 T7 T7 T9", "T9"
    assert HU not in NoiGame(build_wall({0: hand}, draws=draw)).decision.legal[0]
    game = NoiGame(build_wall({0: hand}, draws=draw), NoiOptions(seven_pairs=True))
    assert game.decision.legal[0][0] == HU
    other = NoiGame(build_wall({0: HOLDS_T9, 1: hand}, draws="W8"),
                    NoiOptions(seven_pairs=True))
    run(other, Script({0: [play("T9")]}))
    assert other.decision.legal[1][0] == HU  # on a discard too


# -- properties over many games -----------------------------------------------------------------------------


class FalseHuSometimes:
    """Plays greedily but now and then answers HU whatever its hand (a false HU unless it really wins)."""

    name = "false-hu"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.greedy = GreedyAgent()

    def act(self, game: NoiGame, seat: int, legal: Sequence[Action]) -> Action:
        if legal and self.rng.random() < 0.02:
            return HU
        return self.greedy.act(game, seat, legal)


def make_agent(name: str, seed: int) -> Any:
    return {"random": lambda: RandomAgent(seed), "greedy": GreedyAgent, "false-hu": lambda: FalseHuSometimes(seed)}[
        name]()


def check_invariants(game: NoiGame) -> None:
    """Tiles are conserved, hand sizes fit the melds, and the decision asks the right seats."""
    assert tile_census(game) == FULL_SET
    for seat in range(4):
        hand = game.hands[seat]
        assert hand.melds == len(game.melds[seat])
        assert hand.size in (13 - 3 * hand.melds, 14 - 3 * hand.melds)
    decision = game.decision
    if decision is None:
        return
    seats = list(decision.legal)
    assert all(game.status[seat] == "in" for seat in seats)
    if decision.stage == "claim":
        assert game.discarder is not None
        assert seats == [s for s in game._others_in(game.discarder)]
        assert all(legal[-1] == PASS for legal in decision.legal.values())
    elif decision.stage == "draw":
        (seat,) = seats
        assert game.hands[seat].size == 14 - 3 * game.hands[seat].melds
        assert (HU in decision.legal[seat]) == game.wins(seat)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), names=st.lists(st.sampled_from(["random", "greedy", "false-hu"]),
                                                      min_size=4, max_size=4))
def test_tiles_are_conserved_and_the_result_is_consistent(seed: int, names: list[str]) -> None:
    game = NoiGame(shuffled_wall(seed))
    agents = [make_agent(name, seed + seat) for seat, name in enumerate(names)]
    while game.decision is not None:
        check_invariants(game)
        step_agents(game, agents)
    check_invariants(game)
    assert game.events[-1] == Event("end") and [e.type for e in game.events].count("end") == 1
    players_in = game.players_in()
    assert game.exhausted or len(players_in) == 1
    assert game.events[-2].type in ("hu", "hu_self", "false_hu", "exhausted")
    results = rank(game)
    assert sum(result.points for result in results) == 10
    by_rank = sorted(results, key=lambda r: r.rank)
    assert [r.seat for r in by_rank[: len(game.win_order)]] == [s for s in game.win_order if game.status[s] == "won"]
    assert by_rank[0].rank == 1
    for better, worse in itertools.pairwise(by_rank):
        assert better.points >= worse.points
        order = {"won": 0, "in": 1, "error": 2}
        assert order[better.status] <= order[worse.status]
    assert all((r.status == "error") == (game.status[r.seat] == "out") for r in results)


def step_agents(game: NoiGame, agents: Sequence[Any]) -> None:
    decision = game.decision
    assert decision is not None
    game.apply({seat: agents[seat].act(game, seat, legal) for seat, legal in decision.legal.items()})
