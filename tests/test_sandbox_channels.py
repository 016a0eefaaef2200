"""No channel between colluding bots at one table (issue 36): what the kernel shares between boxes.

Two keep-running bots of ``tests/bots/attacks/counter_channel_bot.py``, both alive in boxes of their own, asked in
turn as at a table (the judge stops each between its turns): the sender encodes a secret of 32 bits (16 ones,
so that a receiver that learns nothing gets exactly half right), the receiver decodes it.  With
``--sandbox none`` it decodes more than the box allows (every bit on a quiet machine: :func:`assert_carried`), so
each test can fail; in the box the channel is closed: the calls fail, the counters stand still, and it decodes
half the bits, chance.  And the box's ``/proc`` and ``sysinfo`` show the box's own figures, not the machine's.
"""

from __future__ import annotations

import ctypes
import json
import mmap
import os
import random
import shutil
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from mjarena.protocol.process import BotProcess
from mjarena.sandbox import Sandbox, procview, run

from boxes import processes_with, requires_bwrap, sandbox_kinds

BOT = Path(__file__).resolve().parent / "bots" / "attacks" / "counter_channel_bot.py"
BITS = 32


def secret() -> str:
    """32 random bits, 16 of them ones."""
    bits = ["1"] * (BITS // 2) + ["0"] * (BITS // 2)
    random.SystemRandom().shuffle(bits)
    return "".join(bits)


def bot(kind: str, *argv: str, memory_mib: int = 128, readable: tuple[str, ...] = ()) -> BotProcess:
    return BotProcess([sys.executable, str(BOT), *argv], time_limit=5.0, memory_limit_mib=memory_mib,
                      sandbox=Sandbox(kind=kind), readable=readable)


def table(sender: BotProcess, receiver: BotProcess, turns: int) -> tuple[dict, dict]:
    """Ask the two in turn, sender first, ``turns`` times each; their last reports."""
    sent = received = {}
    with sender, receiver:
        for number in range(turns):
            request = "0 0" if number == 0 else f"3 {number % 4} PLAY W{number % 9 + 1}"
            replies = [sender.ask(request), receiver.ask(request.replace("0 0", "0 1"))]
            assert all(reply.kept for reply in replies), "both stay alive, stopped between their turns"
            sent, received = (json.loads(reply.debug or "{}") for reply in replies)
    return sent, received


def right(sent: str, decoded: str) -> int:
    return sum(a == b for a, b in zip(sent, decoded, strict=False))


def assert_at_chance(bits: str, decoded: str) -> None:
    """The receiver learned nothing: half its bits right (no more than chance allows), the counter unmoved."""
    assert len(decoded) == len(bits), decoded
    assert right(bits, decoded) <= BITS * 3 // 4, (bits, decoded)


ATTEMPTS = 3


def assert_carried(play: Callable[[str], dict]) -> None:
    """The half with no box, which shows that the test can fail: the receiver decodes more bits than
    :func:`assert_at_chance` lets a boxed one decode, in one of :data:`ATTEMPTS` tables (each with a secret of its
    own; ``play(bits)`` gives the receiver's last report).

    Why this holds on a busy machine: the counters are the whole machine's, so another program's threads or AIO
    contexts that come or go between a baseline and its reading flip a bit (4 of 32 beside a second ``make test``,
    where one exact decode was asked for and failed).  Such noise is rare and independent of the secret: it costs a
    few bits, never the more than a quarter that would bring the receiver down to the boxed half's bound, and a
    burst of it spoils one table, not three.  The boxed half is untouched: it still asserts, in one table, that the
    calls fail or read the box's own figures and that no more than chance arrives."""
    tries = []
    for _ in range(ATTEMPTS):
        bits = secret()
        received = play(bits)
        if right(bits, received["bits"]) > BITS * 3 // 4:
            return
        tries.append((bits, received))
    pytest.fail(f"the channel carried no more than chance in {ATTEMPTS} tables with no box: {tries}")


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_colluding_bots_cannot_talk_through_the_aio_counter(kind: str) -> None:
    """The sender holds an AIO context (``io_setup``) while it is stopped for a 1; the receiver reads the
    machine's count of AIO events (``/proc/sys/fs/aio-nr``) at its turn.  The count is the machine's, so with no
    box another program's AIO (the same test in a second run of the suite) can flip a bit: :func:`assert_carried`
    says why the unboxed half holds all the same."""
    if kind == "none":  # the channel is real: the bits arrive
        assert_carried(lambda bits: table(bot(kind, "send", "aio", bits), bot(kind, "receive", "aio", str(BITS)),
                                          2 * BITS)[1])
        return
    bits = secret()
    sent, received = table(bot(kind, "send", "aio", bits), bot(kind, "receive", "aio", str(BITS)), 2 * BITS)
    assert sent["errors"] == ["errno 1 (EPERM)"], sent  # io_setup is denied
    assert received["errors"] == ["errno 2 (ENOENT)"], received  # /proc/sys is empty
    assert set(received["seen"]) == {None}, received
    assert_at_chance(bits, received["bits"])


@pytest.mark.parametrize("counter", ["loadavg", "sysinfo"])
@pytest.mark.parametrize("kind", sandbox_kinds())
def test_colluding_bots_cannot_talk_through_the_machines_count_of_threads(kind: str, counter: str) -> None:
    """The sender holds 32 threads while it is stopped for a 1 (within its 128 processes); the receiver reads
    the machine's count of threads at its turn, from ``/proc/loadavg`` or ``sysinfo(2)`` (``procs``).  With no
    box, other programs' threads move that count too (4 bits of 32 flipped beside a second ``make test``; more
    beside batches of 20 threads that come and go every few milliseconds): :func:`assert_carried` says why the
    unboxed half holds all the same, and that the boxed half asserts as much as before."""

    def play(bits: str) -> dict:
        sent, received = table(bot(kind, "send", counter, bits), bot(kind, "receive", counter, str(BITS)), 2 * BITS)
        assert sent["errors"] == [], sent
        return received

    if kind == "none":
        assert_carried(play)
        return
    bits = secret()
    received = play(bits)
    assert received["errors"] == [] and set(received["seen"]) == {1}, received  # the box's own: one
    assert_at_chance(bits, received["bits"])


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_colluding_bots_cannot_talk_through_the_page_cache(kind: str, tmp_path: Path) -> None:
    """32 files of one page that both bots may read (the test's own, shown read-only, as ``/usr`` is to every
    box), out of the page cache: the sender drops a file's page (``posix_fadvise(DONTNEED)``) for a 0 and reads
    it for a 1; the receiver asks whether each page is cached (``mincore``, else ``preadv2(RWF_NOWAIT)``).  (What
    is left in the box, timing a read of a page that only the sender can have brought in, is measured by
    ``benchmarks/sandbox.py --page-cache``: docs/security.md.)"""
    folder = tmp_path / "pages"
    folder.mkdir()
    for number in range(BITS):
        with open(folder / str(number), "wb") as handle:
            handle.write(os.urandom(4096))
            os.fsync(handle.fileno())
        (folder / str(number)).chmod(0o644)
    folder.chmod(0o755)
    tmp_path.chmod(0o755)
    out_of_the_cache([folder / str(number) for number in range(BITS)])
    bits = secret()
    sender = bot(kind, "send", "pagecache", bits, str(folder), readable=(str(folder),))
    receiver = bot(kind, "receive", "pagecache", str(BITS), str(folder), readable=(str(folder),))
    sent, received = table(sender, receiver, 2)
    if kind == "none":
        assert received["bits"] == bits, (bits, received)
        return
    assert sent["errors"] == ["errno 1 (EPERM)"], sent  # fadvise denied: nothing is dropped
    # mincore fails with EPERM; preadv2 with ENOSYS, which the C library turns into ENOTSUP (asked with a flag)
    assert received["errors"] == ["errno 1 (EPERM)", "errno 95 (ENOTSUP)"], received
    assert_at_chance(bits, received["bits"])


def cached(path: Path) -> bool:
    """Whether the first page of ``path`` is in the page cache (``mincore`` of a mapping: brings nothing in)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    fd = os.open(path, os.O_RDONLY)
    try:
        pointer = libc.mmap(None, 4096, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        vector = (ctypes.c_ubyte * 1)()
        assert libc.mincore(pointer, 4096, vector) == 0, ctypes.get_errno()
        libc.munmap(pointer, 4096)
        return bool(vector[0] & 1)
    finally:
        os.close(fd)


def out_of_the_cache(paths: list[Path]) -> None:
    """Drop the pages of freshly written files (the file system lets them go once its journal has them)."""
    for _ in range(500):
        for path in paths:
            fd = os.open(path, os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
        if not any(cached(path) for path in paths):
            return
        time.sleep(0.02)
    pytest.fail("the test's files stay in the page cache")


FUTEX_BOT = Path(__file__).resolve().parent / "bots" / "attacks" / "futex_channel_bot.py"


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_bots_at_one_table_cannot_talk_through_a_futex_of_a_shared_file(kind: str) -> None:
    """48 threads of the sender wait (a shared ``FUTEX_WAIT``) on a word of the C library's code for a 1, and it
    answers once all of them wait; the receiver wakes that word at its turn and counts whom it woke.  A shared
    futex on a page of a file is keyed by the file's inode, so every box that maps the same ``libc.so`` shares
    it.  A stopped thread leaves the futex's queue, so the judge's stop between turns closes it, once the stop
    has taken hold: the freeze now waits for that (``mjarena.sandbox.accounting.await_stopped``).  Before, the
    receiver asked next found some of the waiters still queued (5 to 7 of 16 ones with no box, 1 or 2 in it):
    this test failed.  The word is drawn for each run: two suites running this test at once on one machine had met
    on the same word, each receiver waking the other's sender (both failed so)."""
    bits = secret()
    offset = f"{random.SystemRandom().randrange(0, 0x1000, 4):#x}"  # a word of this run's (another suite's apart)
    sent, received = table(bot(kind, "send", "futex", bits, offset), bot(kind, "receive", "futex", str(BITS), offset),
                           2 * BITS)
    assert sent["errors"] == [] and received["errors"] == [], (sent, received)
    assert set(received["seen"]) == {0}, received  # a wake never found a waiter
    assert_at_chance(bits, received["bits"])


def _waits_on_a_shared_futex(token: str, base: int, word: int) -> bool:
    """Whether a thread of a process with ``token`` in its argv is in a shared ``FUTEX_WAIT`` (operation 0: the
    interpreter's own waits are private) on the ``word``-th word of the bot's (from ``base`` of a page), as the judge
    sees it from outside the box."""
    number = str({"x86_64": 202, "aarch64": 98}[os.uname().machine])
    for pid in processes_with(token):
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/syscall") as handle:
                    fields = handle.read().split()
            except OSError:
                continue
            if len(fields) > 2 and fields[0] == number and int(fields[2], 16) == 0 \
                    and int(fields[1], 16) & 0xFFF == base + 4 * word:
                return True
    return False


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_bots_running_side_by_side_share_a_futex_of_a_shared_file(kind: str, token: str) -> None:
    """What is left, and why the stop matters: two bots that run at once (two games side by side, never two
    seats of one table) find each other through a futex of the C library's code, in the box too.  The sender's
    thread waits on the SECRET-th of 32 words; the receiver wakes each word until one wakes someone (5 bits).

    Why it holds on a busy machine: the receiver starts once the sender's thread waits (the test sees it in the
    futex from outside, within a minute at most), and the sender waits up to 30 s for the wake: a box may take
    seconds to start under load, where two bots started at once had raced (the receiver tries for 2 s)."""
    word = random.SystemRandom().randrange(32)
    base = random.SystemRandom().randrange(0, 0x1000, 0x80)  # words of this run's (another suite's run apart)
    results: dict[str, object] = {}

    def play(role: str, *argv: str) -> None:
        results[role] = run([sys.executable, str(FUTEX_BOT), role, *argv, token], sandbox=Sandbox(kind=kind),
                            time_limit=60)

    sender = threading.Thread(target=play, args=("send", f"{base:#x}", str(word)))
    receiver = threading.Thread(target=play, args=("receive", f"{base:#x}"))
    sender.start()
    end = time.monotonic() + 60
    while sender.is_alive() and not _waits_on_a_shared_futex(token, base, word) and time.monotonic() < end:
        time.sleep(0.01)
    receiver.start()
    sender.join()
    receiver.join()
    sent, received = (json.loads(results[role].stdout) for role in ("send", "receive"))  # type: ignore[attr-defined]
    assert sent == {"waited": "woken"} and received["woke"] == [word], (word, sent, received)


# -- what a box sees instead ------------------------------------------------------------------------------------

PROBE = r"""
import ctypes, json, os
class SysInfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3), ("totalram", ctypes.c_ulong),
                ("freeram", ctypes.c_ulong), ("rest", ctypes.c_char * 72)]
info = SysInfo()
ctypes.CDLL(None).sysinfo(ctypes.byref(info))
found = {"sysinfo": [info.totalram, info.freeram, list(info.loads)], "sys": os.path.isdir("/proc/sys/fs"),
         "phys": os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"), "cpus": os.cpu_count()}
for name in ("meminfo", "stat", "loadavg", "uptime", "vmstat", "pressure/memory", "diskstats", "interrupts"):
    try:
        with open("/proc/" + name) as handle:
            found[name] = handle.read()
    except OSError as error:
        found[name] = error.errno
print(json.dumps(found))
"""


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_a_box_sees_its_own_memory_and_fixed_counters(kind: str) -> None:
    """``/proc/meminfo``, ``sysinfo(2)`` and ``sysconf`` give the box's memory limit; ``stat``, ``loadavg``,
    ``uptime``, ``vmstat`` and pressure are fixed files (as many CPUs as the judge may use); ``/proc/sys`` is
    empty.  With no box, the machine's own."""
    found = json.loads(run([sys.executable, "-c", PROBE], sandbox=Sandbox(kind=kind), memory_mib=300).stdout)
    limit = 300 << 20
    if kind == "none":
        assert found["phys"] > limit and found["sys"] and found["loadavg"] != "0.00 0.00 0.00 1/1 1\n", found
        return
    assert found["sysinfo"] == [limit, limit, [0, 0, 0]] and found["phys"] == limit, found
    assert found["meminfo"] == procview.meminfo(limit), found["meminfo"]
    assert found["stat"] == procview.stat(len(os.sched_getaffinity(0))) and found["cpus"] == os.cpu_count()
    assert (found["loadavg"], found["uptime"]) == ("0.00 0.00 0.00 1/1 1\n", "0.00 0.00\n"), found
    assert set(found["vmstat"].split()[1::2]) == {"0"}, found["vmstat"]
    assert "total=0" in found["pressure/memory"] and found["diskstats"] == found["interrupts"] == ""
    assert found["sys"] is False


def test_sysinfo_outside_a_box_filter_fails_cleanly() -> None:
    """A program under the filter with no listener (not started by a box's init) gets ENOSYS from sysinfo,
    not a hang."""
    from mjarena.sandbox import seccomp
    from mjarena.sandbox.boxinit import install_filter

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            install_filter(seccomp.build())
            libc = ctypes.CDLL(None, use_errno=True)
            result = libc.syscall(seccomp.numbers()["sysinfo"], ctypes.create_string_buffer(128))
            os.write(write, f"{result} {ctypes.get_errno()}".encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as handle:
        said = handle.read()
    os.waitpid(pid, 0)
    assert said == "-1 38", said


@pytest.mark.parametrize("kind", sandbox_kinds())
@pytest.mark.parametrize("runtime", ["java", "node"])
def test_the_jvm_and_node_size_themselves_by_the_box_limit(kind: str, runtime: str) -> None:
    """A bot that asks how much memory there is gets its limit (1 GiB here): the JVM sizes its heap by it (a
    quarter, by default) and Node's ``os.totalmem()`` gives it; with no box, the machine's."""
    if shutil.which(runtime) is None and os.environ.get("MJARENA_REQUIRE_TOOLCHAINS") != "1":
        pytest.skip(f"{runtime} is not installed")
    argv = (["java", "-XX:+PrintFlagsFinal", "-version"] if runtime == "java"
            else ["node", "-e", "console.log('MaxHeapSize = ' + require('os').totalmem() / 4)"])
    result = run(argv, sandbox=Sandbox(kind=kind), memory_mib=1024, time_limit=20)
    assert result.ok, result.stderr.decode()
    heap = next(int(line.split("=")[1].split()[0]) for line in result.stdout.decode().splitlines()
                if line.split()[:2] in (["size_t", "MaxHeapSize"], ["MaxHeapSize", "="]))
    if kind == "none":
        assert heap > 1 << 28, heap
    else:
        assert heap == 1 << 28, heap  # a quarter of 1 GiB


# -- pages of the runtime's files (issue 36): each seat slot its own copies -----------------------------------

PAGE_BOT = r"""
import ctypes, json, os, struct, sys
role, path, stride, bits = sys.argv[1], sys.argv[2].partition("=")[2], int(sys.argv[3]), sys.argv[4]
libc = ctypes.CDLL(None)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
fd = os.open(path, os.O_RDONLY)
base = libc.mmap(None, len(bits) * stride, 1, 2, fd, 0)
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.madvise(base, len(bits) * stride, 1)  # MADV_RANDOM: a fault reads its own page alone, not ahead
line = sys.stdin.readline()
while line:
    report = {}
    if role == "send" and "W2" in line:  # a 1: the block's page read into the page cache, and kept mapped
        for number, bit in enumerate(bits):
            if bit == "1":
                ctypes.c_char.from_address(base + number * stride).value
    elif role == "receive" and "W1" in line:  # a page mapped by no one else is "exclusively mapped" in pagemap
        decoded = ""
        with open("/proc/self/pagemap", "rb", buffering=0) as pagemap:
            for number in range(len(bits)):
                ctypes.c_char.from_address(base + number * stride).value
                pagemap.seek((base + number * stride) // 4096 * 8)
                decoded += "0" if struct.unpack("<Q", pagemap.read(8))[0] >> 56 & 1 else "1"
        report = {"bits": decoded}
    sys.stdout.write(json.dumps({"response": "PASS", "debug": report}) + "\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n")
    sys.stdout.flush()
    line = sys.stdin.readline()
"""
PAGE_STRIDE = 92 << 10  # past the pages a fault maps around the one it reads


def _runtime_target() -> str:
    """A file of the Python runtime that every Python box shows and that hardly anything maps or reads (the
    topics of ``help()``)."""
    found = sorted(Path(os.path.realpath(sys.executable)).parent.parent.glob("lib/python3*/pydoc_data/topics.py"))
    assert found and found[0].stat().st_size >= PAGE_STRIDE * EIGHT, found
    return str(found[0])


def _drop(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def _cached(path: str, offsets: list[int]) -> str:
    """Which of the pages at ``offsets`` of ``path`` are in the page cache (``mincore``, the judge's side: the
    strongest receiver there is)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    size = os.path.getsize(path)
    fd = os.open(path, os.O_RDONLY)
    try:
        base = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        vector = (ctypes.c_ubyte * (size // 4096 + 1))()
        libc.mincore(base, size, vector)
        libc.munmap(base, size)
    finally:
        os.close(fd)
    return "".join("1" if vector[offset // 4096] & 1 else "0" for offset in offsets)


EIGHT = 8


def _page_table(sandbox: Sandbox, script: Path, target: str, bits: str) -> tuple[str, str] | None:
    """One table of two seats: the sender at seat 0 maps ``target`` and reads the blocks of its 1s, and stays
    stopped; what the judge then finds cached in the file the receiver's box shows at that path, and what the
    receiver (seat 1) decodes from ``pagemap``.  None when that file's pages could not be dropped first (a program
    outside the test maps or reads them)."""
    python = os.path.realpath(sys.executable)

    def seat(number: int, role: str) -> BotProcess:
        # (the path in a word of its own would be shown as a file the bot names, from the judge's disk)
        return BotProcess([python, str(script), role, f"file={target}", str(PAGE_STRIDE), bits], time_limit=10.0,
                          sandbox=sandbox, readable=[str(script)], seat=number)

    sender, receiver = seat(0, "send"), seat(1, "receive")
    offsets = [number * PAGE_STRIDE for number in range(len(bits))]
    with sender, receiver:
        receiver.ask("0 1")  # their boxes made (and their copies), nothing of the target touched yet
        sender.ask("0 0")
        seen = target
        if sandbox.kind == "bwrap":
            seen = f"/proc/{receiver._box.init_pid}/root{target}"
        for path in {target, seen}:
            _drop(path)
        if _cached(seen, offsets) != "0" * len(bits):
            return None
        sender.ask("2 W2")  # sends: from here to the judge's look, one turn
        cached = _cached(seen, offsets)
        mapped = json.loads(receiver.ask("2 W1").debug or "{}")["bits"]
    return cached, mapped


@pytest.mark.parametrize(("kind", "private"), [
    pytest.param("none", False, id="none"), pytest.param("bwrap", False, id="bwrap-shared", marks=requires_bwrap),
    pytest.param("bwrap", True, id="bwrap-copies", marks=requires_bwrap)])
def test_seats_of_one_table_share_no_page_of_their_runtime(kind: str, private: bool, tmp_path: Path) -> None:
    """The two channels through the pages of a file that both boxes show: the page cache (a page the sender read
    is cached for the receiver: here the judge looks, with ``mincore``, at the file the receiver's box shows at
    that path) and the count of mappings (the receiver reads ``pagemap``'s "exclusively mapped" bit of a page the
    sender keeps mapped while stopped).  With ``--sandbox none`` or boxes that show the shared ``/usr`` and
    interpreter both decode every bit; with each seat slot's own copies neither learns anything.

    Why the shared halves hold on a busy machine: the file is the machine's, and another program may read or map
    it at the same time: a runtime being copied reads it whole (all 8 pages cached, seen beside a second
    ``make test``), the same test in another run maps it.  So the window is short (both seats start before the
    pages are dropped; the sender sends in one turn of its own, and the judge looks right after it), and such
    noise only ever adds pages: a table counts when it decodes every bit of its own secret, and one of
    :data:`ATTEMPTS` tables of fresh seats must (a table whose pages could not even be dropped first is one of
    them; beside a program reading the whole file ten times a second, each of 3 runs passed, where one table had
    failed 3 of 3).  The copies' half is one table, asserted whole: its own copy starts uncached, and nothing of it
    is cached or mapped by the sender."""
    target = _runtime_target()
    script = tmp_path / "page_bot.py"
    script.write_text(PAGE_BOT)
    script.chmod(0o644)
    tmp_path.chmod(0o755)
    sandbox = Sandbox(kind=kind, private_runtimes=private, runtime_copies=str(tmp_path.parent / "copies"))

    def eight_bits() -> str:  # a table's own secret: another run of this test sends another
        bits = ["1"] * (EIGHT // 2) + ["0"] * (EIGHT // 2)
        random.SystemRandom().shuffle(bits)
        return "".join(bits)

    if private:
        found = _page_table(sandbox, script, target, eight_bits())
        assert found is not None, "the pages of the seat's own copy start uncached"
        cached, mapped = found
        assert cached == "0" * EIGHT, cached  # the sender warmed its own slot's copy only
        assert mapped == "0" * EIGHT, mapped  # and mapped it: no page the receiver maps is mapped by it
        return
    tries = []
    for _ in range(ATTEMPTS):
        bits = eight_bits()
        found = _page_table(sandbox, script, target, bits)
        if found == (bits, bits):
            return
        tries.append((bits, found))
    pytest.fail(f"no table of {ATTEMPTS} decoded its bits (sent, (cached, mapped)) with the file shared: {tries}")
