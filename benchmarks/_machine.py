"""One line describing the machine a benchmark ran on (kept for scripts that print it; :mod:`_bench` has the rest:
the load average, interleaved rounds, ratios and the JSON record)."""

from __future__ import annotations

from _bench import machine


def describe() -> str:
    info = machine()
    load = " ".join(f"{value:.2f}" for value in info["load_average"]) or "unknown"
    return f"{info['cpu']}, {info['cores']} cores, {info['system']}, {info['python']}, load average {load}"
