"""Imperial Miners' blank mine-card frames (card_data/imperial_miners/templates/layout.yaml), read back from
the built PDF: the parts to fill (name, cost, factions, effects, level) in French inside each
card's trim box, the cost printed only when the level fixes it, the half-carts on the edges the
data names, one back per level deck, no English field name, page counts."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pypdf
import pytest
from pypdf.generic import ContentStream

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.layout.boxes import LayoutLibrary
from cardforge.render.cards.decks import build_decks, template_folders
from cardforge.resources import shipped_data_root
from cardforge.settings import BuildSettings

from render_helpers import MM, card_blocks, card_clips, page_texts_by_rect

GAME = find_game("imperial_miners")
BLEED = 3.0
PER_PAGE = 8  # poker cards (63 × 88 mm) + 3 mm bleed on landscape A4: 4 × 2
COIN = (44.3, 6.9, 11.6, 11.6)  # the cost coin, mm from the trim's top-left corner
LEVEL_TAB = (24.0, 75.0, 15.0, 5.6)  # the level numeral
CART = (10.0, 6.6)  # a half-cart's bucket: 7 mm on the card + 3 mm of bleed, 6.6 mm high


def build(data_root: Path | None, out: Path):
    data = load_game_data(GAME, root=data_root)
    result = build_decks(GAME, data, BuildSettings(out_dir=out, paper="a4", gutter_mm=0), out / GAME.id)
    pdf = out / GAME.id / "deck.pdf"
    return data, result, pdf, pypdf.PdfReader(pdf)


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    return build(None, tmp_path_factory.mktemp("imperial-render"))


def in_trim(clip, box):
    """A box given from the trim's top-left corner (y down), as a page rectangle (y up)."""
    x, y, w, h = clip.trim(BLEED)
    bx, by, bw, bh = box
    return (x + bx, y + h - by - bh, bw, bh)


def cells(pdf: Path, reader: pypdf.PdfReader, page: int, box=None) -> list[str]:
    clips = card_clips(reader.pages[page])
    rects = [c.trim(BLEED) if box is None else in_trim(c, box) for c in clips]
    return [" ".join(t.split()) for t in page_texts_by_rect(pdf, page, rects)]


def faces(data, pdf, reader, box=None) -> dict[str, str]:
    """Card id → the text of its first copy's face (or of one box of it)."""
    texts = [t for page in range(0, len(reader.pages), 2) for t in cells(pdf, reader, page, box)]
    assert len(texts) == len(data.printed)
    out: dict[str, str] = {}
    for card, text in zip(data.printed, texts):
        out.setdefault(card.id, text)
    return out


def half_carts(reader: pypdf.PdfReader) -> tuple[int, int]:
    """Half-cart buckets drawn on the left and on the right edge, over every distinct card
    drawn: a card printed in several copies is drawn once and its operators repeated for each
    copy, so identical card blocks on the pages (``q … Q`` at the page's level, without their
    position) count once; forms (frames) are visited once each."""
    left = right = 0
    seen = set()

    def count(operations):
        nonlocal left, right
        for args, op in operations:
            if op != b"re":
                continue
            x, _, w, h = (float(a) / MM for a in args)
            if abs(w - CART[0]) < 0.01 and abs(h - CART[1]) < 0.01:
                if abs(x + BLEED) < 0.01:
                    left += 1
                elif abs(x - (63 - 7)) < 0.01:
                    right += 1

    def visit(resources):
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        for ref in (xobjects.get_object().values() if xobjects is not None else ()):
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            xo = ref.get_object()
            count(ContentStream(xo, reader).operations)
            visit(xo.get("/Resources"))

    blocks = set()
    for page in reader.pages:
        visit(page.get("/Resources"))
        for key in card_blocks(page):
            if key not in blocks:
                blocks.add(key)
                count([(list(a), o) for a, o in key])
    return left, right


def test_pages_and_layouts(deck):
    data, result, _, reader = deck
    assert [(e.path, e.cards) for e in result.entries] == [("deck.pdf", 32)]
    # 8 frames per level: one full sheet (and its backs) per level, levels never mixed on a sheet
    assert len(reader.pages) == result.entries[0].pages == 2 * math.ceil(32 / PER_PAGE) == 8
    assert [len(card_clips(reader.pages[i])) for i in range(8)] == [8] * 8
    library = LayoutLibrary(template_folders(GAME))
    assert data.meta.kinds["template"].layout == "carte-vierge" and library.has("carte-vierge")
    assert {b.layout for b in data.meta.backs.values()} == {"dos-niveau"} and library.has("dos-niveau")
    assert library.problems == [] and result.warnings == []


@pytest.mark.slow
def test_each_frame_shows_the_parts_to_fill(deck):
    data, _, pdf, reader = deck
    text = faces(data, pdf, reader)
    for card_id, level, rule in [("vierge-niveau-i", "I", "Les cartes I sont gratuites."),
                                 ("vierge-niveau-ii", "II", "Les cartes II coûtent 2 ."),  # 2 :coin:
                                 ("vierge-niveau-iii", "III", "Coût : de 0 à 13 (à écrire dans la case)."),
                                 ("vierge-niveau-iv", "IV", "Les cartes IV sont gratuites.")]:
        face = text[card_id]
        assert face.startswith("Nom de la carte"), face
        for part in ("coût faction faction", rule, "Illustration", "Effet 1 — ou — Effet 2", "Imperial Miners",
                     "v0.1 · "):
            assert part in face, (card_id, part)
    # the cost printed in the coin when the level fixes it; blank for level III, to be written
    assert faces(data, pdf, reader, COIN) == {"vierge-niveau-i": "0", "vierge-niveau-ii": "2",
                                              "vierge-niveau-iii": "", "vierge-niveau-iv": "0"}
    assert faces(data, pdf, reader, LEVEL_TAB) == {"vierge-niveau-i": "I", "vierge-niveau-ii": "II",
                                                   "vierge-niveau-iii": "III", "vierge-niveau-iv": "IV"}


ENGLISH = re.compile(r"\b(level|cost|factions|half_carts|effects|text|template|kind|LR|None|provenance|copies)\b")


def test_no_english_field_name_on_a_face(deck):
    data, _, pdf, reader = deck
    for card_id, face in faces(data, pdf, reader).items():
        assert not ENGLISH.search(face), (card_id, face)


def test_half_carts_factions_and_effects_follow_the_data(deck, tmp_path):
    assert half_carts(deck[3]) == (4, 4)  # every level: LR
    root = tmp_path / "data"
    shutil.copytree(shipped_data_root() / GAME.id, root / GAME.id)
    cards = root / GAME.id / "templates.yaml"
    text = cards.read_text(encoding="utf-8")
    for card_id, fields in [("vierge-niveau-i", "half_carts: L"),
                            ("vierge-niveau-ii", "half_carts: ''\n    factions: 1"),
                            ("vierge-niveau-iii", "half_carts: ''\n    factions: 0\n    effects: 1")]:
        text = text.replace(f"  - id: {card_id}\n", f"  - id: {card_id}\n    {fields}\n")
    cards.write_text(text, encoding="utf-8")
    data, result, pdf, reader = build(root, tmp_path / "out")
    assert result.warnings == []
    assert half_carts(reader) == (2, 1)  # I: left; IV: left and right
    text = faces(data, pdf, reader)
    assert "coût faction faction Les cartes I" in text["vierge-niveau-i"]
    assert "coût faction Les cartes II" in text["vierge-niveau-ii"]
    assert "faction" not in text["vierge-niveau-iii"]
    assert "Illustration Effet III" in text["vierge-niveau-iii"] and "ou" not in text["vierge-niveau-iii"].split()


def test_one_back_per_level(deck):
    _, _, pdf, reader = deck
    # pdfium reads the turned backs (landscape, long edge) word by word from the end
    def back(n):  # the title, the numeral in the medallion, « Mine · niveau n »
        return sorted(f"Imperial Miners {n} Mine · niveau {n}".split())

    # one sheet per level: each back page is its level's back, eight times
    for level, page in (("I", 1), ("II", 3), ("III", 5), ("IV", 7)):
        assert [sorted(t.split()) for t in cells(pdf, reader, page)] == [back(level)] * 8
