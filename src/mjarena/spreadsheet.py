"""CSV files that a spreadsheet opens as data, never as formulas: every CSV that mjarena writes goes through
:func:`csv_text`.

A spreadsheet (Excel, LibreOffice, Google Sheets) reads a cell that starts with ``=``, ``+``, ``-`` or ``@`` as
a formula, and some read one that starts with a tab or a carriage return the same way once the blank is
trimmed: a team named ``+B2`` or ``=HYPERLINK(…)`` would run in the organiser's spreadsheet (OWASP's *CSV
injection*).  :func:`safe_cell` puts a single quote before such a text, as OWASP advises: the spreadsheet then
shows the text as it is (the quote is not shown), and Python's ``csv`` reads it back with the quote.  Numbers
stay numbers: ``-3.5`` written as a float is a number, not a formula, and is written as it is.

>>> safe_cell("+B2"), safe_cell("-2+3"), safe_cell("red"), safe_cell(-3.5), safe_cell(None)
("'+B2", "'-2+3", 'red', -3.5, '')
>>> print(csv_text(["team", "points"], [["=1+1", -2.0], ["ada", 3]]), end="")
team,points
'=1+1,-2.0
ada,3
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["FORMULA_STARTS", "csv_text", "safe_cell"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a text cell as a formula (OWASP's list)."""


def safe_cell(value: Any) -> Any:
    """``value`` as a CSV cell: None as an empty cell, a text that starts with one of :data:`FORMULA_STARTS`
    after a single quote, anything else (numbers included) as it is.

    >>> safe_cell("@SUM(A1)"), safe_cell("\\tx"), safe_cell(""), safe_cell(7)
    ("'@SUM(A1)", "'\\tx", '', 7)
    """
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """The header and the rows as CSV text (``\\n`` line ends), each cell through :func:`safe_cell`; a row with a
    carriage return in a cell has every text quoted (Python's ``csv`` would leave that one bare).

    >>> csv_text(["name", "n"], [["a\\rb", 2], ["c", 3]])
    'name,n\\n"a\\rb",2\\nc,3\\n'
    """
    out = io.StringIO()
    plain = csv.writer(out, lineterminator="\n")
    quoted = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC)
    for row in ([*header], *rows):
        cells = [safe_cell(cell) for cell in row]
        # csv quotes a cell with a line feed, not one with a lone carriage return: a reader would split it there
        writer = quoted if any(isinstance(cell, str) and "\r" in cell for cell in cells) else plain
        writer.writerow(cells)
    return out.getvalue()
