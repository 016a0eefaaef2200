"""What each bot was asked and what it answered, turn by turn: the transcript panel of the replay viewer.

A program bot's replay keeps every exchange (``transcripts``: request, response, time, mode, and the bot's
``debug`` field and standard error when it gave any); an in-process agent (``builtin:``, ``python:``) has none,
and its panel lists its decisions instead (stage, answer, time).  The verdict of a turn is ``ok``, or the seat's
error on the turn it happened (its last exchange: the judge plays for it from then on).

>>> data = {"seats": [{"seat": 0, "reason": "timeout", "detail": "no answer in 1000 ms"}],
...         "transcripts": {"0": [{"request": "0 0", "response": "PASS", "elapsed_ms": 3.2, "mode": "restart"},
...                               {"request": "1 W1", "response": None, "elapsed_ms": 1000.4, "mode": "restart"}]},
...         "decisions": []}
>>> [(row["request"], row["verdict"]) for row in transcripts(data)[0]["rows"]]
[('0 0', 'ok'), ('1 W1', 'timeout')]
"""

from __future__ import annotations

from types import EllipsisType
from typing import Any

__all__ = ["transcripts"]

_TEXT_LIMIT = 4096


def _text(value: Any) -> str | None:
    return None if value is None else str(value)[:_TEXT_LIMIT]


def _number(value: Any) -> float | None:
    return round(float(value), 1) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _moves(steps: list[int] | None, decisions: list[Any], seat: int, exchanges: int) -> list[int] | None:
    """The viewer's step (its move number) at which each of ``seat``'s ``exchanges`` was asked: one exchange per
    answer of its bot (its decisions by ``bot``, and the one where it erred), after the exchanges that started it
    (``0 SEAT``, the deal: asked with its first answer); None when they do not line up so.

    >>> _moves([4, 4, 5, 7], [{"seat": 0, "by": "bot"}, {"seat": 1, "by": "bot"}, {"seat": 0, "by": "bot"},
    ...                       {"seat": 0, "by": "judge"}], 0, 4)
    [4, 4, 4, 5]
    >>> _moves(None, [], 0, 2)
    """
    if steps is None or len(steps) != len(decisions):
        return None
    answered = [step for step, item in zip(steps, decisions, strict=True)
                if isinstance(item, dict) and item.get("seat") == seat and (item.get("by") == "bot" or "error" in item)]
    opening = exchanges - len(answered)
    if not answered or not 0 <= opening <= 2:
        return None
    return [answered[0]] * opening + answered


def transcripts(data: dict[str, Any], decided: list[int] | EllipsisType | None = ...) -> list[dict[str, Any]]:
    """One panel per seat: ``seat``, ``kind`` (``exchanges`` or ``decisions``), ``rows`` (each with
    ``request`` (a decision's: its stage, and ``stage_text`` the stage in the reader's language), ``response``,
    ``ms``, ``verdict``, ``move`` (the viewer's step at which it was asked: a
    decision's own, an exchange's when the exchanges line up with the decisions: :func:`_moves`) and, when
    present, ``debug`` and ``stderr``), ``mean_ms``, ``max_ms`` and the seat's ``error`` (reason and detail, and
    their words: :func:`~mjarena.web.timeline.error_words`) if it erred; ``decided``: the replay's
    :func:`~mjarena.web.timeline.decision_steps` when the caller has them."""
    from mjarena.i18n import gettext
    from mjarena.verdicts import STAGES
    from mjarena.web.timeline import decision_steps, error_words

    kept = data.get("transcripts") or {}
    decisions = data.get("decisions") or []
    steps = (decision_steps(data) if decisions else None) if decided is ... else decided
    if steps is not None and len(steps) != len(decisions):
        steps = None
    panels = []
    for seat in data["seats"]:
        number = seat["seat"]
        reason = seat.get("reason")
        exchanges = kept.get(str(number)) if isinstance(kept, dict) else None
        rows: list[dict[str, Any]] = []
        if isinstance(exchanges, list) and exchanges:
            kind = "exchanges"
            for item in exchanges:
                if not isinstance(item, dict):
                    continue
                row = {"request": _text(item.get("request")), "response": _text(item.get("response")),
                       "ms": _number(item.get("elapsed_ms")), "mode": _text(item.get("mode")), "verdict": "ok"}
                for extra in ("debug", "stderr"):
                    if item.get(extra):
                        row[extra] = _text(item[extra])
                rows.append(row)
            moves = _moves(steps, decisions, number, len(rows))
            for row, move in zip(rows, moves or [], strict=False):
                row["move"] = move
        else:
            kind = "decisions"
            for index, item in enumerate(decisions):
                if isinstance(item, dict) and item.get("seat") == number:
                    stage = _text(item.get("stage"))
                    rows.append({"request": stage, "stage_text": gettext(stage) if stage in STAGES else stage,
                                 "response": _text(item.get("response")),
                                 "ms": _number(item.get("ms")),
                                 "verdict": "judge" if item.get("by") == "judge" else "ok"})
                    if steps is not None:  # a decision is asked at its own step
                        rows[-1]["move"] = steps[index]
        if reason and kind == "exchanges" and rows:
            rows[-1]["verdict"] = reason
        elif reason and kind == "decisions":
            first = next((row for row in rows if row["verdict"] == "judge"), rows[-1] if rows else None)
            if first is not None and reason != "false_hu":
                first["verdict"] = reason
        times = [row["ms"] for row in rows if row["ms"] is not None and row["verdict"] != "judge"]
        panels.append({
            "seat": number, "bot": _text(seat.get("bot")), "kind": kind, "rows": rows,
            "mean_ms": round(sum(times) / len(times), 1) if times else None, "max_ms": max(times, default=None),
            "error": error_words({"reason": reason, "detail": _text(seat.get("detail"))}) if reason else None,
        })
    return panels
