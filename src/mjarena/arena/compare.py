"""Is bot A better than bot B?  Duplicate deals, intervals, likelihood of superiority and a sequential test.

A **duplicate set** is one wall played 14 times, once with each seating of A and B that has both at the table:
the 6 seatings of two A and two B (AABB, ABAB, ABBA, BAAB, BABA, BBAA), the 4 of one A and three B, and the 4 of
three A and one B.  Over a set, A and B sit each seat equally often (7 times), hold every hand of the deal
equally often, and face each mix of opponents; 14 games give A and B 28 seat-games each.

Per set, ``a`` and ``b`` are the mean points per seat-game of each bot, and ``d = a - b``: luck-adjusted points
(each seat's points less what its draws from the wall dealt it, :mod:`mjarena.arena.luck`: the same mean,
less variance) unless ``luck`` is off, and the points as scored beside them.  Sets are independent (one wall
each), so every figure comes from the per-set values:

- ``a.mean`` / ``b.mean``: mean points per game, with a 95% interval (normal, ``1.96 * sd / sqrt(sets)``);
- ``los``: likelihood of superiority, ``Phi(mean(d) / se(d))``, the probability that A is really the better;
- ``elo``: the Elo difference of A over B with a 95% interval, on the SPRT's model (:func:`elo_interval`): each
  set's difference as a score in [0, 1], the mean score and its interval read through the logistic curve;
- ``places``: how often A and B finished 1st, 2nd, 3rd and 4th, over all their seat-games (tied seats share a
  place, as the rule set ranks them);
- ``variance_reduction``: ``1 - var(d) / var_independent``.  ``var_independent`` is what ``var(d)`` would be if
  each of the 14 games of a set were dealt its own wall.  ``d`` is the sum over the 14 seatings of each game's
  share ``c_p = (A's points - B's points in the game) / 28``; with independent walls the shares would be
  independent, so ``var_independent = sum_p var(c_p)``, each variance taken over sets (over walls, as
  independent deals' would be).  Measured on the games played, not assumed;
- ``sprt``: with ``elo0, elo1`` (see :func:`sprt_llr`) the games stop as soon as the log-likelihood ratio leaves
  ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``, alpha = beta = 0.05, after at least
  :data:`SPRT_MIN_SETS` sets, and the hypothesis accepted is reported.  Sets are counted in order, whatever
  order workers finish them in, so the result does not depend
  on the executor or the number of workers.

This module owns the duplicate sets, the games' tasks, the per-set series and the comparison's result, and
runs the games; the Elo and SPRT arithmetic is :mod:`mjarena.arena.sprt`'s, the text, plot and progress line
:mod:`mjarena.arena.compare_report`'s.  The model is written out in ``docs/compare.md``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

from mjarena.arena.draws import Draws, as_draws
from mjarena.arena.sprt import elo_interval, set_score, sprt_bounds, sprt_llr, undecided_reason
from mjarena.sandbox import DEFAULT_SANDBOX, Sandbox

if TYPE_CHECKING:
    from mjarena.arena.compare_store import CompareStore
    from mjarena.arena.overload import Overload

__all__ = ["SEATINGS", "CompareResult", "CompareStopped", "CompareTask", "Series", "compare", "play_seating"]


def _seatings() -> tuple[str, ...]:
    patterns = []
    for count in (2, 1, 3):
        for seats in combinations(range(4), count):
            patterns.append("".join("A" if seat in seats else "B" for seat in range(4)))
    return tuple(patterns)


SEATINGS: tuple[str, ...] = _seatings()
"""The 14 seatings of a duplicate set, seat 0 first: two A and two B, then one A, then three A."""

SEAT_GAMES = 2 * len(SEATINGS)
"""Seat-games of each bot in a set: 28 (A and B hold 4 x 14 / 2 seats each)."""
POINT_RANGE = {"noi2014": 3.0, "baida": 4.0, "thupc2021": 1.0}
"""The largest difference in points between two seats of one game, per rule set (NOI: 4 - 1; else: the win)."""

SPRT_MIN_SETS = 16
"""Sets before the SPRT may decide: its variance comes from the sets so far, and from a handful of sets it can
be far too small (three even sets once accepted H0 after 42 games on a real edge)."""
PLACES = 4
"""Places at a table: 1st to 4th."""


@dataclass(frozen=True)
class CompareTask:
    """One game of a comparison (picklable: it runs in a worker)."""

    set_index: int
    seating: str
    wall_seed: int
    a: str
    b: str
    rules: str
    time_limit: float = 1.0
    memory_limit: int = 256
    sandbox: Sandbox = DEFAULT_SANDBOX
    keep: str | None = None
    """Whose replay comes back with the outcome (``"replay"``): ``"errors"`` (a game where a seat erred), ``"all"``,
    or None (none: ``compare --save`` keeps them, :mod:`mjarena.arena.compare_store`)."""

    def __str__(self) -> str:
        return f"{self.set_index:06d}-{self.seating}"


def play_seating(task: CompareTask) -> dict[str, Any]:
    """Play one game; ``{"a": A's mean points, "b": B's, "errors": {"A"|"B": count}, "reasons": {"A"|"B": {reason:
    count}}, "places": {"A"|"B": count of 1st, 2nd, 3rd, 4th places}, "luck": {"A": A's mean luck, "B": B's} or
    None}`` (:func:`~mjarena.arena.luck.seat_luck`; None with ``luck_error`` saying why), ``"load"`` (the answers'
    waits for a CPU, summed here: :meth:`~mjarena.arena.overload.Overload.figures`), and ``"replay"`` (the
    game's replay) when ``task.keep`` asks for it."""
    from mjarena.arena.luck import LuckError, seat_luck
    from mjarena.arena.match import run_match
    from mjarena.arena.overload import Overload
    from mjarena.limits import Limits

    specs = [task.a if letter == "A" else task.b for letter in task.seating]
    result = run_match(specs, rules=task.rules, seed=task.wall_seed,
                       limits=Limits(time=task.time_limit, memory_mib=task.memory_limit, sandbox=task.sandbox))
    try:
        luck: list[float] | None = seat_luck(task.rules, result.wall, result.events)
        why = None
    except (LuckError, KeyError) as error:
        luck, why = None, f"game {task}: {error}"
    seats = {letter: [seat for seat in result.seats if task.seating[seat.seat] == letter] for letter in "AB"}
    outcome: dict[str, Any] = {
        "a": statistics.fmean(seat.points for seat in seats["A"]),
        "b": statistics.fmean(seat.points for seat in seats["B"]),
        "errors": {letter: sum(seat.status == "error" for seat in group) for letter, group in seats.items()},
        "reasons": {letter: _reasons(group) for letter, group in seats.items()},
        "places": {letter: [sum(seat.rank == place for seat in group) for place in range(1, PLACES + 1)]
                   for letter, group in seats.items()},
        "luck": None if luck is None else {letter: statistics.fmean(luck[seat.seat] for seat in group)
                                           for letter, group in seats.items()},
        "load": list(Overload.of([result.transcripts], task.time_limit).figures()),
    }
    if why is not None:
        outcome["luck_error"] = why
    if task.keep == "all" or (task.keep == "errors" and any(seat.status == "error" for seat in result.seats)):
        replay = result.to_json()
        replay["compare"] = {"set": task.set_index, "seating": task.seating, "a": task.a, "b": task.b}
        outcome["replay"] = replay
    return outcome


def _reasons(seats: Sequence[Any]) -> dict[str, int]:
    """How many of ``seats`` erred, by reason (``timeout``, ``crash``, ``memory``, ``bad_output``, ...).

    >>> from types import SimpleNamespace as Seat
    >>> _reasons([Seat(status="error", reason="timeout"), Seat(status="won", reason=None)])
    {'timeout': 1}
    """
    counts: dict[str, int] = {}
    for seat in seats:
        if seat.status == "error":
            counts[seat.reason or "error"] = counts.get(seat.reason or "error", 0) + 1
    return counts


def _interval(values: Sequence[float]) -> list[float] | None:
    if len(values) < 2:
        return None
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return [round(mean - half, 4), round(mean + half, 4)]


@dataclass
class Series:
    """One way of counting the points, set by set: each set's mean points per seat-game of A and B, and each
    seating's share of the set's difference (``(A's points - B's points in that game) / 28``: the shares of a
    set add up to its difference, so their variances over sets add up to the variance that independent deals
    would give)."""

    sets_a: list[float] = field(default_factory=list)
    sets_b: list[float] = field(default_factory=list)
    by_seating: list[dict[str, float]] = field(default_factory=list)

    def add(self, points: dict[str, tuple[float, float]]) -> None:
        """Add one set: (A's mean points, B's mean points) of each seating's game.  The set's means are rounded
        to 1e-9, so that equal sums added in another order (a bot against itself) stay equal."""
        self.sets_a.append(round(sum(points[p][0] * p.count("A") for p in SEATINGS) / SEAT_GAMES, 9))
        self.sets_b.append(round(sum(points[p][1] * p.count("B") for p in SEATINGS) / SEAT_GAMES, 9))
        self.by_seating.append({p: (points[p][0] * p.count("A") - points[p][1] * p.count("B")) / SEAT_GAMES
                                for p in SEATINGS})

    def differences(self) -> list[float]:
        return [a - b for a, b in zip(self.sets_a, self.sets_b, strict=True)]

    def los(self) -> float | None:
        """Likelihood of superiority of A, ``Phi(mean(d) / se(d))`` (None before two sets)."""
        d = self.differences()
        if len(d) < 2:
            return None
        spread = statistics.stdev(d)
        mean = statistics.fmean(d)
        if spread == 0.0:
            return 0.5 if mean == 0.0 else float(mean > 0)
        return 0.5 * (1.0 + math.erf(mean / (spread / math.sqrt(len(d))) / math.sqrt(2.0)))

    def variance_reduction(self) -> float | None:
        """``1 - var(d) / var_independent`` (see the module docstring); None before two sets."""
        if len(self.by_seating) < 2:
            return None
        independent = sum(statistics.variance([row[p] for row in self.by_seating]) for p in SEATINGS)
        if independent == 0.0:
            return None
        return 1.0 - statistics.variance(self.differences()) / independent

    def summary(self, point_range: float) -> dict[str, Any]:
        """``a`` and ``b`` (``mean``, ``ci95``), ``difference``, ``elo`` (:func:`elo_interval`, with the rule
        set's ``point_range``), ``los`` and ``variance_reduction``."""
        d = self.differences()
        los = self.los()
        reduction = self.variance_reduction()
        return {"a": {"mean": _mean(self.sets_a), "ci95": _interval(self.sets_a)},
                "b": {"mean": _mean(self.sets_b), "ci95": _interval(self.sets_b)},
                "difference": {"mean": _mean(d), "ci95": _interval(d)},
                "elo": elo_interval(d, point_range),
                "los": None if los is None else round(los, 6),
                "variance_reduction": None if reduction is None else round(reduction, 4)}


MIN_SETS_FOR_LUCK = 4
"""Sets needed before the luck adjustment's coefficient is estimated (before: the points as scored)."""


def luck_coefficients(raw: Sequence[float], luck: Sequence[float]) -> list[float]:
    """For each set, the control variate's coefficient estimated from the *other* sets (leave one out): the
    slope through the origin of the difference as scored on the luck difference (luck has mean 0).  A set's
    coefficient does not depend on its own luck, whose mean is 0: so ``raw - coefficient * luck`` has exactly
    the mean of ``raw``, whatever the coefficients come out as.

    >>> [round(c, 3) for c in luck_coefficients([2.0, -1.0, 0.5], [2.0, -1.0, 1.0])]
    [0.75, 0.9, 1.0]
    """
    cross = sum(points * dealt for points, dealt in zip(raw, luck, strict=True))
    square = sum(dealt * dealt for dealt in luck)
    result = []
    for points, dealt in zip(raw, luck, strict=True):
        rest = square - dealt * dealt
        result.append((cross - points * dealt) / rest if rest > 1e-12 else 0.0)
    return result


def _controlled(raw: Series, luck_one: Series, coefficients: Sequence[float]) -> Series:
    """``raw - c * (raw - luck_one)`` set by set: the points less ``c`` times the luck (``luck_one`` is the
    points less the whole luck, the coefficient 1)."""
    def blend(x: float, y: float, c: float) -> float:
        return x - c * (x - y)

    return Series(
        [blend(x, y, c) for x, y, c in zip(raw.sets_a, luck_one.sets_a, coefficients, strict=True)],
        [blend(x, y, c) for x, y, c in zip(raw.sets_b, luck_one.sets_b, coefficients, strict=True)],
        [{p: blend(row[p], one[p], c) for p in SEATINGS}
         for row, one, c in zip(raw.by_seating, luck_one.by_seating, coefficients, strict=True)],
    )


@dataclass
class CompareResult:
    """The comparison so far, in set order: the points as scored (:attr:`raw`) and, when every game's luck is
    known (:mod:`mjarena.arena.luck`), luck-adjusted (:attr:`adjusted`).  The figures reported and tested come
    from the adjusted points when there are some and ``luck`` is on, else from the raw points."""

    a: str
    b: str
    rules: str
    sprt: tuple[float, float] | None = None
    luck: bool = True
    raw: Series = field(default_factory=Series)
    adjusted: Series | None = field(default_factory=Series)
    luck_missing: str | None = None
    """Why the points are not luck-adjusted, when they are not."""
    errors: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    reasons: dict[str, dict[str, int]] = field(default_factory=lambda: {"A": {}, "B": {}})
    """A's and B's errors by reason (``timeout``, ``crash``, ``memory``, ``bad_output``, ``illegal_action``, ...)."""
    erring_games: dict[str, int] = field(default_factory=dict)
    """Games counted where a seat erred, by reason (a game with two timeouts counts once under ``timeout``)."""
    stopped: str | None = None
    """The signal that stopped the run (``"SIGTERM"``, ...), None when it ran to its end."""
    played: int = 0
    """Games played, those of the sets not counted included (a stopped run's last, unfinished sets)."""
    places: dict[str, list[int]] = field(default_factory=lambda: {"A": [0] * PLACES, "B": [0] * PLACES})
    """How many seat-games A and B finished 1st, 2nd, 3rd and 4th (games that report their places)."""
    accepted: str | None = None
    llr_history: list[float] = field(default_factory=list)
    """The SPRT's LLR after each set, as the test saw it then (empty without ``sprt``): what ``--plot`` draws."""
    secret: str | None = None
    """The run's secret (hex) when its walls came from one (a run without ``--seed`` with a program bot):
    given once every game is played."""
    time_limit: float = 1.0
    loads: list[Any] = field(default_factory=list)
    """Each game counted: its answers' waits for a CPU (``load`` of :func:`play_seating`; :meth:`overload`)."""

    def __post_init__(self) -> None:
        if not self.luck:
            self.adjusted, self.luck_missing = None, "turned off (--raw)"

    def _luck_differences(self) -> tuple[list[float], list[float]] | None:
        """Each set's difference as scored and the luck in it (None without luck figures)."""
        if self.adjusted is None:
            return None
        raw = self.raw.differences()
        return raw, [r - a for r, a in zip(raw, self.adjusted.differences(), strict=True)]

    @property
    def controlled(self) -> Series | None:
        """The luck-adjusted points with the coefficient estimated from the run (:func:`luck_coefficients`);
        None without luck figures or before :data:`MIN_SETS_FOR_LUCK` sets."""
        found = self._luck_differences()
        if found is None or self.adjusted is None or len(found[0]) < MIN_SETS_FOR_LUCK:
            return None
        return _controlled(self.raw, self.adjusted, luck_coefficients(*found))

    @property
    def counted(self) -> Series:
        """The series the figures come from: the luck-adjusted points (:attr:`controlled`) when they have less
        variance than the points as scored, else the points as scored; both have the same mean, so the choice
        costs no bias."""
        controlled = self.controlled
        if controlled is None:
            return self.raw
        raw_variance = statistics.variance(self.raw.differences())
        return controlled if statistics.variance(controlled.differences()) < raw_variance else self.raw

    def luck_coefficient(self) -> float | None:
        """The coefficient on the luck, estimated from all the sets (None while it is not estimated)."""
        found = self._luck_differences()
        if found is None or len(found[0]) < MIN_SETS_FOR_LUCK:
            return None
        raw, luck = found
        square = sum(dealt * dealt for dealt in luck)
        return sum(r * dealt for r, dealt in zip(raw, luck, strict=True)) / square if square > 1e-12 else 0.0

    @property
    def games(self) -> int:
        return len(self.raw.sets_a) * len(SEATINGS)

    @property
    def sets_a(self) -> list[float]:
        return self.counted.sets_a

    @property
    def sets_b(self) -> list[float]:
        return self.counted.sets_b

    def differences(self) -> list[float]:
        return self.counted.differences()

    def los(self) -> float | None:
        return self.counted.los()

    def variance_reduction(self) -> float | None:
        return self.counted.variance_reduction()

    def luck_variance_removed(self) -> float | None:
        """``1 - var(controlled d) / var(raw d)``: the share of the variance the luck adjustment takes out
        (negative when it would add some: then the points as scored are the headline)."""
        controlled = self.controlled
        if controlled is None:
            return None
        raw = statistics.variance(self.raw.differences())
        return None if raw == 0.0 else 1.0 - statistics.variance(controlled.differences()) / raw

    @property
    def point_range(self) -> float:
        """The rule set's largest difference in points between two seats of one game (:data:`POINT_RANGE`)."""
        return POINT_RANGE.get(self.rules, 4.0)

    def llr(self) -> float | None:
        if self.sprt is None:
            return None
        scores = [set_score(d, self.point_range) for d in self.differences()]
        return sprt_llr(scores, *self.sprt)

    def add_set(self, games: dict[str, dict[str, Any]]) -> None:
        """Record one whole set (its 14 games by seating) and run the SPRT on the sets so far.  A game is
        ``{"a": A's mean points, "b": B's, "errors": {...}, "places": {...}, "luck": {"A": A's mean luck, "B":
        B's} or None}`` (:func:`play_seating`; a game without ``places`` adds none)."""
        self.raw.add({p: (games[p]["a"], games[p]["b"]) for p in SEATINGS})
        if self.adjusted is not None:
            missing = [p for p in SEATINGS if games[p].get("luck") is None]
            if missing:
                self.adjusted = None
                self.luck_missing = games[missing[0]].get("luck_error") or "no luck figure for these games"
            else:
                self.adjusted.add({p: (games[p]["a"] - games[p]["luck"]["A"], games[p]["b"] - games[p]["luck"]["B"])
                                   for p in SEATINGS})
        for game in games.values():
            self.loads.append(game.get("load"))
            for letter in ("A", "B"):
                self.errors[letter] += game["errors"][letter]
                for reason, count in game.get("reasons", {}).get(letter, {}).items():
                    self.reasons[letter][reason] = self.reasons[letter].get(reason, 0) + count
                for index, count in enumerate(game.get("places", {}).get(letter, ())):
                    self.places[letter][index] += count
            for reason in {reason for side in game.get("reasons", {}).values() for reason in side}:
                self.erring_games[reason] = self.erring_games.get(reason, 0) + 1
        llr = self.llr()
        if llr is not None:
            self.llr_history.append(llr)
        if llr is not None and self.accepted is None and len(self.raw.sets_a) >= SPRT_MIN_SETS:
            lower, upper = sprt_bounds()
            if llr <= lower:
                self.accepted = "H0"
            elif llr >= upper:
                self.accepted = "H1"

    def overload(self) -> Overload:
        """The run-queue delay of the counted games' answers (a game kept by ``--save`` from before these figures
        were, adds none)."""
        from mjarena.arena.overload import Overload

        return Overload.summed(self.loads, self.time_limit)

    def to_json(self) -> dict[str, Any]:
        """``games``, ``sets``, ``a`` / ``b`` (``bot``, ``mean``, ``ci95``, ``errors``, ``places``: 1st to 4th),
        ``difference``, ``elo`` (``mean``, ``ci95``), ``los``, ``variance_reduction``, ``sprt`` (None, or ``elo0``,
        ``elo1``, ``llr``, ``bounds``, ``accepted``),
        ``luck`` (``adjusted``: whether the headline is luck-adjusted, ``coefficient``, ``variance_removed``,
        ``missing``), ``overload`` (the answers' waits for a CPU: :meth:`Overload.to_json`) and,
        when the luck is known, ``raw`` (the same
        ``a``, ``b``, ``difference``, ``elo``, ``los``, ``variance_reduction`` on the points as scored)."""
        sprt = None
        if self.sprt is not None:
            llr = self.llr()
            sprt = {"elo0": self.sprt[0], "elo1": self.sprt[1], "llr": None if llr is None else round(llr, 4),
                    "bounds": [round(bound, 4) for bound in sprt_bounds()], "accepted": self.accepted,
                    "sets": len(self.raw.sets_a), "min_sets": SPRT_MIN_SETS,
                    "undecided": undecided_reason(llr, len(self.raw.sets_a), SPRT_MIN_SETS, self.accepted)}
        headline = self.counted
        counted = headline.summary(self.point_range)
        removed = self.luck_variance_removed()
        coefficient = self.luck_coefficient()
        adjusted = headline is not self.raw
        result = {
            "rules": self.rules,
            "games": self.games,
            "sets": len(self.raw.sets_a),
            "played": max(self.played, self.games),
            "stopped": self.stopped,
            "a": {"bot": self.a, **counted["a"], "errors": self.errors["A"],
                  "error_reasons": dict(sorted(self.reasons["A"].items())), "places": list(self.places["A"])},
            "b": {"bot": self.b, **counted["b"], "errors": self.errors["B"],
                  "error_reasons": dict(sorted(self.reasons["B"].items())), "places": list(self.places["B"])},
            "erring_games": dict(sorted(self.erring_games.items())),
            "difference": counted["difference"],
            "elo": counted["elo"],
            "los": counted["los"],
            "variance_reduction": counted["variance_reduction"],
            "sprt": sprt,
            "luck": {"adjusted": adjusted,
                     "coefficient": None if coefficient is None else round(coefficient, 4),
                     "variance_removed": None if removed is None else round(removed, 4),
                     "missing": self.luck_missing},
            "overload": self.overload().to_json(),
        }
        if self.adjusted is not None:  # luck figures known: the points as scored beside, whichever is the headline
            result["raw"] = self.raw.summary(self.point_range)
        if self.secret is not None:
            result["secret"] = self.secret
        return result


def _mean(values: Sequence[float]) -> float | None:
    return round(statistics.fmean(values), 4) if values else None


def compare(
    a: str,
    b: str,
    *,
    rules: str = "noi2014",
    games: int = 1400,
    sprt: tuple[float, float] | None = None,
    seed: int | Draws = 0,
    executor: Any = None,
    time_limit: float = 1.0,
    memory_limit: int = 256,
    sandbox: Sandbox = DEFAULT_SANDBOX,
    progress: Callable[[int, CompareResult], None] | None = None,
    luck: bool = True,
    store: CompareStore | None = None,
    keep: str | None = None,
) -> CompareResult:
    """Play A against B on duplicate sets until ``games`` games are played (rounded up to whole sets) or the
    SPRT decides.  ``executor``: a :mod:`mjarena.arena.executors` executor (None: in this process); ``luck``:
    the figures from luck-adjusted points (:mod:`mjarena.arena.luck`; the points as scored are reported too).
    ``seed``: a public seed (set ``i`` plays the wall ``derive_seed(seed, "compare", i)``) or :class:`Draws` of a
    secret, which the result gives once every game is played.

    ``store`` (:mod:`mjarena.arena.compare_store`, ``compare --save``): the games it holds are taken from it, not
    played again, and each game played is kept there, with its replay when ``keep`` asks (``"errors"``: the games
    where a seat erred, ``"all"``).  Stopped by a signal (a KeyboardInterrupt), it raises :class:`CompareStopped`
    with the result of the sets finished so far."""
    draws = as_draws(seed)
    result = CompareResult(a, b, rules, sprt, luck, time_limit=time_limit)
    sets = max(1, math.ceil(games / len(SEATINGS)))
    workers = getattr(executor, "workers", 1) or 1
    chunk = max(1, 2 * workers)  # sets in flight at once: the SPRT looks between chunks
    index = 0
    while index < sets and result.accepted is None:
        end = min(sets, index + chunk)
        if sprt is not None and index < SPRT_MIN_SETS < end:  # the test may stop at its minimum: no set beyond it
            end = SPRT_MIN_SETS
        batch = range(index, end)
        tasks = [CompareTask(i, seating, draws("compare", i), a, b, rules, time_limit, memory_limit,
                             sandbox, keep if store is not None else None) for i in batch for seating in SEATINGS]
        outcomes: dict[int, dict[str, dict[str, Any]]] = {i: {} for i in batch}
        todo = []
        for task in tasks:
            kept = store.outcome(str(task), task.wall_seed) if store is not None else None
            if kept is None:
                todo.append(task)
            else:
                outcomes[task.set_index][task.seating] = kept
        result.played += len(tasks) - len(todo)
        if progress is not None and len(todo) < len(tasks):
            progress(len(tasks) - len(todo), result)
        try:
            pairs = executor.run(play_seating, todo) if executor is not None else ((t, play_seating(t)) for t in todo)
            for task, outcome in pairs:
                replay = outcome.pop("replay", None)
                if store is not None:
                    store.add(str(task), task.wall_seed, outcome, replay)
                outcomes[task.set_index][task.seating] = outcome
                result.played += 1
                if progress is not None:
                    progress(1, result)
        except KeyboardInterrupt as error:  # stopped: the sets finished, in order, are the result so far
            _count_sets(result, outcomes, batch, whole_only=True)
            result.stopped = str(error) or "SIGINT"
            raise CompareStopped(result, getattr(error, "signum", None)) from error
        finally:
            if store is not None:
                store.sync()
        _count_sets(result, outcomes, batch)
        index = batch.stop
    if draws.key is not None:
        result.secret = draws.key.hex()
    return result


def _count_sets(result: CompareResult, outcomes: dict[int, dict[str, dict[str, Any]]], batch: range, *,
                whole_only: bool = False) -> None:
    """Add the sets of ``batch`` to ``result`` in set order (the same sets decide, whatever finished first) until
    the SPRT decides; ``whole_only``: up to the first set not finished (a stopped run)."""
    for i in batch:
        if result.accepted is not None or (whole_only and len(outcomes[i]) < len(SEATINGS)):
            return
        result.add_set(outcomes[i])


class CompareStopped(KeyboardInterrupt):
    """A comparison stopped by a signal: :attr:`result` holds the sets finished before it (``stopped`` set)."""

    def __init__(self, result: CompareResult, signum: int | None) -> None:
        super().__init__(result.stopped)
        self.result = result
        if signum is not None:
            self.signum = signum
