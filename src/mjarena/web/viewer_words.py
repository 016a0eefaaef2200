"""The words the replay viewer writes itself (``static/mj.js``'s ``MJ.t()``, ``static/replay.js``): its controls,
panels and headings, in the catalog, so that a page in another language can give the viewer their translations
(``<script type="application/json" id="words">``, as the contest's pages do). What the server writes into a replay
(a move's text, how the game ended, a discard's verdict, an error's kind and detail) is written by the server in the
reader's language when it builds the viewer's data (:mod:`mjarena.web.move_words`, :mod:`mjarena.web.outcome`,
:mod:`mjarena.web.effects`, :mod:`mjarena.verdicts`), the replay's own codes beside it.

>>> "Transcripts" in VIEWER_WORDS, viewer_words()["Play"]
(True, 'Play')
"""

from __future__ import annotations

from mjarena.i18n import N_
from mjarena.i18n import gettext as _

__all__ = ["VIEWER_WORDS", "viewer_words"]

VIEWER_WORDS = (
    N_(" (%(points)s pt): "), N_(" — %(detail)s. "), N_("%(count)s tiles"), N_("%(count)s useful kinds"),
    N_("%(meld)s (concealed)"),
    N_("%(meld)s from %(seat)s"), N_("%(seat)s discards"), N_("CHI"), N_("CHOW"), N_("GANG"), N_("PENG"), N_("PONG"),
    N_("%(name)s (%(tai)s tai)"), N_("%(seat)s hand"),
    N_("%(seat)s scores %(total)s tai"), N_("%(seat)s wins with %(form)s: %(total)s tai — "),
    N_("%(seat)s's discard"), N_("(move %(move)s)"), N_("Distance to a win after move %(move)s: %(distances)s."),
    N_("From here the judge plays for this seat."), N_("How the game ended"),
    N_("Live: %(moves)s moves so far, updated every few seconds; the replay shows at the end."), N_("Moves"),
    N_("Pause"), N_("Play"),
    N_("Result"), N_("The distances as a table"), N_("The moves cannot be brought up to date now: %(error)s"),
    N_("The seat leaves the game."), N_("The server cannot be reached: %(error)s"),
    N_("This replay cannot be shown: %(error)s"), N_("Transcripts"), N_("arranged as %(arrangement)s"),
    N_("back (←)"), N_("best discard"), N_("debug"), N_("decisions (an in-process agent: no protocol text)"),
    N_("dice %(dice)s"), N_("discard analysis"), N_("distance to a win"),
    N_("each discard's effect on distance and useful tiles"), N_("ending"), N_("error: %(reason)s"), N_("exchanges"),
    N_("first (Home)"), N_("forward (→)"), N_("in"), N_("judge"), N_("judge plays"), N_("last (End)"),
    N_("mean %(mean)s ms, max %(max)s ms"), N_("move"), N_("no answer"),
    N_("no tai pattern (each needs one suit, or an edge 3 or 7)"), N_("none"), N_("not best"), N_("ok"), N_("out"),
    N_("play / pause (space)"), N_("player"), N_("points"), N_("rank %(rank)s · %(points)s pt"), N_("rank"),
    N_("request"), N_("response"), N_("seat"), N_("seed %(seed)s"), N_("show the result before the last move"),
    N_("speed (+ / -)"), N_("speed"), N_("stage"), N_("status"), N_("stderr"), N_("tournament game %(game)s"),
    N_("Waiting for the game's first move…"), N_("turn %(seat)s"), N_("useful: %(tiles)s"), N_("verdict"),
    N_("wall %(count)s"), N_("won"), N_("you"),
)
"""Every message ``MJ.t("...")`` is called with in ``mj.js`` and ``replay.js`` (tests/test_i18n_pages.py checks)."""


def viewer_words() -> dict[str, str]:
    """:data:`VIEWER_WORDS` in the active language (English outside a request in another)."""
    return {message: _(message) for message in VIEWER_WORDS}
