"""``mjarena tournament``, ``compare``, ``standings`` and ``pairs``: many games in parallel, their standings and
statistics, and the report of pairs of a tournament folder.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

from mjarena.cli.shared import (
    UsageError,
    add_allow_broken,
    add_build_options,
    add_sandbox_option,
    check_entrants,
    game_workers,
    sandbox_for,
    toolchains_file,
)


def _cmd_tournament(args: argparse.Namespace) -> int:
    import random

    from mjarena.arena.executors import ExecutorUnavailable
    from mjarena.arena.standings import format_standings
    from mjarena.arena.tournament import run_tournament
    from mjarena.arena.tournament_settings import Settings as TournamentSettings
    from mjarena.arena.tournament_settings import TournamentError, parse_bot
    from mjarena.limits import Limits

    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    seed_given = args.seed is not None
    try:
        bots = [parse_bot(text) for text in args.bot or []]
        seed = args.seed
        if not seed_given:  # program bots: a secret in DIR that no bot can guess; built-in ones: a seed to print
            untrusted = any(not bot.spec.startswith("builtin:") for bot in bots)
            seed = None if untrusted else random.SystemRandom().randrange(2**31)
        settings = TournamentSettings.create(
            bots, format=args.format, rounds=args.rounds,
            games_per_table=args.games_per_table, duplicate=args.duplicate, seed=seed, rules=args.rules,
            time_limit=args.time_limit, memory_limit=args.memory_limit, toolchains=toolchains_file(args),
            language_limits=args.language_limits, game_budget=args.game_budget,
        )
        sandbox = sandbox_for(args, [bot.spec for bot in settings.bots])
        limits = Limits(time=settings.time_limit, memory_mib=settings.memory_limit, sandbox=sandbox,
                        toolchains=settings.toolchains, language_limits=settings.language_limits,
                        game_budget=settings.game_budget)
        check_entrants(args, [(bot.name, bot.spec) for bot in settings.bots], settings.rules, limits)
        rows = run_tournament(settings, args.out, executor=args.executor,
                              workers=game_workers(args.workers, args.executor),
                              seed_given=seed_given, sandbox=sandbox, progress=False if args.quiet else None)
    except (TournamentError, ExecutorUnavailable) as error:
        raise UsageError(str(error)) from None
    print(format_standings(rows))
    _print_timeouts(Path(args.out))
    return 0


def _print_timeouts(out: Path) -> None:
    """After the standings: one line when any game of the tournament in ``out`` had a timeout."""
    from mjarena.arena.results_file import load_records
    from mjarena.arena.timeouts import timeouts_line
    from mjarena.arena.tournament_settings import TournamentError

    try:
        line = timeouts_line(load_records(out / "games.jsonl"))
    except TournamentError:
        return
    if line is not None:
        print(line)


def _cmd_compare(args: argparse.Namespace) -> int:
    from mjarena.agents.factory import BotSpecError, check_spec
    from mjarena.arena.compare import SEATINGS, SPRT_MIN_SETS, CompareStopped, compare
    from mjarena.arena.compare_report import plot_svg, progress_lines
    from mjarena.arena.executors import ExecutorUnavailable, make_executor
    from mjarena.limits import Limits, check_limits
    from mjarena.rulesets import judge_rules

    try:
        judge = judge_rules(args.rules)
    except KeyError as error:
        raise UsageError(f"--rules: {error.args[0]}") from None
    for label, spec in (("A", args.a), ("B", args.b)):
        try:
            check_spec(spec, judge)
        except BotSpecError as error:
            raise UsageError(f"bot {label}: {error}") from None
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    sprt = None
    if args.sprt is not None:
        try:
            elo0, elo1 = (float(part) for part in args.sprt.split(","))
        except ValueError:
            raise UsageError(f"--sprt {args.sprt!r}: expected two numbers ELO0,ELO1 (e.g. 0,10)") from None
        if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1):
            raise UsageError(f"--sprt {args.sprt!r}: ELO0 must be less than ELO1, both finite")
        sprt = (elo0, elo1)
    try:
        check_limits(args.time_limit, args.memory_limit)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.plot is not None:
        _check_writable("--plot", args.plot)
    if args.save_all and args.save is None:
        raise UsageError("--save-all: needs --save DIR (the folder the replays go to)")
    if sprt is not None and math.ceil(args.games / len(SEATINGS)) < SPRT_MIN_SETS:
        print(f"mjarena compare: --sprt: the test may stop from set {SPRT_MIN_SETS} ({SPRT_MIN_SETS * len(SEATINGS)} "
              f"games); --games {args.games} ends it undecided before that", file=sys.stderr)
    sandbox = sandbox_for(args, [args.a, args.b])
    check_entrants(args, [("bot A", args.a), ("bot B", args.b)], judge.name,
                   Limits(time=args.time_limit, memory_mib=args.memory_limit, sandbox=sandbox))
    untrusted = any(not spec.startswith("builtin:") for spec in (args.a, args.b))
    store = _compare_store(args, judge.name, untrusted)
    try:
        executor = make_executor(args.executor, game_workers(args.workers, args.executor))
    except ExecutorUnavailable as error:
        raise UsageError(str(error)) from None
    total = math.ceil(args.games / len(SEATINGS)) * len(SEATINGS)
    seed: Any = args.seed
    if store is not None:  # the folder's seed or secret: a resumed run plays the same walls
        seed = store.draws
    elif seed is None:  # a program bot: walls from a secret no bot can guess (given at the end); else seed 0
        from mjarena.arena.draws import Draws, new_secret

        seed = Draws.secret(new_secret()) if untrusted else 0
    try:
        with executor:  # stopped: the workers (and their bots) are killed at once, not waited for
            result = compare(args.a, args.b, rules=judge.name, games=args.games, sprt=sprt, seed=seed,
                             executor=executor, time_limit=args.time_limit, memory_limit=args.memory_limit,
                             sandbox=sandbox, progress=None if args.quiet else progress_lines(total),
                             luck=not args.raw, store=store, keep="all" if args.save_all else "errors")
    except CompareStopped as stop:  # what was played is printed; the games kept in --save DIR resume the run
        _print_compare(args, stop.result, store)
        raise
    finally:
        if store is not None:
            store.close()
    _print_compare(args, result, store)
    if args.plot is not None:
        _write_plot(args.plot, plot_svg(result), quiet=args.quiet)
    return 0


def _compare_store(args: argparse.Namespace, rules: str, untrusted: bool) -> Any:
    """``--save DIR`` opened (or resumed) for this comparison, or None."""
    if args.save is None:
        return None
    from mjarena.arena.compare_store import CompareStore, CompareStoreError

    parameters = {"a": args.a, "b": args.b, "rules": rules, "time_limit": args.time_limit,
                  "memory_limit": args.memory_limit}
    try:
        return CompareStore.open(args.save, parameters, seed=args.seed, secret=untrusted)
    except CompareStoreError as error:
        raise UsageError(f"--save {error}") from None


def _print_compare(args: argparse.Namespace, result: Any, store: Any) -> None:
    """The comparison's report on stdout (text or ``--json``), with where its games are kept (``--save``)."""
    import json

    from mjarena.arena.compare_report import format_result

    summary = result.to_json()
    if store is not None:
        summary["saved"] = {"folder": str(store.folder), "games": store.finished, "replays": store.replays(),
                            "all": bool(args.save_all)}
    if args.json:
        print(json.dumps(summary), flush=True)
        return
    text = format_result(summary)
    if store is not None:
        kept = "every game" if args.save_all else "each game where a bot erred"
        text += (f"\n  saved in {store.folder}: {store.finished} games, {summary['saved']['replays']} replays "
                 f"({kept}, in replays/)")
        if result.stopped:
            text += "; run the same command again to resume"
    print(text, flush=True)


def _check_writable(option: str, path: str) -> None:
    """Refuse, before any game is played, a ``path`` that cannot be written: a folder, or in a missing or
    read-only folder."""
    import os

    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise UsageError(f"{option} {path}: is a folder")
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: no folder {str(folder)!r}")
    if not os.access(folder, os.W_OK | os.X_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise UsageError(f"{option} {path}: cannot write there (permission denied)")


def _write_plot(path: str, svg: str, *, quiet: bool = False) -> None:
    """Write the plot whole or not at all (through a temporary file renamed into place)."""
    from mjarena.files import write_atomically

    try:
        write_atomically(path, svg)
    except OSError as error:
        raise UsageError(f"--plot {path}: cannot write: {error.strerror or error}") from None
    if not quiet:
        print(f"plot: {path}", file=sys.stderr)


def _cmd_standings(args: argparse.Namespace) -> int:
    import json

    from mjarena.arena.results_file import read_tournament
    from mjarena.arena.standings import compute_standings, format_standings
    from mjarena.arena.tournament_settings import TournamentError

    try:
        settings, records = read_tournament(args.dir)
    except TournamentError as error:
        raise UsageError(str(error)) from None
    rows = compute_standings(settings, records)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
    else:
        seed = "a secret seed (DIR/secret)" if settings.seed is None else f"seed {settings.seed}"
        print(f"{len(records)} of {settings.total_games} games played ({settings.format}, {seed})")
        print(format_standings(rows))
    return 0


def _cmd_pairs(args: argparse.Namespace) -> int:
    import json

    from mjarena.arena.collusion import CollusionError, collusion_report, game_from_replay, pairs_csv, report_text
    from mjarena.arena.results_file import read_tournament
    from mjarena.arena.tournament_settings import TournamentError

    try:
        _, records = read_tournament(args.dir)
    except TournamentError as error:
        raise UsageError(str(error)) from None
    games, unreadable = [], []
    for gid in sorted(records):
        record = records[gid]
        seats = sorted(record["results"], key=lambda seat: seat["seat"])
        path = Path(args.dir) / "replays" / f"{gid}.json"
        try:
            games.append(game_from_replay(json.loads(path.read_bytes()),
                                          [None if seat["house"] else seat["bot"] for seat in seats], str(path)))
        except (OSError, ValueError, CollusionError):  # missing, not JSON, no events: named, left out
            unreadable.append(gid)
    report = {**collusion_report(games), "unreadable": unreadable}
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    elif args.csv:
        sys.stdout.write(pairs_csv(report))
    else:
        sys.stdout.write(report_text(report))
        if unreadable:
            print(f"left out, replay missing or unreadable: {', '.join(unreadable)}")
    return 0


def add_parsers(sub: Any) -> None:
    """Add ``tournament``, ``compare``, ``standings`` and ``pairs`` to the ``mjarena`` subparsers ``sub``."""
    _add_tournament(sub)
    _add_compare(sub)
    _add_standings_and_pairs(sub)


def _add_tournament(sub: Any) -> None:
    """``mjarena tournament``."""
    tournament = sub.add_parser(
        "tournament",
        help="play a Swiss or round-robin tournament (resumable)",
        description="Play a tournament of any rule set (noi2014, baida or thupc2021) into DIR, in parallel. Every "
        "finished game is kept (DIR/games.jsonl, DIR/replays/); running the same command again resumes where it "
        "stopped. Entrants are NAME=SPEC with SPEC as in mjarena match --help.",
        epilog="examples:\n  mjarena tournament --bot g=builtin:greedy --bot r=builtin:random --out cup/\n"
        "  mjarena tournament --rules baida --format round-robin --bot a=builtin:greedy \\\n"
        "      --bot mine=\"python3 bots/mine.py\" --games-per-table 4 --duplicate --out cup/\n"
        "  mjarena serve cup/        # watch the standings in a browser while it runs",
    )
    tournament.add_argument("--rules", default="noi2014", help="rule set: noi2014 (default), baida or thupc2021")
    tournament.add_argument("--bot", action="append", metavar="NAME=SPEC", help="an entrant (at least 2)")
    tournament.add_argument("--format", choices=("swiss", "round-robin"), default="swiss", help="(swiss)")
    tournament.add_argument("--rounds", type=int, metavar="R",
                            help="rounds (default: enough for everyone to be able to meet everyone once)")
    tournament.add_argument("--games-per-table", type=int, default=1, metavar="K",
                            help="walls per table and round (1)")
    tournament.add_argument("--duplicate", action="store_true",
                            help="play each wall once per seat rotation (4 games per wall)")
    tournament.add_argument("--seed", type=int,
                            help="public tournament seed: anyone who knows it knows the walls (default: the one in "
                            "DIR, or a random secret kept in DIR/secret when a program bot plays, a random seed "
                            "for built-in bots only)")
    tournament.add_argument("--workers", type=int, metavar="N",
                            help="parallel games (default: the CPUs this process may use)")
    tournament.add_argument("--executor", choices=("local", "ray"), default="local",
                            help="local process pool (default) or Ray (pip install 'mjarena[ray]'; the bots' "
                            "builds and program folders are sent to the nodes, docs/tournament.md)")
    tournament.add_argument("--time-limit", type=float, default=1.0, metavar="SECONDS", help="per answer (1.0)")
    tournament.add_argument("--memory-limit", type=int, default=256, metavar="MIB", help="per bot (256)")
    add_sandbox_option(tournament)
    add_build_options(tournament)
    tournament.add_argument("--out", required=True, metavar="DIR", help="results folder (resumed if present)")
    tournament.add_argument("--quiet", "-q", action="store_true",
                            help="no progress on stderr (otherwise a bar on a terminal, a line every 5%% elsewhere)")
    tournament.set_defaults(handler=_cmd_tournament)


def _add_compare(sub: Any) -> None:
    """``mjarena compare``."""
    compare_ = sub.add_parser(
        "compare",
        help="is bot A better than bot B? duplicate deals, intervals, a sequential test",
        description="Play A against B on duplicate sets: each wall with all 14 seatings of two A and two B, one A "
        "and three B, three A and one B. Prints mean points per game with 95% intervals, the Elo difference with its "
        "95% interval, the places (1st to 4th) of each, the likelihood that A is better, and how much the duplicate "
        "pairing changed the variance, on luck-adjusted points (each "
        "seat's points less the luck of its draws: the same mean, less variance) and as scored "
        "(docs/compare.md). SPEC as in "
        "mjarena match --help.",
        epilog="examples:\n  mjarena compare builtin:strong builtin:greedy --games 2000 --workers 2\n"
        "  mjarena compare \"python3 mine.py\" builtin:strong --rules baida --sprt 0,20 --json",
    )
    compare_.add_argument("a", metavar="A", help="the bot under test")
    compare_.add_argument("b", metavar="B", help="the bot it is compared with")
    compare_.add_argument("--rules", default="noi2014", help="rule set: noi2014 (default), baida or thupc2021")
    compare_.add_argument("--games", type=int, default=1400, metavar="N",
                          help="games at most, rounded up to whole sets of 14 (1400)")
    compare_.add_argument("--sprt", metavar="ELO0,ELO1",
                          help="stop as soon as the sequential test accepts H0 (Elo ELO0) or H1 (ELO1); alpha = "
                          "beta = 0.05; Elo on the per-set A-minus-B points difference (docs/compare.md)")
    compare_.add_argument("--seed", type=int,
                          help="public seed of the walls: anyone who knows it knows them (default: 0 for built-in "
                          "bots; with a program bot, a random secret, printed once every game is played)")
    compare_.add_argument("--workers", type=int, metavar="N",
                          help="parallel games (default: the CPUs this process may use)")
    compare_.add_argument("--executor", choices=("local", "ray"), default="local",
                          help="local process pool (default) or Ray (pip install 'mjarena[ray]')")
    compare_.add_argument("--time-limit", type=float, default=1.0, metavar="SECONDS", help="per answer (1.0)")
    compare_.add_argument("--memory-limit", type=int, default=256, metavar="MIB", help="per bot (256)")
    add_sandbox_option(compare_)
    add_allow_broken(compare_)
    compare_.add_argument("--raw", action="store_true",
                          help="figures from the points as scored (default: luck-adjusted points, the same mean with "
                          "less variance; docs/compare.md)")
    compare_.add_argument("--json", action="store_true", help="print one JSON object")
    compare_.add_argument("--plot", metavar="FILE.svg",
                          help="also write an SVG: the SPRT's LLR over the sets between its bounds (with --sprt) and "
                          "the per-set differences with their running mean and 95%% interval")
    compare_.add_argument("--save", metavar="DIR",
                          help="keep every game's outcome and a replay of each game where a bot erred in DIR; run "
                          "the same command again to resume a stopped run (docs/compare.md)")
    compare_.add_argument("--save-all", action="store_true", help="with --save: keep the replay of every game")
    compare_.add_argument("--quiet", "-q", action="store_true",
                          help="no progress on stderr (otherwise a bar on a terminal, a line every 5%% elsewhere)")
    compare_.set_defaults(handler=_cmd_compare)


def _add_standings_and_pairs(sub: Any) -> None:
    """``mjarena standings`` and ``mjarena pairs``: a tournament folder read again."""
    standings = sub.add_parser("standings", help="print the standings of a tournament folder",
                               epilog="example:\n  mjarena standings cup/ --json")
    standings.add_argument("dir", metavar="DIR")
    standings.add_argument("--json", action="store_true", help="print the rows as JSON")
    standings.set_defaults(handler=_cmd_standings)

    pairs = sub.add_parser(
        "pairs", help="the report of pairs of a tournament folder: whose discards another takes or wins on more "
        "than the field explains (collusion; docs/contest.md)",
        epilog="examples:\n  mjarena pairs cup/\n  mjarena pairs cup/ --csv > pairs.csv",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    pairs.add_argument("dir", metavar="DIR")
    shown_as = pairs.add_mutually_exclusive_group()
    shown_as.add_argument("--json", action="store_true", help="print the whole report as JSON")
    shown_as.add_argument("--csv", action="store_true", help="print every pair as CSV, one a line")
    pairs.set_defaults(handler=_cmd_pairs)
