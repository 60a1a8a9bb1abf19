"""``cardforge import squib``: two of Squib's own samples (tests/fixtures/squib/, MIT) ported with
no hand edit, built, and their boxes found in the PDF where Squib draws them.

Squib measures in pixels at 300 dpi from the corner of its 825×1125 px image (a 2.5×3.5 in card
with 1/8 in of bleed). The imported game prints with that bleed (its cardforge.toml), one card
a page (``--per-card``), so a page is Squib's image: a box at Squib's (x, y, w, h) px lies at
x·25.4/300 mm from the page's left and (1125 − y − h)·25.4/300 mm from its bottom. The expected
numbers below are worked out by hand from the samples' YAML."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdf
import pytest
from pypdf.generic import ContentStream

from conftest import FIXTURES

SQUIB = FIXTURES / "squib"
MM = 72 / 25.4
PX = 25.4 / 300  # mm per Squib pixel
PAGE_H = 1125 * PX  # 95.25 mm
TOL = 0.1  # mm


def _mul(a, b):
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def drawn(page) -> tuple[list[tuple[float, float, float, float]], list[tuple[float, float]]]:
    """Every path's and every form's box on the page (x, y, w, h in mm, y up; forms followed
    into), and the origin of every text line shown (mm): read from the content streams."""
    boxes: list[tuple[float, float, float, float]] = []
    texts: list[tuple[float, float]] = []

    def bbox(points):
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return tuple(round(v / MM, 3) for v in (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))

    def walk(ops, resources, ctm) -> None:
        stack, path = [], []
        tm = [1, 0, 0, 1, 0, 0]
        tlm = tm
        for args, op in ops:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = _mul([float(a) for a in args], ctm)
            elif op in (b"m", b"l"):
                path.append(_apply(ctm, float(args[0]), float(args[1])))
            elif op == b"c":
                path += [_apply(ctm, float(args[i]), float(args[i + 1])) for i in (0, 2, 4)]
            elif op == b"re":
                x, y, w, h = (float(a) for a in args)
                path += [_apply(ctm, x, y), _apply(ctm, x + w, y + h), _apply(ctm, x, y + h), _apply(ctm, x + w, y)]
            elif op in (b"f", b"f*", b"S", b"s", b"B", b"B*", b"b", b"b*", b"n", b"W n"):
                if path and op != b"n":
                    boxes.append(bbox(path))
                path = []
            elif op == b"BT":
                tm = tlm = [1, 0, 0, 1, 0, 0]
            elif op == b"Tm":
                tm = tlm = [float(a) for a in args]
            elif op in (b"Td", b"TD"):
                tm = tlm = _mul([1, 0, 0, 1, float(args[0]), float(args[1])], tlm)
            elif op in (b"Tj", b"TJ", b"'", b'"'):
                x, y = _apply(_mul(tm, ctm), 0, 0)
                texts.append((round(x / MM, 3), round(y / MM, 3)))
            elif op == b"Do" and resources is not None:
                xobject = resources.get_object().get("/XObject")
                form = xobject.get_object()[args[0]].get_object() if xobject is not None else None
                if form is None:
                    continue
                if form.get("/Subtype") == "/Form":
                    inner = _mul([float(v) for v in form.get("/Matrix", [1, 0, 0, 1, 0, 0])], ctm)
                    x0, y0, x1, y1 = (float(v) for v in form["/BBox"])
                    boxes.append(bbox([_apply(inner, x0, y0), _apply(inner, x1, y1)]))
                    walk(ContentStream(form, page.pdf).operations, form.get("/Resources"), inner)
                else:  # an image: the unit square
                    boxes.append(bbox([_apply(ctm, 0, 0), _apply(ctm, 1, 1)]))

    walk(ContentStream(page.get_contents(), page.pdf).operations, page.get("/Resources"), [1, 0, 0, 1, 0, 0])
    return boxes, texts


def squib_box(x, y, w, h) -> tuple[float, float, float, float]:
    """A Squib box (px from the image's top-left, y down) on the page (mm from its bottom-left)."""
    return (x * PX, PAGE_H - (y + h) * PX, w * PX, h * PX)


def assert_drawn(boxes, expected, what: str) -> None:
    close = [b for b in boxes if all(abs(a - e) <= TOL for a, e in zip(b, expected, strict=True))]
    assert close, f"{what}: no box at {tuple(round(v, 3) for v in expected)} mm; drawn: {sorted(set(boxes))}"


def port(tmp_path: Path, sample: str, cli) -> tuple[Path, pypdf.PdfReader]:
    project = tmp_path / sample
    shutil.copytree(SQUIB / sample, project)
    game = tmp_path / f"{sample}_game"
    result = cli("import", "squib", project, "--out", game)
    assert result.code == 0, result.err
    built = cli("build", game, "--only", "decks", "--per-card", "--out", tmp_path / "out")
    assert built.code == 0, built.err
    pdfs = sorted((tmp_path / "out").rglob("deck*.pdf"))
    assert len(pdfs) == 1, pdfs
    return game, pypdf.PdfReader(pdfs[0])


def test_intro_sample_ports_as_is_and_prints_where_squib_draws(tmp_path, cli):
    game, reader = port(tmp_path, "intro", cli)
    layout = (game / "templates" / "layout.yaml").read_text()
    assert "units: px" in layout and "origin: bleed" in layout
    # the page is Squib's image: 825×1125 px at 300 dpi (cardforge.toml's bleed is Squib's 1/8 in)
    page = reader.pages[0]
    assert float(page.mediabox.width) / MM == pytest.approx(825 * PX, abs=0.01)
    assert float(page.mediabox.height) / MM == pytest.approx(1125 * PX, abs=0.01)
    # data.xlsx has 4 rows: 4 fronts (and their backs)
    assert len(reader.pages) == 8
    fronts = [drawn(reader.pages[i])[0] for i in range(0, 8, 2)]
    for boxes in fronts:
        # background color: the whole image
        assert_drawn(boxes, squib_box(0, 0, 825, 1125), "background")
        # backdrop: x 38, y 38, width 750, height 1050
        assert_drawn(boxes, squib_box(38, 38, 750, 1050), "backdrop")
        # art (svg file: data['art']): x 75, y 300, 675×675; the SVGs are square: contain fills it
        assert_drawn(boxes, squib_box(75, 300, 675, 675), "art")
        # svg layout: data['class'] → drone (x 75, y 75, 100×100) or human (extends drone)
        assert_drawn(boxes, squib_box(75, 75, 100, 100), "class icon")
    # the icon drawn is the one the card's class names: human for Ninja and Pirate, drone for the others
    humans = (game / "humans.svg").read_bytes()
    assert humans != (game / "auto-repair.svg").read_bytes()
    text = layout.split("human_svg:")[1].split("\n      drone_svg:")[0]
    assert "when: card.class == 'human'" in text


def test_layouts_sample_ports_extends_and_relative_values(tmp_path, cli):
    game, reader = port(tmp_path, "layouts", cli)
    assert len(reader.pages) == 2  # cards: 1 (Squib's default), front and back
    boxes, texts = drawn(reader.pages[0])
    # frame: 38, 38, 750×1050 (rect layout: :frame)
    assert_drawn(boxes, squib_box(38, 38, 750, 1050), "frame")
    # circle layout: :frame, x: 50, y: 50, radius: 25 → centre (50, 50), so the box 25..75
    assert_drawn(boxes, squib_box(25, 25, 50, 50), "circle")
    # bonus: 250, 600, 300×200
    assert_drawn(boxes, squib_box(250, 600, 300, 200), "bonus")
    # bonus_inner extends bonus: x += 10, y += 10, width -= 20, height -= 20 → 260, 610, 280×180
    assert_drawn(boxes, squib_box(260, 610, 280, 180), "bonus_inner")
    # icons: icon is width 125, height 125, y 250; icon_left x 150; icon_middle x 350, y 400
    # (its own y wins); icon_right x 550
    assert_drawn(boxes, squib_box(350, 400, 125, 125), "icon_middle (a PNG: drawn as the whole box)")
    # spanner.svg is drawn as its paths (vector), its artwork centred in its box (contain)
    for x, name in ((150, "icon_left"), (550, "icon_right")):
        bx, by, bw, bh = squib_box(x, 250, 125, 125)
        inside = [b for b in boxes if bx - TOL <= b[0] and b[0] + b[2] <= bx + bw + TOL
                  and by - TOL <= b[1] and b[1] + b[3] <= by + bh + TOL]
        assert inside, name
        biggest = max(inside, key=lambda b: b[2] * b[3])
        assert biggest[0] + biggest[2] / 2 == pytest.approx(bx + bw / 2, abs=TOL), name
        assert biggest[1] + biggest[3] / 2 == pytest.approx(by + bh / 2, abs=TOL), name
    # bonus_text extends bonus_inner: x += 10 → 270 px; "Extends!" is left-aligned (Squib's
    # default) with no padding: its line starts at 270 px, inside the box's rows 620..780
    x_mm = 270 * PX
    starts = [(x, y) for x, y in texts if abs(x - x_mm) <= TOL]
    assert starts, f"no text line starts at {x_mm:.3f} mm: {texts}"
    assert all(PAGE_H - 780 * PX <= y <= PAGE_H - 620 * PX for _, y in starts)


def test_import_says_what_it_left_out_and_refuses_a_missing_layout(tmp_path, cli):
    project = tmp_path / "p"
    shutil.copytree(SQUIB / "layouts", project)
    result = cli("import", "squib", project, "--out", tmp_path / "g")
    assert result.code == 0
    assert "note: layouts.rb:7: 'hint' is not ported" in result.out
    (project / "custom-layout.yml").unlink()
    result = cli("import", "squib", project, "--out", tmp_path / "g2")
    assert result.code == 1
    assert "custom-layout.yml" in result.err and "layout file not found" in result.err
    assert "Traceback" not in result.err
    assert not (tmp_path / "g2").exists()  # nothing half-written


def test_import_refuses_a_folder_that_is_not_empty(tmp_path, cli):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "keep.txt").write_text("mine")
    result = cli("import", "squib", SQUIB / "intro", "--out", tmp_path / "g")
    assert result.code == 1 and "not empty" in result.err
    assert sorted(p.name for p in (tmp_path / "g").iterdir()) == ["keep.txt"]


def test_import_is_byte_identical_twice(tmp_path, cli):
    for out in ("a", "b"):
        assert cli("import", "squib", SQUIB / "layouts", "--out", tmp_path / out).code == 0
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    for rel in files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()


def test_a_deck_scripts_size_sheet_spacing_and_wrap_carry_over(tmp_path, cli):
    import tomllib

    import yaml

    project = tmp_path / "p"
    project.mkdir()
    (project / "deck.rb").write_text("""require 'squib'
# a comment with Squib::Deck.new(width: 1) that is not read
Squib::Deck.new(width: '2.75in', height: '3.75in', dpi: 300, layout: 'layout.yml') do
  background color: '#ffffff' # white
  data = csv file: 'cards.csv'
  text str: data['Name'], layout: :title
  save_sheet prefix: 'sheet_', columns: 3, rows: 2, gap: 30
end
""")
    (project / "layout.yml").write_text("title:\n  x: 75\n  y: 75\n  width: 675\n  spacing: 6\n"
                                        "  wrap: word\n  font: Serif 20\n")
    (project / "cards.csv").write_text("Name,Qty\nKnight,2\nOrc,1\n")
    game = tmp_path / "g"
    result = cli("import", "squib", project, "--out", game)
    assert result.code == 0, result.err
    toml = tomllib.loads((game / "cardforge.toml").read_text())["build"]
    # save_sheet columns: 3, rows: 2, gap: 30 px (30 / 300 in = 2.54 mm); Squib's 1/8 in bleed
    assert toml == {"bleed": "3.175mm", "columns": 3, "rows": 2, "gutter": "2.54mm"}
    spec = yaml.safe_load((game / "game.yaml").read_text())
    # 2.75 × 3.75 in with 1/8 in of bleed each side: a 2.5 × 3.5 in card
    assert spec["deck"]["card_size"] == {"width": "63.5mm", "height": "88.9mm"}
    layout = yaml.safe_load((game / "templates" / "layout.yaml").read_text())
    title = layout["layouts"]["card"]["boxes"]["title"]
    assert title["style"] == {"line_spacing": "6px", "wrap": "word", "size": 20.0}
    assert "note: layout: 'title' font 'Serif 20'" in result.out
    checked = cli("check", game)
    assert checked.code == 0, checked.err
    assert "3 cards" in checked.out  # Qty: Knight twice, Orc once


def test_files_outside_the_project_and_bad_numbers_are_refused_by_name(tmp_path, cli):
    secret = tmp_path / "secret.svg"
    secret.write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    project = tmp_path / "p"
    project.mkdir()
    (project / "layout.yml").write_text("art: {x: 75, y: 75, width: 100, height: 100}\n")
    (project / "deck.rb").write_text("Squib::Deck.new(layout: 'layout.yml') do\n"
                                     "  svg file: '../secret.svg', layout: :art\nend\n")
    result = cli("import", "squib", project, "--out", tmp_path / "g")
    assert result.code == 0, result.err
    assert "note: image ../secret.svg left out" in result.out
    assert not (tmp_path / "g" / "secret.svg").exists() and not (tmp_path / "secret.svg.copy").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g", "p", "secret.svg"]  # no work folder left
    (project / "deck.rb").write_text("Squib::Deck.new(dpi: 'lots', layout: 'layout.yml') do\nend\n")
    result = cli("import", "squib", project, "--out", tmp_path / "g2")
    assert result.code == 1
    assert "deck.rb" in result.err and "dpi: expected a number from 1 to 10000, got 'lots'" in result.err
    (project / "deck.rb").write_text("Squib::Deck.new(layout: '../outside.yml') do\nend\n")
    (tmp_path / "outside.yml").write_text("a: {x: 1}\n")
    result = cli("import", "squib", project, "--out", tmp_path / "g3")
    assert result.code == 1 and "outside.yml" in result.err and "Traceback" not in result.err
    assert not (tmp_path / "g2").exists() and not (tmp_path / "g3").exists()


def test_multi_line_calls_use_layout_data_attributes_and_colours(tmp_path, cli):
    import yaml

    project = tmp_path / "p"
    (project / "src").mkdir(parents=True)
    (project / "layouts").mkdir()
    (project / "data").mkdir()
    (project / "src" / "deck.rb").write_text("""data = Squib.xlsx file: 'data/cards.xlsx'
Squib::Deck.new(cards: data.nrows) do
  use_layout file: 'layouts/deck.yml'
  text str: data.name,
       layout: :name
  rect layout: :frame,
       fill_color: '#0000',
       stroke_color: :gray
  circle x: 100, y: 100, radius: 50, fill_color: '#f00', stroke_color: 'burgundy'
  text str: data.atk.map { |s| "#{s} ATK" }, layout: :name
end
""")
    (project / "layouts" / "deck.yml").write_text("name: {x: 90, y: 90, width: 500, height: 100}\n"
                                                  "frame: {x: 38, y: 38, width: 750, height: 1050}\n")
    shutil.copyfile(SQUIB / "intro" / "data.xlsx", project / "data" / "cards.xlsx")
    result = cli("import", "squib", project, "--out", tmp_path / "g")
    assert result.code == 0, result.err
    boxes = yaml.safe_load((tmp_path / "g" / "templates" / "layout.yaml").read_text())["layouts"]["card"]["boxes"]
    assert boxes["name_text"] == {"type": "text", "text": "{{ card.name }}", "style": {"wrap": "char"},
                                  "extends": "name"}
    # '#0000' is Squib's transparent; :gray is cardforge's grey
    assert (boxes["frame_rect"]["fill"], boxes["frame_rect"]["stroke"]) == ("none", "grey")
    # '#f00' spelt out; an unknown named colour is a note and the default outline
    assert boxes["circle"]["fill"] == "#ff0000" and boxes["circle"]["stroke"] == "black"
    assert "colour 'burgundy' is not one cardforge knows" in result.out
    assert "src/deck.rb:10: a text whose str: is not a quoted text or data['column']" in result.out
    checked = cli("check", tmp_path / "g")
    assert checked.code == 0, checked.err
    assert "4 cards" in checked.out  # cards: data.nrows — the workbook's four rows


@pytest.mark.parametrize("sample", ["intro", "layouts"])
def test_the_imported_files_match_the_schemas_editors_use(tmp_path, cli, sample):
    import json

    import jsonschema
    import yaml

    from cardforge.cli.docs import schemas

    game = tmp_path / "g"
    assert cli("import", "squib", SQUIB / sample, "--out", game).code == 0
    for name, path in (("layout.schema.json", game / "templates" / "layout.yaml"),
                       ("game.schema.json", game / "game.yaml")):
        validator = jsonschema.Draft202012Validator(json.loads(schemas()[name]))
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert [e.message for e in validator.iter_errors(data)] == [], path
