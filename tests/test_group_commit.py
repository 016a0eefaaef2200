"""The tournament's group commit of ``games.jsonl``: lines in order, all on disk when it says so, errors raised."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from mjarena import files
from mjarena.arena.results_file import GroupCommit


@pytest.mark.parametrize("syncfs", [True, False], ids=["syncfs", "fsync"])
def test_every_line_is_written_in_order_and_its_replay_synced_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    syncfs: bool) -> None:
    """With ``syncfs`` the replays' folder is synced (its whole filesystem), without it each replay."""
    synced: list[str] = []
    real_fsync, real_syncfs = os.fsync, files._syncfs()
    if syncfs and real_syncfs is None:
        pytest.skip("no syncfs(2) here")

    def spy(real: Callable[[int], None]) -> Callable[[int], None]:
        def sync(descriptor: int) -> None:
            synced.append(os.readlink(f"/proc/self/fd/{descriptor}"))
            real(descriptor)
        return sync

    monkeypatch.setattr(os, "fsync", spy(real_fsync))
    monkeypatch.setattr(files, "_syncfs", lambda: spy(real_syncfs) if syncfs else None)  # type: ignore[arg-type]
    replays = []
    for number in range(50):
        replay = tmp_path / f"g{number:02d}.json"
        replay.write_text("{}\n")
        replays.append(replay)
    with open(tmp_path / "games.jsonl", "a", encoding="utf-8") as out, GroupCommit(out) as commits:
        for number, replay in enumerate(replays):
            commits.put([(f'{{"game": {number}}}\n', replay)])
            if number == 24:
                commits.wait()
                assert (tmp_path / "games.jsonl").read_text().count("\n") == 25
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert lines == [f'{{"game": {number}}}' for number in range(50)]
    journal = str(tmp_path / "games.jsonl")
    assert synced[-1] == journal
    for replay in replays:  # each replay synced (or its folder) before the journal sync that follows it
        name = str(replay.parent if syncfs else replay)
        assert name in synced
        assert journal in synced[synced.index(name):]
    assert synced.count(journal) <= 50
    if syncfs:  # one syncfs per batch, never one per replay
        assert synced.count(str(tmp_path)) == synced.count(journal) < 50


def test_a_failing_commit_is_raised_in_the_main_thread(tmp_path: Path) -> None:
    out = open(tmp_path / "games.jsonl", "a", encoding="utf-8")  # noqa: SIM115 - closed under the committer
    commits = GroupCommit(out)
    out.close()
    commits.put([('{"game": 1}\n', tmp_path / "missing.json")])
    with pytest.raises(ValueError, match="closed file"):
        commits.wait()
    with pytest.raises(ValueError, match="closed file"):
        commits.put([('{"game": 2}\n', tmp_path / "missing.json")])
    with pytest.raises(ValueError, match="closed file"):
        commits.__exit__(None, None, None)
