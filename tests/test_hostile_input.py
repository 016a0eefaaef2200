"""Hostile input: any bytes a bot prints, any file a user hands in, never crash the judge or a reader.

A bot's output that is not an answer makes that seat ``bad_output`` (or ``output_limit``) with a short detail, and
the game goes on; the files (replays, ``games.jsonl``, ``tournament.json``, walls, decks) and the numeric options
get one line naming the file (and line) and exit status 2.  The attack bots are tests/bots/hostile_output_bot.py
and tests/bots/debug_bot.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjarena.agents.botzone_agent import BotzoneAgent
from mjarena.agents.errors import BotBadOutput, BotCrash
from mjarena.arena.match import run_match
from mjarena.protocol.botzone import DEBUG_LIMIT, decode_output, parse_response
from mjarena.protocol.transport import Exchange, Printed, Reply, ScriptedTransport
from mjarena.replay import load, replay_game, save
from mjarena.untrusted import parse_json
from mjarena.variants.base import Decision, Event

BOTS = Path(__file__).resolve().parent / "bots"
GREEDY = "builtin:greedy"
SHORT = 400  # characters: a detail is one readable line, never the bot's whole output

DEEP = '{"response": ' + "[" * 100_000
HOSTILE_LINES = {
    "deep array": DEEP,
    "deep object": '{"a": ' * 100_000,
    "deep data": '{"response": "PASS", "data": ' + "{" * 50_000,
    "huge number": '{"response": "PASS", "n": ' + "9" * 100_000 + "}",
    "huge negative number": '{"response": -' + "1" * 5000 + "}",
    "invalid UTF-8, decoded": b'{"response": "PLAY \xff\xfe\xc3"}'.decode("utf-8", "replace"),
    "raw NUL": '\x00{"response": "PASS"}',
    "NUL in a string": '{"response": "PASS\x00"}',
    "escaped NUL": '{"response": "PLAY W1\\u0000"}',
    "lone surrogate": '{"response": "PLAY \\ud800"}',
    "lone low surrogate": '{"response": "\\udfff"}',
    "terminal escapes": '{"response": "\\u001b[2J\\u001b[31mHU"}',
    "a long non-answer": "x" * 1_000_000,
}


def program(name: str, *args: str) -> str:
    return " ".join([sys.executable, str(BOTS / name), *args])


def utf8_safe(value: object) -> bool:
    """Whether ``value`` can be written as UTF-8 JSON (what a replay file and the terminal need)."""
    json.dumps(value, ensure_ascii=False).encode("utf-8")
    return True


# -- the reader of untrusted JSON ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["[" * 100_000, "[{\"a\": " * 100_000, '{"a": ' * 100_000, '{"a": [' * 50_000])
def test_deep_nesting_is_a_value_error_not_a_recursion_error(text: str) -> None:
    with pytest.raises(ValueError, match="nested too deeply"):
        parse_json(text)


def test_a_number_beyond_the_digit_limit_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="too many digits"):
        parse_json("9" * 5000)
    assert parse_json("9" * 4000) == int("9" * 4000)  # within the limit it is a number as usual


def test_lone_surrogates_come_back_replaced_everywhere_pairs_stay() -> None:
    value = parse_json('{"\\ud800key": ["a\\udfffb", {"deep": "\\ud83d\\ude00 \\udbff"}], "ok": "\\u00e9"}')
    assert value == {"\ufffdkey": ["a\ufffdb", {"deep": "\U0001f600 \ufffd"}], "ok": "é"}
    assert utf8_safe(value)


def test_an_escaped_backslash_before_u_is_no_surrogate() -> None:
    assert parse_json('"\\\\ud800"') == "\\ud800"


# -- decode_output: every line is an answer or bad_output ----------------------------------------------------


@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_hostile_output_lines_are_bad_output_with_a_short_detail(name: str) -> None:
    with pytest.raises(BotBadOutput) as caught:
        output = decode_output(HOSTILE_LINES[name], request="2 W1")
        parse_response(output.response, "draw", "2 W1")  # what decodes is still no response, as the agent finds
    detail = caught.value.detail
    assert caught.value.reason == "bad_output"
    assert len(detail) <= SHORT, detail
    assert "'2 W1'" in detail
    assert utf8_safe(detail) and "\x00" not in detail and "\x1b" not in detail


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_decode_to_an_answer_or_bad_output(raw: bytes) -> None:
    text = raw.decode("utf-8", "replace")  # as the process transport reads a bot's output
    try:
        output = decode_output(text)
    except BotBadOutput as error:
        assert len(error.detail) <= SHORT and utf8_safe(error.detail)
    else:
        assert utf8_safe(output)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values, json_values, json_values)
def test_any_json_object_decodes_to_an_answer_or_bad_output(response: object, data: object, debug: object) -> None:
    text = json.dumps({"response": response, "data": data, "debug": debug})
    try:
        output = decode_output(text)
    except BotBadOutput as error:
        assert len(error.detail) <= SHORT
    else:
        assert isinstance(output.response, str) and output.response == response
        assert output.debug is None or len(output.debug.encode("utf-8")) <= DEBUG_LIMIT
        assert utf8_safe(output)


def test_debug_is_trimmed_to_4_kib_and_kept_as_json_text_when_not_a_string() -> None:
    long = decode_output(json.dumps({"response": "PASS", "debug": "麻" * 10_000})).debug
    assert long is not None and long.startswith("麻麻") and long.endswith("…")
    assert DEBUG_LIMIT - 3 <= len(long.encode("utf-8")) <= DEBUG_LIMIT == 4096
    assert decode_output('{"response": "PASS", "debug": {"w": [1, 2]}}').debug == '{"w": [1, 2]}'
    assert decode_output('{"response": "PASS", "debug": "\\ud800!"}').debug == "\ufffd!"
    assert decode_output('{"response": "PASS"}').debug is None


# -- through the agent, with a scripted bot ------------------------------------------------------------------

HAND = "W1 W1 W1 W2 W3 W4 B5 B5 B5 B7 B8 T9 T9"


class Table:
    """The two attributes a BotzoneAgent reads: seat 1 was dealt HAND and has just drawn W9."""

    def __init__(self) -> None:
        kinds = tuple(sorted([0, 0, 0, 1, 2, 3, 13, 13, 13, 15, 16, 26, 26]))
        self.events = [Event("deal", s, kinds if s == 1 else tuple(range(s, s + 13))) for s in range(4)]
        self.events.append(Event("draw", 1, (8,)))
        self.decision = Decision("draw", {})


@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_a_scripted_bot_printing_hostile_bytes_is_bad_output_and_its_transcript_stays_writable(name: str) -> None:
    bot = ScriptedTransport([("0 1", "PASS"), (f"1 {HAND}", Printed('{"response": "PASS", "debug": "\\ud800"}')),
                             ("2 W9", Printed(HOSTILE_LINES[name]))])
    agent = BotzoneAgent(bot)
    with pytest.raises(BotBadOutput) as caught:
        agent.act(Table(), 1, [])
    assert len(caught.value.detail) <= SHORT and bot.closed and agent.error is caught.value
    assert [line.request for line in agent.transcript] == ["0 1", f"1 {HAND}", "2 W9"]
    assert agent.transcript[1].debug == "\ufffd"
    assert utf8_safe([line.to_json() for line in agent.transcript])


def test_debug_and_stderr_of_each_turn_go_into_the_transcript() -> None:
    bot = ScriptedTransport([
        ("0 1", Reply("PASS", debug="hello", stderr="warming up\n")),
        (f"1 {HAND}", Printed('{"response": "PASS", "debug": ["a", 1]}')),
        ("2 W9", Reply("PLAY W9")),
    ])
    agent = BotzoneAgent(bot)
    agent.act(Table(), 1, [])
    assert [(line.debug, line.stderr) for line in agent.transcript] == [
        ("hello", "warming up\n"), ('["a", 1]', None), (None, None)
    ]
    assert [line.to_json() for line in agent.transcript][2] == {
        "request": "2 W9", "response": "PLAY W9", "elapsed_ms": 0.0, "mode": "scripted"
    }


def test_the_stderr_of_a_failed_turn_is_kept_too() -> None:
    bot = ScriptedTransport([("0 1", BotCrash("exit code 3", stderr="Traceback: boom"))])
    agent = BotzoneAgent(bot)
    with pytest.raises(BotCrash):
        agent.act(Table(), 1, [])
    assert agent.transcript == [Exchange("0 1", None, 0.0, "error", None, "Traceback: boom")]


# -- through real programs, in whole matches -------------------------------------------------------------------

MODES = [
    ("deep_array", "bad_output", "nested too deeply"),
    ("deep_object", "bad_output", "nested too deeply"),
    ("huge_number", "bad_output", "too many digits"),
    ("bad_utf8", "bad_output", "unknown tile name"),
    ("nul", "bad_output", "not JSON"),
    ("nul_escaped", "bad_output", "unknown tile name"),
    ("surrogate", "bad_output", "unknown tile name"),
    ("huge_line", "output_limit", "printed more than"),
]


def check_match(bots: list[str], seat: int, reason: str | None, tmp_path: Path) -> dict:
    """Play a match, check the one seat's verdict and that the game finished for everyone, save its replay,
    read it back and play it again; return the replay."""
    result = run_match(bots, seed=21)
    bad = result.seats[seat]
    assert (bad.status == "error", bad.reason) == (reason is not None, reason), bad.detail
    assert all(s.reason is None for s in result.seats if s.seat != seat)
    assert result.events[-1].type == "end" and sum(s.points for s in result.seats) == 10
    save(result.to_json(), tmp_path / "game.json")
    data = load(tmp_path / "game.json")
    assert replay_game(data).events == result.events
    return data


@pytest.mark.parametrize(("mode", "reason", "words"), MODES)
def test_a_program_printing_hostile_bytes_gets_its_verdict_and_the_game_goes_on(
    mode: str, reason: str, words: str, tmp_path: Path
) -> None:
    data = check_match([GREEDY, GREEDY, GREEDY, program("hostile_output_bot.py", mode, "2")], 3, reason, tmp_path)
    detail = data["seats"][3]["detail"]
    assert words in detail and len(detail) <= SHORT, detail
    assert data["transcripts"]["3"][-1]["request"].startswith("2 ")  # the turn of the attack, recorded


@pytest.mark.parametrize("mode", ["deep_array", "surrogate", "bad_utf8"])
def test_the_same_attacks_from_a_kept_running_program(mode: str, tmp_path: Path) -> None:
    data = check_match([GREEDY, program("hostile_output_bot.py", mode, "3", "keep"), GREEDY, GREEDY], 1,
                       "bad_output", tmp_path)
    assert {line["mode"] for line in data["transcripts"]["1"]} >= {"keep"}


def test_a_legal_answer_with_surrogates_in_debug_stands_and_the_replay_is_written(tmp_path: Path) -> None:
    data = check_match([GREEDY, GREEDY, program("hostile_output_bot.py", "surrogate_debug", "2"), GREEDY], 2,
                       None, tmp_path)
    debugs = [line["debug"] for line in data["transcripts"]["2"] if "debug" in line]
    assert debugs and all(debug == "lone \ufffd and \ufffd" for debug in debugs)


@pytest.mark.parametrize("mode", ["restart", "keep"])
def test_a_programs_debug_field_is_kept_per_turn_in_the_replay(mode: str, tmp_path: Path) -> None:
    args = ("keep",) if mode == "keep" else ()
    data = check_match([program("debug_bot.py", *args), GREEDY, GREEDY, GREEDY], 0, None, tmp_path)
    lines = data["transcripts"]["0"]
    assert len(lines) > 10 and all("debug" in line for line in lines)
    for turn, line in enumerate(lines, 1):
        debug = line["debug"]
        assert len(debug.encode("utf-8")) <= DEBUG_LIMIT
        if turn % 5 == 0:
            assert debug.startswith(f"turn {turn}: 麻麻") and debug.endswith("…")
        elif turn % 7 == 0:
            assert json.loads(debug) == {"turn": turn, "request": line["request"]}
        else:
            assert debug == f"turn {turn}: {line['request']}"
