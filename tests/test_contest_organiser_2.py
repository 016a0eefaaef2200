"""The organiser's contest, round two (issue 44): a reveal that waits for every game of the window, results that
say what they are, a game played again that keeps its place in time, a fair opening, hidden teams absent from
every public page, chart styles fixed by a team's identity, a disabled team's planned games.

The contest is test_contest.py's: real games of the test bot, an inline executor, the scheduler stepped by hand.
"""

from __future__ import annotations

from pathlib import Path

from test_contest import TEAMS, Server, play_round
from test_contest_admin import console


def frozen_contest(tmp_path: Path) -> Server:
    """A contest of 10 minutes from 1000 s, frozen for its last 5, each team with a bot, one round played."""
    server = Server(tmp_path / "cup", freeze=5.0, name="Spring cup")
    for team in TEAMS:
        server.upload(team)
    play_round(server)
    return server


def test_the_reveal_waits_for_every_game_of_the_window_and_the_results_say_what_they_are(tmp_path: Path) -> None:
    server = frozen_contest(tmp_path)
    server.clock.now = 1599.0  # the last round starts a second before the end
    assert server.scheduler.step()
    last = server.contest.round_number()
    server.clock.now = 1700.0  # the window has ended, the last round's games not played yet
    csrf = console(server)
    page = server.client.get("/admin").text
    assert 'id="reveal"' not in page and 'id="reveal-waits"' in page
    running = len(server.contest.db.games(round_no=last))
    assert f"waiting for {running} games running" in page
    refused = server.client.post("/admin/window", data={"csrf": csrf, "action": "reveal"})
    assert refused.status_code == 409 and f"waiting for {running} games running" in refused.text
    results = server.client.get("/results").text
    assert "Spring cup: results" in results and "Not final: Frozen since" in results
    server.scheduler.step()  # the last round played to its end
    assert server.standings()["state"] == "finished"
    assert 'id="reveal"' in server.client.get("/admin").text
    done = server.client.post("/admin/window", data={"csrf": csrf, "action": "reveal"}, follow_redirects=False)
    assert done.status_code == 303
    results = server.client.get("/results").text
    assert "Final results." in results and "Frozen since" not in results
    assert 'id="results-window"' in results and "Spring cup" in results


def test_a_game_played_again_during_the_freeze_keeps_its_place_in_time(tmp_path: Path) -> None:
    server = frozen_contest(tmp_path)
    before = {row["team"]: (row["points"], row["games"]) for row in server.standings()["rows"]}
    game = server.games("red")[0]["id"]
    server.clock.now = 1400.0  # frozen from 1300 s
    assert server.scheduler.replay(game).result(timeout=60)
    assert server.contest.db.game(game).finished < 1300.0  # its first finish, not the replay's
    public = server.standings()
    assert public["frozen"] == {"since": 1300.0}
    assert {row["team"]: (row["points"], row["games"]) for row in public["rows"]} == before
    assert next(item for item in server.games() if item["id"] == game)["state"] == "finished"
    assert server.client.get(f"/api/replays/{game}").status_code == 200
