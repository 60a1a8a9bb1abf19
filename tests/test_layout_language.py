"""Issue 28's layout language: units with a dpi, box extends and named styles, lines and
polygons, style values from card data, and what `check` finds before `build`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardforge.layout.boxes import LayoutLibrary, box_rect
from cardforge.units import parse_length

FONTS = Path(__file__).resolve().parents[1] / "cardforge" / "fonts"


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


# --- box extends and named styles ------------------------------------------------------------
SQUIBBY = """
styles:
  body: {size: 8, family: sans, colour: "#222222"}
  title: {extends: body, size: 12, bold: true}
layouts:
  card:
    boxes:
      name: {type: text, x: 75px, y: 75px, width: 600px, height: 100px, text: "{{ card.name }}", style: title}
      subtitle: {extends: name, y: 175px, style: {size: 9}}
      cost: {extends: subtitle, x: 600px, width: 75px, style: {extends: body, align: right}}
"""


def test_a_box_extends_another_and_styles_are_named(tmp_path):
    lib = LayoutLibrary([write(tmp_path / "g", SQUIBBY)])
    assert lib.problems == []
    card = lib.get("card")
    name, subtitle, cost = (card.box(n).fields for n in ("name", "subtitle", "cost"))
    assert name["style"] == {"size": 12, "family": "sans", "colour": "#222222", "bold": True}
    # subtitle: name's fields, its own y, and title's style with size 9
    assert subtitle["type"] == "text" and subtitle["text"] == "{{ card.name }}"
    assert (subtitle["x"], subtitle["y"], subtitle["width"]) == pytest.approx((6.35, 14.8167, 50.8))
    assert subtitle["style"] == {"size": 9, "family": "sans", "colour": "#222222", "bold": True}
    assert "extends" not in subtitle
    # cost extends subtitle (which extends name): the fields written on the boxes (size 9 from
    # subtitle, align here) over its named style, body (not bold) instead of title
    assert (cost["x"], cost["y"], cost["width"]) == pytest.approx((50.8, 14.8167, 6.35))
    assert cost["style"] == {"size": 9, "family": "sans", "colour": "#222222", "align": "right"}


def test_extends_in_a_layout_extending_another(tmp_path):
    lib = LayoutLibrary([write(tmp_path / "g", SQUIBBY + """
  big:
    extends: card
    boxes:
      name: {height: 200px}
""")])
    big = lib.get("big")
    # subtitle was written as "name but lower": it follows name's new height
    assert big.box("subtitle").fields["height"] == pytest.approx(16.9333)


@pytest.mark.parametrize("boxes, message", [
    ("a: {type: rect, extends: frme}\n      frame: {type: rect}",
     "boxes.a.extends: unknown box 'frme'; did you mean 'frame'?"),
    ("a: {type: rect, extends: b}\n      b: {extends: c}\n      c: {extends: a}",
     "boxes extend each other in a loop (a → b → c → a)"),
    ("a: {type: text, text: x, style: titel}",
     "boxes.a.style: unknown style 'titel'; did you mean 'title'? (known: body, title)"),
    ("a: {type: text, text: x, style: {extends: body, sise: 3}}",
     "boxes.a.style.sise: unknown field (allowed: extends, size"),
])
def test_box_and_style_inheritance_errors_are_located(tmp_path, boxes, message):
    text = f"""
styles:
  body: {{size: 8}}
  title: {{extends: body}}
layouts:
  card:
    boxes:
      {boxes}
"""
    lib = LayoutLibrary([write(tmp_path / "g", text)])
    assert lib.get("card") is None
    messages = [str(p) for p in lib.problems]
    assert any(message in m and "layout.yaml:" in m and "layout 'card'" in m for m in messages), messages


def test_a_style_loop_is_located_at_the_style(tmp_path):
    lib = LayoutLibrary([write(tmp_path / "g", """
styles:
  a: {extends: b}
  b: {extends: a}
layouts:
  card:
    boxes:
      t: {type: text, text: x, style: a}
""")])
    assert lib.get("card") is None
    messages = [str(p) for p in lib.problems]
    assert any("layout.yaml:4: style 'b': extends: styles extend each other in a loop (a → b → a)" in m
               for m in messages), messages


# --- lines and polygons ----------------------------------------------------------------------
def test_lines_and_polygons_are_measured_from_their_points(tmp_path):
    lib = LayoutLibrary([write(tmp_path / "g", """
layouts:
  card:
    boxes:
      diag: {type: line, x1: 75px, y1: 75px, x2: 675px, y2: 975px, stroke_width: 6px, dash: [4, 2px]}
      flat: {type: line, x1: 0, y1: 44, x2: 63, y2: 44}
      tri: {type: polygon, points: [[375px, 600px], [525px, 900px], [225px, 900px]], fill: red}
""")])
    assert lib.problems == []
    card = lib.get("card")
    diag = card.box("diag")
    assert diag.fields["dash"] == pytest.approx([4.0, 0.48])
    r = box_rect(diag, 63, 88)  # 6.35 mm in, 82.55 mm down: y up from the bottom
    assert (r.x, r.y, r.w, r.h) == pytest.approx((6.35, 88 - 82.55, 50.8, 76.2))
    assert box_rect(card.box("flat"), 63, 88).h == 0  # a flat line is fine
    t = box_rect(card.box("tri"), 63, 88)
    assert (t.x, t.y, t.w, t.h) == pytest.approx((19.05, 88 - 76.2, 25.4, 25.4))


@pytest.mark.parametrize("box, message", [
    ("{type: line, x1: 1, y1: 2, x2: 3}", "a line needs x1, y1, x2 and y2 (its two ends; missing: y2)"),
    ("{type: line, x1: 1, y1: 2, x2: 3, y2: 4, fill: red}", "'fill' is not used by a line box"),
    ("{type: line, x1: 1, y1: 2, x2: 3, y2: 4, width: 3}", "'width' is not used by a line box"),
    ("{type: polygon, points: [[1, 2], [3, 4]], fill: red}", "boxes.p.points: must have at least 3 item(s), got 2"),
    ("{type: polygon, points: [[1, 2], [3, 4], [5]], fill: red}", "boxes.p.points[2][1]: required field is missing"),
    ("{type: polygon, points: [[1, 2], [3, 4], [5, 6]]}", "a polygon needs fill: or stroke:"),
    ("{type: rect, dash: [0]}", "boxes.p.dash[0]: must be > 0, got 0"),
])
def test_bad_lines_and_polygons_are_located(tmp_path, box, message):
    lib = LayoutLibrary([write(tmp_path / "g", f"layouts:\n  card:\n    boxes:\n      p: {box}\n")])
    assert lib.get("card") is None
    messages = [str(p) for p in lib.problems]
    assert any(message in m and "layout.yaml:4: layout 'card'" in m for m in messages), messages


# --- a game folder built from a layout -------------------------------------------------------
GAME_YAML = """title: Squibby
language: en
players: 2-4
categories:
  - {id: vp, label: VP}
deck:
  version: "1"
  card_size: poker
  card_files: [cards.csv]
  kinds:
    hero:
      label: Hero
      fields:
        colour: {type: text}
        power: {type: int}
"""


def make_game(root: Path, layout: str, cards: str, game_yaml: str = GAME_YAML,
              files: dict[str, str] | None = None) -> Path:
    folder = root / "squibby"
    (folder / "templates").mkdir(parents=True, exist_ok=True)
    (folder / "game.yaml").write_text(game_yaml, encoding="utf-8")
    (folder / "cards.csv").write_text(cards, encoding="utf-8")
    (folder / "templates" / "layout.yaml").write_text(layout, encoding="utf-8")
    for name, text in (files or {}).items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def page_streams(pdf: Path) -> str:
    """The content streams of every page and of the forms they draw, decoded."""
    import pypdf

    out: list[str] = []
    seen: set[int] = set()

    def forms(resources) -> None:
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        for ref in (xobjects.get_object().values() if xobjects is not None else []):
            form = ref.get_object()
            if id(form) in seen or form.get("/Subtype") != "/Form":
                continue
            seen.add(id(form))
            out.append(form.get_data().decode("latin-1"))
            forms(form.get("/Resources"))

    for page in pypdf.PdfReader(pdf).pages:
        out.append(page.get_contents().get_data().decode("latin-1"))
        forms(page.get("/Resources"))
    return "\n".join(out)


STYLED = """
layouts:
  hero:
    boxes:
      name: {type: text, x: 75px, y: 75px, width: 600px, height: 150px, text: "{{ card.name }}",
             style: {colour: "{{ card.colour }}", size: "{{ 8 + card.power }}", align: "{{ 'right' if card.power > 4 else 'left' }}"}}
"""


def test_style_values_from_card_data(tmp_path, cli):
    game = make_game(tmp_path, STYLED, "id,kind,name,colour,power\nzap,hero,Zap,#b22222,3\nbolt,hero,Bolt,#1f5fa8,5\n")
    r = cli("build", game, "--only", "decks", "-o", tmp_path / "out")
    assert r.code == 0, r.err
    streams = page_streams(tmp_path / "out" / "squibby" / "deck.pdf")
    # #b22222 and #1f5fa8 as fill colours, at 11 pt and 13 pt
    assert ".698039 .133333 .133333 rg" in streams and ".121569 .372549 .658824 rg" in streams
    assert re.search(r"/F\S+ 11 Tf", streams) and re.search(r"/F\S+ 13 Tf", streams)


def test_a_bad_style_value_from_a_card_is_located(tmp_path, cli):
    game = make_game(tmp_path, STYLED, "id,kind,name,colour,power\nzap,hero,Zap,#b22222,3\n"
                                       "bolt,hero,Bolt,#1f5fa8,-9\nfizz,hero,Fizz,not-a-colour,2\n")
    r = cli("build", game, "--only", "decks", "-o", tmp_path / "out")
    assert r.code == 1
    assert ("cards.csv › row 3: card 'bolt' (#2): layout 'hero', box 'name': style.size: must be > 0, got '-1' "
            "(from {{ 8 + card.power }})") in r.err
    assert "cards.csv › row 4: card 'fizz' (#3): layout 'hero', box 'name': style: colour: unknown colour" in r.err
    assert not (tmp_path / "out" / "squibby" / "deck.pdf").exists()


# --- backs from card data --------------------------------------------------------------------
BACK_LAYOUT = STYLED + """
  back:
    boxes:
      bg: {type: rect, bleed: true, fill: "{{ back.colour }}"}
      tag: {type: text, x: 100px, y: 475px, width: 550px, height: 100px, text: "{{ back.Tagline }}",
            style: {colour: "{{ back.Accent }}"}}
"""


def with_backs(game_yaml: str = GAME_YAML) -> str:
    return game_yaml.replace("  card_files: [cards.csv]\n", "  card_files: [cards.csv]\n  back_files: [card_back.csv]\n")


def test_backs_per_kind_and_per_card_from_a_csv(tmp_path, cli):
    cards = "id,kind,name,colour,power,back\nzap,hero,Zap,#b22222,3,\nbolt,hero,Bolt,#1f5fa8,5,villain-back\n"
    backs = ("name,Kind,Color,Tagline,Accent\nHero back,hero,#2f4858,Heroes of the deep,#e0b000\n"
             "Villain back,,#6b1d1d,Villains,#ffffff\n")
    game = make_game(tmp_path, BACK_LAYOUT, cards, with_backs(), {"card_back.csv": backs})
    r = cli("check", game, "--json")
    assert r.code == 0, r.out + r.err
    r = cli("build", game, "--only", "decks", "-o", tmp_path / "out")
    assert r.code == 0, r.err
    streams = page_streams(tmp_path / "out" / "squibby" / "deck.pdf")
    assert ".184314 .282353 .345098 rg" in streams  # #2f4858: zap's back, its kind's
    assert ".419608 .113725 .113725 rg" in streams  # #6b1d1d: bolt's own back
    assert ".878431 .690196 0 rg" in streams  # the Accent column of the hero back, as text colour
    from cardforge.data.loading import check_game_data
    from cardforge.games import load_game_folder

    data, problems = check_game_data(load_game_folder(game))
    assert data.meta.kinds["hero"].back == "hero-back"
    assert data.meta.backs["villain-back"].fields == {"Tagline": "Villains", "Accent": "#ffffff"}


@pytest.mark.parametrize("backs, message", [
    ("name,kind\nHero back,heros\n", "card_back.csv › row 2 › column B (kind): back 'hero-back': unknown kind "
                                     "'heros' (kinds: hero); did you mean 'hero'?"),
    ("name,colour\nHero back,#zzz\n", "card_back.csv › row 2: back 'hero-back': colour: must be a colour"),
    ("name\nA\nA\n", "card_back.csv › row 3: back 'a': the back 'a' is declared twice"),
    ("colour\n#ffffff\n", "card_back.csv › row 2: a back needs an id"),
])
def test_bad_back_rows_are_located(tmp_path, cli, backs, message):
    game = make_game(tmp_path, BACK_LAYOUT, "id,kind,name,colour,power\nzap,hero,Zap,#b22222,3\n", with_backs(),
                     {"card_back.csv": backs})
    r = cli("check", game)
    assert r.code == 1
    assert message in r.err, r.err


# --- fonts by their family name --------------------------------------------------------------
def test_a_font_file_tells_its_family_and_style():
    from cardforge.assets import font_family_name
    fonts = FONTS
    assert font_family_name(fonts / "DejaVuSansCondensed-BoldOblique.ttf") == ("DejaVu Sans Condensed", (True, True))
    assert font_family_name(fonts / "DejaVuSans.ttf") == ("DejaVu Sans", (False, False))
    assert font_family_name(fonts / "LICENSE-DejaVu.txt") is None


def test_fonts_are_found_by_their_family_name(tmp_path, cli):
    import shutil

    import pypdf

    layout = """
layouts:
  hero:
    boxes:
      name: {type: text, x: 5, y: 5, width: 50, height: 10, text: "{{ card.name }}",
             style: {family: "{{ card.colour }}", bold: true}}
"""
    game = make_game(tmp_path, layout, "id,kind,name,colour,power\nzap,hero,Zap,DejaVu Sans Condensed,3\n")
    for name, to in (("DejaVuSansCondensed.ttf", "pixel.ttf"), ("DejaVuSansCondensed-Bold.ttf", "pixel-heavy.ttf")):
        (game / "fonts").mkdir(exist_ok=True)
        shutil.copy(FONTS / name, game / "fonts" / to)
    r = cli("build", game, "--only", "decks", "-o", tmp_path / "out")
    assert r.code == 0, r.err
    reader = pypdf.PdfReader(tmp_path / "out" / "squibby" / "deck.pdf")
    names = {str(f.get_object()["/BaseFont"]) for p in reader.pages for f in
             (p["/Resources"].get("/Font") or {}).values()}
    forms = []
    for p in reader.pages:
        for x in (p["/Resources"].get("/XObject") or {}).values():
            forms += [str(f.get_object()["/BaseFont"]) for f in (x.get_object()["/Resources"].get("/Font") or {}).values()]
    # the bold face comes from the file whose name table says "Bold" (pixel-heavy.ttf)
    assert any("Condensed-Bold" in n for n in names | set(forms)), names | set(forms)
    # an unknown family (from the card) lists the families the files name, and fails the card
    (game / "cards.csv").write_text("id,kind,name,colour,power\nzap,hero,Zap,DejaVu Sans Compressed,3\n")
    r = cli("build", game, "--only", "decks", "-o", tmp_path / "out2")
    assert r.code == 1
    assert "card 'zap' (#1): layout 'hero', box 'name': style: unknown font family 'DejaVu Sans Compressed'" in r.err
    assert "DejaVu Sans Condensed" in r.err
