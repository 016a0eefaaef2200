"""The organiser's day in Chromium (issue 33), on test_contest.py's in-process contest served over loopback by
uvicorn in a thread (the rounds played by hand): a crashing team's errors linked to its games and its standard
error read in the organiser's viewer; an announcement seen on a team's page as it refreshes; a freeze that
hides the last games from the public and not from the organiser, then the reveal; the results page printed to
PDF; the console at 390 px with nothing cut.  Skipped without Chromium unless ``MJARENA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_contest import TEAMS, Server
from test_contest_e2e import _free_port, _wait, page  # noqa: F401  (the Chromium page fixture)
from test_contest_organiser import jade_crashes


class Live:
    """A :class:`Server` served over HTTP by uvicorn in a thread."""

    def __init__(self, server: Server) -> None:
        import uvicorn

        self.server = server
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.uvicorn = uvicorn.Server(uvicorn.Config(server.app, host="127.0.0.1", port=self.port,
                                                     log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)

    def __enter__(self) -> Live:
        self.thread.start()
        _wait("uvicorn to start", lambda: self.uvicorn.started, timeout=30, every=0.05)
        return self

    def __exit__(self, *_: Any) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(10)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    with Live(Server(tmp_path / "contest", freeze=5.0)) as served:  # the window: 1000 to 1600 s, frozen from 1300
        yield served


def test_the_organisers_day_in_chromium(live: Live, page: Any) -> None:  # noqa: F811
    shots = os.environ.get("MJARENA_SCREENSHOTS")
    server, url = live.server, live.url
    page.on("dialog", lambda dialog: dialog.accept())
    crashed = jade_crashes(server)
    page.goto(url + "/admin/login")
    page.fill("#token", server.tokens["admin"])
    page.click("#admin-login button[type=submit]")
    page.wait_for_url(url + "/admin")
    # why jade fails: its crashes, a link to those games, the standard error in full and in the viewer
    link = page.locator("#admin-teams tr[data-team=jade] a[data-kind=crash]")
    assert link.inner_text() == f"crash {len(crashed)}"
    link.click()
    page.wait_for_url(url + "/admin/teams/jade?kind=crash#games")
    assert page.locator("#team-games tbody tr").count() == len(crashed)
    assert "crasher-private-stderr" in page.locator("#team-games").inner_text()
    if shots:
        page.screenshot(path=str(Path(shots) / "contest-team-errors.png"), full_page=True)
    page.locator("#team-games tbody tr a[href^='/admin/replays/']").first.click()
    page.wait_for_selector("body[data-ready=replay]")
    assert "crasher-private-stderr" in page.content()
    # an announcement seen on a team's page as it refreshes
    team = page.context.browser.new_context().new_page()
    team.goto(url + "/login")
    team.fill("#token", server.tokens["teams"]["red"])
    team.click("#login button[type=submit]")
    team.wait_for_url(url + "/team")
    page.goto(url + "/admin")
    page.fill("#announcement", "Lunch at noon")
    page.click("#announce button[type=submit]")
    page.wait_for_url(url + "/admin")
    team.wait_for_selector("#messages li:has-text('Lunch at noon')", timeout=20_000)
    # the freeze: the public standings stop, the organiser's do not; then the reveal
    public = {row["team"]: row["points"] for row in server.standings()["rows"]}
    server.clock.now = 1400.0
    assert server.scheduler.step()
    server.scheduler.step()
    full = {row["team"]: row["points"] for row in server.contest.standings(server.clock())["rows"]}
    assert full != public
    viewer = page.context.browser.new_context().new_page()
    viewer.goto(url + "/")
    viewer.wait_for_selector("#frozen:not([hidden])")
    shown = {row.get_attribute("data-team"): float(row.locator("td").nth(2).inner_text())
             for row in viewer.locator("#standings-table tbody tr").all()}
    assert shown == public
    page.goto(url + "/admin")
    organiser = {row.get_attribute("data-team"): float(row.locator("td").nth(2).inner_text())
                 for row in page.locator("#admin-teams tbody tr").all()}
    assert organiser == full
    server.clock.now = 1700.0
    assert not server.scheduler.step()
    page.goto(url + "/admin")
    page.click("#reveal button")
    page.wait_for_url(url + "/admin")
    viewer.wait_for_selector("#frozen[hidden]", state="attached", timeout=20_000)
    _wait("the revealed standings", lambda: {
        row.get_attribute("data-team"): float(row.locator("td").nth(2).inner_text())
        for row in viewer.locator("#standings-table tbody tr").all()} == full, timeout=20)
    # the results page, printed
    page.goto(url + "/results")
    assert page.locator("#results-table tbody tr").count() == len(TEAMS)
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('header.top')).display") == "none"
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('#results-table')).fontSize)")
    assert size >= 14  # 11 pt at least
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 5_000
    page.emulate_media(media="screen")
    if shots:
        page.screenshot(path=str(Path(shots) / "contest-results.png"), full_page=True)
    # the console on a phone: every team's points, errors and New token button on screen, nothing wider
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(url + "/admin")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    for row in page.locator("#admin-teams tbody tr").all():
        box = row.locator("button").bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390, box
        assert row.locator("td").nth(2).bounding_box()["x"] < 390
    if shots:
        page.screenshot(path=str(Path(shots) / "contest-console-phone.png"), full_page=True)
    # the standings on a phone: every column, the thinking time too, inside the screen (issue 44)
    page.goto(url + "/")
    fits = page.evaluate("(() => { const box = document.getElementById('standings'); "
                         "return [box.scrollWidth, box.clientWidth]; })()")
    assert fits[0] <= fits[1], fits
    for cell in page.locator("#standings-table tbody tr td:last-child").all():
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390, box
