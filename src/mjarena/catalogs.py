"""Gettext catalogs with the standard library alone: a ``.po`` file read, written as a ``.mo``, and checked.

Babel extracts the messages and keeps the ``.po`` files (``make catalogs``); this module is what the package needs
at install and at run time, where Babel may be missing: ``setup.py`` loads it by its path (it imports nothing of
mjarena) to compile each catalog, and :mod:`mjarena.i18n` compiles a ``.po`` in memory when no ``.mo`` is there
(an editable install).

>>> entries = read_po('msgid ""\\nmsgstr "Content-Type: text/plain; charset=UTF-8\\\\n"\\n\\n'
...                   '#, python-format\\nmsgid "%(n)s games"\\nmsgstr "%(n)s 局"\\n')
>>> [(entry.msgid, entry.msgstr, entry.flags) for entry in entries[1:]]
[('%(n)s games', ('%(n)s 局',), ('python-format',))]
>>> import gettext, io
>>> gettext.GNUTranslations(io.BytesIO(mo_bytes(entries))).gettext("%(n)s games")
'%(n)s 局'
>>> catalog_problems(read_po('msgid "Round %(n)s"\\nmsgstr "第 %(round)s 轮"\\n'))
['line 1: "Round %(n)s": placeholders %(n)s in English, %(round)s in the translation']
"""

from __future__ import annotations

import ast
import re
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["CatalogError", "Entry", "catalog_problems", "compile_po", "extract_python", "mo_bytes", "placeholders",
           "read_po"]


class CatalogError(ValueError):
    """A ``.po`` file that cannot be read: the message names the line."""


@dataclass
class Entry:
    """One message of a catalog: ``msgstr`` has one form, or one per plural form (``msgid_plural`` set)."""

    msgid: str
    msgstr: tuple[str, ...] = ("",)
    msgid_plural: str | None = None
    flags: tuple[str, ...] = ()
    line: int = 0
    comments: list[str] = field(default_factory=list)
    context: str | None = None

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")


def _unquote(text: str, line: int) -> str:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        value = None
    if not isinstance(value, str):
        raise CatalogError(f"line {line}: expected a quoted string, got {text[:40]!r}")
    return value


def read_po(text: str) -> list[Entry]:
    """The entries of a ``.po`` file's text, the header (``msgid ""``) first when it has one; obsolete
    (``#~``) entries left out; :class:`CatalogError` for a line that is not gettext's."""
    entries: list[Entry] = []
    current: dict[str, object] = {}
    last: str | None = None
    flags: list[str] = []
    comments: list[str] = []

    def finish() -> None:
        nonlocal current, flags, comments, last
        if "msgid" in current:
            forms = current.get("msgstr", {})
            assert isinstance(forms, dict)
            msgstr = tuple(forms[index] for index in sorted(forms)) or ("",)
            entries.append(Entry(str(current["msgid"]), msgstr, current.get("msgid_plural"),  # type: ignore[arg-type]
                                 tuple(flags), int(current["line"]), comments,  # type: ignore[call-overload]
                                 current.get("msgctxt")))  # type: ignore[arg-type]
        elif "msgctxt" in current:
            raise CatalogError(f"line {current['line']}: a msgctxt without its msgid")
        current, flags, comments, last = {}, [], [], None

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            if not line:
                finish()
            continue
        if line.startswith("#"):
            if "msgid" in current and last is not None and last.startswith("msgstr"):
                finish()
            if line.startswith("#,"):
                flags.extend(flag.strip() for flag in line[2:].split(",") if flag.strip())
            else:
                comments.append(line)
            continue
        if line.startswith('"'):
            if last is None:
                raise CatalogError(f"line {number}: a continued string with nothing to continue")
            _append(current, last, _unquote(line, number))
            continue
        match = _KEYWORD.match(line)
        if match is None:
            raise CatalogError(f"line {number}: not a gettext line: {line[:60]!r}")
        keyword, index, quoted = match.groups()
        if keyword in ("msgid", "msgctxt") and "msgid" in current:
            finish()
        if keyword in ("msgid", "msgctxt") and "line" not in current:
            current["line"] = number
        key = f"msgstr[{index or 0}]" if keyword.startswith("msgstr") else keyword
        last = key
        _append(current, key, _unquote(quoted, number), start=True)
    finish()
    return entries


def _append(current: dict[str, object], key: str, value: str, *, start: bool = False) -> None:
    if key.startswith("msgstr["):
        forms = current.setdefault("msgstr", {})
        assert isinstance(forms, dict)
        index = int(key[7:-1])
        forms[index] = value if start else forms.get(index, "") + value
    else:
        current[key] = value if start else str(current.get(key, "")) + value


def mo_bytes(entries: Iterable[Entry]) -> bytes:
    """The GNU ``.mo`` file of ``entries``: untranslated and fuzzy ones left out (gettext then gives the English);
    a message with a context (``msgctxt``) keyed as gettext's ``pgettext`` looks it up.

    The layout is gettext's: a header of seven words, the tables of original and translated strings (length and
    offset, sorted by original), then the strings themselves, each ending in NUL.
    """
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        if (entry.fuzzy and entry.msgid) or not any(entry.msgstr):
            continue
        original = entry.msgid if entry.msgid_plural is None else f"{entry.msgid}\0{entry.msgid_plural}"
        if entry.context is not None:
            original = f"{entry.context}\x04{original}"  # gettext's pgettext looks a message up so
        pairs[original.encode()] = "\0".join(entry.msgstr).encode()
    keys = sorted(pairs)
    header = 7 * 4
    originals_at = header
    translations_at = originals_at + 8 * len(keys)
    strings_at = translations_at + 8 * len(keys)
    originals, translations, blob = [], [], b""
    for key in keys:
        originals.append((len(key), strings_at + len(blob)))
        blob += key + b"\0"
    for key in keys:
        translations.append((len(pairs[key]), strings_at + len(blob)))
        blob += pairs[key] + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, len(keys), originals_at, translations_at, 0, 0)
    for length, offset in originals + translations:
        out += struct.pack("<2I", length, offset)
    return out + blob


def compile_po(po: Path, mo: Path) -> None:
    """Write ``mo``, the compiled catalog of the ``.po`` file ``po``."""
    mo.write_bytes(mo_bytes(read_po(po.read_text(encoding="utf-8"))))


_PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[sdifgr]|%[-#0 +]*\d*(?:\.\d+)?[sdifgr]|\{(\w*)[^{}]*\}")


def placeholders(text: str) -> list[str]:
    """The placeholders of a message, sorted: ``%(name)s``, ``%s`` and ``{name}`` (``%%`` and ``{{`` are
    literal).

    >>> placeholders("%(n)d games in {round}, 100%% done {{not this}}")
    ['%(n)d', '{round}']
    """
    text = text.replace("%%", "").replace("{{", "").replace("}}", "")
    return sorted(match.group(0) for match in _PLACEHOLDER.finditer(text))


def catalog_problems(entries: Sequence[Entry]) -> list[str]:
    """What is wrong with a translated catalog, one line each: a message without a translation (or only a fuzzy
    one), or a translation whose placeholders differ from the English ones (a placeholder may be used more or fewer
    times, as the language's word order wants, but not left out nor made up)."""
    problems = []
    for entry in entries:
        if not entry.msgid:
            continue
        where = f"line {entry.line}: {entry.msgid[:60]!r}".replace("'", '"') + (
            f" ({entry.context})" if entry.context else "")
        if entry.fuzzy or not all(entry.msgstr):
            problems.append(f"{where}: no translation" + (" (fuzzy)" if entry.fuzzy else ""))
            continue
        english = sorted(set(placeholders(entry.msgid)))
        for form in entry.msgstr:
            translated = sorted(set(placeholders(form)))
            if translated != english and not (entry.msgid_plural and
                                              translated == sorted(set(placeholders(entry.msgid_plural)))):
                problems.append(f"{where}: placeholders {' '.join(english) or 'none'} in English, "
                                f"{' '.join(translated) or 'none'} in the translation")
    return problems


def extract_python(fileobj: Any, keywords: Iterable[str], comment_tags: Any = (), options: Any = None
                   ) -> Iterator[tuple[int, str, str | tuple[str | None, ...], list[str]]]:
    r"""Babel's extractor for mjarena's Python (``babel.cfg``): the calls of ``keywords`` read with :mod:`ast`, so
    that a ``_("...")`` inside an f-string is found too (Babel's own reads f-strings only on Python 3.12+).

    >>> import io
    >>> code = b'x = f\'<h1>{_("Standings")}</h1>\'\ny = NC_("kind", "memory") + _(name)\n'
    >>> list(extract_python(io.BytesIO(code), ["_", "NC_"]))
    [(1, '_', 'Standings', []), (2, 'NC_', ('kind', 'memory'), []), (2, '_', (None,), [])]
    """
    tree = ast.parse(fileobj.read())
    wanted = set(keywords)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in wanted:
            values = tuple(arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
                           for arg in node.args)
            found.append((node.lineno, node.col_offset, node.func.id, values[0] if len(values) == 1 and
                          values[0] is not None else values))
    for line, _, name, messages in sorted(found, key=lambda item: (item[0], item[1])):
        yield line, name, messages, []
