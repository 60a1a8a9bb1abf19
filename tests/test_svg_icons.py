"""A game's SVG icons (issue 27: the shipped games' icons are files in card_data/<game>/icons/):
drawn compactly (render/drawing/svgdraw.py) exactly as ReportLab's renderPDF draws them, replayed from
the cache without svglib, labelled by their <title>."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pypdfium2
import pytest
from PIL import ImageChops
from reportlab.pdfgen.canvas import Canvas

from cardforge.render.drawing.images import load_art, svg_drawing
from cardforge.render.drawing.svgdraw import draw_compact, play, svg_program

from conftest import ROOT

ICONS = sorted(ROOT.glob("card_data/*/icons/*.svg"))


def _pages(draw, path: Path, size: float = 24.0) -> list:
    """Each icon drawn by ``draw(canvas, file)`` on a page of its own, rasterised."""
    c = Canvas(str(path), pagesize=(size * 4, size * 2))
    for icon in ICONS:
        c.saveState()
        c.translate(size, size / 2)
        c.scale(size / 100, size / 100)
        draw(c, icon)
        c.restoreState()
        c.showPage()
    c.save()
    doc = pypdfium2.PdfDocument(str(path))
    try:
        return [doc[i].render(scale=4).to_pil().convert("RGB") for i in range(len(doc))]
    finally:
        doc.close()


def test_every_shipped_icon_is_an_svg_of_its_game():
    assert len(ICONS) >= 87
    assert {p.parent.parent.name for p in ICONS} == {"maphr", "tunhell", "mine_all_mine", "cristaux",
                                                      "imperial_miners"}


@pytest.mark.slow
def test_compact_drawing_looks_exactly_like_renderpdf(tmp_path):
    from reportlab.graphics import renderPDF

    plain = _pages(lambda c, f: renderPDF.draw(svg_drawing(load_art(f)), c, 0, 0), tmp_path / "rl.pdf")
    compact = _pages(lambda c, f: draw_compact(c, svg_drawing(load_art(f))), tmp_path / "compact.pdf")
    for icon, a, b in zip(ICONS, plain, compact):
        assert ImageChops.difference(a, b).getbbox() is None, icon


def test_compact_drawing_is_smaller_and_sets_state_once():
    icon = ROOT / "card_data" / "cristaux" / "icons" / "nature-multi.svg"
    from reportlab.graphics import renderPDF

    plain, compact = Canvas(None), Canvas(None)
    renderPDF.draw(svg_drawing(load_art(icon)), plain, 0, 0)
    draw_compact(compact, svg_drawing(load_art(icon)))
    assert len("\n".join(compact._code)) < 0.8 * len("\n".join(plain._code))
    assert compact._code.count("0 J") == 1 and compact._code.count("[] 0 d") == 1  # the first shape sets them
    assert plain._code.count("0 J") > 5


def test_a_replayed_program_draws_the_same_operators():
    for icon in ICONS:
        direct, replayed = Canvas(None), Canvas(None)
        draw_compact(direct, svg_drawing(load_art(icon)))
        program = svg_program(icon)
        assert program.ops is not None, icon
        play(replayed, program, icon)
        assert replayed._code == direct._code, icon


def test_an_svg_with_an_image_is_drawn_from_its_file(tmp_path):
    """What a program cannot hold (an embedded image) is drawn from the SVG each time."""
    from PIL import Image

    Image.new("RGB", (4, 4), "red").save(tmp_path / "dot.png")
    svg = tmp_path / "photo.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                   'width="100pt" height="100pt" viewBox="0 0 100 100"><rect width="100" height="100" '
                   'fill="#00ff00"/><image x="10" y="10" width="80" height="80" xlink:href="dot.png"/></svg>',
                   encoding="utf-8")
    program = svg_program(svg)
    assert program.ops is None and (program.width, program.height) == pytest.approx((100, 100))
    c = Canvas(None)
    play(c, program, svg)
    assert any("Do" in line for line in c._code)  # an image XObject (render/drawing/svg.py), not inline


def test_a_game_icon_with_an_image_draws_in_its_form(tmp_path):
    """An icon is a form, which cannot hold an inline image: the raster of an SVG icon is an
    image XObject (ReportLab's renderer left it out of the form)."""
    import io

    from PIL import Image

    from cardforge.render.drawing.game_assets import drawing_assets

    (tmp_path / "icons").mkdir()
    Image.new("RGB", (4, 4), "red").save(tmp_path / "icons" / "dot.png")  # (an icon too)
    (tmp_path / "icons" / "photo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" '
        'height="100"><rect width="100" height="100" fill="#00ff00"/>'
        '<image x="10" y="10" width="80" height="80" xlink:href="dot.png"/></svg>', encoding="utf-8")
    assets = drawing_assets(tmp_path)
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(100, 100))
    assets.draw_icon(c, "photo", 10, 10, 50)
    c.showPage()
    c.save()
    pdf = buffer.getvalue()
    assert b"/Subtype /Image" in pdf and b"/FormXob.icon-photo" in pdf


@pytest.mark.slow
def test_a_later_build_replays_icons_without_svglib(tmp_path):
    """svglib and ReportLab's graphics cost ~0.4 s to import: once recorded, a game's icons are
    drawn without them."""
    code = ("import sys, json\n"
            "from reportlab.pdfgen.canvas import Canvas\n"
            "from cardforge.data.loading import load_game_data\n"
            "from cardforge.games import find_game\n"
            "from cardforge.render.drawing.game_assets import drawing_assets\n"
            "game = find_game('cristaux')\n"
            "assets = drawing_assets(load_game_data(game), game_folder=game.folder)\n"
            "c = Canvas(None)\n"
            "for name in sorted(assets.custom):\n"
            "    assets.draw_icon(c, name, 0, 0, 10)\n"
            "assert len(assets.custom) == 33, len(assets.custom)\n"
            "print(json.dumps([m for m in ('svglib', 'lxml', 'reportlab.graphics') if m in sys.modules]))\n")
    env = dict(os.environ, CARDFORGE_CACHE=str(tmp_path / "cache"))
    env.pop("CARDFORGE_NO_CACHE", None)
    runs = [subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert json.loads(runs[0].splitlines()[-1])  # the first records: svglib parses the files
    assert json.loads(runs[1].splitlines()[-1]) == []
    assert len(list((tmp_path / "cache").glob("svg-programs-*.pickle"))) == 1  # one entry for the game's icons


@pytest.mark.slow
def test_a_later_build_draws_svg_art_without_svglib(tmp_path):
    """SVG card art (Mine All Mine's ship back) is recorded as the icons are: a rebuild
    reads its size and draws its form from the cache, without svglib (issue 32: ~0.15 s of
    that deck's 0.7 s rebuild), and the deck comes out byte for byte the same."""
    code = ("import sys, json\n"
            "from cardforge.cli import main\n"
            "code = main(['build', 'mine_all_mine', '--only', 'decks', '-o', sys.argv[1]])\n"
            "print(json.dumps([code] + [m for m in ('svglib', 'lxml', 'reportlab.graphics') if m in sys.modules]))\n")
    env = dict(os.environ, CARDFORGE_CACHE=str(tmp_path / "cache"))
    env.pop("CARDFORGE_NO_CACHE", None)
    runs, decks = [], []
    for run in range(2):
        out = tmp_path / f"out{run}"
        runs.append(json.loads(subprocess.run([sys.executable, "-c", code, str(out)], cwd=ROOT, env=env,
                                              capture_output=True, text=True, check=True).stdout.splitlines()[-1]))
        decks.append((out / "mine_all_mine" / "deck-ship.pdf").read_bytes())
    assert runs[0][0] == 0 and "svglib" in runs[0]  # the first records: svglib reads the file
    assert runs[1] == [0]
    assert decks[0] == decks[1]  # replayed from the cache as drawn when recorded


def test_a_game_icon_s_label_is_its_svg_title(tmp_path):
    from cardforge.data.printables import LegendItem
    from cardforge.icons import icon_label
    from cardforge.render.drawing.game_assets import drawing_assets

    maphr = ROOT / "card_data" / "maphr"
    files = {p.stem: p for p in (maphr / "icons").glob("*.svg")}
    assert icon_label("coal", files) == "charbon" and icon_label("prospect", files) == "prospecter"
    assert icon_label("red", files) == "rouge"  # a shape of issue 29, titled
    assert icon_label("coal") == "coal"  # without the game's files: the name
    assert LegendItem(icon="exploit").shown_label(files) == "Exploiter"  # a legend entry without a label
    assert LegendItem(icon="exploit", label="Miner").shown_label(files) == "Miner"
    assert drawing_assets(maphr).icon_label("gold") == "or"  # what a legend drawn for the game reads
    assert icon_label("coin", files) == "pièce"  # built in
    untitled = tmp_path / "tour-de-guet.svg"
    untitled.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>', encoding="utf-8")
    assert icon_label("tour-de-guet", {"tour-de-guet": untitled}) == "tour de guet"  # no title: the name
    titled = tmp_path / "coin.svg"
    titled.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>doublon</title></svg>',
                      encoding="utf-8")
    assert icon_label("coin", {"coin": titled}) == "doublon"  # a game's coin, its own word


def test_a_data_folder_without_game_yaml_draws_with_the_game_s_icons(cli, tmp_path):
    """``--data DIR`` whose ``<id>/`` has no game.yaml: the game's folder gives the icons (and
    fonts) the data folder lacks; the data folder's replace them by name."""
    import shutil

    from cardforge.assets import icon_names
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game
    from cardforge.render.drawing.game_assets import drawing_assets

    data = tmp_path / "data"
    shutil.copytree(ROOT / "card_data" / "tunhell", data / "tunhell")
    (data / "tunhell" / "game.yaml").unlink()
    shutil.rmtree(data / "tunhell" / "icons")
    game = find_game("tunhell", data_root=data)
    assert game.data_folder == data / "tunhell" and game.folder == ROOT / "card_data" / "tunhell"
    assert icon_names(game.data_folder) == frozenset()
    assert {"warrior", "dwarf", "encounter"} <= icon_names(game.data_folder, game.folder)
    assets = drawing_assets(load_game_data(game), game_folder=game.folder)
    assert assets.files["warrior"] == game.folder / "icons" / "warrior.svg"
    r = cli("--data", data, "check", "tunhell")
    assert r.code == 0, r.out + r.err
    r = cli("--data", data, "build", "tunhell", "--only", "aids", "-o", tmp_path / "out")
    assert r.code == 0, r.err
    # an icon of the data folder replaces the game's of that name
    (data / "tunhell" / "icons").mkdir()
    own = data / "tunhell" / "icons" / "warrior.svg"
    own.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>bagarreur</title>'
                   '<rect width="10" height="10"/></svg>', encoding="utf-8")
    assets = drawing_assets(load_game_data(game), game_folder=game.folder)
    assert assets.files["warrior"] == own and assets.icon_label("warrior") == "bagarreur"
    assert assets.files["dwarf"] == game.folder / "icons" / "dwarf.svg"


def test_a_broken_svg_icon_fails_check_naming_the_file(cli, tmp_path):
    """A truncated icon file is an error of `check` (its program is recorded only once it reads)."""
    folder = tmp_path / "mon-jeu"
    assert cli("new", folder, "--lang", "fr").code == 0
    icon = folder / "icons" / "objectif.svg"
    assert cli("check", folder).code == 0
    icon.write_text(icon.read_text(encoding="utf-8")[:200], encoding="utf-8")
    r = cli("check", folder)
    assert r.code == 1
    assert "icons/objectif.svg" in r.out + r.err and "icon ':objectif:': the SVG cannot be read" in r.out + r.err
