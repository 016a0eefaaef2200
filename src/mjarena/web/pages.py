"""The HTML of each page: a small shell that the page's script fills (the index is complete without scripts).

Every value from a file or a request is escaped here (:func:`html.escape`); pages load only this package's
static files, so they work with no network.

>>> "<script" in page("t", "<p>x</p>") , "&lt;b&gt;" in error_page(404, "<b>")
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from mjarena.i18n import DEFAULT, active, html_lang, ngettext, pgettext, translated
from mjarena.i18n import gettext as _

__all__ = ["error_page", "game_page", "index_page", "page", "play_page", "replay_page", "tournament_page"]


def page(title: str, body: str, script: str | None = None, **data: str) -> str:
    """A whole page in the active language (:mod:`mjarena.web.language`): header with the language switch,
    ``body`` (HTML), and ``/static/<script>`` with ``data-*`` values on ``<main>``; a page in another language
    than English carries its script's words (``#words``: the replay viewer's, :mod:`mjarena.web.viewer_words`; the
    play and tournament pages', :mod:`mjarena.web.play_words`)."""
    from mjarena.web.language import language_links

    attributes = "".join(f' data-{key.replace("_", "-")}="{escape(value)}"' for key, value in data.items())
    scripts = "" if script is None else (
        '<script src="/static/mj.js" defer></script>'
        f'<script src="/static/{escape(script)}" defer></script>')
    if script is not None and active() != DEFAULT:
        scripts += _script_words(script)
    return f"""<!doctype html>
<html lang="{html_lang(active())}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · mjarena</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="/tiles/33.svg">{scripts}</head>
<body><header class="top"><a class="brand" href="/">mjarena</a>
<nav><a href="/">{_("Replays")}</a><a href="/play">{pgettext("page", "Play")}</a>{language_links(active())}</nav>
</header>
<main id="app"{attributes}>{body}</main></body></html>
"""


def _script_words(script: str) -> str:
    """The words of page script ``script`` in the active language, as JSON in a ``<script id="words">`` element
    (nothing for a script that writes none)."""
    import json

    from mjarena.web.play_words import script_words

    words = script_words(script)
    if not words:
        return ""
    encoded = (json.dumps(words, ensure_ascii=False).replace("<", "\\u003c").replace("\u2028", "\\u2028")
               .replace("\u2029", "\\u2029"))
    return f'<script type="application/json" id="words">{encoded}</script>'


def saved_at(epoch: float) -> str:
    """When a replay was saved, as the contest's pages write a moment: ISO 8601 to the second, with the offset of
    the server's time zone (the same in every language).

    >>> len(saved_at(0.0)), saved_at(0.0)[10], saved_at(0.0)[19] in "+-"
    (25, 'T', True)
    """
    from datetime import datetime, timezone

    return datetime.fromtimestamp(epoch, timezone.utc).astimezone().isoformat(timespec="seconds")


def _replay_href(name: str) -> str:
    return "/replays/" + quote(name)


def _replay_row(item: dict[str, Any]) -> str:
    when = saved_at(item["modified"])
    shown = escape(item["name"].rpartition("/")[2])
    if "unreadable" in item:
        return (f'<tr class="unreadable"><td>{shown} <span class="badge err">{_("unreadable")}</span></td>'
                f'<td colspan="2" class="muted">{escape(item["unreadable"])}</td><td class="wide">{when}</td></tr>')
    points = ", ".join(f"{bot} {p:g}" if isinstance(p, (int, float)) and not isinstance(p, bool) else bot
                       for bot, p in zip(item["bots"], item["points"], strict=False))
    erred = ngettext("%(count)s error", "%(count)s errors", item["errors"]) % {"count": item["errors"]}
    errors = f' <span class="badge err">{erred}</span>' if item["errors"] else ""
    return (f'<tr><td><a href="{escape(_replay_href(item["name"]))}">{shown}</a>{errors}</td>'
            f'<td>{escape(item["rules"])}</td><td class="wide">{escape(points)}</td><td class="wide">{when}</td></tr>')


def _pager(number: int, pages: int) -> str:
    if pages <= 1:
        return ""
    links = [f'<a href="/?page={n}"{" aria-current=page" if n == number else ""}>{n}</a>'
             for n in range(1, pages + 1) if n in (1, pages) or abs(n - number) <= 2]
    said = _("page %(number)s of %(pages)s:") % {"number": number, "pages": pages}
    return f'<nav class="pager" aria-label="{_("pages of replays")}">{said} {" ".join(links)}</nav>'


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
    head = (f'<thead><tr><th>{_("replay")}</th><th>{_("rules")}</th><th class="wide">{_("bots and points")}</th>'
            f'<th class="wide">{_("saved")}</th></tr></thead>')
    tables = "".join(
        f'<h3 class="folder">{escape(folder + "/" if folder else _("this folder"))} <span class="muted">'
        f'({sum(1 for r in replays if r["name"].rpartition("/")[0] == folder)})</span></h3>'
        f'<table class="list">{head}<tbody>{"".join(rows)}</tbody></table>' for folder, rows in groups.items())
    table = (f'{_pager(number, pages)}{tables}{_pager(number, pages)}' if tables else
             '<p class="muted">' + _("No replays here yet: save one with %(command)s, play a game, or upload one.")
             % {"command": "<code>mjarena match --replay FILE</code>"} + '</p>')
    links = "".join(f'<li><a href="/tournaments/{escape(quote(name))}">'
                    f'{escape(_("this folder") if name == "-" else name)}</a></li>' for name in tournaments)
    listing = f'<section><h2>{_("Tournaments")}</h2><ul class="links">{links}</ul></section>' if links else ""
    upload = f"""<section><h2>{_("Upload a replay")}</h2>
<form class="upload" method="post" action="/upload" enctype="multipart/form-data">
<input type="hidden" name="token" value="{escape(token)}">
<input type="file" name="file" accept=".json,application/json" required>
<button type="submit">{_("Upload")}</button>
<span class="muted">{_("JSON, at most %(size)s KiB") % {"size": max_upload // 1024}}</span></form></section>"""
    count = f' <span class="muted">({len(replays)})</span>' if replays else ""
    body = f"{listing}<section><h2>{_('Replays')}{count}</h2>{table}</section>{upload}"
    return page(_("Replays"), body)


def replay_page(name: str) -> str:
    """The viewer of one replay (``static/replay.js``)."""
    body = f'<h1 class="title">{escape(name)}</h1><p class="muted" id="status">{_("Loading the replay…")}</p>'
    return page(name, body, "replay.js", replay=name)


def play_page() -> str:
    """The form that starts a game (``static/play.js`` fills the choices)."""
    body = f"""<h1 class="title">{_("Play a game")}</h1>
<form id="start" class="start">
<label>{_("Rule set")} <select name="rules" id="rules"></select></label>
<label>{_("Your seat")} <select name="seat" id="seat"></select></label>
<fieldset><legend>{_("Opponents")}</legend><div id="opponents"></div></fieldset>
<button type="submit" id="go">{_("Start the game")}</button></form>
<p class="muted" id="status"></p>"""
    return page(pgettext("page", "Play"), body, "play.js", mode="start")


def game_page(session_id: str) -> str:
    """A game in progress (``static/play.js``)."""
    body = f'<p class="muted" id="status">{_("Loading the game…")}</p>'
    return page(_("Game"), body, "play.js", mode="game", session=session_id)


def tournament_page(name: str) -> str:
    """A tournament's standings, refreshed while it runs (``static/tournament.js``)."""
    shown = _("this folder") if name == "-" else name
    title = _("Tournament: %(name)s") % {"name": shown}
    body = f'<h1 class="title">{escape(title)}</h1><p class="muted" id="status">{_("Loading…")}</p>'
    return page(title, body, "tournament.js", tournament=name)


def error_page(status: int, message: str) -> str:
    """A page that says what went wrong, with the status code."""
    title = _("Error %(status)s") % {"status": status}
    return page(title, f'<h1 class="title">{title}</h1><p class="error">{escape(translated(message))}</p>'
                f'<p><a href="/">{_("Back to the replays")}</a></p>')
