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

from mjarena.contest.admin_parts import console as _console
from mjarena.contest.admin_parts import form as _form
from mjarena.contest.admin_parts import game_action as _game_action
from mjarena.contest.admin_parts import seats as _seats
from mjarena.contest.admin_rounds import games_page, nodes_panel, pairs_page
from mjarena.contest.pages import page, script_json, state_text, when
from mjarena.i18n import N_, translated
from mjarena.i18n import gettext as _
from mjarena.verdicts import kind_label, render, render_build

__all__ = ["admin_login_page", "admin_replay_page", "admin_team_page", "console_page", "error_cells", "games_page",
           "nodes_panel", "pairs_page", "submission_page", "submissions_page", "token_page"]


def admin_login_page(csrf: str, error: str | None = None) -> str:
    """The organiser's token form, with the pre-session ``csrf`` token
    (:func:`mjarena.contest.forms.login_page_response`)."""
    problem = f'<p class="error" id="login-error">{escape(_(error))}</p>' if error else ""
    printed = _("The admin token was printed by %(command)s.") % {"command": "<code>mjarena contest create</code>"}
    body = f"""<h1 class="title">{_("Organiser's console")}</h1>{problem}
<form class="start" method="post" action="/admin/login" id="admin-login">
<input type="hidden" name="csrf" value="{escape(csrf)}">
<label>{_("Admin token")} <input type="password" name="token" id="token" autocomplete="off" required></label>
<button type="submit">{_("Log in")}</button></form>
<p class="muted">{printed}</p>"""
    return page(_("Console login"), body, admin=True)


def _ended_window(freeze: Mapping[str, Any], action: Any) -> tuple[str, str]:
    """The actions and note of a window that has ended: *Reveal the results* while the standings are frozen."""
    actions = ""
    note = _("the window has ended: a finished contest stays finished (no pause, resume or extension)")
    if freeze.get("minutes") and freeze.get("revealed") is None and freeze.get("waiting"):
        waits = (_("Reveal the results once every game of the window has finished: waiting for %(waiting)s.")
                 % {"waiting": escape(translated(freeze["waiting"]))})
        actions = f'<span id="reveal-waits">{waits}</span>'
        note += _("; the public standings are frozen until you reveal them")
    elif freeze.get("minutes") and freeze.get("revealed") is None:
        actions = action("reveal", _("Reveal the results"), confirm=_("Reveal the frozen results to everyone now?"))
        note += _("; the public standings are frozen until you reveal them")
    return actions, note


def _window(state: str, start: float | None, end: float | None, paused_since: float | None, csrf: str,
            ended: bool, freeze: Mapping[str, Any] | None = None) -> str:
    """The window's state and its actions: pause or resume, extend by some minutes, end now; none once it ended."""
    def action(name: str, button: str, *, fields: str = "", confirm: str | None = None) -> str:
        return _form("/admin/window", csrf, button, id_=name, confirm=confirm,
                     fields=f'<input type="hidden" name="action" value="{name}">{fields}')

    freeze = freeze or {}
    if ended:
        actions, note = _ended_window(freeze, action)
    else:
        if paused_since is not None:
            actions = action("resume", _("Resume"))
            note = (_("paused since %(when)s; no game starts until resumed (the end moves by the pause)")
                    % {"when": when(paused_since)})
        else:
            actions = action("pause", _("Pause"))
            note = _("games start as workers free up")
        by = (_("by %(minutes)s minutes") % {"minutes": '<input name="minutes" id="extend-minutes" '
                                                         'inputmode="decimal" required size="5">'})
        actions += " " + action("extend", _("Extend the window"), fields=f"<label>{by}</label> ")
        if start is not None:
            actions += " " + action("end", _("End now"), confirm=_(
                "End the window now? The round in progress is played to its end; no new round starts, and it "
                "cannot be reopened."))
    if freeze.get("minutes"):
        frozen = (_("revealed %(when)s") % {"when": when(freeze["revealed"])} if freeze.get("revealed") is not None
                  else _("from %(when)s") % {"when": when(freeze.get("from"))})
        note += (_("; public standings frozen for the last %(minutes)s minutes (%(frozen)s)")
                 % {"minutes": f'{freeze["minutes"]:g}', "frozen": frozen})
    return (f'<section><h2>{_("Window")}</h2><p><span id="contest-state">{escape(state_text(state))}</span> · '
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
        return _("seat %(seat)s (%(team)s)") % {"seat": seat, "team": escape(team) if team is not None
                                                  else _("house")}

    if error.get("seat") is None:
        return ""
    after = error.get("after_seat")
    return named(error["seat"], error.get("team")) + (
        _(", the first box of the game") if after is None
        else _(", after %(seat)s") % {"seat": named(after, error.get("after_team"))})


def _judge_errors(errors: Sequence[Mapping[str, Any]], csrf: str, judging: bool) -> str:
    """The games the judge failed (not a bot), newest first; a held game with a button that plays it now."""
    if not errors:
        return (f'<section><h2>{_("Judge errors")}</h2><p class="muted" id="judge-errors">'
                f'{_("None: every game so far was played to its end.")}</p></section>')
    rows = []
    offered = set()
    for error in errors:
        game = error["game"]
        if error["held"] and judging and game not in offered:
            offered.add(game)
            state = (_("held") + " " + _form(f"/admin/games/{game}/release", csrf, _("Play it now"), confirm=_(
                "Play game %(game)s again now, from its start?") % {"game": game}))
        else:
            state = _("held") if error["held"] else ""
        rows.append(f'<tr data-judge-error="{error["id"]}" data-game="{game}"><td>{game}</td>'
                    f'<td class="num">{when(error["at"])}</td><td>{escape(error["what"])}</td>'
                    f'<td>{_boxes(error)}</td><td>{state}</td></tr>')
    how = _("Games the judge failed, not a bot: nothing is recorded against a team, and the game is played again "
            "from its start with the same wall and versions; after repeated failures it is held here for you. "
            "<i>box</i>: the seat whose box failed, and the seat whose box ran before it.")
    heads = "".join(f"<th>{word}</th>" for word in (_("game"), _("when"), _("what"), _("box"), ""))
    return (f'<section><h2>{_("Judge errors")}</h2><p class="muted">{how}</p><div class="scroll-x"><table '
            f'class="list" id="judge-errors"><thead><tr>{heads}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div></section>')


def _only(team: str) -> str:
    """A ``<select>``'s option: ``team`` alone."""
    return f'<option value="{escape(team)}">{_("%(team)s only") % {"team": escape(team)}}</option>'


def _messages(messages: Mapping[str, Any], teams: Sequence[str], csrf: str) -> str:
    """Post an announcement (to every team or one), the teams' questions each with a form to answer it (to the
    team that asked, or to every team): one page of them (:func:`mjarena.contest.messages.questions_page`), those
    not answered first, with links to the other pages; and every announcement sent."""
    options = "".join(_only(name) for name in teams)
    every, to = f'<option value="">{_("every team")}</option>', _("to")
    post = _form("/admin/announcements", csrf, _("Announce"), id_="announce",
                 fields=f'<label>{_("Message")} <textarea name="text" id="announcement" rows="2" maxlength="2000" '
                        f'required></textarea></label> <label>{to} <select name="team" id="announce-to">'
                        f'{every}{options}</select></label> ')
    answered = {item["question"] for item in messages["announcements"] if item["question"] is not None}
    questions = []
    for item in messages["questions"]:
        answer = _form("/admin/announcements", csrf, _("Answer"), fields=(
            f'<input type="hidden" name="question" value="{item["id"]}"><textarea name="text" rows="1" '
            f'maxlength="2000" required aria-label="{_("answer")}"></textarea> <label>{to} <select name="team">'
            f'{_only(item["team"])}{every}</select></label> '))
        state = "answered" if item.get("answered", item["id"] in answered) else "open"
        asks = (_("%(team)s asks (answered)") if state == "answered" else _("%(team)s asks (open)")) % {
            "team": escape(item["team"])}
        questions.append(f'<li data-question="{item["id"]}" data-state="{state}"><span class="muted">'
                         f'{when(item["at"])} · {asks}</span>'
                         f'<blockquote class="question">{escape(item["text"])}</blockquote>{answer}</li>')
    asked = (f'<h3>{_("Questions")}</h3>{_question_pages(messages)}<ul class="messages" id="questions">'
             f'{"".join(questions)}</ul>' if questions
             else f'<p class="muted" id="questions">{_("No question yet.")}</p>')
    sent = "".join(f'<li data-announcement="{item["id"]}"><span class="muted">{when(item["at"])} · '
                   f'{_sent_to(item)}</span><p class="message-text">{escape(item["text"])}</p></li>'
                   for item in messages["announcements"])
    shown = f'<h3>{_("Sent")}</h3><ul class="messages" id="sent">{sent}</ul>' if sent else ""
    return f'<section><h2>{_("Announcements and questions")}</h2><p>{post}</p>{asked}{shown}</section>'


def _sent_to(item: Mapping[str, Any]) -> str:
    """Whom an announcement went to, and the question it answers."""
    to = (_("to every team") if item["team"] is None
          else _("to %(team)s only") % {"team": escape(item["team"])})
    if item["question"] is None:
        return to
    return to + _(", answering question %(question)s") % {"question": item["question"]}


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
                    for number, word in ((page - 1, _("previous")), (page + 1, _("next"))) if 1 <= number <= pages)
    waiting = _("%(open)s of %(total)s not answered") % {"open": messages["open"], "total": messages["total"]}
    where = " · " + _("page %(page)s of %(pages)s") % {"page": page, "pages": pages} + links if pages > 1 else ""
    return f'<p class="muted" id="question-pages">{waiting}{where}</p>'


def _team_row(team: Mapping[str, Any], csrf: str) -> str:
    """One team's row of the console: its flags, games, points, errors, the version playing, the last build."""
    last = team["last"]
    verdict = (f'v{last["version"]} <span class="status-{escape(last["status"])}">'
               f'{escape(state_text(last["status"]))}</span>' if last
               else f'<span class="muted">{_("none")}</span>')
    name = team["team"]
    rotate = _form(f"/admin/teams/{quote(name, safe='')}/token", csrf, _("New token"),
                   confirm=_("Give %(team)s a new token? The old one stops working.") % {"team": name})
    flags = "".join(f' <span class="badge err" data-flag="{escape(flag)}">{escape(_FLAGS.get(flag, flag))}</span>'
                    for flag in sorted(team.get("flags", ())))
    return (f'<tr data-team="{escape(name)}"><td class="team-name">'
            f'<a href="/admin/teams/{escape(quote(name, safe=""))}">{escape(name)}</a>{flags}</td>'
            f'<td class="num">{team["games"]}</td>'
            f'<td class="num">{team["points"]:g}</td><td>{error_links(name, team.get("errors", {}))}</td>'
            f'<td>{"—" if team["current"] is None else "v" + str(team["current"])}</td><td>{verdict}</td>'
            f'<td class="num">{team["versions"]}</td><td>{rotate}</td></tr>')


def console_page(*, state: str, start: float | None, end: float | None, paused_since: float | None,
                 teams: Sequence[Mapping[str, Any]], log: Sequence[tuple[float, str, str]], csrf: str,
                 notice: str | None = None, judge_errors: Sequence[Mapping[str, Any]] = (), ended: bool = False,
                 judging: bool = False, messages: Mapping[str, Any] | None = None,
                 freeze: Mapping[str, Any] | None = None, overloads: Mapping[int, Any] | None = None) -> str:
    """Teams (versions, last build verdict, games, points), adding a team, rotating tokens, the window, the
    judge errors, the rounds played under overload (``overloads``: round -> its
    :class:`~mjarena.arena.overload.Overload`), the log of the organiser's actions."""
    rows = [_team_row(team, csrf) for team in teams]
    heads = "".join(f"<th>{word}</th>" for word in (_("team"), _("games"), _("points"), _("errors"), _("playing"),
                                                      _("last build"), _("versions"), ""))
    table = (f'<div class="scroll-x"><table class="list" id="admin-teams"><thead><tr>{heads}</tr>'
             f'</thead><tbody>{"".join(rows)}</tbody></table></div>' if rows
             else f'<p class="muted">{_("No team yet.")}</p>')
    add = _form("/admin/teams", csrf, _("Add team"), id_="add-team",
                fields=f'<label>{_("New team")} <input name="name" id="team-name" required maxlength="64" '
                       'pattern="[A-Za-z0-9_.+\\-]{1,64}"></label> ')
    entries = "".join(f'<li>{when(at)} · {escape(_(action))} · {escape(detail)}</li>' for at, action, detail in log)
    history = f'<ul class="admin-log">{entries}</ul>' if entries else f'<p class="muted">{_("Nothing yet.")}</p>'
    shown = f'<p class="notice" id="notice">{escape(_(notice))}</p>' if notice else ""
    admin_token = _form("/admin/token", csrf, _("New admin token"), id_="rotate-admin",
                        confirm=_("Give the organiser a new token? Every console session, this one too, ends."))
    actions_title = _("The organiser's actions")
    body = (f'{shown}{_window(state, start, end, paused_since, csrf, ended, freeze)}'
            f'<section><h2>{_("Teams")}</h2>{table}<p>{add}</p></section>'
            f'{_judge_errors(judge_errors, csrf, judging)}{_overloads(overloads or {})}'
            f'{_messages(messages, [team["team"] for team in teams], csrf) if messages is not None else ""}'
            f'<section><h2>{actions_title}</h2>{history}<p>{admin_token}</p></section>')
    return _console(_("Console"), body, csrf)


def _overloads(overloads: Mapping[int, Any]) -> str:
    """The rounds whose bots waited for a CPU more than a tenth of their limit (the judge's machine was busy: the
    bots' deadlines moved by it, so no verdict is charged to them, but their figures are slower), newest first.

    >>> from mjarena.arena.overload import Overload
    >>> "Round 3:" in _overloads({3: Overload(40, 1.25, 0.5, 2, 1.0)}), _overloads({})
    (True, '')
    """
    if not overloads:
        return ""
    items = "".join(
        "<li>" + escape(_("Round %(round)s: the bots waited %(waited)s s for a CPU over %(answers)s answers "
                          "(%(most)s s at most on one); %(slowed)s answers waited more than a tenth of their "
                          "limit.") % {"round": number, "waited": f"{load.waited:.3f}", "answers": load.answers,
                                       "most": f"{load.most:.3f}", "slowed": load.slowed}) + "</li>"
        for number, load in sorted(overloads.items(), reverse=True))
    note = _("The judge's machine was busy: the bots' deadlines moved by their wait for a CPU, so no verdict is "
             "charged to them, but their times are slower than the bots are.")
    return (f'<section id="overloads"><h2>{escape(_("Rounds played under load"))}</h2><ul>{items}</ul>'
            f'<p class="muted">{escape(note)}</p></section>')


_FLAGS = {"disabled": N_("disabled"), "hidden": N_("hidden")}
"""A team's flags, as the console's badges name them."""

ADMIN_ACTIONS = (N_("pause"), N_("resume"), N_("extend"), N_("end now"), N_("reveal"), N_("announce"), N_("answer"),
                 N_("add team"), N_("new token"), N_("disable"), N_("enable"), N_("hide"), N_("show"),
                 N_("play again"), N_("play held game"), N_("replayed"), N_("played without"), N_("rebuild"),
                 N_("build busy"))
"""The actions the organiser's log records (their details stay as recorded, in English)."""


def error_links(team: str, errors: Mapping[str, Any], version: int | None = None) -> str:
    """A team's (or one version's) errors by kind, each a link to the games it happened in (``errors``: kind ->
    a count or the games' ids)."""
    if not errors:
        return f'<span class="muted">{_("none")}</span>'
    only = "" if version is None else f"&amp;version={version}"
    links = []
    for kind, found in errors.items():
        count = found if isinstance(found, int) else len(found)
        links.append(f'<a href="/admin/teams/{escape(quote(team, safe=""))}?kind={escape(quote(kind))}{only}#games" '
                     f'data-kind="{escape(kind)}" class="error-kind">{escape(kind_label(kind))} {count}</a>')
    return " · ".join(links)


def error_cells(team: str, version: int, figures: Mapping[int, Mapping[str, Any]]) -> str:
    """One version's games and its errors by kind (``figures``: :func:`mjarena.contest.failures.version_errors`
    of its team), as two table cells."""
    item = figures.get(version)
    if item is None:
        return f'<td class="num">0</td><td><span class="muted">{_("none")}</span></td>'
    return f'<td class="num">{len(item["games"])}</td><td>{error_links(team, item["errors"], version)}</td>'


def token_page(name: str, token: str, csrf: str, what: str = N_("The new token")) -> str:
    """A token, shown this once (the page is not cached; only its hash is kept); ``what``: a message of the
    catalog (``N_``), ``name`` a team's or ``the organiser``."""
    shown = _("the organiser") if name == "the organiser" else name
    body = (f'<section><h2>{_("%(what)s of %(name)s") % {"what": _(what), "name": escape(shown)}}</h2>'
            f'<p>{_("Copy it now: it is shown only once, and only its hash is kept.")}</p>'
            f'<p><code id="new-token" class="token">{escape(token)}</code></p>'
            f'<p><a href="/admin">{_("Back to the console")}</a></p></section>')
    return _console(_("Token of %(name)s") % {"name": shown}, body, csrf)


def submissions_page(submissions: Sequence[Mapping[str, Any]], csrf: str,
                     figures: Mapping[str, Mapping[int, Mapping[str, Any]]] | None = None) -> str:
    """Every submission, newest first, linked to its source and build log, with the games its version played and
    its errors by kind (``figures``: :func:`mjarena.contest.failures.version_errors`), linked to those games."""
    figures = figures or {}
    rows = "".join(
        f'<tr data-submission="{s["id"]}"><td><a href="/admin/submissions/{s["id"]}">#{s["id"]}</a></td>'
        f'<td><a href="/admin/teams/{escape(quote(s["team"], safe=""))}">{escape(s["team"])}</a></td>'
        f'<td>v{s["version"]}</td><td>{escape(s["language"])}</td>'
        f'<td class="status-{escape(s["status"])}">{escape(state_text(s["status"]))}</td>'
        f'{error_cells(s["team"], s["version"], figures.get(s["team"], {}))}'
        f'<td class="num">{when(s["submitted"])}</td></tr>'
        for s in reversed(submissions))
    heads = "".join(f"<th>{word}</th>" for word in (_("id"), _("team"), _("version"), _("language"), _("build"),
                                                      _("games"), _("errors"), _("submitted")))
    body = (f'<div class="scroll-x"><table class="list" id="admin-submissions"><thead><tr>{heads}</tr>'
            f'</thead><tbody>{rows}</tbody></table></div>' if rows
            else f'<p class="muted">{_("No submission yet.")}</p>')
    return _console(_("Submissions"), body, csrf)


def _numbered(source: str) -> str:
    r"""A source's lines, each in a ``<span class="line">`` that the style sheet numbers (build logs cite lines).

    >>> _numbered("a<\nb\n")
    '<span class="line">a&lt;</span>\n<span class="line">b</span>\n'
    """
    return "".join(f'<span class="line">{escape(line)}</span>\n' for line in source.splitlines())


def submission_page(submission: Mapping[str, Any], source: str, csrf: str) -> str:
    """One submission: its build verdict and log, and its source as text."""
    s = submission
    status = f'<span class="status-{escape(s["status"])}" id="build-status">{escape(state_text(s["status"]))}</span>'
    line = _("Submitted %(when)s · build %(status)s") % {"when": when(s["submitted"]), "status": status}
    body = (f'<section><h2>#{s["id"]}: {escape(s["team"])} v{s["version"]} ({escape(s["language"])})</h2>'
            f'<p>{line} · <a href="/admin/submissions/{s["id"]}/source">{_("download the source")}</a> · '
            + _form(f"/admin/submissions/{s['id']}/rebuild", csrf, _("Build again"), id_="rebuild")
            + f'</p><h3>{_("Build log")}</h3><pre class="message" id="build-log">'
            f'{escape(render_build(s["message"])) or "—"}</pre>'
            f'<h3>{_("Source")}</h3><pre class="source numbered" id="source-text">{_numbered(source)}</pre></section>')
    return _console(_("Submission %(id)s") % {"id": s["id"]}, body, csrf)


def _flag_form(name: str, csrf: str, flag: str, on: bool) -> str:
    """The button that sets or clears a team's flag (disabled: plays no more games; hidden: not on the public
    standings)."""
    buttons = {("disabled", True): ("disable", _("Disable"),
                                    _("Disable %(team)s? It plays no more games (its results stay).")),
               ("disabled", False): ("enable", _("Enable"), None),
               ("hidden", True): ("hide", _("Hide"), _("Hide %(team)s from the public standings?")),
               ("hidden", False): ("show", _("Show"), None)}
    ident, button, confirm = buttons[flag, on]
    return _form(f"/admin/teams/{quote(name, safe='')}/flags", csrf, button, id_=f"{ident}-team",
                 confirm=confirm % {"team": name} if confirm else None,
                 fields=f'<input type="hidden" name="flag" value="{flag}">'
                        f'<input type="hidden" name="on" value="{"1" if on else "0"}">')


def _team_games(name: str, games: Sequence[Mapping[str, Any]], replaying: Collection[int], judging: bool,
                csrf: str) -> str:
    """A team's games for the organiser, each with its seat's errors in full."""
    rows = []
    for game in games:
        mine = [p for p in game["players"] if p["team"] == name]
        errors = "; ".join(f'{escape(p["reason"])}: {escape(render(p.get("detail") or ""))}' for p in mine
                           if p["reason"])
        action = _game_action(game, replaying, judging, csrf)
        at_error = "#error" if errors else ""  # the viewer opens at the error's move
        badge = f'<span class="badge">{escape(state_text(game["state"]))}</span>'
        link = (f'<a href="/admin/replays/{game["id"]}{at_error}">{game["id"]}</a>' if game["state"] == "finished"
                else f'<a href="/admin/live/{game["id"]}" class="live">{game["id"]}</a> {badge}'
                if game["state"] == "running" else f'{game["id"]} {badge}')
        rows.append(f'<tr data-game="{game["id"]}"><td>{link}</td><td>{game["round"]}</td><td>{_seats(game)}</td>'
                    f'<td><pre class="message">{errors or "—"}</pre></td><td>{action}</td></tr>')
    heads = "".join(f"<th>{word}</th>" for word in (_("game"), _("round"), _("seats"), _("its errors (in full)"), ""))
    return (f'<div class="scroll-x"><table class="list" id="team-games"><thead><tr>{heads}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>' if rows else f'<p class="muted">{_("No game.")}</p>')


def _games_heading(name: str, kind: str | None, version: int | None) -> str:
    """The heading of a team's games: those of one kind of error, of one version, when asked."""
    if kind is None and version is None:
        return _("Games")
    if version is None:
        heading = _("Games with a %(kind)s error") % {"kind": escape(kind_label(kind))}
    elif kind is None:
        heading = _("Games of v%(version)s") % {"version": version}
    else:
        heading = (_("Games with a %(kind)s error of v%(version)s")
                   % {"kind": escape(kind_label(kind)), "version": version})
    return (f'{heading} <a href="/admin/teams/{escape(quote(name, safe=""))}#games" class="muted">'
            f'{_("(every game)")}</a>')


def admin_team_page(name: str, *, flags: Collection[str], submissions: Sequence[Mapping[str, Any]],
                    figures: Mapping[int, Mapping[str, Any]], games: Sequence[Mapping[str, Any]],
                    replaying: Collection[int], csrf: str, judging: bool, kind: str | None = None,
                    version: int | None = None, notice: str | None = None) -> str:
    """One team for the organiser: disable or hide it, its versions with their games and errors by kind, and its
    games (those of one kind of error, of one version, when asked), each with its seat's error in full (standard
    error too), its replay as the organiser sees it, and *Play again*; *Play all its games again*."""
    states = []
    for flag, what in (("disabled", _("disabled: it plays no more games, its results stay")),
                       ("hidden", _("hidden from the public standings"))):
        if flag in flags:
            states.append(f'<span class="badge err" data-flag="{flag}">{escape(what)}</span> '
                          + _flag_form(name, csrf, flag, False))
        else:
            states.append(_flag_form(name, csrf, flag, True))
    again = (_form(f"/admin/teams/{quote(name, safe='')}/replay", csrf, _("Play all its games again"),
                   id_="replay-team", confirm=_("Play every finished game of %(team)s again from its record and "
                                                "replace their results?") % {"team": name})
             if judging else "")
    versions = "".join(
        f'<tr data-version="{s["version"]}"><td><a href="/admin/submissions/{s["id"]}">v{s["version"]}</a></td>'
        f'<td>{escape(s["language"])}</td><td class="status-{escape(s["status"])}">{escape(state_text(s["status"]))}'
        f'</td>{error_cells(name, s["version"], figures)}</tr>' for s in reversed(submissions))
    heads = "".join(f"<th>{word}</th>" for word in (_("version"), _("language"), _("build"), _("games"), _("errors")))
    versions_table = (f'<div class="scroll-x"><table class="list" id="team-versions"><thead><tr>{heads}</tr></thead>'
                      f'<tbody>{versions}</tbody></table></div>' if versions
                      else f'<p class="muted">{_("No submission yet.")}</p>')
    shown = f'<p class="notice" id="notice">{escape(notice)}</p>' if notice else ""
    takes = _("Disabling takes effect from the next round (a round in progress is played to its end).")
    body = (f'{shown}<p><a href="/teams/{escape(quote(name, safe=""))}">{_("Its public page")}</a></p>'
            f'<section><h2>{_("State")}</h2><p>{" ".join(states)}</p><p class="muted">{takes}</p></section>'
            f'<section><h2>{_("Versions")}</h2>{versions_table}<p>'
            + _form(f"/admin/teams/{quote(name, safe='')}/rebuild", csrf, _("Build its latest again"),
                    id_="rebuild-team")
            + '</p></section>'
            f'<section id="games"><h2>{_games_heading(name, kind, version)}</h2><p>{again}</p>'
            f'{_team_games(name, games, replaying, judging, csrf)}</section>')
    return _console(_("Team %(team)s") % {"team": name}, body, csrf)


def admin_replay_page(game_id: int, view: Mapping[str, Any] | None, problem: str | None = None) -> str:
    """The replay viewer on a game as the organiser sees it: every seat's requests, answers, ``debug`` output and
    standard error (``view``: the viewer's data, carried in the page, since the console's session cookie is sent
    to ``/admin`` alone)."""
    title = _("Game %(game)s") % {"game": game_id}
    if view is None:
        body = f'<h1 class="title">{title}</h1><p class="error" id="status">{escape(problem or "")}</p>'
        return page(title, body, admin=True)
    seen = _("As the organiser sees it: every seat's output (each team sees its own alone).")
    body = (f'<h1 class="title">{title}</h1><p class="muted">{seen}</p>'
            f'<p class="muted" id="status">{_("Loading the replay…")}</p>'
            f'<script type="application/json" id="mj-data">{script_json(view)}</script>')
    return page(title, body, scripts=["/static/mj.js", "/static/replay.js"], admin=True, replay=str(game_id))
