"""A game followed as it is played (issue 44: running games link to their live view in the console and on a team's
page): the worker's live file, the live route (its moves so far in the replay viewer, then its replay), and who may
follow it (the freeze, hidden teams, a bot's box).

The contest is test_contest.py's: real games of the test bot, an inline executor, the scheduler stepped by hand.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from mjarena.arena.match import run_match
from mjarena.contest.live import live_replay, live_view, read_live
from mjarena.contest.live_file import LiveFile, live_path
from test_contest import BOT, Server
from test_contest_admin import console

from boxes import sandbox_kinds


def started_game(server: Server) -> int:
    """Plan the next round (its one game) and mark its game started, as the scheduler does before it plays it."""
    assert server.scheduler.step()
    (game,) = server.contest.db.games(round_no=server.contest.round_number())
    current = server.contest.db.current_submissions()
    pinned = {seat.seat: current[server.contest.db.team(seat.team).id].id for seat in game.seats if seat.team}
    with server.contest.db.transaction() as tx:
        tx.start_game(game.id, server.clock(), pinned)
    return game.id


def write_turns(path: Path, turns: int) -> int:
    """Write a live file of a game of built-in players, its first ``turns`` turns alone; the events written."""
    writer = LiveFile(path, "noi2014", ["red v1", "blue v1", "builtin:greedy", "builtin:greedy"])
    written = []

    def watch(wall: Any, events: Any, decisions: Any) -> None:
        if len(written) <= turns:
            writer(wall, events, decisions)
            written.append(len(events))

    run_match(["builtin:greedy"] * 4, seed=5, watch=watch)
    writer.close()
    return written[-1]


def test_the_live_file_is_read_up_to_its_last_whole_line_and_a_bad_line_ends_it(tmp_path: Path) -> None:
    path = tmp_path / "live" / "1.jsonl"
    events = write_turns(path, 30)
    lines = read_live(path)
    assert lines is not None and len(live_replay(lines)["events"]) == events
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"events": [{"type": "pla')  # a turn being written
    assert read_live(path) == lines
    path.write_bytes(whole + b'\xff\xfe not a turn\n{"events": [], "decisions": []}\n')  # damaged: the rest unread
    assert read_live(path) == lines
    view = live_view(lines)
    assert view["live"] and view["outcome"] is None and len(view["steps"]) == events + 1
    path.write_bytes(b'{"rules": "noi2014"')  # not even its first line
    assert read_live(path) is None


def test_running_games_link_to_their_live_view_in_the_console_and_on_their_teams_page(tmp_path: Path) -> None:
    server = Server(tmp_path / "cup", teams=["red", "blue"])
    for team in ("red", "blue"):
        server.upload(team)
    game = started_game(server)
    assert f'href="/live/{game}"' in server.client.get("/teams/red").text
    assert f'href="/live/{game}"' in server.client.get("/rounds").text
    console(server)
    assert server.client.get("/admin/games").text.count(f'href="/admin/live/{game}"') == 2  # running now; its round
    assert f'href="/admin/live/{game}"' in server.client.get("/admin/teams/red").text


def test_the_live_route_keeps_the_freeze_hidden_teams_and_a_torn_line(tmp_path: Path) -> None:
    server = Server(tmp_path / "cup", teams=["red", "blue"], freeze=5.0)  # frozen from 1300 s
    for team in ("red", "blue"):
        server.upload(team)
    game = started_game(server)
    client = server.client
    assert client.get(f"/api/live/{game}").json() == {"live": True, "waiting": True}  # no move yet
    events = write_turns(live_path(server.contest.root, game), 40)
    with live_path(server.contest.root, game).open("ab") as torn:
        torn.write(b'{"events": [{"type": "dr')
    view = client.get(f"/api/live/{game}").json()
    assert view["live"] and len(view["steps"]) == events + 1 and view["seats"][0]["bot"] == "red v1"
    page = client.get(f"/live/{game}")
    assert page.status_code == 200 and f'data-live="/api/live/{game}"' in page.text
    server.clock.now = 1400.0  # the freeze: the public follows no game, the teams in it and the organiser do
    for path in (f"/api/live/{game}", f"/live/{game}"):
        assert client.get(path).status_code == 404, path
    assert "/live/" not in client.get("/teams/red").text and "/live/" not in client.get("/rounds").text
    assert client.get(f"/api/live/{game}", headers=server.auth("red")).status_code == 200
    server.clock.now = 1100.0
    csrf = console(server)
    server.client.post("/admin/teams/red/flags", data={"csrf": csrf, "flag": "hidden", "on": "1"})
    assert client.get(f"/admin/live/{game}/view").json()["live"]  # the organiser's
    assert f'data-live="/admin/live/{game}/view"' in client.get(f"/admin/live/{game}").text
    client.cookies.clear()  # the public: a hidden team's game is no game
    for path in (f"/api/live/{game}", f"/live/{game}"):
        assert client.get(path).status_code == 404, path
    assert "/live/" not in client.get("/teams/blue").text
    assert client.get(f"/api/live/{game}", headers=server.auth("red")).status_code == 200  # its own


PEEK = '''
import os as _os
def _peek():  # what this bot sees of the contest's live files
    try:
        names = _os.listdir(LIVE)
        return "peeked: " + open(_os.path.join(LIVE, names[0])).read(40) if names else "peeked: none yet"
    except OSError as error:
        return "no live file: " + type(error).__name__
'''


def peeking_bot(root: Path) -> bytes:
    """The test bot, telling in its ``debug`` output what it could read of the contest's live files."""
    source = BOT.decode().replace("import sys\n", f"import sys\nLIVE = {str(root / 'live')!r}\n{PEEK}", 1)
    return source.replace('"debug": f"{MARK} debug at {request}"', '"debug": _peek()').encode()


@pytest.mark.parametrize("sandbox", sandbox_kinds())
def test_a_game_is_followed_as_it_is_played_then_shows_its_replay(tmp_path: Path, monkeypatch: Any,
                                                                  sandbox: str) -> None:
    server = Server(tmp_path / "cup", teams=["red", "blue"], sandbox=sandbox, time_limit=5.0)
    root = server.contest.root
    assert server.upload("red", peeking_bot(root)).status_code == 201
    server.upload("blue")
    go, paused, seen = threading.Event(), threading.Event(), []
    write = LiveFile.__call__

    def held(self: LiveFile, wall: Any, events: Any, decisions: Any) -> None:  # the judge stops mid-game
        write(self, wall, events, decisions)
        if len(decisions) >= 24 and not go.is_set():
            seen.append(len(events))
            paused.set()
            go.wait(60)

    monkeypatch.setattr(LiveFile, "__call__", held)
    assert server.scheduler.step()
    (game,) = server.contest.db.games(round_no=1)
    judge = threading.Thread(target=server.scheduler.step)
    judge.start()
    try:
        assert paused.wait(60)
        assert f'href="/live/{game.id}"' in server.client.get("/teams/red").text
        view = server.client.get(f"/api/live/{game.id}").json()
    finally:
        go.set()
        judge.join(60)
    assert view["live"] and len(view["steps"]) == seen[0] + 1
    assert server.client.get(f"/api/live/{game.id}").json() == {"finished": True}
    assert not live_path(root, game.id).exists()
    moved = server.client.get(f"/live/{game.id}", follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == f"/replays/{game.id}"
    replay = server.client.get(f"/api/replays/{game.id}").json()
    assert [step["text"] for step in replay["steps"][:len(view["steps"])]] == [step["text"] for step in view["steps"]]
    turns = server.client.get(f"/api/games/{game.id}/turns", headers=server.auth("red")).json()
    (red,) = turns["seats"].values()
    said = {turn.get("debug", "").split(":")[0] for turn in red["turns"]}
    assert said == ({"no live file"} if sandbox == "bwrap" else {"peeked"}), json.dumps(red["turns"][:2])
