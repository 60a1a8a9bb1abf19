"""The layout.yaml format: box geometry, extends, located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardforge.layout.boxes import Box, LayoutLibrary, box_rect
from cardforge.layout.geometry import Rect

from conftest import ROOT


def box(**fields) -> Box:
    fields.setdefault("type", "rect")
    return Box("b", fields["type"], fields, "layout.yaml", "l")


def write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "layout.yaml").write_text(text, encoding="utf-8")
    return folder


def test_box_positions_from_the_top_left_of_the_trim():
    # 63 × 88 card; a box 4 mm from the left, 10 mm from the top, 20 × 6 mm:
    # PDF y of its bottom = 88 - 10 - 6 = 72
    assert box_rect(box(x=4, y=10, width=20, height=6), 63, 88) == Rect(4, 72, 20, 6)


def test_insets_from_the_right_and_bottom():
    # x 4, right 4 → width 55; bottom 7 with height 5 → top at 88-7-5 = 76, PDF y = 7
    assert box_rect(box(x=4, right=4, bottom=7, height=5), 63, 88) == Rect(4, 7, 55, 5)
    # width and right without x: x = 63 - 3 - 20 = 40
    assert box_rect(box(width=20, right=3, y=0, height=5), 63, 88).x == pytest.approx(40)
    # nothing given: the whole trim box
    assert box_rect(box(), 63, 88) == Rect(0, 0, 63, 88)


def test_bleed_pushes_edges_on_the_trim_out_to_the_bleed():
    # a top band 12 mm high with bleed: left, top and right edges run 3 mm out, the bottom stays
    r = box_rect(box(height=12, bleed=True), 63, 88, bleed=3)
    assert r == Rect(-3, 76, 69, 15)
    # an inner box is not changed
    assert box_rect(box(x=5, y=5, right=5, bottom=5, bleed=True), 63, 88, bleed=3) == Rect(5, 5, 53, 78)


def test_a_box_without_area_is_refused():
    with pytest.raises(ValueError, match="resolves to 0.0×5.0 mm on a 63×88 mm card"):
        box_rect(box(type="text", x=40, right=23, height=5), 63, 88)
    # a zero-height stroked rect is a rule: allowed
    assert box_rect(box(x=4, right=4, bottom=6, height=0, stroke="#000000"), 63, 88).h == 0


def test_extends_merges_boxes_and_styles(tmp_path):
    shared = write(tmp_path / "_shared", """
layouts:
  card:
    safe_zone: 4mm
    boxes:
      bg: {type: rect, bleed: true, fill: "#ffffff"}
      title: {type: text, x: 4, y: 3, right: 4, height: 6, text: "{{ card.name }}", style: {size: 10, bold: true}}
      art: {type: art, x: 4, y: 12, right: 4, height: 20}
""")
    game = write(tmp_path / "g", """
layouts:
  card:
    extends: card          # the shared card
    boxes:
      title: {style: {size: 12}}
      art: null
      cost: {type: text, x: 50, y: 3, width: 9, height: 6, text: "{{ card.cost }}", z: -1}
""")
    lib = LayoutLibrary([game, shared])
    layout = lib.get("card")
    assert lib.problems == []
    assert [b.name for b in layout.boxes] == ["cost", "bg", "title"]  # z -1 first, art removed
    title = layout.box("title")
    assert title.style == {"size": 12, "bold": True}  # merged key by key
    assert title.fields["text"] == "{{ card.name }}"
    assert layout.safe_zone == 4  # inherited
    assert layout.box("cost").file.endswith("g/layout.yaml")


def test_extends_an_unknown_layout_is_located(tmp_path):
    game = write(tmp_path / "g", "layouts:\n  spell:\n    extends: cardd\n    boxes: {}\n")
    lib = LayoutLibrary([game, tmp_path / "_shared"])
    assert lib.get("spell") is None
    [p] = lib.problems
    assert str(p).endswith("g/layout.yaml:3: layout 'spell': extends: unknown layout 'cardd' (known: spell)")


def test_extends_loop_is_reported(tmp_path):
    game = write(tmp_path / "g", "layouts:\n  a: {extends: b}\n  b: {extends: a}\n")
    lib = LayoutLibrary([game])
    assert lib.get("a") is None
    assert any("layouts extend each other in a loop (a → b → a)" in str(p) for p in lib.problems)


def test_unknown_field_names_the_box_and_what_is_allowed(tmp_path):
    game = write(tmp_path / "g", """
layouts:
  card:
    boxes:
      title: {type: text, text: hi, colour: red}
      other: {type: text, text: hi, style: {colour: red, font: serif}}
""")
    lib = LayoutLibrary([game])
    messages = [str(p) for p in lib.problems]
    assert messages[0].endswith(
        "g/layout.yaml:5: layout 'card': boxes.title.colour: unknown field (allowed: extends, type, x, y, width, height, "
        "right, bottom, bleed, fill, stroke, stroke_width, radius, padding, text, template, style, "
        "icon, src, fit, when, z, rotate, x1, y1, x2, y2, points, dash, cap)")
    assert messages[1].endswith(
        "g/layout.yaml:6: layout 'card': boxes.other.style.font: unknown field (allowed: extends, size, min_size, leading, "
        "family, colour, align, valign, bold, italic, paragraph_gap, line_spacing, wrap)")
    assert lib.get("card") is None


def test_fields_that_do_not_fit_the_box_type(tmp_path):
    game = write(tmp_path / "g", """
layouts:
  card:
    boxes:
      frame: {type: rect, text: oops}
      name: {type: text}
      pos: {type: rect, x: 1, width: 2, right: 3}
      kind: {x: 1}
""")
    lib = LayoutLibrary([game])
    assert lib.get("card") is None
    messages = [str(p) for p in lib.problems]
    assert any(m.endswith("layout.yaml:5: layout 'card': boxes.frame.text: 'text' is not used by a rect box "
                          "(it uses: bleed, bottom, dash, fill, height, radius, right, rotate, stroke, stroke_width, when, "
                          "width, x, y, z)") for m in messages), messages
    assert any("boxes.name: a text box needs either text: (an inline template) or template:" in m for m in messages)
    assert any("boxes.pos: give at most two of x, width, right" in m for m in messages)
    assert any("boxes.kind: type: required (one of rect, ellipse, text, art, icon, stamp, line, polygon)" in m for m in messages)


def test_lengths_with_units_and_nonsense(tmp_path):
    game = write(tmp_path / "g", """
layouts:
  card:
    boxes:
      a: {type: rect, x: 0.5in, y: 1cm, width: 10mm, height: 72pt}
      b: {type: rect, x: 3 apples}
""")
    lib = LayoutLibrary([game])
    messages = [str(p) for p in lib.problems]
    assert any("boxes.b.x: expected a length such as '63mm', '2.5cm', '1in', '12pt' or '75px', got '3 apples'" in m
               for m in messages)


def test_lengths_with_units(tmp_path):
    game = write(tmp_path / "g", "layouts:\n  card:\n    boxes:\n      a: {type: rect, x: 0.5in, y: 1cm, width: 10mm, height: 72pt}\n")
    layout = LayoutLibrary([game]).get("card")
    a = layout.box("a").fields
    assert (a["x"], a["y"], a["width"], a["height"]) == pytest.approx((12.7, 10, 10, 25.4))


def test_the_shared_layouts_load_cleanly():
    lib = LayoutLibrary([ROOT / "templates" / "_shared"])
    for name in ("card", "back"):
        assert lib.get(name) is not None, lib.problems
    assert lib.problems == []
