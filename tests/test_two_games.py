"""Passed, not global (issue 27): two games drawn in one process, interleaved, each with its own
``icons/coin.svg`` (a wide red one, a square blue one), never see each other's icon — in card
text, in the laid-out text's widths, in the aids, and in what `check` accepts."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pytest

RED_WIDE = """<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">
  <rect x="0" y="0" width="200" height="100" fill="#d01010"/></svg>"""
BLUE_SQUARE = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
  <circle cx="50" cy="50" r="48" fill="#1010d0"/></svg>"""


@pytest.fixture
def two_games(cli, tmp_path):
    folders = []
    for name, svg in (("rouge", RED_WIDE), ("bleu", BLUE_SQUARE)):
        folder = tmp_path / name
        assert cli("new", folder, "--lang", "fr").code == 0
        (folder / "icons").mkdir(exist_ok=True)  # `new` makes it (its objectif.svg)
        (folder / "icons" / "coin.svg").write_text(svg, encoding="utf-8")  # replaces the built-in coin
        folders.append(folder)
    return folders


def _colours(pdf: bytes) -> set[tuple[int, int, int]]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    seen: set[tuple[int, int, int]] = set()
    for page in doc:
        image = page.render(scale=2).to_pil().convert("RGB")
        seen |= set(image.get_flattened_data()) if hasattr(image, "get_flattened_data") else set(image.getdata())
    doc.close()
    return seen


def _red(colours):
    return any(r > 190 and g < 40 and b < 40 for r, g, b in colours)


def _blue(colours):
    return any(b > 190 and r < 40 and g < 40 for r, g, b in colours)


def _coin_forms(pdf: bytes) -> dict[str, list[float]]:
    """The icon forms named ``icon-coin…`` in the PDF, with their boxes."""
    out: dict[str, list[float]] = {}
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        xobjects = page["/Resources"].get_object().get("/XObject") or {}
        todo = list(xobjects.items())
        while todo:
            name, ref = todo.pop()
            obj = ref.get_object()
            if "coin" in str(name):
                out[str(name)] = [float(v) for v in obj["/BBox"]]
            inner = (obj.get("/Resources") or {}).get("/XObject") if hasattr(obj, "get") else None
            if inner:
                todo += list(inner.get_object().items())
    return out


def test_two_games_drawn_interleaved_each_print_their_own_icon(two_games):
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.data.loading import load_game_data
    from cardforge.games import load_game_folder
    from cardforge.layout.geometry import Placement, Rect
    from cardforge.render.cards.buildcache import layout_library
    from cardforge.render.cards.cards import CardArt, Issues, Painter
    from cardforge.render.cards.decks import template_folders
    from cardforge.render.fonts import font_name
    from cardforge.text.templating import Templates

    painters, buffers, cards = [], [], []
    for folder in two_games:  # both games set up before either draws
        game = load_game_folder(folder)
        data = load_game_data(game)
        folders = template_folders(game, None)
        art = CardArt(game, data, layout_library(folders), Templates(folders), 3.0, Issues())
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(200, 300), invariant=1, initialFontName=font_name())
        painters.append(Painter(canvas, art))
        buffers.append(buffer)
        cards.append([c for c in data.cards if ":coin:" in str(getattr(c, "effect", ""))])
    assert cards[0] and cards[1]
    for pair in zip(*cards):  # a card of one, then the other's, on each page
        for painter, card in zip(painters, pair):
            painter.front(Placement(Rect(5.0, 5.0, 63.0, 88.0)), card)
            painter.c.showPage()
    for painter in painters:
        painter.c.save()
    red, blue = (buffer.getvalue() for buffer in buffers)
    assert _red(_colours(red)) and not _blue(_colours(red))
    assert _blue(_colours(blue)) and not _red(_colours(blue))
    (_, red_box), = _coin_forms(red).items()
    (_, blue_box), = _coin_forms(blue).items()
    assert red_box == [0, 0, 200, 100] and blue_box == [0, 0, 100, 100]  # 2 em wide, 1 em wide


def test_two_games_icons_of_one_name_in_one_pdf_are_two_forms(two_games):
    """A form is named after its icon (``icon-coin``); another drawing of that name in the same
    PDF (another game's, or the built-in one) gets its content's digest in its name."""
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render.drawing.drawing_assets import BUILT_IN
    from cardforge.render.drawing.game_assets import drawing_assets

    wide, square = (drawing_assets(folder) for folder in two_games)
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(400, 100), invariant=1)
    for i, assets in enumerate((wide, square, BUILT_IN, wide)):
        assets.draw_icon(c, "coin", 10 + 90 * i, 10, 20)
    c.showPage()
    c.save()
    forms = _coin_forms(buffer.getvalue())
    assert sorted(forms.values()) == [[0, 0, 100, 100], [0, 0, 100, 100], [0, 0, 200, 100]]  # three, reused once
    assert "/FormXob.icon-coin" in forms  # the first drawn keeps the short name
    assert forms["/FormXob.icon-coin"] == [0, 0, 200, 100]


def test_the_laid_out_text_of_one_game_is_not_served_to_the_other(two_games):
    from cardforge.render.drawing.game_assets import drawing_assets
    from cardforge.render.drawing.richtext import TextStyle, fit_text

    wide, square = (drawing_assets(folder) for folder in two_games)
    text = "Gagnez 2 :coin:."
    a = fit_text(text, 300, 50, TextStyle(size=10, assets=wide))
    b = fit_text(text, 300, 50, TextStyle(size=10, assets=square))
    assert a.lines[0].width - b.lines[0].width == pytest.approx(10 * (2 - 1), abs=0.01)  # 1 em wider at 10 pt


@pytest.mark.slow
def test_two_games_built_alternately_keep_their_aids(cli, two_games, tmp_path):
    out = tmp_path / "out"
    for folder in (*two_games, two_games[0]):
        r = cli("build", folder, "--only", "aids", "-o", out)
        assert r.code == 0, r.err
    red = (out / "rouge" / "aids.pdf").read_bytes()
    blue = (out / "bleu" / "aids.pdf").read_bytes()
    assert _red(_colours(red)) and not _blue(_colours(red))
    assert _blue(_colours(blue)) and not _red(_colours(blue))


def test_check_knows_each_games_own_icons(cli, two_games):
    red, blue = two_games
    (red / "icons" / "gemme.svg").write_text(RED_WIDE, encoding="utf-8")
    for folder in (red, blue):
        cards = folder / "cards.yaml"
        cards.write_text(cards.read_text(encoding="utf-8").replace("Piochez une carte.", "Piochez :gemme:."),
                         encoding="utf-8")
    assert cli("check", red).code == 0
    r = cli("check", blue)
    assert r.code == 1 and "unknown icon ':gemme:'" in r.err
    assert cli("check", red).code == 0  # and the first game still has its own


def test_the_drawing_assets_of_a_folder_are_equal_while_its_files_are(two_games):
    from cardforge.render.drawing.drawing_assets import BUILT_IN
    from cardforge.render.drawing.game_assets import drawing_assets

    first = drawing_assets(two_games[0])
    assert drawing_assets(Path(two_games[0])) == first and hash(drawing_assets(two_games[0])) == hash(first)
    assert first != drawing_assets(two_games[1]) and first != BUILT_IN
    assert first.names == frozenset({"coin", "objectif"}) and BUILT_IN.has_icon("coin") and not BUILT_IN.names


def test_a_hook_built_aid_is_checked_against_the_games_icons(cli, tmp_path):
    """Boards and aids a printables hook builds in code know no game while they validate: the
    build checks their icons against the game's own (one it has, one it has not)."""
    import shutil

    from conftest import FIXTURES

    legend = ('\n\ndef aids(data):\n    from cardforge.data.printables import build_aid\n'
              '    return [build_aid({"id": "legende", "title": "Légende", "size": "card", "provenance": "provisional",\n'
              '                       "front": [{"kind": "legend", "icons": [{"icon": "relique", "label": "Relique"},\n'
              '                                                              {"icon": "ICON", "label": "Autre"}]}]})]\n')

    def game(icon: str):
        folder = tmp_path / icon / "chasse_aux_reliques"
        shutil.copytree(FIXTURES / "games" / "chasse_aux_reliques", folder)
        (folder / "icons").mkdir(exist_ok=True)
        (folder / "icons" / "relique.svg").write_text(BLUE_SQUARE, encoding="utf-8")
        hooks = folder / "rules" / "printables.py"
        hooks.write_text(hooks.read_text(encoding="utf-8") + legend.replace("ICON", icon), encoding="utf-8")
        return folder

    r = cli("build", game("coin"), "--only", "aids", "-o", tmp_path / "ok")
    assert r.code == 0, r.err
    r = cli("build", game("reliqe"), "--only", "aids", "-o", tmp_path / "bad")
    assert r.code == 1
    assert "printables.py: aid 'legende': front[0].icons[1].icon: unknown icon 'reliqe' (built in: " in r.err
    assert "the game's icons/ folder has 1); did you mean 'relique'?" in r.err
