"""What every ``mjarena`` command shares: the exit statuses, :class:`UsageError` (bad input, one line, exit 2),
the parser and help formatter, reading a text argument, and the options and checks of the commands that run bots:
``--sandbox``/``--cgroup`` and the box they make, ``--toolchains``, the build options and pre-flight.

Only the standard library at import; each helper imports what it needs when called.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjarena.arena.executor_types import usable_cores

if TYPE_CHECKING:
    from mjarena.limits import Limits
    from mjarena.sandbox import Sandbox

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


class Parser(argparse.ArgumentParser):
    """An argument parser whose ``epilog`` may be a function, called only when the help is shown: help texts that
    list what the installed package offers (each rule set's built-in bots) without slowing every start-up."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        if callable(self.epilog):
            self.epilog = self.epilog()
        return super().format_help()


def read_source(source: str) -> str:
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


def sandbox_for(args: argparse.Namespace, specs: Sequence[str]) -> Sandbox:
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
        sandbox = Sandbox(kind=args.sandbox, cgroup=None if cgroup == "none" else cgroup,
                          private_runtimes=getattr(args, "private_runtimes", False))
    except ValueError as error:
        raise UsageError(str(error)) from None
    if programs:
        try:
            check(sandbox)
        except SandboxUnavailable as error:
            raise UsageError(f"--sandbox {args.sandbox}: {error}") from None
    return sandbox


def add_sandbox_option(parser: argparse.ArgumentParser) -> None:
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
    parser.add_argument(
        "--private-runtimes", action="store_true",
        help="each seat's box shows its own copies of the runtime files its program needs instead of the shared "
        "/usr, so that colluding bots at one table share no page of a file (the contest's default; Python bots "
        "then see the standard library only, and a bot cannot start other programs; docs/security.md)",
    )


def add_build_options(parser: argparse.ArgumentParser, *, preflight: bool = True) -> None:
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
    add_allow_broken(parser)


def add_allow_broken(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--allow-broken", action="store_true",
                        help="play even when pre-flight finds bots that cannot play (they err in every game)")


def toolchains_file(args: argparse.Namespace) -> str | None:
    """The ``--toolchains`` file, read and checked now (an absolute path, for workers and resumed runs)."""
    from mjarena.builds import BuildError, load_toolchains

    if args.toolchains is None:
        return None
    try:
        load_toolchains(args.toolchains)
    except BuildError as error:
        raise UsageError(f"--toolchains {error}") from None
    return str(Path(args.toolchains).resolve())


def check_entrants(args: argparse.Namespace, labelled: Sequence[tuple[str, str]], rules: str, limits: Limits) -> None:
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


def game_workers(workers: int | None, executor: str) -> int | None:
    """How many games a local pool plays at once: ``--workers``, by default one per usable core (a game's four
    bots think one at a time, so a game keeps one core busy); more than the cores is played as asked, said in one
    line on stderr (the games then wait for a CPU, and their bots' answers take longer).  Ray places its own."""
    if executor != "local":
        return workers
    cores = usable_cores()
    if workers is None:
        return cores
    if workers > cores:
        cpus = f"{cores} CPU{'s' if cores != 1 else ''}"
        print(f"--workers {workers}: more games at once than the {cpus} this process may use; their bots will wait "
              f"for a CPU and may time out (the default is {cores})", file=sys.stderr)
    return workers
