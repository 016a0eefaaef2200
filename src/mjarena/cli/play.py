"""``mjarena match``, ``replay`` (show, export) and ``demo``: one game played and printed, a saved one shown again.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjarena.cli.shared import (
    UsageError,
    add_build_options,
    add_sandbox_option,
    check_entrants,
    read_source,
    sandbox_for,
    toolchains_file,
)

if TYPE_CHECKING:
    from mjarena.replay import MatchResult
    from mjarena.rulesets import JudgeRules


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


def _read_wall(source: str, judge: JudgeRules) -> list[int]:
    from mjarena.tiles import TileError, parse_tiles

    text = read_source(source)
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


def _cmd_match(args: argparse.Namespace) -> int:
    import json

    from mjarena.agents.factory import BotSpecError, check_spec
    from mjarena.arena.match import run_match
    from mjarena.arena.overload import Overload
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
    toolchains = toolchains_file(args)
    for spec in bots:
        try:
            check_spec(spec, judge, toolchains=toolchains)
        except BotSpecError as error:
            raise UsageError(str(error)) from None
    wall = _read_wall(args.wall, judge) if args.wall else None
    limits = Limits(time=args.time_limit, memory_mib=args.memory_limit, sandbox=sandbox_for(args, bots),
                    toolchains=toolchains, language_limits=args.language_limits, game_budget=args.game_budget)
    check_entrants(args, [(f"seat {seat}", spec) for seat, spec in enumerate(bots)], judge.name, limits)
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
    overload = Overload.of([result.transcripts], args.time_limit).line()
    if overload is not None:  # the bots' verdicts stand on their own time; the figures are slower than they are
        print(overload, file=sys.stderr)
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


def add_parsers(sub: Any) -> None:
    """Add ``match``, ``replay`` (``show``, ``export``) and ``demo`` to the ``mjarena`` subparsers ``sub``."""
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
    add_sandbox_option(match)
    add_build_options(match)
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
