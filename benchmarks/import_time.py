"""How long `import mjarena.hand` takes in a fresh interpreter, tables loaded (median of several runs).

    python benchmarks/import_time.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _machine import describe

PROBE = (
    "import time; start = time.perf_counter(); import mjarena.hand; "
    "print(time.perf_counter() - start)"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    times = [float(subprocess.check_output([sys.executable, "-c", PROBE])) for _ in range(args.repeat)]
    print(f"machine: {describe()}")
    print(f"import mjarena.hand: median {statistics.median(times) * 1000:.1f} ms, "
          f"best {min(times) * 1000:.1f} ms over {args.repeat} fresh interpreters")


if __name__ == "__main__":
    main()
