"""The contest's results as files: the standings and every game as JSON, the standings as CSV, and the
organiser's report of pairs of teams (:mod:`mjarena.arena.collusion`) as CSV (``mjarena contest export`` and the
organiser's console give the same bytes).

The JSON holds what ``mjarena contest verify`` needs (:mod:`mjarena.contest.verify`): the rules, the commitment
and, once the contest is finished, the secret; what each round's Swiss pairing was drawn from; every planned game
with its state (a held one with its judge errors), and each finished game's round, table, number, seats, wall,
recorded answers and results.  Before the end it holds no secret, so it can be shown while the window is open.

>>> print(standings_csv([{"rank": 1, "team": "red", "points": 3.5, "games": 2, "points_per_game": 1.75,
...                       "version": 2}]), end="")
rank,team,points,games,points_per_game,version
1,red,3.5,2,1.75,2
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from mjarena.arena.collusion import CollusionError, TableGame, collusion_report, game_from_replay, pairs_csv
from mjarena.spreadsheet import csv_text

__all__ = ["game_entry", "pairs_report", "pairs_report_csv", "results", "results_json", "standings_csv"]

COLUMNS = ("rank", "team", "points", "games", "points_per_game", "version")


FORMAT = "mjarena-contest-results"


def results(contest: Any) -> dict[str, Any]:
    """The results: the standings (with the commitment, and the secret once finished), every game of every round
    in any state, newest first (:func:`game_entry`), each round's ``pairing`` (what its Swiss draw was made from),
    and the report of pairs of teams (``collusion``)."""
    games = []
    replays: dict[int, Any] = {}  # read once, for the games' walls and answers and for the pairs' report
    db = contest.db
    replaced = db.replaced_results()
    errors: dict[int, list[dict[str, Any]]] = {}
    for error in reversed(db.judge_errors(limit=1_000_000)):  # oldest first
        errors.setdefault(error.game_id, []).append({"at": error.at, "seat": error.seat,
                                                     "after_seat": error.after_seat})
    for game in reversed(db.games()):
        body = db.replay(game.id) if game.state == "finished" else None
        if body is not None:
            replays[game.id] = json.loads(body)
        games.append(game_entry(game, replays.get(game.id), errors.get(game.id, []), replaced.get(game.id, [])))
    pairings = db.pairings()
    rounds = [{"round": number, "started": started, "finished": finished, "pairing": pairings.get(number)}
              for number, started, finished in db.rounds()]
    from mjarena.contest.messages import messages_json  # (it imports the model)
    from mjarena.contest.statistics import contest_statistics

    return {"format": FORMAT, "version": 1, "rules": contest.settings.rules,
            "games_per_table": contest.settings.games_per_table, **contest.standings(), "rounds": rounds,
            "games": games, "collusion": pairs_report(contest, sorted(replays.items())),
            "messages": messages_json(contest, every=True), "statistics": contest_statistics(contest)}


def game_entry(game: Any, replay: Mapping[str, Any] | None, errors: list[dict[str, Any]],
               replaced: list[float]) -> dict[str, Any]:
    """One game as the export lists it: as ``/api/games`` does (:func:`~mjarena.contest.model.game_json`), with
    its ``number`` at its table and when it ``finished``; a finished one with its ``wall`` and ``answers`` (its
    replay's decisions) and, when played again, when its result was replaced (``played_again``); one that the
    judge failed with its ``judge_errors``: when, the seat whose box failed and the seat whose box ran before
    (what happened names the judge's own paths: the console shows it)."""
    from mjarena.contest.model import game_json

    entry = {**game_json(game), "number": game.number, "finished": game.finished}
    if replay is not None:
        entry.update(wall=replay.get("wall"), answers=[
            {key: item.get(key) for key in ("seat", "stage", "response", "by")}
            for item in replay.get("decisions", [])])
    if replaced:
        entry["played_again"] = replaced
    if errors:
        entry["judge_errors"] = errors
    return entry


def results_json(contest: Any) -> str:
    """:func:`results` as indented JSON text."""
    return json.dumps(results(contest), indent=2, ensure_ascii=False) + "\n"


def standings_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """The standings' rows as CSV (an empty cell for a missing value; a name a spreadsheet would read as a
    formula after a quote: :func:`mjarena.spreadsheet.safe_cell`)."""
    return csv_text(COLUMNS, ([row[column] for column in COLUMNS] for row in rows))


def pairs_report(contest: Any, replays: Iterable[tuple[int, Any]] | None = None) -> dict[str, Any]:
    """:func:`mjarena.arena.collusion.collusion_report` of the contest's finished games (teams by seat from the
    database, house bots as None), with ``unreadable``: the ids of the games whose replay could not be read
    (left out, named rather than fatal).  ``replays``: ``(game id, replay read already)`` in id order, or None
    to read the database's."""
    seats = {game.id: [seat.team for seat in game.seats] for game in contest.db.games(states=("finished",))}
    games: list[TableGame] = []
    unreadable: list[int] = []
    for game_id, replay in contest.db.finished_replays() if replays is None else replays:
        try:
            data = json.loads(replay) if isinstance(replay, str) else replay
            games.append(game_from_replay(data, seats.get(game_id, ()), f"game {game_id}"))
        except (ValueError, CollusionError):
            unreadable.append(game_id)
    return {**collusion_report(games), "unreadable": unreadable}


def pairs_report_csv(contest: Any) -> str:
    """The report of pairs of teams, one ordered pair a line (:func:`mjarena.arena.collusion.pairs_csv`)."""
    return pairs_csv(pairs_report(contest))
