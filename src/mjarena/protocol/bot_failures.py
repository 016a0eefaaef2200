"""How a bot's failure is told: its exit in words, the signs of a failed allocation in its standard error, how
much of that is quoted and how, and the hint for a bot that waited for the end of its input.

>>> describe_exit(3), describe_exit(None)
('exit code 3', 'did not exit')
"""

from __future__ import annotations

import signal

MEMORY_SIGNS = (
    b"memoryerror",
    b"bad_alloc",
    b"outofmemoryerror",
    b"out of memory",
    b"cannot allocate memory",
    b"failed to allocate",
)
DETAIL_STDERR = 500  # characters of standard error quoted in an error's one-line detail
# control characters (escape sequences too) as spaces, but a traceback keeps its lines
PRINTABLE = {**{code: " " for code in [*range(32), 127]}, ord("\n"): "\n", ord("\r"): None}
STDIN_HINT = (
    " (it was still waiting for input: read one line, not to the end of input; the judge keeps standard input "
    "open in case a bot asks to keep running)"
)


def describe_exit(status: int | None) -> str:
    if status is None:
        return "did not exit"
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"killed by {name}"
    return f"exit code {status}"
