"""A contestant's day read in Chinese: the contest's public pages, login and team pages asked for with
``Accept-Language: zh-CN`` carry ``<html lang="zh-CN">`` and no English left but names and code (an allow-list);
the switch's cookie wins over the header, and English readers get the pages as they were.

The bots play for real, in this process (as tests/test_contest.py plays them): one team's bot crashes at once, so
its game is short and its error shows.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from contest_forms import form_csrf, post_login
from mjarena.contest.app import create_app
from mjarena.contest.building import Builder
from mjarena.contest.model import Contest, Settings
from mjarena.contest.scheduler import Scheduler
from test_contest import Clock, Inline

GOOD = (Path(__file__).parent / "bots" / "contest_bot.py").read_bytes()
CRASH = b"import sys\nsys.exit(3)\n"
ZH = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}
ALLOWED = {"mjarena", "contest", "Bot", "Botzone", "MiB", "KiB", "JSON", "UTF", "SHA", "PDF", "CPU", "English", "ada",
           "bob", "python", "bot", "cpp", "java", "pas", "js"}
"""Words an English reader and a Chinese one both read: the product's name, units, formats, the processor (a
timeout's detail; the console's note when the judge's machine was busy), the teams' names and the contest's (its
folder's), languages, and the switch's "English"."""


def english_left(page: str) -> set[str]:
    """The English words a Chinese reader would meet on ``page``: its text and its tooltips, without scripts, code,
    compiler output and the words of :data:`ALLOWED`."""
    page = re.sub(r"(?s)<(script|style|code|pre)\b.*?</\1>", " ", page)
    shown = " ".join(re.findall(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"', page))
    text = html.unescape(re.sub(r"(?s)<[^>]+>", " ", page) + " " + shown)
    text = re.sub(r"\.\w+", " ", text)  # file kinds (.cpp, .py), as the upload form lists them
    words = re.findall(r"[A-Za-z][A-Za-z']+", text)
    return {word for word in words if word not in ALLOWED and not re.fullmatch(r"v\d+|[WBT]\d", word)}


def test_the_check_finds_english_left():
    page = '<p title="the mean">平均 <code>mjarena verify</code> ada v2 W3 Log in</p><script>x = "no"</script>'
    assert english_left(page + " .cpp") == {"the", "mean", "Log", "in"}


@pytest.fixture(scope="module")
def contest(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("i18n") / "contest"
    contest, tokens = Contest.create(root, ["ada", "bob"], Settings(sandbox="none", start=1000.0, duration=10.0,
                                                                     uploads_per_minute=50, open_with=0))
    clock = Clock(1000.0)
    builder = Builder(contest)
    scheduler = Scheduler(contest, Inline(), 1, clock=clock)
    client = TestClient(create_app(contest, on_submission=builder.build, clock=clock, judge=scheduler))
    for team, source in (("ada", CRASH), ("bob", GOOD)):
        answer = client.post("/api/submissions", headers={"authorization": f"Bearer {tokens['teams'][team]}"},
                             files={"source": ("bot.py", source)})
        assert answer.status_code in (200, 201, 202), answer.text
    assert scheduler.step()
    scheduler.step()
    games = client.get("/api/games").json()["games"]
    assert [game["state"] for game in games] == ["finished"]
    assert {player["reason"] for player in games[0]["players"] if player["team"] == "ada"} == {"crash"}
    client.post("/api/submissions", headers={"authorization": f"Bearer {tokens['teams']['ada']}"},
                files={"source": ("bot.py", b"def broken(:\n")})  # v2: a compile error on ada's page
    return client, tokens


PUBLIC = ["/", "/rounds", "/results", "/teams/ada", "/teams/bob", "/replays/1", "/login", "/no-such-page"]


@pytest.mark.parametrize("path", PUBLIC)
def test_a_public_page_in_chinese(contest: Any, path: str) -> None:
    client, _ = contest
    client.cookies.clear()
    page = client.get(path, headers=ZH)
    assert page.status_code == (404 if path == "/no-such-page" else 200)
    assert '<html lang="zh-CN">' in page.text and page.headers["content-language"] == "zh-CN"
    assert english_left(page.text) == set(), path


def test_the_team_s_pages_in_chinese(contest: Any) -> None:
    client, tokens = contest
    client.cookies.clear()
    login = client.get("/login", headers=ZH)
    wrong = client.post("/login", data={"token": "not-a-token", "csrf": form_csrf(login.text)}, headers=ZH)
    assert wrong.status_code == 401 and "令牌" in wrong.text and english_left(wrong.text) == set()
    login = client.get("/login", headers=ZH)
    assert client.post("/login", data={"token": tokens["teams"]["ada"], "csrf": form_csrf(login.text)},
                       headers=ZH, follow_redirects=False).status_code == 303
    team = client.get("/team", headers=ZH).text
    assert "编译错误" in team and "上传 Bot" in team
    assert english_left(team) == set()
    games = client.get("/teams/ada", headers=ZH).text
    assert "崩溃" in games  # its error's kind, in the reader's language
    assert english_left(games) == set()
    client.cookies.clear()


def test_the_switch_s_cookie_wins_and_english_stays_english(contest: Any) -> None:
    client, _ = contest
    client.cookies.clear()
    english = client.get("/rounds").text
    assert '<html lang="en">' in english and "Rounds" in english
    client.get("/lang/en", headers=ZH)
    assert '<html lang="en">' in client.get("/rounds", headers=ZH).text
    client.get("/lang/zh-CN")
    assert '<html lang="zh-CN">' in client.get("/rounds").text
    client.cookies.clear()


def test_a_refused_request_in_chinese(contest: Any) -> None:
    """What is not there (a game, a team, a submission) and a stale form: said in Chinese, the names in place."""
    client, tokens = contest
    client.cookies.clear()
    for path in ("/replays/999", "/teams/nobody"):
        missing = client.get(path, headers=ZH)
        assert missing.status_code == 404 and english_left(missing.text.replace("nobody", " ")) == set(), path
    stale = client.post("/login", data={"token": "x", "csrf": "x"}, headers=ZH)
    assert stale.status_code == 403 and english_left(stale.text) - {"Cookie"} == set()
    assert post_login(client, "/login", tokens["teams"]["ada"], follow_redirects=False).status_code == 303
    missing = client.get("/team/submissions/99/source", headers=ZH)
    assert missing.status_code == 404 and "没有提交 99" in missing.text and english_left(missing.text) == set()
    stale = client.post("/team/upload", data={"csrf": "old"}, files={"source": ("bot.py", b"x")}, headers=ZH)
    assert stale.status_code == 403 and english_left(stale.text) == set()
    client.cookies.clear()


CONSOLE = ["/admin", "/admin/submissions", "/admin/submissions/1", "/admin/submissions/3", "/admin/games",
           "/admin/pairs", "/admin/teams/ada", "/admin/teams/ada?kind=crash", "/admin/teams/bob?version=1",
           "/admin/replays/1"]
CONSOLE_ALLOWED = {"zip", "CSV", "Holm", "pairs"}
"""The console's own names beside :data:`ALLOWED`: the archive's and the export's formats, the statistician, the
file ``pairs.csv``."""


def test_the_organiser_s_console_in_chinese(contest: Any) -> None:
    client, tokens = contest
    client.cookies.clear()
    login = client.get("/admin/login", headers=ZH)
    assert '<html lang="zh-CN">' in login.text and english_left(login.text) == set()
    wrong = client.post("/admin/login", data={"token": "not-a-token", "csrf": form_csrf(login.text)}, headers=ZH)
    assert wrong.status_code == 401 and "管理员令牌" in wrong.text and english_left(wrong.text) == set()
    assert post_login(client, "/admin/login", tokens["admin"], follow_redirects=False).status_code == 303
    for path in CONSOLE:
        shown = client.get(path, headers=ZH)
        assert shown.status_code == 200 and '<html lang="zh-CN">' in shown.text, path
        machines = re.sub(r'<td class="node">[^<]*</td>', " ", shown.text)  # the machine that played a game
        assert english_left(machines) - CONSOLE_ALLOWED == set(), path
    assert "控制台" in client.get("/admin", headers=ZH).text
    english = client.get("/admin").text  # the same console in English, as it was
    assert '<html lang="en">' in english and "Teams and window" in english and "控制台" not in english
    client.cookies.clear()


def test_a_refusal_with_values_in_the_reader_s_language(contest: Any) -> None:
    """An upload refused (its file's kind, its text) and a question refused: the page says why in Chinese, the
    values in place; the API says it in English, as its clients parse it."""
    client, tokens = contest
    client.cookies.clear()
    assert post_login(client, "/login", tokens["teams"]["ada"], follow_redirects=False).status_code == 303
    csrf = form_csrf(client.get("/team", headers=ZH).text)
    kind = client.post("/team/upload", data={"csrf": csrf}, files={"source": ("bot.xyz", b"x")}, headers=ZH)
    assert kind.status_code == 415 and "bot.xyz：无法识别的语言" in kind.text and english_left(kind.text) == set()
    text = client.post("/team/upload", data={"csrf": csrf}, files={"source": ("bot.py", b"a\xff")}, headers=ZH)
    assert text.status_code == 400 and "bot.py：源代码不是 UTF-8 文本（第 2 字节）" in text.text
    assert english_left(text.text) == set()
    asked = client.post("/team/questions", data={"csrf": csrf, "text": " "}, headers=ZH)
    assert asked.status_code == 400 and "消息为空" in asked.text and english_left(asked.text) == set()
    english = client.post("/team/upload", data={"csrf": csrf}, files={"source": ("bot.xyz", b"x")})
    assert "bot.xyz: unknown language; send one of" in english.text
    client.cookies.clear()
    api = client.post("/api/submissions", headers={"authorization": f"Bearer {tokens['teams']['ada']}", **ZH},
                      files={"source": ("bot.xyz", b"x")})
    assert api.status_code == 415 and api.json()["error"].startswith("bot.xyz: unknown language")


def test_the_replay_viewer_gets_its_words_from_the_page(contest: Any) -> None:
    """Every message the viewer's scripts write through ``MJ.t()`` is in the catalog, and a replay's page in
    Chinese (the public one, the console's) gives the viewer their translations; in English it gives none."""
    from mjarena.web.viewer_words import VIEWER_WORDS

    static = Path(__file__).parent.parent / "src" / "mjarena" / "web" / "static"
    called = {json.loads(literal) for name in ("mj.js", "replay.js")
              for literal in re.findall(r'(?<![\w.])t\(("(?:[^"\\]|\\.)*")', (static / name).read_text())}
    assert len(called) > 40 and called == set(VIEWER_WORDS)
    client, tokens = contest
    client.cookies.clear()
    words = json.loads(re.search(r'id="words">(.*?)</script>', client.get("/replays/1", headers=ZH).text)[1])
    assert words["Transcripts"] == "对话记录" and words["Pause"] == "暂停" and set(VIEWER_WORDS) <= set(words)
    assert 'id="words"' not in client.get("/replays/1").text
    assert post_login(client, "/admin/login", tokens["admin"], follow_redirects=False).status_code == 303
    assert '"Moves": "' in client.get("/admin/replays/1", headers=ZH).text
    client.cookies.clear()


def viewer_sentences(view: dict[str, Any]) -> str:
    """What the viewer shows of its data as words (its own words are :data:`VIEWER_WORDS`): each move, each
    discard's verdict and sentence, how the game ended, each error's kind and detail (the list, the banner, the
    results, the transcripts), an in-process player's stages, the seats' names, and the distance chart's words (the
    bots' names left out)."""
    shown = [step["text"] for step in view["steps"]] + list(view["seat_names"])
    for effect in (step["effect"] for step in view["steps"] if step.get("effect")):
        shown += [effect["verdict"], effect["text"]]
    ending = view["outcome"]
    shown += [ending["ended"], *(row["why"] for row in ending["rows"]), *ending["notes"]]
    errors = [*view["errors"], *(seat for seat in view["seats"] if seat.get("reason")),
              *(panel["error"] for panel in view["transcripts"] if panel["error"])]
    assert errors, "the replay has an error to show"
    shown += [words for error in errors for words in (error["reason_text"], error["detail_text"])]
    shown += [row["stage_text"] for panel in view["transcripts"] if panel["kind"] == "decisions"
              for row in panel["rows"]]
    chart = view["distance_chart"]["svg"] + view["distance_chart"]["table"]
    for player in {*(seat["bot"] for seat in view["seats"]), *((view.get("tournament") or {}).get("bots") or [])}:
        chart = chart.replace(html.escape(player), " ")
    return html.escape(" ".join(shown)) + chart


VIEWER_ALLOWED = {"PASS", "REVERSE", "DOUBLE"}
"""Beside :data:`ALLOWED`: the tile names that are words (THUPC's special tiles)."""


def test_the_replay_viewer_s_data_in_chinese(contest: Any) -> None:
    """A replay viewed in Chinese: its moves, discards' verdicts, ending and the crash's kind and detail are in
    Chinese (the replay's codes beside them); in English they are what they always were."""
    client, _ = contest
    client.cookies.clear()
    view = client.get("/api/replays/1", headers=ZH).json()
    assert english_left(viewer_sentences(view)) - VIEWER_ALLOWED == set()
    crash = view["errors"][0]
    assert crash["reason"] == "crash" and crash["reason_text"] == "崩溃" and crash["detail"] != crash["detail_text"]
    english = client.get("/api/replays/1").json()
    assert english["steps"][-1]["text"] == "game over" and english["seat_names"][0] == "East"
    assert english["errors"][0]["detail_text"] == english["errors"][0]["detail"]


def test_a_timeout_in_the_viewer_in_chinese() -> None:
    """A seat that timed out (the judge plays for it from its first decision after): the banner's kind and detail,
    how the time went included, in Chinese."""
    from mjarena.arena.match import run_match
    from mjarena.i18n import activated
    from mjarena.web.library import check_replay

    data = run_match(["builtin:greedy"] * 4, seed=11).to_json()
    first = next(index for index, item in enumerate(data["decisions"]) if item["seat"] == 2 and index > 20)
    for item in data["decisions"][first:]:
        if item["seat"] == 2:
            item["by"] = "judge"
    data["seats"][2].update(status="error", reason="timeout", detail=(
        "no answer within 1.000 s (1.000 s of its own time, 1.310 s of wall time of which 0.250 s waiting for a "
        "busy machine's CPU)"))
    with activated("zh-CN"):
        view = check_replay(json.dumps(data).encode())
    mark = view["errors"][0]
    assert mark["step"] is not None and view["steps"][mark["step"]]["errors"] == [mark]  # the banner shows it
    assert mark["reason_text"] == "超时" and "1.000 秒" in mark["detail_text"]
    assert english_left(viewer_sentences(view)) - VIEWER_ALLOWED == set()


def test_mjarena_serve_in_chinese(tmp_path: Path) -> None:
    """``mjarena serve`` follows the reader's language as the contest does: the index and a replay's page in
    Chinese (the viewer's words handed over), its data's words too, kept apart from the English ones."""
    from mjarena.arena.match import run_match
    from mjarena.web.app import create_app as serve_app

    (tmp_path / "g1.json").write_text(json.dumps(run_match(["builtin:greedy"] * 4, seed=3).to_json()))
    with TestClient(serve_app(tmp_path)) as client:
        index = client.get("/", headers=ZH).text
        assert '<html lang="zh-CN">' in index and "回放" in index and "简体中文" in index
        assert english_left(index) - {"builtin", "greedy", "noi"} == set()
        shown = client.get("/replays/g1.json", headers=ZH).text
        assert '<html lang="zh-CN">' in shown and english_left(shown) == set()
        words = json.loads(re.search(r'id="words">(.*?)</script>', shown)[1])
        assert words["Transcripts"] == "对话记录"
        chinese = client.get("/api/replays/g1.json", headers=ZH).json()
        english = client.get("/api/replays/g1.json").json()
        assert chinese["steps"][-1]["text"] == "对局结束" and english["steps"][-1]["text"] == "game over"
        assert client.get("/api/replays/g1.json", headers=ZH).json()["steps"][-1]["text"] == "对局结束"
        assert '<html lang="en">' in client.get("/").text and 'id="words"' not in client.get("/replays/g1.json").text
        client.get("/lang/zh-CN")
        assert '<html lang="zh-CN">' in client.get("/").text  # the switch's cookie
