"""Build one source file as the contest did (:func:`build`): read it (a regular file, at most
:data:`MAX_SOURCE_BYTES`), copy it under its language's fixed name into a fresh folder, compile it there in the
sandbox with the compiler's own limits, and publish the folder in the cache; a second build of the same source
with the same compiler and command is a cache hit and runs no compiler.

A compiler's limits: CPU time and memory (the table's ``compile_time_limit`` and ``compile_memory_mib``),
wall-clock time (``wall_limit``, :data:`DEFAULT_WALL_LIMIT`) and the size of what it writes
(``max_output_bytes``, :data:`DEFAULT_OUTPUT_BYTES`).  It runs in a compiler's box
(:class:`~mjarena.sandbox.Box` with ``build_output``): nothing in ``/dev`` or ``/proc`` can block it or feed it
forever, and what it writes lands in a capped tmpfs before it is copied into the cache.  Running out of time or
room is the source's doing: a ``compile_error`` kept in the cache like any other (a verdict made under smaller
limits than the current ones is not reused), so that sending the same source again costs nothing.

A compiler's time is its own, as a bot's is (RULINGS.md, "Limits per answer"): the wall-clock limit moves by the
time its processes waited for a CPU (:func:`~mjarena.sandbox.run`), up to three times the limit, and the compiler
runs at a lower priority (:data:`NICE`).  A compile that ran out of time while the machine was busy (it had less
CPU time than nine tenths of its limit, and some task waited for a CPU over :data:`BUSY_SHARE` of the compile's
time, by the kernel's pressure figure, or the compiler's own processes did) is the judge's failure, never the
source's verdict: :class:`BuildBusy`, nothing kept, built again at the next try.  A compiler that had its time in
CPU and still did not finish is the source's doing, however busy the machine.

The user's file name never reaches a command line (uploaded sources are hostile): it appears only in messages,
where it replaces the fixed name the compiler saw, and the build folder's path is removed from them.  The cache
keeps a message in terms of the fixed name, and each build's result puts its own source's name in
(:func:`named_message`): a cache hit never shows the name of the file that was compiled first.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import stat
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mjarena.builds.cache import WORK, cache_key, cache_root, discard, new_entry, publish, read_entry
from mjarena.builds.errors import BuildBusy, BuildError
from mjarena.builds.table import Toolchain, toolchain_for
from mjarena.sandbox import RunResult, Sandbox, SandboxUnavailable, check, run
from mjarena.sandbox.accounting import machine_waited
from mjarena.sandbox.box import BOX_ENV

__all__ = ["DEFAULT_MEMORY_MIB", "DEFAULT_OUTPUT_BYTES", "DEFAULT_WALL_LIMIT", "MAX_SOURCE_BYTES", "BuildResult",
           "build", "cache_key_of", "compiler_version", "named_message", "tidy_message"]

MAX_SOURCE_BYTES = 1 << 20
"""The largest source accepted (1 MiB)."""
DEFAULT_MEMORY_MIB = 256
"""The memory limit put into ``{memory_mib}`` of :attr:`BuildResult.run_argv` (the judge's default)."""
DEFAULT_WALL_LIMIT = 10.0
"""Seconds of wall-clock time a compiler may take (besides the table's CPU limit, ``compile_time_limit``)."""
DEFAULT_OUTPUT_BYTES = 16 << 20
"""What a compiler may write into its build folder (16 MiB, counted by
:func:`~mjarena.sandbox.build_output.output_cost`: 4 KiB blocks, one more per file)."""
_ROOM_WORDS = (": No space left on device", ": File too large", "File size limit exceeded")
"""What a compiler says when it could not write (ENOSPC, EFBIG, SIGXFSZ): the build is over its cap."""
NICE = 10
"""How much lower than the judge's a compiler's priority is: a compile never slows a game's bots down."""
BUSY_SHARE = 0.25
"""A compile that ran out of time while something waited for a CPU for this share of its time: a busy machine."""
_QUOTED = re.compile(r"^\s*\d*\s*\|")  # a line of the source that GCC quotes under its message
MESSAGE_LINES = 60
MESSAGE_CHARS = 6000
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_versions: dict[tuple[str, ...], str] = {}
_working: dict[tuple[Toolchain, Sandbox], str | None] = {}


@dataclass(frozen=True)
class BuildResult:
    """What :func:`build` made. ``status`` is ``ok`` or ``compile_error``; ``run_argv`` (empty unless ok) runs
    the bot, with ``readable`` (the build folder) visible to it; ``cached`` says the build came from the cache;
    ``seconds`` is the time this call took; ``message`` the compiler's complaint, trimmed and in terms of the
    source's own name; ``time_factor`` and ``memory_mib`` the language's limits from the table (used with
    per-language limits on)."""

    status: str
    language: str
    source: str
    run_argv: list[str]
    readable: list[str]
    cached: bool
    seconds: float
    message: str
    time_factor: float = 1.0
    memory_mib: int | None = None
    run_template: list[str] = field(default_factory=list, repr=False)
    key: str = ""
    """The build's cache key (its folder's name in the cache); empty when nothing was cached."""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def command(self, memory_mib: int) -> list[str]:
        """The run command for a bot limited to ``memory_mib`` (what ``{memory_mib}`` stands for)."""
        return [word.replace("{memory_mib}", str(memory_mib)) for word in self.run_template]

    def to_json(self) -> dict[str, Any]:
        """The fields as JSON (``run`` is the command as one shell-quoted line)."""
        import shlex

        data = asdict(self)
        data.pop("run_template")
        data["run"] = shlex.join(self.run_argv)
        data["seconds"] = round(self.seconds, 3)
        return data


if sys.platform == "win32":  # neither flag there (nor a FIFO to wait on; descriptors are not inherited anyway)
    _SOURCE_FLAGS = os.O_RDONLY
else:
    _SOURCE_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC


def read_source(path: Path) -> bytes:
    """The bytes of a source file: a regular file of at most :data:`MAX_SOURCE_BYTES` (never waits on a FIFO)."""
    try:
        fd = os.open(path, _SOURCE_FLAGS)
    except FileNotFoundError:
        raise BuildError(f"{path}: no such file") from None
    except OSError as error:
        raise BuildError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise BuildError(f"{path}: not a regular file")
        if info.st_size > MAX_SOURCE_BYTES:
            raise BuildError(f"{path}: {info.st_size} bytes; a source may have at most {MAX_SOURCE_BYTES} bytes")
        chunks = []
        size = 0
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_SOURCE_BYTES:
                raise BuildError(f"{path}: more than {MAX_SOURCE_BYTES} bytes; a source may have no more")
    except OSError as error:
        raise BuildError(f"{path}: cannot read: {error.strerror or error}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def shown_name(path: Path) -> str:
    """The source's name as messages show it: its last component, control characters escaped.

    >>> shown_name(Path("bots/my\\nbot.cpp"))
    'my\\\\nbot.cpp'
    """
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in path.name)


def tidy_message(text: str, *, folder: str | Path, source_name: str, shown: str) -> str:
    """A compiler's output as the user should see it: no colour codes, the build folder's path removed, the
    fixed source name replaced by the user's, at most :data:`MESSAGE_LINES` lines and :data:`MESSAGE_CHARS`.

    >>> tidy_message("/tmp/x/work/bot.cpp:1:1: error: oops\\n", folder="/tmp/x/work", source_name="bot.cpp",
    ...              shown="mine.cpp")
    'mine.cpp:1:1: error: oops'
    """
    text = _ANSI.sub("", text.replace("\r\n", "\n"))
    folder = str(folder)
    text = text.replace(folder + "/", "").replace(folder, ".")
    lines = text.strip("\n").split("\n")
    if len(lines) > MESSAGE_LINES:
        lines = [*lines[:MESSAGE_LINES], f"... ({len(lines) - MESSAGE_LINES} more lines)"]
    return named_message("\n".join(line.rstrip() for line in lines), source_name=source_name, shown=shown)


def named_message(text: str, *, source_name: str, shown: str) -> str:
    """A message kept in terms of the compiler's fixed ``source_name``, with the user's ``shown`` name in its
    place, at most :data:`MESSAGE_CHARS` characters.

    >>> named_message("bot.cpp:1:1: error: in bot.cpp.o", source_name="bot.cpp", shown="plan_B.cpp")
    'plan_B.cpp:1:1: error: in plan_B.cpp.o'
    """
    text = re.sub(rf"(?<![\w.]){re.escape(source_name)}(?![\w])", lambda _: shown, text)
    if len(text) > MESSAGE_CHARS:
        text = text[:MESSAGE_CHARS].rstrip() + f"\n... ({len(text) - MESSAGE_CHARS} more characters)"
    return text


def _program(toolchain: Toolchain, program: str) -> str:
    """An absolute path for a toolchain program: found on the box's PATH first (the system's toolchains, not a
    user's shims), then on the judge's; :class:`BuildError` naming the Debian package when it is missing."""
    if "/" in program:
        if os.access(program, os.X_OK) and os.path.isfile(program):
            return program
        found = None
    else:
        found = shutil.which(program, path=BOX_ENV["PATH"]) or shutil.which(program)
    if found is None:
        package = toolchain.package
        raise BuildError(
            f"{toolchain.language} needs {program}, which is not installed here: install the Debian package "
            f"{package} (apt-get install {package}), or run 'make toolchains' as root"
        )
    return found


def _resolved(toolchain: Toolchain, argv: tuple[str, ...]) -> list[str]:
    if not argv or argv[0].startswith("{dir}"):
        return list(argv)
    return [_program(toolchain, argv[0]), *argv[1:]]


def compiler_version(toolchain: Toolchain) -> str:
    """The output of the toolchain's version command (asked once per process and command)."""
    argv = tuple(_resolved(toolchain, toolchain.version))
    if argv not in _versions:
        result = run(argv, sandbox=Sandbox(kind="none"), time_limit=30.0, memory_mib=2048, output_limit=1 << 16)
        text = (result.stdout + result.stderr).decode("utf-8", "replace").strip()
        if not result.ok:
            raise BuildError(f"{toolchain.language}: {' '.join(argv)} failed ({result.status}): {text[:200]}")
        _versions[argv] = text
    return _versions[argv]


def _encoding_problem(data: bytes, encoding: str) -> str | None:
    """Why ``data`` does not decode as ``encoding`` (the line and the byte), or None."""
    try:
        data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        return f"line {line}: byte 0x{data[error.start]:02x} is not {encoding.upper()} ({error.reason})"
    return None


@dataclass(frozen=True)
class _Limits:
    """A compile's limits besides the table's: wall-clock seconds and bytes of output."""

    wall: float
    output: int


@dataclass(frozen=True)
class _Verdict:
    """What one compiler run came to: ``status``, the raw ``message``, whether it may be ``cacheable``, and the
    ``limit`` it broke (kept with the cached verdict, which holds only under limits no larger)."""

    status: str
    message: str
    cacheable: bool = True
    limit: dict[str, Any] | None = None
    busy: bool = False


KEEP_NOTE = "this verdict is kept for this source: change the source to try again"


def _mib(size: int) -> str:
    """``size`` in MiB, as messages say it.

    >>> _mib(16 << 20), _mib(3 << 19)
    ('16 MiB', '1.5 MiB')
    """
    return f"{size / (1 << 20):g} MiB"


def _out_of_room(result: RunResult, output: str) -> bool:
    """Whether the compiler failed because it could not write: its build folder or its /tmp was full, or a file
    passed the box's file-size limit (what it says of it, not a line of the source that it quotes).

    >>> failed = RunResult("crash", 1, 0.1, 0.1, 0, b"", b"")
    >>> _out_of_room(failed, "/usr/bin/ld: final link failed: No space left on device")
    True
    >>> _out_of_room(failed, "x.c:1:1: error: expected ';'\\n    1 | int a // : No space left on device")
    False
    """
    if result.exit_code == 0:
        return False
    said = "\n".join(line for line in output.splitlines() if not _QUOTED.match(line))
    too_big = getattr(signal, "SIGXFSZ", None)  # POSIX
    return (too_big is not None and result.exit_code == -too_big) or any(words in said for words in _ROOM_WORDS)


def _compile_verdict(toolchain: Toolchain, result: RunResult, work: Path, limits: _Limits, sandbox: Sandbox,
                     waited: float = 0.0) -> _Verdict:
    """The verdict of one compiler run; ``waited``: seconds during which the machine had a task waiting for a CPU
    meanwhile (besides the compiler's own, ``result.queued``)."""
    output = (result.stderr + result.stdout).decode("utf-8", "replace")
    cpu = toolchain.compile_time_limit
    starved = result.cpu < min(cpu, 0.9 * limits.wall)  # it had less CPU than its own time allowed it
    if result.status == "timeout" and starved and max(waited, result.queued) > BUSY_SHARE * result.wall:
        return _Verdict("compile_error", f"the compiler ran out of time while the judge's machine was busy (a "
                        f"task waited for a CPU {max(waited, result.queued):.1f} s of the compile's "
                        f"{result.wall:.1f} s): the judge's failure, not the source's; nothing was kept, it is "
                        f"built again at the next try", cacheable=False, busy=True)
    if result.status == "timeout":
        which = "CPU" if result.cpu >= cpu else "wall-clock"
        return _Verdict("compile_error", f"the compiler ran out of time: a compile may take {limits.wall:g} s of "
                        f"wall-clock time and {cpu:g} s of CPU time, and this one passed the {which} limit; "
                        f"{KEEP_NOTE}\n{output}", limit={"kind": "time", "wall": limits.wall, "cpu": cpu})
    if result.status == "memory":
        return _Verdict("compile_error", f"the compiler used more than {toolchain.compile_memory_mib} MiB\n{output}",
                        cacheable=False)
    if result.status == "disk_limit" or _out_of_room(result, output):
        return _Verdict("compile_error", f"the build is too large: what the compiler writes may take at most "
                        f"{_mib(limits.output)} in the build folder (and {sandbox.tmp_mib} MiB in /tmp, "
                        f"{sandbox.file_size_mib} MiB a file); {KEEP_NOTE}\n{output}",
                        limit={"kind": "output", "bytes": limits.output})
    if result.status == "output_limit":
        return _Verdict("compile_error", output)
    if result.exit_code != 0:
        clean_exit = result.exit_code is not None and result.exit_code > 0
        return _Verdict("compile_error", output or f"the compiler failed (exit code {result.exit_code})", clean_exit)
    if toolchain.expect is not None and not (work / toolchain.expect).is_file():
        return _Verdict("compile_error", toolchain.expect_message or f"the compiler made no {toolchain.expect}")
    return _Verdict("ok", "")


def _holds(meta: dict[str, Any], toolchain: Toolchain, limits: _Limits) -> bool:
    """Whether a cached verdict holds under these limits: one that broke a limit holds when the limit is no
    larger now (a timeout under 5 s is built again with 10 s).

    >>> cpp = toolchain_for("bot.cpp")
    >>> _holds({"limit": {"kind": "time", "wall": 10.0, "cpu": 60.0}}, cpp, _Limits(10.0, 1 << 24))
    True
    >>> _holds({"limit": {"kind": "output", "bytes": 1 << 20}}, cpp, _Limits(10.0, 1 << 24))
    False
    """
    limit = meta.get("limit")
    if not isinstance(limit, dict):
        return True
    try:
        if limit.get("kind") == "time":
            return limits.wall <= float(limit["wall"]) and toolchain.compile_time_limit <= float(limit["cpu"])
        if limit.get("kind") == "output":
            return limits.output <= int(limit["bytes"])
    except (KeyError, TypeError, ValueError):
        return False
    return True


def _own(folder: Path) -> None:
    """Give a folder written in the box back to the judge's user (a root judge's box runs as another uid)."""
    if sys.platform == "win32":  # no uids (and no build: build() refuses off Linux)
        return
    if os.getuid() != 0:
        return
    for parent, dirs, files in os.walk(folder):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(parent, name), 0, 0)
    os.chown(folder, 0, 0)


def _compile(toolchain: Toolchain, data: bytes, folder: Path, sandbox: Sandbox, limits: _Limits,
             ) -> tuple[_Verdict, float]:
    """Compile ``data`` in ``folder``'s ``work/``: the verdict and the seconds it took.  A failed build keeps
    nothing in ``work/`` (its verdict is all the cache needs)."""
    work = folder / WORK
    (work / toolchain.source_name).write_bytes(data)
    os.chmod(work / toolchain.source_name, 0o644)  # a root judge's box runs as another uid
    if not toolchain.compile:
        return _Verdict("ok", ""), 0.0
    argv = _resolved(toolchain, toolchain.compile)
    before = machine_waited()
    try:
        result = run(argv, sandbox=sandbox, cwd=work, time_limit=toolchain.compile_time_limit,
                     wall_limit=limits.wall, memory_mib=toolchain.compile_memory_mib, build_output=limits.output,
                     nice=NICE)
    finally:
        _own(folder)
    after = machine_waited()
    waited = after - before if before is not None and after is not None else 0.0
    verdict = _compile_verdict(toolchain, result, work, limits, sandbox, waited)
    if verdict.status != "ok":
        _empty(work)
    return verdict, result.wall


def _empty(folder: Path) -> None:
    """Remove everything in ``folder`` (never following a link out of it)."""
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(entry.path)


def toolchain_problem(toolchain: Toolchain, sandbox: Sandbox, root: Path, limits: _Limits) -> str | None:
    """Why the toolchain cannot compile even its ``sample`` in ``sandbox`` (None: it can, or there is no sample);
    checked once per process, and only after a source failed to compile."""
    if toolchain.sample is None:
        return None
    if (toolchain, sandbox) not in _working:
        folder = new_entry(root)
        try:
            verdict, _ = _compile(toolchain, toolchain.sample.encode(), folder, sandbox, limits)
        finally:
            discard(folder)
        shown = f"sample{os.path.splitext(toolchain.source_name)[1]}"
        message = tidy_message(verdict.message, folder=folder / WORK, source_name=toolchain.source_name, shown=shown)
        if verdict.busy or (verdict.limit is not None and verdict.limit["kind"] == "time"):
            return f"{message}\n(the machine may be too busy now: nothing was kept, try again)"  # not remembered
        _working[toolchain, sandbox] = None if verdict.status == "ok" else message or "it failed without a message"
    return _working[toolchain, sandbox]


def _key(toolchain: Toolchain, data: bytes, scope: str = "") -> str:
    """The cache key of a build of ``data`` with ``toolchain`` in ``scope`` (its compiler's version asked once)."""
    compile_argv = _resolved(toolchain, toolchain.compile)
    version = compiler_version(toolchain)
    return cache_key(toolchain.language, data, version, compile_argv, toolchain.source_name, toolchain.expect,
                     scope=scope)


def cache_key_of(source: str | os.PathLike[str], toolchains: str | os.PathLike[str] | None = None, *,
                 scope: str = "") -> str:
    """The cache key that :func:`build` gives ``source`` (in ``scope``) here and now (the name of its folder in the
    cache), without compiling anything; :class:`BuildError` as :func:`build` would say it."""
    path = Path(source)
    toolchain = toolchain_for(path, toolchains)
    return _key(toolchain, read_source(path), scope)


def build(
    source: str | os.PathLike[str],
    *,
    sandbox: Sandbox | None = None,
    toolchains: str | os.PathLike[str] | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    wall_limit: float | None = None,
    max_output_bytes: int | None = None,
    scope: str = "",
) -> BuildResult:
    """Build ``source`` (its suffix picks the language in the toolchain table, laid over by ``toolchains``),
    compiling in ``sandbox`` (the default :class:`~mjarena.sandbox.Sandbox`, bwrap, when None), cached in
    ``cache_dir`` (see :func:`~mjarena.builds.cache.cache_root`) under ``scope`` (builds of another scope are
    never reused), within ``wall_limit`` seconds of wall-clock time (:data:`DEFAULT_WALL_LIMIT`) and
    ``max_output_bytes`` of output (:data:`DEFAULT_OUTPUT_BYTES`).

    A source the compiler rejects gives ``status == "compile_error"`` and the message (so does one whose compile
    runs out of time or passes the output cap: cached too); :class:`BuildError` when it cannot be built here at
    all (no such file, too big, unknown suffix, toolchain or sandbox missing), :class:`BuildBusy` when its compile
    ran out of time on a busy machine (nothing kept: try again).
    """
    start = time.monotonic()
    limits = _Limits(DEFAULT_WALL_LIMIT if wall_limit is None else float(wall_limit),
                     DEFAULT_OUTPUT_BYTES if max_output_bytes is None else int(max_output_bytes))
    if not limits.wall > 0 or limits.output < 1:
        raise BuildError(f"a compile needs a positive wall limit and output cap, not {limits.wall:g} s and "
                         f"{limits.output} bytes")
    path = Path(source)
    if not sys.platform.startswith("linux"):
        raise BuildError(f"{path}: builds need Linux for now, this is {sys.platform}: the contest's compilers run "
                         "in its sandbox (README, Platforms)")
    toolchain = toolchain_for(path, toolchains)
    data = read_source(path)
    shown = shown_name(path)

    def result(status: str, kept: str, cached: bool, folder: Path | None, key: str = "") -> BuildResult:
        message = named_message(kept, source_name=toolchain.source_name, shown=shown) if kept else ""
        template = [word.replace("{dir}", str(folder / WORK)) for word in _resolved(toolchain, toolchain.run)] \
            if status == "ok" and folder is not None else []
        ok = bool(template)
        return BuildResult(
            status=status, language=toolchain.language, source=str(path), cached=cached,
            run_argv=[w.replace("{memory_mib}", str(toolchain.memory_mib or DEFAULT_MEMORY_MIB)) for w in template],
            readable=[str(folder / WORK)] if ok and folder is not None else [], seconds=time.monotonic() - start,
            message=message, time_factor=toolchain.time_factor, memory_mib=toolchain.memory_mib,
            run_template=template, key=key,
        )

    if toolchain.encoding is not None:
        problem = _encoding_problem(data, toolchain.encoding)
        if problem is not None:
            return result("compile_error", f"{toolchain.source_name}: {problem}", False, None)
    _resolved(toolchain, toolchain.run)  # a missing interpreter is said before anything is compiled
    key = _key(toolchain, data, scope)
    version = compiler_version(toolchain)
    root = cache_root(cache_dir)
    meta = read_entry(root, key)
    if meta is not None and _holds(meta, toolchain, limits):
        return result(meta["status"], meta.get("message", ""), True, root / key, key)
    if meta is not None:  # made under smaller limits than these: build it again
        discard(root / key)
    sandbox = sandbox if sandbox is not None else Sandbox()
    try:
        check(sandbox)
    except SandboxUnavailable as error:
        raise BuildError(f"{path}: cannot compile in the sandbox: {error}") from None
    folder = new_entry(root)
    try:
        verdict, seconds = _compile(toolchain, data, folder, sandbox, limits)
    except BaseException:
        discard(folder)
        raise
    raw = verdict.message  # kept in terms of the fixed name: result() puts this source's own name in
    message = tidy_message(raw, folder=folder / WORK, source_name=toolchain.source_name,
                           shown=toolchain.source_name) if raw else ""
    if verdict.busy:
        discard(folder)
        raise BuildBusy(f"{path}: {message}")
    if verdict.status != "ok":
        broken = toolchain_problem(toolchain, sandbox, root, limits)
        if broken is not None:
            discard(folder)
            raise BuildError(f"{path}: the {toolchain.language} toolchain does not work in the {sandbox.kind} "
                             f"sandbox: it cannot compile a minimal program either:\n{broken}")
    if not verdict.cacheable:
        discard(folder)
        return result(verdict.status, message, False, None)
    entry = {"status": verdict.status, "language": toolchain.language, "message": message,
             "compile_seconds": round(seconds, 3), "compiler": version.splitlines()[0]}
    if verdict.limit is not None:
        entry["limit"] = verdict.limit
    meta = publish(root, key, folder, entry)
    return result(meta["status"], meta.get("message", ""), False, root / key, key)
