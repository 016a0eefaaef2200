"""Elo and the sequential probability ratio test: the arithmetic :mod:`mjarena.arena.compare` reports with.

A set's A-minus-B difference in points per game becomes a score in [0, 1] (:func:`set_score`); a mean score is
an Elo difference through the logistic curve (:func:`elo_score`, :func:`score_elo`), with its 95% interval
(:func:`elo_interval`); the generalised SPRT weighs the scores between two Elo hypotheses (:func:`sprt_llr`)
against the bounds of its error rates (:func:`sprt_bounds`).  The model is written out in ``docs/compare.md``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

__all__ = ["ALPHA", "BETA", "elo_interval", "elo_score", "score_elo", "set_score", "sprt_bounds", "sprt_llr",
           "undecided_reason"]

ALPHA = BETA = 0.05


def elo_score(elo: float) -> float:
    """The expected score in [0, 1] of an Elo difference (logistic, 400 points a factor of 10).

    >>> elo_score(0.0), round(elo_score(400.0), 4)
    (0.5, 0.9091)
    """
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_elo(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (the inverse of :func:`elo_score`); -inf at 0, +inf
    at 1.

    >>> score_elo(0.5), round(score_elo(elo_score(120.0)), 6), score_elo(1.0)
    (0.0, 120.0, inf)
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def elo_interval(differences: Sequence[float], point_range: float) -> dict[str, Any]:
    """The Elo difference of A over B from the per-set differences, on the SPRT's model: each set's difference as a
    score (:func:`set_score`), the Elo whose expected score is their mean, and the 95% interval of the mean score
    (``1.96 * sd / sqrt(sets)``) read through the same curve.  ``{"mean": e, "ci95": [low, high] | None}``; a
    bound beyond every score (a mean score so near 0 or 1 that its interval leaves [0, 1]) is None.

    >>> elo_interval([0.0, 0.0], 3.0)
    {'mean': 0.0, 'ci95': [0.0, 0.0]}
    >>> elo = elo_interval([0.3, 0.1, 0.2], 3.0)  # scores 0.55, 0.5167, 0.5333: mean 0.5333, sd 0.0167
    >>> elo["mean"], elo["ci95"]
    (23.2, [10.1, 36.4])
    """
    scores = [set_score(d, point_range) for d in differences]
    if not scores:
        return {"mean": None, "ci95": None}

    def rounded(score: float) -> float | None:
        elo = score_elo(score)
        return round(elo, 1) if math.isfinite(elo) else None

    mean = statistics.fmean(scores)
    if len(scores) < 2:
        return {"mean": rounded(mean), "ci95": None}
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))
    return {"mean": rounded(mean), "ci95": [rounded(mean - half), rounded(mean + half)]}


def set_score(difference: float, point_range: float) -> float:
    """A set's A-minus-B difference in points per game mapped onto [0, 1] (0.5: even).

    >>> set_score(0.0, 3.0), set_score(3.0, 3.0), set_score(-1.5, 3.0)
    (0.5, 1.0, 0.25)
    """
    return 0.5 + difference / (2.0 * point_range)


def sprt_llr(scores: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalised SPRT's log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``) given set scores.

    Normal approximation (as chess testing frameworks use for game pairs): with ``s0, s1`` the expected scores
    of ``elo0, elo1`` and ``m, v`` the mean and variance of the scores, ``LLR = n (s1 - s0)(2m - s0 - s1) / 2v``.

    >>> round(sprt_llr([0.6, 0.7, 0.5, 0.65], 0.0, 50.0), 2)  # s0 0.5, s1 0.571, mean 0.6125, variance 0.00729
    3.01
    """
    count = len(scores)
    if count < 2:
        return 0.0
    variance = statistics.variance(scores)
    if variance <= 0.0:
        variance = 1e-6  # every set the same: the data still speaks, with a tiny spread
    s0, s1 = elo_score(elo0), elo_score(elo1)
    return count * (s1 - s0) * (2.0 * statistics.fmean(scores) - s0 - s1) / (2.0 * variance)


def sprt_bounds(alpha: float = ALPHA, beta: float = BETA) -> tuple[float, float]:
    """(lower, upper) bounds of the LLR: below, accept H0; above, accept H1.

    >>> [round(bound, 3) for bound in sprt_bounds()]
    [-2.944, 2.944]
    """
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def undecided_reason(llr: float | None, sets: int, min_sets: int, accepted: str | None) -> str | None:
    """Why the test has not decided (None once it has): its LLR is between the bounds, or past one before the
    ``min_sets`` from which it may stop (it stops at the first set from ``min_sets`` on whose LLR is past a bound).

    >>> undecided_reason(3.5, 10, 16, None), undecided_reason(0.2, 20, 16, None), undecided_reason(3.5, 16, 16, "H1")
    ('below the minimum of sets', 'between the bounds', None)
    """
    if accepted is not None:
        return None
    lower, upper = sprt_bounds()
    if llr is not None and (llr <= lower or llr >= upper) and sets < min_sets:
        return "below the minimum of sets"
    return "between the bounds"
