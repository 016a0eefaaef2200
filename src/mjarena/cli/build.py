"""``mjarena build``: one bot's source file built as the contest builds it (cached), and the command that runs it."""

from __future__ import annotations

import argparse
from typing import Any

from mjarena.cli.shared import UsageError, add_build_options, add_sandbox_option, sandbox_for, toolchains_file


def _cmd_build(args: argparse.Namespace) -> int:
    import json
    import shlex

    from mjarena.builds import BuildError, build

    toolchains = toolchains_file(args)
    try:
        result = build(args.file, sandbox=sandbox_for(args, [args.file]), toolchains=toolchains)
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


def add_parsers(sub: Any) -> None:
    """Add ``build`` to the ``mjarena`` subparsers ``sub``."""
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
    add_sandbox_option(build)
    add_build_options(build, preflight=False)
    build.set_defaults(handler=_cmd_build)
