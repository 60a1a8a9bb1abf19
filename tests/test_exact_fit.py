"""Issue 42: text that exactly fits its box is not overflow (a thousandth of a point of
tolerance: a box measured to the text, or converted from px or mm and rounded, holds it)."""

from __future__ import annotations

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardforge.render.drawing.richtext import FIT_TOLERANCE_PT, TextOverflow, TextStyle, fit_text
from cardforge.render.fonts import font_name

TEXT = "Gain two coins"
STYLE = TextStyle(size=10, min_size=None, leading=1.2)  # no shrinking: fits at 10 pt or overflows


def _measured() -> tuple[float, float]:
    """The text's width by ReportLab's own metrics (not cardforge's measure) and one line's
    height: 1.2 × 10 pt."""
    return stringWidth(TEXT, font_name("sans"), 10), 12.0


def test_a_box_exactly_as_wide_and_tall_as_the_text_holds_it_on_one_line():
    width, height = _measured()
    assert 60 < width < 90  # the measurement is real: 14 characters of DejaVu Sans at 10 pt
    layout = fit_text(TEXT, width, height, STYLE)
    assert (layout.size, layout.line_count, layout.height) == (10, 1, pytest.approx(12.0))


@pytest.mark.parametrize("short", [0.0005, 0.0009])
def test_a_box_short_by_less_than_a_thousandth_of_a_point_still_holds_it(short):
    width, height = _measured()
    assert fit_text(TEXT, width - short, height, STYLE).line_count == 1
    assert fit_text(TEXT, width, height - short, STYLE).line_count == 1


def test_a_box_short_by_more_than_the_tolerance_does_not():
    width, height = _measured()
    assert FIT_TOLERANCE_PT == 0.001
    with pytest.raises(TextOverflow):  # two lines (24 pt) in a 12 pt box
        fit_text(TEXT, width - 0.01, height, STYLE)
    with pytest.raises(TextOverflow):
        fit_text(TEXT, width, height - 0.01, STYLE)
    assert fit_text(TEXT, width - 0.01, 2 * height, STYLE).line_count == 2
