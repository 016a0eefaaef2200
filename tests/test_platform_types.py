"""The type check for Windows and macOS (issue 34): mypy reads the package as on ``win32`` and as on ``darwin``, and
as on ``linux``; an error that Windows or macOS gets and Linux does not is a name that the system lacks
(``os.getuid``, ``signal.SIGKILL``, ``resource.getrlimit``, ``os.set_blocking`` before Python 3.12 on Windows, ...) used
on a path that runs there, and fails the test with mypy's words.  A path that only Linux runs says so in a way
mypy reads (``if sys.platform == "win32": ...``, ``if not sys.platform.startswith("linux"): raise ...``).

The configuration is pyproject.toml's ``[tool.mypy]``: Python 3.11, the modules that run only under the contest's
sandbox or server listed there once with the reason for each, the large third-party packages read as ``Any``.
Errors that Linux gets as well are not a system's own and are not this test's business.  By hand (what it runs)::

    python -m mypy --platform win32   # and darwin, linux

Each system's cache is kept in ``.mypy_cache/platform-SYSTEM``: the three runs go side by side, some 7 s of CPU
each from cold, well under a second each when the cache holds.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ("win32", "darwin")
_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<kind>error|note): (?P<text>.*)$")


def _mypy(system: str, cache: Path, cwd: Path, config: str, paths: Sequence[str] = ()) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "mypy", f"--config-file={config}", "--platform", system, "--cache-dir",
               str(cache), "--python-version", "3.11", "--no-error-summary", "--show-error-codes", "--no-pretty",
               "--no-color-output", *paths]
    return subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _errors(process: subprocess.Popen[str], system: str) -> dict[tuple[str, str, str], list[str]]:
    """mypy's errors, by (path, line, message), each with its notes; a run that did not check fails the test."""
    out, err = process.communicate()
    assert process.returncode in (0, 1), f"mypy for {system} did not run (exit {process.returncode}):\n{err}{out}"
    errors: dict[tuple[str, str, str], list[str]] = {}
    last: list[str] = []
    for text in out.splitlines():
        match = _LINE.match(text)
        if match is None:
            continue
        if match["kind"] == "error":
            last = errors.setdefault((match["path"], match["line"], match["text"]), [])
        else:
            last.append(text)
    assert process.returncode == 0 or errors, f"mypy for {system} failed with no error read:\n{err}{out}"
    return errors


def own_errors(cwd: Path, cache: Path, *, config: str = "", paths: Sequence[str] = ()) -> dict[str, list[str]]:
    """For each of :data:`SYSTEMS`, the lines of mypy's errors (and their notes) that the system gets and Linux
    does not; the three runs go side by side."""
    runs = {system: _mypy(system, cache / f"platform-{system}", cwd, config, list(paths))
            for system in ("linux", *SYSTEMS)}
    found = {system: _errors(process, system) for system, process in runs.items()}
    linux = found.pop("linux")
    return {system: [line for key, notes in errors.items() if key not in linux
                     for line in (f"{key[0]}:{key[1]}: error: {key[2]}", *notes)]
            for system, errors in found.items()}


@pytest.fixture(scope="module")
def package_errors() -> dict[str, list[str]]:
    return own_errors(ROOT, ROOT / ".mypy_cache", config=str(ROOT / "pyproject.toml"))


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_package_has_no_type_error_of_its_own_on(system: str, package_errors: dict[str, list[str]]) -> None:
    """Before this test: 44 such errors for win32 (os.getuid, signal.SIGKILL, os.set_blocking, resource.getrlimit,
    os.O_CLOEXEC, os.pread, stat_result.st_blocks, ...) and 3 for darwin (os.O_PATH, os.pipe2), and 19 and 2 more
    in protocol.process, sandbox.portable and sandbox.process (os.waitid, os.wait4, signal.SIGSTOP, ...)."""
    errors = package_errors[system]
    assert not errors, f"mypy --platform {system} finds what Linux does not:\n" + "\n".join(errors)


def test_the_check_finds_a_name_the_system_lacks_and_only_that(tmp_path: Path) -> None:
    """What the test above leans on: an unguarded POSIX-only name fails for win32 and not for darwin, the same
    name under a ``sys.platform`` test fails nowhere, and an error that Linux gets too is left out."""
    (tmp_path / "laptop.py").write_text(
        "import os\nimport sys\n\n\n"
        "def unguarded() -> int:\n    return os.getuid()\n\n\n"
        "def guarded() -> int:\n    if sys.platform == 'win32':\n        return -1\n    return os.getuid()\n\n\n"
        "WRONG_EVERYWHERE: int = 'one'\n",
        encoding="utf-8")
    found = own_errors(tmp_path, ROOT / ".mypy_cache" / "probe", paths=["laptop.py"])
    assert [line.split(": error:")[0] for line in found["win32"] if ": error:" in line] == ["laptop.py:6"]
    assert 'Module has no attribute "getuid"' in found["win32"][0]
    assert found["darwin"] == []


def test_each_module_left_out_exists_and_says_why() -> None:
    """A module renamed or moved would leave a stale name behind, excluding nothing, and its reason with it."""
    tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11's")
    lines = (ROOT / "pyproject.toml").read_text(encoding="utf-8").splitlines()
    overrides = tomllib.loads("\n".join(lines))["tool"]["mypy"]["overrides"]
    left_out = [name for override in overrides if override.get("ignore_errors") for name in override["module"]]
    assert left_out, "pyproject.toml names the modules the check leaves out"
    for name in left_out:
        path = ROOT / "src" / Path(*name.split("."))
        assert path.with_suffix(".py").is_file() or (path / "__init__.py").is_file(), f"no module {name}"
        index = next(index for index, text in enumerate(lines) if f'"{name}"' in text)
        assert "#" in lines[index] or lines[index - 1].lstrip().startswith("#"), f"{name}: no reason given"
