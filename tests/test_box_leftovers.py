"""What a box leaves behind (issue 41): nothing a bot leaves in its box delays the next start (a judge error it
could cause at will), and nothing it leaves in the kernel's caches of what a later box can see is observable there.

A bot is a Python program run in a :class:`~mjarena.sandbox.box.Box` (restart mode: each :meth:`Box.start` a fresh
process in one box) that writes what it found on its standard output.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

import pytest

from mjarena.sandbox import Sandbox
from mjarena.sandbox.box import TMPFS_INODES, Box

from boxes import requires_bwrap, sandbox_kinds

PY = os.path.realpath(sys.executable)

# Nested folder chains (1,900 deep: a path from the top just under PATH_MAX) and then files, in /tmp and
# /dev/shm, until there is no room: what the box's init must delete before the next program starts.
LITTER = r"""
import os, sys
made = 0
for place in ("/tmp", "/dev/shm"):
    try:
        for chain in range(int(sys.argv[1])):
            os.chdir(place)
            os.mkdir(f"c{chain}"); os.chdir(f"c{chain}")
            for _ in range(1900):
                os.mkdir("a"); os.chdir("a"); made += 1
        os.chdir(place)
        for number in range(10 ** 5):
            open(f"f{number}", "w").close(); made += 1
    except OSError as error:
        print("full", error.errno, flush=True)
print("made", made, flush=True)
"""


def _run(box: Box) -> str:
    """Start the box's program afresh and return what it printed."""
    process = box.start()
    output = b""
    while chunk := os.read(process.stdout, 1 << 16):
        output += chunk
    while not process.exited():
        time.sleep(0.01)
    process.reap()
    return output.decode()


@requires_bwrap
def test_what_a_restart_bot_leaves_in_its_writable_places_never_stops_the_next_start(tmp_path) -> None:
    """40 chains of 1,900 nested folders asked for: the box's tmpfs mounts hold at most TMPFS_INODES entries each
    (the bot's mkdir fails with ENOSPC), and the init deletes what is there relative to open folders, so the next
    start answers; before, the init walked 76,000 folders by path (quadratic in the depth) past the judge's 10 s:
    "the box's init did not answer", a judge error the bot chose."""
    with Box([PY, "-I", "-S", "-c", LITTER, "40"], sandbox=Sandbox(kind="bwrap"), cwd=str(tmp_path)) as box:
        runs = [_run(box), _run(box)]  # the second start finds the first one's litter
        for said in runs:
            if os.getuid() == 0:  # (under an ordinary user the kernel does not let the init bound the count)
                assert f"full {28}" in said  # ENOSPC: the mount's count of files, not its bytes (they are empty)
                assert int(said.split("made ")[1]) <= 2 * TMPFS_INODES
    with Box([PY, "-I", "-S", "-c", "print('fresh')"], sandbox=Sandbox(kind="bwrap"), cwd=str(tmp_path)) as box:
        assert _run(box) == "fresh\n"  # a new box after one full of litter


@pytest.mark.parametrize("place", ["/tmp", "/dev/shm"])
@requires_bwrap
def test_a_box_starts_its_next_program_with_empty_writable_places(tmp_path, place: str) -> None:
    code = f"import os; print(sorted(os.listdir({place!r}))); os.makedirs({place!r} + '/x/' * 100); " \
           f"open({place!r} + '/y', 'w').close()"
    with Box([PY, "-I", "-S", "-c", code], sandbox=Sandbox(kind="bwrap"), cwd=str(tmp_path)) as box:
        first = _run(box)  # (the folders of the working folder's path may be there: the box made them)
        assert "'x'" not in first and "'y'" not in first
        assert _run(box) == first


# Negative dentries (issue 41): the sender looks up, in its runtime's standard library folder (or its own folder),
# names that do not
# exist, 8 names for each bit that is 1; the receiver, a later box of the same seat slot, times a lookup of every
# name (in turns: bit after bit, 8 rounds) and takes the median of each bit's 8.
LEAVE = r"""
import os, sys
token, bits, names = sys.argv[1], sys.argv[2], int(sys.argv[3])
folder = sys.argv[4] if len(sys.argv) > 4 else os.path.dirname(os.__file__)
for bit, value in enumerate(bits):
    for name in range(names):
        if value == "1":
            os.path.exists(f"{folder}/{token}-{bit}-{name}")
print("left", bits.count("1") * names, flush=True)
"""
PROBE = r"""
import os, sys, time
token, count, names = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
folder = sys.argv[4] if len(sys.argv) > 4 else os.path.dirname(os.__file__)
spent = [[] for _ in range(count)]
for name in range(names):
    for bit in range(count):
        path = f"{folder}/{token}-{bit}-{name}"
        start = time.perf_counter_ns()
        os.path.exists(path)
        spent[bit].append(time.perf_counter_ns() - start)
print(" ".join(str(sorted(times)[len(times) // 2]) for times in spent), flush=True)
"""
BITS, NAMES = 64, 8


def _copies_in_memory(kind: str) -> None:
    """Skip a box's case where the copies cannot be on a tmpfs here (the judge then says so, and the channel is
    open: docs/security.md)."""
    from mjarena.sandbox import copies

    problem = copies.memory_problem(copies.default_folder()) if kind != "none" else None
    if problem is not None:
        pytest.skip(f"the runtime copies are on disk here: {problem}")


@pytest.mark.parametrize("place", ["runtime", "own"])
@pytest.mark.parametrize("kind", sandbox_kinds())
def test_a_later_box_of_the_slot_finds_no_lookup_an_earlier_one_left(kind: str, place: str, tmp_path) -> None:
    """With no box the receiver reads the sender's bits (a remembered miss about 1 µs, a new one about 15 µs on a
    disk); in the box, the slot's copies of its runtime and of its own folder are on a tmpfs, which remembers no
    miss: the receiver is at chance, in the next box of the same slot (the runtime) and of another slot (its own
    folder, which every slot is shown from one copy)."""
    _copies_in_memory(kind)
    token = f"mjarena-{uuid.uuid4().hex[:12]}"
    own = tmp_path / "bot"
    own.mkdir()
    (own / "weights.txt").write_text("1 2 3\n")
    where = [str(own)] if place == "own" else []
    bits = ["1"] * (BITS // 2) + ["0"] * (BITS // 2)
    random.shuffle(bits)
    sandbox = Sandbox(kind=kind, private_runtimes=True)
    with Box([PY, "-I", "-S", "-c", LEAVE, token, "".join(bits), str(NAMES), *where], sandbox=sandbox, seat=0,
             cwd=str(tmp_path)) as box:
        assert _run(box).startswith("left")
    seat = 0 if place == "runtime" else 1  # the same slot's copies; the team's own files at another seat
    with Box([PY, "-I", "-S", "-c", PROBE, token, str(BITS), str(NAMES), *where], sandbox=sandbox, seat=seat,
             cwd=str(tmp_path)) as box:
        times = [int(word) for word in _run(box).split()]
    middle = statistics.median(times)
    right = sum((spent < middle) == (bit == "1") for spent, bit in zip(times, bits, strict=True)) / BITS
    if kind == "none":
        assert right >= 0.9  # the channel is real
    else:
        assert abs(right - 0.5) <= 0.25  # at chance (64 bits: past 0.75 by chance about once in 30,000)


# Cached pages (issue 41): the sender reads page I of a file of its own for a 1; the receiver, a later box, times
# one read of each page.
READ_PAGES = r"""
import os, sys
path, bits = sys.argv[1], sys.argv[2]
fd = os.open(path, os.O_RDONLY)
for page, value in enumerate(bits):
    if value == "1":
        os.pread(fd, 1, page * 65536)
print("left", flush=True)
"""
TIME_PAGES = r"""
import os, sys, time
path, count = sys.argv[1], int(sys.argv[2])
fd = os.open(path, os.O_RDONLY)
spent = []
for page in range(count):
    start = time.perf_counter_ns()
    os.pread(fd, 1, page * 65536)
    spent.append(time.perf_counter_ns() - start)
print(" ".join(map(str, spent)), flush=True)
"""


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_a_later_box_finds_no_page_an_earlier_one_read(kind: str, tmp_path) -> None:
    """Pages 64 KiB apart (beyond the kernel's read-ahead of a single byte) of a bot's own file, out of the page
    cache at the start: with no box the receiver tells the pages the sender read (a cached page read in a few µs,
    one from the disk in tens); in the box the file is its copy on the tmpfs, every page always in memory."""
    _copies_in_memory(kind)
    own = tmp_path / "bot"
    own.mkdir()
    data = own / "weights.bin"
    data.write_bytes(os.urandom(BITS * 65536))
    fd = os.open(data, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)  # (the test's own file, out of the cache)
    finally:
        os.close(fd)
    bits = ["1"] * (BITS // 2) + ["0"] * (BITS // 2)
    random.shuffle(bits)
    sandbox = Sandbox(kind=kind, private_runtimes=True)
    with Box([PY, "-I", "-S", "-c", READ_PAGES, str(data), "".join(bits)], sandbox=sandbox, seat=0,
             cwd=str(tmp_path), readable=[own]) as box:
        assert _run(box).startswith("left")
    with Box([PY, "-I", "-S", "-c", TIME_PAGES, str(data), str(BITS)], sandbox=sandbox, seat=1,
             cwd=str(tmp_path), readable=[own]) as box:
        times = [int(word) for word in _run(box).split()]
    middle = statistics.median(times)
    right = sum((spent < middle) == (bit == "1") for spent, bit in zip(times, bits, strict=True)) / BITS
    if kind == "none":
        assert right >= 0.9  # the channel is real
    else:
        assert abs(right - 0.5) <= 0.25

# The last shared counters (issue 41): what a seat's box shows of the machine.
LOOK = r"""
import errno, json, os, socket
found = {"host": socket.gethostname(), "autogroup": open("/proc/self/autogroup").read().split()[0]}
paths = [path for name in ("fs", "cgroups", "version", "modules", "crypto") if os.path.exists(path := "/proc/" + name)]
found["hidden"] = {path: os.listdir(path) if os.path.isdir(path) else open(path).read() for path in paths}
found["roots"] = [line.split()[3] for line in open("/proc/self/mountinfo")]
for name, call in (("inet", lambda: socket.socket(socket.AF_INET6 if socket.has_ipv6 else socket.AF_INET)),
                   ("setsid", os.setsid)):
    try:
        call()
        found[name] = "ok"
    except OSError as error:
        found[name] = error.errno
print(json.dumps(found))
"""


STAMP = r"""
import os, sys
folder, mode, bits = os.path.dirname(os.path.abspath(sys.argv[0])), sys.argv[1], sys.argv[2]
names = [os.path.join(folder, f"mark{index:02d}") for index in range(len(bits))]
if mode == "write":  # a 1: the file's access time set far back; every read done as well (relatime's one update)
    for name, bit in zip(names, bits):
        with open(name, "rb") as handle:
            handle.read()
        if bit == "1":
            try:
                os.utime(name, (1, os.stat(name).st_mtime))
            except OSError:
                pass
else:
    print("".join("1" if os.stat(name).st_atime < 1000 else "0" for name in names))
"""


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_no_box_leaves_access_times_for_the_next_box_of_its_seat(kind: str, tmp_path) -> None:
    """A bot marks files of its own folder by their access time (``utime``, or a first read, which relatime
    records) for the next box of its seat to read back, e.g. what it saw of a wall before a judge-error replay.
    The box shows the bot's own files read-only from a copy: no time can be set or updated through it, so the
    next box reads nothing back; unboxed, the files are the judge's folder and the bits pass (so the test can
    fail)."""
    own = tmp_path / "bot"
    own.mkdir()
    (own / "stamp.py").write_text(STAMP)
    for index in range(16):
        (own / f"mark{index:02d}").write_text("x")
    bits = "".join(random.choice("01") for _ in range(15)) + "1"
    sandbox = Sandbox(kind=kind, private_runtimes=True)
    program = [PY, "-I", "-S", str(own / "stamp.py")]
    with Box([*program, "write", bits], sandbox=sandbox, seat=3, cwd=str(tmp_path), readable=[own]) as box:
        _run(box)
    with Box([*program, "read", bits], sandbox=sandbox, seat=3, cwd=str(tmp_path), readable=[own]) as box:
        seen = _run(box).strip()
    assert seen == (bits if kind == "none" else "0" * len(bits)), (bits, seen)


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_a_seats_box_shows_no_counter_of_the_machine_and_no_folder_of_the_judges(kind: str, tmp_path) -> None:
    """A fixed host name; the entries of /proc that no runtime reads are empty (/proc/fs/ext4/*/es_shrinker_info
    moved with the machine); no IP socket (``TCP: alloc`` in /proc/net/sockstat is the machine's) and no new session
    (a new autogroup's number counts every setsid of the machine), so the autogroup is the box's, the same for
    each program; and every mount's source in ``mountinfo`` is in the copies' tmpfs or /proc, not a folder of the
    judge's (the bot's own folder, the judge's fixed /proc files)."""
    import json

    from mjarena.sandbox import procview
    from mjarena.sandbox.box import HOSTNAME

    own = tmp_path / "bot"
    own.mkdir()
    (own / "look.py").write_text(LOOK)
    sandbox = Sandbox(kind=kind, private_runtimes=True)
    with Box([PY, "-I", "-S", str(own / "look.py")], sandbox=sandbox, seat=1, cwd=str(tmp_path), readable=[own]) as box:
        first, second = json.loads(_run(box)), json.loads(_run(box))
    judges = (procview._folder(), str(tmp_path))
    if kind == "none":  # the channels are real
        assert first["autogroup"] != second["autogroup"] and first["inet"] == "ok"
        assert any(first["hidden"].values())
        return
    assert first["host"] == HOSTNAME
    assert first["autogroup"] == second["autogroup"]
    assert first["inet"] == first["setsid"] == 1  # EPERM
    assert not any(first["hidden"].values()), first["hidden"]
    assert not [root for root in first["roots"] if root.startswith(judges)]


def test_a_bots_globaldata_is_dropped_and_the_judge_says_so_once(monkeypatch, capsys) -> None:
    """Botzone keeps ``globaldata`` across games; a contest keeps no memory from one game to the next."""
    from mjarena.protocol import botzone

    monkeypatch.setattr(botzone, "_globaldata_said", [])
    for _ in range(3):
        output = botzone.decode_output('{"response": "PASS", "globaldata": "seen this wall before"}')
        assert output.response == "PASS" and "seen this wall" not in repr(output)
    said = capsys.readouterr().err.splitlines()
    assert len(said) == 1 and "globaldata" in said[0] and "dropped" in said[0]


def test_a_bots_own_files_are_copied_once_for_what_they_hold_and_old_copies_go(tmp_path) -> None:
    from mjarena.sandbox import copies

    folder = str(tmp_path / "copies")
    own = tmp_path / "build"
    own.mkdir()
    (own / "bot").write_text("one")
    first = copies.own_copy(folder, str(own))
    assert copies.own_copy(folder, str(own)) == first and (Path(first) / "bot").read_text() == "one"
    (own / "bot").write_text("two, longer")
    os.utime(first, (0, 0))  # unused for long
    second = copies.own_copy(folder, str(own))
    assert second != first and (Path(second) / "bot").read_text() == "two, longer"
    assert not os.path.exists(first)  # the old copy went when the new one was made
