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


def index_page(replays: Sequence[dict[str, Any]], tournaments: Sequence[str], max_upload: int) -> str:
    """The list of tournaments and replays, and the upload form."""
    rows = []
    for item in replays:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(item["modified"]))
        points = ", ".join(f"{bot} {p:g}" if isinstance(p, (int, float)) else bot
                           for bot, p in zip(item["bots"], item["points"], strict=False))
        errors = f' <span class="badge err">{item["errors"]} error(s)</span>' if item["errors"] else ""
        rows.append(f'<tr><td><a href="{escape(_replay_href(item["name"]))}">{escape(item["name"])}</a>{errors}</td>'
                    f'<td>{escape(item["rules"])}</td><td class="wide">{escape(points)}</td>'
                    f'<td class="wide">{when}</td></tr>')
    table = ('<table class="list"><thead><tr><th>replay</th><th>rules</th><th class="wide">bots and points</th>'
             f'<th class="wide">saved</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
             if rows else '<p class="muted">No replays here yet: save one with <code>mjarena match --replay '
             'FILE</code>, play a game, or upload one.</p>')
    links = "".join(f'<li><a href="/tournaments/{escape(quote(name))}">'
                    f'{escape("this folder" if name == "-" else name)}</a></li>' for name in tournaments)
    listing = f'<section><h2>Tournaments</h2><ul class="links">{links}</ul></section>' if links else ""
    upload = f"""<section><h2>Upload a replay</h2>
<form class="upload" method="post" action="/upload" enctype="multipart/form-data">
<input type="file" name="file" accept=".json,application/json" required>
<button type="submit">Upload</button>
<span class="muted">JSON, at most {max_upload // 1024} KiB</span></form></section>"""
    body = f"{listing}<section><h2>Replays</h2>{table}</section>{upload}"
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
