"""The limits a program bot answers under (:class:`Limits`), and their check (:func:`check_limits`).

A module of its own below both the arena, which plays matches under these limits, and the agents, which start
program bots with them (imports point down: neither needs the other for this).

Two time limits hold together: each answer's (``time``, the statement's 1000 ms a step) and the seat's thinking
budget for the whole game (``game_budget``; by default :data:`GAME_BUDGET_LIMITS` times the answer's limit, 30 s
at 1 s).  The deadline of an answer is the smaller of the answer's limit and what is left of the budget, so that
no seat can hold a game for its ~65 answers times the limit.  The default comes from measured play
(``benchmarks/game_budget.py``, docs/contest.md): the costliest example bot, Java in restart mode, thinks about
8 s in a game; the others less than 4 s.

>>> Limits().time, Limits().memory_mib, Limits().sandbox.kind, Limits().budget
(1.0, 256, 'bwrap', 30.0)
>>> Limits(time=2.0).budget, Limits(time=2.0, game_budget=5.0).budget
(60.0, 5.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from mjarena.sandbox.config import DEFAULT_SANDBOX, Sandbox

__all__ = ["DEFAULT_LIMITS", "GAME_BUDGET_LIMITS", "MAX_GAME_BUDGET", "MAX_MEMORY_MIB", "MAX_TIME_LIMIT", "Limits",
           "check_budget", "check_limits", "default_budget"]

GAME_BUDGET_LIMITS = 30
"""A seat's default thinking budget for one game, in per-answer limits (30 s at the statement's 1000 ms)."""


def default_budget(time_limit: float) -> float:
    """The thinking budget per game and seat when none is given: :data:`GAME_BUDGET_LIMITS` answers' limits.

    >>> default_budget(1.0), default_budget(0.5), default_budget(0.1)
    (30.0, 15.0, 3.0)
    """
    return round(GAME_BUDGET_LIMITS * time_limit, 6)


@dataclass(frozen=True)
class Limits:
    """Per-answer limits for program bots, and the box they run in (bwrap unless told otherwise).

    Source-file bots are built with the toolchain table laid over by the file ``toolchains`` (None: the
    packaged one); ``language_limits`` applies each language's time factor and memory from that table (the
    factor multiplies the game budget too).  ``game_budget`` is a seat's thinking time for a whole game, in
    seconds (None: :func:`default_budget` of ``time``); :attr:`budget` is the one in force.
    """

    time: float = 1.0
    memory_mib: int = 256
    output_bytes: int = 1 << 20
    sandbox: Sandbox = DEFAULT_SANDBOX
    toolchains: str | None = None
    language_limits: bool = False
    game_budget: float | None = None

    @property
    def budget(self) -> float:
        """The thinking budget per game and seat in force, in seconds."""
        return default_budget(self.time) if self.game_budget is None else self.game_budget


#: The limits of a match, a tournament or a comparison unless told otherwise.
DEFAULT_LIMITS = Limits()

MAX_TIME_LIMIT = 86_400.0
"""The longest time limit per answer, in seconds (a day)."""
MAX_MEMORY_MIB = 1 << 20
"""The largest memory limit, in MiB (1 TiB)."""
MAX_GAME_BUDGET = 100 * MAX_TIME_LIMIT
"""The longest thinking budget per game, in seconds (100 days: no game needs more)."""


def check_limits(time_limit: float, memory_mib: int) -> None:
    """:class:`ValueError` naming the option unless the limits per answer can be used: seconds more than 0 and at
    most :data:`MAX_TIME_LIMIT` (not NaN, not infinite), whole MiB from 1 to :data:`MAX_MEMORY_MIB`.

    >>> check_limits(1.0, 256)
    >>> check_limits(float("nan"), 256)
    Traceback (most recent call last):
    ...
    ValueError: --time-limit nan: must be positive and at most 86400 seconds
    """
    if not 0 < time_limit <= MAX_TIME_LIMIT:  # NaN fails every comparison
        try:
            shown = f"{time_limit:g}"
        except (OverflowError, ValueError):  # an int beyond any float
            shown = "(a huge number)"
        raise ValueError(f"--time-limit {shown}: must be positive and at most {MAX_TIME_LIMIT:g} seconds")
    if type(memory_mib) is not int or not 0 < memory_mib <= MAX_MEMORY_MIB:
        raise ValueError(f"--memory-limit {memory_mib}: must be positive and at most {MAX_MEMORY_MIB} MiB")


def check_budget(game_budget: float | None) -> None:
    """:class:`ValueError` naming the option unless ``game_budget`` (seconds of thinking per game and seat) is None
    or more than 0 and finite.

    >>> check_budget(None), check_budget(30.0)
    (None, None)
    >>> check_budget(0)
    Traceback (most recent call last):
    ...
    ValueError: --game-budget 0: must be positive and at most 8640000 seconds
    """
    if game_budget is None:
        return
    if not 0 < game_budget <= MAX_GAME_BUDGET:  # NaN fails every comparison
        try:
            shown = f"{game_budget:g}"
        except (OverflowError, ValueError):
            shown = "(a huge number)"
        raise ValueError(f"--game-budget {shown}: must be positive and at most {MAX_GAME_BUDGET:.0f} seconds")
