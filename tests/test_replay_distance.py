"""Each seat's distance to a win over a replay (``mjarena.web.distances``): the replay viewer's chart data.

The expected values are computed here from each step's table snapshot with the hand library
(:func:`mjarena.hand.wild.distance` under the rule set's hand rules), not pasted.
"""

from __future__ import annotations

import shlex
import sys
import time
from typing import Any

import pytest

from mjarena.arena.match import run_match
from mjarena.hand.options import RULES
from mjarena.hand.wild import distance
from mjarena.replay import load_events
from mjarena.table import Table
from mjarena.tiles import counts_of
from mjarena.variants.base import Event
from mjarena.web.distances import WIN_EVENTS, DistanceTracker
from mjarena.web.timeline import timeline

GAMES = {"noi2014": (["builtin:greedy", "builtin:strong"] * 2, 1),
         "baida": (["builtin:greedy", "builtin:strong"] * 2, 2),
         "thupc2021": (["builtin:fixed", "builtin:strong"] * 2, 1)}
"""A game of each rule set that someone wins (NOI 2014 seed 1: three seats win, one after the other)."""
CRASHING_BOT = f"{shlex.quote(sys.executable)} -c 'raise SystemExit(3)'"


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> tuple[dict[str, Any], dict[str, Any]]:
    """(replay, timeline) of one game of the rule set ``request.param``."""
    bots, seed = GAMES[request.param]
    data = run_match(bots, rules=request.param, seed=seed).to_json()
    return data, timeline(data)


def _library_distance(rules: str, seat: dict[str, Any]) -> int | None:
    """A seat's distance from its snapshot, by the hand library; None while the hand is not whole."""
    if seat["status"] == "out":
        return None
    hand = seat["hand"] + ([] if seat["drawn"] is None else [seat["drawn"]])
    melds = len(seat["melds"])
    if not 13 - 3 * melds <= len(hand) <= 14 - 3 * melds:
        return None
    return distance(counts_of(hand), melds, RULES[rules])


def _wins(view: dict[str, Any]) -> dict[int, int]:
    """Seat -> the step of its (first) win event."""
    wins: dict[int, int] = {}
    for item in view["steps"]:
        event = item["event"]
        if event and event["type"] in WIN_EVENTS:
            wins.setdefault(event["seat"], item["step"])
    return wins


def test_one_distance_per_seat_and_step(game: tuple[dict[str, Any], dict[str, Any]]) -> None:
    _, view = game
    assert len(view["distances"]) == 4
    assert [len(series) for series in view["distances"]] == [len(view["steps"])] * 4
    assert [series[0] for series in view["distances"]] == [None] * 4, "the empty table before the deal"


def test_the_distances_are_the_hand_library_s(game: tuple[dict[str, Any], dict[str, Any]]) -> None:
    data, view = game
    for item in view["steps"]:
        expected = [_library_distance(data["rules"], seat) for seat in item["seats"]]
        assert [series[item["step"]] for series in view["distances"]] == expected, item["text"]
    dealt = len(view["steps"]) // 2
    assert None not in [series[dealt] for series in view["distances"]], "mid-game every hand has a distance"


def test_a_winner_is_at_zero_from_its_win_on(game: tuple[dict[str, Any], dict[str, Any]]) -> None:
    data, view = game
    wins = _wins(view)
    assert wins, "the chosen game has a winner"
    assert set(wins) == {seat["seat"] for seat in data["seats"] if seat["status"] == "won"}
    for seat, step in wins.items():
        series = view["distances"][seat]
        assert set(series[step:]) == {0}
        assert series[step - 1] in (0, 1), "a hand wins from ready (or holding a winning hand)"


def test_a_seat_out_of_the_game_has_no_distance() -> None:
    """A false HU takes the seat out of the game: its line stops there."""
    table, tracker = Table("noi2014"), DistanceTracker("noi2014")
    table.apply(Event("deal", 0, (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 13, 14)))
    before = tracker.update(table)
    table.apply(Event("false_hu", 0))
    assert before[0] == _library_distance("noi2014", table.snapshot()["seats"][0] | {"status": "in"})
    assert tracker.update(table)[0] is None


def test_a_whole_game_s_distances_take_milliseconds() -> None:
    """Table-driven: a THUPC game of 200-odd steps costs a few milliseconds over folding its events."""
    data = run_match(*GAMES["thupc2021"][:1], rules="thupc2021", seed=GAMES["thupc2021"][1]).to_json()
    events = load_events(data)

    def fold(track: bool) -> float:
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            table, tracker = Table("thupc2021", len(data["wall"])), DistanceTracker("thupc2021")
            for event in events:
                table.apply(event)
                if track:
                    tracker.update(table)
            best = min(best, time.perf_counter() - start)
        return best

    extra = fold(True) - fold(False)
    assert len(events) > 100 and extra < 0.05, f"{extra * 1000:.1f} ms for {len(events)} steps"


def test_the_chart_draws_a_line_per_seat_and_marks_wins_and_errors() -> None:
    """The viewer's ``distance_chart``: a line per seat holding its series, a mark on each win and on the error."""
    import xml.etree.ElementTree as ET

    from mjarena.web.library import viewer_data

    data = run_match([CRASHING_BOT, "builtin:greedy", "builtin:strong", "builtin:greedy"], seed=4).to_json()
    view = viewer_data(data)
    svg = ET.fromstring(view["distance_chart"]["svg"])
    groups = [g for g in svg.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "chart-series"]
    assert [g.get("data-series", "").split(":")[0] for g in groups] == view["seat_names"]
    for group, series in zip(groups, view["distances"], strict=True):
        line = next(p for p in group.iter("{http://www.w3.org/2000/svg}path") if p.get("class") == "chart-line")
        assert line.get("data-points") == " ".join(f"{x},{y}" for x, y in enumerate(series) if y is not None)
    marks = sorted((int(g.get("data-x")), "".join(g.itertext())) for g in svg.iter("{http://www.w3.org/2000/svg}g")
                   if g.get("class") == "chart-mark")
    wins = _wins(view)
    expected = sorted([*wins.values(), *(mark["step"] for mark in view["errors"])])
    assert [step for step, _ in marks] == expected and wins and view["errors"], "each win and the crash, on its step"
    assert sum("crash at move" in words for _, words in marks) == 1
    assert sum("wins at move" in words for _, words in marks) == len(wins)
    assert "<table" in view["distance_chart"]["table"]
