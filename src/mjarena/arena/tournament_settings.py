"""A tournament's settings: its entrants and parameters (:class:`Settings`, ``DIR/tournament.json``), the secret of
a seedless one (``DIR/secret``), and the tables they give each round (:func:`round_tables`).

:class:`TournamentError` is the error of every tournament module: bad parameters, or a ``DIR`` that holds another
tournament or a file changed by something else than the tournament.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from mjarena.arena.draws import Draws
from mjarena.arena.schedules import HOUSE_PREFIX, TABLE, default_rounds, house_names, round_robin_schedule, swiss_tables
from mjarena.untrusted import excerpt, parse_json

__all__ = [
    "FORMATS",
    "SECRET_FILE",
    "Entrant",
    "Settings",
    "TournamentError",
    "parse_bot",
    "read_secret",
    "read_settings",
    "round_tables",
    "swiss_round",
    "write_secret",
]

FORMATS = ("swiss", "round-robin")
_NAME = re.compile(r"[A-Za-z0-9_.+-]{1,64}")


class TournamentError(ValueError):
    """Bad tournament parameters, or a DIR that holds another tournament."""


_PARAMETERS: dict[str, tuple[type, ...]] = {
    "rules": (str,), "format": (str,), "rounds": (int,), "games_per_table": (int,), "duplicate": (bool,),
    "seed": (int, type(None)), "time_limit": (float, int), "memory_limit": (int,), "bots": (list,),
}
"""The keys every ``tournament.json`` has in its parameters, and their JSON types (exactly: true is no integer)."""


@dataclass(frozen=True)
class Entrant:
    """A bot in the tournament: a unique name and its SPEC (``builtin:NAME`` or a command line)."""

    name: str
    spec: str


def parse_bot(text: str) -> Entrant:
    """``NAME=SPEC`` as given to ``--bot``.

    >>> parse_bot("greedy=builtin:greedy")
    Entrant(name='greedy', spec='builtin:greedy')
    """
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep or not _NAME.fullmatch(name) or not spec:
        raise TournamentError(f"--bot {text!r}: expected NAME=SPEC (NAME of letters, digits, _ . + -)")
    if name.startswith(HOUSE_PREFIX):
        raise TournamentError(f"--bot {text!r}: names starting with {HOUSE_PREFIX!r} are kept for house bots")
    return Entrant(name, spec)

@dataclass(frozen=True)
class Settings:
    """Everything that decides the games of a tournament (stored in ``tournament.json``).

    How the games are run (executor, workers) is not part of it: it changes nothing in the results.
    """

    bots: tuple[Entrant, ...]
    format: str = "swiss"
    rounds: int = 1
    games_per_table: int = 1
    duplicate: bool = False
    seed: int | None = 0  # None: the walls come from the secret in DIR/secret (SECRET_FILE), never stored here
    rules: str = "noi2014"
    time_limit: float = 1.0
    memory_limit: int = 256
    toolchains: str | None = None  # the user's toolchain table for source-file entrants (absolute path)
    language_limits: bool = False  # each language's time factor and memory from that table
    game_budget: float | None = None  # a seat's thinking seconds per game (None: 30 times the time limit)
    secret: bytes | None = field(default=None, repr=False, compare=False)  # with seed None: read from DIR/secret

    @property
    def draws(self) -> Draws:
        """Where the walls, seats and draws come from: the public seed, or the secret of a seedless run."""
        if self.seed is not None:
            return Draws.public(self.seed)
        if self.secret is None:
            raise TournamentError("this tournament's walls come from its secret (DIR/secret), which is not loaded")
        return Draws.secret(self.secret)

    @classmethod
    def create(
        cls,
        bots: Sequence[Entrant],
        *,
        format: str = "swiss",
        rounds: int | None = None,
        games_per_table: int = 1,
        duplicate: bool = False,
        seed: int | None = 0,
        rules: str = "noi2014",
        time_limit: float = 1.0,
        memory_limit: int = 256,
        toolchains: str | None = None,
        language_limits: bool = False,
        secret: bytes | None = None,
        game_budget: float | None = None,
    ) -> Settings:
        """Checked settings; ``rounds`` defaults to :func:`default_rounds`; ``seed`` None: the walls come from
        ``secret`` (read from or written to ``DIR/secret`` by :class:`Tournament`)."""
        from mjarena.rulesets import judge_rules

        try:
            judge = judge_rules(rules)
        except KeyError as error:
            raise TournamentError(f"--rules {rules}: {error.args[0]}") from None
        rules = judge.name
        if format not in FORMATS:
            raise TournamentError(f"--format {format}: expected one of {', '.join(FORMATS)}")
        if len(bots) < 2:
            raise TournamentError(f"a tournament needs at least 2 bots, got {len(bots)}")
        names = [bot.name for bot in bots]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise TournamentError(f"bot names must be unique: {', '.join(duplicates)} given twice")
        from mjarena.agents.factory import BotSpecError, check_spec

        for bot in bots:
            try:
                check_spec(bot.spec, judge)
            except BotSpecError as error:
                raise TournamentError(f"--bot {bot.name}: {error}") from None
        rounds = default_rounds(len(bots)) if rounds is None else rounds
        if rounds < 1 or games_per_table < 1:
            raise TournamentError("--rounds and --games-per-table must be at least 1")
        from mjarena.limits import check_budget, check_limits

        try:
            check_limits(time_limit, memory_limit)
            check_budget(game_budget)
        except ValueError as error:
            raise TournamentError(str(error)) from None
        return cls(tuple(bots), format, rounds, games_per_table, duplicate, seed, rules, time_limit,
                   memory_limit, toolchains, language_limits, game_budget, secret)

    def to_json(self) -> dict[str, Any]:
        """The parameters as stored in ``tournament.json``."""
        return {
            "rules": self.rules, "format": self.format, "rounds": self.rounds,
            "games_per_table": self.games_per_table, "duplicate": self.duplicate, "seed": self.seed,
            "time_limit": self.time_limit, "memory_limit": self.memory_limit,
            **({"toolchains": self.toolchains} if self.toolchains else {}),
            **({"language_limits": True} if self.language_limits else {}),
            **({"game_budget": self.game_budget} if self.game_budget is not None else {}),
            "bots": [{"name": bot.name, "spec": bot.spec} for bot in self.bots],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        """Read back :meth:`to_json`."""
        return cls(
            tuple(Entrant(bot["name"], bot["spec"]) for bot in data["bots"]), data["format"], int(data["rounds"]),
            int(data["games_per_table"]), bool(data["duplicate"]),
            None if data["seed"] is None else int(data["seed"]), data["rules"],
            float(data["time_limit"]), int(data["memory_limit"]), data.get("toolchains"),
            bool(data.get("language_limits", False)),
            None if data.get("game_budget") is None else float(data["game_budget"]),
        )

    @property
    def names(self) -> list[str]:
        """The entrants' names, in the order given."""
        return [bot.name for bot in self.bots]

    @property
    def tables(self) -> int:
        """Tables per round (house bots included)."""
        return (len(self.bots) + len(house_names(len(self.bots)))) // TABLE

    @property
    def games_at_table(self) -> int:
        """Games per table and round: one per wall, or four (one per seat rotation) with ``duplicate``."""
        return self.games_per_table * (TABLE if self.duplicate else 1)

    @property
    def total_games(self) -> int:
        """Games in the whole tournament."""
        return self.rounds * self.tables * self.games_at_table


def round_tables(settings: Settings, round_no: int, records: Mapping[str, Mapping[str, Any]],
                 round_robin: Sequence[Sequence[tuple[str, ...]]] | None = None) -> list[tuple[str, ...]]:
    """The tables of round ``round_no``: from ``round_robin`` (the schedule; computed when None), or Swiss from
    the points in ``records`` of the rounds before it."""
    if settings.format == "round-robin":
        if round_robin is None:
            round_robin = round_robin_schedule(settings.names, settings.rounds, settings.draws)
        return list(round_robin[round_no - 1])
    points: dict[str, float] = {}
    for gid in sorted(records):
        if records[gid]["round"] < round_no:
            for seat in records[gid]["results"]:
                if not seat["house"]:
                    points[seat["bot"]] = points.get(seat["bot"], 0.0) + seat["points"]
    return swiss_round(settings, round_no, points)


def swiss_round(settings: Settings, round_no: int, points: Mapping[str, float]) -> list[tuple[str, ...]]:
    """The tables of Swiss round ``round_no`` from each entrant's ``points`` over the rounds before it (summed in
    game-id order, as :func:`round_tables` and :class:`~mjarena.arena.standings.Tally` both sum them)."""
    return swiss_tables(settings.names, points, random.Random(settings.draws("swiss", round_no)))


def read_settings(out_dir: Path) -> Settings:
    """The settings in ``out_dir/tournament.json``; :class:`TournamentError` naming the file and the problem."""
    from mjarena.limits import check_limits

    meta = out_dir / "tournament.json"
    try:
        text = meta.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise TournamentError(f"{out_dir}: no tournament here (no tournament.json)") from None
    except OSError as error:
        raise TournamentError(f"{meta}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise TournamentError(f"{meta}: not UTF-8 text") from None
    try:
        data = parse_json(text)
        if not isinstance(data, dict) or not isinstance(data.get("parameters"), dict):
            raise TournamentError('not a tournament (no "parameters" object)')
        parameters = data["parameters"]
        for key, types in _PARAMETERS.items():
            if key not in parameters or type(parameters[key]) not in types:
                raise TournamentError(f'"{key}" is missing or {excerpt(json.dumps(parameters.get(key)), 40)}')
        for number, bot in enumerate(parameters["bots"], 1):
            if not isinstance(bot, dict) or type(bot.get("name")) is not str or type(bot.get("spec")) is not str:
                raise TournamentError(f'bot {number} is not {{"name": NAME, "spec": SPEC}}')
            parse_bot(f"{bot['name']}={bot['spec']}")  # a name that a --bot could have given
        check_limits(parameters["time_limit"], parameters["memory_limit"])
        stored = Settings.from_json(parameters)
        if stored.seed is None:
            stored = replace(stored, secret=read_secret(out_dir))
        return Settings.create(stored.bots, **{field.name: getattr(stored, field.name) for field in fields(Settings)
                                               if field.name != "bots"})  # checked as a new one is
    except ValueError as error:  # TournamentError included
        raise TournamentError(f"{meta}: {error}") from None


SECRET_FILE = "secret"
"""The file of ``DIR`` that holds a seedless tournament's secret (hex digits; only its owner may read it)."""


def read_secret(out_dir: Path) -> bytes:
    """The secret in ``out_dir/secret``; :class:`TournamentError` naming the file when it is missing or bad."""
    from mjarena.arena.draws import read_secret_file

    try:
        return read_secret_file(out_dir / SECRET_FILE, "this tournament's")
    except ValueError as error:
        raise TournamentError(str(error)) from None


def write_secret(out_dir: Path, secret: bytes) -> None:
    """Keep ``secret`` in ``out_dir/secret``, readable by its owner only."""
    from mjarena.arena.draws import write_secret_file

    write_secret_file(out_dir / SECRET_FILE, secret)

