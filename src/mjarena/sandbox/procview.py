"""What a box's ``/proc`` shows in place of the machine's counters, as LXCFS does for a container.

A pid namespace gives a box a ``/proc`` of its own processes, but the files at the top of ``/proc`` still show
the whole machine: free memory, CPU time, load, forks, interrupts, I/O and memory pressure, and ``/proc/sys``
(``fs.aio-nr`` among others).  Two bots at one table could talk through any counter that one moves and the
other reads.  So every box sees, over each of those files, a fixed file that the judge made: nothing in it
moves, whatever the machine does.  ``meminfo`` shows the box's memory limit as ``MemTotal`` (free and available
alike), ``stat`` one line per CPU the judge may use (with no time spent), ``loadavg``, ``uptime``, ``vmstat`` and
``pressure/*`` zeros, ``cpuinfo`` the machine's as it was when the judge first asked (its ``cpu MHz`` lines
move with the load), the others nothing; ``/proc/sys`` is an empty folder.  (``sysinfo(2)``, which gives the
same figures, is answered by the box's init: :mod:`mjarena.sandbox.boxinit`.)

The files are made once per content (their names carry a hash of it) in a folder of the judge's user, reused by
every box and every later judge, and shown read-only (:func:`binds`):

>>> text = meminfo(256 << 20)
>>> text.splitlines()[0].split(), "MemAvailable:     262144 kB" in text
(['MemTotal:', '262144', 'kB'], True)
>>> stat(2).splitlines()[:3]
['cpu  0 0 0 0 0 0 0 0 0 0', 'cpu0 0 0 0 0 0 0 0 0 0 0', 'cpu1 0 0 0 0 0 0 0 0 0 0']
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import stat as stat_module
import tempfile
import threading

__all__ = ["COVERED", "EMPTY", "SHOWN", "binds", "meminfo", "stat", "sysinfo_totalram"]

#: Files of ``/proc`` that show the machine's counters and get fixed contents in a box (when this kernel has them).
COVERED = ("meminfo", "stat", "loadavg", "uptime", "vmstat", "cpuinfo", "pressure/cpu", "pressure/io",
           "pressure/memory", "pressure/irq")
#: Files of ``/proc`` with counters no program needs: shown empty in a box (``swaps`` keeps its header).
EMPTY = ("diskstats", "interrupts", "softirqs", "schedstat", "zoneinfo", "buddyinfo", "pagetypeinfo", "slabinfo",
         "locks", "swaps", "key-users")
#: What a box's ``/proc`` shows as it is at its top (issue 41: an allow-list): its own processes (``self``,
#: ``thread-self``, the pid folders), the links into them (``mounts``, ``net``), and the files above; every other
#: entry of this kernel's ``/proc`` (``fs``, whose ``ext4/*/es_shrinker_info`` moves with the machine, ``cgroups``,
#: ``modules``, ``crypto``, ``keys``, ``cmdline``, ``version``, ...) is shown as an empty file or folder.
SHOWN = ("self", "thread-self", "mounts", "net", "sys", *COVERED, *EMPTY)
_PROC = "/proc"
_lock = threading.Lock()


def _host(name: str) -> str:
    try:
        with open(os.path.join(_PROC, name), encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


@functools.cache
def _host_total_kib() -> int:
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 1024


def sysinfo_totalram(memory_limit: int | None) -> int:
    """The memory a box reports as the machine's, in bytes: its limit, or (with none) the machine's own."""
    return memory_limit if memory_limit is not None else _host_total_kib() * 1024


def meminfo(memory_limit: int | None) -> str:
    """``/proc/meminfo`` of a box whose memory limit is ``memory_limit`` bytes: every field of this kernel's file,
    in its order, at 0 but ``MemTotal``, ``MemFree`` and ``MemAvailable`` (the limit) and ``Hugepagesize``."""
    total = sysinfo_totalram(memory_limit) // 1024
    fixed = {"MemTotal": total, "MemFree": total, "MemAvailable": total}
    lines = []
    for line in _host("meminfo").splitlines() or ["MemTotal: 0 kB", "MemFree: 0 kB", "MemAvailable: 0 kB"]:
        key, _, rest = line.partition(":")
        words = rest.split()
        if key == "Hugepagesize":
            value = int(words[0]) if words and words[0].isdigit() else 2048
        else:
            value = fixed.get(key, 0)
        unit = " kB" if words[1:] == ["kB"] else ""
        lines.append(f"{key + ':':<16}{value:>8}{unit}")
    return "\n".join(lines) + "\n"


def stat(cpus: int) -> str:
    """``/proc/stat`` of ``cpus`` processors that have spent no time (the C library counts the ``cpuN`` lines
    when ``/sys`` is not there, as in a box)."""
    zeros = " ".join(["0"] * 10)
    lines = [f"cpu  {zeros}", *(f"cpu{number} {zeros}" for number in range(cpus))]
    lines += ["intr 0", "ctxt 0", f"btime {_boot_time()}", "processes 1", "procs_running 1", "procs_blocked 0",
              "softirq 0 0 0 0 0 0 0 0 0 0 0"]
    return "\n".join(lines) + "\n"


@functools.cache
def _boot_time() -> int:
    for line in _host("stat").splitlines():
        if line.startswith("btime "):
            return int(line.split()[1])
    return 0


def _zeros(name: str) -> str:
    """Every ``key value`` line of this kernel's ``/proc/NAME`` with the value 0."""
    return "".join(f"{line.split()[0]} 0\n" for line in _host(name).splitlines() if line.split())


@functools.cache
def _contents(memory_limit: int | None) -> dict[str, str]:
    cpus = len(os.sched_getaffinity(0))
    pressure = "".join(f"{kind} avg10=0.00 avg60=0.00 avg300=0.00 total=0\n" for kind in ("some", "full"))
    made = {
        "meminfo": meminfo(memory_limit), "stat": stat(cpus), "loadavg": "0.00 0.00 0.00 1/1 1\n",
        "uptime": "0.00 0.00\n", "vmstat": _zeros("vmstat"), "cpuinfo": _static_cpuinfo(),
        "pressure/cpu": pressure, "pressure/io": pressure, "pressure/memory": pressure, "pressure/irq": pressure,
    }
    made.update({name: "" for name in EMPTY})
    made["swaps"] = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
    return made


@functools.cache
def _static_cpuinfo() -> str:
    """The machine's ``cpuinfo`` as it was when first asked (its ``cpu MHz`` lines move with the load)."""
    return _host("cpuinfo")


@functools.cache
def _existing() -> tuple[str, ...]:
    return tuple(name for name in (*COVERED, *EMPTY) if os.path.isfile(os.path.join(_PROC, name)))


@functools.cache
def _folder() -> str:
    """The judge's user's folder of fixed files: its own, not writable by others (else a fresh one)."""
    path = os.path.join(tempfile.gettempdir(), f"mjarena-proc-{os.getuid()}")
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o755)
    info = os.lstat(path)
    if (not stat_module.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022
            or not os.access(path, os.W_OK)):
        path = tempfile.mkdtemp(prefix="mjarena-proc-")
        os.chmod(path, 0o755)
    return path


def _file(text: str, mode: int = 0o444) -> str:
    """The path of a read-only file holding ``text`` in the judge's folder (made when missing), of ``mode``."""
    digest = hashlib.sha256(f"{mode:o}:{text}".encode() if mode != 0o444 else text.encode()).hexdigest()[:24]
    path = os.path.join(_folder(), digest)
    if not os.path.isfile(path):
        with _lock:
            handle, temporary = tempfile.mkstemp(dir=_folder())
            try:
                os.write(handle, text.encode())
                os.fchmod(handle, mode)
            finally:
                os.close(handle)
            os.replace(temporary, path)
    return path


def _empty_folder() -> str:
    path = os.path.join(_folder(), "empty")
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o555)
    return path


@functools.cache
def _hidden() -> tuple[tuple[str, int], ...]:
    """(name, mode) of every entry at the top of this kernel's ``/proc`` that a box does not see as it is."""
    found = []
    with contextlib.suppress(OSError), os.scandir(_PROC) as entries:
        for entry in entries:
            if entry.name.isdigit() or entry.name in {name.split("/")[0] for name in SHOWN} or entry.is_symlink():
                continue
            with contextlib.suppress(OSError):
                found.append((entry.name, entry.stat(follow_symlinks=False).st_mode))
    return tuple(sorted(found))


def binds(memory_limit: int | None) -> list[str]:
    """bwrap arguments (after ``--proc /proc``) that show the fixed files over the machine's counters, an empty
    ``/proc/sys``, and an empty file or folder over every other entry not in :data:`SHOWN`."""
    contents = _contents(memory_limit)
    args = ["--ro-bind", _empty_folder(), "/proc/sys"]
    for name in _existing():
        args += ["--ro-bind", _file(contents[name]), f"/proc/{name}"]
    for name, mode in _hidden():  # (what only root may read stays so: /proc/kmsg, kcore, ...)
        empty = _file("", 0o400) if not mode & stat_module.S_IROTH else _file("")
        args += ["--ro-bind", _empty_folder() if stat_module.S_ISDIR(mode) else empty, f"/proc/{name}"]
    return args
