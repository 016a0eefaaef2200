"""Start-up cost: `import mjarena.cli` (what every `mjarena` command pays) and `import mjarena.hand`, fresh
interpreters, as a ratio to the interpreter's own start.

    python benchmarks/import_time.py [--repeat 15] [--json FILE]

Each round starts three fresh interpreters, in alternating order: ``python -c pass`` (the anchor), one that
imports ``mjarena.hand`` (tables loaded) and one that imports ``mjarena.cli``; the importing ones also time the
import itself with ``time.perf_counter``.  Figures: each import's time in-process (goal for the CLI: <= 30 ms),
and the whole process's wall time as a ratio to ``python -c pass`` (medians).  Bytecode caching is on (a
temporary ``PYTHONPYCACHEPREFIX``, warmed first), as in an install.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _bench import Record, interleave, machine_line, median, parser

PROBE = "import time; start = time.perf_counter(); import {module}; print(time.perf_counter() - start)"


def main() -> None:
    arguments = parser(__doc__)
    arguments.add_argument("--repeat", type=int, default=15, help="alternating rounds (default 15)")
    args = arguments.parse_args()
    record = Record("import_time")
    print(machine_line())
    inside: dict[str, list[float]] = {"mjarena.hand": [], "mjarena.cli": []}
    with tempfile.TemporaryDirectory() as cache:
        env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache

        def start(code: str, module: str | None = None) -> float:
            began = time.perf_counter()
            output = subprocess.run([sys.executable, "-c", code], check=True, env=env, capture_output=True,
                                    text=True).stdout
            wall = time.perf_counter() - began
            if module is not None:
                inside[module].append(float(output))
            return wall

        contenders = {
            "python -c pass": lambda: start("pass"),
            "mjarena.hand": lambda: start(PROBE.format(module="mjarena.hand"), "mjarena.hand"),
            "mjarena.cli": lambda: start(PROBE.format(module="mjarena.cli"), "mjarena.cli"),
        }
        for measure in contenders.values():  # compile the bytecode once
            measure()
        for values in inside.values():
            values.clear()
        walls = {name: median(values) for name, values in interleave(contenders, args.repeat).items()}
    bare = walls["python -c pass"]
    print(f"fresh interpreters, medians of {args.repeat} alternating rounds; anchor: python -c pass, "
          f"{bare * 1000:.1f} ms")
    for module, goal in (("mjarena.cli", 30), ("mjarena.hand", None)):
        ratio = record.add(f"python -c 'import {module}' wall / python -c pass wall", walls[module] * 1000, "ms",
                           anchor=("python -c pass, ms", bare * 1000))
        own = record.add(f"import {module}, in-process", median(inside[module]) * 1000, "ms",
                         goal=("<=", goal) if goal else None)
        print(f"  import {module:<13} {ratio['ratio']:.2f}x the bare interpreter's start ({walls[module] * 1000:.1f} "
              f"ms in all); the import itself {own['value']:.1f} ms" + (f" (goal <= {goal})" if goal else ""))
    record.save(args.json)


if __name__ == "__main__":
    main()
