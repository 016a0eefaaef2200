"""Issue 35: a cluster node checked before it plays, fair timing on mixed nodes, the node in the console, and the
nodes' bounded build caches.

Without Ray: the judge's roster of nodes (:class:`mjarena.arena.node_check.Roster`: left out, flagged, slots),
the check run on this machine (:func:`~mjarena.arena.node_check.check_here`), the caches' bound
(:func:`mjarena.builds.shipping.trim`, :func:`~mjarena.builds.shipping.held`) and the console's nodes.  With Ray
(marked ``slow``: :mod:`ray_nodes_scenario`, a cluster of nodes on this machine in namespaces of its own,
loopback only): a node without a runtime
the head has is left out and no game is placed on it, a node that joins later is checked before it plays, a node
plays at most as many games at once as its cores though Ray gives it more CPUs, and with no node that may play a
game is a judge error.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import shutil
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mjarena.agents.errors import JudgeError
from mjarena.arena import node_check
from mjarena.arena.executors import NodeFailure
from mjarena.arena.node_check import MAX_CLOCK_SKEW, RECHECK_SECONDS, SPEED_MARGIN, NodeCheck, Roster, check_here
from mjarena.builds.shipping import held, pack, trim
from mjarena.contest.admin_pages import games_page
from namespaced import run_scenario, why_no_namespaces
from ray_nodes_scenario import RUNTIME
from test_contest import TEAMS, Server, play_round

from boxes import requires_bwrap

# -- the roster: which node plays -------------------------------------------------------------------------


def report(name: str, *, problems: tuple[str, ...] = (), canary: float = 1.0, cores: int = 4,
           at: float = 10.0) -> dict[str, Any]:
    return {"name": name, "problems": list(problems), "canary": canary, "cores": cores, "time": at}


def takes(roster: Roster) -> list[str]:
    """Every slot the roster gives, until it gives none."""
    taken = []
    while (node := roster.take()) is not None:
        taken.append(node)
    return taken


def test_a_node_that_fails_its_check_or_whose_clock_is_off_is_left_out_and_gets_no_game(
        caplog: pytest.LogCaptureFixture) -> None:
    roster = Roster("head")
    assert roster.to_check({"head": 2, "nojava": 4, "late": 2}) == ["head", "nojava", "late"]
    assert roster.take() is None and roster.checking()  # nothing plays before its check
    with caplog.at_level(logging.WARNING, "mjarena.executors"):
        roster.checked("head", report("head", cores=2), 9.0, 11.0)
        roster.checked("nojava", report("n1", problems=("the bots' runtimes are missing: java",)), 9.0, 11.0)
        roster.checked("late", report("n2", at=11.0 + MAX_CLOCK_SKEW + 1), 9.0, 11.0)
    rows = {row["node"]: row for row in roster.rows()}
    assert rows["head"]["state"] == "ready" and rows["head"]["reasons"] == []
    assert rows["n1"]["state"] == "left out" and rows["n1"]["reasons"] == ["the bots' runtimes are missing: java"]
    assert rows["n2"]["state"] == "left out" and "its clock is +3.0 s off the judge's" in rows["n2"]["reasons"][0]
    assert "node n1 is left out (no game is placed on it): the bots' runtimes are missing: java" in caplog.text
    assert takes(roster) == ["head", "head"]  # only the node that passed, one game per CPU
    for _ in range(2):
        roster.give_back("head", True)
    assert rows["head"]["played"] == 0 and {r["node"]: r["played"] for r in roster.rows()}["head"] == 2
    # a node that joins later is checked when first seen, and plays once it passed
    assert roster.to_check({"head": 2, "nojava": 4, "late": 2, "new": 1}) == ["new"]
    assert "new" not in takes(roster)
    for _ in range(2):
        roster.give_back("head", True)
    roster.checked("new", report("n3", cores=8), 9.0, 11.0)
    assert sorted(takes(roster)) == ["head", "head", "new"]
    # a node left out is checked again after a while (it may have been fixed), not before
    later = time.monotonic() + RECHECK_SECONDS
    assert roster.to_check({"head": 2, "nojava": 4, "late": 2, "new": 1}, now=later - 10) == []
    assert roster.to_check({"head": 2, "nojava": 4, "late": 2, "new": 1}, now=later + 1) == ["nojava", "late"]
    roster.checked("nojava", report("n1"), 9.0, 11.0)  # java installed meanwhile
    roster.checked("late", report("n2", at=20.0), 9.0, 11.0)  # its clock still off
    assert {row["node"]: row["state"] for row in roster.rows()} == {
        "head": "ready", "n1": "ready", "n2": "left out", "n3": "ready"}
    # gone from the cluster: no more games, and no node left that may play says why
    roster.to_check({"late": 2})
    assert not roster.playable() and "n1: gone" in roster.why_none() and "n2: its clock is +9.0 s" in roster.why_none()


def test_a_node_plays_at_most_as_many_games_as_its_cores_whatever_ray_gives_it_and_a_head_without_cpus_none(
) -> None:
    roster = Roster("head")
    roster.to_check({"head": 0, "far": 8})
    roster.checked("head", report("head", cores=3, canary=1.0), 9.0, 11.0)  # ray start --head --num-cpus=0
    roster.checked("far", report("far", cores=3, canary=1.1), 9.0, 11.0)
    assert takes(roster) == ["far"] * 3 and roster.rows()[1]["slots"] == 3
    head = roster.rows()[0]
    assert head["state"] == "left out" and head["reasons"] == ["Ray gives it no CPU for games (ray start --num-cpus=0)"]
    assert roster.rows()[1]["ratio"] == pytest.approx(1.1)  # the head's canary is still the measure


def test_a_node_whose_canary_is_off_the_heads_by_more_than_the_margin_is_flagged_but_plays(
        caplog: pytest.LogCaptureFixture) -> None:
    roster = Roster("head")
    roster.to_check({"slow": 1, "near": 1, "fast": 1, "head": 1})
    with caplog.at_level(logging.WARNING, "mjarena.executors"):
        roster.checked("slow", report("slow", canary=1.0 + SPEED_MARGIN + 0.1), 9.0, 11.0)
        roster.checked("near", report("near", canary=1.0 + SPEED_MARGIN - 0.1), 9.0, 11.0)
        roster.checked("fast", report("fast", canary=0.5), 9.0, 11.0)
        assert not any(row["flagged"] for row in roster.rows())  # the head's canary is not known yet
        roster.checked("head", report("head", canary=1.0), 9.0, 11.0)
    rows = {row["node"]: row for row in roster.rows()}
    assert rows["slow"]["flagged"] and rows["fast"]["flagged"] and not rows["near"]["flagged"]
    assert rows["slow"]["ratio"] == pytest.approx(1.0 + SPEED_MARGIN + 0.1) and rows["head"]["ratio"] == 1.0
    assert "node slow is flagged: its canary took 1.40 times the head's" in caplog.text
    assert sorted(takes(roster)) == ["fast", "head", "near", "slow"]  # flagged nodes still play


def test_a_node_a_game_failed_on_is_left_out_until_it_passes_its_check_again() -> None:
    roster = Roster("head")
    roster.to_check({"head": 1, "far": 1})
    roster.checked("head", report("head"), 9.0, 11.0)
    roster.checked("far", report("far"), 9.0, 11.0)
    assert sorted(takes(roster)) == ["far", "head"]
    roster.failed("far", "the Ray node or worker playing it failed: WorkerCrashedError: ...")
    roster.give_back("far", False)
    roster.give_back("head", True)
    assert takes(roster) == ["head"] and roster.rechecks()
    roster.give_back("head", True)
    assert roster.to_check({"head": 1, "far": 1}) == ["far"]  # checked again at the executor's next look
    roster.checked("far", report("far"), 9.0, 11.0)
    assert sorted(takes(roster)) == ["far", "head"]


# -- the check on this machine -----------------------------------------------------------------------------


@requires_bwrap
def test_the_check_finds_a_missing_runtime_a_box_that_does_not_answer_and_a_cache_it_cannot_write(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJARENA_SHIPPED", str(tmp_path / "cache"))
    found = check_here(NodeCheck("bwrap", ("sh", "mjarena-no-such-runtime")))
    assert found["problems"] == ["the bots' runtimes are missing: mjarena-no-such-runtime"]
    assert found["canary"] > 0 and found["cores"] >= 1 and abs(found["time"] - time.time()) < 60
    assert check_here(NodeCheck("bwrap", ("sh",)))["problems"] == []
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("MJARENA_SHIPPED", str(tmp_path / "file" / "cache"))
    monkeypatch.setattr(node_check, "_CANARY_BOT", ["sh", "-c", "exit 3"])  # a box whose bot cannot answer
    problems = check_here(NodeCheck("bwrap"))["problems"]
    assert problems[0].startswith("the canary bot in a bwrap box did not answer (crash")
    assert problems[1].startswith(f"its build cache {tmp_path / 'file' / 'cache'} cannot be written")


def test_the_runtimes_every_node_needs_are_those_the_judges_machine_runs_bots_with() -> None:

    runtimes = node_check.judge_runtimes()
    assert all(shutil.which(program) for program in runtimes) and "g++" not in runtimes
    assert ("python3" in runtimes) == bool(shutil.which("python3"))


# -- the node caches' bound --------------------------------------------------------------------------------


def parcel_of(folder: Path, text: str, size: int = 1000) -> Any:
    folder.mkdir(parents=True)
    (folder / "bot").write_bytes(text.encode() + b"\0" * size)
    return pack(folder)


def test_a_nodes_cache_keeps_the_most_recently_used_builds_within_its_bound(tmp_path: Path) -> None:
    cache = tmp_path / "node"
    parcels = [parcel_of(tmp_path / f"b{i}", f"build {i}") for i in range(5)]
    for age, parcel in enumerate(parcels):
        with held(cache, parcel.digest, parcel.data) as folder:
            os.utime(folder, (1000.0 + age, 1000.0 + age))  # used in this order
    with held(cache, parcels[0].digest, parcels[0].data):  # the oldest used again: now the newest
        pass
    assert trim(cache, keep_builds=3) == [parcels[1].digest, parcels[2].digest]
    assert sorted(entry.name for entry in cache.iterdir()) == sorted(p.digest for p in (parcels[0], *parcels[3:]))
    assert trim(cache, keep_bytes=2500) == [parcels[3].digest]  # about 1 kB each: two fit
    (cache / ".unpacking-old").mkdir()  # what a worker killed while unpacking left
    os.utime(cache / ".unpacking-old", (1000.0, 1000.0))
    trim(cache)
    assert not (cache / ".unpacking-old").exists() and len(list(cache.iterdir())) == 2
    with held(cache, parcels[1].digest, parcels[1].data) as again:  # a build removed comes back whole
        assert (again / "bot").read_bytes().startswith(b"build 1")


def test_a_build_a_game_plays_from_is_never_removed_from_a_nodes_cache(tmp_path: Path) -> None:
    cache = tmp_path / "node"
    playing, other = parcel_of(tmp_path / "a", "playing"), parcel_of(tmp_path / "b", "other")
    started, finish = threading.Event(), threading.Event()
    seen = []

    def game() -> None:
        with held(cache, playing.digest, playing.data) as folder:
            os.utime(folder, (1000.0, 1000.0))  # the least recently used of the two
            started.set()
            finish.wait(30)
            seen.append((folder / "bot").read_bytes()[:7])

    thread = threading.Thread(target=game)
    thread.start()
    assert started.wait(30)
    with held(cache, other.digest, other.data):
        pass
    assert trim(cache, keep_builds=0) == [other.digest]  # the one a game holds stays
    finish.set()
    thread.join(30)
    assert seen == [b"playing"]
    assert trim(cache, keep_builds=0) == [playing.digest]


def test_a_build_removed_between_its_check_and_its_hold_is_unpacked_again(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The trim of another worker lands between the check of the folder and its lock: the game holds the folder
    published again, never the one renamed away."""
    from mjarena.builds import shipping

    cache = tmp_path / "node"
    parcel = parcel_of(tmp_path / "a", "raced")
    real = shipping.materialise
    calls = []

    def checked_then_trimmed(root: Any, digest: str, data: bytes) -> Path:
        folder = real(root, digest, data)
        calls.append(folder)
        if len(calls) == 1:
            assert trim(cache, keep_builds=0) == [digest]
        return folder

    monkeypatch.setattr(shipping, "materialise", checked_then_trimmed)
    with held(cache, parcel.digest, parcel.data) as folder:
        assert len(calls) == 2 and (folder / "bot").read_bytes().startswith(b"raced")
        handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held
        finally:
            os.close(handle)


# -- the console --------------------------------------------------------------------------------------------

NODES = [
    {"node": "judge/aa11", "id": "aa11", "state": "ready", "reasons": [], "ratio": 1.0, "skew": 0.0, "cpus": 2,
     "cores": 2, "slots": 2, "flagged": None, "head": True, "running": 1, "played": 7},
    {"node": "far-7/bb22", "id": "bb22", "state": "left out", "reasons": ["the bots' runtimes are missing: java"],
     "ratio": 1.8, "skew": 0.1, "cpus": 16, "cores": 8, "slots": 8,
     "flagged": "its canary took 1.80 times the head's", "head": False, "running": 0, "played": 0},
]


def test_the_console_shows_the_nodes_and_the_node_that_played_each_game(tmp_path: Path) -> None:
    server = Server(tmp_path / "contest")
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    game = server.contest.db.games(round_no=1)[0]
    node = json.loads(server.contest.db.replay(game.id) or "{}")["contest"]["node"]
    from contest_forms import post_login

    post_login(server.client, "/admin/login", server.tokens["admin"])
    page = server.client.get("/admin/games").text
    assert 'id="cluster-nodes"' not in page  # games played on this machine alone: no nodes panel
    assert f'<td class="node">{node}</td>' in page
    server.scheduler.executor.nodes = lambda: NODES  # type: ignore[attr-defined]
    server.scheduler.executor.running = lambda: [  # type: ignore[attr-defined]
        (SimpleNamespace(game_id=99), "far-7/bb22"), ("a warm-up task", "judge/aa11")]
    assert server.scheduler.running_on() == {99: "far-7/bb22"}
    page = server.client.get("/admin/games").text
    panel = page.split('id="cluster-nodes"', 1)[1].split("</table>", 1)[0]
    far = panel.split('data-node="far-7/bb22"', 1)[1].split("</tr>", 1)[0]
    assert 'data-state="left out"' in far and "the bots&#x27; runtimes are missing: java" in far
    assert "×1.80" in far and "flagged" in far and "8 <span" in far
    head = panel.split('data-node="judge/aa11"', 1)[1].split("</tr>", 1)[0]
    assert "ready (head)" in head and '<td class="num">7</td>' in head
    public = server.client.get(f"/api/replays/{game.id}")  # as the public sees it (the console's session aside)
    assert public.status_code == 200 and '"node":' not in public.text


def test_the_games_page_names_each_games_node_and_a_dash_for_none() -> None:
    rounds = [{"round": 1, "started": 1.0, "finished": None, "games": [
        {"id": 1, "round": 1, "table": 1, "state": "finished", "players": []},
        {"id": 2, "round": 1, "table": 1, "state": "running", "players": []},
        {"id": 3, "round": 1, "table": 2, "state": "finished", "players": []}]}]
    page = games_page(rounds, set(), "c", judging=True, played_on={1: "far-7/<b>", 2: "judge/aa11"}, cluster=NODES)
    live = page.split('id="running-games"', 1)[1].split("</table>", 1)[0]
    assert 'data-game="2"' in live and '<td class="node">judge/aa11</td>' in live  # where it plays now
    assert '<td class="node">far-7/&lt;b&gt;</td>' in page and '<td class="node">—</td>' in page
    assert page.count("<tr data-node=") == 2


# -- on Ray: a cluster on this machine, in namespaces of its own ---------------------------------------------


def _cluster_unavailable() -> str | None:
    try:
        import ray  # noqa: F401
    except ImportError:
        return "Ray is not installed"
    return why_no_namespaces()


@pytest.mark.slow
@requires_bwrap
@pytest.mark.skipif(_cluster_unavailable() is not None, reason=str(_cluster_unavailable()))
def test_on_ray_a_node_that_fails_its_check_is_left_out_and_one_that_joins_later_is_checked_before_it_plays(
        tmp_path: Path) -> None:
    facts = run_scenario("ray_nodes_scenario.py", tmp_path, timeout=300)
    head, cores, cpus = facts["head"], facts["cores"], facts["cpus"]
    start = {row["id"]: row for row in facts["nodes_at_start"]}
    assert len(start) == 2 and start[head]["state"] == "ready" and start[head]["head"]
    (far,) = [row for key, row in start.items() if key != head]
    # the far node lacks a runtime the head has: left out, with the reason in the log, and given no task
    assert far["state"] == "left out" and far["reasons"] == [f"the bots' runtimes are missing: {RUNTIME}"]
    assert any(line.startswith(f"node {far['node']} is left out (no game is placed on it)") for line in facts["log"])
    assert facts["first"] == [head] * (cores + 2)
    running = [nodes for nodes in facts["running_seen"] if nodes]
    assert running and all(len(nodes) <= cores and set(nodes) == {start[head]["node"]} for nodes in running)
    assert facts["running_after"] == []  # none left once they are all back
    # one game per CPU, never more than cores, though Ray gives the head more CPUs than the machine has cores
    assert start[head]["slots"] == cores < cpus and set(facts["first_most_at_once"]) == {head}
    assert 1 <= facts["first_most_at_once"][head] <= cores
    # a box that cannot start on the head: a judge error, and the head left out until checked again (below: back)
    assert facts["box_failed"] == "JudgeError: cannot start the bot: its box failed on this node"
    after = {row["id"]: row for row in facts["nodes_after_box_failed"]}[head]
    assert after["state"] == "left out" and after["reasons"] == ["cannot start the bot: its box failed on this node"]
    # a node that joins later is checked when first seen, then plays; the far node still plays nothing
    joined = [row for row in facts["nodes_after_join"] if row["id"] not in (head, far["id"])]
    assert [row["state"] for row in joined] == ["ready"] and joined[0]["played"] == 0
    assert set(facts["second"]) == {head, joined[0]["id"]}
    assert all(most <= cores for most in facts["second_most_at_once"].values())
    played = {row["id"]: row["played"] for row in facts["nodes_at_end"]}
    assert played[far["id"]] == 0 and played[head] + played[joined[0]["id"]] == 3 * cores + 6
    # no node may play: a game is a judge error (NodeFailure is one) naming each node's reason
    assert facts["no_node"].startswith("no node of the cluster may play a game (")
    assert facts["no_node"].count("the bots' runtimes are missing: mjarena-no-such-runtime") == 3
    assert issubclass(NodeFailure, JudgeError)
