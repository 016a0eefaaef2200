"""The replay viewer's discard annotations (``effect`` on each discard step, :mod:`mjarena.web.effects`): checked
against :func:`mjarena.hand.effect.discard_effect` on hands this test rebuilds from the events by itself, on
hand-made hands with known answers, and on replays that do not hold together."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mjarena.arena.match import run_match
from mjarena.hand.effect import discard_effect
from mjarena.hand.options import RULES
from mjarena.replay import load_events, save
from mjarena.tiles import NUM_KINDS, PASS, WILD, parse_tiles
from mjarena.web.effects import discard_annotation
from mjarena.web.play_choices import discard_distances
from mjarena.web.timeline import timeline

BOTS = {"noi2014": ["builtin:greedy", "builtin:random"] * 2, "baida": ["builtin:greedy", "builtin:random"] * 2,
        "thupc2021": ["builtin:fixed", "builtin:random"] * 2}
NOTATION = {"noi2014": "noi", "baida": "thupc", "thupc2021": "thupc"}


def _expected(data: dict[str, Any]) -> Iterator[tuple[int, int, list[int], int, list[int]]]:
    """For each discard event, in order: (its index, seat, the seat's concealed tiles as counts, its melds,
    the tiles seen outside any hand), from a fold of the events written for this test alone."""
    hands = [[0] * NUM_KINDS for _ in range(4)]
    melds = [0] * 4
    seen = [0] * NUM_KINDS
    last = None

    def take(seat: int, tiles: list[int]) -> None:
        for tile in tiles:
            hands[seat][tile] -= 1
            seen[tile] += 1

    for index, event in enumerate(load_events(data)):
        seat, tiles = event.seat, list(event.tiles)
        if event.type in ("deal", "draw", "draw_back"):
            for tile in tiles:
                hands[seat][tile] += 1
        elif event.type in ("play", "discard"):
            yield index, seat, list(hands[seat]), melds[seat], list(seen)
            take(seat, tiles[:1])
            last = tiles[0]
        elif event.type in ("peng", "pong", "gang"):
            take(seat, [tiles[0]] * (2 if event.type != "gang" else 3))
            melds[seat] += 1
        elif event.type in ("chi", "chow"):
            tiles.remove(last)
            take(seat, tiles)
            melds[seat] += 1
        elif event.type == "angang":
            take(seat, [tiles[0]] * 4)
            melds[seat] += 1
        elif event.type == "bugang":
            take(seat, tiles[:1])
        elif event.type in ("hu", "ron"):
            hands[seat][last] += 1


@pytest.mark.parametrize("rules", sorted(BOTS))
def test_every_discard_of_a_real_game_is_annotated_as_the_hand_analysis_says(rules: str) -> None:
    counted = {"best": 0, "not best": 0, "special": 0, "wild": 0, "melds": 0}
    for seed in (1, 2, 3, 4):
        data = run_match(BOTS[rules], rules=rules, seed=seed).to_json()
        steps = timeline(data)["steps"]
        found = list(_expected(data))
        assert [index + 1 for index, *_ in found] == [step["step"] for step in steps if "effect" in step]
        for index, seat, counts, melds, seen in found:
            step = steps[index + 1]
            tile = step["event"] and parse_tiles(step["event"]["tiles"], NOTATION[rules])[0]
            if tile in (34, 35, 36):
                assert step["effect"] is None and "special tile" in step["effect_note"]
                counted["special"] += 1
                continue
            want = discard_effect(counts, tile, melds, RULES[rules], seen)
            got = step["effect"]
            assert got is not None, step.get("effect_note")
            assert (got["seat"], got["tile"]) == (seat, tile)
            assert (got["distance_before"], got["distance_after"], got["useful_after"], got["useful_tiles"]) == (
                want.distance_before, want.distance_after, want.useful_after, list(want.useful_kinds))
            assert (got["best_tile"], got["best_distance"], got["best_useful"]) == (
                want.best_kind, want.best_distance, want.best_useful)
            assert (got["distance_loss"], got["useful_loss"]) == (want.distance_loss, want.useful_loss)
            assert got["best"] == (want.distance_loss == 0 and want.useful_loss == 0)
            assert got["text"] and got["verdict"]
            counted["best" if got["best"] else "not best"] += 1
            counted["wild"] += counts[WILD] > 0
            counted["melds"] += melds > 0
    assert counted["best"] and counted["not best"] and counted["melds"], counted
    if rules == "baida":
        assert counted["wild"], "some discards were made with a wildcard in hand"
    if rules == "thupc2021":
        assert counted["special"], "some special tiles were discarded"


def _names(tiles: str) -> list[str]:
    return tiles.split()


def _replay(rules: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    """A replay of ``rules`` with hand-made ``events`` (the wall and seats of a real game)."""
    data = run_match(BOTS[rules], rules=rules, seed=1).to_json()
    return {**data, "events": events, "decisions": []}


def _effects(data: dict[str, Any]) -> list[dict[str, Any] | None]:
    return [step["effect"] for step in timeline(data)["steps"] if "effect" in step]


def test_a_discard_that_breaks_a_ready_hand_loses_one_step() -> None:
    data = _replay("noi2014", [
        {"type": "deal", "seat": 0, "tiles": _names("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6")},
        {"type": "draw", "seat": 0, "tiles": ["T9"]},
        {"type": "play", "seat": 0, "tiles": ["W9"]},  # breaks the run W7 W8 W9: T9 was the tile to go
        {"type": "draw", "seat": 0, "tiles": ["B4"]},
        {"type": "play", "seat": 0, "tiles": ["T9"]},
    ])
    broke, kept = _effects(data)
    assert broke is not None and kept is not None
    assert (broke["distance_before"], broke["distance_after"], broke["distance_loss"]) == (1, 2, 1)
    assert (broke["best_tile"], broke["best_distance"], broke["best_useful"]) == (26, 1, 8)  # T9; waits B4, B7
    assert broke["best"] is False and broke["verdict"] == "1 farther from a win than T9"
    assert broke["text"] == "W9: ready → distance 2 with 17 useful tiles; best: T9, ready with 8 useful tiles"
    # W1-W8 B1 B1 B4 B5 B6 T9: T9 goes and the hand is ready again, waiting on W3, W6 (one of each held) and W9
    # (one seen: the discard)
    assert kept["best"] is True and kept["verdict"] == "the best discard"
    assert (kept["distance_before"], kept["distance_after"], kept["useful_tiles"], kept["useful_after"]) == (
        1, 1, [2, 5, 8], 3 + 3 + 3)


def test_a_baida_wildcard_in_hand() -> None:
    hand = _names("1M 2M 3M 4P 5P 6P 7S 8S 9S 2M 2M E BAIDA 5P")
    for discarded, best in (("BAIDA", False), ("E", True)):
        effect, = _effects(_replay("baida", [{"type": "deal", "seat": 0, "tiles": hand},
                                             {"type": "play", "seat": 0, "tiles": [discarded]}]))
        assert effect is not None and effect["best"] is best
        assert (effect["distance_before"], effect["best_tile"], effect["best_distance"]) == (1, 27, 1)
        # ready after E: 2M 2M + 5P BAIDA (the pair must be 2, 5 or 8) waits on 2M and 3P..7P
        assert effect["best_useful"] == 1 + 4 + 3 + 2 + 3 + 4
    assert effect["useful_tiles"] == [1, 11, 12, 13, 14, 15]
    wild, = _effects(_replay("baida", [{"type": "deal", "seat": 0, "tiles": hand},
                                       {"type": "play", "seat": 0, "tiles": ["BAIDA"]}]))
    assert wild is not None and (wild["distance_after"], wild["distance_loss"]) == (2, 1)
    assert wild["verdict"] == "1 farther from a win than F1" and "best: F1, ready" in wild["text"]


def test_a_thupc_special_tile_has_no_annotation_and_the_rest_have() -> None:
    data = _replay("thupc2021", [
        {"type": "deal", "seat": 0, "tiles": _names("1M 2M 3M 4P 5P 6P 7S 8S 9S E E S S PASS")},
        {"type": "discard", "seat": 0, "tiles": ["PASS"], "target": 2},
        {"type": "draw", "seat": 1, "tiles": ["F"]},
        {"type": "deal", "seat": 1, "tiles": _names("1M 2M 3M 4P 5P 6P 7S 8S 9S E E S S")},
        {"type": "discard", "seat": 1, "tiles": ["F"]},
    ])
    steps = [step for step in timeline(data)["steps"] if "effect" in step]
    assert steps[0]["effect"] is None and steps[0]["effect_note"] == "a special tile: not part of any hand"
    assert steps[1]["effect"] is not None and steps[1]["effect"]["best"] is True
    assert steps[1]["effect"]["useful_tiles"] == [27, 28]  # E, S: the second seat saw none of them
    assert discard_annotation("thupc2021", parse_tiles("1M 2M 3M 4P 5P 6P 7S 8S 9S E E S S PASS"), 0)[
        "best_tile"] == PASS, "a special tile held is a tile that must go: discarding it loses nothing"


@pytest.mark.parametrize(("tiles", "discarded", "reason"), [
    ("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6 T9 T9", "T9", "holds 15 tiles with 0 meld(s)"),  # one too many
    ("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6", "B6", "holds 13 tiles with 0 meld(s)"),  # one too few
    ("W1 W1 W1 W1 W1 W6 W7 W8 W9 B1 B1 B5 B6 T9", "T9", "holds 5 tiles of kind 0"),  # five of a kind
])
def test_a_hand_that_does_not_add_up_gets_no_annotation_and_the_rest_is_shown(tiles: str, discarded: str,
                                                                              reason: str) -> None:
    data = _replay("noi2014", [
        {"type": "deal", "seat": 0, "tiles": tiles.split()},
        {"type": "play", "seat": 0, "tiles": [discarded]},
        {"type": "deal", "seat": 1, "tiles": _names("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6 T8")},
        {"type": "play", "seat": 1, "tiles": ["T8"]},
    ])
    view = timeline(data)
    bad, good = (step for step in view["steps"] if "effect" in step)
    assert bad["effect"] is None and reason in bad["effect_note"]
    assert bad["seats"][0]["discards"] == [{"tile": parse_tiles([discarded], "noi")[0], "claimed": False}]
    assert good["effect"] is not None and good["effect"]["best"] is True


def test_the_pure_function_refuses_what_it_cannot_measure() -> None:
    hand = parse_tiles("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B5 B6 T9", "noi")
    for kind, rules, seen, message in [
        (10, "noi2014", None, "the hand holds none"), (-1, "noi2014", None, "the hand holds none"),
        (PASS, "thupc2021", None, "special tile"), (8, "chess", None, "no hand rules"),
        (8, "noi2014", [0] * 34, "38 kinds"), (8, "noi2014", [4] + [0] * 37, "more than 4"),
    ]:
        with pytest.raises(ValueError, match=message):
            discard_annotation(rules, hand, kind, seen=seen)
    with pytest.raises(ValueError, match="not a tile kind"):
        discard_annotation("noi2014", [*hand[:-1], 99], 8)


def test_the_play_hints_and_the_replay_annotations_agree() -> None:
    hand = parse_tiles("1M 2M 3M 4P 5P 6P 7S 8S 9S 2M 2M E BAIDA 5P")
    counts = [hand.count(kind) for kind in range(NUM_KINDS)]
    hints = discard_distances("baida", counts, 0, sorted(set(hand)))
    assert hints == {kind: discard_annotation("baida", hand, kind)["distance_after"] for kind in sorted(set(hand))}


def test_a_damaged_real_replay_is_served_with_the_rest_annotated(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'mjarena[web]')")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from mjarena.web import create_app

    data = run_match(BOTS["noi2014"], seed=3).to_json()
    damaged = copy.deepcopy(data)
    deal = next(event for event in damaged["events"] if event["type"] == "deal" and event["seat"] == 2)
    deal["tiles"].pop()  # seat 2 holds a tile too few from the start (too many is refused: replay.check)
    save(data, tmp_path / "game.json")
    save(damaged, tmp_path / "damaged.json")
    with TestClient(create_app(tmp_path)) as client:
        good = client.get("/api/replays/game.json").json()["steps"]
        response = client.get("/api/replays/damaged.json")
    assert response.status_code == 200
    steps = response.json()["steps"]
    assert len(steps) == len(good)
    for step, same in zip(steps, good, strict=True):
        if "effect" not in step:
            continue
        if step["event"]["seat"] == 2:
            assert step["effect"] is None and "tiles" in step["effect_note"]
        elif step["effect"] is not None:
            assert step["effect"]["distance_after"] == same["effect"]["distance_after"]
    assert sum(step.get("effect") is not None for step in steps) > 20
