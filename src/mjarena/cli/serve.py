"""``mjarena serve``: the web app over a folder (replays, tournaments' standings, games against bots)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mjarena.cli.shared import UsageError


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


def add_parsers(sub: Any) -> None:
    """Add ``serve`` to the ``mjarena`` subparsers ``sub``."""
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
