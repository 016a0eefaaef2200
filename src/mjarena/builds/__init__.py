"""Contest submissions as source files, built as NOI 2014 built them, cached, and ready to play.

A source's suffix picks its language in the toolchain table (:mod:`mjarena.builds.table`, data that users can
lay their own file over); :func:`build` compiles it in the sandbox with the contest's commands (no
optimisation flags) and caches the result by the hash of source, compiler version and command
(:mod:`mjarena.builds.cache`). A bot spec that is a path to a source file is built this way and played with
the build's run command (:mod:`mjarena.agents.factory`).

>>> language_of("bots/mine.cpp"), ".pas" in SOURCE_SUFFIXES
('cpp', True)
"""

from __future__ import annotations

from mjarena.builds.builder import MAX_SOURCE_BYTES, BuildResult, build, compiler_version
from mjarena.builds.cache import cache_root
from mjarena.builds.errors import BuildError
from mjarena.builds.table import SOURCE_SUFFIXES, Toolchain, language_of, load_toolchains, toolchain_for

__all__ = [
    "MAX_SOURCE_BYTES",
    "SOURCE_SUFFIXES",
    "BuildError",
    "BuildResult",
    "Toolchain",
    "build",
    "cache_root",
    "compiler_version",
    "language_of",
    "load_toolchains",
    "toolchain_for",
]
