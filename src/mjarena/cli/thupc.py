"""``mjarena thupc``: THUPC 2021 decks played by the statement's fixed strategy, the log as the statement prints it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mjarena.cli.shared import EXIT_USAGE, UsageError, read_source


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
            sys.stdout.write(_simulate_thupc(read_source(source), args.json))
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
            write_atomically(target, _simulate_thupc(read_source(source), args.json), sync=False)
        except (UsageError, TileError) as error:
            failures += 1
            message = str(error) if isinstance(error, UsageError) else f"{name}: {error}"
            print(f"mjarena thupc: {message}", file=sys.stderr)
        except OSError as error:
            failures += 1
            print(f"mjarena thupc: {target}: cannot write: {error.strerror}", file=sys.stderr)
    return EXIT_USAGE if failures else 0


def add_parsers(sub: Any) -> None:
    """Add ``thupc`` to the ``mjarena`` subparsers ``sub``."""
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
