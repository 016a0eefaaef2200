"""The organiser's console on the games (``/admin/games``, ``/admin/pairs``): the games running now, the cluster's
nodes, the last rounds with *Play again*, and the report of pairs of teams; in the reader's language.

>>> "No game is running." in games_page([], set(), "c", judging=True)
True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from html import escape
from typing import Any

from mjarena.arena.collusion import pair_name
from mjarena.contest.admin_parts import console, form, game_action, seats
from mjarena.contest.pages import state_text, when
from mjarena.i18n import gettext as _
from mjarena.i18n import ngettext

__all__ = ["games_page", "live_link", "nodes_panel", "pairs_page"]


def live_link(game_id: int) -> str:
    """A running game's id, linked to the organiser's live view of it (:mod:`mjarena.contest.live`).

    >>> live_link(7)
    '<a href="/admin/live/7" class="live">7</a>'
    """
    return f'<a href="/admin/live/{game_id}" class="live">{game_id}</a>'


def _ratio(value: float | None) -> str:
    return "—" if value is None else f"×{value:.2f}"


def _node_row(node: Mapping[str, Any]) -> str:
    state = escape(node["state"]) + (_(" (head)") if node.get("head") else "")
    why = "; ".join(node.get("reasons") or ())
    flag = (f' <span class="badge err" data-flagged="1">{_("flagged")}</span> {escape(node["flagged"])}'
            if node.get("flagged") else "")
    skew = "—" if node.get("skew") is None else f'{node["skew"]:+.1f} s'
    cores = "—" if node.get("cores") is None else str(node["cores"])
    machine = _("%(cpus)s CPUs, %(cores)s cores") % {"cpus": node.get("cpus"), "cores": cores}
    return (f'<tr data-node="{escape(node["node"])}" data-state="{escape(node["state"])}">'
            f'<td>{escape(node["node"])}</td><td>{state}</td><td>{escape(why) or "—"}{flag}</td>'
            f'<td class="num">{_ratio(node.get("ratio"))}</td><td class="num">{skew}</td>'
            f'<td class="num">{node.get("slots", 0)} <span class="muted">({machine})</span></td>'
            f'<td class="num">{node.get("running", 0)}</td><td class="num">{node.get("played", 0)}</td></tr>')


def nodes_panel(nodes: Sequence[Mapping[str, Any]] | None) -> str:
    """The cluster's nodes (:meth:`mjarena.arena.executors.RayExecutor.nodes`): each one's check (ready, left
    out with the reasons, being checked, gone), its canary's time over the head's, clock skew, games at once,
    flagged, games running and played since the server started; nothing when games run on this machine alone.

    >>> html = nodes_panel([{"node": "far/ab12", "id": "ab12", "state": "left out", "reasons": ["no <java>"],
    ...     "ratio": 1.6, "skew": 0.0, "cpus": 4, "cores": 2, "slots": 2, "flagged": "slow", "head": False,
    ...     "running": 0, "played": 3}])
    >>> 'data-node="far/ab12"' in html, "no &lt;java&gt;" in html, "×1.60" in html, nodes_panel(None)
    (True, True, True, '')
    """
    if nodes is None:
        return ""
    rows = [_node_row(node) for node in nodes]
    heads = (_("node"), _("check"), _("why left out / flagged"), _("canary vs head"), _("clock"),
             _("games at once"), _("running"), _("played"))
    body = ('<div class="scroll-x"><table class="list" id="cluster-nodes"><thead><tr>'
            + "".join(f"<th>{word}</th>" for word in heads)
            + f'</tr></thead><tbody>{"".join(rows)}</tbody></table></div>' if rows
            else f'<p class="muted" id="cluster-nodes">{_("No node seen yet.")}</p>')
    how = _("Every node of the Ray cluster is checked before it plays (the box, the runtimes, its cache, the clock, "
            "a canary): a node left out gets no game. Canary vs head: its time for the same built-in games over the "
            "head's (a node more than 30% off is flagged: bots' times there are not comparable). Played: games "
            "since the server started.")
    return f'<section><h2>{_("Nodes")}</h2><p class="muted">{how}</p>{body}</section>'


def _round_section(item: Mapping[str, Any], replaying: Collection[int], judging: bool, csrf: str,
                   played_on: Mapping[int, str | None]) -> str:
    rows = []
    for game in item["games"]:
        action = game_action(game, replaying, judging, csrf)
        link = (f'<a href="/admin/replays/{game["id"]}">{game["id"]}</a>' if game["state"] == "finished"
                else live_link(game["id"]) if game["state"] == "running" else str(game["id"]))
        node = played_on.get(game["id"])
        rows.append(f'<tr data-game="{game["id"]}"><td>{link}</td><td>{game["table"]}</td>'
                    f'<td>{escape(state_text(game["state"]))}</td><td>{seats(game)}</td>'
                    f'<td class="node">{escape(node) if node else "—"}</td><td>{action}</td></tr>')
    state = (_("finished %(when)s") % {"when": when(item["finished"])} if item["finished"]
             else _("in progress"))
    started = _("started %(when)s, %(state)s") % {"when": when(item["started"]), "state": state}
    heads = "".join(f"<th>{word}</th>" for word in (_("game"), _("table"), _("state"), _("seats"), _("node"), ""))
    return (f'<section data-round="{item["round"]}"><h2>{_("Round %(round)s") % {"round": item["round"]}} '
            f'<span class="muted">{started}</span></h2><div class="scroll-x"><table class="list">'
            f'<thead><tr>{heads}</tr></thead><tbody>{"".join(rows)}</tbody></table></div></section>')


def games_page(rounds: Sequence[Mapping[str, Any]], replaying: Collection[int], csrf: str, *,
               judging: bool, notice: str | None = None, shown_rounds: int = 5,
               played_on: Mapping[int, str | None] | None = None,
               cluster: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The games running now, the cluster's nodes (``cluster``, on Ray), then the last ``shown_rounds`` rounds
    with their games, each running or finished game with the node that plays or played it (``played_on``), each
    finished one with a button that plays it again from its record."""
    played_on = played_on or {}
    running = [game for item in rounds for game in item["games"] if game["state"] == "running"]
    live = "".join(f'<tr data-game="{g["id"]}"><td>{live_link(g["id"])}</td><td>{g["round"]}</td>'
                   f'<td>{g["table"]}</td>'
                   f'<td>{seats(g)}</td><td class="node">{escape(played_on.get(g["id"]) or "—")}</td></tr>'
                   for g in running)
    heads = "".join(f"<th>{word}</th>" for word in (_("game"), _("round"), _("table"), _("seats"), _("node")))
    parts = [f'<p class="notice" id="notice">{escape(notice)}</p>' if notice else "",
             f'<section><h2>{_("Running now")}</h2>',
             (f'<table class="list" id="running-games"><thead><tr>{heads}</tr></thead><tbody>{live}</tbody></table>'
              if live else f'<p class="muted" id="running-games">{_("No game is running.")}</p>'), '</section>']
    parts.append(nodes_panel(cluster))
    if not judging:
        parts.append(f'<p class="muted">{_("No judge runs with this server: games cannot be played again here.")}</p>')
    for item in list(reversed(rounds))[:shown_rounds]:
        parts.append(_round_section(item, replaying, judging, csrf, played_on))
    if len(rounds) > shown_rounds:
        earlier = _('%(count)s earlier round(s): <a href="/admin/games?rounds=all" id="all-rounds">show every '
                    'round</a> (each game with its <em>Play again</em>), or play one of their games again by its id:')
        parts.append(f'<p class="muted">{earlier % {"count": len(rounds) - shown_rounds}}</p>')
    if judging:
        parts.append(form("/admin/games/replay", csrf, _("Play again"), id_="replay-by-id",
                          fields=f'<label>{_("Game")} <input name="game" inputmode="numeric" required size="6">'
                                 '</label> '))
    return console(_("Rounds and games"), "".join(parts), csrf)


def _count(row: Mapping[str, Any], measure: str) -> str:
    """A pair's count against the field's expectation, and their ratio ("–" where nothing was expected: no ratio).

    >>> _count({"hu": 2, "hu_expected": 0.0, "hu_ratio": 0.0}, "hu"), _count({"hu": 3, "hu_expected": 1.5,
    ...                                                                       "hu_ratio": 2.0}, "hu")
    ('2 <span class="muted">/ 0.0 –</span>', '3 <span class="muted">/ 1.5 ×2</span>')
    """
    expected = row[f"{measure}_expected"]
    if expected is None:
        return f'{row[measure]} <span class="muted">/ —</span>'
    ratio = row[f"{measure}_ratio"]
    times = "" if ratio is None else " –" if not expected else f" ×{ratio:g}"
    return f'{row[measure]} <span class="muted">/ {expected:.1f}{times}</span>'


def _chance(value: float | None) -> str:
    return "—" if value is None else f"{value:.2g}"


def _pairs_table(rows: Sequence[Mapping[str, Any]], ident: str) -> str:
    lines = []
    for row in rows:
        mark = ' class="stands-out"' if row["stands_out"] else ""
        lines.append(
            f'<tr data-from="{escape(row["from"])}" data-to="{escape(row["to"])}" '
            f'data-both-ways="{str(row["both_ways"]).lower()}"{mark}>'
            f'<td>{escape(pair_name(row, "→", "↔"))}</td><td class="num">{row["games"]}</td>'
            f'<td class="num">{row["discards"]}</td><td class="num">{_count(row, "taken")}</td>'
            f'<td class="num">{_count(row, "claims")}</td><td class="num">{_count(row, "wins")}</td>'
            f'<td class="num">{_chance(row["p"])}</td><td class="num">{_chance(row["q"])}</td>'
            f'<td>{_("stands out") if row["stands_out"] else ""}</td></tr>')
    heads = (_("pair"), _("games"), _("discards"), _("taken"), _("PENG/GANG"), _("HU"), "p", "q", "")
    return (f'<div class="scroll-x"><table class="list" id="{ident}"><thead><tr>'
            + "".join(f"<th>{word}</th>" for word in heads)
            + f'</tr></thead><tbody>{"".join(lines)}</tbody></table></div>')


def _pairs_summary(report: Mapping[str, Any], rate: str) -> str:
    standing = report["standing_out"]
    found = (f'<strong>{ngettext("%(count)s pair stands out", "%(count)s pairs stand out", len(standing))}</strong>'
             % {"count": len(standing)} if standing else _("no pair stands out"))
    return ('<p id="pairs-summary">'
            + _("%(games)s finished games, %(teams)s teams: %(found)s (at %(rate)s: the chance that any pair which "
                "does not collude stands out).")
            % {"games": report["games"], "teams": len(report["teams"]), "found": found, "rate": rate} + "</p>")


def pairs_page(report: Mapping[str, Any], csrf: str, *, shown: int = 40) -> str:
    """The report of pairs of teams (:mod:`mjarena.arena.collusion`): the pairs that stand out, then the
    ``shown`` pairs nearest to standing out; every pair is in ``/admin/pairs.csv``."""
    pairs, standing = report["pairs"], report["standing_out"]
    rate = f"{report['error_rate']:.0%}"
    how = _("A → B: of A's discards made while B was still playing (discards), those B took (taken: by PENG or "
            "GANG, or by HU: A dealt in to B), each beside what the field predicts for the pair and the ratio; "
            "A ↔ B: both ways together. The field's prediction rates each team as a discarder and as a taker from "
            "its games with the other teams. p: the chance of at least as many taken if the pair behaved as the "
            "field predicts; q: p adjusted for the number of pairs (Holm). A pair stands out when q ≤ %(rate)s: a "
            "reason to read its games, not a proof (two styles that suit each other show too).") % {"rate": rate}
    unreadable = report.get("unreadable") or []
    left = _("Left out, replay unreadable: games %(games)s.") % {"games": escape(", ".join(map(str, unreadable)))}
    skipped = f'<p class="error" id="pairs-unreadable">{left}</p>' if unreadable else ""
    parts = [_pairs_summary(report, rate), f'<p class="muted">{how}</p>', skipped]
    if standing:
        parts.append(f'<section><h2>{_("Standing out")}</h2>{_pairs_table(standing, "pairs-flagged")}</section>')
    if pairs:
        every = (_('%(shown)s of %(count)s rows shown; every row: %(link)s.')
                 % {"shown": min(shown, len(pairs)), "count": len(pairs),
                    "link": '<a href="/admin/pairs.csv">pairs.csv</a>'})
        parts.append(f'<section><h2>{_("Nearest to standing out")}</h2>{_pairs_table(pairs[:shown], "pairs-all")}'
                     f'<p class="muted">{every}</p></section>')
    dispersion = report["dispersion"]["taken"]
    if dispersion is not None:
        fits = _("How well the field's model fits: dispersion %(dispersion)s (about 1 or less when it fits; well "
                 "above 1, the p-values are too small).") % {"dispersion": f"{dispersion:.2f}"}
        parts.append(f'<p class="muted" id="pairs-dispersion">{fits}</p>')
    return console(_("Pairs of teams"), "".join(parts), csrf)
