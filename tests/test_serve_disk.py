"""``mjarena serve``'s disk and index (issue 43, point 7): ``played/`` under a quota, the oldest removed first and
a share for each client; uploads within a share per client, kept without unknown keys and refused beyond what a
game of their rules can make; the index kept in memory (a request reads no file) and paged."""

from __future__ import annotations

import builtins
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mjarena.web.app import create_app
from mjarena.web.library import Library
from test_web_attacks import _replay, _upload


def _tiny(seed: int) -> dict[str, Any]:
    """A file the index lists as a replay (it reads the rules and the seats; the viewer checks the rest)."""
    return {"format": "mjarena-replay", "rules": "noi2014", "seed": seed, "wall": [], "events": [], "decisions": [],
            "seats": [{"seat": n, "bot": "builtin:greedy", "status": "in", "points": 0} for n in range(4)]}


def _listed(page: str, count: int) -> int:
    """How many of ``g0.json`` to ``g{count - 1}.json`` a page of the index names."""
    return sum(f"g{n}.json" in page or f"g{n:03}.json" in page for n in range(count))


def _played(library: Library) -> list[str]:
    return sorted(path.name for path in (library.root / "played").iterdir())


def test_games_played_are_kept_within_a_quota_the_oldest_removed_first(tmp_path: Path) -> None:
    """``played/`` grew ~20 KiB a finished game without end (one client: 36 to 143 MiB an hour)."""
    app = create_app(tmp_path, played_files=3, share=1.0)
    library: Library = app.state.library
    assert app.state.room.keep == library.save_played, "the play page's games are saved within the quota"
    names = [library.save_played(_tiny(n), f"game{n}.json", "10.0.0.1") for n in range(5)]
    assert _played(library) == ["game2.json", "game3.json", "game4.json"]
    listed = [item["name"] for item in library.replays()]
    assert listed == names[:1:-1], "the index forgets the games removed"
    size = (library.root / names[-1]).stat().st_size
    small = Library(tmp_path / "bytes", played_total=2 * size, share=1.0)  # by bytes as well as by files
    for n in range(4):
        small.save_played(_tiny(n), f"game{n}.json", "10.0.0.1")
    assert _played(small) == ["game2.json", "game3.json"]


def test_a_client_keeps_only_its_share_of_the_games_played(tmp_path: Path) -> None:
    """One client's games push out its own oldest once it holds its share, never another client's."""
    library = Library(tmp_path, played_files=8, share=0.25)
    library.save_played(_tiny(100), "other.json", "192.0.2.7")
    for n in range(6):
        library.save_played(_tiny(n), f"mine{n}.json", "2001:db8::/64")
    assert _played(library) == ["mine4.json", "mine5.json", "other.json"]


def test_a_client_may_fill_only_its_share_of_the_uploads(tmp_path: Path) -> None:
    """Three addresses filled the shared 256 MiB in under a minute; then a fourth visitor's 19 KB replay got 413."""
    raws = [json.dumps(_replay(seed)).encode() for seed in (1, 2, 3)]
    app = create_app(tmp_path, upload_files=8, share=0.25)
    greedy = TestClient(app, client=("203.0.113.5", 4000))
    assert [_upload(greedy, raw).status_code for raw in raws[:2]] == [201, 201]
    refused = _upload(greedy, raws[2])
    assert refused.status_code == 413 and "its share" in refused.json()["error"]
    assert _upload(TestClient(app, client=("203.0.113.6", 4000)), raws[2]).status_code == 201


def test_a_padded_replay_is_refused_and_unknown_keys_are_not_kept(tmp_path: Path) -> None:
    """Replays padded to ~5 MiB with keys of their own were accepted and kept whole."""
    client = TestClient(create_app(tmp_path))
    padded = {**_replay(4), "pad": "x" * (3 << 20)}
    answer = _upload(client, json.dumps(padded).encode())
    assert answer.status_code == 400 and "more than a game of noi2014" in answer.json()["error"]
    inside = _replay(4)
    inside["decisions"][0]["response"] = "PLAY W1" + " " * (3 << 20)  # a known key, beyond what the rules make
    assert _upload(client, json.dumps(inside).encode()).status_code == 400
    marked = {**_replay(4), "note": "hello"}
    marked["events"][0]["why"] = "?"
    kept = _upload(client, json.dumps(marked).encode())
    assert kept.status_code == 201, kept.text[:300]
    stored = json.loads((tmp_path / kept.json()["name"]).read_text())
    assert "note" not in stored and "why" not in stored["events"][0] and stored["events"] == _replay(4)["events"]
    assert not (tmp_path / "uploads" / "pad").exists() and len(list((tmp_path / "uploads").iterdir())) == 1


def test_the_index_reads_no_file_per_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/`` read every file on every request (a walk, a resolve and a stat of each: 0.67 to 1.25 s at 2,000
    games).  Now a request costs a stat per folder; a file added by another program is read once, when its
    folder's time says so."""
    for n in range(30):
        (tmp_path / "t").mkdir(exist_ok=True)
        (tmp_path / ("t" if n % 2 else ".") / f"g{n}.json").write_text(json.dumps(_tiny(n)))
    for folder in (tmp_path, tmp_path / "t"):  # settled folders (a time as new as the listing is listed again)
        os.utime(folder, ns=(time.time_ns() - 10**9,) * 2)
    client = TestClient(create_app(tmp_path))
    assert _listed(client.get("/").text, 30) == 30
    calls: list[str] = []
    for module, name in ((os, "stat"), (os, "lstat"), (builtins, "open"), (os, "scandir")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _real=real, _name=name, **k: calls.append(_name) or _real(*a, **k))
    page = client.get("/")
    assert _listed(page.text, 30) == 30
    assert "open" not in calls and "scandir" not in calls and len(calls) <= 4, calls
    calls.clear()
    (tmp_path / "t" / "new.json").write_text(json.dumps(_tiny(99)))  # as a running tournament writes one
    assert "t/new.json" in client.get("/").text
    assert calls.count("open") == 1, calls


def test_the_index_is_paged(tmp_path: Path) -> None:
    """``/?page=N``: 50 a page, newest first; a page past the end shows the last."""
    for n in range(120):
        path = tmp_path / f"g{n:03}.json"
        path.write_text(json.dumps(_tiny(n)))
        os.utime(path, (1_000_000 + n, 1_000_000 + n))
    client = TestClient(create_app(tmp_path))
    first, third = client.get("/").text, client.get("/?page=3").text
    assert "g119.json" in first and "g070.json" in first and "g069.json" not in first
    assert "g019.json" in third and "g000.json" in third and "g020.json" not in third
    assert _listed(client.get("/?page=9").text, 120) == 20
    assert client.get("/?page=x").status_code == 400


def test_a_file_made_in_the_tick_of_its_folders_listing_is_found(tmp_path: Path) -> None:
    """A folder's time moves by the kernel's coarse clock: a replay written just after the folder was listed may
    leave its time as it was.  Such a recent time is not trusted: the next refresh lists the folder again (here
    the folder's time is put back by hand after the write, and set ahead of now, so the listing sees it as new)."""
    from mjarena.web.index import Index

    folder = tmp_path / "played"
    folder.mkdir()
    ahead = time.time_ns() + 10**9
    os.utime(folder, ns=(ahead, ahead))
    index = Index(tmp_path, lambda path: {"name": path.name, "modified": 0.0})
    index.refresh()
    assert index.replays() == []
    (folder / "late.json").write_text("{}")
    os.utime(folder, ns=(ahead, ahead))  # the folder's time as if the file came in the same tick
    index.refresh()
    assert [summary["name"] for summary in index.replays()] == ["late.json"]
