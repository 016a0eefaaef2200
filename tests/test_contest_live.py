"""A game followed as it is played (issue 44: running games link to their live view in the console and on a team's
page): the worker's live file, the live route (its moves so far in the replay viewer, then its replay), and who may
follow it (the freeze, hidden teams, a bot's box).

The contest is test_contest.py's: real games of the test bot, an inline executor, the scheduler stepped by hand.
"""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from mjarena.agents.errors import JudgeError
from mjarena.arena.match import run_match
from mjarena.contest.live import live_replay, live_view, read_live
from mjarena.contest.live_file import LiveFile, live_path
from test_contest import BOT, Server
from test_contest_admin import console
from test_contest_e2e import page  # noqa: F401  (the Chromium page fixture)
from test_contest_organiser_browser import Live
from test_i18n_pages import ZH, english_left

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
    writer.flush()
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
    shown = client.get(f"/live/{game}")
    assert shown.status_code == 200 and f'data-live="/api/live/{game}"' in shown.text
    chinese = client.get(f"/api/live/{game}", headers=ZH).json()  # the moves so far in the reader's language
    moves = html.escape(" ".join(step["text"] for step in chinese["steps"]))
    assert len(chinese["steps"]) == events + 1 and english_left(moves) == set() and "摸" in moves
    assert '<html lang="zh-CN"' in client.get(f"/live/{game}", headers=ZH).text
    client.cookies.clear()
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
    server.scheduler.judge_failed(game, JudgeError("the box's init did not answer"))  # played again from its start
    assert client.get(f"/api/live/{game}", headers=server.auth("red")).json() == {"live": True, "waiting": True}


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


class HeldJudge:
    """The judge playing round 1's one game in a thread, held in the game's live file's writer once each bound of
    ``at`` (decisions asked) is reached, until the test lets it go on: a game paused mid-way, as a slow bot would."""

    def __init__(self, server: Server, monkeypatch: Any, at: Sequence[int]) -> None:
        self.gates = [threading.Event() for _ in at]
        self.paused = [threading.Event() for _ in at]
        self.events: list[int] = []  # the events written at each pause
        write = LiveFile.__call__

        def held(writer: LiveFile, wall: Any, events: Any, decisions: Any) -> None:
            write(writer, wall, events, decisions)
            for number, bound in enumerate(at):
                if len(decisions) >= bound and not self.gates[number].is_set():
                    if not self.paused[number].is_set():
                        writer.flush()  # as a turn waiting on a slow bot finds the turns before it written
                        self.events.append(len(events))
                        self.paused[number].set()
                    self.gates[number].wait(60)

        monkeypatch.setattr(LiveFile, "__call__", held)
        assert server.scheduler.step()
        (self.game,) = server.contest.db.games(round_no=1)
        self.thread = threading.Thread(target=server.scheduler.step)
        self.thread.start()

    def pause(self, number: int) -> int:
        """Wait for pause ``number``; the events written then."""
        assert self.paused[number].wait(60)
        return self.events[number]

    def go_on(self, number: int) -> None:
        """Let the game go on from pause ``number``."""
        self.gates[number].set()

    def finish(self) -> None:
        for gate in self.gates:
            gate.set()
        self.thread.join(60)


@pytest.mark.parametrize("sandbox", sandbox_kinds())
def test_a_game_is_followed_as_it_is_played_then_shows_its_replay(tmp_path: Path, monkeypatch: Any,
                                                                  sandbox: str) -> None:
    server = Server(tmp_path / "cup", teams=["red", "blue"], sandbox=sandbox, time_limit=5.0)
    root = server.contest.root
    assert server.upload("red", peeking_bot(root)).status_code == 201
    server.upload("blue")
    judge = HeldJudge(server, monkeypatch, at=[24])
    game = judge.game
    try:
        events = judge.pause(0)
        assert f'href="/live/{game.id}"' in server.client.get("/teams/red").text
        view = server.client.get(f"/api/live/{game.id}").json()
    finally:
        judge.finish()
    assert view["live"] and len(view["steps"]) == events + 1
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


def test_the_live_page_follows_the_game_then_opens_its_replay_in_chromium(tmp_path: Path, monkeypatch: Any,
                                                                         page: Any) -> None:  # noqa: F811
    server = Server(tmp_path / "cup", teams=["red", "blue"], time_limit=5.0)
    for team in ("red", "blue"):
        server.upload(team)
    judge = HeldJudge(server, monkeypatch, at=[20, 50])
    game = judge.game.id
    try:
        first = judge.pause(0)
        with Live(server) as live:
            page.goto(f"{live.url}/teams/red")
            page.click(f'a[href="/live/{game}"]')
            page.wait_for_selector("#live")
            assert page.inner_text("#counter") == f"{first} / {first}"  # at the last move so far
            page.keyboard.press("Home")  # the reader goes back: the moves that come keep them there
            judge.go_on(0)
            second = judge.pause(1)
            page.wait_for_selector(f"#counter:text-is('0 / {second}')")  # asked for again: shown anew
            assert f"{second}" in page.inner_text("#live") and page.locator("#outcome").count() == 0
            judge.finish()
            page.wait_for_url(f"{live.url}/replays/{game}#0")
            page.wait_for_selector("body[data-ready=replay]")
            assert page.locator("#live").count() == 0 and page.locator("#outcome").count() == 1
    finally:
        judge.finish()
