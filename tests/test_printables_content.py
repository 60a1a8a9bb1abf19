"""What the five games' boards, pads, aids and setup sheets say, read back from the PDFs of one
`cardforge build --only boards,pads,aids` of every game: the build summary's nouns, the rule
facts each aid must carry (worked out by hand from each game's card_data/<game>/RULES.md and the rulebooks), the
French labels of the setup sheets, and a few sizes (uniform track labels, card aids that grow
to fill their side)."""

from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game, game_ids
from cardforge.icons import ICONS
from cardforge.render.drawing.icons import has_drawing
from cardforge.render.sheets.setup_sheet import count_labels

from conftest import run_cli
from render_helpers import plain

GAMES = tuple(game_ids())


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One build of every game's printables; (output folder, summary printed on stdout)."""
    out = tmp_path_factory.mktemp("printables")
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("CARDFORGE_DATA", raising=False)
        # short-edge: the half-page aids' backs (two to a landscape sheet) are mirrored left to
        # right, not turned 180°, so their text reads back in order
        # A4: the counts below (Imperial Miners' pads: 4 to an A4 sheet, 3 to A4/Letter)
        r = run_cli("build", *GAMES, "--only", "boards,pads,aids", "--duplex", "short-edge", "-o", str(out),
                    "--paper", "a4")
    assert r.code == 0, r.err
    return out, r.out


def squashed(path) -> str:
    """The PDF's text without any whitespace."""
    document = pdfium.PdfDocument(str(path))
    return plain("".join("".join(page.get_textpage().get_text_range().split()) for page in document))


def manifest(folder) -> dict[str, dict]:
    return {f["path"]: f for f in json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["files"]}


def font_size_of(path, page: int, word: str) -> float:
    """The font size (pt) of the first character of ``word`` on ``page``."""
    text_page = pdfium.PdfDocument(str(path))[page].get_textpage()
    index = plain(text_page.get_text_range()).find(word)
    assert index >= 0, word
    return round(pdfium_raw.FPDFText_GetFontSize(text_page.raw, index), 2)


# --- the build summary -------------------------------------------------------------------------

@pytest.mark.slow
def test_summary_counts_boards_pads_aids_and_sheets_not_cards(built):
    out, summary = built
    lines = {}
    assert summary.splitlines()[0] == "paper: A4 paper, printer margin 5 mm"  # said once, first
    for line in summary.splitlines()[1:]:  # "maphr: OUT/maphr/boards.pdf (5 pages, 10 boards)"
        game, rest = line.split(": ", 1)
        path, counts = rest.split(" (", 1)
        lines[f"{game}/{Path(path).name}"] = counts
    assert lines["maphr/boards.pdf"] == "5 pages, 10 boards)"  # 10 clan boards, two to a sheet
    assert lines["maphr/score-pad.pdf"] == "1 page, 2 pads)"
    assert lines["maphr/aids.pdf"] == "6 pages, 5 aids)"  # 4 turn aids (2 sheets, duplex) + 1 card
    # setups for 2, 3 and 4 players: two columns a page, each setup whole in a column
    assert lines["maphr/setup.pdf"] == "2 pages, 3 setups)"
    assert lines["tunhell/boards.pdf"] == "1 page, 1 board)"  # singular
    assert lines["tunhell/setup.pdf"] == "3 pages, 6 setups)"  # 2 modes × 3 counts
    assert lines["cristaux/setup.pdf"] == "6 pages, 12 setups)"  # 3 modes × 4 counts, was 12 pages
    assert lines["imperial_miners/score-pad.pdf"] == "1 page, 4 pads)"
    assert " cards)" not in summary and " card)" not in summary


def test_manifest_counts_match_the_summary(built):
    out, _ = built
    files = manifest(out / "maphr")
    assert [(files[p]["kind"], files[p]["pages"], files[p]["cards"]) for p in
            ("boards.pdf", "score-pad.pdf", "aids.pdf", "setup.pdf")] == [
        ("board", 5, 10), ("pad", 1, 2), ("aid", 6, 5), ("setup", 2, 3)]


def test_aid_backs_file_counts_no_fronts(cli, tmp_path):
    r = cli("build", "mine_all_mine", "--only", "aids", "--duplex", "none", "-o", str(tmp_path))
    assert r.code == 0, r.err
    files = manifest(tmp_path / "mine_all_mine")
    assert (files["aids.pdf"]["pages"], files["aids.pdf"]["cards"]) == (2, 4)  # 4 aids, 2 per sheet
    assert (files["aids-backs.pdf"]["pages"], files["aids-backs.pdf"]["cards"]) == (2, 0)  # as deck backs
    assert "aids-backs.pdf (2 pages)" in r.out


# --- the aids' content, game by game ----------------------------------------------------------

def test_maphr_aid_die_table_and_mine_levels(built):
    out, _ = built
    text = squashed(out / "maphr" / "aids.pdf")
    # «Phase I : Pioche»: six faces, by their names in draw_modes.yaml
    for name in ("Piochededéfausse", "Enchèrecachée", "Piocheetdons", "Piocheetvoisins", "Tourdetable",
                 "Selonleniveaudemine"):
        assert name in text
    assert "niveauI4" in text and "niveauIV1" in text  # face 6: 4 cards at level I … 1 at IV
    # «Phase II»: a second action costs 3 / 2 / 1 / 0 discarded cards at level I / II / III / IV
    assert [text.count(f"défausser{n}") for n in (3, 2, 1)] == [4, 4, 4]  # on each of the 4 aids
    assert "gratuite" in text
    assert "Étayage" in text and "Bureaudel'ordinationlogiquedestunnels" in text
    boards = squashed(out / "maphr" / "boards.pdf")
    data_clans = [c.name for c in load_game_data(find_game("maphr")).sections["clans"]]
    assert len(data_clans) == 10
    for name in data_clans:
        assert "".join(name.split()) in boards


def test_tunhell_aid_lists_each_dwarf_type_with_its_count(built):
    out, _ = built
    text = squashed(out / "tunhell" / "aids.pdf")
    # card_data/tunhell/RULES.md: warriors 7+5+4+2, diggers 4+5+4+4+1+1, scouts 2+3, blasters 2
    for label in ("Guerrier18cartes", "Piocheur19cartes", "Éclaireur5cartes", "Dynamiteur2cartes"):
        assert text.count(label) == 4, label  # one aid per player, up to 4
    assert "TouslesGuerrierssontdéfaussés" in text


def test_mine_all_mine_aid_phases_and_worked_examples(built):
    out, _ = built
    text = squashed(out / "mine_all_mine" / "aids.pdf")
    for phase in ("Assemblezvotreflotte", "Fixezl'ordred'arrivée", "Extrayezlesressources",
                  "Découvrezunnouveausystème"):
        assert phase in text
    assert "redistribuezlescartesplanète" in text
    # speeds 9, 5, 5, 3: 9 − 5 = 4 ≥ 4 skips «Deuxième»; the tied 5s share «Troisième»; 5 − 3 = 2
    assert "«Deuxième»restevide(9−5=4);BenetCy(5),àégalité,partagent«Troisième»;Dora(3)arrivesur«Quatrième»" \
        in text
    # turns of 2, 3, 3: Ana alone takes 2; Ana (attack 1) flees from Ben (2), Ben takes 3 (1 cargo
    # left); Ben takes 1 more, 2 are lost → Ana 2, Ben 4
    assert "Total:Ana2points,Ben4points." in text
    board = squashed(out / "mine_all_mine" / "boards.pdf")
    assert "«Deuxième»restevide(9−5=4)" in board


def test_cristaux_aid_medallions_schools_and_board_ramekins(built):
    out, _ = built
    text = squashed(out / "cristaux" / "aids.pdf")
    assert "6pointsaustrictpremier+2parlogod'avance" in text
    assert "12points+1parlogod'avance" in text
    assert "2,4,7,9,12,14pour1à6cristaux(+2ensuite)" in text  # the Calices
    assert "3ouplus,lejetonlogobonus(saufinitiation)" in text
    board = squashed(out / "cristaux" / "boards.pdf")
    assert "Ramequins:6cristauxeninitiation,7cristauxenclassique,8cristauxenavancé." in board


def test_imperial_miners_solo_card_has_every_grade_and_fills_its_side(built):
    out, _ = built
    path = out / "imperial_miners" / "aids.pdf"
    text = squashed(path)
    for span, grade in (("moinsde35", "Jeunepioche"), ("35à45", "Responsabledessous-sols"),
                        ("46à55", "Spécialistedesmines"), ("56à60", "Prodestunnels"),
                        ("61à65", "Géologuedesabîmes"), ("66etplus", "Monarquedesprofondeurs")):
        assert span in text and grade in text
    pages = len(pdfium.PdfDocument(str(path)))
    size = font_size_of(path, pages - 2, "Jeune")  # the card's front, before its blank back page
    assert 6.5 * 1.25 < size <= 9.0  # grown past the old 125 % cap, up to the 9 pt a card may reach


# --- setup sheets ------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", GAMES)
def test_every_setup_number_has_a_french_label(game_id):
    game = find_game(game_id)
    labels = count_labels(game)
    for mode in game.modes:
        for players in range(game.min_players, game.max_players + 1):
            for key in game.setup_counts(players, mode, {}):
                assert key in labels, f"{game_id}: {key}"


def test_setup_sheet_prints_the_labels_not_the_keys(built):
    out, _ = built
    text = squashed(out / "maphr" / "setup.pdf")
    assert "Piècesparjoueur8" in text and "Limitedecartesenmain6" in text
    assert "Galeriesetfilonspourfinir(nainsgris:2demoins)11" in text  # 4 players: 11
    assert "coins" not in text and "galleries" not in text


# --- drawing -----------------------------------------------------------------------------------

def test_track_spaces_share_one_label_size(built):
    out, _ = built
    path = out / "mine_all_mine" / "boards.pdf"
    sizes = {font_size_of(path, 0, word) for word in ("Premier", "Deuxième", "Quatrième", "Sixième")}
    assert len(sizes) == 1


def test_every_icon_has_a_drawing():
    """No icon falls back to the lettered disc (♬ and ♯ did: a comment swallowed them)."""
    assert [name for name in ICONS if not has_drawing(name)] == []
