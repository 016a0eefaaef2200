"""A judge's processes end with it: pool workers die with their parent, and a judge told to stop (SIGTERM,
SIGHUP) unwinds like Ctrl-C, so that every ``finally`` closes its bots.

Program bots need none of this to die with a judge killed outright: their box holds them by
``--die-with-parent`` (``setpriv --pdeathsig`` without a box).  This module stands outside
:mod:`mjarena.sandbox` because every command uses it, and the sandbox package loads the box (subprocess and
the rest) with it.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

__all__ = ["Stopped", "die_with_parent", "stop_on_signals"]

_PR_SET_PDEATHSIG = 1


class Stopped(KeyboardInterrupt):
    """The judge was told to stop by a signal (a KeyboardInterrupt, so it unwinds the same way as Ctrl-C)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def die_with_parent(sig: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent dies (Linux); False where it cannot."""
    import ctypes  # here, not at the top: every command imports this module, and only workers call this
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _raise_stopped(signum: int, _frame: object) -> None:
    raise Stopped(signum)


@contextlib.contextmanager
def stop_on_signals(signals: tuple[int, ...] = (signal.SIGTERM, signal.SIGHUP)) -> Iterator[None]:
    """Within the block, ``signals`` raise :class:`Stopped` in the main thread instead of ending the process at
    once; the previous handlers come back afterwards."""
    previous = {}
    try:
        for sig in signals:
            previous[sig] = signal.signal(sig, _raise_stopped)
    except ValueError:  # not the main thread: leave the handlers alone
        pass
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
