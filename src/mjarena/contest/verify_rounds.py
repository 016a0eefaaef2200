"""``mjarena contest verify``, the rounds: every round's tables drawn again from the revealed secret.

The scheduler records, for each round, what its Swiss pairing was drawn from (the export's ``rounds[].pairing``):
the teams that had a bot that built, their points (or points per game) as the pairing saw them, and how often
each had sat with house bots.  :func:`check_rounds` checks those inputs against the games of the earlier rounds
(the points of the games that had finished when the round was planned, before the freeze during one; the house
bots met), draws the round again (:func:`mjarena.arena.schedules.swiss_tables` with ``swiss:ROUND`` of the
secret), and checks that its tables are exactly the ones drawn: each numbered from 1, each team at one table,
each table with its games 1 to ``games_per_table`` seating the same players.

Not checkable from the export: which teams had a bot that built at the round's start (the builds are not in it),
and the points a game had before it was played again after the round was planned (a team with such a game is
left out of that round's check of points).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from mjarena.arena.draws import Draws
from mjarena.arena.schedules import HOUSE_PREFIX, swiss_tables

__all__ = ["check_rounds"]

Game = Mapping[str, Any]


def _players(game: Game) -> list[str | None]:
    """The teams the pairing put at a game's table (a disabled team's seat, played by a house bot, by the team
    planned there), house bots as None, in a fixed order (``None`` first)."""
    planned = (seat.get("without") or seat["team"] for seat in game["players"])
    return sorted(planned, key=lambda team: (team is not None, team or ""))


def counts_for_teams(game: Game, data: Mapping[str, Any]) -> bool:
    """Whether ``game``'s points count for its teams: always, but under the opening ``together``, whose games
    with a house bot count for no team (the export's ``house_games_count``).

    >>> house = {"players": [{"team": "ada"}, {"team": None}]}
    >>> counts_for_teams(house, {"house_games_count": False}), counts_for_teams(house, {})
    (False, True)
    """
    return bool(data.get("house_games_count", True)) or all(seat["team"] is not None for seat in game["players"])


def _shown(players: Sequence[str | None]) -> str:
    return "[" + ", ".join("house" if team is None else team for team in players) + "]"


def check_rounds(data: Mapping[str, Any], draws: Draws) -> list[str]:
    """The problems of the export's rounds and tables (``data`` of :func:`mjarena.contest.verify.read_export`)."""
    rounds = data.get("rounds")
    if rounds is None:
        return ["the export records no round's pairing (made by an older mjarena): its tables cannot be checked"]
    problems = []
    numbers = [entry["round"] for entry in rounds]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"rounds {numbers[:20]}: not the rounds 1 to {len(numbers)}, once each")
    by_round: dict[int, list[Game]] = {}
    for game in data["games"]:
        by_round.setdefault(game["round"], []).append(game)
    for number in sorted(set(by_round) - set(numbers)):
        problems.append(f"round {number}: its games are listed, the round is not")
    ranked_by = data.get("ranked_by", "points")
    for entry in rounds:
        if entry["pairing"] is not None and entry["pairing"]["ranked_by"] != ranked_by:
            problems.append(f"round {entry['round']}: paired by {entry['pairing']['ranked_by'][:40]!r}; the "
                            f"standings rank by {ranked_by[:40]!r}")
        earlier = [game for game in data["games"] if game["round"] < entry["round"]]
        problems += [f"round {entry['round']}: {problem}" for problem in
                     _check_round(entry, by_round.get(entry["round"], []), earlier, data["games_per_table"], draws,
                                  bool(data.get("house_games_count", True)))]
    return problems


def _check_round(entry: Mapping[str, Any], games: Sequence[Game], earlier: Sequence[Game], games_per_table: int,
                 draws: Draws, house_games_count: bool = True) -> list[str]:
    """One round's problems: its pairing's inputs, then its tables against the ones drawn from them."""
    problems = []
    tables: dict[int, list[Game]] = {}
    for game in games:
        tables.setdefault(game["table"], []).append(game)
    seated: dict[str, set[int]] = {}
    for table, listed in sorted(tables.items()):
        players = _players(listed[0])
        if any(_players(game) != players for game in listed):
            problems.append(f"table {table}: its games do not seat the same players")
        for team in players:
            if team is not None:
                seated.setdefault(team, set()).add(table)
        problems += [f"table {table}: its game {number} is missing" for number in _missing(listed, games_per_table)]
        problems += [f"table {table}: game {game['id']} is numbered {game['number']}; a table plays games 1 to "
                     f"{games_per_table}" for game in listed if game["number"] > games_per_table]
    for team, at in sorted(seated.items()):
        if len(at) > 1:
            problems.append(f"{team} sits at tables {', '.join(map(str, sorted(at)))}: a team plays one table a round")
    pairing = entry.get("pairing")
    if pairing is None:
        return [*problems, "what its pairing was drawn from is not recorded (a round planned by an older mjarena)"]
    problems += _check_inputs(entry, pairing, earlier, house_games_count)
    teams = sorted(set(pairing["teams"]))
    drawn = swiss_tables(teams, pairing["points"], random.Random(draws("swiss", entry["round"])),
                         pairing["house_meetings"])
    for table in range(1, max(len(drawn), max(tables, default=0)) + 1):
        want = _players({"players": [{"team": None if name.startswith(HOUSE_PREFIX) else name}
                                     for name in drawn[table - 1]]}) if table <= len(drawn) else None
        have = _players(tables[table][0]) if table in tables else None
        if have is None:
            problems.append(f"table {table} is missing: the pairing drawn from the secret seats {_shown(want or [])}")
        elif want is None:
            problems.append(f"table {table} {_shown(have)} is not in the pairing drawn from the secret")
        elif have != want:
            problems.append(f"table {table} seats {_shown(have)}; the pairing drawn from the secret seats "
                            f"{_shown(want)}")
    return problems


def _missing(listed: Sequence[Game], games_per_table: int, most: int = 5) -> list[int]:
    """The first ``most`` numbers from 1 to ``games_per_table`` that no game of ``listed`` has (never more than
    ``len(listed) + most`` tried, whatever ``games_per_table`` a file gives).

    >>> _missing([{"number": 1}, {"number": 3}], 4), _missing([], 2 ** 53, most=2)
    ([2, 4], [1, 2])
    """
    present = {game["number"] for game in listed}
    missing: list[int] = []
    number = 0
    while len(missing) < most and number < games_per_table:
        number += 1
        if number not in present:
            missing.append(number)
    return missing


def _check_inputs(entry: Mapping[str, Any], pairing: Mapping[str, Any], earlier: Sequence[Game],
                  house_games_count: bool = True) -> list[str]:
    """The pairing's house meetings and points against the games of the earlier rounds (the points of games with a
    house bot left out when they count for no team: :func:`counts_for_teams`)."""
    teams = set(pairing["teams"])
    meetings: dict[str, int] = {}
    for game in earlier:
        players = [seat["team"] for seat in game["players"]]
        if None in players:
            for team in set(players) & teams:
                meetings[team] = meetings.get(team, 0) + 1
    problems = []
    recorded = {team: count for team, count in pairing["house_meetings"].items() if count}
    if recorded != meetings:
        problems.append(f"the pairing counts meetings with house bots {dict(sorted(recorded.items()))}; the earlier "
                        f"games give {dict(sorted(meetings.items()))}")
    started, as_of = entry["started"], pairing["as_of"]
    totals: dict[str, list[float]] = {team: [0, 0.0] for team in teams}
    unknown: set[str] = set()  # teams with a game whose result was replaced since: its points then are not known
    for game in earlier:
        if any(at >= started for at in game.get("played_again", ())):
            unknown.update(seat["team"] for seat in game["players"] if seat["team"] is not None)
        finished = game.get("finished")
        if game["state"] != "finished" or finished is None or finished > started or \
                (as_of is not None and finished >= as_of) or \
                not counts_for_teams(game, {"house_games_count": house_games_count}):
            continue
        for seat in game["players"]:
            if seat["team"] in totals:
                totals[seat["team"]][0] += 1
                totals[seat["team"]][1] += seat["points"] or 0.0
    per_game = pairing["ranked_by"] == "points_per_game"
    for team in sorted(teams - unknown):
        games, points = totals[team]
        want = (points / games if games else 0.0) if per_game else points
        have = pairing["points"].get(team, 0.0)
        if abs(have - want) > 1e-6:
            problems.append(f"the pairing gives {team} {have:g} {'points per game' if per_game else 'points'}; the "
                            f"games finished before it give {want:g}")
    return problems
