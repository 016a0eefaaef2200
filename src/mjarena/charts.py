"""Line charts drawn on the server as one SVG string, and the same data as an HTML table for screen readers.

Standard library only: no plotting package, no script, nothing fetched when the chart is viewed.  The SVG uses
presentation attributes only (no ``style`` attribute, no ``<style>`` element), so a page served with
``style-src 'self'`` shows it as drawn; the page's style sheet may restyle it through the classes below, and
:data:`CHART_CSS` is the rule set for a standalone file (``line_chart(..., css=True)``), which enlarges the text on
narrow screens.

Each series is one ``<g class="chart-series" data-series="NAME" data-last="Y">`` holding one
``<path class="chart-line" data-points="x,y x,y ...">``, its band (``chart-band``), its point markers
(``chart-point``) and its marks (``chart-mark``, each with a ``<title>`` tooltip).  Series differ without colour
too: Okabe–Ito colours, a dash pattern and a marker shape per series, all shown in the legend.

>>> chart = line_chart([Series("a & b", [(1, 2.0), (2, 3.5)]), Series("c", [(1, 1.0)])],
...                    title="Points", x_label="round", y_label="points")
>>> chart.startswith("<svg") and chart.count('class="chart-line"')
2
>>> 'data-series="a &amp; b"' in chart and 'data-last="3.5"' in chart
True
>>> nice_ticks(0, 97)
[0, 20, 40, 60, 80, 100]
"""

from __future__ import annotations

import hashlib
import html
import math
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

__all__ = ["CHART_CSS", "PALETTE", "Series", "data_table", "line_chart", "nice_ticks", "series_style", "stack"]

PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
"""Okabe–Ito colours that stay apart under the common colour blindnesses (their yellow is left out: too pale on
white)."""
DASHES = ("", "8 4", "2 4", "10 4 2 4", "5 2", "1 3")
"""A dash pattern per series (``""`` solid), the cue that does not need colour."""
SHAPES = ("circle", "square", "triangle", "diamond", "down", "cross", "plus")
"""A marker shape per series, on its points and in the legend."""

FONT = 13
"""Text size in SVG units at the chart's own width; :data:`CHART_CSS` raises it on phones."""
PHONE_FONT = 21
"""The text size the layout leaves room for: a 640-unit chart on a 390 px phone is drawn at ~0.56, so 21 units
are ~12 px there."""
MAX_POINT_MARKERS = 30
"""A series with more points than this shows its shape on its last point only."""

CHART_CSS = """\
svg.chart:not(svg svg), svg.chart-stack { max-width: 820px; height: auto; display: block; }
.chart text { font-family: system-ui, "DejaVu Sans", "Liberation Sans", sans-serif; }
.chart .chart-series.chart-hidden { display: none; }
.chart .chart-series:not(.chart-hidden) { display: inline; }
.chart .chart-legend-item.chart-off { opacity: .45; }
.chart .chart-legend-item:not(.chart-off) { opacity: 1; }
.chart .chart-x { cursor: pointer; }
.chart .chart-x:hover { fill: #000; fill-opacity: .06; }
@media (max-width: 600px) {
  .chart text { font-size: 21px; }
  .chart .chart-title { font-size: 23px; }
}
"""
"""Rules for charts (in a page's style sheet, or inside a standalone SVG): the text grows on narrow screens, a
hidden series (class ``chart-hidden``) can be shown by removing the class."""

_BAD_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


@dataclass(frozen=True)
class Series:
    """One line: ``points`` ``(x, y)`` with x increasing; an optional shaded ``band`` ``(x, low, high)`` (such
    as mu +- sigma) and ``marks`` ``(x, y, label)`` drawn as markers with a tooltip (a version change, a win).

    >>> Series("bot", [(0, 25.0), (1, 27.5)], band=[(0, 17.0, 33.0), (1, 20.0, 35.0)]).name
    'bot'
    """

    name: str
    points: Sequence[tuple[float, float]]
    band: Sequence[tuple[float, float, float]] = ()
    marks: Sequence[tuple[float, float, str]] = ()


def clean(text: object) -> str:
    """``text`` escaped for XML text and attributes, with characters XML cannot hold replaced by U+FFFD.

    >>> clean('<b a="1">\\x00')
    '&lt;b a=&quot;1&quot;&gt;\\ufffd'
    """
    return html.escape(_BAD_CHARS.sub("\ufffd", str(text)), quote=True)


def data_number(value: float) -> str:
    """A number for a ``data-`` attribute: an integral value without its ``.0``, others as Python prints them.

    >>> data_number(3.0), data_number(2.5), data_number(-0.1 + 0.3)
    ('3', '2.5', '0.19999999999999998')
    """
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def label_number(value: float, digits: int = 4) -> str:
    """A number for people: at most ``digits`` significant digits, no exponent for everyday sizes.

    >>> label_number(27.3456), label_number(3.0), label_number(-0.00012), label_number(1234567)
    ('27.35', '3', '-0.00012', '1234567')
    """
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    text = f"{value:.{digits}g}"
    if "e" in text and 1e-5 <= abs(value) < 1e15:
        text = f"{value:.{max(0, digits - 1 - math.floor(math.log10(abs(value))))}f}".rstrip("0").rstrip(".")
    return text


def nice_ticks(low: float, high: float, target: int = 5, *, integer: bool = False) -> list[float]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) from at or below ``low`` to at or above
    ``high``, about ``target`` steps; ``integer``: steps of at least 1.  A single value gets a tick either side.

    >>> nice_ticks(0.0, 1.0)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> nice_ticks(-2.94, 2.94, 4)
    [-4, -2, 0, 2, 4]
    >>> nice_ticks(1, 3, 8, integer=True)
    [1, 2, 3]
    >>> nice_ticks(5, 5, integer=True), nice_ticks(0.5, 0.5)
    ([4, 5, 6], [0.44, 0.46, 0.48, 0.5, 0.52, 0.54, 0.56])
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError(f"ticks need finite bounds, not {low}, {high}")
    low, high = min(low, high), max(low, high)
    if low == high:
        pad = max(1.0, abs(low) * 0.1) if integer or abs(low) >= 1 or low == 0 else abs(low) * 0.1
        low, high = low - pad, high + pad
    step = _nice_step((high - low) / max(1, target))
    if integer:
        step = max(1.0, step)
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    ticks = [round(index * step, decimals) for index in range(first, last + 1)]
    return [int(tick) if decimals == 0 else tick for tick in ticks]


def _nice_step(raw: float) -> float:
    """The smallest of 1, 2, 5 times a power of ten that is at least ``raw``.

    >>> _nice_step(0.3), _nice_step(7), _nice_step(20)
    (0.5, 10.0, 20.0)
    """
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw * (1 - 1e-9):
            return factor * power
    return 10 * power  # pragma: no cover - the loop always returns


@dataclass(frozen=True)
class _Frame:
    """Where the plot area lies (SVG units) and which data ranges it shows."""

    left: float
    top: float
    right: float
    bottom: float
    x_ticks: Sequence[float]
    y_ticks: Sequence[float]
    x_low: float
    x_high: float

    def x(self, value: float) -> float:
        low, high = self.x_low, self.x_high
        return self.left + (value - low) / (high - low) * (self.right - self.left)

    def y(self, value: float) -> float:
        low, high = self.y_ticks[0], self.y_ticks[-1]
        return self.bottom - (value - low) / (high - low) * (self.bottom - self.top)


def _finite(*values: float) -> bool:
    return all(isinstance(value, (int, float)) and math.isfinite(value) for value in values)


def _tidy(series: Series) -> Series:
    """``series`` with its non-finite points, band rows and marks left out."""
    return Series(series.name, [(x, y) for x, y in series.points if _finite(x, y)],
                  [(x, lo, hi) for x, lo, hi in series.band if _finite(x, lo, hi)],
                  [(x, y, label) for x, y, label in series.marks if _finite(x, y)])


def _ranges(series: Sequence[Series], hlines: Sequence[tuple[float, str]],
            x_marker: float | None) -> tuple[list[float], list[float]]:
    """Every x and every y the chart must show."""
    xs = [x for item in series for x, _ in item.points] + [x for item in series for x, _, _ in item.band]
    xs += [x for item in series for x, _, _ in item.marks] + ([x_marker] if x_marker is not None else [])
    ys = [y for item in series for _, y in item.points] + [v for item in series for _, lo, hi in item.band
                                                           for v in (lo, hi)]
    ys += [y for item in series for _, y, _ in item.marks] + [y for y, _ in hlines]
    return xs, ys


def _text_width(text: str, size: float = PHONE_FONT) -> float:
    """A generous estimate of the drawn width of ``text`` (wide characters count double)."""
    return sum(1.0 if ord(char) > 0x2E80 else 0.6 for char in text) * size


def _title_lines(title: str, width: int) -> list[str]:
    """``title`` in at most two lines that fit ``width`` at the phone's title size (cut with "…" beyond).

    >>> _title_lines("Ratings", 640)
    ['Ratings']
    >>> [len(line) <= 45 for line in _title_lines("word " * 30, 640)]
    [True, True]
    """
    lines, line = [], ""
    for word in title.split():
        candidate = f"{line} {word}".strip()
        if line and _text_width(candidate, PHONE_FONT + 2) > width - 16:
            lines.append(line)
            line = word
        else:
            line = candidate
    lines.append(line)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return [_cut(text, width - 16) for text in lines if text]


def _cut(text: str, room: float) -> str:
    """``text`` cut with "…" to fit ``room`` at the phone's title size."""
    while len(text) > 1 and _text_width(text, PHONE_FONT + 2) > room:
        text = text[:-2] + "…"
    return text


def _frame(xs: Sequence[float], ys: Sequence[float], width: int, height: int, title_lines: int) -> _Frame:
    """The plot area for data ``xs``, ``ys``, with room for the tick labels at :data:`PHONE_FONT`."""
    integer_x = all(float(x).is_integer() for x in xs)
    x_ticks = nice_ticks(min(xs, default=0), max(xs, default=1), 5, integer=integer_x)
    y_ticks = nice_ticks(min(ys, default=0), max(ys, default=1), 5)
    if integer_x and len(x_ticks) > 7:
        x_ticks = nice_ticks(x_ticks[0], x_ticks[-1], 4, integer=True)
    x_low, x_high = min(xs, default=0), max(xs, default=1)
    if x_low < x_high:  # the x axis spans the data exactly (the moves of a game, the rounds played), ticks inside
        x_ticks = [tick for tick in x_ticks if x_low <= tick <= x_high] or [x_low, x_high]
    else:
        x_low, x_high = x_ticks[0], x_ticks[-1]
    label_width = max(_text_width(label_number(tick)) for tick in y_ticks)
    left = 8 + PHONE_FONT + 6 + label_width + 6
    right = width - max(12.0, _text_width(label_number(x_ticks[-1])) / 2 + 4)
    top = 14 + title_lines * (PHONE_FONT + 6)
    bottom = height - (PHONE_FONT + 8 + PHONE_FONT + 10)
    return _Frame(left, top, right, max(bottom, top + 40), x_ticks, y_ticks, x_low, x_high)


def _axes(frame: _Frame, x_label: str, y_label: str) -> list[str]:
    """Grid lines, tick labels and axis titles."""
    out = [f'<g class="chart-axes" fill="#333" font-size="{FONT}">']
    for tick in frame.y_ticks:
        y = frame.y(tick)
        out.append(f'<line class="chart-grid" x1="{frame.left:.1f}" x2="{frame.right:.1f}" y1="{y:.1f}" '
                   f'y2="{y:.1f}" stroke="#ddd" stroke-width="1"/>')
        out.append(f'<text x="{frame.left - 6:.1f}" y="{y:.1f}" text-anchor="end" dominant-baseline="middle">'
                   f"{label_number(tick)}</text>")
    for tick in frame.x_ticks:
        x = frame.x(tick)
        out.append(f'<line class="chart-tick" x1="{x:.1f}" x2="{x:.1f}" y1="{frame.bottom:.1f}" '
                   f'y2="{frame.bottom + 5:.1f}" stroke="#555" stroke-width="1"/>')
        out.append(f'<text x="{x:.1f}" y="{frame.bottom + 8:.1f}" text-anchor="middle" '
                   f'dominant-baseline="hanging">{label_number(tick)}</text>')
    out.append(f'<path class="chart-frame" d="M{frame.left:.1f},{frame.top:.1f}V{frame.bottom:.1f}'
               f'H{frame.right:.1f}" fill="none" stroke="#555" stroke-width="1"/>')
    middle_y = (frame.top + frame.bottom) / 2
    out.append(f'<text class="chart-axis-label" x="{(frame.left + frame.right) / 2:.1f}" '
               f'y="{frame.bottom + 8 + PHONE_FONT + 6:.1f}" text-anchor="middle" dominant-baseline="hanging">'
               f"{clean(x_label)}</text>")
    out.append(f'<text class="chart-axis-label" x="0" y="0" text-anchor="middle" dominant-baseline="hanging" '
               f'transform="translate(8 {middle_y:.1f}) rotate(-90)">{clean(y_label)}</text>')
    out.append("</g>")
    return out


def _shape(kind: str, x: float, y: float, colour: str, size: float = 4.5, fill: str | None = None,
           extra: str = "") -> str:
    """One marker ``kind`` (see :data:`SHAPES`) centred on ``x``, ``y``; ``extra``: more attributes."""
    fill = fill or colour
    paint = f'fill="{fill}" stroke="{colour}" stroke-width="1.5"{extra}'
    s = size
    if kind == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s:.1f}" {paint}/>'
    if kind == "square":
        return f'<rect x="{x - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}" {paint}/>'
    if kind in ("cross", "plus"):
        a = s if kind == "cross" else s * 1.3
        d = (f"M{x - a:.1f},{y - a:.1f}L{x + a:.1f},{y + a:.1f}M{x - a:.1f},{y + a:.1f}L{x + a:.1f},{y - a:.1f}"
             if kind == "cross" else f"M{x - a:.1f},{y:.1f}H{x + a:.1f}M{x:.1f},{y - a:.1f}V{y + a:.1f}")
        return f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="2.5"{extra}/>'
    corners = {"triangle": [(0, -1.25), (1.15, 0.85), (-1.15, 0.85)],
               "down": [(0, 1.25), (1.15, -0.85), (-1.15, -0.85)],
               "diamond": [(0, -1.35), (1.35, 0), (0, 1.35), (-1.35, 0)]}[kind]
    points = " ".join(f"{x + dx * s:.1f},{y + dy * s:.1f}" for dx, dy in corners)
    return f'<polygon points="{points}" {paint}/>'


def band_opacity(bands: int) -> float:
    """How opaque each band is when ``bands`` are drawn: fainter as they pile up, so that overlaps stay readable.

    >>> band_opacity(1), band_opacity(6), band_opacity(40)
    (0.18, 0.071, 0.05)
    """
    return round(min(0.18, max(0.05, 0.5 / (bands + 1))), 3)


def series_style(index: int) -> tuple[str, str, str]:
    """The ``(colour, dash, shape)`` of the series drawn ``index``-th (:data:`PALETTE`, :data:`DASHES`,
    :data:`SHAPES` in turn).

    >>> series_style(0), series_style(7)
    (('#0072B2', '', 'circle'), ('#0072B2', '8 4', 'circle'))
    """
    return PALETTE[index % len(PALETTE)], DASHES[index % len(DASHES)], SHAPES[index % len(SHAPES)]


def _series_group(index: int, item: Series, frame: _Frame, hidden: bool, points_only: bool = False,
                  opacity: float = 0.18, style: tuple[str, str, str] | None = None) -> list[str]:
    """One series: band (``opacity``), line, point markers and marks, in a ``chart-series`` group;
    ``points_only``: the line is not stroked (its path and data stay) and every point has its marker; ``style``:
    its ``(colour, dash, shape)`` (default: :func:`series_style` of ``index``)."""
    colour, dash, shape = style or series_style(index)
    last = f' data-last="{data_number(item.points[-1][1])}"' if item.points else ""
    classes = "chart-series chart-hidden" if hidden else "chart-series"
    out = [f'<g class="{classes}" data-series="{clean(item.name)}" data-colour="{colour}"{last}'
           + (' display="none"' if hidden else "") + ">", f"<title>{clean(item.name)}</title>"]
    if item.band:
        upper = [f"{frame.x(x):.1f},{frame.y(hi):.1f}" for x, _, hi in item.band]
        lower = [f"{frame.x(x):.1f},{frame.y(lo):.1f}" for x, lo, _ in reversed(item.band)]
        out.append(f'<path class="chart-band" d="M{"L".join(upper + lower)}Z" fill="{colour}" fill-opacity="{opacity}" '
                   f'stroke="none" pointer-events="none"/>')
    drawn = "L".join(f"{frame.x(x):.1f},{frame.y(y):.1f}" for x, y in item.points)
    data = " ".join(f"{data_number(x)},{data_number(y)}" for x, y in item.points)
    dashing = f' stroke-dasharray="{dash}"' if dash else ""
    stroke = "none" if points_only else colour
    out.append(f'<path class="chart-line" d="{"M" + drawn if drawn else ""}" data-points="{data}" fill="none" '
               f'stroke="{stroke}" stroke-width="2.5" stroke-linejoin="round"{dashing} pointer-events="none"/>')
    shown = item.points if points_only or len(item.points) <= MAX_POINT_MARKERS else item.points[-1:]
    for x, y in shown:
        out.append(_shape(shape, frame.x(x), frame.y(y), colour, 3.5,
                          extra=f' class="chart-point" data-x="{data_number(x)}" data-y="{data_number(y)}"'))
    for x, y, label in item.marks:
        out.append(f'<g class="chart-mark" data-x="{data_number(x)}" data-y="{data_number(y)}">'
                   f"<title>{clean(item.name)}: {clean(label)}</title>"
                   + _shape(shape, frame.x(x), frame.y(y), colour, 6.5, fill="#fff") + "</g>")
    out.append("</g>")
    return out


def _hlines(hlines: Sequence[tuple[float, str]], frame: _Frame) -> list[str]:
    """Horizontal reference lines, each labelled at its left end (a line's latest points are on the right)."""
    out = []
    for value, label in hlines:
        y = frame.y(value)
        out.append(f'<g class="chart-hline" data-y="{data_number(value)}"><title>{clean(label)}</title>'
                   f'<line x1="{frame.left:.1f}" x2="{frame.right:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="#444" '
                   f'stroke-width="1.5" stroke-dasharray="6 3"/><text x="{frame.left + 4:.1f}" y="{y - 4:.1f}" '
                   f'font-size="{FONT}" fill="#222">{clean(label)}</text></g>')
    return out


def _vlines(vlines: Sequence[tuple[float, str]], frame: _Frame) -> list[str]:
    """Vertical reference lines, each labelled half-way up (a line of the label per line of text, on a white halo):
    on the right of the line in the left half of the plot, on its left in the right half."""
    out = []
    for value, label in vlines:
        x = frame.x(value)
        right = x <= (frame.left + frame.right) / 2
        at = x + 4 if right else x - 4
        rows = "".join(f'<tspan x="{at:.1f}" dy="{FONT + 2 if index else 0}">{clean(row)}</tspan>'
                       for index, row in enumerate(label.splitlines()))
        out.append(f'<g class="chart-vline" data-x="{data_number(value)}"><title>{clean(" ".join(label.split()))}'
                   f'</title><line x1="{x:.1f}" x2="{x:.1f}" y1="{frame.top:.1f}" y2="{frame.bottom:.1f}" '
                   f'stroke="#444" stroke-width="1.5" stroke-dasharray="2 3"/><text x="{at:.1f}" '
                   f'y="{(frame.top + frame.bottom) / 2:.1f}" text-anchor="{"start" if right else "end"}" '
                   f'font-size="{FONT}" fill="#222" stroke="#fff" stroke-width="3" paint-order="stroke">{rows}'
                   "</text></g>")
    return out


def _hit_rects(series: Sequence[Series], frame: _Frame) -> list[str]:
    """A transparent ``chart-x`` rectangle per distinct x, from midway to the previous x to midway to the next."""
    xs = sorted({x for item in series for x, _ in item.points})
    out = []
    for index, x in enumerate(xs):
        start = frame.x((xs[index - 1] + x) / 2) if index else max(frame.left, frame.x(x) - 12)
        end = frame.x((x + xs[index + 1]) / 2) if index + 1 < len(xs) else min(frame.right, frame.x(x) + 12)
        out.append(f'<rect class="chart-x" data-x="{data_number(x)}" x="{start:.1f}" y="{frame.top:.1f}" '
                   f'width="{max(1.0, end - start):.1f}" height="{frame.bottom - frame.top:.1f}" fill="transparent">'
                   f"<title>{data_number(x)}</title></rect>")
    return out


def _legend(series: Sequence[Series], hidden: Collection[str], top: float, width: int,
            points_only: Collection[str] = (), styles: Sequence[tuple[str, str, str]] | None = None
            ) -> tuple[list[str], float]:
    """Legend items (swatch with dash and marker, then the name) in rows that fit ``width`` at
    :data:`PHONE_FONT`; returns the elements and the height used."""
    out, x, y, row = ['<g class="chart-legend">'], 8.0, top, PHONE_FONT + 10
    for index, item in enumerate(series):
        name = item.name if len(item.name) <= 28 else item.name[:27] + "…"
        need = 34 + _text_width(name) + 18
        if x > 8 and x + need > width - 8:
            x, y = 8.0, y + row
        colour, dash, shape = styles[index] if styles is not None else series_style(index)
        off = item.name in hidden
        dashing = f' stroke-dasharray="{dash}"' if dash else ""
        stroke = "none" if item.name in points_only else colour
        middle = y + row / 2
        out.append(f'<g class="chart-legend-item{" chart-off" if off else ""}" data-series="{clean(item.name)}"'
                   + (' opacity="0.45"' if off else "") + f"><title>{clean(item.name)}</title>"
                   f'<line x1="{x:.1f}" x2="{x + 28:.1f}" y1="{middle:.1f}" y2="{middle:.1f}" stroke="{stroke}" '
                   f'stroke-width="2.5"{dashing}/>' + _shape(shape, x + 14, middle, colour, 3.5)
                   + f'<text x="{x + 34:.1f}" y="{middle:.1f}" dominant-baseline="middle" font-size="{FONT}" '
                   f'fill="#222">{clean(name)}</text></g>')
        x += need
    out.append("</g>")
    return out, (y - top + row + 6) if series else 0.0


def _description(series: Sequence[Series], x_label: str, y_label: str) -> str:
    """What the chart shows, in words: each series' last point (the first 12)."""
    from mjarena.i18n import gettext as _

    parts = [_("%(y)s against %(x)s, %(count)s series.") % {"y": y_label, "x": x_label, "count": len(series)}]
    for item in series[:12]:
        if item.points:
            x, y = item.points[-1]
            parts.append(_("%(name)s: %(y)s at %(label)s %(x)s.") % {
                "name": item.name, "y": label_number(y), "label": x_label, "x": label_number(x)})
        else:
            parts.append(_("%(name)s: no points.") % {"name": item.name})
    if len(series) > 12:
        parts.append(_("And %(count)s more.") % {"count": len(series) - 12})
    return " ".join(parts)


def line_chart(series: Sequence[Series], *, title: str, x_label: str, y_label: str,
               width: int = 640, height: int = 320,
               hlines: Sequence[tuple[float, str]] = (),
               vlines: Sequence[tuple[float, str]] = (),
               x_marker: float | None = None,
               clickable_x: bool = False,
               hidden: Collection[str] = (),
               points_only: Collection[str] = (),
               css: bool = False,
               chart_id: str | None = None,
               styles: Sequence[tuple[str, str, str]] | None = None) -> str:
    """One ``<svg>`` element: a line per series over a shared x axis, with legend, axes and tick labels.

    ``hlines``: horizontal reference lines ``(y, label)``; ``vlines``: vertical ones ``(x, label)``, labelled
    half-way up; ``x_marker``: a vertical ``chart-x-marker`` line (the current turn); ``clickable_x``: a transparent
    ``<rect class="chart-x" data-x="X">`` per distinct x for a page's script to listen on; ``hidden``: names of
    series drawn hidden (class ``chart-hidden``, shown by removing it); ``points_only``: names of series drawn as
    markers without the line (a scatter of values whose order means little); ``css``: embed :data:`CHART_CSS` (for a
    standalone file; a page with ``style-src 'self'`` puts it in its style sheet instead); ``chart_id``: the id of
    the ``<svg>`` (by default one derived from the content); ``styles``: each series' ``(colour, dash, shape)``
    (default: :func:`series_style` of its place in ``series``).  The ``<svg>`` carries ``data-x0 data-x1 data-left
    data-right`` (the x range and where it is drawn) so a script can place the marker for another x.

    >>> svg = line_chart([Series("x", [(0, 1.0), (1, 0.5)], marks=[(1, 0.5, "v2")])], title="T", x_label="n",
    ...                  y_label="v", hlines=[(2.0, "upper")], x_marker=1, clickable_x=True, hidden={"x"})
    >>> svg.count('class="chart-x"'), svg.count('class="chart-mark"'), 'chart-series chart-hidden' in svg
    (2, 1, True)
    >>> line_chart([], title="None yet", x_label="n", y_label="v").count('class="chart-line"')
    0
    """
    series = [_tidy(item) for item in series]
    xs, ys = _ranges(series, hlines, x_marker)
    xs += [x for x, _ in vlines]
    title_lines = _title_lines(title, width)
    extra = max(0, len(title_lines) - 1) * (PHONE_FONT + 6)  # a second line of title: the plot keeps its height
    frame = _frame(xs, ys, width, height + extra, len(title_lines))
    legend, legend_height = _legend(series, set(hidden), height + extra, width, set(points_only), styles)
    total = height + extra + legend_height
    ident = chart_id or "chart-" + hashlib.sha1(f"{title}|{x_label}|{y_label}|{[s.name for s in series]}".encode(
        "utf-8", "replace")).hexdigest()[:10]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{clean(ident)}" role="img" '
           f'aria-labelledby="{clean(ident)}-title {clean(ident)}-desc" viewBox="0 0 {width} {total:.0f}" '
           f'width="100%" preserveAspectRatio="xMidYMin meet" font-family="system-ui, DejaVu Sans, sans-serif" '
           f'font-size="{FONT}" data-x0="{data_number(frame.x_low)}" data-x1="{data_number(frame.x_high)}" '
           f'data-left="{frame.left:.1f}" data-right="{frame.right:.1f}">',
           f'<title id="{clean(ident)}-title">{clean(title)}</title>',
           f'<desc id="{clean(ident)}-desc">{clean(_description(series, x_label, y_label))}</desc>']
    if css:
        out.append(f"<style>{CHART_CSS}</style>")
    out.append(f'<rect class="chart-bg" x="0" y="0" width="{width}" height="{total:.0f}" fill="#fff"/>')
    for index, line in enumerate(title_lines):
        out.append(f'<text class="chart-title" x="8" y="{(index + 1) * (PHONE_FONT + 6) - 2}" font-size="{FONT + 2}" '
                   f'font-weight="600" fill="#111">{clean(line)}</text>')
    out += _axes(frame, x_label, y_label)
    if clickable_x:
        out += _hit_rects(series, frame)
    out += _hlines(hlines, frame)
    out += _vlines(vlines, frame)
    if x_marker is not None and _finite(x_marker):
        x = frame.x(x_marker)
        out.append(f'<line class="chart-x-marker" data-x="{data_number(x_marker)}" x1="{x:.1f}" x2="{x:.1f}" '
                   f'y1="{frame.top:.1f}" y2="{frame.bottom:.1f}" stroke="#b3261e" stroke-width="2" '
                   f'pointer-events="none"/>')
    opacity = band_opacity(sum(1 for item in series if item.band and item.name not in hidden))
    for index, item in enumerate(series):
        out += _series_group(index, item, frame, item.name in hidden, item.name in points_only, opacity,
                             styles[index] if styles is not None else None)
    if not any(item.points for item in series):
        from mjarena.i18n import gettext as _

        out.append(f'<text class="chart-empty" x="{(frame.left + frame.right) / 2:.1f}" '
                   f'y="{(frame.top + frame.bottom) / 2:.1f}" text-anchor="middle" fill="#666">'
                   f'{clean(_("No data yet"))}</text>')
    out += legend
    out.append("</svg>")
    return "\n".join(out)


_OPENING = re.compile(r'<svg xmlns="http://www.w3.org/2000/svg" class="chart" (?P<attrs>[^>]*?) '
                      r'viewBox="0 0 (?P<width>\d+) (?P<height>\d+)" width="100%" (?P<rest>[^>]*)>\n')


def stack(charts: Sequence[str], *, title: str, css: bool = True, gap: int = 12) -> str:
    """Charts made by :func:`line_chart`, one under another, as one standalone SVG document (a file to open in
    a browser or an image viewer): each chart becomes a ``<g class="chart-panel">`` keeping its title,
    description and content; ``css``: embed :data:`CHART_CSS`.

    >>> one = line_chart([Series("a", [(1, 1.0)])], title="One", x_label="x", y_label="y", chart_id="one")
    >>> two = line_chart([Series("b", [(1, 2.0)])], title="Two", x_label="x", y_label="y", chart_id="two")
    >>> both = stack([one, two], title="Both")
    >>> both.startswith("<?xml") and both.count('chart-panel"'), both.count('class="chart-line"')
    (2, 2)
    """
    panels, top, width = [], 0, 0
    for chart in charts:
        found = _OPENING.match(chart)
        if found is None or not chart.endswith("</svg>"):
            raise ValueError("stack() takes charts made by line_chart()")
        body = chart[found.end():-len("</svg>")]
        attrs = re.sub(r'\s*preserveAspectRatio="[^"]*"', "", found["attrs"] + " " + found["rest"])
        panels.append(f'<g class="chart chart-panel" transform="translate(0 {top})" {attrs.strip()}>\n{body}</g>')
        top += int(found["height"]) + gap
        width = max(width, int(found["width"]))
    height = max(0, top - gap)
    head = (f'<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" class="chart-stack" '
            f'viewBox="0 0 {width} {height}" width="100%" preserveAspectRatio="xMidYMin meet">\n'
            f"<title>{clean(title)}</title>")
    style = f"\n<style>{CHART_CSS}</style>" if css else ""
    return head + style + "\n" + "\n".join(panels) + "\n</svg>\n"


def data_table(series: Sequence[Series], *, caption: str, x_label: str, y_label: str,
               y_format: Callable[[float], str] = label_number) -> str:
    """The data of :func:`line_chart` as an HTML ``<table class="chart-table">``: a row per x, a column per
    series; a cell is ``y``, then ``(low–high)`` when the series has a band there, then its marks' labels.

    >>> table = data_table([Series("a<b", [(1, 2.0), (2, 3.0)], band=[(2, 1.0, 5.0)])], caption="c",
    ...                    x_label="round", y_label="mu")
    >>> table.count("<tr>"), "a&lt;b" in table, "3 (1–5)" in table
    (3, True, True)
    """
    series = [_tidy(item) for item in series]
    xs = sorted({x for item in series for x, _ in item.points} | {x for item in series for x, _, _ in item.marks})
    head = "".join(f'<th scope="col">{clean(item.name)}</th>' for item in series)
    rows = [f'<table class="chart-table list"><caption>{clean(caption)}</caption>',
            f'<thead><tr><th scope="col">{clean(x_label)} \\ {clean(y_label)}</th>{head}</tr></thead><tbody>']
    cells = [_cells(item, y_format) for item in series]
    for x in xs:
        row = "".join(f'<td class="num">{clean(cell.get(x, ""))}</td>' for cell in cells)
        rows.append(f'<tr><th scope="row">{label_number(x)}</th>{row}</tr>')
    rows.append("</tbody></table>")
    return "".join(rows)


def _cells(item: Series, y_format: Callable[[float], str]) -> dict[float, str]:
    """The table cell text of each x of ``item``."""
    bands = {x: (lo, hi) for x, lo, hi in item.band}
    labels: dict[float, list[str]] = {}
    for x, _, label in item.marks:
        labels.setdefault(x, []).append(label)
    cells: dict[float, str] = {}
    for x, y in item.points:
        text = y_format(y)
        if x in bands:
            text += f" ({y_format(bands[x][0])}–{y_format(bands[x][1])})"
        cells[x] = text
    for x, names in labels.items():
        cells[x] = (cells.get(x, "") + " " + "; ".join(names)).strip()
    return cells
