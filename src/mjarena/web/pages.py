"""The HTML of each page: a small shell that the page's script fills (the index is complete without scripts).

Every value from a file or a request is escaped here (:func:`html.escape`); pages load only this package's
static files, so they work with no network.

>>> "<script" in page("t", "<p>x</p>") , "&lt;b&gt;" in error_page(404, "<b>")
(False, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import quote

__all__ = ["error_page", "game_page", "index_page", "page", "play_page", "replay_page", "tournament_page"]


def page(title: str, body: str, script: str | None = None, **data: str) -> str:
    """A whole page: header, ``body`` (HTML), and ``/static/<script>`` with ``data-*`` values on ``<main>``."""
    attributes = "".join(f' data-{key.replace("_", "-")}="{escape(value)}"' for key, value in data.items())
    scripts = "" if script is None else (
        '<script src="/static/mj.js" defer></script>'
        f'<script src="/static/{escape(script)}" defer></script>')
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · mjarena</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="/tiles/33.svg">{scripts}</head>
<body><header class="top"><a class="brand" href="/">mjarena</a>
<nav><a href="/">Replays</a><a href="/play">Play</a></nav></header>
<main id="app"{attributes}>{body}</main></body></html>
"""


def _replay_href(name: str) -> str:
    return "/replays/" + quote(name)


def _replay_row(item: dict[str, Any]) -> str:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(item["modified"]))
    shown = escape(item["name"].rpartition("/")[2])
    if "unreadable" in item:
        return (f'<tr class="unreadable"><td>{shown} <span class="badge err">unreadable</span></td>'
                f'<td colspan="2" class="muted">{escape(item["unreadable"])}</td><td class="wide">{when}</td></tr>')
    points = ", ".join(f"{bot} {p:g}" if isinstance(p, (int, float)) and not isinstance(p, bool) else bot
                       for bot, p in zip(item["bots"], item["points"], strict=False))
    errors = f' <span class="badge err">{item["errors"]} error(s)</span>' if item["errors"] else ""
    return (f'<tr><td><a href="{escape(_replay_href(item["name"]))}">{shown}</a>{errors}</td>'
            f'<td>{escape(item["rules"])}</td><td class="wide">{escape(points)}</td><td class="wide">{when}</td></tr>')


def _pager(number: int, pages: int) -> str:
    if pages <= 1:
        return ""
    links = [f'<a href="/?page={n}"{" aria-current=page" if n == number else ""}>{n}</a>'
             for n in range(1, pages + 1) if n in (1, pages) or abs(n - number) <= 2]
    return f'<nav class="pager" aria-label="pages of replays">page {number} of {pages}: {" ".join(links)}</nav>'


def index_page(replays: Sequence[dict[str, Any]], tournaments: Sequence[str], max_upload: int, number: int = 1,
               page_size: int = 50, *, token: str = "") -> str:
    """The list of tournaments and of replays (page ``number``, grouped by folder), and the upload form carrying
    ``token`` (the one in the visitor's form cookie)."""
    pages = max(1, -(-len(replays) // page_size))
    number = min(max(1, number), pages)
    shown = replays[(number - 1) * page_size: number * page_size]
    groups: dict[str, list[str]] = {}
    for item in shown:
        groups.setdefault(item["name"].rpartition("/")[0], []).append(_replay_row(item))
    head = ('<thead><tr><th>replay</th><th>rules</th><th class="wide">bots and points</th>'
            '<th class="wide">saved</th></tr></thead>')
    tables = "".join(
        f'<h3 class="folder">{escape(folder + "/" if folder else "this folder")} <span class="muted">'
        f'({sum(1 for r in replays if r["name"].rpartition("/")[0] == folder)})</span></h3>'
        f'<table class="list">{head}<tbody>{"".join(rows)}</tbody></table>' for folder, rows in groups.items())
    table = (f'{_pager(number, pages)}{tables}{_pager(number, pages)}' if tables else
             '<p class="muted">No replays here yet: save one with <code>mjarena match --replay '
             'FILE</code>, play a game, or upload one.</p>')
    links = "".join(f'<li><a href="/tournaments/{escape(quote(name))}">'
                    f'{escape("this folder" if name == "-" else name)}</a></li>' for name in tournaments)
    listing = f'<section><h2>Tournaments</h2><ul class="links">{links}</ul></section>' if links else ""
    upload = f"""<section><h2>Upload a replay</h2>
<form class="upload" method="post" action="/upload" enctype="multipart/form-data">
<input type="hidden" name="token" value="{escape(token)}">
<input type="file" name="file" accept=".json,application/json" required>
<button type="submit">Upload</button>
<span class="muted">JSON, at most {max_upload // 1024} KiB</span></form></section>"""
    count = f' <span class="muted">({len(replays)})</span>' if replays else ""
    body = f"{listing}<section><h2>Replays{count}</h2>{table}</section>{upload}"
    return page("Replays", body)


def replay_page(name: str) -> str:
    """The viewer of one replay (``static/replay.js``)."""
    body = f'<h1 class="title">{escape(name)}</h1><p class="muted" id="status">Loading the replay…</p>'
    return page(name, body, "replay.js", replay=name)


def play_page() -> str:
    """The form that starts a game (``static/play.js`` fills the choices)."""
    body = """<h1 class="title">Play a game</h1>
<form id="start" class="start">
<label>Rule set <select name="rules" id="rules"></select></label>
<label>Your seat <select name="seat" id="seat"></select></label>
<fieldset><legend>Opponents</legend><div id="opponents"></div></fieldset>
<button type="submit" id="go">Start the game</button></form>
<p class="muted" id="status"></p>"""
    return page("Play", body, "play.js", mode="start")


def game_page(session_id: str) -> str:
    """A game in progress (``static/play.js``)."""
    body = '<p class="muted" id="status">Loading the game…</p>'
    return page("Game", body, "play.js", mode="game", session=session_id)


def tournament_page(name: str) -> str:
    """A tournament's standings, refreshed while it runs (``static/tournament.js``)."""
    shown = "this folder" if name == "-" else name
    body = f'<h1 class="title">Tournament: {escape(shown)}</h1><p class="muted" id="status">Loading…</p>'
    return page(f"Tournament {shown}", body, "tournament.js", tournament=name)


def error_page(status: int, message: str) -> str:
    """A page that says what went wrong, with the status code."""
    return page(f"Error {status}", f'<h1 class="title">Error {status}</h1><p class="error">{escape(message)}</p>'
                '<p><a href="/">Back to the replays</a></p>')
