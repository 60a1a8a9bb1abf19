"""Issue 42's layout language, as Squib writes layouts: ``extends`` as a list (later wins),
relative values (``+=``, ``-=``, ``*=``, ``/=``), ``origin: bleed`` and ``units: px`` (Squib's
numbers as they are), bases that are only extended; each new key's mistakes located."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardforge.layout.boxes import LayoutLibrary, box_rect

PX = 25.4 / 300  # mm per pixel at 300 dpi


def library(tmp_path: Path, text: str) -> LayoutLibrary:
    folder = tmp_path / "g"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "layout.yaml").write_text(text, encoding="utf-8")
    return LayoutLibrary([folder])


def fields(lib: LayoutLibrary, box: str, layout: str = "card") -> dict:
    found = lib.get(layout)
    assert found is not None, lib.problems
    return found.box(box).fields


def messages(lib: LayoutLibrary, layout: str = "card") -> list[str]:
    assert lib.get(layout) is None
    return [f"{p.file.rsplit('/', 1)[-1]}:{p.line}: {p.item}: {p.field}: {p.message}" for p in lib.problems]


# --- extends as a list -------------------------------------------------------------------------
def test_extends_a_list_later_parent_wins_as_squib(tmp_path):
    # Squib's docs: aristotle extends [plato (x 200), socrates (x 100)], x += 50 → 150, y from plato
    lib = library(tmp_path, """
layouts:
  card:
    boxes:
      socrates: {x: 100, height: 5}
      plato: {x: 200, y: 20}
      aristotle: {extends: [plato, socrates], type: rect, fill: red, x: += 50, width: 4}
      reversed: {extends: [socrates, plato], type: rect, fill: red, x: += 50, width: 4}
""")
    a = fields(lib, "aristotle")
    assert (a["x"], a["y"], a["height"], a["width"]) == (150, 20, 5, 4)
    assert fields(lib, "reversed")["x"] == 250
    # the bases set no type and are extended: they are not drawn
    assert [b.name for b in lib.get("card").boxes] == ["aristotle", "reversed"]


def test_a_relative_value_a_later_parent_lacks_keeps_the_earlier_result(tmp_path):
    # Squib's bug 244: plato has no x, so "+= 50" stays socrates' 150
    lib = library(tmp_path, """
layouts:
  card:
    boxes:
      socrates: {x: 100}
      plato: {y: 20}
      aristotle: {extends: [socrates, plato], type: rect, fill: red, x: += 50, width: 4, height: 4}
""")
    assert fields(lib, "aristotle")["x"] == 150


def test_extends_list_mistakes_are_located(tmp_path):
    lib = library(tmp_path, """
layouts:
  card:
    boxes:
      a: {type: rect, fill: red}
      b: {extends: [a, nope], type: rect}
""")
    assert messages(lib) == ["layout.yaml:6: layout 'card': boxes.b.extends: unknown box 'nope'"]
    lib = library(tmp_path, """
layouts:
  card:
    boxes:
      b: {extends: [], type: rect, fill: red}
""")
    (msg,) = messages(lib)
    assert msg.startswith("layout.yaml:5: layout 'card': boxes.b.extends")
    assert "at least 1" in msg


def test_a_base_no_box_extends_still_needs_a_type(tmp_path):
    lib = library(tmp_path, """
layouts:
  card:
    boxes:
      lonely: {x: 3}
""")
    (msg,) = messages(lib)
    assert msg.startswith("layout.yaml:5: layout 'card': boxes.lonely: type: required")


# --- relative values -----------------------------------------------------------------------------
def test_relative_values_as_squibs_custom_layout_sample(tmp_path):
    # Squib's samples/layouts/custom-layout.yml: bonus, bonus_inner (+= 10, -= 20), bonus_text
    lib = library(tmp_path, """
units: px
layouts:
  card:
    boxes:
      bonus: {type: rect, fill: black, x: 250, y: 600, width: 300, height: 200, radius: 32}
      bonus_inner: {extends: bonus, fill: white, x: += 10, y: += 10, width: -= 20, height: -= 20, radius: -= 8}
      bonus_text: {extends: bonus_inner, x: +=10, y: +=10, width: -= 20, height: -= 20}
      twice: {extends: bonus, x: "*= 2", width: "/= 4", height: += 0.5in}
""")
    inner, text, twice = (fields(lib, n) for n in ("bonus_inner", "bonus_text", "twice"))
    assert (inner["x"], inner["y"], inner["width"], inner["height"], inner["radius"]) == \
        pytest.approx((260 * PX, 610 * PX, 280 * PX, 180 * PX, 24 * PX), abs=1e-3)
    assert (text["x"], text["y"], text["width"], text["height"]) == \
        pytest.approx((270 * PX, 620 * PX, 260 * PX, 160 * PX), abs=1e-3)
    # 250 × 2 = 500 px; 300 / 4 = 75 px; 200 px + 0.5 in (150 px) = 350 px
    assert (twice["x"], twice["width"], twice["height"]) == pytest.approx((500 * PX, 75 * PX, 350 * PX), abs=1e-3)


def test_relative_values_over_an_inherited_layouts_box(tmp_path):
    lib = library(tmp_path, """
layouts:
  base:
    boxes:
      panel: {type: rect, fill: red, x: 5, y: 10, width: 20, height: 30}
  card:
    extends: base
    boxes:
      panel: {x: += 2, height: "*= 0.5"}
""")
    p = fields(lib, "panel")
    assert (p["x"], p["y"], p["width"], p["height"]) == (7, 10, 20, 15)


@pytest.mark.parametrize("value, key, expected", [
    ("+= 3", "fill", "'+= 3' is a relative value (+=, -=, *=, /=), allowed only for x, y, width"),
    ("*= wide", "x", "*= takes a plain number (as in Squib: '*= 1.5', '/= 2'), got 'wide'"),
    ("/= 0", "x", "/= takes a finite number other than 0"),
    ("+= 3furlongs", "x", "+= takes a length"),
])
def test_relative_value_mistakes_are_located(tmp_path, value, key, expected):
    lib = library(tmp_path, f"""
layouts:
  card:
    boxes:
      a: {{type: rect, fill: red, x: 2}}
      b:
        extends: a
        {key}: "{value}"
""")
    (msg,) = messages(lib)
    assert msg.startswith(f"layout.yaml:8: layout 'card': boxes.b.{key}: {expected}"), msg


def test_a_relative_value_with_nothing_to_change_is_an_error(tmp_path):
    lib = library(tmp_path, """
layouts:
  card:
    boxes:
      a: {type: rect, fill: red, width: 2}
      b: {extends: a, x: += 3}
""")
    (msg,) = messages(lib)
    assert msg == ("layout.yaml:6: layout 'card': boxes.b.x: '+= 3' is relative but nothing this box extends "
                   "gives x a value (extends: a box that sets it, or write a number)")


# --- origin: bleed, units: px ------------------------------------------------------------------
def test_origin_bleed_measures_from_the_bleed_corner(tmp_path):
    # Squib's backdrop (x 38, y 38, 750 × 1050 px) on its 825 × 1125 px card with 37.5 px of bleed:
    # from the trim's corner, x = (38 − 37.5) px
    lib = library(tmp_path, """
units: px
origin: bleed
origin_bleed: 37.5
layouts:
  card:
    boxes:
      backdrop: {type: rect, fill: teal, x: 38, y: 38, width: 750, height: 1050}
      doubled: {extends: backdrop, x: "*= 2"}
      inset: {type: rect, fill: teal, right: 100, width: 10, y: 0, height: 10}
      edge: {type: line, x1: 37.5, y1: 37.5, x2: 787.5, y2: 37.5}
  trimmed:
    origin: trim
    boxes:
      a: {type: rect, fill: teal, x: 38, y: 38, width: 750, height: 1050}
""")
    b = fields(lib, "backdrop")
    assert (b["x"], b["y"], b["width"], b["height"]) == pytest.approx((0.5 * PX, 0.5 * PX, 750 * PX, 1050 * PX),
                                                                     abs=1e-3)
    # "*= 2" is Squib's: 2 × 38 = 76 px from the bleed corner, 38.5 px from the trim's
    d = fields(lib, "doubled")
    assert d["x"] == pytest.approx(38.5 * PX, abs=1e-3)
    assert fields(lib, "inset")["right"] == pytest.approx(62.5 * PX, abs=1e-3)  # an inset from the bleed's right edge
    e = fields(lib, "edge")
    assert (e["x1"], e["y1"], e["x2"]) == pytest.approx((0, 0, 750 * PX), abs=1e-3)
    assert fields(lib, "a", "trimmed")["x"] == pytest.approx(38 * PX, abs=1e-3)
    r = box_rect(lib.get("card").box("backdrop"), 63.5, 88.9)
    assert (r.x, r.y) == pytest.approx((0.5 * PX, 88.9 - (0.5 + 1050) * PX), abs=1e-3)


def test_origin_bleed_defaults_to_an_eighth_of_an_inch(tmp_path):
    lib = library(tmp_path, """
layouts:
  card:
    origin: bleed
    boxes:
      a: {type: rect, fill: teal, x: 5, y: 5mm, width: 10, height: 10}
""")
    a = fields(lib, "a")
    assert (a["x"], a["y"]) == pytest.approx((5 - 3.175, 5 - 3.175))


@pytest.mark.parametrize("text, where, expected", [
    ("origin: corner\nlayouts: {}\n", "layout.yaml:1: None: origin", "'trim' or 'bleed'"),
    ("units: inch\nlayouts: {}\n", "layout.yaml:1: None: units", "'mm' or 'px'"),
    ("layouts:\n  card:\n    origin: middle\n    boxes: {}\n", "layout.yaml:3: layout 'card': origin",
     "'trim' or 'bleed'"),
    ("layouts:\n  card:\n    origin_bleed: -3mm\n    boxes: {}\n", "layout.yaml:3: layout 'card': origin_bleed",
     "must not be negative"),
])
def test_origin_and_units_mistakes_are_located(tmp_path, text, where, expected):
    lib = library(tmp_path, text)
    lib.get("card")
    got = [f"{p.file.rsplit('/', 1)[-1]}:{p.line}: {p.item}: {p.field}: {p.message}" for p in lib.problems]
    assert len(got) == 1 and got[0].startswith(where) and expected in got[0], got


# --- shared styles: a base's stroke, font and colour for boxes of any type ----------------------
def test_a_base_shares_stroke_font_and_colour_with_boxes_of_any_type(tmp_path):
    lib = library(tmp_path, """
styles:
  serif: {family: condensed, size: 9}
layouts:
  card:
    boxes:
      ink: {stroke: "#b22222", stroke_width: 1.5, dash: [2, 1], style: {extends: serif, colour: "#b22222"}}
      frame: {extends: ink, type: rect, x: 2, y: 2, width: 10, height: 10}
      title: {extends: ink, type: text, text: Hi, x: 2, y: 14, width: 30, height: 8}
      rule: {extends: ink, type: line, x1: 2, y1: 30, x2: 40, y2: 30}
""")
    frame, title, rule = (fields(lib, n) for n in ("frame", "title", "rule"))
    assert (frame["stroke"], frame["stroke_width"], frame["dash"]) == ("#b22222", 1.5, [2, 1])
    assert "style" not in frame  # a rect sets no text: the base's font is not its
    assert title["style"] == {"family": "condensed", "size": 9, "colour": "#b22222"}
    assert "dash" not in title  # a text box draws no dashed outline
    assert (rule["stroke"], rule["dash"]) == ("#b22222", [2, 1])
    # a field a box writes itself is still checked against its type
    lib = library(tmp_path, """
layouts:
  card:
    boxes:
      frame: {type: rect, x: 2, width: 10, style: {size: 9}}
""")
    (msg,) = messages(lib)
    assert msg.startswith("layout.yaml:5: layout 'card': boxes.frame.style: 'style' is not used by a rect box")


# --- line spacing and wrap: char -----------------------------------------------------------------
def test_line_spacing_and_wrap_are_validated_with_their_place(tmp_path):
    lib = library(tmp_path, """
layouts:
  card:
    boxes:
      a: {type: text, text: hi, style: {line_spacing: 2px, wrap: char}}
""")
    style = fields(lib, "a")["style"]
    assert style["line_spacing"] == pytest.approx(2 * 72 / 300)  # points
    assert style["wrap"] == "char"
    lib = library(tmp_path, """
layouts:
  card:
    boxes:
      a: {type: text, text: hi, style: {wrap: letter}}
""")
    (msg,) = messages(lib)
    assert msg.startswith("layout.yaml:5: layout 'card': boxes.a.style.wrap:") and "'word' or 'char'" in msg
    lib = library(tmp_path, """
layouts:
  card:
    boxes:
      a: {type: text, text: hi, style: {line_spacing: -1}}
""")
    (msg,) = messages(lib)
    assert msg.startswith("layout.yaml:5: layout 'card': boxes.a.style.line_spacing:")


def test_wrap_char_breaks_a_long_word_between_letters():
    from cardforge.render.drawing.richtext import TextOverflow, TextStyle, break_lines, fit_text, measure
    from cardforge.render.fonts import unit_width

    text = "Supercalifragilistic word"
    width = 40.0  # points, at 10 pt
    with pytest.raises(TextOverflow, match="wider than the box"):
        fit_text(text, width, 200, TextStyle(size=10))
    layout = fit_text(text, width, 200, TextStyle(size=10, wrap="char"))
    lines = ["".join(a[1] for w in line.words for a in w.atoms if a[0] == "t") for line in layout.lines]
    assert "".join(lines[:-1]) == "Supercalifragilistic" and lines[-1] == "word"
    font = measure("x")[0][0][0].atoms[0][2]  # the sans regular the text is set in
    for line, next_line in zip(lines[:-2], lines[1:-1], strict=True):
        assert unit_width(line, font) * 10 <= width  # each piece fits…
        assert unit_width(line + next_line[0], font) * 10 > width  # …and takes as many letters as fit
    # words that fit are never cut
    assert break_lines(measure("a word"), width, 10, TextStyle(size=10, wrap="char"))[0].line_count == 1


def test_line_spacing_adds_to_every_lines_height():
    from cardforge.render.drawing.richtext import TextOverflow, TextStyle, fit_text

    # two lines at 10 pt, leading 1.2: 24 pt; with 2 pt of line spacing 2 × 14 = 28 pt
    assert fit_text("one\ntwo", 100, 200, TextStyle(size=10)).height == pytest.approx(24)
    style = TextStyle(size=10, line_spacing=2)
    assert fit_text("one\ntwo", 100, 28, style).height == pytest.approx(28)
    with pytest.raises(TextOverflow):
        fit_text("one\ntwo", 100, 27.9, style)


def test_line_spacing_moves_the_printed_baselines(tmp_path):
    import pypdf
    from pypdf.generic import ContentStream
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render.drawing.richtext import TextStyle, draw_layout, fit_text

    def baselines(spacing: float) -> list[float]:
        path = tmp_path / f"s{spacing}.pdf"
        canvas = Canvas(str(path), pageCompression=0)
        draw_layout(canvas, fit_text("one\ntwo\nthree", 100, 200, TextStyle(size=10, line_spacing=spacing)),
                    10, 10, 100, 200)
        canvas.save()
        page = pypdf.PdfReader(path).pages[0]
        ys, y = [], 0.0
        for args, op in ContentStream(page.get_contents(), page.pdf).operations:
            if op == b"Tm":
                y = float(args[5])
            elif op in (b"Td", b"TD"):
                y += float(args[1])
            elif op in (b"Tj", b"TJ") and (not ys or ys[-1] != y):
                ys.append(y)
        return ys

    plain, spaced = baselines(0), baselines(3)
    assert [round(a - b, 3) for a, b in zip(plain, plain[1:])] == [12, 12]  # 1.2 × 10 pt
    assert [round(a - b, 3) for a, b in zip(spaced, spaced[1:])] == [15, 15]  # and 3 pt more
