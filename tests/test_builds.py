"""Source files built as the contest built them (mjarena.builds), cached, and checked before play (pre-flight).

A test that needs a language's toolchain is skipped with the reason where it is missing, unless
``MJARENA_REQUIRE_TOOLCHAINS=1`` (as ``.ci/run`` sets), where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

import mjarena.builds.builder as build_module
from mjarena.arena.match import run_match
from mjarena.arena.preflight import preflight, probe
from mjarena.builds import BuildError, build, disk_bytes, evict, language_of, load_toolchains
from mjarena.builds.cache import cache_key, new_entry, publish, read_entry
from mjarena.cli import main
from mjarena.limits import Limits
from mjarena.sandbox import Sandbox, run

from boxes import requires_bwrap, sandbox_kinds

ROOT = Path(__file__).resolve().parents[1]
SOURCES = Path(__file__).parent / "sources"
BOTS = Path(__file__).parent / "bots"
EXAMPLES = ROOT / "examples" / "bots"
NONE = Sandbox(kind="none")
REQUIRE = os.environ.get("MJARENA_REQUIRE_TOOLCHAINS") == "1"
TINY = {"cpp": "pass.cpp", "c": "pass.c", "pascal": "pass.pas", "java": "any_name.java", "javascript": "pass.js",
        "python": "pass.py"}
EXAMPLE_BOTS = {"cpp": "bot.cpp", "c": "bot.c", "pascal": "bot.pas", "java": "Main.java", "javascript": "bot.js",
                "python": "restart_bot.py"}


def needs(language: str) -> None:
    """Skip (or fail, with MJARENA_REQUIRE_TOOLCHAINS=1) unless the toolchain of ``language`` is installed."""
    toolchain = load_toolchains()[language]
    for program in {toolchain.compile[0] if toolchain.compile else None, toolchain.run[0]} - {None}:
        if program.startswith("{dir}") or shutil.which(program) or shutil.which(program, path="/usr/bin:/bin"):
            continue
        message = f"{program} is not installed (Debian package {toolchain.package}; make toolchains)"
        if REQUIRE:
            pytest.fail(f"MJARENA_REQUIRE_TOOLCHAINS=1 but {message}")
        pytest.skip(message)


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test builds into its own cache (the CLI and pre-flight find it through $MJARENA_CACHE)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("MJARENA_CACHE", str(folder))
    return folder


@pytest.fixture
def compiler_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every command the build module runs (compilers and version checks), recorded as it is run."""
    calls: list[list[str]] = []

    def recording_run(argv, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(list(argv))
        return run(argv, **kwargs)

    monkeypatch.setattr(build_module, "run", recording_run)
    return calls


# -- each language ------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", sorted(TINY))
def test_each_language_builds_and_its_bot_answers(language: str) -> None:
    needs(language)
    result = build(SOURCES / TINY[language], sandbox=NONE)
    assert (result.status, result.language, result.cached) == ("ok", language, False), result.message
    assert len(result.readable) == 1 and any(result.readable[0] in word for word in result.run_argv)
    answer = run(result.run_argv, sandbox=NONE, readable=result.readable, stdin=b'{"requests": ["0 0"]}\n')
    assert answer.status == "ok", answer.stderr
    assert json.loads(answer.stdout)["response"] == "PASS"


@requires_bwrap
@pytest.mark.parametrize("language", sorted(EXAMPLE_BOTS))
def test_each_example_bot_passes_preflight_in_the_sandbox(language: str) -> None:
    """The example bots (examples/bots/) build in the box and answer the first request of a real game legally."""
    needs(language)
    source = EXAMPLES / EXAMPLE_BOTS[language]
    if not source.exists():
        pytest.fail(f"{source} is missing")
    assert preflight([str(source)], limits=Limits(sandbox=Sandbox())) == []


@requires_bwrap
@pytest.mark.parametrize("language", sorted(TINY))
def test_compiled_in_the_bwrap_sandbox_and_run_there(language: str) -> None:
    needs(language)
    box = Sandbox()
    result = build(SOURCES / TINY[language], sandbox=box)
    assert result.status == "ok", result.message
    problem = probe(str(SOURCES / TINY[language]), limits=Limits(sandbox=box))
    assert problem is not None and problem.reason == "illegal_action", "it ran and answered PASS to a draw"
    answer = run(result.run_argv, sandbox=box, readable=result.readable, stdin=b"{}\n")
    assert json.loads(answer.stdout)["response"] == "PASS"


def test_java_needs_a_class_called_main() -> None:
    needs("java")
    result = build(SOURCES / "not_main.java", sandbox=NONE)
    assert result.status == "compile_error"
    assert "must be called Main" in result.message


# -- compile errors -----------------------------------------------------------------------------------


def test_a_cpp_compile_error_names_the_file_and_the_line(cache: Path) -> None:
    needs("cpp")
    result = build(SOURCES / "broken.cpp", sandbox=NONE)
    assert (result.status, result.run_argv, result.readable) == ("compile_error", [], [])
    assert "broken.cpp:3:" in result.message and "undeclared_name" in result.message
    assert str(cache) not in result.message and "bot.cpp" not in result.message, "no temp paths, no fixed name"


def test_a_python_syntax_error_is_a_compile_error(tmp_path: Path) -> None:
    needs("python")
    source = tmp_path / "mine.py"
    source.write_text("import sys\n\ndef answer(:\n    return 'PASS'\n")
    result = build(source, sandbox=NONE)
    assert result.status == "compile_error"
    assert 'File "mine.py", line 3' in result.message and "SyntaxError" in result.message


def test_python_that_is_not_utf8_is_refused_even_in_a_comment(tmp_path: Path) -> None:
    source = tmp_path / "latin.py"
    source.write_bytes(b"# caf\xe9\nprint('{\"response\": \"PASS\"}')\n")
    result = build(source, sandbox=NONE)
    assert result.status == "compile_error"
    assert "line 1" in result.message and "0xe9" in result.message and "UTF-8" in result.message


def test_the_cli_exits_non_zero_on_a_compile_error(capsys: pytest.CaptureFixture[str]) -> None:
    needs("cpp")
    assert main(["build", str(SOURCES / "broken.cpp"), "--sandbox", "none"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("compile_error: ") and "broken.cpp:3:" in out
    assert main(["build", str(SOURCES / "broken.cpp"), "--sandbox", "none", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert {key: data[key] for key in ("status", "language", "cached", "run")} == \
        {"status": "compile_error", "language": "cpp", "cached": True, "run": ""}
    assert "undeclared_name" in data["message"] and isinstance(data["seconds"], float)


def test_the_cli_build_prints_the_run_command(capsys: pytest.CaptureFixture[str]) -> None:
    needs("python")
    assert main(["build", str(SOURCES / "pass.py"), "--sandbox", "none"]) == 0
    first = capsys.readouterr().out
    assert first.startswith("ok: ") and "(python, " in first and "from the cache" not in first
    assert "\nrun: " in first and "bot.py" in first
    assert main(["build", str(SOURCES / "pass.py"), "--sandbox", "none"]) == 0
    assert "from the cache" in capsys.readouterr().out


# -- the cache ----------------------------------------------------------------------------------------


def test_the_second_build_comes_from_the_cache_and_runs_no_compiler(compiler_runs: list[list[str]]) -> None:
    needs("cpp")
    first = build(SOURCES / "pass.cpp", sandbox=NONE)
    assert not first.cached and any(argv[0].endswith("g++") and "bot.cpp" in argv for argv in compiler_runs)
    compiler_runs.clear()
    second = build(SOURCES / "pass.cpp", sandbox=NONE)
    assert second.cached and compiler_runs == [], "a cache hit runs nothing (the version was asked once)"
    assert second.run_argv == first.run_argv and second.status == "ok"


def test_another_compile_command_is_another_build(tmp_path: Path, compiler_runs: list[list[str]]) -> None:
    needs("cpp")
    build(SOURCES / "pass.cpp", sandbox=NONE)
    table = tmp_path / "o2.json"
    table.write_text(json.dumps({"languages": {"cpp": {"compile": ["g++", "-O2", "-o", "bot", "bot.cpp"]}}}))
    compiler_runs.clear()
    optimised = build(SOURCES / "pass.cpp", sandbox=NONE, toolchains=table)
    assert not optimised.cached and any("-O2" in argv for argv in compiler_runs)


def test_two_builds_of_one_key_publish_once(tmp_path: Path) -> None:
    """Two processes that build the same key at once: the first rename wins, the second uses the first."""
    root = tmp_path / "root"
    root.mkdir()
    key = cache_key("cpp", b"int main(){}", "g++ 12", ["g++"], "bot.cpp")
    first, second = new_entry(root), new_entry(root)
    assert publish(root, key, first, {"status": "ok", "message": "first"})["message"] == "first"
    assert publish(root, key, second, {"status": "ok", "message": "second"})["message"] == "first"
    assert not second.exists() and read_entry(root, key) == {"status": "ok", "message": "first"}
    assert sorted(p.name for p in root.iterdir()) == [key], "no half-built folder left behind"


# -- what cannot be built -----------------------------------------------------------------------------


def test_sources_that_cannot_be_built_say_why(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="no such file"):
        build(tmp_path / "missing.cpp", sandbox=NONE)
    with pytest.raises(BuildError, match=r"no language has the suffix '\.rs'"):
        build(tmp_path / "main.rs", sandbox=NONE)
    big = tmp_path / "big.py"
    big.write_bytes(b"#" * (build_module.MAX_SOURCE_BYTES + 1))
    with pytest.raises(BuildError, match="at most 1048576 bytes"):
        build(big, sandbox=NONE)
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    with pytest.raises(BuildError, match="not a regular file"):  # and no wait for a writer
        build(fifo, sandbox=NONE)
    (tmp_path / "folder.cpp").mkdir()
    with pytest.raises(BuildError, match="not a regular file"):
        build(tmp_path / "folder.cpp", sandbox=NONE)


def test_a_hostile_file_name_never_reaches_a_command(tmp_path: Path, compiler_runs: list[list[str]]) -> None:
    needs("python")
    source = tmp_path / "-rf; echo pwned\n.py"
    source.write_text("def f(:\n")
    result = build(source, sandbox=NONE)
    assert result.status == "compile_error"
    assert all(source.name not in word for argv in compiler_runs for word in argv)
    assert "-rf; echo pwned\\n.py" in result.message, "shown escaped, on one line"


def test_a_missing_toolchain_names_the_debian_package(tmp_path: Path) -> None:
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"languages": {"cobol": {
        "suffixes": [".cob"], "package": "gnucobol4", "source_name": "bot.cob",
        "compile": ["mjarena-no-such-cobc", "-x", "bot.cob"], "run": ["{dir}/bot"], "version": ["mjarena-no-such-cobc"],
    }}}))
    source = tmp_path / "mine.cob"
    source.write_text("IDENTIFICATION DIVISION.\n")
    assert language_of(source, table) == "cobol" and language_of(source) is None
    with pytest.raises(BuildError, match=r"install the Debian package gnucobol4 \(apt-get install gnucobol4\)"):
        build(source, sandbox=NONE, toolchains=table)


@pytest.mark.parametrize(("entry", "complaint"), [
    ({"suffixes": [".x"], "package": "p", "source_name": "b.x", "run": ["b"], "version": ["b"], "colour": 1},
     "unknown field 'colour'"),
    ({"suffixes": [".x"], "package": "p", "source_name": "../b.x", "run": ["b"], "version": ["b"]},
     "expected a plain file name"),
    ({"suffixes": [".x"], "package": "p", "source_name": "b.x", "run": ["{home}/b"], "version": ["b"]},
     "the only placeholders are"),
    ({"suffixes": [".py"], "package": "p", "source_name": "b.x", "run": ["b"], "version": ["b"]},
     "suffix .py belongs to both"),
    ({"suffixes": [".x"], "package": "p", "source_name": "b.x", "run": ["b"], "version": ["b"], "time_factor": 0},
     "expected a positive number"),
    ({"suffixes": [".x"], "package": "p", "source_name": "b.x"}, "missing field 'run'"),
])
def test_a_bad_toolchain_table_says_what_is_wrong(tmp_path: Path, entry: dict[str, object], complaint: str) -> None:
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"languages": {"xlang": entry}}))
    with pytest.raises(BuildError, match=complaint):
        load_toolchains(table)


def test_a_toml_table_is_read_where_tomllib_exists(tmp_path: Path) -> None:
    table = tmp_path / "table.toml"
    table.write_text('[languages.cpp]\ncompile = ["g++", "-O2", "-o", "bot", "bot.cpp"]\n')
    if sys.version_info < (3, 11):
        with pytest.raises(BuildError, match="write it as JSON"):
            load_toolchains(table)
    else:
        assert load_toolchains(table)["cpp"].compile == ("g++", "-O2", "-o", "bot", "bot.cpp")


# -- source files as bots, pre-flight -----------------------------------------------------------------


def test_a_source_file_plays_a_match_and_one_that_does_not_build_errs() -> None:
    needs("python")
    needs("cpp")
    result = run_match([str(EXAMPLES / "restart_bot.py"), "builtin:greedy", str(SOURCES / "broken.cpp"),
                        "builtin:random"], seed=5, limits=Limits(sandbox=NONE))
    seats = {seat.seat: seat for seat in result.seats}
    assert seats[0].reason is None and seats[3].reason is None
    assert seats[2].reason == "crash" and "does not build: compile_error: broken.cpp:3:" in (seats[2].detail or "")


def test_language_limits_multiply_the_time_limit(tmp_path: Path) -> None:
    """With --language-limits a Python bot gets the table's 6x: a bot that answers after 0.7 s passes the probe
    under a 0.3 s limit only then."""
    needs("python")
    slow = tmp_path / "slow.py"
    slow.write_text("import sys, time\nsys.stdin.readline()\ntime.sleep(0.7)\n"
                    "print('{\"response\": \"PASS\"}')\n")
    plain = probe(str(slow), limits=Limits(time=0.3, sandbox=NONE))
    assert plain is not None and plain.reason == "timeout"
    scaled = probe(str(slow), limits=Limits(time=0.3, sandbox=NONE, language_limits=True))
    assert scaled is not None and scaled.reason == "illegal_action", "it answered in time (PASS to a draw)"


@requires_bwrap
def test_preflight_rejects_each_kind_of_broken_bot_in_the_sandbox() -> None:
    needs("python")
    python = sys.executable
    specs = {
        "missing source": "bots/no_such_bot.cpp",
        "missing program file": f"{python} {BOTS / 'no_such_bot.py'}",
        "exits at once": f"{python} {BOTS / 'crash_bot.py'}",
        "prints nothing": f"{python} {BOTS / 'silent_bot.py'}",
        "fine": str(EXAMPLES / "restart_bot.py"),
    }
    # the default 1 s: on a loaded machine the bots' wait for a CPU is not their time, a crash is still a crash
    problems = {p.spec: p for p in preflight(list(specs.values()), limits=Limits(sandbox=Sandbox()))}
    assert set(problems) == set(specs.values()) - {specs["fine"]}
    assert (problems[specs["missing source"]].reason, problems[specs["missing source"]].detail) == \
        ("build", "bots/no_such_bot.cpp: no such file")
    assert problems[specs["missing program file"]].reason == "crash"
    assert "no_such_bot.py" in problems[specs["missing program file"]].detail
    assert problems[specs["exits at once"]].reason == "crash"
    assert problems[specs["prints nothing"]].reason == "bad_output"


def test_a_match_with_a_broken_bot_stops_before_any_game(capsys: pytest.CaptureFixture[str]) -> None:
    needs("cpp")
    code = main(["match", "--sandbox", "none", "--seed", "1", "--bot", "builtin:greedy", "--bot",
                 str(SOURCES / "broken.cpp"), "--bot", "builtin:random", "--bot",
                 f"{sys.executable} {BOTS / 'silent_bot.py'}"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", "no game was played"
    assert "pre-flight: 2 bots cannot play" in err
    assert "seat 1 (" in err and "compile_error: broken.cpp" in err
    assert "seat 3 (" in err and "bad_output" in err


def test_a_tournament_with_allow_broken_scores_the_broken_entrant_as_erring(tmp_path: Path) -> None:
    needs("cpp")
    out = tmp_path / "cup"
    args = ["tournament", "--sandbox", "none", "--bot", "g=builtin:greedy", "--bot", "r=builtin:random",
            "--bot", "r2=builtin:random", "--bot", f"broken={SOURCES / 'broken.cpp'}", "--rounds", "1",
            "--seed", "3", "--workers", "1", "--out", str(out)]
    assert main(args) == 2 and not (out / "games.jsonl").exists()
    assert main([*args, "--allow-broken"]) == 0
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    broken = [seat for record in records for seat in record["results"] if seat["bot"] == "broken"]
    assert broken and all(seat["status"] == "error" and seat["reason"] == "crash" for seat in broken)


# -- a compiler's limits: /dev and /proc, wall-clock time, output (issue 24) ---------------------------------

BLOCKING_PATHS = ["/dev/ptmx", "/dev/zero", "/dev/urandom", "/dev/stdin", "/dev/tty", "/proc/self/fd/0"]
INCLUDE = {"c": ("mine.c", '#include "{}"\nint main(void) {{ return 0; }}\n'),
           "cpp": ("mine.cpp", '#include "{}"\nint main() {{ return 0; }}\n'),
           "pascal": ("mine.pas", "{{$I {}}}\nbegin end.\n")}
SPIN = ("constexpr long spin() { long s = 0; for (long i = 0; i < 200000; ++i) for (long j = 0; j < 200000; ++j) "
        "s += i ^ j; return s; }\nconstexpr long x = spin();\nint main() { return (int)x; }\n")
BIG = '__attribute__((section(".data"))) char big[60<<20]; int main(){}\n'
PROBE = """
import os
print(" ".join(sorted(os.listdir("/dev"))))
for path in PATHS:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as error:
        print(path, "refused", error.strerror)
        continue
    print(path, "read", len(os.read(fd, 1 << 16)), flush=True)
"""


@requires_bwrap
def test_a_compilers_box_has_nothing_in_dev_or_proc_that_blocks(tmp_path: Path) -> None:
    """In a compiler's box /dev holds null (and the shm mount) alone, and every path that could block a read or
    stream forever is refused at once or reads nothing; the box's tmpfs output is copied back, within its cap."""
    work = tmp_path / "work"
    work.mkdir()
    paths = [*BLOCKING_PATHS, "/proc/self/fd/1", "/proc/self/fd/2", "/proc/1/fd/3", "/proc/kmsg", "/dev/null"]
    script = f"PATHS = {paths!r}\n{PROBE}\nopen('made', 'w').write('x')\n"
    result = run([sys.executable, "-I", "-c", script], sandbox=Sandbox(), cwd=work, time_limit=20.0, wall_limit=8.0,
                 build_output=1 << 20)
    assert result.status == "ok", (result.status, result.stderr)
    lines = result.stdout.decode().splitlines()
    assert lines[0] == "null shm"
    said = dict(line.split(" ", 1) for line in lines[1:])
    assert said["/dev/null"] == "read 0" and said["/proc/self/fd/0"].startswith("refused")
    assert all(said[path].startswith("refused") for path in paths if path != "/dev/null"), said
    assert (work / "made").read_text() == "x", "what the program wrote in its tmpfs is kept"


@requires_bwrap
@pytest.mark.parametrize(("language", "paths"), [
    ("c", BLOCKING_PATHS),
    ("cpp", ["/dev/ptmx", "/proc/self/fd/0"]),
    ("pascal", ["/dev/ptmx", "/dev/zero", "/proc/self/fd/0"]),
])
def test_an_include_of_a_device_or_a_stream_fails_at_once(tmp_path: Path, language: str, paths: list[str]) -> None:
    """Issue 24: #include "/dev/ptmx" kept the compiler waiting 60 s; now each such include is a compile error
    at once (a 10 s wall limit stands behind it, far from reached)."""
    needs(language)
    name, template = INCLUDE[language]
    for path in paths:
        source = tmp_path / path.replace("/", "_") / name
        source.parent.mkdir()
        source.write_text(template.format(path))
        result = build(source, sandbox=Sandbox(), wall_limit=10.0)
        assert result.status == "compile_error" and "ran out of time" not in result.message, (path, result.message)
        assert result.seconds < 5.0, (path, result.seconds)


def test_a_compile_that_runs_out_of_time_is_a_cached_compile_error(tmp_path: Path,
                                                                   compiler_runs: list[list[str]]) -> None:
    needs("cpp")
    source = tmp_path / "spin.cpp"
    source.write_text(SPIN)
    first = build(source, sandbox=NONE, wall_limit=1.5)
    assert (first.status, first.cached) == ("compile_error", False)
    assert "ran out of time" in first.message and "1.5 s of wall-clock time" in first.message
    assert "change the source to try again" in first.message
    compiler_runs.clear()
    second = build(source, sandbox=NONE, wall_limit=1.5)
    assert (second.status, second.cached, second.message) == ("compile_error", True, first.message)
    assert compiler_runs == [], "a cached timeout runs no compiler"


@pytest.mark.parametrize("kind", sandbox_kinds())
def test_a_build_over_its_output_cap_is_a_cached_compile_error_that_keeps_nothing(tmp_path: Path, cache: Path,
                                                                                  kind: str) -> None:
    needs("c")
    source = tmp_path / "big.c"
    source.write_text(BIG)
    result = build(source, sandbox=Sandbox(kind=kind))
    assert (result.status, result.cached) == ("compile_error", False)
    assert "the build is too large" in result.message and "16 MiB" in result.message, result.message
    assert disk_bytes(cache) < 1 << 20, "the 60 MiB binary is nowhere in the cache"
    assert build(source, sandbox=Sandbox(kind=kind)).cached
    assert build(SOURCES / "pass.c", sandbox=Sandbox(kind=kind), max_output_bytes=1 << 20).ok


def test_evict_keeps_what_it_is_told_and_failed_builds_and_an_evicted_build_is_built_again(
        tmp_path: Path, cache: Path) -> None:
    needs("python")
    kept, dropped, broken = (tmp_path / name for name in ("kept.py", "dropped.py", "broken.py"))
    kept.write_text("print(1)\n")
    dropped.write_text("print(2)\n")
    broken.write_text("def f(:\n")
    first, second, failed = (build(path, sandbox=NONE) for path in (kept, dropped, broken))
    assert first.ok and second.ok and failed.status == "compile_error"
    assert evict(cache, {first.key}, min_age=60.0) == [], "just made: nothing goes before its grace"
    assert evict(cache, {first.key}, min_age=60.0, now=time.time() + 3600) == [second.key]
    assert sorted(p.name for p in cache.iterdir()) == sorted([first.key, failed.key])
    again = build(dropped, sandbox=NONE)
    assert again.ok and not again.cached and again.key == second.key
    assert Path(again.readable[0]).is_dir()
