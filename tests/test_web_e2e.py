"""End-to-end tests of the web app in headless Chromium (Playwright for Python, the system's Chromium).

The server runs in a thread (uvicorn on 127.0.0.1, a free port); each test drives one page the way a person
would and saves its screenshots (desktop and phone widths) into ``$MJARENA_SCREENSHOTS`` when set (``make
screenshots`` sets it to ``docs/screenshots``), else into a temporary folder, so a test run leaves the tree
alone.  Without Chromium or Playwright the tests are skipped with the reason, unless ``MJARENA_REQUIRE_BROWSER=1``
makes that a failure.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from live_server import running
from mjarena.arena.match import run_match
from mjarena.arena.tournament import Tournament
from mjarena.arena.tournament_settings import Entrant, Settings
from mjarena.replay import save

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
SHOTS = Path(os.environ.get("MJARENA_SCREENSHOTS") or tempfile.mkdtemp(prefix="mjarena-screenshots-"))
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
CRASHING_BOT = f"{shlex.quote(sys.executable)} -c 'raise SystemExit(3)'"
DEBUG_BOT = f"{shlex.quote(sys.executable)} {Path(__file__).parent / 'bots' / 'debug_bot.py'} keep"
CJK = re.compile(r"[\u3400-\u9fff]")


def _unavailable(reason: str) -> None:
    if os.environ.get("MJARENA_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (MJARENA_REQUIRE_BROWSER=1 requires the browser tests)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed (pip install 'mjarena[test]')")
    if not os.access(CHROMIUM, os.X_OK):
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a NOI 2014 replay in which a bot crashes, and one replay of each other rule set."""
    folder = tmp_path_factory.mktemp("served")
    save(run_match(["builtin:greedy", CRASHING_BOT, "builtin:random", "builtin:greedy"], seed=11).to_json(),
         folder / "noi-crash.json")
    save(run_match(["builtin:greedy", "builtin:random"] * 2, rules="baida", seed=5).to_json(), folder / "baida.json")
    save(run_match(["builtin:fixed"] * 4, rules="thupc2021", seed=5).to_json(), folder / "thupc.json")
    save(run_match(["builtin:greedy", DEBUG_BOT, "builtin:random", "builtin:greedy"], seed=11).to_json(),
         folder / "debug" / "noi-debug.json")
    return folder


@pytest.fixture(scope="module")
def server(root: Path) -> Iterator[str]:
    """The app on a free port of 127.0.0.1, in a thread; its base URL."""
    import uvicorn

    from mjarena.web import create_app

    with running(uvicorn.Server(uvicorn.Config(create_app(root), log_level="warning", lifespan="on"))) as (_, port):
        yield f"http://127.0.0.1:{port}"


def _failed(request: Any, problems: list[str]) -> None:
    """A failed request is a problem, unless the page itself dropped it (an image replaced by a refresh of the
    table while it loaded: net::ERR_ABORTED)."""
    if "ERR_ABORTED" not in (request.failure or ""):
        problems.append(f"request failed: {request.url} ({request.failure})")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("requestfailed", lambda request: _failed(request, problems))
    yield page
    context.close()
    assert problems == [], f"the page reported errors: {problems}"


def _shot(page: Any, name: str, phone: bool = False) -> None:
    """Save ``SHOTS/<name>.png`` (the whole page), at the phone width too with ``phone``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    if phone:
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(SHOTS / f"{name}-phone.png"), full_page=True)
        page.set_viewport_size(DESKTOP)


def _counter(page: Any) -> tuple[int, int]:
    step, last = page.locator("#counter").inner_text().split(" / ")
    return int(step), int(last)


def test_replay_step_through_to_the_end(page: Any, server: str, root: Path) -> None:
    from playwright.sync_api import expect

    page.goto(server + "/")
    assert page.locator("table.list a").count() == 4
    assert page.locator("h3.folder").count() == 2, "grouped by folder"
    _shot(page, "index", phone=True)
    page.click("text=noi-crash.json")
    page.wait_for_selector("body[data-ready=replay]")
    start, last = _counter(page)
    assert start > 0 and page.locator(".seat .hand .tile").count() == 53, "it opens at the first move (a draw)"
    page.keyboard.press("Home")
    assert _counter(page)[0] == 0
    crash_step = None
    for expected in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        assert _counter(page) == (expected, last)
        if crash_step is None and page.locator("#banner").is_visible():
            crash_step = expected
            assert "crash" in page.locator("#banner").inner_text()
            assert "judge plays" in page.locator(".seat[data-seat='1']").inner_text()
            _shot(page, "replay-error")
        if expected == 40:
            _shot(page, "replay", phone=True)
    assert crash_step is not None, "the crash of seat 1 is shown where it happened"
    assert page.locator("#action").inner_text() == "game over"
    assert page.locator(".badge", has_text="rank 1").count() == 1
    page.keyboard.press("Home")
    assert _counter(page)[0] == 0
    page.keyboard.press("End")
    assert _counter(page)[0] == last
    page.keyboard.press("ArrowLeft")
    assert _counter(page)[0] == last - 1
    page.locator(f"#log li[data-step='{crash_step}']").click()
    assert _counter(page)[0] == crash_step
    page.goto(page.url.split("#")[0] + "#error")
    page.reload()  # arriving from an error: it opens at the error's move
    page.wait_for_selector("body[data-ready=replay]")
    assert _counter(page)[0] == crash_step
    page.keyboard.press("Home")
    page.select_option("#speed", "5")  # 8x
    page.keyboard.press(" ")
    expect(page.locator("#counter")).to_have_text(re.compile(r"^([5-9]|\d\d+) /"))
    page.keyboard.press(" ")
    paused = _counter(page)[0]
    time.sleep(0.3)
    assert _counter(page)[0] == paused, "space pauses"


@pytest.mark.parametrize("name", ["baida.json", "thupc.json"])
def test_replay_of_every_rule_set(page: Any, server: str, name: str) -> None:
    page.goto(f"{server}/replays/{name}")
    page.wait_for_selector("body[data-ready=replay]")
    page.keyboard.press("End")
    step, last = _counter(page)
    assert step == last > 50
    page.keyboard.press("Home")
    for _ in range(60):
        page.keyboard.press("ArrowRight")
    assert page.locator(".seat .discards .tile").count() > 0
    _shot(page, f"replay-{name.removesuffix('.json')}")


@pytest.mark.parametrize("name", ["noi-crash.json", "baida.json", "thupc.json"])
def test_replay_shows_what_each_discard_did_to_the_hand(page: Any, server: str, name: str) -> None:
    import json
    import urllib.request

    with urllib.request.urlopen(f"{server}/api/replays/{name}") as response:
        steps = json.load(response)["steps"]
    worse = next(step for step in steps if step.get("effect") and not step["effect"]["best"])
    best = next(step for step in steps if step.get("effect") and step["effect"]["best"])
    page.goto(f"{server}/replays/{name}#{worse['step']}")
    page.wait_for_selector("body[data-ready=replay]")
    assert _counter(page)[0] == worse["step"]
    shown = page.locator("#effect").inner_text()
    effect = worse["effect"]
    assert effect["text"] in shown and effect["verdict"] in shown and "discard" in shown, shown
    assert "not best" in page.locator(f"#log li[data-step='{worse['step']}']").inner_text()
    _shot(page, f"replay-effect-{name.removesuffix('.json')}")
    page.locator(f"#log li[data-step='{best['step']}']").click()
    assert "best discard" in page.locator("#effect").inner_text()
    page.keyboard.press("ArrowRight")  # the next step is not a discard: no annotation
    if "effect" not in steps[best["step"] + 1]:
        assert page.locator("#effect").inner_text().strip() == ""
    special = next((step for step in steps if "effect" in step and step["effect"] is None), None)
    if name == "thupc.json":
        assert special is not None and "special tile" in special["effect_note"]
    if special is not None:
        page.locator(f"#log li[data-step='{special['step']}']").click()
        assert page.locator("#effect").inner_text().strip() == ""
    page.uncheck("#effects")
    page.locator(f"#log li[data-step='{worse['step']}']").click()
    assert not page.locator("#effect").is_visible() and not page.locator("#log .badge.loss").first.is_visible()
    page.goto(f"{server}/replays/{name}#{worse['step']}")  # the choice is remembered
    page.wait_for_selector("body[data-ready=replay]")
    assert not page.is_checked("#effects")
    page.check("#effects")
    assert page.locator("#effect").is_visible()


def _play_one_move(page: Any) -> None:
    """Win when offered, pass on claims, otherwise discard the tile just drawn (or the first one)."""
    for label in ("HU", "SELF-DRAWN win", "RON", "Pass", "No target hand"):
        button = page.locator(f"#choices button[data-group='{label}']")
        if button.count():
            button.click()
            return
    drawn = page.locator(".seat.you .tile.clickable.drawn")
    (drawn if drawn.count() else page.locator(".seat.you .tile.clickable").first).click()


def _play_whole_game(page: Any, server: str, rules: str, seed: int, shots: str | None) -> int:
    page.goto(f"{server}/play?seed={seed}")
    page.wait_for_selector("body[data-ready=start]")
    page.evaluate("localStorage.setItem('mjarena.autopass', 'off')")  # this test clicks every decision itself
    page.select_option("#rules", rules)
    if shots:
        _shot(page, f"{shots}-start", phone=True)
    page.click("#go")
    page.wait_for_url(re.compile(r"/play/[\w-]+$"))
    moves = 0
    while True:
        page.wait_for_selector("body[data-state=waiting], body[data-state=finished]")
        if page.get_attribute("body", "data-state") == "finished":
            break
        assert page.locator(".seat:not(.you) .hand .tile[data-kind='-1']").count() > 0, "others' hands hidden"
        assert page.locator(".seat:not(.you) .hand .tile:not([data-kind='-1'])").count() == 0
        if shots and moves == 12:
            _shot(page, shots, phone=True)
        version = page.get_attribute("body", "data-version")
        _play_one_move(page)
        page.wait_for_selector(f"body:not([data-version='{version}'])")
        moves += 1
        assert moves < 400, "the game does not end"
    return moves


def test_play_a_whole_game_against_three_bots(page: Any, server: str, root: Path) -> None:
    moves = _play_whole_game(page, server, "noi2014", 5, "play")
    assert moves > 5
    assert "rank" in page.locator("table.results").inner_text()
    _shot(page, "play-finished")
    page.click("#replay-link")
    page.wait_for_selector("body[data-ready=replay]")
    assert "you" not in page.locator(".seat").first.inner_text()
    assert page.locator(".seathead", has_text="human").count() == 1
    played = list((root / "played").glob("*.json"))
    assert len(played) == 1


@pytest.mark.parametrize("rules", ["baida", "thupc2021"])
def test_play_other_rule_sets(page: Any, server: str, rules: str) -> None:
    assert _play_whole_game(page, server, rules, 3, None) > 3
    assert page.locator("#replay-link").count() == 1


class _SlowExecutor:
    """Plays the games one at a time in this process, with a pause before each: a tournament to watch."""

    remote = False

    def run(self, fn: Any, tasks: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
        for task in tasks:
            time.sleep(0.5)
            yield task, fn(task)

    def close(self, cancel: bool = False) -> None:
        pass


def test_tournament_standings_change_while_it_runs(page: Any, server: str, root: Path) -> None:
    bots = [Entrant(name, f"builtin:{kind}") for name, kind in
            (("greedy-1", "greedy"), ("greedy-2", "greedy"), ("random-1", "random"), ("random-2", "random"))]
    settings = Settings.create(bots, format="round-robin", rounds=2, games_per_table=3, seed=2014)
    tournament = Tournament(settings, root / "cup")
    page.goto(server + "/")
    page.click("text=cup")
    page.wait_for_selector("#standings-table")
    assert "0 of 6 games played" in page.locator("#summary").inner_text()
    assert "House bots" in page.locator("#rating-note").inner_text()  # why meeting them leaves a rating low
    before = page.locator("#standings-table tbody").inner_text()
    runner = threading.Thread(target=tournament.run, args=(_SlowExecutor(),), kwargs={"log": io.StringIO()})
    runner.start()
    seen: dict[str, str] = {"0": before}  # games played, as the page showed it -> its standings
    summaries: list[str] = []
    try:
        deadline = time.monotonic() + 120  # a cap: the loop ends when the page shows all 6 games
        while seen.get("6") is None and time.monotonic() < deadline:
            played = page.get_attribute("body", "data-played") or "0"
            if played not in seen:
                seen[played] = page.locator("#standings-table tbody").inner_text()
                if len(seen) == 2:
                    _shot(page, "tournament-running")
                if played not in ("0", "6"):
                    summaries.append(page.locator("#summary").inner_text())
            time.sleep(0.05)
    finally:
        runner.join(30)
    assert "6" in seen and len(seen) >= 3, f"the page showed {sorted(seen)} games played, expected 0, some, then 6"
    assert len(set(seen.values())) == len(seen), "the standings changed each time games were added"
    assert any(re.search(r"about \d+ s left", text) for text in summaries), f"an ETA while it runs: {summaries}"
    assert "finished" in page.locator("#summary").inner_text()
    assert page.locator("#games-table tbody tr").count() == 6
    assert "μ" in page.locator("#standings-table").inner_text() and "σ" in page.locator("#standings-table").inner_text()
    page.locator("#versus-box summary").click()
    assert page.locator("#versus-table tbody tr").count() == 4
    page.select_option("#filter-round", "2")
    assert page.locator("#games-table tbody tr").count() == 3
    assert page.locator("#games-table tbody tr[data-round='1']").count() == 0
    page.select_option("#filter-entrant", "random-1")
    assert 0 < page.locator("#games-table tbody tr").count() <= 3
    _shot(page, "tournament", phone=True)
    page.select_option("#filter-round", "")
    page.locator("#games-table a").first.click()
    page.wait_for_selector("body[data-ready=replay]")
    assert page.locator(".seathead", has_text="builtin:").count() == 4
    assert page.locator(".seathead", has_text="random-1 (builtin:random)").count() == 1, "entrants by name"


# -- watching and debugging a bot ---------------------------------------------------------------------------


def test_transcript_panel_shows_requests_answers_debug_and_the_error(page: Any, server: str) -> None:
    page.goto(f"{server}/replays/debug/noi-debug.json")
    page.wait_for_selector("body[data-ready=replay]")
    panel = page.locator("#transcripts")
    panel.locator("button[role=tab]", has_text="South").click()
    rows = panel.locator("tbody tr")
    assert rows.count() > 20
    first = rows.first.inner_text()
    assert "0 1" in first and "PASS" in first and "ok" in first
    assert "turn 1: 0 1" in panel.locator(".debug").first.inner_text()
    assert "stderr turn 1" in panel.locator(".stderr").first.inner_text()
    assert "mean" in panel.inner_text() and "max" in panel.inner_text()
    panel.scroll_into_view_if_needed()
    _shot(page, "transcripts", phone=True)
    page.goto(f"{server}/replays/noi-crash.json")
    page.wait_for_selector("body[data-ready=replay]")
    crashed = page.locator("#transcripts")
    assert crashed.locator("button[aria-selected=true]").inner_text() == "South", "the erring seat opens first"
    assert crashed.locator("tr[data-verdict=crash]").count() == 1
    assert "no answer" in crashed.locator("tr[data-verdict=crash]").inner_text()


@pytest.mark.parametrize(("name", "words"), [("noi-crash.json", ["win chance", "error (crash)"]),
                                             ("baida.json", ["tai", "arranged as"]),
                                             ("thupc.json", ["won on a discard of 4P from C"])])
def test_end_of_game_panel_per_rule_set(page: Any, server: str, name: str, words: list[str]) -> None:
    page.goto(f"{server}/replays/{name}")
    page.wait_for_selector("body[data-ready=replay]")
    page.keyboard.press("End")
    panel = page.locator("#outcome.now")
    assert panel.count() == 1
    text = panel.inner_text()
    assert all(word in text for word in words), text
    if name != "noi-crash.json":
        assert page.locator(".seat .tile.winning").count() == 1, "the winning tile is marked"
    assert not CJK.search(page.locator("main").inner_text()), "every glyph renders without CJK fonts"
    panel.scroll_into_view_if_needed()
    _shot(page, f"outcome-{name.removesuffix('.json')}", phone=name == "baida.json")


def test_the_ending_stays_hidden_until_the_last_move_unless_asked_for(page: Any, server: str) -> None:
    """Issue 25: stepping through a replay, its result is not spoiled from move 0."""
    page.goto(f"{server}/replays/thupc.json")
    page.wait_for_selector("body[data-ready=replay]")
    step, last = _counter(page)
    assert step < last  # it opens at the first move
    assert not page.locator("#outcome").is_visible() and not page.locator(".resultbox").is_visible()
    page.keyboard.press("End")
    assert page.locator("#outcome.now").is_visible() and page.locator(".resultbox").is_visible()
    page.keyboard.press("Home")
    assert not page.locator("#outcome").is_visible()
    before = _counter(page)[0]
    page.locator("#show-ending").check()  # the reader asks for it
    assert page.locator("#outcome").is_visible() and _counter(page)[0] == before == 0


# -- playing with the keyboard, auto-pass, hints, the phone ---------------------------------------------------


_NOW = """() => [document.body.dataset.state, document.body.dataset.version,
                 [...document.querySelectorAll('#choices button[data-group]')].map((b) => b.dataset.group)]"""


def _press_a_move(page: Any, groups: list[str]) -> None:
    """Win when offered, pass on claims, declare no target; otherwise pick the last tile (the one just drawn)
    with the keys and discard it with Enter."""
    if any(group in ("HU", "SELF-DRAWN win", "RON") for group in groups):
        page.keyboard.press("h")
    elif "Pass" in groups:
        page.keyboard.press(" ")
    elif "No target hand" in groups:
        page.click("#choices button[data-group='No target hand']")
    else:
        page.keyboard.press("ArrowLeft")  # from nothing picked, ← picks the last tile: the one just drawn
        assert page.locator(".seat.you .slot.selected").count() == 1
        page.keyboard.press("Enter")


def test_keyboard_play_with_auto_pass_and_distance_hints(page: Any, server: str, root: Path) -> None:
    page.goto(f"{server}/play?seed=21")
    page.wait_for_selector("body[data-ready=start]")
    page.click("#go")
    page.wait_for_url(re.compile(r"/play/[\w-]+$"))
    assert page.locator("#autopass").is_checked(), "auto-pass is on by default"
    moves, hinted = 0, False
    while True:
        page.wait_for_selector("body[data-state=waiting], body[data-state=finished]")
        state, version, groups = page.evaluate(_NOW)  # one snapshot: the page may be auto-passing meanwhile
        if state == "finished":
            break
        if state == "waiting" and groups != ["Pass"]:  # a Pass-only decision is the page's to answer
            assert "seed" not in page.locator("#facts").inner_text(), "the seed is shown only after the game"
            slots = page.locator(".seat.you .slot")
            if slots.count() and not hinted:
                hints = page.locator(".seat.you .slot .hint")
                assert hints.count() == slots.count() and page.locator(".seat.you .slot .hint.best").count() >= 1
                assert all(box["height"] >= 44 for box in (s.bounding_box() for s in slots.all()))
                hinted = True
            _press_a_move(page, groups)
            moves += 1
        page.wait_for_selector(f"body:not([data-version='{version}'])")
        assert moves < 400, "the game does not end"
    assert hinted
    assert "seed 21" in page.locator("#facts").inner_text()
    auto = int(re.search(r"(\d+)×", page.locator("#autopassed").inner_text()).group(1))
    assert auto > 0, "decisions with Pass as the only choice were answered for the player"
    page.locator("#outcome").wait_for()
    replay = root / page.get_attribute("#replay-link", "href").removeprefix("/replays/")
    from mjarena.replay import load

    data = load(replay)
    mine = [d for d in data["decisions"] if d["seat"] == 0]
    assert len(mine) == moves + auto, "every decision was either pressed or auto-passed"
    assert sum(1 for d in mine if d["response"] == "PASS") >= auto


def test_phone_layout_keeps_the_hand_and_the_controls_on_screen(browser: Any, server: str) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{server}/play?seed=4")
        page.wait_for_selector("body[data-ready=start]")
        page.click("#go")
        page.wait_for_selector("body[data-state=waiting]")
        while page.locator(".seat.you .slot").count() == 0:  # until a discard
            state, version, groups = page.evaluate(_NOW)
            if state == "waiting" and groups != ["Pass"]:
                _press_a_move(page, groups)
            page.wait_for_selector(f"body:not([data-version='{version}'])")
            page.wait_for_selector("body[data-state=waiting]")
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width} px wide: it scrolls sideways"
        tops = {round(box["y"]) for box in (s.bounding_box() for s in page.locator(".seat.you .hand > *").all())}
        assert len(tops) == 1, "the hand is one row"
        dock = page.locator("#dock").bounding_box()
        assert dock["y"] + dock["height"] <= PHONE["height"] + 1, "the controls are on screen"
        for button in page.locator("#choices button, .seat.you .slot").all():
            box = button.bounding_box()
            assert box["height"] >= 44, box
        assert not CJK.search(page.locator("main").inner_text())
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "play-phone-discard.png"))
    finally:
        context.close()


def test_an_exported_replay_opens_from_disk_offline(browser: Any, root: Path, tmp_path: Path) -> None:
    from mjarena.export import export
    from mjarena.replay import load

    exported = tmp_path / "noi-crash.html"
    exported.write_text(export(load(root / "noi-crash.json"), "html", name="noi-crash.json"), encoding="utf-8")
    context = browser.new_context(viewport=DESKTOP, offline=True)
    requested: list[str] = []
    context.route("**/*", lambda route: (requested.append(route.request.url),
                                         route.continue_() if route.request.url.startswith("file://")
                                         else route.abort()))
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    try:
        page.goto(exported.as_uri())
        page.wait_for_selector("body[data-ready=replay]")
        page.keyboard.press("End")
        assert _counter(page)[0] == _counter(page)[1] > 50
        assert page.locator("#outcome.now").count() == 1 and page.locator("#transcripts").count() == 1
        loaded = page.evaluate("[...document.images].every((image) => image.complete && image.naturalWidth > 0)")
        assert loaded and page.locator("img.tile").count() > 50, "every tile picture comes from the file"
        assert [url for url in requested if not url.startswith("file://")] == [], "no request leaves the file"
        assert problems == []
        _shot(page, "exported")
    finally:
        context.close()


# -- the replay's distance chart (issue 26) -------------------------------------------------------------------

_CHART_LINES = """() => [...document.querySelectorAll('#distance .chart-series')].map(
    (group) => [group.dataset.series, group.querySelector('.chart-line').dataset.points])"""
_PAGE_DATA = """() => (document.getElementById('mj-data') ? Promise.resolve(JSON.parse(
    document.getElementById('mj-data').textContent)) : fetch('/api/replays/' + document.getElementById('app')
    .dataset.replay).then((response) => response.json()))
    .then((view) => [view.distances, view.steps.map((step) => step.event)])"""
_WINS = {"hu", "hu_self", "ron", "self_drawn", "win"}


def _check_distance_chart(page: Any) -> tuple[list[list[int | None]], list[int]]:
    """The chart has a line per seat whose points are the page's data: the page's distances, and the step of
    each seat's win (its first win event: THUPC's RON is followed by a WIN)."""
    distances, events = page.evaluate(_PAGE_DATA)
    lines = page.evaluate(_CHART_LINES)
    assert len(lines) == len(distances) == 4, "one line per seat"
    assert len({name for name, _ in lines}) == 4, "each line named by its seat and player"
    for (_, drawn), series in zip(lines, distances, strict=True):
        expected = [(step, value) for step, value in enumerate(series) if value is not None]
        assert [tuple(int(n) for n in pair.split(",")) for pair in drawn.split()] == expected
    wins: dict[int, int] = {}
    for step, event in enumerate(events):
        if event and event["type"] in _WINS:
            wins.setdefault(event["seat"], step)
    assert all(distances[seat][step] == 0 for seat, step in wins.items()), "a win is at distance 0"
    return distances, sorted(wins.values())


def _shown_marks(page: Any) -> list[int]:
    """The steps of the win and error marks drawn now."""
    return sorted(int(mark.get_attribute("data-x")) for mark in page.locator("#distance .chart-mark").all()
                  if mark.is_visible())


def test_replay_distance_chart_follows_the_viewer(page: Any, server: str) -> None:
    """Issue 26: each seat's distance over the moves; the current move marked, a click jumps there, and nothing
    after the current move is drawn until the ending is shown."""
    console: list[str] = []  # a Content-Security-Policy refusal (an inline style) is a console error
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    page.goto(f"{server}/replays/noi-crash.json")
    page.wait_for_selector("body[data-ready=replay]")
    distances, wins = _check_distance_chart(page)
    step, last = _counter(page)
    marker = page.locator("#distance .chart-x-marker")
    assert int(marker.get_attribute("data-x")) == step
    assert wins and all(win > step for win in wins) and _shown_marks(page) == [], "no win shown before it happens"
    target = (step + min(wins)) // 2
    page.locator(f'#distance rect.chart-x[data-x="{target}"]').click()
    assert _counter(page)[0] == target == int(marker.get_attribute("data-x")), "a click on a move goes there"
    shown = float(page.locator("#distance-chart-so-far rect").get_attribute("width"))
    assert shown <= float(marker.get_attribute("x1")) + 1, "the lines stop at the current move"
    assert _shown_marks(page) == [6], "the crash (move 6) is marked, the win not yet"
    page.keyboard.press("End")
    assert int(marker.get_attribute("data-x")) == last
    assert _shown_marks(page) == sorted([6, *wins]), "at the end every win and the error are marked"
    page.keyboard.press("Home")
    page.locator("#show-ending").check()
    assert _shown_marks(page) == sorted([6, *wins]), "the ending toggle shows the whole chart"
    page.locator("#show-ending").uncheck()
    page.keyboard.press("End")
    summary = page.locator("#distance details summary")
    summary.click()
    rows = page.locator("#distance table.chart-table tbody tr")
    assert rows.count() == sum(1 for values in zip(*distances, strict=True) if any(v is not None for v in values))
    summary.click()
    chart = page.locator("#distance")
    chart.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    chart.screenshot(path=str(SHOTS / "replay-distance.png"))
    page.set_viewport_size(PHONE)
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide: it scrolls sideways"
    box = page.locator("#distance svg.chart").bounding_box()
    assert box["width"] <= PHONE["width"] and box["height"] > 150
    chart.screenshot(path=str(SHOTS / "replay-distance-phone.png"))
    assert console == []


def test_an_exported_replay_draws_its_distance_chart_offline(browser: Any, root: Path, tmp_path: Path) -> None:
    from mjarena.export import export
    from mjarena.replay import load

    exported = tmp_path / "baida.html"
    exported.write_text(export(load(root / "baida.json"), "html", name="baida.json"), encoding="utf-8")
    context = browser.new_context(viewport=DESKTOP, offline=True)
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file://")
                  else route.abort())
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        page.goto(exported.as_uri())
        page.wait_for_selector("body[data-ready=replay]")
        _, wins = _check_distance_chart(page)
        page.keyboard.press("End")
        assert wins and _shown_marks(page) == wins
        target = _counter(page)[1] // 2
        page.locator(f'#distance rect.chart-x[data-x="{target}"]').click()
        assert _counter(page)[0] == target
        assert problems == []
    finally:
        context.close()


# -- the tournament's rating chart and the compare plot (issue 26) ----------------------------------------------

_RATING_LINES = """() => [...document.querySelectorAll('#rating-chart .chart-series')].map((group) => [
    group.dataset.series, Number(group.dataset.last), group.querySelector('.chart-line').dataset.points.split(' ')])"""
_TEXT_PX = """(selector) => { const svg = document.querySelector(selector);
    const scale = svg.getScreenCTM().a;
    return Math.min(...[...svg.querySelectorAll('text')].map((t) => scale * parseFloat(getComputedStyle(t).fontSize)));
}"""


class _QuickExecutor(_SlowExecutor):
    """:class:`_SlowExecutor` without the pause."""

    def run(self, fn: Any, tasks: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
        return ((task, fn(task)) for task in tasks)


def _table_mu(page: Any) -> dict[str, str]:
    """The μ the standings table shows for each entrant (as written there: one decimal)."""
    shown = {}
    for row in page.locator("#standings-table tbody tr").all():
        shown[row.get_attribute("data-bot")] = re.search(r"μ (-?[\d.]+)", row.inner_text()).group(1)
    return shown


def _check_rating_chart(page: Any, rounds: int) -> None:
    """A line per rated entrant (house bots left out), a point per round from round 0, ending at the table's μ."""
    lines = page.evaluate(_RATING_LINES)
    shown = _table_mu(page)
    assert sorted(name for name, _, _ in lines) == sorted(shown), "a line per rated entrant, no house bot"
    for name, last, points in lines:
        assert [int(point.split(",")[0]) for point in points] == list(range(rounds + 1))
        assert f"{last:.1f}" == shown[name], f"{name}: the line ends at {last}, the table shows μ {shown[name]}"
    assert page.locator("#rating-chart-table table tbody tr").count() == rounds + 1


def test_tournament_rating_chart_follows_the_standings(browser: Any, server: str, root: Path) -> None:
    """Issue 26: each entrant's μ ± σ over the rounds, drawn by the server into the JSON the page polls, so the
    chart grows with the games; at 1280 and 390 px, legible on the phone, a legend entry hides its line."""
    bots = [Entrant(f"bot-{n}", f"builtin:{kind}") for n, kind in enumerate(["greedy", "random"] * 3)]
    settings = Settings.create(bots, format="swiss", rounds=3, seed=26)  # 6 entrants: two house bots pad
    tournament = Tournament(settings, root / "league")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    try:
        page.goto(f"{server}/tournaments/league")
        page.wait_for_selector("#rating-chart svg.chart")
        _check_rating_chart(page, 0)
        tournament.run(_QuickExecutor(), log=io.StringIO())
        page.wait_for_selector("body[data-played='6']")
        page.wait_for_function("document.querySelectorAll('#rating-chart .chart-point').length === 6 * 4")
        _check_rating_chart(page, 3)
        assert len(set(page.evaluate(_RATING_LINES)[0][2])) == 4
        assert page.locator("#rating-chart .chart-band").count() == 6
        legend = page.locator("#rating-chart .chart-legend-item").first
        line = page.locator(f"#rating-chart .chart-series[data-series='{legend.get_attribute('data-series')}']")
        legend.click()
        assert not line.is_visible() and legend.get_attribute("aria-pressed") == "false"
        legend.press("Enter")
        assert line.is_visible()
        legend.blur()
        assert page.evaluate(_TEXT_PX, "#rating-chart svg") >= 11
        page.locator("#rating-chart").screenshot(path=str(_shots() / "tournament-chart.png"))
        page.set_viewport_size(PHONE)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"], "no sideways scroll"
        assert page.evaluate(_TEXT_PX, "#rating-chart svg") >= 11, "the text stays legible on a phone"
        page.locator("#rating-chart").screenshot(path=str(_shots() / "tournament-chart-phone.png"))
        assert problems == []
    finally:
        context.close()


def _shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def test_compare_plot_opens_in_chromium_as_a_file(browser: Any, tmp_path: Path) -> None:
    """``mjarena compare --plot``: a standalone SVG that draws offline, its LLR line between both bounds."""
    from mjarena.cli import main

    plot = tmp_path / "compare-plot.svg"
    assert main(["compare", "builtin:strong", "builtin:greedy", "--games", "56", "--sprt", "0,20", "--quiet",
                 "--json", "--sandbox", "none", "--workers", "2", "--plot", str(plot)]) == 0
    context = browser.new_context(viewport={"width": 1280, "height": 1200}, offline=True)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    try:
        page.goto(plot.as_uri())
        assert page.locator(".chart-panel").count() == 2
        assert len(page.locator(".chart-series[data-series='LLR'] .chart-point").all()) == 4
        assert page.locator(".chart-hline").count() == 3
        assert page.evaluate(_TEXT_PX, "svg") >= 11
        box = page.evaluate("(() => { const r = document.documentElement.getBoundingClientRect(); "
                            "return {x: 0, y: 0, width: Math.ceil(r.width), height: Math.ceil(r.height)}; })()")
        page.screenshot(path=str(_shots() / "compare-plot.png"), clip=box)
        page.set_viewport_size(PHONE)
        assert page.evaluate(_TEXT_PX, "svg") >= 10, "the text grows on a phone"
        assert problems == []
    finally:
        context.close()
