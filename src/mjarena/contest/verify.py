"""``mjarena contest verify EXPORT``: check a finished contest from its JSON export alone (no bot is run).

1. the file is an export: every field verify reads of the type and in the range it must be
   (:mod:`mjarena.contest.export_shape`), or one line naming the first that is not (exit 2);
2. the secret matches the commitment published from the start (its SHA-256);
3. every round's tables are the ones its Swiss pairing draws from the secret, from what the pairing was drawn
   from (recorded in the export and checked against the earlier rounds' games), each team at one table a round,
   each table with all its games (:mod:`mjarena.contest.verify_rounds`);
4. every game is listed once (by id, and by round, table and number), in a state of the closed set, and each is
   finished or accounted for: ``held`` after its judge errors (listed with it); none ``planned`` or ``running``;
5. every finished game's wall is the one the secret deals for its round, table and number, and its seats the
   ones the secret draws from the players at its table;
6. every finished game is played again under the rules from its recorded answers: each answer must be legal, the
   game must end with the last one, a seat must have judge-made answers exactly when its result is an error
   other than a false HU, and the ranks and points must be the recorded ones;
7. each team's games, points and points per game in the standings are the sums of its games, listed once, and
   the ranks follow the standings' order (``ranked_by``).

:func:`verify` returns the problems found, each naming its game (``game 12 (round 3, table 1, game 1): ...``)
or round; none means the export checks out.  :class:`ExportError` is an export that cannot be read at all.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mjarena.agents.errors import AgentError
from mjarena.arena.draws import Draws, commitment, parse_secret
from mjarena.arena.schedules import HOUSE_PREFIX
from mjarena.contest.export_shape import ExportError, check_shape, parse_json

__all__ = ["ExportError", "read_export", "verify"]


def read_export(path: str | Path) -> dict[str, Any]:
    """The export at ``path``; :class:`ExportError` naming the file and the problem (one line)."""
    from mjarena.contest.export import FORMAT

    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise ExportError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        data = parse_json(raw)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ExportError("not a contest export (made by mjarena contest export --format json)")
        check_shape(data)
    except ExportError as error:
        raise ExportError(f"{path}: {error}") from None
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
            except (ValueError, AgentError) as error:  # (the protocol says a bot's bad output so)
                return [], [f"answer {count} ({response[:80]!r}) cannot be read: {error}"]
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
    from mjarena.contest.verify_rounds import check_rounds, counts_for_teams
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
    problems, games = _listed_once(data["games"])
    totals: dict[str, list[float]] = {}
    for game in games:
        found, points = _check_listed(judge, draws, game, data["games_per_table"])
        problems += [f"{_name(game)}: {problem}" for problem in found]
        if not counts_for_teams(game, data):
            continue  # the opening "together": a game with a house bot counts for no team
        for team, value in points.items():
            total = totals.setdefault(team, [0, 0.0])
            total[0] += 1
            total[1] += value
    problems += check_rounds({**data, "games": games}, draws)
    problems += _check_standings(data["rows"], totals, str(data.get("ranked_by", "points")))
    return problems


def _listed_once(games: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[Mapping[str, Any]]]:
    """The problems of games listed more than once (the same id, or the same round, table and number), and the
    games with each listed once (the first listing kept)."""
    problems, kept = [], []
    ids: set[int] = set()
    places: dict[tuple[int, int, int], int] = {}
    for game in games:
        place = (game["round"], game["table"], game["number"])
        if game["id"] in ids:
            problems.append(f"{_name(game)}: listed twice")
        elif place in places:
            problems.append(f"{_name(game)}: the same round, table and game as game {places[place]}")
        else:
            ids.add(game["id"])
            places[place] = game["id"]
            kept.append(game)
    return problems, kept


def _check_listed(judge: Any, draws: Draws, game: Mapping[str, Any], games_per_table: int) -> tuple[
        list[str], dict[str, float]]:
    """The problems of one listed game in any state, and the points the rules give its teams (finished ones)."""
    from mjarena.contest.db import MAX_JUDGE_ERRORS
    from mjarena.contest.schema import GAME_STATES

    state = game["state"]
    if sorted(seat["seat"] for seat in game["players"]) != [0, 1, 2, 3]:
        return [f"its seats are {sorted(seat['seat'] for seat in game['players'])}, not 0 to 3 once each"], {}
    if state == "finished":
        try:
            return _check_game(judge, draws, game, games_per_table)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            return [f"cannot be read ({type(error).__name__}: {str(error)[:200]})"], {}
    if state not in GAME_STATES:
        return [f"its state {state[:40]!r} is none of {', '.join(GAME_STATES)}"], {}
    found = [f"seat {seat['seat']} has {seat['points']} points in a game not finished" for seat in game["players"]
             if seat["points"] is not None]
    if state != "held":
        return [*found, f"{state}: neither finished nor held after judge errors (every game of a finished contest "
                        "is one or the other)"], {}
    errors = len(game.get("judge_errors", ()))
    if errors < MAX_JUDGE_ERRORS:
        found.append(f"held with {errors} judge error(s) listed; a game is held after {MAX_JUDGE_ERRORS}")
    return found, {}


def _check_standings(rows: Sequence[Mapping[str, Any]], totals: Mapping[str, Sequence[float]],
                     ranked_by: str) -> list[str]:
    """Each row's games, points and points per game against the games' totals, each team listed once, and the
    ranks against the order ``ranked_by`` (``points`` or ``points_per_game``; equal values, equal rank)."""
    problems = []
    listed: set[str] = set()
    for row in rows:
        team = row["team"]
        if team in listed:
            problems.append(f"standings: {team} is listed twice")
        listed.add(team)
        games, points = totals.get(team, (0, 0.0))
        if row["games"] != games or abs(row["points"] - points) > 1e-6:
            problems.append(f"standings: {team} has {row['games']} games and {row['points']:g} points; its "
                            f"games give {int(games)} and {points:g}")
        per_game, want = row.get("points_per_game"), round(points / games, 3) if games else None
        if not (per_game is None and want is None) and (per_game is None or want is None or
                                                         abs(per_game - want) > 1e-3):
            problems.append(f"standings: {team} has {per_game} points per game; its games give {want}")
    for team in sorted(set(totals) - listed):
        problems.append(f"standings: {team} played but is not listed")
    if ranked_by not in ("points", "points_per_game"):
        return [*problems, f"standings: ranked by {ranked_by[:40]!r}, neither points nor points_per_game"]

    def key(row: Mapping[str, Any]) -> tuple[bool, float]:  # smaller is better; no game (None) last
        value = row.get(ranked_by)
        return (value is None, -(value or 0.0))

    for index, row in enumerate(rows):
        better = sum(key(other) < key(row) for other in rows)
        if row["rank"] != better + 1 or (index and key(rows[index - 1]) > key(row)):
            problems.append(f"standings: {row['team']} is ranked {row['rank']} with {row.get(ranked_by)} "
                            f"{ranked_by.replace('_', ' ')}")
    return problems
