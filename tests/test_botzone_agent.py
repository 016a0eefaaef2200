"""BotzoneAgent: transcripts against a scripted bot, then whole games of the real NOI 2014 rules.

The scripted tests read like the protocol: each ``expect(request, response)`` is one line of the bot's log.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from mjarena.agents.botzone_agent import BotzoneAgent, ProtocolMismatch
from mjarena.agents.errors import AgentError, BotBadOutput, BotTimeout, IllegalAnswer
from mjarena.protocol.botzone import requests_for
from mjarena.protocol.process import BotProcess, ProcessTransport, live_group_members
from mjarena.protocol.transport import Reply, ScriptedTransport
from mjarena.tiles import parse_tiles
from mjarena.variants.base import Action, Decision, Event, IllegalAction, play

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "bots"


def kinds(text: str) -> tuple[int, ...]:
    return tuple(parse_tiles(text, "noi"))


HAND = "W1 W1 W1 W2 W3 W4 B5 B5 B5 B7 B8 T9 T9"


class FakeGame:
    """The two attributes the agent reads: the event stream and the current decision."""

    def __init__(self, events: Sequence[Event] = (), stage: str = "draw") -> None:
        self.events = list(events)
        self.decision = Decision(stage, {})

    def then(self, stage: str, *events: Event) -> FakeGame:
        self.events += events
        self.decision = Decision(stage, {})
        return self


def dealt(seat: int = 1) -> list[Event]:
    return [Event("deal", s, kinds(HAND) if s == seat else tuple(range(s, s + 13))) for s in range(4)]


# -- transcripts ------------------------------------------------------------------------------------------------


def test_the_first_decision_comes_after_the_id_and_the_hand() -> None:
    bot = ScriptedTransport().expect("0 1", "PASS").expect(f"1 {HAND}", "PASS").expect("3 0 PLAY W6", "PASS")
    agent = BotzoneAgent(bot, "first")
    game = FakeGame([*dealt(1), Event("draw", 0, (5,)), Event("play", 0, (5,))], "claim")
    assert agent.act(game, 1, []) == Action("pass")
    bot.expect("2 T3", "play t3")
    assert agent.act(game.then("draw", Event("draw", 1, kinds("T3"))), 1, []) == Action("play", kinds("T3")[0])
    bot.assert_done()
    assert [(line.request, line.response, line.mode) for line in agent.transcript] == [
        ("0 1", "PASS", "scripted"),
        (f"1 {HAND}", "PASS", "scripted"),
        ("3 0 PLAY W6", "PASS", "scripted"),
        ("2 T3", "play t3", "scripted"),
    ]
    assert not bot.closed and agent.seat == 1


def test_a_claim_after_the_news_since_the_last_decision() -> None:
    game = FakeGame(dealt(1), "claim").then(
        "claim",
        Event("draw", 2, (7,)),
        Event("play", 2, (7,)),  # (seat 1 was asked about this one below)
    )
    bot = ScriptedTransport([("0 1", "PASS"), (f"1 {HAND}", "PASS"), ("3 2 PLAY W8", "PASS")])
    agent = BotzoneAgent(bot)
    agent.act(game, 1, [])
    game.then(
        "claim",
        Event("peng", 3, (7,)),
        Event("play", 3, kinds("B5")),
    )
    bot.expect("3 3 PENG W8", "PASS").expect("3 3 PLAY B5", "GANG")
    assert agent.act(game, 1, []) == Action("gang")
    game.then("draw", Event("gang", 1, kinds("B5"), 3), Event("draw_back", 1, kinds("T1")))
    bot.expect("2 T1", "GANG W1")
    assert agent.act(game, 1, []) == Action("gang", 0)
    game.then("draw", Event("angang", 1, (0,)), Event("draw_back", 1, kinds("B6")))
    bot.expect("2 B6", "HU")
    assert agent.act(game, 1, []) == Action("hu")
    bot.assert_done()
    assert bot.closed and agent.closed  # a self-drawn HU ends the bot's game: nothing more will be asked


def test_the_others_wins_and_kongs_are_news_answered_pass() -> None:
    game = FakeGame(dealt(2), "claim").then(
        "claim",
        Event("draw", 0, (1,)),
        Event("hu_self", 0, (1,)),
        Event("draw", 1, (2,)),
        Event("bugang", 1, (9,)),
        Event("draw_back", 1, (3,)),
        Event("play", 1, (3,)),
        Event("hu", 3, (3,), 1),  # seat 2 answered this discard's claim below: a nearer HU went first
        Event("draw", 1, (4,)),
        Event("play", 1, (4,)),
    )
    bot = ScriptedTransport(
        [
            ("0 2", "PASS"),
            (f"1 {HAND}", "PASS"),
            ("3 0 HU SELF", "PASS"),
            ("3 1 GANG B1", "PASS"),
            ("3 1 PLAY W4", "HU"),  # a claim the rules did not put to the seat: the answer is moot
            ("3 3 HU W4", "PASS"),
            ("3 1 PLAY W5", "PENG W1"),
        ]
    )
    agent = BotzoneAgent(bot)
    assert agent.act(game, 2, []) == Action("peng", 0)
    bot.assert_done()


def test_the_target_at_an_exhausted_wall_and_then_the_bot_is_closed() -> None:
    game = FakeGame(dealt(3), "target").then("target", Event("exhausted"))
    target = "W1 W1 W1 W2 W3 W4 B5 B5 B5 B7 B8 B9 T9 T9"
    bot = ScriptedTransport([("0 3", "PASS"), (f"1 {HAND}", "PASS"), ("4", target.lower())])
    agent = BotzoneAgent(bot)
    assert agent.act(game, 3, []) == Action("target", tiles=kinds(target))
    assert bot.closed
    agent.close()  # twice is harmless


def test_an_answer_other_than_pass_to_news_is_an_illegal_action() -> None:
    bot = ScriptedTransport([("0 1", "PASS"), (f"1 {HAND}", "HU")])
    agent = BotzoneAgent(bot)
    with pytest.raises(IllegalAnswer) as caught:
        agent.act(FakeGame([*dealt(1), Event("draw", 1, (0,))]), 1, [])
    assert caught.value.reason == "illegal_action" and "'HU'" in caught.value.detail
    assert agent.error is caught.value and bot.closed and agent.closed
    assert bot.requests == ["0 1", f"1 {HAND}"]  # the draw was never sent
    with pytest.raises(RuntimeError, match="closed"):
        agent.act(FakeGame(dealt(1)), 1, [])


def test_a_malformed_answer_is_bad_output() -> None:
    bot = ScriptedTransport([("0 1", "PASS"), (f"1 {HAND}", "PASS"), ("2 W9", "PLAY W10")])
    agent = BotzoneAgent(bot)
    with pytest.raises(BotBadOutput) as caught:
        agent.act(FakeGame([*dealt(1), Event("draw", 1, (8,))]), 1, [])
    assert "'PLAY W10' to '2 W9'" in caught.value.detail
    assert bot.closed


def test_a_bot_error_is_re_raised_and_written_in_the_transcript() -> None:
    timeout = BotTimeout("no answer within 1.000 s", request="2 W9", elapsed=1.0)
    bot = ScriptedTransport([("0 1", "PASS"), (f"1 {HAND}", "PASS"), ("2 W9", timeout)])
    agent = BotzoneAgent(bot)
    with pytest.raises(BotTimeout) as caught:
        agent.act(FakeGame([*dealt(1), Event("draw", 1, (8,))]), 1, [])
    assert caught.value is timeout and isinstance(caught.value, AgentError)
    assert agent.transcript[-1] == ("2 W9", None, 1000.0, "error", None, None, None, None)
    assert bot.closed and agent.error is timeout


def test_a_well_formed_answer_is_returned_even_if_illegal_the_rules_judge_it() -> None:
    bot = ScriptedTransport([("0 1", "PASS"), (f"1 {HAND}", "PASS"), ("2 W9", "PASS")])
    assert BotzoneAgent(bot).act(FakeGame([*dealt(1), Event("draw", 1, (8,))]), 1, []) == Action("pass")


def test_a_decision_without_its_request_is_a_protocol_mismatch() -> None:
    agent = BotzoneAgent(ScriptedTransport())
    with pytest.raises(ProtocolMismatch, match="'claim' decision"):
        agent.act(FakeGame([*dealt(1), Event("draw", 1, (8,))], "claim"), 1, [])
    with pytest.raises(ProtocolMismatch, match="nothing"):
        agent.act(FakeGame([], "draw"), 1, [])
    with pytest.raises(ValueError, match="stage 'deal'"):
        agent.act(FakeGame([], "deal"), 1, [])


def test_one_agent_plays_one_seat() -> None:
    agent = BotzoneAgent(ScriptedTransport(["PASS", "PASS", "PLAY W9"]))
    agent.act(FakeGame([*dealt(1), Event("draw", 1, (8,))]), 1, [])
    with pytest.raises(ValueError, match="seat 1, not seat 2"):
        agent.act(FakeGame([*dealt(2), Event("draw", 2, (8,))]), 2, [])


def test_scripted_transport_reports_its_misuse() -> None:
    bot = ScriptedTransport(["PASS"])
    with pytest.raises(AssertionError, match="never asked for"):
        bot.assert_done()
    bot.ask("0 0")
    with pytest.raises(AssertionError, match="script is used up"):
        bot.ask("1 W1")
    bot.close()
    with pytest.raises(RuntimeError, match="closed"):
        bot.ask("2 W1")


# -- the real rules ---------------------------------------------------------------------------------------------

noi2014 = pytest.importorskip("mjarena.variants.noi2014")


def load_example_table() -> Any:
    spec = importlib.util.spec_from_file_location("example_restart_bot", EXAMPLES / "restart_bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Table


Table = load_example_table()


class ExampleBot:
    """The example bot's logic called in-process: a transport without a process, for fast whole games.

    ``view`` is the bot's concealed hand as it stood when it answered the last request.
    """

    def __init__(self) -> None:
        self.table = Table()
        self.requests: list[str] = []
        self.view: list[int] = []
        self.closed = False

    def ask(self, request: str) -> Reply:
        self.requests.append(request)
        probe = copy.deepcopy(self.table)
        probe.feed(request)
        self.view = probe.hand
        return Reply(self.table.decide(request), mode="inproc")

    def close(self) -> None:
        self.closed = True


class Checked:
    """Plays through a BotzoneAgent and checks that the bot, from its requests alone, knows its hand exactly."""

    def __init__(self, agent: BotzoneAgent, bot: ExampleBot) -> None:
        self.agent, self.bot = agent, bot

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        action = self.agent.act(game, seat, legal)
        assert self.bot.view == list(game.hands[seat].counts[:27])
        if game.decision.stage != "target":
            assert action in legal, f"seat {seat}: {action} is not legal"
        return action


@pytest.mark.parametrize("seed", range(8))
def test_whole_games_of_the_real_rules_with_the_example_strategy(seed: int) -> None:
    bots = [ExampleBot() for _ in range(4)]
    agents = [BotzoneAgent(bot, f"example-{seat}") for seat, bot in enumerate(bots)]
    game = play(
        noi2014.NoiGame(noi2014.shuffled_wall(seed)), [Checked(a, b) for a, b in zip(agents, bots, strict=True)]
    )
    assert game.events[-1].type == "end"
    assert "out" not in game.status  # the example bot never declares a false HU
    for seat, bot in enumerate(bots):
        told = [r.text for r in requests_for(game.events, seat)]
        assert bot.requests == told[: len(bot.requests)] and bot.requests
        assert told[len(bot.requests) :] == [] or game.decision is None
        last = agents[seat].transcript[-1]
        ended = last.request == "4" or (last.request.startswith("2 ") and last.response == "HU")
        assert bot.closed == ended  # its last possible answer (a target, a self-drawn HU) closed it
        assert all(line.mode == "inproc" for line in agents[seat].transcript)


def test_a_malformed_answer_in_a_real_game_stops_the_agent_not_the_engine() -> None:
    game = noi2014.NoiGame(noi2014.shuffled_wall(3))
    bot = ScriptedTransport()
    deal = next(e for e in game.events if e.type == "deal" and e.seat == 0)
    bot.expect("0 0", "PASS").expect("1 " + " ".join(_names(deal.tiles)), "PASS").push("DISCARD")
    agent = BotzoneAgent(bot)
    with pytest.raises(BotBadOutput):
        agent.act(game, 0, game.decision.legal[0])
    assert bot.closed


def test_an_illegal_play_is_left_to_the_engine() -> None:
    game = noi2014.NoiGame(noi2014.shuffled_wall(3))
    hand = game.hands[0].counts
    missing = next(k for k in range(27) if not hand[k])
    bot = ScriptedTransport(["PASS", "PASS", f"PLAY {_names([missing])[0]}"])
    action = BotzoneAgent(bot).act(game, 0, game.decision.legal[0])
    with pytest.raises(IllegalAction):
        game.apply({0: action})


def _names(tiles: Sequence[int]) -> list[str]:
    from mjarena.tiles import format_tile

    return [format_tile(k, "noi") for k in tiles]


def test_a_real_game_of_example_programs_in_both_modes() -> None:
    commands = [[sys.executable, str(EXAMPLES / name)] for name in ("restart_bot.py", "keep_running_bot.py") * 2]
    processes = [BotProcess(command, time_limit=5.0) for command in commands]
    agents = [BotzoneAgent(ProcessTransport(process), f"seat-{s}") for s, process in enumerate(processes)]
    try:
        game = play(noi2014.NoiGame(noi2014.shuffled_wall(11)), agents)
    finally:
        for agent in agents:
            agent.close()
    assert game.events[-1].type == "end" and "out" not in game.status
    for seat, (agent, process) in enumerate(zip(agents, processes, strict=True)):
        assert agent.error is None and process.closed
        assert [line.request for line in agent.transcript] == [r.text for r in requests_for(game.events, seat)][
            : len(agent.transcript)
        ]
        modes = {line.mode for line in agent.transcript}
        assert modes == ({"restart"} if seat % 2 == 0 else {"restart", "keep"})
        assert process.starts == (len(agent.transcript) if seat % 2 == 0 else 1)
        for pid in process.started_pids:
            assert live_group_members(pid) == []
