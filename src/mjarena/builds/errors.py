"""What stops a build before any compiler runs: the error every part of :mod:`mjarena.builds` raises."""

from __future__ import annotations

__all__ = ["BuildError"]


class BuildError(ValueError):
    """A source that cannot be built here at all (no such file, too big, an unknown suffix, a missing toolchain, a
    bad toolchain table, no sandbox); the message names what is wrong and where. A source that the compiler
    rejects is not an error but a :class:`~mjarena.builds.BuildResult` with the status ``compile_error``."""
