"""A contest's settings (:class:`Settings`: the window, the limits, the quotas, checked as a whole) and the disk
an upload and its build count against a team's quota (:func:`upload_room`, :func:`build_room`).

>>> Settings(duration=30).check().duration
30
>>> Settings(build_output_mib=0).check()
Traceback (most recent call last):
...
mjarena.contest.settings.ContestError: --build-output-mib 0: must be at least 1
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mjarena.limits import Limits

__all__ = ["BUILD_OVERHEAD", "MIB", "SOURCE_OVERHEAD", "ContestError", "Settings", "build_room", "upload_room"]


class ContestError(ValueError):
    """Bad contest parameters, or a folder that is not (or already is) a contest."""


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
    open_with: int = 1  # first-build: the first round waits until this many teams have a bot (0: every team)
    opening: str = "first-build"  # together | first-build (mjarena.contest.opening); create's default: together
    opening_deadline: float = 10.0  # together: minutes after the window opens when the first round opens anyway
    rank_by: str = "points"  # points (as the statement ranks) | points_per_game (for teams that join late)
    freeze: float = 0.0  # minutes before the end from which the public standings and race are frozen (0: never)
    name: str = ""  # the contest's name on its results (empty: its folder's name)
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
        if len(self.name) > 100 or any(not character.isprintable() for character in self.name):
            raise ContestError("--name: give at most 100 printable characters")
        from mjarena.contest.opening import OPENINGS

        if self.opening not in OPENINGS:
            raise ContestError(f"--opening {self.opening}: expected {' or '.join(OPENINGS)}")
        if self.opening == "together" and not 0 <= self.opening_deadline <= self.duration:
            raise ContestError(f"--opening-deadline {self.opening_deadline:g}: give minutes from 0 up to the "
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
