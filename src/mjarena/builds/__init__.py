"""Contest submissions as source files, built as NOI 2014 built them, cached, and ready to play.

A source's suffix picks its language in the toolchain table (:mod:`mjarena.builds.table`, data that users can
lay their own file over); :func:`build` compiles it in the sandbox with the contest's commands (no
optimisation flags) and caches the result by the hash of source, compiler version and command
(:mod:`mjarena.builds.cache`), within a wall-clock limit and a cap on its output besides the table's CPU and memory
limits. A bot spec that is a path to a source file is built this way and played with
the build's run command (:mod:`mjarena.agents.factory`).

>>> language_of("bots/mine.cpp"), ".pas" in SOURCE_SUFFIXES
('cpp', True)
"""

from __future__ import annotations

from mjarena.builds.builder import (
    DEFAULT_OUTPUT_BYTES,
    DEFAULT_WALL_LIMIT,
    MAX_SOURCE_BYTES,
    BuildResult,
    build,
    cache_key_of,
    compiler_version,
)
from mjarena.builds.cache import cache_root, disk_bytes, evict
from mjarena.builds.errors import BuildBusy, BuildError
from mjarena.builds.table import SOURCE_SUFFIXES, Toolchain, language_of, load_toolchains, toolchain_for

__all__ = [
    "DEFAULT_OUTPUT_BYTES",
    "DEFAULT_WALL_LIMIT",
    "MAX_SOURCE_BYTES",
    "SOURCE_SUFFIXES",
    "BuildBusy",
    "BuildError",
    "BuildResult",
    "Toolchain",
    "build",
    "cache_key_of",
    "cache_root",
    "compiler_version",
    "disk_bytes",
    "evict",
    "language_of",
    "load_toolchains",
    "toolchain_for",
]
