"""百搭 (baida) variant: walls and dice, the deal, claims and their priority, kongs, win forms, 台 items,
the agents and the protocol strings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjarena.agents.baida_agents import GreedyAgent, RandomAgent
from mjarena.protocol import baida as proto
from mjarena.tiles import WILD, counts_of, parse_mpsz
from mjarena.variants import get_variant
from mjarena.variants.baida import (
    RULES,
    BaidaGame,
    Walls,
    arrangements,
    can_win,
    rank,
    ring_stack,
    shuffled_wall,
    validate_wall,
)
from mjarena.variants.baida_scoring import best_score
from mjarena.variants.base import Action, IllegalAction, play

FULL = Counter({**{kind: 4 for kind in range(34)}, WILD: 8})
BAIDA = RULES["baida"]


def m(text: str) -> list[int]:
    return parse_mpsz(text)


def build_wall(dice: tuple[int, int], hands: Sequence[str], front: str = "", back: str = "") -> list[int]:
    """A wall that deals ``hands`` (mpsz, dealer's 14 first) with these dice, then draws ``front`` in order
    (ordinary draws) and ``back`` (replacement draws); every other tile in a fixed order."""
    walls = Walls(list(range(144)), dice)
    positions = walls.deal()
    wanted = [m(hand) for hand in hands]
    fronts = [walls.front_draw() for _ in m(front)] if front else []
    backs = [walls.back_draw() for _ in m(back)] if back else []
    wall: list[int | None] = [None] * 144
    for seat, kinds in enumerate(wanted):
        assert len(kinds) == (14 if seat == 0 else 13)
        for position, kind in zip(positions[seat], kinds, strict=False):
            wall[position] = kind
    for position, kind in zip(fronts, m(front) if front else [], strict=False):
        wall[position] = kind
    for position, kind in zip(backs, m(back) if back else [], strict=False):
        wall[position] = kind
    left = FULL - Counter(kind for kind in wall if kind is not None)
    rest = sorted(left.elements(), key=lambda kind: (kind == WILD, kind))
    filled = [kind if kind is not None else rest.pop(0) for kind in wall]
    validate_wall(filled)
    return filled


class Script:
    """Plays the scripted actions of its seat in order, then passes claims and discards the drawn tile."""

    def __init__(self, *actions: Action) -> None:
        self.actions = list(actions)

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        if self.actions:
            return self.actions.pop(0)
        if legal[-1].type == "pass":
            return legal[-1]
        drawn = Action("play", game.last_drawn[seat])
        return drawn if drawn in legal else next(a for a in legal if a.type == "play")


def step(game: BaidaGame, choices: dict[int, Action]) -> None:
    """Apply choices, passing for every seat asked but not named."""
    decision = game.decision
    assert decision is not None
    full = {seat: choices.get(seat, Action("pass")) for seat in decision.legal}
    game.apply(full)


def conserved(game: BaidaGame) -> None:
    seen: Counter[int] = Counter()
    for seat in range(4):
        seen.update({kind: count for kind, count in enumerate(game.hands[seat]) if count})
        for meld in game.melds[seat]:
            seen.update(meld.tiles)
    seen.update(game.pool())
    seen.update(game.wall_remainder())
    assert seen == FULL
    assert game.wall_left == len(game.wall_remainder())


# -- wall, dice, deal -----------------------------------------------------------------------------------------


def test_registered() -> None:
    info = get_variant("百搭")
    assert info.name == "baida" and info.tiles == 144 and info.claims == ("hu", "peng", "gang", "chi")
    assert get_variant("baida").new_game is BaidaGame


def test_validate_wall() -> None:
    wall = shuffled_wall(1)
    validate_wall(wall)
    with pytest.raises(ValueError):
        validate_wall([*wall[:-1], 0])
    with pytest.raises(ValueError):
        validate_wall([*wall[:-1], 34])


@pytest.mark.parametrize("dice", [(1, 1), (1, 2), (2, 2), (3, 4), (5, 5), (6, 5), (6, 6)])
def test_deal_from_dice(dice: tuple[int, int]) -> None:
    wall = shuffled_wall(11)
    game = BaidaGame(wall, dice)
    again = BaidaGame(wall, dice)
    assert game.events == again.events
    assert game.events[0].type == "dice" and game.events[0].tiles == dice
    deals = [event for event in game.events if event.type == "deal"]
    assert [len(event.tiles) for event in deals] == [14, 13, 13, 13]
    assert game.wall_left == 144 - 53
    conserved(game)
    # the dealer's first four tiles are the two stacks after the break, counted per the dice
    total = sum(dice)
    owner, stack = (total - 1) % 4, total
    first = 36 * owner + 2 * stack
    assert deals[0].tiles[:4] == tuple(wall[first : first + 4])
    # the first replacement draw is the upper tile of the last counted stack
    assert wall[Walls(wall, dice).back_draw()] == wall[first - 2]
    assert game.decision is not None and list(game.decision.legal) == [0]  # the dealer discards first


def test_ring_and_jump() -> None:
    walls = Walls(list(range(144)), (3, 4))  # seat 2's wall, 7 stacks counted: the deal starts at its 8th
    dealt = walls.deal()
    assert dealt[0][:4] == [86, 87, 88, 89] and dealt[1][:4] == [90, 91, 92, 93]
    start = ring_stack(2, 7)
    assert ring_stack(2, 17) == start + 10 and ring_stack(1, 0) == start + 11  # seat 2's wall runs into seat 1's
    jump = [2 * (18 + 13), 2 * (18 + 14)]  # 24 stacks later: seat 1's 14th and 15th stacks
    assert dealt[0][12:] == [jump[0], jump[1] + 2]  # upper tiles of the 1st and 3rd stacks
    assert dealt[1][12:] == [jump[0] + 1] and dealt[2][12:] == [jump[1]] and dealt[3][12:] == [jump[1] + 1]
    assert walls.front_draw() == jump[1] + 3  # the lower tile of the 3rd stack comes next
    assert [walls.back_draw() for _ in range(4)] == [84, 85, 82, 83]  # the other end, upper tile first
    # wrapping round the ring: (1, 1) breaks seat 1's wall at its 3rd stack and runs on into seat 0's
    walls = Walls(list(range(144)), (1, 1))
    dealt = walls.deal()
    assert dealt[0][:4] == [36 + 4, 36 + 5, 36 + 6, 36 + 7]
    assert dealt[3][8:12] == [12, 13, 14, 15]  # its third round: stacks 6 and 7 of seat 0's wall


def test_default_dice_are_deterministic() -> None:
    wall = shuffled_wall(5)
    assert BaidaGame(wall).dice == BaidaGame(wall).dice


# -- claims ---------------------------------------------------------------------------------------------------

# seat 0 discards 5m; seat 1 can CHI (34m), seat 2 PENG (55m; its 67m would chow but it is not next),
# seat 3 waits on 5m.
CLAIMS = ("159m19p19s1234567z", "34m228p2233s1122z", "55678m4477p44s33z", "5m123456789p111s")


def claims_game() -> BaidaGame:
    game = BaidaGame(build_wall((3, 4), CLAIMS), (3, 4))
    step(game, {0: Action("play", 4)})
    return game


def test_claim_options() -> None:
    game = claims_game()
    assert game.decision is not None and game.decision.stage == "claim"
    legal = game.decision.legal
    assert {a.type for a in legal[1]} == {"chi", "pass"} and {a.tile for a in legal[1] if a.type == "chi"} == {2}
    assert {a.type for a in legal[2]} == {"peng", "pass"}  # not next: no CHI although it holds 6m 7m
    assert legal[3] == [Action("hu"), Action("pass")]
    with pytest.raises(IllegalAction):
        game.apply({1: Action("chi", 4, tiles=(0,)), 2: Action("pass"), 3: Action("pass")})


def test_hu_beats_peng_and_chi() -> None:
    game = claims_game()
    step(game, {1: Action("chi", 2, tiles=(20,)), 2: Action("peng", 27 + 2), 3: Action("hu")})
    assert game.winner == 3 and game.decision is None
    assert [e.type for e in game.events[-3:]] == ["hu", "score", "end"]
    assert game.events[-3].target == 0 and game.score is not None and game.score.win_form == "小胡"
    assert [r.points for r in rank(game)] == [0.0, 0.0, 0.0, 4.0]
    conserved(game)


def test_peng_beats_chi() -> None:
    game = claims_game()
    step(game, {1: Action("chi", 2, tiles=(20,)), 2: Action("peng", 29)})
    assert [e.type for e in game.events[-2:]] == ["peng", "play"]
    assert game.events[-1].seat == 2 and game.events[-1].tiles == (29,)
    assert game.melds[2][0].tiles == (4, 4, 4) and not game.melds[1]
    conserved(game)


def test_chi() -> None:
    game = claims_game()
    step(game, {1: Action("chi", 2, tiles=(20,))})
    chi, discard = game.events[-2:]
    assert (chi.type, chi.seat, chi.tiles, chi.target) == ("chi", 1, (2, 3, 4), 0)
    assert (discard.type, discard.seat, discard.tiles) == ("play", 1, (20,))
    assert game.melds[1][0].tiles == (2, 3, 4)
    conserved(game)


def test_nearest_hu_wins() -> None:
    hands = ("159m19p19s1234567z", "5m123456789s111z", "678m4477p44s3344z", "5m123456789p222s")
    game = BaidaGame(build_wall((3, 4), hands), (3, 4))
    step(game, {0: Action("play", 4)})
    assert game.decision is not None
    assert Action("hu") in game.decision.legal[1] and Action("hu") in game.decision.legal[3]
    step(game, {1: Action("hu"), 3: Action("hu")})
    assert game.winner == 1 and next(e for e in game.events if e.type == "hu").target == 0


def test_discarded_baida_is_dead() -> None:
    hands = ("19m19p19s1234567z*", "34m228p2233s1122z", "**5678m4477p44s3z", "5m123456789p111s")
    game = BaidaGame(build_wall((3, 4), hands), (3, 4))
    assert game.decision is not None and Action("play", WILD) in game.decision.legal[0]
    step(game, {0: Action("play", WILD)})
    assert game.decision is not None
    assert all(legal == [Action("pass")] for legal in game.decision.legal.values())
    step(game, {})
    assert game.events[-1].type == "draw" and game.events[-1].seat == 1
    assert game.pool() == [WILD]


def test_open_kong_and_replacement_from_the_back() -> None:
    hands = ("159m19p19s1234567z", "555m28p2233s1123z", "678m4477p44s3344z", "123456789p111s4z")
    game = BaidaGame(build_wall((3, 4), hands, back="7z"), (3, 4))
    assert game.wall[84] == 33
    step(game, {0: Action("play", 4)})
    assert game.decision is not None and Action("gang") in game.decision.legal[1]
    step(game, {1: Action("gang")})
    assert [(e.type, e.seat, e.tiles) for e in game.events[-2:]] == [("gang", 1, (4,)), ("draw_back", 1, (33,))]
    assert game.melds[1][0].tiles == (4, 4, 4, 4)
    conserved(game)


def test_concealed_and_added_kong() -> None:
    hands = ("1111z19m19p19s234z8m", "34m228p2233s5566z", "56789m4477p44s33z", "5m123456789p111s")
    game = BaidaGame(build_wall((3, 4), hands, front="9p9p9s5z", back="5z7z"), (3, 4))
    assert game.decision is not None and Action("gang", 27) in game.decision.legal[0]
    step(game, {0: Action("gang", 27)})
    assert [(e.type, e.tiles) for e in game.events[-2:]] == [("angang", (27,)), ("draw_back", (31,))]
    assert game.melds[0][0].source == "concealed"
    conserved(game)
    step(game, {0: Action("play", 31)})
    step(game, {1: Action("peng", 20)})  # seat 1 PENGs 5z and discards 3s
    for seat, tile in ((2, 17), (3, 17), (0, 26)):
        step(game, {})  # nobody claims; the next seat draws
        step(game, {seat: Action("play", tile)})
    step(game, {})
    assert game.events[-1] == ("draw", 1, (31,), None)
    assert game.decision is not None and Action("gang", 31) in game.decision.legal[1]
    step(game, {1: Action("gang", 31)})
    assert [(e.type, e.tiles) for e in game.events[-2:]] == [("bugang", (31,)), ("draw_back", (33,))]
    assert game.melds[1][0] == ("gang", (31,) * 4, "added")
    conserved(game)


# -- wins and 台 ---------------------------------------------------------------------------------------------


def wins(text: str, melds: int = 0) -> bool:
    return can_win(counts_of(m(text)), melds, BAIDA)


def score(text: str, win_tile: str, melds: Sequence[str] = ()):  # type: ignore[no-untyped-def]
    laid = [tuple(m(meld)) for meld in melds]
    found = arrangements(counts_of(m(text)), len(laid), BAIDA)
    return best_score(found, laid, m(win_tile)[0])


@pytest.mark.parametrize(
    ("hand", "melds", "expected"),
    [
        ("123m456p789s111z22m", 0, True),  # 小胡 with a 2 pair
        ("123m456p789s111z55s", 0, True),
        ("234m456p789s111z99m", 0, False),  # a 9 is no pair here
        ("123m456p789s111z22z", 0, False),  # nor an honour
        ("123m456p789s111z2m*", 0, True),  # a wildcard makes the pair
        ("123m456p789s11z2m**", 0, True),
        ("1133557799m1122p", 0, True),  # 七巧对 needs no 2/5/8
        ("11113355m77p1122z", 0, True),  # four of a kind is two pairs
        ("1133557799m1123p", 0, False),
        ("3355779m1122p11z*", 0, True),  # a wildcard pairs with the single 9m
        ("11223344m55p", 1, False),  # seven pairs only concealed: 11 tiles and a meld never are
        ("1112345678999m5m", 0, True),  # 清一色
    ],
)
def test_win_forms(hand: str, melds: int, expected: bool) -> None:
    assert wins(hand, melds) is expected


def test_score_items() -> None:
    s = score("123m456p789s111z55m", "5m")
    assert (s.win_form, s.items, s.total) == ("小胡", (), 0)
    s = score("123m456m789m111z55m", "5m")
    assert [(i.name, i.tai) for i in s.items] == [("凑一台", 1)] and s.win_form == "小胡"
    s = score("123m456m789m555z55m", "9m")  # 大料 (dragons) are left out too
    assert [i.name for i in s.items] == ["凑一台"]
    s = score("123456789m22m", "9m", melds=["555m"])
    assert ([(i.name, i.tai) for i in s.items], s.win_form, s.total) == ([("清三台", 3)], "清一色", 3)
    s = score("123456789m22m", "9m", melds=["555p"])  # a meld of another suit spoils it
    assert s.items == ()
    s = score("11335577992288m", "8m")
    assert ([(i.name, i.tai) for i in s.items], s.win_form, s.total) == ([("清四台", 4)], "七巧对", 4)
    s = score("1133557799m1122z", "2z")
    assert [i.name for i in s.items] == ["凑一台"] and s.win_form == "七巧对"


def test_wildcards_count_as_the_suit() -> None:
    s = score("123m456m789m222m5m*", "9m")
    assert [i.name for i in s.items] == ["清三台"]
    s = score("123m456m789m22m***", "9m")  # three wildcards as a set of anything
    assert [i.name for i in s.items] == ["清三台"]
    s = score("123m456m789m111z5m*", "9m")
    assert [i.name for i in s.items] == ["凑一台"]


def test_edge_wait() -> None:
    s = score("123m456p789s111z55m", "3m")
    assert [(i.name, i.tai) for i in s.items] == [("边张", 1)]
    s = score("789m456p123s111z55m", "7m")
    assert [i.name for i in s.items] == ["边张"]
    assert score("123m456p789s111z55m", "1m").items == ()  # the 1 of 1-2-3 is no 边张
    assert score("789m456p123s111z55m", "9m").items == ()
    s = score("123345m456p111z55m", "3m")  # 3m may be the 3 of 123 or the 3 of 345: the better counts
    assert [i.name for i in s.items] == ["边张"]
    s = score("12m*456789m22m555m", "3m")  # the 1-2 with a wildcard (here as 3): still 边张 with 清三台
    assert {i.name for i in s.items} == {"清三台", "边张"} and s.total == 4


# -- whole games ----------------------------------------------------------------------------------------------


class Tsumogiri:
    """Never claims, never wins, discards what it drew."""

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        return Script().act(game, seat, [a for a in legal if a.type != "hu"])


def test_exhausted_wall() -> None:
    game = play(BaidaGame(shuffled_wall(2), (2, 3)), [Tsumogiri()] * 4)
    assert [e.type for e in game.events[-2:]] == ["exhausted", "end"]
    assert game.exhausted and game.winner is None and game.wall_left == 0 and game.score is None
    assert [r.points for r in rank(game)] == [0.0] * 4 and {r.rank for r in rank(game)} == {1}
    conserved(game)


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    dice=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    names=st.lists(st.sampled_from(sorted(AGENTS)), min_size=4, max_size=4),
)
def test_conservation_and_protocol(seed: int, dice: tuple[int, int], names: list[str]) -> None:
    game = BaidaGame(shuffled_wall(seed), dice)
    agents = [AGENTS[name](seed=seed + seat) for seat, name in enumerate(names)]
    conserved(game)
    while (decision := game.decision) is not None:
        for seat, legal in decision.legal.items():
            concealed = sum(game.hands[seat])
            melds = len(game.melds[seat])
            assert concealed == (14 if decision.stage == "draw" else 13) - 3 * melds
            for action in legal:  # every legal action has a response string that reads back as itself
                assert proto.parse_response(proto.format_response(action), proto.stage_kind(decision.stage)) == action
        # every seat asked has just received a request of the matching kind
        for seat in decision.legal:
            last = proto.requests_for(game.events, seat)[-1]
            assert last.kind == proto.stage_kind(decision.stage), (seat, last)
        game.apply({seat: agents[seat].act(game, seat, legal) for seat, legal in decision.legal.items()})
        conserved(game)
    assert game.events[-1].type == "end"
    assert (game.winner is None) == game.exhausted
    if game.winner is not None:
        assert game.score is not None and game.events[-2] == ("score", game.winner, (), game.score.total)
        assert game.score.total == sum(item.tai for item in game.score.items)


def test_replay_is_deterministic() -> None:
    first = play(BaidaGame(shuffled_wall(9), (4, 2)), [GreedyAgent()] * 4).events
    second = play(BaidaGame(shuffled_wall(9), (4, 2)), [GreedyAgent()] * 4).events
    assert first == second


# -- protocol strings -----------------------------------------------------------------------------------------


def test_protocol_strings() -> None:
    assert proto.parse_response("CHI W3 BAIDA", "discard") == Action("chi", 2, tiles=(WILD,))
    assert proto.parse_response("hu", "draw") == Action("hu")
    assert proto.format_response(Action("chi", 24, tiles=(33,))) == "CHI T7 J1"
    assert [proto.format_tile(k) for k in (27, 30, 31, 32, 33)] == ["F1", "F4", "J3", "J2", "J1"]
    with pytest.raises(Exception, match="bad_output"):
        proto.parse_response("EAT W1 W2", "discard")
    game = claims_game()
    texts = [r.text for r in proto.requests_for(game.events, 0)]
    assert texts[:2] == ["0 0", "1 " + " ".join(proto.format_tile(k) for k in game.events[1].tiles[:13])]
    assert texts[2].startswith("2 ")  # the dealer's 14th tile comes as its draw
    assert proto.requests_for(game.events, 1)[-1].text == "3 0 PLAY W5"
