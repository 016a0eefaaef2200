"""builtin:strong: whole games in every rule set, wall counting from public tiles, the NOI target hand."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from mjarena.agents.baida_agents import GreedyAgent
from mjarena.agents.builtin import best_target
from mjarena.agents.strong import StrongBaidaAgent, StrongNoiAgent, StrongThupcAgent, chance_target, seen_tiles
from mjarena.agents.strong_baida import Opponent, Table, claim_share
from mjarena.arena.match import run_match
from mjarena.hand.options import RULES
from mjarena.hand.tracked import TrackedHand
from mjarena.hand.wild import distance
from mjarena.rulesets import judge_rules
from mjarena.tiles import counts_of, parse_mpsz, parse_tiles
from mjarena.variants.baida import BaidaGame
from mjarena.variants.baida import shuffled_wall as baida_wall
from mjarena.variants.base import Action, Event, play
from mjarena.variants.noi2014 import NoiGame, shuffled_wall
from mjarena.variants.noi2014_ranking import _last_positions, chance_value, target_distance


@pytest.mark.parametrize("rules", ["noi2014", "baida", "thupc2021"])
def test_strong_plays_whole_games_without_error_and_the_same_each_time(rules: str) -> None:
    assert "strong" in judge_rules(rules).agents
    for seed in range(4):
        first = run_match(["builtin:strong", "builtin:greedy", "builtin:strong", "builtin:random"], rules=rules,
                          seed=seed)
        again = run_match(["builtin:strong", "builtin:greedy", "builtin:strong", "builtin:random"], rules=rules,
                          seed=seed)
        assert all(seat.status != "error" for seat in first.seats), first.seats
        assert first.events == again.events


def test_seen_tiles_are_the_discards_on_the_table_the_melds_and_the_tiles_won_on() -> None:
    for seed in range(6):
        game = play(NoiGame(shuffled_wall(seed)), [StrongNoiAgent()] * 4)
        expected = counts_of(game.pool()) + [0] * 11
        for melds in game.melds:
            for meld in melds:
                expected[meld.kind] += meld.size
        for event in game.events:
            if event.type == "hu":  # a discard won on: everyone saw it, the winner took it away
                expected[event.tiles[0]] += 1
        assert seen_tiles(game.events)[:27] == expected[:27]


def _hand(text: str) -> list[int]:
    return counts_of(parse_mpsz(text))


def test_discards_count_the_tiles_still_unseen() -> None:
    """11z 46m 8m with three melds: dropping 4m waits on 7m, dropping 8m waits on 5m (distance 1 either way).
    The player keeps the wait with more copies left, which only the visible tiles tell apart."""
    player = StrongThupcAgent()
    hand = _hand("11z468m")
    fresh = [4 - held for held in hand]
    seven_seen = list(fresh)
    seven_seen[6] = 1  # three 7m shown at the table
    five_seen = list(fresh)
    five_seen[4] = 1
    assert player.best_discard(list(hand), 3, seven_seen)[1] == 7  # discard 8m: wait on 5m
    assert player.best_discard(list(hand), 3, five_seen)[1] == 3  # discard 4m: wait on 7m
    score, _ = player.best_discard(list(hand), 3, fresh)
    assert score == (1, -4)


def test_baida_keeps_wildcards_and_counts_the_2_5_8_pair() -> None:
    player = StrongBaidaAgent()
    hand = _hand("123m456p789s11z3z5p*")  # 14 tiles: 11z or the wildcard and 5p can be the pair (2-5-8: only 5p)
    unseen = [4 - held for held in hand]
    unseen[37] = 7
    score, kind = player.best_discard(list(hand), 0, unseen)
    assert kind == 29 and score[0] == 1  # 3z goes; 11z stays as a set to be, the wildcard is never given up
    assert distance(_less(hand, 29), 0, RULES["baida"]) == 1
    assert distance(_less(hand, 37), 0, RULES["baida"]) == 2


def _less(hand: list[int], kind: int) -> list[int]:
    after = list(hand)
    after[kind] -= 1
    return after


def test_noi_target_is_closest_and_never_a_worse_chance_than_the_plain_target() -> None:
    """Exhausted NOI games: the strong target is as close as the closest, with a 胡牌机会值 at least as high."""
    exhausted = 0
    for seed in range(40):
        game = play(NoiGame(shuffled_wall(seed)), [StrongNoiAgent()] * 4)
        if not game.exhausted:
            continue
        positions = _last_positions(game)
        for seat in game.players_in():
            whole = game.whole_hand(seat)
            plain = best_target(game.hands[seat], game.melds[seat])
            mine = chance_target(game, seat)
            assert game.targets[seat] == mine
            assert target_distance(mine, whole) == target_distance(plain, whole)
            assert chance_value(mine, whole, positions) >= chance_value(plain, whole, positions)
            exhausted += 1
    assert exhausted >= 5


@pytest.mark.parametrize(("dead", "wanted"), [(9, 12), (12, 9)])
def test_the_noi_target_avoids_a_kind_whose_four_copies_were_discarded(dead: int, wanted: int) -> None:
    """123W 789B 789T 11T 23B waits on B1 or B4.  With every copy of one of them discarded and unclaimed, a target
    lacking it would score that discard's position as its 胡牌机会值; lacking the other, the end of the game."""
    tiles = parse_tiles("W1 W2 W3 B7 B8 B9 T7 T8 T9 T1 T1 B2 B3")
    discards = [0, 5, dead, 20, dead, 21, dead, 22, dead, 23]
    whole = counts_of(tiles)[:27]
    game = SimpleNamespace(hands=[TrackedHand(tiles)], melds=[[]], claimed=[], discards=discards,
                           whole_hand=lambda seat: whole)
    target = chance_target(game, 0)
    assert target_distance(target, whole) == 1
    assert [kind for kind in range(27) if counts_of(target)[kind] > whole[kind]] == [wanted]


# -- 百搭: arrival weights and danger -------------------------------------------------------------------------

_LATE = [0, 8, 18, 26, 27, 28, 30, 31] * 3 + [0, 8, 18, 26, 27, 28]
"""30 discards of 1m 9m 1s 9s E S N 白 by seats 1-3: late in a hand."""


def _baida_game(hand_text: str, seat1_pengs: list[int], plays: list[int]) -> tuple[SimpleNamespace, list[Action]]:
    """Seat 0 to discard from ``hand_text``; seat 1 has PENGed ``seat1_pengs``; ``plays`` discarded by seats
    1, 2, 3 in turn."""
    hand = _hand(hand_text)
    events = [Event("peng", 1, (kind,), 0) for kind in seat1_pengs]
    events += [Event("play", 1 + index % 3, (kind,)) for index, kind in enumerate(plays)]
    game = SimpleNamespace(hands=[hand, None, None, None], melds=[[], [None] * len(seat1_pengs), [], []],
                           events=events, discards=list(plays), claimable=None)
    return game, [Action("play", kind) for kind in range(38) if hand[kind]]


def test_baida_late_does_not_feed_a_four_meld_hand_its_2_5_8_pair_when_an_equal_discard_is_safe() -> None:
    """Seat 1 has four melds: it holds one tile and wins only on a 2-5-8 pair.  Late, 4667m 3345p 3z 66z *** is
    ready after 5p (the widest wait) or after West (nearly as wide, within 5%); 5p may be seat 1's pair, West
    cannot be.  Pure speed keeps West; the strong player gives up the 5% and lets West go."""
    game, legal = _baida_game("4667m3345p366z***", [19, 24, 10, 15], _LATE)
    assert StrongBaidaAgent().act(game, 0, legal) == Action("play", 29)
    fastest = StrongBaidaAgent()
    fastest.near = 0.0
    assert fastest.act(game, 0, legal) == Action("play", 13)
    table = Table.of(game, 0)
    assert table.danger(13, visible=2) > 10 * table.danger(29, visible=1) > 0


def test_baida_early_the_danger_breaks_only_exact_ties_and_the_fastest_discard_goes() -> None:
    """Six discards in and nobody with two melds: nobody is likely ready, so 4667m 3345p 3z 66z *** lets 5p go
    (the widest wait) rather than a safer discard within 5% of it.  Once a player has two melds, or with near-ties
    by danger from the start (``late = 0``), the safer near-tie goes."""
    early = [0, 8, 18, 26, 27, 28]
    game, legal = _baida_game("4667m3345p366z***", [], early)
    assert StrongBaidaAgent().act(game, 0, legal) == Action("play", 13)
    always = StrongBaidaAgent()
    always.late = 0
    assert always.act(game, 0, legal) != Action("play", 13)
    game, legal = _baida_game("4667m3345p366z***", [19, 24], early)
    assert StrongBaidaAgent().act(game, 0, legal) != Action("play", 13)


def test_baida_keeps_the_wildcard_even_when_every_other_discard_is_dangerous() -> None:
    """Middle tiles only, late, against a four-meld hand: the wildcard is the one safe discard (nobody can claim
    it), but giving it up costs a whole tile of distance; the player never trades speed for safety."""
    game, legal = _baida_game("3455m4566p45677s*", [19, 24, 10, 15], _LATE)
    table = Table.of(game, 0)
    assert table.danger(37, visible=1) == 0.0 < min(table.danger(action.tile, 1) for action in legal[:-1])
    action = StrongBaidaAgent().act(game, 0, legal)
    assert action.type == "play" and action.tile != 37


def test_baida_tiles_a_player_let_pass_since_its_last_discard_never_win_for_it() -> None:
    """The exact zeros of the danger model, checked against the hidden hands of whole games at every discard
    decision: a kind discarded since a player's own last discard (that one included) does not complete its hand,
    and a player with four melds wins on a 2-5-8 tile only.  (At a claim the discard being claimed is not yet let
    pass; the player's discard after a claim comes only if nobody won on it.)"""
    checked = 0

    class Checking(StrongBaidaAgent):
        def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
            nonlocal checked
            others = [other for other in range(4) if other != seat]
            for other, opponent in zip(others, Table.of(game, seat).opponents, strict=True):
                assert opponent.melds == len(game.melds[other])
                if legal[-1].type == "pass":
                    continue
                for kind in range(34):
                    pair_258 = kind < 27 and kind % 9 in (1, 4, 7)
                    if (kind in opponent.passed or (opponent.melds == 4 and not pair_258)) \
                            and game.hands[other][kind] < 4:
                        assert not game.wins(other, kind), (other, kind)
                        checked += 1
            return super().act(game, seat, legal)

    for seed in range(30):
        play(BaidaGame(baida_wall(seed)), [Checking(), GreedyAgent(), Checking(), GreedyAgent()])
    assert checked > 1000


def test_baida_arrival_weighs_a_claimable_tile_above_a_drawn_one_and_early_honours_above_5s() -> None:
    opening, late = Table(), Table(discards=30)
    assert opening.arrival(4, 2, 100, share=1.0) > opening.arrival(4, 2, 100, share=1.0 / 3) \
        > opening.arrival(4, 2, 100, share=0.0) == 2 / 100
    assert opening.arrival(27, 2, 100, 1.0) > opening.arrival(4, 2, 100, 1.0)  # East is discarded 50x as often
    assert late.arrival(27, 2, 100, 1.0) < opening.arrival(27, 2, 100, 1.0)  # ... early; later much less
    assert claim_share(_hand("55m5m"), 4, ready=False) == 1.0  # a PENG
    assert claim_share(_hand("5m"), 37, ready=True) == 0.0  # a wildcard is never claimed


def test_baida_danger_rises_with_the_stage_and_melds_and_falls_for_kinds_the_player_discarded() -> None:
    fresh = Opponent(0, frozenset(), frozenset())
    assert Table(5, [fresh]).danger(13, 1) < Table(30, [fresh]).danger(13, 1)
    assert Table(30, [fresh]).danger(13, 1) < Table(30, [Opponent(2, frozenset(), frozenset())]).danger(13, 1)
    assert Table(30, [Opponent(0, frozenset({13}), frozenset())]).danger(13, 1) * 10 < Table(30, [fresh]).danger(13, 1)
    assert Table(30, [fresh]).danger(27, 1) < Table(30, [fresh]).danger(0, 1) < Table(30, [fresh]).danger(13, 1)
    assert Table(30, [fresh]).danger(13, 3) < Table(30, [fresh]).danger(13, 0)


def test_baida_the_next_player_claims_only_to_lower_the_distance_for_the_claim_takes_its_draw() -> None:
    """2277m 356p 27s 337z * and seat 0 discards 2m: a PENG (then 中 away) keeps the distance (3) with a wider
    wait.  Seat 2 takes it (it loses no draw by claiming); seat 1, the discarder's next player, would give up its
    draw for it, and passes."""
    hand = _hand("2277m356p27s337z*")
    after = list(hand)
    after[1] -= 2
    after[33] -= 1
    assert distance(after, 1, RULES["baida"]) == distance(hand, 0, RULES["baida"]) == 3
    actions = {}
    for seat in (1, 2):
        hands: list[Any] = [None] * 4
        hands[seat] = list(hand)
        game = SimpleNamespace(hands=hands, melds=[[], [], [], []], events=[Event("play", 0, (1,))], discards=[1],
                               claimable=1, discarder=0, wins=lambda seat, extra=None: False)
        actions[seat] = StrongBaidaAgent().act(game, seat, BaidaGame.claim_options(game, seat, 1, 0))  # type: ignore[arg-type]
    assert actions == {1: Action("pass"), 2: Action("peng", 33)}
