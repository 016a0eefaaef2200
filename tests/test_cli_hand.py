"""`mjarena hand` from the outside: text and JSON output, stdin batches, errors as one line and status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from mjarena.cli import main


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mjarena.cli", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_text_output_of_a_winning_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "123m456p789s22m11z*"]) == 0
    out = capsys.readouterr().out
    assert "can win: yes" in out and "distance: 0" in out
    assert "  123m 456p 789s 111z(*) 22m" in out
    assert "discards (best first):" in out


def test_waits_with_unseen_counts_and_added_wildcards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "123m456p789s22m1z", "--wild", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 wildcard," in out and "waits: 1z (3 left)" in out


@pytest.mark.parametrize(
    ("tiles", "rules", "melds", "can_win"),
    [
        ("W1 W1", "noi2014", 4, True),  # NOI names
        ("1M 1M", "thupc2021", 4, True),  # THUPC names
        ("1M BAIDA", "thupc2021", 4, False),  # wildcards off: BAIDA is a dead tile
        ("1M BAIDA", "baida", 4, False),  # 1m is no 2-5-8 pair
        ("2m BAIDA", "baida", 4, True),  # mpsz with a BAIDA token
        ("1111m*", "baida", 3, False),  # a fifth 1m, but 1m is no 2-5-8 pair
    ],
)
def test_notations_and_rules(tiles: str, rules: str, melds: int, can_win: bool,
                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", tiles, "--rules", rules, "--melds", str(melds), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["can_win"] is can_win


def test_json_arrangements_show_the_wildcards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "1123m*", "--melds", "3", "--rules", "thupc2021", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["can_win"] is False  # wildcards are off under thupc2021
    assert main(["hand", "1123m", "--wild", "1", "--melds", "3", "--rules", "baida", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [a["text"] for a in report["arrangements"]] == []  # 11m is no 2-5-8 pair
    assert main(["hand", "2234m*", "--melds", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    texts = [a["text"] for a in report["arrangements"]]
    assert "234m 22m(*)" in texts
    assert {"type": "pair", "tiles": "22m(*)", "kinds": [1, 1], "wild": [1]} in report["arrangements"][
        texts.index("234m 22m(*)")]["groups"]


def test_stdin_lines_with_a_bad_one() -> None:
    result = run("hand", "--json", "-", "--melds", "4", stdin="2m*\n12x\n\n5m5m\n")
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["can_win"] is True and lines[2]["can_win"] is True
    assert "error" in lines[1] and "12x" in lines[1]["error"]
    for key in ("can_win", "distance", "waits", "arrangements"):
        assert key in lines[0]
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["11111m"], "a fifth copy of 1M"),
        (["123m"], "wrong number of tiles (相公)"),
        (["123m", "--rules", "mcr"], "unknown rule set 'mcr'"),
        (["12x"], "unknown tile name"),
        (["11m", "--melds", "7"], "at most 4 sets laid down"),
    ],
)
def test_errors_are_one_line_and_status_2(args: list[str], message: str) -> None:
    result = run("hand", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr and "Traceback" not in result.stderr


def test_melds_given_as_sets_count_as_seen(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "23m456p55m", "--melds", "111m,555z", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["melds"], report["meld_tiles"]) == (2, ["111m", "555z"])
    assert {w["tile"]: w["unseen"] for w in report["waits"]} == {"1m": 1, "4m": 4}  # three 1m are in the meld


@pytest.mark.parametrize(
    ("melds", "problem"),
    [("124m", "124m is not a run, a triplet or a kong"), ("5", "at most 4"),
     ("1111m,123m", "fifth copy of 1M"), ("11x", "11x")],
)
def test_bad_melds_are_usage_errors(melds: str, problem: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hand", "23m456p55m", "--melds", melds]) == 2
    assert problem in capsys.readouterr().err
