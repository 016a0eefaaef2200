"""Collusion that the results show: which team's discards another team claims or wins on more than the field
explains (NOI 2014 rules: PENG, GANG and HU on a discard; winners leave).

The organiser's report of pairs of teams, from the recorded games (each game: the team in each seat and the
replay's events).  For each ordered pair "A feeds B" of teams that met at a table:

- ``games``: games the two played at one table;
- ``discards``: A's discards made while B was still playing (B's chances to take one of them);
- ``claims``: A's discards that B took with a PENG or a GANG;
- ``wins``: A's discards that B won on (A dealt in to B).

Each count is set against what the field predicts for that pair (``claims_expected``, ``wins_expected``):

1. A model with one factor per discarder and one per taker: the chance that a discard of A is taken by B is
   ``feed[A] * take[B]``; a team that claims often, or discards what others want, is rated so from all its
   games.  Fitted by iterative proportional fitting (the Poisson maximum likelihood fit of the log-linear model
   "discarder + taker" with the discards as exposure).
2. The pair itself is left out: A's factor is fitted again from A's discards to the *other* teams, B's from what
   B took from the *other* teams (one step of the fit, from the full fit), each with one event at the field's
   rate added (so that a team with no such event outside the pair is not predicted to have none).  The expected
   count is ``discards * feed'[A] * take'[B]``.
3. The p-value is the chance of at least the observed count under a Poisson count whose mean is uncertain as
   the two factors are (each rests on its events: a gamma with that many events as its shape): a negative
   binomial tail.  ``p`` near 0: the field does not explain the pair.
4. Many pairs are tested at once (two counts per ordered pair), so the p-values are adjusted by the procedure
   of Benjamini and Hochberg: a pair *stands out* when its ``q`` is at most the false discovery rate (5%); with
   no collusion at all, the chance that any pair stands out is then at most 5%.

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
from dataclasses import dataclass
from typing import Any

__all__ = [
    "FDR",
    "MEASURES",
    "CollusionError",
    "PairCounts",
    "TableGame",
    "adjust_bh",
    "collusion_report",
    "count_pairs",
    "game_from_replay",
    "negative_binomial_tail",
    "pairs_csv",
    "report_text",
]

FDR = 0.05
"""The false discovery rate at which a pair stands out."""
MEASURES = ("taken", "claims", "wins")
"""The counts of each ordered pair set against the field: A's discards that B took by any claim, by a PENG or a
GANG, by a HU."""
TESTED = ("taken",)
"""The counts whose p-values are adjusted together and can make a pair stand out."""
PRIOR_EVENTS = 1.0
"""Events at the field's rate added to each team's factor when the pair is left out."""
_CLAIMS = frozenset({"peng", "gang", "gang_on_peng"})
_LEAVES = frozenset({"hu", "hu_self", "false_hu"})


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
    """What happened between an ordered pair of teams "A feeds B" (see the module's docstring)."""

    games: int = 0
    discards: int = 0
    claims: int = 0
    wins: int = 0

    @property
    def taken(self) -> int:
        """A's discards that B took, by a PENG, a GANG or a HU."""
        return self.claims + self.wins


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
        for event in game.events:
            kind, seat = event.get("type"), _seat(event.get("seat"))
            if seat is None:
                continue
            if kind == "play":
                discarder = seat
                for other in range(4):
                    if other != seat and playing[other] and (seat, other) in cells:
                        cells[seat, other].discards += 1
                continue
            source = _seat(event.get("target"))
            if kind in _CLAIMS or kind == "hu":
                source = discarder if source is None else source
                if source is not None and (source, seat) in cells:
                    cell = cells[source, seat]
                    if kind == "hu":
                        cell.wins += 1
                    else:
                        cell.claims += 1
            if kind in _LEAVES:
                playing[seat] = False
    return counts


# -- the model ---------------------------------------------------------------------------------------------------


def _fit(cells: Mapping[tuple[str, str], tuple[int, int]], rounds: int = 500
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


def adjust_bh(p_values: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q-values): ``q_i <= rate`` exactly for the tests that the procedure
    rejects at false discovery rate ``rate``.

    >>> [round(q, 3) for q in adjust_bh([0.01, 0.04, 0.03, 0.5])]
    [0.04, 0.053, 0.053, 0.5]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, p_values[i] * m / rank)
        adjusted[i] = min(1.0, running)
    return adjusted


@dataclass(frozen=True)
class _Expected:
    mean: float | None  # None: nothing outside the pair to rate one of the two by
    shape: float


def _left_out(cells: Mapping[tuple[str, str], tuple[int, int]]) -> dict[tuple[str, str], _Expected]:
    """For each cell, the expected count with the cell itself left out (see the module's docstring, step 2)."""
    feed, take = _fit(cells)
    fed: dict[str, float] = {}
    took: dict[str, float] = {}
    feed_weight: dict[str, float] = {}
    take_weight: dict[str, float] = {}
    total = 0
    for (a, b), (n, x) in cells.items():
        fed[a] = fed.get(a, 0) + x
        took[b] = took.get(b, 0) + x
        feed_weight[a] = feed_weight.get(a, 0.0) + n * take[b]
        take_weight[b] = take_weight.get(b, 0.0) + n * feed[a]
        total += x
    # the factors of a team of the field's rate: what one event of the prior weighs
    field_feed = total / sum(feed_weight.values()) if total else 0.0
    field_take = total / sum(take_weight.values()) if total else 0.0
    expected = {}
    for (a, b), (n, x) in cells.items():
        row = feed_weight[a] - n * take[b]
        column = take_weight[b] - n * feed[a]
        if row <= 1e-12 or column <= 1e-12 or not total:
            expected[a, b] = _Expected(None, 0.0)
            continue
        row_events, column_events = fed[a] - x + PRIOR_EVENTS, took[b] - x + PRIOR_EVENTS
        feed_a = row_events / (row + PRIOR_EVENTS / field_feed) if field_feed else 0.0
        take_b = column_events / (column + PRIOR_EVENTS / field_take) if field_take else 0.0
        shape = 1.0 / (1.0 / row_events + 1.0 / column_events + 1.0 / (row_events * column_events))
        expected[a, b] = _Expected(n * feed_a * take_b, shape)
    return expected


def _dispersion(cells: Mapping[tuple[str, str], tuple[int, int]]) -> float | None:
    """Pearson's chi-square of the full fit over its degrees of freedom (None: no degree of freedom)."""
    feed, take = _fit(cells)
    used = [(n * feed[a] * take[b], x) for (a, b), (n, x) in cells.items() if n > 0]
    free = len(used) - len(feed) - len(take) + 1
    if free <= 0:
        return None
    return sum((x - mean) ** 2 / mean for mean, x in used if mean > 0) / free


def collusion_report(games: Iterable[TableGame], *, fdr: float = FDR) -> dict[str, Any]:
    """The report (JSON-ready): ``{"games", "teams", "fdr", "measures": {MEASURE: {"tests", "dispersion"}},
    "pairs": [...], "flagged": [...]}``.

    Each pair: ``from``, ``to``, ``games``, ``discards``; for each of :data:`MEASURES` its count, ``_expected``,
    ``_ratio`` (count over expected) and ``_p`` (null when nothing outside the pair rates one of the two); for
    each of :data:`TESTED` also ``_q`` (the adjusted p-value); ``flags``: the tested measures in which it stands
    out.  Pairs come sorted by their smallest q; ``flagged`` lists the pairs with a flag, as in ``pairs``."""
    games = list(games)
    counts = count_pairs(games)
    teams = sorted({name for pair in counts for name in pair})
    rows: dict[tuple[str, str], dict[str, Any]] = {
        pair: {"from": pair[0], "to": pair[1], "games": c.games, "discards": c.discards}
        for pair, c in sorted(counts.items())
    }
    tests: list[tuple[tuple[str, str], str, float]] = []
    measures: dict[str, Any] = {}
    for measure in MEASURES:
        cells = {pair: (c.discards, getattr(c, measure)) for pair, c in counts.items() if c.discards > 0}
        expected = _left_out(cells) if cells else {}
        tested = 0
        for pair, row in rows.items():
            count = getattr(counts[pair], measure)
            guess = expected.get(pair)
            row[measure] = count
            if guess is None or guess.mean is None:
                row.update({f"{measure}_expected": None, f"{measure}_ratio": None, f"{measure}_p": None})
                continue
            p = negative_binomial_tail(count, guess.mean, guess.shape)
            row.update({f"{measure}_expected": round(guess.mean, 3),
                        f"{measure}_ratio": round(count / guess.mean, 2) if guess.mean > 0 else None,
                        f"{measure}_p": float(f"{p:.3g}")})
            if measure in TESTED:
                tests.append((pair, measure, p))
                tested += 1
        dispersion = _dispersion(cells) if cells else None
        measures[measure] = {"tests": tested, "dispersion": None if dispersion is None else round(dispersion, 3)}
    for row in rows.values():
        row["flags"] = []
        for measure in TESTED:
            row[f"{measure}_q"] = None
    for (pair, measure, _), q in zip(tests, adjust_bh([p for _, _, p in tests]), strict=True):
        rows[pair][f"{measure}_q"] = float(f"{q:.3g}")
        if q <= fdr:
            rows[pair]["flags"].append(measure)

    def order(row: dict[str, Any]) -> tuple[float, float, str, str]:
        qs = [row[f"{m}_q"] for m in TESTED if row[f"{m}_q"] is not None]
        ratio = row[f"{TESTED[0]}_ratio"]
        return (min(qs) if qs else 2.0, -(ratio or 0.0), row["from"], row["to"])

    pairs = sorted(rows.values(), key=order)
    return {"games": len(games), "teams": teams, "fdr": fdr, "measures": measures, "pairs": pairs,
            "flagged": [row for row in pairs if row["flags"]]}


# -- as text ---------------------------------------------------------------------------------------------------

PAIR_COLUMNS = ("from", "to", "games", "discards",
                *(f"{m}{suffix}" for m in MEASURES for suffix in ("", "_expected", "_ratio", "_p")),
                *(f"{m}_q" for m in TESTED), "flags")
"""The columns of :func:`pairs_csv`."""


def pairs_csv(report: Mapping[str, Any]) -> str:
    """The report's pairs as CSV, one ordered pair a line (an empty cell for a missing value; ``flags`` joined
    by ``+``).

    >>> print(pairs_csv(collusion_report([])), end="")
    from,to,games,discards,taken,taken_expected,taken_ratio,taken_p,claims,claims_expected,claims_ratio,claims_p,wins,wins_expected,wins_ratio,wins_p,taken_q,flags
    """
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(PAIR_COLUMNS)
    for row in report["pairs"]:
        writer.writerow(["+".join(row[c]) if c == "flags" else "" if row[c] is None else row[c]
                         for c in PAIR_COLUMNS])
    return out.getvalue()


def report_text(report: Mapping[str, Any], *, shown: int = 10) -> str:
    """A few lines for a terminal: the pairs that stand out, else the ``shown`` pairs nearest to standing out.

    >>> print(report_text(collusion_report([])), end="")
    0 games, 0 teams, 0 ordered pairs; no pair stands out (false discovery rate 5%).
    """
    pairs = report["pairs"]
    flagged = report["flagged"]
    head = (f"{report['games']} games, {len(report['teams'])} teams, {len(pairs)} ordered pairs; "
            + (f"{len(flagged)} stand out" if flagged else "no pair stands out")
            + f" (false discovery rate {report['fdr']:.0%}).")
    lines = [head]
    listed = flagged or pairs[:shown]
    if listed:
        lines.append(("standing out" if flagged else "nearest to standing out")
                     + " (A -> B: B took A's discards; observed/expected):")
    for row in listed:
        parts = [f"{measure} {row[measure]}/{_number(row[f'{measure}_expected'])}" for measure in MEASURES]
        qs = " ".join(f"q={_number(row[f'{measure}_q'], '.2g')}" for measure in TESTED)
        mark = " *" if row["flags"] else ""
        lines.append(f"  {row['from']} -> {row['to']}: {row['games']} games, {row['discards']} discards; "
                     f"{', '.join(parts)}; {qs}{mark}")
    return "\n".join(lines) + "\n"


def _number(value: float | None, form: str = ".1f") -> str:
    return "-" if value is None else format(value, form)
