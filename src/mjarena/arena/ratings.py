"""OpenSkill ratings beside the points: ``openskill.models.PlackettLuce`` with its defaults, each player a team of
one, computed here with the same floating-point operations in the same order, so that every ``mu`` and ``sigma``
is the very number ``PlackettLuce().rate`` gives (``tests/test_tournament.py`` checks them against it, game by
game), at a tenth of its cost: ``rate`` deep-copies its teams and checks its arguments on every game, which made
the rating the largest part of the judge's own work per game.

Games are fed one at a time, in a fixed order (the tournament uses game-id order), so the same games always give
the same ratings.  The ranks are the game's ranks (1 best), ties allowed.

>>> ratings = Ratings(["a", "b", "c", "d"])
>>> ratings.update({"a": 1, "b": 2, "c": 2, "d": 4})
>>> ratings.mu("a") > ratings.mu("b") == ratings.mu("c") > ratings.mu("d")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from math import exp, sqrt

__all__ = ["Ratings"]

MU = 25.0
"""A new player's mean (PlackettLuce's default)."""
SIGMA = 25.0 / 3.0
"""A new player's uncertainty."""
_BETA_SQUARED = (25.0 / 6.0) ** 2
_TAU_SQUARED = (25.0 / 300.0) * (25.0 / 300.0)
_KAPPA = 0.0001


class Ratings:
    """One PlackettLuce rating (``mu``, ``sigma``) per player; ``ordinal`` (mu - 3 sigma) is the display rating."""

    def __init__(self, names: Iterable[str]) -> None:
        self._mu: dict[str, float] = {}
        self._sigma: dict[str, float] = {}
        for name in names:
            self._mu[name] = MU
            self._sigma[name] = SIGMA

    def update(self, ranks: Mapping[str, int | float]) -> None:
        """Rate one game: ``ranks`` maps each rated player of the game to its rank (lower is better).

        Fewer than two players: nothing to learn, the ratings stay as they are.
        """
        means, sigmas = self._mu, self._sigma
        # PlackettLuce.rate: the teams sorted by rank (a stable sort: ties in the order given), each sigma widened
        # by tau, then Algorithm 4
        players = sorted([name for name in ranks if name in means], key=ranks.__getitem__)
        if len(players) < 2:
            return
        widened = [sqrt(sigmas[name] * sigmas[name] + _TAU_SQUARED) for name in players]
        new_mu, new_sigma = _compute([means[name] for name in players], widened, [int(ranks[name]) for name in players])
        for name, mu, sigma in zip(players, new_mu, new_sigma, strict=True):
            means[name] = mu
            sigmas[name] = sigma

    def mu(self, name: str) -> float:
        """The rating's mean."""
        return self._mu[name]

    def sigma(self, name: str) -> float:
        """The rating's uncertainty."""
        return self._sigma[name]

    def ordinal(self, name: str) -> float:
        """The conservative display rating, ``mu - 3 * sigma`` (0 for a new player), as openskill writes it."""
        return 1 * ((self._mu[name] - 3.0 * self._sigma[name]) + (0 / 1))


def _compute(mus: list[float], sigmas: list[float], rank: list[int]) -> tuple[list[float], list[float]]:
    """``PlackettLuce._compute`` for teams of one player of weight 1, sorted by rank: the new means and sigmas,
    the same operations in the same order.  A team's ``sigma_squared`` is ``0.0 + (sigma * 1.0) ** 2`` there,
    ``sigma * sigma`` to the last bit (both correctly rounded), and ``x * 1.0`` is ``x``; the terms of a team
    ranked above another are computed there but add nothing; the averaging of tied teams' changes that follows
    adds 0.0 to every mean (it compares each player with itself); a division by a tie's size of 1 is the number
    itself; and the ratio of a player's sigma squared to its team's is exactly 1 (the same number twice): none of
    these change a number, so they are left out here.

    >>> _compute([25.0, 25.0], [8.0, 8.0], [1, 2]) == _compute([25.0, 25.0], [8.0, 8.0], [1, 2])
    True
    """
    squared = [sigma * sigma for sigma in sigmas]
    collective = 0.0
    for value in squared:
        collective += value + _BETA_SQUARED
    c = sqrt(collective)
    c_squared = c**2
    exps = [exp(mu / c) for mu in mus]
    if len(set(rank)) == len(rank):  # no tie (most games): each team alone at its rank
        return _untied(mus, sigmas, squared, exps, c, c_squared)
    first = [rank.index(mine) for mine in rank]  # sorted: the teams of one rank are side by side
    ties = [rank.count(mine) for mine in rank]
    below: dict[int, float] = {}  # the sum over the teams ranked at or below a rank's first team, in order
    for start in first:
        if start not in below:
            total = exps[start]
            for value in exps[start + 1:]:
                total += value
            below[start] = total
    sum_q = [below[start] for start in first]
    new_mu, new_sigma = [], []
    for i, mine in enumerate(exps):
        omega = 0.0
        delta = 0.0
        for q in range(first[i] + ties[i]):
            share = mine / sum_q[q]
            tied = ties[q]
            delta += share * (1 - share) / tied
            if q == i:
                omega += (1 - share) / tied
            else:
                omega -= share / tied
        team_squared = squared[i]
        omega *= team_squared / c
        delta *= team_squared / c_squared
        delta *= sqrt(team_squared) / c
        new_mu.append(mus[i] + omega)
        new_sigma.append(sigmas[i] * sqrt(max(1 - delta, _KAPPA)))
    return new_mu, new_sigma


def _untied(mus: list[float], sigmas: list[float], squared: list[float], exps: list[float], c: float,
            c_squared: float) -> tuple[list[float], list[float]]:
    """:func:`_compute`'s loop when no two teams tie: team ``i`` sums over the teams from the first to itself."""
    sum_q = []
    for start in range(len(exps)):
        total = exps[start]
        for value in exps[start + 1:]:
            total += value
        sum_q.append(total)
    new_mu, new_sigma = [], []
    for i, mine in enumerate(exps):
        omega = 0.0
        delta = 0.0
        for total in sum_q[:i]:
            share = mine / total
            delta += share * (1 - share)
            omega -= share
        share = mine / sum_q[i]
        delta += share * (1 - share)
        omega += 1 - share
        team_squared = squared[i]
        omega *= team_squared / c
        delta *= team_squared / c_squared
        delta *= sqrt(team_squared) / c
        new_mu.append(mus[i] + omega)
        new_sigma.append(sigmas[i] * sqrt(max(1 - delta, _KAPPA)))
    return new_mu, new_sigma
