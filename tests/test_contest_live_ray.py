"""A game played on a Ray node followed as it is played (issue 44: running games link to their live view): the node's
worker hands its live lines to the relay on the server's machine (:mod:`mjarena.contest.live_relay`), which writes
the game's live file there; and what the relay refuses from a broken node.

Before the relay a game on a Ray node wrote nothing the server could read: its live view said it could not be
followed.  The Ray test starts a local Ray instance (one node, 2 CPUs) through the contest's own
:class:`~mjarena.arena.ray_executor.RayExecutor`, which treats it as a cluster (``remote``: builds shipped, no live
file's path in the task); the red bot waits at its 12th request until the test lets it go on: a game held mid-way.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from mjarena.contest.live_file import live_path
from mjarena.contest.live_relay import LiveRelay
from test_contest import BOT, Server

HOLD = '''
import os as _os
_ASKED = [0]
def _held():  # at the 12th request, wait until the test lets the game go on
    _ASKED[0] += 1
    while _ASKED[0] == 12 and not _os.path.exists(GO):
        time.sleep(0.05)
'''


def holding_bot(go: Path) -> bytes:
    """The test bot, waiting at its 12th request until ``go`` exists."""
    source = BOT.decode().replace("import sys\n", f"import sys\nimport time\nGO = {str(go)!r}\n{HOLD}", 1)
    return source.replace("        words = request.split()\n", "        _held()\n        words = request.split()\n",
                          1).encode()


def test_the_relay_writes_only_its_games_files_within_their_bound_and_drops_a_play_that_is_over(
        tmp_path: Path) -> None:
    relay = LiveRelay(str(tmp_path), limit=64, games=2)
    line = b'{"events": [], "decisions": []}\n'
    for game_id, play, data in [("7", 1, line), (True, 1, line), (0, 1, line), (-3, 1, line), (7.0, 1, line),
                                ("../x", 1, line), (7, "1", line), (7, 1, line.decode()), (7, 1, b"no newline")]:
        assert relay.append(game_id, play, data) is False, (game_id, play, data)  # type: ignore[arg-type]
    assert not (tmp_path / "live").exists()
    assert relay.append(7, 1, line) and relay.append(7, 1, b"x" * 40 + b"\n") is False  # past the 64 bytes
    assert relay.append(7, 1, b"\n") is False and live_path(tmp_path, 7).read_bytes() == line  # given up there
    assert oct(live_path(tmp_path, 7).stat().st_mode & 0o777) == "0o600"
    assert oct((tmp_path / "live").stat().st_mode & 0o777) == "0o700"
    assert relay.append(8, 1, line) and relay.append(9, 1, line) is False  # two games' files at once, no more
    relay.done(8, 1)  # game 8 over: its place is free
    assert relay.append(6, 1, line) and relay.append(6, 1, line + line) is False  # given up at its bound
    assert live_path(tmp_path, 6).read_bytes() == line
    relay.done(6, 1)  # a file given up goes at its end too
    assert not live_path(tmp_path, 6).exists() and relay.append(8, 2, line)
    assert relay.append(7, 2, line + line) and live_path(tmp_path, 7).read_bytes() == line + line  # played again
    assert relay.append(7, 1, line) is False  # a late batch of the play before
    relay.done(7, 1)  # the play before said over late: the new play's file stays
    assert live_path(tmp_path, 7).read_bytes() == line + line
    relay.done(7, 2)
    assert not live_path(tmp_path, 7).exists() and relay.append(7, 2, line) is False  # late: never made again
    assert not live_path(tmp_path, 7).exists() and relay.append(9, 1, line)  # its place is free
    assert sorted(os.listdir(tmp_path / "live")) == ["8.jsonl", "9.jsonl"]


def _poll(ask: object, seconds: float = 120.0) -> object:
    """What ``ask()`` answers once it is not None, asked every 0.1 s (at most ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = ask()  # type: ignore[operator]
        if answer is not None:
            return answer
        time.sleep(0.1)
    raise AssertionError(f"nothing after {seconds} s")


def test_a_game_on_a_ray_node_is_followed_through_the_relay_then_shows_its_replay(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from mjarena.arena.node_check import NodeCheck
    from mjarena.arena.ray_executor import RayExecutor

    go = tmp_path / "go"
    server = Server(tmp_path / "cup", teams=["red", "blue"], time_limit=60.0)
    assert server.upload("red", holding_bot(go)).status_code == 201
    server.upload("blue")
    executor = RayExecutor(2, check=NodeCheck("none"))
    server.scheduler.executor = executor
    assert server.scheduler.step()
    (game,) = server.contest.db.games(round_no=1)
    judge = threading.Thread(target=server.scheduler.step)
    judge.start()
    try:
        def moves() -> object:
            answer = server.client.get(f"/api/live/{game.id}").json()
            return answer if "steps" in answer else None

        view = _poll(moves)
        running = server.contest.db.game(game.id)
        assert running is not None and running.state == "running"  # followed while the red bot is held
    finally:
        go.touch()
        judge.join(120)
        executor.close()
    assert isinstance(view, dict) and view["live"] and len(view["steps"]) > 1
    assert {seat["bot"] for seat in view["seats"]} >= {"red v1", "blue v1"}
    assert server.client.get(f"/api/live/{game.id}").json() == {"finished": True}
    assert not live_path(server.contest.root, game.id).exists()
    replay = server.client.get(f"/api/replays/{game.id}").json()
    assert [step["text"] for step in replay["steps"][:len(view["steps"])]] == [step["text"] for step in view["steps"]]
