"""mjarena.charts: the SVG line charts and their tables, read back as XML."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mjarena.charts import (
    CHART_CSS,
    DASHES,
    PALETTE,
    SHAPES,
    Series,
    data_table,
    line_chart,
    nice_ticks,
    stack,
)

NS = {"svg": "http://www.w3.org/2000/svg"}
STYLE = Path(__file__).resolve().parents[1] / "src" / "mjarena" / "web" / "static" / "style.css"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{{{NS['svg']}}}g") if "chart-series" in g.get("class", "").split()]


def _by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [element for element in root.iter() if name in element.get("class", "").split()]


def _series(count: int, points: int = 5) -> list[Series]:
    return [Series(f"bot {i}", [(x, float(i * x)) for x in range(1, points + 1)]) for i in range(count)]


@pytest.mark.parametrize("count", [1, 3, 9])
def test_a_line_and_a_legend_item_per_series(count: int) -> None:
    root = _parse(line_chart(_series(count), title="t", x_label="round", y_label="points"))
    groups = _groups(root)
    assert len(groups) == len(_by_class(root, "chart-line")) == len(_by_class(root, "chart-legend-item")) == count
    assert [g.get("data-series") for g in groups] == [f"bot {i}" for i in range(count)]
    for index, group in enumerate(groups):
        line = _by_class(group, "chart-line")[0]
        assert group.get("data-last") == str(index * 5)
        assert line.get("data-points").split() == [f"{x},{index * x}" for x in range(1, 6)]
        assert line.get("stroke") == PALETTE[index % len(PALETTE)]
        assert line.get("stroke-dasharray", "") == DASHES[index % len(DASHES)]


def test_series_differ_without_colour() -> None:
    """Two series of the same colour (the palette wrapped round) still differ in dash or marker shape."""
    styles = [(DASHES[i % len(DASHES)], SHAPES[i % len(SHAPES)]) for i in range(len(PALETTE) * len(DASHES))]
    assert len(set(styles)) == len(styles)
    assert "#F0E442" not in PALETTE, "the pale yellow is left out"


def test_the_svg_is_accessible_and_scales() -> None:
    root = _parse(line_chart(_series(2), title="Ratings", x_label="round", y_label="mu"))
    assert root.get("role") == "img" and root.get("width") == "100%"
    assert re.fullmatch(r"0 0 640 \d+", root.get("viewBox"))
    title, desc = root.find("svg:title", NS), root.find("svg:desc", NS)
    assert title.text == "Ratings" and "bot 1: 5 at round 5" in desc.text
    assert root.get("aria-labelledby").split() == [title.get("id"), desc.get("id")]
    assert root.find(".//svg:style", NS) is None and not any("style" in e.attrib for e in root.iter()), \
        "no inline style: pages serve style-src 'self'"


def test_names_are_escaped() -> None:
    evil = '</text><script>alert("x")</script> & \x00\x1b'
    svg = line_chart([Series(evil, [(1, 1.0)], marks=[(1, 1.0, evil)])], title=evil, x_label=evil, y_label=evil)
    root = _parse(svg)  # well-formed XML despite the name
    assert "<script" not in svg and root.find(".//svg:script", NS) is None
    assert _groups(root)[0].get("data-series") == evil.replace("\x00", "\ufffd").replace("\x1b", "\ufffd")
    table = data_table([Series(evil, [(1, 1.0)])], caption=evil, x_label=evil, y_label=evil)
    assert "<script" not in table and "&lt;script&gt;" in table
    ET.fromstring(table)


def test_empty_input_draws_axes_and_says_so() -> None:
    for series in ([], [Series("nobody", [])]):
        root = _parse(line_chart(series, title="", x_label="x", y_label="y"))
        assert len(_by_class(root, "chart-empty")) == 1 and _by_class(root, "chart-axes")
        assert len(_by_class(root, "chart-line")) == len(series)
        assert all(group.get("data-last") is None for group in _groups(root))
    assert data_table([], caption="c", x_label="x", y_label="y").count("<tr>") == 1


def test_a_single_point_and_non_finite_values() -> None:
    root = _parse(line_chart([Series("one", [(3, 7.5), (4, float("nan"))])], title="t", x_label="x", y_label="y"))
    (group,) = _groups(root)
    assert group.get("data-last") == "7.5" and _by_class(group, "chart-line")[0].get("data-points") == "3,7.5"
    assert len(_by_class(group, "chart-point")) == 1
    ticks = [float(t.text) for t in _by_class(root, "chart-axes")[0].iter(f"{{{NS['svg']}}}text")
             if t.get("text-anchor") == "end"]
    assert min(ticks) < 7.5 < max(ticks), "a lone value sits inside its axis"


def test_a_band_is_one_shaded_path_around_its_line() -> None:
    band = [(x, x - 1.0, x + 1.0) for x in range(1, 6)]
    root = _parse(line_chart([Series("mu", [(x, float(x)) for x in range(1, 6)], band=band), Series("b", [(1, 0)])],
                             title="t", x_label="x", y_label="y"))
    bands = _by_class(root, "chart-band")
    assert len(bands) == 1 and bands[0].get("d").count("L") == 2 * len(band) - 1
    ticks = [float(t.text) for t in root.iter(f"{{{NS['svg']}}}text") if t.get("text-anchor") == "end"]
    assert min(ticks) <= 0 and max(ticks) >= 6, "the axis covers the band"


def test_marks_carry_a_tooltip() -> None:
    root = _parse(line_chart([Series("team", [(1, 1.0), (2, 4.0)], marks=[(2, 4.0, "v2 uploaded")])],
                             title="t", x_label="x", y_label="y"))
    (mark,) = _by_class(root, "chart-mark")
    assert (mark.get("data-x"), mark.get("data-y")) == ("2", "4")
    assert mark.find("svg:title", NS).text == "team: v2 uploaded"


def test_hidden_series_are_drawn_hidden() -> None:
    root = _parse(line_chart(_series(4), title="t", x_label="x", y_label="y", hidden={"bot 2", "bot 3"}))
    hidden = [g.get("data-series") for g in _groups(root) if "chart-hidden" in g.get("class").split()]
    assert hidden == ["bot 2", "bot 3"] and all(g.get("display") == "none" for g in _by_class(root, "chart-hidden"))
    assert len(_by_class(root, "chart-line")) == 4, "hidden lines are there to show on demand"
    assert [i.get("data-series") for i in _by_class(root, "chart-off")] == hidden


def test_clickable_x_rects_cover_the_plot_without_overlap() -> None:
    series = [Series("a", [(0, 1.0), (1, 2.0), (3, 1.0)]), Series("b", [(1, 0.0), (2, 1.0)])]
    root = _parse(line_chart(series, title="t", x_label="turn", y_label="d", clickable_x=True, x_marker=2))
    rects = _by_class(root, "chart-x")
    assert [r.get("data-x") for r in rects] == ["0", "1", "2", "3"]
    spans = [(float(r.get("x")), float(r.get("x")) + float(r.get("width"))) for r in rects]
    assert all(end <= next_start + 0.11 for (_, end), (next_start, _) in itertools.pairwise(spans))
    (marker,) = _by_class(root, "chart-x-marker")
    assert marker.get("data-x") == "2"
    left, right = float(root.get("data-left")), float(root.get("data-right"))
    x0, x1 = float(root.get("data-x0")), float(root.get("data-x1"))
    assert float(marker.get("x1")) == pytest.approx(left + (2 - x0) / (x1 - x0) * (right - left), abs=0.1)


def test_reference_lines_and_points_only_series() -> None:
    root = _parse(line_chart([Series("d", [(1, 0.5), (2, -0.5)]), Series("mean", [(1, 0.5), (2, 0.0)])],
                             title="t", x_label="set", y_label="d", hlines=[(3.0, "upper"), (-3.0, "lower")],
                             points_only={"d"}))
    assert [h.get("data-y") for h in _by_class(root, "chart-hline")] == ["3", "-3"]
    scatter, mean = _groups(root)
    assert _by_class(scatter, "chart-line")[0].get("stroke") == "none"
    assert _by_class(mean, "chart-line")[0].get("stroke") == PALETTE[1]


@pytest.mark.parametrize(("low", "high", "integer"), [(0, 97, False), (-2.94, 2.94, False), (0.001, 0.0042, False),
                                                      (1, 40, True), (1e6, 3.5e6, False), (-5, -5, False)])
def test_ticks_are_round_and_cover_the_data(low: float, high: float, integer: bool) -> None:
    ticks = nice_ticks(low, high, integer=integer)
    assert ticks[0] <= low and ticks[-1] >= high and 3 <= len(ticks) <= 12
    steps = {round(b - a, 12) for a, b in itertools.pairwise(ticks)}
    assert len(steps) == 1, ticks
    (step,) = steps
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 9) in (1, 2, 5)
    assert not integer or all(float(t).is_integer() for t in ticks)


def test_the_table_has_a_row_per_x_and_a_column_per_series() -> None:
    series = [Series("a", [(1, 1.0), (2, 2.25)], band=[(2, 1.0, 3.5)]), Series("b", [(2, 5.0), (3, 6.0)],
                                                                                marks=[(3, 6.0, "v2")])]
    table = ET.fromstring(data_table(series, caption="Points", x_label="round", y_label="points"))
    rows = [[cell.text or "" for cell in row] for row in table.iter("tr")]
    assert rows[0][1:] == ["a", "b"]
    assert [row[0] for row in rows[1:]] == ["1", "2", "3"]
    assert rows[2][1:] == ["2.25 (1–3.5)", "5"] and rows[3][1:] == ["", "6 v2"]


def test_stacked_charts_make_one_document() -> None:
    panels = [line_chart(_series(2), title=f"panel {i}", x_label="x", y_label="y", chart_id=f"p{i}")
              for i in range(2)]
    root = _parse(stack(panels, title="Two panels"))
    assert root.get("class") == "chart-stack" and root.find("svg:style", NS) is not None
    assert len(_by_class(root, "chart-panel")) == 2 and len(_by_class(root, "chart-line")) == 4
    heights = [int(re.search(r"0 0 \d+ (\d+)", p).group(1)) for p in panels]
    assert int(root.get("viewBox").split()[3]) == sum(heights) + 12
    with pytest.raises(ValueError, match="line_chart"):
        stack(["<svg/>"], title="x")


def test_the_web_style_sheet_holds_the_chart_rules() -> None:
    """Served pages allow no inline style, so the rules a standalone chart embeds are in the style sheet."""
    assert CHART_CSS in STYLE.read_text(encoding="utf-8")
