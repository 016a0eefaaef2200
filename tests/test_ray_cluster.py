"""Issue 35: a contest on a Ray cluster whose nodes share no file system, a node that dies, and a clean stop.

The cluster test (marked ``slow``, about a minute: two Ray nodes start) runs :mod:`ray_cluster_scenario` in
network, pid and mount namespaces of its own (loopback only; everything it starts dies with it): a head node and
a far node that sees an empty folder where the contest is, eight teams of Python, JavaScript and C++ bots, the
far node killed mid-game, the round compared with the same contest played on one machine, then the judge stopped
as the server stops it, and last ``mjarena contest serve --executor ray`` on the cluster, stopped by SIGTERM.
Before this issue the far node could not start any bot (its builds are under the contest folder), and stopping
shut Ray down under the game threads, one of which then started a Ray instance of its own
(``ray_cluster_scenario.py WORK no-shipping`` and ``old-stop`` put the old behaviour back, and this test fails on
them).  The other tests are the build parcels' own (:mod:`mjarena.builds.shipping`) and the scheduler's stop,
without Ray.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import threading
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from mjarena.builds.shipping import ShippingError, materialise, pack, verify
from mjarena.contest.games import public_replay
from namespaced import run_scenario, why_no_namespaces


def _cluster_unavailable() -> str | None:
    why = why_no_namespaces()
    if why is not None:
        return why
    missing = [tool for tool in ("g++", "node") if shutil.which(tool) is None]
    if missing and os.environ.get("MJARENA_REQUIRE_TOOLCHAINS") != "1":
        return f"the bots' toolchains are missing: {', '.join(missing)}"
    return None


@pytest.mark.slow
@pytest.mark.skipif(_cluster_unavailable() is not None, reason=str(_cluster_unavailable()))
def test_a_two_node_cluster_without_a_shared_folder_plays_every_game_and_a_dead_node_is_a_judge_error(
        tmp_path: Path) -> None:
    facts = run_scenario("ray_cluster_scenario.py", tmp_path, timeout=240)
    print("\n".join(facts["steps"]))
    # the far node is as another machine: it cannot see the contest, yet played games from the builds sent to it
    assert facts["built"] == 8 and facts["head_sees_contest"] and not facts["far_sees_contest"]
    # both nodes passed their check (the box, the runtimes, the cache, the clock) before they played
    assert sorted((host == "far-node", state, reasons) for host, state, reasons in facts["checked"]) == [
        (False, "ready", []), (True, "ready", [])]
    assert facts["far_cache"], "the far node played no game"
    assert set(facts["far_cache"]) <= set(facts["head_cache"])  # the same builds, by the same digests
    assert facts["sources_sent"] == []  # a compiled bot's source stays on the judge's machine
    # the far node died mid-game: one judge error for that game, played again, counted once, nobody's crash
    assert facts["far_playing_at_kill"]
    (error,) = facts["judge_errors"]
    assert error[0] in facts["far_playing_at_kill"] and error[1].startswith("the Ray node or worker playing it failed")
    assert "NodeDiedError" in error[1] or "WorkerCrashedError" in error[1]  # as Ray first notices it
    assert facts["round1_finished"] and [game["state"] for game in facts["round1"]] == ["finished"] * 4
    seats = [seat for game in facts["round1"] for seat in game["seats"]]
    assert all(status != "error" for _team, status, _reason, _points in seats), seats
    assert facts["totals_games"] == 16 and facts["totals_points"] == sum(points for *_, points in seats)
    # each game's replay names the machine that played it: both played, the game of the dead node another one
    nodes = {int(game_id): node for game_id, node in facts["nodes"].items()}
    assert len(nodes) == 4 and "far-node" in nodes.values() and len(set(nodes.values())) == 2
    assert nodes[error[0]] != "far-node"
    # the same contest (same secret, same builds) played on one machine: the same walls, results and replays
    assert facts["round1_on_one_machine_is_the_same"]
    # stopped while games ran: the threads left run() first, no Ray instance was started, the cluster is intact
    assert facts["running_at_stop"]
    assert facts["game_threads_after_stop"] == [] and not facts["ray_initialized_after_stop"]
    assert not facts["scheduler_alive_after_stop"]  # it waited for games that stop() had cancelled, for ever
    assert facts["new_ray_processes"] == [] and facts["cluster_processes_kept"]
    assert facts["bots_left"] == []
    assert facts["run_after_close"] == "ExecutorClosed"
    # the same through `mjarena contest serve --executor ray` (RAY_ADDRESS: the cluster) and SIGTERM
    serve = facts["serve"]
    assert serve["running_at_sigterm"] and serve["exit"] == 128 + 15 and not serve["traceback"], serve  # (stopped)
    assert not serve["started_a_local_ray"] and serve["new_ray_processes"] == [], serve
    assert serve["cluster_processes_kept"] and serve["bots_left"] == [], serve
    assert serve["played_on"] and serve["judge_errors"] == [], serve


# -- the parcels ------------------------------------------------------------------------------------------


def _build(folder: Path) -> Path:
    (folder / "sub").mkdir(parents=True)
    (folder / "bot").write_bytes(b"\x7fELF program")
    (folder / "bot").chmod(0o755)
    (folder / "sub" / "data.txt").write_text("table")
    (folder / "bot.cpp").write_text("int main() {}")
    return folder


def test_a_parcel_unpacks_to_the_same_files_on_a_node_and_is_the_same_for_the_same_files(tmp_path: Path) -> None:
    build = _build(tmp_path / "build")
    parcel = pack(build, ["bot.cpp"])
    assert pack(_build(tmp_path / "again"), ["bot.cpp"]).digest == parcel.digest  # no times, owners or order
    folder = materialise(tmp_path / "node", parcel.digest, parcel.data)
    assert folder == tmp_path / "node" / parcel.digest
    assert (folder / "bot").read_bytes() == b"\x7fELF program" and os.access(folder / "bot", os.X_OK)
    assert (folder / "sub" / "data.txt").read_text() == "table" and not (folder / "bot.cpp").exists()
    assert [p.name for p in (tmp_path / "node").iterdir()] == [parcel.digest]  # nothing half-made left


def test_a_changed_build_on_a_node_is_never_run_but_unpacked_afresh(tmp_path: Path) -> None:
    parcel = pack(_build(tmp_path / "build"))
    folder = materialise(tmp_path / "node", parcel.digest, parcel.data)
    (folder / "bot").write_bytes(b"#!/bin/sh\necho planted")  # a node's cache damaged or tampered with
    assert not verify(folder, parcel.digest)
    again = materialise(tmp_path / "node", parcel.digest, parcel.data)
    assert again == folder and (again / "bot").read_bytes() == b"\x7fELF program" and verify(again, parcel.digest)


def test_a_parcel_that_does_not_match_its_digest_or_climbs_out_is_refused(tmp_path: Path) -> None:
    parcel = pack(_build(tmp_path / "build"))
    other = pack(_build(tmp_path / "other") / "sub")
    with pytest.raises(ShippingError, match="does not match its digest"):
        materialise(tmp_path / "node", parcel.digest, other.data)
    with pytest.raises(ShippingError, match="not a parcel digest"):
        materialise(tmp_path / "node", "../../etc", parcel.data)
    canonical = zlib.decompress(parcel.data).replace(b"sub/data.txt", b"../sdata.txt")  # the same length
    with pytest.raises(ShippingError, match="not inside it"):
        materialise(tmp_path / "node", hashlib.sha256(canonical).hexdigest(), zlib.compress(canonical))
    assert not (tmp_path / "sdata.txt").exists()
    assert not any((tmp_path / "node").iterdir())


def test_only_files_and_folders_travel(tmp_path: Path) -> None:
    build = _build(tmp_path / "build")
    (build / "link").symlink_to("/etc/passwd")
    with pytest.raises(ShippingError, match="only files and folders travel"):
        pack(build)


def test_the_node_that_played_a_game_is_in_its_replay_for_the_organiser_only() -> None:
    replay = {"contest": {"game": 3, "node": "judge-7", "players": []}, "seats": [], "transcripts": {}}
    assert "node" not in public_replay(replay, None)["contest"]
    assert "node" not in public_replay(replay, "red")["contest"]
    assert replay["contest"]["node"] == "judge-7" and public_replay(replay, None)["contest"]["game"] == 3


# -- the stop, without Ray ----------------------------------------------------------------------------------


class Held:
    """An executor whose games wait until released (``entered`` is set once one waits)."""

    remote = False

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def run(self, fn: Callable[[Any], Any], tasks: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
        self.entered.set()
        self.release.wait(60)
        raise RuntimeError("the executor closed while the game ran")

    def close(self, cancel: bool = False) -> None:
        self.release.set()


def test_a_stopped_scheduler_ends_though_games_of_its_round_were_still_queued(tmp_path: Path) -> None:
    """One game at a time, two in the round: stop() cancels the queued one, and the round's wait used to wait for
    it for ever (a cancelled future never tells ``wait`` it is done), so the scheduler's thread never ended."""
    from mjarena.contest.scheduler import Scheduler
    from test_contest import TEAMS, Server, version_of

    server = Server(tmp_path / "contest", teams=TEAMS)  # five teams: two tables
    for team in TEAMS:
        assert server.upload(team, version_of(team)).status_code == 201
    executor = Held()
    scheduler = Scheduler(server.contest, executor, 1, clock=server.clock, poll=0.05)
    scheduler.start()
    assert executor.entered.wait(60)
    assert len(server.contest.db.games(states=("planned", "running"))) == 2
    scheduler.stop()
    executor.close(cancel=True)
    scheduler.join(10)
    assert not scheduler._thread.is_alive()
    assert server.contest.db.judge_errors() == []  # a game stopped is dropped, not failed
