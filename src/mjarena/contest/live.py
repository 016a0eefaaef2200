"""A game in progress, read for the pages from its live file (written by the worker that plays it:
:mod:`mjarena.contest.live_file`).

A page reads the file when asked (:func:`read_live`): complete lines only, so a last line still being written (or
cut by a killed worker) is left out, and lines up to the first one that does not read as a turn; what it read is a
replay of the game so far (:func:`live_replay`), shown in the replay viewer as a finished one is
(:func:`live_view`), without its ending.

>>> import tempfile
>>> from mjarena.arena.match import run_match
>>> path = Path(tempfile.mkdtemp()) / "live" / "7.jsonl"
>>> writer = LiveFile(path, "noi2014", ["red v1", "house", "house", "house"])
>>> result = run_match(["builtin:greedy"] * 4, seed=7, watch=writer)
>>> writer.flush(), writer.close()
(None, None)
>>> _ = path.open("ab").write(b'{"events": [{"ty')  # a torn last line
>>> replay = live_replay(read_live(path))
>>> len(replay["events"]) == len(result.events), replay["seats"][0]["bot"]
(True, 'red v1')
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from mjarena.contest.games import public_detail
from mjarena.contest.live_file import MAX_LIVE_BYTES, LiveFile, live_path

__all__ = ["MAX_LIVE_BYTES", "LiveFile", "live_path", "live_replay", "live_view", "read_live"]


def read_live(path: str | Path, limit: int = MAX_LIVE_BYTES) -> list[dict[str, Any]] | None:
    """The lines of a live file that read as its first line and its turns, in order, up to the first that does
    not (a last line still being written has no newline yet: it is not read); None when there is no file or no
    first line yet.

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "1.jsonl"
    >>> read_live(path) is None
    True
    >>> _ = path.write_bytes(b'{"rules": "noi2014", "wall": [], "players": []}\\n{"events": [], "decisions": []}\\n'
    ...                      b'not json\\n{"events": [], "decisions": []}\\n{"eve')
    >>> len(read_live(path))
    2
    """
    try:
        with open(path, "rb") as handle:
            raw = handle.read(limit)
    except OSError:
        return None
    lines: list[dict[str, Any]] = []
    for number, text in enumerate(raw[:raw.rfind(b"\n") + 1].splitlines()):
        try:
            line = json.loads(text)
        except ValueError:  # (UnicodeDecodeError is one)
            break
        wanted = ("rules", "wall", "players") if number == 0 else ("events", "decisions")
        types = (str, list, list) if number == 0 else (list, list)
        if not isinstance(line, dict) or not all(isinstance(line.get(key), kind) for key, kind in zip(wanted, types,
                                                                                                       strict=True)):
            break
        lines.append(line)
    return lines or None


def live_replay(lines: Sequence[Mapping[str, Any]], own: Collection[int] = ()) -> dict[str, Any]:
    """The game so far as a replay (:mod:`mjarena.replay`'s format) from :func:`read_live`'s lines, with
    ``decided``: the step at which each decision was asked (the events before its turn).  A seat that erred says
    its error from the turn it happened; its bot's standard error only for the seats in ``own`` (its team's, every
    seat for the organiser), as in a finished replay (:func:`mjarena.contest.games.public_detail`)."""
    head, turns = lines[0], lines[1:]
    events: list[Any] = []
    decisions: list[Any] = []
    decided: list[int] = []
    errors: dict[int, tuple[str, str | None]] = {}
    for turn in turns:
        for item in turn["decisions"]:
            decided.append(len(events))
            said = item.get("error") if isinstance(item, dict) else None
            if isinstance(said, str) and isinstance(item.get("seat"), int):
                reason, _, detail = said.partition(": ")
                errors.setdefault(item["seat"], (reason, detail if item["seat"] in own else public_detail(detail)))
            decisions.append({key: value for key, value in item.items() if key != "error"}
                             if isinstance(item, dict) else item)
        events.extend(turn["events"])
    players = [str(name) for name in head["players"]][:4]
    players += [""] * (4 - len(players))
    seats = [{"seat": seat, "bot": name, "status": "error" if seat in errors else "in",
              **({"reason": errors[seat][0], "detail": errors[seat][1]} if seat in errors else {})}
             for seat, name in enumerate(players)]
    return {"format": "mjarena-replay", "version": 1, "rules": head["rules"], "seed": None, "wall": head["wall"],
            "seats": seats, "events": events, "decisions": decisions, "transcripts": {}, "decided": decided}


def live_view(lines: Sequence[Mapping[str, Any]], own: Collection[int] = ()) -> dict[str, Any]:
    """The replay viewer's data of the game so far (:func:`mjarena.web.library.viewer_data`, with no ending yet
    and ``"live": true``); :class:`mjarena.web.library.UploadError` when it does not hold together."""
    from mjarena.replay import ReplayError, check
    from mjarena.web.library import UploadError, viewer_data

    replay = live_replay(lines, own)
    decided = replay.pop("decided")
    try:
        check(replay)
    except ReplayError as error:
        raise UploadError(str(error)) from None
    return {**viewer_data(replay, decided, finished=False), "live": True}
