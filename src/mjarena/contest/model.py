"""A contest's folder: its settings, teams, submissions, the window, and the standings as the API gives them.

``DIR/contest.db`` (SQLite, see :mod:`mjarena.contest.db`) holds everything that matters; ``DIR/submissions/``
keeps each uploaded file exactly as sent; ``DIR/builds/`` is the build cache (it can be deleted).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "class"
>>> contest, tokens = Contest.create(folder, ["red", "blue"], Settings(duration=30))
>>> sorted(tokens["teams"])
['blue', 'red']
>>> contest.state(now=0.0), contest.authenticate(tokens["teams"]["red"]).name
('not_started', 'red')
>>> [(row["team"], row["points"]) for row in contest.standings()["rows"]]
[('blue', 0.0), ('red', 0.0)]
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjarena.contest.auth import hash_token, matches, new_token
from mjarena.contest.db import Database
from mjarena.contest.names import ADMIN, clash_problem, name_problem
from mjarena.contest.rows import GameRow, Team
from mjarena.contest.settings import (
    BUILD_OVERHEAD,
    MIB,
    SOURCE_OVERHEAD,
    ContestError,
    Settings,
    build_room,
    upload_room,
)
from mjarena.i18n import N_, worded

if TYPE_CHECKING:
    from mjarena.arena.draws import Draws

__all__ = ["ADMIN", "BUILD_OVERHEAD", "MIB", "SOURCE_OVERHEAD", "Contest", "ContestError", "Settings", "build_room",
           "check_team_name", "upload_room"]

MAX_EXTENSION_MINUTES = 7 * 24 * 60
"""The most one *Extend the window* adds (a week)."""


def _utc(moment: float) -> str:
    """An epoch time as the organiser's log shows it.

    >>> _utc(0)
    '1970-01-01 00:00:00 UTC'
    """
    return datetime.fromtimestamp(moment, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def check_team_name(name: str) -> str:
    """``name`` if it can name a team (:func:`mjarena.contest.names.name_problem`), else :class:`ContestError`.

    >>> check_team_name("team/1")
    Traceback (most recent call last):
    ...
    mjarena.contest.settings.ContestError: team name 'team/1': use 1 to 64 letters, digits, _ . + -
    """
    problem = name_problem(name)
    if problem is not None:
        raise ContestError(problem)
    return name


class Contest:
    """An open contest folder (see the module docstring); :meth:`create` makes one, :meth:`open` reads one."""

    def __init__(self, root: Path, db: Database, settings: Settings) -> None:
        self.root = root
        self.db = db
        self.settings = settings

    # -- making and opening ----------------------------------------------------------------------------

    @classmethod
    def create(cls, root: str | Path, teams: list[str], settings: Settings,
               secret: bytes | None = None) -> tuple[Contest, dict[str, Any]]:
        """A new contest in ``root`` (which must not exist); the tokens, shown this once, and the commitment to
        the contest's secret: ``{"admin": TOKEN, "teams": {NAME: TOKEN}, "commitment": SHA256}``.  ``secret``
        (at least 128 bits; None: 256 random bits) deals every wall, seat and Swiss draw; it is kept in
        ``contest.db`` (readable by its owner only) and published when the window closes."""
        from mjarena.arena.draws import MIN_SECRET_BITS, commitment, new_secret

        root = Path(root)
        settings.check()
        if settings.seed is not None:
            raise ContestError("a contest takes no public seed (anyone who knew it could compute every wall): its "
                               "walls come from a secret")
        secret = new_secret() if secret is None else secret
        if len(secret) * 8 < MIN_SECRET_BITS:
            raise ContestError(f"the secret has {len(secret) * 8} bits; it needs at least {MIN_SECRET_BITS}")
        for name in teams:
            check_team_name(name)
        clash = clash_problem(teams)
        if clash is not None:
            raise ContestError(clash)
        if root.exists():
            raise ContestError(f"{root}: already exists (a new contest needs a new folder)")
        try:
            root.mkdir(parents=True)
            (root / "submissions").mkdir()
        except OSError as error:
            raise ContestError(f"{root}: cannot create the folder: {error.strerror or error}") from None
        (root / "contest.db").touch(mode=0o600)  # the secret's home: its owner's alone (SQLite's journals too)
        db = Database(root / "contest.db")
        db.create_schema()
        admin = new_token()
        tokens: dict[str, Any] = {"admin": admin, "teams": {}, "commitment": commitment(secret)}
        now = time.time()
        with db.transaction() as tx:
            tx.set_meta("format", "mjarena-contest")
            tx.set_meta("settings", asdict(settings))
            tx.set_meta("secret", secret.hex())
            tx.set_meta("commitment", commitment(secret))
            tx.set_meta("admin_hash", hash_token(admin))
            tx.set_meta("start", settings.start)
            for name in teams:
                token = new_token()
                tx.add_team(name, hash_token(token), now=now)
                tokens["teams"][name] = token
        return cls(root, db, settings), tokens

    @classmethod
    def open(cls, root: str | Path) -> Contest:
        """The contest in ``root``; :class:`ContestError` if there is none."""
        root = Path(root)
        if not (root / "contest.db").is_file():
            raise ContestError(f"{root}: no contest here (no contest.db); make one with mjarena contest create")
        db = Database(root / "contest.db")
        try:
            if db.meta("format") != "mjarena-contest":
                raise ContestError(f"{root}/contest.db: not a contest database")
            db.create_schema()  # tables added by a newer version
            settings = Settings.from_json(db.meta("settings"))
        except Exception as error:  # a damaged or foreign file: say so, whatever sqlite3 raised
            if isinstance(error, ContestError):
                raise
            raise ContestError(f"{root}/contest.db: cannot read it ({error})") from None
        return cls(root.resolve(), db, settings)

    @property
    def name(self) -> str:
        """The contest's name, as its results print it: ``create --name``, else its folder's name."""
        return self.settings.name or self.root.name

    # -- the randomness ----------------------------------------------------------------------------------

    def draws(self) -> Draws:
        """Where the walls, seats and Swiss draws come from: the secret, or the public seed of a contest made
        before secrets (2014 when it gave none)."""
        from mjarena.arena.draws import Draws

        secret = self.db.meta("secret")
        if secret is not None:
            return Draws.secret(bytes.fromhex(secret))
        return Draws.public(2014 if self.settings.seed is None else self.settings.seed)

    def commitment(self) -> str | None:
        """SHA-256 of the secret, public from the start (None for a contest made before secrets)."""
        return self.db.meta("commitment")

    # -- teams and tokens ------------------------------------------------------------------------------

    def add_team(self, name: str) -> str:
        """A new team; its token (shown this once).  :class:`ContestError` when its name is taken, in any case or
        with look-alike letters (:func:`mjarena.contest.names.clash_problem`)."""
        check_team_name(name)
        token = new_token()
        with self.db.transaction() as tx:  # the names read under the write lock: two look-alikes added at once
            clash = clash_problem([name], [team.name for team in self.db.teams()])
            if clash is not None:
                raise ContestError(clash)
            tx.add_team(name, hash_token(token), now=time.time())
        return token

    def rotate_token(self, name: str) -> str:
        """A new token for team ``name`` (or ``admin``): the old one and its sessions stop working."""
        token = new_token()
        if name == ADMIN:
            with self.db.transaction() as tx:
                tx.set_meta("admin_hash", hash_token(token))
                tx.drop_admin_sessions()
            return token
        team = self.db.team(name)
        if team is None:
            raise ContestError(f"no team {name!r}")
        with self.db.transaction() as tx:
            tx.set_token(team.id, hash_token(token))
        return token

    def authenticate(self, token: str) -> Team | None:
        """The team whose token this is (a :class:`Team` named :data:`ADMIN` for the organiser), or None.
        Every stored hash is compared in constant time."""
        found = None
        if matches(token, self.db.meta("admin_hash", "")):
            found = Team(0, ADMIN, "")
        for team in self.db.teams():
            if matches(token, team.token_hash):
                found = team
        return found

    # -- submissions -----------------------------------------------------------------------------------

    # -- the window --------------------------------------------------------------------------------------

    def start(self) -> float | None:
        return self.db.meta("start")

    def open_window(self, now: float) -> float:
        """Start the window now unless it has a start already; the start."""
        start = self.start()
        if start is None:
            with self.db.transaction() as tx:
                tx.set_meta("start", now)
            start = now
        return start

    def paused_since(self) -> float | None:
        """When the organiser paused the window (None: it is not paused)."""
        return self.db.meta("paused_at")

    def _check_open(self, action: str, now: float) -> None:
        """:class:`ContestError` when the window has ended: a finished contest stays finished (its results are
        final, and whatever is published at its end stays true)."""
        end = self.end(now)
        if end is not None and now >= end:
            raise ContestError(worded(N_("cannot %(action)s: the window ended at %(end)s, and a finished contest "
                                         "stays finished"), action=worded(action), end=_utc(end)))

    def pause(self, now: float, why: str = "the window") -> bool:
        """Pause the window: no game starts until :meth:`resume` (running games finish); False if paused already,
        :class:`ContestError` once the window has ended.  Logged with the organiser's actions, as ``why``."""
        self._check_open(N_("pause"), now)
        if self.paused_since() is not None:
            return False
        with self.db.transaction() as tx:
            tx.set_meta("paused_at", now)
            tx.log_admin(now, "pause", why)
        return True

    def resume(self, now: float) -> bool:
        """Resume a paused window; its end moves by the time it was paused.  False if it was not paused,
        :class:`ContestError` once the window has ended.  Logged with the organiser's actions."""
        self._check_open(N_("resume"), now)
        since = self.paused_since()
        if since is None:
            return False
        with self.db.transaction() as tx:
            tx.set_meta("paused_seconds", self.db.meta("paused_seconds", 0.0) + max(0.0, now - since))
            tx.set_meta("paused_at", None)
            tx.log_admin(now, "resume", "the window")
        return True

    def extend(self, minutes: float, now: float) -> float | None:
        """Move the window's end ``minutes`` later (while it is open, paused or not started); the new end (None
        when the window has no start yet).
        :class:`ContestError` once it has ended, or for a number of minutes that is not in (0, 10080].  Logged
        with the organiser's actions."""
        if not 0 < minutes <= MAX_EXTENSION_MINUTES:
            raise ContestError(worded(N_("extend the window by %(minutes)s minutes: give a number of minutes above 0 "
                                         "and at most %(most)s (a week)"), minutes=f"{minutes:g}",
                                      most=MAX_EXTENSION_MINUTES))
        self._check_open(N_("extend the window"), now)
        end = self.end(now)
        end = None if end is None else end + minutes * 60.0
        with self.db.transaction() as tx:
            tx.set_meta("extended_seconds", self.db.meta("extended_seconds", 0.0) + minutes * 60.0)
            tx.log_admin(now, "extend", f"the window by {minutes:g} minutes"
                         + (f", to {_utc(end)}" if end is not None else " (it has not started)"))
        return end

    def end_now(self, now: float) -> float:
        """End the window now (a pause ends with it): no new round starts, the round in progress is played to
        its end.  :class:`ContestError` before the start or once it has ended.  Logged with the organiser's
        actions."""
        start = self.start()
        if start is None or now < start:
            raise ContestError(worded(N_("cannot end the window: it has not started")))
        self._check_open(N_("end the window"), now)
        with self.db.transaction() as tx:
            tx.set_meta("ended_at", now)
            tx.set_meta("paused_at", None)
            tx.log_admin(now, "end now", f"the window, at {_utc(now)}")
        return now

    def end(self, now: float | None = None) -> float | None:
        """The window's end: when the organiser ended it (:meth:`end_now`), or its start, its duration, its
        extensions and the time it was paused (up to ``now`` while paused)."""
        start = self.start()
        if start is None:
            return None
        ended = self.db.meta("ended_at")
        if ended is not None:
            return float(ended)
        paused = self.db.meta("paused_seconds", 0.0) + self.db.meta("extended_seconds", 0.0)
        since = self.paused_since()
        if since is not None:
            paused += max(0.0, (time.time() if now is None else now) - since)
        return start + self.settings.duration * 60.0 + paused

    def window_open(self, now: float) -> bool:
        start, end = self.start(), self.end(now)
        return (start is not None and end is not None and start <= now < end and self.paused_since() is None)

    def state(self, now: float | None = None) -> str:
        """``not_started``, ``paused`` (by the organiser), ``running`` (the window is open, or its last round is
        still being played) or ``finished``."""
        now = time.time() if now is None else now
        start, end = self.start(), self.end(now)
        if start is None or now < start:
            return "not_started"
        if self.paused_since() is not None:
            return "paused"
        rounds = self.db.rounds()
        if rounds and rounds[-1][2] is None:
            return "running"
        return "running" if end is not None and now < end else "finished"

    # -- what the API shows ------------------------------------------------------------------------------

    def round_number(self) -> int:
        rounds = self.db.rounds()
        return rounds[-1][0] if rounds else 0

    def standings(self, now: float | None = None, *, as_of: float | None = None) -> dict[str, Any]:
        """``{"state", "round", "limits", "rows": [{"rank", "team", "points", "games", "points_per_game",
        "version", "thinking_per_game", "thinking_max"}], "commitment", "secret"}``: every team, by points as the
        statement ranks them (equal points, equal rank; then by name), with the games it played and its points per
        game beside (teams that joined later played fewer); ``version`` is the team's current bot; its bots'
        thinking time in seconds per game on average and at most (None before its first game); ``limits`` the
        limits in force (:meth:`Settings.limits_json`); the secret once the contest is finished, else None;
        ``ranked_by``: ``points``, or ``points_per_game`` when the organiser chose it at ``create``
        (``--rank-by``).  ``as_of``: count only the games that finished before that time (the public's standings
        during the freeze, :func:`mjarena.contest.public.public_standings`)."""
        from mjarena.contest.opening import house_games_count

        house = house_games_count(self.settings)
        totals = self.db.totals(finished_before=as_of, house_games=house)
        thinking = self.db.thinking_totals(finished_before=as_of, house_games=house)
        current = self.db.current_submissions()
        rows: list[dict[str, Any]] = []
        for team in self.db.teams():
            games, points = totals.get(team.id, (0, 0.0))
            timed, seconds, most = thinking.get(team.id, (0, 0.0, 0.0))
            bot = current.get(team.id)
            rows.append({"team": team.name, "points": points, "games": games,
                         "points_per_game": round(points / games, 3) if games else None,
                         "version": bot.version if bot is not None else None,
                         "thinking_per_game": round(seconds / timed, 3) if timed else None,
                         "thinking_max": round(most, 3) if timed else None})
        key = self.settings.rank_by  # points, or points per game (teams without a game last)
        rows.sort(key=lambda row: (-(row[key] or 0.0), row[key] is None, row["team"]))
        ranked: list[dict[str, Any]] = []
        for index, row in enumerate(rows):
            rank = ranked[-1]["rank"] if index and row[key] == rows[index - 1][key] else index + 1
            ranked.append({"rank": rank, **row})
        state = self.state(now)
        return {"state": state, "round": self.round_number(), "limits": self.settings.limits_json(), "rows": ranked,
                "ranked_by": key, "house_games_count": house,
                "commitment": self.commitment(),
                "secret": self.db.meta("secret") if state == "finished" else None}  # revealed at the end only

    def games(self, team: str | None = None) -> list[dict[str, Any]]:
        """Started games, newest first (as the pages list them): running ones with null points; house bots as
        team null."""
        team_id = None
        if team is not None:
            found = self.db.team(team)
            if found is None:
                return []
            team_id = found.id
        games = self.db.games(states=("running", "finished"), team_id=team_id)
        return [game_json(game) for game in reversed(games)]

    def rounds_view(self) -> list[dict[str, Any]]:
        """Every round, oldest first: ``{"round", "started", "finished", "games": [game_json(...)]}``."""
        games = self.db.games()
        return [{"round": number, "started": started, "finished": finished,
                 "games": [game_json(game) for game in games if game.round == number]}
                for number, started, finished in self.db.rounds()]

    def history(self, exclude: Collection[int] = ()) -> dict[str, Any]:
        """The race so far: ``{"rounds": [1, …, R], "teams": {NAME: {"first": F, "points": [...], "versions":
        [[round, version], ...]}}}``: for each team that has played, its points after each round from its first one,
        F (R is the last round with a finished game, so the last value is the team's total in the standings), and
        the first round in which each of its versions played.  ``exclude``: games left out (frozen ones)."""
        from mjarena.contest.opening import house_games_count

        games = [game for game in self.db.games(states=("finished",)) if game.id not in exclude and (
            house_games_count(self.settings) or all(seat.team is not None for seat in game.seats))]
        last = max((game.round for game in games), default=0)
        by_round: dict[str, dict[int, float]] = {}
        versions: dict[str, list[list[int]]] = {}
        for game in games:
            for seat in game.seats:
                if seat.team is None:
                    continue
                rounds = by_round.setdefault(seat.team, {})
                rounds[game.round] = rounds.get(game.round, 0.0) + (seat.points or 0.0)
                seen = versions.setdefault(seat.team, [])
                if seat.version is not None and all(version != seat.version for _, version in seen):
                    seen.append([game.round, seat.version])
        teams = {}
        for name, rounds in by_round.items():
            first, total, points = min(rounds), 0.0, []
            for number in range(first, last + 1):
                total += rounds.get(number, 0.0)
                points.append(total)
            teams[name] = {"first": first, "points": points, "versions": versions.get(name, [])}
        return {"rounds": list(range(1, last + 1)), "teams": teams}

    def version_figures(self, team: str, exclude: Collection[int] = (),
                        games: Sequence[Mapping[str, Any]] | None = None) -> dict[int, dict[str, Any]]:
        """For each version of ``team`` that has played: finished ``games``, ``points``, ``points_per_game``,
        ``errors`` (games in which it erred; ``error_kinds``: those by kind, as the console counts them), and its
        thinking time in seconds per game, on average and at most: ``thinking_per_game`` and ``thinking_max``
        (None for games recorded before thinking was kept);
        ``exclude``: games left out (frozen ones); ``games``: :meth:`games` of ``team``, when read already."""
        from mjarena.contest.failures import kind_of

        found = self.db.team(team)
        thought = self.db.thinking_of(found.id) if found is not None else {}
        figures: dict[int, dict[str, Any]] = {}
        for game in self.games(team) if games is None else games:
            for seat in game["players"]:
                if seat["team"] != team or game["state"] != "finished" or game["id"] in exclude:
                    continue
                row = figures.setdefault(seat["version"], {"games": 0, "points": 0.0, "errors": 0, "error_kinds": {},
                                                           "timed": []})
                row["games"] += 1
                row["points"] += seat["points"] or 0.0
                row["errors"] += seat["status"] == "error"
                kind = kind_of(seat["reason"]) if seat["status"] == "error" else None
                if kind is not None:
                    row["error_kinds"][kind] = row["error_kinds"].get(kind, 0) + 1
                if game["id"] in thought:
                    row["timed"].append(thought[game["id"]])
        for row in figures.values():
            row["points_per_game"] = round(row["points"] / row["games"], 3)
            timed = row.pop("timed")
            row["thinking_per_game"] = round(sum(timed) / len(timed), 3) if timed else None
            row["thinking_max"] = round(max(timed), 3) if timed else None
        return figures


def game_json(game: GameRow) -> dict[str, Any]:
    """A game as ``/api/games`` lists it."""
    finished = game.state == "finished"
    return {
        "id": game.id, "round": game.round, "table": game.table_no, "state": game.state,
        "players": [
            {"seat": seat.seat, "team": seat.team, "version": seat.version,
             "points": seat.points if finished else None, "rank": seat.rank if finished else None,
             "status": seat.status if finished else "playing",
             "reason": seat.reason if finished else None, **({"without": seat.without} if seat.without else {})}
            for seat in game.seats
        ],
    }
