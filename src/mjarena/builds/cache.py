"""The build cache: one folder per key (the hash of source, compiler version, compile command and scope), published
whole by one rename, so that a reader sees a complete build or none, and two processes that build the same key
at once both end up using the one that was renamed first.

Layout of ``ROOT/KEY/``: ``build.json`` (status, language, message, compile seconds) and ``work/`` (the source
under its fixed name and what the compiler made; the bot runs from there, read-only; empty for a failed build).
Folders being built are ``ROOT/.building-*``, folders being removed ``ROOT/.evicting-*``.

:func:`evict` removes the successful builds that are not to be kept (a contest keeps what is playing or may
play); a build evicted is built again from its source when it is needed.

A build's ``scope`` keeps builds apart that must not be shared: a contest scopes each team's builds to the team,
so that a team never gets a build another team made (whose speed would tell that someone sent the same bytes).

>>> key = cache_key("cpp", b"int main(){}", "g++ 12.2.0", ["g++", "-o", "bot", "bot.cpp"], "bot.cpp")
>>> len(key), key == cache_key("cpp", b"int main(){}", "g++ 12.2.1", ["g++", "-o", "bot", "bot.cpp"], "bot.cpp")
(64, False)
>>> key == cache_key("cpp", b"int main(){}", "g++ 12.2.0", ["g++", "-o", "bot", "bot.cpp"], "bot.cpp", scope="red")
False
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import shutil
import stat
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mjarena.builds.errors import BuildError

__all__ = ["META", "WORK", "cache_key", "cache_root", "disk_bytes", "evict", "new_entry", "publish", "read_entry",
           "remove"]

META = "build.json"
WORK = "work"
_KEY_VERSION = 2
"""2: messages are kept in terms of the compiler's fixed source name (1 kept the first uploader's), and a scope."""
_BUILDING = ".building-"
_EVICTING = ".evicting-"
STALE_SECONDS = 3600.0
"""A ``.building-*`` folder older than this was left by a judge that died while it compiled: :func:`evict`
removes it."""


def cache_root(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """``cache_dir``, else ``$MJARENA_CACHE``, else ``$XDG_CACHE_HOME/mjarena/builds``, else
    ``~/.cache/mjarena/builds``; created when missing."""
    if cache_dir is not None:
        root = Path(cache_dir)
    elif os.environ.get("MJARENA_CACHE"):
        root = Path(os.environ["MJARENA_CACHE"])
    elif os.environ.get("XDG_CACHE_HOME"):
        root = Path(os.environ["XDG_CACHE_HOME"], "mjarena", "builds")
    else:
        root = Path.home() / ".cache" / "mjarena" / "builds"
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BuildError(f"{root}: cannot create the build cache: {error.strerror or error}") from None
    return root.resolve()


def cache_key(language: str, source: bytes, version: str, compile_argv: Sequence[str], source_name: str,
              expect: str | None = None, *, scope: str = "") -> str:
    """The sha256 (hex) of everything that decides what a build makes, and of its ``scope`` (who may share it)."""
    identity = {
        "key_version": _KEY_VERSION, "language": language, "source": hashlib.sha256(source).hexdigest(),
        "compiler": version, "compile": list(compile_argv), "source_name": source_name, "expect": expect,
        "scope": scope,
    }
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def read_entry(root: Path, key: str) -> dict[str, Any] | None:
    """The metadata of the published build ``key``, or None when there is none."""
    try:
        text = (root / key / META).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as error:
        raise BuildError(f"{root / key}: cannot read the cached build: {error.strerror or error}") from None
    try:
        meta = json.loads(text)
    except ValueError:
        meta = None
    if not isinstance(meta, dict) or "status" not in meta:
        raise BuildError(f"{root / key}: a damaged cached build; remove that folder")
    return meta


def new_entry(root: Path) -> Path:
    """A fresh private folder in ``root`` to build in (published by :func:`publish`); its ``work/`` exists."""
    folder = Path(tempfile.mkdtemp(dir=root, prefix=_BUILDING))
    (folder / WORK).mkdir()
    return folder


def publish(root: Path, key: str, folder: Path, meta: Mapping[str, Any]) -> dict[str, Any]:
    """Write ``meta`` into ``folder`` and rename it to ``root/key``; when another process published that key
    first, drop ours and return theirs."""
    path = folder / META
    with open(path, "w", encoding="utf-8") as out:
        json.dump(dict(meta), out, ensure_ascii=False)
        out.flush()
        os.fsync(out.fileno())
    os.chmod(folder, 0o755)
    try:
        os.rename(folder, root / key)
    except OSError as error:
        if error.errno not in (errno.EEXIST, errno.ENOTEMPTY):
            discard(folder)
            raise BuildError(f"{root}: cannot store the build: {error.strerror or error}") from None
        discard(folder)
        theirs = read_entry(root, key)
        if theirs is None:  # pragma: no cover - removed between the rename and the read
            raise BuildError(f"{root / key}: the cached build vanished while being read") from None
        return theirs
    with contextlib.suppress(OSError):  # make the rename itself durable
        fd = os.open(root, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    return dict(meta)


def discard(folder: Path) -> None:
    """Remove a build folder that will not be published."""
    shutil.rmtree(folder, ignore_errors=True)


def disk_bytes(path: str | os.PathLike[str]) -> int:
    """The bytes that ``path`` (a file, or a folder and everything in it) takes on disk, as ``du`` counts them
    (allocated blocks; links not followed); 0 when it does not exist."""
    total = 0
    stack = [os.fspath(path)]
    while stack:
        current = stack.pop()
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            continue
        if sys.platform == "win32":  # no allocated blocks there: the size
            total += info.st_size
        else:
            total += info.st_blocks * 512
        if stat.S_ISDIR(info.st_mode):
            with contextlib.suppress(FileNotFoundError, NotADirectoryError):
                stack += [os.path.join(current, name) for name in os.listdir(current)]
    return total


def evict(root: Path, keep: Iterable[str], *, min_age: float = 0.0, now: float | None = None) -> list[str]:
    """Remove from the cache ``root`` every successful build whose key is not in ``keep`` and that was published
    more than ``min_age`` seconds ago (a build just made may not be recorded as kept yet); failed builds stay
    (their verdict is all they hold, and it spares the next compile), and so do damaged entries.  Each folder
    is first renamed away, so a reader sees a whole build or none.  Also removes ``.building-*`` folders left by
    a judge that died (older than :data:`STALE_SECONDS`).  The keys removed."""
    now = time.time() if now is None else now
    kept = set(keep)
    removed = []
    for entry in os.scandir(root):
        name = entry.name
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except FileNotFoundError:
            continue
        if name.startswith(_EVICTING) or (name.startswith(_BUILDING) and age > STALE_SECONDS):
            discard(Path(entry.path))
            continue
        if name.startswith(".") or name in kept or age <= min_age or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            meta = read_entry(root, name)
        except BuildError:
            continue
        if meta is not None and meta.get("status") == "ok" and remove(root, name):
            removed.append(name)
    return removed


def remove(root: Path, key: str) -> bool:
    """Remove the published build ``key`` (renamed away first, so a reader sees a whole build or none); whether
    it was there."""
    away = Path(tempfile.mkdtemp(dir=root, prefix=_EVICTING))
    try:
        os.rename(root / key, away / key)
    except OSError:
        return False
    finally:
        discard(away)
    return True
