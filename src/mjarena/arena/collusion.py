"""Collusion that the results show: which team's discards another team claims or wins on more than the field
explains (NOI 2014 rules: PENG, GANG and HU on a discard; winners leave).

The organiser's report of pairs of teams, from the recorded games (each game: the team in each seat and the
replay's events).  For each ordered pair "A feeds B" of teams that met at a table:

- ``games``: games the two played at one table;
- ``discards``: A's discards made while B was still playing (B's chances to take one of them);
- ``claims``: A's discards that B took with a PENG or a GANG; ``wins``: those B won on (A dealt in to B);
  ``taken``: both.

and the same for each unordered pair "A and B both ways" (A's discards to B and B's to A added up).  Each count is
set against what the field predicts for the pair (``taken_expected``, ...):

1. A model with one factor per discarder and one per taker: the chance that a discard of A is taken by B is
   ``feed[A] * take[B]``; a team that claims often, or discards what others want, is rated so from all its
   games.  Fitted by iterative proportional fitting (the Poisson maximum likelihood fit of the log-linear model
   "discarder + taker").
2. Its exposure is not the raw number of discards: each discard weighs its stage's rate in the whole field over
   the mean rate (:func:`stage_of`: the players still in and how much of the wall was drawn), since discards
   late in a game are won on far more often than early ones (:func:`exposures`).
3. The pair itself is left out: A's factor is fitted again from A's discards to the *other* teams, B's from what
   B took from the *other* teams (one step of the fit, from the full fit), each team with one event at the
   field's rate added (so that a team with no such event outside the pair is not predicted to have none).  The
   expected count is ``exposure * feed'[A] * take'[B]``.
4. The p-value of ``taken`` is the chance of at least the observed count under a Poisson count whose mean is as
   uncertain as the two factors are (each rests on its events: a gamma with that many events as its shape, the
   product matched by one gamma): a negative binomial tail.  ``p`` near 0: the field does not explain the pair.
5. Many pairs are tested at once, so the p-values are adjusted by Holm's procedure: a pair *stands out* when its
   ``q`` is at most 5%; then the chance that any pair which does not collude stands out is at most 5%, whatever
   the other pairs do.  (Benjamini and Hochberg's false discovery rate was tried first: with one colluding pair
   in a field, it let an innocent pair stand out beside it in 2 of 5 simulated contests.)

A pair that stands out is a reason to read the pair's games, not a proof: two styles that suit each other (a bot
that keeps pairs of terminals beside one that throws terminals away first) show too.  ``dispersion`` (Pearson's
chi-square over its degrees of freedom) says how well the model fits the field: well above 1, the p-values are
too small.

>>> feeder, taker = {"type": "play", "seat": 0, "tiles": ["W1"]}, {"type": "peng", "seat": 1, "tiles": ["W1"]}
>>> game = TableGame(("a", "b", "c", "d"), (feeder, taker, {"type": "end"}))
>>> counts = count_pairs([game])
>>> counts[("a", "b")]
PairCounts(games=1, discards=1, claims=1, wins=0)
>>> counts[("b", "a")]
PairCounts(games=1, discards=0, claims=0, wins=0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ERROR_RATE",
    "MEASURES",
    "CollusionError",
    "PairCounts",
    "TableGame",
    "adjust_holm",
    "collusion_report",
    "count_pairs",
    "exposures",
    "game_from_replay",
    "merge_counts",
    "negative_binomial_tail",
    "pair_name",
    "pairs_csv",
    "report_of_counts",
    "report_text",
    "stage_of",
]

ERROR_RATE = 0.05
"""The family-wise error rate at which a pair stands out: the chance that any pair that does not collude stands
out is at most this."""
MEASURES = ("taken", "claims", "wins")
"""The counts of each pair set against the field: A's discards that B took by any claim, by a PENG or a GANG, by
a HU.  The first is tested."""
PRIOR_EVENTS = 1.0
"""Events at the field's rate added to each team's factor when the pair is left out."""
STAGE_DRAWS, STAGES = 10, 6
"""A stage of the game (see :func:`stage_of`) is ten draws; the sixth is the rest."""
STAGE_PRIOR = 50.0
"""Discards at the field's mean rate added to each stage's rate (a stage seen little keeps near the mean)."""
_CLAIMS = frozenset({"peng", "gang", "gang_on_peng"})
_LEAVES = frozenset({"hu", "hu_self", "false_hu"})


Cells = Mapping[tuple[str, str], tuple[float, int]]
"""``{(A, B): (exposure, count)}``: a table of the model (rows: discarders, columns: takers)."""


class CollusionError(ValueError):
    """A game record that cannot be read as a game (says which and why)."""


@dataclass(frozen=True)
class TableGame:
    """One game: the team in each seat (None: a house bot, not counted) and its events as the replay stores them
    (dicts with ``type``, ``seat`` and, for a HU or GANG on a discard, ``target``: the discarder)."""

    teams: tuple[str | None, ...]
    events: Sequence[Mapping[str, Any]]


@dataclass
class PairCounts:
    """What happened between an ordered pair of teams "A feeds B" (see the module's docstring); ``stages``: the
    discards and what B took of them, by the stage of the game they were made in (see :func:`stage_of`)."""

    games: int = 0
    discards: int = 0
    claims: int = 0
    wins: int = 0
    stages: dict[tuple[int, int], list[int]] = field(default_factory=dict, repr=False)

    @property
    def taken(self) -> int:
        """A's discards that B took, by a PENG, a GANG or a HU."""
        return self.claims + self.wins


def stage_of(players: int, draws: int) -> tuple[int, int]:
    """The stage of a discard: the players still in (2 to 4) and how far the wall has been drawn, ten draws a
    step (0 to 5, the last step holding the rest), as ``(players, draws // 10)``.  A discard late in the game,
    or with few players left, is won on more often (hands are nearer to winning); the report weighs each discard
    by its stage's rate in the field.

    >>> stage_of(4, 3), stage_of(2, 57)
    ((4, 0), (2, 5))
    """
    return players, min(draws // STAGE_DRAWS, STAGES - 1)


def game_from_replay(replay: Any, teams: Sequence[str | None], where: str = "the replay") -> TableGame:
    """The :class:`TableGame` of a replay (as :mod:`mjarena.replay` stores it) with these teams by seat;
    :class:`CollusionError` naming ``where`` when it has no list of events.

    >>> game_from_replay({"events": []}, ["a", "b", None, "c"]).teams
    ('a', 'b', None, 'c')
    >>> try:
    ...     game_from_replay({}, ["a"] * 4, "game 3")
    ... except CollusionError as error:
    ...     print(error)
    game 3: no list of events
    """
    events = replay.get("events") if isinstance(replay, Mapping) else None
    if not isinstance(events, list) or not all(isinstance(event, Mapping) for event in events):
        raise CollusionError(f"{where}: no list of events")
    if len(teams) != 4:
        raise CollusionError(f"{where}: {len(teams)} seats, not 4")
    return TableGame(tuple(teams), events)


def _seat(value: Any) -> int | None:
    return value if type(value) is int and 0 <= value < 4 else None


def count_pairs(games: Iterable[TableGame]) -> dict[tuple[str, str], PairCounts]:
    """The counts of every ordered pair of teams that met (see :class:`PairCounts`), from the games' events.

    A seat is "still playing" until it wins or leaves with a false HU; a claim's discarder is the seat of the
    discard just before it.  House bots (team None) and two seats of one team are no pair.
    """
    counts: dict[tuple[str, str], PairCounts] = {}
    for game in games:
        teams = game.teams
        pairs = {(a, b): (teams[a], teams[b]) for a in range(4) for b in range(4)
                 if a != b and teams[a] is not None and teams[b] is not None and teams[a] != teams[b]}
        cells = {seats: counts.setdefault(names, PairCounts()) for seats, names in pairs.items()}  # type: ignore[arg-type]
        for names in set(pairs.values()):
            counts[names].games += 1  # type: ignore[index]
        playing = [True] * 4
        discarder: int | None = None
        draws = 0
        stage = stage_of(4, 0)
        for event in game.events:
            kind, seat = event.get("type"), _seat(event.get("seat"))
            if kind in ("draw", "draw_back"):
                draws += 1
            if seat is None:
                continue
            if kind == "play":
                discarder, stage = seat, stage_of(sum(playing), draws)
                for other in range(4):
                    if other != seat and playing[other] and (seat, other) in cells:
                        cell = cells[seat, other]
                        cell.discards += 1
                        cell.stages.setdefault(stage, [0, 0, 0])[0] += 1
                continue
            source = _seat(event.get("target"))
            if kind in _CLAIMS or kind == "hu":
                source = discarder if source is None else source
                if source is not None and (source, seat) in cells:
                    cell = cells[source, seat]
                    counted = cell.stages.setdefault(stage, [0, 0, 0])
                    if kind == "hu":
                        cell.wins += 1
                        counted[2] += 1
                    else:
                        cell.claims += 1
                        counted[1] += 1
            if kind in _LEAVES:
                playing[seat] = False
    return counts


def exposures(counts: Mapping[tuple[str, str], PairCounts], measure: str) -> dict[tuple[str, str], float]:
    """Each pair's discards weighed by their stage's rate of ``measure`` in the whole field over the mean rate
    (:func:`stage_of`; each stage's rate with :data:`STAGE_PRIOR` discards at the mean rate added): a pair that
    often played on late, or alone with each other, had more chances than its number of discards says.  Over
    the field the exposures add up to the discards.

    >>> late = PairCounts(discards=10, wins=2, stages={(2, 5): [10, 0, 2]})
    >>> early = PairCounts(discards=10, stages={(4, 0): [10, 0, 0]})
    >>> {pair: round(value, 2) for pair, value in exposures({"ab": late, "cd": early}, "wins").items()}
    {'ab': 11.67, 'cd': 8.33}
    """
    column = {"taken": (1, 2), "claims": (1,), "wins": (2,)}[measure]
    seen: dict[tuple[int, int], list[float]] = {}
    for counts_of_pair in counts.values():
        for stage, values in counts_of_pair.stages.items():
            total = seen.setdefault(stage, [0.0, 0.0])
            total[0] += values[0]
            total[1] += sum(values[i] for i in column)
    discards = sum(total[0] for total in seen.values())
    events = sum(total[1] for total in seen.values())
    if not events:
        return {pair: float(c.discards) for pair, c in counts.items()}
    mean = events / discards
    weight = {stage: (x + STAGE_PRIOR * mean) / (n + STAGE_PRIOR) / mean for stage, (n, x) in seen.items()}
    return {pair: math.fsum(values[0] * weight[stage] for stage, values in c.stages.items())
            for pair, c in counts.items()}


# -- the model ---------------------------------------------------------------------------------------------------


def _fit(cells: Cells, rounds: int = 500
         ) -> tuple[dict[str, float], dict[str, float]]:
    """The factors ``feed``, ``take`` of the model ``E[x_AB] = n_AB * feed[A] * take[B]`` fitted to ``cells``
    ``{(A, B): (n_AB, x_AB)}`` by iterative proportional fitting (each factor scaled in turn so that its team's
    fitted total equals its observed total)."""
    feed = {a: 1.0 for a, _ in cells}
    take = {b: 1.0 for _, b in cells}
    fed = {a: 0 for a in feed}
    took = {b: 0 for b in take}
    for (a, b), (_, x) in cells.items():
        fed[a] += x
        took[b] += x
    for _ in range(rounds):
        weight = dict.fromkeys(feed, 0.0)
        for (a, b), (n, _) in cells.items():
            weight[a] += n * take[b]
        feed = {a: fed[a] / weight[a] if weight[a] > 0 else 0.0 for a in feed}
        weight = dict.fromkeys(take, 0.0)
        for (a, b), (n, _) in cells.items():
            weight[b] += n * feed[a]
        change = 0.0
        for b in take:
            new = took[b] / weight[b] if weight[b] > 0 else 0.0
            change = max(change, abs(new - take[b]) / max(new, take[b], 1e-300))
            take[b] = new
        if change < 1e-10:
            break
    return feed, take


def negative_binomial_tail(count: int, mean: float, shape: float) -> float:
    """P(X >= ``count``) for a count X of mean ``mean`` whose Poisson rate is gamma-distributed with shape
    ``shape`` (a negative binomial; ``shape`` infinite: a Poisson).

    >>> round(negative_binomial_tail(2, 1.0, math.inf), 6)  # Poisson(1): 1 - 2/e
    0.264241
    >>> round(negative_binomial_tail(3, 0.5, 1.0), 6)  # geometric: (0.5/1.5) ** 3
    0.037037
    >>> negative_binomial_tail(0, 2.0, 3.0), negative_binomial_tail(1, 0.0, 3.0)
    (1.0, 0.0)
    """
    if count <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    if math.isinf(shape):
        def log_pmf(k: int) -> float:
            return -mean + k * math.log(mean) - math.lgamma(k + 1)
    else:
        log_p, log_q = math.log(shape / (shape + mean)), math.log(mean / (shape + mean))

        def log_pmf(k: int) -> float:
            return math.lgamma(k + shape) - math.lgamma(shape) - math.lgamma(k + 1) + shape * log_p + k * log_q
    if count <= mean:
        return max(0.0, min(1.0, 1.0 - math.fsum(math.exp(log_pmf(k)) for k in range(count))))
    total, k = 0.0, count
    while True:  # the terms fall from the count on (it is above the mode), at least geometrically further out
        term = math.exp(log_pmf(k))
        total += term
        if term <= total * 1e-15 or k > count + 100_000:
            return min(1.0, total)
        k += 1


def adjust_holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values: the tests with ``q_i <= rate`` are those Holm's procedure rejects at
    family-wise error rate ``rate``; the chance that any true null hypothesis among them is rejected is at most
    ``rate``, whatever the dependence between the tests and whatever the other hypotheses.

    >>> [round(q, 3) for q in adjust_holm([0.01, 0.04, 0.03, 0.005])]
    [0.03, 0.06, 0.06, 0.02]
    """
    m = len(p_values)
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True)
class _Expected:
    mean: float | None  # None: nothing outside the pair to rate one of the two by
    shape: float


def _left_out(cells: Cells, feed: Mapping[str, float], take: Mapping[str, float]
              ) -> dict[tuple[str, str], _Expected]:
    """For each cell, the expected count with the cell itself left out (see the module's docstring, step 2).

    Each team's factors are first given one event at the field's rate (so that a team without events still
    weighs what it was exposed to); then, for a cell ``(A, B)``, A's factor is fitted again from A's discards
    to the other teams (against their factors as takers), B's from what B took from the other teams.  ``feed``
    and ``take``: the full fit (:func:`_fit`)."""
    total = sum(x for _, x in cells.values())
    if not total:
        return {pair: _Expected(None, 0.0) for pair in cells}
    fed: dict[str, int] = dict.fromkeys(feed, 0)
    took: dict[str, int] = dict.fromkeys(take, 0)
    feed_weight: dict[str, float] = dict.fromkeys(feed, 0.0)
    take_weight: dict[str, float] = dict.fromkeys(take, 0.0)
    for (a, b), (n, x) in cells.items():
        fed[a] += x
        took[b] += x
        feed_weight[a] += n * take[b]
        take_weight[b] += n * feed[a]

    def shrunk(events: Mapping[str, int], weight: Mapping[str, float]) -> dict[str, float]:
        field = total / sum(weight.values())  # the factor of a team at the field's rate
        return {name: (events[name] + PRIOR_EVENTS) / (weight[name] + PRIOR_EVENTS / field) for name in events}

    feed, take = shrunk(fed, feed_weight), shrunk(took, take_weight)  # from here on: the shrunk factors
    row_weight: dict[str, float] = dict.fromkeys(feed, 0.0)
    column_weight: dict[str, float] = dict.fromkeys(take, 0.0)
    for (a, b), (n, _) in cells.items():
        row_weight[a] += n * take[b]
        column_weight[b] += n * feed[a]
    feed_field = total / sum(row_weight.values())
    take_field = total / sum(column_weight.values())
    expected = {}
    for (a, b), (n, x) in cells.items():
        row = row_weight[a] - n * take[b]
        column = column_weight[b] - n * feed[a]
        if row <= 1e-9 * row_weight[a] or column <= 1e-9 * column_weight[b]:
            expected[a, b] = _Expected(None, 0.0)  # A's discards met no other taker, or B no other discarder
            continue
        row_events, column_events = fed[a] - x + PRIOR_EVENTS, took[b] - x + PRIOR_EVENTS
        feed_a = row_events / (row + PRIOR_EVENTS / feed_field)
        take_b = column_events / (column + PRIOR_EVENTS / take_field)
        shape = 1.0 / (1.0 / row_events + 1.0 / column_events + 1.0 / (row_events * column_events))
        expected[a, b] = _Expected(n * feed_a * take_b, shape)
    return expected


def _dispersion(cells: Cells, feed: Mapping[str, float], take: Mapping[str, float]) -> float | None:
    """Pearson's chi-square of the full fit over its degrees of freedom (None: no degree of freedom)."""
    used = [(n * feed[a] * take[b], x) for (a, b), (n, x) in cells.items() if n > 0]
    free = len(used) - len(feed) - len(take) + 1
    if free <= 0:
        return None
    return sum((x - mean) ** 2 / mean for mean, x in used if mean > 0) / free


def _moments(guesses: Sequence[_Expected]) -> tuple[float, float]:
    """``(mean, shape)``: the negative binomial of the sum of independent counts (matched in mean and variance)."""
    mean = sum(guess.mean or 0.0 for guess in guesses)
    spread = sum((guess.mean or 0.0) ** 2 / guess.shape for guess in guesses)
    return mean, mean * mean / spread if spread > 0 else math.inf


def collusion_report(games: Iterable[TableGame], *, error_rate: float = ERROR_RATE) -> dict[str, Any]:
    """The report (JSON-ready): ``{"games", "teams", "error_rate", "dispersion": {MEASURE: value}, "pairs": [...],
    "standing_out": [...]}``.

    ``pairs`` has a row for each ordered pair "A feeds B" that met (``both_ways`` false) and one for each
    unordered pair, A's discards to B and B's to A together (``both_ways`` true): ``from``, ``to``, ``games``,
    ``discards``, for each of :data:`MEASURES` its count, ``_expected`` and ``_ratio`` (count over expected; null
    when nothing outside the pair rates one of the two), then ``p`` and ``q`` (the p-value of ``taken`` and its
    Holm adjustment over every row) and ``stands_out`` (``q`` at most ``error_rate``).  Rows come sorted
    by ``q``, then by the ratio of ``taken``, highest first; ``standing_out`` repeats the rows that stand out."""
    games = list(games)
    return report_of_counts(count_pairs(games), len(games), error_rate=error_rate)


def merge_counts(parts: Iterable[Mapping[tuple[str, str], PairCounts]]) -> dict[tuple[str, str], PairCounts]:
    """The counts of several sets of games together, from each set's :func:`count_pairs` (in the games' order:
    the same counts, in the same order, as counting all the games at once).

    >>> one = count_pairs([TableGame(("a", "b", None, None), [{"type": "play", "seat": 0}])])
    >>> merge_counts([one, one])["a", "b"] == count_pairs([TableGame(("a", "b", None, None),
    ...                                                    [{"type": "play", "seat": 0}])] * 2)["a", "b"]
    True
    """
    merged: dict[tuple[str, str], PairCounts] = {}
    for part in parts:
        for pair, counted in part.items():
            into = merged.setdefault(pair, PairCounts())
            into.games += counted.games
            into.discards += counted.discards
            into.claims += counted.claims
            into.wins += counted.wins
            for stage, values in counted.stages.items():
                kept = into.stages.setdefault(stage, [0, 0, 0])
                for index, value in enumerate(values):
                    kept[index] += value
    return merged


def report_of_counts(counts: Mapping[tuple[str, str], PairCounts], games: int, *,
                     error_rate: float = ERROR_RATE) -> dict[str, Any]:
    """:func:`collusion_report` of ``games`` games whose pairs counted ``counts`` (:func:`count_pairs`, or
    :func:`merge_counts` of counts kept game by game)."""
    teams = sorted({name for pair in counts for name in pair})
    expected: dict[str, dict[tuple[str, str], _Expected]] = {}
    dispersion: dict[str, float | None] = {}
    for measure in MEASURES:
        exposure = exposures(counts, measure)
        cells = {pair: (exposure[pair], getattr(c, measure)) for pair, c in counts.items() if c.discards > 0}
        feed, take = _fit(cells)
        expected[measure] = _left_out(cells, feed, take) if cells else {}
        value = _dispersion(cells, feed, take) if cells else None
        dispersion[measure] = None if value is None else round(value, 3)
    rows: list[dict[str, Any]] = []
    tests: list[float] = []
    tested: list[dict[str, Any]] = []
    for first, second in sorted(counts):
        variants = [[(first, second)]]
        if first < second:
            variants.append([(first, second), (second, first)])
        for directions in variants:
            row: dict[str, Any] = {"from": first, "to": second, "both_ways": len(directions) == 2,
                                   "games": counts[first, second].games,
                                   "discards": sum(counts[pair].discards for pair in directions)}
            for measure in MEASURES:
                count = sum(getattr(counts[pair], measure) for pair in directions)
                guesses = [expected[measure].get(pair) for pair in directions]
                known = [guess for guess in guesses if guess is not None and guess.mean is not None]
                guess = _moments(known) if len(known) == len(guesses) else None  # (mean, shape)
                row[measure] = count
                row[f"{measure}_expected"] = round(guess[0], 3) if guess is not None else None
                row[f"{measure}_ratio"] = round(count / guess[0], 2) if guess is not None and guess[0] else None
                if measure == "taken":
                    row["p"] = None if guess is None else negative_binomial_tail(count, *guess)
            row["q"], row["stands_out"] = None, False
            if row["p"] is not None:
                tests.append(row["p"])
                tested.append(row)
            rows.append(row)
    for row, q in zip(tested, adjust_holm(tests), strict=True):
        row["p"], row["q"], row["stands_out"] = float(f"{row['p']:.3g}"), float(f"{q:.3g}"), q <= error_rate
    rows.sort(key=lambda row: (2.0 if row["q"] is None else row["q"], -(row["taken_ratio"] or 0.0),
                               row["both_ways"], row["from"], row["to"]))
    return {"games": games, "teams": teams, "error_rate": error_rate, "dispersion": dispersion, "pairs": rows,
            "standing_out": [row for row in rows if row["stands_out"]]}


# -- as text ---------------------------------------------------------------------------------------------------

PAIR_COLUMNS = ("from", "to", "both_ways", "games", "discards",
                *(f"{m}{suffix}" for m in MEASURES for suffix in ("", "_expected", "_ratio")), "p", "q",
                "stands_out")
"""The columns of :func:`pairs_csv`."""


def pairs_csv(report: Mapping[str, Any]) -> str:
    """The report's rows as CSV (an empty cell for a missing value; a team's name that a spreadsheet would read
    as a formula after a quote, :func:`mjarena.spreadsheet.safe_cell`).

    >>> print(pairs_csv(collusion_report([])), end="")
    from,to,both_ways,games,discards,taken,taken_expected,taken_ratio,claims,claims_expected,claims_ratio,wins,wins_expected,wins_ratio,p,q,stands_out
    """
    from mjarena.spreadsheet import csv_text

    return csv_text(PAIR_COLUMNS, ([row[column] for column in PAIR_COLUMNS] for row in report["pairs"]))


def pair_name(row: Mapping[str, Any], arrow: str = "->", both: str = "<->") -> str:
    """``A -> B`` (A's discards that B took), or ``A <-> B`` (both ways).

    >>> pair_name({"from": "a", "to": "b", "both_ways": True})
    'a <-> b'
    """
    return f"{row['from']} {both if row['both_ways'] else arrow} {row['to']}"


def report_text(report: Mapping[str, Any], *, shown: int = 10) -> str:
    """A few lines for a terminal: the pairs that stand out, else the ``shown`` pairs nearest to standing out.

    >>> print(report_text(collusion_report([])), end="")
    0 games, 0 teams; no pair stands out (at 5%: Holm's family-wise error rate).
    """
    standing = report["standing_out"]
    head = (f"{report['games']} games, {len(report['teams'])} teams; "
            + (f"{len(standing)} pair{'s' if len(standing) != 1 else ''} stand{'' if len(standing) != 1 else 's'} out"
               if standing else "no pair stands out")
            + f" (at {report['error_rate']:.0%}: Holm's family-wise error rate).")
    lines = [head]
    listed = standing or report["pairs"][:shown]
    if listed:
        lines.append(("standing out" if standing else "nearest to standing out")
                     + " (A -> B: A's discards that B took; observed/expected):")
    for row in listed:
        parts = [f"{measure} {row[measure]}/{_number(row[f'{measure}_expected'])}" for measure in MEASURES]
        lines.append(f"  {pair_name(row)}: {row['games']} games, {row['discards']} discards; {', '.join(parts)}; "
                     f"p={_number(row['p'], '.2g')} q={_number(row['q'], '.2g')}{' *' if row['stands_out'] else ''}")
    return "\n".join(lines) + "\n"


def _number(value: float | None, form: str = ".1f") -> str:
    return "-" if value is None else format(value, form)
