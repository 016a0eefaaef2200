"""An organiser's contest from start to prize-giving (issue 33), in one process: why bots fail (errors by kind,
every seat's output for the organiser), teams disabled and hidden, all of a team's games played again, the rounds
opened only when enough teams have a bot, the CLI's actions in the organiser's log, announcements and questions.

The contest is test_contest.py's: real games of the test bot, an inline executor, the scheduler stepped by hand.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from contest_forms import post_login
from mjarena.cli import main
from test_contest import BOT, TEAMS, Server, play_round
from test_contest_admin import console

CRASHER = b"""import sys
sys.stderr.write("crasher-private-stderr\\n")
sys.exit(1)
"""


@pytest.fixture
def server(tmp_path: Path) -> Server:
    return Server(tmp_path / "contest")


def jade_crashes(server: Server) -> list[int]:
    """Every team plays the test bot but jade, whose bot crashes at its first request; one round; jade's games."""
    for team in TEAMS:
        server.upload(team, CRASHER if team == "jade" else BOT)
    play_round(server)
    return [game["id"] for game in server.games("jade")]


def mj_data(page: str) -> dict[str, Any]:
    return json.loads(page.split('id="mj-data">', 1)[1].split("</script>", 1)[0])


def test_the_console_shows_each_teams_errors_by_kind_linked_to_their_games(server: Server) -> None:
    games = jade_crashes(server)
    assert games
    console(server)
    page = server.client.get("/admin").text
    jade = page.split('data-team="jade"', 1)[1].split("</tr>", 1)[0]
    assert f'?kind=crash#games" data-kind="crash" class="error-kind">crash {len(games)}</a>' in jade
    red = page.split('data-team="red"', 1)[1].split("</tr>", 1)[0]
    assert "error-kind" not in red and ">none<" in red
    listed = server.client.get("/admin/teams/jade?kind=crash").text
    assert sorted(int(part.split('"', 1)[0]) for part in listed.split('<tr data-game="')[1:]) == sorted(games)
    assert "crasher-private-stderr" in listed  # the error in full, standard error too
    assert server.client.get("/admin/teams/red?kind=crash").text.count("<tr data-game=") == 0
    assert server.client.get("/admin/teams/jade?kind=nonsense").status_code == 400
    submissions = server.client.get("/admin/submissions").text
    row = submissions.split('data-submission="5"', 1)[1].split("</tr>", 1)[0]
    assert f'>crash {len(games)}</a>' in row and "version=1" in row


def test_the_organiser_sees_every_seats_output_in_the_viewer(server: Server) -> None:
    (game, *_) = jade_crashes(server)
    client = server.client
    assert client.get(f"/admin/replays/{game}").status_code == 401  # not logged in
    console(server)
    page = client.get(f"/admin/replays/{game}")
    assert page.status_code == 200 and '/static/replay.js' in page.text
    view = mj_data(page.text)
    seats = {seat["seat"]: seat for seat in view["transcripts"]}
    teams = {player["seat"]: player["team"] for player in
             json.loads(server.contest.db.replay(game) or "{}")["contest"]["players"]}
    jade = next(seat for seat, team in teams.items() if team == "jade")
    assert "crasher-private-stderr" in json.dumps(seats[jade])
    for seat, team in teams.items():  # every team's debug output and standard error, not only one team's
        if team not in (None, "jade"):
            rows = seats[seat]["rows"]
            assert any("contest-bot-v1 debug" in (row.get("debug") or "") for row in rows)
            assert any("contest-bot-v1 stderr" in (row.get("stderr") or "") for row in rows)
    public = client.get(f"/api/replays/{game}").text
    assert "crasher-private-stderr" not in public and "contest-bot-v1 debug" not in public
    assert client.get("/admin/replays/999").status_code == 404


def test_a_disabled_team_plays_no_more_games_and_stays_in_the_results(server: Server) -> None:
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    before = {row["team"]: row for row in server.standings()["rows"]}
    csrf = console(server)
    done = server.client.post("/admin/teams/gold/flags", data={"csrf": csrf, "flag": "disabled", "on": "1"},
                              follow_redirects=False)
    assert done.status_code == 303
    for _ in range(2):
        number = play_round(server)
        seated = {p["team"] for g in server.games() if g["round"] == number for p in g["players"]}
        assert "gold" not in seated and {"red", "blue", "green", "jade"} <= seated
    gold = next(row for row in server.standings()["rows"] if row["team"] == "gold")
    assert gold["games"] == before["gold"]["games"] == 1 and gold["points"] == before["gold"]["points"]
    assert "disable · gold" in server.client.get("/admin").text
    server.client.post("/admin/teams/gold/flags", data={"csrf": csrf, "flag": "disabled", "on": "0"})
    number = play_round(server)
    assert "gold" in {p["team"] for g in server.games() if g["round"] == number for p in g["players"]}


def test_a_hidden_team_leaves_the_public_standings_and_race_but_not_the_console(server: Server) -> None:
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    csrf = console(server)
    top = server.standings()["rows"][0]["team"]
    server.client.post(f"/admin/teams/{top}/flags", data={"csrf": csrf, "flag": "hidden", "on": "1"})
    shown = server.standings()["rows"]
    assert top not in [row["team"] for row in shown] and len(shown) == len(TEAMS) - 1
    assert shown[0]["rank"] == 1  # ranked again without it
    assert f'data-series="{top}"' not in server.client.get("/charts/race").text
    assert f'data-team="{top}"' not in server.client.get("/").text.split('id="standings-table"', 1)[1]
    assert f'data-team="{top}"' in server.client.get("/admin").text
    assert top in [row["team"] for row in json.loads(server.client.get("/admin/export.json").text)["rows"]]


def test_all_of_a_teams_games_played_again(server: Server) -> None:
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    play_round(server)
    red = [game["id"] for game in server.games("red")]
    marks = {game_id: server.contest.db.replay_mark(game_id) for game_id in red}
    csrf = console(server)
    server.clock.now += 5
    page = server.client.post("/admin/teams/red/replay", data={"csrf": csrf})
    assert page.status_code == 200 and f"{len(red)} game(s) of red are being played again" in page.text
    deadline = time.monotonic() + 120
    while server.scheduler.replaying and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server.scheduler.replaying
    assert all(server.contest.db.replay_mark(game_id) == marks[game_id] + 5 for game_id in red)
    assert f"every game of red: {len(red)} game(s)" in server.client.get("/admin").text


def test_the_rounds_open_only_when_enough_teams_have_a_bot(tmp_path: Path) -> None:
    server = Server(tmp_path / "contest", open_with=3)
    server.upload("red")
    server.upload("blue")
    assert not server.scheduler.step() and server.contest.round_number() == 0
    standings = server.standings()
    assert standings["waiting"] == {"ready": 2, "needed": 3, "deadline": None}
    assert "The rounds open when 3 teams have a bot that builds: 2 have one." in server.client.get("/").text
    server.upload("green")
    assert play_round(server) == 1 and server.standings()["waiting"] is None
    everyone = Server(tmp_path / "all", open_with=0)
    for team in TEAMS[:-1]:
        everyone.upload(team)
    assert not everyone.scheduler.step()
    everyone.upload(TEAMS[-1])
    assert everyone.scheduler.step()


def test_open_with_at_create_and_cli_actions_in_the_organisers_log(tmp_path: Path, capsys: Any) -> None:
    folder = tmp_path / "cup"
    assert main(["contest", "create", str(folder), "--team", "ada", "--open-with", "all", "--sandbox", "none",
                 "--json"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["contest", "create", str(tmp_path / "bad"), "--open-with", "none"])
    assert "--open-with" in capsys.readouterr().err
    assert main(["contest", "add-team", str(folder), "bob"]) == 0
    assert main(["contest", "rotate-token", str(folder), "ada"]) == 0
    from mjarena.contest.model import Contest

    contest = Contest.open(folder)
    assert contest.settings.open_with == 0
    log = [(action, detail) for _, action, detail in contest.db.admin_log()]
    assert ("add team", "bob (from the command line)") in log and ("new token", "ada (from the command line)") in log


def test_announcements_and_questions(server: Server) -> None:
    client = server.client
    post_login(client, "/login", server.tokens["teams"]["red"])
    page = client.get("/team").text
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    assert client.post("/team/questions", data={"csrf": csrf, "text": "  "}).status_code == 400
    assert client.post("/team/questions", data={"csrf": "x", "text": "hi"}).status_code == 403
    asked = client.post("/team/questions", data={"csrf": csrf, "text": "May we use <numpy>?"}, follow_redirects=False)
    assert asked.status_code == 303
    assert "May we use &lt;numpy&gt;?" in client.get("/team").text
    admin = console(server)
    page = client.get("/admin").text
    assert 'data-question="1" data-state="open"' in page and "red asks" in page
    client.post("/admin/announcements", data={"csrf": admin, "text": "No: the standard library only.",
                                              "question": "1", "team": "red"})
    client.post("/admin/announcements", data={"csrf": admin, "text": "Round times moved", "team": ""})
    bad = client.post("/admin/announcements", data={"csrf": admin, "text": "x", "team": "nobody"})
    assert bad.status_code == 400 and "no team" in bad.text
    assert 'data-question="1" data-state="answered"' in client.get("/admin").text
    public = server.standings()["announcements"]
    assert [item["text"] for item in public] == ["Round times moved"]  # the answer went to red alone
    assert "Round times moved" in client.get("/").text and "standard library only" not in client.get("/").text
    red = client.get("/api/announcements", headers=server.auth("red")).json()
    assert [item["text"] for item in red["announcements"]] == ["Round times moved", "No: the standard library only."]
    assert [item["text"] for item in red["questions"]] == ["May we use <numpy>?"]
    blue = client.get("/api/announcements", headers=server.auth("blue")).json()
    assert [item["text"] for item in blue["announcements"]] == ["Round times moved"] and blue["questions"] == []
    team_page = client.get("/team").text
    assert "standard library only" in team_page and "not answered yet" not in team_page
    exported = json.loads(client.get("/admin/export.json").text)["messages"]
    assert len(exported["announcements"]) == 2 and exported["questions"][0]["team"] == "red"
    log = client.get("/admin").text
    assert "answer · to red, question 1" in log and "announce · to every team" in log


def test_a_freeze_hides_the_last_minutes_from_the_public_until_the_reveal(tmp_path: Path) -> None:
    server = Server(tmp_path / "contest", freeze=5.0)  # the window: 1000 to 1600 s, frozen from 1300 s
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    before = {row["team"]: (row["points"], row["games"]) for row in server.standings()["rows"]}
    assert server.standings()["frozen"] is None
    server.clock.now = 1400.0
    assert server.scheduler.step()
    late = server.contest.round_number()
    server.scheduler.step()
    assert all(game["state"] == "finished" for game in server.contest.games() if game["round"] == late)
    full = {row["team"]: (row["points"], row["games"]) for row in server.contest.standings(server.clock())["rows"]}
    assert full != before
    public = server.standings()
    assert public["frozen"] == {"since": 1300.0}
    assert {row["team"]: (row["points"], row["games"]) for row in public["rows"]} == before
    frozen = [game for game in server.games() if game["round"] == late]
    assert frozen and all(game["state"] == "frozen" and all(p["points"] is None for p in game["players"])
                          for game in frozen)
    assert "Frozen since" in server.client.get("/").text
    own = server.client.get("/api/games", params={"team": "red"}, headers=server.auth("red")).json()["games"]
    assert all(game["state"] == "finished" for game in own)  # a team still sees its own games
    (red_game,) = [game["id"] for game in own if game["round"] == late]
    assert server.client.get(f"/api/replays/{red_game}").status_code == 404
    assert server.client.get(f"/replays/{red_game}").status_code == 404
    assert server.client.get(f"/api/replays/{red_game}", headers=server.auth("red")).status_code == 200
    other = next(game["id"] for game in frozen if red_game != game["id"])
    assert server.client.get(f"/api/replays/{other}", headers=server.auth("red")).status_code == 404
    race = server.client.get("/charts/race").text.split('id="race-gap-chart"', 1)[0]
    for team, (points, _) in before.items():  # the race ends at the frozen standings
        assert f'data-last="{points:g}"' in race.split(f'data-series="{team}"', 1)[1].split(">", 1)[0]
    csrf = console(server)
    exported = json.loads(server.client.get("/admin/export.json").text)  # the organiser sees everything
    assert {row["team"]: (row["points"], row["games"]) for row in exported["rows"]} == full
    refused = server.client.post("/admin/window", data={"csrf": csrf, "action": "reveal"})
    assert refused.status_code == 409 and "waiting for the window" in refused.text
    server.clock.now = 1700.0
    assert not server.scheduler.step()
    assert server.standings()["state"] == "finished" and server.standings()["frozen"] == {"since": 1300.0}
    assert 'id="reveal"' in server.client.get("/admin").text
    server.client.post("/admin/window", data={"csrf": csrf, "action": "reveal"})
    public = server.standings()
    assert public["frozen"] is None
    assert {row["team"]: (row["points"], row["games"]) for row in public["rows"]} == full
    assert server.client.get(f"/api/replays/{red_game}").status_code == 200
    assert "reveal · the frozen results" in server.client.get("/admin").text
    again = server.client.post("/admin/window", data={"csrf": csrf, "action": "reveal"})
    assert again.status_code == 409


def test_the_statistics_equal_a_count_made_from_the_replays(server: Server) -> None:
    jade_crashes(server)
    play_round(server)
    counted: dict[str, dict[str, Any]] = {}
    for _, body in server.contest.db.finished_replays():
        replay = json.loads(body)
        teams = {player["seat"]: player["team"] for player in replay["contest"]["players"]}
        for seat in replay["seats"]:
            team = teams[seat["seat"]]
            if team is None:
                continue
            item = counted.setdefault(team, {"games": 0, "wins": 0, "places": [], "errors": {}, "thinking": []})
            item["games"] += 1
            item["wins"] += seat["rank"] == 1
            item["places"].append(seat["rank"])
            if seat.get("reason"):
                item["errors"][seat["reason"]] = item["errors"].get(seat["reason"], 0) + 1
            item["thinking"].append(sum(line["elapsed_ms"] for line in replay["transcripts"].get(str(seat["seat"]), []))
                                    / 1000)
    console(server)
    exported = json.loads(server.client.get("/admin/export.json").text)["statistics"]
    assert set(exported) == set(counted) == set(TEAMS)
    for team, item in counted.items():
        stats = exported[team]
        assert stats["games"] == item["games"] and stats["wins"] == item["wins"]
        assert stats["win_rate"] == round(item["wins"] / item["games"], 4)
        assert stats["average_place"] == round(sum(item["places"]) / item["games"], 4)
        assert stats["errors"] == item["errors"]  # the crasher's reason is "crash": its own kind
        assert stats["thinking_per_game"] == pytest.approx(sum(item["thinking"]) / len(item["thinking"]), abs=2e-3)
        assert stats["thinking_max"] == pytest.approx(max(item["thinking"]), abs=2e-3)
    assert exported["jade"]["errors"] == {"crash": exported["jade"]["games"]}
    page = server.client.get("/teams/jade").text
    assert 'id="statistics"' in page and f"crash {exported['jade']['games']}" in page
    results = server.client.get("/results").text
    assert 'id="results-table"' in results and "/contest-static/contest.css" in results
    ranked = [part.split('"', 1)[0] for part in results.split('<tr data-team="')[1:]]
    assert ranked == [row["team"] for row in server.standings()["rows"]]


def colours(server: Server) -> dict[str, str]:
    """Each team's colour (and so its dash and marker, chosen by the same index) on the race chart."""
    figure = server.client.get("/charts/race").text.split('id="race-gap-chart"', 1)[0]
    found = {}
    for part in figure.split('class="chart-series')[1:]:
        name = part.split('data-series="', 1)[1].split('"', 1)[0]
        found[name] = part.split('data-colour="', 1)[1].split('"', 1)[0]
    return found


def test_a_team_keeps_its_colour_when_the_ranks_change_and_a_team_joins(server: Server) -> None:
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    order = [row["team"] for row in server.standings()["rows"]]
    before = colours(server)
    assert set(before) == set(TEAMS) and len(set(before.values())) == len(TEAMS)
    server.upload(order[0], CRASHER)  # the leader falls
    server.contest.add_team("aaa")  # a late team, first by name
    assert server.client.post("/api/submissions", files={"source": ("bot.py", BOT)}, headers={
        "authorization": f"Bearer {server.contest.rotate_token('aaa')}"}).status_code == 201
    play_round(server)
    play_round(server)
    after_order = [row["team"] for row in server.standings()["rows"]]
    assert after_order.index(order[0]) > 0 and after_order != order
    after = colours(server)
    assert {team: after[team] for team in TEAMS} == before  # nobody's colour moved with the ranks
    assert after["aaa"] not in before.values()  # the new team took nobody's colour
    gap = server.client.get("/charts/race").text.split('id="race-gap-chart"', 1)[1]
    leader = after_order[0]
    group = gap.split(f'data-series="{leader}"', 1)[1].split(">", 1)[0]
    assert 'data-last="0"' in group  # the leader is 0 behind itself


def test_ranking_by_points_per_game_is_the_organisers_option(tmp_path: Path, capsys: Any) -> None:
    server = Server(tmp_path / "contest", ["red", "blue", "green", "gold"], rank_by="points_per_game")
    for team in ("red", "blue", "green", "gold"):
        server.upload(team)
    play_round(server)
    play_round(server)
    server.contest.add_team("late")
    server.client.post("/api/submissions", files={"source": ("bot.py", BOT)},
                       headers={"authorization": f"Bearer {server.contest.rotate_token('late')}"})
    play_round(server)
    standings = server.standings()
    assert standings["ranked_by"] == "points_per_game"
    rates = [row["points_per_game"] for row in standings["rows"]]
    assert rates == sorted(rates, reverse=True)
    for index, row in enumerate(standings["rows"]):
        tied = index and rates[index] == rates[index - 1]
        assert row["rank"] == (standings["rows"][index - 1]["rank"] if tied else index + 1)
    assert "ranked by points per game" in server.client.get("/").text
    assert "Ranked by points per game" in server.client.get("/results").text
    plain = Server(tmp_path / "plain", ["red"])
    assert plain.standings()["ranked_by"] == "points" and "ranked by points<" in plain.client.get("/").text
    assert main(["contest", "create", str(tmp_path / "cli"), "--team", "a", "--rank-by", "points_per_game",
                 "--sandbox", "none"]) == 0
    from mjarena.contest.model import Contest

    assert Contest.open(tmp_path / "cli").settings.rank_by == "points_per_game"


def test_every_source_and_replay_in_one_archive(server: Server, tmp_path: Path, capsys: Any) -> None:
    import io
    import zipfile

    jade_crashes(server)
    server.upload("red", b"def broken(:\n")  # a compile error is a source too
    assert server.client.get("/admin/archive.zip").status_code == 401
    console(server)
    response = server.client.get("/admin/archive.zip")
    assert response.status_code == 200 and response.headers["content-type"] == "application/zip"
    members = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(members.namelist())
    submissions = server.contest.db.submissions()
    def member(s: Any) -> str:  # the team's id and name, the version, the language's file name (all are Python)
        assert s.language == "python"
        return f"sources/{s.team_id}-{s.team}/v{s.version}/bot.py"

    for submission in submissions:
        assert members.read(member(submission)) == Path(submission.path).read_bytes()
    replays = dict(server.contest.db.finished_replays())
    for game_id, replay in replays.items():
        assert members.read(f"replays/game-{game_id}.json").decode() == replay
    assert names == ({member(s) for s in submissions}
                     | {f"replays/game-{game_id}.json" for game_id in replays} | {"results.json", "standings.csv"})
    out = tmp_path / "all.zip"
    assert main(["contest", "export", str(server.contest.root), "--format", "archive", "--out", str(out)]) == 0
    assert set(zipfile.ZipFile(out).namelist()) == names
    assert f"{len(submissions)} sources and {len(replays)} replays" in capsys.readouterr().err
    assert main(["contest", "export", str(server.contest.root), "--format", "archive"]) == 2


def test_every_round_can_be_listed_with_play_again_on_each_finished_game() -> None:
    from mjarena.contest.admin_pages import games_page

    player = {"seat": 0, "team": "red", "version": 1, "points": 4.0, "rank": 1, "status": "ok", "reason": None}
    rounds = [{"round": number, "started": 0.0, "finished": 1.0, "games": [
        {"id": number, "round": number, "table": 1, "state": "finished", "players": [player]}]}
        for number in range(1, 9)]
    last_five = games_page(rounds, set(), "c", judging=True)
    assert last_five.count("data-confirm=\"Play game") == 5 and 'href="/admin/games?rounds=all"' in last_five
    every = games_page(rounds, set(), "c", judging=True, shown_rounds=len(rounds))
    assert every.count("data-confirm=\"Play game") == 8 and "rounds=all" not in every
    assert 'href="/admin/replays/1"' in every  # the organiser's viewer, with every seat's output


def test_a_source_in_the_console_has_numbered_lines(server: Server) -> None:
    server.upload("blue", b"# </pre><script>alert(1)</script>\ndef oops(:\n")
    console(server)
    page = server.client.get("/admin/submissions/1").text
    source = page.split('id="source-text">', 1)[1].split("</pre>", 1)[0]
    assert source.count('<span class="line">') == 2 and "&lt;script&gt;" in source and "<script>" not in source
    assert "line 2" in page.split('id="build-log">', 1)[1]  # the line the build log cites is numbered


def _set_points(server: Server, round_no: int, points: dict[str, float]) -> None:
    """Give every seat of ``round_no``'s games the points its team has in ``points`` (the test's own results)."""
    with sqlite3.connect(server.contest.root / "contest.db") as db:
        for team, value in points.items():
            db.execute("UPDATE seats SET points = ? WHERE team_id = (SELECT id FROM teams WHERE name = ?) AND "
                       "game_id IN (SELECT id FROM games WHERE round = ?)", (value, team, round_no))


@pytest.mark.parametrize("rank_by", ["points", "points_per_game"])
def test_a_round_planned_during_the_freeze_is_paired_on_the_results_the_public_sees(tmp_path: Path,
                                                                                    rank_by: str) -> None:
    """An attack of our own: a round planned during the freeze was seated by the real points, frozen games
    included, and its tables are public (/api/rounds), so who sat with whom told who led.  It is paired on the
    standings the public sees (by points, or by points per game: the pairing follows the ranking), and the
    public's thinking figures leave the frozen games out too."""
    teams = [f"t{number}" for number in range(8)]
    # the window: 1000 to 1600 s, frozen from 1300
    server = Server(tmp_path / "contest", teams=teams, freeze=5.0, rank_by=rank_by)
    for team in teams:
        server.upload(team)
    before = play_round(server)
    _set_points(server, before, {team: 80.0 - 10 * index for index, team in enumerate(teams)})  # t0 leads
    server.clock.now = 1400.0
    assert server.scheduler.step()
    frozen = server.contest.round_number()
    server.scheduler.step()
    assert all(game["state"] == "finished" for game in server.contest.games() if game["round"] == frozen)
    _set_points(server, frozen, {team: 1000.0 * index for index, team in enumerate(teams)})  # t7 leads in secret
    with sqlite3.connect(server.contest.root / "contest.db") as db:
        db.execute("UPDATE thinking SET seconds = 999.0 WHERE game_id IN (SELECT id FROM games WHERE round = ?)",
                   (frozen,))
    assert server.scheduler.step()
    planned = server.contest.round_number()
    assert planned == frozen + 1
    public = server.standings()
    assert [row["team"] for row in public["rows"]] == teams and public["frozen"] is not None
    assert all(row["thinking_max"] < 999.0 for row in public["rows"])
    assert max(row["thinking_max"] for row in server.contest.standings()["rows"]) == 999.0  # the organiser's
    (shown,) = [item for item in server.client.get("/api/rounds").json()["rounds"] if item["round"] == planned]
    tables: dict[int, set[str]] = {}
    for game in shown["games"]:
        tables.setdefault(game["table"], set()).update(player["team"] for player in game["players"])
    assert tables == {1: set(teams[:4]), 2: set(teams[4:])}, "seated by the hidden points"
