"""The contest server in one process: database, tokens, API, privacy, Swiss rounds, window, crash recovery.

Games are played for real (the test bot as a Python submission, built by mjarena.builds, outside the sandbox
for speed), but in this process: an inline executor stands in for the worker pool, and the scheduler is
stepped by hand so every test knows exactly what ran.  The real processes (serve, submit, kill -9) are in
test_contest_e2e.py.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from contest_forms import post_login
from mjarena.cli import main
from mjarena.contest.app import create_app
from mjarena.contest.building import Builder
from mjarena.contest.games import public_replay
from mjarena.contest.model import Contest, ContestError, Settings
from mjarena.contest.scheduler import Scheduler

BOT = (Path(__file__).parent / "bots" / "contest_bot.py").read_bytes()
TEAMS = ["red", "blue", "green", "gold", "jade"]


class Inline:
    """The executor interface, playing each task here and now."""

    remote = False

    def run(self, fn: Callable[[Any], Any], tasks: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
        for task in tasks:
            yield task, fn(task)

    def close(self, cancel: bool = False) -> None:
        pass


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Server:
    """A contest with its app, builder and a hand-stepped scheduler."""

    def __init__(self, root: Path, teams: Sequence[str] = TEAMS, **settings: Any) -> None:
        options = {"sandbox": "none", "start": 1000.0, "duration": 10.0, "uploads_per_minute": 50, **settings}
        self.contest, self.tokens = Contest.create(root, list(teams), Settings(**options))
        self.clock = Clock(1000.0)
        self.builder = Builder(self.contest)
        self.scheduler = Scheduler(self.contest, Inline(), 1, clock=self.clock)
        self.app = create_app(self.contest, on_submission=self.builder.build, clock=self.clock, judge=self.scheduler)
        self.client = TestClient(self.app)

    def auth(self, team: str) -> dict[str, str]:
        return {"authorization": f"Bearer {self.tokens['teams'][team]}"}

    def upload(self, team: str, content: bytes = BOT, name: str = "bot.py") -> Any:
        return self.client.post("/api/submissions", headers=self.auth(team), files={"source": (name, content)})

    def games(self, team: str | None = None) -> list[dict[str, Any]]:
        return self.client.get("/api/games", params={"team": team} if team else None).json()["games"]

    def standings(self) -> dict[str, Any]:
        return self.client.get("/api/standings").json()


@pytest.fixture
def server(tmp_path: Path) -> Server:
    return Server(tmp_path / "contest")


def version_of(text: str) -> bytes:
    return BOT.replace(b"contest-bot-v1", text.encode())


# -- creating, tokens --------------------------------------------------------------------------------------


def test_create_prints_tokens_refuses_an_existing_folder_and_stores_only_hashes(tmp_path: Path,
                                                                               capsys: Any) -> None:
    folder = tmp_path / "c"
    assert main(["contest", "create", str(folder), "--team", "red", "--team", "blue", "--json"]) == 0
    tokens = json.loads(capsys.readouterr().out)
    assert set(tokens["teams"]) == {"red", "blue"} and len(tokens["admin"]) >= 43
    raw = (folder / "contest.db").read_bytes()
    assert all(token.encode() not in raw for token in [tokens["admin"], *tokens["teams"].values()])
    assert main(["contest", "create", str(folder), "--team", "x"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(["contest", "create", str(tmp_path / "d"), "--team", "a/b"]) == 2
    assert "team name 'a/b'" in capsys.readouterr().err


def test_add_team_and_rotate_token(server: Server, capsys: Any) -> None:
    root = str(server.contest.root)
    assert main(["contest", "add-team", root, "cyan", "--json"]) == 0
    cyan = json.loads(capsys.readouterr().out)["token"]
    assert server.client.get("/api/submissions", headers={"authorization": f"Bearer {cyan}"}).status_code == 200
    old = server.tokens["teams"]["red"]
    assert main(["contest", "rotate-token", root, "red", "--json"]) == 0
    new = json.loads(capsys.readouterr().out)["token"]
    assert server.client.get("/api/submissions", headers={"authorization": f"Bearer {old}"}).status_code == 401
    assert server.client.get("/api/submissions", headers={"authorization": f"Bearer {new}"}).status_code == 200
    assert main(["contest", "add-team", root, "cyan"]) == 2


def test_a_folder_that_is_not_a_contest_is_one_line(tmp_path: Path, capsys: Any) -> None:
    assert main(["contest", "export", str(tmp_path)]) == 2
    assert "no contest here" in capsys.readouterr().err
    (tmp_path / "contest.db").write_bytes(b"not sqlite at all" * 100)
    assert main(["contest", "export", str(tmp_path)]) == 2
    assert "cannot read it" in capsys.readouterr().err


# -- submissions ---------------------------------------------------------------------------------------------


def test_submissions_count_versions_per_team_and_give_back_the_exact_bytes(server: Server) -> None:
    first = server.upload("red")
    assert first.status_code == 201
    body = first.json()
    assert {key: body[key] for key in ("team", "version", "language")} == {"team": "red", "version": 1,
                                                                           "language": "python"}
    assert body["status"] in ("pending", "ok")
    second = server.upload("red", version_of("second"))
    assert second.json()["version"] == 2
    assert server.upload("blue").json()["version"] == 1
    got = server.client.get(f"/api/submissions/{second.json()['id']}", headers=server.auth("red")).json()
    assert got["status"] == "ok" and got["version"] == 2
    source = server.client.get(f"/api/submissions/{second.json()['id']}/source", headers=server.auth("red"))
    assert source.content == version_of("second")


def test_auth_and_privacy_of_submissions(server: Server) -> None:
    red = server.upload("red").json()["id"]
    assert server.client.post("/api/submissions", files={"source": ("bot.py", BOT)}).status_code == 401
    assert server.client.post("/api/submissions", files={"source": ("bot.py", BOT)},
                              headers={"authorization": "Bearer nope"}).status_code == 401
    assert server.client.get(f"/api/submissions/{red}").status_code == 401
    for path in (f"/api/submissions/{red}", f"/api/submissions/{red}/source"):
        response = server.client.get(path, headers=server.auth("blue"))
        assert response.status_code in (403, 404) and BOT not in response.content
    admin = {"authorization": f"Bearer {server.tokens['admin']}"}
    assert server.client.get(f"/api/submissions/{red}/source", headers=admin).content == BOT


def test_refused_uploads_make_no_submission(server: Server) -> None:
    cases = [
        (("bot.exe", BOT), 415),
        (("bot", BOT), 415),
        (("bot.py", b"# caf\xe9\nprint(1)\n"), 400),  # py_compile would accept this comment
        (("bot.py", b""), 400),
    ]
    for file, status in cases:
        response = server.upload("red", file[1], file[0])
        assert response.status_code == status, (file, response.text)
        assert "error" in response.json() and "Traceback" not in response.text
    too_big = server.upload("red", b"#" * ((1 << 20) + 1))
    assert too_big.status_code == 413
    not_multipart = server.client.post("/api/submissions", headers={**server.auth("red"),
                                                                    "content-type": "text/plain"}, content=b"x")
    assert not_multipart.status_code == 400
    assert server.contest.db.submissions() == []
    assert server.upload("red").json()["version"] == 1


def test_an_oversized_upload_is_refused_from_its_declared_length_without_reading_it(server: Server) -> None:
    sent = []

    def body() -> Iterator[bytes]:
        for _ in range(64):
            sent.append(1)
            yield b"x" * (64 << 10)

    response = server.client.post("/api/submissions", content=body(), headers={
        **server.auth("red"), "content-type": "multipart/form-data; boundary=b", "content-length": str(4 << 20)})
    assert response.status_code == 413
    assert len(sent) < 64
    assert server.contest.db.submissions() == []


def test_uploads_are_rate_limited_per_team(tmp_path: Path) -> None:
    server = Server(tmp_path / "c", uploads_per_minute=2)
    assert [server.upload("red").status_code for _ in range(3)] == [201, 201, 429]
    assert server.upload("blue").status_code == 201
    limited = server.upload("red")
    assert limited.headers["retry-after"].isdigit() and len(server.contest.db.submissions()) == 3
    server.clock.now += 61
    assert server.upload("red").status_code == 201


def test_a_compile_error_is_reported_and_never_plays(server: Server) -> None:
    bad = server.upload("red", b"def broken(:\n")
    assert bad.status_code == 201
    verdict = server.client.get(f"/api/submissions/{bad.json()['id']}", headers=server.auth("red")).json()
    assert verdict["status"] == "compile_error" and "bot.py" in verdict["message"]
    server.upload("blue")
    assert server.scheduler.step()  # round 1 planned: blue only (red has no working build)
    tables = server.contest.db.games(round_no=1)
    assert {seat.team for game in tables for seat in game.seats} == {"blue", None}


# -- rounds ----------------------------------------------------------------------------------------------


def play_round(server: Server) -> int:
    """Plan the next round and play it; its number."""
    assert server.scheduler.step()
    number = server.contest.round_number()
    server.scheduler.step()
    assert all(game["state"] == "finished" for game in server.games() if game["round"] == number)
    return number


def test_swiss_rounds_pad_with_house_bots_and_standings_add_up(server: Server) -> None:
    for team in TEAMS:
        server.upload(team)
    assert server.standings()["state"] == "running" and server.standings()["round"] == 0
    for expected in (1, 2):
        assert play_round(server) == expected
    games = server.games()
    assert len(games) == 4  # 5 teams + 3 house bots: two tables a round
    for game in games:
        teams = [player["team"] for player in game["players"]]
        assert sorted(teams, key=str).count(None) in (0, 3) and sum(p["points"] for p in game["players"]) == 10
    standings = server.standings()
    assert standings["round"] == 2
    for row in standings["rows"]:
        mine = [p for game in server.games(row["team"]) for p in game["players"] if p["team"] == row["team"]]
        assert row["games"] == len(mine) == 2 and row["points"] == sum(p["points"] for p in mine)
        assert row["points_per_game"] == round(row["points"] / 2, 3)  # beside the points (issue 24)
    page = server.client.get("/").text
    assert "<th>per game</th>" in page
    points = [row["points"] for row in standings["rows"]]
    assert points == sorted(points, reverse=True)
    # round 2 was paired by the points after round 1, except that the seat beside the house bots rotates: it went
    # to the lowest placed of the teams that had not had it
    after_one: dict[str, float] = {}
    for game in games:
        if game["round"] == 1:
            for player in game["players"]:
                if player["team"]:
                    after_one[player["team"]] = player["points"]
    by_round = [sorted((g for g in games if g["round"] == number), key=lambda g: g["table"]) for number in (1, 2)]
    with_house = [{p["team"] for p in tables[1]["players"]} - {None} for tables in by_round]
    first_table = {p["team"] for p in by_round[1][0]["players"]}
    assert len(first_table) == 4 and None not in first_table  # house bots pad the last table
    assert len(with_house[1]) == 1 and with_house[0] != with_house[1]
    (moved,) = with_house[1]  # the lowest placed of those that had not sat with the house bots
    assert after_one[moved] <= min(after_one[team] for team in first_table - with_house[0])


def test_a_new_version_plays_from_the_next_game_and_a_running_game_keeps_its_versions(server: Server) -> None:
    server.upload("red")
    server.upload("blue")
    assert server.scheduler.step()
    (game,) = server.contest.db.games(round_no=1)
    # the game starts (versions pinned), then red uploads v2, then the game is played
    current = server.contest.db.current_submissions()
    pinned = {seat.seat: current[server.contest.db.team(seat.team).id].id for seat in game.seats if seat.team}
    with server.contest.db.transaction() as tx:
        tx.start_game(game.id, server.clock(), pinned)
    server.upload("red", version_of("contest-bot-v2"))
    (listed,) = server.games()  # a game in progress: listed with its versions and null points
    assert listed["state"] == "running" and {p["points"] for p in listed["players"]} == {None}
    assert {row["games"] for row in server.standings()["rows"]} == {0}
    server.scheduler.step()
    first = server.games("red")[-1]  # newest first
    assert {p["team"]: p["version"] for p in first["players"] if p["team"]} == {"red": 1, "blue": 1}
    play_round(server)
    second = server.games("red")[0]
    assert {p["team"]: p["version"] for p in second["players"] if p["team"]} == {"red": 2, "blue": 1}
    assert server.standings()["rows"][[r["team"] for r in server.standings()["rows"]].index("red")]["version"] == 2


def test_the_race_chart_ends_at_the_standings_and_marks_each_version(server: Server) -> None:
    """Issue 26: a line per team that played, its last point its total, a mark where each version started;
    the team page draws its points per game by version."""
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    server.upload("red", version_of("contest-bot-v2"))
    play_round(server)
    play_round(server)
    standings = {row["team"]: row for row in server.standings()["rows"]}
    history = server.contest.history()
    assert history["rounds"] == [1, 2, 3]
    for team, row in standings.items():
        assert history["teams"][team]["points"][-1] == row["points"]
    assert history["teams"]["red"]["versions"] == [[1, 1], [2, 2]]
    page = server.client.get("/").text
    figure = page.split('id="race-chart"', 1)[1].split("</figure>", 1)[0]
    assert figure.count('class="chart-line"') == len(TEAMS)
    for team, row in standings.items():
        group = figure.split(f'data-series="{team}"', 1)[1].split(">", 1)[0]
        assert f'data-last="{row["points"]:g}"' in group
    assert figure.count('class="chart-mark"') == len(TEAMS) + 1  # every team's v1, and red's v2
    assert "<table" in figure  # the same data as a table
    fragment = server.client.get("/charts/race").text  # the same figure, then the points behind the leader
    assert fragment.split('id="race-chart"', 1)[1].split("</figure>", 1)[0] == figure
    assert 'id="race-gap-chart"' in fragment
    team_page = server.client.get("/teams/red").text
    versions = team_page.split('id="versions-chart"', 1)[1].split("</figure>", 1)[0]
    figures = server.contest.version_figures("red")
    path = versions.split('class="chart-line"', 1)[1].split("data-points=\"", 1)[1].split('"', 1)[0]
    assert [float(pair.split(",")[0]) for pair in path.split()] == sorted(figures)


def test_the_race_chart_shows_the_top_ten_and_the_rest_on_demand(tmp_path: Path) -> None:
    names = [f"team{i:02d}" for i in range(12)]
    server = Server(tmp_path / "contest", names)
    for name in names:
        server.upload(name)
    play_round(server)
    figure = server.client.get("/charts/race").text.split('id="race-gap-chart"', 1)[0]
    assert figure.count('class="chart-line"') == 12 and figure.count("chart-series chart-hidden") == 2
    assert 'id="race-all"' in figure and "Show all 12 teams" in figure
    top = [row["team"] for row in server.standings()["rows"]][:10]
    for name in top:
        assert f'class="chart-series" data-series="{name}"' in figure


def test_a_game_left_running_by_a_crash_is_replayed_with_its_versions_and_counted_once(server: Server) -> None:
    server.upload("red")
    server.upload("blue")
    server.scheduler.step()
    (game,) = server.contest.db.games(round_no=1)
    current = server.contest.db.current_submissions()
    pinned = {seat.seat: current[server.contest.db.team(seat.team).id].id for seat in game.seats if seat.team}
    with server.contest.db.transaction() as tx:
        tx.start_game(game.id, server.clock(), pinned)  # then the server died
    server.upload("red", version_of("contest-bot-v2"))
    restarted = Scheduler(Contest.open(server.contest.root), Inline(), 1, clock=server.clock)
    restarted.step()
    (replayed,) = server.games()
    assert replayed["id"] == game.id and replayed["state"] == "finished"
    assert {p["team"]: p["version"] for p in replayed["players"] if p["team"]} == {"red": 1, "blue": 1}
    outcome = {"results": [], "replay": "{}"}
    with server.contest.db.transaction() as tx:
        assert not tx.finish_game(game.id, 0.0, outcome["results"], outcome["replay"])  # never twice
    assert sum(row["games"] for row in server.standings()["rows"]) == 2


def test_the_window(tmp_path: Path) -> None:
    server = Server(tmp_path / "c", start=2000.0, duration=1.0)
    server.upload("red")
    assert server.standings()["state"] == "not_started"
    assert not server.scheduler.step()
    server.clock.now = 2000.0
    assert server.scheduler.step()  # round 1 planned
    server.clock.now = 2060.0  # the window closes with round 1 still to play
    assert server.contest.state(server.clock.now) == "running"
    server.scheduler.step()  # the round in progress is finished
    assert server.standings()["state"] == "finished" and server.standings()["round"] == 1
    assert not server.scheduler.step()  # and no new round starts


def test_export_csv_and_json(server: Server, capsys: Any) -> None:
    server.upload("red")
    play_round(server)
    root = str(server.contest.root)
    assert main(["contest", "export", root, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"][0]["team"] == "red" and len(data["games"]) == 1
    out = server.contest.root / "final.csv"
    assert main(["contest", "export", root, "--format", "csv", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "rank,team,points,games,points_per_game,version" and lines[1].split(",")[1:2] == ["red"]


# -- privacy of replays --------------------------------------------------------------------------------------


def test_each_team_sees_its_own_bots_debug_and_stderr_and_nobody_elses(server: Server) -> None:
    server.upload("red", version_of("red-secret"))
    server.upload("blue", version_of("blue-secret"))
    play_round(server)
    (game,) = server.games()
    public = server.client.get(f"/api/replays/{game['id']}")
    assert public.status_code == 200 and "red-secret" not in public.text and "blue-secret" not in public.text
    as_red = server.client.get(f"/api/replays/{game['id']}", headers=server.auth("red"))
    assert "red-secret debug" in as_red.text and "red-secret stderr" in as_red.text
    assert "blue-secret" not in as_red.text and as_red.json()["transcripts"]
    turns = server.client.get(f"/api/games/{game['id']}/turns", headers=server.auth("blue")).json()
    (seat,) = turns["seats"].values()
    assert seat["team"] == "blue"
    assert any("blue-secret debug" in (turn.get("debug") or "") for turn in seat["turns"])
    assert any("blue-secret stderr" in (turn.get("stderr") or "") for turn in seat["turns"])
    assert "red-secret" not in json.dumps(turns)
    assert server.client.get(f"/api/games/{game['id']}/turns").status_code == 401
    for status in (server.client.get("/api/replays/999").status_code,
                   server.client.get("/api/replays/abc").status_code):
        assert status == 404


def test_public_replay_drops_other_seats_stderr_from_error_details() -> None:
    replay = {"contest": {"players": [{"seat": 0, "team": "red"}, {"seat": 1, "team": "blue"}]},
              "seats": [{"seat": 0, "detail": "exit code 1; stderr: red's"},
                        {"seat": 1, "detail": "exit code 1; stderr: blue's"}],
              "transcripts": {"0": [{"request": "0 0", "response": None, "stderr": "red's"}]}}
    shown = json.dumps(public_replay(replay, "blue"))
    assert "red's" not in shown and "blue's" in shown


# -- pages, sessions, forms ----------------------------------------------------------------------------------


def login(server: Server, team: str) -> str:
    response = post_login(server.client, "/login", server.tokens["teams"][team], follow_redirects=False)
    assert response.status_code == 303
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    page = server.client.get("/team").text
    return page.split('name="csrf" value="', 1)[1].split('"', 1)[0]


def test_login_upload_form_with_csrf_and_history(server: Server) -> None:
    assert server.client.get("/team", follow_redirects=False).status_code == 303
    bad = post_login(server.client, "/login", "wrong")
    assert bad.status_code == 401 and "not a team" in bad.text
    csrf = login(server, "red")
    no_csrf = server.client.post("/team/upload", files={"source": ("bot.py", BOT)})
    assert no_csrf.status_code == 403
    foreign = server.client.post("/team/upload", data={"csrf": csrf}, files={"source": ("bot.py", BOT)},
                                 headers={"origin": "http://evil.example"})
    assert foreign.status_code == 403
    assert server.contest.db.submissions() == []
    done = server.client.post("/team/upload", data={"csrf": csrf}, files={"source": ("bot.py", b"def x(:\n")},
                              follow_redirects=False)
    assert done.status_code == 303
    page = server.client.get("/team").text
    assert "compile_error" in page and "v1" in page
    assert server.client.get("/team/submissions/1/source").content == b"def x(:\n"
    server.client.cookies.clear()
    login(server, "blue")
    assert server.client.get("/team/submissions/1/source").status_code == 404


def test_pages_render_and_errors_are_pages_not_tracebacks(server: Server) -> None:
    server.upload("red")
    play_round(server)
    for path in ("/", "/rounds", "/teams/red", "/replays/1", "/login", "/static/style.css",
                 "/contest-static/contest.js", "/tiles/33.svg"):
        assert server.client.get(path).status_code == 200, path
    assert "red" in server.client.get("/").text and "Round 1" in server.client.get("/rounds").text
    for path, status in (("/teams/nobody", 404), ("/replays/77", 404), ("/api/submissions/x", 401),
                         ("/tiles/99.svg", 404)):
        response = server.client.get(path)
        assert response.status_code == status and "Traceback" not in response.text
    garbage = server.client.post("/api/submissions", headers={**server.auth("red"),
                                                              "content-type": "multipart/form-data; boundary=zz"},
                                 content=b"--zz\r\nnonsense")
    assert garbage.status_code == 400


def test_the_database_is_wal_and_holds_each_finished_game_once(server: Server) -> None:
    server.upload("red")
    play_round(server)
    with sqlite3.connect(server.contest.root / "contest.db") as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("SELECT COUNT(*) FROM replays").fetchone()[0] == 1
        assert connection.execute("SELECT COUNT(*) FROM seats WHERE points IS NOT NULL").fetchone()[0] == 4


def test_contest_settings_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ContestError, match="--duration"):
        Contest.create(tmp_path / "c", ["a"], Settings(duration=0))
    with pytest.raises(ContestError, match="unique"):
        Contest.create(tmp_path / "c", ["a", "a"], Settings())
    assert not (tmp_path / "c").exists()


def test_the_team_page_gives_each_versions_games_points_per_game_errors_and_time(server: Server) -> None:
    """Issue 25: the team page shows, per version, the games it played, its points per game, the games it erred
    in and when it was submitted; the API lists games newest first, as the pages do."""
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    server.upload("red")  # v2: plays from the next round
    play_round(server)
    games = server.games("red")
    assert [game["id"] for game in games] == sorted((game["id"] for game in games), reverse=True)
    figures = server.contest.version_figures("red")
    assert set(figures) == {1, 2} and figures[1]["games"] == figures[2]["games"] == 1
    mine = {p["version"]: p["points"] for game in games for p in game["players"] if p["team"] == "red"}
    assert {version: row["points_per_game"] for version, row in figures.items()} == mine
    login(server, "red")
    page = server.client.get("/team").text
    head = page.split('<table class="list" id="submissions">', 1)[1].split("</thead>", 1)[0]
    assert all(word in head for word in ("submitted", "games", "points per game", "errors"))
    row = page.split('<tr data-version="1">', 1)[1].split("</tr>", 1)[0]
    cells = [cell.split(">", 1)[1] for cell in row.split("</td>")[:-1]]
    assert cells[0] == "v1" and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", cells[1])
    assert cells[4:7] == ["1", f"{mine[1]:.3f}", "0"]
    assert page.index('data-version="2"') < page.index('data-version="1"')  # newest first


ODD_IDS = ["%C2%B2", "%D9%A3", "-1", "9" * 30, "0", "1.5", "%00", "%20", "x", "%E2%80%AE1"]


@pytest.mark.parametrize("who", ["nobody", "team", "admin"])
def test_no_route_answers_500_to_odd_ids(server: Server, who: str) -> None:
    """Issue 24: every id in every route is read as ASCII digits ('²'.isdigit() is true, int('²') fails): an odd
    id is a 404 (or a 400/401/403/405), never a traceback."""
    from starlette.routing import Mount, Route

    headers = {} if who == "nobody" else server.auth("red") if who == "team" else {
        "authorization": f"Bearer {server.tokens['admin']}"}
    client = TestClient(server.app, raise_server_exceptions=False)
    form = {}
    if who == "admin":  # and logged in to the console, its forms' CSRF token sent: the ids are what is checked
        post_login(client, "/admin/login", server.tokens["admin"])
        form = {"csrf": client.get("/admin").text.split('name="csrf" value="', 1)[1].split('"', 1)[0]}
    checked = 0
    for route in server.app.routes:
        if isinstance(route, Mount) or not isinstance(route, Route) or "{" not in route.path:
            continue
        for odd in ODD_IDS:
            path = re.sub(r"\{[^}]+\}", odd, route.path)
            for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
                data = form if method == "POST" else None
                response = client.request(method, path, headers=headers, data=data)
                assert response.status_code < 500, (method, path, response.status_code, response.text[:300])
                checked += 1
    assert checked >= 8 * len(ODD_IDS)
