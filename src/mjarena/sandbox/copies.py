"""Each seat slot's own copy of the runtime files its box shows (issue 36): no page of a file shared between the
boxes of one table.

Two bots at one table can talk through the pages of any file that both boxes show: the page cache (a page that
one reads is then read fast by the other) and the count of mappings of a page (``/proc/self/pagemap``'s
"exclusively mapped" bit, ``smaps``' ``Pss``).  A copy of a file is another inode with pages of its own, so a box
of seat slot *n* (0 to 3 at a table) is shown only its own slot's copies of what its program needs, at their
usual paths, instead of the whole shared ``/usr``:

- the program's ELF loader and libraries (``PT_INTERP`` and ``DT_NEEDED``, followed through ``RUNPATH``, the
  loader's cache as ``ldconfig -p`` lists it, and the usual folders): a C, C++ or Pascal bot, Node;
- an interpreter's own tree: Python's standard library (without ``site-packages`` and its ``test`` package) with
  the libraries of its extension modules; a JDK's ``bin``, ``lib``, ``conf`` and ``release``;
- a script: what the interpreter on its ``#!`` line needs;
- the Python that runs the box's init, which every box needs, and the small files of ``/etc`` that boxes show.

A folder holding three or more of those files is shown whole from the slot's copy of it (which holds only what
the slot's programs needed, and their links): one mount rather than one a library.

Copies are made on first use, in a folder of the judge's (``runtime-copies`` next to the build cache unless
:class:`~mjarena.sandbox.Sandbox` names one), one tree per slot, and reused by every later box and judge; a
copy whose source changed (size or time of change) is made again.  Each file is written under a temporary name
and renamed into place, so judges running side by side never see half a copy.

>>> _links("/")
([], '/')
"""

from __future__ import annotations

import contextlib
import errno
import functools
import glob
import hashlib
import os
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable

__all__ = ["SLOTS", "copy_of", "copy_of_once", "default_folder", "elf_closure", "memory_problem", "own_copy",
           "runtime_paths", "slot_binds", "warn_if_on_disk"]

#: Seat slots that get copies of their own: the seats of one table.
SLOTS = 4
#: Parts of an interpreter's tree that no program needs at run time (and that make most of its size).
_SKIP = frozenset({"site-packages", "dist-packages", "test", "idlelib", "tkinter", "turtledemo", "ensurepip",
                   "__phello__", "jmods", "include", "legal", "man", "docs", "demo", "sample", "src.zip"})
_GROUP = 3  # files of one folder from which the slot's copy of the folder is shown whole
_LIBRARY_DIRS = ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib")
_PT_INTERP, _PT_DYNAMIC, _PT_LOAD = 3, 2, 1
_DT_NEEDED, _DT_STRTAB, _DT_STRSZ, _DT_RPATH, _DT_RUNPATH = 1, 5, 10, 15, 29


#: Room the copies need in memory: four slots of every language (about 1.7 GB) and some to spare.
MEMORY_ROOM = 2 << 30
_SHM = "/dev/shm"


@functools.cache
def default_folder() -> str:
    """A folder of the judge's user in ``/dev/shm`` when it is a tmpfs with :data:`MEMORY_ROOM` free where programs
    may run (issue 41: see :func:`memory_problem`); else ``runtime-copies`` beside the build cache's default folder
    (``$XDG_CACHE_HOME/mjarena`` or ``~/.cache/mjarena``), and :func:`warn_if_on_disk` says so once."""
    if memory_problem(_SHM) is None:
        return os.path.join(_SHM, f"mjarena-runtime-copies-{os.getuid()}")
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mjarena", "runtime-copies")


def _mount_of(path: str) -> tuple[str, list[str]]:
    """(file system type, mount options) of the mount that holds ``path`` (the longest mount point over it)."""
    real = os.path.realpath(path)
    best, found = "", ("", [])
    with contextlib.suppress(OSError), open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            fields = line.split()
            if " - " not in line or len(fields) < 6:
                continue
            point = fields[4].replace("\\040", " ")
            after = line.split(" - ", 1)[1].split()
            if _inside(real, point) and len(point) >= len(best):
                best, found = point, (after[0], fields[5].split(","))
    return found


def memory_problem(folder: str) -> str | None:
    """Why the copies in ``folder`` would keep what a box leaves in the kernel's caches (None: they would not).

    On a tmpfs every file's pages and inode are always in memory and a lookup of a missing name leaves nothing
    (its dentry is dropped at once): a later box of the slot times nothing that an earlier one left. On a disk,
    a missing name looked up is remembered (a negative dentry: about 1 µs to find it again, 15 µs for a new one),
    and so are a page read and an inode looked up: a bot can leave bits there for its next box."""
    if not os.path.isdir(folder if os.path.isdir(folder) else os.path.dirname(folder) or "/"):
        return f"{folder} is not there"
    kind, options = _mount_of(folder)
    if kind != "tmpfs":
        return f"{folder} is not on a tmpfs"
    if "noexec" in options:
        return f"{folder} is on a tmpfs mounted noexec"
    info = os.statvfs(folder if os.path.isdir(folder) else os.path.dirname(folder))
    if info.f_bavail * info.f_frsize < MEMORY_ROOM:
        return f"{folder} has less than {MEMORY_ROOM >> 30} GiB free"
    return None


@functools.cache
def warn_if_on_disk(folder: str) -> None:
    """Say once, in one line on stderr, when the copies' folder keeps what a box leaves (:func:`memory_problem`)."""
    problem = memory_problem(folder)
    if problem is not None:
        print(f"mjarena: runtime copies in {folder}: {problem}, so a bot's lookups and reads there can be timed by "
              "its next box (docs/security.md, what a box leaves behind)", file=sys.stderr)


# -- what a program needs ---------------------------------------------------------------------------------------

def _elf(path: str) -> tuple[str | None, list[str], list[str]]:
    """(loader, needed sonames, run paths) of a 64-bit little-endian ELF file; (None, [], []) for anything else.

    >>> _elf("/etc/passwd")
    (None, [], [])
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None, [], []
    try:
        return _elf_fields(fd, path)
    except (OSError, struct.error, ValueError):
        return None, [], []
    finally:
        os.close(fd)


def _elf_fields(fd: int, path: str) -> tuple[str | None, list[str], list[str]]:
    head = os.pread(fd, 64, 0)
    if head[:4] != b"\x7fELF" or len(head) < 64 or head[4] != 2 or head[5] != 1:
        return None, [], []
    phoff, = struct.unpack_from("<Q", head, 32)
    phentsize, phnum = struct.unpack_from("<HH", head, 54)
    table = os.pread(fd, phentsize * phnum, phoff)
    loader = None
    dynamic = None
    loads: list[tuple[int, int, int]] = []
    for index in range(phnum):
        kind, _, offset, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", table, index * phentsize)
        if kind == _PT_INTERP:
            loader = os.pread(fd, filesz, offset).split(b"\0")[0].decode("utf-8", "replace")
        elif kind == _PT_DYNAMIC:
            dynamic = os.pread(fd, min(filesz, 1 << 20), offset)
        elif kind == _PT_LOAD:
            loads.append((vaddr, offset, filesz))
    if dynamic is None:
        return loader, [], []
    entries = []
    strtab = strsz = None
    for at in range(0, len(dynamic) - 15, 16):
        tag, value = struct.unpack_from("<qQ", dynamic, at)
        if tag == 0:
            break
        if tag == _DT_STRTAB:
            strtab = next((value - vaddr + offset for vaddr, offset, size in loads if vaddr <= value < vaddr + size),
                          None)
        elif tag == _DT_STRSZ:
            strsz = value
        entries.append((tag, value))
    if strtab is None or strsz is None:
        return loader, [], []
    strings = os.pread(fd, min(strsz, 1 << 22), strtab)

    def text(offset: int) -> str:
        return strings[offset:strings.find(b"\0", offset)].decode("utf-8", "replace")

    needed = [text(value) for tag, value in entries if tag == _DT_NEEDED]
    runpath = [part for tag, value in entries if tag in (_DT_RPATH, _DT_RUNPATH) for part in text(value).split(":")]
    return loader, needed, [part.replace("$ORIGIN", os.path.dirname(path)) for part in runpath if part]


@functools.cache
def _loader_cache() -> dict[str, str]:
    """soname -> path of the 64-bit libraries the loader's cache lists (``ldconfig -p``)."""
    found: dict[str, str] = {}
    ldconfig = shutil.which("ldconfig", path="/usr/sbin:/sbin:/usr/bin:/bin")
    if ldconfig is None:
        return found
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        listing = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=10).stdout
        for line in listing.splitlines():
            name, _, rest = line.strip().partition(" (")
            tags, _, path = rest.partition(") => ")
            if path and "64" in tags and name not in found:
                found[name] = path
    return found


def _library(name: str, runpath: Iterable[str]) -> str | None:
    if "/" in name:
        return name if os.path.isfile(name) else None
    for folder in runpath:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate):
            return candidate
    cached = _loader_cache().get(name)
    if cached and os.path.isfile(cached):
        return cached
    for folder in _LIBRARY_DIRS:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate):
            return candidate
    return None


def elf_closure(paths: Iterable[str]) -> set[str]:
    """Every file the loader maps to run the ELF files ``paths``: their loader and libraries, transitively (the
    files themselves not included).

    >>> any("libc.so" in path for path in elf_closure(["/bin/sh"]))
    True
    """
    seen: set[str] = set()
    todo = list(paths)
    first = set(todo)
    while todo:
        path = todo.pop()
        loader, needed, runpath = _elf(path)
        for name in ([loader] if loader else []) + [n for n in needed if n]:
            found = _library(name, runpath)
            if found is not None and found not in seen:
                seen.add(found)
                todo.append(found)
    return seen - first


def _python_stdlib(program: str) -> str | None:
    """The standard library folder of a Python executable (``prefix/lib/pythonX.Y``), None for another program."""
    real = os.path.realpath(program)
    name = os.path.basename(real)
    if not name.startswith("python"):
        return None
    version = name[len("python"):]
    prefix = os.path.dirname(os.path.dirname(real))
    found = sorted(glob.glob(os.path.join(prefix, "lib", f"python{version}*")))
    return next((path for path in found if os.path.isfile(os.path.join(path, "os.py"))), None)


def _java_home(program: str) -> str | None:
    """The JDK or JRE a ``java`` executable belongs to (``home/bin/java`` beside ``home/lib/modules``)."""
    real = os.path.realpath(program)
    home = os.path.dirname(os.path.dirname(real))
    if os.path.basename(real) == "java" and os.path.isfile(os.path.join(home, "lib", "modules")):
        return home
    return None


def _tree_files(top: str) -> list[str]:
    """The regular files under ``top`` that a copy holds (the parts in :data:`_SKIP` left out)."""
    files = []
    if not os.path.isdir(top):
        return [top]
    for folder, folders, names in os.walk(top):
        links = [name for name in folders if os.path.islink(os.path.join(folder, name))]
        folders[:] = [name for name in folders
                      if name not in _SKIP and name not in links and not name.startswith("config-")]
        files += [os.path.join(folder, name) for name in [*names, *links] if name not in _SKIP]
    return files


@functools.cache
def runtime_paths(program: str, own: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(trees, files): what a box needs to run ``program`` (an absolute, real path), beside the program itself
    when it is the bot's ``own`` file (shown as it is, not copied): an interpreter's trees (copied whole but for
    :data:`_SKIP`) and single files (the program when it is not its own, the ELF loader and libraries of it and
    of the trees' libraries; for a script, what the interpreter on its ``#!`` line needs, and that path).

    >>> true = os.path.realpath("/bin/true")
    >>> trees, files = runtime_paths(true)
    >>> trees, true in files, any("libc.so" in path for path in files)
    ((), True, True)
    """
    interpreter = _shebang(program)
    if interpreter is not None and os.path.realpath(interpreter) != program:  # a script: its interpreter's needs
        trees, files = runtime_paths(os.path.realpath(interpreter))
        return trees, tuple(sorted({*files, interpreter, *([] if own else [program])}))
    trees: list[str] = []
    elves = [program]
    stdlib = _python_stdlib(program)
    if stdlib is not None:
        trees.append(stdlib)
    java = _java_home(program)
    if java is not None:
        trees += [os.path.join(java, part) for part in ("bin", "lib", "conf", "release")
                  if os.path.exists(os.path.join(java, part))]
    for tree in trees:
        elves += [path for path in _tree_files(tree) if not os.path.islink(path) and (
            path.endswith(".so") or ".so." in path or os.path.basename(os.path.dirname(path)) == "bin")]
    files = elf_closure(elves)
    if not own:
        files.add(program)
    files = {path for path in files if not any(_inside(path, tree) for tree in trees)}
    return tuple(trees), tuple(sorted(files))


def _shebang(program: str) -> str | None:
    """The interpreter a script names on its ``#!`` line, as it names it (None: not a script, or the interpreter
    is not there).

    >>> _shebang("/etc/passwd") is None
    True
    """
    try:
        with open(program, "rb") as handle:
            line = handle.readline(256)
    except OSError:
        return None
    words = line[2:].split() if line.startswith(b"#!") else []
    if not words:
        return None
    interpreter = words[0].decode("utf-8", "replace")
    return interpreter if interpreter.startswith("/") and os.path.isfile(interpreter) else None


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


# -- the copies -------------------------------------------------------------------------------------------------

def _fresh(source: str, info: os.stat_result, copy: str) -> bool:
    """Whether ``copy`` is a copy of ``source`` (whose ``lstat`` is ``info``) as it is now."""
    try:
        mine = os.lstat(copy)
        if stat.S_ISLNK(info.st_mode):
            return stat.S_ISLNK(mine.st_mode) and os.readlink(copy) == os.readlink(source)
    except OSError:
        return False
    return mine.st_size == info.st_size and mine.st_mtime_ns == info.st_mtime_ns


def _copy_one(source: str, target: str) -> None:
    """Make ``target`` a copy of ``source`` (a regular file, a symbolic link as a link, a folder as a folder),
    unless it already is one: written under a temporary name and renamed into place."""
    info = os.lstat(source)
    if stat.S_ISDIR(info.st_mode):
        os.makedirs(target, 0o755, exist_ok=True)
        return
    if _fresh(source, info, target):
        return
    folder = os.path.dirname(target)
    os.makedirs(folder, 0o755, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".part-")
    os.close(handle)
    try:
        if stat.S_ISLNK(info.st_mode):
            os.unlink(temporary)
            os.symlink(os.readlink(source), temporary)
        else:
            shutil.copyfile(source, temporary)
            os.chmod(temporary, stat.S_IMODE(info.st_mode) & 0o755 | 0o444)
            os.utime(temporary, ns=(info.st_atime_ns, info.st_mtime_ns))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _slot_root(folder: str, slot: int | str) -> str:
    root = os.path.join(folder, f"slot{slot}" if isinstance(slot, int) else slot)
    os.makedirs(root, 0o755, exist_ok=True)
    for path in (folder, root):  # the judge's alone: nothing else may change what boxes are shown
        info = os.lstat(path)
        if info.st_uid != os.getuid() or info.st_mode & 0o022 or not stat.S_ISDIR(info.st_mode):
            raise PermissionError(f"the runtime copies' folder {path} must be a folder of the judge's user that "
                                  "no one else can write to")
    return root


def copy_of(folder: str, slot: int, path: str) -> str:
    """The slot's copy of the file or tree ``path`` (made or refreshed now when it is missing or stale)."""
    root = _slot_root(folder, slot)
    target = root + path
    _copy_one(path, target)
    if os.path.isdir(path) and not os.path.islink(path):
        for source in _tree_files(path):
            _copy_one(source, root + source)
    return target


_checked: set[tuple[str, int, str]] = set()


def copy_of_once(folder: str, slot: int, path: str) -> str:
    """:func:`copy_of`, checked against its source once per judge process (a tree's walk costs milliseconds)."""
    key = (folder, slot, path)
    if key in _checked:
        return _slot_root(folder, slot) + path
    copy = copy_of(folder, slot, path)
    _checked.add(key)
    return copy


def _links(path: str) -> tuple[list[tuple[str, str]], str]:
    """(the symbolic links met on the way, as (link, target)) and the real path of ``path``."""
    links: list[tuple[str, str]] = []
    current = "/"
    parts = [part for part in path.split("/") if part]
    hops = 0
    while parts:
        part = parts.pop(0)
        step = os.path.normpath(os.path.join(current, part))
        if os.path.islink(step) and hops < 40:
            hops += 1
            target = os.readlink(step)
            links.append((step, target))
            parts = [p for p in target.split("/") if p] + parts
            if target.startswith("/"):
                current = "/"
            continue
        current = step
    return links, current


def _ancestors(path: str) -> list[str]:
    """
    >>> _ancestors("/usr/lib/libc.so.6")
    ['/usr', '/usr/lib']
    """
    parts = path.strip("/").split("/")
    return ["/" + "/".join(parts[:index]) for index in range(1, len(parts))]


def slot_binds(folder: str, slot: int, paths: Iterable[str], top_links: Iterable[str]) -> list[str]:
    """bwrap arguments that show the slot's copies of ``paths`` (files and folders) at their own paths, with the
    symbolic links met on the way to each (but those in ``top_links``, which the box already makes); the copies
    made or refreshed first (once per judge process)."""
    return list(_slot_binds(folder, slot, tuple(paths), tuple(top_links)))


@functools.lru_cache(maxsize=64)
def _slot_binds(folder: str, slot: int, paths: tuple[str, ...], top_links: tuple[str, ...]) -> tuple[str, ...]:
    made_links = set(top_links)
    found = [_links(path) for path in paths]
    reals = {real for _, real in found if os.path.exists(real)}
    trees = {real for real in reals if os.path.isdir(real)}
    files = [real for real in reals if real not in trees and not any(_inside(real, tree) for tree in trees)]
    # a folder holding several of the files is shown whole, from the slot's copy of it (which holds only what the
    # slot's programs needed, and its links): one mount rather than one a library
    parents: dict[str, int] = {}
    for real in files:
        parents[os.path.dirname(real)] = parents.get(os.path.dirname(real), 0) + 1
    grouped = {parent for parent, count in parents.items() if count >= _GROUP}
    for real in files:
        copy_of_once(folder, slot, real)
    shown = sorted((trees | grouped | {real for real in files if os.path.dirname(real) not in grouped})
                   - {real for real in reals if any(_inside(real, tree) and real != tree for tree in trees)},
                   key=lambda real: (real.count("/"), real))
    folders = trees | grouped
    args: list[str] = []
    made: set[str] = {"/"}
    root = _slot_root(folder, slot)
    for real in shown:
        if any(_inside(real, other) and real != other for other in folders):
            continue  # inside a folder shown whole: its copy is there
        for parent in _ancestors(real):  # traversable by the box's uid (bwrap would copy a parent's mode)
            if parent not in made:
                made.add(parent)
                args += ["--perms", "0755", "--dir", parent]
        args += ["--ro-bind", root + real if real in grouped else copy_of_once(folder, slot, real), real]
    for links, _ in found:
        for link, target in links:
            if link in made_links:
                continue
            made_links.add(link)
            if any(_inside(link, other) for other in folders):  # shown from the copy, which keeps links as links
                _copy_one(link, root + link)
                continue
            for parent in _ancestors(link):
                if parent not in made:
                    made.add(parent)
                    args += ["--perms", "0755", "--dir", parent]
            args += ["--symlink", target, link]
    return tuple(args)


# -- a bot's own files ------------------------------------------------------------------------------------------

#: A bot's own files shown from a copy when they are at most this many entries and bytes (its build, its script);
#: more are shown as they are.
OWN_ENTRIES, OWN_BYTES = 10_000, 512 << 20


def _own_listing(path: str) -> list[tuple[str, os.stat_result]] | None:
    """(path relative to ``path``, lstat) of ``path`` and everything under it; None past the bounds."""
    found = [("", os.lstat(path))]
    total = 0
    if stat.S_ISDIR(found[0][1].st_mode):
        for folder, folders, names in os.walk(path):
            for name in sorted([*folders, *names]):
                full = os.path.join(folder, name)
                info = os.lstat(full)
                found.append((os.path.relpath(full, path), info))
                total += info.st_size if stat.S_ISREG(info.st_mode) else 0
            if len(found) > OWN_ENTRIES or total > OWN_BYTES:
                return None
    return found


#: A copy of a bot's own files unused this long is deleted when another is made (a game lasts minutes).
OWN_KEPT_SECONDS = 24 * 3600


def _prune_own(root: str) -> None:
    """Delete the copies of bots' own files that no box has used for :data:`OWN_KEPT_SECONDS` (each upload of a
    team makes another: they are memory)."""
    old = time.time() - OWN_KEPT_SECONDS
    with contextlib.suppress(OSError), os.scandir(root) as entries:
        for entry in entries:
            with contextlib.suppress(OSError):
                if entry.stat(follow_symlinks=False).st_mtime < old:
                    shutil.rmtree(entry.path, ignore_errors=True)


def own_copy(folder: str, path: str) -> str:
    """A copy of a bot's own file or folder ``path`` in the copies' ``folder``, named by the path and what it
    holds (made when missing; ``path`` itself when it is past :data:`OWN_ENTRIES` or :data:`OWN_BYTES`): a box
    shows it in place of ``path``, so that what a box leaves in the caches of its own files (missing names looked
    up in its folder, pages read) is left on the copies' tmpfs, which keeps none of it, and the box's
    ``mountinfo`` names no folder of the judge's."""
    listing = _own_listing(path)
    if listing is None:
        return path
    digest = hashlib.sha256(path.encode("utf-8", "surrogateescape"))
    for relative, info in listing:
        link = os.readlink(os.path.join(path, relative)) if stat.S_ISLNK(info.st_mode) else ""
        digest.update(f"\0{relative}\0{info.st_mode}\0{info.st_size}\0{info.st_mtime_ns}\0{link}".encode(
            "utf-8", "surrogateescape"))
    root = _slot_root(folder, "own")
    target = os.path.join(root, digest.hexdigest()[:32])
    shown = target if stat.S_ISDIR(listing[0][1].st_mode) else os.path.join(target, os.path.basename(path))
    if os.path.lexists(target):
        with contextlib.suppress(OSError):
            os.utime(target)  # in use: kept by :func:`_prune_own`
        return shown
    _prune_own(root)
    temporary = tempfile.mkdtemp(dir=root, prefix=".part-")
    try:
        os.chmod(temporary, 0o755)
        for relative, info in listing:
            source = os.path.join(path, relative) if relative else path
            copy = os.path.join(temporary, relative) if stat.S_ISDIR(listing[0][1].st_mode) else \
                os.path.join(temporary, os.path.basename(path))
            if stat.S_ISDIR(info.st_mode):
                os.makedirs(copy, 0o755, exist_ok=True)
            elif stat.S_ISLNK(info.st_mode):
                os.symlink(os.readlink(source), copy)
            elif stat.S_ISREG(info.st_mode):
                shutil.copyfile(source, copy)
                os.chmod(copy, stat.S_IMODE(info.st_mode) & 0o755 | 0o444)
        os.rename(temporary, target)
    except FileExistsError:
        shutil.rmtree(temporary, ignore_errors=True)  # made meanwhile by another judge
    except OSError as error:
        shutil.rmtree(temporary, ignore_errors=True)
        if error.errno != errno.ENOTEMPTY:
            raise
    return shown
