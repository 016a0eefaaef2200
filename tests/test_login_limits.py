"""Failed logins on the contest server (issue 43, point 5): a right token always logs in, wrong ones are counted per
client (an IPv4 address, an IPv6 /64), and the API's bearer tokens are counted as the login forms' are."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from contest_forms import post_login
from test_contest import Server


@pytest.fixture
def server(tmp_path: Path) -> Server:
    return Server(tmp_path / "contest", ["red", "blue"])


def test_the_right_token_logs_in_after_ten_wrong_ones_from_the_same_address(server: Server) -> None:
    """A class behind one NAT: ten wrong tokens from the address made the right one answer 429 for a minute."""
    answers = [post_login(server.client, "/login", "mjc_wrong").status_code for _ in range(10)]
    assert answers == [401] * 10
    refused = post_login(server.client, "/login", "mjc_wrong")
    assert refused.status_code == 429 and "too many failed logins" in refused.text
    assert 0 < int(refused.headers["retry-after"]) <= 60
    for path, token, where in (("/login", server.tokens["teams"]["red"], "/team"),
                               ("/admin/login", server.tokens["admin"], "/admin")):
        answer = post_login(server.client, path, token, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"] == where, answer.text[:300]
    assert post_login(server.client, "/admin/login", "mjc_wrong").status_code == 429


def test_sixty_addresses_of_one_ipv6_slash_64_are_limited_together(server: Server) -> None:
    """One machine is commonly given a whole /64: 60 of its addresses guessed freely, one wrong token each."""
    answers = []
    for host in range(1, 61):
        client = TestClient(server.app, client=(f"2001:db8:1:2::{host:x}", 40000))
        answers.append(post_login(client, "/login", "mjc_wrong").status_code)
    assert answers == [401] * 10 + [429] * 50
    other = TestClient(server.app, client=("2001:db8:1:3::1", 40000))  # the next /64: another client
    assert post_login(other, "/login", "mjc_wrong").status_code == 401
    same = TestClient(server.app, client=("2001:db8:1:2::ffff", 40000))
    assert post_login(same, "/login", server.tokens["teams"]["blue"], follow_redirects=False).status_code == 303


def test_wrong_bearer_tokens_are_counted_as_failed_logins_are(server: Server) -> None:
    """Guesses through ``Authorization: Bearer`` were never counted (3,900 to 20,000 a minute)."""
    def guess() -> int:
        return server.client.get("/api/submissions", headers={"authorization": "Bearer mjc_wrong"}).status_code

    assert [guess() for _ in range(10)] == [401] * 10
    refused = server.client.get("/api/submissions", headers={"authorization": "Bearer mjc_guess"})
    assert refused.status_code == 429 and "too many failed logins" in refused.json()["error"]
    assert int(refused.headers["retry-after"]) > 0
    assert post_login(server.client, "/login", "mjc_wrong").status_code == 429, "one count for both ways in"
    assert server.client.get("/api/submissions", headers=server.auth("red")).status_code == 200
