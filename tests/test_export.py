"""The replay format's JSON Schema and the exports (``mjarena replay export``): replays of every rule set, of
program bots with transcripts, of errors and of tournaments validate; the exports carry what the replay holds.
(The HTML export opened from disk in Chromium, offline, is in test_web_e2e.py.)"""

from __future__ import annotations

import copy
import json
import shlex
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from mjarena.arena.match import run_match
from mjarena.cli import main
from mjarena.export import ExportError, export
from mjarena.replay import save

jsonschema = pytest.importorskip("jsonschema", reason="pip install 'mjarena[test]' (jsonschema)")

BOTS = Path(__file__).parent / "bots"
RESTART_BOT = f"{shlex.quote(sys.executable)} {Path(__file__).parents[1] / 'examples' / 'bots' / 'restart_bot.py'}"
DEBUG_BOT = f"{shlex.quote(sys.executable)} {BOTS / 'debug_bot.py'} keep"
CRASHING_BOT = f"{shlex.quote(sys.executable)} -c 'raise SystemExit(3)'"


@pytest.fixture(scope="module")
def validator() -> Any:
    schema = json.loads(files("mjarena").joinpath("replay_schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def replays() -> dict[str, dict[str, Any]]:
    """One replay of each rule set, one with a program bot (transcripts, debug, stderr), one with a crash."""
    return {
        "noi2014": run_match(["builtin:greedy", "builtin:random"] * 2, seed=1).to_json(),
        "baida": run_match(["builtin:greedy", "builtin:random"] * 2, rules="baida", seed=1).to_json(),
        "thupc2021": run_match(["builtin:fixed", "builtin:greedy"] * 2, rules="thupc2021", seed=1).to_json(),
        "debug": run_match(["builtin:greedy", DEBUG_BOT, "builtin:random", RESTART_BOT], seed=2).to_json(),
        "crash": run_match(["builtin:greedy", CRASHING_BOT, "builtin:random", "builtin:greedy"], seed=3).to_json(),
    }


@pytest.mark.parametrize("name", ["noi2014", "baida", "thupc2021", "debug", "crash"])
def test_replays_validate_against_the_schema(validator: Any, replays: dict[str, dict[str, Any]], name: str) -> None:
    errors = [f"{list(error.path)}: {error.message}" for error in validator.iter_errors(replays[name])]
    assert errors == []


def test_a_tournament_replay_validates(validator: Any, tmp_path: Path) -> None:
    import io

    from mjarena.arena.tournament import Tournament
    from mjarena.arena.tournament_settings import Entrant, Settings

    class InProcess:
        remote = False

        def run(self, fn: Any, tasks: Any) -> Any:
            return ((task, fn(task)) for task in tasks)

        def close(self, cancel: bool = False) -> None:
            pass

    settings = Settings.create([Entrant(n, "builtin:greedy") for n in "abcd"], rounds=1, seed=1)
    Tournament(settings, tmp_path / "cup").run(InProcess(), log=io.StringIO())
    replay = json.loads(next((tmp_path / "cup" / "replays").glob("*.json")).read_text(encoding="utf-8"))
    assert replay["tournament"]["bots"] and not list(validator.iter_errors(replay))


@pytest.mark.parametrize(("path", "value"), [
    (("seats",), []), (("seats", 0, "status"), "winner"), (("events", 0, "type"), "teleport"),
    (("wall", 0), "W10"), (("decisions", 0, "seat"), 4), (("format",), "other"), (("seats", 0, "extra"), 1),
])
def test_the_schema_refuses_what_is_not_a_replay(validator: Any, replays: dict[str, dict[str, Any]],
                                                 path: tuple[Any, ...], value: Any) -> None:
    broken = copy.deepcopy(replays["noi2014"])
    *parents, last = path
    target = broken
    for key in parents:
        target = target[key]
    target[last] = value
    assert not validator.is_valid(broken)


def test_the_botzone_log_is_what_each_bot_read_and_answered(replays: dict[str, dict[str, Any]]) -> None:
    data = replays["debug"]
    log = json.loads(export(data, "botzone"))
    assert log["format"] == "botzone-log" and [seat["seat"] for seat in log["seats"]] == [0, 1, 2, 3]
    for seat in (1, 3):  # program bots: the export equals their transcripts exchange by exchange
        kept = data["transcripts"][str(seat)]
        assert log["seats"][seat]["requests"] == [item["request"] for item in kept]
        assert log["seats"][seat]["responses"] == [item["response"] for item in kept]
    for seat in (0, 2):  # in-process agents: every recorded decision is answered, in order
        answered = [r for r, q in zip(log["seats"][seat]["responses"], log["seats"][seat]["requests"], strict=True)
                    if not q.startswith(("0 ", "1 "))]
        decisions = [d["response"] for d in data["decisions"] if d["seat"] == seat]
        assert [a for a in answered if a != "PASS"] == [d for d in decisions if d != "PASS"]


@pytest.mark.parametrize("name", ["noi2014", "baida", "thupc2021", "crash"])
def test_json_lines_carry_every_event(replays: dict[str, dict[str, Any]], name: str) -> None:
    data = replays[name]
    lines = [json.loads(line) for line in export(data, "jsonl").splitlines()]
    assert lines[0] == {"type": "start_game", "rules": data["rules"], "seed": data["seed"],
                        "names": [seat["bot"] for seat in data["seats"]]}
    assert lines[-1]["type"] == "end_game"
    assert lines[-1]["scores"] == [seat["points"] for seat in data["seats"]]
    body = lines[1:-1]
    assert [line["type"] for line in body] == [event["type"] for event in data["events"]]
    for line, event in zip(body, data["events"], strict=True):
        assert line.get("actor") == event.get("seat")
        assert ([line["pai"]] if "pai" in line else line.get("tiles", [])) == event.get("tiles", [])


def test_an_unknown_format_is_refused(replays: dict[str, dict[str, Any]]) -> None:
    with pytest.raises(ExportError, match="choose from: html, botzone, jsonl"):
        export(replays["noi2014"], "pdf")


def test_the_html_export_is_one_file_with_no_outside_reference(replays: dict[str, dict[str, Any]]) -> None:
    import re

    page = export(replays["crash"], "html", name="crash.json")
    assert "default-src 'none'" in page
    assert not re.search(r"""(src|href)=["'](?!data:)""", page), "nothing to load"
    assert "</script><script>alert" not in export({**replays["crash"], "seats": [
        {**seat, "bot": "</script><script>alert(1)</script>"} for seat in replays["crash"]["seats"]]}, "html")


def test_the_export_command(tmp_path: Path, replays: dict[str, dict[str, Any]],
                            capsys: pytest.CaptureFixture[str]) -> None:
    save(replays["baida"], tmp_path / "game.json")
    assert main(["replay", "export", str(tmp_path / "game.json")]) == 0
    assert (tmp_path / "game.html").read_text(encoding="utf-8").startswith("<!doctype html>")
    assert main(["replay", "export", str(tmp_path / "game.json"), "--format", "botzone"]) == 0
    assert json.loads((tmp_path / "game.botzone.json").read_text(encoding="utf-8"))["rules"] == "baida"
    capsys.readouterr()
    assert main(["replay", "export", str(tmp_path / "game.json"), "--format", "jsonl", "--out", "-"]) == 0
    assert capsys.readouterr().out.startswith('{"type": "start_game"')
    assert main(["replay", "export", str(tmp_path / "missing.json")]) == 2
    assert "missing.json: cannot read" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "game.json"), "--format", "jsonl"]) == 2
    assert "goes with export" in capsys.readouterr().err


# -- the command line: options and the file in any order (issue 25) ----------------------------------------------


@pytest.fixture
def saved_game(tmp_path: Path) -> Path:
    from mjarena.cli import main

    target = tmp_path / "game.json"
    assert main(["match", "--quiet", "--seed", "5", "--replay", str(target), *(["--bot", "builtin:greedy"] * 4)]) == 0
    return target


@pytest.mark.parametrize("order", ["file first", "options first", "mixed"])
def test_replay_export_takes_its_options_and_the_file_in_any_order(order: str, saved_game: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from mjarena.cli import main

    out = saved_game.with_name("x.html")
    words = {"file first": [str(saved_game), "--format", "html", "--out", str(out)],
             "options first": ["--format", "html", "--out", str(out), str(saved_game)],
             "mixed": ["--out", str(out), str(saved_game), "--format", "html"]}[order]
    assert main(["replay", "export", *words]) == 0
    assert out.read_text().startswith("<!doctype html>")


def test_replay_export_errors_show_the_usage_of_export(saved_game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mjarena.cli import main

    with pytest.raises(SystemExit) as caught:
        main(["replay", "export", str(saved_game), "--bogus"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: mjarena replay export") and "unrecognized arguments: --bogus" in err


def test_a_format_given_to_replay_without_export_says_to_use_export(saved_game: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from mjarena.cli import main

    assert main(["replay", "--format", "html", str(saved_game)]) == 2
    assert "--format goes with export: mjarena replay export" in capsys.readouterr().err
    assert main(["replay", str(saved_game)]) == 0  # the file alone still prints the game
    assert "NOI 2014" in capsys.readouterr().out
