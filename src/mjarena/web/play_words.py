"""The play page's and the tournament page's words in the reader's language: those their scripts write themselves
(``static/play.js``, ``static/tournament.js``: ``MJ.t()``, handed over by the page as the viewer's are,
:mod:`mjarena.web.viewer_words`), and those the server writes into their data, at the moment it answers (a game's
view is made in the game's thread, which has no reader: it keeps the codes and the English, and
:func:`play_view` writes the words in the active language).

>>> from mjarena.i18n import activated
>>> with activated("zh-CN"):
...     script_words("play.js")["Recent moves"], tournament_words({"format": "swiss", "standings": []})["format_text"]
('最近的动作', '瑞士制')
>>> script_words("style.css")
{}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mjarena.i18n import DEFAULT, N_, active, translated
from mjarena.i18n import gettext as _
from mjarena.web.viewer_words import VIEWER_WORDS

__all__ = ["PLAY_WORDS", "TOURNAMENT_WORDS", "play_view", "rule_choices", "script_words", "tournament_words"]

PLAY_WORDS = (
    N_("%(group)s: now pick the tile to discard"), N_("A tile was discarded: claim it or pass"), N_("Bot %(number)s"),
    N_("Cancel"), N_("Cannot start a game: %(error)s"), N_("Cannot start the game: %(error)s"),
    N_("Discard %(tile)s"), N_("Game over"), N_("Keys"), N_("Pass automatically when Pass is the only choice"),
    N_("Play again"), N_("Recent moves"), N_("Starting…"), N_("The bots are playing…"),
    N_("The wall is empty: declare your target hand"), N_("This game cannot be shown: %(error)s"),
    N_("Watch the replay, with every bot's transcript"), N_("Your turn: pick a tile to discard"),
    N_("Your turn: pick a tile to discard, or choose an action"), N_("opponent %(number)s"),
    N_("passed for you %(count)s×"), N_("seed %(seed)s"), N_("space"), N_("you are %(seat)s"),
    N_("1–9, 0: pick a tile · ←/→: move · Enter: discard it · p: PENG · g: GANG · c: CHI · h: HU · space: Pass · "
       "Esc: cancel. The number under a tile is the distance (tiles still needed to win) after discarding it; the "
       "best is green."),
)
"""Every message ``MJ.t("...")`` is called with in ``play.js`` (tests/test_i18n_serve.py checks); the game's table,
results and ending are the viewer's (:data:`~mjarena.web.viewer_words.VIEWER_WORDS`)."""

TOURNAMENT_WORDS = (
    N_("%(count)s h"), N_("%(count)s min"), N_("%(count)s round(s)"), N_("%(count)s s"),
    N_("%(played)s of %(total)s games played"), N_("Games"), N_("Head to head"), N_("No game finished yet."),
    N_("No game matches the filters."), N_("OpenSkill ordinal: μ − 3σ"), N_("Ratings by round as a table"),
    N_("Ratings over the rounds"), N_("Select a name in the legend to show or hide its line."), N_("Standings"),
    N_("avg rank"), N_("better / tied / worse than →"), N_("bot"),
    N_("cannot read the tournament: %(error)s (trying again)"), N_("entrant"), N_("entrants by seat"),
    N_("errors"), N_("every entrant"), N_("every round"), N_("finished"), N_("game"), N_("games"),
    N_("ms mean / max"), N_("points"), N_("rank"), N_("rating (μ ± σ)"), N_("results (points)"), N_("round"),
    N_("running"), N_("running, about %(time)s left"), N_("secret walls"), N_("seed %(seed)s"),
    N_("updated %(time)s"),
    N_("Rating: OpenSkill's μ − 3σ, a cautious estimate. House bots, which pad a table to four, are not rated and "
       "count for nothing in a game's rating: a bot that met mostly house bots has few rated games, so a wide σ and "
       "a low rating, whatever its points, until it meets the other entrants."),
)
"""Every message ``MJ.t("...")`` is called with in ``tournament.js``."""

SCRIPT_WORDS = {"replay.js": VIEWER_WORDS, "play.js": VIEWER_WORDS + PLAY_WORDS, "tournament.js": TOURNAMENT_WORDS}
"""The words each page's script writes (the play page draws the viewer's table, results and ending)."""

FORMATS = {"swiss": N_("Swiss"), "round-robin": N_("round robin")}
"""A tournament's format (its settings' code) in words."""

TITLES = (N_("NOI 2014 team contest mahjong"), N_("Regional 百搭 (wildcard) mahjong"),
          N_("THUPC 2021 mahjong simulator"))
"""Each rule set's title (:attr:`mjarena.variants.base.VariantInfo.title`), for the catalog (tests/test_i18n_serve.py
checks that every rule set's is here)."""

HUMAN = N_("human")
"""How a game's results name the person's seat (its code in the replay: ``human``)."""


def script_words(script: str) -> dict[str, str]:
    """The words of page script ``script`` in the active language (none for a script that writes none)."""
    return {message: _(message) for message in SCRIPT_WORDS.get(script, ())}


def rule_choices(names: list[str], room: Any) -> list[dict[str, Any]]:
    """The play page's rule sets: each one's ``name`` (its code), ``title`` and ``seat_names`` in the active
    language, and the ``opponents`` ``room`` offers for it (:meth:`mjarena.web.play_room.PlayRoom.opponents`)."""
    from mjarena.variants import get_variant
    from mjarena.web.move_words import seat_words

    return [{"name": name, "title": _(get_variant(name).title), "seat_names": seat_words(name),
             "opponents": room.opponents(name)} for name in names]


def play_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """A game's view (:meth:`mjarena.web.play.PlaySession.wait`) as the page gets it, in the active language: the
    seats' names, each choice's words, the recent moves, the message, how the game ended and each error's kind and
    detail; the codes (a choice's ``group``, the ``rules``, a result's ``reason`` and ``detail``) as they were."""
    from mjarena.web.move_words import move_texts, seat_words
    from mjarena.web.play_choices import choice_views
    from mjarena.web.timeline import error_words

    kept = view.get("_words") or {}
    shown = {key: value for key, value in view.items() if key != "_words"}
    rules = str(view["rules"])
    seats = seat_words(rules)
    shown["seat_names"] = seats
    if view.get("choices"):
        shown["choices"] = choice_views(view.get("stage") or "", kept.get("actions", []), view["tile_names"], seats,
                                        kept.get("distances"))
    if "events" in kept:
        shown["log"] = move_texts(kept["events"], rules)
    if isinstance(view.get("message"), str):
        shown["message"] = translated(view["message"])
    if view.get("result") and active() != DEFAULT:  # in English as it always was: the codes
        shown["result"] = [{**row, **error_words(row), **({"bot": _(HUMAN)} if row.get("bot") == "human" else {})}
                           for row in view["result"]]
    if view.get("outcome") is not None and "game" in kept and active() != DEFAULT:
        shown["outcome"] = _outcome(kept)
    return shown


def _outcome(kept: dict[str, Any]) -> dict[str, Any]:
    """How the game ended, in the active language, kept once per language (a finished game's view is asked for
    again and again while it is shown)."""
    from mjarena.web.outcome import outcome

    cache = kept.setdefault("outcomes", {})
    if active() not in cache:
        data, events = kept["game"]
        cache[active()] = outcome(data, events)
    return cache[active()]


def tournament_words(state: Mapping[str, Any]) -> dict[str, Any]:
    """A tournament's state (:meth:`mjarena.web.library.Library.tournament`) with its words in the active language:
    ``format_text`` and ``kinds`` (each error kind's code, as the standings and games keep it, in words:
    :func:`mjarena.verdicts.kind_label`); in English, the state as it is."""
    from mjarena.verdicts import KIND_LABELS, kind_label

    if active() == DEFAULT:  # in English the page shows the codes, as it always did
        return dict(state)
    codes = set(KIND_LABELS) | {code for row in state.get("standings", []) for code in row.get("errors", {})}
    codes |= {seat.get("reason") for game in state.get("games", []) for seat in game.get("results", [])
              if seat.get("reason")}
    fmt = str(state.get("format"))
    return {**state, "format_text": _(FORMATS[fmt]) if fmt in FORMATS else fmt,
            "kinds": {code: kind_label(code) for code in sorted(codes)}}
