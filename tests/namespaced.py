"""A test's scenario script (a cluster of several hosts on this machine) run in network, pid and mount namespaces
of its own: loopback only, and everything the script starts dies with it (``unshare --kill-child``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def why_no_namespaces() -> str | None:
    """Why the namespaces cannot be made here (None: they can)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None:
        return "needs root and unshare(1), ip(8) for the cluster's namespaces"
    return None


def run_scenario(script: str, work: Path, timeout: float) -> dict[str, Any]:
    """Run ``tests/SCRIPT WORK`` in namespaces of its own; the facts it prints as JSON on its last line (the test
    fails with the script's output when it does)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        ["unshare", "--net", "--pid", "--fork", "--mount-proc", "--kill-child", sys.executable,
         str(ROOT / "tests" / script), str(work)],
        env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    facts: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return facts
