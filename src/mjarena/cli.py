"""The ``mjarena`` command line.

Every subcommand reports bad input as one line on stderr and exits with status 2; no traceback.
Modules are imported inside the subcommands so that start-up stays fast.
"""

from __future__ import annotations

import argparse
import math
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mjarena.limits import Limits
    from mjarena.replay import MatchResult
    from mjarena.rulesets import JudgeRules
    from mjarena.sandbox import Sandbox

__all__ = ["main"]

EXIT_USAGE = 2
EXIT_JUDGE = 3
"""The judge itself failed (:class:`~mjarena.agents.errors.JudgeError`), not a bot."""


class UsageError(Exception):
    """Bad input or arguments: reported as one line, exit status 2."""


class _Formatter(argparse.HelpFormatter):
    """Wraps paragraphs as usual but keeps indented lines (examples, tables) as they are written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return "\n".join(indent + line if not line or line[0].isspace() else
                         textwrap.fill(line, width, initial_indent=indent, subsequent_indent=indent)
                         for line in text.splitlines())


class _Parser(argparse.ArgumentParser):
    """An argument parser whose ``epilog`` may be a function, called only when the help is shown: help texts that
    list what the installed package offers (each rule set's built-in bots) without slowing every start-up."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        if callable(self.epilog):
            self.epilog = self.epilog()
        return super().format_help()


def _match_epilog() -> str:
    from mjarena.rulesets import RULE_SETS, judge_rules

    builtins = "".join(f"\n                        {name}: {', '.join(judge_rules(name).agents)}" for name in RULE_SETS)
    return f"""bots (SPEC, four times, seats 0..3):
  builtin:NAME        a built-in bot of the rule set:{builtins}
  python:MODULE:NAME  your agent class or object, or a policy over mjarena.env observations, imported and
                      run in this process (an exception in it is that seat's crash; the game goes on)
  COMMAND             any command line speaking the Botzone JSON protocol, restarted per turn or kept
                      running (see examples/bots/ and docs/protocol.md)

examples:
  mjarena match
  mjarena match --rules baida --seed 7 --quiet --bot builtin:greedy --bot builtin:random \\
      --bot builtin:greedy --bot "python3 examples/bots/restart_bot.py"
  mjarena match --bot python:mybot:Agent --bot builtin:greedy --bot builtin:greedy --bot builtin:random \\
      --replay game.json && mjarena serve .
"""


def _read_text(source: str) -> str:
    if source == "-":
        text = sys.stdin.read()
        try:
            text.encode("utf-8")  # bytes that are not UTF-8 arrive as lone surrogates (surrogateescape)
        except UnicodeEncodeError:
            raise UsageError("stdin: not UTF-8 text") from None
        return text
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"{source}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{source}: not a UTF-8 text file") from None


# -- thupc ---------------------------------------------------------------------------------------------


def _simulate_thupc(text: str, as_json: bool) -> str:
    from mjarena.agents.thupc_fixed import FixedStrategy
    from mjarena.formats import SEATS_THUPC, event_json, thupc_log
    from mjarena.variants.base import play
    from mjarena.variants.thupc2021 import ThupcGame, parse_deck

    game = play(ThupcGame(parse_deck(text)), [FixedStrategy()] * 4)
    lines = [event_json(e, SEATS_THUPC) for e in game.events] if as_json else thupc_log(game.events)
    return "\n".join(lines) + "\n"


def _cmd_thupc(args: argparse.Namespace) -> int:
    from mjarena.files import write_atomically
    from mjarena.tiles import TileError

    decks = args.decks or ["-"]
    if args.out_dir is None:
        if len(decks) > 1:
            raise UsageError("several decks need --out-dir DIR")
        source = decks[0]
        try:
            sys.stdout.write(_simulate_thupc(_read_text(source), args.json))
        except TileError as error:
            raise UsageError(f"{'stdin' if source == '-' else source}: {error}") from None
        return 0
    out_dir = Path(args.out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"{out_dir}: cannot create the output folder: {error.strerror}") from None
    suffix = ".jsonl" if args.json else ".out"
    failures = 0
    for source in decks:
        name = "stdin" if source == "-" else source
        target = out_dir / ((Path(source).stem if source != "-" else "stdin") + suffix)
        try:
            # whole or absent, never a part; not fsync'ed: a log made from its deck is made again by a rerun
            write_atomically(target, _simulate_thupc(_read_text(source), args.json), sync=False)
        except (UsageError, TileError) as error:
            failures += 1
            message = str(error) if isinstance(error, UsageError) else f"{name}: {error}"
            print(f"mjarena thupc: {message}", file=sys.stderr)
        except OSError as error:
            failures += 1
            print(f"mjarena thupc: {target}: cannot write: {error.strerror}", file=sys.stderr)
    return EXIT_USAGE if failures else 0


# -- match, replay, demo ------------------------------------------------------------------------------


def _read_wall(source: str, judge: JudgeRules) -> list[int]:
    from mjarena.tiles import TileError, parse_tiles

    text = _read_text(source)
    try:
        wall = parse_tiles(text, judge.notation)
        judge.validate_wall(wall)
    except TileError as error:
        raise UsageError(f"{source}: {error}") from None
    return wall


def _print_match(result: MatchResult, *, log: bool = True) -> None:
    """The rule set and seed, then (with ``log``) the seats and the game's log, then the results."""
    from mjarena.rulesets import judge_rules
    from mjarena.variants import get_variant

    judge = judge_rules(result.rules)
    seed = f"seed {result.seed}" if result.seed is not None else "a given wall"
    print(f"{get_variant(result.rules).title}, {seed}")
    if not log:
        print(_result_table(result))
        return
    for seat in result.seats:
        print(f"  {judge.seats[seat.seat]:<6} {seat.bot}")
    print()
    marks = _error_marks(result, judge.seats)
    print(*marks.get(0, ()), sep="\n", end="\n" if marks.get(0) else "")
    for number, line in enumerate(judge.log(result.events), 1):
        print(line)
        print(*marks.get(number, ()), sep="\n", end="\n" if marks.get(number) else "")
    print()
    print(_result_table(result))


def _error_marks(result: MatchResult, names: Sequence[str]) -> dict[int, list[str]]:
    """The lines that mark in the log where a seat erred: after the event that led to the erring answer (its
    decision's ``event``: the events before it), one line naming the seat, the reason and what made it wrong."""
    marks: dict[int, list[str]] = {}
    for entry in result.decisions:
        error, event = entry.get("error"), entry.get("event")
        if isinstance(error, str) and isinstance(event, int):  # a replay's file may hold anything
            text = f">>> {names[entry['seat']]} erred here: {error}; the judge plays for it from now on"
            marks.setdefault(event, []).append(text.replace("\n", "\n      "))
    return marks


def _result_table(result: MatchResult) -> str:
    from mjarena.rulesets import judge_rules

    names = judge_rules(result.rules).seats
    header = ("seat", "bot", "status", "rank", "points", "target", "distance")
    rows = [header]
    for seat in sorted(result.seats, key=lambda s: (s.rank, s.seat)):
        status = seat.status if seat.reason is None else f"error: {seat.reason}"
        rows.append((
            f"{seat.seat} {names[seat.seat]}", seat.bot, status, str(seat.rank), f"{seat.points:g}",
            " ".join(seat.target) if seat.target else "", "" if seat.distance is None else str(seat.distance),
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    details = [f"  {names[s.seat]}: {s.reason}: {s.detail}".replace("\n", "\n      ") for s in result.seats if s.reason]
    return "\n".join(lines + (["", "errors:", *details] if details else []))


def _sandbox(args: argparse.Namespace, specs: Sequence[str]) -> Sandbox:
    """The box for the program bots among ``specs``, checked here and now: a box that cannot work is an error
    that says what to install, never a silent run without one.  ``--sandbox auto`` is bwrap where it works and
    otherwise no box, said in one line on stderr when there are program bots."""
    from mjarena.sandbox import Sandbox, SandboxUnavailable, check

    programs = any(not spec.startswith(("builtin:", "python:")) for spec in specs)
    if args.sandbox == "auto":
        args.sandbox = "bwrap"
        try:
            if programs:
                check(Sandbox(kind="bwrap"))
        except SandboxUnavailable as error:
            args.sandbox = "none"
            print(f"mjarena {args.command}: --sandbox auto: {error}; so the program bots run unboxed (they see what "
                  "you see)", file=sys.stderr)
    cgroup = args.cgroup
    if cgroup == "auto":
        from mjarena.sandbox.cgroup import delegated_cgroup

        cgroup = delegated_cgroup() if args.sandbox != "none" else None
    try:
        sandbox = Sandbox(kind=args.sandbox, cgroup=None if cgroup == "none" else cgroup)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if programs:
        try:
            check(sandbox)
        except SandboxUnavailable as error:
            raise UsageError(f"--sandbox {args.sandbox}: {error}") from None
    return sandbox


def _add_sandbox_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sandbox", choices=("auto", "bwrap", "none"), default="auto",
        help="how program bots are held: bwrap (namespaces, own files only, no network; Linux; see "
        "docs/security.md), none (trusted bots that need the real file system) or auto (the default: bwrap where it "
        "works, else none, said in one line)",
    )
    parser.add_argument(
        "--cgroup", metavar="DIR", default="auto",
        help="a cgroup v2 directory delegated to you: each bot's box gets a child cgroup there (exact memory and "
        "process limits, freezer); auto (the default) uses the judge's own cgroup when systemd delegated it "
        "(Delegate=yes), none never uses one; mjarena creates no cgroup anywhere else",
    )


def _add_build_options(parser: argparse.ArgumentParser, *, preflight: bool = True) -> None:
    parser.add_argument("--toolchains", metavar="FILE",
                        help="your toolchain table (JSON, or TOML on Python 3.11+) laid over the packaged one, "
                        "for source-file bots (docs/builds.md)")
    if not preflight:
        return
    parser.add_argument("--language-limits", action="store_true",
                        help="source-file bots get their language's time factor (on the time limit and the game "
                        "budget) and memory from the toolchain table (Botzone-style: Java 3x, JavaScript 2x, "
                        "Python 6x); default: the same limits for all")
    parser.add_argument("--game-budget", type=float, metavar="SECONDS",
                        help="a program bot's thinking time for a whole game; past it the seat is out with a "
                        "timeout (default: 30 times --time-limit)")
    _add_allow_broken(parser)


def _add_allow_broken(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-broken", action="store_true",
                        help="play even when pre-flight finds bots that cannot play (they err in every game)")


def _toolchains(args: argparse.Namespace) -> str | None:
    """The ``--toolchains`` file, read and checked now (an absolute path, for workers and resumed runs)."""
    from mjarena.builds import BuildError, load_toolchains

    if args.toolchains is None:
        return None
    try:
        load_toolchains(args.toolchains)
    except BuildError as error:
        raise UsageError(f"--toolchains {error}") from None
    return str(Path(args.toolchains).resolve())


def _preflight(args: argparse.Namespace, labelled: Sequence[tuple[str, str]], rules: str, limits: Limits) -> None:
    """Build and probe every program among the ``(label, spec)`` entrants; stop (exit 2) when one cannot play,
    unless ``--allow-broken``."""
    from mjarena.arena.preflight import describe, preflight

    problems = preflight([spec for _, spec in labelled], rules=rules, limits=limits)
    if not problems:
        return
    count = f"{len(problems)} bot{'s' if len(problems) != 1 else ''} cannot play"
    if not args.allow_broken:
        raise UsageError(f"pre-flight: {count} (--allow-broken plays on, scoring them as erring):\n"
                         f"{describe(problems, labelled)}")
    print(f"mjarena {args.command}: pre-flight: {count}; --allow-broken: they play and err:\n"
          f"{describe(problems, labelled)}", file=sys.stderr)


def _cmd_match(args: argparse.Namespace) -> int:
    import json

    from mjarena.agents.factory import BotSpecError, check_spec
    from mjarena.arena.match import run_match
    from mjarena.limits import Limits, check_budget, check_limits
    from mjarena.replay import save
    from mjarena.rulesets import judge_rules

    try:
        judge = judge_rules(args.rules)
    except KeyError as error:
        raise UsageError(f"--rules {args.rules}: {error.args[0]}") from None
    bots = args.bot or ["builtin:greedy", "builtin:greedy", "builtin:random", "builtin:random"]
    if len(bots) != 4:
        raise UsageError(f"a match needs exactly 4 --bot options (seats 0..3), got {len(bots)}")
    try:
        check_limits(args.time_limit, args.memory_limit)
        check_budget(args.game_budget)
    except ValueError as error:
        raise UsageError(str(error)) from None
    toolchains = _toolchains(args)
    for spec in bots:
        try:
            check_spec(spec, judge, toolchains=toolchains)
        except BotSpecError as error:
            raise UsageError(str(error)) from None
    wall = _read_wall(args.wall, judge) if args.wall else None
    limits = Limits(time=args.time_limit, memory_mib=args.memory_limit, sandbox=_sandbox(args, bots),
                    toolchains=toolchains, language_limits=args.language_limits, game_budget=args.game_budget)
    _preflight(args, [(f"seat {seat}", spec) for seat, spec in enumerate(bots)], judge.name, limits)
    result = run_match(bots, rules=judge.name, seed=args.seed, wall=wall, limits=limits)
    data = result.to_json()
    if args.replay:
        try:
            save(data, args.replay)
        except OSError as error:
            raise UsageError(f"{args.replay}: cannot write the replay: {error.strerror or error}") from None
    if args.json:
        summary = {key: data[key] for key in ("rules", "seed", "wall", "seats", "events")}
        sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
    else:
        _print_match(result, log=not args.quiet)
    return 0


_EXPORT_SUFFIXES = {"html": ".html", "botzone": ".botzone.json", "jsonl": ".jsonl"}


def _cmd_replay_export(args: argparse.Namespace) -> int:
    from mjarena.export import ExportError, export
    from mjarena.files import write_atomically
    from mjarena.replay import ReplayError, load

    source, fmt, out = args.file, args.format, args.out
    try:
        text = export(load(source), fmt, name=Path(source).name)
    except (ReplayError, ExportError) as error:
        raise UsageError(str(error)) from None
    if out == "-":
        sys.stdout.write(text)
        return 0
    target = Path(out) if out else Path(source).with_suffix(_EXPORT_SUFFIXES[fmt])
    try:
        write_atomically(target, text)
    except OSError as error:
        raise UsageError(f"{target}: cannot write: {error.strerror or error}") from None
    print(f"wrote {target}", file=sys.stderr)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from mjarena.replay import MatchResult, ReplayError, SeatOutcome, load, load_events, replay_game

    if args.format is not None or args.out is not None:
        option = "--format" if args.format is not None else "--out"
        raise UsageError(f"{option} goes with export: mjarena replay export {args.file} {option} "
                         f"{args.format or args.out}")
    try:
        data = load(args.file)  # checked whole: what follows cannot fail on it
    except ReplayError as error:
        raise UsageError(str(error)) from None
    if args.check:
        try:
            replay_game(data)
        except ReplayError as error:
            raise UsageError(f"{args.file}: {error}") from None
    seats = [SeatOutcome(**seat) for seat in data["seats"]]
    result = MatchResult(data["rules"], data.get("seed"), [], seats, load_events(data), data["decisions"])
    _print_match(result)
    if args.check:
        print("\nreplayed: the game plays out exactly as recorded")
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from mjarena.arena.match import run_match

    _print_match(run_match(["builtin:greedy", "builtin:random", "builtin:greedy", "builtin:random"], seed=args.seed))
    return 0


# -- build -------------------------------------------------------------------------------------------


def _cmd_build(args: argparse.Namespace) -> int:
    import json
    import shlex

    from mjarena.builds import BuildError, build

    toolchains = _toolchains(args)
    try:
        result = build(args.file, sandbox=_sandbox(args, [args.file]), toolchains=toolchains)
    except BuildError as error:
        raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(f"{result.status}: {result.source} ({result.language}, {result.seconds:.2f} s"
              f"{', from the cache' if result.cached else ''})")
        if result.ok:
            print(f"run: {shlex.join(result.run_argv)}")
        elif result.message:
            print(result.message)
    return 0 if result.ok else 1


# -- tournament, standings -----------------------------------------------------------------------------


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
            time_limit=args.time_limit, memory_limit=args.memory_limit, toolchains=_toolchains(args),
            language_limits=args.language_limits, game_budget=args.game_budget,
        )
        sandbox = _sandbox(args, [bot.spec for bot in settings.bots])
        limits = Limits(time=settings.time_limit, memory_mib=settings.memory_limit, sandbox=sandbox,
                        toolchains=settings.toolchains, language_limits=settings.language_limits,
                        game_budget=settings.game_budget)
        _preflight(args, [(bot.name, bot.spec) for bot in settings.bots], settings.rules, limits)
        rows = run_tournament(settings, args.out, executor=args.executor, workers=args.workers,
                              seed_given=seed_given, sandbox=sandbox, progress=False if args.quiet else None)
    except (TournamentError, ExecutorUnavailable) as error:
        raise UsageError(str(error)) from None
    print(format_standings(rows))
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    import json

    from mjarena.agents.factory import BotSpecError, check_spec
    from mjarena.arena.compare import SEATINGS, compare, format_result, plot_svg, progress_lines
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
    sandbox = _sandbox(args, [args.a, args.b])
    _preflight(args, [("bot A", args.a), ("bot B", args.b)], judge.name,
               Limits(time=args.time_limit, memory_mib=args.memory_limit, sandbox=sandbox))
    try:
        executor = make_executor(args.executor, args.workers)
    except ExecutorUnavailable as error:
        raise UsageError(str(error)) from None
    total = math.ceil(args.games / len(SEATINGS)) * len(SEATINGS)
    seed: Any = args.seed
    if seed is None:  # a program bot: walls from a secret no bot can guess (given at the end); else seed 0
        from mjarena.arena.draws import Draws, new_secret

        untrusted = any(not spec.startswith("builtin:") for spec in (args.a, args.b))
        seed = Draws.secret(new_secret()) if untrusted else 0
    with executor:  # stopped: the workers (and their bots) are killed at once, not waited for
        result = compare(args.a, args.b, rules=judge.name, games=args.games, sprt=sprt, seed=seed,
                         executor=executor, time_limit=args.time_limit, memory_limit=args.memory_limit,
                         sandbox=sandbox, progress=None if args.quiet else progress_lines(total), luck=not args.raw)
    summary = result.to_json()
    print(json.dumps(summary) if args.json else format_result(summary))
    if args.plot is not None:
        _write_plot(args.plot, plot_svg(result), quiet=args.quiet)
    return 0


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


# -- hand ----------------------------------------------------------------------------------------------


def _parse_melds(text: str) -> list[list[int]]:
    """``--melds``: a number of sets laid down (their tiles unknown), or the sets themselves, comma-separated, in
    mpsz (``123m,555z,1111p``): each a run, a triplet or a kong.

    >>> _parse_melds("2"), _parse_melds("123m, 7777p")
    ([[], []], [[0, 1, 2], [15, 15, 15, 15]])
    >>> _parse_melds("124m")
    Traceback (most recent call last):
    ...
    ValueError: --melds: 124m is not a run, a triplet or a kong
    """
    from mjarena.tiles import parse_mpsz

    text = text.strip()
    if text.isdigit():
        if int(text) > 4:
            raise ValueError(f"--melds {text}: a hand has at most 4 sets laid down")
        return [[] for _ in range(int(text))]
    melds = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        kinds = sorted(parse_mpsz(part))
        run = len(kinds) == 3 and kinds[0] < 27 and kinds[0] % 9 <= 6 and kinds == list(range(kinds[0], kinds[0] + 3))
        if not (run or (len(kinds) in (3, 4) and len(set(kinds)) == 1)):
            raise ValueError(f"--melds: {part} is not a run, a triplet or a kong")
        melds.append(kinds)
    if len(melds) > 4:
        raise ValueError(f"--melds: {len(melds)} sets; a hand has at most 4 laid down")
    return melds


def _hand_report(text: str, rules_name: str, meld_sets: list[list[int]], wild: int) -> dict[str, object]:
    """The analysis of one typed hand as a JSON-ready dict; raises ValueError (TileError) on bad input.

    Melds given by their tiles count as seen (the ``unseen`` of waits and useful tiles) and toward four of a kind.
    """
    from mjarena.hand.options import get_rules
    from mjarena.hand.wild import analyse, format_arrangement, format_group
    from mjarena.tiles import NUM_KINDS, WILD, check_counts, counts_of, format_tile, format_tiles, parse_tiles

    rules = get_rules(rules_name)
    tokens = text.split()
    if any(token.upper() not in ("BAIDA", "百搭") and token[-1:] in "mpsz*" for token in tokens):
        text = " ".join("*" if token.upper() in ("BAIDA", "百搭") else token for token in tokens)  # mpsz + BAIDA
    kinds = parse_tiles(text)
    if not kinds:
        raise ValueError("no tiles given")
    wild_kind = WILD if rules.wild_kind is None else rules.wild_kind
    kinds += [wild_kind] * wild
    melded = [kind for meld in meld_sets for kind in meld]
    check_counts([k for k in kinds + melded if k != WILD])
    counts = counts_of(kinds)
    melds = len(meld_sets)
    result = analyse(counts, melds, rules, visible=counts_of(melded) + [0] * (NUM_KINDS - 34))

    def tile(kind: int) -> str:
        return format_tile(kind, "mpsz") if kind < 34 or kind == WILD else format_tile(kind)

    def wait(w: object) -> dict[str, object]:
        return {"tile": tile(w.kind), "kind": w.kind, "unseen": w.unseen}  # type: ignore[attr-defined]

    return {
        "hand": " ".join(tile(k) for k in sorted(kinds)) if any(k in (34, 35, 36) for k in kinds)
        else format_tiles(sorted(kinds), "mpsz"),
        "rules": rules_name,
        "tiles": result.tiles,
        "melds": melds,
        "meld_tiles": [format_tiles(meld, "mpsz") for meld in meld_sets if meld],
        "wilds": result.wilds,
        "can_win": result.can_win,
        "distance": result.distance,
        "waits": [wait(w) for w in result.waits],
        "discards": [
            {"tile": tile(d.kind), "kind": d.kind, "distance": d.distance, "useful": [wait(w) for w in d.useful]}
            for d in result.discards
        ],
        "arrangements": [
            {
                "form": a.form,
                "text": format_arrangement(a),
                "groups": [{"type": g.type, "tiles": format_group(g), "kinds": list(g.kinds), "wild": list(g.wild)}
                           for g in a.groups],
            }
            for a in result.arrangements
        ],
    }


def _hand_text(report: dict[str, object]) -> str:
    def waits(items: object) -> str:
        return ", ".join(f"{w['tile']} ({w['unseen']} left)" for w in items) or "none"  # type: ignore[attr-defined,index]

    wilds = report["wilds"]
    lines = [
        f"hand: {report['hand']}  ({report['tiles']} tiles, {wilds} wildcard{'s' if wilds != 1 else ''}, "
        f"{report['melds']} meld(s){': ' + ' '.join(report['meld_tiles']) if report['meld_tiles'] else ''}; "
        f"rules {report['rules']})",
        f"can win: {'yes' if report['can_win'] else 'no'}",
        f"distance: {report['distance']}",
    ]
    arrangements = report["arrangements"]
    if arrangements:
        lines.append(f"arrangements ({len(arrangements)}):")  # type: ignore[arg-type]
        lines += [f"  {'seven pairs: ' if a['form'] == 'seven_pairs' else ''}{a['text']}"
                  for a in arrangements]  # type: ignore[union-attr]
    if report["tiles"] == 13 - 3 * report["melds"]:  # type: ignore[operator]
        lines.append(f"waits: {waits(report['waits'])}")
    else:
        lines.append("discards (best first):")
        lines += [f"  {d['tile']:<4} -> distance {d['distance']}; useful: {waits(d['useful'])}"
                  for d in report["discards"]]  # type: ignore[union-attr]
    return "\n".join(lines)


def _cmd_hand(args: argparse.Namespace) -> int:
    import json

    from mjarena.hand.options import get_rules

    try:
        get_rules(args.rules)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.wild < 0:
        raise UsageError("--wild must be 0 or more")
    try:
        meld_sets = _parse_melds(args.melds)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.tiles != "-":
        try:
            report = _hand_report(args.tiles, args.rules, meld_sets, args.wild)
        except ValueError as error:
            raise UsageError(str(error)) from None
        print(json.dumps(report, ensure_ascii=False) if args.json else _hand_text(report))
        return 0
    failures = 0
    for number, line in enumerate(sys.stdin, start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            report = _hand_report(text, args.rules, meld_sets, args.wild)
        except ValueError as error:
            failures += 1
            if args.json:
                print(json.dumps({"line": number, "input": text, "error": str(error)}, ensure_ascii=False))
            else:
                print(f"mjarena hand: line {number}: {error}", file=sys.stderr)
            continue
        print(json.dumps(report, ensure_ascii=False) if args.json else _hand_text(report) + "\n", flush=args.json)
    return EXIT_USAGE if failures else 0


# -- serve ---------------------------------------------------------------------------------------------


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn  # noqa: F401  (the message below names the extra when it is missing)

        from mjarena.web import create_app  # loads Starlette and python-multipart
        from mjarena.web.server import serve
    except ImportError as error:
        raise UsageError(f"the web app needs its extra: pip install 'mjarena[web]' ({error})") from None
    root = Path(args.dir)
    if not root.is_dir():
        raise UsageError(f"{root}: not a folder")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: not a port number")
    from mjarena.agents.factory import BotSpecError, check_spec

    for spec in args.bot or []:
        try:
            check_spec(spec)
        except BotSpecError as error:
            raise UsageError(str(error)) from None
    app = create_app(root, bots=args.bot or [], max_upload=args.max_upload * 1024)
    print(f"mjarena serve: {root.resolve()} on http://{args.host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr)
    serve(app, args.host, args.port)
    return 0


# -- the parser ----------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    from mjarena import __version__

    parser = _Parser(
        prog="mjarena",
        description="Mahjong rules engines, a bot judge and arena, and hand analysis.",
        epilog="examples:\n  mjarena demo\n  mjarena match --help\n  mjarena serve .\n\n"
        "Each command has its own --help with examples; docs/ has the protocol, rules and web app.",
    )
    parser.add_argument("--version", action="version", version=f"mjarena {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    thupc = sub.add_parser(
        "thupc",
        help="simulate THUPC 2021 decks with the statement's fixed strategy",
        description="Read 148 tile names (one per line or separated by white space) and print the game log "
        "exactly as the THUPC 2021 statement specifies.",
        epilog="examples:\n  mjarena thupc deck.in\n  mjarena thupc decks/*.in --out-dir out/\n"
        "  mjarena thupc deck.in --json",
    )
    thupc.add_argument("decks", nargs="*", metavar="DECK", help="deck files ('-' or none: stdin)")
    thupc.add_argument("--out-dir", metavar="DIR", help="write DIR/<deck stem>.out for each deck")
    thupc.add_argument("--json", action="store_true", help="the event stream as JSON lines instead of the log")
    thupc.set_defaults(handler=_cmd_thupc)

    match = sub.add_parser(
        "match",
        help="play one game between four bots",
        description="Play one game of any rule set between four bots and print its log and results. Seats are "
        "given in order 0..3 (East, South, West, North; A-D in THUPC).",
        epilog=_match_epilog,
    )
    match.add_argument("--rules", default="noi2014", help="rule set: noi2014 (default), baida or thupc2021")
    match.add_argument("--bot", action="append", metavar="SPEC", help="a bot, four times (seats 0..3)")
    match.add_argument("--seed", type=int, help="seed of the shuffled wall (default: random, printed)")
    match.add_argument("--wall", metavar="FILE", help="play this wall: the rule set's tile names, front first")
    match.add_argument("--time-limit", type=float, default=1.0, metavar="SECONDS", help="per answer (1.0)")
    match.add_argument("--memory-limit", type=int, default=256, metavar="MIB", help="per bot (256)")
    _add_sandbox_option(match)
    _add_build_options(match)
    match.add_argument("--replay", metavar="FILE", help="save the game as a replay")
    match.add_argument("--json", action="store_true", help="print one JSON object instead of the log")
    match.add_argument("--quiet", "-q", action="store_true", help="print only the results, not the log")
    match.set_defaults(handler=_cmd_match)

    replay = sub.add_parser(
        "replay", help="print a saved game, or export it (HTML, Botzone log, JSON lines)",
        description="Print a replay saved by match --replay, a tournament or the web app (docs/replay-format.md), "
        "or export it: html is one self-contained file that opens offline; botzone is each seat's requests and "
        "responses as a Botzone bot reads them; jsonl is an mjai-like event stream.",
        epilog="examples:\n  mjarena replay game.json\n  mjarena replay game.json --check\n"
        "  mjarena replay export game.json                  # game.html\n"
        "  mjarena replay export --format jsonl --out - game.json",
        usage="mjarena replay FILE [--check] | mjarena replay export FILE [--format F] [--out PATH]",
    )
    shown = replay.add_subparsers(dest="replay_command", metavar="show|export", required=True)
    show = shown.add_parser("show", prog="mjarena replay [show]", help="print the game (the default: mjarena replay "
                            "FILE)", description="Print a saved game, move by move, and its result.")
    show.add_argument("file", metavar="FILE")
    show.add_argument("--check", action="store_true", help="also play it again and check it matches")
    for option in ("--format", "--out"):  # export's options, refused here with a word on where they go
        show.add_argument(option, help=argparse.SUPPRESS)
    show.set_defaults(handler=_cmd_replay, parser=show)
    export = shown.add_parser(
        "export", prog="mjarena replay export", help="write the game as HTML, a Botzone log or JSON lines",
        description="Export a saved game; the options and the file in any order.",
        epilog="examples:\n  mjarena replay export game.json\n  mjarena replay export --format html --out x.html "
        "game.json", formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    export.add_argument("file", metavar="FILE")
    export.add_argument("--format", choices=("html", "botzone", "jsonl"), default="html", help="the format (html)")
    export.add_argument("--out", metavar="PATH",
                        help="where to write ('-': stdout; default: FILE with .html, .botzone.json or .jsonl)")
    export.set_defaults(handler=_cmd_replay_export, parser=export)

    demo = sub.add_parser("demo", help="a NOI 2014 match of four built-in bots")
    demo.add_argument("--seed", type=int, default=2014, help="seed of the shuffled wall (default 2014)")
    demo.set_defaults(handler=_cmd_demo)

    build = sub.add_parser(
        "build",
        help="build a bot's source file as the contest did (cached)",
        description="Compile one source file (.cpp .c .pas .java .js .py) with the contest's commands, in the "
        "sandbox, and print the command that runs it. Exit status 1 on a compile error (its message printed), "
        "2 when it cannot be built here at all. Builds are cached (docs/builds.md).",
        epilog="examples:\n  mjarena build bots/mine.cpp\n  mjarena build bots/Mine.java --json",
    )
    build.add_argument("file", metavar="FILE")
    build.add_argument("--json", action="store_true",
                       help="one JSON object: status, language, cached, message, run, seconds, ...")
    _add_sandbox_option(build)
    _add_build_options(build, preflight=False)
    build.set_defaults(handler=_cmd_build)

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
    tournament.add_argument("--workers", type=int, metavar="N", help="parallel games (default: CPU count)")
    tournament.add_argument("--executor", choices=("local", "ray"), default="local",
                            help="local process pool (default) or Ray (pip install 'mjarena[ray]')")
    tournament.add_argument("--time-limit", type=float, default=1.0, metavar="SECONDS", help="per answer (1.0)")
    tournament.add_argument("--memory-limit", type=int, default=256, metavar="MIB", help="per bot (256)")
    _add_sandbox_option(tournament)
    _add_build_options(tournament)
    tournament.add_argument("--out", required=True, metavar="DIR", help="results folder (resumed if present)")
    tournament.add_argument("--quiet", "-q", action="store_true",
                            help="no progress on stderr (otherwise a bar on a terminal, a line every 5%% elsewhere)")
    tournament.set_defaults(handler=_cmd_tournament)

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
    compare_.add_argument("--workers", type=int, metavar="N", help="parallel games (default: CPU count)")
    compare_.add_argument("--executor", choices=("local", "ray"), default="local",
                          help="local process pool (default) or Ray (pip install 'mjarena[ray]')")
    compare_.add_argument("--time-limit", type=float, default=1.0, metavar="SECONDS", help="per answer (1.0)")
    compare_.add_argument("--memory-limit", type=int, default=256, metavar="MIB", help="per bot (256)")
    _add_sandbox_option(compare_)
    _add_allow_broken(compare_)
    compare_.add_argument("--raw", action="store_true",
                          help="figures from the points as scored (default: luck-adjusted points, the same mean with "
                          "less variance; docs/compare.md)")
    compare_.add_argument("--json", action="store_true", help="print one JSON object")
    compare_.add_argument("--plot", metavar="FILE.svg",
                          help="also write an SVG: the SPRT's LLR over the sets between its bounds (with --sprt) and "
                          "the per-set differences with their running mean and 95%% interval")
    compare_.add_argument("--quiet", "-q", action="store_true",
                          help="no progress on stderr (otherwise a bar on a terminal, a line every 5%% elsewhere)")
    compare_.set_defaults(handler=_cmd_compare)

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

    hand = sub.add_parser(
        "hand",
        help="analyse a hand: win, distance, waits or discards, every winning arrangement",
        description="Analyse one hand typed in mpsz (123m456p*), THUPC or NOI names (BAIDA is a wildcard). "
        "'-' reads one hand per line from stdin.",
        epilog="examples:\n  mjarena hand 123m456p789s1122z*\n  mjarena hand 1112345678999m --rules noi2014\n"
        "  mjarena hand 12345m --melds 123p,555z --json",
    )
    hand.add_argument("tiles", metavar="TILES", help="the concealed hand, or '-' for one hand per line on stdin")
    hand.add_argument("--rules", default="baida", help="thupc2021, noi2014 or baida (default baida)")
    hand.add_argument("--melds", default="0", metavar="N|SETS",
                      help="sets laid down: a number, or the sets in mpsz, comma-separated: 123m,555z (0)")
    hand.add_argument("--wild", type=int, default=0, metavar="N", help="add N wildcards to the hand")
    hand.add_argument("--json", action="store_true", help="one JSON object per hand")
    hand.set_defaults(handler=_cmd_hand)

    serve = sub.add_parser(
        "serve",
        help="a web app: the replays and tournaments in DIR, and games against bots",
        description="Serve DIR in a browser: its replays (and uploads), its tournaments' standings while they run, "
        "and games of a person against bots (saved to DIR/played/). Needs pip install 'mjarena[web]'.",
        epilog="examples:\n  mjarena serve .                   # then open http://127.0.0.1:8000/\n"
        "  mjarena serve cup/ --bot \"python3 examples/bots/restart_bot.py\" "
        "--bot \"baida:python3 examples/bots/baida_bot.py\"",
    )
    serve.add_argument("dir", nargs="?", default=".", metavar="DIR", help="the folder to serve (default: .)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    serve.add_argument("--port", type=int, default=8000, help="(8000)")
    serve.add_argument("--bot", action="append", metavar="COMMAND",
                       help="a bot players may choose as an opponent in NOI 2014 games, or RULES:COMMAND for "
                       "a bot of another rule set's protocol (baida:..., thupc2021:...); repeatable")
    serve.add_argument("--max-upload", type=int, default=5120, metavar="KIB", help="largest upload (5120 KiB)")
    serve.set_defaults(handler=_cmd_serve)

    from mjarena.contest.commands import add_parsers as add_contest_parsers

    add_contest_parsers(sub)  # contest create|serve|add-team|rotate-token|extend|end|export|verify, and submit
    return parser


def _replay_show_by_default(argv: list[str]) -> list[str]:
    """``mjarena replay FILE`` means ``mjarena replay show FILE``.

    >>> _replay_show_by_default(["replay", "--check", "game.json"])
    ['replay', 'show', '--check', 'game.json']
    >>> _replay_show_by_default(["replay", "export", "game.json"])
    ['replay', 'export', 'game.json']
    """
    if len(argv) > 1 and argv[0] == "replay" and argv[1] not in ("show", "export", "-h", "--help"):
        return ["replay", "show", *argv[1:]]
    return argv


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extras = parser.parse_known_args(_replay_show_by_default(list(sys.argv[1:] if argv is None else argv)))
    if extras:  # said by the parser of the command itself, with its own usage, where it has one of its own
        getattr(args, "parser", parser).error(f"unrecognized arguments: {' '.join(extras)}")
    from mjarena.agents.errors import JudgeError
    from mjarena.lifetime import stop_on_signals

    try:
        with stop_on_signals():  # SIGTERM, SIGHUP, SIGINT unwind: every bot and pool worker is killed on the way out
            return args.handler(args)
    except UsageError as error:
        print(f"mjarena {args.command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except JudgeError as error:  # a bot's box that cannot start, its build gone: no seat is blamed for it
        print(f"mjarena {args.command}: the judge failed (not a bot; no result is recorded): {error}",
              file=sys.stderr)
        return EXIT_JUDGE
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except KeyboardInterrupt as error:
        signum = getattr(error, "signum", signal.SIGINT)
        print(f"mjarena {args.command}: interrupted ({signal.Signals(signum).name})", file=sys.stderr)
        return 128 + signum


if __name__ == "__main__":
    sys.exit(main())
