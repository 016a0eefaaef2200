"""THUPC 2021 as a judged rule set: its protocol strings, bots behind a transport, matches and replays."""

from __future__ import annotations

from typing import Any

import pytest

from mjarena.agents.botzone_agent import BotzoneAgent
from mjarena.agents.errors import BotBadOutput
from mjarena.agents.thupc_fixed import FixedStrategy
from mjarena.arena.match import run_match
from mjarena.protocol import thupc
from mjarena.protocol.transport import Reply
from mjarena.replay import replay_game
from mjarena.rulesets import judge_rules
from mjarena.tiles import DOUBLE, PASS, REVERSE
from mjarena.variants.base import Action, play
from mjarena.variants.thupc2021 import ThupcGame, rank, shuffled_wall


class RelayTransport:
    """A bot that speaks the strings: it answers each decision request with what an in-process agent chooses
    (formatted by the protocol), and every other request with PASS.  What it is asked is kept."""

    def __init__(self, game: ThupcGame, seat: int, inner: Any) -> None:
        self.game, self.seat, self.inner = game, seat, inner
        self.requests: list[str] = []

    def ask(self, request: str) -> Reply:
        self.requests.append(request)
        decision = self.game.decision
        legal = decision.legal.get(self.seat) if decision else None
        head = request.split()[0]
        deciding = legal is not None and (head == "2" or " PLAY " in request or self._own_claim(request))
        if deciding and request == self._last_request():
            return Reply(thupc.format_response(self.inner.act(self.game, self.seat, legal)))
        return Reply("PASS")

    def _own_claim(self, request: str) -> bool:
        words = request.split()
        return len(words) == 4 and words[1] == str(self.seat) and words[2] in ("PENG", "CHI")

    def _last_request(self) -> str:
        return thupc.requests_for(self.game.events, self.seat)[-1].text

    def close(self) -> None:
        pass


@pytest.mark.parametrize("seed", range(12))
def test_a_bot_behind_the_strings_plays_the_same_game_as_in_process(seed: int) -> None:
    direct = play(ThupcGame(shuffled_wall(seed)), [FixedStrategy() for _ in range(4)])
    game = ThupcGame(shuffled_wall(seed))
    transports = [RelayTransport(game, seat, FixedStrategy()) for seat in range(4)]
    agents = [BotzoneAgent(t, f"relay-{seat}", protocol=thupc) for seat, t in enumerate(transports)]
    play(game, agents)
    assert game.events == direct.events
    assert all(t.requests[:1] == [f"0 {seat}"] for seat, t in enumerate(transports))
    assert all(len(t.requests[1].split()) == 14 for t in transports)  # "1" and the 13 tiles dealt


def test_specials_are_told_but_cannot_be_claimed() -> None:
    from mjarena.variants.base import Event

    events = [Event("discard", 0, (PASS,), 2), Event("discard", 1, (REVERSE,)), Event("discard", 2, (DOUBLE,))]
    assert [(r.text, r.kind) for r in thupc.requests_for(events, 3)] == [
        ("3 0 PLAY PASS 2", "pass"), ("3 1 PLAY REVERSE", "pass"), ("3 2 PLAY DOUBLE", "pass"),
    ]


@pytest.mark.parametrize(
    ("text", "kind", "action"),
    [
        ("PLAY 9S", "draw", Action("discard", 26)),
        ("play z", "draw", Action("discard", 33)),
        ("PLAY REVERSE", "draw", Action("discard", REVERSE)),
        ("PLAY PASS 0", "draw", Action("discard", PASS, 0)),
        ("HU", "draw", Action("self_drawn")),
        ("HU", "discard", Action("ron")),
        ("PENG", "discard", Action("pong")),
        ("CHI 7P", "discard", Action("chow", 15)),
        ("PASS", "discard", Action("pass")),
    ],
)
def test_responses_parse_and_format_back(text: str, kind: str, action: Action) -> None:
    assert thupc.parse_response(text, kind) == action
    assert thupc.parse_response(thupc.format_response(action), kind) == action


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty response"),
        ("PLAY", "PLAY takes a tile"),
        ("PLAY 0M", "unknown thupc tile name '0M' (token 2)"),
        ("PLAY BAIDA", "no 'BAIDA' tile in the THUPC rules"),
        ("PLAY PASS 4", "PLAY PASS names a seat"),
        ("PLAY 1M 2M", "PLAY takes exactly one tile"),
        ("PENG 1M", "PENG takes nothing after it"),
        ("CHI", "CHI takes one tile"),
        ("GANG", "unknown verb 'GANG'"),
    ],
)
def test_malformed_responses_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(BotBadOutput, match=problem.replace("(", r"\(").replace(")", r"\)")):
        thupc.parse_response(text, "draw")


@pytest.mark.parametrize("seed", range(6))
def test_thupc_matches_are_judged_and_replayed(seed: int) -> None:
    result = run_match(["builtin:fixed", "builtin:random", "builtin:greedy", "builtin:random"], rules="thupc2021",
                       seed=seed)
    data = result.to_json()
    assert data["rules"] == "thupc2021"
    assert replay_game(data).events == result.events
    winners = [seat for seat in result.seats if seat.status == "won"]
    assert sum(seat.points for seat in result.seats) == len(winners)
    assert len(winners) <= 1


def test_the_judge_plays_for_a_seat_whose_answer_is_illegal() -> None:
    class Cheater:
        def act(self, game: Any, seat: int, legal: Any) -> Action:
            return Action("discard", 0) if legal[-1].type != "pass" else Action("pong")

    def factory(spec: str, seat: int, *args: Any, **kwargs: Any) -> Any:
        return Cheater() if seat == 1 else FixedStrategy()

    result = run_match(["builtin:fixed", "cheater", "builtin:fixed", "builtin:fixed"], rules="thupc2021", seed=5,
                       make_agent=factory)
    cheater = result.seats[1]
    assert (cheater.status, cheater.reason) == ("error", "illegal_action")
    assert cheater.points == 0.0
    assert any(d["by"] == "judge" and d["seat"] == 1 for d in result.decisions)


def test_rank_refuses_an_unfinished_game() -> None:
    with pytest.raises(ValueError, match="not over"):
        rank(ThupcGame(shuffled_wall(0)))


def test_the_judge_knows_the_three_rule_sets() -> None:
    assert judge_rules("thupc").name == "thupc2021"
    assert sorted(judge_rules("thupc2021").agents) == ["fixed", "greedy", "random", "strong"]
