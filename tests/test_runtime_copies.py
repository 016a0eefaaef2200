"""Each seat slot's own copies of its runtime (issue 36, :mod:`mjarena.sandbox.copies`): what a program needs,
copies that are other inodes, made once and made again when their source changes, in a folder of the judge's."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from mjarena.sandbox import copies


def test_a_native_program_needs_its_loader_and_libraries_and_python_its_standard_library() -> None:
    true = os.path.realpath("/bin/true")
    trees, files = copies.runtime_paths(true)
    assert trees == () and true in files
    assert {os.path.basename(path) for path in files} >= {"libc.so.6", "ld-linux-x86-64.so.2"}
    python = os.path.realpath(sys.executable)
    trees, files = copies.runtime_paths(python)
    assert [Path(tree, "os.py").is_file() for tree in trees] == [True]  # the standard library, one tree
    assert python in files
    copied = {Path(path).relative_to(trees[0]).parts[0] for path in copies._tree_files(trees[0])}
    assert "site-packages" not in copied and "json" in copied


def test_a_copy_is_another_inode_reused_until_its_source_changes(tmp_path: Path) -> None:
    source = tmp_path / "source" / "lib.so"
    source.parent.mkdir()
    source.write_bytes(b"one")
    folder = str(tmp_path / "copies")
    first = copies.copy_of(folder, 0, str(source))
    other = copies.copy_of(folder, 1, str(source))
    inodes = {os.stat(path).st_ino for path in (source, first, other)}
    assert len(inodes) == 3, "each slot's copy has pages of its own"
    assert Path(first).read_bytes() == b"one"
    made = os.stat(first).st_ino
    assert copies.copy_of(folder, 0, str(source)) == first and os.stat(first).st_ino == made  # reused, not remade
    source.write_bytes(b"two, longer")
    assert Path(copies.copy_of(folder, 0, str(source))).read_bytes() == b"two, longer"  # made again


def test_the_copies_folder_must_be_the_judges_alone(tmp_path: Path) -> None:
    folder = tmp_path / "copies"
    folder.mkdir()
    folder.chmod(0o777)
    with pytest.raises(PermissionError, match="no one else can write to"):
        copies.copy_of(str(folder), 0, shutil.which("true") or "/bin/true")


def test_a_script_needs_what_its_interpreter_needs(tmp_path: Path) -> None:
    script = tmp_path / "bot.sh"
    script.write_text("#!/bin/sh\necho PASS\n")
    trees, files = copies.runtime_paths(str(script), own=True)
    assert trees == ()
    assert "/bin/sh" in files and os.path.realpath("/bin/sh") in files  # the path it names, and the real file
    assert any(os.path.basename(path) == "libc.so.6" for path in files)
    assert str(script) not in files  # the bot's own file is shown as it is, not copied


def test_the_contest_gives_each_seat_its_copies_and_match_does_when_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Private runtimes are the contest's box, and ``--private-runtimes`` elsewhere (off by default, so that a
    bot writer's own bots keep their packages): a Python bot plays whole games from its slot's copies."""
    from types import SimpleNamespace

    from mjarena.cli import main
    from mjarena.contest.sources import contest_sandbox
    from mjarena.sandbox import Sandbox

    assert contest_sandbox(SimpleNamespace(sandbox="bwrap")).private_runtimes
    assert not Sandbox().private_runtimes
    if shutil.which("bwrap") is None and not os.environ.get("MJARENA_REQUIRE_SANDBOX"):
        pytest.skip("no bwrap here")
    bot = Path(__file__).parent.parent / "examples" / "bots" / "restart_bot.py"
    replay = tmp_path / "replay.json"
    args = ["match", "--quiet", "--sandbox", "bwrap", "--private-runtimes", "--seed", "3", "--replay", str(replay),
            "--bot", f"{sys.executable} {bot}", "--bot", "builtin:greedy", "--bot", "builtin:greedy",
            "--bot", f"{sys.executable} {bot}"]
    assert main(args) == 0, capsys.readouterr().err
    seats = json.loads(replay.read_text())["seats"]
    assert [seat["status"] for seat in seats if seat.get("status") == "error"] == []
