"""builtin:strong: whole games in every rule set, wall counting from public tiles, the NOI target hand."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mjarena.agents.builtin import best_target
from mjarena.agents.strong import StrongBaidaAgent, StrongNoiAgent, StrongThupcAgent, chance_target, seen_tiles
from mjarena.arena.match import run_match
from mjarena.arena.rulesets import judge_rules
from mjarena.hand.options import RULES
from mjarena.hand.tracked import TrackedHand
from mjarena.hand.wild import distance
from mjarena.tiles import counts_of, parse_mpsz, parse_tiles
from mjarena.variants.base import play
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
