"""What a box leaves behind (issue 41): nothing a bot leaves in its box delays the next start (a judge error it
could cause at will), and nothing it leaves in the kernel's caches of what a later box can see is observable there.

A bot is a Python program run in a :class:`~mjarena.sandbox.box.Box` (restart mode: each :meth:`Box.start` a fresh
process in one box) that writes what it found on its standard output.
"""

from __future__ import annotations

import os
import sys
import time

import pytest

from mjarena.sandbox import Sandbox
from mjarena.sandbox.box import TMPFS_INODES, Box

from boxes import requires_bwrap

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
