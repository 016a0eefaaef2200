"""The ``mjarena`` command line: one module per group of commands, each with its parsers and handlers.

- :mod:`~mjarena.cli.thupc`: ``thupc``; :mod:`~mjarena.cli.hand`: ``hand``;
- :mod:`~mjarena.cli.play`: ``match``, ``replay`` and ``demo``;
- :mod:`~mjarena.cli.build`: ``build``;
- :mod:`~mjarena.cli.tournament`: ``tournament``, ``compare``, ``standings`` and ``pairs``;
- :mod:`~mjarena.cli.serve`: ``serve``; :mod:`~mjarena.cli.contest`: ``contest`` and ``submit``;
- :mod:`~mjarena.cli.shared`: what they share (:class:`~mjarena.cli.shared.UsageError`, the options of the
  commands that run bots, the sandbox they ask for).

Every subcommand reports bad input as one line on stderr and exits with status 2; no traceback.
Modules are imported inside the subcommands so that start-up stays fast.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence

from mjarena.cli.shared import EXIT_JUDGE, EXIT_USAGE, Parser, UsageError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    from mjarena import __version__
    from mjarena.cli import build, contest, hand, play, serve, thupc, tournament  # here: a small `import mjarena.cli`

    parser = Parser(
        prog="mjarena",
        description="Mahjong rules engines, a bot judge and arena, and hand analysis.",
        epilog="examples:\n  mjarena demo\n  mjarena match --help\n  mjarena serve .\n\n"
        "Each command has its own --help with examples; docs/ has the protocol, rules and web app.",
    )
    parser.add_argument("--version", action="version", version=f"mjarena {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)
    for group in (thupc, play, build, tournament, hand, serve, contest):  # the order of mjarena --help
        group.add_parsers(sub)
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
