"""The box's init: pid 1 of a box's pid namespace, and the one process in the box that the judge talks to.

The judge makes a box once per seat per game (``bwrap --as-pid-1 … -- python -I -S -c <this file> FD``) and
asks this init, over the socket ``FD`` (``SOCK_SEQPACKET``), to start each program in it.  The judge's
messages are :mod:`marshal`-ed dicts (the same interpreter on both sides); the init answers in words of ASCII,
so that the judge never decodes anything richer from inside a box:

- ``{"config": {...}}`` first: the uid, rlimits, seccomp program, tmpfs mounts (and how many files each may
  hold: it remounts them so, then gives up ``CAP_SYS_ADMIN``), environment and folder of every program it will
  start; answered ``ready HWM`` (its own high-water mark in KiB, which a child forked from it shares until
  ``execve``).
- ``{"run": [argv]}`` with three file descriptors (the program's standard streams): kill and reap whatever is
  left of the previous program, delete whatever it left in the box's tmpfs mounts (in bounded time:
  :func:`_wipe`), fork, and in the child take a process group of its own, switch to the box's uid, join a new
  session keyring, lower the rlimits, install the seccomp filter and ``execve``; answered ``started PID`` (or
  ``leftover WHY`` when what the previous program left cannot be deleted, or not within 5 s: the program's
  doing, not the judge's).
- ``{"kill": True}``: kill every process of the box but this one and reap them all; answered ``clean``.
- By itself, when the program it started is reaped: ``exit STATUS MAXRSS`` (its wait status, its peak KiB).

It also answers the system calls that the filter hands to it (:data:`mjarena.sandbox.seccomp.NOTIFIED`):
each program installs its filter with a listener, which it passes to the init over a socket made for it
before the fork; the init answers ``sysinfo`` with the box's own figures (``config["totalram"]`` as the
machine's memory, all of it free, no load, one process, the box's age as uptime), written into the caller's
memory through ``/proc/PID/mem``, so that no box sees what another moves.

As the namespace's init it adopts every orphan and reaps it, so the CPU time of every process that ever ran in
the box reaches this process's ``cutime``/``cstime`` (``/proc/<pid>/stat``), where the judge counts it.  It
takes no input from the programs it starts (they cannot signal it: a pid namespace's init gets only the signals
it handles, and it is not dumpable), and when the judge goes away it exits, which ends the box.

This file runs in the box with the standard library only (it is not importable there as part of mjarena), and
imports only modules that load fast (``_signal`` and ``_socket`` rather than their enum-laden wrappers): the
init's start is part of every box's cost.
"""

from __future__ import annotations

import _signal as signal
import _socket
import array
import ctypes
import errno
import fcntl
import marshal
import os
import resource
import select
import struct
import sys
import time

_PR_SET_DUMPABLE = 4
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
_CAP_VERSION_3 = 0x20080522
_CAP_SYS_ADMIN = 21
_MS_REMOUNT, _MS_NOSUID, _MS_NODEV = 32, 2, 4
_SECCOMP_MODE_FILTER = 2
_KEYCTL_JOIN_SESSION_KEYRING = 1
_KEYCTL = {"x86_64": 250, "aarch64": 219}
_SECCOMP = {"x86_64": 317, "aarch64": 277}
_SYSINFO = {"x86_64": 99, "aarch64": 179}
_SECCOMP_SET_MODE_FILTER, _SECCOMP_FILTER_FLAG_NEW_LISTENER = 1, 8
# linux/seccomp.h: struct seccomp_notif (80 bytes), struct seccomp_notif_resp (24), the ioctls on a listener
_NOTIF = struct.Struct("=QIIiIQ6Q")
_NOTIF_RESP = struct.Struct("=QqiI")
_NOTIF_RECV, _NOTIF_SEND, _NOTIF_ID_VALID = 0xC0502100, 0xC0182101, 0x40082102
# struct sysinfo of a 64-bit machine: uptime, loads[3], totalram, freeram, sharedram, bufferram, totalswap,
# freeswap, procs, (pad), totalhigh, freehigh, mem_unit
_SYSINFO_STRUCT = struct.Struct("=q3Q6QHH4xQQI4x")
_IN, _HUP = select.POLLIN, select.POLLHUP | select.POLLERR | select.POLLNVAL
_RESET_SIGNALS = (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]


_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"{what}: {os.strerror(number)}")


def install_filter(program: bytes, listen: bool = False) -> int | None:
    """Set ``no_new_privs`` and load the seccomp ``program`` (:func:`mjarena.sandbox.seccomp.build`) on this
    process, for good; with ``listen``, the listener of its notified calls (None where the kernel has none to
    give: those calls then fail with ``ENOSYS``)."""
    fprog = _SockFprog(len(program) // 8, program)
    _check(_libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    number = _SECCOMP.get(os.uname().machine)
    if listen and number is not None:
        listener = _libc.syscall(number, _SECCOMP_SET_MODE_FILTER, _SECCOMP_FILTER_FLAG_NEW_LISTENER,
                                 ctypes.byref(fprog))
        if listener >= 0:
            return listener
    _check(_libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0), "seccomp")
    return None


def _entries(path: str) -> set[tuple[int, int]]:
    """(device, inode) of everything under ``path`` now, on its own file system (what the box was made with)."""
    found: set[tuple[int, int]] = set()
    root = os.lstat(path)
    stack = [path]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                info = entry.stat(follow_symlinks=False)
                if info.st_dev == root.st_dev:
                    found.add((info.st_dev, info.st_ino))
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
    return found


_WIPE_SECONDS = 5.0  # past this, what the last program left is its own failure (``leftover``), never the judge's
_EMPTY_FOLDER = 40  # the size of an empty folder on a tmpfs (20 bytes an entry, "." and ".." included)
_WIPE_DEPTH = 32  # folders open at once while wiping: a deeper folder is moved up to the top and wiped from there


def _wipe(path: str, keep: set[tuple[int, int]], deadline: float) -> None:
    """Delete everything under ``path`` that was not there when the box was made, never crossing into a mount
    (a shown file or folder) nor following a link; :class:`TimeoutError` past ``deadline`` (``time.monotonic``).

    Every step is relative to an open folder, so its cost is one system call an entry whatever the depth (a
    path walk from the top would cost the depth at every step: a chain of 1,900 nested folders, some 1.8
    million steps); a folder nested deeper than :data:`_WIPE_DEPTH` is moved up to the top, in one rename."""
    top = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    device = os.fstat(top).st_dev
    stack: list[list] = [[top, os.listdir(top), 0, None]]  # [folder, names, next index, child being emptied]
    moved = serial = steps = 0
    try:
        while stack:
            frame = stack[-1]
            folder, names, index, child = frame
            if child is not None:  # back from emptying it
                frame[3] = None
                os.rmdir(child, dir_fd=folder)
            if index == len(names):
                if len(stack) == 1 and moved:  # folders were moved up here: list again
                    frame[1], frame[2], moved = os.listdir(top), 0, 0
                    continue
                stack.pop()
                if folder != top:
                    os.close(folder)
                continue
            frame[2] = index + 1
            steps += 1
            if not steps & 255 and time.monotonic() > deadline:
                raise TimeoutError("what it left takes too long to delete")
            name = names[index]
            try:
                info = os.stat(name, dir_fd=folder, follow_symlinks=False)
            except FileNotFoundError:
                continue
            if info.st_dev != device:
                continue  # a mount: a shown file or folder
            kept = (info.st_dev, info.st_ino) in keep
            if info.st_mode & 0o170000 != 0o040000:  # not a folder
                if not kept:
                    os.unlink(name, dir_fd=folder)
                continue
            if not kept:
                if info.st_size <= _EMPTY_FOLDER:  # (a tmpfs folder's size counts its entries: one with none goes)
                    try:
                        os.rmdir(name, dir_fd=folder)
                        continue
                    except OSError as error:
                        if error.errno != errno.ENOTEMPTY:
                            raise
                if len(stack) >= _WIPE_DEPTH:
                    while True:
                        serial += 1
                        try:
                            os.rename(name, f".wipe-{serial}", src_dir_fd=folder, dst_dir_fd=top)
                            break
                        except OSError as error:  # a name of the program's own there: another
                            if error.errno not in (errno.EEXIST, errno.ENOTEMPTY, errno.EISDIR, errno.ENOTDIR):
                                raise
                    moved += 1
                    continue
            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder)
            frame[3] = None if kept else name
            stack.append([inner, os.listdir(inner), 0, None])
    finally:
        for frame in stack:
            if frame[0] != top:
                os.close(frame[0])
        os.close(top)


def _limit_inodes(paths: list[str], inodes: int) -> None:
    """Remount each tmpfs of ``paths`` with at most ``inodes`` files and folders (0: as it is), then give up
    ``CAP_SYS_ADMIN`` for good: what a program can leave there is bounded, and so is its deletion (the kernel's
    when the box ends, the init's :func:`_wipe` between programs).  Under an ordinary user the kernel refuses
    (``EPERM``: bwrap's ``--disable-userns`` runs the init in a user namespace nested in the one that owns the
    mounts): the mounts stay as they are, and the deletion is bounded by :data:`_WIPE_SECONDS` alone."""
    for path in paths if inodes else ():
        options = f"nr_inodes={inodes}".encode()
        if _libc.mount(None, path.encode(), None, _MS_REMOUNT | _MS_NOSUID | _MS_NODEV, options) != 0:
            if ctypes.get_errno() == errno.EPERM:
                break
            _check(-1, f"remount {path}")
    header, data = _CapHeader(_CAP_VERSION_3, 0), (_CapData * 2)()
    _check(_libc.capget(ctypes.byref(header), ctypes.byref(data)), "capget")
    for word in data:  # CAP_SYS_ADMIN is bit 21 of the first word
        word.effective &= ~(1 << _CAP_SYS_ADMIN)
        word.permitted &= ~(1 << _CAP_SYS_ADMIN)
        word.inheritable &= ~(1 << _CAP_SYS_ADMIN)
        break
    _check(_libc.capset(ctypes.byref(header), ctypes.byref(data)), "capset")


class Init:
    def __init__(self, control: _socket.socket) -> None:
        self.control = control
        self.config: dict = {}
        self.program: bytes = b""
        self.made: dict[str, set[tuple[int, int]]] = {}
        self.main: int | None = None
        self.waited = 0  # ns that the processes reaped so far had waited for a CPU (their main threads)
        self.started = time.monotonic()
        self.poller = select.poll()
        self.handoffs: set[int] = set()  # sockets over which a starting program passes its filter's listener
        self.listeners: set[int] = set()
        wake_read, wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self.wake = wake_read
        signal.set_wakeup_fd(wake_write)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        _libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)

    def send(self, *words: object) -> None:
        try:  # noqa: SIM105 - contextlib is not imported here (start-up time)
            self.control.send(" ".join(map(str, words)).encode("ascii", "replace"))
        except OSError:
            pass  # the judge is gone: the next receive says so

    def receive(self) -> tuple[bytes, list[int]]:
        data, ancillary, _, _ = self.control.recvmsg(1 << 16, _socket.CMSG_SPACE(3 * 4))
        fds = array.array("i")
        for level, kind, payload in ancillary:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
                fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
        return data, list(fds)

    def serve(self) -> None:
        control = self.control.fileno()
        self.poller.register(control, _IN)
        self.poller.register(self.wake, _IN)
        while True:
            events = dict(self.poller.poll())
            if self.wake in events:
                try:  # noqa: SIM105
                    os.read(self.wake, 4096)
                except OSError:
                    pass
                self.reap()
            for fd, event in events.items():
                if fd in self.listeners:
                    self.answer(fd, event)
                elif fd in self.handoffs:
                    self.take_listener(fd)
            if control in events:
                data, fds = self.receive()
                if not data:
                    return  # the judge is gone: the box ends with its init
                message = marshal.loads(data)
                if "config" in message:
                    self.config = message["config"]
                    self.program = self.config["seccomp"]
                    try:
                        _limit_inodes(self.config["tmpfs"], self.config.get("tmpfs_inodes", 0))
                    except OSError as error:
                        self.send("error", f"cannot limit the files of the box's tmpfs: {error}")
                        continue
                    self.made = {path: _entries(path) for path in self.config["tmpfs"]}
                    self.send("ready", _own_hwm())
                elif "run" in message:
                    self.run(message["run"], fds)
                elif "kill" in message:
                    self.clean()
                    self.send("clean")
                for fd in fds:
                    os.close(fd)

    def forget(self, fd: int, kind: set[int]) -> None:
        kind.discard(fd)
        self.poller.unregister(fd)
        os.close(fd)

    def take_listener(self, handoff: int) -> None:
        """Receive the listener that a starting program sends (nothing when it failed before)."""
        self.handoffs.discard(handoff)
        self.poller.unregister(handoff)
        channel = _socket.socket(fileno=handoff)
        try:
            _, ancillary, _, _ = channel.recvmsg(1, _socket.CMSG_SPACE(4))
        except OSError:
            ancillary = []
        finally:
            channel.close()
        for level, kind, payload in ancillary:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS and len(payload) >= 4:
                listener = int.from_bytes(payload[:4], sys.byteorder)
                os.set_inheritable(listener, False)
                self.listeners.add(listener)
                self.poller.register(listener, _IN)

    def answer(self, listener: int, event: int) -> None:
        """Answer one call that a program's filter handed over (a listener whose programs are all gone is
        closed: asking it then would wait for ever)."""
        if not event & _IN:
            if event & _HUP:
                self.forget(listener, self.listeners)
            return
        request = bytearray(_NOTIF.size)
        try:
            fcntl.ioctl(listener, _NOTIF_RECV, request, True)
        except OSError:
            return  # the caller is gone
        ident, pid, _, number, _, _, address, *_ = _NOTIF.unpack(request)
        failure = errno.ENOSYS
        if number == _SYSINFO.get(os.uname().machine):
            failure = self.write_sysinfo(listener, ident, pid, address)
        try:  # noqa: SIM105
            fcntl.ioctl(listener, _NOTIF_SEND, _NOTIF_RESP.pack(ident, 0, -failure, 0))
        except OSError:
            pass  # the caller is gone

    def write_sysinfo(self, listener: int, ident: int, pid: int, address: int) -> int:
        """Write the box's ``struct sysinfo`` at ``address`` of process ``pid``: 0, or the errno to answer."""
        total = self.config.get("totalram", 0)
        data = _SYSINFO_STRUCT.pack(int(time.monotonic() - self.started), 0, 0, 0, total, total, 0, 0, 0, 0, 1,
                                    0, 0, 0, 1)
        try:
            memory = os.open(f"/proc/{pid}/mem", os.O_WRONLY | os.O_CLOEXEC)
        except OSError:
            return errno.EFAULT
        try:  # the request still stands, so ``pid`` is still its caller (not a process that took the pid since)
            fcntl.ioctl(listener, _NOTIF_ID_VALID, _NOTIF_RESP.pack(ident, 0, 0, 0)[:8])
            if os.pwrite(memory, data, address) != len(data):
                return errno.EFAULT
        except (OSError, OverflowError, ValueError):
            return errno.EFAULT
        finally:
            os.close(memory)
        return 0

    def reap(self, block: bool = False) -> bool:
        """Reap what has exited (``block``: wait for one); False when no process is left.  Before it reaps one,
        the time its main thread waited for a CPU is added to ``waited`` (nanoseconds; sent with the main
        process's exit: the judge's figure of the program's run-queue delay)."""
        while True:
            try:
                found = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT | (0 if block else os.WNOHANG))
            except ChildProcessError:
                return False
            if found is None:
                return True
            self.waited += _run_delay_ns(found.si_pid)  # a zombie until reaped just below: its figure is there
            pid, status, usage = os.wait4(found.si_pid, 0)
            if pid == self.main:
                self.main = None
                self.send("exit", status, usage.ru_maxrss, self.waited)
            if block:
                return True

    def clean(self) -> None:
        """Kill every process of the box but this one, and reap them all (a fork racing the kill is caught by
        the next round)."""
        while True:
            try:  # noqa: SIM105
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass
            if not self.reap(block=True):
                return

    def run(self, argv: list[str], fds: list[int]) -> None:
        self.clean()
        for listener in list(self.listeners):  # the last program's, all of its processes gone
            self.forget(listener, self.listeners)
        deadline = time.monotonic() + _WIPE_SECONDS
        for path, keep in self.made.items():
            try:
                _wipe(path, keep, deadline)
            except (OSError, RecursionError) as error:
                self.send("leftover", f"cannot wipe {path}: {error}")
                return
        ours, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            ours.close()
            self.child(argv, fds, theirs)  # never returns
        theirs.close()
        handoff = ours.detach()
        self.handoffs.add(handoff)
        self.poller.register(handoff, _IN)
        self.main = pid
        self.send("started", pid)

    def child(self, argv: list[str], fds: list[int], handoff: _socket.socket) -> None:
        step = "set up"
        try:
            config = self.config
            signal.set_wakeup_fd(-1)
            for sig in _RESET_SIGNALS:
                signal.signal(sig, signal.SIG_DFL)
            os.setpgid(0, 0)  # a process group of its own, not a session: no new autogroup (its number is a count
            # of every setsid of the machine, /proc/self/autogroup)
            for target, fd in enumerate(fds):
                os.dup2(fd, target, inheritable=True)
            handoff = _socket.socket(fileno=os.dup2(handoff.detach(), 3, inheritable=False))
            os.closerange(4, max(os.sysconf("SC_OPEN_MAX"), 1024))
            step = f"enter {config['cwd']}"
            os.chdir(config["cwd"])
            step = "drop privileges"
            _libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
            uid = config["uid"]
            if uid is not None:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
            _check(_libc.capset(ctypes.byref(_CapHeader(_CAP_VERSION_3, 0)), ctypes.byref((_CapData * 2)())), "capset")
            keyctl = _KEYCTL.get(os.uname().machine)
            if keyctl is not None:  # an empty session keyring of its own: nothing of the judge's session
                _libc.syscall(keyctl, _KEYCTL_JOIN_SESSION_KEYRING, None)
            step = "set limits"
            for number, soft, hard in config["rlimits"]:
                resource.setrlimit(number, (soft, hard))
            step = "install the system-call filter"
            listener = install_filter(self.program, listen=True)
            if listener is not None:
                handoff.sendmsg([b"L"], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, array.array("i", [listener]))])
                os.close(listener)
            handoff.close()
            step = f"start {argv[0]}"
            os.execve(argv[0], argv, config["env"])
        except BaseException as error:  # report anything, then leave
            try:
                reason = os.strerror(error.errno) if isinstance(error, OSError) and error.errno else str(error)
                os.write(2, f"mjarena box: cannot {step}: {reason}\n".encode())
            finally:
                os._exit(127)
        os._exit(127)


def _run_delay_ns(pid: int) -> int:
    """The run-queue delay of process ``pid``'s main thread (ns, second figure of its ``schedstat``); 0 if unknown."""
    try:
        with open(f"/proc/{pid}/schedstat", "rb") as handle:
            return int(handle.read().split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def _own_hwm() -> int:
    try:
        with open("/proc/self/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def main() -> None:
    control = _socket.socket(fileno=int(sys.argv[1]))
    Init(control).serve()


if __name__ == "__main__" and len(sys.argv) > 1:
    main()
