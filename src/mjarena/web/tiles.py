"""Tile pictures as SVG, drawn here from shapes: no image files, no web fonts, no CJK font needed.

Dots (筒) are circles and bamboo (条) sticks in the usual layouts; characters (万) are a numeral over a
万 drawn as strokes; the winds and dragons are their characters drawn as strokes (白 is the blue frame);
THUPC's PASS / REVERSE / DOUBLE and the 百搭 wildcard get an icon and a Latin label.  Only digits and
Latin letters are set as text, and every system has a font for those.

>>> svg = tile_svg(9)          # one dot
>>> svg.startswith("<svg") and svg.count("<circle") >= 1
True
>>> tile_title(0), tile_title(33), tile_title(37)
('1 万 (characters)', '中 red dragon', '百搭 wildcard')
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["BACK", "KINDS", "tile_svg", "tile_title"]

KINDS = range(38)
"""Every kind a picture exists for: 0..26 suits, 27..33 honours, 34..36 THUPC specials, 37 百搭."""
BACK = -1
"""The kind of the face-down picture (a hidden tile)."""

WIDTH, HEIGHT = 60, 80
_RED, _GREEN, _BLUE, _INK, _GOLD, _PURPLE = "#c62828", "#1b7a3a", "#1f4e9c", "#1d1d1f", "#b8860b", "#6a1b9a"

# Strokes of the characters on a 100 x 100 grid: each string is one polyline "x,y x,y ...".
_GLYPHS: dict[str, tuple[str, ...]] = {
    "万": ("10,22 90,22", "46,22 40,60 16,92", "40,50 80,50 76,86 62,80"),
    "东": ("14,24 86,24", "46,6 26,52 82,52", "54,30 54,94 44,86", "34,66 20,82", "66,66 82,82"),
    "南": ("10,16 90,16", "50,4 50,30", "20,94 20,34 80,34 80,94 70,88", "38,42 44,52", "62,42 56,52",
          "30,60 70,60", "30,76 70,76", "50,60 50,94"),
    "西": ("10,14 90,14", "18,90 18,34 82,34 82,90", "18,90 82,90", "40,14 40,52 28,68", "60,14 60,62 72,62"),
    "北": ("38,8 38,88", "14,42 38,42", "12,80 38,68", "62,8 62,86 88,86 88,74", "62,44 86,30"),
    "中": ("20,30 80,30 80,66 20,66 20,30", "50,6 50,96"),
    "发": ("26,10 20,36", "10,34 90,34", "56,6 46,46 14,92", "46,52 78,52 56,80 84,94", "56,68 30,92",
          "68,12 80,24"),
}

_DOTS = {  # centres on the 60 x 80 face, one layout per number
    1: [(30, 40)],
    2: [(30, 22), (30, 58)],
    3: [(16, 16), (30, 40), (44, 64)],
    4: [(18, 22), (42, 22), (18, 58), (42, 58)],
    5: [(17, 18), (43, 18), (30, 40), (17, 62), (43, 62)],
    6: [(19, 16), (41, 16), (19, 40), (41, 40), (19, 64), (41, 64)],
    7: [(14, 13), (30, 21), (46, 29), (19, 48), (41, 48), (19, 66), (41, 66)],
    8: [(19, 13), (41, 13), (19, 31), (41, 31), (19, 49), (41, 49), (19, 67), (41, 67)],
    9: [(14, 16), (30, 16), (46, 16), (14, 40), (30, 40), (46, 40), (14, 64), (30, 64), (46, 64)],
}

_STICKS = {  # (x, y) tops of 20-high sticks
    2: [(30, 12), (30, 48)],
    3: [(30, 12), (18, 48), (42, 48)],
    4: [(20, 12), (40, 12), (20, 48), (40, 48)],
    5: [(16, 12), (44, 12), (30, 30), (16, 48), (44, 48)],
    6: [(16, 12), (30, 12), (44, 12), (16, 48), (30, 48), (44, 48)],
    7: [(30, 6), (16, 30), (30, 30), (44, 30), (16, 54), (30, 54), (44, 54)],
    8: [(12, 12), (24, 12), (36, 12), (48, 12), (12, 48), (24, 48), (36, 48), (48, 48)],
    9: [(16, 6), (30, 6), (44, 6), (16, 30), (30, 30), (44, 30), (16, 54), (30, 54), (44, 54)],
}

_HONOURS = {27: ("东", _INK, "E", "east wind"), 28: ("南", _INK, "S", "south wind"),
            29: ("西", _INK, "W", "west wind"), 30: ("北", _INK, "N", "north wind"),
            31: (None, _BLUE, "", "白 white dragon"), 32: ("发", _GREEN, "", "发 green dragon"),
            33: ("中", _RED, "", "中 red dragon")}
_SUIT_NAMES = (("万", "characters"), ("筒", "dots"), ("条", "bamboo"))
_SPECIAL_TITLES = {34: "PASS (skip a player)", 35: "REVERSE (turn order)", 36: "DOUBLE (an extra turn)",
                   37: "百搭 wildcard"}


def tile_title(kind: int) -> str:
    """A person's name of a tile kind (for ``alt`` and ``title`` texts); ``BACK`` is a hidden tile."""
    if kind == BACK:
        return "hidden tile"
    if 0 <= kind < 27:
        symbol, name = _SUIT_NAMES[kind // 9]
        return f"{kind % 9 + 1} {symbol} ({name})"
    if kind in _HONOURS:
        glyph, _, _, name = _HONOURS[kind]
        return f"{glyph} {name}" if glyph and not name.startswith(glyph) else name
    if kind in _SPECIAL_TITLES:
        return _SPECIAL_TITLES[kind]
    raise ValueError(f"no picture of tile kind {kind!r}")


def _glyph(name: str, colour: str, x: float, y: float, size: float, width: float = 9) -> str:
    """One character of :data:`_GLYPHS` in a ``size`` square at (x, y)."""
    lines = "".join(f'<polyline points="{points}"/>' for points in _GLYPHS[name])
    scale = size / 100
    return (f'<g transform="translate({x} {y}) scale({scale})" fill="none" stroke="{colour}" '
            f'stroke-width="{width}" stroke-linecap="round" stroke-linejoin="round">{lines}</g>')


def _text(text: str, x: float, y: float, size: float, colour: str, weight: str = "bold") -> str:
    return (f'<text x="{x}" y="{y}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" '
            f'font-size="{size}" font-weight="{weight}" fill="{colour}" text-anchor="middle">{text}</text>')


def _dots(number: int) -> str:
    radius = 11 if number == 1 else (8 if number <= 6 else 6.5)
    parts = []
    for index, (cx, cy) in enumerate(_DOTS[number]):
        colour = _RED if (number in (1, 5, 9) and index == len(_DOTS[number]) // 2) or (
            number == 7 and index < 3) else (_GREEN if index % 2 else _BLUE)
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="none" stroke="{colour}" stroke-width="3"/>'
                     f'<circle cx="{cx}" cy="{cy}" r="{radius / 3:.1f}" fill="{colour}"/>')
    return "".join(parts)


def _bamboo(number: int) -> str:
    if number == 1:  # the one of bamboo: a single large stick with leaves
        return ('<rect x="25" y="8" width="10" height="64" rx="5" fill="#2e7d32"/>'
                '<path d="M30 30 q-18 -6 -20 -18 M30 30 q18 -6 20 -18" stroke="#2e7d32" stroke-width="4" '
                f'fill="none"/><circle cx="30" cy="56" r="5" fill="{_RED}"/>')
    parts = []
    for index, (x, y) in enumerate(_STICKS[number]):
        colour = _RED if number in (5, 7, 9) and index in ((2,) if number == 5 else (0,) if number == 7 else (1,)) \
            else "#2e7d32"
        parts.append(f'<rect x="{x - 3.5}" y="{y}" width="7" height="20" rx="3.5" fill="{colour}"/>'
                     f'<line x1="{x - 3.5}" y1="{y + 10}" x2="{x + 3.5}" y2="{y + 10}" stroke="#fff" '
                     'stroke-width="1.4"/>')
    return "".join(parts)


def _face(kind: int) -> str:
    if kind < 9:
        return _text(str(kind + 1), 30, 34, 30, _INK) + _glyph("万", _RED, 12, 40, 36)
    if kind < 18:
        return _dots(kind - 8)
    if kind < 27:
        return _bamboo(kind - 17)
    if kind == 31:
        return f'<rect x="12" y="14" width="36" height="52" rx="3" fill="none" stroke="{_BLUE}" stroke-width="5"/>'
    if kind in _HONOURS:
        glyph, colour, letter, _ = _HONOURS[kind]
        assert glyph is not None
        corner = _text(letter, 10, 15, 11, _BLUE) if letter else ""
        return _glyph(glyph, colour, 8, 16, 44, 10) + corner
    if kind == 34:
        return (f'<circle cx="30" cy="32" r="16" fill="none" stroke="{_PURPLE}" stroke-width="5"/>'
                f'<line x1="19" y1="43" x2="41" y2="21" stroke="{_PURPLE}" stroke-width="5"/>'
                + _text("PASS", 30, 68, 13, _PURPLE))
    if kind == 35:
        return (f'<path d="M14 30 a16 16 0 0 1 30 -6 l4 -6 l1 14 l-13 -2 l5 -4 a10 10 0 0 0 -19 4 z" '
                f'fill="{_PURPLE}"/><path d="M46 36 a16 16 0 0 1 -30 6 l-4 6 l-1 -14 l13 2 l-5 4 a10 10 0 0 0 19 -4 z" '
                f'fill="{_PURPLE}"/>' + _text("REV", 30, 72, 13, _PURPLE))
    if kind == 36:
        return _text("×2", 30, 44, 28, _PURPLE) + _text("DOUBLE", 30, 68, 10, _PURPLE)
    if kind == 37:
        star = "30,8 36,26 55,26 40,37 46,55 30,44 14,55 20,37 5,26 24,26"
        return f'<polygon points="{star}" fill="{_GOLD}"/>' + _text("WILD", 30, 72, 13, _GOLD)
    raise ValueError(f"no picture of tile kind {kind!r}")


@lru_cache(maxsize=64)
def tile_svg(kind: int) -> str:
    """The SVG document of one tile (60 x 80), or of the back of a tile for :data:`BACK`."""
    if kind == BACK:
        body = ('<rect x="1.5" y="1.5" width="57" height="77" rx="7" fill="#2e7d5b" stroke="#1b4d38" '
                'stroke-width="2"/><rect x="8" y="9" width="44" height="62" rx="4" fill="none" stroke="#8fd1b0" '
                'stroke-width="2" stroke-dasharray="4 3"/>')
    else:
        body = ('<rect x="1.5" y="1.5" width="57" height="77" rx="7" fill="#fdfaf1" stroke="#9e9a8a" '
                f'stroke-width="2"/>{_face(kind)}')
    title = tile_title(kind)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
            f'height="{HEIGHT}" role="img" aria-label="{title}"><title>{title}</title>{body}</svg>')
