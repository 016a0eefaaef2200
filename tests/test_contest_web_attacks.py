"""The contest's web side under the third round of attacks (issue 31): login CSRF, forms behind a proxy that
rewrites Host, the replay view flooded by anonymous clients.

The contest of test_contest.py (games played in this process, the test bot outside the sandbox); where a real
browser or real sockets matter, the app runs under uvicorn in a thread on 127.0.0.1, and the attacker's page is
served from ``localhost`` (another site for the browser: another host, not just another port).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from contest_forms import form_csrf, post_login
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

    def counted(*args: Any, **kwargs: Any) -> Any:
        compiles.append("compile")
        return real(*args, **kwargs)

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
