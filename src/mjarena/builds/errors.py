"""What stops a build before any compiler runs: the error every part of :mod:`mjarena.builds` raises."""

from __future__ import annotations

__all__ = ["BuildBusy", "BuildError"]


class BuildError(ValueError):
    """A source that cannot be built here at all (no such file, too big, an unknown suffix, a missing toolchain, a
    bad toolchain table, no sandbox); the message names what is wrong and where. A source that the compiler
    rejects is not an error but a :class:`~mjarena.builds.BuildResult` with the status ``compile_error``."""


class BuildBusy(BuildError):
    """The compiler ran out of time while the machine was busy (much waiting for a CPU): the judge's failure, not
    the source's verdict.  Nothing was kept: the next try builds it again."""
