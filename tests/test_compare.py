"""mjarena compare: duplicate sets, the statistics, the sequential test, executors and the command line."""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mjarena.arena.compare import (
    SEAT_GAMES,
    SEATINGS,
    SPRT_MIN_SETS,
    CompareResult,
    compare,
)
from mjarena.arena.executors import LocalExecutor
from mjarena.arena.sprt import set_score, sprt_bounds, sprt_llr
from mjarena.cli import main
from mjarena.sandbox import Sandbox

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "bots"


def test_a_duplicate_set_seats_a_and_b_alike() -> None:
    assert len(SEATINGS) == len(set(SEATINGS)) == 14
    assert all({"A", "B"} <= set(seating) for seating in SEATINGS)
    for seat in range(4):
        assert sum(seating[seat] == "A" for seating in SEATINGS) == 7
    assert sum(seating.count("A") for seating in SEATINGS) == sum(seating.count("B") for seating in SEATINGS)
    assert SEAT_GAMES == 28


def test_a_bot_against_itself_differs_by_nothing_in_every_set() -> None:
    """The same deterministic bot as A and B: each set's difference is exactly 0, so duplicate pairing removes
    all the variance that independent deals would have."""
    result = compare("builtin:greedy", "builtin:greedy", rules="noi2014", games=28, seed=1)
    assert result.games == 28 and result.differences() == result.raw.differences() == [0.0, 0.0]
    summary = result.to_json()
    assert summary["raw"]["a"]["mean"] == summary["raw"]["b"]["mean"] == 2.5  # NOI: 10 points a game, 4 seats
    assert summary["a"]["mean"] == summary["b"]["mean"]  # luck-adjusted: the same luck on both sides
    assert summary["los"] == 0.5
    assert summary["variance_reduction"] == 1.0


def _game(a: float, b: float) -> dict[str, object]:
    return {"a": a, "b": b, "errors": {"A": 0, "B": 0}}


def test_the_statistics_follow_their_definitions() -> None:
    """Hand-made sets: the means per seat-game, LOS from the per-set differences, and the variance reduction
    as 1 - var(d) / sum over seatings of the variance of each game's share."""
    result = CompareResult("x", "y", "baida")
    sets = []
    for index in range(5):
        games = {p: _game(4.0 * ((index + i) % 3 == 0), 4.0 * ((index + i) % 4 == 0) / 3) for i, p in
                 enumerate(SEATINGS)}
        result.add_set(games)
        sets.append(games)
    for games, a, b in zip(sets, result.sets_a, result.sets_b, strict=True):
        assert a == pytest.approx(sum(g["a"] * p.count("A") for p, g in games.items()) / 28)
        assert b == pytest.approx(sum(g["b"] * p.count("B") for p, g in games.items()) / 28)
    d = [a - b for a, b in zip(result.sets_a, result.sets_b, strict=True)]
    se = statistics.stdev(d) / math.sqrt(len(d))
    assert result.los() == pytest.approx(0.5 * (1 + math.erf(statistics.fmean(d) / se / math.sqrt(2))))
    shares = {p: [(g[p]["a"] * p.count("A") - g[p]["b"] * p.count("B")) / 28 for g in sets] for p in SEATINGS}
    independent = sum(statistics.variance(values) for values in shares.values())
    assert result.variance_reduction() == pytest.approx(1 - statistics.variance(d) / independent)
    low, high = result.to_json()["a"]["ci95"]
    half = 1.96 * statistics.stdev(result.sets_a) / math.sqrt(5)
    assert (low, high) == (pytest.approx(statistics.fmean(result.sets_a) - half, abs=1e-4),
                           pytest.approx(statistics.fmean(result.sets_a) + half, abs=1e-4))


def test_the_sequential_test_accepts_each_hypothesis_when_the_data_says_so() -> None:
    lower, upper = sprt_bounds()
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == -lower
    even = [0.5 + 0.05 * (-1) ** i for i in range(200)]  # no difference: H0 (elo 0) against H1 (elo 30)
    assert sprt_llr(even, 0.0, 30.0) < lower
    ahead = [0.6 + 0.05 * (-1) ** i for i in range(200)]
    assert sprt_llr(ahead, 0.0, 30.0) > upper
    assert set_score(0.0, 4.0) == 0.5 and set_score(-4.0, 4.0) == 0.0


def test_the_sequential_test_waits_for_enough_sets_to_trust_their_variance() -> None:
    """Three nearly even sets have a tiny variance, so the LLR is already far below the lower bound; deciding
    there (as it once did, on a real edge) would be trusting a variance measured on three values."""
    result = CompareResult("A", "B", "baida", sprt=(0.0, 20.0))
    for index in range(SPRT_MIN_SETS):
        edge = 0.001 * (-1) ** index
        result.add_set({p: {"a": 2.0 + edge, "b": 2.0 - edge, "errors": {"A": 0, "B": 0}} for p in SEATINGS})
        llr = result.llr()
        assert llr is not None
        if index + 1 < SPRT_MIN_SETS:
            assert result.accepted is None and (index < 1 or llr < sprt_bounds()[0])
    assert result.accepted == "H0"


class _ManyWorkers:
    """An executor in this process that says it has 12 workers: 24 sets a batch, more than the SPRT's minimum."""

    workers = 12

    def run(self, fn, tasks):  # type: ignore[no-untyped-def]
        return ((task, fn(task)) for task in tasks)


def test_sprt_stops_as_soon_as_it_decides() -> None:
    """builtin:strong against builtin:random is no contest: H1 is accepted long before the games run out.  With
    more sets in flight than the minimum (many workers), the first batch ends at the minimum: no game past it is
    played before the test has looked."""
    result = compare("builtin:strong", "builtin:random", rules="thupc2021", games=14 * 40, sprt=(0.0, 20.0), seed=3,
                     executor=_ManyWorkers())
    summary = result.to_json()
    assert summary["sprt"]["accepted"] == "H1" and summary["sprt"]["llr"] >= sprt_bounds()[1]
    assert summary["games"] < 14 * 40
    assert summary["a"]["mean"] > summary["b"]["mean"]
    lower, upper = sprt_bounds()
    first = next(count for count, llr in enumerate(result.llr_history, 1)
                 if count >= SPRT_MIN_SETS and not lower < llr < upper)
    assert summary["sets"] == first, "it stops at the first set from the minimum on whose LLR is past a bound"
    assert (summary["sprt"]["sets"], summary["sprt"]["min_sets"], summary["sprt"]["undecided"]) == (
        first, SPRT_MIN_SETS, None)
    assert first > SPRT_MIN_SETS or summary["played"] == summary["games"], "no set past the minimum was played"


def test_an_undecided_sprt_says_why_in_the_json_and_the_text() -> None:
    """The LLR is past the upper bound after a few sets of a lopsided match, but the games run out before the
    minimum of sets: the report says so, with the LLR, the bounds and the sets played against the minimum."""
    from mjarena.arena.compare_report import format_result

    summary = compare("builtin:strong", "builtin:random", rules="thupc2021", games=14 * 3, sprt=(0.0, 20.0),
                      seed=3).to_json()
    sprt = summary["sprt"]
    assert sprt["accepted"] is None and sprt["llr"] >= sprt["bounds"][1]
    assert (sprt["sets"], sprt["min_sets"], sprt["undecided"]) == (3, SPRT_MIN_SETS, "below the minimum of sets")
    line = format_result(summary).splitlines()[-1]
    assert f"above the upper bound {sprt['bounds'][1]}, but undecided" in line
    assert f"may stop from set {SPRT_MIN_SETS}, and 3 sets were played" in line
    even = CompareResult("A", "B", "noi2014", sprt=(0.0, 20.0))
    for index in range(SPRT_MIN_SETS + 2):
        even.add_set({p: _game(2.5 + 0.3 * (-1) ** (index // 2), 2.5) for p in SEATINGS})
    assert even.accepted is None and even.to_json()["sprt"]["undecided"] == "between the bounds"


def test_a_process_pool_gives_the_same_result_as_one_process() -> None:
    executor = LocalExecutor(2)
    try:
        pooled = compare("builtin:strong", "builtin:greedy", rules="baida", games=28, seed=4, executor=executor)
    finally:
        executor.close()
    alone = compare("builtin:strong", "builtin:greedy", rules="baida", games=28, seed=4)
    assert pooled.to_json() == alone.to_json()


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["compare", "builtin:strong", "builtin:greedy", "--rules", "thupc2021", "--games", "20",
                 "--workers", "1", "--sprt", "0,10", "--json", "--quiet", "--sandbox", "none"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 28  # rounded up to whole sets
    assert {"games", "a", "b", "los", "variance_reduction", "sprt"} <= set(summary)
    assert set(summary["a"]) >= {"mean", "ci95"} and len(summary["b"]["ci95"]) == 2
    assert summary["sprt"]["accepted"] in (None, "H0", "H1") and isinstance(summary["sprt"]["llr"], float)


@pytest.mark.parametrize(("args", "message"), [
    (["builtin:strong", "builtin:nope"], "bot B: unknown built-in bot 'nope'"),
    (["builtin:strong", "builtin:greedy", "--sprt", "10"], "--sprt '10': expected two numbers"),
    (["builtin:strong", "builtin:greedy", "--sprt", "10,0"], "ELO0 must be less than ELO1"),
    (["builtin:strong", "builtin:greedy", "--games", "0"], "--games must be at least 1"),
    (["builtin:strong", "builtin:greedy", "--rules", "riichi"], "--rules"),
])
def test_bad_arguments_get_one_line(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", *args, "--sandbox", "none"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_any_bot_spec_plays_python_agents_and_programs() -> None:
    """A python: agent that is the greedy player differs from builtin:greedy by nothing; a program bot (a command
    line speaking the Botzone protocol, kept running) plays a whole set without an error."""
    same = compare("python:mjarena.agents.builtin:GreedyAgent", "builtin:greedy", games=14, seed=2)
    assert same.differences() == [0.0]
    program = f"{sys.executable} {EXAMPLES / 'keep_running_bot.py'}"
    result = compare(program, "builtin:greedy", games=14, seed=2, sandbox=Sandbox(kind="none")).to_json()
    assert result["games"] == 14 and result["a"]["errors"] == 0 and result["b"]["errors"] == 0


# -- compare --plot (issue 26) ------------------------------------------------------------------------------


def _svg_lines(svg: str) -> dict[str, list[tuple[float, float]]]:
    """Each drawn series of a plot: its name -> its points (from the data the chart carries)."""
    root = ET.fromstring(svg)
    lines = {}
    for group in root.iter("{http://www.w3.org/2000/svg}g"):
        if "chart-series" in group.get("class", "").split():
            path = next(e for e in group if e.get("class") == "chart-line")
            points = path.get("data-points").split()
            lines[group.get("data-series")] = [(float(x), float(y)) for x, y in (p.split(",") for p in points)]
    return lines


def test_plot_draws_the_llr_between_its_bounds_and_the_per_set_differences(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "plot.svg"
    assert main(["compare", "builtin:greedy", "builtin:random", "--games", "42", "--workers", "1", "--sprt", "0,10",
                 "--json", "--quiet", "--sandbox", "none", "--plot", str(plot)]) == 0
    summary = json.loads(capsys.readouterr().out)
    alone = compare("builtin:greedy", "builtin:random", games=42, sprt=(0.0, 10.0))
    assert summary == json.loads(json.dumps(alone.to_json())), "the output is the same with --plot"
    svg = plot.read_text(encoding="utf-8")
    lines = _svg_lines(svg)
    sets = summary["sets"]
    assert sets == 3 and {len(points) for points in lines.values()} == {sets}
    assert lines["LLR"] == [(n + 1.0, pytest.approx(llr)) for n, llr in enumerate(alone.llr_history)]
    assert lines["LLR"][-1][1] == pytest.approx(summary["sprt"]["llr"], abs=1e-4)
    root = ET.fromstring(svg)
    bounds = sorted(float(e.get("data-y")) for e in root.iter() if e.get("class") == "chart-hline")
    assert bounds == pytest.approx(sorted([*sprt_bounds(), 0.0])), "both bounds, and the even line"
    differences = [d for _, d in lines["A − B per set"]]
    assert differences == pytest.approx(alone.differences())
    means = [m for _, m in lines["running mean, 95% interval"]]
    assert means[-1] == pytest.approx(summary["difference"]["mean"], abs=1e-4)
    assert means == pytest.approx([statistics.fmean(differences[:n]) for n in range(1, sets + 1)])
    assert len([e for e in root.iter() if e.get("class") == "chart-band"]) == 1


def test_plot_without_sprt_has_no_llr_panel(tmp_path: Path) -> None:
    plot = tmp_path / "plot.svg"
    assert main(["compare", "builtin:greedy", "builtin:random", "--games", "14", "--quiet", "--sandbox", "none",
                 "--workers", "1", "--plot", str(plot)]) == 0
    lines = _svg_lines(plot.read_text(encoding="utf-8"))
    assert set(lines) == {"A − B per set", "running mean, 95% interval"} and len(lines["A − B per set"]) == 1


@pytest.mark.parametrize("where", ["missing/plot.svg", "."])
def test_an_unwritable_plot_path_is_refused_before_any_game(where: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / where
    assert main(["compare", "builtin:strong", "builtin:greedy", "--games", "14000", "--plot", str(target),
                 "--sandbox", "none"]) == 2
    err = capsys.readouterr().err
    assert "--plot" in err and err.count("\n") == 1
    assert sorted(tmp_path.iterdir()) == []


def test_a_plot_that_cannot_be_written_leaves_no_part(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder vanishes while the games play: one line of error, no file and no temporary file left."""
    from mjarena.cli import tournament

    folder = tmp_path / "out"
    folder.mkdir()
    real = tournament._write_plot

    def gone(path: str, svg: str, *, quiet: bool = False) -> None:
        folder.rmdir()
        real(path, svg, quiet=quiet)

    monkeypatch.setattr(tournament, "_write_plot", gone)
    assert main(["compare", "builtin:greedy", "builtin:random", "--games", "14", "--quiet", "--sandbox", "none",
                 "--workers", "1", "--plot", str(folder / "plot.svg")]) == 2
    assert sorted(tmp_path.iterdir()) == []


# -- pre-flight (issue 34) ----------------------------------------------------------------------------------


BOTS = Path(__file__).parent / "bots"


@pytest.mark.parametrize(("spec", "reason"), [
    (f"{sys.executable} /nonexistent/bot.py", "crash: exit code 2"),
    (f"{sys.executable} {BOTS / 'garbage_bot.py'}", "bad_output"),
])
def test_a_bot_that_cannot_start_or_answer_stops_the_run_before_any_game(
        spec: str, reason: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Before issue 34 compare played every game and scored the bot that never started as a loser (exit 0)."""
    from mjarena.arena import compare as compare_module

    played: list[str] = []
    monkeypatch.setattr(compare_module, "compare", lambda *args, **kwargs: played.append("compare"))
    assert main(["compare", spec, "builtin:greedy", "--games", "14", "--workers", "1", "--quiet",
                 "--sandbox", "none"]) == 2
    err = capsys.readouterr().err
    assert "pre-flight: 1 bot cannot play" in err and f"bot A ({spec}): {reason}" in err
    assert played == [], "no game was played"


def test_allow_broken_plays_a_broken_bot_as_erring(capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"{sys.executable} {BOTS / 'garbage_bot.py'}"
    assert main(["compare", "builtin:greedy", spec, "--games", "14", "--workers", "1", "--quiet", "--json",
                 "--sandbox", "none", "--allow-broken"]) == 0
    captured = capsys.readouterr()
    assert "--allow-broken: they play and err" in captured.err and "bot B" in captured.err
    assert json.loads(captured.out)["b"]["errors"] == 28, "each of B's 28 seat-games erred"


# -- compare in testers' terms (issue 34) -------------------------------------------------------------------


def test_text_and_json_give_the_elo_difference_and_places_counted_from_the_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game is recorded as it is played; the places of A and B are counted from the games' ranks, and the
    Elo difference and its interval recomputed from the games' points (docs/compare.md's model: each set's
    difference as a score 1/2 + d / 2R, R = 3 in NOI 2014, Elo = 400 log10(s / (1 - s)))."""
    from mjarena.arena import match as match_module
    from mjarena.arena.compare_report import format_result

    games = []
    real = match_module.run_match

    def recording(bots, **kwargs):  # type: ignore[no-untyped-def]
        result = real(bots, **kwargs)
        games.append(result)
        return result

    monkeypatch.setattr(match_module, "run_match", recording)
    a, b = "builtin:strong", "builtin:greedy"
    summary = compare(a, b, rules="noi2014", games=42, seed=5).to_json()
    assert len(games) == 42 and summary["sets"] == 3 and summary["luck"]["adjusted"] is False

    places = {a: [0, 0, 0, 0], b: [0, 0, 0, 0]}
    for game in games:
        for seat in game.seats:
            places[seat.bot][seat.rank - 1] += 1
    assert summary["a"]["places"] == places[a] and summary["b"]["places"] == places[b]
    assert sum(places[a]) == sum(places[b]) == 3 * SEAT_GAMES

    def margin(game):  # type: ignore[no-untyped-def]
        return sum(s.points for s in game.seats if s.bot == a) - sum(s.points for s in game.seats if s.bot == b)

    scores = [0.5 + sum(margin(g) for g in games[14 * i:14 * i + 14]) / SEAT_GAMES / 6.0 for i in range(3)]
    mean, half = statistics.fmean(scores), 1.96 * statistics.stdev(scores) / math.sqrt(3)

    def elo(score: float) -> float:
        return 400.0 * math.log10(score / (1.0 - score))

    assert half > 0, "sets that differ: an interval of some width"
    assert summary["elo"]["mean"] == pytest.approx(elo(mean), abs=0.06)
    assert summary["elo"]["ci95"] == pytest.approx([elo(mean - half), elo(mean + half)], abs=0.06)
    assert summary["raw"]["elo"] == summary["elo"], "three sets: the headline is the points as scored"

    text = format_result(summary)
    low, high = summary["elo"]["ci95"]
    assert (f"Elo difference of A over B: {summary['elo']['mean']:+.1f} ± {(high - low) / 2:.1f} "
            f"(95% interval {low:+.1f} to {high:+.1f})") in text
    assert f"places 1st/2nd/3rd/4th: A {'/'.join(map(str, places[a]))}, B {'/'.join(map(str, places[b]))}" in text


@pytest.mark.parametrize(("reduction", "words"), [
    (-0.548, "varies 54.8% more than with a new wall for every game"),
    (0.2, "varies 20.0% less than with a new wall for every game"),
    (-0.0, "varies as much as with a new wall for every game"),
])
def test_the_variance_lines_read_as_measurements(reduction: float, words: str) -> None:
    """Before issue 34: "duplicate pairing removed -54.8% of the variance" and "(-0.0% more)", which read as bugs."""
    from mjarena.arena.compare_report import format_result

    result = CompareResult("A", "B", "noi2014")
    for edge in (0.2, 0.1, 0.3, 0.0):
        result.add_set({p: {"a": 2.5 + edge, "b": 2.5, "errors": {"A": 0, "B": 0}} for p in SEATINGS})
    summary = {**result.to_json(), "variance_reduction": reduction,
               "luck": {"adjusted": False, "coefficient": 0.0, "variance_removed": -0.0, "missing": None}}
    text = format_result(summary)
    assert words in text and "-0.0%" not in text and "removed -" not in text
    assert "no luck adjustment: it would not lower the variance on these bots" in text


def test_the_plot_marks_the_sets_the_test_needs_before_it_may_stop(tmp_path: Path) -> None:
    from mjarena.arena.compare_report import plot_svg

    result = CompareResult("A", "B", "thupc2021", sprt=(0.0, 20.0))
    for _ in range(5):  # far past the H1 bound, but too few sets to stop
        result.add_set({p: {"a": 0.9, "b": 0.1 + 0.01 * _, "errors": {"A": 0, "B": 0}} for p in SEATINGS})
    assert result.accepted is None and result.llr_history[-1] > sprt_bounds()[1]
    root = ET.fromstring(plot_svg(result))
    marks = [e for e in root.iter() if e.get("class") == "chart-vline"]
    assert [float(e.get("data-x")) for e in marks] == [float(SPRT_MIN_SETS)]
    label = " ".join("".join(marks[0].itertext()).split())
    assert f"the test may stop from set {SPRT_MIN_SETS}" in label and "variance too small" in label


# -- compare tells why: errors by side and reason, --save, a stopped run resumed (issue 42) -----------------------


class Flawed:
    """Greedy, except in some games (by the seed it is made with: the wall's seed times 4 plus its seat): at its
    third answer it crashes (one game in five) or answers an action that is not legal (another one in five)."""

    def __init__(self, seed: int | None = None) -> None:
        from mjarena.agents.builtin import GreedyAgent

        self.greedy = GreedyAgent()
        self.kind = None if seed is None else ("crash", "illegal", None, None, None)[seed % 5]
        self.answers = 0

    def act(self, game: object, seat: int, legal: list[object]) -> object:
        from mjarena.variants.base import Action

        self.answers += 1
        if self.answers == 3 and self.kind == "crash":
            raise RuntimeError("a flawed agent's bug")
        if self.answers == 3 and self.kind == "illegal" and legal:
            kinds = {action.type for action in legal}  # type: ignore[attr-defined]
            return Action(next(kind for kind in ("peng", "gang", "chi", "play") if kind not in kinds), tile=0)
        return self.greedy.act(game, seat, legal)  # type: ignore[arg-type]


class SlowFlawed(Flawed):
    """:class:`Flawed` that waits 20 ms before its first answer of a game: slow enough to be stopped mid-run."""

    def act(self, game: object, seat: int, legal: list[object]) -> object:
        if self.answers == 0:
            import time

            time.sleep(0.02)
        return super().act(game, seat, legal)


FLAWED = "python:test_compare:Flawed"


def test_errors_are_counted_by_side_and_reason_in_the_json_and_the_text() -> None:
    """Before issue 42 compare said "28 errors" and no more; the reasons come from the seats' own results."""
    from mjarena.arena.compare_report import format_result
    from mjarena.arena.match import run_match

    result = compare(FLAWED, "builtin:greedy", games=28, seed=1)
    summary = result.to_json()
    expected: dict[str, dict[str, int]] = {"A": {}, "B": {}}
    games_with: dict[str, int] = {}
    for set_index in range(2):
        from mjarena.arena.draws import derive_seed

        wall = derive_seed(1, "compare", set_index)
        for seating in SEATINGS:
            specs = [FLAWED if letter == "A" else "builtin:greedy" for letter in seating]
            seats = run_match(specs, seed=wall).seats
            for seat in seats:
                if seat.status == "error":
                    side = expected[seating[seat.seat]]
                    side[seat.reason] = side.get(seat.reason, 0) + 1
            for reason in {seat.reason for seat in seats if seat.status == "error"}:
                games_with[str(reason)] = games_with.get(str(reason), 0) + 1
    assert set(expected["A"]) == {"crash", "illegal_action"}, "the agent errs both ways in these games"
    assert summary["a"]["error_reasons"] == expected["A"] and summary["b"]["error_reasons"] == {}
    assert summary["a"]["errors"] == sum(expected["A"].values()) and summary["erring_games"] == games_with
    line = format_result(summary).splitlines()[1]
    assert f"{summary['a']['errors']} errors (" in line
    assert f"crash {expected['A']['crash']}" in line and f"illegal_action {expected['A']['illegal_action']}" in line


def test_a_timeout_is_said_with_its_count_by_side() -> None:
    from mjarena.arena.compare_report import format_result

    result = CompareResult("A", "B", "noi2014")
    timed_out = {"a": 2.0, "b": 2.6, "errors": {"A": 1, "B": 0}, "reasons": {"A": {"timeout": 1}, "B": {}}}
    result.add_set({p: timed_out if p == SEATINGS[0] else _game(2.5, 2.5) for p in SEATINGS})
    text = format_result(result.to_json())
    assert "timeouts in 1 game: A 1, B 0" in text
    assert "timeouts" not in format_result(compare("builtin:greedy", "builtin:random", games=14).to_json())


def _run_compare(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "mjarena", "compare", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parent)


def test_a_stopped_run_prints_what_it_played_and_resumes_from_its_folder_to_the_same_result(tmp_path: Path) -> None:
    """SIGTERM mid-run: the report of the sets finished, exit 143; the same command again plays only the games
    not kept and ends with the figures of a run never stopped (same walls: the secret kept in the folder).  The
    replays kept are those of the games where a bot erred."""
    import signal
    import time

    from mjarena.arena.draws import Draws, parse_secret

    folder = tmp_path / "run"
    args = ["python:test_compare:SlowFlawed", "builtin:greedy", "--games", "42", "--workers", "1", "--json",
            "--quiet", "--save", str(folder)]
    first = _run_compare(args)
    games = folder / "games.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and first.poll() is None:
        if games.exists() and games.read_bytes().count(b"\n") >= 20:
            break
        time.sleep(0.01)
    first.send_signal(signal.SIGTERM)
    out, err = first.communicate(timeout=60)
    assert first.returncode == 128 + signal.SIGTERM, err
    stopped = json.loads(out)
    played = games.read_bytes().count(b"\n")
    assert stopped["stopped"] == "SIGTERM" and 20 <= stopped["played"] <= played < 42
    assert stopped["sets"] == stopped["played"] // 14 and stopped["saved"]["games"] == played
    assert "secret" not in stopped, "the walls of the games still to play stay secret"
    assert "interrupted (SIGTERM)" in err

    again = _run_compare(args)
    out, err = again.communicate(timeout=120)
    assert again.returncode == 0, err
    resumed = json.loads(out)
    assert resumed["saved"]["games"] == 42 and resumed["stopped"] is None

    key = parse_secret((folder / "secret").read_text())
    whole = compare("python:test_compare:SlowFlawed", "builtin:greedy", games=42, seed=Draws.secret(key)).to_json()
    assert {k: v for k, v in resumed.items() if k != "saved"} == {**whole, "played": 42, "stopped": None}
    lines = [json.loads(line) for line in games.read_text().splitlines()]
    erring = {line["game"] for line in lines if any(line["outcome"]["errors"].values())}
    assert erring and {path.stem for path in (folder / "replays").glob("*.json")} == erring


def test_a_folder_of_another_comparison_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", "builtin:greedy", "builtin:random", "--games", "14", "--workers", "1", "--quiet",
            "--sandbox", "none", "--save", str(tmp_path)]
    assert main(args) == 0
    assert "saved in" in capsys.readouterr().out
    assert main([*args[:-2], "--time-limit", "2", "--save", str(tmp_path)]) == 2
    assert "other parameters (time_limit)" in capsys.readouterr().err
    assert main([*args[:-2], "--save-all"]) == 2
    assert "--save-all: needs --save DIR" in capsys.readouterr().err


def test_workers_above_the_usable_cores_are_said_in_one_line(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from mjarena.cli import shared

    monkeypatch.setattr(shared, "usable_cores", lambda: 1)
    assert shared.game_workers(None, "local") == 1 and capsys.readouterr().err == ""
    assert shared.game_workers(3, "local") == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--workers 3: more games at once than the 1 CPU this process may use" in err
    assert shared.game_workers(3, "ray") == 3 and capsys.readouterr().err == ""

