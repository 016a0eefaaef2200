"""What the organiser's console pages share (:mod:`mjarena.contest.admin_pages`,
:mod:`mjarena.contest.admin_rounds`): the page's frame with its navigation and log-out, a one-button form with
the session's CSRF token, a game's seats and its *Play again*; written in the reader's language.

>>> 'name="csrf" value="c"' in form("/admin/x", "c", "Go"), seats({"players": [{"team": None, "points": 2.0}]})
(True, 'house 2')
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from html import escape
from typing import Any

from mjarena.contest.pages import page
from mjarena.i18n import gettext as _

__all__ = ["console", "form", "game_action", "seats"]


def _nav() -> str:
    links = (("/admin", _("Teams and window")), ("/admin/submissions", _("Submissions")),
             ("/admin/games", _("Rounds and games")), ("/admin/pairs", _("Pairs of teams")),
             ("/admin/export.json", _("Export JSON")), ("/admin/export.csv", _("Export CSV")))
    return ('<nav class="admin-nav">' + "".join(f'<a href="{href}">{word}</a>' for href, word in links)
            + f'<a href="/admin/archive.zip" id="archive-link">{_("Every source and replay (zip)")}</a>'
            f'<a href="/results">{_("Results to print")}</a></nav>')


def console(title: str, body: str, csrf: str) -> str:
    """A console page; ``csrf`` empty: the session has ended (no log-out form)."""
    logout = (f'<form method="post" action="/admin/logout" class="inline"><input type="hidden" name="csrf" '
              f'value="{escape(csrf)}"><button type="submit" id="admin-logout">{_("Log out")}</button></form>'
              if csrf else "")
    ending = f'<p class="admin-logout">{logout}</p>' if logout else ""  # apart from the page's own buttons
    return page(title, f'<h1 class="title">{escape(title)}</h1>{_nav()}{body}{ending}', viewer=None, admin=True)


def form(action: str, csrf: str, button: str, *, fields: str = "", id_: str | None = None,
         confirm: str | None = None) -> str:
    """A form posting to ``action`` with one button (``confirm``: what ``admin.js`` asks before sending it)."""
    ident = f' id="{escape(id_)}"' if id_ else ""
    ask = f' data-confirm="{escape(confirm)}"' if confirm else ""
    return (f'<form method="post" action="{escape(action)}" class="inline"{ident}{ask}>'
            f'<input type="hidden" name="csrf" value="{escape(csrf)}">{fields}'
            f'<button type="submit">{escape(button)}</button></form>')


def game_action(game: Mapping[str, Any], replaying: Collection[int], judging: bool, csrf: str) -> str:
    """A game row's action: a mark while it is played again, *Play again* when finished and a judge runs."""
    if game["id"] in replaying:
        return f'<span class="badge">{_("playing again")}</span>'
    if game["state"] == "finished" and judging:
        return form(f'/admin/games/{game["id"]}/replay', csrf, _("Play again"),
                    confirm=_("Play game %(game)s again from its record and replace its result?")
                    % {"game": game["id"]})
    return ""


def _seat(player: Mapping[str, Any]) -> str:
    if player["team"] is None:
        name = _("house")
    else:
        name = escape(player["team"]) + ("" if player.get("version") is None else f" v{player['version']}")
    return name + ("" if player["points"] is None else f" {player['points']:g}")


def seats(game: Mapping[str, Any]) -> str:
    """A game's seats: each team (its version) and its points."""
    return " · ".join(_seat(player) for player in game["players"])
