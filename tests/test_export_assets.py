"""A game's own assets: SVG art drawn as vector, fonts from fonts/ as a layout family (embedded
as subsets), icons from icons/ as :name: tokens; broken images failing `check` and `build`."""

from __future__ import annotations

import shutil
import struct
import zlib
from pathlib import Path

import pypdf
import pytest
import reportlab
import yaml

from render_helpers import FIXTURE_DATA, FIXTURE_TEMPLATES, fonts_of, register_fixture_game

VERA = Path(reportlab.__file__).parent / "fonts"
SUN_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">
  <rect x="0" y="0" width="200" height="100" fill="#1040c0"/>
  <circle cx="100" cy="50" r="40" fill="#ff0000"/>
</svg>"""
STAR_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
  <polygon points="50,2 61,38 98,38 68,60 79,96 50,74 21,96 32,60 2,38 39,38" fill="#00a000"/>
</svg>"""


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def bomb_png(w: int = 20000, h: int = 20000) -> bytes:
    """A PNG whose header says w × h pixels (no need to hold the pixels to test the limit)."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + _png_chunk(b"IEND", b""))


@pytest.fixture
def game_folder(tmp_path, monkeypatch):
    """The fixture game copied with fonts/, icons/, an SVG art and a layout using them."""
    register_fixture_game(monkeypatch)
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    folder = data / "fixture_deck"
    (folder / "fonts").mkdir()
    shutil.copy(VERA / "Vera.ttf", folder / "fonts" / "Vera-Regular.ttf")
    shutil.copy(VERA / "VeraBd.ttf", folder / "fonts" / "Vera-Bold.ttf")
    (folder / "icons").mkdir()
    (folder / "icons" / "etoile.svg").write_text(STAR_SVG, encoding="utf-8")
    from PIL import Image

    Image.new("RGB", (40, 20), (200, 0, 200)).save(folder / "icons" / "gemme.png")
    (folder / "art" / "soleil.svg").write_text(SUN_SVG, encoding="utf-8")
    cards = yaml.safe_load((folder / "cards.yaml").read_text(encoding="utf-8"))
    for card in cards["cards"]:
        if card["id"] == "boule-de-feu":
            card["art"] = "art/soleil.svg"
        if card["id"] == "bouclier":
            card["text"] = "Gagnez 1 :etoile: et 1 :gemme:."
    (folder / "cards.yaml").write_text(yaml.safe_dump(cards, allow_unicode=True, sort_keys=False), encoding="utf-8")
    templates = tmp_path / "templates"
    shutil.copytree(FIXTURE_TEMPLATES, templates)
    layout_file = templates / "fixture_deck" / "layout.yaml"
    layout = yaml.safe_load(layout_file.read_text(encoding="utf-8"))
    layout["layouts"]["spell"]["boxes"]["motto"] = {
        "type": "text", "x": "4mm", "y": "70mm", "right": "4mm", "height": "6mm",
        "text": "Forgé en Vera", "style": {"family": "Vera", "bold": True, "size": 8}}
    layout_file.write_text(yaml.safe_dump(layout, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return data, templates


def _build(cli, data, templates, out):
    return cli("--data", data, "build", "fixture_deck", "--templates", templates, "-o", out, "--only", "decks",
               "-q")


def _xobject_names(reader: pypdf.PdfReader) -> set[str]:
    names: set[str] = set()
    seen = set()

    def visit(res):
        if res is None:
            return
        xo = res.get_object().get("/XObject")
        if xo is None:
            return
        for name, ref in xo.get_object().items():
            names.add(str(name))
            key = getattr(ref, "idnum", None)
            if key in seen:
                continue
            seen.add(key)
            visit(ref.get_object().get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return names


def test_svg_art_font_and_icons_appear_in_the_built_pdf(cli, game_folder, tmp_path):
    data, templates = game_folder
    r = _build(cli, data, templates, tmp_path / "out")
    assert r.code == 0, r.err
    pdf = tmp_path / "out" / "fixture_deck" / "deck.pdf"
    reader = pypdf.PdfReader(pdf)
    fonts = fonts_of(reader)
    vera = [name for name in fonts if "Vera" in name]
    assert vera and all(fonts[n] for n in vera)  # embedded
    assert all("+" in n for n in vera)  # as subsets (ABCDEF+Name)
    assert all(embedded for embedded in fonts.values())  # the SVG brought no Helvetica
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    text = doc[0].get_textpage().get_text_range()
    assert text.count("Forgé en Vera") == 6  # every spell printed on the first sheet: 3 + 1 + 2 copies
    # the SVG and the icons are the folder's drawings: their colours below
    # the SVG's red disc and the icon's green are really on the page
    image = doc[0].render(scale=2).to_pil().convert("RGB")
    colours = set(image.get_flattened_data()) if hasattr(image, "get_flattened_data") else set(image.getdata())
    assert any(r > 240 and g < 30 and b < 30 for r, g, b in colours)  # #ff0000 (the sun)
    assert any(r < 20 and 150 < g < 175 and b < 20 for r, g, b in colours)  # #00a000 (the star)
    assert any(r > 190 and g < 15 and r == b for r, g, b in colours)  # #c800c8 (the PNG icon)
    doc.close()


def test_check_accepts_the_games_own_icons_and_refuses_others(cli, game_folder):
    data, _ = game_folder
    r = cli("--data", data, "check", "fixture_deck")
    assert r.code == 0, r.err
    shutil.rmtree(data / "fixture_deck" / "icons")
    r = cli("--data", data, "check", "fixture_deck")
    assert r.code == 1
    assert "unknown icon ':etoile:'" in r.err and "field" not in r.err.split("etoile")[0][-5:]
    assert "cards.yaml" in r.err and "card 'bouclier'" in r.err


def test_an_unknown_family_names_the_bundled_and_the_games_fonts(cli, game_folder, tmp_path):
    data, templates = game_folder
    layout_file = templates / "fixture_deck" / "layout.yaml"
    layout_file.write_text(layout_file.read_text(encoding="utf-8").replace("family: Vera", "family: Garamond"),
                           encoding="utf-8")
    r = _build(cli, data, templates, tmp_path / "out")
    assert r.code == 1
    # the files' names, then the family names inside them
    assert "unknown font family 'Garamond' (bundled: sans, condensed; the game's fonts/: Vera, Bitstream Vera Sans)" \
        in r.err
    assert "boxes.motto.style" in r.err


@pytest.mark.parametrize("content, message", [
    (lambda good: good[: len(good) // 2], "corrupt or truncated"),
    (lambda good: bomb_png(), "too large"),
    (lambda good: b"not an image at all", "not an image"),
    (lambda good: b"<svg xmlns='http://www.w3.org/2000/svg'><rect", "SVG cannot be read"),
])
def test_a_broken_image_fails_check_and_build(cli, game_folder, tmp_path, content, message):
    data, templates = game_folder
    folder = data / "fixture_deck"
    good = (folder / "art" / "flamme.png").read_bytes()
    name = "soleil.svg" if b"<svg" in content(good) else "flamme.png"
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("art/soleil.svg", f"art/{name}"), encoding="utf-8")
    (folder / "art" / name).write_bytes(content(good))
    r = cli("--data", data, "check", "fixture_deck")
    assert r.code == 1
    line = next(ln for ln in r.err.splitlines() if message in ln)
    assert "cards.yaml" in line and "card 'boule-de-feu'" in line and "art:" in line and f"art/{name}" in line
    assert "Traceback" not in r.err
    out = tmp_path / "out"
    r = _build(cli, data, templates, out)
    assert r.code == 1 and message in r.err and "Traceback" not in r.err
    assert not (out / "fixture_deck" / "deck.pdf").exists()  # no half-written deck


def test_the_pixel_limit_and_pillows_own_bomb_guard(tmp_path):
    from cardforge.render.drawing.images import MAX_PIXELS, ArtError, load_art

    path = tmp_path / "big.png"
    path.write_bytes(bomb_png(8000, 8000))  # 64 MP: over our limit, under Pillow's
    with pytest.raises(ArtError) as err:
        load_art(path)
    assert err.value.broken and "8000×8000 = 64,000,000 pixels), at most 50,000,000 pixels (set CARDFORGE_LIMIT_IMAGE_PIXELS" in str(err.value)
    assert MAX_PIXELS == 50_000_000
    path.write_bytes(bomb_png(20000, 20000))  # Pillow refuses it before we read the size
    with pytest.raises(ArtError, match="too large"):
        load_art(path)


def test_a_missing_image_stays_a_warning(cli, game_folder):
    data, _ = game_folder
    (data / "fixture_deck" / "art" / "soleil.svg").unlink()
    r = cli("--data", data, "check", "fixture_deck")
    assert r.code == 0
    assert "warning:" in r.err and "image not found (a placeholder is printed)" in r.err
    assert cli("--data", data, "check", "fixture_deck", "--strict").code == 1


def test_a_file_that_is_no_font_is_refused_in_check(cli, game_folder):
    data, _ = game_folder
    (data / "fixture_deck" / "fonts" / "Fancy-Regular.ttf").write_bytes(b"GIF89a" + b"\0" * 200)
    r = cli("--data", data, "check", "fixture_deck")
    assert r.code == 1
    assert "Fancy-Regular.ttf" in r.err and "not a TrueType/OpenType font file" in r.err


def test_game_assets_reads_families_and_icons(game_folder):
    from cardforge.assets import game_assets

    data, _ = game_folder
    assets = game_assets(data / "fixture_deck")
    assert set(assets.fonts) == {"Vera"}
    vera = assets.fonts["Vera"]
    assert vera.face(False, False).name == "Vera-Regular.ttf"
    assert vera.face(True, False).name == "Vera-Bold.ttf"
    assert vera.face(True, True).name == "Vera-Bold.ttf"  # no bold italic: the bold
    assert assets.family("vera") is vera
    assert sorted(assets.icons) == ["etoile", "gemme"]


def build_cff_font(path: Path) -> None:
    """A small OpenType font with PostScript (CFF) outlines: every glyph a rounded slab
    (bench/bombs.py's maker, which also makes the subroutine bomb)."""
    from fuzz import load_bench

    chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyzéèàç0123456789.,:;!?'-"
    path.write_bytes(load_bench("bombs").font_cff(chars=chars, family="Slab"))


def test_an_opentype_cff_font_is_converted_and_embedded(cli, game_folder, tmp_path):
    data, templates = game_folder
    build_cff_font(data / "fixture_deck" / "fonts" / "Slab-Regular.otf")
    assert cli("--data", data, "check", "fixture_deck").code == 0
    layout_file = templates / "fixture_deck" / "layout.yaml"
    layout_file.write_text(layout_file.read_text(encoding="utf-8").replace("family: Vera", "family: Slab"),
                           encoding="utf-8")
    r = _build(cli, data, templates, tmp_path / "out")
    assert r.code == 0, r.err
    pdf = tmp_path / "out" / "fixture_deck" / "deck.pdf"
    fonts = fonts_of(pypdf.PdfReader(pdf))
    slab = [n for n in fonts if "Slab" in n]
    assert slab and all(fonts[n] and "+" in n for n in slab)  # embedded, as a subset
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    assert "Forgé en Vera" in doc[0].get_textpage().get_text_range()
    doc.close()


def test_a_font_changed_in_place_is_read_again(tmp_path):
    """Watch mode: the same file name with new content gives the new face, and the texts laid
    out with the old metrics are not served again (the assets are part of the layout's key)."""
    import os

    from cardforge.render.drawing.game_assets import drawing_assets
    from cardforge.render.drawing.richtext import LAYOUTS, TextStyle, fit_text

    folder = tmp_path / "jeu"
    (folder / "fonts").mkdir(parents=True)
    face = folder / "fonts" / "Maison-Regular.ttf"
    shutil.copy(VERA / "Vera.ttf", face)
    before = drawing_assets(folder)
    first = before.font_name("Maison")
    old = fit_text("Maison de jeu", 200, 50, TextStyle(family="Maison", assets=before))
    shutil.copy(VERA / "VeraBd.ttf", face)
    os.utime(face, ns=(face.stat().st_mtime_ns + 10**9,) * 2)
    after = drawing_assets(folder)
    second = after.font_name("Maison")
    assert first != second and first.startswith("Maison-Regular-") and second.startswith("Maison-Regular-")
    assert after != before
    new = fit_text("Maison de jeu", 200, 50, TextStyle(family="Maison", assets=after))
    assert new is not old and new.lines[0].width > old.lines[0].width  # bold is wider: measured again
    assert LAYOUTS.get(("Maison de jeu", 200, 50, TextStyle(family="Maison", assets=before))) is old


def test_svg_text_is_set_in_an_embedded_font(tmp_path):
    """Text in SVG art never asks the machine for a font: it is drawn in the bundled DejaVu,
    embedded (svglib alone would fall back on unembedded Helvetica, or a system font)."""
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render.drawing.images import draw_art, load_art

    svg = tmp_path / "titre.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60">'
                   '<text x="10" y="40" font-family="Comic Sans MS" font-size="24" font-weight="bold">'
                   'Trésor</text><text x="120" y="40" style="font-family: Papyrus; font-size: 12px">'
                   'caché</text></svg>', encoding="utf-8")
    pdf = tmp_path / "t.pdf"
    from cardforge.render.fonts import font_name

    c = Canvas(str(pdf), invariant=1, initialFontName=font_name())  # as cardforge's canvases
    draw_art(c, load_art(svg), 50, 500, 200, 60, fit="contain")
    c.showPage()
    c.save()
    fonts = fonts_of(pypdf.PdfReader(pdf))
    used = {n for n in fonts if "DejaVu" in n}
    assert any("Bold" in n for n in used) and all(fonts[n] for n in used)
    assert not [n for n in fonts if "Helvetica" in n or "Comic" in n or "Papyrus" in n]
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf))
    text = doc[0].get_textpage().get_text_range()
    doc.close()
    assert "Trésor" in text and "caché" in text


@pytest.mark.slow
def test_a_game_icon_named_like_a_built_in_replaces_it(cli, game_folder, tmp_path):
    data, templates = game_folder
    (data / "fixture_deck" / "icons" / "coin.svg").write_text(STAR_SVG, encoding="utf-8")
    r = _build(cli, data, templates, tmp_path / "out")
    assert r.code == 0, r.err
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(tmp_path / "out" / "fixture_deck" / "deck.pdf"))
    colours = set()
    for page in doc:
        image = page.render(scale=2).to_pil().convert("RGB")
        colours |= set(image.get_flattened_data()) if hasattr(image, "get_flattened_data") else set(image.getdata())
    doc.close()
    assert (0, 0xa0, 0) in colours  # the file's star
    assert (0xf2, 0xc2, 0x30) not in colours  # not the built-in coin's gold


def test_svg_links_images_beside_it_but_not_outside(tmp_path):
    """An SVG may use an image next to it (with text: the fonts pinned keep the link working);
    a link out of its folder is refused, with a message (a crafted SVG cannot read other
    files, and a designer learns why the image would be missing)."""
    from PIL import Image
    from reportlab.graphics.shapes import Image as RLImage

    from cardforge.render.drawing.images import ArtError, load_art, svg_drawing

    art = tmp_path / "art"
    art.mkdir()
    Image.new("RGB", (10, 10), (0, 200, 0)).save(art / "vert.png")
    Image.new("RGB", (10, 10), (200, 0, 0)).save(tmp_path / "secret.png")
    svg = art / "carte.svg"
    head = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            'width="100" height="50"><image x="0" y="0" width="40" height="40" xlink:href="vert.png"/>')
    svg.write_text(head + '<text x="0" y="48" font-family="Arial">ok</text></svg>', encoding="utf-8")
    drawing = svg_drawing(load_art(svg))

    def images(node):
        if isinstance(node, RLImage):
            yield node
        for child in getattr(node, "contents", ()) or ():
            yield from images(child)

    found = list(images(drawing))
    assert len(found) == 1 and found[0].x == 0  # vert.png drawn
    outside = art / "dehors.svg"
    outside.write_text(head + '<image x="50" y="0" width="40" height="40" xlink:href="../secret.png"/></svg>',
                       encoding="utf-8")
    with pytest.raises(ArtError, match="the image '../secret.png' is outside the SVG's folder"):
        load_art(outside)
