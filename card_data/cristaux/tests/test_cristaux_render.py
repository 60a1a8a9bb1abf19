"""Cristaux's card faces, read back from the built deck PDF: the multi-nature band under the
title, both faces of the two-sided gifts, the Opale face behind the Topaze, the printed count."""

from __future__ import annotations

from collections import Counter

import pypdf
import pypdfium2 as pdfium
import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.layout.boxes import LayoutLibrary
from cardforge.render.cards.decks import build_decks, template_folders
from cardforge.settings import BuildSettings

from render_helpers import MM, card_clips, page_texts_by_rect

BLEED = 3.0
PER_PAGE = 8  # poker cards on A4 landscape, 4 × 2


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    game = find_game("cristaux")
    data = load_game_data(game)
    out = tmp_path_factory.mktemp("cristaux")
    result = build_decks(game, data, BuildSettings(out_dir=out, paper="a4", gutter_mm=0), out / game.id)
    path = out / game.id / "deck.pdf"
    printed = [c for c in data.cards for _ in range(c.copies)]
    return game, data, result, path, pypdf.PdfReader(path), printed


def where(printed, card_id: str) -> tuple[int, int]:
    """(front page, slot) of a card's first copy."""
    i = next(n for n, c in enumerate(printed) if c.id == card_id)
    return 2 * (i // PER_PAGE), i % PER_PAGE


def title_rects(clip):
    """The `cristal` layout's title (x 4, y 3, right 13.5, 5.8 mm high) and kind label
    (y 8.8 mm, 3.2 mm high), as page rectangles of an upright front."""
    x, y, w, h = clip.trim(BLEED)
    return [(x + 4, y + h - 3 - 5.8, w - 17.5, 5.8), (x + 4, y + h - 8.8 - 3.2, w - 17.5, 3.2)]


def test_the_band_stripes_are_drawn_under_the_title():
    library = LayoutLibrary(template_folders(find_game("cristaux")))
    for name in ("project", "gift"):
        order = [b.name for b in library.get(name).boxes]
        for label in ("title", "kind_label", "band_rule"):
            assert order.index(label) > order.index("stripe_blue") > order.index("band"), (name, label)


def test_a_multi_nature_title_is_readable(deck):
    game, data, result, path, reader, printed = deck
    page, slot = where(printed, "couronne-elementaire")
    assert (page, slot) == (0, 7)  # the 8th card of the first page
    clip = card_clips(reader.pages[page])[slot]
    title, kind = page_texts_by_rect(path, page, title_rects(clip))
    assert (title, kind) == ("Couronne élémentaire", "Projet · Esthètes")
    # white title text over the red/green/blue stripes: white pixels inside the title box
    doc = pdfium.PdfDocument(str(path))
    scale = 4
    image = doc[page].render(scale=scale).to_pil().convert("RGB")
    page_h = reader.pages[page].mediabox.height / MM
    x, y, w, h = title_rects(clip)[0]
    box = image.crop(tuple(round(v * MM * scale) for v in (x, page_h - y - h, x + w, page_h - y)))
    white = sum(box.convert("L").histogram()[236:])
    assert white > 200, white
    doc.close()


def test_gifts_print_their_other_face_on_the_back(deck):
    game, data, result, path, reader, printed = deck
    for card_id, front_words, back_words in (
            ("warhammer-grandes-familles", "Pour les grandes familles.", "Pour les forges."),
            ("harpe-des-profondeurs", "Retournez la Harpe", "côté inactif"),
            ("encrier-des-scribes", "Retournez l'Encrier", "côté inactif")):
        page, slot = where(printed, card_id)
        front = card_clips(reader.pages[page])[slot]
        back = card_clips(reader.pages[page + 1])[slot]
        assert back.y == pytest.approx(210 - front.y - front.h) and back.rotated
        [front_text] = page_texts_by_rect(path, page, [front.trim(BLEED)])
        [back_text] = page_texts_by_rect(path, page + 1, [back.trim(BLEED)])
        assert front_words in " ".join(front_text.split())
        assert "inactif" not in front_text
        # turned 180°: pdfium reads the back's words right to left
        assert set(back_words.split()) <= set(back_text.split()), (card_id, back_text)


def test_topaze_cards_carry_their_opale_face(deck):
    game, data, result, path, reader, printed = deck
    page, slot = where(printed, data.cards_of("topaze")[0].id)
    front = card_clips(reader.pages[page])[slot]
    back = card_clips(reader.pages[page + 1])[slot]
    [front_text] = page_texts_by_rect(path, page, [front.trim(BLEED)])
    [back_text] = page_texts_by_rect(path, page + 1, [back.trim(BLEED)])
    assert "Topaze · Esthètes" in front_text and "joker de la manche" in front_text
    assert {"Opale", "Esthètes", "Coût", "supplémentaire"} <= set(back_text.split())


def test_the_printed_count_is_what_the_build_prints(deck, cli):
    game, data, result, path, reader, printed = deck
    assert result.warnings == []
    [entry] = result.entries
    counts = Counter()
    for card in printed:
        counts[card.kind] += 1
    # 98 projects (rulebook), 5 × (Warhammer, Harpe, Encrier), 15 trouvailles, 10 Topaze/Opale
    assert counts == {"project": 98, "gift": 15, "trouvaille": 15, "topaze": 10}
    assert entry.cards == len(printed) == 138
    assert entry.pages == 2 * -(-138 // PER_PAGE) == 36
    assert game.prints.startswith("138 cards (98 projects, 15 two-sided gifts, 15 trouvailles, "
                                  "10 Topaze/Opale)")
    r = cli("games")
    assert r.code == 0 and "138 cards" in r.out and "134" not in r.out
