"""``mjarena contest verify EXPORT``: check a finished contest from its JSON export alone (no bot is run).

1. the secret matches the commitment published from the start (its SHA-256);
2. every finished game's wall is the one the secret deals for its round, table and number, and its seats the
   ones the secret draws from the players at its table (who sat at a table is taken from the export; the Swiss
   pairing itself, which depends on which teams had a bot at each round's start, is not checked);
3. every game is played again under the rules from its recorded answers: each answer must be legal, the game
   must end with the last one, a seat must have judge-made answers exactly when its result is an error other
   than a false HU, and the ranks and points must be the recorded ones;
4. each team's games and points in the standings are the sum of its games, and the ranks follow the points.

:func:`verify` returns the problems found, each naming its game (``game 12 (round 3, table 1, game 1): ...``);
none means the export checks out.  :class:`ExportError` is an export that cannot be read at all.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mjarena.arena.draws import Draws, commitment, parse_secret
from mjarena.arena.schedules import HOUSE_PREFIX

__all__ = ["ExportError", "read_export", "verify"]


class ExportError(ValueError):
    """An export that is not one (not JSON, another format, no games list)."""


def read_export(path: str | Path) -> dict[str, Any]:
    """The export at ``path``; :class:`ExportError` naming the file and the problem."""
    from mjarena.contest.export import FORMAT

    try:
        data = json.loads(Path(path).read_bytes())
    except OSError as error:
        raise ExportError(f"{path}: cannot read: {error.strerror or error}") from None
    except ValueError as error:
        raise ExportError(f"{path}: not JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExportError(f"{path}: not a contest export (made by mjarena contest export --format json)")
    if not isinstance(data.get("games"), list) or not isinstance(data.get("rows"), list):
        raise ExportError(f'{path}: no "games" and "rows" lists')
    return data


def _name(game: Mapping[str, Any]) -> str:
    return f"game {game.get('id')} (round {game.get('round')}, table {game.get('table')}, game {game.get('number')})"


def _expected_seats(draws: Draws, game: Mapping[str, Any]) -> list[str | None]:
    """The teams by seat (None: a house bot) that the secret draws from the players at the game's table, as the
    scheduler seats them (:func:`mjarena.arena.schedules.table_games` on the players in name order)."""
    teams = [seat.get("without") or seat["team"] for seat in game["players"]]  # as planned (a team disabled since)
    houses = sum(team is None for team in teams)
    players = sorted([team for team in teams if team is not None] +
                     [f"{HOUSE_PREFIX}{i}" for i in range(1, houses + 1)])
    random.Random(draws("seats", game["round"], game["table"], game["number"] - 1)).shuffle(players)
    return [None if name.startswith(HOUSE_PREFIX) else name for name in players]


def _play_again(judge: Any, wall: Sequence[int], answers: Sequence[Mapping[str, Any]],
                recorded: Sequence[Mapping[str, Any]]) -> tuple[list[Any], list[str]]:
    """The game played from ``answers`` on ``wall``: its results by seat (the rules' ranking, with the recorded
    errors other than false HU), and the problems met on the way."""
    from mjarena.variants.base import Action

    game = judge.new_game(wall)
    pending = list(answers)
    targets: dict[int, Any] = {}
    judged: set[int] = set()
    count = 0
    while game.decision is not None:
        choices = {}
        for seat, legal in game.decision.legal.items():
            if not pending:
                return [], [f"the answers end before the game does (seat {seat} at a {game.decision.stage})"]
            item = pending.pop(0)
            count += 1
            stage, response = game.decision.stage, str(item.get("response", ""))
            if item.get("seat") != seat or item.get("stage") != stage:
                return [], [f"answer {count} is seat {item.get('seat')}'s at a {item.get('stage')}; the game asks "
                            f"seat {seat} at a {stage}"]
            try:
                action = Action("target") if stage == "target" and not response.strip() else \
                    judge.protocol.parse_response(response, judge.protocol.stage_kind(stage))
            except ValueError as error:
                return [], [f"answer {count} ({response!r}) cannot be read: {error}"]
            if stage != "target" and action not in legal and not (action.type == "hu" and judge.hu_always_accepted):
                return [], [f"answer {count} ({response!r}, seat {seat}) is not legal at this {stage}"]
            if stage == "target":
                targets[seat] = action.tiles or None
            if item.get("by") == "judge":
                judged.add(seat)
            choices[seat] = action
        game.apply(choices)
    if pending:
        return [], [f"{len(pending)} answer(s) after the end of the game"]
    problems = []
    errors = {int(seat["seat"]): str(seat["reason"]) for seat in recorded
              if seat.get("status") == "error" and seat.get("reason") != "false_hu"}
    if judged != set(errors):
        problems.append(f"the judge answered for seat(s) {sorted(judged)}, but the results give errors to seat(s) "
                        f"{sorted(errors)}")
    for event in game.events:
        if event.type == "false_hu":
            errors.setdefault(event.seat, "false_hu")
    return sorted(judge.rank(game, targets, errors), key=lambda result: result.seat), problems


def _check_game(judge: Any, draws: Draws, game: Mapping[str, Any], games_per_table: int) -> tuple[
        list[str], dict[str, float]]:
    """The problems of one finished game, and the points the rules give its teams."""
    from mjarena.tiles import format_tile, parse_tiles

    number = game["number"]
    if not isinstance(number, int) or not 1 <= number <= games_per_table:
        return [f"game number {number!r}: a table plays games 1 to {games_per_table}"], {}
    expected_wall = judge.shuffled_wall(draws("wall", game["round"], game["table"], number - 1))
    if list(game["wall"]) != [format_tile(kind, judge.notation) for kind in expected_wall]:
        return ["its wall is not the one the secret deals for this round, table and game"], {}
    problems = []
    seats = [seat.get("without") or seat["team"] for seat in sorted(game["players"], key=lambda seat: seat["seat"])]
    if seats != _expected_seats(draws, game):
        problems.append(f"its seats {seats} are not the ones the secret draws: {_expected_seats(draws, game)}")
    recorded = sorted(game["players"], key=lambda seat: seat["seat"])
    results, found = _play_again(judge, parse_tiles(game["wall"], judge.notation), game["answers"], recorded)
    problems += found
    points: dict[str, float] = {}
    for seat, result in zip(recorded, results, strict=False):
        want = (result.status, result.rank, float(result.points))
        have = (seat.get("status"), seat.get("rank"), seat.get("points"))
        if have != want:
            problems.append(f"seat {seat['seat']} ({seat['team'] or 'house'}): recorded {have[0]}, rank {have[1]}, "
                            f"{have[2]} points; its answers give {want[0]}, rank {want[1]}, {want[2]:g} points")
        if seat["team"] is not None:
            points[seat["team"]] = points.get(seat["team"], 0.0) + float(result.points)
    return problems, points


def verify(data: Mapping[str, Any]) -> list[str]:
    """The problems of the export ``data`` (:func:`read_export`); an empty list: everything checks out."""
    from mjarena.rulesets import judge_rules

    promised, revealed = data.get("commitment"), data.get("secret")
    if not isinstance(promised, str):
        return ["no commitment: a contest made before secrets has nothing to check its walls against"]
    if not isinstance(revealed, str):
        return ["no secret: it is published when the contest is finished (export it again then)"]
    try:
        secret = parse_secret(revealed)
    except ValueError as error:
        return [f"the secret: {error}"]
    if commitment(secret) != promised:
        return [f"the secret does not match the commitment published from the start (SHA-256 {promised})"]
    try:
        judge = judge_rules(str(data.get("rules")))
    except KeyError as error:
        return [f"rules {data.get('rules')!r}: {error.args[0]}"]
    draws = Draws.secret(secret)
    games_per_table = data.get("games_per_table", 1)
    problems: list[str] = []
    totals: dict[str, list[float]] = {}
    tables: dict[tuple[Any, Any], list[Any]] = {}
    for game in data["games"]:
        if not isinstance(game, dict) or game.get("state") != "finished":
            continue
        try:
            found, points = _check_game(judge, draws, game, games_per_table)
            tables.setdefault((game["round"], game["table"]), []).append(
                sorted(str(seat.get("without") or seat["team"]) for seat in game["players"]))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            found, points = [f"cannot be read ({type(error).__name__}: {error})"], {}
        problems += [f"{_name(game)}: {problem}" for problem in found]
        if not data.get("house_games_count", True) and any(seat.get("team") is None for seat in game["players"]):
            continue  # the opening "together": a game with a house bot counts for no team
        for team, value in points.items():
            total = totals.setdefault(team, [0, 0.0])
            total[0] += 1
            total[1] += value
    for (round_no, table), players in sorted(tables.items(), key=str):
        if any(seated != players[0] for seated in players):
            problems.append(f"round {round_no}, table {table}: its games do not seat the same players")
    problems += _check_standings(data["rows"], totals)
    return problems


def _check_standings(rows: Sequence[Any], totals: Mapping[str, Sequence[float]]) -> list[str]:
    """Each row's games and points against the games' totals, and the ranks against the points."""
    problems = []
    listed = set()
    for row in rows:
        if not isinstance(row, dict):
            problems.append(f"standings: a row is not an object: {row!r}"[:200])
            continue
        team = row.get("team")
        listed.add(team)
        games, points = totals.get(str(team), (0, 0.0))
        if row.get("games") != games or not isinstance(row.get("points"), (int, float)) \
                or abs(row["points"] - points) > 1e-6:
            problems.append(f"standings: {team} has {row.get('games')} games and {row.get('points')} points; its "
                            f"games give {int(games)} and {points:g}")
    for team in sorted(set(totals) - listed):
        problems.append(f"standings: {team} played but is not listed")
    ordered = [row for row in rows if isinstance(row, dict) and isinstance(row.get("points"), (int, float))]
    for index, row in enumerate(ordered):
        better = sum(other["points"] > row["points"] for other in ordered)
        if row.get("rank") != better + 1 or (index and ordered[index - 1]["points"] < row["points"]):
            problems.append(f"standings: {row.get('team')} is ranked {row.get('rank')} with {row['points']} points")
    return problems
