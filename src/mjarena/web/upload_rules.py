"""What an uploaded replay may hold: the keys the replay format names, and no more bytes than a game of its rules
can make.

:func:`mjarena.replay.check` reads what the viewer needs and lets other keys through, so a replay padded with keys
of its own (``"pad": "xxxx…"``, 5 MiB of it) was kept whole.  Now (:func:`check_upload`):

- an upload is refused when its game record (everything but the transcripts, unknown keys included) is larger
  than :func:`record_bound` of its rules: the most events and decisions a game on its wall can have
  (:func:`mjarena.replay.max_events`, :func:`~mjarena.replay.max_decisions`), each as large as the rules let it
  be; or when its transcripts are larger than :data:`TRANSCRIPT_BYTES` (the judge keeps at most 4 KiB of each
  answer, of its ``debug`` and of its standard error; a whole game's are tens of KiB);
- what is kept is the replay without the keys the format does not name (:func:`stripped`), at the top or in an
  event, a decision, a transcript's exchange or the ``tournament`` object: the names are read from
  ``src/mjarena/replay_schema.json`` (and ``contest``, which a contest's replays carry), so that the format and
  this check cannot drift apart.

>>> 20_000 < record_bound("noi2014", 108) < 2 << 20  # a game of greedy bots: 20 KB
True
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

__all__ = ["ERROR_BYTES", "SEAT_BYTES", "TEXT_BYTES", "TRANSCRIPT_BYTES", "check_upload", "known_keys",
           "record_bound", "stripped"]

SCHEMA = Path(__file__).parent.parent / "replay_schema.json"
TRANSCRIPT_BYTES = 1 << 20
"""Bytes an upload's transcripts may take, all seats together."""
TEXT_BYTES = 256
"""Bytes of a decision's ``stage`` or ``response``: words of the protocol the judge writes (``PLAY W1``, a NOI
target hand of 14 tiles)."""
ERROR_BYTES = 8 << 10
"""Bytes of an error's words (a seat's ``detail``, an erring decision's ``error``): at most one error a seat."""
SEAT_BYTES = 4 << 10
"""Bytes of a seat's other fields (its bot's spec, its target hand and figures)."""


@functools.cache
def known_keys() -> dict[str, frozenset[str]]:
    """The keys the replay format names: ``top`` (and ``contest``), ``event``, ``decision``, ``exchange``,
    ``tournament``, read from the JSON schema.

    >>> sorted(known_keys()["decision"])
    ['by', 'error', 'event', 'ms', 'response', 'seat', 'stage']
    """
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    defs = schema["$defs"]
    return {
        "top": frozenset(schema["properties"]) | {"contest"},
        "event": frozenset(defs["event"]["properties"]),
        "decision": frozenset(defs["decision"]["properties"]),
        "exchange": frozenset(defs["exchange"]["properties"]),
        "tournament": frozenset(schema["properties"]["tournament"]["properties"]),
    }


def _size(value: Any) -> int:
    """Bytes of ``value`` as JSON (UTF-8, as replays are written), with the ``, `` that separates it from the next."""
    return len(json.dumps(value, ensure_ascii=False).encode()) + 2


def record_bound(rules: str, wall_tiles: int) -> int:
    """The most bytes a game record of ``rules`` on a wall of ``wall_tiles`` can take as JSON (transcripts left
    out): every tile named by the rule set's longest name; :func:`~mjarena.replay.max_events` events, each a deal
    of :data:`~mjarena.replay.MAX_DEAL` tiles with every other field at its largest; as many decisions as
    :func:`~mjarena.replay.max_decisions`, with :data:`TEXT_BYTES` of words and an error's :data:`ERROR_BYTES` for
    each seat; four seats of :data:`SEAT_BYTES` and an error each; the ``tournament`` or ``contest`` object."""
    from mjarena.replay import MAX_DEAL, MAX_TAI, max_decisions, max_events
    from mjarena.web.timeline import tile_names

    longest = max(map(len, tile_names(rules).values()))
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    kinds = schema["$defs"]["event"]["properties"]["type"]["enum"]
    event = {"type": max(kinds, key=len), "seat": 3, "tiles": ["T" * longest] * MAX_DEAL, "dice": [6, 6],
             "target": 3, "tai": MAX_TAI}
    events = max_events(wall_tiles)
    decision = {"seat": 3, "stage": "s" * TEXT_BYTES, "response": "r" * TEXT_BYTES, "ms": 86_400_000.123,
                "by": "judge", "event": events}
    tournament = 4 * ERROR_BYTES  # a tournament's or a contest's names of the four entrants, and the game's id
    return (_size(["T" * longest] * wall_tiles) + events * _size(event) + max_decisions(wall_tiles) * _size(decision)
            + 4 * (SEAT_BYTES + 2 * ERROR_BYTES) + tournament + 1024)


def check_upload(data: dict[str, Any], size: int) -> dict[str, Any]:
    """The replay ``data`` (checked by :func:`mjarena.replay.check` already; ``size`` bytes as uploaded) without the
    keys the format does not name, which is what the server keeps; :class:`~mjarena.replay.ReplayError` saying
    what is wrong when the upload, unknown keys and all, is larger than its rules allow (see the module's
    docstring)."""
    from mjarena.replay import ReplayError

    transcripts = data.get("transcripts")
    if transcripts is not None and not (isinstance(transcripts, dict) and all(
            seat in ("0", "1", "2", "3") and isinstance(exchanges, list) for seat, exchanges in transcripts.items())):
        raise ReplayError('"transcripts" must be an object of the seats\' ("0" to "3") lists of exchanges')
    transcript_bytes = _size(transcripts) if transcripts else 0
    if transcript_bytes > TRANSCRIPT_BYTES:
        raise ReplayError(f"the transcripts take {transcript_bytes >> 10} KiB, more than the {TRANSCRIPT_BYTES >> 10}"
                          f" KiB an upload may hold")
    bound = record_bound(str(data["rules"]), len(data["wall"]))
    if size - transcript_bytes > bound:
        raise ReplayError(f"{size >> 10} KiB is more than a game of {data['rules']} on its wall can make ({bound >> 10}"
                          " KiB at most, transcripts aside): a replay holds only the keys docs/replay-format.md "
                          "names, each within the rules")
    return stripped(data)


def stripped(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without the keys the replay format does not name, at the top, in an event, a decision, an exchange
    of a transcript or the ``tournament`` object (a seat with an unknown key is refused by
    :func:`mjarena.replay.check`).

    >>> stripped({"format": "mjarena-replay", "pad": "x", "events": [{"type": "end", "why": "?"}]})
    {'format': 'mjarena-replay', 'events': [{'type': 'end'}]}
    """
    keys = known_keys()

    def only(item: Any, kind: str) -> Any:
        return {key: value for key, value in item.items() if key in keys[kind]} if isinstance(item, dict) else item

    kept = only(data, "top")
    for field, kind in (("events", "event"), ("decisions", "decision")):
        if isinstance(kept.get(field), list):
            kept[field] = [only(item, kind) for item in kept[field]]
    if isinstance(kept.get("transcripts"), dict):
        kept["transcripts"] = {seat: [only(item, "exchange") for item in exchanges] if isinstance(exchanges, list)
                               else exchanges for seat, exchanges in kept["transcripts"].items()}
    if "tournament" in kept:
        kept["tournament"] = only(kept["tournament"], "tournament")
    return kept
