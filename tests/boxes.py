"""The sandbox in tests: ``requires_bwrap`` skips a test where bubblewrap cannot make a box, with the reason,
unless ``MJARENA_REQUIRE_SANDBOX=1`` (as ``.ci/run`` sets), where that is a failure; and how a test finds the
processes it started (a ``token`` in their argv: :func:`processes_with`, :func:`gone`)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from collections.abc import Iterator

import pytest

from mjarena.lifetime import stat_fields
from mjarena.sandbox import Sandbox, SandboxUnavailable, check


def _why_not() -> str | None:
    try:
        check(Sandbox())
    except SandboxUnavailable as error:
        return str(error)
    return None


WHY_NOT = _why_not()
if WHY_NOT is not None and os.environ.get("MJARENA_REQUIRE_SANDBOX") == "1":
    raise RuntimeError(f"MJARENA_REQUIRE_SANDBOX=1 but {WHY_NOT}")

requires_bwrap = pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")


def sandbox_kinds() -> list[object]:
    """``none`` and ``bwrap`` as test parameters, the second skipped with the reason where it cannot work."""
    return ["none", pytest.param("bwrap", marks=requires_bwrap)]


def processes_with(*needles: str | bytes) -> list[int]:
    """Live processes (not zombies, not this one) whose argv holds one of ``needles``: the only way the tests
    find what they started (they never signal every pid they can see)."""
    wanted = [needle.encode() if isinstance(needle, str) else needle for needle in needles]
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry.name}/cmdline", "rb") as handle:
                cmdline = handle.read()
        except OSError:
            continue
        fields = stat_fields(entry.name)
        if any(needle in cmdline for needle in wanted) and fields is not None and fields[0] not in (b"Z", b"X"):
            found.append(int(entry.name))
    return found


def gone(token: str, within: float = 10.0) -> bool:
    """Whether every process with ``token`` in its argv is gone, waiting at most ``within`` seconds."""
    end = time.monotonic() + within
    while processes_with(token):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def token() -> Iterator[str]:
    """A token of the test's own to put in the argv of what it starts; whatever a failed test left behind with it
    (and only that) is killed afterwards."""
    value = f"mjarena-test-{uuid.uuid4().hex}"
    yield value
    for pid in processes_with(value):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
