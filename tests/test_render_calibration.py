"""The duplex calibration sheet: the reading is the --back-offset that cancels the error."""

from __future__ import annotations

import pypdf
import pytest

from cardforge.layout.geometry import Rect, back_placements, mirror, mirror_axis
from cardforge.render.calibration import render_calibration, scale_signs, targets
from render_helpers import line_segments

PAGES = [(210.0, 297.0), (297.0, 210.0)]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
@pytest.mark.parametrize("error", [(1.0, 0.0), (0.0, -0.75), (-0.5, 1.25)])
def test_the_reading_cancels_the_printers_error(page, duplex, error):
    """A printer shifts the back page by ``error`` (back-page coordinates). The back's crosshair
    is seen through the sheet at some displacement from the front's target; the scales label
    that displacement with the offset to build with; building with it puts backs in place."""
    axis = mirror_axis(page, duplex)
    tx, ty = targets(page)[1]
    printed = mirror(Rect(tx, ty, 0, 0), page, axis).shift(*error)  # where the crosshair lands
    seen = mirror(printed, page, axis)  # a back point sits behind its mirror image on the front
    sx, sy = scale_signs(page, duplex)
    reading = (sx * (seen.x - tx), sy * (seen.y - ty))
    assert reading == pytest.approx((-error[0], -error[1]))
    # a card's back built with that offset, then shifted by the printer, lands behind its front
    front = Rect(20, 30, 63, 88)
    [back] = back_placements((front,), page, duplex, reading)
    landed = mirror(back.trim.shift(*error), page, axis)
    assert (landed.x, landed.y) == pytest.approx((front.x, front.y))


def test_the_back_page_draws_a_crosshair_behind_each_target(tmp_path):
    path = tmp_path / "cal.pdf"
    render_calibration(path, (210.0, 297.0), "portrait", "long-edge")
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == 2
    assert "--back-offset X,Y" in reader.pages[0].extract_text()
    back = line_segments(reader.pages[1])
    for tx, ty in targets((210.0, 297.0)):
        # long-edge portrait: behind (tx, ty) is (210 - tx, ty)
        assert any(s[0] == s[2] == pytest.approx(210 - tx) for s in back)
        assert any(s[1] == s[3] == pytest.approx(ty) for s in back)


def test_an_offset_under_test_moves_the_crosshairs(tmp_path):
    path = tmp_path / "cal.pdf"
    render_calibration(path, (210.0, 297.0), "portrait", "long-edge", offset=(1.0, -0.5))
    back = line_segments(pypdf.PdfReader(path).pages[1])
    tx, ty = targets((210.0, 297.0))[0]
    assert any(s[0] == s[2] == pytest.approx(210 - tx + 1.0) for s in back)
    assert any(s[1] == s[3] == pytest.approx(ty - 0.5) for s in back)


def test_one_sided_modes_are_refused(tmp_path):
    with pytest.raises(ValueError, match="two-sided mode"):
        render_calibration(tmp_path / "x.pdf", (210.0, 297.0), duplex="none")
