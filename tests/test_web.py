"""The web app without a browser: the timeline, the tile pictures, the routes, play sessions and the security
points (paths confined to the folder, upload limits, bad requests answered 4xx with a message)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import shlex
import sys
import threading
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install 'mjarena[web]')")

from starlette.routing import Route

with warnings.catch_warnings():  # Starlette 1.x would rather its test client ran on httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from live_server import running
from mjarena.arena.match import run_match
from mjarena.arena.tournament import Tournament
from mjarena.arena.tournament_settings import Entrant, Settings
from mjarena.replay import load, load_events, replay_game, save
from mjarena.table import Table, TimelineError
from mjarena.variants.base import Action, Event
from mjarena.web import create_app
from mjarena.web.library import Library
from mjarena.web.play import PlayError
from mjarena.web.play_choices import choice_views
from mjarena.web.play_room import PlayRoom
from mjarena.web.tiles import BACK, KINDS, tile_svg, tile_title
from mjarena.web.timeline import timeline

BOTS = {"noi2014": ["builtin:greedy", "builtin:random"] * 2, "baida": ["builtin:greedy", "builtin:random"] * 2,
        "thupc2021": ["builtin:fixed", "builtin:random"] * 2}
CRASHING_BOT = f"{shlex.quote(sys.executable)} -c 'raise SystemExit(3)'"


def _hand(game: Any, seat: int) -> list[int]:
    hand = game.hands[seat]
    counts = hand.counts if hasattr(hand, "counts") else hand
    return [kind for kind, count in enumerate(counts) for _ in range(count)]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "served"
    folder.mkdir()
    save(run_match(BOTS["noi2014"], seed=3).to_json(), folder / "game.json")
    (tmp_path / "secret.json").write_text('{"format": "mjarena-replay"}')
    return folder


@pytest.fixture
def client(root: Path) -> Iterator[TestClient]:
    with TestClient(create_app(root, max_upload=200_000), raise_server_exceptions=False) as client:
        yield client


# -- the timeline ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", sorted(BOTS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_timeline_rebuilds_every_hand_meld_and_the_wall(rules: str, seed: int) -> None:
    data = run_match(BOTS[rules], rules=rules, seed=seed).to_json()
    view = timeline(data)
    game = replay_game(data)
    assert len(view["steps"]) == len(data["events"]) + 1
    assert view["steps"][0]["wall"] == len(data["wall"])
    final = view["steps"][-1]
    assert final["wall"] == game.wall_left
    for seat in range(4):
        shown = final["seats"][seat]
        held = shown["hand"] + ([shown["drawn"]] if shown["drawn"] is not None else [])
        assert sorted(held) == _hand(game, seat)
        assert len(shown["melds"]) == len(game.melds[seat])
    discards = sum(len(seat["discards"]) for seat in final["seats"])
    assert discards == sum(1 for e in data["events"] if e["type"] in ("play", "discard"))


def test_timeline_steps_tell_turn_text_and_last_discard() -> None:
    view = timeline(run_match(BOTS["noi2014"], seed=7).to_json())
    plays = [step for step in view["steps"] if step["event"] and step["event"]["type"] == "play"]
    first = plays[0]
    assert first["turn"] == first["event"]["seat"]
    assert first["text"].split()[1] == "plays"
    assert first["last_discard"] == {"seat": first["event"]["seat"], "index": 0}


def test_timeline_marks_the_step_where_a_bot_crashed() -> None:
    data = run_match([CRASHING_BOT, *BOTS["noi2014"][1:]], seed=4).to_json()
    view = timeline(data)
    [mark] = view["errors"]
    assert (mark["seat"], mark["reason"]) == (0, "crash")
    first_draw = next(i for i, e in enumerate(data["events"]) if e["type"] == "draw")
    assert mark["step"] == first_draw + 1  # asked to play after its first draw, crashed, the judge answered
    assert view["steps"][mark["step"]]["errors"] == [mark]


class _FalseHu:
    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        return Action("hu") if game.decision.stage == "draw" else legal[-1]


def test_timeline_marks_a_false_hu_at_its_event() -> None:
    from mjarena.agents.factory import make_agent

    def factory(spec: str, seat: int, *args: Any, **kwargs: Any) -> Any:
        return _FalseHu() if seat == 2 else make_agent(spec, seat, *args, **kwargs)

    data = run_match(BOTS["noi2014"], seed=9, make_agent=factory).to_json()
    view = timeline(data)
    [mark] = view["errors"]
    index = next(i for i, e in enumerate(data["events"]) if e["type"] == "false_hu")
    assert (mark["seat"], mark["reason"], mark["step"]) == (2, "false_hu", index + 1)
    assert view["steps"][index + 1]["seats"][2]["status"] == "out"


def test_table_refuses_events_that_cannot_happen() -> None:
    table = Table("noi2014")
    table.apply(Event("deal", 0, (1, 2, 3)))
    with pytest.raises(TimelineError, match="does not hold tile kind 9"):
        table.apply(Event("play", 0, (9,)))
    with pytest.raises(TimelineError, match="no discard"):
        Table("noi2014").apply(Event("peng", 1, (4,), 0))


@pytest.mark.parametrize(("event", "message"), [
    (Event("deal", None, (1, 2, 3)), "event 3: a deal names no seat"),  # was AttributeError on None's hand
    (Event("play", None, (1,)), "event 3: a play names no seat"),  # was TypeError: self.seats[None]
    (Event("draw", 1, ()), "event 3: a draw names no tile"),  # was IndexError on tiles[0]
    (Event("chi", 1, (), 0), r"event 3: a chi of tile kinds \[\] without the discard it claims \(1\)"),
    (Event("chi", 1, (2, 3, 4), 0), r"a chi of tile kinds \[2, 3, 4\] without the discard"),  # was list.remove's
])
def test_table_names_what_is_wrong_with_an_event_the_type_check_found(event: Event, message: str) -> None:
    """What mypy saw in ``Table.apply`` (``seat`` and ``tiles[0]`` used as if every event had them): an event of a
    seat that names none, a draw that names no tile, a CHI without the tile it claims are told as TimelineError
    (which the viewer and the luck measures report), not a TypeError or an IndexError."""
    table = Table("baida")
    table.apply(Event("deal", 0, (1, 5)))
    table.apply(Event("play", 0, (1,)))  # the discard a CHI may claim
    with pytest.raises(TimelineError, match=message):
        table.apply(event)


def test_hidden_hands_are_only_counted() -> None:
    table = Table("noi2014")
    table.apply(Event("deal", 1, (1, 2, 3)))
    seat = table.snapshot(hidden=[1])["seats"][1]
    assert (seat["hand"], seat["drawn"], seat["hidden"]) == (None, None, 3)


# -- tiles ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [*KINDS, BACK])
def test_every_tile_picture_is_an_svg_document(kind: int) -> None:
    svg = ET.fromstring(tile_svg(kind))
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg.get("viewBox") == "0 0 60 80"
    assert svg.find("{http://www.w3.org/2000/svg}title").text == tile_title(kind)


def test_tile_pictures_are_served_and_unknown_ones_are_404(client: TestClient) -> None:
    assert client.get("/tiles/33.svg").headers["content-type"] == "image/svg+xml"
    assert client.get("/tiles/back.svg").status_code == 200
    assert client.get("/tiles/38.svg").status_code == 404
    assert client.get("/tiles/x.svg").status_code == 404


# -- pages ----------------------------------------------------------------------------------------------


def test_index_lists_replays_and_tournaments_with_security_headers(client: TestClient, root: Path) -> None:
    Tournament(Settings.create([Entrant(n, "builtin:greedy") for n in "abcd"]), root / "cup")
    response = client.get("/")
    assert response.status_code == 200
    assert 'href="/replays/game.json"' in response.text
    assert 'href="/tournaments/cup"' in response.text
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"


def test_pages_and_static_files(client: TestClient) -> None:
    for path in ("/replays/game.json", "/play", "/static/mj.js", "/static/style.css", "/static/replay.js"):
        assert client.get(path).status_code == 200, path
    assert "data-replay=\"game.json\"" in client.get("/replays/game.json").text


def test_replay_data(client: TestClient) -> None:
    view = client.get("/api/replays/game.json").json()
    assert view["rules"] == "noi2014" and view["name"] == "game.json"
    assert view["seat_names"] == ["East", "South", "West", "North"]
    assert view["steps"][-1]["text"] == "game over"


# -- security: paths ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [
    "/replays/..%2F..%2Fetc%2Fpasswd", "/api/replays/..%2Fsecret.json", "/api/replays/%2Fetc%2Fpasswd",
    "/api/replays/..%5Csecret.json", "/api/replays/game.json%00", "/api/replays/sub/..%2F..%2Fsecret.json",
    "/replays/nothing.json", "/api/tournaments/..%2F..", "/tournaments/..%2Fserved", "/api/tournaments/nope",
])
def test_paths_outside_the_folder_are_404(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "passwd" not in response.text or "no such file" in response.text


def test_a_link_that_leads_out_is_404(client: TestClient, root: Path) -> None:
    (root / "escape.json").symlink_to(root.parent / "secret.json")
    assert client.get("/api/replays/escape.json").status_code == 404
    assert "escape.json" not in client.get("/").text


def test_a_file_that_is_not_a_replay_is_422_with_the_reason(client: TestClient, root: Path) -> None:
    (root / "notes.json").write_text("[1, 2]")
    response = client.get("/api/replays/notes.json")
    assert response.status_code == 422
    assert "not an mjarena replay" in response.json()["error"]
    (root / "notes.txt").write_text("hello")
    assert client.get("/api/replays/notes.txt").status_code == 404


# -- security: uploads ----------------------------------------------------------------------------------


def _upload(client: TestClient, content: bytes, name: str = "x.json", **kwargs: Any) -> Any:
    """Upload ``content`` as the form on ``/`` does: with the token of the visitor's form cookie."""
    from mjarena.web.app import FORM_COOKIE

    if FORM_COOKIE not in client.cookies:
        assert client.get("/").status_code == 200
    kwargs.setdefault("headers", {"accept": "application/json"})
    return client.post("/upload", files={"file": (name, content)}, data={"token": client.cookies[FORM_COOKIE]},
                       **kwargs)



def test_upload_keeps_a_replay_under_uploads_by_the_hash_of_its_bytes(client: TestClient, root: Path) -> None:
    import hashlib

    raw = (root / "game.json").read_bytes()
    response = _upload(client, raw, "../../My Game!.json", headers={}, follow_redirects=False)
    assert response.status_code == 303
    name = f"uploads/{hashlib.sha256(raw).hexdigest()[:32]}.json"
    assert response.headers["location"] == "/replays/" + name
    assert (root / name).read_bytes() == raw
    again = _upload(client, raw, "My Game.json")  # the same bytes again: the same file, kept once
    assert again.status_code == 201 and again.json()["name"] == name
    assert [path.name for path in (root / "uploads").iterdir()] == [Path(name).name]
    assert client.get("/api/replays/" + name).status_code == 200


def test_an_oversized_upload_is_413(client: TestClient) -> None:
    response = _upload(client, b" " * 300_000, "big.json")
    assert response.status_code == 413
    assert "larger than the limit" in response.text


@pytest.mark.parametrize(("content", "message"), [
    (b'{"format": "other"}', "not an mjarena replay"),
    (b"not json at all", "invalid JSON"),
    (b"\xff\xfe", "not UTF-8"),
    (b'{"format": "mjarena-replay", "rules": "chess", "wall": [], "seats": [], "events": [], "decisions": []}',
     "no matches of 'chess'"),
    (b'{"format": "mjarena-replay", "rules": "noi2014", "wall": [], "seats": [], "events": [{"type": "play", '
     b'"seat": 0, "tiles": ["W1"]}], "decisions": []}', "a NOI 2014 wall has 108 tiles"),
])
def test_an_upload_that_is_not_a_replay_is_400_with_the_reason(client: TestClient, root: Path, content: bytes,
                                                               message: str) -> None:
    response = _upload(client, content)
    assert response.status_code == 400
    assert message in response.json()["error"]
    assert not (root / "uploads").exists() or not list((root / "uploads").iterdir())


def test_an_upload_without_a_file_is_400(client: TestClient) -> None:
    assert client.post("/upload", data={"other": "x"}).status_code == 400
    assert client.post("/upload", content=b"plain", headers={"content-type": "text/plain"}).status_code == 400


# -- play ------------------------------------------------------------------------------------------------


def _start(client: TestClient, rules: str = "noi2014", seed: int = 5, seat: int = 0) -> str:
    opponents = ["builtin:greedy"] * 3
    response = client.post("/api/play", json={"rules": rules, "seat": seat, "opponents": opponents, "seed": seed})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def _finish(client: TestClient, sid: str) -> dict[str, Any]:
    view = client.get(f"/api/play/{sid}?wait=10").json()
    for _ in range(500):
        if view["state"] == "finished":
            return view
        assert view["state"] == "waiting", view
        choices = view["choices"]
        pick = next((c for c in choices if c["group"] is None), None) or choices[-1]
        response = client.post(f"/api/play/{sid}", json={"version": view["version"], "choice": pick["index"]})
        assert response.status_code == 200, response.text
        view = response.json()
    raise AssertionError("the game does not end")


@pytest.mark.parametrize(("rules", "seat"), [("noi2014", 0), ("baida", 2), ("thupc2021", 3)])
def test_a_whole_game_through_the_api_is_saved_as_a_replay(client: TestClient, root: Path, rules: str,
                                                           seat: int) -> None:
    sid = _start(client, rules, seed=2, seat=seat)
    first = client.get(f"/api/play/{sid}?wait=10").json()
    assert all(first["table"]["seats"][s]["hand"] is None for s in range(4) if s != seat)
    assert first["table"]["seats"][seat]["hand"]
    view = _finish(client, sid)
    assert view["replay"].startswith("played/")
    data = load(root / view["replay"])
    assert data["seats"][seat]["bot"] == "human"
    assert client.get(f"/api/replays/{view['replay']}").status_code == 200
    over = client.post(f"/api/play/{sid}", json={"version": view["version"], "choice": 0})
    assert over.status_code == 409 and "over" in over.json()["error"]


def test_the_saved_replay_plays_again_exactly(client: TestClient, root: Path) -> None:
    view = _finish(client, _start(client, seed=8))
    data = load(root / view["replay"])
    assert replay_game(data).events == load_events(data)


@pytest.mark.parametrize(("body", "status", "message"), [
    ("{not json", 400, "malformed JSON"),
    ("[1, 2]", 400, "a JSON object"),
    ('{"choice": 0}', 400, '"version" must be a whole number'),
    ('{"version": 1}', 400, 'send "choice"'),
    ('{"version": 1, "choice": "0"}', 400, '"choice" must be a whole number'),
    ('{"version": 1, "choice": 999}', 422, "not one of the"),
    ('{"version": 999, "choice": 0}', 409, "game is at decision"),
    ('{"version": 1, "action": {"type": "gang", "tile": 26}}', 422, "not legal now"),
    ('{"version": 1, "action": {"tile": 3}}', 400, '"type"'),
    ('{"version": 1, "action": {"type": "play", "tile": "W1"}}', 400, '"tile" must be a whole number'),
    ('{"version": 1, "action": {"type": "play", "tiles": 5}}', 400, '"tiles" must be a list'),
])
def test_malformed_or_illegal_moves_are_4xx_with_a_message(client: TestClient, body: str, status: int,
                                                          message: str) -> None:
    sid = _start(client, seed=5)
    view = client.get(f"/api/play/{sid}?wait=10").json()
    assert view["state"] == "waiting" and view["version"] == 1
    response = client.post(f"/api/play/{sid}", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status
    assert message in response.json()["error"]
    assert client.get(f"/api/play/{sid}").json()["version"] == 1, "a refused move changes nothing"


def test_a_legal_action_given_as_an_object_is_played(client: TestClient) -> None:
    sid = _start(client, seed=5)
    view = client.get(f"/api/play/{sid}?wait=10").json()
    tile = next(c["tile"] for c in view["choices"] if c["type"] == "play")
    response = client.post(f"/api/play/{sid}", json={"version": 1, "action": {"type": "play", "tile": tile}})
    assert response.status_code == 200 and response.json()["version"] > 1


@pytest.mark.parametrize(("request_args", "status"), [
    ({"url": "/api/play/no-such-game"}, 404),
    ({"url": "/play/no-such-game"}, 404),
    ({"url": "/api/play/no-such-game", "method": "POST", "json": {"version": 1, "choice": 0}}, 404),
    ({"url": "/api/play", "method": "POST", "json": {"rules": "chess", "seat": 0, "opponents": []}}, 422),
    ({"url": "/api/play", "method": "POST", "json": {"rules": "noi2014", "seat": 4,
                                                      "opponents": ["builtin:greedy"] * 3}}, 422),
    ({"url": "/api/play", "method": "POST", "json": {"rules": "noi2014", "seat": 0,
                                                      "opponents": ["rm -rf /"] * 3}}, 422),
    ({"url": "/api/play", "method": "POST", "json": {"rules": "noi2014", "seat": "0",
                                                      "opponents": ["builtin:greedy"] * 3}}, 400),
    ({"url": "/api/play", "method": "POST", "json": {"rules": 5}}, 400),
    ({"url": "/api/play", "method": "POST", "content": "rules=noi2014"}, 415),
    ({"url": "/api/play", "method": "POST", "content": "x" * 70_000,
      "headers": {"content-type": "application/json"}}, 413),
    ({"url": "/api/play", "method": "DELETE"}, 405),
    ({"url": "/nowhere"}, 404),
])
def test_bad_requests_are_4xx_never_500(client: TestClient, request_args: dict[str, Any], status: int) -> None:
    args = dict(request_args)
    response = client.request(args.pop("method", "GET"), args.pop("url"), **args)
    assert response.status_code == status
    assert response.text and "Traceback" not in response.text


def test_wait_must_be_a_small_number(client: TestClient) -> None:
    sid = _start(client)
    assert client.get(f"/api/play/{sid}?wait=soon").status_code == 400
    assert client.get(f"/api/play/{sid}?wait=3600").status_code == 400


def test_only_offered_opponents_and_server_bots(root: Path) -> None:
    room = PlayRoom(root, bots=["python3 mybot.py", "baida:python3 baida_bot.py", "THUPC:./thupc_bot"])
    from mjarena.rulesets import judge_rules

    builtins = [f"builtin:{name}" for name in judge_rules("noi2014").agents]
    assert "builtin:greedy" in builtins and room.opponents("noi2014") == [*builtins, "bot:mybot"]
    # a bot is offered only for the rule set whose protocol it speaks (issue 25)
    assert room.opponents("baida")[-1] == "bot:baida_bot" and "bot:mybot" not in room.opponents("baida")
    assert room.opponents("thupc2021")[-1] == "bot:thupc_bot"
    room.close()


def test_sessions_are_capped_per_client_and_its_own_oldest_ends(root: Path) -> None:
    with TestClient(create_app(root, sessions_per_client=2)) as client:
        first, second, third = (_start(client, seed=s) for s in (1, 2, 3))
        assert client.get(f"/api/play/{first}").status_code == 404
        assert client.get(f"/api/play/{second}").status_code == 200
        assert client.get(f"/api/play/{third}").status_code == 200


def test_a_full_room_ends_a_game_of_the_client_holding_the_most_never_one_holding_as_few(root: Path) -> None:
    room = PlayRoom(root, limit=3, per_client=2)
    greedy = ["builtin:greedy"] * 3
    try:
        mine = room.create("noi2014", 0, greedy, seed=1, client="10.0.0.1")
        theirs = [room.create("noi2014", 0, greedy, seed=s, client="10.0.0.2") for s in (2, 3, 4)]
        assert room.get(mine.id) is mine, "another client's games never end this one"
        late = room.create("noi2014", 0, greedy, seed=5, client="10.0.0.3")  # 10.0.0.2 holds 2: its oldest ends
        with pytest.raises(PlayError):
            room.get(theirs[1].id)
        assert room.get(theirs[2].id) and room.get(late.id) and room.get(mine.id)
        with pytest.raises(PlayError) as refused:  # every client holds one game: none is ended for a fourth
            room.create("noi2014", 0, greedy, seed=6, client="10.0.0.4")
        assert refused.value.status == 503
        mine.touched -= room.idle_seconds + 1  # no move for longer than idle_seconds
        fourth = room.create("noi2014", 0, greedy, seed=6, client="10.0.0.4")
        assert room.get(fourth.id) is fourth
        with pytest.raises(PlayError):
            room.get(mine.id)
    finally:
        room.close()


class _GatedAgent:
    """Passes or discards first, but only once ``gate`` opens."""

    def __init__(self, gate: threading.Event) -> None:
        self.gate = gate

    def act(self, game: Any, seat: int, legal: Sequence[Action]) -> Action:
        self.gate.wait(30)
        return legal[-1] if legal and legal[-1].type == "pass" else legal[0]


def test_waiting_requests_do_not_hold_threads() -> None:
    from mjarena.web.play import PlaySession

    gate = threading.Event()

    class GatedSession(PlaySession):  # East is a bot that waits for the gate: the game is running till then
        def _make_agent(self, spec: str, seat: int, *args: Any, **kwargs: Any) -> Any:
            return _GatedAgent(gate) if seat == 0 else super()._make_agent(spec, seat, *args, **kwargs)

    session = GatedSession("noi2014", 1, ["builtin:greedy"] * 3)

    async def twenty_waits() -> tuple[list[str], int, int]:
        threads = threading.active_count()
        waits = [asyncio.ensure_future(session.next_view(20)) for _ in range(20)]
        await asyncio.sleep(0.1)
        waiting_threads = threading.active_count()
        assert not any(wait.done() for wait in waits), "the game is running: they wait"
        gate.set()
        views = await asyncio.gather(*waits)
        return [view["state"] for view in views], threads, waiting_threads

    try:
        states, before, during = asyncio.run(twenty_waits())
    finally:
        gate.set()
        session.close()
    assert states == ["waiting"] * 20, "each wakes when the person's decision comes"
    assert during == before, "twenty waiting requests took no thread"


def test_the_game_routes_wait_on_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import mjarena.web.handlers.play_pages as app_module

    sid = _start(client)
    used: list[Any] = []
    original = app_module.run_in_threadpool

    async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
        used.append(fn)
        return await original(fn, *args, **kwargs)

    monkeypatch.setattr(app_module, "run_in_threadpool", counting)
    view = client.get(f"/api/play/{sid}?wait=5").json()
    client.post(f"/api/play/{sid}", json={"version": view["version"], "choice": view["choices"][-1]["index"]})
    assert used == [], "no long-poll or move runs in a worker thread"


def test_the_player_view_holds_no_seed_and_no_hidden_tile_until_the_end(client: TestClient) -> None:
    sid = _start(client, seed=12345)
    view = client.get(f"/api/play/{sid}?wait=10").json()
    assert "seed" not in view and "12345" not in json.dumps(view)
    others = [view["table"]["seats"][s] for s in (1, 2, 3)]
    assert all(seat["hand"] is None and seat["drawn"] is None and seat["hidden"] >= 13 for seat in others)
    assert not any(" IN " in line or "draws" in line for line in view["log"] if not line.startswith("East"))
    finished = _finish(client, sid)
    assert finished["seed"] == 12345
    assert all(seat["hand"] is not None for seat in finished["table"]["seats"])


def test_discard_choices_carry_the_distance_they_leave(client: TestClient) -> None:
    view = client.get(f"/api/play/{_start(client, seed=6)}?wait=10").json()
    discards = [c for c in view["choices"] if c["group"] is None]
    assert discards and all(type(c["distance"]) is int and 0 <= c["distance"] <= 14 for c in discards)
    assert len({c["distance"] for c in discards}) > 1, "the hint tells the discards apart"


def test_sessions_are_separate(client: TestClient) -> None:
    one, two = _start(client, seed=1), _start(client, seed=2)
    assert one != two and len(one) >= 20
    view = client.get(f"/api/play/{one}?wait=10").json()
    client.post(f"/api/play/{one}", json={"version": view["version"], "choice": view["choices"][-1]["index"]})
    assert client.get(f"/api/play/{two}?wait=10").json()["version"] == 1


def test_choice_views_group_actions_under_buttons() -> None:
    names = {0: "W1", 1: "W2", 2: "W3", 5: "W6", 34: "PASS"}
    views = choice_views("discard", [Action("discard", 34, 1), Action("discard", 34, 2), Action("chow", 0)],
                         names, "ABCD")
    assert [(v["group"], v["tile"], v["label"]) for v in views] == [
        (None, 34, "discard PASS → B"), (None, 34, "discard PASS → C"), ("CHOW W1-W2-W3", None, "CHOW W1-W2-W3")]
    [chi] = choice_views("claim", [Action("chi", 0, tiles=(5,))], names, "ESWN")
    assert (chi["group"], chi["tile"]) == ("CHI W1-W2-W3", 5)


# -- errors never show a traceback -----------------------------------------------------------------------


def test_an_unexpected_error_is_a_clean_message(root: Path) -> None:
    app = create_app(root)

    async def boom(request: Any) -> Any:
        raise RuntimeError("secret internals")

    app.router.routes.append(Route("/api/boom", boom))
    app.router.routes.append(Route("/boom", boom))
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/boom")
        assert response.status_code == 500
        assert response.json()["error"].startswith("the server failed")
        page = client.get("/boom")
        assert "secret internals" not in page.text and "Traceback" not in page.text


# -- tournaments ------------------------------------------------------------------------------------------


class _InProcess:
    remote = False

    def run(self, fn: Any, tasks: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
        return ((task, fn(task)) for task in tasks)

    def close(self, cancel: bool = False) -> None:
        pass


def test_tournament_data_reads_a_running_tournament_without_touching_it(client: TestClient, root: Path) -> None:
    settings = Settings.create([Entrant(n, "builtin:greedy") for n in ("a", "b", "c", "d", "e")], rounds=2, seed=1)
    Tournament(settings, root / "cup").run(_InProcess(), log=io.StringIO())
    games = root / "cup" / "games.jsonl"
    with open(games, "a") as out:
        out.write('{"game": "r9-t1-g1", "half a line')  # a line being written
    before = games.read_bytes()
    state = client.get("/api/tournaments/cup").json()
    assert games.read_bytes() == before
    assert (state["played"], state["total"], state["complete"]) == (4, 4, True)
    assert [row["bot"] for row in state["standings"]] and all(row["games"] for row in state["standings"])
    assert "house-1" not in json.dumps(state["standings"])
    replay = state["games"][0]["replay"]
    assert replay == "cup/replays/r001-t001-g001.json"
    assert client.get(f"/api/replays/{replay}").status_code == 200
    assert client.get("/tournaments/cup").status_code == 200
    assert state["eta_seconds"] is None, "finished: nothing left"
    versus = state["head_to_head"]
    assert "house-1" not in versus and set(versus) == {"a", "b", "c", "d", "e"}
    for a, row in versus.items():
        for b, (better, tied, worse) in row.items():
            assert versus[b][a] == [worse, tied, better], "the matrix mirrors itself"
    games = {name: row["games"] for name, row in ((r["bot"], r) for r in state["standings"])}
    assert all(sum(sum(cell) for cell in versus[name].values()) >= games[name] for name in games)
    assert set(state["times"]) == {"a", "b", "c", "d", "e"}
    assert all(t["answers"] > 0 and 0 <= t["mean_ms"] <= t["max_ms"] for t in state["times"].values())


def test_the_folder_itself_can_be_the_tournament(tmp_path: Path) -> None:
    settings = Settings.create([Entrant(n, "builtin:random") for n in "abcd"], seed=3)
    Tournament(settings, tmp_path).run(_InProcess(), log=io.StringIO())
    assert Library(tmp_path).tournaments() == ["-"]
    with TestClient(create_app(tmp_path)) as client:
        assert client.get("/api/tournaments/-").json()["games"][0]["replay"] == "replays/r001-t001-g001.json"


def test_a_damaged_tournament_file_is_422(client: TestClient, root: Path) -> None:
    (root / "broken").mkdir()
    (root / "broken" / "tournament.json").write_text("{}")
    response = client.get("/api/tournaments/broken")
    assert response.status_code == 422 and "cannot be read" in response.json()["error"]


# -- the command ------------------------------------------------------------------------------------------


def test_serve_refuses_a_missing_folder_and_says_which_extra_is_missing(capsys: Any, monkeypatch: Any) -> None:
    from mjarena.cli import main

    assert main(["serve", "/no/such/folder"]) == 2
    assert "not a folder" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve", "."]) == 2
    assert "pip install 'mjarena[web]'" in capsys.readouterr().err


def test_serve_binds_to_this_machine_by_default() -> None:
    from mjarena.cli import build_parser

    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.dir) == ("127.0.0.1", 8000, ".")
    assert os.path.isdir(args.dir)


# -- hostile visitors ---------------------------------------------------------------------------------------

_DEEP = b'{"format": "mjarena-replay", "rules": "noi2014", "seats": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"


def test_a_deeply_nested_replay_is_listed_as_unreadable_and_the_index_still_answers(client: TestClient,
                                                                                    root: Path) -> None:
    (root / "sub").mkdir()
    (root / "sub" / "deep.json").write_bytes(_DEEP)
    (root / "not-a-replay.json").write_bytes(b"[" * 100_000)  # no replay marker: not listed at all
    for _ in range(2):  # the second answer comes from the cache
        page = client.get("/")
        assert page.status_code == 200
        assert 'href="/replays/game.json"' in page.text
        assert "deep.json" in page.text and "unreadable" in page.text and "nested too deeply" in page.text
        assert "not-a-replay" not in page.text
    response = client.get("/api/replays/sub/deep.json")
    assert response.status_code == 422 and "nested too deeply" in response.json()["error"]
    upload = _upload(client, _DEEP, "deep.json")
    assert upload.status_code == 400 and "nested too deeply" in upload.json()["error"]


def test_a_deeply_nested_tournament_file_is_422(client: TestClient, root: Path) -> None:
    settings = Settings.create([Entrant(n, "builtin:greedy") for n in "abcd"], rounds=1, seed=1)
    Tournament(settings, root / "cup")
    with open(root / "cup" / "games.jsonl", "ab") as games:
        games.write(b"[" * 100_000 + b"\n")
    assert client.get("/api/tournaments/cup").status_code == 200, "a hostile line is skipped like a torn one"
    (root / "cup" / "tournament.json").write_bytes(b'{"parameters": ' + b"[" * 100_000 + b"}")
    assert client.get("/api/tournaments/cup").status_code == 422
    assert client.get("/tournaments/cup").status_code == 200
    assert client.get("/").status_code == 200


def test_the_index_is_paginated_and_grouped_by_folder(root: Path) -> None:
    from mjarena.web import pages

    data = (root / "game.json").read_bytes()
    for folder in ("a", "b"):
        (root / folder).mkdir()
        for number in range(30):
            (root / folder / f"g{number:02}.json").write_bytes(data)
    with TestClient(create_app(root), raise_server_exceptions=False) as client:
        first, last = client.get("/").text, client.get("/?page=2").text
        assert first.count('href="/replays/') == 50 and last.count('href="/replays/') == 11
        assert '<h3 class="folder">this folder' in first and '<h3 class="folder">a/' in first
        assert '<h3 class="folder">b/' in last and "page 2 of 2" in last
        assert client.get("/?page=99").status_code == 200  # past the end: the last page
        assert client.get("/?page=x").status_code == 400
    assert "page 1 of" not in pages.index_page([], [], 1024)


@pytest.mark.parametrize(("method", "url"), [("PUT", "/"), ("GET", "/static/../app.py"), ("GET", "/static/none.js"),
                                              ("POST", "/replays/game.json"), ("GET", "/tiles/-5.svg")])
def test_every_error_page_is_4xx_without_a_traceback(client: TestClient, method: str, url: str) -> None:
    response = client.request(method, url)
    assert 400 <= response.status_code < 500
    assert "Traceback" not in response.text and "File \"" not in response.text


@pytest.fixture
def live_server(root: Path) -> Iterator[tuple[str, int]]:
    """The app behind :func:`mjarena.web.server.config` on a free port, with a head timeout of 0.5 s."""

    import uvicorn

    from mjarena.web.server import TimelyH11, config

    class Quick(TimelyH11):
        header_seconds = 0.5

    with running(uvicorn.Server(config(create_app(root), "127.0.0.1", 0, http=Quick))) as address:
        yield address


def test_a_request_head_that_does_not_arrive_in_time_closes_the_connection(live_server: tuple[str, int]) -> None:
    import socket

    with socket.create_connection(live_server, timeout=10) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line that ends the head
        assert slow.recv(1024) == b"", "the server closed the connection"
    with socket.create_connection(live_server, timeout=10) as kept:  # a kept-alive connection: the same again
        kept.sendall(b"GET /tiles/1.svg HTTP/1.1\r\nHost: x\r\n\r\n")
        first = kept.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET / HTTP/1.1\r\n")
        received = b""
        while chunk := kept.recv(65536):
            received += chunk
        assert b"HTTP/1.1" not in received


def test_a_request_body_that_does_not_arrive_in_time_is_408(root: Path) -> None:
    import anyio

    from mjarena.web.app import read_body

    async def slow_body() -> dict[str, Any]:
        await anyio.sleep(5)
        return {"type": "http.request", "body": b"{}", "more_body": False}

    from starlette.exceptions import HTTPException
    from starlette.requests import Request

    request = Request({"type": "http", "method": "POST", "headers": [], "path": "/", "query_string": b""}, slow_body)

    async def read() -> int:
        try:
            await read_body(request, 1024, seconds=0.2)
        except HTTPException as error:
            return error.status_code
        return 200

    assert anyio.run(read) == 408


# -- the end of a game, the transcripts, the tile names ------------------------------------------------------


def test_baida_logs_and_pages_name_tiles_as_its_bots_read_them() -> None:
    from mjarena.protocol import baida as protocol
    from mjarena.rulesets import judge_rules
    from mjarena.web.timeline import tile_names

    data = run_match(BOTS["baida"], rules="baida", seed=1).to_json()
    lines = judge_rules("baida").log(load_events(data))
    dealt = [line.split("dealt", 1)[1].split() for line in lines if " dealt " in line]
    assert all(protocol.parse_tile(name) >= 0 for names in dealt for name in names), "every name a bot would read"
    assert any(name.startswith(("F", "J")) for names in dealt for name in names)
    assert tile_names("baida") == {kind: protocol.format_tile(kind) for kind in tile_names("baida")}
    assert timeline(data)["tile_names"][31] == "J3"  # 白, not THUPC's B (which a baida bot reads as dots)


def test_the_end_of_a_noi_game_explains_targets_and_ties() -> None:
    from mjarena.web.outcome import outcome

    data = run_match(["builtin:random"] * 4, seed=1).to_json()
    panel = outcome(data)
    assert "the wall ran out" in panel["ended"]
    targets = [row for row in panel["rows"] if "target" in row["why"]]
    assert len(targets) == 4 and all("away, win chance" in row["why"] for row in targets)
    tied = [(a, b) for a in data["seats"] for b in data["seats"]
            if a["seat"] < b["seat"] and a["distance"] == b["distance"]]
    assert len(panel["notes"]) >= 1 and len(tied) >= 1
    assert all(("tie" in note) or ("win chance" in note and " > " in note) for note in panel["notes"])


def test_the_end_of_baida_and_thupc_games_shows_the_win() -> None:
    from mjarena.web.outcome import outcome

    baida = outcome(run_match(BOTS["baida"], rules="baida", seed=1).to_json())
    assert baida["wins"] and baida["score"]["form_zh"] in ("小胡", "七巧对", "清一色")
    assert baida["score"]["form"].isascii(), "every glyph renders without CJK fonts"
    assert isinstance(baida["score"]["items"], list) and baida["score"]["arrangement"]
    thupc = outcome(run_match(["builtin:fixed"] * 4, rules="thupc2021", seed=5).to_json())
    assert thupc["ended"] == "A won on a discard of 4P from C"
    assert thupc["wins"] == [{"seat": 0, "tile": 12, "how": "discard", "from": 2, "tile_name": "4P"}]


def test_transcripts_show_each_exchange_and_the_erring_turn(client: TestClient, root: Path) -> None:
    save(run_match(["builtin:greedy", CRASHING_BOT, "builtin:random", "builtin:greedy"], seed=11).to_json(),
         root / "crash.json")
    view = client.get("/api/replays/crash.json").json()
    panel = view["transcripts"][1]
    assert panel["kind"] == "exchanges" and panel["error"]["reason"] == "crash"
    assert panel["rows"][-1]["verdict"] == "crash" and panel["rows"][-1]["response"] is None
    assert all(row["verdict"] == "ok" for row in panel["rows"][:-1])
    assert view["transcripts"][0]["kind"] == "decisions" and view["transcripts"][0]["rows"]
    assert view["outcome"]["rows"][-1]["why"].startswith("error (crash)")


def test_no_route_of_the_web_app_answers_500_to_odd_names_and_ids(root: Path) -> None:
    """Every path parameter of every route, given odd bytes ('²', '٣', huge numbers, NUL, dots), is refused with
    a 4xx, never a traceback."""
    import re

    from starlette.routing import Mount, Route

    app = create_app(root)
    client = TestClient(app, raise_server_exceptions=False)
    checked = 0
    for route in app.routes:
        if isinstance(route, Mount) or not isinstance(route, Route) or "{" not in route.path:
            continue
        for odd in ("%C2%B2", "%D9%A3", "-1", "9" * 30, "%00", "..", "%E2%80%AE", "x" * 300):
            path = re.sub(r"\{[^}]+\}", odd, route.path)
            for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
                response = client.request(method, path)
                assert response.status_code < 500, (method, path, response.status_code, response.text[:300])
                checked += 1
    assert checked >= 8


def test_a_replay_with_more_events_than_a_game_can_have_is_refused_before_it_is_drawn(client: TestClient) -> None:
    """An attack of our own (review of issues 24 and 26): each step of the viewer shows the whole table, so its
    work grows with the square of the events, and the replay file is the uploader's.  A 463 KiB upload of a seat
    drawing and discarding W1 10,000 times took 64 s and 749 MiB to show; 40,000 times, the server ran out of
    memory.  A game of NOI 2014 has at most mjarena.replay.max_events(108) events: more is a 400 at once."""
    from mjarena.arena.match import run_match
    from mjarena.replay import max_events

    data = json.loads(json.dumps(run_match(["builtin:greedy"] * 4, seed=3).to_json()))
    loop = [{"type": "draw", "seat": 0, "tiles": ["W1"]}, {"type": "play", "seat": 0, "tiles": ["W1"]}]
    data["events"] = data["events"][:4] + loop * (max_events(108) // 2)
    response = _upload(client, json.dumps(data).encode(), "long.json")
    assert response.status_code == 400, response.text
    assert f"{max_events(108) + 4} events; a game of noi2014 on a 108-tile wall has at most {max_events(108)}" \
        in response.json()["error"]
    data["events"] = data["events"][:max_events(108)]  # as many as a game can hold: shown
    shown = _upload(client, json.dumps(data).encode(), "long.json")
    assert shown.status_code == 201, shown.text
