"""Reading text that someone else wrote (a bot's output, a file a user hands in) without ever a traceback.

:func:`parse_json` is :func:`json.loads` whose only failure is a :class:`ValueError` with a short message, whatever
the bytes were: deep nesting (``json.loads`` itself raises :class:`RecursionError`), a number with more digits
than ``int`` converts (Python 3.11's limit), invalid JSON.  Lone surrogates (``"\\ud800"``, legal in JSON but not
in UTF-8) come back as U+FFFD, so nothing read can later break a UTF-8 writer (a replay file, the terminal).
:func:`excerpt` quotes text for one-line messages; :func:`trim_utf8` caps text at a number of UTF-8 bytes;
:func:`number` reads an id or a length from a URL or a header (ASCII digits only: ``'²'.isdigit()`` is true).

>>> parse_json('{"response": "PASS"}')
{'response': 'PASS'}
>>> parse_json("[" * 100_000)
Traceback (most recent call last):
...
ValueError: nested too deeply
>>> parse_json('"\\\\ud800 ok"')
'\\ufffd ok'
>>> excerpt("a" * 200, 10)
"'aaaaaaaaaa…'"
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["clean_text", "excerpt", "number", "parse_json", "trim_utf8"]

_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # how a surrogate is written in JSON text
_PROBLEM = 160  # characters of a parser's message kept


def clean_text(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (the replacement character).

    >>> clean_text("a\\ud800b") == "a\\ufffdb"
    True
    """
    return _SURROGATE.sub("\ufffd", text)


def excerpt(text: str, limit: int = 120) -> str:
    """``text`` quoted for a message: Python's ``repr`` (control characters and surrogates escaped) of at most
    ``limit`` characters, ``…`` marking a cut.

    >>> excerpt("PLAY\\x00\\x1b[2J")
    "'PLAY\\\\x00\\\\x1b[2J'"
    """
    return repr(text if len(text) <= limit else text[:limit] + "…")


def trim_utf8(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` bytes of UTF-8 (at a character boundary), ``…`` marking a cut.

    >>> trim_utf8("麻将麻将", 9), trim_utf8("short", 9)
    ('麻将…', 'short')
    """
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    mark = "…".encode()
    return data[: max(0, limit - len(mark))].decode("utf-8", "ignore") + "…"


def _cleaned(value: Any) -> Any:
    """``value`` (parsed JSON) with :func:`clean_text` applied to every string, keys included; iterative, so
    that depth is no problem."""
    root = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        container, key = stack.pop()
        item = container[key]
        if isinstance(item, str):
            container[key] = clean_text(item)
        elif isinstance(item, list):
            stack.extend((item, index) for index in range(len(item)))
        elif isinstance(item, dict):
            cleaned = {clean_text(name) if isinstance(name, str) else name: entry for name, entry in item.items()}
            item.clear()
            item.update(cleaned)
            stack.extend((item, name) for name in item)
    return root[0]


def parse_json(text: str) -> Any:
    """The JSON value in ``text``; :class:`ValueError` with a short message if there is none (see the module).

    >>> parse_json('{"n": ' + "9" * 5000 + "}")
    Traceback (most recent call last):
    ...
    ValueError: a number with too many digits (more than 4300)
    >>> parse_json("{nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: invalid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)
    """
    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"invalid JSON: {str(error)[:_PROBLEM]}") from None
    except ValueError as error:  # int() refused a number: Python's limit on digits
        digits = re.search(r"limit \((\d+) digits\)", str(error))
        limit = f" (more than {digits.group(1)})" if digits else ""
        raise ValueError(f"a number with too many digits{limit}") from None
    if _SURROGATE_ESCAPE.search(text) or _SURROGATE.search(text):
        value = _cleaned(value)
    return value


def number(text: str | None, *, digits: int = 18) -> int | None:
    """``text`` as a whole number when it is 1 to ``digits`` ASCII digits (an id from a URL, a length from a
    header), else None: ``str.isdigit`` also takes '²' and '٣', which ``int`` refuses or reads otherwise, and
    a number too long for a database's 64-bit integer would fail there.

    >>> number("42"), number("²"), number("٣"), number("-1"), number("9" * 30), number(None)
    (42, None, None, None, None, None)
    """
    if text is None or not 0 < len(text) <= digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)
