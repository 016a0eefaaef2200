"""Wall time of `mjarena thupc DECKS --out-dir DIR` on the 50 official decks, interpreter start-up included.

    python benchmarks/thupc.py [--data DIR] [--repeat 7]

Prints the median and best of several runs of the whole command (a fresh interpreter each time).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import describe

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "thupc2021"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path(os.environ.get("MJARENA_THUPC_DATA", DEFAULT_DATA)))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    decks = sorted(args.data.glob("*.in"))
    if not decks:
        sys.exit(f"no decks in {args.data}")
    command = shutil.which("mjarena") or ""
    base = [command] if command else [sys.executable, "-m", "mjarena.cli"]
    times = []
    with tempfile.TemporaryDirectory() as out:
        for _ in range(args.repeat):
            start = time.perf_counter()
            subprocess.run([*base, "thupc", *map(str, decks), "--out-dir", out], check=True)
            times.append(time.perf_counter() - start)
        wrong = [
            deck.name
            for deck in decks
            if (Path(out) / f"{deck.stem}.out").read_bytes() != deck.with_suffix(".ans").read_bytes()
        ]
    print(f"machine: {describe()}")
    print(f"{len(decks)} decks in one process: median {statistics.median(times):.3f} s, best {min(times):.3f} s "
          f"over {args.repeat} runs (start-up included); {len(wrong)} output(s) differ from the answers")


if __name__ == "__main__":
    main()
