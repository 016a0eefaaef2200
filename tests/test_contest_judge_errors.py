"""Issue 30, parts 4 and 5: a failure of the judge's own is never a team's result, and a finished contest stays
finished.

- A game the judge fails (a bot's build gone or evicted, its box that cannot start, the disk full, a worker that
  dies) is a judge error: nothing is recorded against a team, the game is played again with its wall and pinned
  versions and counted once, the console lists it, and after repeated failures it is held for the organiser.
- The builds of a game being played again (the organiser's *Play again*) are never evicted: before, an upload by
  any team during the replay evicted them, and the replay's result became the team's ``crash``.
- After the window's end, pause, resume and extend are refused; *Extend the window* and *End now* are the
  organiser's explicit, logged actions (in the console and as ``mjarena contest extend|end``).

The contest is test_contest.py's (real games of the test bot, an inline executor, the scheduler stepped by hand).
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from mjarena.agents.errors import JudgeError
from mjarena.arena.executors import LocalExecutor
from mjarena.arena.tournament import run_tournament
from mjarena.arena.tournament_settings import Entrant, Settings
from mjarena.builds.cache import remove
from mjarena.cli import main
from mjarena.contest.building import evict
from mjarena.contest.db import MAX_JUDGE_ERRORS, Transaction
from mjarena.rulesets import judge_rules
from mjarena.sandbox import Sandbox
from mjarena.tiles import format_tile
from test_contest import TEAMS, Inline, Server, play_round, version_of
from test_contest_admin import console

FOUR = TEAMS[:4]  # one table, no house bot: every seat is a team's


class Meddling(Inline):
    """The inline executor, with something done to the contest just before each of the first ``times`` games
    it plays (``times`` None: every game)."""

    def __init__(self, before: Callable[[], None], times: int | None = 1) -> None:
        self.before = before
        self.times = times

    def run(self, fn: Callable[[Any], Any], tasks: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
        for task in tasks:
            if self.times is None or self.times > 0:
                self.times = None if self.times is None else self.times - 1
                self.before()
            yield task, fn(task)


def four_teams(tmp_path: Path) -> Server:
    """A contest of four teams, each with a bot of its own (its own build folder), and no pause between a judge
    error and the game's next try."""
    server = Server(tmp_path / "contest", teams=FOUR)
    for team in FOUR:
        assert server.upload(team, version_of(f"{team}-v1")).status_code == 201
    assert len(server.contest.db.current_submissions()) == 4  # built
    server.scheduler.retry = 0.0
    return server


def build_key(server: Server, team: str, version: int) -> str:
    db = server.contest.db
    (submission,) = [s for s in db.submissions() if s.team == team and s.version == version]
    return db.build_records()[submission.id][0]


def results(server: Server, game_id: int) -> list[tuple[str | None, str | None, str | None, float | None]]:
    game = server.contest.db.game(game_id)
    assert game is not None
    return [(seat.team, seat.status, seat.reason, seat.points) for seat in game.seats]


def finished_round(server: Server) -> int:
    """Round 1, played; red then sends v2, so that red's v1 is pinned only by a finished game."""
    number = play_round(server)
    assert server.upload("red", version_of("red-v2")).status_code == 201
    assert server.contest.db.current_submissions()[1].version == 2
    return number


# -- attack 4: a build evicted under a replaying game ---------------------------------------------------------


def test_an_upload_during_a_replay_evicts_none_of_its_builds(tmp_path: Path) -> None:
    """The attack as it was: the organiser plays a finished game again; meanwhile any team's upload is built, and
    the builds no game needs are evicted (here an hour later, past every grace period).  Before, red's v1 (its
    game finished, red playing v2 now) was evicted under the replay: red's bot could not start and ``error
    crash`` replaced its real result.  Now a replaying game's pins are kept."""
    server = four_teams(tmp_path)
    finished_round(server)
    (game,) = server.contest.db.games(round_no=1)
    before, totals = results(server, game.id), server.contest.db.totals()
    key = build_key(server, "red", 1)
    removed: list[str] = []
    server.scheduler.executor = Meddling(lambda: removed.extend(evict(server.contest, now=time.time() + 3600)))
    assert server.scheduler.replay(game.id).result(timeout=120)
    assert key not in removed and (server.contest.root / "builds" / key).is_dir()
    assert results(server, game.id) == before and server.contest.db.totals() == totals
    assert all(status != "error" for _, status, _, _ in before)
    assert server.contest.db.judge_errors() == []
    # once the replay is over, nothing needs red's v1 any more: it goes at the next eviction
    assert key in evict(server.contest, now=time.time() + 3600)


def test_a_build_lost_under_a_replay_is_a_judge_error_and_the_replay_is_played_again(tmp_path: Path) -> None:
    """Whatever takes a replaying game's build (here: removed outright, as no eviction may), the game is the
    judge's error, not red's ``crash``: its result stands, the replay is played again (the build made again from
    its source) and gives the same result, counted once."""
    server = four_teams(tmp_path)
    finished_round(server)
    (game,) = server.contest.db.games(round_no=1)
    before, totals = results(server, game.id), server.contest.db.totals()
    key = build_key(server, "red", 1)
    server.scheduler.executor = Meddling(lambda: remove(server.contest.root / "builds", key))
    assert server.scheduler.replay(game.id).result(timeout=120)
    assert results(server, game.id) == before and server.contest.db.totals() == totals
    (error,) = server.contest.db.judge_errors()
    assert error.game_id == game.id and "cannot start" in error.what and key in error.what
    console(server)
    page = server.client.get("/admin").text
    assert f'data-game="{game.id}"' in page.split('id="judge-errors"', 1)[1] and "cannot start" in page
    assert "replayed · game" in page
    assert server.contest.db.pinned_submissions() == set()  # the replay over, its pins are released


# -- a judge error in a game being played ---------------------------------------------------------------------


def test_a_box_that_cannot_start_is_a_judge_error_and_the_game_is_played_again_once(tmp_path: Path) -> None:
    """Red's build is missing when its game starts (its box cannot start the program).  Before: red's ``crash``,
    recorded.  Now the game stays to be played, with its pinned versions and its wall, and is played again at
    the round's next pass: one result per seat, no error, counted once."""
    server = four_teams(tmp_path)
    key = build_key(server, "red", 1)
    server.scheduler.executor = Meddling(lambda: remove(server.contest.root / "builds", key))
    assert server.scheduler.step()  # round 1 planned
    server.scheduler.step()  # its game: a judge error
    (game,) = server.contest.db.games(round_no=1)
    assert game.state == "running" and all(seat.status is None for seat in game.seats)
    assert server.contest.db.totals() == {} and server.contest.rounds_view()[0]["finished"] is None
    pinned = [seat.submission_id for seat in game.seats]
    server.scheduler.step()  # played again
    (again,) = server.contest.db.games(round_no=1)
    assert again.state == "finished" and [seat.submission_id for seat in again.seats] == pinned
    assert all(status != "error" for _, status, _, _ in results(server, game.id))
    assert sorted(games for games, _ in server.contest.db.totals().values()) == [1, 1, 1, 1]
    replay = json.loads(server.contest.db.replay(game.id) or "{}")
    judge = judge_rules(server.contest.settings.rules)  # the same wall: the one the game's seed deals
    assert replay["wall"] == [format_tile(kind, judge.notation) for kind in judge.shuffled_wall(game.wall_seed)]
    (error,) = server.contest.db.judge_errors()
    assert error.game_id == game.id and "is gone" in error.what


@pytest.mark.parametrize("failure", [BrokenProcessPool("A process in the process pool was terminated abruptly"),
                                     OSError(28, "No space left on device")])
def test_a_dead_worker_or_a_full_disk_is_a_judge_error(tmp_path: Path, failure: Exception) -> None:
    server = four_teams(tmp_path)

    def fail() -> None:
        raise failure

    server.scheduler.executor = Meddling(fail)
    assert server.scheduler.step()
    server.scheduler.step()  # the failed try
    assert server.contest.db.totals() == {}
    server.scheduler.step()  # the game played again
    (game,) = server.contest.db.games(round_no=1)
    assert game.state == "finished" and all(status != "error" for _, status, _, _ in results(server, game.id))
    (error,) = server.contest.db.judge_errors()
    assert ("worker process" in error.what) if isinstance(failure, BrokenProcessPool) else "No space" in error.what


def test_a_result_that_cannot_be_written_is_a_judge_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up as the game's result is written: nothing of it is kept, the game is played again."""
    server = four_teams(tmp_path)
    finish = Transaction.finish_game
    calls: list[int] = []

    def full(self: Transaction, *args: Any) -> bool:
        calls.append(1)
        if len(calls) == 1:
            raise sqlite3.OperationalError("database or disk is full")
        return finish(self, *args)

    monkeypatch.setattr(Transaction, "finish_game", full)
    assert server.scheduler.step()
    server.scheduler.step()
    (game,) = server.contest.db.games(round_no=1)
    assert game.state == "running" and server.contest.db.totals() == {}
    server.scheduler.step()
    assert server.contest.db.game(game.id).state == "finished" and len(calls) == 2  # type: ignore[union-attr]
    (error,) = server.contest.db.judge_errors()
    assert "disk is full" in error.what


def test_a_judge_fault_that_stays_holds_the_game_for_the_organiser(tmp_path: Path) -> None:
    """A fault that does not go away is tried MAX_JUDGE_ERRORS times, then the game is held (the round goes on
    without it; its builds kept); the console offers to play it, and then it counts once."""
    server = four_teams(tmp_path)
    key = build_key(server, "red", 1)

    def disk_full() -> None:
        raise OSError(28, "No space left on device")

    server.scheduler.executor = Meddling(disk_full, times=None)
    assert server.scheduler.step()
    for _ in range(MAX_JUDGE_ERRORS):
        server.scheduler.step()
    (game,) = server.contest.db.games(round_no=1)
    assert game.state == "held" and len(server.contest.db.judge_errors()) == MAX_JUDGE_ERRORS
    assert server.contest.rounds_view()[0]["finished"] is not None  # the round is closed without it
    assert server.contest.db.totals() == {}
    assert server.upload("red", version_of("red-v2")).status_code == 201
    assert server.contest.db.current_submissions()[1].version == 2
    assert key not in evict(server.contest, now=time.time() + 3600)  # a held game's builds are kept
    csrf = console(server)
    assert "Play it now" in server.client.get("/admin").text
    server.scheduler.executor = Inline()
    released = server.client.post(f"/admin/games/{game.id}/release", data={"csrf": csrf}, follow_redirects=False)
    assert released.status_code == 303
    deadline = time.monotonic() + 120  # the game plays in the judge's own threads
    while server.contest.db.game(game.id).state != "finished" and time.monotonic() < deadline:  # type: ignore
        time.sleep(0.05)
    played = server.contest.db.game(game.id)
    assert played is not None and played.state == "finished"
    assert {seat.team: seat.version for seat in played.seats}["red"] == 1  # the version it was pinned with
    assert sorted(games for games, _ in server.contest.db.totals().values()) == [1, 1, 1, 1]
    page = server.client.get("/admin").text
    assert "play held game · game" in page
    assert server.client.post(f"/admin/games/{game.id}/release", data={"csrf": csrf}).status_code == 404


def test_a_held_game_shows_each_judge_error_with_the_seat_whose_box_failed_and_the_one_before(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Red's build is gone at every try: the game is held after 3 judge errors, and the console lists each with
    the seat whose box failed (red's) and the seat whose box ran just before it, so that an organiser sees one
    team behind repeated errors; the export lists the held game with its errors."""
    server = four_teams(tmp_path)
    key = build_key(server, "red", 1)
    server.scheduler.executor = Meddling(lambda: remove(server.contest.root / "builds", key), times=None)
    assert server.scheduler.step()
    for _ in range(MAX_JUDGE_ERRORS):
        server.scheduler.step()
    (game,) = server.contest.db.games(round_no=1)
    red = next(seat.seat for seat in game.seats if seat.team == "red")
    before = {seat.seat: seat.team for seat in game.seats}.get(red - 1)  # the deal asks seats 0 to 3 in turn
    errors = server.contest.db.judge_errors()
    assert game.state == "held" and len(errors) == MAX_JUDGE_ERRORS
    assert {(error.seat, error.team, error.after_seat, error.after_team) for error in errors} == {
        (red, "red", red - 1 if red else None, before)}
    console(server)
    table = server.client.get("/admin").text.split('id="judge-errors"', 1)[1].split("</table>", 1)[0]
    shown = f"seat {red} (red), " + (f"after seat {red - 1} ({before})" if red else "the first box of the game")
    assert table.count(shown) == MAX_JUDGE_ERRORS and table.count(f'data-game="{game.id}"') == MAX_JUDGE_ERRORS
    from mjarena.contest.export import results

    (held,) = [entry for entry in results(server.contest)["games"] if entry["id"] == game.id]
    assert held["state"] == "held" and [error["seat"] for error in held["judge_errors"]] == [red] * MAX_JUDGE_ERRORS
    # once the contest is over, verify takes the held game as accounted for by its errors, and by nothing less
    server.clock.now = 1000.0 + 11 * 60
    data = results(server.contest)
    out = tmp_path / "final.json"
    out.write_text(json.dumps(data))
    assert main(["contest", "verify", str(out)]) == 0
    assert "1 held after judge errors" in capsys.readouterr().out
    data["games"][0]["judge_errors"].pop()
    out.write_text(json.dumps(data))
    assert main(["contest", "verify", str(out)]) == 1
    assert f"held with {MAX_JUDGE_ERRORS - 1} judge error(s) listed" in capsys.readouterr().err


def _die(_: int) -> int:
    os._exit(3)


def _double(number: int) -> int:
    return 2 * number


def test_the_local_pool_starts_anew_after_a_worker_dies() -> None:
    """A dead worker breaks a process pool for good: its game fails (a judge error), and the next game gets a new
    pool instead of the same error forever."""
    pool = LocalExecutor(1)
    try:
        with pytest.raises(BrokenProcessPool):
            list(pool.run(_die, [1]))
        assert sorted(pool.run(_double, [1, 2])) == [(1, 2), (2, 4)]
    finally:
        pool.close(cancel=True)


def test_a_tournament_reports_a_bot_that_cannot_start_as_the_judges_failure(tmp_path: Path) -> None:
    """Before, every game of a bot whose program is not there was recorded as its ``crash``."""
    ghost = str(tmp_path / "no-such-bot")
    settings = Settings.create([Entrant("ghost", ghost), Entrant("g1", "builtin:greedy"),
                                Entrant("r1", "builtin:random"), Entrant("g2", "builtin:greedy")], rounds=1, seed=3)
    with pytest.raises(JudgeError, match=r"cannot start .*no-such-bot.*run the same command again"):
        run_tournament(settings, tmp_path / "t", workers=1, sandbox=Sandbox(kind="none"), progress=False)
    games = tmp_path / "t" / "games.jsonl"
    assert not games.exists() or "crash" not in games.read_text()


def test_a_bot_that_cannot_start_fails_pre_flight_and_stops_a_match_with_allow_broken(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "--sandbox", "none", "--seed", "1", "--bot", str(tmp_path / "gone"),
            *(["--bot", "builtin:greedy"] * 3)]
    assert main(args) == 2
    assert f"seat 0 ({tmp_path / 'gone'}): start: cannot start" in capsys.readouterr().err
    assert main([*args, "--allow-broken"]) == 3  # before: 0, seat 0 with a crash
    assert "the judge failed (not a bot; no result is recorded): cannot start" in capsys.readouterr().err


# -- attack 5: a finished contest stays finished ---------------------------------------------------------------


def test_pause_and_resume_are_refused_after_the_end_and_the_end_stays(tmp_path: Path) -> None:
    """Before: Pause after the end turned the public state from ``finished`` to ``paused``, and Resume then moved
    the recorded end (reopening the window)."""
    server = Server(tmp_path / "contest", start=1000.0, duration=1.0)
    csrf = console(server)
    server.clock.now = 1060.0
    end = server.contest.end(server.clock())
    assert server.standings()["state"] == "finished" and end == 1060.0
    refused = server.client.post("/admin/window", data={"action": "pause", "csrf": csrf})
    assert refused.status_code == 409 and "a finished contest stays finished" in refused.text
    server.clock.now += 600
    for action in ("pause", "resume", "extend", "end"):
        answer = server.client.post("/admin/window", data={"action": action, "minutes": "10", "csrf": csrf})
        assert answer.status_code == 409, action
    assert server.standings()["state"] == "finished" and server.contest.end(server.clock()) == end
    assert server.contest.paused_since() is None
    page = server.client.get("/admin").text
    assert 'id="pause"' not in page and 'id="extend"' not in page and "stays finished" in page
    assert "pause ·" not in page and "extend ·" not in page


def test_extend_and_end_now_are_logged_and_end_the_window(tmp_path: Path) -> None:
    server = Server(tmp_path / "contest", start=1000.0, duration=10.0)
    for team in FOUR:
        server.upload(team)
    csrf = console(server)
    assert server.contest.end(server.clock()) == 1600.0
    for bad in ("", "soon", "-5", "0", "nan", "1e9"):
        refused = server.client.post("/admin/window", data={"action": "extend", "minutes": bad, "csrf": csrf})
        assert refused.status_code == 409 and "minutes" in refused.text, bad
    assert server.client.post("/admin/window", data={"action": "extend", "minutes": "30"}).status_code == 403
    done = server.client.post("/admin/window", data={"action": "extend", "minutes": "30", "csrf": csrf},
                              follow_redirects=False)
    assert done.status_code == 303 and server.contest.end(server.clock()) == 3400.0
    assert server.scheduler.step()  # round 1 planned in the open window
    server.clock.now = 1200.0
    server.client.post("/admin/window", data={"action": "end", "csrf": csrf})
    assert server.contest.end(server.clock()) == 1200.0
    assert server.contest.state(server.clock()) == "running"  # round 1 is still to be played
    server.scheduler.step()
    assert server.standings()["state"] == "finished" and not server.scheduler.step()  # and no new round starts
    log = server.client.get("/admin").text
    assert "extend · the window by 30 minutes, to 1970-01-01 00:56:40 UTC" in log
    assert "end now · the window, at 1970-01-01 00:20:00 UTC" in log


def test_extend_and_end_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server = Server(tmp_path / "contest", start=time.time() - 60, duration=10.0)
    root = str(server.contest.root)
    before = server.contest.end()
    assert main(["contest", "extend", root, "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["end"] == pytest.approx(before + 300)
    assert main(["contest", "extend", root, "-1"]) == 2
    assert "minutes above 0" in capsys.readouterr().err
    assert main(["contest", "end", root, "--json"]) == 0
    ended = json.loads(capsys.readouterr().out)["end"]
    assert server.contest.end() == ended and server.contest.state() == "finished"
    assert main(["contest", "end", root]) == 2 and "stays finished" in capsys.readouterr().err
    assert main(["contest", "extend", root, "5"]) == 2 and "stays finished" in capsys.readouterr().err
    assert [action for _, action, _ in server.contest.db.admin_log()] == ["end now", "extend"]
