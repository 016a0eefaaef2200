"""How many games and compiles the contest runs at once: never more than the cores it may use, unless told to.

A game has one thinking bot at a time (the others are frozen between their turns), and a compile keeps a core
busy: so games and compiles together are held to the cores the judge may use (its CPU affinity).  Compiles get
``build_workers`` of them, at most half (at least one); games the rest (at least one).  Asking for more games
(``contest serve --workers N``) is allowed, and said: the bots then wait for a CPU, time that the judge does not
charge them (their own time: docs/protocol.md, *Time*), but the contest runs no faster.

>>> plan(None, build_workers=2, cores=16)
CorePlan(games=14, compiles=2, cores=16, note=None)
>>> plan(None, build_workers=2, cores=2)
CorePlan(games=1, compiles=1, cores=2, note=None)
>>> plan(4, build_workers=2, cores=2).note.split(":")[0]
'4 games and 1 compile at once on 2 cores'
"""

from __future__ import annotations

from typing import NamedTuple

from mjarena.arena.executor_types import usable_cores

__all__ = ["CorePlan", "plan", "usable_cores"]


class CorePlan(NamedTuple):
    """Games and compiles at once on ``cores``; ``note`` says when they are more than the cores (None: not)."""

    games: int
    compiles: int
    cores: int
    note: str | None


def plan(workers: int | None, *, build_workers: int, cores: int | None = None) -> CorePlan:
    """The games (``workers`` when given) and compiles to run at once on ``cores`` (:func:`usable_cores`)."""
    cores = usable_cores() if cores is None else max(1, cores)
    compiles = max(1, min(build_workers, cores // 2))
    default = max(1, cores - compiles)
    games = default if workers is None else workers
    note = None
    if games + compiles > cores:
        what = "compile" if compiles == 1 else "compiles"
        note = (f"{games} games and {compiles} {what} at once on {cores} cores: more than the cores, so bots and "
                f"compiles will wait for a CPU (not charged to the bots, but slower); the default runs {default} "
                f"game{'' if default == 1 else 's'} at once")
    return CorePlan(games, compiles, cores, note)
