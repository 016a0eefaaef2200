"""Hostile input: any bytes a bot prints, any file a user hands in, never crash the judge or a reader.

A bot's output that is not an answer makes that seat ``bad_output`` (or ``output_limit``) with a short detail, and
the game goes on; the files (replays, ``games.jsonl``, ``tournament.json``, walls, decks) and the numeric options
get one line naming the file (and line) and exit status 2.  The attack bots are tests/bots/hostile_output_bot.py
and tests/bots/debug_bot.py.
"""

from __future__ import annotations

import json
import os
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
    data = check_match([GREEDY, GREEDY, program("hostile_output_bot.py", "surrogate_debug", "2", "keep"), GREEDY], 2,
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


# -- replays a user hands in -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def replay_data() -> dict:
    return run_match([GREEDY, "builtin:random"] * 2, seed=5).to_json()


def damaged(data: dict, change: str) -> object:
    """A copy of ``data`` with one thing broken, by name."""
    data = json.loads(json.dumps(data))
    if change == "not an object":
        return [data]
    if change == "no wall":
        del data["wall"]
    elif change == "unknown rules":
        data["rules"] = "mahjong-soul"
    elif change == "rules a number":
        data["rules"] = 7
    elif change == "wall a string":
        data["wall"] = "W1 W2"
    elif change == "a bad tile":
        data["wall"][5] = "Z9"
    elif change == "a tile a number":
        data["wall"][5] = 3
    elif change == "three seats":
        data["seats"].pop()
    elif change == "seats of ints":
        data["seats"] = [1, 2, 3, 4]
    elif change == "points a string":
        data["seats"][1]["points"] = "4"
    elif change == "rank null":
        data["seats"][2]["rank"] = None
    elif change == "seat out of order":
        data["seats"][0]["seat"] = 3
    elif change == "an unknown seat key":
        data["seats"][0]["zzz"] = 1
    elif change == "an event not an object":
        data["events"][3] = "draw"
    elif change == "an event seat 9":
        data["events"][3]["seat"] = 9
    elif change == "an event seat true":
        data["events"][3]["seat"] = True
    elif change == "an event tile unknown":
        data["events"][3]["tiles"] = ["X1"]
    elif change == "an event tiles a string":
        data["events"][3]["tiles"] = "W1"
    elif change == "an event type a list":
        data["events"][3]["type"] = ["draw"]
    elif change == "a decision seat 7":
        data["decisions"][0]["seat"] = 7
    elif change == "a decision response a number":
        data["decisions"][0]["response"] = 1
    elif change == "events an object":
        data["events"] = {}
    return data


CHANGES = ["not an object", "no wall", "unknown rules", "rules a number", "wall a string", "a bad tile",
           "a tile a number", "three seats", "seats of ints", "points a string", "rank null", "seat out of order",
           "an unknown seat key", "an event not an object", "an event seat 9", "an event seat true",
           "an event tile unknown", "an event tiles a string", "an event type a list", "a decision seat 7",
           "a decision response a number", "events an object"]


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from mjarena.cli import main

    code = main(args)
    captured = capsys.readouterr()
    return code, captured.err


@pytest.mark.parametrize("change", CHANGES)
def test_a_damaged_replay_is_one_line_naming_the_file(change: str, replay_data: dict, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(damaged(replay_data, change)))
    for args in (["replay", str(path)], ["replay", str(path), "--check"]):
        code, err = run_cli(args, capsys)
        assert code == 2 and err.startswith(f"mjarena replay: {path}: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b'{"format": "mjarena-replay", "x": ' + b"[" * 100_000, "nested too deeply"),
        (b'{"format": "mjarena-replay", "seed": ' + b"9" * 5000 + b"}", "too many digits"),
        (b'{"format": "mjarena-replay"}\xff', "not UTF-8"),
        (b"", "invalid JSON"),
        (b"\x00\x00", "invalid JSON"),
    ],
)
def test_a_replay_that_is_not_json_is_one_line(content: bytes, words: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    code, err = run_cli(["replay", str(path)], capsys)
    assert code == 2 and words in err and str(path) in err and err.count("\n") == 1, err


def test_recorded_answers_that_do_not_parse_or_play_are_replay_errors(replay_data: dict, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    for change, words in [("PLAY Z9", "decision 1"), ("stage", "decision 1"), ("HU", "do not play out")]:
        data = json.loads(json.dumps(replay_data))
        first = next(item for item in data["decisions"] if item["stage"] == "draw")
        if change == "stage":
            data["decisions"][0]["stage"] = "nonsense"
        else:
            first["response"] = change
            data["decisions"].remove(first)
            data["decisions"].insert(0, first)
        path.write_text(json.dumps(data))
        assert run_cli(["replay", str(path)], capsys)[0] == 0  # prints: the structure is sound
        code, err = run_cli(["replay", str(path), "--check"], capsys)
        assert code == 2 and words in err and err.count("\n") == 1, (change, err)


def test_a_sound_replay_with_surrogate_escapes_prints(replay_data: dict, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(json.dumps(replay_data))
    data["seats"][0]["bot"] = "\ud800bot"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))  # ensure_ascii: the surrogate is written as the escape \\ud800
    assert load(path)["seats"][0]["bot"] == "\ufffdbot"
    code, _ = run_cli(["replay", str(path), "--check"], capsys)
    assert code == 0


# -- tournament folders --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tournament_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from mjarena.arena.tournament import run_tournament
    from mjarena.arena.tournament_settings import Entrant, Settings

    out = tmp_path_factory.mktemp("t") / "t"
    bots = [Entrant("a", GREEDY), Entrant("b", "builtin:random"), Entrant("c", GREEDY), Entrant("d", GREEDY),
            Entrant("e", "builtin:random")]
    with open(os.devnull, "w") as quiet:
        run_tournament(Settings.create(bots, rounds=2, seed=3), out, workers=1, progress=False, log=quiet)
    return out


def copy_of(tournament_dir: Path, tmp_path: Path) -> Path:
    import shutil

    return Path(shutil.copytree(tournament_dir, tmp_path / "copy"))


def tournament_args(out: Path) -> list[str]:
    return ["tournament", "--bot", "a=builtin:greedy", "--bot", "b=builtin:random", "--bot", "c=builtin:greedy",
            "--bot", "d=builtin:greedy", "--bot", "e=builtin:random", "--rounds", "2", "--seed", "3",
            "--workers", "1", "--out", str(out)]


def games_lines(folder: Path) -> list[str]:
    return [line for line in (folder / "games.jsonl").read_text().splitlines() if line.strip()]


def set_lines(folder: Path, lines: list[str]) -> None:
    (folder / "games.jsonl").write_text("".join(line + "\n" for line in lines))


def test_the_fixture_tournament_resumes_as_today(tournament_dir: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = copy_of(tournament_dir, tmp_path)
    assert len(games_lines(out)) == 4
    before = (out / "games.jsonl").read_bytes()
    code, err = run_cli(tournament_args(out), capsys)
    assert code == 0, err
    assert (out / "games.jsonl").read_bytes() == before  # all played: nothing added
    assert run_cli(["standings", str(out)], capsys)[0] == 0


def broken_games(lines: list[str], change: str) -> list[str]:
    records = [json.loads(line) for line in lines]
    if change == "a duplicate":
        return [*lines, lines[1]]
    if change == "invalid UTF-8 line":
        return [lines[0], '{"game": "\xff"}', *lines[1:]]
    if change == "a foreign game id":
        records[1]["game"] = "zzz"
    elif change == "game only":
        return [lines[0], '{"game": "zzz"}', *lines[2:]]
    elif change == "deep JSON":
        return [lines[0], "[" * 100_000, *lines[2:]]
    elif change == "points a string":
        records[2]["results"][0]["points"] = "4"
    elif change == "seats swapped":
        records[1]["bots"][0], records[1]["bots"][1] = records[1]["bots"][1], records[1]["bots"][0]
        for seat in records[1]["results"]:
            seat["bot"] = records[1]["bots"][seat["seat"]]
    elif change == "another entrant":
        records[0]["bots"][0] = "mallory"
        records[0]["results"][0]["bot"] = "mallory"
    elif change == "a round too many":
        records[3]["game"], records[3]["round"] = "r003-t001-g001", 3
    elif change == "a later round alone":
        return [lines[2]]
    elif change == "a game not scheduled":
        records[0]["game"], records[0]["table"] = "r001-t009-g001", 9
    return [json.dumps(record) for record in records]


GAME_CHANGES = ["a duplicate", "invalid UTF-8 line", "a foreign game id", "game only", "deep JSON", "points a string",
                "seats swapped", "another entrant", "a round too many", "a later round alone", "a game not scheduled"]


@pytest.mark.parametrize("change", GAME_CHANGES)
def test_games_that_are_not_this_tournaments_are_refused_with_the_line(
    change: str, tournament_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = copy_of(tournament_dir, tmp_path)
    lines = broken_games(games_lines(out), change)
    if change == "invalid UTF-8 line":
        (out / "games.jsonl").write_bytes("".join(line + "\n" for line in lines).encode("utf-8", "surrogateescape")
                                          .replace("\xff".encode(), b"\xff"))
    else:
        set_lines(out, lines)
    before = (out / "games.jsonl").read_bytes()
    for args in (["standings", str(out)], tournament_args(out)):
        code, err = run_cli(args, capsys)
        assert code == 2 and f"{out / 'games.jsonl'}:" in err and err.count("\n") == 1, (change, err)
    assert (out / "games.jsonl").read_bytes() == before  # refused, not repaired nor added to


def test_a_folder_of_games_without_tournament_json_is_refused(tournament_dir: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = copy_of(tournament_dir, tmp_path)
    (out / "tournament.json").unlink()
    before = (out / "games.jsonl").read_bytes()
    code, err = run_cli(tournament_args(out), capsys)
    assert code == 2 and "holds games of another tournament" in err
    assert not (out / "tournament.json").exists() and (out / "games.jsonl").read_bytes() == before
    (out / "games.jsonl").write_text("\n \n")  # nothing but white space: a fresh start is fine
    assert run_cli(tournament_args(out), capsys)[0] == 0 and len(games_lines(out)) == 4


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda p: p.update(rounds="2"), '"rounds"'),
        (lambda p: p.update(duplicate="false"), '"duplicate"'),
        (lambda p: p.update(time_limit=float("nan")), "--time-limit nan"),
        (lambda p: p.update(time_limit=10**400), "--time-limit"),
        (lambda p: p.update(memory_limit=0), "--memory-limit 0"),
        (lambda p: p.update(format="knockout"), "--format knockout"),
        (lambda p: p.update(rules="zzz"), "--rules zzz"),
        (lambda p: p["bots"].append(7), "bot 6"),
        (lambda p: p["bots"].append({"name": "house-1", "spec": GREEDY}), "house bots"),
        (lambda p: p.pop("seed"), '"seed" is missing'),
    ],
)
def test_a_damaged_tournament_json_is_one_line(change: object, words: str, tournament_dir: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = copy_of(tournament_dir, tmp_path)
    meta = json.loads((out / "tournament.json").read_text())
    change(meta["parameters"])  # type: ignore[operator]
    (out / "tournament.json").write_text(json.dumps(meta))
    code, err = run_cli(["standings", str(out)], capsys)
    assert code == 2 and str(out / "tournament.json") in err and words in err and err.count("\n") == 1, err


@pytest.mark.parametrize("content", [b"[" * 100_000, b"\xff\xfe", b"[]", b'{"parameters": 3}'])
def test_a_tournament_json_that_is_no_tournament_is_one_line(content: bytes, tournament_dir: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = copy_of(tournament_dir, tmp_path)
    (out / "tournament.json").write_bytes(content)
    for args in (["standings", str(out)], tournament_args(out)):
        code, err = run_cli(args, capsys)
        assert code == 2 and str(out / "tournament.json") in err and err.count("\n") == 1, err


# -- numeric options and other files ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0", "1e300", "86401"])
def test_a_time_limit_that_is_no_time_is_refused(value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                 ) -> None:
    code, err = run_cli(["match", f"--time-limit={value}"], capsys)
    assert code == 2 and err.startswith("mjarena match: --time-limit ") and err.count("\n") == 1, err
    code, err = run_cli([*tournament_args(tmp_path / "t"), f"--time-limit={value}"], capsys)
    assert code == 2 and "--time-limit" in err and err.count("\n") == 1, err
    assert not (tmp_path / "t" / "tournament.json").exists()


@pytest.mark.parametrize("value", ["0", "-5", str(1 << 40)])
def test_a_memory_limit_that_is_no_memory_is_refused(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run_cli(["match", f"--memory-limit={value}"], capsys)
    assert code == 2 and err.startswith(f"mjarena match: --memory-limit {value}: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("content", "words"),
    [(b"W1\x00 W2", "W1\\x00"), (b"\xff\xfe", "not a UTF-8 text file"), (b"W1 " * 200_000, "fifth copy"),
     (b"", "108"), (b"\x1b[2J", "\\x1b")],
)
def test_a_wall_file_that_is_no_wall_is_one_line(content: bytes, words: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    wall = tmp_path / "wall.txt"
    wall.write_bytes(content)
    code, err = run_cli(["match", "--wall", str(wall)], capsys)
    assert code == 2 and str(wall) in err and words in err and err.count("\n") == 1, err


@pytest.mark.parametrize("content", [b"1M\x00", b"\xff\xfe", b"1M " * 149, b"\x1b[2J 1M"])
def test_a_deck_that_is_no_deck_is_one_line(content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    deck = tmp_path / "deck.in"
    deck.write_bytes(content)
    code, err = run_cli(["thupc", str(deck)], capsys)
    assert code == 2 and str(deck) in err and err.count("\n") == 1 and "\x1b" not in err, err


def test_a_deck_on_stdin_that_is_not_utf8_is_one_line() -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-m", "mjarena.cli", "thupc", "-"], input=b"\xff\xfe 1M",
                          capture_output=True, timeout=60)
    assert done.returncode == 2 and done.stderr == b"mjarena thupc: stdin: not UTF-8 text\n"
