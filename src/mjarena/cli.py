"""The ``mjarena`` command line.

Every subcommand reports bad input as one line on stderr and exits with status 2; no traceback.
Modules are imported inside the subcommands so that start-up stays fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main"]

EXIT_USAGE = 2


class UsageError(Exception):
    """Bad input or arguments: reported as one line, exit status 2."""


def _read_text(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"{source}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{source}: not a UTF-8 text file") from None


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so that no partial file is ever left."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


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
            _write_atomically(target, _simulate_thupc(_read_text(source), args.json))
        except (UsageError, TileError) as error:
            failures += 1
            message = str(error) if isinstance(error, UsageError) else f"{name}: {error}"
            print(f"mjarena thupc: {message}", file=sys.stderr)
        except OSError as error:
            failures += 1
            print(f"mjarena thupc: {target}: cannot write: {error.strerror}", file=sys.stderr)
    return EXIT_USAGE if failures else 0


# -- demo ----------------------------------------------------------------------------------------------


def _cmd_demo(args: argparse.Namespace) -> int:
    from mjarena.tiles import format_tiles
    from mjarena.variants.thupc2021 import shuffled_wall

    print(f"THUPC 2021: the fixed strategy at all four seats, a deck shuffled with seed {args.seed}\n")
    sys.stdout.write(_simulate_thupc(format_tiles(shuffled_wall(args.seed)), as_json=False))
    return 0


# -- the parser ----------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mjarena",
        description="Mahjong rules engines, a bot judge and arena, and hand analysis.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    thupc = sub.add_parser(
        "thupc",
        help="simulate THUPC 2021 decks with the statement's fixed strategy",
        description="Read 148 tile names (one per line or separated by white space) and print the game log "
        "exactly as the THUPC 2021 statement specifies.",
    )
    thupc.add_argument("decks", nargs="*", metavar="DECK", help="deck files ('-' or none: stdin)")
    thupc.add_argument("--out-dir", metavar="DIR", help="write DIR/<deck stem>.out for each deck")
    thupc.add_argument("--json", action="store_true", help="the event stream as JSON lines instead of the log")
    thupc.set_defaults(handler=_cmd_thupc)

    demo = sub.add_parser("demo", help="play a demonstration game on built-in defaults")
    demo.add_argument("--seed", type=int, default=2021, help="seed of the shuffled deck (default 2021)")
    demo.set_defaults(handler=_cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except UsageError as error:
        print(f"mjarena {args.command}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"mjarena {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
