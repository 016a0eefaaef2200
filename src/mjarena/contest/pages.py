"""The contest's HTML pages, in the web app's look (its style sheet, tiles and replay viewer).

Pages are complete without scripts; ``/contest-static/contest.js`` refreshes the standings while the contest
runs; replays play in the web app's viewer.  Every value from the database or a request
is escaped here.

>>> "&lt;b&gt;" in error_page(404, "<b>"), 'name="csrf" value="tok"' in login_page("tok")
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from html import escape
from typing import Any
from urllib.parse import quote

from mjarena.i18n import N_, active, html_lang, translated
from mjarena.i18n import gettext as _
from mjarena.verdicts import kind_label, render_build

__all__ = [
    "error_page",
    "limits_text",
    "login_page",
    "messages_list",
    "opening_text",
    "page",
    "replay_page",
    "rounds_page",
    "script_json",
    "standings_page",
    "team_games_page",
    "team_page",
    "thinking_table",
    "waiting_text",
    "when",
]


def page(title: str, body: str, *, scripts: Sequence[str] = (), viewer: str | None = None, admin: bool = False,
         **data: str) -> str:
    """A whole page: the contest's header and navigation, ``body``, the scripts (paths under the site);
    ``admin`` pages link the console instead of the team login."""
    attributes = "".join(f' data-{key.replace("_", "-")}="{escape(value)}"' for key, value in data.items())
    tags = "".join(f'<script src="{escape(src)}" defer></script>' for src in [*scripts, *(
        ["/contest-static/admin.js"] if admin else [])])
    if {"/contest-static/contest.js", "/static/replay.js"} & set(scripts) and active() != "en":
        tags += f'<script type="application/json" id="words">{script_json(_page_words(scripts))}</script>'
    if admin:
        who = f'<a href="/admin" id="console-link">{_("Console")}</a>'
    elif viewer is not None:
        who = f'<a href="/team" id="whoami">{escape(viewer)}</a>'
    else:
        who = f'<a href="/login" id="login-link">{_("Team login")}</a>'
    from mjarena.contest.language import language_links

    brand = _("mjarena contest")
    return f"""<!doctype html>
<html lang="{html_lang(active())}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · {brand}</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/contest-static/contest.css">
<link rel="icon" href="/tiles/33.svg">{tags}</head>
<body><header class="top"><a class="brand" href="/">{brand}</a>
<nav><a href="/">{_("Standings")}</a><a href="/rounds">{_("Rounds")}</a>{who}{language_links(active())}</nav></header>
<main id="app"{attributes}>{body}</main></body></html>
"""


def script_json(value: Any) -> str:
    r"""JSON that can sit inside a ``<script type="application/json">`` element: no ``</`` or ``<!--`` ends it.

    >>> script_json({"a": "</script>"})
    '{"a": "\\u003c/script>"}'
    """
    import json

    return (json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace("\u2028", "\\u2028")
            .replace("\u2029", "\\u2029"))


def when(epoch: float | None) -> str:
    """An epoch time as every page writes it (``contest.js`` too): ISO 8601, to the second, with the offset of
    the server's time zone.

    >>> when(None), len(when(0.0)), when(0.0)[10], when(0.0)[19] in "+-"
    ('—', 25, 'T', True)
    """
    if epoch is None:
        return "—"
    return datetime.fromtimestamp(epoch, timezone.utc).astimezone().isoformat(timespec="seconds")


def _team_link(team: str | None, hidden: bool = False) -> str:
    if hidden:
        return f'<span class="muted">{_("a hidden team")}</span>'
    if team is None:
        return f'<span class="muted">{_("house")}</span>'
    return f'<a href="/teams/{escape(quote(team))}">{escape(team)}</a>'


def _without(player: Mapping[str, Any]) -> str:
    """What a house bot's seat says when it played for a team disabled after the pairing.

    >>> _without({"team": None, "without": "gold"}), _without({"team": "red"})
    (' (for gold, disabled)', '')
    """
    return _(" (for %(team)s, disabled)") % {"team": escape(player["without"])} if player.get("without") else ""


def _seconds(value: float | None) -> str:
    return "—" if value is None else _("%(seconds)s s") % {"seconds": f"{value:.2f}"}


def _thinking(mean: float | None, most: float | None) -> str:
    """A team's thinking per game: its mean, and its most in one game (the same text ``contest.js`` writes).

    >>> _thinking(2.346, 7.0), _thinking(None, None)
    ('2.35 s (max 7.00 s)', '—')
    """
    return "—" if mean is None else _("%(mean)s (max %(most)s)") % {"mean": _seconds(mean), "most": _seconds(most)}


def _memory(mean: float | None, most: float | None) -> str:
    """A team's peak memory per game: its mean, and its most in one game.

    >>> _memory(12.34, 40.0), _memory(None, None)
    ('12.3 MiB (max 40.0 MiB)', '—')
    """
    if mean is None or most is None:
        return "—"
    return _("%(mean)s (max %(most)s)") % {"mean": f"{mean:.1f} MiB", "most": f"{most:.1f} MiB"}


def limits_text(limits: Mapping[str, Any]) -> str:
    """The limits in force, as the standings and the teams' pages show them (``Settings.limits_json``).

    >>> text = limits_text({"time_limit": 1.0, "memory_limit": 256, "game_budget": 30.0, "per_language": False})
    >>> text[text.index(">") + 1:text.index("(")]
    'Limits, the same for every language: 1 s per answer, 256 MiB, 30 s of thinking per game '
    """
    figures = {"time": f'{limits["time_limit"]:g}', "memory": limits["memory_limit"],
               "budget": f'{limits["game_budget"]:g}', "rule": _("past it, a seat is out with a timeout")}
    if not limits.get("per_language"):
        return ('<p class="muted" id="limits">' + _("Limits, the same for every language: %(time)s s per answer, "
                                                    "%(memory)s MiB, %(budget)s s of thinking per game (%(rule)s).")
                % figures + '</p>')
    rows = "".join(
        f'<tr data-language="{escape(name)}"><td>{escape(name)}</td>'
        f'<td class="num">{_("%(seconds)s s") % {"seconds": format(item["time_limit"], "g")}}</td>'
        f'<td class="num">{item["memory_limit"]} MiB</td>'
        f'<td class="num">{_("%(seconds)s s") % {"seconds": format(item["game_budget"], "g")}}</td></tr>'
        for name, item in limits["languages"].items())
    summary = _("Per-language limits (Botzone's way): %(time)s s per answer, %(memory)s MiB and %(budget)s s of "
                "thinking per game, times each language's factor (%(rule)s)") % figures
    return (f'<details id="limits"><summary class="muted">{summary}</summary>'
            f'<table class="list"><thead><tr><th>{_("language")}</th><th>{_("per answer")}</th>'
            f'<th>{_("memory")}</th><th>{_("per game")}</th>'
            f'</tr></thead><tbody>{rows}</tbody></table></details>')


def messages_list(announcements: Sequence[Mapping[str, Any]], questions: Sequence[Mapping[str, Any]] = ()) -> str:
    """The organiser's announcements, newest first (an answer with the question it answers, when the reader may
    see it), then the reader's own questions not answered yet; the same list ``contest.js`` draws.

    >>> "&lt;b&gt;" in messages_list([{"id": 1, "at": 0, "team": None, "text": "<b>", "question": None}])
    True
    """
    asked = {item["id"]: item for item in questions}
    answered = {item["question"] for item in announcements if item.get("question") is not None}
    items = []
    for item in announcements:
        to = _("to every team") if item["team"] is None else _("to %(team)s only") % {"team": escape(item["team"])}
        question = asked.get(item.get("question"))
        quoted = (f'<blockquote class="question">{escape(question["text"])}</blockquote>' if question is not None
                  else "")
        items.append(f'<li data-announcement="{item["id"]}"><span class="muted">{when(item["at"])} · {to}</span>'
                     f'{quoted}<p class="message-text">{escape(item["text"])}</p></li>')
    for item in questions:
        if item["id"] not in answered:
            items.append(f'<li data-question="{item["id"]}"><span class="muted">{when(item["at"])} · '
                         f'{_("your question, not answered yet")}</span>'
                         f'<blockquote class="question">{escape(item["text"])}</blockquote></li>')
    if not items:
        return '<ul class="messages" id="messages"></ul>'
    return f'<ul class="messages" id="messages">{"".join(items)}</ul>'


def standings_table(standings: Mapping[str, Any]) -> str:
    """The standings as a table (the same one ``contest.js`` draws)."""
    rows = "".join(
        f'<tr data-team="{escape(row["team"])}"><td>{row["rank"]}</td><td>{_team_link(row["team"])}</td>'
        f'<td>{row["points"]:g}</td><td>{row["games"]}</td>'
        f'<td class="num">{"—" if row["points_per_game"] is None else format(row["points_per_game"], ".3f")}</td>'
        f'<td>{"—" if row["version"] is None else "v" + str(row["version"])}</td>'
        f'<td class="num">{_thinking(row.get("thinking_per_game"), row.get("thinking_max"))}</td></tr>'
        for row in standings["rows"])
    heads = "".join(f"<th>{_(name)}</th>" for name in (N_("rank"), N_("team"), N_("points"), N_("games"),
                                                          N_("per game"), N_("bot")))
    title = escape(_("its bots' thinking time per game: the mean, and the most in one game"))
    return (f'<table class="list" id="standings-table"><thead><tr>{heads}'
            f'<th title="{title}">{_("thinking per game")}</th></tr></thead>'
            f'<tbody>{rows}</tbody></table>')


def _summary(standings: Mapping[str, Any], start: float | None, end: float | None) -> str:
    state = state_text(standings["state"])
    ranked = (_("points per game (the organiser's choice; the statement ranks by points)")
              if standings.get("ranked_by") == "points_per_game" else _("points"))
    return (f'<span id="state">{state}</span> · '
            + _("round %(round)s") % {"round": f'<span id="round">{standings["round"]}</span>'} + ' · '
            + _("window %(start)s – %(end)s") % {"start": when(start), "end": when(end)}
            + f' · <span id="ranked-by">{_("ranked by %(key)s") % {"key": ranked}}</span>'
            f'{" · " if standings.get("opening") else ""}<span id="opening">'
            f'{escape(opening_text(standings.get("opening")))}</span>')


def standings_page(standings: Mapping[str, Any], start: float | None, end: float | None,
                   viewer: str | None, chart: str = "", notice: str | None = None) -> str:
    """The live standings, and ``chart`` (the race: :func:`mjarena.contest.charts.race_chart`) below them; both
    refreshed by ``contest.js`` while the contest is not finished; ``notice``: why the contest paused itself."""
    shown = f'<p class="notice" id="notice">{escape(notice)}</p>' if notice else ""
    body = (f'<h1 class="title">{_("Standings")}</h1>{shown}'
            f'<p class="muted" id="summary">{_summary(standings, start, end)}</p>'
            f'<p class="notice" id="frozen"{"" if standings.get("frozen") else " hidden"}>'
            f'{escape(frozen_text(standings.get("frozen")))}</p>'
            f'<p class="notice" id="waiting"{"" if standings.get("waiting") else " hidden"}>'
            f'{escape(waiting_text(standings.get("waiting")))}</p>'
            f'<section class="announcements" id="announcements"{"" if standings.get("announcements") else " hidden"}'
            f'><h2>{_("Announcements")}</h2>{messages_list(standings.get("announcements", []))}</section>'
            f'<div id="standings">{standings_table(standings)}</div>'
            f'{limits_text(standings["limits"]) if "limits" in standings else ""}'
            '<p class="muted" id="status"></p>'
            f'<section class="race"><h2>{_("The race")}</h2><div id="race">{chart}</div></section>'
            f'{_randomness(standings)}')
    body += f'<p><a href="/results" id="results-link">{_("The results, to print or project")}</a></p>'
    return page(_("Standings"), body, scripts=["/contest-static/contest.js"], viewer=viewer, mode="standings",
                state=standings["state"])


def frozen_text(frozen: Mapping[str, Any] | None) -> str:
    """What the standings say while they are frozen (``contest.js`` writes the same)."""
    if not frozen:
        return ""
    return _("Frozen since %(since)s: the results of the games finished since then are revealed at the "
             "prize-giving (each team still sees its own).") % {"since": when(frozen["since"])}


def waiting_text(waiting: Mapping[str, Any] | None) -> str:
    """Why the rounds have not opened (the same text ``contest.js`` writes).

    >>> waiting_text({"ready": 2, "needed": 5})
    'The rounds open when 5 teams have a bot that builds: 2 have one.'
    """
    if not waiting:
        return ""
    values = {"needed": waiting["needed"], "ready": waiting["ready"], "deadline": when(waiting.get("deadline"))}
    if waiting.get("deadline") is not None:
        return _("The rounds open when %(needed)s teams have a bot that builds: %(ready)s have one; or at "
                 "%(deadline)s, with the teams that have one then.") % values
    return _("The rounds open when %(needed)s teams have a bot that builds: %(ready)s have one.") % values


def opening_text(opening: Mapping[str, Any] | None) -> str:
    """The opening the organiser chose (:func:`mjarena.contest.opening.opening_json`), as the standings say it.

    >>> opening_text({"rule": "first-build", "deadline": None, "house_games_count": True})
    'opening: first-build (the rounds opened as soon as enough teams had a bot)'
    """
    if not opening:
        return ""
    if opening["rule"] == "together":
        return _("opening: together (the first round waited for every team, up to a deadline; games with a house "
                 "bot count for no team)")
    return _("opening: first-build (the rounds opened as soon as enough teams had a bot)")


def _randomness(standings: Mapping[str, Any]) -> str:
    """Where the walls come from: the commitment from the start, the secret once the contest is finished.

    >>> "SHA-256" in _randomness({"commitment": "ab" * 32, "secret": None})
    True
    """
    promised, secret = standings.get("commitment"), standings.get("secret")
    if promised is None:
        return ""
    text = _("Every wall, seat and Swiss draw comes from a secret, published when the contest is finished; its "
             "SHA-256, published from the start: %(commitment)s.") % {
        "commitment": f'<code id="commitment">{escape(promised)}</code>'}
    if secret is not None:
        text += " " + _("The secret: %(secret)s. Anyone can check every game with %(command)s on the JSON "
                        "export.") % {"secret": f'<code id="secret">{escape(secret)}</code>',
                                      "command": "<code>mjarena contest verify</code>"}
    return f'<section class="randomness"><h2>{_("Randomness")}</h2><p class="muted">{text}</p></section>'


def _games_table(games: Sequence[Mapping[str, Any]], highlight: str | None = None) -> str:
    if not games:
        return f'<p class="muted">{_("No game yet.")}</p>'
    rows = []
    for game in reversed(games):
        players = " · ".join(
            f'{_team_link(p["team"], p.get("hidden", False))}{"" if p["version"] is None else " v" + str(p["version"])}'
            f'{_without(p)}'
            f'{"" if p["points"] is None else " " + format(p["points"], "g")}'
            f'{" (" + escape(kind_label(p["reason"])) + ")" if p.get("reason") else ""}'
            for p in sorted(game["players"], key=lambda p: (p["rank"] or 9, p["seat"])))
        name = _("game %(id)s") % {"id": game["id"]}
        badge = f'<span class="badge">{_("frozen") if game["state"] == "frozen" else _("playing")}</span>'
        link = (f'<a href="/replays/{game["id"]}">{name}</a>' if game["state"] == "finished"
                else f'<a href="/live/{game["id"]}" class="live">{name}</a> {badge}' if game.get("live")
                else f'{name} {badge}')
        rows.append(f'<tr data-game="{game["id"]}"><td>{link}</td><td>{game["round"]}</td>'
                    f'<td>{players}</td></tr>')
    return (f'<table class="list" id="games-table"><thead><tr><th>{_("game")}</th><th>{_("round")}</th>'
            f'<th>{_("players (points)")}</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def thinking_table(figures: Mapping[int, Mapping[str, Any]]) -> str:
    """Each version's thinking time per game (the mean and the most in one game), for the teams' pages."""
    rows = "".join(
        f'<tr data-version="{version}"><td>v{version}</td><td class="num">{item["games"]}</td>'
        f'<td class="num">{_seconds(item.get("thinking_per_game"))}</td>'
        f'<td class="num">{_seconds(item.get("thinking_max"))}</td></tr>'
        for version, item in sorted(figures.items(), reverse=True))
    if not rows:
        return ""
    heads = "".join(f"<th>{_(name)}</th>" for name in (N_("version"), N_("games"), N_("mean"), N_("most")))
    return (f'<table class="list" id="thinking"><caption>{_("Thinking time per game")}</caption><thead><tr>{heads}'
            f'</tr></thead><tbody>{rows}</tbody></table>')


def _errors_text(errors: Mapping[str, int]) -> str:
    return ", ".join(f"{kind_label(kind)} {count}" for kind, count in errors.items()) or _("none")


def statistics_table(stats: Mapping[str, Any] | None) -> str:
    """One team's statistics (:func:`mjarena.contest.statistics.team_statistics`) as a small table.

    >>> "50%" in statistics_table({"games": 2, "wins": 1, "win_rate": 0.5, "average_place": 2.0, "errors": {},
    ...                            "thinking_per_game": None, "thinking_max": None})
    True
    """
    if not stats:
        return ""
    rows = [(N_("games"), str(stats["games"])),
            (N_("wins (first place)"), f'{stats["wins"]} ({stats["win_rate"]:.0%})'),
            (N_("average place"), f'{stats["average_place"]:.2f}'),
            (N_("games with an error, by kind"), escape(_errors_text(stats["errors"]))),
            (N_("thinking per game"), _thinking(stats["thinking_per_game"], stats["thinking_max"])),
            (N_("peak memory per game"), _memory(stats.get("memory_per_game"), stats.get("memory_max")))]
    body = "".join(f'<tr><th scope="row">{_(name)}</th><td class="num">{value}</td></tr>' for name, value in rows)
    note = _("Over its finished games; peak memory is its bots' resident memory (the whole process tree, as "
             "measured against the memory limit), the most in each game.")
    return (f'<section><h2>{_("Statistics")}</h2><table class="list" id="statistics"><tbody>{body}</tbody></table>'
            f'<p class="muted">{escape(note)}</p></section>')


def results_page(standings: Mapping[str, Any], stats: Mapping[str, Mapping[str, Any]],
                 best: Mapping[str, int | None], viewer: str | None) -> str:
    """The final results, to print or project: the ranking, points, games, points per game, win rate, average
    place and each team's best version (most points per game); while the contest runs, or its last minutes are
    frozen, it says so above them."""
    key = standings.get("ranked_by", "points")
    rows = []
    for row in standings["rows"]:
        item = stats.get(row["team"], {})
        version = best.get(row["team"])
        rows.append(
            f'<tr data-team="{escape(row["team"])}"><td class="rank num">{row["rank"]}</td>'
            f'<td>{escape(row["team"])}</td><td class="num">{row["points"]:g}</td><td class="num">{row["games"]}</td>'
            f'<td class="num">{"—" if row["points_per_game"] is None else format(row["points_per_game"], ".3f")}</td>'
            f'<td class="num">{format(item["win_rate"], ".0%") if item else "—"}</td>'
            f'<td class="num">{format(item["average_place"], ".2f") if item else "—"}</td>'
            f'<td>{"—" if version is None else "v" + str(version)}</td></tr>')
    state = standings["state"]
    if standings.get("frozen"):
        note = _("Not final: %(why)s") % {"why": frozen_text(standings["frozen"])}
    elif state != "finished":
        note = _("Not final: the contest is %(state)s.") % {"state": state_text(state)}
    else:
        note = _("Final results.")
    ranked = _("points per game") if key == "points_per_game" else _("points")
    contest = standings.get("contest") or {}
    title = _("%(name)s: results") % {"name": contest["name"]} if contest.get("name") else _("Results")
    span = {"start": when(contest.get("start")), "end": when(contest.get("end"))}
    window = f'<p id="results-window">{_("The window: %(start)s – %(end)s.") % span}</p>' if contest else ""
    body = (f'<div class="results-page"><h1 class="title" id="results-title">{escape(title)}</h1>{window}'
            f'<p id="results-state">{escape(note)} {_("Ranked by %(key)s.") % {"key": ranked}}</p>'
            '<div class="results-scroll"><table class="list" id="results-table"><thead><tr>'
            + "".join(f"<th>{_(name)}</th>" for name in (N_("rank"), N_("team"), N_("points"), N_("games"),
                                                          N_("per game"), N_("wins"), N_("average place"),
                                                          N_("best version")))
            + f'</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
            f'<p class="muted no-print">{_("Print this page (or save it as PDF) for the prize-giving.")}</p></div>')
    return page(_("Results"), body, viewer=viewer)


def team_games_page(team: str, games: Sequence[Mapping[str, Any]], viewer: str | None, chart: str = "",
                    limits: Mapping[str, Any] | None = None,
                    figures: Mapping[int, Mapping[str, Any]] | None = None,
                    stats: Mapping[str, Any] | None = None) -> str:
    """One team's games, newest first, each linked to its replay; ``chart``: its points per game by version
    (:func:`mjarena.contest.charts.versions_chart`) above them, with each version's thinking time per game
    (``figures``: ``Contest.version_figures``) and the limits in force (``limits``: ``Settings.limits_json``)."""
    thinking = thinking_table(figures or {})
    versions = f'<section><h2>{_("Versions")}</h2>{chart}{thinking}</section>' if chart or thinking else ""
    shown = limits_text(limits) if limits else ""
    body = (f'<h1 class="title">{_("Team %(team)s") % {"team": escape(team)}}</h1>{shown}{statistics_table(stats)}'
            f'{versions}<h2>{_("Games")}</h2>{_games_table(games, team)}')
    return page(_("Team %(team)s") % {"team": team}, body,
                 viewer=viewer, scripts=["/contest-static/contest.js"], mode="team-games")


def rounds_page(rounds: Sequence[Mapping[str, Any]], viewer: str | None) -> str:
    """The schedule: every round's tables and games, with their state."""
    if not rounds:
        none_yet = _("No round yet: rounds start when a team's bot builds.")
        body = f'<h1 class="title">{_("Rounds")}</h1><p class="muted">{none_yet}</p>'
        return page(_("Rounds"), body, viewer=viewer)
    parts = [f'<h1 class="title">{_("Rounds")}</h1>']
    for item in reversed(rounds):
        state = _("finished %(when)s") % {"when": when(item["finished"])} if item["finished"] else _("in progress")
        rows = []
        for game in item["games"]:
            players = " · ".join(_team_link(p["team"], p.get("hidden", False)) + _without(p) for p in game["players"])
            link = (f'<a href="/replays/{game["id"]}">{game["id"]}</a>' if game["state"] == "finished"
                    else f'<a href="/live/{game["id"]}" class="live">{game["id"]}</a>' if game.get("live")
                    else game["id"])
            rows.append(f'<tr><td>{link}</td><td>{game["table"]}</td><td>{escape(state_text(game["state"]))}</td>'
                        f'<td>{players}</td></tr>')
        started = _("started %(when)s, %(state)s") % {"when": when(item["started"]), "state": state}
        heads = "".join(f"<th>{_(name)}</th>" for name in (N_("game"), N_("table"), N_("state"), N_("seats")))
        title = _("Round %(round)s") % {"round": item["round"]}
        parts.append(f'<section data-round="{item["round"]}"><h2>{title} '
                     f'<span class="muted">{started}</span></h2>'
                     f'<table class="list"><thead><tr>{heads}</tr>'
                     f'</thead><tbody>{"".join(rows)}</tbody></table></section>')
    return page(_("Rounds"), "".join(parts), viewer=viewer)


def replay_page(game_id: int, viewer: str | None) -> str:
    """The web app's replay viewer on a contest game (its transcript panel shows a logged-in team its own bots'
    output, see :func:`mjarena.contest.games.public_replay`)."""
    title = _("Game %(id)s") % {"id": game_id}
    body = f'<h1 class="title">{title}</h1><p class="muted" id="status">{_("Loading the replay…")}</p>'
    return page(title, body, scripts=["/static/mj.js", "/static/replay.js"], viewer=viewer,
                replay=str(game_id))


def live_page(game_id: int, viewer: str | None, *, admin: bool = False) -> str:
    """The replay viewer on a game in progress (:mod:`mjarena.contest.live`): its moves so far, asked for again every
    few seconds, then its replay (the console's for the organiser) once it has ended."""
    title = _("Game %(id)s") % {"id": game_id}
    base = "/admin" if admin else ""
    body = (f'<h1 class="title">{title} <span class="badge">{_("playing")}</span></h1>'
            f'<p class="muted" id="status">{_("Loading the game so far…")}</p>')
    return page(title, body, scripts=["/static/mj.js", "/static/replay.js"], viewer=viewer, admin=admin,
                replay=str(game_id), live=f"/admin/live/{game_id}/view" if admin else f"/api/live/{game_id}",
                done=f"{base}/replays/{game_id}")


def login_page(csrf: str, error: str | None = None) -> str:
    """The token form (a team logs in once; a session cookie does the rest), with the pre-session ``csrf`` token
    (:func:`mjarena.contest.forms.login_page_response`)."""
    problem = f'<p class="error" id="login-error">{escape(_(error))}</p>' if error else ""
    body = f"""<h1 class="title">{_("Team login")}</h1>{problem}
<form class="start" method="post" action="/login" id="login">
<input type="hidden" name="csrf" value="{escape(csrf)}">
<label>{_("Team token")} <input type="password" name="token" id="token" autocomplete="off" required></label>
<button type="submit">{_("Log in")}</button></form>
<p class="muted">{_("The token came from the organiser. It is asked once; then this browser stays logged in.")}</p>"""
    return page(_("Login"), body)


def _version_cells(figures: Mapping[str, Any] | None) -> str:
    if not figures:
        return '<td class="num">0</td><td class="num">–</td><td class="num">–</td><td class="num">–</td>'
    return (f'<td class="num">{figures["games"]}</td><td class="num">{figures["points_per_game"]:.3f}</td>'
            f'<td class="num error-kinds">'
            f'{escape(_errors_text(figures.get("error_kinds") or {})) if figures["errors"] else 0}</td>'
            f'<td class="num">{_thinking(figures.get("thinking_per_game"), figures.get("thinking_max"))}</td>')


def team_page(team: str, submissions: Sequence[Mapping[str, Any]], csrf: str, accepted: Sequence[str],
              max_upload: int, message: str | None = None,
              figures: Mapping[int, Mapping[str, Any]] | None = None, chart: str = "",
              limits: Mapping[str, Any] | None = None, messages: Mapping[str, Any] | None = None,
              stats: Mapping[str, Any] | None = None) -> str:
    """A logged-in team's page: upload a bot (under the ``limits`` in force, ``Settings.limits_json``), and every
    submission (newest first) with its time, its build message and, per version, the games it played, its points
    per game, the games it erred in and its thinking time per game (``chart``: the points per game drawn)."""
    figures = figures or {}
    rows = "".join(
        f'<tr data-version="{s["version"]}"><td>v{s["version"]}</td><td class="num">{when(s.get("submitted"))}</td>'
        f'<td>{escape(s["language"])}</td>'
        f'<td class="status-{escape(s["status"])}">{escape(state_text(s["status"]))}</td>'
        f'{_version_cells(figures.get(s["version"]))}'
        f'<td><pre class="message">{escape(render_build(s["message"])) or "—"}</pre></td>'
        f'<td class="link"><a href="/team/submissions/{s["id"]}/source">{_("source")}</a></td></tr>'
        for s in reversed(submissions))
    heads = "".join(f"<th>{_(name)}</th>" for name in (
        N_("version"), N_("submitted"), N_("language"), N_("build"), N_("games"), N_("points per game"),
        N_("errors"), N_("thinking per game"), N_("message")))
    history = ('<div class="scroll-x"><table class="list" id="submissions"><thead><tr>'
               f'{heads}<th></th></tr></thead><tbody>{rows}</tbody></table></div>' if rows
               else f'<p class="muted" id="submissions">{_("No submission yet.")}</p>')
    notice = f'<p class="muted" id="notice">{escape(translated(message))}</p>' if message else ""
    kinds = ", ".join(accepted)
    upload_note = _("%(kinds)s; at most %(kib)s KiB. It plays from your next game once it builds.") % {
        "kinds": escape(kinds), "kib": max_upload // 1024}
    body = f"""<h1 class="title">{_("Team %(team)s") % {"team": escape(team)}}</h1>{notice}
<section><h2>{_("Upload a bot")}</h2>
<form class="upload" method="post" action="/team/upload" enctype="multipart/form-data" id="upload">
<input type="hidden" name="csrf" value="{escape(csrf)}">
<input type="file" name="source" id="source" accept="{escape(",".join(accepted))}" required>
<button type="submit">{_("Upload")}</button>
<span class="muted">{upload_note}</span></form>{limits_text(limits) if limits else ""}</section>
<section class="announcements"><h2>{_("Announcements")}</h2>{messages_list(
        messages.get("announcements", []) if messages else [], messages.get("questions", []) if messages else [])}
<form method="post" action="/team/questions" id="ask"><input type="hidden" name="csrf" value="{escape(csrf)}">
<label>{_("A question to the organiser")} <textarea name="text" id="question" rows="2" maxlength="2000" required>
</textarea></label> <button type="submit">{_("Ask")}</button></form></section>
<section><h2>{_("Submissions")}</h2>{history}{chart}</section>{statistics_table(stats)}
<section><h2>{_("Games")}</h2><p><a href="/teams/{escape(quote(team))}">{_("Your games and replays")}</a> {_(
    "(your bots' debug output and standard error are shown under each replay, to you only).")}</p></section>
<form method="post" action="/logout"><input type="hidden" name="csrf" value="{escape(csrf)}">
<button type="submit" id="logout">{_("Log out")}</button></form>"""
    return page(_("Team %(team)s") % {"team": team}, body,
                 viewer=team, scripts=["/contest-static/contest.js"], mode="team")


def error_page(status: int, message: str, viewer: str | None = None) -> str:
    """A page that says what went wrong."""
    title = _("Error %(status)s") % {"status": status}
    return page(title, f'<h1 class="title">{title}</h1><p class="error">{escape(translated(message))}</p>'
                f'<p><a href="/">{_("Back to the standings")}</a></p>', viewer=viewer)


STATES = {"not_started": N_("not started"), "running": N_("running"), "paused": N_("paused"),
          "finished": N_("finished"), "planned": N_("planned"), "frozen": N_("frozen"), "error": N_("error"),
          "pending": N_("pending"), "ok": N_("ok"), "compile_error": N_("compile error"),
          "held": N_("held")}
"""The words for the states of a contest, a game and a build (an unknown state is shown as it is)."""


def state_text(state: str) -> str:
    """A state's word in the reader's language (``not_started``: not started).

    >>> state_text("not_started"), state_text("something_new")
    ('not started', 'something new')
    """
    return _(STATES[state]) if state in STATES else state.replace("_", " ")


SCRIPT_WORDS = (
    N_("not started"), N_("running"), N_("paused"), N_("finished"), N_("%(seconds)s s"), N_("%(mean)s (max %(most)s)"),
    N_("to every team"), N_("to %(team)s only"), N_("your question, not answered yet"),
    N_("The rounds open when %(needed)s teams have a bot that builds: %(ready)s have one."),
    N_("The rounds open when %(needed)s teams have a bot that builds: %(ready)s have one; or at %(deadline)s, with "
       "the teams that have one then."),
    N_("Frozen since %(since)s: the results of the games finished since then are revealed at the prize-giving (each "
       "team still sees its own)."),
    N_("Show the top ten"), N_("updated %(when)s"), N_("cannot read the standings: %(error)s (trying again)"),
)
"""What ``contest.js`` writes, in the catalog: a page gives the script their translations (``#words``)."""

HTTP_WORDS = (N_("Not Found"), N_("Method Not Allowed"))
"""Starlette's words for an error without a message of mjarena's, which :func:`error_page` shows translated."""


def _page_words(scripts: Sequence[str]) -> dict[str, str]:
    """The translations a page's scripts need: ``contest.js``'s, the replay viewer's."""
    from mjarena.web.viewer_words import viewer_words

    return {**(script_words() if "/contest-static/contest.js" in scripts else {}),
            **(viewer_words() if "/static/replay.js" in scripts else {})}


def script_words() -> dict[str, str]:
    """:data:`SCRIPT_WORDS` in the reader's language, for ``contest.js``'s ``t()``."""
    return {message: _(message) for message in SCRIPT_WORDS}
