"""Tile kinds, count vectors and the three tile notations.

Internally a tile kind is a small int and a hand is a count vector indexed by kind.
Names are parsed and formatted at the edges only.

======  =====================================  ==========  ===========  ======
kind    tile                                   THUPC       NOI/Botzone  mpsz
======  =====================================  ==========  ===========  ======
0-8     1-9 characters (万)                    ``1M-9M``   ``W1-W9``    ``1m-9m``
9-17    1-9 dots (筒/饼)                       ``1P-9P``   ``B1-B9``    ``1p-9p``
18-26   1-9 bamboo (索/条)                     ``1S-9S``   ``T1-T9``    ``1s-9s``
27-33   East South West North, 白 发 中        ``E S W N B F Z``  --    ``1z-7z``
34-36   PASS, REVERSE, DOUBLE (THUPC only)     ``PASS`` ...       --    --
37      百搭 wildcard                          ``BAIDA``   ``BAIDA``    ``*``
======  =====================================  ==========  ===========  ======

NOI 2014 writes melded tiles in lower case (``t2``); parsing ignores the case of NOI names.

>>> parse_tiles("1M E PASS")
[0, 27, 34]
>>> format_tiles(parse_mpsz("123m5z*"), "mpsz")
'123m5z*'
>>> parse_mpsz("12x")
Traceback (most recent call last):
...
mjarena.tiles.TileError: mpsz: unknown suit letter 'x' at position 3 in '12x'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

__all__ = [
    "DOUBLE",
    "HONOURS",
    "NUM_KINDS",
    "PASS",
    "REVERSE",
    "STANDARD_KINDS",
    "WILD",
    "Notation",
    "TileError",
    "check_counts",
    "counts_of",
    "format_tile",
    "format_tiles",
    "is_honour",
    "is_suited",
    "parse_mpsz",
    "parse_tile",
    "parse_tiles",
    "rank_of",
    "suit_of",
    "tiles_of",
]

Notation = Literal["thupc", "noi", "mpsz"]

STANDARD_KINDS = 34
"""Kinds 0..33: three suits of nine and seven honours."""
PASS, REVERSE, DOUBLE = 34, 35, 36
WILD = 37
NUM_KINDS = 38
HONOURS = range(27, 34)
SPECIALS = (PASS, REVERSE, DOUBLE)


class TileError(ValueError):
    """A tile name, tile list or tile count that is not valid.

    The message names the bad token and where it stands.
    """


def suit_of(kind: int) -> int:
    """0, 1, 2 for the suits m, p, s; 3 for honours; 4 for special and wild tiles."""
    return kind // 9 if kind < 27 else (3 if kind < 34 else 4)


def rank_of(kind: int) -> int:
    """The number 1-9 of a suited tile (1-7 for honours in mpsz order)."""
    return kind % 9 + 1 if kind < 27 else kind - 26


def is_suited(kind: int) -> bool:
    return 0 <= kind < 27


def is_honour(kind: int) -> bool:
    return 27 <= kind < 34


_SUIT_LETTERS = "MPS"
_HONOUR_LETTERS = "ESWNBFZ"
_NOI_LETTERS = "WBT"  # characters, dots, bamboo

_THUPC_NAMES: list[str] = [f"{r}{s}" for s in _SUIT_LETTERS for r in range(1, 10)]
_THUPC_NAMES += [*_HONOUR_LETTERS, "PASS", "REVERSE", "DOUBLE", "BAIDA"]
_NOI_NAMES: list[str | None] = [f"{s}{r}" for s in _NOI_LETTERS for r in range(1, 10)]
_NOI_NAMES += [None] * 10 + ["BAIDA"]
_MPSZ_NAMES: list[str | None] = [f"{r}{s}" for s in "mps" for r in range(1, 10)]
_MPSZ_NAMES += [f"{r}z" for r in range(1, 8)] + [None, None, None, "*"]

_NAMES: dict[str, Sequence[str | None]] = {"thupc": _THUPC_NAMES, "noi": _NOI_NAMES, "mpsz": _MPSZ_NAMES}
_THUPC_LOOKUP = {name: kind for kind, name in enumerate(_THUPC_NAMES)}
_NOI_LOOKUP = {name: kind for kind, name in enumerate(_NOI_NAMES) if name}
_MPSZ_LOOKUP = {name: kind for kind, name in enumerate(_MPSZ_NAMES) if name}


def format_tile(kind: int, notation: Notation = "thupc") -> str:
    """The name of one tile kind.

    >>> format_tile(0), format_tile(0, "noi"), format_tile(33, "mpsz")
    ('1M', 'W1', '7z')
    """
    try:
        name = _NAMES[notation][kind] if kind >= 0 else None
    except (KeyError, IndexError, TypeError):
        name = None
    if name is None:
        raise TileError(f"tile kind {kind!r} has no name in {notation} notation")
    return name


def parse_tile(token: str, notation: Notation | None = None) -> int:
    """The kind of one tile name. Without a notation, THUPC and NOI names are both accepted.

    >>> parse_tile("9S"), parse_tile("t9"), parse_tile("7z", "mpsz")
    (26, 26, 33)
    """
    if notation in (None, "thupc") and token in _THUPC_LOOKUP:
        return _THUPC_LOOKUP[token]
    if notation in (None, "noi") and token.upper() in _NOI_LOOKUP:
        return _NOI_LOOKUP[token.upper()]
    if notation == "mpsz" and token in _MPSZ_LOOKUP:
        return _MPSZ_LOOKUP[token]
    where = f"{notation} " if notation else ""
    raise TileError(f"unknown {where}tile name {token!r}")


def parse_tiles(text: str | Iterable[str], notation: Notation | None = None) -> list[int]:
    """Parse tile names separated by any white space (or an iterable of names).

    An mpsz string such as ``123m5z`` is accepted when the notation is ``mpsz`` or when no notation
    is given and the text is not a list of THUPC/NOI names.

    >>> parse_tiles("W1 w2 T3")
    [0, 1, 20]
    >>> parse_tiles("1M 1X")
    Traceback (most recent call last):
    ...
    mjarena.tiles.TileError: unknown tile name '1X' (token 2)
    """
    tokens = text.split() if isinstance(text, str) else list(text)
    if notation == "mpsz" or (notation is None and isinstance(text, str) and _looks_like_mpsz(tokens)):
        return parse_mpsz("".join(tokens))
    kinds = []
    for position, token in enumerate(tokens, start=1):
        try:
            kinds.append(parse_tile(token, notation))
        except TileError as error:
            raise TileError(f"{error} (token {position})") from None
    return kinds


_MPSZ_TOKEN = re.compile(r"(?:[0-9]+[mpsz]|\*)+")


def _looks_like_mpsz(tokens: list[str]) -> bool:
    """Whether the first token is written in mpsz (and is no THUPC or NOI name)."""
    first = tokens[0] if tokens else ""
    return bool(_MPSZ_TOKEN.fullmatch(first)) and first not in _THUPC_LOOKUP


def parse_mpsz(text: str) -> list[int]:
    """Parse mpsz notation: digits followed by their suit letter, ``*`` for a wildcard.

    ``0`` is accepted as a red five of a suit and read as an ordinary 5; honours have no red five, so ``0z``
    is refused.

    >>> parse_mpsz("123m11z*"), parse_mpsz("0p")
    ([0, 1, 2, 27, 27, 37], [13])
    >>> parse_mpsz("0z")
    Traceback (most recent call last):
    ...
    mjarena.tiles.TileError: mpsz: honour 0z at position 1 in '0z' (0 is a red five, which honours do not have)
    """
    kinds: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    for position, char in enumerate(text, start=1):
        if char.isspace():
            continue
        if char == "*":
            kinds.append(WILD)
        elif char.isdigit():
            pending.append((int(char), position))
        elif char in "mpsz":
            if not pending:
                raise TileError(f"mpsz: suit letter {char!r} at position {position} has no digits in {text!r}")
            for digit, digit_position in pending:
                if char == "z" and not 1 <= digit <= 7:
                    hint = " (0 is a red five, which honours do not have)" if digit == 0 else ""
                    raise TileError(f"mpsz: honour {digit}z at position {digit_position} in {text!r}{hint}")
                digit = 5 if digit == 0 else digit
                kinds.append(27 + digit - 1 if char == "z" else "mps".index(char) * 9 + digit - 1)
            pending.clear()
        else:
            raise TileError(f"mpsz: unknown suit letter {char!r} at position {position} in {text!r}")
    if pending:
        raise TileError(f"mpsz: digits at position {pending[0][1]} have no suit letter in {text!r}")
    return kinds


def format_tiles(kinds: Iterable[int], notation: Notation = "thupc", sep: str = " ") -> str:
    """Format tiles; mpsz groups runs of one suit (``123m5z``), the others join names with ``sep``.

    >>> format_tiles([0, 1, 27], "noi")
    'W1 W2'
    """
    kinds = list(kinds)
    if notation != "mpsz":
        return sep.join(format_tile(k, notation) for k in kinds if _NAMES[notation][k] is not None)
    out: list[str] = []
    digits = ""
    letter = ""
    for kind in kinds:
        name = format_tile(kind, "mpsz")
        if name == "*":
            out.append(digits + letter)
            digits = letter = ""
            out.append("*")
            continue
        if name[1] != letter and digits:
            out.append(digits + letter)
            digits = ""
        digits += name[0]
        letter = name[1]
    out.append(digits + letter)
    return "".join(out)


def counts_of(kinds: Iterable[int]) -> list[int]:
    """The count vector (length :data:`NUM_KINDS`) of a list of kinds.

    >>> counts_of([0, 0, 27])[:2], counts_of([0, 0, 27])[27]
    ([2, 0], 1)
    """
    counts = [0] * NUM_KINDS
    for kind in kinds:
        counts[kind] += 1
    return counts


def tiles_of(counts: Sequence[int]) -> list[int]:
    """The sorted list of kinds of a count vector.

    >>> tiles_of(counts_of([3, 1, 1]))
    [1, 1, 3]
    """
    return [kind for kind, count in enumerate(counts) for _ in range(count)]


def _ordinal(n: int) -> str:
    """An ordinal in words up to nine, then in digits.

    >>> [_ordinal(n) for n in (2, 5, 9, 11, 22)]
    ['second', 'fifth', 'ninth', '11th', '22nd']
    """
    words = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
    if 1 <= n <= len(words):
        return words[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def check_counts(kinds: Sequence[int], copies: int = 4, notation: Notation = "thupc") -> None:
    """Raise :class:`TileError` naming the first kind that appears more than ``copies`` times.

    >>> check_counts([0] * 5)
    Traceback (most recent call last):
    ...
    mjarena.tiles.TileError: a fifth copy of 1M (tile 5); there are only 4 of each kind
    """
    seen = [0] * NUM_KINDS
    for position, kind in enumerate(kinds, start=1):
        seen[kind] += 1
        if seen[kind] > copies:
            ordinal = _ordinal(seen[kind])
            raise TileError(
                f"a {ordinal} copy of {format_tile(kind, notation)} (tile {position}); "
                f"there are only {copies} of each kind"
            )
