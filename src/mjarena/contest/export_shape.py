"""The shape of a contest's JSON export, as ``mjarena contest verify`` reads it: every field it uses, with its
JSON type and range, checked before any of it is used, so that a malformed or hostile file is one line naming
the field (:class:`ExportError`, exit 2), never a traceback.

Numbers must be finite (the JSON of Python's :mod:`json` may say ``NaN`` and ``Infinity``, and ``1e999`` reads
as infinity: all three are refused while the text is read), whole where a count or an id is meant, and within
the range of a double's exact integers; a nesting deeper than the parser's stack is refused too.

>>> check_shape({"format": "x"})
Traceback (most recent call last):
...
mjarena.contest.export_shape.ExportError: rules: missing
>>> parse_json(b'{"points": NaN}')
Traceback (most recent call last):
...
mjarena.contest.export_shape.ExportError: not JSON (NaN is not a number)
>>> parse_json(b"[" * 100000)
Traceback (most recent call last):
...
mjarena.contest.export_shape.ExportError: not JSON (nested too deeply)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["ExportError", "check_shape", "parse_json"]

_LARGEST = 2 ** 53  # exact integers of a double: anything beyond is no id, count or time
_SEATS = 4


class ExportError(ValueError):
    """An export that is not one (not JSON, another format, a field of the wrong type or out of range)."""


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is too large a number")
    return value


def parse_json(raw: bytes) -> Any:
    """The JSON value of ``raw``; :class:`ExportError` (one line) for anything that is not JSON of finite numbers."""
    try:
        return json.loads(raw, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ExportError("not JSON (nested too deeply)") from None
    except ValueError as error:  # (UnicodeDecodeError and the parser's errors are ValueErrors too)
        raise ExportError(f"not JSON ({str(error).splitlines()[0][:200]})") from None


def _fail(path: str, what: str, value: Any) -> ExportError:
    shown = type(value).__name__ if isinstance(value, (dict, list)) else repr(value)[:60]
    return ExportError(f"{path}: {what}, not {shown}")


def _int(value: Any, path: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(path, "a whole number", value)
    if not low <= value <= _LARGEST:
        raise _fail(path, f"a whole number from {low} to 2^53", value)
    return value


def _number(value: Any, path: str) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not -_LARGEST <= value <= _LARGEST:
        raise _fail(path, "a number of at most 2^53", value)
    return float(value)


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _fail(path, "a string", value)
    return value


def _optional(check: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    return lambda value, path: None if value is None else check(value, path)


def _fields(value: Any, path: str, fields: Mapping[str, Callable[[Any, str], Any]],
            optional: Mapping[str, Callable[[Any, str], Any]] | None = None) -> None:
    """``value`` is an object with each of ``fields`` (and perhaps ``optional``), each passing its check."""
    if not isinstance(value, dict):
        raise _fail(path or "the file", "an object", value)
    prefix = f"{path}." if path else ""
    for key, check in fields.items():
        if key not in value:
            raise ExportError(f"{prefix}{key}: missing")
        check(value[key], f"{prefix}{key}")
    for key, check in (optional or {}).items():
        if key in value:
            check(value[key], f"{prefix}{key}")


def _list(item: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    def check(value: Any, path: str) -> None:
        if not isinstance(value, list):
            raise _fail(path, "a list", value)
        for index, entry in enumerate(value):
            item(entry, f"{path}[{index}]")
    return check


def _table(key: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    def check(value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise _fail(path, "an object", value)
        for name, entry in value.items():
            key(entry, f"{path}.{name[:40]}")
    return check


def _player(value: Any, path: str) -> None:
    _fields(value, path, {"seat": lambda v, p: _int(v, p), "team": _optional(_text), "points": _optional(_number),
                          "rank": _optional(_int), "status": _text, "reason": _optional(_text)})
    if value["seat"] >= _SEATS:
        raise _fail(f"{path}.seat", f"a seat from 0 to {_SEATS - 1}", value["seat"])


def _players(value: Any, path: str) -> None:
    _list(_player)(value, path)
    if len(value) != _SEATS:
        raise ExportError(f"{path}: {_SEATS} seats, not {len(value)}")


def _answer(value: Any, path: str) -> None:
    _fields(value, path, {"seat": lambda v, p: _int(v, p), "stage": _text, "response": _text, "by": _text})


def _judge_error(value: Any, path: str) -> None:
    _fields(value, path, {"at": _number, "seat": _optional(_int), "after_seat": _optional(_int)})


def _game(value: Any, path: str) -> None:
    _fields(value, path, {"id": lambda v, p: _int(v, p, 1), "round": lambda v, p: _int(v, p, 1),
                          "table": lambda v, p: _int(v, p, 1), "number": lambda v, p: _int(v, p, 1),
                          "state": _text, "players": _players},
            {"finished": _optional(_number), "judge_errors": _list(_judge_error),
             "played_again": _list(_number)})
    if value["state"] == "finished":
        _fields(value, path, {"wall": _list(_text), "answers": _list(_answer)})


def _pairing(value: Any, path: str) -> None:
    _fields(value, path, {"teams": _list(_text), "points": _table(_number),
                          "house_meetings": _table(lambda v, p: _int(v, p)), "as_of": _optional(_number),
                          "ranked_by": _text})


def _round(value: Any, path: str) -> None:
    _fields(value, path, {"round": lambda v, p: _int(v, p, 1), "started": _number, "finished": _optional(_number),
                          "pairing": _optional(_pairing)})


def _row(value: Any, path: str) -> None:
    _fields(value, path, {"team": _text, "games": lambda v, p: _int(v, p), "points": _number,
                          "rank": lambda v, p: _int(v, p, 1)}, {"points_per_game": _optional(_number)})


def check_shape(data: Any) -> None:
    """:class:`ExportError` naming the first field of ``data`` that is missing, of the wrong type or out of range
    (``rounds`` may be missing: an export of an older version, which verify says it cannot check)."""
    _fields(data, "", {"rules": _text, "games_per_table": lambda v, p: _int(v, p, 1),
                       "commitment": _optional(_text), "secret": _optional(_text), "rows": _list(_row),
                       "games": _list(_game)}, {"rounds": _list(_round), "ranked_by": _text})
