"""One benchmark script run against two source trees in alternating rounds: did a change move its figures?

A refactoring that should leave speed alone (issue 32's splits) is checked by running the same benchmark on the
tree before and the tree after, in turn (before, after, after, before, ...: a drift in the machine's load hits
both alike), and comparing each figure's median: ``after / before`` near 1 means unchanged.  Each tree runs its
own copy of the script (a script may import names that moved), each in a fresh interpreter with that tree's
``src`` first on ``PYTHONPATH``.

    python benchmarks/trees.py OLD_CHECKOUT NEW_CHECKOUT --repeat 2 -- tournament.py --repeat 2

(make ``OLD_CHECKOUT`` with ``git worktree add --detach /tmp/old COMMIT``; a tree without the compiled hand
accelerator runs the pure-Python path: copy ``src/mjarena/hand/_speedups*.so`` across when the C source is the
same.)  Prints, per figure, the median of each tree and their ratio; ``--json FILE`` records them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _bench import machine_line


def run_once(tree: Path, script: str, arguments: list[str]) -> dict[str, float]:
    """``script`` of ``tree``'s benchmarks/ run once with ``tree``'s sources: each figure's value by name."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "figures.json"
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(tree / "src"),
                                                                          os.environ.get("PYTHONPATH")]))}
        done = subprocess.run([sys.executable, str(tree / "benchmarks" / script), *arguments, "--json", str(out)],
                              env=env, cwd=tree, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"{script} failed in {tree} (exit {done.returncode}):\n{done.stderr[-2000:]}")
        recorded = json.loads(out.read_text())["benchmarks"]
    return {figure["name"]: float(figure["ratio"] if figure.get("ratio") is not None else figure["value"])
            for entry in recorded.values() for figure in entry["figures"] if figure.get("value") is not None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the checkout before the change")
    parser.add_argument("after", type=Path, help="the checkout after the change")
    parser.add_argument("--repeat", type=int, default=2, help="rounds of each tree (default 2)")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("script", help="a script in benchmarks/, e.g. tournament.py")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="the script's own options")
    options = parser.parse_args(argv)
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for index in range(options.repeat * 2):
        side = ("before", "after", "after", "before")[index % 4]
        tree = options.before if side == "before" else options.after
        runs[side].append(run_once(tree.resolve(), options.script, list(options.arguments)))
        print(f"  round {index + 1}/{options.repeat * 2}: {side}", file=sys.stderr, flush=True)
    print(f"{options.script}: each figure's median (a ratio to the script's own anchor where it has one)")
    print(machine_line())
    rows: list[dict[str, Any]] = []
    for name in runs["after"][0]:
        if not all(name in run for side in runs.values() for run in side):
            continue
        before = statistics.median(run[name] for run in runs["before"])
        after = statistics.median(run[name] for run in runs["after"])
        change = after / before if before else None
        rows.append({"name": name, "before": before, "after": after, "after_over_before": change})
        print(f"  {'-' if change is None else f'{change:6.3f}x'}  {name}: {before:.4g} -> {after:.4g}")
    if options.json:
        options.json.write_text(json.dumps({"script": options.script, "figures": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
