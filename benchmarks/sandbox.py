"""What the sandbox costs per request, next to no sandbox, measured in the same run.

    python benchmarks/sandbox.py [--c-requests 300] [--py-requests 120] [--per-box 20] [--requests 3000]
                                 [--bots c,python] [--json FILE]

The figures are ratios to no sandbox, measured in the same run, interleaved request by request.

- restart mode, the way a game sees it: ONE :class:`BotProcess` per kind answers ``--per-box`` restart-mode
  requests in a row (a restart-mode bot exits after each answer, so every request after the first starts the
  program afresh, given the whole history); then it is closed and a new one takes over, so the history stays
  short.  The box and no box are asked in turn (A B, B A, ...).  Two trivial bots: a C program (compiled with
  ``gcc`` at start: it reads one line, prints ``{"response":"PASS"}`` and exits) and a Python script (the
  same, run by the real interpreter both ways).  Counted apart:

  * a *restart request*: every request of a :class:`BotProcess` but its first (median ms per request);
  * a *box start*: constructing a :class:`BotProcess` and its first request (where a box made once per seat per
    game is made), and a *close*: :meth:`BotProcess.close` (where it is torn down).

- keep-running mode: the median round trip of one kept bot, box and no box, alternating rounds of 100 requests
  (with the box, each round trip also thaws and freezes the bot's process tree).

- ``--page-cache N`` (issue 36): what is left of the page cache as a channel between two boxes at one table.
  N files of one page, out of the page cache, shown read-only to two keep-running bots in boxes of their own
  (as ``/usr`` is shown to every box); the sender reads file I for a 1 (it cannot drop a page: ``fadvise`` and
  ``MADV_PAGEOUT`` are denied); the receiver times one read of each file (it cannot ask the cache:
  ``preadv2(RWF_NOWAIT)``, ``mincore`` and ``cachestat`` are denied) and says 1 for a read under 8 times the
  fastest.  Printed: bits right of N (N/2 is chance), the median read of a cached and of an
  uncached page, and the receiver's time per bit.  Each page carries one bit once: reading it brings it in.

- ``--mapcount N`` (issue 36): the other channel left, the count of processes that map a page of a shared file.
  A file of N blocks of 2 MiB that both bots may read; the sender maps block I for a 1 (and stays stopped with
  it mapped); the receiver maps every block and reads its own ``/proc/self/pagemap``: a page mapped by no one
  else is marked "exclusively mapped" (``smaps``' ``Shared_Clean`` and ``Pss`` tell the same).  Printed: bits
  right of N, and the receiver's time a bit.
  Unlike the page cache's, this one is not used up: the sender can unmap and map again at every turn.

Each figure is measured for a third kind too, ``copies``: a box of seat 0 of a table, shown its seat slot's own
copies of its runtime instead of the shared ``/usr`` (issue 36; made before the run if missing).

Goals (issue 23): at most 1.5 ms per restart request over no sandbox, for the C bot and the Python bot alike,
and at most 0.2 ms per keep-running round trip.  (Issue 12's goal, 10 ms per restart request, was met by a fresh
``bwrap`` per request.)  The figure names of earlier versions are kept: ``restart request, ...`` without a bot's
name is the Python bot's.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, load_average, machine_line, parser

import mjarena
from mjarena.protocol.process import BotProcess
from mjarena.sandbox import Sandbox

TRIVIAL_BOT = r"""
import json, sys
line = sys.stdin.readline()
while line:
    json.loads(line)
    sys.stdout.write('{"response": "PASS"}\n')
    if "--keep" in sys.argv:
        sys.stdout.write(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n")
    sys.stdout.flush()
    if "--keep" not in sys.argv:
        break
    line = sys.stdin.readline()
"""
TRIVIAL_C_BOT = r"""
#include <stdio.h>
int main(void) {
    int c;
    while ((c = getchar()) != EOF && c != '\n') {}
    fputs("{\"response\":\"PASS\"}\n", stdout);
    return 0;
}
"""
KINDS = ("none", "bwrap", "copies")  # copies: a box of a table's seat, its slot's own copies of its runtime


def bot_process(command: list[str], kind: str) -> BotProcess:
    """A bot in a box of ``kind``: ``none``, ``bwrap`` (the shared ``/usr``) or ``copies`` (seat 0's copies)."""
    if kind == "copies":
        return BotProcess(command, time_limit=5.0, sandbox=Sandbox(kind="bwrap"), seat=0)
    return BotProcess(command, time_limit=5.0, sandbox=Sandbox(kind=kind, private_runtimes=False))
PAGE_CACHE_BOT = r"""
import json, os, sys, time
role, folder, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
line = sys.stdin.readline()
report = {}
if role == "send":
    for number, bit in enumerate(sys.argv[4]):
        if bit == "1":
            with open(os.path.join(folder, str(number)), "rb") as handle:
                handle.read(4096)
else:
    times = []
    begin = time.perf_counter()
    for number in range(count):
        fd = os.open(os.path.join(folder, str(number)), os.O_RDONLY)
        start = time.perf_counter_ns()
        os.pread(fd, 4096, 0)
        times.append(time.perf_counter_ns() - start)
        os.close(fd)
    report = {"times": times, "seconds": time.perf_counter() - begin}
while line:
    sys.stdout.write(json.dumps({"response": "PASS", "debug": report}) + "\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n")
    sys.stdout.flush()
    line = sys.stdin.readline()
"""


def request_text(number: int) -> str:
    """The ``number``-th request of a short made-up game: a seat, then draws and plays of others."""
    if number == 0:
        return "0 1"
    return f"3 {number % 4} PLAY W{number % 9 + 1}"


class _Sequence:
    """One kind's :class:`BotProcess` answering restart-mode requests in a row, replaced every ``per_box``."""

    def __init__(self, command: list[str], kind: str, per_box: int) -> None:
        self.command = command
        self.kind = kind
        self.per_box = per_box
        self.process: BotProcess | None = None
        self.asked = 0
        self.restart: list[float] = []  # ms, every request of a BotProcess but its first
        self.start: list[float] = []  # ms, BotProcess() and its first request
        self.close: list[float] = []  # ms, BotProcess.close()

    def step(self) -> None:
        """One request (a new BotProcess first when due; the old one closed, and timed, when full)."""
        clock = time.perf_counter
        if self.process is None:
            begin = clock()
            self.process = bot_process(self.command, self.kind)
            reply = self.process.ask(request_text(0))
            self.start.append((clock() - begin) * 1000)
            self.asked = 1
        else:
            request = request_text(self.asked)
            begin = clock()
            reply = self.process.ask(request)
            self.restart.append((clock() - begin) * 1000)
            self.asked += 1
        if reply.mode != "restart" or reply.response != "PASS":
            raise SystemExit(f"{self.kind}: expected a restart-mode PASS, got {reply!r}")
        if self.asked >= self.per_box:
            self.finish()

    def finish(self) -> None:
        if self.process is not None:
            begin = time.perf_counter()
            self.process.close()
            self.close.append((time.perf_counter() - begin) * 1000)
            self.process = None


def restart_sequence(command: list[str], requests: int, per_box: int) -> dict[str, dict[str, list[float]]]:
    """Per kind: the ms of restart requests, box starts and closes, the kinds interleaved request by request."""
    sequences = {kind: _Sequence(command, kind, per_box) for kind in KINDS}
    steps: list[Callable[[], None]] = [sequence.step for sequence in sequences.values()]
    try:
        for number in range(requests):
            for step in steps if number % 2 == 0 else reversed(steps):
                step()
    finally:
        for sequence in sequences.values():
            sequence.finish()
    return {kind: {"restart": s.restart, "start": s.start, "close": s.close} for kind, s in sequences.items()}


def keep(command: list[str], requests: int) -> dict[str, float]:
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    processes = {kind: bot_process([*command, "--keep"], kind) for kind in KINDS}
    try:
        for process in processes.values():
            process.ask("0 1")
        for round_no in range(max(1, requests // 100)):
            for kind, process in processes.items():
                for number in range(100):
                    start = time.perf_counter()
                    reply = process.ask(f"3 {number % 4} PLAY W{(round_no + number) % 9 + 1}")
                    times[kind].append((time.perf_counter() - start) * 1000)
                    assert reply.mode == "keep"
    finally:
        for process in processes.values():
            process.close()
    return {kind: statistics.median(values) for kind, values in times.items()}


def compile_c_bot(folder: Path) -> list[str]:
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        raise SystemExit("no gcc: the C bot cannot be built (leave it out with --bots python)")
    source = folder / "trivial_bot.c"
    source.write_text(TRIVIAL_C_BOT)
    binary = folder / "trivial_bot"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(source)], check=True)
    return [str(binary)]


MAPCOUNT_BOT = r"""
import ctypes, json, os, struct, sys
role, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
fd = os.open(path, os.O_RDONLY)
STRIDE = 2 << 20  # a fault maps the pages around it too, and a large folio of the page cache is "shared" as a whole
base = libc.mmap(None, count * STRIDE, 1, 2, fd, 0)  # PROT_READ, MAP_PRIVATE: the page cache's pages themselves
line = sys.stdin.readline()
report = {}
if role == "send":
    for number, bit in enumerate(sys.argv[4]):
        if bit == "1":
            ctypes.c_char.from_address(base + number * STRIDE).value
else:
    import time
    begin = time.perf_counter()
    bits = ""
    with open("/proc/self/pagemap", "rb", buffering=0) as pagemap:
        for number in range(count):
            ctypes.c_char.from_address(base + number * STRIDE).value
            pagemap.seek((base + number * STRIDE) // 4096 * 8)
            bits += "0" if struct.unpack("<Q", pagemap.read(8))[0] >> 56 & 1 else "1"
    report = {"bits": bits, "seconds": time.perf_counter() - begin}
while line:
    sys.stdout.write(json.dumps({"response": "PASS", "debug": report}) + "\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n")
    sys.stdout.flush()
    line = sys.stdin.readline()
"""


def mapcount(record: Record, folder: Path, count: int) -> None:
    """The count of mappings of a shared file's pages between two boxes: bits right of ``count``."""
    import json
    import random

    path = folder / "mapped"
    path.write_bytes(os.urandom((2 << 20) * count))
    path.chmod(0o644)
    _cold([path])  # read in again by the bots' faults: folios of the size a read makes, not a write
    bits = "".join(random.choice("01") for _ in range(count))
    script = folder / "mapcount_bot.py"
    script.write_text(MAPCOUNT_BOT)
    python = os.path.realpath(sys.executable)
    sender = BotProcess([python, str(script), "send", str(path), str(count), bits], time_limit=10.0)
    receiver = BotProcess([python, str(script), "receive", str(path), str(count)], time_limit=10.0)
    with sender, receiver:
        sender.ask("0 0")
        report = json.loads(receiver.ask("0 1").debug or "{}")
        sender.ask("2 W1")
    decoded = report["bits"]
    right = sum(a == b for a, b in zip(bits, decoded, strict=True))
    per_bit = report["seconds"] / count * 1e6
    record.add("mapcount of a shared file's pages between two boxes, bits right", right, "bits",
               anchor=("bits sent", count))
    record.note("mapcount", {"receiver_us_per_bit": round(per_bit, 1)})
    print(f"mapcount of a shared file's pages between two boxes: {right} of {count} bits right ({count // 2} is "
          f"chance), {per_bit:.0f} us a bit, again at every turn")


def _cold(paths: list[Path]) -> None:
    """Drop the pages of freshly written files (ext4 lets them go once its journal has them)."""
    import ctypes
    import mmap

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]

    def cached(path: Path) -> bool:
        fd = os.open(path, os.O_RDONLY)
        try:
            pointer = libc.mmap(None, 4096, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
            vector = (ctypes.c_ubyte * 1)()
            libc.mincore(pointer, 4096, vector)
            libc.munmap(pointer, 4096)
            return bool(vector[0] & 1)
        finally:
            os.close(fd)

    for _ in range(500):
        for path in paths:
            fd = os.open(path, os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
        if not any(cached(path) for path in paths):
            return
        time.sleep(0.02)
    raise SystemExit("the benchmark's files stay in the page cache (a file system that keeps them, tmpfs?)")


def page_cache(record: Record, folder: Path, count: int) -> None:
    """The page cache's read timing between two boxes: bits right of ``count`` (see the module's docstring)."""
    import json
    import random

    pages = folder / "pages"
    pages.mkdir()
    for number in range(count):
        with open(pages / str(number), "wb") as handle:
            handle.write(os.urandom(4096))
            os.fsync(handle.fileno())
        (pages / str(number)).chmod(0o644)
    pages.chmod(0o755)
    _cold([pages / str(number) for number in range(count)])
    bits = "".join(random.choice("01") for _ in range(count))
    script = folder / "page_cache_bot.py"
    script.write_text(PAGE_CACHE_BOT)
    python = os.path.realpath(sys.executable)
    sender = BotProcess([python, str(script), "send", str(pages), str(count), bits], time_limit=10.0)
    receiver = BotProcess([python, str(script), "receive", str(pages), str(count)], time_limit=10.0)
    with sender, receiver:
        sender.ask("0 0")
        report = json.loads(receiver.ask("0 1").debug or "{}")
        sender.ask("2 W1")  # both alive, as at a table
    times = report["times"]
    cutoff = 8 * min(times)  # a read from the disk takes tens of times longer than one from memory
    decoded = "".join("1" if time_ns < cutoff else "0" for time_ns in times)
    right = sum(a == b for a, b in zip(bits, decoded, strict=True))
    warm = statistics.median([t for t, bit in zip(times, bits, strict=True) if bit == "1"] or [0]) / 1000
    cold = statistics.median([t for t, bit in zip(times, bits, strict=True) if bit == "0"] or [0]) / 1000
    per_bit = report["seconds"] / count * 1e6
    record.add("page cache read timing between two boxes, bits right", right, "bits", anchor=("bits sent", count))
    record.note("page cache read timing", {"cached_us": round(warm, 1), "uncached_us": round(cold, 1),
                                           "receiver_us_per_bit": round(per_bit, 1)})
    print(f"page cache read timing between two boxes: {right} of {count} bits right ({count // 2} is chance); "
          f"a cached page read in {warm:.1f} us, an uncached one in {cold:.1f} us; {per_bit:.0f} us a bit")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report_restart(record: Record, bot: str, times: dict[str, dict[str, list[float]]], legacy: bool) -> None:
    """The figures of one bot's restart sequence: restart requests, box starts, closes."""
    median = {kind: {part: statistics.median(values) for part, values in parts.items() if values}
              for kind, parts in times.items()}
    boxed, bare = median["bwrap"], median["none"]
    prefix = "restart request" if legacy else f"restart request, {bot} bot"
    figure = record.add(f"{prefix}, boxed / no box", boxed["restart"], "ms", anchor=("no box, ms", bare["restart"]))
    record.add(f"{prefix}, box overhead", boxed["restart"] - bare["restart"], "ms", goal=("<=", 1.5))
    start = record.add(f"box start (new BotProcess and its first request), {bot} bot, boxed / no box",
                       boxed["start"], "ms", anchor=("no box, ms", bare["start"]))
    record.add(f"box start, {bot} bot, box overhead", boxed["start"] - bare["start"], "ms")
    close = record.add(f"BotProcess.close after restart requests, {bot} bot, boxed / no box", boxed["close"], "ms",
                       anchor=("no box, ms", bare["close"]))
    counts = {kind: {part: len(values) for part, values in parts.items()} for kind, parts in times.items()}
    record.note(f"restart {bot} bot", {
        "counts": counts,
        "p90_ms": {kind: round(percentile(times[kind]["restart"], 0.9), 3) for kind in KINDS},
        "mean_ms": {kind: round(statistics.fmean(times[kind]["restart"]), 3) for kind in KINDS},
        "load_average_after": load_average(),
    })
    print(f"restart mode, {bot} bot, per request: {figure['ratio']:.2f}x without a box ({boxed['restart']:.2f} ms "
          f"boxed, {bare['restart']:.2f} ms not: {boxed['restart'] - bare['restart']:+.2f} ms, goal <= 1.5; "
          f"{counts['bwrap']['restart']} requests each)")
    print(f"  box start (BotProcess() + first request): {start['ratio']:.2f}x ({boxed['start']:.2f} ms boxed, "
          f"{bare['start']:.2f} ms not: {boxed['start'] - bare['start']:+.2f} ms; {counts['bwrap']['start']} each); "
          f"close: {boxed['close']:.2f} ms boxed, {bare['close']:.2f} ms not ({close['ratio']:.2f}x)")
    copied = median["copies"]
    record.add(f"{prefix}, box with the seat slot's runtime copies, overhead", copied["restart"] - bare["restart"],
               "ms", goal=("<=", 1.5))
    record.add(f"box start, {bot} bot, box with runtime copies, overhead", copied["start"] - bare["start"], "ms")
    print(f"  with the seat slot's runtime copies: {copied['restart']:.2f} ms a restart request "
          f"({copied['restart'] - bare['restart']:+.2f} ms, goal <= 1.5), box start {copied['start']:.2f} ms "
          f"({copied['start'] - bare['start']:+.2f} ms), close {copied['close']:.2f} ms")
    print(f"  load average now {' '.join(f'{value:.2f}' for value in load_average())}")


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--c-requests", type=int, default=300, help="restart-mode requests per kind, C bot (300)")
    arguments.add_argument("--py-requests", type=int, default=120,
                           help="restart-mode requests per kind, Python bot (120)")
    arguments.add_argument("--runs", type=int, default=None,
                           help="old name of --py-requests (it used to count fresh BotProcesses)")
    arguments.add_argument("--per-box", type=int, default=20,
                           help="requests per BotProcess before a new one (20): its first is the box start")
    arguments.add_argument("--requests", type=int, default=3000, help="keep-running requests per kind (3000)")
    arguments.add_argument("--bots", default="c,python", help="restart-mode bots to measure: c, python (both)")
    arguments.add_argument("--mapcount", type=int, default=0, metavar="N",
                           help="also measure the count of mappings of a shared file's pages as a channel (0: not)")
    arguments.add_argument("--page-cache", type=int, default=0, metavar="N",
                           help="also measure the page cache's read timing between two boxes with N bits (0: not)")
    args = arguments.parse_args()
    if args.runs is not None:
        args.py_requests = args.runs
    if args.per_box < 2:
        arguments.error("--per-box must be at least 2 (a box start and one restart request)")
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    if not set(bots) <= {"c", "python"}:
        arguments.error("--bots takes c and/or python")
    record = Record("sandbox")
    print(machine_line())
    print(f"mjarena from {Path(mjarena.__file__).parent}")
    record.note("per_box", args.per_box)
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)  # as root, the box runs the bots under an unprivileged uid that must read them
        script = Path(folder) / "trivial_bot.py"
        script.write_text(TRIVIAL_BOT)
        # the real interpreter for both kinds: the box resolves a venv's python to it, and their start-up differs
        command = [os.path.realpath(sys.executable), str(script)]
        if "c" in bots:
            c_command = compile_c_bot(Path(folder))
            report_restart(record, "C", restart_sequence(c_command, args.c_requests, args.per_box), legacy=False)
        if "python" in bots:
            report_restart(record, "Python", restart_sequence(command, args.py_requests, args.per_box), legacy=True)
        kept = keep(command, args.requests)
        if args.page_cache:
            page_cache(record, Path(folder), args.page_cache)
        if args.mapcount:
            mapcount(record, Path(folder), args.mapcount)
    keep_ratio = record.add("keep-running round trip, boxed / no box", kept["bwrap"], "ms",
                            anchor=("no box, ms", kept["none"]))
    record.add("keep-running round trip, box overhead", kept["bwrap"] - kept["none"], "ms", goal=("<=", 0.2))
    record.add("keep-running round trip, box with runtime copies, overhead", kept["copies"] - kept["none"], "ms",
               goal=("<=", 0.2))
    print(f"keep-running round trip:     {keep_ratio['ratio']:.2f}x without a box ({kept['bwrap']:.3f} ms boxed, "
          f"{kept['none']:.3f} ms not: +{kept['bwrap'] - kept['none']:.3f} ms, goal <= 0.2; with runtime copies "
          f"{kept['copies']:.3f} ms)")
    record.save(args.json)


if __name__ == "__main__":
    main()
