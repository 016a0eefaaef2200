"""Builds that travel by content: a build's folder packed into one parcel on the judge's machine, and unpacked on
another machine (a cluster node without the contest folder) into a node-local cache keyed by the parcel's hash.

A parcel is the folder's files in a canonical form (sorted paths, each file's bytes and whether it is executable;
no owner, no time), so the same files always give the same bytes and the same sha256, the parcel's *digest*.
The judge sends the digest with each game; a node unpacks a parcel only if its bytes hash to the digest, into a
private ``.unpacking-*`` folder published whole by one rename to ``ROOT/DIGEST`` (as :mod:`mjarena.builds.cache`
publishes builds: a reader sees a whole folder or none; two workers unpacking at once both use the first
rename), and before every game checks the published folder again against its digest (:func:`verify`): a folder
that was changed or damaged since is unpacked afresh, never run.

Only regular files and folders travel; a link, a device or a path that climbs out is refused
(:class:`ShippingError`).  :func:`held_back` names the sources that stay on the judge's machine: a compiled
bot's source, which its run command does not use.

The cache is bounded (:func:`trim`): a game plays from builds it *holds* (:func:`held`: a shared lock on each
folder for the whole game, and the folder's time of last use set), and after every game's builds are held the
least recently used builds are removed until at most :data:`NODE_CACHE_BUILDS` builds and
:data:`NODE_CACHE_MIB` MiB (``$MJARENA_SHIPPED_MIB``) are left; a build that a game holds is never removed (its
lock cannot be taken), and one removed is renamed away whole under an exclusive lock, so a game that was about to
hold it finds it gone and unpacks it afresh.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as there:
...     build = Path(there, "build"); build.mkdir(); _ = (build / "bot").write_bytes(b"\\x7fELF")
...     parcel = pack(build)
...     unpacked = materialise(Path(there, "node"), parcel.digest, parcel.data)
...     (unpacked / "bot").read_bytes(), unpacked.name == parcel.digest, verify(unpacked, parcel.digest)
(b'\\x7fELF', True, True)
>>> held_back(["bot.cpp", "bot"], ["/b/KEY/work/bot"]), held_back(["bot.py"], ["python3", "/b/KEY/work/bot.py"])
(['bot.cpp'], [])
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import shutil
import stat
import struct
import sys
import tempfile
import time
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MAX_PARCEL_BYTES", "NODE_CACHE_BUILDS", "NODE_CACHE_MIB", "Parcel", "ShippingError", "held", "held_back",
           "materialise", "node_cache", "pack", "trim", "verify"]

MAGIC = b"mjarena-parcel-1\n"
MAX_PARCEL_BYTES = 256 << 20
"""The most bytes a build's files may take in a parcel (unpacked): a build is a program, not a data set."""
NODE_CACHE_BUILDS = 500
"""The most builds a node's cache keeps (the least recently used beyond are removed by :func:`trim`)."""
NODE_CACHE_MIB = 2048
"""The most MiB of builds a node's cache keeps unless ``$MJARENA_SHIPPED_MIB`` says otherwise (:func:`trim`)."""
STALE_UNPACKING_SECONDS = 600.0
"""An unpacking folder older than this was left by a worker that died while unpacking: :func:`trim` removes it."""
_UNPACKING = ".unpacking-"
_ENTRY = struct.Struct(">cBIQ")  # kind (d/f), executable, path length, data length


class ShippingError(Exception):
    """A build folder that cannot be packed, or a parcel that cannot be unpacked (damaged, wrong digest)."""


@dataclass(frozen=True)
class Parcel:
    """A packed build folder: ``digest`` (sha256 of the canonical bytes) and ``data`` (those bytes, compressed)."""

    digest: str
    data: bytes


def held_back(names: Iterable[str], argv: Sequence[str]) -> list[str]:
    """Of the file ``names`` in a build folder, the sources (by suffix, :data:`mjarena.builds.SOURCE_SUFFIXES`)
    that the run command ``argv`` does not name: they stay on the judge's machine."""
    from mjarena.builds.table import SOURCE_SUFFIXES

    return sorted(name for name in names if Path(name).suffix.lower() in SOURCE_SUFFIXES
                  and not any(word == name or word.endswith("/" + name) for word in argv))


def _entries(folder: Path, leave_out: Iterable[str] = ()) -> Iterator[tuple[str, Path, os.stat_result]]:
    """``(relative path, path, lstat)`` of everything under ``folder`` in sorted order, without ``leave_out``
    (paths relative to the folder)."""
    skipped = set(leave_out)
    stack = [""]
    while stack:
        relative = stack.pop()
        base = folder / relative if relative else folder
        try:
            names = sorted(os.listdir(base), reverse=True)
        except OSError as error:
            raise ShippingError(f"{base}: cannot list the build: {error.strerror or error}") from None
        for name in names:
            inner = f"{relative}/{name}" if relative else name
            if inner in skipped:
                continue
            path = base / name
            try:
                info = os.lstat(path)
            except OSError as error:
                raise ShippingError(f"{path}: cannot read the build: {error.strerror or error}") from None
            if stat.S_ISDIR(info.st_mode):
                stack.append(inner)
            elif not stat.S_ISREG(info.st_mode):
                raise ShippingError(f"{path}: only files and folders travel, not this")
            yield inner, path, info
    # folders come back after their files: sorted below


def _canonical(folder: Path, leave_out: Iterable[str] = ()) -> bytes:
    entries = sorted(_entries(folder, leave_out), key=lambda entry: entry[0])
    parts = [MAGIC]
    total = 0
    for relative, path, info in entries:
        name = relative.encode("utf-8", "surrogateescape")
        if stat.S_ISDIR(info.st_mode):
            parts += [_ENTRY.pack(b"d", 0, len(name), 0), name]
            continue
        try:
            data = path.read_bytes()
        except OSError as error:
            raise ShippingError(f"{path}: cannot read the build: {error.strerror or error}") from None
        total += len(data)
        if total > MAX_PARCEL_BYTES:
            raise ShippingError(f"{folder}: the build has more than {MAX_PARCEL_BYTES >> 20} MiB of files")
        parts += [_ENTRY.pack(b"f", 1 if info.st_mode & 0o111 else 0, len(name), len(data)), name, data]
    return b"".join(parts)


def pack(folder: str | os.PathLike[str], leave_out: Iterable[str] = ()) -> Parcel:
    """The parcel of ``folder``'s files (without ``leave_out``, paths relative to it); :class:`ShippingError`
    when it holds anything but files and folders, or cannot be read."""
    canonical = _canonical(Path(folder), leave_out)
    return Parcel(hashlib.sha256(canonical).hexdigest(), zlib.compress(canonical, 1))


def verify(folder: str | os.PathLike[str], digest: str) -> bool:
    """Whether ``folder`` holds exactly the files of the parcel ``digest`` (False when it is damaged or gone)."""
    try:
        return hashlib.sha256(_canonical(Path(folder))).hexdigest() == digest
    except ShippingError:
        return False


def _parse(canonical: bytes) -> Iterator[tuple[str, str, int, bytes]]:
    """``(kind, relative path, executable, data)`` of each entry; :class:`ShippingError` on anything malformed."""
    if not canonical.startswith(MAGIC):
        raise ShippingError("not a build parcel")
    offset = len(MAGIC)
    while offset < len(canonical):
        if offset + _ENTRY.size > len(canonical):
            raise ShippingError("a damaged build parcel (cut short)")
        kind, executable, name_size, data_size = _ENTRY.unpack_from(canonical, offset)
        offset += _ENTRY.size
        end = offset + name_size + data_size
        if end > len(canonical) or kind not in (b"d", b"f"):
            raise ShippingError("a damaged build parcel")
        name = canonical[offset:offset + name_size].decode("utf-8", "surrogateescape")
        parts = name.split("/")
        if not name or name.startswith("/") or any(part in ("", ".", "..") for part in parts) or "\0" in name:
            raise ShippingError(f"a build parcel with a path that is not inside it: {name!r}")
        yield kind.decode(), name, executable, canonical[offset + name_size:end]
        offset = end


def materialise(root: str | os.PathLike[str], digest: str, data: bytes) -> Path:
    """The folder of parcel ``digest`` in the node-local cache ``root`` (made when missing): the one there if it
    still holds exactly the parcel's files, else ``data`` (the parcel's compressed bytes) unpacked afresh and
    published by one rename.  :class:`ShippingError` when ``data`` does not hash to ``digest``."""
    root = Path(root)
    if len(digest) != 64 or any(char not in "0123456789abcdef" for char in digest):
        raise ShippingError(f"not a parcel digest: {digest!r}")
    target = root / digest
    if target.is_dir() and verify(target, digest):
        return target
    try:
        canonical = zlib.decompressobj().decompress(data, MAX_PARCEL_BYTES + (1 << 20))
    except zlib.error as error:
        raise ShippingError(f"a damaged build parcel: {error}") from None
    if hashlib.sha256(canonical).hexdigest() != digest:
        raise ShippingError(f"the build parcel does not match its digest {digest[:12]}…")
    try:
        root.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(dir=root, prefix=_UNPACKING))
    except OSError as error:
        raise ShippingError(f"{root}: cannot make the node's build cache: {error.strerror or error}") from None
    try:
        for kind, name, executable, content in _parse(canonical):
            path = folder / name
            if kind == "d":
                path.mkdir(mode=0o755)
            else:
                path.write_bytes(content)
                path.chmod(0o755 if executable else 0o644)
        os.chmod(folder, 0o755)
        if not verify(folder, digest):  # what was written is what was sent
            raise ShippingError(f"{root}: the unpacked build does not match its digest {digest[:12]}…")
        _publish(folder, target)
    except OSError as error:
        raise ShippingError(f"{root}: cannot unpack a build: {error.strerror or error}") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)  # nothing left when it was published
    return target


def _publish(folder: Path, target: Path) -> None:
    """Rename ``folder`` to ``target``; a damaged folder in the way is moved aside first; a good one published by
    another worker meanwhile is kept (ours dropped by the caller)."""
    for _ in range(2):
        try:
            os.rename(folder, target)
            return
        except OSError as error:
            if error.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                raise
        digest = target.name
        if verify(target, digest):
            return
        away = Path(tempfile.mkdtemp(dir=target.parent, prefix=_UNPACKING))
        with contextlib.suppress(OSError):
            os.rename(target, away / digest)
        shutil.rmtree(away, ignore_errors=True)
    raise ShippingError(f"{target}: cannot publish the unpacked build")


def _open_folder(path: Path) -> int | None:
    """A file descriptor of folder ``path`` (for its lock), or None when it is gone."""
    if sys.platform == "win32":
        return None
    try:
        return os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    except (FileNotFoundError, NotADirectoryError):
        return None


@contextlib.contextmanager
def held(root: str | os.PathLike[str], digest: str, data: bytes) -> Iterator[Path]:
    """The folder of parcel ``digest`` in the cache ``root``, as :func:`materialise` gives it, held while the
    ``with`` block runs: a shared lock on the folder, which :func:`trim` never removes while any game holds it;
    its time of last use is set now.  A folder removed between its check and the lock is unpacked again.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as there:
    ...     build = Path(there, "build"); build.mkdir(); _ = (build / "bot").write_bytes(b"1")
    ...     parcel = pack(build)
    ...     with held(Path(there, "node"), parcel.digest, parcel.data) as folder:
    ...         trim(Path(there, "node"), keep_builds=0)  # the build a game holds is kept
    ...     trim(Path(there, "node"), keep_builds=0) == [parcel.digest]  # once no game holds it, it can go
    []
    True
    """
    if sys.platform == "win32":
        raise ShippingError("a node's build cache needs a POSIX system (its locks)")
    import fcntl

    for _ in range(3):
        target = materialise(root, digest, data)
        handle = _open_folder(target)
        if handle is None:  # removed by trim meanwhile
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_SH)
            try:
                same = os.stat(target).st_ino == os.fstat(handle).st_ino
            except FileNotFoundError:
                same = False
            if not same:  # trim renamed it away before we held it
                continue
            with contextlib.suppress(OSError):
                os.utime(target)
            yield target
            return
        finally:
            os.close(handle)
    raise ShippingError(f"{root}: the build {digest[:12]}… was removed each time it was unpacked")


def _size(folder: Path) -> int:
    """The bytes of the files under ``folder`` (0 for what cannot be read)."""
    total = 0
    for base, _folders, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(base, name)).st_size
    return total


def _cache_bytes() -> int:
    """:data:`NODE_CACHE_MIB`, or ``$MJARENA_SHIPPED_MIB`` when it is a whole number, in bytes."""
    raw = os.environ.get("MJARENA_SHIPPED_MIB", "")
    return (int(raw) if raw.isdigit() else NODE_CACHE_MIB) << 20


def _remove_unless_held(folder: Path) -> bool:
    """Remove a build folder unless a game holds it (taking its lock exclusively, then renaming it away whole);
    whether it was removed."""
    if sys.platform == "win32":
        return False
    import fcntl

    handle = _open_folder(folder)
    if handle is None:
        return False
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # a game plays from it
        away = Path(tempfile.mkdtemp(dir=folder.parent, prefix=_UNPACKING))
        try:
            os.rename(folder, away / folder.name)
        except OSError:
            shutil.rmtree(away, ignore_errors=True)
            return False
    finally:
        os.close(handle)
    shutil.rmtree(away, ignore_errors=True)
    return True


def trim(root: str | os.PathLike[str], *, keep_builds: int = NODE_CACHE_BUILDS, keep_bytes: int | None = None,
         now: float | None = None) -> list[str]:
    """Bound the node's cache ``root``: remove its least recently used builds (by the time :func:`held` last
    set) until at most ``keep_builds`` builds and ``keep_bytes`` bytes (default: :data:`NODE_CACHE_MIB` MiB, or
    ``$MJARENA_SHIPPED_MIB``) are left, never one a game holds; and the unpacking folders older than
    :data:`STALE_UNPACKING_SECONDS`.  The digests removed, oldest first."""
    if sys.platform == "win32":
        return []
    root = Path(root)
    limit = _cache_bytes() if keep_bytes is None else keep_bytes
    now = time.time() if now is None else now
    builds = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return []
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if entry.name.startswith(_UNPACKING):
            if now - info.st_mtime > STALE_UNPACKING_SECONDS:
                shutil.rmtree(entry.path, ignore_errors=True)
        elif len(entry.name) == 64 and stat.S_ISDIR(info.st_mode):
            builds.append((info.st_mtime, entry.name, _size(Path(entry.path))))
    builds.sort()
    count, total = len(builds), sum(size for *_, size in builds)
    removed = []
    for _used, digest, size in builds:
        if count <= keep_builds and total <= limit:
            break
        if _remove_unless_held(root / digest):
            removed.append(digest)
            count, total = count - 1, total - size
    return removed


def node_cache() -> Path:
    """Where a node keeps the builds it was sent: ``$MJARENA_SHIPPED``, else ``shipped/`` beside the build cache
    (:func:`mjarena.builds.cache.cache_root`'s parent: ``~/.cache/mjarena/shipped``)."""
    if os.environ.get("MJARENA_SHIPPED"):
        return Path(os.environ["MJARENA_SHIPPED"])
    from mjarena.builds.cache import cache_root

    return cache_root().parent / "shipped"
