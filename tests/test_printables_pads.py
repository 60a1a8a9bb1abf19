"""Score pads: the rows are exactly the game's score categories, one column per possible player,
a total row, the tie-breakers under it; read back from the PDF text."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
from reportlab.lib.rl_accel import fp_str

from cardforge.data.loading import check_game_data
from cardforge.games import all_games
from cardforge.markup import french
from cardforge.render.sheets.printables import build_printables
from cardforge.render.sheets.score_pads import natural_height, pad_layout, pad_margin, pads_per_sheet, tie_break_lines
from cardforge.settings import BuildSettings
from cardforge.units import mm

from printables_support import FIXTURES, GAME
from render_helpers import plain

GAMES = [*all_games(), GAME]


@pytest.fixture(scope="module")
def fixture_data():
    with pytest.MonkeyPatch.context() as mp:  # for this load only: later tests in the worker keep the cache
        mp.setenv("CARDFORGE_NO_CACHE", "1")
        data, problems = check_game_data(GAME, FIXTURES / "good")
    assert data is not None
    return data

GLYPH_ICONS = {"♚", "♪", "♬", "♯"}


def _pad_pdf(game, data, tmp_path, paper="a4"):
    # The pad reads only the game's metadata (and the data's version and colour): the fixture's
    # data stands in, so these tests do not depend on each game's card data being complete.
    entries = build_printables(game, data, BuildSettings(only=frozenset({"pads"}), paper=paper), tmp_path)
    [entry] = entries
    assert entry.kind == "pad" and entry.path == "score-pad.pdf" and entry.pages == 1
    return tmp_path / entry.path, entry


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_pad_rows_are_exactly_the_categories_and_one_column_per_player(game, fixture_data, tmp_path):
    path, entry = _pad_pdf(game, fixture_data, tmp_path)
    reader = PdfReader(path)
    assert len(reader.pages) == 1
    # glyph icons (♚, ♪…) in front of a row's label come out as lines of their own: drop them
    lines = [line.strip() for line in plain(reader.pages[0].extract_text()).splitlines()
             if line.strip() and line.strip() not in GLYPH_ICONS]
    labels = [c.label for c in game.categories]
    pads = 0
    for i, line in enumerate(lines):
        if line != f"Joueur {game.max_players}":
            continue
        pads += 1
        # the player columns, in order, right before
        assert lines[i - game.max_players + 1:i + 1] == [f"Joueur {n}" for n in range(1, game.max_players + 1)]
        end = lines.index("Total", i)
        assert lines[i + 1:end] == labels  # every category, in the engine's order, nothing else
        assert lines[end + 1] == tie_break_lines(game)[0]
    assert pads == entry.cards >= 1
    assert f"Joueur {game.max_players + 1}" not in lines
    assert lines.count(plain(french(f"{game.title} — feuille de score"))) == pads  # « Mine ! »
    assert lines.count("Date :") == pads


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_pad_geometry(game):
    width, height = mm(194), mm(140)
    layout = pad_layout(game, width, height)
    assert layout.columns == 1 + game.max_players
    xs = [layout.column_x(i) for i in range(layout.columns)]
    assert xs[0] == 0 and all(b > a for a, b in zip(xs, xs[1:]))
    assert layout.label_w + game.max_players * layout.col_w == pytest.approx(width)
    steps = [layout.row_top(i + 1) - layout.row_top(i) for i in range(len(game.categories))]
    assert steps == pytest.approx([layout.row_h] * len(game.categories))
    assert layout.row_h >= mm(7.5)  # room to write a score
    assert layout.height <= height + 0.01


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_several_pads_per_sheet_when_they_fit(game, paper):
    settings = BuildSettings(paper=paper)
    # the pads keep 5 mm from the paper's edge, and the printer margin with 0.5 mm to spare:
    # 5.5 mm on A4, 6.85 on Letter
    assert pad_margin(settings) == (5.5 if paper == "a4" else 6.85)
    usable = mm(settings.paper_mm[1] - 2 * pad_margin(settings))
    k = pads_per_sheet(game, usable)
    assert 1 <= k <= 4
    assert k * natural_height(game) <= usable
    if len(game.categories) <= 8:
        assert k >= 2  # a half page is enough for up to 8 rows


def test_tie_breakers_are_printed_in_order_or_shared():
    from cardforge.games import find_game

    assert tie_break_lines(find_game("maphr")) == [
        "Égalité : le plus riche l'emporte ; sinon, les joueurs à égalité partagent la place."]
    im = find_game("imperial_miners")
    line = tie_break_lines(im)[0]
    positions = [line.index(t.label) for t in im.tie_breakers]
    assert positions == sorted(positions)
    assert tie_break_lines(find_game("tunhell")) == ["Égalité : les joueurs à égalité partagent la place."]


def test_a_category_icon_is_drawn_beside_its_label(fixture_data, tmp_path):
    """The fixture's 'Pièces' row has the coin icon: one coin drawn on each pad. The sheet is
    one page, so the coin is drawn in place (a form for one page costs more than it saves):
    its gold disc (#f2c230) is filled once per pad, and no form is left."""
    path, entry = _pad_pdf(GAME, fixture_data, tmp_path)
    page = PdfReader(path).pages[0]
    assert "/XObject" not in page["/Resources"]
    content = page.get_contents().get_data().decode("latin-1")
    gold = fp_str(0xf2 / 255, 0xc2 / 255, 0x30 / 255) + " rg"  # as ReportLab writes it
    assert content.count(gold) == entry.cards
