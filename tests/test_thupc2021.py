"""THUPC 2021: the official cases byte for byte, and every rule interaction on decks built for it."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from mjarena.agents.thupc_fixed import FixedStrategy
from mjarena.cli import main
from mjarena.formats import thupc_log
from mjarena.tiles import DOUBLE, PASS, REVERSE, TileError, format_tiles, parse_tiles
from mjarena.variants.base import Action, IllegalAction, play
from mjarena.variants.thupc2021 import KINDS, ThupcGame, parse_deck, shuffled_wall

DATA = Path(os.environ.get("MJARENA_THUPC_DATA", Path(__file__).resolve().parents[2] / "shared/data/thupc2021"))
REQUIRE_DATA = os.environ.get("MJARENA_REQUIRE_DATA") == "1"


def official_cases() -> list[Path]:
    cases = sorted(DATA.glob("*.in"), key=lambda p: int(p.stem)) if DATA.is_dir() else []
    if not cases and REQUIRE_DATA:
        raise RuntimeError(f"MJARENA_REQUIRE_DATA is set but no THUPC cases are in {DATA}")
    return cases


needs_data = pytest.mark.skipif(
    not official_cases(),
    reason=f"official THUPC 2021 data not found in {DATA} (set MJARENA_THUPC_DATA)",
)


@needs_data
def test_official_cases_byte_for_byte(tmp_path: Path) -> None:
    cases = official_cases()
    assert len(cases) == 50
    assert main(["thupc", *map(str, cases), "--out-dir", str(tmp_path)]) == 0
    for case in cases:
        expected = case.with_suffix(".ans").read_bytes()
        assert (tmp_path / f"{case.stem}.out").read_bytes() == expected, case.name


@needs_data
def test_json_stream_mirrors_the_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = official_cases()[0]
    assert main(["thupc", str(case), "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    log = case.with_suffix(".ans").read_text().splitlines()
    assert len(events) == len(log)
    assert events[0] == {"type": "deal", "seat": "A", "tiles": [log[0].split()[2]]}
    assert events[-1]["type"] == "win" and log[-1] == f"{events[-1]['seat']} WIN"


# -- building decks ------------------------------------------------------------------------------------


def build_deck(hands: dict[int, str], draws: str = "", last: str = "") -> list[int]:
    """A full deck in which seat s is dealt ``hands[s]`` (13 names), the turns then draw ``draws`` in order,
    and the deck ends with ``last``; other tiles fill the gaps in kind order."""
    pool = [kind for kind in range(KINDS) for _ in range(4)]

    def take(names: str) -> list[int]:
        kinds = parse_tiles(names, "thupc")
        for kind in kinds:
            pool.remove(kind)
        return kinds

    dealt = {seat: take(names) for seat, names in hands.items()}
    following, ending = take(draws), take(last)
    for seat in range(4):
        dealt.setdefault(seat, [])
        while len(dealt[seat]) < 13:
            dealt[seat].append(pool.pop(0))
    deal = [dealt[i % 4][i // 4] for i in range(52)]
    middle = pool[: len(pool)]
    return deal + following + middle + ending


class Passive:
    """Discards the tile it just drew (PASS names its next player), never claims, never wins."""

    def act(self, game: ThupcGame, seat: int, legal: Sequence[Action]) -> Action:
        if legal[0].type in ("discard", "self_drawn"):
            drawn = next(e.tiles[0] for e in reversed(game.events) if e.seat == seat and e.type == "draw")
            if game.hands[seat].counts[drawn]:
                return Action("discard", drawn, game.next_seat(seat) if drawn == PASS else None)
            return next(a for a in legal if a.type == "discard")
        return Action("pass")


def log_after_deal(game: ThupcGame) -> list[str]:
    return thupc_log(game.events)[52:]


# Hands that stay far from winning and claim nothing useful when played passively.
FAR = {
    0: "1M 4M 7M 1P 4P 7P 1S 4S 7S E S W N",
    1: "2M 5M 8M 2P 5P 8P 2S 5S 8S E S W N",
    2: "3M 6M 9M 3P 6P 9P 3S 6S 9S E S W N",
    3: "1M 4M 7M 1P 4P 7P 1S 4S 7S E S W N",
}
READY_ON_5M = "1M 2M 3M 4P 5P 6P 7S 8S 9S B B B 5M"
READY_ON_5M_TOO = "1M 2M 3M 4P 5P 6P 7S 8S 9S F F F 5M"


def test_reverse_then_pass_names_the_next_player_in_the_new_order() -> None:
    deck = build_deck(FAR, draws="REVERSE PASS B F")
    game = play(ThupcGame(deck), [FixedStrategy(), Passive(), Passive(), FixedStrategy()])
    # A reverses; play goes to D (A's former previous); D's PASS names C (its next in the new order),
    # so C is skipped and B plays.
    assert log_after_deal(game)[:6] == [
        "A IN REVERSE",
        "A OUT REVERSE",
        "D IN PASS",
        "D OUT PASS C",
        "B IN B",
        "B OUT B",
    ]


def test_double_draws_again_and_an_empty_wall_ends_at_once() -> None:
    deck = build_deck(FAR, last="DOUBLE")
    game = play(ThupcGame(deck), [Passive()] * 4)
    tail = thupc_log(game.events)[-3:]
    seat = tail[0].split()[0]
    assert tail == [f"{seat} IN DOUBLE", f"{seat} OUT DOUBLE", "DRAW"]
    assert game.winner is None and game.decision is None


def test_double_gives_an_extra_turn_to_the_same_player() -> None:
    deck = build_deck(FAR, draws="DOUBLE F B")
    game = play(ThupcGame(deck), [Passive()] * 4)
    assert log_after_deal(game)[:5] == ["A IN DOUBLE", "A OUT DOUBLE", "A IN F", "A OUT F", "B IN B"]


def test_chow_only_by_the_next_player_in_the_current_order() -> None:
    hands = dict(FAR)
    hands[1] = "4M 5M 8M 2P 5P 8P 2S 5S 8S E S W N"
    hands[3] = "4M 5M 7M 1P 4P 7P 1S 4S 7S E S W N"
    three_m = parse_tiles("3M")[0]
    chow = Action("chow", three_m)
    game = ThupcGame(build_deck(hands, draws="REVERSE"))
    options = game.claim_options(0, three_m)
    assert chow in options[1] and 3 not in options, "A B C D: B is A's next"
    game.apply({0: Action("discard", REVERSE)})
    options = game.claim_options(0, three_m)
    assert chow in options[3] and 1 not in options, "A D C B: D is A's next"


def test_pong_beats_chow() -> None:
    hands = dict(FAR)
    hands[0] = "1M 4M 7M 1P 4P 7P 1S 4S 7S E S W 3M"  # A will discard 3M? no: we script it
    hands[1] = "1M 2M 9M 2P 5P 8P 2S 5S 8S E S W N"  # B (next) could chow 1M 2M 3M
    hands[2] = "3M 3M 9M 3P 6P 9P 3S 6S 9S E S W N"  # C can pong 3M
    deck = build_deck(hands, draws="N")
    game = ThupcGame(deck)
    three_m = parse_tiles("3M")[0]
    game.apply({0: Action("discard", three_m)})
    assert set(game.decision.legal) == {1, 2}
    agents = {1: FixedStrategy(), 2: FixedStrategy()}
    chosen = {s: agents[s].act(game, s, legal) for s, legal in game.decision.legal.items()}
    assert chosen[1].type == "chow" and chosen[2].type == "pong"
    game.apply(chosen)
    assert thupc_log(game.events)[52:] == ["A IN N", "A OUT 3M", "C PONG 3M 3M 3M"]
    assert game.decision.legal.keys() == {2}, "the ponger discards at once, without drawing"


def test_ron_goes_to_the_first_winner_in_turn_order_from_the_discarder() -> None:
    hands = {0: FAR[0], 1: FAR[1], 2: READY_ON_5M, 3: READY_ON_5M_TOO}
    deck = build_deck(hands, draws="5M")
    game = ThupcGame(deck)
    game.apply({0: Action("discard", parse_tiles("5M")[0])})
    assert set(game.decision.legal) >= {2, 3}
    game.apply({s: FixedStrategy().act(game, s, legal) for s, legal in game.decision.legal.items()})
    assert thupc_log(game.events)[-2:] == ["C RON", "C WIN"]  # D also wins on 5M but C comes first (截和)


def test_ron_order_follows_a_reversed_direction() -> None:
    # A D C B after A's REVERSE: C discards 5M; B comes before D from C in that order, so B wins.
    hands = {0: FAR[0], 1: READY_ON_5M, 2: FAR[2], 3: READY_ON_5M_TOO}
    game = play(ThupcGame(build_deck(hands, draws="REVERSE N 5M")),
                [Passive(), FixedStrategy(), Passive(), FixedStrategy()])
    assert log_after_deal(game) == [
        "A IN REVERSE", "A OUT REVERSE", "D IN N", "D OUT N", "C IN 5M", "C OUT 5M", "B RON", "B WIN",
    ]


def test_a_special_tile_blocks_ron_and_self_draw() -> None:
    blocked = "1M 2M 3M 4P 5P 6P 7S 8S 9S B B PASS 5M"
    hands = {0: FAR[0], 1: FAR[1], 2: blocked, 3: FAR[3]}
    deck = build_deck(hands)
    game = ThupcGame(deck)
    five_m = parse_tiles("5M")[0]
    assert not game.hands[2].wins_with(five_m)
    assert 2 not in game.claim_options(0, five_m) or Action("ron") not in game.claim_options(0, five_m)[2]
    game.hands[2].remove(PASS)
    game.hands[2].add(parse_tiles("B")[0])  # the same hand without its PASS is ready on 5M
    assert game.hands[2].wins_with(five_m)


def test_discarder_never_claims_its_own_tile() -> None:
    hands = dict(FAR)
    hands[0] = "3M 3M 9M 3P 6P 9P 3S 6S 9S E S W N"
    game = ThupcGame(build_deck(hands, draws="3M"))
    assert 0 not in game.claim_options(0, parse_tiles("3M")[0])


def test_illegal_action_is_refused() -> None:
    game = ThupcGame(shuffled_wall(seed=3))
    with pytest.raises(IllegalAction):
        game.apply({0: Action("discard", DOUBLE + 1)})


@pytest.mark.parametrize("seed", range(40))
def test_random_decks_conserve_tiles_and_end_properly(seed: int) -> None:
    game = play(ThupcGame(shuffled_wall(seed)), [FixedStrategy()] * 4)
    held = sum(hand.size for hand in game.hands) + 3 * sum(len(m) for m in game.melds)
    discarded = sum(1 for e in game.events if e.type == "discard")
    claimed = sum(1 for e in game.events if e.type in ("chow", "pong", "ron"))
    assert held + discarded - claimed == game.drawn
    last = game.events[-1].type
    assert last in ("win", "exhausted")
    assert (last == "exhausted") == (game.drawn == len(game.wall) and game.winner is None)


# -- reading decks -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty input: no tiles"),
        ("1M\n2M\nXX\n", "line 3: unknown tile name 'XX' (tile 3)"),
        ("1m", "line 1: unknown tile name '1m' (names are upper case) (tile 1)"),
        ("1M " * 5, "line 1: a fifth copy of 1M (tile 5)"),
        ("1M", "a THUPC 2021 deck has 148 tiles, this one has 1"),
        ("BAIDA", "line 1: unknown tile name 'BAIDA' (tile 1)"),
    ],
)
def test_bad_decks_are_named(text: str, message: str) -> None:
    with pytest.raises(TileError) as error:
        parse_deck(text)
    assert str(error.value) == message


def test_deck_reads_any_white_space() -> None:
    wall = shuffled_wall(seed=9)
    text = format_tiles(wall)
    assert parse_deck(text) == wall
    assert parse_deck(text.replace(" ", "\n")) == wall
    assert parse_deck("\t" + text.replace(" ", "  \n ")) == wall
