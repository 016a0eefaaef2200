"""The organiser's console: its HTML pages (``/admin``, see :mod:`mjarena.contest.admin`).

Every value from the database or a request is escaped here; every form carries the console session's CSRF token.

>>> "&lt;x&gt;" in token_page("team", "<x>", "tok", "c"), 'name="csrf" value="c"' in admin_login_page("c")
(True, True)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from mjarena.arena.collusion import pair_name
from mjarena.contest.failures import KIND_LABELS
from mjarena.contest.pages import page, script_json, when

__all__ = ["admin_login_page", "admin_replay_page", "admin_team_page", "console_page", "error_cells", "games_page",
           "nodes_panel", "pairs_page", "submission_page", "submissions_page", "token_page"]

_NAV = ('<nav class="admin-nav"><a href="/admin">Teams and window</a><a href="/admin/submissions">Submissions</a>'
        '<a href="/admin/games">Rounds and games</a><a href="/admin/pairs">Pairs of teams</a>'
        '<a href="/admin/export.json">Export JSON</a><a href="/admin/export.csv">Export CSV</a>'
        '<a href="/admin/archive.zip" id="archive-link">Every source and replay (zip)</a>'
        '<a href="/results">Results to print</a></nav>')


def _console(title: str, body: str, csrf: str) -> str:
    """A console page; ``csrf`` empty: the session has ended (no log-out form)."""
    logout = (f'<form method="post" action="/admin/logout" class="inline"><input type="hidden" name="csrf" '
              f'value="{escape(csrf)}"><button type="submit" id="admin-logout">Log out</button></form>' if csrf
              else "")
    ending = f'<p class="admin-logout">{logout}</p>' if logout else ""  # apart from the page's own buttons
    return page(title, f'<h1 class="title">{escape(title)}</h1>{_NAV}{body}{ending}', viewer=None, admin=True)


def _game_action(game: Mapping[str, Any], replaying: Any, judging: bool, csrf: str) -> str:
    """A game row's action: a mark while it is played again, *Play again* when finished and a judge runs."""
    if game["id"] in replaying:
        return '<span class="badge">playing again</span>'
    if game["state"] == "finished" and judging:
        return _form(f'/admin/games/{game["id"]}/replay', csrf, "Play again",
                     confirm=f"Play game {game['id']} again from its record and replace its result?")
    return ""


def _form(action: str, csrf: str, button: str, *, fields: str = "", id_: str | None = None,
          confirm: str | None = None) -> str:
    ident = f' id="{escape(id_)}"' if id_ else ""
    ask = f' data-confirm="{escape(confirm)}"' if confirm else ""
    return (f'<form method="post" action="{escape(action)}" class="inline"{ident}{ask}>'
            f'<input type="hidden" name="csrf" value="{escape(csrf)}">{fields}'
            f'<button type="submit">{escape(button)}</button></form>')


def admin_login_page(csrf: str, error: str | None = None) -> str:
    """The organiser's token form, with the pre-session ``csrf`` token
    (:func:`mjarena.contest.forms.login_page_response`)."""
    problem = f'<p class="error" id="login-error">{escape(error)}</p>' if error else ""
    body = f"""<h1 class="title">Organiser's console</h1>{problem}
<form class="start" method="post" action="/admin/login" id="admin-login">
<input type="hidden" name="csrf" value="{escape(csrf)}">
<label>Admin token <input type="password" name="token" id="token" autocomplete="off" required></label>
<button type="submit">Log in</button></form>
<p class="muted">The admin token was printed by <code>mjarena contest create</code>.</p>"""
    return page("Console login", body, admin=True)


def _window(state: str, start: float | None, end: float | None, paused_since: float | None, csrf: str,
            ended: bool, freeze: Mapping[str, Any] | None = None) -> str:
    """The window's state and its actions: pause or resume, extend by some minutes, end now; none once it ended."""
    def action(name: str, button: str, *, fields: str = "", confirm: str | None = None) -> str:
        return _form("/admin/window", csrf, button, id_=name, confirm=confirm,
                     fields=f'<input type="hidden" name="action" value="{name}">{fields}')

    freeze = freeze or {}
    if ended:
        actions = ""
        note = "the window has ended: a finished contest stays finished (no pause, resume or extension)"
        if freeze.get("minutes") and freeze.get("revealed") is None and freeze.get("waiting"):
            actions = (f'<span id="reveal-waits">Reveal the results once every game of the window has finished: '
                       f'waiting for {escape(freeze["waiting"])}.</span>')
            note += "; the public standings are frozen until you reveal them"
        elif freeze.get("minutes") and freeze.get("revealed") is None:
            actions = action("reveal", "Reveal the results", confirm="Reveal the frozen results to everyone now?")
            note += "; the public standings are frozen until you reveal them"
    else:
        if paused_since is not None:
            actions = action("resume", "Resume")
            note = f"paused since {when(paused_since)}; no game starts until resumed (the end moves by the pause)"
        else:
            actions = action("pause", "Pause")
            note = "games start as workers free up"
        actions += " " + action("extend", "Extend the window",
                                fields='<label>by <input name="minutes" id="extend-minutes" inputmode="decimal" '
                                       'required size="5"> minutes</label> ')
        if start is not None:
            actions += " " + action("end", "End now", confirm="End the window now? The round in progress is "
                                    "played to its end; no new round starts, and it cannot be reopened.")
    if freeze.get("minutes"):
        frozen = ("revealed " + when(freeze["revealed"]) if freeze.get("revealed") is not None
                  else "from " + when(freeze.get("from")))
        note += f'; public standings frozen for the last {freeze["minutes"]:g} minutes ({frozen})'
    return (f'<section><h2>Window</h2><p><span id="contest-state">{escape(state.replace("_", " "))}</span> · '
            f'{when(start)} – <span id="window-end">{when(end)}</span> · <span class="muted">{escape(note)}</span>'
            f'</p><p>{actions}</p></section>')


def _boxes(error: Mapping[str, Any]) -> str:
    """The seat whose box failed, and the seat whose box ran last before it (so that one team behind repeated
    judge errors shows).

    >>> _boxes({"seat": 2, "team": "red", "after_seat": 0, "after_team": None})
    'seat 2 (red), after seat 0 (house)'
    >>> _boxes({"seat": 1, "team": "red", "after_seat": None}), _boxes({"seat": None})
    ('seat 1 (red), the first box of the game', '')
    """
    def named(seat: int, team: str | None) -> str:
        return f"seat {seat} ({escape(team) if team is not None else 'house'})"

    if error.get("seat") is None:
        return ""
    after = error.get("after_seat")
    return named(error["seat"], error.get("team")) + (
        ", the first box of the game" if after is None else f", after {named(after, error.get('after_team'))}")


def _judge_errors(errors: Sequence[Mapping[str, Any]], csrf: str, judging: bool) -> str:
    """The games the judge failed (not a bot), newest first; a held game with a button that plays it now."""
    if not errors:
        return ('<section><h2>Judge errors</h2><p class="muted" id="judge-errors">None: every game so far was '
                'played to its end.</p></section>')
    rows = []
    offered = set()
    for error in errors:
        game = error["game"]
        if error["held"] and judging and game not in offered:
            offered.add(game)
            state = ('held ' + _form(f"/admin/games/{game}/release", csrf, "Play it now",
                                     confirm=f"Play game {game} again now, from its start?"))
        else:
            state = "held" if error["held"] else ""
        rows.append(f'<tr data-judge-error="{error["id"]}" data-game="{game}"><td>{game}</td>'
                    f'<td class="num">{when(error["at"])}</td><td>{escape(error["what"])}</td>'
                    f'<td>{_boxes(error)}</td><td>{state}</td></tr>')
    return ('<section><h2>Judge errors</h2><p class="muted">Games the judge failed, not a bot: nothing is recorded '
            'against a team, and the game is played again from its start with the same wall and versions; after '
            'repeated failures it is held here for you. <i>box</i>: the seat whose box failed, and the seat whose box '
            'ran before it.</p><div class="scroll-x"><table class="list" '
            'id="judge-errors"><thead><tr><th>game</th><th>when</th><th>what</th><th>box</th><th></th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div></section>')


def _messages(messages: Mapping[str, Any], teams: Sequence[str], csrf: str) -> str:
    """Post an announcement (to every team or one), the teams' questions each with a form to answer it (to the
    team that asked, or to every team): one page of them (:func:`mjarena.contest.messages.questions_page`), those
    not answered first, with links to the other pages; and every announcement sent."""
    options = "".join(f'<option value="{escape(name)}">{escape(name)} only</option>' for name in teams)
    post = _form("/admin/announcements", csrf, "Announce", id_="announce",
                 fields=f'<label>Message <textarea name="text" id="announcement" rows="2" maxlength="2000" required>'
                        f'</textarea></label> <label>to <select name="team" id="announce-to"><option value="">every '
                        f'team</option>{options}</select></label> ')
    answered = {item["question"] for item in messages["announcements"] if item["question"] is not None}
    questions = []
    for item in messages["questions"]:
        answer = _form("/admin/announcements", csrf, "Answer", fields=(
            f'<input type="hidden" name="question" value="{item["id"]}"><textarea name="text" rows="1" '
            'maxlength="2000" required aria-label="answer"></textarea> <label>to <select name="team">'
            f'<option value="{escape(item["team"])}">{escape(item["team"])} only</option>'
            '<option value="">every team</option></select></label> '))
        state = "answered" if item.get("answered", item["id"] in answered) else "open"
        questions.append(f'<li data-question="{item["id"]}" data-state="{state}"><span class="muted">'
                         f'{when(item["at"])} · {escape(item["team"])} asks ({state})</span>'
                         f'<blockquote class="question">{escape(item["text"])}</blockquote>{answer}</li>')
    asked = (f'<h3>Questions</h3>{_question_pages(messages)}<ul class="messages" id="questions">'
             f'{"".join(questions)}</ul>' if questions else '<p class="muted" id="questions">No question yet.</p>')
    sent = "".join(f'<li data-announcement="{item["id"]}"><span class="muted">{when(item["at"])} · '
                   f'{"to every team" if item["team"] is None else "to " + escape(item["team"]) + " only"}'
                   f'{"" if item["question"] is None else ", answering question " + str(item["question"])}</span>'
                   f'<p class="message-text">{escape(item["text"])}</p></li>' for item in messages["announcements"])
    shown = f'<h3>Sent</h3><ul class="messages" id="sent">{sent}</ul>' if sent else ""
    return f'<section><h2>Announcements and questions</h2><p>{post}</p>{asked}{shown}</section>'


def _question_pages(messages: Mapping[str, Any]) -> str:
    """How many questions wait for an answer; with several pages, which one this is and links to the pages
    before and after it.

    >>> shown = _question_pages({"page": 2, "pages": 3, "total": 45, "open": 4})
    >>> shown.split(">", 1)[1].split(" <a")[0]
    '4 of 45 not answered · page 2 of 3'
    >>> [link.split('"')[1] for link in shown.split("<a href=")[1:]]
    ['/admin?questions=1#questions', '/admin?questions=3#questions']
    """
    if "pages" not in messages:
        return ""
    page, pages = messages["page"], messages["pages"]
    links = "".join(f' <a href="/admin?questions={number}#questions">{word}</a>'
                    for number, word in ((page - 1, "previous"), (page + 1, "next")) if 1 <= number <= pages)
    return (f'<p class="muted" id="question-pages">{messages["open"]} of {messages["total"]} not answered'
            f'{f" · page {page} of {pages}{links}" if pages > 1 else ""}</p>')


def console_page(*, state: str, start: float | None, end: float | None, paused_since: float | None,
                 teams: Sequence[Mapping[str, Any]], log: Sequence[tuple[float, str, str]], csrf: str,
                 notice: str | None = None, judge_errors: Sequence[Mapping[str, Any]] = (), ended: bool = False,
                 judging: bool = False, messages: Mapping[str, Any] | None = None,
                 freeze: Mapping[str, Any] | None = None) -> str:
    """Teams (versions, last build verdict, games, points), adding a team, rotating tokens, the window, the
    judge errors, the log of the organiser's actions."""
    rows = []
    for team in teams:
        last = team["last"]
        verdict = (f'v{last["version"]} <span class="status-{escape(last["status"])}">{escape(last["status"])}'
                   '</span>' if last else '<span class="muted">none</span>')
        name = team["team"]
        rotate = _form(f"/admin/teams/{quote(name, safe='')}/token", csrf, "New token",
                       confirm=f"Give {name} a new token? The old one stops working.")
        flags = "".join(f' <span class="badge err" data-flag="{escape(flag)}">{escape(flag)}</span>'
                        for flag in sorted(team.get("flags", ())))
        rows.append(
            f'<tr data-team="{escape(name)}"><td class="team-name">'
            f'<a href="/admin/teams/{escape(quote(name, safe=""))}">{escape(name)}</a>{flags}</td>'
            f'<td class="num">{team["games"]}</td>'
            f'<td class="num">{team["points"]:g}</td><td>{error_links(name, team.get("errors", {}))}</td>'
            f'<td>{"—" if team["current"] is None else "v" + str(team["current"])}</td><td>{verdict}</td>'
            f'<td class="num">{team["versions"]}</td><td>{rotate}</td></tr>')
    table = ('<div class="scroll-x"><table class="list" id="admin-teams"><thead><tr><th>team</th><th>games</th>'
             '<th>points</th><th>errors</th><th>playing</th><th>last build</th><th>versions</th><th></th></tr>'
             f'</thead><tbody>{"".join(rows)}</tbody></table></div>' if rows else '<p class="muted">No team yet.</p>')
    add = _form("/admin/teams", csrf, "Add team", id_="add-team",
                fields='<label>New team <input name="name" id="team-name" required maxlength="64" '
                       'pattern="[A-Za-z0-9_.+\\-]{1,64}"></label> ')
    entries = "".join(f'<li>{when(at)} · {escape(action)} · {escape(detail)}</li>' for at, action, detail in log)
    history = f'<ul class="admin-log">{entries}</ul>' if entries else '<p class="muted">Nothing yet.</p>'
    shown = f'<p class="notice" id="notice">{escape(notice)}</p>' if notice else ""
    admin_token = _form("/admin/token", csrf, "New admin token", id_="rotate-admin",
                        confirm="Give the organiser a new token? Every console session, this one too, ends.")
    body = (f'{shown}{_window(state, start, end, paused_since, csrf, ended, freeze)}'
            f'<section><h2>Teams</h2>{table}<p>{add}</p></section>'
            f'{_judge_errors(judge_errors, csrf, judging)}'
            f'{_messages(messages, [team["team"] for team in teams], csrf) if messages is not None else ""}'
            f'<section><h2>The organiser\'s actions</h2>{history}<p>{admin_token}</p></section>')
    return _console("Console", body, csrf)


def error_links(team: str, errors: Mapping[str, Any], version: int | None = None) -> str:
    """A team's (or one version's) errors by kind, each a link to the games it happened in (``errors``: kind ->
    a count or the games' ids)."""
    if not errors:
        return '<span class="muted">none</span>'
    only = "" if version is None else f"&amp;version={version}"
    links = []
    for kind, found in errors.items():
        count = found if isinstance(found, int) else len(found)
        links.append(f'<a href="/admin/teams/{escape(quote(team, safe=""))}?kind={escape(quote(kind))}{only}#games" '
                     f'data-kind="{escape(kind)}" class="error-kind">{escape(KIND_LABELS.get(kind, kind))} {count}</a>')
    return " · ".join(links)


def error_cells(team: str, version: int, figures: Mapping[int, Mapping[str, Any]]) -> str:
    """One version's games and its errors by kind (``figures``: :func:`mjarena.contest.failures.version_errors`
    of its team), as two table cells."""
    item = figures.get(version)
    if item is None:
        return '<td class="num">0</td><td><span class="muted">none</span></td>'
    return f'<td class="num">{len(item["games"])}</td><td>{error_links(team, item["errors"], version)}</td>'


def token_page(name: str, token: str, csrf: str, what: str = "The new token") -> str:
    """A token, shown this once (the page is not cached; only its hash is kept)."""
    body = (f'<section><h2>{escape(what)} of {escape(name)}</h2>'
            f'<p>Copy it now: it is shown only once, and only its hash is kept.</p>'
            f'<p><code id="new-token" class="token">{escape(token)}</code></p>'
            '<p><a href="/admin">Back to the console</a></p></section>')
    return _console(f"Token of {name}", body, csrf)


def submissions_page(submissions: Sequence[Mapping[str, Any]], csrf: str,
                     figures: Mapping[str, Mapping[int, Mapping[str, Any]]] | None = None) -> str:
    """Every submission, newest first, linked to its source and build log, with the games its version played and
    its errors by kind (``figures``: :func:`mjarena.contest.failures.version_errors`), linked to those games."""
    figures = figures or {}
    rows = "".join(
        f'<tr data-submission="{s["id"]}"><td><a href="/admin/submissions/{s["id"]}">#{s["id"]}</a></td>'
        f'<td><a href="/admin/teams/{escape(quote(s["team"], safe=""))}">{escape(s["team"])}</a></td>'
        f'<td>v{s["version"]}</td><td>{escape(s["language"])}</td>'
        f'<td class="status-{escape(s["status"])}">{escape(s["status"])}</td>'
        f'{error_cells(s["team"], s["version"], figures.get(s["team"], {}))}'
        f'<td class="num">{when(s["submitted"])}</td></tr>'
        for s in reversed(submissions))
    body = ('<div class="scroll-x"><table class="list" id="admin-submissions"><thead><tr><th>id</th><th>team</th>'
            '<th>version</th><th>language</th><th>build</th><th>games</th><th>errors</th><th>submitted</th></tr>'
            f'</thead><tbody>{rows}</tbody></table></div>' if rows else '<p class="muted">No submission yet.</p>')
    return _console("Submissions", body, csrf)


def _numbered(source: str) -> str:
    r"""A source's lines, each in a ``<span class="line">`` that the style sheet numbers (build logs cite lines).

    >>> _numbered("a<\nb\n")
    '<span class="line">a&lt;</span>\n<span class="line">b</span>\n'
    """
    return "".join(f'<span class="line">{escape(line)}</span>\n' for line in source.splitlines())


def submission_page(submission: Mapping[str, Any], source: str, csrf: str) -> str:
    """One submission: its build verdict and log, and its source as text."""
    s = submission
    body = (f'<section><h2>#{s["id"]}: {escape(s["team"])} v{s["version"]} ({escape(s["language"])})</h2>'
            f'<p>Submitted {when(s["submitted"])} · build <span class="status-{escape(s["status"])}" '
            f'id="build-status">{escape(s["status"])}</span> · '
            f'<a href="/admin/submissions/{s["id"]}/source">download the source</a> · '
            + _form(f"/admin/submissions/{s['id']}/rebuild", csrf, "Build again", id_="rebuild")
            + f'</p><h3>Build log</h3><pre class="message" id="build-log">{escape(s["message"]) or "—"}</pre>'
            f'<h3>Source</h3><pre class="source numbered" id="source-text">{_numbered(source)}</pre></section>')
    return _console(f"Submission {s['id']}", body, csrf)


def _seat(player: Mapping[str, Any]) -> str:
    if player["team"] is None:
        name = "house"
    else:
        name = escape(player["team"]) + ("" if player["version"] is None else f" v{player['version']}")
    return name + ("" if player["points"] is None else f" {player['points']:g}")


def _seats(game: Mapping[str, Any]) -> str:
    return " · ".join(_seat(player) for player in game["players"])


def _ratio(value: float | None) -> str:
    return "—" if value is None else f"×{value:.2f}"


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
    rows = []
    for node in nodes:
        state = escape(node["state"]) + (" (head)" if node.get("head") else "")
        why = "; ".join(node.get("reasons") or ())
        flag = (f' <span class="badge err" data-flagged="1">flagged</span> {escape(node["flagged"])}'
                if node.get("flagged") else "")
        skew = "—" if node.get("skew") is None else f'{node["skew"]:+.1f} s'
        cores = "—" if node.get("cores") is None else str(node["cores"])
        rows.append(f'<tr data-node="{escape(node["node"])}" data-state="{escape(node["state"])}">'
                    f'<td>{escape(node["node"])}</td><td>{state}</td><td>{escape(why) or "—"}{flag}</td>'
                    f'<td class="num">{_ratio(node.get("ratio"))}</td><td class="num">{skew}</td>'
                    f'<td class="num">{node.get("slots", 0)} <span class="muted">({node.get("cpus")} CPUs, '
                    f'{cores} cores)</span></td><td class="num">{node.get("running", 0)}</td>'
                    f'<td class="num">{node.get("played", 0)}</td></tr>')
    body = ('<div class="scroll-x"><table class="list" id="cluster-nodes"><thead><tr><th>node</th><th>check</th>'
            '<th>why left out / flagged</th><th>canary vs head</th><th>clock</th><th>games at once</th>'
            f'<th>running</th><th>played</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>' if rows
            else '<p class="muted" id="cluster-nodes">No node seen yet.</p>')
    return ('<section><h2>Nodes</h2><p class="muted">Every node of the Ray cluster is checked before it plays (the '
            'box, the runtimes, its cache, the clock, a canary): a node left out gets no game. Canary vs head: its '
            'time for the same built-in games over the head\'s (a node more than 30% off is flagged: bots\' times '
            f'there are not comparable). Played: games since the server started.</p>{body}</section>')


def games_page(rounds: Sequence[Mapping[str, Any]], replaying: Collection[int], csrf: str, *,
               judging: bool, notice: str | None = None, shown_rounds: int = 5,
               played_on: Mapping[int, str | None] | None = None,
               cluster: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The games running now, the cluster's nodes (``cluster``, on Ray), then the last ``shown_rounds`` rounds
    with their games, each running or finished game with the node that plays or played it (``played_on``), each
    finished one with a button that plays it again from its record."""
    played_on = played_on or {}
    running = [game for item in rounds for game in item["games"] if game["state"] == "running"]
    live = "".join(f'<tr data-game="{g["id"]}"><td>{g["id"]}</td><td>{g["round"]}</td><td>{g["table"]}</td>'
                   f'<td>{_seats(g)}</td><td class="node">{escape(played_on.get(g["id"]) or "—")}</td></tr>'
                   for g in running)
    parts = [f'<p class="notice" id="notice">{escape(notice)}</p>' if notice else "",
             '<section><h2>Running now</h2>',
             ('<table class="list" id="running-games"><thead><tr><th>game</th><th>round</th><th>table</th>'
              f'<th>seats</th><th>node</th></tr></thead><tbody>{live}</tbody></table>' if live
              else '<p class="muted" id="running-games">No game is running.</p>'), '</section>']
    parts.append(nodes_panel(cluster))
    if not judging:
        parts.append('<p class="muted">No judge runs with this server: games cannot be played again here.</p>')
    for item in list(reversed(rounds))[:shown_rounds]:
        rows = []
        for game in item["games"]:
            action = _game_action(game, replaying, judging, csrf)
            link = (f'<a href="/admin/replays/{game["id"]}">{game["id"]}</a>' if game["state"] == "finished"
                    else str(game["id"]))
            node = played_on.get(game["id"])
            rows.append(f'<tr data-game="{game["id"]}"><td>{link}</td><td>{game["table"]}</td>'
                        f'<td>{escape(game["state"])}</td><td>{_seats(game)}</td>'
                        f'<td class="node">{escape(node) if node else "—"}</td><td>{action}</td></tr>')
        state = "finished " + when(item["finished"]) if item["finished"] else "in progress"
        parts.append(f'<section data-round="{item["round"]}"><h2>Round {item["round"]} <span class="muted">started '
                     f'{when(item["started"])}, {state}</span></h2><div class="scroll-x"><table class="list">'
                     '<thead><tr><th>game</th><th>table</th><th>state</th><th>seats</th><th>node</th><th></th></tr>'
                     '</thead>'
                     f'<tbody>{"".join(rows)}</tbody></table></div></section>')
    if len(rounds) > shown_rounds:
        parts.append(f'<p class="muted">{len(rounds) - shown_rounds} earlier round(s): '
                     '<a href="/admin/games?rounds=all" id="all-rounds">show every round</a> (each game with its '
                     '<em>Play again</em>), or play one of their games again by its id:</p>')
    if judging:
        parts.append(_form("/admin/games/replay", csrf, "Play again", id_="replay-by-id",
                           fields='<label>Game <input name="game" inputmode="numeric" required size="6"></label> '))
    return _console("Rounds and games", "".join(parts), csrf)


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
            f'<td>{"stands out" if row["stands_out"] else ""}</td></tr>')
    return (f'<div class="scroll-x"><table class="list" id="{ident}"><thead><tr><th>pair</th><th>games</th>'
            '<th>discards</th><th>taken</th><th>PENG/GANG</th><th>HU</th><th>p</th><th>q</th><th></th></tr></thead>'
            f'<tbody>{"".join(lines)}</tbody></table></div>')


def pairs_page(report: Mapping[str, Any], csrf: str, *, shown: int = 40) -> str:
    """The report of pairs of teams (:mod:`mjarena.arena.collusion`): the pairs that stand out, then the
    ``shown`` pairs nearest to standing out; every pair is in ``/admin/pairs.csv``."""
    pairs, standing = report["pairs"], report["standing_out"]
    rate = f"{report['error_rate']:.0%}"
    summary = (f'<p id="pairs-summary">{report["games"]} finished games, {len(report["teams"])} teams: '
               + (f'<strong>{len(standing)} pair{"" if len(standing) == 1 else "s"} stand'
                  f'{"s" if len(standing) == 1 else ""} out</strong>' if standing else "no pair stands out")
               + f' (at {rate}: the chance that any pair which does not collude stands out).</p>')
    how = ('<p class="muted">A → B: of A\'s discards made while B was still playing (discards), those B took '
           '(taken: by PENG or GANG, or by HU: A dealt in to B), each beside what the field predicts for the pair '
           'and the ratio; A ↔ B: both ways together. The field\'s prediction rates each team as a discarder and '
           'as a taker from its games with the other teams. p: the chance of at least as many taken if the pair '
           f'behaved as the field predicts; q: p adjusted for the number of pairs (Holm). A pair stands out when q ≤ '
           f'{rate}: a reason to read its games, not a proof (two styles that suit each other show too).</p>')
    unreadable = report.get("unreadable") or []
    skipped = (f'<p class="error" id="pairs-unreadable">Left out, replay unreadable: games '
               f'{escape(", ".join(map(str, unreadable)))}.</p>' if unreadable else "")
    parts = [summary, how, skipped]
    if standing:
        parts.append(f'<section><h2>Standing out</h2>{_pairs_table(standing, "pairs-flagged")}</section>')
    if pairs:
        parts.append(f'<section><h2>Nearest to standing out</h2>{_pairs_table(pairs[:shown], "pairs-all")}'
                     f'<p class="muted">{min(shown, len(pairs))} of {len(pairs)} rows shown; every row: '
                     '<a href="/admin/pairs.csv">pairs.csv</a>.</p></section>')
    dispersion = report["dispersion"]["taken"]
    if dispersion is not None:
        parts.append(f'<p class="muted" id="pairs-dispersion">How well the field\'s model fits: dispersion '
                     f'{dispersion:.2f} (about 1 or less when it fits; well above 1, the p-values are too small).</p>')
    return _console("Pairs of teams", "".join(parts), csrf)


def _flag_form(name: str, csrf: str, flag: str, on: bool) -> str:
    """The button that sets or clears a team's flag (disabled: plays no more games; hidden: not on the public
    standings)."""
    buttons = {("disabled", True): ("Disable", f"Disable {name}? It plays no more games (its results stay)."),
               ("disabled", False): ("Enable", None),
               ("hidden", True): ("Hide", f"Hide {name} from the public standings?"),
               ("hidden", False): ("Show", None)}
    button, confirm = buttons[flag, on]
    return _form(f"/admin/teams/{quote(name, safe='')}/flags", csrf, button, id_=f"{button.lower()}-team",
                 confirm=confirm, fields=f'<input type="hidden" name="flag" value="{flag}">'
                                          f'<input type="hidden" name="on" value="{"1" if on else "0"}">')


def admin_team_page(name: str, *, flags: Collection[str], submissions: Sequence[Mapping[str, Any]],
                    figures: Mapping[int, Mapping[str, Any]], games: Sequence[Mapping[str, Any]],
                    replaying: Collection[int], csrf: str, judging: bool, kind: str | None = None,
                    version: int | None = None, notice: str | None = None) -> str:
    """One team for the organiser: disable or hide it, its versions with their games and errors by kind, and its
    games (those of one kind of error, of one version, when asked), each with its seat's error in full (standard
    error too), its replay as the organiser sees it, and *Play again*; *Play all its games again*."""
    states = []
    for flag, what in (("disabled", "disabled: it plays no more games, its results stay"),
                       ("hidden", "hidden from the public standings")):
        if flag in flags:
            states.append(f'<span class="badge err" data-flag="{flag}">{escape(what)}</span> '
                          + _flag_form(name, csrf, flag, False))
        else:
            states.append(_flag_form(name, csrf, flag, True))
    again = (_form(f"/admin/teams/{quote(name, safe='')}/replay", csrf, "Play all its games again", id_="replay-team",
                   confirm=f"Play every finished game of {name} again from its record and replace their results?")
             if judging else "")
    versions = "".join(
        f'<tr data-version="{s["version"]}"><td><a href="/admin/submissions/{s["id"]}">v{s["version"]}</a></td>'
        f'<td>{escape(s["language"])}</td><td class="status-{escape(s["status"])}">{escape(s["status"])}</td>'
        f'{error_cells(name, s["version"], figures)}</tr>' for s in reversed(submissions))
    versions_table = ('<div class="scroll-x"><table class="list" id="team-versions"><thead><tr><th>version</th>'
                      '<th>language</th><th>build</th><th>games</th><th>errors</th></tr></thead>'
                      f'<tbody>{versions}</tbody></table></div>' if versions
                      else '<p class="muted">No submission yet.</p>')
    rows = []
    for game in games:
        mine = [p for p in game["players"] if p["team"] == name]
        errors = "; ".join(f'{escape(p["reason"])}: {escape(p.get("detail") or "")}' for p in mine if p["reason"])
        action = _game_action(game, replaying, judging, csrf)
        at_error = "#error" if errors else ""  # the viewer opens at the error's move
        link = (f'<a href="/admin/replays/{game["id"]}{at_error}">{game["id"]}</a>' if game["state"] == "finished"
                else f'{game["id"]} <span class="badge">{escape(game["state"])}</span>')
        rows.append(f'<tr data-game="{game["id"]}"><td>{link}</td><td>{game["round"]}</td><td>{_seats(game)}</td>'
                    f'<td><pre class="message">{errors or "—"}</pre></td><td>{action}</td></tr>')
    chosen = []  # which of its games are shown
    if kind is not None:
        chosen.append(f"with a {KIND_LABELS.get(kind, kind)} error")
    if version is not None:
        chosen.append(f"of v{version}")
    heading = "Games" + (" " + " ".join(escape(part) for part in chosen) if chosen else "")
    every = (f' <a href="/admin/teams/{escape(quote(name, safe=""))}#games" class="muted">(every game)</a>'
             if chosen else "")
    games_table = ('<div class="scroll-x"><table class="list" id="team-games"><thead><tr><th>game</th><th>round</th>'
                   '<th>seats</th><th>its errors (in full)</th><th></th></tr></thead>'
                   f'<tbody>{"".join(rows)}</tbody></table></div>' if rows else '<p class="muted">No game.</p>')
    shown = f'<p class="notice" id="notice">{escape(notice)}</p>' if notice else ""
    body = (f'{shown}<p><a href="/teams/{escape(quote(name, safe=""))}">Its public page</a></p>'
            f'<section><h2>State</h2><p>{" ".join(states)}</p><p class="muted">Disabling takes effect from the next '
            'round (a round in progress is played to its end).</p></section>'
            f'<section><h2>Versions</h2>{versions_table}<p>'
            + _form(f"/admin/teams/{quote(name, safe='')}/rebuild", csrf, "Build its latest again", id_="rebuild-team")
            + '</p></section>'
            f'<section id="games"><h2>{heading}{every}</h2><p>{again}</p>{games_table}</section>')
    return _console(f"Team {name}", body, csrf)


def admin_replay_page(game_id: int, view: Mapping[str, Any] | None, problem: str | None = None) -> str:
    """The replay viewer on a game as the organiser sees it: every seat's requests, answers, ``debug`` output and
    standard error (``view``: the viewer's data, carried in the page, since the console's session cookie is sent
    to ``/admin`` alone)."""
    if view is None:
        body = f'<h1 class="title">Game {game_id}</h1><p class="error" id="status">{escape(problem or "")}</p>'
        return page(f"Game {game_id}", body, admin=True)
    body = (f'<h1 class="title">Game {game_id}</h1><p class="muted">As the organiser sees it: every seat\'s output '
            '(each team sees its own alone).</p><p class="muted" id="status">Loading the replay…</p>'
            f'<script type="application/json" id="mj-data">{script_json(view)}</script>')
    return page(f"Game {game_id}", body, scripts=["/static/mj.js", "/static/replay.js"], admin=True,
                replay=str(game_id))
