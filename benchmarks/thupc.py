"""THUPC 2021: the 50 official decks in one `mjarena thupc` process, as a ratio to per-deck process runs.

    python benchmarks/thupc.py [--data DIR] [--repeat 5] [--json FILE]

The figure is the wall time of ``mjarena thupc DECKS --out-dir DIR`` on the 50 decks, interpreter start-up
included (a fresh process each run), every output checked against the official answers.  Its anchors, measured
in the same alternating rounds (medians):

- ``C++ floor``: a trivial C++ program (it copies its deck to an output file, no simulation) started once per
  deck, 50 processes: what any per-deck C++ run costs at the least, process start and file I/O.  The issue's
  goal compares with the official C++ solution run once per deck (<= 0.35x of it); that solution is not in this
  repository and is not to be fetched, so the ratio to this floor is printed instead: the official run costs at
  least the floor, so ``ours / official <= ours / floor`` (a ratio to the floor at or under 0.35 would prove the
  goal; above it, the goal is not decided here).  Needs ``g++`` (``make toolchains``); skipped with a note without.
- ``mjarena per deck``: ``mjarena thupc DECK --out-dir DIR`` once per deck, 50 processes: one process for all
  decks against one per deck, the same simulator.

Children run with bytecode caching on (in a temporary ``PYTHONPYCACHEPREFIX``, warmed first), as in an install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, interleave, machine_line, median, parser

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "thupc2021"
FLOOR_SOURCE = r"""
#include <fstream>
#include <iterator>
#include <string>
int main(int argc, char **argv) {  // copies argv[1] to argv[2]: the least a per-deck program does
    std::ifstream in(argv[1]);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(argv[2]) << text;
    return 0;
}
"""


def timed(commands: list[list[str]], env: dict[str, str]) -> float:
    """Seconds to run ``commands`` one after the other (each must succeed)."""
    start = time.perf_counter()
    for command in commands:
        subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--data", type=Path, default=Path(os.environ.get("MJARENA_THUPC_DATA", DEFAULT_DATA)))
    arguments.add_argument("--repeat", type=int, default=5, help="alternating rounds (default 5)")
    args = arguments.parse_args()
    decks = sorted(args.data.glob("*.in"))
    if not decks:
        sys.exit(f"no decks in {args.data}")
    record = Record("thupc")
    print(machine_line())
    base = [sys.executable, "-m", "mjarena.cli", "thupc"]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
        (work / "one").mkdir()
        (work / "each").mkdir()
        (work / "floor").mkdir()
        contenders = {
            "one process": lambda: timed([[*base, *map(str, decks), "--out-dir", str(work / "one")]], env),
            "mjarena per deck": lambda: timed([[*base, str(deck), "--out-dir", str(work / "each")]
                                               for deck in decks], env),
        }
        compiler = shutil.which("g++")
        if compiler:
            (work / "floor.cpp").write_text(FLOOR_SOURCE)
            subprocess.run([compiler, "-O2", "-o", str(work / "copy"), str(work / "floor.cpp")], check=True)
            contenders["C++ floor"] = lambda: timed([[str(work / "copy"), str(deck), str(work / "floor" / deck.name)]
                                                     for deck in decks], env)
        for measure in contenders.values():  # warm the bytecode cache and the page cache
            measure()
        times = {name: median(values) for name, values in interleave(contenders, args.repeat).items()}
        wrong = [deck.name for deck in decks
                 if (work / "one" / f"{deck.stem}.out").read_bytes() != deck.with_suffix(".ans").read_bytes()]
    ours = times["one process"]
    record.note("outputs differing from the answers", len(wrong))
    print(f"{len(decks)} decks in one process: {ours:.3f} s (start-up included; {len(wrong)} output(s) differ from "
          f"the answers); medians of {args.repeat} alternating rounds")
    each = record.add("one process / mjarena once per deck", ours, "s", anchor=("mjarena once per deck, s",
                                                                                times["mjarena per deck"]))
    print(f"  {each['ratio']:.3f}x the time of mjarena run once per deck ({times['mjarena per deck']:.3f} s)")
    if "C++ floor" in times:
        floor = record.add("one process / C++ process-start floor per deck", ours, "s",
                           anchor=("trivial C++ copy program once per deck, s", times["C++ floor"]),
                           goal=("<=", 0.35))
        print(f"  {floor['ratio']:.2f}x a trivial C++ program started once per deck ({times['C++ floor']:.3f} s: the "
              f"floor of any per-deck C++ run); the goal is <= 0.35x the official C++ solution per deck, which "
              f"costs at least this floor, so this ratio bounds ours/official from above")
    else:
        print("  no g++ here (make toolchains): the C++ floor is not measured")
    record.save(args.json)


if __name__ == "__main__":
    main()
