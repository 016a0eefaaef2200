"""`mjarena thupc` from the outside: exit codes, messages on stderr, files written or not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mjarena.tiles import format_tiles
from mjarena.variants.thupc2021 import shuffled_wall


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mjarena.cli", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def deck_text(seed: int) -> str:
    return "\n".join(format_tiles(shuffled_wall(seed)).split()) + "\n"


def test_stdin_deck_prints_the_log() -> None:
    result = run("thupc", stdin=deck_text(5))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("A IN ") and lines[-1] in ("DRAW", *(f"{s} WIN" for s in "ABCD"))


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("", "mjarena thupc: stdin: empty input: no tiles"),
        ("1M\nQQ\n", "mjarena thupc: stdin: line 2: unknown tile name 'QQ' (tile 2)"),
        ("1M\n" * 5, "mjarena thupc: stdin: line 5: a fifth copy of 1M (tile 5)"),
    ],
)
def test_bad_input_is_one_line_and_status_2(stdin: str, message: str) -> None:
    result = run("thupc", stdin=stdin)
    assert result.returncode == 2
    assert result.stderr.strip() == message
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_short_deck_is_named(tmp_path: Path) -> None:
    deck = tmp_path / "short.in"
    deck.write_text("\n".join(deck_text(1).split()[:147]))
    result = run("thupc", str(deck))
    assert result.returncode == 2
    assert result.stderr.strip() == f"mjarena thupc: {deck}: a THUPC 2021 deck has 148 tiles, this one has 147"


def test_out_dir_writes_good_decks_and_leaves_nothing_for_bad_ones(tmp_path: Path) -> None:
    good, bad, missing = tmp_path / "good.in", tmp_path / "bad.in", tmp_path / "missing.in"
    good.write_text(deck_text(2))
    bad.write_text(deck_text(2).replace("PASS", "PAS", 1))
    out = tmp_path / "out"
    result = run("thupc", str(good), str(bad), str(missing), "--out-dir", str(out))
    assert result.returncode == 2
    errors = result.stderr.splitlines()
    assert len(errors) == 2
    assert "bad.in: line" in errors[0] and "'PAS'" in errors[0]
    assert "missing.in: cannot read" in errors[1]
    assert sorted(p.name for p in out.iterdir()) == ["good.out"]
    assert run("thupc", str(good)).stdout == (out / "good.out").read_text()


def test_json_lines_with_out_dir(tmp_path: Path) -> None:
    deck = tmp_path / "d.in"
    deck.write_text(deck_text(3))
    assert run("thupc", str(deck), "--json", "--out-dir", str(tmp_path)).returncode == 0
    assert (tmp_path / "d.jsonl").read_text().startswith('{"type": "deal", "seat": "A"')


def test_several_decks_need_an_out_dir(tmp_path: Path) -> None:
    result = run("thupc", "a.in", "b.in")
    assert result.returncode == 2 and "several decks need --out-dir" in result.stderr
