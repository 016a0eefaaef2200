"""The contest end to end, with real processes on loopback: ``mjarena contest serve`` as a subprocess, five teams
submitting the example bots in five languages with ``mjarena submit``, rounds played, a new version and a
compile error, privacy over HTTP, the pages in Chromium, ``kill -9`` and a restart, SIGTERM.

The tests share one server and run in file order (each builds on the last).  Builds and bots run in the
bubblewrap sandbox, the contest's default.  Without Chromium or Playwright the browser test is skipped with the
reason, unless ``MJARENA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from mjarena.contest.processes import alive, contest_tokens, find_by_token, start_time

EXAMPLES = Path(__file__).parent.parent / "examples" / "bots"
SOURCES = {"c": "bot.c", "cpp": "bot.cpp", "java": "Main.java", "js": "bot.js", "py": "keep_running_bot.py"}
MJARENA = [sys.executable, "-m", "mjarena.cli"]
CHROMIUM = "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(what: str, check: Callable[[], Any], timeout: float = 60.0, every: float = 0.2) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"waited {timeout:g} s for {what}"
        time.sleep(every)


class Served:
    """The contest folder, its tokens, and the server process (started and restarted by the tests)."""

    def __init__(self, root: Path, tokens: dict[str, Any]) -> None:
        self.root = root
        self.tokens = tokens
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = root.parent / "serve.log"

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen([*MJARENA, "contest", "serve", str(self.root), "--port", str(self.port),
                                             "--workers", "2"], stdout=log, stderr=log)

        def up() -> bool:
            assert self.process is not None and self.process.poll() is None, self.log.read_text()
            try:
                return httpx.get(f"{self.url}/api/standings", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        _wait("the server to answer", up, timeout=30)

    def get(self, path: str, team: str | None = None, **options: Any) -> httpx.Response:
        headers = {"authorization": f"Bearer {self.tokens['teams'][team]}"} if team else {}
        return httpx.get(self.url + path, headers=headers, timeout=10, **options)

    def submit(self, team: str, path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*MJARENA, "submit", self.url, str(path), "--token", self.tokens["teams"][team],
                               "--json"], capture_output=True, text=True, timeout=120)

    def games(self) -> list[dict[str, Any]]:
        return self.get("/api/games").json()["games"]

    def snapshot(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The standings and the games at one moment (read until no game finished in between)."""

        def read() -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
            before = self.get("/api/standings").json()
            games = self.games()
            return (before, games) if self.get("/api/standings").json() == before else None

        return _wait("a moment with no game finishing", read)

    def finished_in_db(self) -> dict[int, list[tuple[Any, ...]]]:
        with sqlite3.connect(self.root / "contest.db") as connection:
            rows = connection.execute(
                "SELECT g.id, s.seat, s.team_id, s.submission_id, s.points FROM games g JOIN seats s "
                "ON s.game_id = g.id WHERE g.state = 'finished' ORDER BY g.id, s.seat").fetchall()
        found: dict[int, list[tuple[Any, ...]]] = {}
        for row in rows:
            found.setdefault(row[0], []).append(row[1:])
        return found


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("contest") / "class"
    created = subprocess.run([*MJARENA, "contest", "create", str(root), *(f"--team={t}" for t in SOURCES),
                              "--duration", "30", "--time-limit", "2", "--json"],
                             capture_output=True, text=True, check=True)
    served = Served(root, json.loads(created.stdout))
    served.start()
    yield served
    if served.process is not None and served.process.poll() is None:
        served.process.kill()
        served.process.wait(10)
    from mjarena.contest.processes import kill

    kill(find_by_token(contest_tokens(root.resolve())))


def test_five_teams_submit_in_five_languages_and_play(served: Served) -> None:
    with_submit = {team: subprocess.Popen(
        [*MJARENA, "submit", served.url, str(EXAMPLES / name), "--token", served.tokens["teams"][team], "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for team, name in SOURCES.items()}
    languages = set()
    for team, process in with_submit.items():
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, (team, out, err)
        verdict = json.loads(out)
        assert verdict["status"] == "ok" and verdict["version"] == 1 and verdict["team"] == team
        assert served.get(f"/api/submissions/{verdict['id']}", team).json() == verdict
        languages.add(verdict["language"])
    assert languages == {"c", "cpp", "java", "javascript", "python"}

    def everyone_played() -> bool:
        rows = served.get("/api/standings").json()["rows"]
        return all(row["games"] >= 1 for row in rows)

    _wait("every team's first game", everyone_played, timeout=90)
    standings, games = served.snapshot()
    assert standings["state"] == "running" and standings["round"] >= 1
    for row in standings["rows"]:
        mine = [p for g in games if all(q["team"] for q in g["players"])  # (house games count for no team)
                for p in g["players"] if p["team"] == row["team"] and p["points"] is not None]
        assert (row["games"], row["points"]) == (len(mine), sum(p["points"] for p in mine))


def test_a_new_version_plays_from_its_next_game_and_a_compile_error_keeps_the_old_one(served: Served,
                                                                                    tmp_path: Path) -> None:
    newer = tmp_path / "keep_running_bot.py"
    newer.write_text((EXAMPLES / "keep_running_bot.py").read_text() + "\n# version 2\n")
    assert served.submit("py", newer).returncode == 0
    broken = tmp_path / "broken.py"
    broken.write_text("def play(:\n")
    failed = served.submit("py", broken)
    assert failed.returncode == 1 and json.loads(failed.stdout)["status"] == "compile_error"
    assert "broken.py" in json.loads(failed.stdout)["message"]

    def version_two_played() -> bool:
        return any(p["team"] == "py" and p["version"] == 2 for g in served.games() for p in g["players"])

    _wait("a game of py's version 2", version_two_played, timeout=90)
    versions = {p["version"] for g in served.games() for p in g["players"] if p["team"] == "py"}
    assert versions <= {1, 2}
    row = next(r for r in served.get("/api/standings").json()["rows"] if r["team"] == "py")
    assert row["version"] == 2


def test_privacy_over_http(served: Served) -> None:
    (mine,) = served.get("/api/submissions", "c").json()["submissions"]
    number = mine["id"]
    assert served.get(f"/api/submissions/{number}").status_code == 401
    assert httpx.get(f"{served.url}/api/submissions/{number}", headers={"authorization": "Bearer x"}).status_code == 401
    source = (EXAMPLES / "bot.c").read_bytes()
    assert served.get(f"/api/submissions/{number}/source", "c").content == source
    for path in (f"/api/submissions/{number}", f"/api/submissions/{number}/source"):
        response = served.get(path, "cpp")
        assert response.status_code in (403, 404) and source not in response.content
    game = next(g for g in served.games() if g["state"] == "finished")
    theirs = served.get(f"/api/games/{game['id']}/turns", "cpp").json()["seats"]
    assert all(seat["team"] == "cpp" for seat in theirs.values())
    too_big = httpx.post(served.url + "/api/submissions", timeout=10, files={"source": ("bot.py", b"#" * (2 << 20))},
                         headers={"authorization": f"Bearer {served.tokens['teams']['py']}"})
    assert too_big.status_code == 413 and "Traceback" not in too_big.text


def test_pages_in_chromium_login_upload_and_live_standings(served: Served, page: Any) -> None:
    page.goto(served.url + "/")
    played = int(page.locator("#standings-table tbody tr").count())
    assert played == len(SOURCES)
    page.wait_for_selector("body[data-games]")  # contest.js has drawn the standings from the API

    def games_shown() -> int:
        return int(page.locator("body").get_attribute("data-games") or 0)

    before = _wait("games in the standings", games_shown)
    page.goto(served.url + "/teams/cpp")
    page.click("#games-table a[href^='/replays/']")
    page.wait_for_selector("body[data-ready=replay]")
    page.click("#login-link")
    page.fill("#token", served.tokens["teams"]["cpp"])
    page.click("#login button[type=submit]")
    page.wait_for_url(served.url + "/team")
    cookie = next(c for c in page.context.cookies() if c["name"] == "mjarena_contest")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    page.set_input_files("#source", str(EXAMPLES / "bot.cpp"))
    page.click("#upload button[type=submit]")
    page.wait_for_selector("#submissions tr[data-version='2'] .status-ok", timeout=60_000)
    for width in (1280, 390):  # no link or number breaks across lines beside a long message (issue 25)
        page.set_viewport_size({"width": width, "height": 900})
        for cell in page.locator("#submissions td.link a, #submissions td.num").all():
            height, size = page.evaluate(
                "(e) => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).fontSize)]",
                cell.element_handle())
            assert height < 2 * size, f"{cell.inner_text()!r} wraps at {width} px"
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(served.url + "/teams/cpp")
    page.click("#games-table a[href^='/replays/']")
    page.wait_for_selector("body[data-ready=replay]")
    assert page.locator("#whoami").inner_text() == "cpp"
    page.goto(served.url + "/")
    _wait("the standings to update", lambda: games_shown() > before, timeout=90)
    assert page.locator("#whoami").inner_text() == "cpp"


def test_the_organisers_console_in_chromium(served: Served, page: Any) -> None:
    """Issue 24: log in as the organiser, add a team and see its token once, open the report of pairs of teams,
    read a submission's source and build log, pause and resume the window, play a finished game again."""
    page.on("dialog", lambda dialog: dialog.accept())  # the console asks before it plays a game again
    page.goto(served.url + "/admin")
    page.wait_for_url(served.url + "/admin/login")
    page.fill("#token", served.tokens["admin"])
    page.click("#admin-login button[type=submit]")
    page.wait_for_url(served.url + "/admin")
    assert page.locator("#admin-teams tbody tr").count() == len(SOURCES)
    page.fill("#team-name", "newcomer")
    page.click("#add-team button[type=submit]")
    token = page.locator("#new-token").inner_text()
    mine = httpx.get(served.url + "/api/submissions", headers={"authorization": f"Bearer {token}"}, timeout=10)
    assert mine.status_code == 200 and mine.json() == {"submissions": []}
    page.goto(served.url + "/admin")
    assert page.locator("#admin-teams tr[data-team=newcomer]").count() == 1
    assert token not in page.content()  # shown once
    if os.environ.get("MJARENA_SCREENSHOTS"):
        page.screenshot(path=str(Path(os.environ["MJARENA_SCREENSHOTS"]) / "contest-console.png"), full_page=True)
    page.click("nav.admin-nav a[href='/admin/pairs']")  # issue 36: the report of pairs of teams
    page.wait_for_url(served.url + "/admin/pairs")
    assert "finished games" in page.locator("#pairs-summary").inner_text()
    page.goto(served.url + "/admin/submissions")
    page.click("#admin-submissions tr[data-submission='1'] a")
    assert page.locator("#source-text").inner_text().strip() != ""
    page.goto(served.url + "/admin")
    page.click("#pause button")
    page.wait_for_selector("#resume")
    assert page.locator("#contest-state").inner_text() == "paused"
    assert httpx.get(served.url + "/api/standings", timeout=10).json()["state"] == "paused"
    page.click("#resume button")
    page.wait_for_selector("#pause")
    assert page.locator("#contest-state").inner_text() == "running"
    page.goto(served.url + "/admin/games")
    page.locator("form[action$='/replay'] button").first.click()
    page.wait_for_url(served.url + "/admin/games")

    def replayed() -> bool:
        page.goto(served.url + "/admin")
        return "replayed · game" in page.content()

    _wait("the game to be played again", replayed, timeout=90, every=1.0)


def test_the_race_and_versions_charts_in_chromium(served: Served, page: Any) -> None:
    """Issue 26: the standings page draws a line per team that played, each ending at the team's total, and
    keeps it with the standings as games finish; a team page draws its points per game by version."""
    shots = os.environ.get("MJARENA_SCREENSHOTS")
    page.goto(served.url + "/")
    page.wait_for_selector("body[data-games]")

    def drawn() -> dict[str, Any]:
        return page.evaluate("""() => {
            const lines = {};
            for (const g of document.querySelectorAll('#race-chart .chart-series'))
                if (g.dataset.last !== undefined) lines[g.dataset.series] = Number(g.dataset.last);
            const totals = {};
            for (const row of document.querySelectorAll('#standings-table tbody tr'))
                if (Number(row.cells[3].textContent) > 0)
                    totals[row.dataset.team] = Number(row.cells[2].textContent);
            return {lines, totals, games: document.body.dataset.games};
        }""")

    def agreed() -> dict[str, Any] | None:  # every team has played (the first games may still be running)
        now = drawn()
        return now if len(now["totals"]) == len(SOURCES) and now["lines"] == now["totals"] else None

    first = _wait("every team's line and the standings to agree", agreed, timeout=90, every=0.5)

    def updated() -> bool:  # more games finished: the chart followed the standings
        now = drawn()
        return now["games"] != first["games"] and now["lines"] == now["totals"]

    _wait("the chart to follow the standings", updated, timeout=90, every=0.5)
    if shots:
        page.locator("#race-chart").screenshot(path=str(Path(shots) / "contest-race.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    width, scroll = page.evaluate("() => [document.querySelector('#race-chart svg').getBoundingClientRect()"
                                  ".width, document.scrollingElement.scrollWidth]")
    assert 250 < width <= 390 and scroll <= 390  # drawn across the phone, no sideways scrolling
    if shots:
        page.locator("#race-chart").screenshot(path=str(Path(shots) / "contest-race-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(served.url + "/teams/py")
    versions = page.locator("#versions-chart .chart-line").get_attribute("data-points") or ""
    figures = {row["version"] for game in served.games() for row in game["players"]
               if row["team"] == "py" and game["state"] == "finished"}
    assert {int(float(pair.split(",")[0])) for pair in versions.split()} <= figures
    assert len(versions.split()) >= 1
    if shots:
        page.locator("#versions-chart").screenshot(path=str(Path(shots) / "contest-versions.png"))


@pytest.fixture
def page() -> Iterator[Any]:
    """A Chromium page at 1280 × 900; a script error on it fails the test.  Without Playwright or Chromium the
    test is skipped with the reason (failed under ``MJARENA_REQUIRE_BROWSER=1``)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed (pip install 'mjarena[test]')")
    if not os.access(CHROMIUM, os.X_OK):
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            problems: list[str] = []
            page.on("pageerror", lambda error: problems.append(str(error)))
            yield page
            assert problems == [], problems
        finally:
            browser.close()


def _unavailable(reason: str) -> None:
    if os.environ.get("MJARENA_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (MJARENA_REQUIRE_BROWSER=1 requires the browser tests)")
    pytest.skip(reason)


def test_kill_9_and_restart_lose_nothing_and_leave_no_bot(served: Served) -> None:
    assert served.process is not None
    _wait("a game in progress", lambda: any(g["state"] == "running" for g in served.games()), timeout=60)
    workers = json.loads((served.root / "serve.json").read_text())["workers"]
    bots = [(pid, start_time(pid)) for pid in find_by_token(contest_tokens(served.root.resolve()))]
    served.process.send_signal(signal.SIGKILL)
    served.process.wait(10)
    finished = served.finished_in_db()
    with sqlite3.connect(served.root / "contest.db") as connection:
        running = [row[0] for row in connection.execute("SELECT id FROM games WHERE state = 'running'")]
    assert running
    served.start()
    for worker in workers + [{"pid": pid, "start": start} for pid, start in bots]:
        assert not alive(worker["pid"], worker["start"]), f"process {worker['pid']} outlived the server"

    def replayed() -> bool:
        return all(g["state"] == "finished" for g in served.games() if g["id"] in running)

    _wait("the games that were running to be played again", replayed, timeout=90)
    after = served.finished_in_db()
    assert {gid: after[gid] for gid in finished} == finished  # nothing lost, nothing changed
    assert all(len(seats) == 4 for seats in after.values())
    standings, games = served.snapshot()
    assert len({g["id"] for g in games}) == len(games)
    for row in standings["rows"]:
        mine = [p for g in games if all(q["team"] for q in g["players"])  # (house games count for no team)
                for p in g["players"] if p["team"] == row["team"] and p["points"] is not None]
        assert (row["games"], row["points"]) == (len(mine), sum(p["points"] for p in mine))


def test_sigterm_stops_within_10_seconds_and_leaves_no_bot(served: Served) -> None:
    assert served.process is not None
    _wait("a game in progress", lambda: any(g["state"] == "running" for g in served.games()), timeout=60)
    finished = served.finished_in_db()
    started = time.monotonic()
    served.process.send_signal(signal.SIGTERM)
    served.process.wait(10)
    assert time.monotonic() - started < 10
    assert find_by_token(contest_tokens(served.root.resolve())) == []
    after = served.finished_in_db()
    assert {gid: after[gid] for gid in finished} == finished
    with sqlite3.connect(served.root / "contest.db") as connection:
        states = dict(connection.execute("SELECT id, state FROM games").fetchall())
    assert "running" in states.values()  # dropped, not recorded: the next serve plays it again (as above)
