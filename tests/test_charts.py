"""render/reports/charts.py: ReportLab drawings of plays' numbers, as SVG for the pages and into a PDF
(the same drawing), the same bytes for the same input."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

from cardforge.render.reports.charts import (
    WIDTH,
    Bar,
    Series,
    bar_chart,
    fit,
    histogram,
    line_chart,
    nice_step,
    stacked_bars,
    text_width,
    to_svg,
)

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def _charts():
    return [
        bar_chart("Win rate", [Bar("Ana", 66.7, "67 % · 2 of 3", "#E69F00", (20.8, 93.9)),
                               Bar("Benoît-Longname Dupont", 0, "0 % · 0 of 1")], max_value=100, unit=" %"),
        histogram("Scores", [(4, 5, 1), (5, 6, 2), (6, 7, 0), (7, 8, 3)], x_label="final score"),
        stacked_bars("Average by category", [("Ana", [6, 0.5]), ("Ben", [6, 1.3])], ["Butin", "Anneaux"]),
        line_chart("Scores over time", [Series("Ana", [(0, 10), (1, 5), (2, 7)]), Series("Ben", [(0, 6), (2, 7)])],
                   x_labels=[(0, "2026-01-01"), (2, "2026-01-15")]),
    ]


def test_svg_for_the_pages():
    for d in _charts():
        svg = to_svg(d, title="A chart", desc="What it shows")
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG}svg" and root.get("class") == "chart" and root.get("role") == "img"
        assert root.get("viewBox").startswith(f"0 0 {WIDTH:g} ") and root.get("width") is None
        assert root.find(f"{SVG}title").text == "A chart" and root.find(f"{SVG}desc").text == "What it shows"
        assert "style=" not in svg and " id=" not in svg and "<!DOCTYPE" not in svg
        assert to_svg(d, title="A chart", desc="What it shows") == svg  # the same bytes
        assert "Helvetica, Arial" in svg


def test_what_each_chart_writes():
    bars, hist, stacked, lines = (to_svg(d, title="t") for d in _charts())
    texts = _texts(bars)
    assert "67 % · 2 of 3" in texts and "Ana" in texts and "0 %" in texts and "100 %" in texts
    assert any(t.startswith("Benoît") and t.endswith("…") for t in texts)  # a long name shortened to fit
    hist_texts = _texts(hist)
    # the axis 0, 1, 2, 3, and the counts 1, 2, 3 above the bars (none above the empty bin)
    assert [hist_texts.count(n) for n in ("0", "1", "2", "3")] == [1, 2, 2, 2]
    assert {"4", "8", "final score"} <= set(hist_texts)
    assert {"1 Butin", "2 Anneaux", "6.5", "7.3"} <= set(_texts(stacked))  # the legend and each row's total
    assert {"Ana", "Ben", "2026-01-01", "2026-01-15"} <= set(_texts(lines))
    # the whisker of the interval: a line across and its two ends, besides 5 grid lines and the axis
    plain = to_svg(bar_chart("Win rate", [Bar("Ana", 66.7, "67 % · 2 of 3"), Bar("Ben", 0, "0 %")], max_value=100,
                             unit=" %"), title="t")
    assert (bars.count("<path"), plain.count("<path")) == (9, 6)


def test_the_same_drawing_draws_into_a_pdf():
    """What a printed report (issue 33) does with these drawings: renderPDF draws them on a page."""
    from pypdf import PdfReader
    from reportlab.graphics import renderPDF
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(400, 1200), invariant=1)
    y = 1190
    for d in _charts():
        y -= d.height + 10
        renderPDF.draw(d, canvas, 20, y)
    canvas.save()
    text = PdfReader(io.BytesIO(buf.getvalue())).pages[0].extract_text()
    for word in ("Win rate", "67 % · 2 of 3", "Scores", "final score", "2 Anneaux", "2026-01-15"):
        assert word in text, word


def test_helpers():
    assert [nice_step(s) for s in (10, 7, 100, 3, 0)] == [2.0, 2.0, 20.0, 1.0, 1.0]
    assert fit("Ana", 100) == "Ana"
    assert fit("Cristaux Élémentaires Joailliers", 60).endswith("…")
    assert text_width("Łukasz") > text_width("ukasz")  # a letter outside the font's encoding still takes room
    assert re.fullmatch(r"[\d.]+", str(text_width("")))


def test_a_phone_chart_keeps_its_labels_whole_and_apart():
    """Laid out for a phone (PHONE_WIDTH points), a bar chart writes each label whole on a line
    above its bar (a label column would cut "Benoît-Longname Dupont" to a few letters), and the
    axes keep only the ticks and dates whose labels do not touch: 0, 50, 100 % here (5 ticks of
    "100 %" at 9 points, 25 points wide, need 4 × 29.5 = 118 points; the axis has 180 − 8.8 (half
    of "0 %") − 67.8 (the widest text at the bars' ends) = 103.5)."""
    from cardforge.render.reports.charts import PHONE_WIDTH

    bars = bar_chart("Win rate", [Bar("Ana", 66.7, "67 % · 2 of 3"), Bar("Benoît-Longname Dupont", 0, "0 % · 0 of 1")],
                     max_value=100, unit=" %", width=PHONE_WIDTH)
    texts = _texts(to_svg(bars, title="t"))
    assert "Benoît-Longname Dupont" in texts and not any(t.endswith("…") for t in texts)
    assert [t for t in texts if t.endswith(" %") and "·" not in t] == ["0 %", "50 %", "100 %"]
    wide = _texts(to_svg(bar_chart("Win rate", [Bar("Ana", 66.7, "67 % · 2 of 3")], max_value=100, unit=" %"),
                         title="t"))
    assert [t for t in wide if t.endswith(" %") and "·" not in t] == ["0 %", "25 %", "50 %", "75 %", "100 %"]
    many = [(float(i), f"2026-01-{i + 1:02d}") for i in range(0, 12, 3)]
    lines = line_chart("Scores", [Series("Ana", [(float(i), i) for i in range(12)])], x_labels=many,
                       width=PHONE_WIDTH)
    dates = [t for t in _texts(to_svg(lines, title="t")) if t.startswith("2026")]
    assert dates[-1] == "2026-01-10" and len(dates) < len(many)  # the last date kept, crowded ones left out
