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
from collections.abc import Collection
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mjarena.contest.auth import hash_token, matches, new_token
from mjarena.contest.db import Database
from mjarena.contest.names import ADMIN, clash_problem, name_problem
from mjarena.contest.rows import GameRow, Team

if TYPE_CHECKING:
    from mjarena.arena.draws import Draws
    from mjarena.limits import Limits

__all__ = ["ADMIN", "BUILD_OVERHEAD", "MIB", "SOURCE_OVERHEAD", "Contest", "ContestError", "Settings", "build_room",
           "check_team_name", "upload_room"]

MAX_EXTENSION_MINUTES = 7 * 24 * 60
"""The most one *Extend the window* adds (a week)."""


class ContestError(ValueError):
    """Bad contest parameters, or a folder that is not (or already is) a contest."""


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
    mjarena.contest.model.ContestError: team name 'team/1': use 1 to 64 letters, digits, _ . + -
    """
    problem = name_problem(name)
    if problem is not None:
        raise ContestError(problem)
    return name


@dataclass(frozen=True)
class Settings:
    """How the contest is played (stored in the database at ``create``)."""

    rules: str = "noi2014"
    duration: float = 60.0  # minutes of the window
    games_per_table: int = 1
    time_limit: float = 1.0  # seconds per answer
    memory_limit: int = 256  # MiB per bot
    seed: int | None = None  # a public seed: only contests made before secrets (see Contest.draws) have one
    start: float | None = None  # epoch seconds; None: at the first serve
    max_upload: int = 1 << 20  # bytes per source file
    uploads_per_minute: int = 6  # per team
    sandbox: str = "bwrap"  # bwrap | none
    build_workers: int = 2  # builds at once (one per team at a time, teams served in turn)
    compile_wall: float = 10.0  # seconds of wall-clock time per compile (besides the toolchain's CPU limit)
    build_output_mib: int = 16  # MiB a build may write
    team_quota_mib: int = 64  # MiB of sources and builds per team
    per_language_limits: bool = False  # Botzone's way: each language's time factor and memory from the table
    game_budget: float | None = None  # seconds of thinking per seat and game; None: 30 times the time limit
    open_with: int = 1  # the first round waits until this many teams have a bot that builds (0: every team)
    rank_by: str = "points"  # points (as the statement ranks) | points_per_game (for teams that join late)
    freeze: float = 0.0  # minutes before the end from which the public standings and race are frozen (0: never)
    language: str = "en"  # the pages' language for a visitor who chose none (en | zh_CN); see mjarena.i18n

    def check(self) -> Settings:
        """These settings, or :class:`ContestError` naming what is wrong."""
        from mjarena.rulesets import judge_rules

        try:
            judge_rules(self.rules)
        except KeyError as error:
            raise ContestError(f"--rules {self.rules}: {error.args[0]}") from None
        if self.duration <= 0:
            raise ContestError(f"--duration {self.duration:g}: must be positive (minutes)")
        if self.games_per_table < 1:
            raise ContestError(f"--games-per-table {self.games_per_table}: must be at least 1")
        from mjarena.limits import check_budget, check_limits

        try:
            check_limits(self.time_limit, self.memory_limit)
            check_budget(self.game_budget)
        except ValueError as error:
            raise ContestError(str(error)) from None
        if self.max_upload < 1 or self.uploads_per_minute < 1:
            raise ContestError("--max-upload and --uploads-per-minute must be at least 1")
        if self.sandbox not in ("bwrap", "none"):
            raise ContestError(f"--sandbox {self.sandbox}: expected bwrap or none")
        if self.rank_by not in ("points", "points_per_game"):
            raise ContestError(f"--rank-by {self.rank_by}: expected points or points_per_game")
        if not 0 <= self.freeze < self.duration:
            raise ContestError(f"--freeze {self.freeze:g}: give minutes from 0 up to (not including) the "
                               f"--duration, {self.duration:g}")
        if self.open_with < 0:
            raise ContestError(f"--open-with {self.open_with}: give a number of teams, or all")
        from mjarena.i18n import LOCALES, locale_of

        if locale_of(self.language) != self.language or self.language not in LOCALES:
            raise ContestError(f"--language {self.language}: expected one of "
                               f"{', '.join(tag.replace('_', '-') for tag in LOCALES)}")
        if self.build_workers < 1:
            raise ContestError(f"--build-workers {self.build_workers}: must be at least 1")
        if not self.compile_wall > 0:
            raise ContestError(f"--compile-wall {self.compile_wall:g}: must be positive (seconds)")
        if self.build_output_mib < 1:
            raise ContestError(f"--build-output-mib {self.build_output_mib}: must be at least 1")
        need = upload_room(self, self.max_upload)
        if self.team_quota_mib << 20 < need:
            raise ContestError(f"--team-quota-mib {self.team_quota_mib}: leaves no room for one upload of "
                               f"--max-upload and its build (--build-output-mib): give it at least "
                               f"{-(-need >> 20)}")
        return self

    def bot_limits(self) -> Limits:
        """The limits a team's bot plays under (before its language's, with per-language limits on)."""
        from mjarena.limits import Limits
        from mjarena.sandbox import Sandbox

        return Limits(time=self.time_limit, memory_mib=self.memory_limit, sandbox=Sandbox.parse(self.sandbox),
                      language_limits=self.per_language_limits, game_budget=self.game_budget)

    def limits_json(self) -> dict[str, Any]:
        """The limits in force, as the standings and the teams' pages show them: ``{"time_limit" (s per answer),
        "memory_limit" (MiB), "game_budget" (s of thinking per seat and game), "per_language": false}``; with
        per-language limits, ``"languages": {NAME: {"time_limit", "memory_limit", "game_budget"}}`` besides.

        >>> Settings().limits_json()
        {'time_limit': 1.0, 'memory_limit': 256, 'game_budget': 30.0, 'per_language': False}
        >>> Settings(per_language_limits=True).limits_json()["languages"]["python"]
        {'time_limit': 6.0, 'memory_limit': 256, 'game_budget': 180.0}
        """
        limits = self.bot_limits()
        shown: dict[str, Any] = {"time_limit": limits.time, "memory_limit": limits.memory_mib,
                                 "game_budget": limits.budget, "per_language": self.per_language_limits}
        if self.per_language_limits:
            from mjarena.builds import load_toolchains

            shown["languages"] = {
                name: {"time_limit": round(limits.time * chain.time_factor, 3),
                       "memory_limit": chain.memory_mib or limits.memory_mib,
                       "game_budget": round(limits.budget * chain.time_factor, 3)}
                for name, chain in sorted(load_toolchains().items())}
        return shown

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        known = {field.name for field in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})


MIB = 1 << 20
BLOCK = 4096
BUILD_OVERHEAD = 48 << 10
"""Disk a build folder takes besides its source and its output: the folder and its ``work/`` (4 KiB each) and
``build.json`` (at most 40 KiB: a message of at most 6,040 characters, each at most 6 bytes in JSON)."""
SOURCE_OVERHEAD = 4 << 10
"""Disk an upload takes besides its file: its ``vN/`` folder."""


def _blocks(size: int) -> int:
    """``size`` rounded up to whole 4 KiB blocks.

    >>> _blocks(0), _blocks(1), _blocks(4097)
    (0, 4096, 8192)
    """
    return -(-size // BLOCK) * BLOCK


def build_room(settings: Settings, source_bytes: int) -> int:
    """The most disk the build of a ``source_bytes`` source can take: its output cap, its copy of the source and
    :data:`BUILD_OVERHEAD`.

    >>> build_room(Settings(), 1000) == 16 * MIB + 4096 + BUILD_OVERHEAD
    True
    """
    return settings.build_output_mib * MIB + _blocks(source_bytes) + BUILD_OVERHEAD


def upload_room(settings: Settings, source_bytes: int) -> int:
    """The disk an upload of ``source_bytes`` counts against its team's quota: the file, its folder, and
    :func:`build_room` for its build."""
    return _blocks(source_bytes) + SOURCE_OVERHEAD + build_room(settings, source_bytes)


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
            raise ContestError(f"cannot {action}: the window ended at {_utc(end)}, and a finished contest stays "
                               "finished")

    def pause(self, now: float, why: str = "the window") -> bool:
        """Pause the window: no game starts until :meth:`resume` (running games finish); False if paused already,
        :class:`ContestError` once the window has ended.  Logged with the organiser's actions, as ``why``."""
        self._check_open("pause", now)
        if self.paused_since() is not None:
            return False
        with self.db.transaction() as tx:
            tx.set_meta("paused_at", now)
            tx.log_admin(now, "pause", why)
        return True

    def resume(self, now: float) -> bool:
        """Resume a paused window; its end moves by the time it was paused.  False if it was not paused,
        :class:`ContestError` once the window has ended.  Logged with the organiser's actions."""
        self._check_open("resume", now)
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
            raise ContestError(f"extend the window by {minutes:g} minutes: give a number of minutes above 0 and at "
                               f"most {MAX_EXTENSION_MINUTES} (a week)")
        self._check_open("extend the window", now)
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
            raise ContestError("cannot end the window: it has not started")
        self._check_open("end the window", now)
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
        totals = self.db.totals(finished_before=as_of)
        thinking = self.db.thinking_totals(finished_before=as_of)
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
                "ranked_by": key,
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
        games = [game for game in self.db.games(states=("finished",)) if game.id not in exclude]
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

    def version_figures(self, team: str, exclude: Collection[int] = ()) -> dict[int, dict[str, Any]]:
        """For each version of ``team`` that has played: finished ``games``, ``points``, ``points_per_game``,
        ``errors`` (games in which it erred), and its thinking time in seconds per game, on average and at most:
        ``thinking_per_game`` and ``thinking_max`` (None for games recorded before thinking was kept);
        ``exclude``: games left out (frozen ones)."""
        found = self.db.team(team)
        thought = self.db.thinking_of(found.id) if found is not None else {}
        figures: dict[int, dict[str, Any]] = {}
        for game in self.games(team):
            for seat in game["players"]:
                if seat["team"] != team or game["state"] != "finished" or game["id"] in exclude:
                    continue
                row = figures.setdefault(seat["version"], {"games": 0, "points": 0.0, "errors": 0, "timed": []})
                row["games"] += 1
                row["points"] += seat["points"] or 0.0
                row["errors"] += seat["status"] == "error"
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
             "reason": seat.reason if finished else None}
            for seat in game.seats
        ],
    }
