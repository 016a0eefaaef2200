"""What a contest keeps of each bot's output in a replay: within a budget per seat and game.

A bot's answers carry its private ``debug`` field and its standard error (each at most 4 KiB an answer, as the
judge reads them) besides its response (kept up to 4 KiB).  A bot padding all three, with control characters that
JSON writes as six-byte ``\\u00XX`` escapes, made replays of 5 to 11 MB, and a contest.db that grew by hundreds of
MiB a minute.  So each seat has :data:`SEAT_BUDGET` bytes a game for them, counted as the replay stores them (JSON
text, escapes included).  Once a seat has used its budget, its later exchanges keep no ``debug`` or standard error
and their responses are cut to :data:`RESPONSE_FLOOR` characters (longer than any action the rules know); the
first exchange cut says so in its ``debug`` (which only the seat's team sees).  An honest bot never meets the
budget: the contest's test bot, which writes a line of debug output and one of standard error each turn, uses
about 6 KiB of it in a game of 59 answers.

>>> replay = {"transcripts": {"0": [{"request": "2 W1", "response": "PLAY W1" + " " * 100, "debug": "x" * 100}
...                                 for _ in range(3)]}}
>>> kept = within_budget(replay, budget=250)
>>> [len(line["response"]) for line in kept["transcripts"]["0"]], [len(line.get("debug", "")) for line in
...     kept["transcripts"]["0"]][0]
([107, 64, 64], 100)
>>> "budget" in kept["transcripts"]["0"][1]["debug"], "debug" in kept["transcripts"]["0"][2]
(True, False)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["GAME_OWN", "PRIVATE_KEYS", "RESPONSE_FLOOR", "SEAT_BUDGET", "game_bound", "seat_cost", "within_budget"]

SEAT_BUDGET = 64 << 10
"""Bytes of ``debug``, standard error and responses (as JSON text) a seat may have kept in one game's replay."""
RESPONSE_FLOOR = 64
"""Characters of a response kept after the seat's budget is used (the longest action is shorter)."""
PRIVATE_KEYS = ("debug", "stderr")
GAME_OWN = 256 << 10
"""A bound on the rest of a game's replay as JSON text: its wall, events, decisions, the judge's requests and
error details (about 70 KiB in a NOI 2014 game of 59 answers a seat), and the responses cut to
:data:`RESPONSE_FLOOR` characters after a budget is used (at most 384 bytes each as JSON)."""


def game_bound(seats: int = 4) -> int:
    """The most bytes one game's replay takes in contest.db: its JSON text at most ``seats`` budgets and
    :data:`GAME_OWN`, stored zlib-compressed (which never adds more than 0.1 % and a few bytes).

    >>> game_bound() // 1024
    512
    """
    raw = seats * SEAT_BUDGET + GAME_OWN
    return raw + raw // 1000 + 64


def _size(value: Any) -> int:
    """Bytes of ``value`` as the replay's JSON text holds it (escapes included)."""
    return len(json.dumps(value, ensure_ascii=False).encode()) if value is not None else 0


def seat_cost(line: Mapping[str, Any]) -> int:
    """What one exchange of a transcript costs of its seat's budget: its ``debug``, standard error and response.

    >>> seat_cost({"request": "2 W1", "response": "PASS", "debug": "\\x01"})
    14
    """
    return sum(_size(line.get(key)) for key in ("response", *PRIVATE_KEYS))


def within_budget(replay: dict[str, Any], budget: int = SEAT_BUDGET) -> dict[str, Any]:
    """``replay`` with each seat's transcript kept within ``budget`` bytes (see the module's docstring); the
    same dict, changed in place."""
    for seat, lines in (replay.get("transcripts") or {}).items():
        used = 0
        cut = False
        for line in lines:
            cost = seat_cost(line)
            if not cut and used + cost <= budget:
                used += cost
                continue
            if not cut:
                line["debug"] = (f"(seat {seat} used its replay budget of {budget // 1024} KiB: from here on "
                                 f"no debug output or standard error is kept, and responses keep "
                                 f"{RESPONSE_FLOOR} characters)")
                line.pop("stderr", None)
                cut = True
            else:
                for key in PRIVATE_KEYS:
                    line.pop(key, None)
            if isinstance(line.get("response"), str):
                line["response"] = line["response"][:RESPONSE_FLOOR]
    return replay
