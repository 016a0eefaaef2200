"""The contest's pages and ``mjarena serve``'s play and tournament pages in Chromium with the zh-CN locale, at
390 px (a phone) and 1100 px: how wide each page is (wider than the window: something overflows), the English
words left in what ``mjarena serve``'s scripts wrote (names and code aside), and screenshots for docs/screenshots.

A contest of three teams is played in this process (one bot crashes at once, so its error shows), served over
loopback, and a team logs in as a contestant would; ``mjarena serve`` shows a folder with a small tournament, and a
game against three bots is started on its play page::

    .venv/bin/python tools/zh_cn_pages.py --out docs/screenshots

Chromium's fonts are the system's: on Debian, ``apt-get install fonts-wqy-microhei`` (or fonts-noto-cjk) gives
it Chinese ones; the pages download none.
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

PAGES = (("/", "standings"), ("/team", "team"), ("/teams/ada", "team-games"), ("/rounds", "rounds"),
         ("/replays/1#error", "replay"))
"""Each page and its screenshot's name; the replay opens on its first error (the crash's banner, the move)."""
SERVE_PAGES = (("/play", "play"), ("GAME", "game"), ("/tournaments/cup", "tournament"))
"""``mjarena serve``'s pages (``GAME``: a game started from the play page) and their screenshots' names."""
SERVE_NAMES = {"builtin", "greedy", "noi", "NOI", "THUPC", "OpenSkill", "Bot", "mjarena", "English", "Enter", "Esc",
               "ms", "ada", "bob", "cat", "dan", "cup", "PASS", "baida", "thupc", "random", "strong"}
"""Names and code a Chinese reader meets on those pages too: bots, rule sets, keys, units."""
BOTS = Path(__file__).resolve().parent.parent / "tests" / "bots"


class _Inline:
    remote = False

    def run(self, fn: Any, tasks: Any) -> Any:
        for task in tasks:
            yield task, fn(task)

    def close(self, cancel: bool = False) -> None:
        pass


def _contest() -> tuple[Any, dict[str, Any]]:
    from starlette.testclient import TestClient

    from mjarena.contest.app import create_app
    from mjarena.contest.building import Builder
    from mjarena.contest.model import Contest, Settings
    from mjarena.contest.scheduler import Scheduler

    root = Path(tempfile.mkdtemp()) / "contest"
    contest, tokens = Contest.create(root, ["ada", "bob", "shitou"], Settings(
        sandbox="none", start=time.time(), duration=60.0, uploads_per_minute=50, open_with=0))
    scheduler = Scheduler(contest, _Inline(), 1)
    app = create_app(contest, on_submission=Builder(contest).build, judge=scheduler)
    client = TestClient(app)
    good = (BOTS / "contest_bot.py").read_bytes()
    for team, source in (("ada", b"import sys\nsys.exit(3)\n"), ("bob", good), ("shitou", good)):
        client.post("/api/submissions", headers={"authorization": f"Bearer {tokens['teams'][team]}"},
                    files={"source": ("bot.py", source)})
    for _ in range(4):  # two rounds, each planned then played
        scheduler.step()
    client.post("/api/submissions", headers={"authorization": f"Bearer {tokens['teams']['ada']}"},
                files={"source": ("bot.py", b"def broken(:\n")})  # a compile error on ada's page
    return app, tokens


def _serve_folder() -> Any:
    """``mjarena serve``'s app on a folder holding a tournament of four greedy bots (two rounds)."""
    import io

    from mjarena.arena.tournament import Tournament
    from mjarena.arena.tournament_settings import Entrant, Settings
    from mjarena.web.app import create_app

    root = Path(tempfile.mkdtemp())
    settings = Settings.create([Entrant(name, "builtin:greedy") for name in ("ada", "bob", "cat", "dan")], rounds=2,
                               seed=1)
    Tournament(settings, root / "cup").run(_Inline(), log=io.StringIO())
    return create_app(root)


def _listen(app: Any) -> tuple[Any, str]:
    """Serve ``app`` over loopback in a thread: (its server, its address)."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def _english_left(text: str) -> list[str]:
    import re

    return sorted({word for word in re.findall(r"[A-Za-z][A-Za-z']+", text) if word not in SERVE_NAMES
                   and not re.fullmatch(r"[WBT]\d", word)})


def _serve_pages(browser: Any, url: str, locale: str, out: Path | None) -> None:
    """``mjarena serve``'s play, game and tournament pages at both widths: width, language, English left."""
    for width, suffix in ((390, "-phone"), (1100, "")):
        context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
        page = context.new_page()
        for path, name in SERVE_PAGES:
            if path == "GAME":
                page.goto(url + "/play?seed=5")
                page.wait_for_selector("body[data-ready=start]")
                page.click("#go")
                page.wait_for_selector("body[data-state=waiting]")
            else:
                page.goto(url + path)
                page.wait_for_timeout(1500)
            wide = page.evaluate("document.documentElement.scrollWidth")
            lang = page.evaluate("document.documentElement.lang")
            left = _english_left(page.evaluate("document.body.innerText"))
            shown = page.url.removeprefix(url) if path == "GAME" else path
            print(f"{width:>5} px  {shown[:16]:<16} lang={lang}  page width {wide} px  English left: {left or 'none'}")
            if out:
                page.screenshot(path=str(out / f"serve-{locale}-{name}{suffix}.png"), full_page=name != "game")
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="save the screenshots here")
    parser.add_argument("--locale", default="zh-CN")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    app, tokens = _contest()
    server, url = _listen(app)
    serve, serve_url = _listen(_serve_folder())
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
        for width, suffix in ((390, "-phone"), (1100, "")):
            context = browser.new_context(locale=args.locale, viewport={"width": width, "height": 900})
            page = context.new_page()
            page.goto(url + "/login")
            page.fill("#token", tokens["teams"]["ada"])
            page.click("#login button[type=submit]")
            page.wait_for_url(url + "/team")
            for path, name in PAGES:
                page.goto(url + path)
                if path.startswith("/replays/"):
                    page.wait_for_selector("body[data-ready=replay]")
                page.wait_for_timeout(2500 if path == "/" else 300)  # the standings refresh once
                wide = page.evaluate("document.documentElement.scrollWidth")
                lang = page.evaluate("document.documentElement.lang")
                print(f"{width:>5} px  {path:<16} lang={lang}  page width {wide} px")
                if args.out:
                    page.screenshot(path=str(args.out / f"contest-{args.locale}-{name}{suffix}.png"))
            context.close()
        _serve_pages(browser, serve_url, args.locale, args.out)
        browser.close()
    server.should_exit = serve.should_exit = True


if __name__ == "__main__":
    main()
