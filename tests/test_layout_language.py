"""Issue 28's layout language: units with a dpi, box extends and named styles, lines and
polygons, style values from card data, and what `check` finds before `build`."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardforge.layout.boxes import LayoutLibrary, box_rect
from cardforge.units import parse_length


def write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "layout.yaml").write_text(text, encoding="utf-8")
    return folder


# --- units -----------------------------------------------------------------------------------
def test_pixels_need_a_dpi():
    assert parse_length("300px", dpi=300) == pytest.approx(72.0)
    assert parse_length("75px", dpi=300) == pytest.approx(18.0)  # 1/4 in
    with pytest.raises(ValueError, match="only known in a layout"):
        parse_length("75px")


def test_pixels_at_the_default_300_dpi_and_at_the_layouts_own(tmp_path):
    game = write(tmp_path / "g", """
layouts:
  card:
    safe_zone: 37.5px
    boxes:
      a: {type: rect, x: 75px, y: 150px, width: 600px, height: 1in}
      b: {type: rect, x: 3, y: 0.5cm, width: 12pt, height: 10mm, stroke: black, stroke_width: 3px}
  small:
    dpi: 150
    boxes:
      a: {type: rect, x: 75px, width: 150px}
""")
    lib = LayoutLibrary([game])
    assert lib.problems == []
    card = lib.get("card")
    a = card.box("a").fields
    # 75 px at 300 dpi = 1/4 in = 6.35 mm; 150 px = 12.7 mm; 600 px = 2 in = 50.8 mm
    assert (a["x"], a["y"], a["width"], a["height"]) == pytest.approx((6.35, 12.7, 50.8, 25.4))
    assert card.safe_zone == pytest.approx(3.175)
    b = card.box("b").fields
    assert (b["x"], b["y"], b["width"]) == pytest.approx((3.0, 5.0, 4.2333))  # rounded to 0.1 µm
    assert b["stroke_width"] == pytest.approx(3 * 72 / 300)  # 0.72 pt
    small = lib.get("small").box("a").fields
    assert (small["x"], small["width"]) == pytest.approx((12.7, 25.4))  # at 150 dpi
    # on a 63 × 88 card: x 6.35 mm, top 12.7 mm down, 50.8 × 25.4 mm
    r = box_rect(card.box("a"), 63, 88)
    assert (r.x, r.y, r.w, r.h) == pytest.approx((6.35, 88 - 12.7 - 25.4, 50.8, 25.4))


def test_a_file_dpi_and_bad_dpis(tmp_path):
    game = write(tmp_path / "g", """
dpi: 600
layouts:
  card:
    boxes:
      a: {type: rect, x: 600px, width: 60px}
  bad:
    dpi: 0
    boxes: {}
""")
    lib = LayoutLibrary([game])
    a = lib.get("card").box("a").fields
    assert (a["x"], a["width"]) == pytest.approx((25.4, 2.54))
    assert any("layout 'bad'" in str(p) and "dpi" in str(p) and "≥ 1" in str(p) for p in lib.problems)
