"""The system-call filter every boxed program runs under: a classic-BPF seccomp program generated here, from a
table of what a bot may not do, with no library beyond the standard one.

A namespace does not separate everything the kernel has: file locks live on the inode (two boxes that show the
same read-only file share its lock table), keyrings belong to the uid and the session, memfds and System V
shared memory sit in no process's resident size, ``ptrace`` can resume a process the judge stopped, and a box
that may make namespaces may mount a tmpfs of its own.  Two bots at one table could also talk through what the
whole machine counts (AIO contexts, free memory, processes) and through the page cache of files every box reads
(drop a page, or ask whether it is cached).  The filter closes those doors; each denied call fails with
``EPERM`` (``clone3``, ``preadv2`` and ``pwritev2`` with ``ENOSYS``, so that the C library falls back to
``clone``, whose flags the filter can read, and to ``preadv``), so an honest program sees an ordinary error and
is never killed; ``sysinfo`` is answered by the box's init with the box's own figures (:data:`NOTIFIED`):

>>> sorted(DENIED)[:4]
['acct', 'add_key', 'bpf', 'cachestat']
>>> program = build("x86_64")
>>> len(program) % 8, len(program) // 8 < 200
(0, True)
>>> build("sparc")
Traceback (most recent call last):
...
ValueError: no seccomp table for machine 'sparc' (known: aarch64, x86_64)

The filter is installed by the box's init in each program it starts, after the switch to the box's uid and
before ``execve`` (:func:`mjarena.sandbox.boxinit.install_filter`); ``no_new_privs`` is set with it, so no
set-uid program in ``/usr`` gains anything either.  docs/security.md names the attack each entry stops.
"""

from __future__ import annotations

import errno
import platform
import struct

__all__ = [
    "CLONE_NEW_FLAGS", "DENIED", "DENIED_ENOSYS", "DENIED_FCNTL", "DENIED_MADVISE", "NOTIFIED", "SOCKET_FAMILIES",
    "build", "numbers",
]

#: Calls denied outright, and why (the attack they would serve).
DENIED: dict[str, str] = {
    # reading, writing or resuming another process (a stopped bot made to run between turns)
    "ptrace": "trace or resume another process", "process_vm_readv": "read another process's memory",
    "process_vm_writev": "write another process's memory", "kcmp": "compare another process's files",
    "pidfd_getfd": "steal another process's file", "process_madvise": "act on another process's memory",
    # keyrings belong to the uid and the session, not to a namespace
    "add_key": "keyring channel", "request_key": "keyring channel", "keyctl": "keyring channel",
    # new namespaces and mounts (a tmpfs of its own escapes the /tmp cap)
    "unshare": "new namespaces", "setns": "join namespaces", "mount": "mount", "umount2": "unmount",
    "pivot_root": "change root", "chroot": "change root", "open_tree": "mount", "move_mount": "mount",
    "fsopen": "mount", "fsconfig": "mount", "fsmount": "mount", "fspick": "mount", "mount_setattr": "mount",
    # file locks and watches on shared inodes are channels between boxes
    "flock": "lock channel on a shared file", "inotify_init": "watch shared files",
    "inotify_init1": "watch shared files", "fanotify_init": "watch shared files",
    # memory in no process's resident size
    "memfd_create": "memory outside the count", "memfd_secret": "memory outside the count",
    "shmget": "memory outside the count", "shmat": "memory outside the count", "shmctl": "memory outside the count",
    "mq_open": "memory outside the count",
    # kernel surfaces a bot has no use for
    "io_uring_setup": "unfiltered I/O", "io_uring_enter": "unfiltered I/O", "io_uring_register": "unfiltered I/O",
    # the machine's AIO contexts are one counter (/proc/sys/fs/aio-nr) that every box could move and read
    "io_setup": "shared AIO counter", "io_destroy": "shared AIO counter", "io_submit": "shared AIO counter",
    "io_cancel": "shared AIO counter", "io_getevents": "shared AIO counter", "io_pgetevents": "shared AIO counter",
    # the page cache of a file that other boxes also read: evicting it, or asking what it holds
    "fadvise64": "evict a shared file's page cache", "readahead": "fill a shared file's page cache",
    "mincore": "probe a shared file's page cache", "cachestat": "probe a shared file's page cache",
    "userfaultfd": "kernel attack surface", "bpf": "kernel attack surface", "perf_event_open": "side channels",
    "name_to_handle_at": "open files by handle", "open_by_handle_at": "open files by handle",
    "syslog": "kernel log", "kexec_load": "privileged", "kexec_file_load": "privileged", "init_module": "privileged",
    "finit_module": "privileged", "delete_module": "privileged", "acct": "privileged", "swapon": "privileged",
    "swapoff": "privileged", "reboot": "privileged", "quotactl": "privileged", "vhangup": "privileged",
    # a new session is a new autogroup, numbered by a count of every setsid of the machine (/proc/self/autogroup)
    "setsid": "the machine's count of sessions",
}

#: Calls that fail with ``ENOSYS``, as on a kernel without them, so that the C library falls back: ``preadv2``
#: and ``pwritev2`` with ``RWF_NOWAIT`` tell whether a shared file's page is cached (glibc's ``preadv2`` with no
#: flags falls back to ``preadv``); ``clone3``, so that the C library uses ``clone``, whose flags are read.
DENIED_ENOSYS: dict[str, str] = {
    "preadv2": "probe a shared file's page cache (RWF_NOWAIT)", "pwritev2": "the same call's writing twin",
    "clone3": "namespace flags the filter cannot read",
}
#: Calls that the box's init answers itself (``SECCOMP_RET_USER_NOTIF``): ``sysinfo`` gives the machine's free
#: memory, load and count of processes, and the C library's ``sysconf(_SC_PHYS_PAGES)`` (what the JVM sizes
#: itself by) reads a ``struct sysinfo`` that it never checks, so a plain denial would hand it stack garbage.
#: The init writes the box's own (its memory limit, no load, one process); a program whose filter has no
#: listener (a test's) gets ``ENOSYS``.
NOTIFIED: dict[str, str] = {"sysinfo": "the machine's free memory, load and process count"}
#: ``madvise`` advice denied: ``MADV_COLD`` and ``MADV_PAGEOUT`` drop the page cache of a file mapped by this
#: process alone, which another box may read (the ``fadvise`` eviction by another door).
DENIED_MADVISE = {"MADV_COLD": 20, "MADV_PAGEOUT": 21}
#: ``fcntl`` commands denied: locks, leases and directory notification on files other boxes also see.
DENIED_FCNTL = {
    "F_GETLK": 5, "F_SETLK": 6, "F_SETLKW": 7, "F_OFD_GETLK": 36, "F_OFD_SETLK": 37, "F_OFD_SETLKW": 38,
    "F_SETLEASE": 1024, "F_GETLEASE": 1025, "F_NOTIFY": 1026,
}
#: Flags of ``clone`` that make a namespace (CLONE_NEWTIME, NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID,
#: NEWNET).
CLONE_NEW_FLAGS = 0x80 | 0x20000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
#: Socket families a bot may open (namespaced); others are denied: AF_VSOCK reaches the host of a virtual machine,
#: and IP sockets, useless in a network namespace with no interface but a down loopback, move counters of the
#: whole machine (``/proc/net/sockstat``'s ``TCP: alloc`` and the protocols' memory, issue 41).
SOCKET_FAMILIES = {"AF_UNIX": 1, "AF_NETLINK": 16}

# System-call numbers per machine (asm/unistd_64.h and asm-generic/unistd.h).  A name missing from a table does
# not exist there (aarch64 has no inotify_init).
_X86_64 = {
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "pidfd_getfd": 438,
    "process_madvise": 440, "add_key": 248, "request_key": 249, "keyctl": 250, "unshare": 272, "setns": 308,
    "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "flock": 73,
    "inotify_init": 253, "inotify_init1": 294, "fanotify_init": 300, "memfd_create": 319, "memfd_secret": 447,
    "shmget": 29, "shmat": 30, "shmctl": 31, "mq_open": 240, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "userfaultfd": 323, "bpf": 321, "perf_event_open": 298, "name_to_handle_at": 303,
    "open_by_handle_at": 304, "syslog": 103, "kexec_load": 246, "kexec_file_load": 320, "init_module": 175,
    "finit_module": 313, "delete_module": 176, "acct": 163, "swapon": 167, "swapoff": 168, "reboot": 169,
    "quotactl": 179, "vhangup": 153, "clone": 56, "clone3": 435, "fcntl": 72, "socket": 41, "io_setup": 206,
    "io_destroy": 207, "io_getevents": 208, "io_submit": 209, "io_cancel": 210, "io_pgetevents": 333,
    "fadvise64": 221, "readahead": 187, "mincore": 27, "cachestat": 451, "preadv2": 327, "pwritev2": 328,
    "madvise": 28, "sysinfo": 99, "setsid": 112,
}
_AARCH64 = {
    "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272, "pidfd_getfd": 438,
    "process_madvise": 440, "add_key": 217, "request_key": 218, "keyctl": 219, "unshare": 97, "setns": 268,
    "mount": 40, "umount2": 39, "pivot_root": 41, "chroot": 51, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "flock": 32,
    "inotify_init1": 26, "fanotify_init": 262, "memfd_create": 279, "memfd_secret": 447, "shmget": 194,
    "shmat": 196, "shmctl": 195, "mq_open": 180, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "userfaultfd": 282, "bpf": 280, "perf_event_open": 241, "name_to_handle_at": 264,
    "open_by_handle_at": 265, "syslog": 116, "kexec_load": 104, "kexec_file_load": 294, "init_module": 105,
    "finit_module": 273, "delete_module": 106, "acct": 89, "swapon": 224, "swapoff": 225, "reboot": 142,
    "quotactl": 60, "vhangup": 58, "clone": 220, "clone3": 435, "fcntl": 25, "socket": 198, "io_setup": 0,
    "io_destroy": 1, "io_submit": 2, "io_cancel": 3, "io_getevents": 4, "io_pgetevents": 292, "fadvise64": 223,
    "readahead": 213, "mincore": 232, "cachestat": 451, "preadv2": 286, "pwritev2": 287, "madvise": 233,
    "sysinfo": 179, "setsid": 157,
}
_TABLES = {"x86_64": (0xC000003E, _X86_64), "aarch64": (0xC00000B7, _AARCH64)}
_X32_BIT = 0x40000000  # x86-64's x32 ABI: the same calls under other numbers

# Classic BPF, as linux/filter.h and linux/seccomp.h spell it.
_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW = 0x7FFF0000
_USER_NOTIF = 0x7FC00000
_ERRNO = 0x00050000
_NR, _ARCH = 0, 4  # offsets in struct seccomp_data


def numbers(machine: str | None = None) -> dict[str, int]:
    """The system-call numbers the filter knows on ``machine`` (this one by default), by name."""
    machine = machine or platform.machine()
    if machine not in _TABLES:
        raise ValueError(f"no seccomp table for machine {machine!r} (known: {', '.join(sorted(_TABLES))})")
    return dict(_TABLES[machine][1])


def _arg(index: int) -> int:
    """Offset of the low 32 bits of argument ``index`` (little-endian machines only, which both tables are)."""
    return 16 + 8 * index


class _Program:
    def __init__(self) -> None:
        self.code: list[tuple[int, int, int, int]] = []

    def op(self, code: int, k: int = 0, jt: int = 0, jf: int = 0) -> None:
        self.code.append((code, jt, jf, k))

    def deny_if(self, value: int, denial: int) -> None:
        """If the loaded word equals ``value``, fail with ``denial``."""
        self.op(_JEQ, value, 0, 1)
        self.op(_RET, _ERRNO | denial)

    def pack(self) -> bytes:
        return b"".join(struct.pack("=HBBI", code, jt, jf, k) for code, jt, jf, k in self.code)


def build(machine: str | None = None, *, denial: int = errno.EPERM) -> bytes:
    """The filter for ``machine`` (this one by default) as the kernel takes it: ``struct sock_filter`` items.

    Denied calls fail with ``denial`` (a test may pick an errno no call gives by itself).  Any other
    architecture's calls (i386 through ``int 0x80``, x32) fail with ``ENOSYS``: their numbers differ and would
    pass a table written for this one.
    """
    table = numbers(machine)
    audit_arch = _TABLES[machine or platform.machine()][0]
    program = _Program()
    program.op(_LD_W_ABS, _ARCH)
    program.op(_JEQ, audit_arch, 1, 0)
    program.op(_RET, _ERRNO | errno.ENOSYS)
    program.op(_LD_W_ABS, _NR)
    if (machine or platform.machine()) == "x86_64":
        program.op(_JGE, _X32_BIT, 0, 1)
        program.op(_RET, _ERRNO | errno.ENOSYS)
    for name in DENIED:
        if name in table:
            program.deny_if(table[name], denial)
    for name in DENIED_ENOSYS:
        program.deny_if(table[name], errno.ENOSYS)
    for name in NOTIFIED:
        program.op(_JEQ, table[name], 0, 1)
        program.op(_RET, _USER_NOTIF)
    # The checks of an argument load it over the call number: each ends the program.
    _deny_flags(program, table["clone"], 0, CLONE_NEW_FLAGS, denial)
    _deny_values(program, table["fcntl"], 1, set(DENIED_FCNTL.values()), denial, allowed=False)
    _deny_values(program, table["madvise"], 2, set(DENIED_MADVISE.values()), denial, allowed=False)
    _deny_values(program, table["socket"], 0, set(SOCKET_FAMILIES.values()), denial, allowed=True)
    program.op(_RET, _ALLOW)
    return program.pack()


def _deny_flags(program: _Program, number: int, arg: int, flags: int, denial: int) -> None:
    """Call ``number`` with any of ``flags`` in argument ``arg`` fails; otherwise it goes on down the program."""
    program.op(_JEQ, number, 0, 4)
    program.op(_LD_W_ABS, _arg(arg))
    program.op(_JSET, flags, 0, 1)
    program.op(_RET, _ERRNO | denial)
    program.op(_RET, _ALLOW)


def _deny_values(program: _Program, number: int, arg: int, values: set[int], denial: int, *, allowed: bool) -> None:
    """Call ``number`` fails when argument ``arg`` is in ``values`` (``allowed``: when it is not in them)."""
    ordered = sorted(values)
    program.op(_JEQ, number, 0, len(ordered) + 3)
    program.op(_LD_W_ABS, _arg(arg))
    for index, value in enumerate(ordered):
        program.op(_JEQ, value, len(ordered) - index, 0)  # found: past the other checks and the first return
    found, other = (_ALLOW, _ERRNO | denial) if allowed else (_ERRNO | denial, _ALLOW)
    program.op(_RET, other)
    program.op(_RET, found)
