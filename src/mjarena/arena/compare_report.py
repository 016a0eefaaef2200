"""A comparison shown: ``mjarena compare``'s lines of text, its ``--plot`` SVG and its progress line.

The figures come from :class:`mjarena.arena.compare.CompareResult` (and its ``to_json``); this module only
words and draws them.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from mjarena.arena.compare import MIN_SETS_FOR_LUCK, SEATINGS, SPRT_MIN_SETS, CompareResult
from mjarena.arena.sprt import sprt_bounds

__all__ = ["format_result", "plot_svg", "progress_lines", "running_means"]

MIN_SETS_REASON = f"the test may stop from set {SPRT_MIN_SETS}:\nfewer sets measure its variance too small"
"""What the plot says at :data:`SPRT_MIN_SETS`: why an LLR past a bound before it does not stop the test."""


def format_result(result: dict[str, Any]) -> str:
    """The comparison as a few lines of text."""
    def side(key: str) -> str:
        entry = result[key]
        interval = entry["ci95"]
        shown = f"[{interval[0]:.3f}, {interval[1]:.3f}]" if interval else "(more sets needed)"
        errs = f", {_errors_text(entry['errors'], entry.get('error_reasons'))}" if entry["errors"] else ""
        mean = "no set finished" if entry["mean"] is None else f"{entry['mean']:.3f} points per game, 95% {shown}"
        return f"  {key.upper()} {entry['bot']}: {mean}{errs}"

    luck = result.get("luck") or {}
    counted = "luck-adjusted points" if luck.get("adjusted") else "points as scored"
    # (the adjusted points are the headline only where they have less variance: both have the same mean)
    lines = [f"{result['rules']}: {result['games']} games ({result['sets']} duplicate sets of {len(SEATINGS)}), "
             f"{counted}", side("a"), side("b")]
    if result.get("stopped"):
        lines.insert(0, f"stopped by {result['stopped']} after {result.get('played', result['games'])} games: the "
                        f"figures are those of the {result['sets']} whole sets played")
    timeouts = _timeouts_text(result)
    if timeouts:
        lines.append(f"  {timeouts}")
    overloaded = _overload_text(result)
    if overloaded:
        lines.append(f"  {overloaded}")
    if result.get("elo", {}).get("mean") is not None:
        lines.append(f"  Elo difference of A over B: {_elo_text(result['elo'])}")
    if "places" in result["a"]:
        seat_games = sum(result["a"]["places"])
        lines.append("  places 1st/2nd/3rd/4th: " + ", ".join(
            f"{key.upper()} {'/'.join(str(count) for count in result[key]['places'])}" for key in ("a", "b"))
            + f" (of {seat_games} seat-games each; tied seats share a place)")
    if result["los"] is not None:
        lines.append(f"  likelihood that A is better: {result['los']:.4f}")
    if result["variance_reduction"] is not None:
        lines.append(f"  {_pairing_text(result['variance_reduction'])}")
    removed = luck.get("variance_removed")
    if luck.get("adjusted"):
        raw = result["raw"]
        lines.append(f"  the luck adjustment (coefficient {luck['coefficient']:.2f}) removed "
                     f"{100 * luck['variance_removed']:.1f}% "
                     f"of the variance; as scored: A {raw['a']['mean']:.3f}, B {raw['b']['mean']:.3f}" +
                     ("" if raw["los"] is None else f", likelihood {raw['los']:.4f}"))
    elif luck.get("missing"):
        lines.append(f"  no luck adjustment: {luck['missing']}")
    elif removed is not None:
        effect = f"it would add {100 * -removed:.1f}% to the variance" if -removed >= 0.0005 else \
            "it would not lower the variance"
        lines.append(f"  no luck adjustment: {effect} on these bots, so the points as scored are shown")
    elif result["sets"] < MIN_SETS_FOR_LUCK:
        lines.append(f"  no luck adjustment yet: it needs {MIN_SETS_FOR_LUCK} sets")
    sprt = result["sprt"]
    if sprt is not None:
        lines.append(f"  SPRT elo0={sprt['elo0']:g} elo1={sprt['elo1']:g}: {_sprt_state(sprt, result['sets'])}")
    if result.get("secret"):
        lines.append(f"  the walls' secret (no --seed, a program bot played): {result['secret']}")
    return "\n".join(lines)


def _errors_text(count: int, reasons: dict[str, int] | None) -> str:
    """A side's errors, by reason when known.

    >>> _errors_text(28, {"crash": 8, "timeout": 20}), _errors_text(2, None)
    ('28 errors (timeout 20, crash 8)', '2 errors')
    """
    noun = "error" if count == 1 else "errors"
    if not reasons:
        return f"{count} {noun}"
    shown = ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items(), key=lambda item: (-item[1], item[0])))
    return f"{count} {noun} ({shown})"


def _overload_text(result: dict[str, Any]) -> str | None:
    """The line ``match`` says when the judge's machine was overloaded (:mod:`mjarena.arena.overload`), from the
    result's ``overload`` figures; None when no answer was slowed (or the result has none).

    >>> _overload_text({"overload": {"answers": 9, "waited_s": 0.5, "most_s": 0.45, "slowed": 1,
    ...                              "slowed_over_s": 0.1}})[:84]
    "the judge's machine was overloaded: the bots waited 0.500 s for a CPU over 9 answers"
    """
    from mjarena.arena.overload import SHARE, Overload

    load = result.get("overload")
    if not isinstance(load, dict):
        return None
    try:
        figures = (load["answers"], load["waited_s"], load["most_s"], load["slowed"])
        return Overload.summed([figures], load["slowed_over_s"] / SHARE).line()
    except (KeyError, TypeError, ZeroDivisionError):
        return None


def _timeouts_text(result: dict[str, Any]) -> str | None:
    """One line when any game had a timeout: how many games, and each side's timeouts (a busy machine can cause
    them: docs/compare.md says how to tell).

    >>> _timeouts_text({"erring_games": {"timeout": 3}, "a": {"error_reasons": {"timeout": 4}},
    ...                 "b": {"error_reasons": {}}})
    'timeouts in 3 games: A 4, B 0 (a machine busier than its cores also makes bots time out: see docs/compare.md)'
    """
    games = (result.get("erring_games") or {}).get("timeout")
    if not games:
        return None
    sides = ", ".join(f"{key.upper()} {(result[key].get('error_reasons') or {}).get('timeout', 0)}" for key in "ab")
    return (f"timeouts in {games} game{'s' if games != 1 else ''}: {sides} (a machine busier than its cores also "
            "makes bots time out: see docs/compare.md)")


def _elo_text(elo: dict[str, Any]) -> str:
    """An Elo difference as chess testers print it: the estimate, ± half its 95% interval, and the interval.

    >>> _elo_text({"mean": 23.2, "ci95": [10.4, 36.1]})
    '+23.2 ± 12.9 (95% interval +10.4 to +36.1)'
    >>> _elo_text({"mean": -3.0, "ci95": None}), _elo_text({"mean": 250.0, "ci95": [120.5, None]})
    ('-3.0 (more sets needed for an interval)', '+250.0 (95% interval +120.5 to no upper bound)')
    """
    mean, interval = elo["mean"], elo["ci95"]
    if interval is None:
        return f"{mean:+.1f} (more sets needed for an interval)"
    low, high = interval
    if low is None or high is None:
        shown_low = "no lower bound" if low is None else f"{low:+.1f}"
        shown_high = "no upper bound" if high is None else f"{high:+.1f}"
        return f"{mean:+.1f} (95% interval {shown_low} to {shown_high})"
    return f"{mean:+.1f} ± {(high - low) / 2:.1f} (95% interval {low:+.1f} to {high:+.1f})"


def _pairing_text(reduction: float) -> str:
    """What the duplicate sets did to the variance of the per-set difference, in words (a negative reduction is a
    measurement, not a fault: docs/compare.md).

    >>> _pairing_text(0.25)
    'duplicate sets: the per-set difference varies 25.0% less than with a new wall for every game'
    >>> _pairing_text(-0.548).split(" (")[0]
    'duplicate sets: the per-set difference varies 54.8% more than with a new wall for every game'
    """
    if abs(reduction) < 0.0005:
        return "duplicate sets: the per-set difference varies as much as with a new wall for every game"
    if reduction > 0:
        return (f"duplicate sets: the per-set difference varies {100 * reduction:.1f}% less than with a new wall for "
                "every game")
    return (f"duplicate sets: the per-set difference varies {100 * -reduction:.1f}% more than with a new wall for "
            "every game (usual when the bots' games soon diverge; every interval here is measured over sets, so it "
            "stays honest)")


def _sprt_state(sprt: dict[str, Any], sets: int) -> str:
    """The SPRT's state in words: decided, or why not yet (the LLR, the bounds, the sets played against the
    minimum it may stop at).

    >>> _sprt_state({"llr": -23.02, "bounds": [-2.94, 2.94], "accepted": None}, 10)
    'LLR -23.02, below the lower bound -2.94, but undecided: the test may stop from set 16, and 10 sets were played'
    >>> _sprt_state({"llr": 0.5, "bounds": [-2.94, 2.94], "accepted": None}, 20)
    'LLR 0.5 between the bounds -2.94 and 2.94 after 20 sets (minimum 16): undecided, more sets needed'
    >>> _sprt_state({"llr": 3.1, "bounds": [-2.94, 2.94], "accepted": "H1"}, 20)
    'LLR 3.1 at or above the upper bound 2.94 at set 20 (minimum 16): accepted H1'
    """
    llr, (lower, upper) = sprt["llr"], sprt["bounds"]
    least = sprt.get("min_sets", SPRT_MIN_SETS)
    if llr <= lower:
        where = f"LLR {llr}, below the lower bound {lower}" if sprt["accepted"] is None else \
            f"LLR {llr} at or below the lower bound {lower}"
    elif llr >= upper:
        where = f"LLR {llr}, above the upper bound {upper}" if sprt["accepted"] is None else \
            f"LLR {llr} at or above the upper bound {upper}"
    else:
        return (f"LLR {llr} between the bounds {lower} and {upper} after {sets} sets (minimum {least}): undecided, "
                "more sets needed")
    if sprt["accepted"] is not None:
        return f"{where} at set {sets} (minimum {least}): accepted {sprt['accepted']}"
    return f"{where}, but undecided: the test may stop from set {least}, and {sets} sets were played"


def running_means(values: Sequence[float]) -> list[tuple[float, float | None, float | None]]:
    """After each value: the mean so far and its 95% interval (``1.96 * sd / sqrt(n)``; None before two).

    >>> [(m, lo is None) for m, lo, hi in running_means([1.0, 3.0])]
    [(1.0, True), (2.0, False)]
    >>> [round(bound, 3) for bound in running_means([1.0, 3.0])[1][1:]]
    [0.04, 3.96]
    """
    out: list[tuple[float, float | None, float | None]] = []
    for count in range(1, len(values) + 1):
        head = values[:count]
        mean = statistics.fmean(head)
        if count < 2:
            out.append((mean, None, None))
        else:
            half = 1.96 * statistics.stdev(head) / math.sqrt(count)
            out.append((mean, mean - half, mean + half))
    return out


def plot_svg(result: CompareResult) -> str:
    """``compare --plot``: one standalone SVG with, when the SPRT ran, its LLR after each set between its two bounds
    (and the least number of sets before it may stop, with the reason), and the per-set A-minus-B differences (the
    figures' points: luck-adjusted or as scored) with their running mean and its 95% interval.

    >>> result = CompareResult("A", "B", "thupc2021", sprt=(0.0, 20.0))
    >>> for edge in (0.2, 0.1, 0.3):
    ...     result.add_set({p: {"a": 0.5 + edge, "b": 0.5, "errors": {"A": 0, "B": 0}} for p in SEATINGS})
    >>> svg = plot_svg(result)
    >>> svg.count('chart-panel"'), svg.count('class="chart-hline"'), svg.count('class="chart-vline"')
    (2, 3, 1)
    """
    from mjarena.charts import Series as Line
    from mjarena.charts import line_chart, stack

    panels = []
    if result.sprt is not None:
        lower, upper = sprt_bounds()
        llr = [(index + 1.0, value) for index, value in enumerate(result.llr_history)]
        marks = [(llr[-1][0], llr[-1][1], f"accepted {result.accepted}")] if result.accepted and llr else []
        title = f"SPRT (elo0 {result.sprt[0]:g}, elo1 {result.sprt[1]:g}): log-likelihood ratio"
        panels.append(line_chart(
            [Line("LLR", llr, marks=marks)], title=title,
            x_label="duplicate sets", y_label="log-likelihood ratio", chart_id="compare-sprt",
            hlines=[(upper, f"accept H1 ({upper:.2f})"), (lower, f"accept H0 ({lower:.2f})")],
            vlines=[(float(SPRT_MIN_SETS), MIN_SETS_REASON)]))
    d = result.differences()
    means = running_means(d)
    counted = "luck-adjusted" if result.counted is not result.raw else "as scored"
    lines = [Line("A − B per set", [(index + 1.0, value) for index, value in enumerate(d)]),
             Line("running mean, 95% interval", [(index + 1.0, mean) for index, (mean, _, _) in enumerate(means)],
                  band=[(index + 1.0, low, high) for index, (_, low, high) in enumerate(means)
                        if low is not None and high is not None])]
    panels.append(line_chart(lines, title=f"A − B, points per game, per set ({counted})", x_label="duplicate sets",
                             y_label="A − B points per game", hlines=[(0.0, "even")],
                             points_only={"A − B per set"}, chart_id="compare-differences"))
    return stack(panels, title=f"mjarena compare: A {result.a} against B {result.b} ({result.rules}, "
                                f"{result.games} games)")


def progress_lines(total: int) -> Callable[[int, CompareResult], None]:
    """A progress callback on stderr (:func:`mjarena.progress.progress_bar`: a live bar on a terminal, a line
    every few percent on a pipe or file), with the likelihood of superiority so far."""
    from mjarena.progress import progress_bar

    bar = progress_bar(total, desc="games")

    def update(step: int, result: CompareResult) -> None:
        los = result.los()
        if los is not None:
            bar.set_postfix_str(f"LOS {los:.3f}")
        bar.update(step)

    return update
