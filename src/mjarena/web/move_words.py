"""The words of a replay's moves and seats in the reader's language: the viewer's timeline and its chart.

In English a move is the rule set's own log line (:func:`describe`: NOI's ``East   draws  W3``,
THUPC's statement lines ``A OUT 1M``), as it always was.  In another language each event is written from its type,
seat, tiles and target (what the replay stores) with the catalog's sentence of that type (:data:`MOVES`, msgctxt
``move``); tiles keep their names (``W3``, ``1M``, ``F1``: what the bots read).  Seats are named as Chinese
players name them (东, 南, 西, 北; THUPC's ``A`` to ``D`` stay).

>>> from mjarena.i18n import activated
>>> from mjarena.variants.base import Event
>>> events = [Event("draw", 0, (2,)), Event("hu", 1, (2,), 0), Event("end")]
>>> move_texts(events, "noi2014")
['East   draws  W3', 'South  HU     on W3 from East', 'game over']
>>> with activated("zh-CN"):
...     move_texts(events, "noi2014"), seat_words("noi2014")
(['东 摸牌 W3', '南 和牌：东 打出的 W3', '对局结束'], ['东', '南', '西', '北'])
"""

from __future__ import annotations

from collections.abc import Sequence

from mjarena.i18n import DEFAULT, NC_, active, locale_of, translator
from mjarena.rulesets import judge_rules
from mjarena.variants.base import Event
from mjarena.web.latin import latin

__all__ = ["MOVES", "SEATS", "describe", "move_texts", "seat_words"]

MOVE = "move"
MOVES = {
    "deal": NC_("move", "%(seat)s is dealt %(tiles)s"),
    "draw": NC_("move", "%(seat)s draws %(tiles)s"),
    "draw_back": NC_("move", "%(seat)s draws %(tiles)s from the back of the wall"),
    "play": NC_("move", "%(seat)s discards %(tiles)s"),
    "discard": NC_("move", "%(seat)s discards %(tiles)s"),
    "discard_to": NC_("move", "%(seat)s discards %(tiles)s to %(target)s"),
    "peng": NC_("move", "%(seat)s PENG %(tiles)s"),
    "pong": NC_("move", "%(seat)s PENG %(tiles)s"),
    "gang": NC_("move", "%(seat)s GANG %(tiles)s (open, from %(target)s)"),
    "angang": NC_("move", "%(seat)s GANG %(tiles)s (concealed)"),
    "bugang": NC_("move", "%(seat)s GANG %(tiles)s (added to the PENG)"),
    "gang_on_peng": NC_("move", "%(seat)s GANG %(tiles)s (the discard from %(target)s, added to the PENG)"),
    "hu": NC_("move", "%(seat)s HU on %(tiles)s from %(target)s"),
    "ron": NC_("move", "%(seat)s HU on a discard"),
    "hu_self": NC_("move", "%(seat)s HU self-drawn %(tiles)s"),
    "self_drawn": NC_("move", "%(seat)s HU self-drawn"),
    "win": NC_("move", "%(seat)s wins the game"),
    "false_hu": NC_("move", "%(seat)s declares HU without a winning hand (false HU) and leaves the game"),
    "chi": NC_("move", "%(seat)s CHI %(tiles)s (from %(target)s)"),
    "chow": NC_("move", "%(seat)s CHI %(tiles)s"),
    "dice": NC_("move", "%(seat)s rolls %(tiles)s"),
    "score": NC_("move", "%(seat)s scores %(target)s tai"),
    "exhausted": NC_("move", "the wall is empty"),
    "end": NC_("move", "game over"),
}
"""Each event type's sentence (NOI 2014's and 百搭's types, THUPC's beside them); ``discard_to`` is THUPC's
discard of a PASS or REVERSE that names a seat."""

SEAT = "seat"
SEATS = {"East": NC_("seat", "East"), "South": NC_("seat", "South"), "West": NC_("seat", "West"),
         "North": NC_("seat", "North")}
"""NOI 2014's and 百搭's seat names (THUPC's ``A`` to ``D`` are letters in every language)."""


def describe(events: Sequence[Event], rules: str) -> list[str]:
    """One line of words per event, by the rule set's own log formatter (THUPC's ``A OUT 1M`` lines), with
    Chinese terms in Latin letters (:func:`~mjarena.web.latin.latin`)."""
    return [latin(line) for line in judge_rules(rules).log(events)]


def seat_words(rules: str, locale: str | None = None) -> list[str]:
    """The seats of rule set ``rules`` named in ``locale`` (None: the active one)."""
    words = translator(locale or active())
    return [words.pgettext(SEAT, SEATS[seat]) if seat in SEATS else seat for seat in judge_rules(rules).seats]


def move_texts(events: Sequence[Event], rules: str, locale: str | None = None) -> list[str]:
    """One line of words per event of a game of ``rules``, in ``locale`` (None: the active one)."""
    locale = locale_of(locale or active()) or DEFAULT
    if locale == DEFAULT:
        return describe(events, rules)
    judge, words = judge_rules(rules), translator(locale)
    seats = seat_words(rules, locale)
    lines = []
    for event in events:
        kind = "discard_to" if event.type == "discard" and event.target is not None else event.type
        template = MOVES.get(kind)
        shown = sorted(event.tiles) if event.type == "deal" else event.tiles
        if event.type == "dice":
            tiles = " + ".join(map(str, event.tiles))
        else:
            tiles = " ".join(judge.tile_name(tile) for tile in shown)
        seat = seats[event.seat] if isinstance(event.seat, int) and 0 <= event.seat < 4 else ""
        if event.type == "score":
            target = str(event.target)
        else:
            target = seats[event.target] if isinstance(event.target, int) and 0 <= event.target < 4 else ""
        if template is None:  # a type this version does not know: its name and what it holds
            lines.append(" ".join(part for part in (event.type, seat, tiles) if part))
            continue
        lines.append(words.pgettext(MOVE, template) % {"seat": seat, "tiles": tiles, "target": target})
    return lines
