"""The NOI 2014 / Botzone strings: every request and response of the spec's tables, the JSON framing, errors."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjarena.agents.errors import (
    BOT_REASONS,
    AgentError,
    BotBadOutput,
    BotCrash,
    BotError,
    BotMemoryError,
    BotOutputLimit,
    BotTimeout,
    IllegalAnswer,
    bot_error,
)
from mjarena.protocol.botzone import (
    KEEP_RUNNING,
    check_pass,
    decode_output,
    encode_input,
    encode_output,
    encode_request,
    format_response,
    parse_noi_tile,
    parse_response,
    request_kind,
    requests_for,
    stage_kind,
)
from mjarena.tiles import parse_tiles
from mjarena.variants.base import Action, Event


def kinds(text: str) -> tuple[int, ...]:
    return tuple(parse_tiles(text, "noi"))


def kind(name: str) -> int:
    return kinds(name)[0]


HAND = "T1 T2 T3 T4 B5 B6 B7 B8 W1 W1 W2 W3 W8"

# -- requests: the spec's nine types ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "seat", "expected"),
    [
        # types 1 and 2: both come from the seat's own deal
        (Event("deal", 1, kinds(HAND)), 1, [("0 1", "pass"), (f"1 {HAND}", "pass")]),
        # type 3: its own draw, from the front or (after a GANG) the back
        (Event("draw", 2, (kind("T2"),)), 2, [("2 T2", "draw")]),
        (Event("draw_back", 2, (kind("B9"),)), 2, [("2 B9", "draw")]),
        # types 4-8: what the others did
        (Event("play", 1, (kind("T2"),)), 0, [("3 1 PLAY T2", "discard")]),
        (Event("peng", 2, (kind("W2"),)), 0, [("3 2 PENG W2", "pass")]),
        (Event("gang", 3, (kind("B1"),), 0), 1, [("3 3 GANG B1", "pass")]),
        (Event("angang", 3, (kind("B1"),)), 1, [("3 3 GANG B1", "pass")]),
        (Event("bugang", 3, (kind("B1"),)), 1, [("3 3 GANG B1", "pass")]),
        (Event("hu_self", 0, (kind("T5"),)), 3, [("3 0 HU SELF", "pass")]),
        (Event("hu", 2, (kind("W7"),), 1), 3, [("3 2 HU W7", "pass")]),
        # type 9
        (Event("exhausted"), 2, [("4", "target")]),
    ],
)
def test_each_request_type(event: Event, seat: int, expected: list[tuple[str, str]]) -> None:
    requests = requests_for([event], seat)
    assert [(r.text, r.kind) for r in requests] == expected
    assert all(r.event_index == 0 for r in requests)
    assert [request_kind(text) for text, _ in expected] == [k for _, k in expected]


@pytest.mark.parametrize(
    "event",
    [
        Event("deal", 0, kinds(HAND)),
        Event("draw", 0, (5,)),
        Event("draw_back", 0, (5,)),
        Event("play", 0, (5,)),
        Event("peng", 0, (5,)),
        Event("gang", 0, (5,), 1),
        Event("angang", 0, (5,)),
        Event("bugang", 0, (5,)),
        Event("hu", 0, (5,), 1),
        Event("hu_self", 0, (5,)),
        Event("false_hu", 0),
    ],
)
def test_a_bot_is_never_told_of_others_deals_and_draws_nor_of_its_own_actions(event: Event) -> None:
    told = requests_for([event], 0)
    if event.type in ("deal", "draw", "draw_back"):
        assert [r.text for r in told][-1].startswith(("1 ", "2 "))  # its own deal or draw, yes
        assert requests_for([event], 1) == []  # another's deal or draw: never
    else:
        assert told == []  # its own action
    assert requests_for([Event("false_hu", 3), Event("end")], 0) == []


def test_a_seat_that_won_or_left_receives_nothing_more() -> None:
    events = [
        Event("play", 0, (1,)),
        Event("hu", 1, (1,), 0),
        Event("play", 2, (3,)),
        Event("false_hu", 3),
        Event("play", 0, (4,)),
        Event("exhausted"),
        Event("end"),
    ]
    assert [r.text for r in requests_for(events, 1)] == ["3 0 PLAY W2"]
    assert [r.text for r in requests_for(events, 3)] == ["3 0 PLAY W2", "3 1 HU W2", "3 2 PLAY W4"]
    assert [r.text for r in requests_for(events, 2)] == ["3 0 PLAY W2", "3 1 HU W2", "3 0 PLAY W5", "4"]


def test_start_skips_what_was_told_but_remembers_a_win() -> None:
    events = [Event("deal", 0, kinds(HAND)), Event("draw", 0, (9,)), Event("hu_self", 0, (9,)), Event("exhausted")]
    assert [r.event_index for r in requests_for(events, 0)] == [0, 0, 1]
    assert requests_for(events, 0, start=2) == []
    assert [r.text for r in requests_for(events, 1, start=2)] == ["3 0 HU SELF", "4"]


def test_a_peng_then_the_pongers_discard_are_two_requests() -> None:
    events = [Event("play", 0, (kind("W2"),)), Event("peng", 2, (kind("W2"),)), Event("play", 2, (kind("T9"),))]
    assert [(r.text, r.kind) for r in requests_for(events, 1)] == [
        ("3 0 PLAY W2", "discard"),
        ("3 2 PENG W2", "pass"),
        ("3 2 PLAY T9", "discard"),
    ]


@pytest.mark.parametrize("text", ["", "5", "2", "2 T1 T2", "3 1 PLAY", "4 4", "hello"])
def test_request_kind_refuses_what_is_not_a_request(text: str) -> None:
    with pytest.raises(ValueError, match="not a NOI 2014 request"):
        request_kind(text)


def test_stage_kinds() -> None:
    assert [stage_kind(s) for s in ("draw", "claim", "target")] == ["draw", "discard", "target"]
    with pytest.raises(ValueError, match="stage 'deal'"):
        stage_kind("deal")


# -- responses: the spec's answers --------------------------------------------------------------------------

TARGET = "T1 T2 T3 B4 B5 B6 W7 W8 W9 W9 W9 W9 B1 B1"


@pytest.mark.parametrize(
    ("text", "request_kind_", "action"),
    [
        ("PASS", "pass", Action("pass")),  # answers 1, 2, 5-8: acknowledged
        ("PLAY W2", "draw", Action("play", kind("W2"))),  # answer 3
        ("GANG T3", "draw", Action("gang", kind("T3"))),
        ("HU", "draw", Action("hu")),
        ("PASS", "discard", Action("pass")),  # answer 4
        ("PENG T2", "discard", Action("peng", kind("T2"))),
        ("GANG", "discard", Action("gang")),
        ("HU", "discard", Action("hu")),
        (TARGET, "target", Action("target", tiles=kinds(TARGET))),  # answer 9
    ],
)
def test_each_response_type_and_back(text: str, request_kind_: str, action: Action) -> None:
    assert parse_response(text, request_kind_) == action  # type: ignore[arg-type]
    assert format_response(action) == text


@pytest.mark.parametrize(
    ("text", "request_kind_", "action"),
    [
        ("pass", "pass", Action("pass")),
        ("Play w2", "draw", Action("play", kind("W2"))),
        ("  GANG   t3 \n", "draw", Action("gang", kind("T3"))),
        ("hu\r\n", "discard", Action("hu")),
        ("peng B9", "discard", Action("peng", kind("B9"))),
        (
            "t1 t1 t1 W2 w3 W4 b5 B5 b5 b7 B8 B9 T9 t9",
            "target",
            Action("target", tiles=kinds("T1 T1 T1 W2 W3 W4 B5 B5 B5 B7 B8 B9 T9 T9")),
        ),
    ],
)
def test_letter_case_and_spacing_are_ignored(text: str, request_kind_: str, action: Action) -> None:
    assert parse_response(text, request_kind_) == action  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "request_kind_", "action"),
    [
        ("PASS", "draw", Action("pass")),  # passing on one's own turn
        ("PENG W1", "draw", Action("peng", 0)),
        ("GANG", "draw", Action("gang")),
        ("PLAY W1", "discard", Action("play", 0)),  # playing out of turn
        ("GANG W1", "discard", Action("gang", 0)),
        ("W1 W1", "discard", Action("target", tiles=(0, 0))),
        ("HU", "pass", Action("hu")),
    ],
)
def test_a_known_form_in_the_wrong_place_is_parsed_and_left_to_the_rules(
    text: str, request_kind_: str, action: Action
) -> None:
    assert parse_response(text, request_kind_) == action  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "request_kind_", "message"),
    [
        ("", "draw", "empty response"),
        ("   \n", "target", "empty response"),
        ("DISCARD W1", "draw", "unknown verb 'DISCARD'"),
        ("CHI W1", "discard", "unknown verb 'CHI'"),
        ("PLAY", "draw", "PLAY takes exactly one tile"),
        ("PLAY W1 W2", "draw", "PLAY takes exactly one tile"),
        ("PENG", "discard", "PENG takes exactly one tile"),
        ("GANG T3 T3", "draw", "GANG takes at most one tile"),
        ("PASS W1", "pass", "PASS takes no tile"),
        ("HU W1", "discard", "HU takes no tile"),
        ("HU SELF", "draw", "HU takes no tile"),
        ("PLAY X9", "draw", "unknown tile name 'X9' (token 2)"),
        ("PLAY W0", "draw", "unknown tile name 'W0'"),
        ("PLAY E", "draw", "unknown tile name 'E'"),
        ("PLAY BAIDA", "draw", "unknown tile name 'BAIDA'"),
        ("PLAY 1M", "draw", "unknown tile name '1M'"),
        ("T1 T2 Z9", "target", "unknown tile name 'Z9' (token 3)"),
        ("PASS", "target", "the answer to 4 is a target hand"),
        ("HU", "target", "the answer to 4 is a target hand"),
    ],
)
def test_malformed_responses_are_bad_output_naming_the_text(text: str, request_kind_: str, message: str) -> None:
    with pytest.raises(BotBadOutput) as caught:
        parse_response(text, request_kind_, request="2 T3")  # type: ignore[arg-type]
    error = caught.value
    assert error.reason == "bad_output"
    assert isinstance(error, BotError) and isinstance(error, AgentError)
    assert message in error.detail
    assert repr(text) in error.detail and "to '2 T3'" in error.detail
    assert error.request == "2 T3"


def test_a_long_bad_response_is_quoted_in_part() -> None:
    with pytest.raises(BotBadOutput) as caught:
        parse_response("NONSENSE " * 1000, "draw")
    assert len(caught.value.detail) < 300 and "NONSENSE" in caught.value.detail


def test_only_pass_answers_a_request_that_informs() -> None:
    check_pass(Action("pass"), "PASS", "3 2 PENG W2")
    for text in ("HU", "PENG W2", "GANG", "PLAY W1", "W1 W1"):
        action = parse_response(text, "pass")
        with pytest.raises(IllegalAnswer) as caught:
            check_pass(action, text, "3 2 PENG W2")
        assert caught.value.reason == "illegal_action"
        assert repr(text) in caught.value.detail and "3 2 PENG W2" in caught.value.detail
        assert not isinstance(caught.value, BotError)


def test_parse_noi_tile_covers_the_27_kinds_and_nothing_else() -> None:
    names = [f"{suit}{rank}" for suit in "WBT" for rank in range(1, 10)]
    assert [parse_noi_tile(name) for name in names] == list(range(27))
    assert [parse_noi_tile(name.lower()) for name in names] == list(range(27))
    for bad in ("W10", "B", "", "1W", "Z1", "BAIDA", "b0"):
        with pytest.raises(ValueError):
            parse_noi_tile(bad)


def test_format_response_refuses_actions_without_a_response() -> None:
    for action in (Action("play"), Action("peng"), Action("discard", 3), Action("chow", 1)):
        with pytest.raises(ValueError):
            format_response(action)


tiles = st.integers(0, 26)
actions = st.one_of(
    st.just(Action("pass")),
    st.just(Action("hu")),
    st.just(Action("gang")),
    st.builds(lambda k: Action("play", k), tiles),
    st.builds(lambda k: Action("peng", k), tiles),
    st.builds(lambda k: Action("gang", k), tiles),
)


@given(actions)
def test_every_action_round_trips_in_every_case(action: Action) -> None:
    text = format_response(action)
    for variant in (text, text.lower(), f" {text.title()} "):
        assert parse_response(variant, "draw") == action
        assert parse_response(variant, "discard") == action


@given(st.lists(tiles, min_size=1, max_size=18))
def test_every_target_round_trips(target: list[int]) -> None:
    action = Action("target", tiles=tuple(target))
    assert parse_response(format_response(action), "target") == action


# -- JSON framing ---------------------------------------------------------------------------------------------


def test_the_restart_input_is_one_line_of_the_whole_history() -> None:
    line = encode_input(["0 1", f"1 {HAND}", "2 T2"], ["PASS", "PASS"], 'memo "quoted"\nnewline ✓', "1000", "256")
    assert "\n" not in line
    assert json.loads(line) == {
        "requests": ["0 1", f"1 {HAND}", "2 T2"],
        "responses": ["PASS", "PASS"],
        "data": 'memo "quoted"\nnewline ✓',
        "time_limit": "1000",
        "memory_limit": "256",
    }
    with pytest.raises(ValueError, match="2 requests need 1 responses, not 2"):
        encode_input(["0 1", "1 W1"], ["PASS", "PASS"])


def test_a_bare_request_is_a_json_string() -> None:
    assert encode_request("2 T3") == '"2 T3"'
    assert json.loads(encode_request("3 1 HU SELF")) == "3 1 HU SELF"


def test_the_keep_running_marker() -> None:
    assert KEEP_RUNNING == ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"response": "PLAY W2", "data": "saved"}', ("PLAY W2", "saved", None)),
        ('{"response": "PASS"}\n', ("PASS", None, None)),
        ('  {"data": null, "response": "HU", "debug": [1, 2]}  \r\n', ("HU", None, "[1, 2]")),
        ('{\n  "response": "PASS",\n  "data": ""\n}', ("PASS", "", None)),
        (encode_output("PENG T2", "x"), ("PENG T2", "x", None)),
        ('{"response": "PASS", "debug": "thinking: W1"}', ("PASS", None, "thinking: W1")),
    ],
)
def test_decode_output(text: str, expected: tuple[str, str | None, str | None]) -> None:
    assert decode_output(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "printed nothing"),
        (" \n\n", "printed nothing"),
        ("PASS", "is not JSON"),
        ('{"response": "PASS"', "is not JSON"),
        ('{"response": "PASS"}\n{"response": "PASS"}', "is not JSON"),
        ('["PASS"]', "is not a JSON object"),
        ('"PASS"', "is not a JSON object"),
        ('{"data": "x"}', 'has no "response" key'),
        ('{"Response": "PASS"}', 'has no "response" key'),
        ('{"response": 3}', '"response" of'),
        ('{"response": null}', "is not a string"),
        ('{"response": "PASS", "data": {"a": 1}}', '"data" of'),
    ],
)
def test_bad_output(text: str, message: str) -> None:
    with pytest.raises(BotBadOutput) as caught:
        decode_output(text, request="0 1")
    assert caught.value.reason == "bad_output"
    assert message in caught.value.detail
    assert "'0 1'" in caught.value.detail


# -- the error vocabulary -------------------------------------------------------------------------------------


def test_each_bot_reason_has_its_own_class() -> None:
    classes = {"timeout": BotTimeout, "crash": BotCrash, "memory": BotMemoryError}
    classes |= {"output_limit": BotOutputLimit, "bad_output": BotBadOutput}
    assert set(classes) == set(BOT_REASONS)
    for reason, cls in classes.items():
        error = bot_error(reason, "what happened", request="2 T3", elapsed=0.5, stderr="tail")
        assert type(error) is cls and error.reason == reason and str(error) == f"{reason}: what happened"
        assert cls("d").reason == reason
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is cls
        assert (copy.reason, copy.detail, copy.request, copy.elapsed, copy.stderr) == (
            reason,
            "what happened",
            "2 T3",
            0.5,
            "tail",
        )
    assert BotError("memory", "x").reason == "memory"
    with pytest.raises(ValueError, match="unknown bot error reason"):
        bot_error("illegal_action", "x")
    with pytest.raises(ValueError, match="unknown bot error reason"):
        BotError("slow", "x")
    assert pickle.loads(pickle.dumps(IllegalAnswer("no"))).reason == "illegal_action"
