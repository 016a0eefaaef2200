"""Files mjarena writes follow the umask, as any other program's do (issue 25: exported pages and replays were
0600 whatever the umask, through the temporary file of the atomic write)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mjarena.files import current_umask, write_atomically


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_an_atomic_write_gets_the_mode_the_umask_allows(umask: int, mode: int, tmp_path: Path) -> None:
    before = os.umask(umask)
    try:
        assert current_umask() == umask
        write_atomically(tmp_path / "game.html", "<p>a game</p>\n")
    finally:
        os.umask(before)
    assert stat.S_IMODE((tmp_path / "game.html").stat().st_mode) == mode


def test_a_replay_written_by_the_cli_is_readable_by_others_under_umask_022(tmp_path: Path) -> None:
    replay = tmp_path / "game.json"
    subprocess.run(
        [sys.executable, "-m", "mjarena.cli", "match", "--quiet", "--seed", "3", "--replay", str(replay),
         *(["--bot", "builtin:greedy"] * 4)],
        check=True, capture_output=True, preexec_fn=lambda: os.umask(0o022),
    )
    assert stat.S_IMODE(replay.stat().st_mode) == 0o644
