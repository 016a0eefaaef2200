"""The contest's language middleware and switch, on a small app: the page's language follows the cookie, then
Accept-Language, then the contest's default; the switch keeps a choice in a cookie and goes back only to a path of
the site."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from mjarena.contest.language import LanguageMiddleware, switch_language
from mjarena.i18n import active, pgettext
from mjarena.verdicts import render


def _page(request):  # a sync endpoint runs in a thread: the language goes with it
    return PlainTextResponse(f"{active()} {pgettext('error kind', 'timeout')} {render('exit code 3')}")


@pytest.fixture
def client():
    default = {"language": "en"}
    app = Starlette(routes=[Route("/", _page), Route("/lang/{tag}", switch_language)],
                    middleware=[Middleware(LanguageMiddleware, default=lambda: default["language"])])
    with TestClient(app) as client:
        client.default = default
        yield client


def test_the_page_follows_accept_language_then_the_contest_s_default(client):
    assert client.get("/").text == "en timeout exit code 3"
    answer = client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert answer.text == "zh_CN 超时 退出码 3"
    assert answer.headers["content-language"] == "zh-CN" and "Accept-Language" in answer.headers["vary"]
    client.default["language"] = "zh_CN"
    assert client.get("/").text.startswith("zh_CN")


def test_the_switch_keeps_the_choice_in_a_cookie(client):
    answer = client.get("/lang/zh-CN", params={"next": "/rounds?x=1"}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/rounds?x=1"
    assert "lang=zh-CN" in answer.headers["set-cookie"]
    assert client.get("/", headers={"Accept-Language": "en"}).text.startswith("zh_CN")  # the cookie wins
    client.get("/lang/en", follow_redirects=False)
    assert client.get("/", headers={"Accept-Language": "zh-CN"}).text.startswith("en ")


def test_without_next_the_switch_goes_back_to_the_page_it_was_on(client):
    answer = client.get("/lang/zh-CN", headers={"Referer": "http://testserver/teams/ada?x=1"}, follow_redirects=False)
    assert answer.headers["location"] == "/teams/ada?x=1"
    answer = client.get("/lang/zh-CN", headers={"Referer": "http://evil.example/x"}, follow_redirects=False)
    assert answer.headers["location"] == "/"


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example", "rounds"])
def test_the_switch_goes_back_only_to_the_site(client, target):
    answer = client.get("/lang/en", params={"next": target}, follow_redirects=False)
    assert answer.headers["location"] == "/"


def test_an_unknown_language_sets_nothing(client):
    answer = client.get("/lang/tlh", follow_redirects=False)
    assert answer.status_code == 303 and "set-cookie" not in answer.headers
