"""Issue 30, part 1: walls no bot can predict, and anyone can check afterwards.

A contest's walls, seats and Swiss draws come from a secret (HMAC-SHA-256 of the round, table and game); its
SHA-256 is public from the start and the secret itself once the contest is finished; ``mjarena contest verify``
checks an export from the secret.  Games are played for real with the Python test bot outside the sandbox (as
in test_contest.py); the search of attack 1 is done here, by test code acting as a bot that has read the code.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from mjarena.arena.draws import Draws, commitment, derive_seed
from mjarena.cli import main
from mjarena.contest.export import results_json
from mjarena.rulesets import judge_rules
from mjarena.tiles import parse_tiles
from test_contest import Server, play_round

from boxes import sandbox_kinds

NOI = judge_rules("noi2014")


def dealt(wall: list[int], seat: int) -> list[int]:
    """What a bot in ``seat`` knows at its first request: its dealt hand (tile counts)."""
    return list(NOI.new_game(wall).hands[seat].counts)


def search_wall(hand: list[int], seat: int, seeds: Iterable[int], rounds: int, tables: int) -> list[int] | None:
    """The hostile bot's search: every documented or likely seed, every round and table so far, under the
    derivation in the open source; the whole wall when one deals ``hand`` to ``seat``."""
    for seed in seeds:
        for round_no in range(1, rounds + 1):
            for table in range(1, tables + 1):
                wall = NOI.shuffled_wall(derive_seed(seed, "wall", round_no, table, 0))
                if dealt(wall, seat) == hand:
                    return wall
    return None


def first_game(server: Server) -> tuple[list[int], int]:
    """The wall of the first game (as dealt: from the judge's own record), and a seat a team played in it."""
    game = min(server.games(), key=lambda game: game["id"])
    replay = json.loads(server.contest.db.replay(game["id"]) or "{}")
    seat = next(player["seat"] for player in game["players"] if player["team"] is not None)
    return parse_tiles(replay["wall"], NOI.notation), seat


def test_a_bot_searching_seeds_from_its_hand_finds_the_old_walls_but_not_the_secrets(tmp_path: Path) -> None:
    seeds = [2014, *range(1000)]  # the documented default first, then small numbers
    # before: a contest dealt from the public seed (2014 by default, as every contest was before secrets)
    old = Server(tmp_path / "old", teams=["red", "blue"])
    with old.contest.db.transaction() as tx:
        tx.set_meta("secret", None)
        tx.set_meta("commitment", None)
    assert old.contest.draws() == Draws.public(2014)
    for team in ("red", "blue"):
        old.upload(team)
    play_round(old)
    wall, seat = first_game(old)
    assert search_wall(dealt(wall, seat), seat, seeds, rounds=1, tables=1) == wall  # every draw known
    # after: the same search, and every other key a bot could try knowing the format, find nothing
    new = Server(tmp_path / "new", teams=["red", "blue"])
    for team in ("red", "blue"):
        new.upload(team)
    play_round(new)
    wall, seat = first_game(new)
    hand = dealt(wall, seat)
    assert search_wall(hand, seat, seeds, rounds=1, tables=1) is None
    guesses = [b"", b"2014", (2014).to_bytes(16, "big"), bytes(16), bytes(32)]
    for key in guesses:
        assert dealt(NOI.shuffled_wall(Draws(key=key)("wall", 1, 1, 0)), seat) != hand


def test_create_makes_a_secret_refuses_a_short_one_and_keeps_it_from_others(tmp_path: Path, capsys: Any) -> None:
    folder = tmp_path / "c"
    assert main(["contest", "create", str(folder), "--team", "red", "--secret", "2014"]) == 2
    error = capsys.readouterr().err
    assert "--secret" in error and "16 bits" in error and "at least 128" in error and not folder.exists()
    assert main(["contest", "create", str(folder), "--team", "red", "--seed", "2014"]) == 2  # the old option too
    assert "16 bits" in capsys.readouterr().err and not folder.exists()
    assert main(["contest", "create", str(folder), "--team", "red", "--secret", "xyz" * 20]) == 2
    assert "hex digits" in capsys.readouterr().err
    given = "0123456789abcdef" * 2  # 128 bits: accepted
    assert main(["contest", "create", str(folder), "--team", "red", "--secret", given, "--json"]) == 0
    tokens = json.loads(capsys.readouterr().out)
    assert tokens["commitment"] == hashlib.sha256(bytes.fromhex(given)).hexdigest()
    assert stat.S_IMODE(os.stat(folder / "contest.db").st_mode) == 0o600  # no other user (a box's) reads it
    assert main(["contest", "create", str(tmp_path / "d"), "--team", "red"]) == 0
    out = capsys.readouterr().out
    from mjarena.contest.model import Contest

    made = Contest.open(tmp_path / "d")
    secret = bytes.fromhex(made.db.meta("secret"))
    assert len(secret) == 32 and commitment(secret) in out and secret.hex() not in out
    assert made.draws() == Draws.secret(secret)


def test_during_the_window_no_page_api_replay_or_export_gives_a_seed_or_the_secret(tmp_path: Path) -> None:
    start = time.time()  # the export reads the real time: the window is open now
    server = Server(tmp_path / "c", teams=["red", "blue"], start=start, duration=10.0)
    server.clock.now = start + 1
    for team in ("red", "blue"):
        server.upload(team)
    play_round(server)
    contest = server.contest
    secret = contest.db.meta("secret")
    seeds = [str(game.wall_seed) for game in contest.db.games()]
    game_id = server.games()[0]["id"]
    red = server.auth("red")
    shown = {path: server.client.get(path, headers=headers).text for path, headers in [
        ("/", {}), ("/rounds", {}), ("/teams/red", {}), (f"/replays/{game_id}", {}), ("/api/standings", {}),
        ("/api/games", {}), ("/api/rounds", {}), (f"/api/replays/{game_id}", {}), (f"/api/replays/{game_id}", red),
        (f"/api/turns/{game_id}", red), ("/api/submissions", red)]}
    shown["export"] = results_json(contest)
    for path, text in shown.items():
        assert secret not in text, path
        assert not any(seed in text for seed in seeds), path
    for headers in ({}, red):
        replay = server.client.get(f"/api/replays/{game_id}", headers=headers).json()
        assert replay["seed"] is None and replay["steps"]  # the finished game, every tile as dealt; no seed
    standings = server.standings()
    assert standings["state"] == "running" and standings["secret"] is None
    assert standings["commitment"] == commitment(bytes.fromhex(secret)) and standings["commitment"] in shown["/"]
    # the window closes and its last round is over: the secret is published
    server.clock.now = start + 11 * 60
    standings = server.standings()
    assert standings["state"] == "finished" and standings["secret"] == secret
    assert f'<code id="secret">{secret}</code>' in server.client.get("/").text


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A finished contest's export: 2 teams and 2 house bots, 2 rounds of 2 walls."""
    root = tmp_path_factory.mktemp("verify") / "c"
    server = Server(root, teams=["red", "blue"], games_per_table=2)
    for team in ("red", "blue"):
        server.upload(team)
    play_round(server)
    play_round(server)
    out = root.parent / "export.json"
    assert main(["contest", "export", str(root), "--out", str(out)]) == 0
    return json.loads(out.read_text())


def run_verify(tmp_path: Path, data: dict[str, Any], capsys: Any) -> tuple[int, str]:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data))
    status = main(["contest", "verify", str(path)])
    captured = capsys.readouterr()
    return status, captured.err + captured.out


def test_verify_passes_on_a_finished_contests_export(finished: dict[str, Any], tmp_path: Path,
                                                     capsys: Any) -> None:
    assert finished["state"] == "finished" and len(finished["games"]) == 4
    status, text = run_verify(tmp_path, finished, capsys)
    assert status == 0 and "verified" in text and "4 game(s)" in text


def team_seat(game: dict[str, Any]) -> dict[str, Any]:
    return next(player for player in game["players"] if player["team"] is not None)


def test_verify_names_the_game_whose_result_wall_answer_or_seats_changed(finished: dict[str, Any],
                                                                         tmp_path: Path, capsys: Any) -> None:
    def changed(edit: Any) -> tuple[int, str]:
        data = json.loads(json.dumps(finished))
        game = data["games"][1]
        edit(data, game)
        return run_verify(tmp_path, data, capsys)

    def name(game: dict[str, Any]) -> str:
        return f"game {game['id']} (round {game['round']}, table {game['table']}, game {game['number']})"

    target = finished["games"][1]

    def result(data: dict[str, Any], game: dict[str, Any]) -> None:  # a team's points, and so its standing
        seat = team_seat(game)
        seat["points"] += 1.0
        next(row for row in data["rows"] if row["team"] == seat["team"])["points"] += 1.0

    status, text = changed(result)
    assert status == 1 and f"{name(target)}: seat {team_seat(target)['seat']}" in text and "its answers give" in text
    assert f"standings: {team_seat(target)['team']} has" in text  # the row changed with it: the games do not add up

    def wall(data: dict[str, Any], game: dict[str, Any]) -> None:  # two tiles swapped
        tiles = game["wall"]
        index = next(i for i in range(1, len(tiles)) if tiles[i] != tiles[0])
        tiles[0], tiles[index] = tiles[index], tiles[0]

    status, text = changed(wall)
    assert status == 1 and f"{name(target)}: its wall is not the one the secret deals" in text

    def answer(data: dict[str, Any], game: dict[str, Any]) -> None:  # the last answer (the game's end) dropped
        game["answers"].pop()

    status, text = changed(answer)
    assert status == 1 and f"{name(target)}: the answers end before the game does" in text

    def seats(data: dict[str, Any], game: dict[str, Any]) -> None:  # a team and a house bot swap seats
        first = team_seat(game)
        second = next(player for player in game["players"] if player["team"] != first["team"])
        first["seat"], second["seat"] = second["seat"], first["seat"]

    status, text = changed(seats)
    assert status == 1 and name(target) in text and "not the ones the secret draws" in text


def test_verify_refuses_a_changed_secret_and_an_export_without_one(finished: dict[str, Any], tmp_path: Path,
                                                                   capsys: Any) -> None:
    data = json.loads(json.dumps(finished))
    digit = data["secret"][0]
    data["secret"] = ("1" if digit != "1" else "2") + data["secret"][1:]
    status, text = run_verify(tmp_path, data, capsys)
    assert status == 1 and "does not match the commitment" in text
    data["commitment"] = commitment(bytes.fromhex(data["secret"]))  # a forged commitment too: the walls differ
    status, text = run_verify(tmp_path, data, capsys)
    assert status == 1 and all(f"game {game['id']} (" in text for game in data["games"])
    data["secret"] = None  # an export made during the window
    status, text = run_verify(tmp_path, data, capsys)
    assert status == 1 and "no secret" in text
    (tmp_path / "bad.json").write_text("{")
    assert main(["contest", "verify", str(tmp_path / "bad.json")]) == 2
    assert "not JSON" in capsys.readouterr().err


SPY = """
import os
root, secret = ROOT, SECRET
seen, found = [], False
for folder, _, files in os.walk(root):
    for name in files:
        path = os.path.join(folder, name)
        seen.append(os.path.relpath(path, root))
        if name == "spy.py":  # (it holds what it looks for)
            continue
        try:
            with open(path, "rb") as file:
                found = found or secret.encode() in file.read()
        except OSError:
            pass
print(found, sorted(seen))
"""


@pytest.mark.parametrize("sandbox", sandbox_kinds())
def test_a_bots_box_shows_its_build_but_not_the_contests_secret(sandbox: str) -> None:
    """A contest's bot sees its own build folder, inside the contest's folder; nothing else of that folder, so not
    contest.db and its secret.  Outside the box (``none``, trusted code only) the same spy reads it: the test can
    fail.  The contest is made outside /tmp (which every box replaces by a tmpfs of its own), as a real one is."""
    import shutil
    import tempfile

    from mjarena.contest.model import Contest, Settings
    from mjarena.sandbox import Sandbox
    from mjarena.sandbox.run import run

    place = Path(tempfile.mkdtemp(dir="/var/tmp", prefix="mjarena-test-"))
    try:
        place.chmod(0o755)
        contest, _ = Contest.create(place / "cup", ["red"], Settings(sandbox=sandbox))
        work = place / "cup" / "builds" / "key" / "work"  # where a built bot runs from
        work.mkdir(parents=True)
        secret = contest.db.meta("secret")  # (the spy has the paths in its source: an argument is shown to it)
        (work / "spy.py").write_text(SPY.replace("ROOT", repr(str(place / "cup"))).replace("SECRET", repr(secret)))
        for folder in (work, work.parent, work.parent.parent):
            folder.chmod(0o755)
        result = run([sys.executable, str(work / "spy.py")],
                     sandbox=Sandbox.parse(sandbox), readable=[work], cwd=work)
        found, seen = result.stdout.decode().split(" ", 1)
        if sandbox == "none":
            assert found == "True" and "contest.db" in seen  # without the box, the attack works
        else:
            assert result.ok and found == "False" and "contest.db" not in seen and "builds/key/work/spy.py" in seen
    finally:
        shutil.rmtree(place)
