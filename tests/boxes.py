"""The sandbox in tests: ``requires_bwrap`` skips a test where bubblewrap cannot make a box, with the reason,
unless ``MJARENA_REQUIRE_SANDBOX=1`` (as ``.ci/run`` sets), where that is a failure."""

from __future__ import annotations

import os

import pytest

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
