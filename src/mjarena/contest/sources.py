"""Submitted source files: which language, whether it builds, and how to run it.

The one place that knows how a submission becomes a program: :mod:`mjarena.builds` compiles it in the sandbox
(``.c .cpp .pas .java .js .py``) under the contest's wall-clock limit and output cap, and caches the result in
the contest's ``builds/`` folder (a build evicted from there is built again from its source when a game needs
it).  Each team's builds are its own (:func:`build_scope`): a team that uploads the bytes another team sent is
compiled anew, so neither the time its verdict takes nor its message says that anyone else sent them.  The
source must be UTF-8 text besides: ``py_compile`` would accept a stray byte in a comment, a contest should not.

>>> language_of("bot.py"), language_of("BOT.CPP"), language_of("bot.exe")
('python', 'cpp', None)
>>> check_text(b"print(1)\\n"), check_text(b"# \\xff\\n")
(None, 'the source is not UTF-8 text (byte 3)')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjarena import builds
from mjarena.agents.errors import JudgeError
from mjarena.builds.cache import remove
from mjarena.i18n import N_, worded
from mjarena.sandbox import Sandbox

if TYPE_CHECKING:
    from mjarena.limits import Limits

__all__ = ["Program", "Verdict", "accepted_suffixes", "build_scope", "build_source", "check_text", "contest_sandbox",
           "language_of", "program_of"]


@dataclass(frozen=True)
class Verdict:
    """A build's outcome: ``ok`` or ``compile_error``, with the compiler's message, and the build's cache key
    (its folder in ``builds/``; empty when nothing was cached)."""

    status: str
    language: str
    message: str
    key: str = ""


@dataclass(frozen=True)
class Program:
    """How to run a built submission: the argv, the files it reads, and the limits it plays under (seconds per
    answer, MiB, seconds of thinking per game: the contest's, or its language's with per-language limits)."""

    argv: list[str]
    readable: list[str] = field(default_factory=list)
    time_limit: float = 1.0
    memory_mib: int = 256
    game_budget: float = 30.0


def contest_sandbox(settings: Any) -> Sandbox:
    """The box that a contest's compilers and bots run in (its ``settings.sandbox``: bwrap or none); each seat's
    box shows its seat slot's own copies of its runtime (``private_runtimes``), so that no two bots of a table
    share a page of a file (docs/security.md, *What boxes still share*)."""
    return Sandbox(kind=settings.sandbox, private_runtimes=True)


def accepted_suffixes() -> tuple[str, ...]:
    """The file extensions a submission may have."""
    return tuple(sorted(builds.SOURCE_SUFFIXES))


def language_of(filename: str) -> str | None:
    """The language that ``filename``'s extension names (in any case), or None."""
    path = Path(filename)
    return builds.language_of(path.with_suffix(path.suffix.lower())) if path.suffix else None


def check_text(raw: bytes) -> str | None:
    """Why ``raw`` is not a source file (empty, not UTF-8, a NUL byte), or None."""
    if not raw.strip():
        return worded(N_("the source is empty"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return worded(N_("the source is not UTF-8 text (byte %(byte)s)"), byte=error.start + 1)
    if "\x00" in text:
        return worded(N_("the source holds a NUL byte (byte %(byte)s)"), byte=text.index(chr(0)) + 1)
    return None


def build_scope(path: str | Path) -> str:
    """The cache scope of a stored source's builds: its team's, from where the contest keeps it
    (``DIR/submissions/TEAM/vN/FILE``, see :func:`mjarena.contest.building.store_submission`); another path
    gets its own folder as its scope.

    >>> build_scope("/c/submissions/red/v3/bot.cpp"), build_scope("/c/submissions/blue/v1/bot.cpp")
    ('team red', 'team blue')
    """
    path = Path(path)
    if len(path.parts) >= 4 and path.parts[-4] == "submissions":
        return f"team {path.parts[-3]}"
    return f"folder {path.parent}"


def build_source(path: Path, *, sandbox: Any, cache_dir: Path, wall_limit: float | None = None,
                 max_output_bytes: int | None = None) -> Verdict:
    """Build the stored source at ``path`` (in its team's :func:`build_scope`) and give the verdict (never raises for
    the source's faults; :class:`~mjarena.builds.BuildBusy` when its compile ran out of time on a busy machine),
    within ``wall_limit`` seconds and ``max_output_bytes`` (:func:`mjarena.builds.build`'s defaults when None)."""
    language = language_of(path.name) or "unknown"
    problem = check_text(path.read_bytes())
    if problem is not None:
        return Verdict("compile_error", language, problem)
    try:
        result = builds.build(path, sandbox=sandbox, cache_dir=cache_dir, wall_limit=wall_limit,
                              max_output_bytes=max_output_bytes, scope=build_scope(path))
    except builds.BuildBusy:
        raise  # the machine's failure, not the source's: the caller tries again
    except builds.BuildError as error:
        return Verdict("compile_error", language, str(error))
    return Verdict(result.status, result.language, result.message, result.key)


def program_of(path: Path, *, sandbox: Any, cache_dir: Path, limits: Limits, wall_limit: float | None = None,
               max_output_bytes: int | None = None) -> Program:
    """How to run the (built) source at ``path`` under ``limits`` (the contest's; its language's when they say
    ``language_limits``, :func:`mjarena.agents.source_bot.language_limits`); builds it again (within
    ``wall_limit`` and ``max_output_bytes``, as :func:`build_source`) if the cache lost it or evicted it.  The
    source built once: a failure now (a compile that ran out of time on a busy machine, say) is the judge's
    (:class:`~mjarena.agents.errors.JudgeError`), and is not kept in the cache, where it would stand for the
    source."""
    from mjarena.agents.source_bot import language_limits

    result = builds.build(path, sandbox=sandbox, cache_dir=cache_dir, wall_limit=wall_limit,
                          max_output_bytes=max_output_bytes, scope=build_scope(path))
    if result.status != "ok":
        if result.key:
            remove(Path(cache_dir), result.key)
        raise JudgeError(f"{path.name} no longer builds: {result.message}")
    seconds, memory, budget = language_limits(result, limits)
    return Program(result.command(memory), list(result.readable), seconds, memory, budget)
