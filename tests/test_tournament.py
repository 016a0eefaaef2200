"""Tournaments: Swiss grouping and padding, round-robin balance, duplicate walls, points and ratings, resume
after a SIGKILL, erring bots, the same results on any executor, and ``mjarena standings``."""

from __future__ import annotations

import io
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from mjarena.arena.executors import LocalExecutor
from mjarena.arena.ratings import Ratings
from mjarena.arena.results_file import load_records
from mjarena.arena.schedules import house_names, round_robin_schedule, swiss_tables, table_games
from mjarena.arena.standings import Tally, compute_standings
from mjarena.arena.tournament import run_tournament
from mjarena.arena.tournament_settings import Entrant, Settings, parse_bot
from mjarena.cli import main

ROOT = Path(__file__).resolve().parents[1]
CRASHER = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'misbehave_bot.py'} crash 2"
BUILTINS = [Entrant("g1", "builtin:greedy"), Entrant("r1", "builtin:random"), Entrant("g2", "builtin:greedy"),
            Entrant("r2", "builtin:random")]
# 5 entrants (padded to 8 with 3 house bots), one of them a program bot that crashes at its second draw
ERRING_ARGS = ["--bot", "g1=builtin:greedy", "--bot", "r1=builtin:random", "--bot", "g2=builtin:greedy",
               "--bot", "r2=builtin:random", "--bot", f"bad={CRASHER}", "--format", "swiss", "--rounds", "2",
               "--games-per-table", "4", "--seed", "11", "--time-limit", "10", "--workers", "2"]


def meetings(schedule: list[list[tuple[str, ...]]], names: list[str]) -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter({pair: 0 for pair in itertools.combinations(sorted(names), 2)})
    for tables in schedule:
        for table in tables:
            for a, b in itertools.combinations(sorted(table), 2):
                if (a, b) in counts:
                    counts[(a, b)] += 1
    return counts


def record(gid: str, results: list[tuple[str, int, float]], status: dict[str, str] | None = None) -> dict:
    status = status or {}
    return {"game": gid, "round": int(gid[1:4]), "results": [
        {"seat": seat, "bot": bot, "house": bot.startswith("house-"), "status": "error" if bot in status else "in",
         "reason": status.get(bot), "rank": rank, "points": points}
        for seat, (bot, rank, points) in enumerate(results)
    ]}


def lines(directory: Path) -> list[dict]:
    return [json.loads(line) for line in (directory / "games.jsonl").read_text().splitlines()]


# -- pure scheduling ---------------------------------------------------------------------------------------


def test_swiss_groups_places_by_points_and_draws_ties_by_seed() -> None:
    names = [f"b{i}" for i in range(12)]
    points = {name: float(i // 2) for i, name in enumerate(names)}  # pairs of equal points
    tables = swiss_tables(names, points, random.Random(3))
    order = [name for table in tables for name in table]
    assert [points[name] for name in order] == sorted(points.values(), reverse=True)
    assert set(tables[0]) == {"b11", "b10", "b9", "b8"}
    assert swiss_tables(names, points, random.Random(3)) == tables  # the draw is seeded
    draws = {tuple(name for t in swiss_tables(names, {}, random.Random(seed)) for name in t) for seed in range(20)}
    assert len(draws) > 1  # all tied: the draw decides


def test_swiss_pads_with_house_bots_at_the_bottom() -> None:
    tables = swiss_tables(list("abcde"), {"a": 5, "b": 4, "c": 3, "d": 2, "e": 1}, random.Random(0))
    assert tables == [("a", "b", "c", "d"), ("e", "house-1", "house-2", "house-3")]
    assert house_names(8) == [] and len(house_names(6)) == 2


@pytest.mark.parametrize(("count", "rounds"), [(8, 7), (9, 4), (13, 9), (16, 5), (6, 9)])
def test_round_robin_meets_everyone_about_equally(count: int, rounds: int) -> None:
    names = [f"bot{i}" for i in range(count)]
    schedule = round_robin_schedule(names, rounds, seed=5)
    everyone = sorted(names + house_names(count))
    for tables in schedule:
        assert sorted(name for table in tables for name in table) == everyone
        assert all(len(table) == 4 for table in tables)
    counts = meetings(schedule, names)
    assert max(counts.values()) - min(counts.values()) <= 1 + (count % 4 != 0), counts
    assert min(counts.values()) >= 1
    assert round_robin_schedule(names, rounds, seed=5) == schedule


def test_round_robin_schedules_are_those_made_before_the_players_were_numbered() -> None:
    """The schedule of a seed never changes (a tournament resumed by a newer mjarena plays the same games): the
    file holds schedules made by the first implementation, by name and with ``random.sample`` (the faster one
    draws through ``Random._randbelow``; 90 players is above ``sample``'s pool size)."""
    stored = json.loads((ROOT / "tests" / "data" / "round_robin_schedules.json").read_text())["schedules"]
    assert len(stored) >= 50 and "90-2-5" in stored
    for key, schedule in stored.items():
        players, rounds, seed = map(int, key.split("-"))
        made = round_robin_schedule([f"bot{i}" for i in range(players)], rounds, seed)
        assert [[list(table) for table in round_] for round_ in made] == schedule, key


def test_duplicate_walls_seat_every_bot_in_every_seat_once() -> None:
    games = table_games(["a", "b", "c", "d"], seed=9, round_no=2, table=1, games_per_table=3, duplicate=True)
    assert len(games) == 12
    for wall in range(3):
        block = games[4 * wall:4 * wall + 4]
        assert len({game.wall_seed for game in block}) == 1
        assert [game.rotation for game in block] == [0, 1, 2, 3]
        for bot in "abcd":
            assert sorted(game.seats.index(bot) for game in block) == [0, 1, 2, 3]
    assert len({game.wall_seed for game in games}) == 3
    plain = table_games(["a", "b", "c", "d"], seed=9, round_no=2, table=1, games_per_table=3, duplicate=False)
    assert len(plain) == 3 and len({game.wall_seed for game in plain}) == 3


def test_tied_points_are_averaged_and_house_bots_are_not_scored() -> None:
    settings = Settings.create([Entrant(n, "builtin:random") for n in "abc"], rounds=1)
    records = {
        "r001-t001-g001": record("r001-t001-g001", [("a", 1, 4.0), ("b", 2, 2.5), ("c", 2, 2.5),
                                                    ("house-1", 4, 1.0)]),
        "r001-t001-g002": record("r001-t001-g002", [("house-1", 1, 4.0), ("a", 2, 2.5), ("b", 2, 2.5),
                                                    ("c", 4, 1.0)], status={"c": "crash"}),
    }
    rows = compute_standings(settings, records)
    by_bot = {row["bot"]: row for row in rows}
    assert [row["bot"] for row in rows] == ["a", "b", "c"]
    assert by_bot["a"]["points"] == 6.5 and by_bot["b"]["points"] == 5.0 and by_bot["c"]["points"] == 3.5
    assert by_bot["b"]["average_rank"] == 2.0 and by_bot["c"]["errors"] == {"crash": 1}
    assert by_bot["a"]["rating"] > by_bot["b"]["rating"] > by_bot["c"]["rating"]
    assert all(row["games"] == 2 for row in rows)


def test_ratings_are_openskill_plackett_luce() -> None:
    """The ratings are computed without openskill, with its operations in its order: every mu and sigma is the very
    number ``PlackettLuce().rate`` gives, game after game, ties, house bots and two-player games included."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 2, 4])
    ratings = Ratings("abcd")
    ratings.update({"a": 1, "b": 2, "c": 2, "d": 4})
    assert [ratings.mu(n) for n in "abcd"] == [team[0].mu for team in expected]
    assert ratings.mu("b") == ratings.mu("c")
    names = [f"p{i}" for i in range(8)]
    theirs = {name: model.rating() for name in names}
    ours = Ratings(names)
    draw = random.Random(47)
    for _ in range(300):
        seated = draw.sample(names, draw.choice([2, 3, 4, 4]))
        ranks = {name: draw.choice([1, 2, 2, 3, 4]) for name in [*seated, "house-1"]}
        rated = model.rate([[theirs[name]] for name in seated], ranks=[float(ranks[name]) for name in seated])
        theirs.update({name: team[0] for name, team in zip(seated, rated, strict=True)})
        ours.update(ranks)
        assert [(ours.mu(n), ours.sigma(n), ours.ordinal(n)) for n in names] == [
            (theirs[n].mu, theirs[n].sigma, theirs[n].ordinal()) for n in names]


def test_bot_names_and_parameters_are_checked() -> None:
    assert parse_bot("x=python3 bot.py --level=2") == Entrant("x", "python3 bot.py --level=2")
    for bad in ("builtin:random", "=builtin:random", "house-1=builtin:random"):
        with pytest.raises(ValueError):
            parse_bot(bad)
    with pytest.raises(ValueError, match="unique"):
        Settings.create([Entrant("a", "builtin:random")] * 2)


# -- running -----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def erring_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted run of the tournament with a crashing program bot."""
    out = tmp_path_factory.mktemp("erring") / "t"
    done = subprocess.run([sys.executable, "-m", "mjarena.cli", "tournament", *ERRING_ARGS, "--out", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "standings after round 2/2" in done.stderr
    return out


def test_an_erring_bot_is_counted_by_kind_and_ranked(erring_run: Path) -> None:
    rows = json.loads((erring_run / "standings.json").read_text())
    assert [row["bot"] for row in rows if row["bot"].startswith("house")] == []
    assert len(rows) == 5 and all(row["games"] == 8 for row in rows)
    bad = next(row for row in rows if row["bot"] == "bad")
    assert bad["errors"] == {"crash": 8} and bad["rank"] == 5 and bad["average_rank"] == 4.0
    records = lines(erring_run)
    assert len(records) == 16 and all((erring_run / "replays" / f"{r['game']}.json").exists() for r in records)
    for rec in records:
        assert sum(seat["points"] for seat in rec["results"]) == 10
        assert sorted(rec["bots"]) == sorted(seat["bot"] for seat in rec["results"])
    assert any(seat["house"] for rec in records for seat in rec["results"])
    csv_header = (erring_run / "standings.csv").read_text().splitlines()[0]
    assert csv_header.startswith("rank,bot,spec,games,points,average_rank,rating")


def test_resume_after_sigkill_plays_no_game_twice_and_ends_the_same(erring_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "t"
    command = [sys.executable, "-m", "mjarena.cli", "tournament", *ERRING_ARGS, "--out", str(out)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    games = out / "games.jsonl"
    try:
        while process.poll() is None and (not games.exists() or games.read_bytes().count(b"\n") < 3):
            time.sleep(0.01)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)  # the runner, its workers and their bots
        process.wait()
    killed_at = games.read_bytes().count(b"\n")
    assert killed_at < 16, "the run finished before it could be killed"
    assert not (out / "standings.json").exists() or killed_at >= 8
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    ids = [rec["game"] for rec in lines(out)]
    assert len(ids) == len(set(ids)) == 16
    assert (out / "standings.json").read_text() == (erring_run / "standings.json").read_text()
    assert load_records(out / "games.jsonl") == load_records(erring_run / "games.jsonl")
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)  # all done: no games
    assert again.returncode == 0 and len(lines(out)) == 16


def test_a_cut_last_line_is_dropped_and_replayed(tmp_path: Path) -> None:
    settings = Settings.create(BUILTINS, rounds=1, games_per_table=3, seed=4)
    run_tournament(settings, tmp_path, workers=1)
    whole = (tmp_path / "games.jsonl").read_text()
    (tmp_path / "games.jsonl").write_text(whole[: whole.rindex("{") + 20])  # a crash while writing the last line
    run_tournament(settings, tmp_path, workers=1)
    assert (tmp_path / "games.jsonl").read_text() == whole


@pytest.mark.parametrize("format", ["round-robin", "swiss"])
def test_the_same_bytes_on_any_executor_and_worker_count(tmp_path: Path, format: str) -> None:
    """games.jsonl and standings.json are the same bytes on 1, 2 and 3 workers (and on Ray where it is installed):
    the results are kept in game-id order, whatever order the workers finish them in."""
    settings = Settings.create([*BUILTINS, Entrant("g3", "builtin:greedy"), Entrant("r3", "builtin:random")],
                               format=format, rounds=3, games_per_table=2, duplicate=True, seed=21)
    runs = {}
    for name, executor, workers in [("one", "local", 1), ("two", "local", 2), ("three", "local", 3)]:
        run_tournament(settings, tmp_path / name, executor=executor, workers=workers, log=io.StringIO())
        runs[name] = tmp_path / name
    try:
        import ray  # noqa: F401
    except ImportError:
        pass
    else:
        if format == "round-robin":
            run_tournament(settings, tmp_path / "ray", executor="ray", workers=2, log=io.StringIO())
            runs["ray"] = tmp_path / "ray"
    first = runs["one"]
    assert len(lines(first)) == 3 * 2 * 8
    assert [record["game"] for record in lines(first)] == sorted(record["game"] for record in lines(first))
    for directory in runs.values():
        assert (directory / "standings.json").read_bytes() == (first / "standings.json").read_bytes()
        assert (directory / "games.jsonl").read_bytes() == (first / "games.jsonl").read_bytes()
        assert len(list((directory / "replays").glob("*.json"))) == 48


def _square(number: int) -> int:
    if number < 0:
        raise ValueError(f"negative: {number}")
    return number * number


def test_the_local_pool_yields_every_task_once_with_its_result_in_chunks_or_not() -> None:
    pool = LocalExecutor(2)
    try:
        assert sorted(pool.run(_square, range(300))) == [(n, n * n) for n in range(300)]  # fast: in chunks
        assert sorted(pool.run(_square, [3, 1])) == [(1, 1), (3, 9)]
        assert list(pool.run(_square, [])) == []
        with pytest.raises(ValueError, match="negative: -5"):
            list(pool.run(_square, [*range(100), -5, *range(100)]))
    finally:
        pool.close()


def test_standings_counted_round_by_round_are_the_standings_from_scratch(tmp_path: Path) -> None:
    settings = Settings.create([*BUILTINS, Entrant("g3", "builtin:greedy"), Entrant("r3", "builtin:random")],
                               format="round-robin", rounds=3, games_per_table=3, seed=8)
    run_tournament(settings, tmp_path, workers=1)
    records = load_records(tmp_path / "games.jsonl")
    tally = Tally(settings)
    for through in (1, 2, 3):
        upto = {gid: rec for gid, rec in records.items() if rec["round"] <= through}
        assert tally.can_extend(upto)
        tally.extend(upto)
        assert tally.rows() == compute_standings(settings, upto)
        assert len(tally.counted) == len(upto) == through * 2 * 3
        by_round = tally.ratings_by_round()  # rated in the same pass: its last point is the standings' rating
        for row in tally.rows():
            assert [r for r, _, _ in by_round[row["bot"]]] == list(range(through + 1))
            assert by_round[row["bot"]][-1][1:] == (row["mu"], row["sigma"])
    fewer = dict(list(records.items())[1:])  # a game counted is missing: the tally cannot go on from here
    assert not tally.can_extend(fewer)
    assert json.loads((tmp_path / "standings.json").read_text()) == compute_standings(settings, records)


def test_the_ray_executor_without_ray_asks_for_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    code = main(["tournament", "--bot", "a=builtin:random", "--bot", "b=builtin:greedy", "--executor", "ray",
                 "--seed", "1", "--out", str(tmp_path / "t")])
    assert code == 2 and "pip install 'mjarena[ray]'" in capsys.readouterr().err


def test_standings_command_and_refusing_other_parameters(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    out = str(tmp_path / "t")
    args = ["tournament", "--bot", "a=builtin:greedy", "--bot", "b=builtin:random", "--bot", "c=builtin:random",
            "--rounds", "2", "--seed", "3", "--workers", "1", "--out", out]
    assert main(args) == 0
    capsys.readouterr()
    assert main(["standings", out]) == 0
    text = capsys.readouterr().out
    assert "2 of 2 games played" in text
    header = text.splitlines()[1].split()
    assert header == ["rank", "bot", "games", "points", "avg", "rank", "rating", "errors"]
    assert {line.split()[1] for line in text.splitlines()[3:]} == {"a", "b", "c"}
    assert main(["standings", out, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows == json.loads((tmp_path / "t" / "standings.json").read_text())
    assert main([*args[:-4], "--seed", "4", "--out", out]) == 2
    assert "other parameters (seed)" in capsys.readouterr().err
    assert main([*args[:-6], "--out", out]) == 0  # no --seed: the stored one; all played, nothing to do
    assert len(lines(tmp_path / "t")) == 2
    assert main(["standings", str(tmp_path / "nothing")]) == 2


def test_answer_times_are_the_replays_elapsed_ms(erring_run: Path) -> None:
    """The tournament page's answer times of a program are its exchanges' ``elapsed_ms`` (one request, one
    answer), not a turn's ``ms``: a turn can carry several requests (issue 42: a slowest answer of 3,212 ms where
    the replays' largest ``elapsed_ms`` was 1,253 ms)."""
    from mjarena.replay import load
    from mjarena.web.tournament_stats import answer_times, merge_times

    elapsed, per_game = [], []
    for rec in lines(erring_run):
        replay = load(erring_run / "replays" / f"{rec['game']}.json")
        times = answer_times(replay, rec["bots"])
        per_game.append(times)
        seats = [str(seat) for seat, name in enumerate(rec["bots"]) if name == "bad"]
        mine = [exchange["elapsed_ms"] for seat in seats for exchange in replay["transcripts"].get(seat, [])]
        if mine:
            elapsed.extend(mine)
            assert times["bad"]["answers"] == len(mine) and times["bad"]["max_ms"] == max(mine)
    assert elapsed, "the program answered in some games"
    assert merge_times(per_game)["bad"]["max_ms"] == round(max(elapsed), 2)


def test_timeouts_are_said_after_the_standings_by_entrant_and_seat(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A program that sleeps through its first draw times out in each of its games: the line after the standings
    says in how many games, and at which seats (issue 42: a busy machine's timeouts should be seen)."""
    sleeper = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'misbehave_bot.py'} sleep 1"
    args = ["tournament", "--bot", "g1=builtin:greedy", "--bot", "g2=builtin:greedy", "--bot", "r1=builtin:random",
            "--bot", f"slow={sleeper}", "--format", "round-robin", "--rounds", "1", "--games-per-table", "2",
            "--seed", "3", "--time-limit", "0.3", "--workers", "1", "--quiet", "--sandbox", "none",
            "--allow-broken", "--out", str(tmp_path / "t")]
    assert main(args) == 0
    out = capsys.readouterr().out
    records = lines(tmp_path / "t")
    seats = [seat["seat"] for rec in records for seat in rec["results"] if seat["reason"] == "timeout"]
    assert len(seats) == len(records) == 2
    shown = ", ".join(f"seat {seat}: {seats.count(seat)}" for seat in sorted(set(seats)))
    assert f"timeouts in 2 of 2 games: slow 2 ({shown})" in out.splitlines()[-1]
