"""``mjarena serve``'s play and tournament pages read in Chinese: each page asked for with ``Accept-Language: zh-CN``
carries ``<html lang="zh-CN">``, no English left but names and code (tests/test_i18n_pages.py's allow-list), and the
words its script writes (``MJ.t()``, every one in the catalog); the data the scripts show (a game's choices, recent
moves, ending, results and messages; a tournament's chart, format and error kinds; the errors) is written in the
reader's language, the codes beside it, and English readers get what they always got.

The game is played for real against the built-in greedy bots, in this process (a few seconds).
"""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from mjarena.arena.tournament import Tournament
from mjarena.arena.tournament_settings import Entrant, Settings
from mjarena.web.app import create_app
from mjarena.web.play_words import PLAY_WORDS, TITLES, TOURNAMENT_WORDS
from test_contest import Inline
from test_i18n_pages import ZH, english_left

STATIC = Path(__file__).parent.parent / "src" / "mjarena" / "web" / "static"
CODES = {"builtin", "greedy", "noi", "NOI", "THUPC"}
"""Beside the allow-list: the opponents' names (``builtin:greedy``), the rule set's code and the contests' names."""


def script_messages(name: str) -> set[str]:
    """Every message page script ``name`` writes through ``MJ.t()``."""
    source = (STATIC / name).read_text(encoding="utf-8")
    return {json.loads(literal) for literal in re.findall(r'(?<![\w.])t\(("(?:[^"\\]|\\.)*")', source)}


def test_every_word_of_the_play_and_tournament_scripts_is_in_the_catalog() -> None:
    from mjarena.rulesets import RULE_SETS
    from mjarena.variants import get_variant

    assert script_messages("play.js") == set(PLAY_WORDS)
    assert script_messages("tournament.js") == set(TOURNAMENT_WORDS)
    assert {get_variant(name).title for name in RULE_SETS} <= set(TITLES)


def words_of(page: str) -> dict[str, str]:
    return json.loads(re.search(r'id="words">(.*?)</script>', page)[1])


def shown(view: dict[str, Any]) -> str:
    """The words a game's view gives the page: seats, choices, recent moves, the message, the ending, results."""
    words = [*view["seat_names"], *view["log"], view.get("message") or ""]
    words += [text for choice in view["choices"] for text in (choice["label"], choice["group_text"] or "")]
    if view.get("outcome"):
        words += [view["outcome"]["ended"], *(row["why"] for row in view["outcome"]["rows"]), *view["outcome"]["notes"]]
    for row in view.get("result") or []:
        words += [row["bot"], *(row.get(key) or "" for key in ("reason_text", "detail_text"))]
    return html.escape(" ".join(words))


def play_to_the_end(client: TestClient, url: str) -> dict[str, Any]:
    """Answer every decision with its last choice (a pass, or the last discard) until the game is over."""
    view = client.get(f"{url}?wait=5", headers=ZH).json()
    for _ in range(400):
        if view["state"] != "waiting":
            break
        assert english_left(shown(view)) - CODES == set(), view["choices"]
        answer = client.post(url, json={"version": view["version"], "choice": len(view["choices"]) - 1}, headers=ZH)
        view = answer.json()
        while view["state"] == "running":
            view = client.get(f"{url}?wait=5", headers=ZH).json()
    return view


def test_the_play_page_and_a_game_in_chinese(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path)) as client:
        page = client.get("/play", headers=ZH).text
        assert '<html lang="zh-CN">' in page and english_left(page) == set()
        words = words_of(page)
        assert words["Recent moves"] == "最近的动作" and words["Transcripts"] == "对话记录"  # the viewer's table too
        assert '<a href="/play">对战</a>' in page  # the page of games, not the viewer's 播放 (play) button
        options = client.get("/api/play", headers=ZH).json()["rules"]
        assert english_left(html.escape(" ".join(word for rules in options for word in (rules["title"],
                                                                                         *rules["seat_names"])))) \
            - CODES == set()
        started = client.post("/api/play", json={"rules": "noi2014", "seat": 0, "seed": 5,
                                                 "opponents": ["builtin:greedy"] * 3}, headers=ZH).json()
        game = client.get(started["url"], headers=ZH).text
        assert '<html lang="zh-CN">' in game and english_left(game) == set()
        url = f"/api/play/{started['id']}"
        waiting = client.get(f"{url}?wait=5", headers=ZH).json()
        assert waiting["seat_names"] == ["东", "南", "西", "北"]
        stale = client.post(url, json={"version": waiting["version"] + 7, "choice": 0}, headers=ZH).json()
        assert stale["error"].startswith("this answers decision") and "对局已到第" in stale["error_text"]
        english = client.get(f"{url}?wait=5").json()
        assert english["seat_names"][0] == "East" and "error_text" not in client.post(url, json={
            "version": 0, "choice": 0}).json()
        finished = play_to_the_end(client, url)
        assert finished["state"] == "finished" and finished["message"] == "对局结束；回放已保存"
        assert english_left(shown(finished)) - CODES == set()
        assert finished["result"][0]["bot"] == "玩家"
        english = client.get(f"{url}?wait=0").json()
        assert english["message"] == "game over; the replay is saved" and english["result"][0]["bot"] == "human"
        assert english["outcome"]["ended"] != finished["outcome"]["ended"]
        missing = client.get("/play/no-such-game", headers=ZH)
        assert missing.status_code == 404 and english_left(missing.text) == set()


def test_the_tournament_page_in_chinese(tmp_path: Path) -> None:
    settings = Settings.create([Entrant(name, "builtin:greedy") for name in ("ada", "bob", "cat", "dan")], rounds=1,
                               seed=1)
    Tournament(settings, tmp_path / "cup").run(Inline(), log=io.StringIO())
    with TestClient(create_app(tmp_path)) as client:
        page = client.get("/tournaments/cup", headers=ZH).text
        assert '<html lang="zh-CN">' in page and english_left(page) == {"cup"}  # the tournament's name
        assert words_of(page)["Standings"] == "排行榜" and set(TOURNAMENT_WORDS) <= set(words_of(page))
        state = client.get("/api/tournaments/cup", headers=ZH).json()
        chart = state["rating_chart"]["svg"] + state["rating_chart"]["table"]
        for name in ("ada", "bob", "cat", "dan"):
            chart = chart.replace(name, " ")
        assert english_left(chart + html.escape(state["format_text"])) == set()
        assert state["format"] == "swiss" and state["kinds"]["crash"] == "崩溃"
        english = client.get("/api/tournaments/cup").json()
        assert "Rating μ" in english["rating_chart"]["svg"] and "kinds" not in english
        missing = client.get("/tournaments/no-such-cup", headers=ZH)
        assert missing.status_code == 404 and english_left(missing.text.replace("no-such-cup", " ")) == set()
        assert client.get("/api/tournaments/no-such-cup", headers=ZH).json()["error_text"].startswith("这里没有")


def test_serve_s_refusals_in_chinese(tmp_path: Path) -> None:
    """A replay that is not one, a stale upload form and a missing file: the page says why in Chinese (the names in
    place); the API's ``error`` stays English beside its ``error_text``."""
    with TestClient(create_app(tmp_path)) as client:
        token = re.search(r'name="token" value="([^"]*)"', client.get("/", headers=ZH).text)[1]
        bad = client.post("/upload", data={"token": token}, files={"file": ("x.json", b"\xff")}, headers=ZH)
        assert bad.status_code == 400 and "x.json：不是回放文件" in bad.text and english_left(bad.text) == set()
        stale = client.post("/upload", data={"token": "old"}, files={"file": ("x.json", b"{}")}, headers=ZH)
        assert stale.status_code == 403 and english_left(stale.text) == set()
        missing = client.get("/replays/gone.json", headers=ZH)
        assert missing.status_code == 404 and english_left(missing.text.replace("gone", " ")) == set()
        api = client.get("/api/replays/gone.json", headers=ZH).json()
        assert api["error"].startswith("no such file here") and api["error_text"].startswith("这里没有这个文件")
