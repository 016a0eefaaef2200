"""An illegal answer's message says what made it illegal (issue 34): the tile not held, the claim not offered, a
kong without four, a claim by the wrong seat; read from real game states of each rule set."""

from __future__ import annotations

from typing import Any

import pytest

from mjarena.arena.illegal import why_illegal
from mjarena.arena.match import JudgeFallback
from mjarena.rulesets import judge_rules
from mjarena.variants.base import Action


def _counts(game: Any, seat: int) -> list[int]:
    return list(getattr(game.hands[seat], "counts", game.hands[seat]))


def _first_claim(rules: str, seed: int, wanted: Any = lambda game, seat: True) -> tuple[Any, Any, int]:
    """(judge, game, seat) at the first claim (the judge playing every seat) where ``wanted(game, seat)``."""
    judge = judge_rules(rules)
    game = judge.new_game(judge.shuffled_wall(seed))
    fallback = JudgeFallback()
    while (decision := game.decision) is not None:
        if decision.stage == "claim":
            for seat in decision.legal:
                if wanted(game, seat):
                    return judge, game, seat
        game.apply({seat: fallback.act(game, seat, legal) for seat, legal in decision.legal.items()})
    raise AssertionError("no such claim in this game")


@pytest.mark.parametrize("rules", ["noi2014", "baida", "thupc2021"])
def test_a_discard_of_a_tile_not_held_says_so(rules: str) -> None:
    judge = judge_rules(rules)
    game = judge.new_game(judge.shuffled_wall(7))
    (seat, legal), = game.decision.legal.items()
    absent = next(kind for kind in range(27) if _counts(game, seat)[kind] == 0)
    verb = "discard" if rules == "thupc2021" else "play"
    assert Action(verb, absent) not in legal
    why = why_illegal(judge, game, seat, Action(verb, absent), game.decision.stage, legal)
    assert why.startswith(f"it does not hold {judge.tile_name(absent)}; its choices were ")


@pytest.mark.parametrize("rules", ["noi2014", "baida"])
def test_a_kong_without_four_says_how_many_are_held(rules: str) -> None:
    judge = judge_rules(rules)
    game = judge.new_game(judge.shuffled_wall(7))
    (seat, legal), = game.decision.legal.items()
    counts = _counts(game, seat)
    kind = next(kind for kind in range(27) if counts[kind] in (1, 2, 3))
    name, held = judge.tile_name(kind), ("", "one", "two", "three")[counts[kind]]
    why = why_illegal(judge, game, seat, Action("gang", kind), "draw", legal)
    assert why.startswith(f"a GANG of {name} needs four {name} in the hand, or one and a PENG of it; it holds {held} "
                          f"{name};")


def test_a_peng_without_two_of_the_discard_says_how_many_are_held() -> None:
    judge, game, seat = _first_claim("noi2014", 7, lambda game, seat: _counts(game, seat)[game.claimable] < 2)
    name, held = judge.tile_name(game.claimable), ("no", "one")[_counts(game, seat)[game.claimable]]
    why = why_illegal(judge, game, seat, Action("peng", 0), "claim", game.decision.legal[seat])
    assert why.startswith(f"a PENG of the discard {name} needs two {name} in the hand; it holds {held} {name};")


def test_a_peng_that_would_discard_a_tile_not_held_names_it() -> None:
    judge, game, seat = _first_claim("noi2014", 7, lambda game, seat: _counts(game, seat)[game.claimable] >= 2)
    counts = _counts(game, seat)
    absent = next(kind for kind in range(27) if counts[kind] == 0)
    legal = game.decision.legal[seat]
    assert any(action.type == "peng" for action in legal), "a PENG is offered: the answer's discard is the fault"
    why = why_illegal(judge, game, seat, Action("peng", absent), "claim", legal)
    assert why.startswith(f"after the PENG of {judge.tile_name(game.claimable)} it would discard "
                          f"{judge.tile_name(absent)}, which it does not hold;")


def test_a_chi_by_a_seat_other_than_the_next_player_is_not_offered() -> None:
    judge, game, seat = _first_claim("baida", 7, lambda game, seat: seat != (game.discarder + 1) % 4)
    why = why_illegal(judge, game, seat, Action("chi", 0, tiles=(0,)), "claim", game.decision.legal[seat])
    assert why.startswith("only the discarder's next player may CHI;")


def test_a_discard_answered_to_a_claim_is_not_its_turn() -> None:
    judge, game, seat = _first_claim("thupc2021", 7)
    why = why_illegal(judge, game, seat, Action("discard", 0), "claim", game.decision.legal[seat])
    assert why.startswith(f"it is not its turn to discard: this is a claim on the discard "
                          f"{judge.tile_name(game.claimable)};")
