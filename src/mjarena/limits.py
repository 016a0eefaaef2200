"""The limits a program bot answers under (:class:`Limits`), and their check (:func:`check_limits`).

A module of its own below both the arena, which plays matches under these limits, and the agents, which start
program bots with them (imports point down: neither needs the other for this).

>>> Limits().time, Limits().memory_mib, Limits().sandbox.kind
(1.0, 256, 'bwrap')
"""

from __future__ import annotations

from dataclasses import dataclass

from mjarena.sandbox.config import DEFAULT_SANDBOX, Sandbox

__all__ = ["DEFAULT_LIMITS", "MAX_MEMORY_MIB", "MAX_TIME_LIMIT", "Limits", "check_limits"]


@dataclass(frozen=True)
class Limits:
    """Per-answer limits for program bots, and the box they run in (bwrap unless told otherwise).

    Source-file bots are built with the toolchain table laid over by the file ``toolchains`` (None: the
    packaged one); ``language_limits`` applies each language's time factor and memory from that table.
    """

    time: float = 1.0
    memory_mib: int = 256
    output_bytes: int = 1 << 20
    sandbox: Sandbox = DEFAULT_SANDBOX
    toolchains: str | None = None
    language_limits: bool = False


#: The limits of a match, a tournament or a comparison unless told otherwise.
DEFAULT_LIMITS = Limits()

MAX_TIME_LIMIT = 86_400.0
"""The longest time limit per answer, in seconds (a day)."""
MAX_MEMORY_MIB = 1 << 20
"""The largest memory limit, in MiB (1 TiB)."""


def check_limits(time_limit: float, memory_mib: int) -> None:
    """:class:`ValueError` naming the option unless the limits per answer can be used: seconds more than 0 and at
    most :data:`MAX_TIME_LIMIT` (not NaN, not infinite), whole MiB from 1 to :data:`MAX_MEMORY_MIB`.

    >>> check_limits(1.0, 256)
    >>> check_limits(float("nan"), 256)
    Traceback (most recent call last):
    ...
    ValueError: --time-limit nan: must be positive and at most 86400 seconds
    """
    if not 0 < time_limit <= MAX_TIME_LIMIT:  # NaN fails every comparison
        try:
            shown = f"{time_limit:g}"
        except (OverflowError, ValueError):  # an int beyond any float
            shown = "(a huge number)"
        raise ValueError(f"--time-limit {shown}: must be positive and at most {MAX_TIME_LIMIT:g} seconds")
    if type(memory_mib) is not int or not 0 < memory_mib <= MAX_MEMORY_MIB:
        raise ValueError(f"--memory-limit {memory_mib}: must be positive and at most {MAX_MEMORY_MIB} MiB")
