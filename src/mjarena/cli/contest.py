"""The ``contest`` and ``submit`` subcommands of ``mjarena`` (argparse only at import: start-up stays fast).

Every failure is one line on stderr: exit status 2 for bad arguments or a folder that is not a contest
(``contest verify`` exits 1 when it finds a problem: one line each, naming its game);
``submit`` exits 1 on a compile error and 3 when the server refuses the upload or cannot be reached.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

__all__ = ["add_parsers"]

EXIT_USAGE = 2
EXIT_COMPILE_ERROR = 1
EXIT_SERVER = 3


def _fail(command: str, message: str, status: int = EXIT_USAGE) -> int:
    print(f"mjarena {command}: {message}", file=sys.stderr)
    return status


def _start(text: str | None) -> float | None:
    """``--start``: an ISO date and time (local time unless it names a zone) or epoch seconds."""
    if text is None:
        return None
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise ValueError(f"--start {text!r}: expected a date and time such as 2026-05-01T14:00") from None


def _open_with(text: str) -> int:
    """``--open-with``: a number of teams, or ``all`` (0)."""
    if text.strip().lower() == "all":
        return 0
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of teams, or all") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give at least 1 team, or all")
    return count


def _log_cli(contest: Any, action: str, detail: str) -> None:
    """Note an action done from a terminal in the organiser's log (the console lists it)."""
    import time

    with contest.db.transaction() as tx:
        tx.log_admin(time.time(), action, f"{detail} (from the command line)")


def _deadline(args: argparse.Namespace) -> float:
    """``--opening-deadline``, or its default: a sixth of the window, at most 10 minutes."""
    if args.opening_deadline is not None:
        return float(args.opening_deadline)
    return min(10.0, args.duration / 6) if args.duration > 0 else 0.0


def _create(args: argparse.Namespace) -> int:
    from mjarena.arena.draws import parse_secret
    from mjarena.contest.model import Contest, ContestError, Settings
    from mjarena.contest.opening import few_teams_note
    from mjarena.i18n import locale_of

    try:
        secret = None if args.secret is None else parse_secret(args.secret)
    except ValueError as error:
        return _fail("contest create", f"--secret: {error}")
    try:
        settings = Settings(rules=args.rules, duration=args.duration, games_per_table=args.games_per_table,
                            time_limit=args.time_limit, memory_limit=args.memory_limit,
                            start=_start(args.start), max_upload=args.max_upload * 1024,
                            uploads_per_minute=args.uploads_per_minute, sandbox=args.sandbox,
                            build_workers=args.build_workers, compile_wall=args.compile_wall,
                            build_output_mib=args.build_output_mib, team_quota_mib=args.team_quota_mib,
                            per_language_limits=args.per_language_limits, game_budget=args.game_budget,
                            open_with=args.open_with, freeze=args.freeze, rank_by=args.rank_by,
                            opening=args.opening, opening_deadline=_deadline(args), name=args.name or "",
                            language=locale_of(args.language) or args.language)
        _, tokens = Contest.create(args.dir, args.team or [], settings, secret)
    except (ContestError, ValueError) as error:
        return _fail("contest create", str(error))
    note = few_teams_note(settings, len(args.team or []))
    if note is not None:
        print(f"mjarena contest create: note: {note}", file=sys.stderr)
    if args.json:
        print(json.dumps(tokens))
    else:
        print(f"contest created in {args.dir}; keep these tokens, they are shown only now:")
        print(f"  admin: {tokens['admin']}")
        for name, token in tokens["teams"].items():
            print(f"  {name}: {token}")
        print(f"commitment to the contest's secret (SHA-256; the secret is published when the window closes): "
              f"{tokens['commitment']}")
    return 0


def _open(args: argparse.Namespace) -> Any:
    from mjarena.contest.model import Contest

    return Contest.open(args.dir)


def _add_team(args: argparse.Namespace) -> int:
    from mjarena.contest.model import ContestError

    try:
        contest = _open(args)
        token = contest.add_team(args.name)
    except ContestError as error:
        return _fail("contest add-team", str(error))
    _log_cli(contest, "add team", args.name)
    print(json.dumps({"team": args.name, "token": token}) if args.json else f"{args.name}: {token}")
    return 0


def _rebuild(args: argparse.Namespace) -> int:
    """``contest rebuild DIR (--submission ID | --team NAME)``: build a submission (a team's latest) again here and
    now (a compile that failed on a busy machine, say); logged in the organiser's log."""
    from mjarena.contest.building import Builder, rebuild
    from mjarena.contest.model import ContestError

    if (args.submission is None) == (args.team is None):
        return _fail("contest rebuild", "give one of --submission ID or --team NAME")
    try:
        contest = _open(args)
        found = rebuild(contest, submission_id=args.submission, team=args.team)
    except ContestError as error:
        return _fail("contest rebuild", str(error))
    Builder(contest, workers=1).build(found.id)
    after = contest.db.submission(found.id)
    status = after.status if after is not None else "gone"
    what = f"submission {found.id} ({found.team} v{found.version})"
    if status == "pending":  # its compile ran out of time on a busy machine again: nothing kept
        print(f"{what}: the machine was too busy to compile it; try again later", file=sys.stderr)
        return EXIT_COMPILE_ERROR
    message = after.message if after is not None else ""
    print(f"{what}: {status}" + (f"\n{message}" if message and status != "ok" else ""))
    return 0 if status == "ok" else EXIT_COMPILE_ERROR


def _rotate(args: argparse.Namespace) -> int:
    from mjarena.contest.model import ContestError

    try:
        contest = _open(args)
        token = contest.rotate_token(args.name)
    except ContestError as error:
        return _fail("contest rotate-token", str(error))
    _log_cli(contest, "new token", args.name)
    print(json.dumps({"team": args.name, "token": token}) if args.json else f"{args.name}: {token}")
    return 0


def _window(args: argparse.Namespace) -> int:
    """``contest extend DIR MINUTES`` and ``contest end DIR``: the console's window actions (a running server
    reads the window from the database, so they take effect there at once), logged with the organiser's actions."""
    import time

    from mjarena.contest.model import ContestError

    command = f"contest {args.action}"
    try:
        contest, now = _open(args), time.time()
        end = contest.extend(args.minutes, now) if args.action == "extend" else contest.end_now(now)
    except ContestError as error:
        return _fail(command, str(error))
    if args.json:
        print(json.dumps({"end": end}))
    elif end is None:
        print(f"the window is {args.minutes:g} minutes longer (it has not started)")
    else:
        print(f"the window ends at {datetime.fromtimestamp(end).isoformat(sep=' ', timespec='seconds')}")
    return 0


def _reveal(args: argparse.Namespace) -> int:
    """``contest reveal DIR``: reveal the frozen results once the contest is finished (the console's button)."""
    import time

    from mjarena.contest.model import ContestError
    from mjarena.contest.public import reveal

    try:
        contest = _open(args)
        reveal(contest, time.time())
    except ContestError as error:
        return _fail("contest reveal", str(error))
    print("the results are revealed")
    return 0


def _serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401

        from mjarena.contest.service import serve
    except ImportError as error:
        return _fail("contest serve", f"the contest server needs its extra: pip install 'mjarena[web]' ({error})")
    from mjarena.arena.executors import ExecutorUnavailable
    from mjarena.contest.model import ContestError

    if not 0 <= args.port <= 65535:
        return _fail("contest serve", f"--port {args.port}: not a port number")
    if args.workers is not None and args.workers < 1:
        return _fail("contest serve", f"--workers {args.workers}: must be at least 1")
    if args.min_free_mib < 0:
        return _fail("contest serve", f"--min-free-mib {args.min_free_mib}: must be 0 or more")
    try:
        serve(args.dir, host=args.host, port=args.port, workers=args.workers, executor=args.executor,
              public_urls=args.public_url, min_free_mib=args.min_free_mib)
    except (ContestError, ExecutorUnavailable, OSError) as error:
        return _fail("contest serve", str(error))
    return 0


def _export(args: argparse.Namespace) -> int:
    from mjarena.contest.model import ContestError

    try:
        contest = _open(args)
    except ContestError as error:
        return _fail("contest export", str(error))
    from mjarena.contest.export import pairs_report_csv, results_json, standings_csv

    if args.format == "archive":
        return _archive(contest, args.out)
    if args.format == "json":
        text = results_json(contest)
    elif args.format == "pairs":
        text = pairs_report_csv(contest)
    else:
        text = standings_csv(contest.standings()["rows"])
    if args.out:
        from mjarena.files import write_atomically

        try:
            write_atomically(args.out, text)
        except OSError as error:
            return _fail("contest export", f"{args.out}: cannot write: {error.strerror or error}")
    else:
        sys.stdout.write(text)
    return 0


def _archive(contest: Any, out: str | None) -> int:
    """``contest export --format archive --out FILE``: every source and replay as one zip."""
    from mjarena.contest.archive import write_archive

    if not out:
        return _fail("contest export", "--format archive writes a zip file: give it with --out FILE")
    partial = Path(out).with_name(Path(out).name + ".partial")
    try:
        with partial.open("wb") as handle:
            counts = write_archive(contest, handle)
        partial.replace(out)
    except OSError as error:
        partial.unlink(missing_ok=True)
        return _fail("contest export", f"{out}: cannot write: {error.strerror or error}")
    print(f"{out}: {counts['sources']} sources and {counts['replays']} replays", file=sys.stderr)
    return 0


def _verify(args: argparse.Namespace) -> int:
    from mjarena.contest.verify import ExportError, read_export, verify

    try:
        data = read_export(args.export)
    except ExportError as error:
        return _fail("contest verify", str(error))
    problems = verify(data)
    for problem in problems:
        print(f"mjarena contest verify: {problem}", file=sys.stderr)
    if problems:
        return 1
    games = sum(game["state"] == "finished" for game in data["games"])
    held = sum(game["state"] == "held" for game in data["games"])
    print(f"verified: the secret matches its commitment; {len(data.get('rounds') or ())} round(s): their tables "
          f"as drawn; {games} game(s): walls, seats and results" + (f"; {held} held after judge errors" if held else "")
          + f"; the standings of {len(data['rows'])} team(s)")
    return 0


def _submit(args: argparse.Namespace) -> int:
    from mjarena.contest.client import SubmitError, submit

    token = args.token or os.environ.get("MJARENA_TOKEN")
    if not token:
        return _fail("submit", "give the team's token: --token TOKEN (or MJARENA_TOKEN in the environment)")
    path = Path(args.file)
    try:
        content = path.read_bytes()
    except OSError as error:
        return _fail("submit", f"{path}: cannot read: {error.strerror or error}")
    try:
        submission = submit(args.url, path.name, content, token, wait=args.wait)
    except SubmitError as error:
        return _fail("submit", str(error), EXIT_SERVER)
    if args.json:
        print(json.dumps(submission))
    else:
        print(f"{submission['team']} v{submission['version']} ({submission['language']}): {submission['status']}")
        if submission.get("message"):
            print(submission["message"])
    return 0 if submission.get("status") == "ok" else EXIT_COMPILE_ERROR


def add_parsers(sub: Any) -> None:
    """Add ``contest`` and ``submit`` to the ``mjarena`` subparsers ``sub``."""
    contest = sub.add_parser("contest", help="run a contest: teams submit bots, Swiss rounds, live standings",
                             description="A contest as a live service (docs/contest.md).")
    actions = contest.add_subparsers(dest="action", required=True, metavar="ACTION")
    _add_create(actions)
    _add_serve(actions)
    _add_teams_and_window(actions)
    _add_export_and_verify(actions)
    _add_submit(sub)


def _add_create(actions: Any) -> None:
    """``mjarena contest create``: the contest's settings, each with its default."""
    create = actions.add_parser("create", help="make a contest in a new folder and print the tokens")
    create.add_argument("dir", metavar="DIR")
    create.add_argument("--team", action="append", metavar="NAME", help="a team (repeatable)")
    create.add_argument("--rules", default="noi2014", help="rule set (noi2014)")
    create.add_argument("--duration", type=float, default=60.0, metavar="MINUTES", help="the window (60)")
    create.add_argument("--start", metavar="WHEN", help="when the window opens (default: at the first serve)")
    create.add_argument("--games-per-table", type=int, default=1, metavar="K", help="walls per table and round (1)")
    create.add_argument("--time-limit", type=float, default=1.0, metavar="SECONDS", help="per answer (1.0)")
    create.add_argument("--memory-limit", type=int, default=256, metavar="MIB", help="per bot (256)")
    create.add_argument("--game-budget", type=float, metavar="SECONDS",
                        help="a seat's thinking time for a whole game; past it the seat is out with a timeout "
                        "(default: 30 times --time-limit, 30 s)")
    create.add_argument("--per-language-limits", action="store_true",
                        help="Botzone's way: each language's time factor (on the time limit and the game budget) "
                        "and memory from the toolchain table (Java 3x, JavaScript 2x, Python 6x); default: the "
                        "statement's, the same limits for every language")
    create.add_argument("--rank-by", choices=("points", "points_per_game"), default="points",
                        help="the ranking: total points, as the statement says (default), or points per game, "
                        "for a contest whose teams join late")
    create.add_argument("--freeze", type=float, default=0.0, metavar="MINUTES",
                        help="freeze the public standings and race for the last MINUTES of the window, until "
                        "revealed after the end (console, or mjarena contest reveal) (0: never)")
    create.add_argument("--open-with", type=_open_with, default=1, metavar="N|all",
                        help="with --opening first-build: the first round waits until N teams (or all) have a "
                        "bot that builds (1)")
    create.add_argument("--opening", choices=("together", "first-build"), default="together",
                        help="together (default): the first round waits for every team's bot, up to "
                        "--opening-deadline, and games with a house bot count for no team; first-build: the "
                        "rounds open with --open-with teams, every game counts")
    create.add_argument("--opening-deadline", type=float, metavar="MINUTES",
                        help="with --opening together: minutes after the window opens when the first round opens "
                        "with the teams that have a bot (default: a sixth of --duration, at most 10)")
    create.add_argument("--name", metavar="TEXT", help="the contest's name on its results (default: the folder's)")
    create.add_argument("--secret", "--seed", metavar="HEX", dest="secret",
                        help="the secret that deals the walls, seats and Swiss draws: 32 or more hex digits "
                        "(default: 256 random bits); kept from the teams until the window closes")
    create.add_argument("--max-upload", type=int, default=1024, metavar="KIB", help="largest source file (1024)")
    create.add_argument("--uploads-per-minute", type=int, default=6, metavar="N", help="per team (6)")
    create.add_argument("--sandbox", choices=("bwrap", "none"), default="bwrap",
                        help="where bots and compilers run: bubblewrap (default) or a plain process")
    create.add_argument("--build-workers", type=int, default=2, metavar="N",
                        help="builds at once (at most half the cores); teams are served in turn, one build each "
                        "at a time (2)")
    create.add_argument("--compile-wall", type=float, default=10.0, metavar="SECONDS",
                        help="a compile's own time (wall-clock time less its wait for a CPU, at most 5x in all), "
                        "besides the toolchain's CPU limit (10)")
    create.add_argument("--build-output-mib", type=int, default=16, metavar="MIB",
                        help="the most a build may write (16)")
    create.add_argument("--team-quota-mib", type=int, default=64, metavar="MIB",
                        help="a team's sources and builds; an upload past it is refused (64)")
    create.add_argument("--language", default="en", metavar="TAG",
                        help="the pages' language for visitors who chose none: en or zh-CN (en)")
    create.add_argument("--json", action="store_true",
                        help='print {"admin": TOKEN, "teams": {NAME: TOKEN}, "commitment": SHA256}')
    create.set_defaults(handler=_create)


def _add_serve(actions: Any) -> None:
    """``mjarena contest serve``."""
    serve = actions.add_parser("serve", help="serve the contest and play its rounds")
    serve.add_argument("dir", metavar="DIR")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1: this machine)")
    serve.add_argument("--port", type=int, default=8000, help="(8000)")
    serve.add_argument("--workers", type=int, metavar="N",
                       help="games at once (default: the usable cores less those kept for compiles; more than the "
                       "cores is said in the log: bots would wait for a CPU)")
    serve.add_argument("--executor", choices=("local", "ray"), default="local",
                       help="local process pool (default) or Ray (pip install 'mjarena[ray]')")
    serve.add_argument("--public-url", action="append", metavar="URL",
                       help="the URL the browsers use, e.g. https://contest.example.org behind a reverse proxy "
                            "(repeatable): forms are accepted from it alone (default: from the Host they name)")
    serve.add_argument("--min-free-mib", type=int, default=1024, metavar="MIB",
                       help="pause the contest when its disk has less free (1024); resume it in the console")
    serve.set_defaults(handler=_serve)


def _add_teams_and_window(actions: Any) -> None:
    """``add-team``, ``rotate-token``, ``extend``, ``end`` and ``reveal``: what the console does, from the shell."""
    add = actions.add_parser("add-team", help="add a team and print its token")
    add.add_argument("dir", metavar="DIR")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--json", action="store_true")
    add.set_defaults(handler=_add_team)

    rotate = actions.add_parser("rotate-token", help="give a team (or admin) a new token; the old one stops working")
    rotate.add_argument("dir", metavar="DIR")
    rotate.add_argument("name", metavar="NAME")
    rotate.add_argument("--json", action="store_true")
    rotate.set_defaults(handler=_rotate)

    again = actions.add_parser("rebuild", help="build a submission, or a team's latest, again (logged)")
    again.add_argument("dir", metavar="DIR")
    which = again.add_mutually_exclusive_group(required=True)
    which.add_argument("--submission", type=int, metavar="ID", help="the submission's number (the console shows it)")
    which.add_argument("--team", metavar="NAME", help="the team whose latest submission to build again")
    again.set_defaults(handler=_rebuild)

    extend = actions.add_parser("extend", help="move the window's end MINUTES later (refused once it has ended)")
    extend.add_argument("dir", metavar="DIR")
    extend.add_argument("minutes", type=float, metavar="MINUTES")
    extend.add_argument("--json", action="store_true", help='print {"end": EPOCH SECONDS}')
    extend.set_defaults(handler=_window)

    end = actions.add_parser("end", help="end the window now: the round in progress is played to its end, no new "
                             "one starts (refused once it has ended)")
    end.add_argument("dir", metavar="DIR")
    end.add_argument("--json", action="store_true", help='print {"end": EPOCH SECONDS}')
    end.set_defaults(handler=_window)

    reveal = actions.add_parser("reveal", help="reveal the frozen results once the contest is finished")
    reveal.add_argument("dir", metavar="DIR")
    reveal.set_defaults(handler=_reveal)


def _add_export_and_verify(actions: Any) -> None:
    """``mjarena contest export`` and ``verify``."""
    export = actions.add_parser("export", help="the standings and games, as CSV or JSON; the report of pairs of "
                                               "teams (collusion), as CSV")
    export.add_argument("dir", metavar="DIR")
    export.add_argument("--format", choices=("csv", "json", "pairs", "archive"), default="json",
                        help="csv: the standings; json: the standings, every game and the report of pairs of "
                             "teams; pairs: that report as CSV, one ordered pair a line; archive: every source and "
                             "replay with the JSON and CSV, as a zip (needs --out) (default: json)")
    export.add_argument("--out", metavar="FILE", help="write FILE instead of stdout")
    export.set_defaults(handler=_export)

    verify = actions.add_parser("verify", help="check a finished contest's export: walls, seats, results")
    verify.add_argument("export", metavar="EXPORT", help="the JSON of mjarena contest export, once it is finished")
    verify.set_defaults(handler=_verify)


def _add_submit(sub: Any) -> None:
    """``mjarena submit``: a team's upload from the shell."""
    submit = sub.add_parser("submit", help="upload a bot to a contest server and wait for its build",
                            description="Upload FILE (.c .cpp .pas .java .js .py) to the contest at URL; exit 0 "
                            "when it builds, 1 on a compile error, 3 when the server refuses it.")
    submit.add_argument("url", metavar="URL", help="the server, e.g. http://127.0.0.1:8000")
    submit.add_argument("file", metavar="FILE")
    submit.add_argument("--token", help="the team's token (or MJARENA_TOKEN in the environment)")
    submit.add_argument("--wait", type=float, default=600.0, metavar="SECONDS", help="longest wait for the build")
    submit.add_argument("--json", action="store_true", help="print the submission as JSON")
    submit.set_defaults(handler=_submit)
