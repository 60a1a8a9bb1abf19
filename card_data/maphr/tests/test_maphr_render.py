"""Les Mines de Maphr's card faces (card_data/maphr/templates/layout.yaml), read back from the built PDF:
250 fronts with their French text, no English field name, the tunnels of galleries and veins
opening on the right edges (so that neighbouring cards line up), and the one shared back."""

from __future__ import annotations

import math

import pypdf
import pypdfium2 as pdfium
import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.layout.boxes import LayoutLibrary
from cardforge.render.cards.decks import build_decks, template_folders
from cardforge.settings import BuildSettings

from render_helpers import MM, card_clips, form_count, page_texts_by_rect

GAME = find_game("maphr")
BLEED = 3.0
PER_PAGE = 6  # 70 × 70 mm + 3 mm bleed on portrait A4: 2 × 3

# the edges a tunnel opens on, as the layout draws each shape (card_data/maphr/templates/layout.yaml)
OPENINGS = {"straight": {"n", "s"}, "corner": {"s", "e"}, "tee": {"w", "e", "s"},
            "cross": {"n", "s", "e", "w"}, "dead-end": {"s"}}
FLOOR = (0xEF, 0xE3, 0xC8)  # the tunnel floor
ROCK = (0xBF, 0xAE, 0x93)   # the rock around it


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    data = load_game_data(GAME)
    out = tmp_path_factory.mktemp("maphr-render")
    result = build_decks(GAME, data, BuildSettings(out_dir=out, paper="a4", gutter_mm=0), out / GAME.id)
    pdf = out / GAME.id / "deck.pdf"
    return data, result, pdf, pypdf.PdfReader(pdf)


@pytest.fixture(scope="module")
def faces(deck) -> list[tuple[object, str, int, object]]:
    """(card, its face's text, page, trim rect in mm) for every printed card, in print order."""
    data, _, pdf, reader = deck
    out = []
    printed = iter(data.printed)
    for page in range(0, len(reader.pages), 2):
        rects = [c.trim(BLEED) for c in card_clips(reader.pages[page])]
        for rect, text in zip(rects, page_texts_by_rect(pdf, page, rects)):
            out.append((next(printed), " ".join(text.split()), page, rect))
    assert next(printed, None) is None
    return out


def test_pages_cards_and_layouts(deck):
    data, result, _, reader = deck
    assert [(e.path, e.kind, e.cards) for e in result.entries] == [("deck.pdf", "deck", 250)]
    fronts = math.ceil(250 / PER_PAGE)  # 42 sheets: 41 full, the last with 4 cards
    assert len(reader.pages) == result.entries[0].pages == 2 * fronts == 84
    assert [len(card_clips(reader.pages[i])) for i in (0, 1, 82, 83)] == [6, 6, 4, 4]
    library = LayoutLibrary(template_folders(GAME))
    for kind in data.meta.kinds.values():
        assert library.has(kind.layout), kind.layout
    assert result.warnings == []


def test_every_card_prints_its_name_and_values(faces):
    assert len(faces) == 250
    seen = {}
    for card, text, _, _ in faces:
        assert card.name.replace("\n", " ").split()[0] in text, (card.id, text)
        seen.setdefault(card.id, text)
    # an improvement: level, cost, VP, name, colour and its effect with the coin icon's number
    etayage = seen["etayage"]
    for piece in ("Étayage", "niveau", "I", "5", "1", "Aménagement rouge",
                  "Votre mine passe au niveau III pour 10", "au lieu de 30."):
        assert piece in etayage, (piece, etayage)
    # a vein: its yield
    assert "Exploitation" in seen["charbon-double"] and "2" in seen["charbon-double"]
    assert "Filon double" in seen["charbon-double"]
    # rulebook names
    assert "Bureau de l'ordination logique des tunnels" in seen["bureau-ordination-logique-tunnels"]
    assert "Aménagement gris" in seen["bureau-ordination-logique-tunnels"]
    # events: their kind and when they are played
    kinds = {card.kind: text for card, text, _, _ in faces}
    assert "Catastrophe" in kinds["catastrophe"] and "Immédiate" in kinds["catastrophe"]
    assert "Contrat" in kinds["contract"]
    assert "Gardez-la en main" in kinds["impediment"]


def test_no_english_field_names_on_faces(faces):
    english = ("shape", "provenance", "counts_as", "colour", "yield", "straight", "corner", "coal",
               "mithril ", "level", "effect", "improvement", "gallery", "vein")
    for card, text, _, _ in faces:
        lowered = text.lower()
        for word in english:
            assert word not in lowered.split() and f"**{word}" not in lowered, (card.id, word, text)


def _pixel(image, rect, fx, fy, page_h):
    """The colour at a point of a card given as fractions of its trim box (fy from the top)."""
    x, y, w, h = rect
    px = (x + fx * w) * MM
    py = page_h - (y + (1 - fy) * h) * MM  # PDF y up → image y down
    return image.getpixel((int(px), int(py)))[:3]


def test_tunnels_open_on_the_edge_midpoints_of_their_shape(deck, faces):
    """Galleries and veins are laid side by side: each tunnel leaves the card at the middle of
    exactly the edges its shape names, and every corner is rock, so any two cards line up."""
    _, _, pdf, _ = deck
    doc = pdfium.PdfDocument(str(pdf))
    checked = set()
    images = {}
    try:
        for card, _, page, rect in faces:
            if card.kind not in ("gallery", "vein") or card.id in checked:
                continue
            checked.add(card.id)
            if page not in images:
                images[page] = doc[page].render(scale=1).to_pil().convert("RGB")
            image, page_h = images[page], doc[page].get_height()
            edges = {"n": (0.5, 0.01), "s": (0.5, 0.99), "w": (0.01, 0.5), "e": (0.99, 0.5)}
            for edge, (fx, fy) in edges.items():
                colour = _pixel(image, rect, fx, fy, page_h)
                expected = FLOOR if edge in OPENINGS[card.shape] else ROCK
                assert max(abs(a - b) for a, b in zip(colour, expected)) <= 6, (card.id, card.shape, edge, colour)
            for corner in ((0.06, 0.3), (0.94, 0.3), (0.3, 0.94), (0.7, 0.94)):
                assert max(abs(a - b) for a, b in zip(_pixel(image, rect, *corner, page_h), ROCK)) <= 6, (
                    card.id, corner)
    finally:
        doc.close()
    assert {c.split("-")[0] for c in checked} >= {"galerie", "charbon", "or", "mithril"}


def test_one_back_drawn_once(deck):
    _, _, pdf, reader = deck
    back_rects = [c.trim(BLEED) for c in card_clips(reader.pages[1])]
    texts = [" ".join(t.split()) for t in page_texts_by_rect(pdf, 1, back_rects)]
    assert texts == ["Les Mines de Maphr"] * 6
    # the back is a form reused on every back page, not redrawn 250 times
    assert form_count(reader) < 250
