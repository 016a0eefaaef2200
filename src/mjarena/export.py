"""A replay in other shapes: one HTML file to send to a friend, a Botzone-style log, a JSON-lines event stream.

``mjarena replay export FILE --format html|botzone|jsonl`` writes one of:

- ``html``: the web app's replay viewer as one self-contained file (its script, style, tile pictures as
  ``data:`` URLs and the game's data inline; its Content-Security-Policy forbids every network request), so it
  opens from disk, offline.  Needs nothing from the ``web`` extra.
- ``botzone``: per seat, the ``{"requests": [...], "responses": [...]}`` history in the shape a Botzone bot
  reads on its standard input (the rule set's protocol strings), to run a bot again on any turn of the game.
- ``jsonl``: an mjai-like stream: ``start_game``, one line per event (``actor``, ``pai`` or ``tiles``,
  ``target``), ``end_game`` with ranks and points.

>>> from mjarena.arena.match import run_match
>>> data = run_match(["builtin:greedy"] * 4, seed=7).to_json()
>>> lines = export(data, "jsonl").splitlines()
>>> lines[0][:53]
'{"type": "start_game", "rules": "noi2014", "seed": 7,'
>>> len(lines) == len(data["events"]) + 2
True
>>> log = json.loads(export(data, "botzone"))
>>> log["seats"][0]["requests"][:1], len(log["seats"][0]["requests"]) == len(log["seats"][0]["responses"])
(['0 0'], True)
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

__all__ = ["FORMATS", "ExportError", "export"]

FORMATS = ("html", "botzone", "jsonl")
_STATIC = Path(__file__).parent / "web" / "static"


class ExportError(ValueError):
    """A replay that cannot be exported in the format asked for (the message says why)."""


def export(data: dict[str, Any], fmt: str, name: str = "replay") -> str:
    """The replay ``data`` (as :func:`mjarena.replay.load` reads it) in format ``fmt`` (:data:`FORMATS`);
    ``name`` titles the HTML page."""
    if fmt == "html":
        return _html(data, name)
    if fmt == "botzone":
        return json.dumps(_botzone(data), ensure_ascii=False, indent=1) + "\n"
    if fmt == "jsonl":
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in _jsonl(data))
    raise ExportError(f"unknown format {fmt!r}; choose from: {', '.join(FORMATS)}")


def _botzone(data: dict[str, Any]) -> dict[str, Any]:
    """Each seat's requests (from the events, as the protocol writes them) and its answers: the recorded
    decisions for requests that carry one, ``PASS`` for the others (``0 id``, ``1 hand``, announcements)."""
    from mjarena.replay import load_events
    from mjarena.rulesets import judge_rules

    judge = judge_rules(data["rules"])
    events = load_events(data)
    seats = []
    for seat in data["seats"]:
        number = seat["seat"]
        answers = iter(d["response"] for d in data["decisions"] if d["seat"] == number)
        requests, responses = [], []
        for request in judge.protocol.requests_for(events, number):
            requests.append(request.text)
            responses.append("PASS" if request.kind == "pass" else next(answers, None))
        while responses and responses[-1] is None:  # a seat that left has no answer to its last requests
            responses.pop()
            requests.pop()
        seats.append({"seat": number, "bot": seat["bot"], "requests": requests, "responses": responses})
    return {"format": "botzone-log", "rules": data["rules"], "seed": data.get("seed"), "seats": seats}


def _jsonl(data: dict[str, Any]) -> list[dict[str, Any]]:
    seats = data["seats"]
    lines: list[dict[str, Any]] = [{"type": "start_game", "rules": data["rules"], "seed": data.get("seed"),
                                    "names": [seat["bot"] for seat in seats]}]
    for event in data["events"]:
        line: dict[str, Any] = {"type": event["type"]}
        if "seat" in event:
            line["actor"] = event["seat"]
        tiles = event.get("tiles") or []
        if len(tiles) == 1:
            line["pai"] = tiles[0]
        elif tiles:
            line["tiles"] = tiles
        for key in ("target", "dice", "tai"):
            if key in event:
                line[key] = event[key]
        lines.append(line)
    lines.append({"type": "end_game", "ranks": [seat["rank"] for seat in seats],
                  "scores": [seat["points"] for seat in seats],
                  "errors": [seat.get("reason") for seat in seats]})
    return lines


def _script_json(value: Any) -> str:
    """JSON that can sit inside a ``<script>`` element: no ``</`` or ``<!--`` can end it early."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace("\u2028", "\\u2028") \
        .replace("\u2029", "\\u2029")


def _html(data: dict[str, Any], name: str) -> str:
    from mjarena.web.library import UploadError, viewer_data
    from mjarena.web.tiles import BACK, KINDS, tile_svg

    try:
        view = {"name": name, **viewer_data(data)}
    except UploadError as error:
        raise ExportError(str(error)) from None
    tiles = {("back" if kind == BACK else str(kind)): "data:image/svg+xml;charset=utf-8," + quote(tile_svg(kind))
             for kind in (BACK, *KINDS)}
    style = (_STATIC / "style.css").read_text(encoding="utf-8")
    scripts = "".join(f"<script>{(_STATIC / file).read_text(encoding='utf-8')}</script>"
                      for file in ("mj.js", "replay.js"))
    policy = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<title>{escape(name)} · mjarena replay</title>
<style>{style}</style></head>
<body><header class="top"><span class="brand">mjarena</span><span class="muted">a replay, offline</span></header>
<main id="app" data-replay="{escape(name)}"><h1 class="title">{escape(name)}</h1>
<p class="muted" id="status">Loading the replay…</p></main>
<script type="application/json" id="mj-data">{_script_json(view)}</script>
<script>window.MJ_TILES = {_script_json(tiles)};</script>
{scripts}
</body></html>
"""
