"""Logging in to a contest as a browser does: the login page first (it sets the pre-session cookie and puts the
same token in its form), then the form with the token and that ``csrf`` field."""

from __future__ import annotations

from typing import Any


def form_csrf(html: str) -> str:
    """The ``csrf`` field of the first form of a page ("" when it has none)."""
    return html.split('name="csrf" value="', 1)[1].split('"', 1)[0] if 'name="csrf"' in html else ""


def post_login(client: Any, path: str, token: str, **options: Any) -> Any:
    """Post the login form at ``path`` (``/login`` or ``/admin/login``) with ``token``, as its page gives it."""
    page = client.get(path)
    assert page.status_code == 200, page.text[:300]
    return client.post(path, data={"token": token, "csrf": form_csrf(page.text)}, **options)
