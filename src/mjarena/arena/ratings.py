"""OpenSkill ratings beside the points: a thin wrapper around ``openskill.models.PlackettLuce``.

Games are fed one at a time, in a fixed order (the tournament uses game-id order), so the same games always give
the same ratings.  Each player is a team of one; the ranks are the game's ranks (1 best), ties allowed.

>>> ratings = Ratings(["a", "b", "c", "d"])
>>> ratings.update({"a": 1, "b": 2, "c": 2, "d": 4})
>>> ratings.mu("a") > ratings.mu("b") == ratings.mu("c") > ratings.mu("d")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["Ratings"]


class Ratings:
    """One PlackettLuce rating (``mu``, ``sigma``) per player; ``ordinal`` (mu - 3 sigma) is the display rating."""

    def __init__(self, names: Iterable[str]) -> None:
        from openskill.models import PlackettLuce

        self._model = PlackettLuce()
        self._ratings: dict[str, Any] = {name: self._model.rating(name=name) for name in names}

    def update(self, ranks: Mapping[str, int | float]) -> None:
        """Rate one game: ``ranks`` maps each rated player of the game to its rank (lower is better).

        Fewer than two players: nothing to learn, the ratings stay as they are.
        """
        names = [name for name in ranks if name in self._ratings]
        if len(names) < 2:
            return
        teams = [[self._ratings[name]] for name in names]
        rated = self._model.rate(teams, ranks=[float(ranks[name]) for name in names])
        for name, team in zip(names, rated, strict=True):
            self._ratings[name] = team[0]

    def mu(self, name: str) -> float:
        """The rating's mean."""
        return float(self._ratings[name].mu)

    def sigma(self, name: str) -> float:
        """The rating's uncertainty."""
        return float(self._ratings[name].sigma)

    def ordinal(self, name: str) -> float:
        """The conservative display rating, ``mu - 3 * sigma`` (0 for a new player)."""
        return float(self._ratings[name].ordinal())
