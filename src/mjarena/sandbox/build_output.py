"""A compiler's build output: what its output costs against its cap (:func:`output_cost`), copying what it wrote
into its box's tmpfs back to the judge's folder, counting what it wrote with no box, and its standard streams
(sockets that ``/proc/self/fd/N`` cannot open).
"""

from __future__ import annotations

import os
import socket
import stat

__all__ = ["output_cost"]

_BLOCK = 4096


def output_cost(size: int) -> int:
    """What one entry of a compiler's output counts against its cap (:meth:`~mjarena.sandbox.box.Box.keep_output`):
    its bytes rounded up to whole 4 KiB blocks, plus one block for its inode and name (so an empty file counts
    4 KiB, and a cap of 16 MiB holds at most 4096 entries).

    >>> output_cost(0), output_cost(1), output_cost(4096), output_cost(4097)
    (4096, 8192, 8192, 12288)
    """
    return _BLOCK + -(-size // _BLOCK) * _BLOCK


def copy_output(source: int, dest: str, budget: int) -> int | None:
    """Copy the tree of the directory ``source`` (a descriptor; the box's tmpfs) into the folder ``dest``: folders,
    regular files (permissions at most 0755) and symbolic links (as links, never followed), skipping what lies on
    another file system (the files shown from the judge's folder) and anything else; the :func:`output_cost`
    copied, or None as soon as it would pass ``budget``."""
    device = os.fstat(source).st_dev
    used = 0
    stack = [(os.dup(source), dest)]
    try:
        while stack:
            folder, target = stack.pop()
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        info = entry.stat(follow_symlinks=False)
                        if info.st_dev != device:
                            continue
                        used += output_cost(info.st_size if stat.S_ISREG(info.st_mode) else 0)
                        if used > budget:
                            return None
                        path = os.path.join(target, entry.name)
                        if stat.S_ISDIR(info.st_mode):
                            os.mkdir(path, 0o755)
                            stack.append((os.open(entry.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
                                                  | os.O_CLOEXEC, dir_fd=folder), path))
                        elif stat.S_ISREG(info.st_mode):
                            _copy_file(folder, entry.name, path, info)
                        elif stat.S_ISLNK(info.st_mode):
                            os.symlink(os.readlink(entry.name, dir_fd=folder), path)
            finally:
                os.close(folder)
    finally:
        for folder, _ in stack:
            os.close(folder)
    return used


def _copy_file(folder: int, name: str, path: str, info: os.stat_result) -> None:
    """Copy the regular file ``name`` of the directory ``folder`` (its ``st_size`` bytes at most) to ``path``."""
    source = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    try:
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         stat.S_IMODE(info.st_mode) & 0o755)
        try:
            left = info.st_size
            while left > 0:
                chunk = os.read(source, min(left, 1 << 20))
                if not chunk:
                    break
                os.write(target, chunk)
                left -= len(chunk)
        finally:
            os.close(target)
    finally:
        os.close(source)


def measure_output(folder: str, before: set[str], budget: int) -> int | None:
    """The :func:`output_cost` of what a program run with no box wrote into ``folder`` (the entries not in
    ``before``), or None once it passes ``budget``."""
    used = 0
    stack = [os.path.join(folder, name) for name in os.listdir(folder) if name not in before]
    while stack:
        path = stack.pop()
        info = os.lstat(path)
        used += output_cost(info.st_size if stat.S_ISREG(info.st_mode) else 0)
        if used > budget:
            return None
        if stat.S_ISDIR(info.st_mode):
            stack += [os.path.join(path, name) for name in os.listdir(path)]
    return used


def compiler_streams() -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """A compiler's standard streams: ``(ours, theirs)``, all three stream sockets, which no one can open again
    through ``/proc/self/fd/N`` (a pipe there would open, and wait for a writer).  Its input is at its end from
    the start (we close our side at once, and keep -1 for it)."""
    ours: list[int] = []
    theirs: list[int] = []
    for _ in range(3):
        mine, peer = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ours.append(mine.detach())
        theirs.append(peer.detach())
    os.close(ours[0])
    return (-1, ours[1], ours[2]), (theirs[0], theirs[1], theirs[2])
