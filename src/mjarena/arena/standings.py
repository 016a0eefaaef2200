"""The tally of a tournament's games and its formats: the standings (points, average rank, OpenSkill rating,
errors by kind), the ratings after each round, and the table as text, CSV and JSON; what the tally needs of a game
(:class:`GameSummary`).

Games are counted in game-id order, never in completion order, so the same games always give the same table.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from mjarena.arena.tournament_settings import Settings
from mjarena.spreadsheet import csv_text

__all__ = ["ERROR_KINDS", "GameSummary", "Tally", "compute_standings", "format_standings", "standings_csv",
           "standings_json", "summarize"]

ERROR_KINDS = ("timeout", "crash", "memory", "output_limit", "bad_output", "illegal_action", "false_hu")
"""The kinds of a seat's error, each a column of ``standings.csv``."""

Seat = tuple[str, bool, str, "str | None", int, float]
"""One seat of a game as the standings see it: bot, house, status, reason, rank, points."""


class GameSummary(NamedTuple):
    """What the standings and the Swiss pairing need of one game: its id, round and seats (:data:`Seat`, seat 0
    first).  A worker sends this much back beside the game's line of ``games.jsonl``, not the whole record.

    >>> summarize({"game": "r001-t001-g001", "round": 1, "results": [{"bot": "a", "house": False, "status": "in",
    ...     "reason": None, "rank": 1, "points": 4.0}]}).seats
    (('a', False, 'in', None, 1, 4.0),)
    """

    game: str
    round: int  # 0: a record that names no round
    seats: tuple[Seat, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as a plain tuple, made again without a Python call (:class:`~mjarena.arena.tournament.Played`)."""
        return tuple.__new__, (GameSummary, tuple(self))


def summarize(record: Mapping[str, Any]) -> GameSummary:
    """The :class:`GameSummary` of a record of ``games.jsonl``."""
    round_no = record.get("round")
    return GameSummary(record["game"], round_no if type(round_no) is int else 0, tuple(
        (seat["bot"], seat["house"], seat["status"], seat["reason"], seat["rank"], seat["points"])
        for seat in record["results"]))


def compute_standings(settings: Settings, records: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The table: one row per entrant (house bots left out) with ``rank``, ``bot``, ``spec``, ``games``,
    ``points``, ``average_rank``, ``rating`` (OpenSkill ordinal), ``mu``, ``sigma`` and ``errors`` (kind ->
    games).  Games are applied in game-id order; rows are sorted by points, then rating, then name."""
    tally = Tally(settings)
    tally.extend(records)
    return tally.rows()


class Tally:
    """The standings of a growing set of games, taken in game-id order (:func:`compute_standings` in steps).

    A tournament reports its standings after every round; a tally carried from round to round counts each game
    once instead of every game again at every report.  :meth:`add` counts a game's points, ranks and errors at
    once (the Swiss pairing needs the points) and leaves its rating for later: the games waiting are rated in one
    batch, in the order counted, when the ratings are asked for (:meth:`rows`, :meth:`ratings_by_round`).
    :meth:`extend` takes the games not yet counted, all of which must come after the last one counted.
    """

    def __init__(self, settings: Settings) -> None:
        from mjarena.arena.ratings import Ratings

        self.settings = settings
        self._stats: dict[str, dict[str, Any]] = {
            name: {"games": 0, "points": 0.0, "rank_sum": 0, "errors": {}} for name in settings.names
        }
        self._ratings = Ratings(settings.names)
        self.counted: list[str] = []
        """The game ids counted, in order."""
        self._unrated: list[tuple[int, dict[str, int]]] = []  # (round, ranks) of the games counted since
        self._by_round: dict[str, list[tuple[int, float, float]]] = {name: [] for name in settings.names}
        self._round = 0  # the round of the last game rated (0: none yet)
        self._snapshot(0)

    def can_extend(self, records: Mapping[str, Any]) -> bool:
        """Whether ``records`` holds every game counted and only later games besides (else: a fresh tally)."""
        counted = self.counted
        if not counted:
            return True
        last = counted[-1]
        return sum(1 for gid in records if gid <= last) == len(counted) and all(gid in records for gid in counted)

    def extend(self, records: Mapping[str, Mapping[str, Any] | GameSummary]) -> None:
        """Count the games of ``records`` (records of ``games.jsonl`` or :class:`GameSummary`) not counted yet
        (see :meth:`can_extend`)."""
        last = self.counted[-1] if self.counted else None
        for gid in sorted(gid for gid in records if last is None or gid > last):
            record = records[gid]
            self.add(record if isinstance(record, GameSummary) else summarize(record))

    def add(self, game: GameSummary) -> None:
        """Count one game, which comes after every game counted so far."""
        stats = self._stats
        ranks: dict[str, int] = {}
        for name, house, status, reason, rank, points in game.seats:
            if house or name not in stats:
                continue
            row = stats[name]
            row["games"] += 1
            row["points"] += points
            row["rank_sum"] += rank
            if status == "error":
                kind = reason or "error"
                row["errors"][kind] = row["errors"].get(kind, 0) + 1
            ranks[name] = rank
        self._unrated.append((game.round, ranks))
        self.counted.append(game.game)

    def points(self) -> dict[str, float]:
        """Each entrant's points over the games counted (summed in game-id order)."""
        return {name: row["points"] for name, row in self._stats.items()}

    def _rate(self) -> None:
        """Rate the games counted and not rated yet, in order; the ratings at the end of each round kept."""
        ratings = self._ratings
        for round_no, ranks in self._unrated:
            if round_no and round_no != self._round:
                if self._round:
                    self._snapshot(self._round)  # the ratings at the end of the round before
                self._round = round_no
            ratings.update(ranks)
        self._unrated.clear()

    def _rating(self, name: str, round_no: int) -> tuple[int, float, float]:
        return round_no, round(self._ratings.mu(name), 4), round(self._ratings.sigma(name), 4)

    def _snapshot(self, round_no: int) -> None:
        for name, history in self._by_round.items():
            history.append(self._rating(name, round_no))

    def ratings_by_round(self) -> dict[str, list[tuple[int, float, float]]]:
        """Each entrant's ``(round, mu, sigma)`` before the first game (round 0) and after each round counted
        so far (the last one as it stands), from the one pass that rates the games for :meth:`rows`."""
        self._rate()
        return {name: [*history, self._rating(name, self._round)] if self._round else list(history)
                for name, history in self._by_round.items()}

    def rows(self) -> list[dict[str, Any]]:
        """The table of the games counted so far."""
        self._rate()
        specs = {bot.name: bot.spec for bot in self.settings.bots}
        ratings = self._ratings
        rows = []
        for name in self.settings.names:
            row = self._stats[name]
            rows.append({
                "bot": name, "spec": specs[name], "games": row["games"], "points": row["points"],
                "average_rank": round(row["rank_sum"] / row["games"], 4) if row["games"] else None,
                "rating": round(ratings.ordinal(name), 4), "mu": round(ratings.mu(name), 4),
                "sigma": round(ratings.sigma(name), 4), "errors": dict(sorted(row["errors"].items())),
            })
        rows.sort(key=lambda row: (-row["points"], -row["rating"], row["bot"]))
        return [{"rank": place, **row} for place, row in enumerate(rows, 1)]


def _errors_text(errors: Mapping[str, int]) -> str:
    return ", ".join(f"{kind} {count}" for kind, count in errors.items()) or "-"


def format_standings(rows: Sequence[Mapping[str, Any]]) -> str:
    """The table as text: rank, bot, games, points, average rank, rating, errors by kind.

    >>> print(format_standings(_EXAMPLE))
    rank  bot  games  points  avg rank  rating  errors
    ----  ---  -----  ------  --------  ------  ---------
       1  g        2     3.5      1.50    1.20  timeout 1
    """
    header = ("rank", "bot", "games", "points", "avg rank", "rating", "errors")
    lines = [header]
    for row in rows:
        average = "-" if row["average_rank"] is None else f"{row['average_rank']:.2f}"
        lines.append((str(row["rank"]), row["bot"], str(row["games"]), f"{row['points']:g}", average,
                      f"{row['rating']:.2f}", _errors_text(row["errors"])))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    right = {0, 2, 3, 4, 5}
    text = [
        "  ".join(cell.rjust(w) if i in right else cell.ljust(w) for i, (cell, w) in enumerate(zip(line, widths,
                                                                                                    strict=True)))
        .rstrip()
        for line in lines
    ]
    text.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(text)


def standings_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """The table as CSV (``standings.csv``): the columns of the rows, ``errors`` as a total, then one column per
    kind of :data:`ERROR_KINDS`; a bot's name or spec that a spreadsheet would read as a formula after a quote
    (:func:`mjarena.spreadsheet.safe_cell`).

    >>> print(standings_csv(_EXAMPLE).splitlines()[1])
    1,g,builtin:greedy,2,3.5,1.5,1.2,25.0,7.9,1,1,0,0,0,0,0,0
    """
    header = ["rank", "bot", "spec", "games", "points", "average_rank", "rating", "mu", "sigma", "errors",
              *(f"errors_{kind}" for kind in ERROR_KINDS)]
    return csv_text(header, ([row["rank"], row["bot"], row["spec"], row["games"], row["points"], row["average_rank"],
                              row["rating"], row["mu"], row["sigma"], sum(row["errors"].values()),
                              *(row["errors"].get(kind, 0) for kind in ERROR_KINDS)] for row in rows))


def standings_json(rows: Sequence[Mapping[str, Any]]) -> str:
    """The table as JSON (``standings.json``): the rows as they are, indented, one file's text.

    >>> standings_json(_EXAMPLE).startswith('[\\n  {\\n    "rank": 1,')
    True
    """
    return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"


_EXAMPLE = [{"rank": 1, "bot": "g", "spec": "builtin:greedy", "games": 2, "points": 3.5, "average_rank": 1.5,
             "rating": 1.2, "mu": 25.0, "sigma": 7.9, "errors": {"timeout": 1}}]
"""A row of the table, for the examples."""
