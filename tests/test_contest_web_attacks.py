"""The contest's web side under the third round of attacks (issue 31): login CSRF, forms behind a proxy that
rewrites Host, the replay view flooded by anonymous clients.

The contest of test_contest.py (games played in this process, the test bot outside the sandbox); where a real
browser or real sockets matter, the app runs under uvicorn in a thread on 127.0.0.1, and the attacker's page is
served from ``localhost`` (another site for the browser: another host, not just another port).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import socket
import socketserver
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from contest_forms import form_csrf, post_login
from live_server import running
from test_contest import BOT, Server, play_round

BOT_WITH_SECRET = BOT.replace(b"contest-bot-v1", b"red-secret")


@pytest.fixture
def server(tmp_path: Path) -> Server:
    return Server(tmp_path / "contest", ["red", "rival"])


def logged_in_as(client: Any) -> str | None:
    """The team whose session ``client`` holds (the page header's name), or None."""
    page = client.get("/team", follow_redirects=False)
    if page.status_code != 200:
        return None
    return page.text.split('id="whoami">', 1)[1].split("<", 1)[0]


# -- login CSRF ------------------------------------------------------------------------------------------------


def test_a_login_without_the_login_pages_token_is_refused(server: Server) -> None:
    """A foreign page's form carries the rival's token but cannot read or set the login page's cookie: 403, and
    no session (on the old code the victim's browser was logged in as the rival)."""
    rival = server.tokens["teams"]["rival"]
    forged = server.client.post("/login", data={"token": rival}, follow_redirects=False)
    assert forged.status_code == 403 and "login page" in forged.text
    assert "mjarena_contest" not in forged.headers.get("set-cookie", "")
    assert logged_in_as(server.client) is None
    server.client.get("/login")  # the victim's browser has a login cookie of its own: the attacker knows not its value
    guessed = server.client.post("/login", data={"token": rival, "csrf": "mjc_" + "A" * 43}, follow_redirects=False)
    assert guessed.status_code == 403 and logged_in_as(server.client) is None
    admin = server.client.post("/admin/login", data={"token": server.tokens["admin"]}, follow_redirects=False)
    assert admin.status_code == 403
    assert post_login(server.client, "/login", server.tokens["teams"]["red"]).status_code == 200
    assert logged_in_as(server.client) == "red"


def test_the_pages_send_their_origin_with_their_forms_and_post_forms_nowhere_else(server: Server) -> None:
    """Under the web app's ``Referrer-Policy: no-referrer`` Chromium posts the site's own forms with ``Origin:
    null`` (which is why the old check let null through); the contest's pages say ``same-origin`` instead, and
    their CSP allows forms to post to the site alone and no ``<base>``."""
    headers = server.client.get("/login").headers
    assert headers["referrer-policy"] == "same-origin"
    assert "form-action 'self'" in headers["content-security-policy"]
    assert "base-uri 'none'" in headers["content-security-policy"]


@pytest.mark.parametrize("headers", [{"origin": "null"}, {"sec-fetch-site": "cross-site"},
                                     {"sec-fetch-site": "same-site"}, {"origin": "http://evil.example"}])
def test_every_form_is_refused_from_a_page_without_an_origin_or_from_another_site(server: Server,
                                                                                  headers: dict[str, str]) -> None:
    """``Origin: null`` (a page with no-referrer, a sandboxed frame) passed the old check; ``Sec-Fetch-Site`` says
    cross-site even when no Origin is sent.  Each form: both logins (with their right tokens), the upload, the
    logout and a console form."""
    page = server.client.get("/login").text
    login = server.client.post("/login", data={"token": server.tokens["teams"]["red"], "csrf": form_csrf(page)},
                               headers=headers, follow_redirects=False)
    assert login.status_code == 403 and logged_in_as(server.client) is None
    page = server.client.get("/admin/login").text
    console = server.client.post("/admin/login", data={"token": server.tokens["admin"], "csrf": form_csrf(page)},
                                 headers=headers, follow_redirects=False)
    assert console.status_code == 403
    post_login(server.client, "/login", server.tokens["teams"]["red"])
    csrf = form_csrf(server.client.get("/team").text)
    upload = server.client.post("/team/upload", data={"csrf": csrf}, files={"source": ("bot.py", b"print(1)\n")},
                                headers=headers)
    assert upload.status_code == 403 and server.contest.db.submissions() == []
    assert server.client.post("/logout", data={"csrf": csrf}, headers=headers).status_code == 403
    assert logged_in_as(server.client) == "red"
    admin = TestClient(server.app)
    assert post_login(admin, "/admin/login", server.tokens["admin"]).status_code == 200
    console_csrf = form_csrf(admin.get("/admin").text)
    added = admin.post("/admin/teams", data={"name": "newbie", "csrf": console_csrf}, headers=headers)
    assert added.status_code == 403 and server.contest.db.team("newbie") is None


# -- shared builds -----------------------------------------------------------------------------------------------

BROKEN = b"def broken(:\n"


def test_a_cached_compile_error_names_the_file_of_whoever_asks(tmp_path: Path) -> None:
    """The same bytes under two names, one cache: the second build is a cache hit (no compiler runs) and its
    message names its own file, not the first one's (the cache kept the first uploader's name before)."""
    from mjarena import builds
    from mjarena.sandbox import Sandbox

    first, second = tmp_path / "ada_secret_plan_B.py", tmp_path / "mine.py"
    first.write_bytes(BROKEN)
    second.write_bytes(BROKEN)
    cache = tmp_path / "cache"
    made = builds.build(first, sandbox=Sandbox(kind="none"), cache_dir=cache)
    again = builds.build(second, sandbox=Sandbox(kind="none"), cache_dir=cache)
    assert made.status == again.status == "compile_error" and again.cached and again.key == made.key
    assert "ada_secret_plan_B.py" in made.message
    assert "mine.py" in again.message and "ada_secret_plan_B" not in again.message
    kept = json.loads((cache / made.key / "build.json").read_text())["message"]
    assert "ada_secret_plan_B" not in kept, "the cache keeps no uploader's name"


def test_another_teams_identical_upload_is_compiled_anew_and_shows_its_own_file_name(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """red uploads a broken bot as ada_secret_plan_B.py; rival uploads the same bytes as mine.py: rival's build is
    not red's (a compile of its own, so the verdict takes as long as any first compile) and its message names
    mine.py.  A team's own identical upload is still a cache hit (it learns only of its own uploads)."""
    from mjarena.builds import builder

    compiles: list[str] = []
    real = builder._compile

    def counted(toolchain: Any, data: bytes, *args: Any, **kwargs: Any) -> Any:
        if toolchain.sample is None or data != toolchain.sample.encode():  # not the toolchain's own check
            compiles.append("compile")
        return real(toolchain, data, *args, **kwargs)

    monkeypatch.setattr(builder, "_compile", counted)
    red = server.upload("red", BROKEN, "ada_secret_plan_B.py").json()
    rival = server.upload("rival", BROKEN, "mine.py").json()
    assert len(compiles) == 2, "another team's identical upload is no cache hit"
    records = server.contest.db.build_records()
    assert records[red["id"]][0] != records[rival["id"]][0]
    mine = server.client.get(f"/api/submissions/{rival['id']}", headers=server.auth("rival")).json()
    assert mine["status"] == "compile_error" and "mine.py" in mine["message"]
    assert "ada_secret_plan_B" not in mine["message"]
    again = server.upload("red", BROKEN, "plan_C.py").json()
    assert len(compiles) == 2, "a team's own identical upload is a cache hit"
    shown = server.client.get(f"/api/submissions/{again['id']}", headers=server.auth("red")).json()["message"]
    assert "plan_C.py" in shown and "ada_secret_plan_B" not in shown


# -- the replay view, asked for in a loop --------------------------------------------------------------------------


def test_a_replay_view_is_built_once_per_game_and_viewer_however_often_it_is_asked_for(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fifty anonymous fetches of one replay build its view once (the old server rebuilt the whole viewer data
    for each); a team in the game gets a view of its own (with its bots' output), built once too; a game played
    again is built again; the turns API is kept the same way."""
    from mjarena.web import library

    built: list[int] = []
    real = library.check_replay

    def counted(raw: bytes) -> Any:
        built.append(len(raw))
        return real(raw)

    monkeypatch.setattr(library, "check_replay", counted)
    server.upload("red", BOT_WITH_SECRET)
    server.upload("rival")
    play_round(server)
    (game,) = server.games()
    path = f"/api/replays/{game['id']}"
    public = [server.client.get(path) for _ in range(50)]
    assert {answer.status_code for answer in public} == {200} and len(built) == 1
    assert public[0].json() == public[-1].json() and "red-secret" not in public[0].text
    assert server.client.get(path, headers={"accept-encoding": "identity"}).json() == public[0].json()
    as_red = [server.client.get(path, headers=server.auth("red")) for _ in range(10)]
    assert "red-secret debug" in as_red[-1].text and len(built) == 2
    turns = [server.client.get(f"/api/games/{game['id']}/turns", headers=server.auth("red")) for _ in range(10)]
    assert "red-secret debug" in turns[-1].text and server.app.state.views.builds == 3
    with server.contest.db.transaction() as tx:  # as the console's "Play again" records it
        replay = server.contest.db.replay(game["id"])
        assert replay is not None
        tx.replace_result(game["id"], server.clock() + 5, [], replay)
    server.client.get(path)
    assert len(built) == 3, "a game played again has its view built again"


def test_a_client_may_have_only_so_many_views_built_a_minute() -> None:
    """Views already kept are free; new ones count against the client (429 with Retry-After past the limit)."""
    import asyncio

    from starlette.exceptions import HTTPException

    from mjarena.contest.views import ViewCache

    cache = ViewCache(per_client=2)

    def build() -> tuple[int, bytes]:
        return 200, b"{}"

    async def ask(game: int, client: str, now: float = 0.0) -> int:
        try:
            status, _ = await cache.get(("replay", game, 1.0, ()), build, client=client, now=now)
        except HTTPException as error:
            assert error.headers is not None and int(error.headers["retry-after"]) > 0
            return error.status_code
        return status

    async def flood() -> list[int]:
        return [await ask(1, "a"), await ask(2, "a"), await ask(3, "a"), await ask(1, "a"), await ask(3, "b"),
                await ask(4, "a", now=61.0)]

    assert asyncio.run(flood()) == [200, 200, 429, 200, 200, 200]
    assert cache.builds == 4


# -- replay storage --------------------------------------------------------------------------------------------------

PADDING_BOT = (Path(__file__).parent / "bots" / "padding_bot.py").read_bytes()


def database_bytes(root: Path) -> int:
    return sum(path.stat().st_size for path in root.glob("contest.db*"))


def test_a_padding_bots_replay_stays_within_its_budget_and_so_does_the_database(server: Server) -> None:
    """red pads its responses, debug output and standard error to the limits with random characters, control
    characters among them (a 5 to 11 MB replay before): its seat keeps at most its budget, the honest seat keeps
    all of its output, and the game adds no more than :func:`game_bound` to contest.db."""
    from mjarena.contest.replay_budget import RESPONSE_FLOOR, SEAT_BUDGET, game_bound, seat_cost

    server.upload("red", PADDING_BOT)
    server.upload("rival")
    server.client.get("/api/standings")  # the database's files as they are while serving
    before = database_bytes(server.contest.root)
    play_round(server)
    (game,) = server.games()
    grown = database_bytes(server.contest.root) - before
    with sqlite3.connect(server.contest.root / "contest.db") as connection:
        (stored,) = connection.execute("SELECT length(body) FROM replays").fetchone()
    replay = json.loads(server.contest.db.replay(game["id"]) or "{}")
    seats = {p["team"]: str(p["seat"]) for p in replay["contest"]["players"] if p["team"]}
    red, rival = (replay["transcripts"][seats[name]] for name in ("red", "rival"))
    spent = [seat_cost(line) for line in red]
    within = next(index for index, line in enumerate(red) if "replay budget" in line.get("debug", ""))
    assert sum(spent[:within]) <= SEAT_BUDGET < sum(spent[:within + 1]) + seat_cost({"debug": "x" * 4000})
    assert all("stderr" not in line and len(line["response"]) <= RESPONSE_FLOOR for line in red[within:])
    assert all("replay budget" not in line.get("debug", "") and "stderr" in line for line in rival)
    assert stored <= game_bound() and grown <= game_bound() + (256 << 10), (stored, grown)
    shown = server.client.get(f"/api/replays/{game['id']}", headers=server.auth("red")).json()
    assert shown["transcripts"], "the viewer shows the cut replay"


# -- over real sockets: uvicorn in a thread, a Host-rewriting proxy, Chromium -------------------------------------


@contextlib.contextmanager
def serving(app: Any) -> Iterator[str]:
    """``app`` under uvicorn on a free port of 127.0.0.1, in a thread; its base URL."""
    import uvicorn

    with running(uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))) as (_, port):
        yield f"http://127.0.0.1:{port}"


class HostRewritingProxy(socketserver.ThreadingTCPServer):
    """A reverse proxy as nginx's default ``proxy_set_header Host $proxy_host`` makes one: each request goes to
    ``backend`` (``host:port``) with its ``Host`` header replaced by the backend's (one request a connection)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, backend: str) -> None:
        self.backend = backend
        super().__init__(("127.0.0.1", 0), _ProxyHandler)


class _ProxyHandler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        client: socket.socket = self.request
        client.settimeout(10)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = client.recv(65536)
            if not chunk:
                return
            data += chunk
        head, rest = data.split(b"\r\n\r\n", 1)
        lines = head.split(b"\r\n")
        kept = [line for line in lines[1:] if line.split(b":", 1)[0].strip().lower() not in (b"host", b"connection")]
        backend = self.server.backend  # type: ignore[attr-defined]
        head = b"\r\n".join([lines[0], b"Host: " + backend.encode(), b"Connection: close", *kept])
        host, port = backend.rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=10) as upstream:
            upstream.sendall(head + b"\r\n\r\n" + rest)

            def forward() -> None:
                with contextlib.suppress(OSError):
                    while chunk := client.recv(65536):
                        upstream.sendall(chunk)

            threading.Thread(target=forward, daemon=True).start()
            while chunk := upstream.recv(65536):
                client.sendall(chunk)


@contextlib.contextmanager
def proxied(backend_url: str) -> Iterator[str]:
    """A :class:`HostRewritingProxy` to ``backend_url``; its own URL."""
    proxy = HostRewritingProxy(backend_url.split("://", 1)[1])
    thread = threading.Thread(target=proxy.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{proxy.server_address[1]}"
    finally:
        proxy.shutdown()
        proxy.server_close()
        thread.join(10)


PUBLIC = "http://contest.example"


def browser_like(proxy_url: str) -> httpx.Client:
    """A client that talks to the proxy as a browser at ``PUBLIC`` does: that Host, and that Origin on forms."""
    return httpx.Client(base_url=proxy_url, headers={"host": "contest.example"}, timeout=10)


def forms_through_the_proxy(server: Server, client: httpx.Client) -> list[int]:
    """The statuses of a login, an upload, a console login and a console form posted as from ``PUBLIC``."""
    origin = {"origin": PUBLIC}
    statuses = []
    page = client.get("/login").text
    statuses.append(client.post("/login", data={"token": server.tokens["teams"]["red"], "csrf": form_csrf(page)},
                                headers=origin).status_code)
    csrf = form_csrf(client.get("/team").text)
    statuses.append(client.post("/team/upload", data={"csrf": csrf}, files={"source": ("bot.py", BOT)},
                                headers=origin).status_code)
    page = client.get("/admin/login").text
    statuses.append(client.post("/admin/login", data={"token": server.tokens["admin"], "csrf": form_csrf(page)},
                                headers=origin).status_code)
    csrf = form_csrf(client.get("/admin").text)
    statuses.append(client.post("/admin/teams", data={"name": "newbie", "csrf": csrf}, headers=origin).status_code)
    return statuses


def test_forms_work_through_a_proxy_that_rewrites_host_when_the_public_url_is_given(tmp_path: Path) -> None:
    """Behind the proxy every form was refused (403: the Origin names the public host, the Host header the
    backend); with ``public_urls`` (``serve --public-url``) they pass, and a foreign origin still does not."""
    from mjarena.contest.app import create_app

    plain = Server(tmp_path / "plain", ["red", "rival"])
    with serving(plain.app) as url, proxied(url) as proxy, browser_like(proxy) as client:
        assert forms_through_the_proxy(plain, client)[0] == 403
    server = Server(tmp_path / "public", ["red", "rival"])
    app = create_app(server.contest, on_submission=server.builder.build, clock=server.clock,
                     judge=server.scheduler, public_urls=[PUBLIC + "/"])
    with serving(app) as url, proxied(url) as proxy, browser_like(proxy) as client:
        assert forms_through_the_proxy(server, client) == [303, 303, 303, 200]
        assert [s.team for s in server.contest.db.submissions()] == ["red"]
        assert server.contest.db.team("newbie") is not None
        csrf = form_csrf(client.get("/team").text)
        foreign = client.post("/logout", data={"csrf": csrf}, headers={"origin": "http://127.0.0.1"})
        assert foreign.status_code == 403 and "contest.example" in foreign.text


def test_the_public_url_option_is_checked() -> None:
    from mjarena.contest.forms import origin_of

    assert origin_of("HTTPS://Contest.Example:443") == "https://contest.example"
    assert origin_of("http://[::1]:8000/") == "http://[::1]:8000"
    for bad in ("contest.example", "ftp://x", "https://x/sub/path", "https://user@x", "https://x:99999"):
        with pytest.raises(ValueError, match="--public-url"):
            origin_of(bad)
    from mjarena.cli import main

    assert main(["contest", "serve", "/nonexistent", "--public-url", "example.org"]) == 2


def test_a_flood_of_replay_requests_builds_the_view_once_and_the_standings_keep_answering(server: Server) -> None:
    """Four clients fetch one replay in a loop while a bystander reads the standings: the view is built once
    (the old server rebuilt it for each request), and every standings request is answered."""
    server.upload("red")
    server.upload("rival")
    play_round(server)
    (game,) = server.games()
    with serving(server.app) as url:
        answers: list[int] = []

        def flood() -> None:
            with httpx.Client(base_url=url, timeout=30) as client:
                answers.extend(client.get(f"/api/replays/{game['id']}").status_code for _ in range(25))

        threads = [threading.Thread(target=flood) for _ in range(4)]
        for thread in threads:
            thread.start()
        with httpx.Client(base_url=url, timeout=30) as bystander:
            standings = [bystander.get("/api/standings").status_code for _ in range(20)]
        for thread in threads:
            thread.join(60)
    assert standings == [200] * 20
    assert answers == [200] * 100 and server.app.state.views.builds == 1


@pytest.fixture
def page() -> Iterator[Any]:
    """A Chromium page; skipped with the reason without Playwright or Chromium (failed under
    ``MJARENA_REQUIRE_BROWSER=1``)."""
    import os

    def unavailable(reason: str) -> None:
        if os.environ.get("MJARENA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{reason} (MJARENA_REQUIRE_BROWSER=1 requires the browser tests)")
        pytest.skip(reason)

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright for Python is not installed (pip install 'mjarena[test]')")
    if not os.access(CHROMIUM, os.X_OK):
        unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            yield browser.new_page()
        finally:
            browser.close()


CHROMIUM = "/usr/bin/chromium"


def test_a_foreign_page_cannot_log_a_browser_in_as_its_team(server: Server, page: Any, tmp_path: Path) -> None:
    """The rival's page (another site: localhost, the contest being at 127.0.0.1) has a no-referrer policy, so
    Chromium posts its login form with ``Origin: null``; it carries the rival's token.  Before, the victim's
    browser came back logged in as the rival (and would have uploaded its bot as the rival's); now the login is
    refused and the browser stays as it was: logged out, or logged in as its own team."""
    with serving(server.app) as url:
        trap = tmp_path / "trap"
        trap.mkdir()
        (trap / "index.html").write_text(
            '<!doctype html><meta name="referrer" content="no-referrer">'
            f'<form id="f" method="post" action="{url}/login">'
            f'<input name="token" value="{server.tokens["teams"]["rival"]}"></form>'
            '<script>document.getElementById("f").submit()</script>')
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(trap))
        with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as site:
            threading.Thread(target=site.serve_forever, daemon=True).start()
            trap_url = f"http://localhost:{site.server_address[1]}/"
            try:
                with page.expect_navigation(url=f"{url}/**"):
                    page.goto(trap_url)
                page.goto(f"{url}/team")
                assert page.url == f"{url}/login", "the foreign page logged the browser in"
                page.fill("#token", server.tokens["teams"]["red"])
                page.click("#login button[type=submit]")
                page.wait_for_url(f"{url}/team")
                with page.expect_navigation(url=f"{url}/**"):
                    page.goto(trap_url)
                page.goto(f"{url}/team")
                assert page.locator("#whoami").inner_text() == "red"
            finally:
                site.shutdown()


def test_the_contest_pauses_itself_before_its_disk_fills_and_says_why(server: Server) -> None:
    """Below the free-space floor the watch pauses the contest (no game starts), the standings (page and API)
    and the console say why, and the organiser's *Resume* starts the games again."""
    from mjarena.contest.disk import DiskWatch

    server.upload("red")
    server.upload("rival")
    free = {"bytes": 10 << 30}
    watch = DiskWatch(server.contest, min_free=1 << 30, free=lambda path: free["bytes"], clock=server.clock)
    assert watch.check() is None and server.standings()["state"] == "running"
    free["bytes"] = 300 << 20
    assert watch.check() is not None
    standings = server.standings()
    assert standings["state"] == "paused" and "300 MiB free" in standings["notice"]
    assert "300 MiB free" in server.client.get("/").text
    server.scheduler.step()
    server.scheduler.step()
    assert not any(g["state"] == "finished" for g in server.games()), "no game is played while the disk is short"
    admin = TestClient(server.app)
    post_login(admin, "/admin/login", server.tokens["admin"])
    console = admin.get("/admin").text
    assert "300 MiB free" in console
    free["bytes"] = 5 << 30
    resumed = admin.post("/admin/window", data={"action": "resume", "csrf": form_csrf(console)})
    assert resumed.status_code in (200, 303)
    assert server.standings()["state"] == "running" and "notice" not in server.standings()
    play_round(server)
    assert server.games() and all(g["state"] == "finished" for g in server.games())


# -- logins and names ----------------------------------------------------------------------------------------------


def test_failed_logins_are_limited_per_client_with_a_clear_429(server: Server) -> None:
    """Ten wrong tokens a minute from one address; the eleventh wrong one is a 429 saying when to try again.
    Logins that succeed are not counted, and a right token still logs in (tests/test_login_limits.py)."""
    for _ in range(12):
        assert post_login(server.client, "/login", server.tokens["teams"]["red"]).status_code == 200
    answers = [post_login(server.client, "/admin/login", "mjc_wrong").status_code for _ in range(10)]
    assert answers == [401] * 10
    refused = post_login(server.client, "/login", "mjc_wrong")
    assert refused.status_code == 429 and "too many failed logins" in refused.text
    assert 0 < int(refused.headers["retry-after"]) <= 60


@pytest.mark.parametrize("name", [".", "..", "..."])
def test_team_names_of_dots_alone_are_refused(tmp_path: Path, name: str) -> None:
    """Team ``..`` stored its uploads in the contest's folder itself (and its quota counted all of it)."""
    from mjarena.cli import main
    from mjarena.contest.model import Contest, ContestError, Settings

    with pytest.raises(ContestError, match="dots alone"):
        Contest.create(tmp_path / "c", ["red", name], Settings())
    assert main(["contest", "create", str(tmp_path / "d"), "--team", name]) == 2
    server = Server(tmp_path / "e", ["red"])
    with pytest.raises(ContestError, match="dots alone"):
        server.contest.add_team(name)
    assert server.contest.db.team(name) is None
