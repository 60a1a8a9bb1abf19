"""Building boards, aids and setup sheets: what is declared appears in the PDF, text that does
not fit fails naming every board/aid and zone, builds are reproducible, backs land behind."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from cardforge.data.loading import check_game_data
from cardforge.errors import RenderError
from cardforge.render.sheets.printables import build_printables, collect
from cardforge.render.sheets.setup_sheet import render_setup_sheet
from cardforge.render.sheets.sheets import back_slot, plan_sheet
from cardforge.settings import BuildSettings
from cardforge.units import mm

from printables_support import FIXTURES, GAME, HOOKS, use_hooks
from render_helpers import plain, text_in

A4 = "a4"  # the fixture's boards and aids are laid out for A4 (its zones' text fits that page)
BOARDS_AIDS = frozenset({"boards", "aids"})


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch):
    monkeypatch.setenv("CARDFORGE_NO_CACHE", "1")


def load(kind: str):
    data, problems = check_game_data(GAME, FIXTURES / kind)
    assert data is not None and not [p for p in problems if not p.is_warning]
    return data


def text_of(path) -> str:
    return plain("\n".join(page.extract_text() for page in PdfReader(path).pages))


def squash(text: str) -> str:
    """Without whitespace: pypdf drops the spaces of text turned 180° (backs on a landscape
    sheet are)."""
    return "".join(text.split())


def test_every_board_and_aid_declared_appears(monkeypatch, tmp_path):
    use_hooks(monkeypatch)
    data = load("good")
    entries = {e.path: e for e in build_printables(GAME, data, BuildSettings(paper=A4, only=BOARDS_AIDS), tmp_path)}
    assert set(entries) == {"boards.pdf", "aids.pdf", "setup.pdf"}
    boards = text_of(tmp_path / "boards.pdf")
    for board in data.sections["boards"]:
        assert board.title in boards
        for zone in board.zones:
            assert zone.title is None or zone.title in boards
    assert "Sous-titre d'essai" in boards
    assert "Rejouez" in boards  # the generated zone, from the game's hooks
    aids = squash(text_of(tmp_path / "aids.pdf"))
    for aid in data.sections["aids"]:
        assert squash(aid.title) in aids
    assert "Tables" in aids and "Finduverso." in aids and "Piochez" in aids
    # counts: 2 half-page boards on one sheet; 3 résumés (per player) + 2 cards
    assert (entries["boards.pdf"].pages, entries["boards.pdf"].cards) == (1, 2)
    assert entries["aids.pdf"].cards == 3 + 2


def test_aid_pages_and_backs_follow_the_duplex_setting(monkeypatch, tmp_path):
    use_hooks(monkeypatch)
    data = load("good")
    # long-edge duplex: each front page is followed by its back page
    settings = BuildSettings(paper=A4, only=frozenset({"aids"}))
    [aids, _setup] = build_printables(GAME, data, settings, tmp_path / "duplex")
    half = plan_sheet((148.5, 210.0), settings)  # two half-page aids per A4 sheet
    card = plan_sheet((63.0, 88.0), settings)
    fronts = -(-3 // half.per_sheet) + -(-2 // card.per_sheet)
    assert aids.pages == 2 * fronts
    reader = PdfReader(tmp_path / "duplex" / "aids.pdf")
    texts = [squash(plain(p.extract_text())) for p in reader.pages]
    assert "Résumédutour" in texts[0] and "Tables" in texts[1] and "Résumédutour" not in texts[1]
    # --duplex none: the backs go to their own file
    settings = BuildSettings(paper=A4, only=frozenset({"aids"}), duplex="none")
    entries = {e.path: e for e in build_printables(GAME, data, settings, tmp_path / "simplex")}
    assert entries["aids.pdf"].pages == fronts and entries["aids-backs.pdf"].pages == fronts
    assert "Tables" in squash(text_of(tmp_path / "simplex" / "aids-backs.pdf"))


def test_backs_mirror_the_fronts():
    settings = BuildSettings(paper=A4)
    plan = plan_sheet((63.0, 88.0), settings)
    pw, ph = plan.page
    iw, ih = plan.item
    for i, (x, y) in enumerate(plan.slots):  # portrait sheet, long edge: left and right swap
        assert back_slot(plan, i, settings) == pytest.approx((pw - x - iw, y, False))
    short = BuildSettings(paper=A4, duplex="short-edge", back_offset_mm=(1.0, -2.0))
    for i, (x, y) in enumerate(plan.slots):  # short edge: top and bottom swap, turned, then the offset
        assert back_slot(plan, i, short) == pytest.approx((x + mm(1.0), ph - y - ih - mm(2.0), True))
    halves = plan_sheet((148.5, 210.0), settings)  # landscape sheet, long edge: top and bottom swap
    assert back_slot(halves, 0, settings) == pytest.approx((0.0, 0.0, True))


@pytest.mark.parametrize("size, paper, per_sheet, page, crop", [
    ((210.0, 297.0), "a4", 1, (210.0, 297.0), False),  # a page: alone, no crop marks
    ((148.5, 210.0), "a4", 2, (297.0, 210.0), False),  # half pages side by side on a landscape sheet
    ((210.0, 148.5), "a4", 2, (210.0, 297.0), False),  # or stacked on a portrait one
    ((190.0, 130.0), "a4", 2, (210.0, 297.0), True),  # a clan board: two per sheet, in the margins
    ((63.0, 88.0), "a4", 9, (210.0, 297.0), True),  # 3 × 3 portrait
    # letter: 3 × 3 portrait, the items 6.85 mm (printer margin 6.35 + 0.5) from the edge: 3 × 88 ≤ 265.7
    ((63.0, 88.0), "letter", 9, (215.9, 279.4), True),
])
def test_sheet_plans(size, paper, per_sheet, page, crop):
    settings = BuildSettings(paper=paper)
    plan = plan_sheet(size, settings)
    assert plan.per_sheet == per_sheet
    assert plan.page == pytest.approx((mm(page[0]), mm(page[1])))
    for x, y in plan.slots:  # every item on the sheet; inside the printable area when imposed
        inner = mm(settings.printer_margin + 0.5) if plan.crop_marks else 0.0
        assert x >= inner - 0.01 and y >= inner - 0.01
        assert x + plan.item[0] <= plan.page[0] - inner + 0.01 and y + plan.item[1] <= plan.page[1] - inner + 0.01
    assert plan.crop_marks == crop


def test_text_that_does_not_fit_fails_naming_every_board_aid_and_zone(monkeypatch, tmp_path):
    use_hooks(monkeypatch)
    data = load("overflow")
    with pytest.raises(RenderError) as info:
        build_printables(GAME, data, BuildSettings(paper=A4), tmp_path)
    shown = [str(p) for p in info.value.problems]
    boards = "tests/fixtures/printables/overflow/printables_fixture/boards.yaml"
    aids = "tests/fixtures/printables/overflow/printables_fixture/aids.yaml"
    assert len(shown) == 3
    assert shown[0].startswith(f"{boards}: board 'plateau-serre': zone 'petite': text does not fit (needs ")
    assert shown[1].startswith(f"{boards}: board 'plateau-serre': zone 'minuscule': text does not fit (needs ")
    assert shown[2].startswith(f"{aids}: aid 'aide-bavarde': front: text does not fit (needs ")
    assert all(s.endswith("at the 6 pt floor)") for s in shown)  # rules text: 6 pt at least
    assert "zone 'correcte'" not in info.value.render()
    assert list(tmp_path.iterdir()) == []  # nothing written, not even the pads


def test_unknown_generated_source_is_named(monkeypatch, tmp_path):
    use_hooks(monkeypatch, hooks=None)  # a game without printables.py
    data = load("good")
    with pytest.raises(RenderError) as info:
        build_printables(GAME, data, BuildSettings(paper=A4, only=BOARDS_AIDS), tmp_path)
    shown = [str(p) for p in info.value.problems]
    where = "tests/fixtures/printables/good/printables_fixture"
    assert shown == [
        f"{where}/boards.yaml: board 'plateau-flux': zone 'insere'[0].source: unknown source 'table-du-jeu' "
        "(this game provides: none — the game has no printables.py blocks())",
        f"{where}/aids.yaml: aid 'resume': back[0].source: unknown source 'table-du-jeu' "
        "(this game provides: none — the game has no printables.py blocks())",
    ]


def test_duplicate_ids_between_data_and_code(monkeypatch):
    data = load("good")
    again = data.sections["boards"][0]
    use_hooks(monkeypatch, hooks=type(HOOKS)(boards=lambda data: [again], blocks=HOOKS.blocks))
    found = collect(GAME, data)
    assert [str(p) for p in found.problems] == [
        "the rules of printables_fixture: board 'plateau-grille': id: duplicate board id "
        "'plateau-grille' (also in tests/fixtures/printables/good/printables_fixture/boards.yaml)"]


def test_builds_are_byte_identical(monkeypatch, tmp_path):
    use_hooks(monkeypatch)
    data = load("good")
    settings = BuildSettings(paper=A4)
    first = build_printables(GAME, data, settings, tmp_path / "a")
    second = build_printables(GAME, data, settings, tmp_path / "b")
    assert [e.sha256 for e in first] == [e.sha256 for e in second]
    for e in first:
        assert (tmp_path / "a" / e.path).read_bytes() == (tmp_path / "b" / e.path).read_bytes()


def test_fonts_are_embedded(monkeypatch, tmp_path):
    use_hooks(monkeypatch)
    build_printables(GAME, load("good"), BuildSettings(paper=A4, only=frozenset({"boards"})), tmp_path)
    page = PdfReader(tmp_path / "boards.pdf").pages[0]
    fonts = page["/Resources"]["/Font"]
    for ref in fonts.values():
        font = ref.get_object()
        descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"] if "/DescendantFonts" in font \
            else font.get("/FontDescriptor")
        assert descriptor is not None and "/FontFile2" in descriptor.get_object()


def test_setup_sheet_for_a_player_count(tmp_path):
    data = load("good")
    result = {"game": GAME.id, "player_count": 3, "mode": "standard",
              "counts": GAME.setup_counts(3, "standard", {}),
              "steps": GAME.setup_steps(3, "standard", {}, GAME.setup_counts(3, "standard", {})),
              "deal": {"seed": 42, "hands": {"Joueur 1": ["une-carte"]}, "first_player": "Joueur 2"}}
    path = tmp_path / "sheet.pdf"
    assert render_setup_sheet(GAME, data, result, path) == 1
    text = text_of(path)
    assert "Jeu d'essai — mise en place" in text and "3 joueurs" in text
    assert "Donnez 5 cartes à chacun des 3 joueurs." in text
    assert "Chaque joueur prend 5 pièces." in text  # the number for this count (2 + players)
    assert "Distribution tirée (graine 42)" in text and "une-carte" in text


def test_setup_sheets_in_a_build_share_pages(monkeypatch, tmp_path):
    use_hooks(monkeypatch)
    entries = {e.path: e for e in build_printables(GAME, load("good"), BuildSettings(paper=A4, only=frozenset({"aids"})),
                                                   tmp_path)}
    # 2 and 3 players, each a third of a column high: both in the left column of one page, the
    # footer naming both
    assert entries["setup.pdf"].kind == "setup" and (entries["setup.pdf"].pages, entries["setup.pdf"].cards) == (1, 2)
    reader = PdfReader(tmp_path / "setup.pdf")
    page = plain(reader.pages[0].extract_text())
    assert "Chaque joueur prend 4 pièces." in page and "Chaque joueur prend 5 pièces." in page
    assert "mise en place · 2 joueurs, 3 joueurs" in page
    assert "Distribution" not in page  # no random deal in a build
    # the left column (12 mm margin, (186 - 8) / 2 = 89 mm wide) holds both
    left = text_in(tmp_path / "setup.pdf", 0, (11, 20, 91, 250))
    assert "4 pièces" in left and "5 pièces" in left


def test_setup_sheet_names_the_mode_as_game_yaml_does(cli, tmp_path):
    """The mode comes from game.yaml's label (TunHell's « Partie complète », not a label the core
    held for it: « jeu complet »)."""
    for mode, label in (("full", "Partie complète"), ("initiation", "Partie d'initiation")):
        path = tmp_path / f"tunhell-{mode}.pdf"
        r = cli("setup", "tunhell", "--players", "3", "--mode", mode, "--seed", "7", "--pdf", str(path))
        assert r.code == 0, r.err
        text = plain(text_of(path))
        assert f"3 joueurs · {label}" in text, text[:200]
        assert "jeu complet" not in text and f"mode {label.lower()}" not in text


def test_setup_sheet_of_a_designers_modes(cli, tmp_path):
    """A game of one's own with ``expert: {label: Expert}`` prints « Expert » (it printed
    « mode expert »); a mode without a label prints its id."""
    folder = tmp_path / "mon-jeu"
    assert cli("new", folder, "--lang", "fr").code == 0
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8") + "\nmodes:\n  normal: {label: Partie normale}\n"
                         "  expert: {label: Expert}\n  tres_dur: {}\ndefault_mode: normal\n", encoding="utf-8")
    for mode, shown in (("expert", "Expert"), ("normal", "Partie normale"), ("tres_dur", "Tres dur")):
        path = tmp_path / f"{mode}.pdf"
        r = cli("setup", folder, "--players", "2", "--mode", mode, "--pdf", str(path))
        assert r.code == 0, r.err
        text = plain(text_of(path))
        assert f"2 joueurs · {shown}" in text, text[:200]
        assert f"mode {mode}" not in text


def test_setup_command_prints_the_sheet(cli, tmp_path):
    path = tmp_path / "tunhell-3.pdf"
    r = cli("setup", "tunhell", "--players", "3", "--seed", "7", "--pdf", str(path))
    assert r.code == 0, r.err
    text = text_of(path)
    assert "TunHell — mise en place" in text and "3 joueurs" in text
    steps = cli("setup", "tunhell", "--players", "3", "--seed", "7", "--json").json["steps"]
    for step in steps:
        assert step.split()[0] in text
