"""TunHell's card faces and backs (card_data/tunhell/templates/layout.yaml), read back from the built PDF:
each card's French text inside its own trim box, no English field name on any face, the layouts
named in deck.yaml found, one back design per deck, page counts."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pypdf
import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.layout.boxes import LayoutLibrary
from cardforge.render.cards.decks import build_decks, template_folders
from cardforge.settings import BuildSettings

from render_helpers import card_clips, page_texts_by_rect

GAME = find_game("tunhell")
BLEED = 3.0
PER_PAGE = 8  # separate bleed, 8 mm margins: 56 × 88 mm + 3 mm bleed on landscape A4: 4 × 2


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    data = load_game_data(GAME)
    out = tmp_path_factory.mktemp("tunhell-render")
    result = build_decks(GAME, data, BuildSettings(out_dir=out, paper="a4", gutter_mm=0, margin_mm=8), out / GAME.id)
    pdf = out / GAME.id / "deck.pdf"
    reader = pypdf.PdfReader(pdf)
    return data, result, pdf, reader


def cell_texts(pdf: Path, reader: pypdf.PdfReader, page: int) -> list[str]:
    """The text inside each card's trim box on a page, in the order the cards were placed."""
    rects = [c.trim(BLEED) for c in card_clips(reader.pages[page])]
    return [" ".join(t.split()) for t in page_texts_by_rect(pdf, page, rects)]


@pytest.fixture(scope="module")
def faces(deck) -> dict[str, str]:
    """Card id → the text of its face (the first copy printed), from every front page."""
    data, _, pdf, reader = deck
    texts = [t for page in range(0, len(reader.pages), 2) for t in cell_texts(pdf, reader, page)]
    printed = data.printed
    assert len(texts) == len(printed) == 110
    out: dict[str, str] = {}
    for card, text in zip(printed, texts):
        out.setdefault(card.id, text)
    return out


def test_pages_and_cards(deck):
    data, result, _, reader = deck
    assert [(e.path, e.kind, e.cards) for e in result.entries] == [("deck.pdf", "deck", 110)]
    fronts = math.ceil(110 / PER_PAGE)  # 14 front pages, each followed by its back page
    assert len(reader.pages) == result.entries[0].pages == 2 * fronts == 28
    assert [len(card_clips(reader.pages[i])) for i in (0, 1, 26, 27)] == [8, 8, 6, 6]


def test_every_kind_and_back_has_its_own_layout_and_no_warning(deck):
    data, result, _, _ = deck
    library = LayoutLibrary(template_folders(GAME))
    assert {k: s.layout for k, s in data.meta.kinds.items()} == {
        "dwarf": "nain", "mine": "mine", "end_of_mine": "fin-de-mine", "trophy": "trophee"}
    for kind, spec in data.meta.kinds.items():
        assert library.has(spec.layout), kind
    assert {b: s.layout for b, s in data.meta.backs.items()} == {
        "nain": "dos", "mine": "dos", "fin-de-mine": "dos", "trophee": "dos"}
    assert library.has("dos")
    assert library.problems == []
    assert result.warnings == []  # no "layout … not found", no safe-zone warning


def test_dwarves_print_their_values_and_marks(faces):
    g1 = faces["guerrier-1"]
    assert g1.startswith("Guerrier Nain Posez-le devant la mine")
    assert "1 Valeur de combat À poser dès son recrutement" in g1
    g4 = faces["guerrier-4"]
    assert "4 Valeur de combat Fier" in g4 and "recrutement" not in g4
    assert "Fier : vos autres Guerriers de cette mine sont aussitôt défaussés" in g4
    assert "2 Valeur de combat" in faces["guerrier-2"] and "recrutement" not in faces["guerrier-2"]
    # a Piocheur: dig capacity and combat bonus, side by side
    assert "4 Pioche +3 Bonus" in faces["piocheur-4-3"]
    assert "2 Pioche 0 Bonus À poser dès son recrutement" in faces["piocheur-2-0"]
    assert faces["piocheur-1-2"].endswith("1 Pioche +2 Bonus")  # no mark
    assert "Piochez une à une autant de cartes que sa capacité" in faces["piocheur-2-5"]
    assert "5 Valeur d'exploration" in faces["eclaireur-5"]
    assert "3 Valeur d'exploration À poser dès son recrutement" in faces["eclaireur-3"]
    assert "Tous les Guerriers sont défaussés, même les vôtres." in faces["dynamiteur"]


def test_mine_cards_print_combat_points_and_marks(faces):
    assert faces["dragon"].startswith("Dragon Mine · Rencontre")
    assert "6 Combat 6 Points" in faces["dragon"]
    assert "1 Combat 0 Point" in faces["rat"]
    assert "Combat obligatoire : défaussez des Guerriers de cette mine totalisant au moins 1" in faces["rat"]
    assert "1 Point de victoire" in faces["tresor"]
    assert "Aucun point de victoire" in faces["terre"]
    for base in ("terre", "tresor", "rat", "gobelin", "orc", "troll", "dragon"):
        assert "Partie complète" not in faces[base], base
        assert "Rejoint votre main" not in faces[base], base
    # the (+) cards of the full game, and those that join the hand
    plus = ("machin", "dwouarf", "nawak", "vieille-pioche", "biere-du-courage", "anneau-unique", "coeur-d-or",
            "fantome-de-grodur")
    for card_id in plus:
        assert faces[card_id].endswith("+ Partie complète"), card_id  # the (+) mark, bottom left
    for card_id in ("machin", "dwouarf", "nawak", "vieille-pioche", "biere-du-courage", "anneau-unique"):
        assert "Rejoint votre main" in faces[card_id], card_id
    assert "Rejoint votre main" not in faces["coeur-d-or"]
    assert "4 Se joue comme un Piocheur (4 )" in faces["machin"]  # the icon draws, it has no text
    assert "Se joue comme un Guerrier" in faces["dwouarf"]
    assert "2 Points de victoire (en main)" in faces["anneau-unique"]
    assert "3 Points de victoire" in faces["coeur-d-or"]
    assert faces["nawak"].startswith("Nawak, l'épée de bravoure Mine · Trouvaille")


def test_end_of_mine_cards_and_trophies(faces):
    assert faces["porte-de-derriere"].startswith("La Porte de derrière Fin de la mine TunHell")
    assert "1 Point de victoire" in faces["porte-de-derriere"]
    assert "La Salle du trône Fin de la mine" in faces["salle-du-trone"]  # after its crown, ♚
    assert "3 Points de victoire" in faces["salle-du-trone"]
    assert faces["demon-des-profondeurs"].startswith("Le Démon des profondeurs Fin de la mine · Rencontre")
    assert "7 Combat 7 Points" in faces["demon-des-profondeurs"]
    assert "5 Combat 5 Points" in faces["grosse-araignee-poilue"]
    for card_id in ("porte-de-derriere", "salle-du-trone", "grosse-araignee-poilue", "demon-des-profondeurs"):
        assert "Partie complète" not in faces[card_id]
    assert faces["employe-du-mois"].startswith("Employé du mois Trophée Au premier joueur qui ramasse")
    assert faces["employe-du-mois"].endswith("1 Point de victoire Le plus de cartes « Terre »")
    assert faces["deratiseur"].endswith("2 Points de victoire Le plus de cartes « Rat »")


#: card fields that are not French words: none may be printed on a face
ENGLISH = re.compile(r"\b(type|played_on_recruit|proud|dig|explore|encounter|vp|goes_to|plays_as|most|text|"
                     r"provenance|copies|kind|loot|hand|discard|mine_card|end_of_mine|trophy|dwarf|true|false|"
                     r"None)\b")


def test_no_english_field_name_on_any_face(faces):
    for card_id, text in faces.items():
        assert not ENGLISH.search(text), (card_id, text)
        # the generic layout printed "combat 1 · bonus 2": a field name before its value
        assert not re.search(r"\b(combat|bonus)\s+\d", text), (card_id, text)


def test_backs_name_their_deck(deck):
    data, _, pdf, reader = deck
    assert [sorted(b.split()) for b in cell_texts(pdf, reader, 1)] == [["Nain", "TunHell"]] * 8
    # the last sheet: 4 end-of-mine cards and 2 trophies; on the back page, landscape long-edge,
    # the backs are turned 180° and mirrored top to bottom, but each sits behind its own front
    fronts = cell_texts(pdf, reader, 26)
    backs = cell_texts(pdf, reader, 27)
    names = ["La Porte de derrière", "La Salle du trône", "La Grosse Araignée poilue", "Le Démon des profondeurs",
             "Employé du mois", "Dératiseur"]
    assert [name in front for name, front in zip(names, fronts)] == [True] * 6
    # pdfium reads the turned text word by word from the end: compare the words
    assert [sorted(b.split()) for b in backs] == [sorted(f"TunHell {t}".split())
                                                   for t in ["Fin de Mine"] * 4 + ["Trophée"] * 2]
    back_of_mine = cell_texts(pdf, reader, 13)  # behind the seventh front page: Terre cards
    assert {" ".join(sorted(b.split())) for b in back_of_mine} == {"Mine TunHell"}
