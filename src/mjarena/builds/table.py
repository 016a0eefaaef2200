"""The toolchain table: for each language, its source suffixes, how to compile and run it, and its limits.

The table is data (``toolchains.json`` in this package). A user's own file (JSON, or TOML on Python 3.11+)
is laid over it, field by field: ``{"languages": {"cpp": {"compile": ["g++", "-O2", "-o", "bot", "bot.cpp"]}}}``
changes only C++'s compile command, and a new name adds a language (every required field given).

Fields of a language:

=====================  ====================================================================================
``suffixes``           source suffixes that pick the language (``[".cpp", ".cc"]``), unique in the table
``package``            the Debian package that provides the toolchain (named when it is missing)
``source_name``        the plain file name the source is copied to before compiling (``Main.java``)
``compile``            argv run in the build folder, in the sandbox; ``[]`` when nothing is compiled
``run``                argv of the built bot; ``{dir}`` is the build folder, ``{memory_mib}`` the bot's memory
                       limit in MiB (the JVM sizes its heap from it)
``version``            argv whose output names the compiler's version (part of the cache key)
``time_factor``        the language's multiplier of the time limit, with per-language limits on (1.0)
``memory_mib``         the language's memory limit, with per-language limits on (null: the match's)
``encoding``           the source must decode as this (Python: ``utf-8``); null: not checked
``expect``             a file the compiler must have made (Java: ``Main.class``), ``expect_message`` says why
``compile_time_limit`` seconds for the compiler (60), ``compile_memory_mib`` its memory (1024)
``sample``             the smallest valid program: when a source fails to compile, the sample is compiled
                       too, and if that fails as well the toolchain is broken here (not the source's fault:
                       an error, nothing cached); null: no such check
=====================  ====================================================================================

>>> table = load_toolchains()
>>> sorted(table)
['c', 'cpp', 'java', 'javascript', 'pascal', 'python']
>>> table["cpp"].compile
('g++', '-o', 'bot', 'bot.cpp')
>>> language_of("bots/mine.java"), language_of("bots/mine.rs")
('java', None)
"""

from __future__ import annotations

import functools
import json
import math
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from mjarena.builds.errors import BuildError

__all__ = ["PACKAGED", "SOURCE_SUFFIXES", "Toolchain", "language_of", "load_toolchains", "toolchain_for"]

PACKAGED = Path(__file__).with_name("toolchains.json")
PLACEHOLDERS = ("{dir}", "{memory_mib}")
_REQUIRED = ("suffixes", "package", "source_name", "run", "version")


@dataclass(frozen=True)
class Toolchain:
    """One language of the table (see the module's docstring for the fields)."""

    language: str
    suffixes: tuple[str, ...]
    package: str
    source_name: str
    run: tuple[str, ...]
    version: tuple[str, ...]
    compile: tuple[str, ...] = ()
    time_factor: float = 1.0
    memory_mib: int | None = None
    encoding: str | None = None
    expect: str | None = None
    expect_message: str = ""
    compile_time_limit: float = 60.0
    compile_memory_mib: int = 1024
    sample: str | None = None


_FIELDS = {field.name for field in fields(Toolchain)} - {"language"}


def _words(where: str, value: Any, *, empty: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(word, str) and word for word in value):
        raise BuildError(f"{where}: expected a list of non-empty strings")
    if not value and not empty:
        raise BuildError(f"{where}: must not be empty")
    return tuple(value)


def _plain_name(where: str, value: Any) -> str:
    if not isinstance(value, str) or not value or "/" in value or value.startswith(".") or "\0" in value:
        raise BuildError(f"{where}: expected a plain file name (no folder, not hidden), got {value!r}")
    return value


def _number(where: str, value: Any, kind: type, *, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0
    if not ok or (kind is int and not isinstance(value, int)):
        raise BuildError(f"{where}: expected a positive {'integer' if kind is int else 'number'}, got {value!r}")
    return kind(value)


def _toolchain(where: str, language: str, entry: Mapping[str, Any]) -> Toolchain:
    unknown = sorted(set(entry) - _FIELDS)
    if unknown:
        raise BuildError(f"{where}: unknown field {unknown[0]!r}; known: {', '.join(sorted(_FIELDS))}")
    missing = [name for name in _REQUIRED if name not in entry]
    if missing:
        raise BuildError(f"{where}: missing field {missing[0]!r}")
    suffixes = _words(f"{where}.suffixes", entry["suffixes"])
    if not all(s.startswith(".") and len(s) > 1 and "/" not in s for s in suffixes):
        raise BuildError(f"{where}.suffixes: each suffix starts with a dot, like \".cpp\"")
    run = _words(f"{where}.run", entry["run"])
    compile_argv = _words(f"{where}.compile", entry.get("compile", []), empty=True)
    for name, argv in (("run", run), ("compile", compile_argv)):
        for word in argv:
            rest = word.replace("{dir}", "").replace("{memory_mib}", "")
            if "{" in rest or "}" in rest:
                raise BuildError(f"{where}.{name}: {word!r}: the only placeholders are {' and '.join(PLACEHOLDERS)}")
    for text_field in ("package", "expect_message", "sample"):
        if not isinstance(entry.get(text_field) or "", str):
            raise BuildError(f"{where}.{text_field}: expected a string")
    encoding = entry.get("encoding")
    if encoding is not None:
        try:
            "".encode(encoding)
        except (LookupError, TypeError):
            raise BuildError(f"{where}.encoding: unknown encoding {encoding!r}") from None
    expect = entry.get("expect")
    return Toolchain(
        language=language,
        suffixes=tuple(s.lower() for s in suffixes),
        package=entry["package"],
        source_name=_plain_name(f"{where}.source_name", entry["source_name"]),
        run=run,
        version=_words(f"{where}.version", entry["version"]),
        compile=compile_argv,
        time_factor=_number(f"{where}.time_factor", entry.get("time_factor", 1.0), float),
        memory_mib=_number(f"{where}.memory_mib", entry.get("memory_mib"), int, optional=True),
        encoding=encoding,
        expect=None if expect is None else _plain_name(f"{where}.expect", expect),
        expect_message=entry.get("expect_message", ""),
        compile_time_limit=_number(f"{where}.compile_time_limit", entry.get("compile_time_limit", 60.0), float),
        compile_memory_mib=_number(f"{where}.compile_memory_mib", entry.get("compile_memory_mib", 1024), int),
        sample=entry.get("sample"),
    )


def _read(path: Path) -> dict[str, Any]:
    """A table file's top-level object (JSON; TOML when the name ends in .toml and tomllib exists)."""
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise BuildError(f"{path}: cannot read the toolchain table: {error.strerror or error}") from None
    try:
        if path.suffix.lower() == ".toml":
            if sys.version_info < (3, 11):
                raise BuildError(f"{path}: TOML tables need Python 3.11 or newer (tomllib); write it as JSON")
            import tomllib

            data = tomllib.loads(raw.decode("utf-8"))
        else:
            data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BuildError(f"{path}: not a UTF-8 text file") from None
    except (ValueError, RecursionError) as error:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        raise BuildError(f"{path}: not a valid {path.suffix.lstrip('.').upper() or 'JSON'} file: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("languages"), dict):
        raise BuildError(f"{path}: expected an object with a \"languages\" table")
    return data


@functools.lru_cache(maxsize=16)
def _load(path: str | None, stamp: tuple[int, int] | None) -> dict[str, Toolchain]:
    entries: dict[str, dict[str, Any]] = {
        name: dict(entry) for name, entry in _read(PACKAGED)["languages"].items()
    }
    if path is not None:
        for name, entry in _read(Path(path))["languages"].items():
            if not isinstance(entry, dict):
                raise BuildError(f"{path}: languages.{name}: expected a table of fields")
            entries[name] = {**entries.get(name, {}), **entry}
    where = path or str(PACKAGED)
    table = {name: _toolchain(f"{where}: languages.{name}", name, entry) for name, entry in entries.items()}
    owners: dict[str, str] = {}
    for name, toolchain in table.items():
        for suffix in toolchain.suffixes:
            if suffix in owners:
                raise BuildError(f"{where}: suffix {suffix} belongs to both {owners[suffix]} and {name}")
            owners[suffix] = name
    return table


def load_toolchains(path: str | os.PathLike[str] | None = None) -> dict[str, Toolchain]:
    """The packaged table, with the file ``path`` (JSON or TOML) laid over it; :class:`BuildError` says what is
    wrong with a bad file. Read once per process (again when the file changes)."""
    if path is None:
        return _load(None, None)
    try:
        info = os.stat(path)
    except OSError as error:
        raise BuildError(f"{os.fspath(path)}: cannot read the toolchain table: {error.strerror or error}") from None
    return _load(os.path.abspath(path), (info.st_mtime_ns, info.st_size))


def _suffix(path: str | os.PathLike[str]) -> str:
    return os.path.splitext(os.fspath(path))[1].lower()


def language_of(path: str | os.PathLike[str], toolchains: str | os.PathLike[str] | None = None) -> str | None:
    """The language whose suffix ``path`` has (in the table laid over by ``toolchains``), or None."""
    suffix = _suffix(path)
    for name, toolchain in load_toolchains(toolchains).items():
        if suffix in toolchain.suffixes:
            return name
    return None


def toolchain_for(path: str | os.PathLike[str], toolchains: str | os.PathLike[str] | None = None) -> Toolchain:
    """The toolchain for ``path``'s suffix, or :class:`BuildError` listing the known suffixes."""
    table = load_toolchains(toolchains)
    language = language_of(path, toolchains)
    if language is None:
        known = " ".join(sorted(s for t in table.values() for s in t.suffixes))
        suffix = repr(_suffix(path)) if _suffix(path) else "(no suffix)"
        raise BuildError(f"{os.fspath(path)}: no language has the suffix {suffix}; known: {known}")
    return table[language]


SOURCE_SUFFIXES: frozenset[str] = frozenset(s for t in load_toolchains().values() for s in t.suffixes)
"""The suffixes of the packaged table (a user's table may add more)."""
