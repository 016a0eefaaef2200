"""What every benchmark shares: the machine and its load, interleaved rounds, medians, ratios, the JSON record.

The machines these figures come from are shared and noisy, so an absolute figure from one day is not a claim
anyone can check.  Every script therefore measures its figure *and an anchor* in the same run, in alternating
rounds (figure, anchor, anchor, figure, ...: a drift in the load hits both alike), takes the median of each, and
prints the ratio first; the absolute values follow, with the CPU model and the load average beside them.

``--json FILE`` (every script has it) merges the script's figures into one JSON file under the script's name,
so ``make bench`` leaves a single ``benchmarks/results.json`` that a reader can diff between commits:

>>> record = Record("example")
>>> figure = record.add("steps", 50_000.0, "steps/s", anchor=("rlcard", 5_000.0), goal=(">=", 10))
>>> figure["ratio"], figure["met"]
(10.0, True)
>>> sorted(figure)
['anchor', 'anchor_value', 'goal', 'met', 'name', 'ratio', 'unit', 'value']
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["Record", "interleave", "load_average", "machine", "machine_line", "median", "parser"]


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            return next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine() or "unknown CPU"


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (empty where the system has none)."""
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return []


def machine() -> dict[str, Any]:
    """CPU model, cores, system, Python, the load average now, and the date (UTC)."""
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "system": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "load_average": load_average(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


def machine_line() -> str:
    """One line: CPU, cores, system, Python and the load average now."""
    info = machine()
    load = " ".join(f"{value:.2f}" for value in info["load_average"]) or "unknown"
    return (f"machine: {info['cpu']}, {info['cores']} cores, {info['system']}, {info['python']}; "
            f"load average {load}; {info['date']}")


def median(values: list[float]) -> float:
    return statistics.median(values)


def interleave(contenders: Mapping[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    """Call each contender once per round, alternating the order every round (A B, B A, A B, ...), and collect
    what each call returns (a time, or a rate: whatever the caller measures).  Take the medians of the lists."""
    names = list(contenders)
    results: dict[str, list[float]] = {name: [] for name in names}
    for number in range(rounds):
        for name in names if number % 2 == 0 else reversed(names):
            results[name].append(contenders[name]())
    return results


def time_calls(function: Callable[[], object], calls: int) -> float:
    """Seconds per call of ``function`` over ``calls`` calls in a row."""
    clock = time.perf_counter
    start = clock()
    for _ in range(calls):
        function()
    return (clock() - start) / calls


class Record:
    """The figures of one script, printed as they come and written to ``--json`` at the end."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.machine_before = machine()
        self.figures: list[dict[str, Any]] = []
        self.notes: dict[str, Any] = {}

    def add(self, name: str, value: float, unit: str, *, anchor: tuple[str, float] | None = None,
            goal: tuple[str, float] | None = None, higher_is_faster: bool = True) -> dict[str, Any]:
        """One figure.  ``anchor``: (what it is, its value in the same unit), measured in the same run; the
        ratio is ``value / anchor`` for rates (``higher_is_faster``) and for times alike, so read it with the
        unit.  ``goal``: (``">="`` or ``"<="``, bound) on the ratio (or on the value when there is no anchor)."""
        figure: dict[str, Any] = {"name": name, "value": _round(value), "unit": unit}
        compared = value
        if anchor is not None:
            label, anchor_value = anchor
            figure["anchor"] = label
            figure["anchor_value"] = _round(anchor_value)
            figure["ratio"] = _round(value / anchor_value) if anchor_value else None
            compared = figure["ratio"] if figure["ratio"] is not None else value
        if goal is not None:
            sign, bound = goal
            figure["goal"] = f"{sign} {bound:g}"
            figure["met"] = bool(compared >= bound if sign == ">=" else compared <= bound)
        self.figures.append(figure)
        return figure

    def note(self, key: str, value: Any) -> None:
        """Anything else worth keeping beside the figures (counts of disagreements, parameters)."""
        self.notes[key] = value

    def save(self, path: str | Path | None) -> None:
        """Merge this script's figures into ``path`` (nothing without a path)."""
        if not path:
            return
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), dict):
            data = {"format": "mjarena-bench", "version": 1, "benchmarks": {}}
        after = machine()
        data["benchmarks"][self.name] = {
            "machine": {**self.machine_before, "load_average_after": after["load_average"]},
            "figures": self.figures,
            **({"notes": self.notes} if self.notes else {}),
        }
        data["benchmarks"] = dict(sorted(data["benchmarks"].items()))
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _round(value: float) -> float:
    return float(f"{value:.4g}")


def parser(doc: str | None) -> argparse.ArgumentParser:
    """An argument parser with the ``--json FILE`` every script takes."""
    result = argparse.ArgumentParser(description=(doc or "").strip().splitlines()[0])
    result.add_argument("--json", metavar="FILE", help="merge the figures into this JSON file")
    return result
