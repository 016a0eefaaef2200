"""The contest's builds under attack (issue 24): no team can stall another's builds, fill the disk, or keep old
builds forever.

The builder is driven directly on a contest folder (no server): :class:`~mjarena.contest.building.Builder`'s
worker threads for the fairness test, its synchronous ``build`` elsewhere.  A test that needs bubblewrap or a
compiler is skipped with the reason where it is missing.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mjarena.builds import disk_bytes
from mjarena.cli import main
from mjarena.contest.app import create_app
from mjarena.contest.building import Builder, QuotaError, evict, store_submission, team_usage
from mjarena.contest.model import Contest, ContestError, Settings
from mjarena.contest.rows import Submission, Team
from mjarena.contest.scheduler import Scheduler
from mjarena.sandbox import Sandbox, run

from boxes import requires_bwrap

BOT = (Path(__file__).parent / "bots" / "contest_bot.py").read_bytes()
MIB = 1 << 20
SPIN = (b"constexpr long spin() { long s = 0; for (long i = 0; i < 200000; ++i) for (long j = 0; j < 200000; ++j) "
        b"s += i ^ j; return s; }\nconstexpr long x = spin();\nint main() { return (int)x; }\n")
PTMX = b'#include "/dev/ptmx"\nint main() { return 0; }\n'
BIG = b'__attribute__((section(".data"))) char big[60<<20]; int main(){}\n'


def needs(*programs: str) -> None:
    """Skip unless each compiler is installed."""
    for program in programs:
        if shutil.which(program, path="/usr/local/bin:/usr/bin:/bin") is None:
            pytest.skip(f"{program} is not installed (make toolchains)")


def version_of(mark: str) -> bytes:
    return BOT.replace(b"contest-bot-v1", mark.encode())


def make(root: Path, teams: list[str], **settings: Any) -> Contest:
    contest, _ = Contest.create(root, teams, Settings(**{"sandbox": "none", "start": 1000.0, **settings}))
    return contest


def team(contest: Contest, name: str) -> Team:
    found = contest.db.team(name)
    assert found is not None
    return found


def upload(contest: Contest, name: str, raw: bytes, filename: str = "bot.py") -> Submission:
    language = {".py": "python", ".cpp": "cpp", ".c": "c"}[Path(filename).suffix]
    return store_submission(contest, team(contest, name), filename, language, raw)


def status(contest: Contest, submission: Submission) -> Submission:
    found = contest.db.submission(submission.id)
    assert found is not None
    return found


def folder(contest: Contest, submission: Submission) -> Path:
    key, _ = contest.db.build_records()[submission.id]
    return contest.root / "builds" / key


# -- no team can stall another's builds ------------------------------------------------------------------------


@requires_bwrap
def test_another_teams_build_finishes_while_a_hostile_teams_blocking_builds_are_queued(tmp_path: Path) -> None:
    """One build worker, and a hostile team's queue of compiles that block on /dev/ptmx or spin the compiler (3 s
    wall limit each) ahead of an honest upload: teams are served in turn, so the honest build waits for one
    hostile build at most.  The blocking includes fail at once, and the spinners' timeouts are cached.  (How long
    it waited is no verdict: on a busy machine a spinner's 3 s of its own time take many more of the clock's.
    The count of hostile builds done before it is.)"""
    needs("g++", "python3")
    contest = make(tmp_path / "cup", ["evil", "good"], sandbox="bwrap", compile_wall=3.0, build_workers=1,
                   team_quota_mib=256)  # room for five pending builds of 16 MiB
    hostile = [upload(contest, "evil", source, "evil.cpp") for source in (
        SPIN, PTMX, SPIN.replace(b"s += i", b"s -= i"), PTMX.replace(b"return 0", b"return 1"), SPIN + b"// 3\n")]
    builder = Builder(contest)
    builder.start()  # queues the pending uploads
    try:
        time.sleep(0.5)  # the first spinner is compiling
        good = upload(contest, "good", BOT)
        start = time.monotonic()
        builder.submit(good.id)
        while status(contest, good).status == "pending" and time.monotonic() - start < 120.0:  # a cap, not a bound
            time.sleep(0.05)
        assert status(contest, good).status == "ok", status(contest, good).message
        pending = [s for s in hostile if status(contest, s).status == "pending"]
        assert len(pending) >= len(hostile) - 1, "the honest build waited for one hostile build at most"
    finally:
        builder.stop()
        builder.join(15.0)
    verdicts = {s.id: status(contest, s) for s in hostile}
    done = [v for v in verdicts.values() if v.status != "pending"]
    assert all(v.status == "compile_error" for v in done)
    assert all("ran out of time" in v.message for v in done if b"spin" in Path(v.path).read_bytes())
    assert all("/dev/ptmx" in v.message for v in done if b"ptmx" in Path(v.path).read_bytes())


def test_builders_serve_teams_in_turn_one_build_per_team_at_a_time(tmp_path: Path) -> None:
    """The line's order, without compiling: a team's next build waits behind every other team's that is
    waiting, including a team that came while its build ran; a team never has two builds at once."""
    contest = make(tmp_path / "cup", ["a", "b", "c"])
    a, b, c = (team(contest, name).id for name in "abc")
    builder = Builder(contest, workers=2)
    for team_id, count in ((a, 3), (b, 1)):
        for index in range(count):
            builder._enqueue(team_id, 10 * team_id + index)
    assert builder._take() == (a, 10 * a)  # a builds; b waits
    builder._enqueue(c, 10 * c)  # c comes while a builds
    builder._enqueue(c, 10 * c + 1)
    order = []
    running = [(a, 10 * a)]
    while builder._turns or running:
        builder._done(*running.pop(0))
        if builder._turns:
            running.append(builder._take())  # type: ignore[arg-type]
            order.append("abc"[running[-1][0] - a])
    assert order == ["b", "c", "a", "c", "a"]
    builder._enqueue(a, 1)
    assert builder._take() == (a, 1)
    builder._enqueue(a, 2)
    assert list(builder._turns) == [], "a team with a build running waits out of line"
    builder.stop()
    assert builder._take() is None, "a stopped builder waits for nothing"


# -- bounded disk ------------------------------------------------------------------------------------------------


@requires_bwrap
def test_a_60_mib_build_is_refused_and_the_folder_stays_under_the_quota(tmp_path: Path) -> None:
    needs("gcc")
    contest = make(tmp_path / "cup", ["big"], sandbox="bwrap")
    submission = upload(contest, "big", BIG, "big.c")
    Builder(contest).build(submission.id)
    verdict = status(contest, submission)
    assert verdict.status == "compile_error"
    assert "the build is too large" in verdict.message and "at most 16 MiB" in verdict.message, verdict.message
    assert "change the source to try again" in verdict.message
    assert disk_bytes(contest.root) < contest.settings.team_quota_mib * MIB
    assert disk_bytes(folder(contest, submission)) < 64 << 10, "a refused build keeps its verdict alone"


def test_a_team_over_its_quota_has_its_upload_refused(tmp_path: Path) -> None:
    """Sources of 1 MiB with builds of up to 1 MiB each: a 12 MiB quota holds a few, then the upload is refused
    (413, saying so) and makes no submission; the team's disk stays within its quota."""
    needs("python3")
    contest = make(tmp_path / "cup", ["red", "blue"], team_quota_mib=12, build_output_mib=1, uploads_per_minute=60)
    builder = Builder(contest)
    client = TestClient(create_app(contest, on_submission=builder.build))
    token = contest.rotate_token("red")
    padding = b"#" * (MIB - len(BOT) - 64) + b"\n"
    answers = []
    for index in range(8):
        answers.append(client.post("/api/submissions", headers={"authorization": f"Bearer {token}"},
                                   files={"source": ("bot.py", version_of(f"v{index}") + padding)}))
        if answers[-1].status_code != 201:
            break
    assert [a.status_code for a in answers[:-1]] == [201] * (len(answers) - 1) and len(answers) >= 3
    refused = answers[-1]
    assert refused.status_code == 413
    assert "storage quota of 12 MiB is used up" in refused.json()["error"]
    assert len(contest.db.submissions()) == len(answers) - 1
    assert team_usage(contest, team(contest, "red")) <= 12 * MIB
    with pytest.raises(QuotaError):
        upload(contest, "red", version_of("again") + padding)
    assert upload(contest, "blue", BOT).version == 1, "another team's quota is its own"


def test_the_settings_and_create_options_of_builds(tmp_path: Path, capsys: Any) -> None:
    root = tmp_path / "cup"
    assert main(["contest", "create", str(root), "--team", "a", "--build-workers", "3", "--compile-wall", "4.5",
                 "--build-output-mib", "8", "--team-quota-mib", "40", "--json"]) == 0
    settings = Contest.open(root).settings
    assert (settings.build_workers, settings.compile_wall, settings.build_output_mib, settings.team_quota_mib) == \
        (3, 4.5, 8, 40)
    assert Settings().build_workers == 2 and Settings().compile_wall == 10.0
    assert Settings().build_output_mib == 16 and Settings().team_quota_mib == 64
    assert main(["contest", "create", str(tmp_path / "small"), "--team", "a", "--team-quota-mib", "4"]) == 2
    assert "--team-quota-mib 4: leaves no room for one upload" in capsys.readouterr().err
    for bad in (Settings(build_workers=0), Settings(compile_wall=0), Settings(build_output_mib=0)):
        with pytest.raises(ContestError):
            bad.check()


# -- old builds evicted ------------------------------------------------------------------------------------------


def test_eviction_keeps_current_pinned_and_shared_builds_and_a_game_rebuilds_an_evicted_one(tmp_path: Path) -> None:
    """red uploads v1..v4 (and a broken v5); blue's bot is red's v1, byte for byte (a cache folder of its own:
    builds are not shared between teams, issue 31); a game in progress pins red v2.  Eviction keeps v4 (red's
    current), v2 (pinned), blue's v1 (blue's current) and the failed build's verdict, and removes red's v1 and v3;
    a game that needs v3 builds it again from its stored source."""
    needs("python3")
    contest = make(tmp_path / "cup", ["red", "blue"])
    builder = Builder(contest)

    def built(name: str, raw: bytes) -> Submission:
        submission = upload(contest, name, raw)
        builder.build(submission.id)
        return submission

    red = [built("red", version_of(f"red-v{n}")) for n in (1, 2, 3, 4)]
    blue = built("blue", version_of("red-v1"))
    broken = built("red", b"def broken(:\n")
    assert [status(contest, s).status for s in [*red, blue, broken]] == ["ok"] * 5 + ["compile_error"]
    assert folder(contest, red[0]) != folder(contest, blue)
    red_id, blue_id = team(contest, "red").id, team(contest, "blue").id
    with contest.db.transaction() as tx:
        (game_id,) = tx.add_round(1, 1000.0, [[(1, 7, [red_id, blue_id, None, None])]])
        tx.start_game(game_id, 1000.0, {0: red[1].id, 1: blue.id})
    assert evict(contest) == [], "builds made within the grace period stay"
    removed = evict(contest, now=time.time() + 3600)
    assert sorted(removed) == sorted([folder(contest, red[0]).name, folder(contest, red[2]).name])
    assert not folder(contest, red[2]).exists()
    assert all(folder(contest, s).is_dir() for s in (blue, red[1], red[3], broken))
    with contest.db.transaction() as tx:  # a game that needs the evicted build (as after a crash, say)
        (later,) = tx.add_round(2, 1001.0, [[(1, 8, [red_id, None, None, None])]])
        tx.start_game(later, 1001.0, {0: red[2].id})
    game = contest.db.game(later)
    assert game is not None
    program = Scheduler(contest, None, 1).task(game).seats[0].program
    assert program is not None and folder(contest, red[2]).is_dir()
    answer = run(program.argv, sandbox=Sandbox(kind="none"), readable=program.readable,
                 stdin=json.dumps({"requests": ["0 0"]}).encode() + b"\n", time_limit=10.0)
    assert b"red-v3 debug" in answer.stdout, answer.stderr


def test_a_compile_out_of_time_on_a_busy_machine_is_tried_again_and_logged(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that the machine was too busy to compile (BuildBusy) stays pending and is queued again, each try
    in the organiser's log; after the last try its verdict says so (and nothing was cached)."""
    import mjarena.contest.building as building_module
    from mjarena.builds import BuildBusy

    def busy(path: Path, **_: Any) -> Any:
        raise BuildBusy(f"{path.name}: the compiler ran out of time while the judge's machine was busy")

    monkeypatch.setattr(building_module, "build_source", busy)
    contest = make(tmp_path / "cup", ["a"])
    submission = upload(contest, "a", BOT)
    builder = Builder(contest, workers=1, retry=0.0)
    queued: list[int] = []
    monkeypatch.setattr(builder, "submit", queued.append)
    for tries in range(1, building_module.BUSY_TRIES + 1):
        builder.build(submission.id)
        expected = "pending" if tries < building_module.BUSY_TRIES else "compile_error"
        assert status(contest, submission).status == expected
    deadline = time.monotonic() + 60  # a cap: the timers fire at once
    while len(queued) < building_module.BUSY_TRIES - 1 and time.monotonic() < deadline:
        time.sleep(0.01)  # (the retries are timers)
    assert queued == [submission.id] * (building_module.BUSY_TRIES - 1)
    assert "machine was busy" in status(contest, submission).message
    logged = [entry for entry in contest.db.admin_log() if entry[1] == "build busy"]
    assert len(logged) == building_module.BUSY_TRIES


def test_a_compile_out_of_time_on_a_busy_machine_is_built_at_the_next_try(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The contest's path of issue 42's "built again at the next try": a compile that :func:`mjarena.builds.build`
    found busy (through the contest's ``build_source``) leaves its submission pending, the builder's workers try it
    again, and the next compile, with the machine free, is its verdict: ``ok``, one ``build busy`` in the log.

    The retry's timer fires at once, before the first try's worker has marked its build ended: before, the
    submission still counted as queued then, so the retry was dropped and it stayed pending for ever (a second
    ``make test`` beside this one made the timer win the race once; here it always does)."""
    import threading

    import mjarena.builds as builds_module
    from mjarena.builds import BuildBusy

    class AtOnce:  # threading.Timer, fired in the thread that starts it
        def __init__(self, interval: float, function: Any, args: list[Any]) -> None:
            self.function, self.args, self.daemon = function, args, False

        def start(self) -> None:
            self.function(*self.args)

    monkeypatch.setattr(threading, "Timer", AtOnce)

    real = builds_module.build
    tries: list[str] = []

    def busy_once(path: Any, **options: Any) -> Any:
        tries.append(Path(path).name)
        if len(tries) == 1:
            raise BuildBusy(f"{path}: the compiler ran out of time while the judge's machine was busy")
        return real(path, **options)

    monkeypatch.setattr(builds_module, "build", busy_once)
    contest = make(tmp_path / "cup", ["a"])
    submission = upload(contest, "a", BOT)
    builder = Builder(contest, workers=1, retry=0.0)
    builder.start()
    try:
        builder.submit(submission.id)
        deadline = time.monotonic() + 30
        while status(contest, submission).status == "pending" and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        builder.stop()
    assert (status(contest, submission).status, tries) == ("ok", ["bot.py", "bot.py"])
    assert [entry[1] for entry in contest.db.admin_log()].count("build busy") == 1
