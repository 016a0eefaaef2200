"""The organiser's report of pairs of teams (issue 36, collusion that the results show): the counts read from a
game's events, the statistics (tail, adjustment, the field's model), and a seeded contest in which two bots
written to feed each other stand out among ordinary built-in bots, in the console and the export, while a
contest of ordinary bots only has no pair that stands out.

The games are played in this process by the built-in agents and :mod:`colluding_agents`; the contest's
database is filled with their results and replays as the scheduler records a finished game.
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from mjarena.arena.collusion import (
    TableGame,
    adjust_holm,
    collusion_report,
    count_pairs,
    game_from_replay,
    negative_binomial_tail,
    report_text,
)
from mjarena.arena.match import run_match
from mjarena.arena.schedules import round_robin_schedule
from mjarena.cli import main
from test_contest import Server
from test_contest_admin import console

COLLUDER = "python:colluding_agents:Colluder"
ORDINARY = {"t1": "builtin:greedy", "t2": "builtin:random", "t3": "builtin:strong", "t4": "builtin:greedy",
            "t5": "builtin:random", "t6": "builtin:greedy", "t7": "builtin:greedy", "t8": "builtin:greedy"}
COLLUDING = {**ORDINARY, "t7": COLLUDER, "t8": COLLUDER}
ROUNDS = 50  # 100 games: the two colluders meet at 21 of them
SEED = 0


def play_field(teams: dict[str, str], rounds: int = ROUNDS, seed: int = SEED) -> list[list[tuple[list[str],
                                                                                                  dict[str, Any]]]]:
    """Rounds of a round-robin contest among ``teams`` (name -> bot spec): for each round, each table's seats
    (team names, seated at random) and its replay."""
    rng = random.Random(seed)
    played = []
    for tables in round_robin_schedule(sorted(teams), rounds, seed):
        games = []
        for table in tables:
            seats = list(table)
            rng.shuffle(seats)
            games.append((seats, run_match([teams[name] for name in seats], seed=rng.randrange(1 << 30)).to_json()))
        played.append(games)
    return played


def report_of(played: list[list[tuple[list[str], dict[str, Any]]]]) -> dict[str, Any]:
    return collusion_report(game_from_replay(replay, seats) for games in played for seats, replay in games)


def pairs_standing_out(report: dict[str, Any]) -> set[frozenset[str]]:
    return {frozenset((row["from"], row["to"])) for row in report["standing_out"]}


# -- the counts ------------------------------------------------------------------------------------------------


def play(seat: int, tile: str = "W1") -> dict[str, Any]:
    return {"type": "play", "seat": seat, "tiles": [tile]}


def test_counts_follow_discards_claims_wins_and_who_is_still_playing() -> None:
    events = [
        play(0), {"type": "peng", "seat": 1, "tiles": ["W1"]},  # a PENG names no discarder: the discard before
        play(1), {"type": "hu", "seat": 3, "tiles": ["W1"], "target": 1},  # c wins on b's discard, and leaves
        play(0), play(1), {"type": "gang", "seat": 0, "tiles": ["W1"], "target": 1},
        play(0), {"type": "false_hu", "seat": 1},  # b leaves with a false HU
        play(0), play(2), {"type": "hu_self", "seat": 0, "tiles": ["W2"]}, play(2), {"type": "end"},
    ]
    counts = count_pairs([TableGame(("a", "b", None, "c"), events)])  # seat 2 is a house bot: no pair
    assert set(counts) == {("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")}
    assert (counts["a", "b"].discards, counts["a", "b"].claims, counts["a", "b"].wins) == (3, 1, 0)  # not after b left
    assert (counts["b", "c"].discards, counts["b", "c"].wins, counts["b", "c"].taken) == (1, 1, 1)
    assert (counts["b", "a"].discards, counts["b", "a"].claims) == (2, 1)
    assert counts["a", "c"].discards == 1  # c left after a's first discard
    assert all(count.games == 1 for count in counts.values())
    one_team_twice = count_pairs([TableGame(("a", "a", "b", "b"), [play(0), play(1)])])
    assert set(one_team_twice) == {("a", "b"), ("b", "a")} and one_team_twice["a", "b"].games == 1


def test_a_replay_without_events_is_named_not_a_traceback() -> None:
    for replay in ({}, {"events": "x"}, {"events": [1]}, []):
        with pytest.raises(ValueError, match="game 7: no list of events"):
            game_from_replay(replay, ["a", "b", "c", "d"], "game 7")


# -- the statistics --------------------------------------------------------------------------------------------


def test_the_tail_is_the_sum_of_the_distribution() -> None:
    for count, mean, shape in [(1, 0.3, 2.0), (4, 1.7, 5.5), (12, 3.0, 40.0), (3, 6.0, 1.0), (9, 2.5, math.inf)]:
        if math.isinf(shape):
            pmf = [math.exp(-mean) * mean ** k / math.factorial(k) for k in range(count)]
        else:
            p = shape / (shape + mean)
            pmf = [math.exp(math.lgamma(k + shape) - math.lgamma(shape) - math.lgamma(k + 1)) * p ** shape
                   * (1 - p) ** k for k in range(count)]
        assert negative_binomial_tail(count, mean, shape) == pytest.approx(1 - sum(pmf), rel=1e-9)
    assert 0 < negative_binomial_tail(60, 1.0, math.inf) < 1e-60  # far out: no cancellation to 0


def test_holm_rejects_what_the_step_down_procedure_rejects() -> None:
    rng = random.Random(5)
    p_values = [rng.random() ** 6 for _ in range(40)]
    ordered = sorted(p_values)
    rejected = next((rank for rank in range(40) if ordered[rank] > 0.05 / (40 - rank)), 40)
    assert sum(q <= 0.05 for q in adjust_holm(p_values)) == rejected > 0


def synthetic_field(seed: int, games: int = 300, heavy: str | None = "t1", pair: tuple[str, str] | None = None,
                    kind: str = "peng", silent: str | None = None) -> list[TableGame]:
    """Games of 8 teams without bots: each discard is taken (a ``kind``: a PENG, or a HU that ends the game) by
    another player at a rate of the discarder's times the taker's; team ``heavy`` takes four times as often from
    everyone, team ``silent``'s discards are never taken; ``pair``: its second team takes three times as often
    from its first."""
    rng = random.Random(seed)
    names = [f"t{i}" for i in range(1, 9)]
    feed = {name: 0.0 if name == silent else rng.uniform(0.5, 1.5) for name in names}
    take = {name: rng.uniform(0.5, 1.5) * (4.0 if name == heavy else 1.0) for name in names}
    field = []
    for _ in range(games):
        teams = rng.sample(names, 4)
        events: list[dict[str, Any]] = []
        for turn in range(60):
            seat = turn % 4
            events.append(play(seat))
            taker = None
            for other in ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4):
                rate = 0.012 * feed[teams[seat]] * take[teams[other]]
                if pair == (teams[seat], teams[other]):
                    rate *= 3
                if rng.random() < rate:
                    taker = other
                    events.append({"type": kind, "seat": other, "tiles": ["W1"], "target": seat})
                    break
            if taker is not None and kind == "hu":
                break
        field.append(TableGame(tuple(teams), events))
    return field


def test_a_team_that_takes_from_everyone_stands_out_with_no_one() -> None:
    """Teams differ (one takes four times as often as the others): the model rates each team as discarder and
    taker, so no pair stands out, and the p-values are about uniform; a field-wide rate would flag t1 with all."""
    for seed in range(3):
        report = collusion_report(synthetic_field(seed))
        assert report["standing_out"] == [], report_text(report)
        p_values = [row["p"] for row in report["pairs"] if row["p"] is not None]
        assert len(p_values) == 56 + 28 and sum(p < 0.1 for p in p_values) <= 0.2 * len(p_values)
    heavy = [row for row in report["pairs"] if row["to"] == "t1" and not row["both_ways"]]
    assert all(row["taken_ratio"] < 2.5 for row in heavy)  # against the field's rate they would be about 4
    # the straw man: every pair against the field's one rate (a Poisson tail, Holm) flags t1 with everyone
    counts = count_pairs(synthetic_field(2))
    rate = sum(c.taken for c in counts.values()) / sum(c.discards for c in counts.values())
    naive = {pair: negative_binomial_tail(c.taken, c.discards * rate, math.inf) for pair, c in counts.items()}
    flagged = {pair for pair, q in zip(naive, adjust_holm(list(naive.values())), strict=True) if q <= 0.05}
    assert {taker for _, taker in flagged} == {"t1"} and len(flagged) >= 5


def test_one_pair_that_takes_three_times_as_often_stands_out() -> None:
    report = collusion_report(synthetic_field(0, pair=("t3", "t5")))
    assert {(row["from"], row["to"]) for row in report["standing_out"] if not row["both_ways"]} == {("t3", "t5")}
    assert pairs_standing_out(report) == {frozenset({"t3", "t5"})}


def test_a_pair_with_no_games_besides_each_other_is_not_tested() -> None:
    alone = [TableGame(("a", "b", None, None), [play(0), {"type": "peng", "seat": 1, "tiles": ["W1"]}])] * 20
    report = collusion_report(alone)
    assert all(row["p"] is None and row["taken_expected"] is None for row in report["pairs"])
    assert report["standing_out"] == [] and report["pairs"][0]["taken"] in (0, 20)


def test_one_deal_in_outside_the_field_does_not_stand_out() -> None:
    """A team that never deals in but once: with the pair left out it has no deal-in at all; the one event at the
    field's rate added to each team keeps the pair's expected count above zero (else p would be 0 and the pair
    would stand out on one deal-in)."""
    field = synthetic_field(1, games=400, heavy=None, kind="hu", silent="t2")
    field.append(TableGame(("t2", "t4", "t6", "t8"), [play(0), {"type": "hu", "seat": 1, "tiles": ["W1"],
                                                                  "target": 0}]))
    report = collusion_report(field)
    assert sum(row["taken"] for row in report["pairs"] if row["from"] == "t2" and not row["both_ways"]) == 1
    row = next(row for row in report["pairs"] if (row["from"], row["to"], row["both_ways"]) == ("t2", "t4", False))
    assert row["taken"] == row["wins"] == 1 and row["taken_expected"] > 0
    assert row["p"] > 0.01 and not row["stands_out"] and report["standing_out"] == []


# -- contests of bots ------------------------------------------------------------------------------------------


def fill_contest(server: Server, played: list[list[tuple[list[str], dict[str, Any]]]], first: int = 1) -> None:
    """Record the games in the contest's database as the scheduler records a finished game (rounds numbered from
    ``first``)."""
    db = server.contest.db
    ids = {team.name: team.id for team in db.teams()}
    for number, games in enumerate(played, first):
        now = 1000.0 + number
        with db.transaction() as tx:
            tables = [[(1, replay["seed"], [ids[name] for name in seats])] for seats, replay in games]
            game_ids = tx.add_round(number, now, tables)
            for game_id, (seats, replay) in zip(game_ids, games, strict=True):
                tx.start_game(game_id, now, {})
                replay["contest"] = {"game": game_id, "players": [
                    {"seat": seat, "team": name, "version": None} for seat, name in enumerate(seats)]}
                results = [{"seat": seat["seat"], "status": seat["status"], "reason": seat["reason"],
                            "detail": seat["detail"], "rank": seat["rank"], "points": seat["points"]}
                           for seat in replay["seats"]]
                assert tx.finish_game(game_id, now, results, json.dumps(replay))
            tx.finish_round(number, now)


@pytest.fixture(scope="module")
def colluding() -> list[list[tuple[list[str], dict[str, Any]]]]:
    return play_field(COLLUDING)


def test_two_bots_that_feed_each_other_stand_out_in_the_console_and_the_export(
        colluding: Any, tmp_path: Path, capsys: Any) -> None:
    server = Server(tmp_path / "contest", sorted(COLLUDING))
    fill_contest(server, colluding)
    for path in ("/admin/pairs", "/admin/pairs.csv"):
        assert server.client.get(path).status_code == 401  # the organiser's only
    console(server)
    page = server.client.get("/admin/pairs")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert "100 finished games, 8 teams" in page.text
    flagged = page.text.split('id="pairs-flagged"', 1)[1].split("</table>", 1)[0]
    marked = {frozenset(part.split('"', 4)[1::2][:2]) for part in flagged.split("<tr data-from=")[1:]}
    assert marked == {frozenset({"t7", "t8"})}, report_text(report_of(colluding))
    # the export: the same report in the results' JSON, the same CSV from the console and the command
    out = tmp_path / "pairs.csv"
    assert main(["contest", "export", str(server.contest.root), "--format", "pairs", "--out", str(out)]) == 0
    served = server.client.get("/admin/pairs.csv")
    assert served.status_code == 200 and served.text == out.read_text()
    lines = out.read_text().splitlines()
    assert lines[0].startswith("from,to,both_ways,games,discards,taken,") and len(lines) == 1 + 56 + 28
    assert lines[1].split(",")[:2] in (["t7", "t8"], ["t8", "t7"]) and lines[1].endswith(",True")
    assert main(["contest", "export", str(server.contest.root), "--format", "json"]) == 0
    exported = json.loads(capsys.readouterr().out)["collusion"]
    assert pairs_standing_out(exported) == {frozenset({"t7", "t8"})} and exported["games"] == 100
    assert exported["pairs"] == report_of(colluding)["pairs"]
    # a replay that cannot be read is left out and named (here as if game 5 had been played again)
    with sqlite3.connect(server.contest.root / "contest.db") as raw:
        raw.execute("UPDATE replays SET body = 'not json' WHERE game_id = 5")
        raw.execute("UPDATE games SET finished = finished + 100 WHERE id = 5")
    page = server.client.get("/admin/pairs")
    assert page.status_code == 200 and "99 finished games" in page.text
    assert "Left out, replay unreadable: games 5." in page.text


def test_no_pair_stands_out_in_a_contest_of_ordinary_bots(colluding: Any) -> None:
    """The same contest (schedule, seats and walls) with the two colluders replaced by greedy bots."""
    ordinary = play_field(ORDINARY)
    assert [[seats for seats, _ in games] for games in ordinary] == [[seats for seats, _ in games]
                                                                      for games in colluding]
    report = report_of(ordinary)
    assert report["standing_out"] == [], report_text(report)
    assert min(row["q"] for row in report["pairs"] if row["q"] is not None) > 0.2
    assert "no pair stands out" in report_text(report)


def test_the_pairs_of_a_tournament_folder(tmp_path: Path, capsys: Any) -> None:
    """``mjarena pairs DIR``: the report of a tournament's games, house bots left out, a lost replay named."""
    from mjarena.arena.tournament import Tournament
    from mjarena.arena.tournament_settings import Entrant, Settings
    from test_contest import Inline

    specs = ["builtin:greedy", "builtin:random", "builtin:greedy", "builtin:random", "builtin:greedy"]
    settings = Settings.create([Entrant(f"b{i}", spec) for i, spec in enumerate(specs)], format="round-robin",
                               rounds=4, seed=1)
    Tournament(settings, tmp_path).run(Inline(), progress=False, log=None)
    assert main(["pairs", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 8 and report["teams"] == ["b0", "b1", "b2", "b3", "b4"] and report["unreadable"] == []
    assert sum(row["discards"] for row in report["pairs"] if not row["both_ways"]) > 100
    (tmp_path / "replays" / "r002-t001-g001.json").unlink()
    assert main(["pairs", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("7 games, 5 teams; ") and "left out, replay missing or unreadable: r002-t001-g001" in text
    assert main(["pairs", str(tmp_path), "--csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("from,to,both_ways,games,discards,taken,")
    assert main(["pairs", str(tmp_path / "nothing")]) == 2
    assert "no tournament here" in capsys.readouterr().err


def test_the_consoles_report_of_pairs_reads_only_the_replays_of_games_finished_or_played_again_since(
        colluding: Any, tmp_path: Path) -> None:
    from mjarena.contest.export import pairs_report

    server = Server(tmp_path / "contest", sorted(COLLUDING))
    fill_contest(server, colluding[:10])  # 20 games
    console(server)
    kept = server.app.state.context.pairs
    assert "20 finished games" in server.client.get("/admin/pairs").text and kept.read == 20
    assert server.client.get("/admin/pairs.csv").status_code == 200 and kept.read == 20  # no result changed
    fill_contest(server, colluding[10:12], first=11)  # 4 more
    assert "24 finished games" in server.client.get("/admin/pairs").text and kept.read == 24
    db = server.contest.db
    before = kept.report(server.contest)
    other = json.loads(db.replay(4) or "{}")
    results = [{key: seat[key] for key in ("seat", "status", "reason", "detail", "rank", "points")}
               for seat in other["seats"]]
    with db.transaction() as tx:  # game 3 played again (another game's record, so that its counts change)
        assert tx.replace_result(3, 2000.0, results, json.dumps(other))
    assert server.client.get("/admin/pairs").status_code == 200 and kept.read == 25
    after = kept.report(server.contest)
    assert after == pairs_report(server.contest) and after["pairs"] != before["pairs"]  # as if every replay was read
