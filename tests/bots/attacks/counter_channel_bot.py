"""Two bots at one table pass bits through what the kernel shares between boxes (keep-running, both alive: the
judge stops each between its turns).

``counter_channel_bot.py send CHANNEL BITS [ARG]`` and ``counter_channel_bot.py receive CHANNEL COUNT [ARG]``.
The two are asked in turn, sender first.  For a counter (``aio``, ``loadavg``, ``sysinfo``, ``futex``) each bit
takes two rounds: in the sender's even turns it holds nothing and the receiver reads the counter (the baseline);
in its odd turns it holds the bit (an AIO context of 4,096 events, 32 threads, or 48 threads waiting on a futex,
for a 1) and the receiver reads again: a 1 when the counter went up (by 16 or more for threads).
- ``aio``: ``io_setup`` while frozen; the receiver reads ``/proc/sys/fs/aio-nr`` (the machine's count of AIO
  events).
- ``loadavg``: the receiver reads the machine's count of threads in ``/proc/loadavg`` (``running/ALL``);
  ``sysinfo``: the same count, ``procs`` of ``sysinfo(2)``.  (Free memory moves too, but the kernel's per-CPU
  lists of free pages blur it: a count of threads is exact.)
- ``futex``: the sender's threads wait (``FUTEX_WAIT``, shared) on a word of the C library's code, a page of a
  file that every process maps, and answer once all of them wait; the receiver wakes that word (``FUTEX_WAKE``):
  the count it woke is the counter (ARG: the word's offset in its page, in hex; 0x40 without it).
``pagecache`` (ARG: the folder of COUNT files of one page, which both see read-only, written and synced by the
test): in its first turn the sender reads file I for a 1 and drops its page with ``posix_fadvise(DONTNEED)`` for
a 0; the receiver, in its first turn, asks whether each page is cached with ``mincore`` on a mapping of it, or with
``preadv2(RWF_NOWAIT)`` (``EAGAIN``: not cached) when that call is denied: the bits at once.
Each answer reports in ``debug`` (and on standard error, ``REPORT {json}``): the bits decoded so far (``bits``),
what was read (``seen``) and the errors (``"errno N (NAME)"``).
"""

import ctypes
import errno
import json
import mmap
import os
import sys
import threading

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
FUTEX = {"x86_64": 202, "aarch64": 98}[os.uname().machine]
WAITERS = 48
REPORT = {"bits": "", "seen": [], "errors": []}
LIBC = ctypes.CDLL(None, use_errno=True)
IO_SETUP = {"x86_64": 206, "aarch64": 0}[os.uname().machine]
IO_DESTROY = {"x86_64": 207, "aarch64": 1}[os.uname().machine]


def report(**items):
    REPORT.update(items)
    print("REPORT " + json.dumps(REPORT), file=sys.stderr, flush=True)


def failure(number):
    return f"errno {number} ({errno.errorcode.get(number, '?')})"


def note_error(number):
    text = failure(number)
    if text not in REPORT["errors"]:
        REPORT["errors"].append(text)


class SysInfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3), ("totalram", ctypes.c_ulong),
                ("freeram", ctypes.c_ulong), ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong), ("procs", ctypes.c_ushort),
                ("pad", ctypes.c_ushort), ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint), ("_f", ctypes.c_char * 8)]


FUTEX_OFFSET = [0x40]
"""Where the futex's word is in its page (``futex``'s ARG, in hex: the test draws it, so that two runs of the test
at once, two test suites on one machine, wait on words of their own)."""


def futex_word():
    """The address of a word of the C library's code (the page of ``printf``): a page of a shared file."""
    return (ctypes.cast(LIBC.printf, ctypes.c_void_p).value & ~0xFFF) + FUTEX_OFFSET[0]


def futex_wake(address):
    return LIBC.syscall(FUTEX, ctypes.c_void_p(address), 1, 1 << 30, None, None, 0)  # FUTEX_WAKE, shared


def futex_wait():
    address = futex_word()
    value = ctypes.c_uint32.from_address(address).value
    if LIBC.syscall(FUTEX, ctypes.c_void_p(address), 0, ctypes.c_uint32(value), None, None, 0) != 0:  # FUTEX_WAIT
        note_error(ctypes.get_errno())


def waiting_in_futex(thread_id):
    try:
        with open(f"/proc/self/task/{thread_id}/syscall") as handle:
            return handle.read().split()[0] == str(FUTEX)
    except (OSError, IndexError):
        return False


def read_counter(channel):
    """The counter as the receiver sees it now (None when it cannot be read)."""
    try:
        if channel == "futex":
            return futex_wake(futex_word())
        if channel == "aio":
            with open("/proc/sys/fs/aio-nr") as handle:
                return int(handle.read())
        if channel == "loadavg":
            with open("/proc/loadavg") as handle:
                return int(handle.read().split()[3].split("/")[1])
        info = SysInfo()
        if LIBC.sysinfo(ctypes.byref(info)) != 0:
            note_error(ctypes.get_errno())
            return None
        return info.procs
    except OSError as error:
        note_error(error.errno)
        return None


class Sender:
    def __init__(self, channel, bits, arg):
        self.channel, self.bits, self.arg = channel, bits, arg
        self.turn = 0
        self.held = None

    def release(self):
        if self.held is not None and self.channel == "aio":
            LIBC.syscall(IO_DESTROY, self.held)
        elif self.held is not None and self.channel == "futex":
            while any(worker.is_alive() for worker in self.held):
                futex_wake(futex_word())
                self.held[0].join(0.001)
        elif self.held is not None:
            done, workers = self.held
            done.set()
            for worker in workers:
                worker.join()
        self.held = None

    def hold(self):
        if self.channel == "aio":
            context = ctypes.c_ulong(0)
            if LIBC.syscall(IO_SETUP, 4096, ctypes.byref(context)) != 0:
                note_error(ctypes.get_errno())
                return
            self.held = context.value
        elif self.channel == "futex":
            self.held = [threading.Thread(target=futex_wait) for _ in range(WAITERS)]
            for worker in self.held:
                worker.start()
            for worker in self.held:  # answer only once every one of them waits (or gave up)
                while worker.is_alive() and not waiting_in_futex(worker.native_id):
                    worker.join(0.0005)
        else:
            done = threading.Event()
            workers = [threading.Thread(target=done.wait) for _ in range(32)]
            for worker in workers:
                worker.start()
            self.held = (done, workers)

    def play(self):
        index, holding = divmod(self.turn, 2)
        self.turn += 1
        if self.channel == "pagecache":
            if index == 0 and not holding:
                self.send_pages()
            return
        self.release()
        if holding and index < len(self.bits) and self.bits[index] == "1":
            self.hold()
        report(sent=self.bits[: index + 1])

    def send_pages(self):
        for number, bit in enumerate(self.bits):
            fd = os.open(os.path.join(self.arg, str(number)), os.O_RDONLY)
            try:
                if bit == "1":
                    os.pread(fd, 4096, 0)
                else:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            except OSError as error:
                note_error(error.errno)
            finally:
                os.close(fd)
        report(sent=self.bits)


class Receiver:
    def __init__(self, channel, count, arg):
        self.channel, self.count, self.arg = channel, count, arg
        self.turn = 0
        self.baseline = None

    def play(self):
        index, second = divmod(self.turn, 2)
        self.turn += 1
        if self.channel == "pagecache":
            if self.turn == 1:
                self.receive_pages()
            return
        if index >= self.count:
            return
        value = read_counter(self.channel)
        REPORT["seen"].append(value)
        if not second:
            self.baseline = value
            return
        if value is None or self.baseline is None:
            bit = "0"
        elif self.channel in ("aio", "futex"):
            bit = "1" if value > self.baseline else "0"
        else:
            bit = "1" if value - self.baseline >= 16 else "0"
        report(bits=REPORT["bits"] + bit)

    def receive_pages(self):
        bits = ""
        for number in range(self.count):
            fd = os.open(os.path.join(self.arg, str(number)), os.O_RDONLY)
            try:
                bits += self.probe(fd)
            finally:
                os.close(fd)
        report(bits=bits)

    def probe(self, fd):
        """``1`` when the file's first page is in the page cache, ``0`` when not (or when nothing can tell): asked
        with ``mincore`` (exact), else with ``preadv2(RWF_NOWAIT)`` (which may find the page read in by the
        readahead it starts itself, on a fast disk)."""
        vector = (ctypes.c_ubyte * 1)()
        pointer = LIBC.mmap(None, 4096, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        try:
            if LIBC.mincore(pointer, 4096, vector) == 0:
                return "1" if vector[0] & 1 else "0"
            note_error(ctypes.get_errno())
        finally:
            LIBC.munmap(pointer, 4096)
        try:
            os.preadv(fd, [bytearray(4096)], 0, os.RWF_NOWAIT)
            return "1"
        except BlockingIOError:
            return "0"
        except OSError as error:
            note_error(error.errno)
        return "0"


def answer(request):
    words = request.split()
    if words and words[0] == "2":
        return "PLAY " + words[1]
    return "PASS"


def main():
    LIBC.mmap.restype = ctypes.c_void_p
    LIBC.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    LIBC.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    LIBC.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    LIBC.syscall.restype = ctypes.c_long
    role, channel, what = sys.argv[1], sys.argv[2], sys.argv[3]
    arg = sys.argv[4] if len(sys.argv) > 4 else "0"
    if channel == "futex" and len(sys.argv) > 4:
        FUTEX_OFFSET[0] = int(arg, 16) & 0xFFC
    bot = Sender(channel, what, arg) if role == "send" else Receiver(channel, int(what), arg)
    line = sys.stdin.readline()
    request = json.loads(line)["requests"][-1]
    while True:
        bot.play()
        print(json.dumps({"response": answer(request), "debug": REPORT}), flush=True)
        print(MARKER, flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        request = json.loads(line)


if __name__ == "__main__":
    main()
