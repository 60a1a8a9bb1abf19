"""Deck PDFs of the fixture game, checked from the PDF itself: page size, cards per page,
names in the right cell, back positions, crop marks, fonts, reuse of forms, reproducibility,
and a golden content stream."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pypdf
import pytest
import yaml

from cardforge.data.loading import load_game_data
from cardforge.errors import RenderError
from cardforge.render.cards.decks import build_decks
from cardforge.settings import BuildSettings

from conftest import ROOT
from render_helpers import (
    FIXTURE_DATA,
    FIXTURE_TEMPLATES,
    card_blocks,
    card_clips,
    card_trims,
    fonts_of,
    form_count,
    line_segments,
    operations,
    page_texts_by_rect,
    register_fixture_game,
    text_in,
)

GOLDEN = ROOT / "tests" / "golden" / "fixture_deck_sheet1.txt"
BLEED = 3.0
POKER = (63.0, 88.0)


@pytest.fixture
def fixture(monkeypatch):
    register_fixture_game(monkeypatch)
    from cardforge.games import find_game

    game = find_game("fixture_deck")
    return game, load_game_data(game, root=FIXTURE_DATA)


def build(fixture, out: Path, **options):
    game, data = fixture
    compress = options.pop("compress", True)
    # the fixture's cards differ at their edges (a title band on top): these tests check the
    # butted grid as such, so they butt every card (test_render_edges.py weighs the edges)
    options.setdefault("ignore_edges", True)
    options.setdefault("paper", "a4")  # the positions and pages below are worked out on A4
    settings = BuildSettings(out_dir=out, **options)
    return build_decks(game, data, settings, out / game.id, templates_dir=FIXTURE_TEMPLATES, compress=compress)


def expected_names(kinds_excluded=("board",)) -> list[str]:
    """The fixture's cards in print order, once per copy, read from the YAML itself."""
    raw = yaml.safe_load((FIXTURE_DATA / "fixture_deck" / "cards.yaml").read_text(encoding="utf-8"))
    return [c["name"] for c in raw["cards"] if c["kind"] not in kinds_excluded for _ in range(c.get("copies", 1))]


def title_rects(clips, bleed=BLEED):
    """The generic layout's title box (x 4 mm, y 3 mm, right 4 mm, 5.8 mm high) in page mm."""
    out = []
    for x, y, w, h in card_trims(clips, bleed, POKER):
        out.append((x + 4, y + h - 3 - 5.8, w - 8, 5.8))
    return out


def test_page_size_cards_per_page_and_page_order(fixture, tmp_path):
    result = build(fixture, tmp_path)
    [deck, board] = result.entries
    assert (deck.path, deck.kind, deck.cards) == ("deck.pdf", "deck", 12)
    assert (board.path, board.cards) == ("deck-board.pdf", 1)
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / deck.path)
    # poker on A4, butted: portrait 3 × 3 = 9 per sheet (3 × 63 = 189 ≤ 210 - 2 × 5 wide and
    # 3 × 88 = 264 ≤ 297 - 2 × 5 high: the trims inside the printable area). Rows 6 mm apart,
    # each with its own bleed, would hold as many (3 × 88 + 2 × 6 = 276 ≤ 287) but leave 7.5 mm
    # above and below the cards, no room for the label; 12 cards → 2 sheets → front, back, front, back
    assert len(reader.pages) == deck.pages == 4
    for page in reader.pages:
        w, h = (float(v) / 72 * 25.4 for v in page.mediabox[2:])
        assert (round(w, 1), round(h, 1)) == (210.0, 297.0)
    assert [len(card_clips(p)) for p in reader.pages] == [9, 9, 3, 3]
    # the grid, bleed included, centred: (210 - 195) / 2 = 7.5 mm left, (297 - 270) / 2 = 13.5 mm
    # below; the first card (top left) trims at x 10.5, top 297 - 13.5 - 3 = 280.5
    trims = card_trims(card_clips(reader.pages[0]), BLEED, POKER)
    assert trims[0] == (10.5, 192.5, 63.0, 88.0)
    assert trims[1] == (73.5, 192.5, 63.0, 88.0) and trims[3] == (10.5, 104.5, 63.0, 88.0)
    # the tarot-size kind gets its own file: 70×120 + 6 mm → A4 portrait 2 × 2
    board_reader = pypdf.PdfReader(tmp_path / "fixture_deck" / board.path)
    [clip] = card_clips(board_reader.pages[0])
    assert (clip.w, clip.h) == (76.0, 126.0)


def test_every_card_appears_once_per_copy_in_print_order(fixture, tmp_path):
    build(fixture, tmp_path)
    path = tmp_path / "fixture_deck" / "deck.pdf"
    reader = pypdf.PdfReader(path)
    names = []
    for index in (0, 2):  # front pages
        names += page_texts_by_rect(path, index, title_rects(card_clips(reader.pages[index])))
    assert names == expected_names()
    assert Counter(names) == Counter({"Boule de feu": 3, "Bouclier": 1, "Éclair": 2, "Jeton d'or": 4, "Kessara": 1,
                                      "Cadeau du roi": 1})  # its other side (copies: 0) is only a back


def test_back_pages_mirror_the_front_positions(fixture, tmp_path):
    # landscape page (butted 4 × 2), long-edge: the sheet turns over top to bottom
    build(fixture, tmp_path, orientation="landscape")
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    for front_page, back_page in ((0, 1), (2, 3)):
        fronts = card_clips(reader.pages[front_page])
        backs = card_clips(reader.pages[back_page])
        assert len(fronts) == len(backs)
        for f, b in zip(fronts, backs):
            assert (b.x, b.w, b.h) == (f.x, f.w, f.h)
            assert b.y == pytest.approx(210 - f.y - f.h)
            assert b.rotated and not f.rotated


def test_portrait_long_edge_backs_swap_left_and_right(fixture, tmp_path):
    build(fixture, tmp_path, orientation="portrait")
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    fronts, backs = card_clips(reader.pages[0]), card_clips(reader.pages[1])
    assert len(fronts) == 9  # portrait: 3 × 3
    for f, b in zip(fronts, backs):
        assert b.x == pytest.approx(210 - f.x - f.w) and b.y == f.y and not b.rotated


def test_back_offset_moves_only_the_backs(fixture, tmp_path):
    build(fixture, tmp_path, orientation="portrait", back_offset_mm=(1.5, -0.5))
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    fronts, backs = card_clips(reader.pages[0]), card_clips(reader.pages[1])
    for f, b in zip(fronts, backs):
        assert b.x == pytest.approx(210 - f.x - f.w + 1.5) and b.y == pytest.approx(f.y - 0.5)


def test_names_behind_each_card_on_a_double_sided_kind(fixture, tmp_path):
    """The planet's back face prints its own moon, behind the planet's front."""
    build(fixture, tmp_path)
    path = tmp_path / "fixture_deck" / "deck.pdf"
    reader = pypdf.PdfReader(path)
    fronts, backs = card_clips(reader.pages[2]), card_clips(reader.pages[3])
    planet = expected_names()[9:].index("Kessara")
    [front_text] = page_texts_by_rect(path, 2, [card_trims(fronts, BLEED)[planet]])
    [back_text] = page_texts_by_rect(path, 3, [card_trims(backs, BLEED)[planet]])
    assert "Kessara" in front_text
    # the back is drawn turned 180° (landscape long-edge): pdfium reads its words right to left
    # …and carries the card's version stamp, as its front does (render/cards/reprint.py)
    record = json.loads((tmp_path / "fixture_deck" / "cards.json").read_text(encoding="utf-8"))
    stamp = record["cards"]["kessara"]["stamp"]
    assert stamp in front_text
    assert sorted(back_text.split()) == sorted(f"Lune de Kessara {stamp}".split())


def test_a_two_sided_card_prints_its_other_side_on_its_back(fixture, tmp_path):
    build(fixture, tmp_path)
    path = tmp_path / "fixture_deck" / "deck.pdf"
    reader = pypdf.PdfReader(path)
    fronts, backs = card_clips(reader.pages[2]), card_clips(reader.pages[3])
    gift = expected_names()[9:].index("Cadeau du roi")
    [front_text] = page_texts_by_rect(path, 2, [title_rects(fronts)[gift]])
    [back_text] = page_texts_by_rect(path, 3, [card_trims(backs, BLEED)[gift]])
    assert front_text == "Cadeau du roi"
    words = set(back_text.split())
    assert {"Cadeau", "retourné", "Verso"} <= words and "Recto" not in words


def test_crop_marks_at_every_trim_line_and_only_in_the_margins(fixture, tmp_path):
    build(fixture, tmp_path)
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    for index in (0, 2):
        page = reader.pages[index]
        clips = card_clips(page)
        bleeds = [(c.x, c.y, c.x + c.w, c.y + c.h) for c in clips]

        def outside(x1, y1, x2, y2):
            return all(max(x1, x2) <= bx0 + 1e-3 or min(x1, x2) >= bx1 - 1e-3 or max(y1, y2) <= by0 + 1e-3
                       or min(y1, y2) >= by1 - 1e-3 for bx0, by0, bx1, by1 in bleeds)

        # the margins: outside the grid's bleed box (cut ticks lie on the cut lines between cards)
        gx0, gy0 = min(b[0] for b in bleeds), min(b[1] for b in bleeds)
        gx1, gy1 = max(b[2] for b in bleeds), max(b[3] for b in bleeds)

        def in_margin(x1, y1, x2, y2):
            return (max(x1, x2) <= gx0 + 1e-3 or min(x1, x2) >= gx1 - 1e-3 or max(y1, y2) <= gy0 + 1e-3
                    or min(y1, y2) >= gy1 - 1e-3)

        segments = line_segments(page)
        marks = [s for s in segments if in_margin(*s)]
        assert all(outside(*s) for s in marks)
        trims = card_trims(clips, BLEED, POKER)
        xs = {round(v, 2) for x, y, w, h in trims for v in (x, x + w)}
        ys = {round(v, 2) for x, y, w, h in trims for v in (y, y + h)}
        vertical = Counter(round(s[0], 2) for s in marks if s[0] == s[2])
        horizontal = Counter(round(s[1], 2) for s in marks if s[1] == s[3])
        assert set(vertical) == xs and all(n == 2 for n in vertical.values())  # above and below
        assert set(horizontal) == ys and all(n == 2 for n in horizontal.values())  # left and right
        # rows are cut first (3 columns ≥ … rows), so each strip keeps a tick on every vertical cut
        # line at its top and bottom edge: 1.5 mm either side of each card corner
        ticks = {s for s in segments if not in_margin(*s) and s[0] == s[2] and round(s[0], 2) in xs}
        corners = {(x, y) for x0, y0, w, h in trims for x in (x0, x0 + w) for y in (y0, y0 + h)}
        assert ticks == {(x, y - 1.5, x, y + 1.5) for x, y in corners}
    # back pages of a duplex deck carry no marks (the sheet is cut from the front)
    back = reader.pages[1]
    assert not [s for s in line_segments(back)
                if all(not (c.x - 1e-3 <= s[0] <= c.x + c.w + 1e-3 and c.y - 1e-3 <= s[1] <= c.y + c.h + 1e-3)
                       for c in card_clips(back))]


def test_no_crop_marks_and_cut_lines(fixture, tmp_path):
    build(fixture, tmp_path, crop_marks=False, cut_lines=True)
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    page = reader.pages[0]
    clips = card_clips(page)
    # cut lines: one rectangle per card on its trim line, drawn on the page after the cards
    rects = [tuple(round(float(v) / 72 * 25.4, 2) for v in args) for args, op in operations(page) if op == b"re"]
    for x, y, w, h in card_trims(clips, BLEED, POKER):
        assert (round(x, 2), round(y, 2), round(w, 2), round(h, 2)) in rects
    assert line_segments(page) == [s for s in line_segments(page)
                                   if any(c.x <= s[0] <= c.x + c.w and c.y <= s[1] <= c.y + c.h for c in clips)]


def test_fonts_are_embedded(fixture, tmp_path):
    build(fixture, tmp_path)
    fonts = fonts_of(pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf"))
    assert fonts and all(fonts.values()), fonts
    assert all("DejaVu" in name for name in fonts)


def test_two_builds_are_byte_identical(fixture, tmp_path):
    a = build(fixture, tmp_path / "a")
    b = build(fixture, tmp_path / "b")
    for ea, eb in zip(a.entries, b.entries):
        assert (tmp_path / "a" / "fixture_deck" / ea.path).read_bytes() == \
            (tmp_path / "b" / "fixture_deck" / eb.path).read_bytes()
        assert ea.sha256 == eb.sha256


def test_a_back_design_is_drawn_once_and_reused(fixture, tmp_path):
    build(fixture, tmp_path)
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    page = reader.pages[1]  # backs of 3 Boule de feu, Bouclier, 2 Éclair (default back), 3 jetons
    # the token back is on both sheets' back pages: one form, drawn for each token
    used = [args[0] for args, op in operations(page) if op == b"Do"]
    assert len(used) == 3 and len(set(used)) == 1
    assert [args[0] for args, op in operations(reader.pages[3]) if op == b"Do"] == used[:1]  # the 12th card
    # the default back is on this page only: a form would cost more than it saves, so it is
    # drawn in place, the same operators for each card (zlib shares them in the page's stream)
    backs = card_blocks(page)
    assert len(backs) == 9
    assert backs[0] == backs[5] != backs[6] == backs[8]
    assert all(op != b"Do" for _, op in backs[0])
    # a card printed in 3 copies is drawn once and its operators written again for each copy
    # (in the page's stream, where zlib shares them; no form of its own)
    blocks = card_blocks(reader.pages[0])
    assert len(blocks) == 9
    assert blocks[0] == blocks[1] == blocks[2] != blocks[3]
    # forms: the backs, icons and the frames shared by every card of a kind, fewer than the card
    # sides placed (12 fronts, 12 backs), and none holding one card's own text
    assert form_count(reader) < 24
    first = card_clips(reader.pages[0])[0]  # its own text is in its block, not in a shared form
    assert "Boule de feu" in text_in(tmp_path / "fixture_deck" / "deck.pdf", 0, (first.x, first.y, first.w, first.h))
    assert any(op == b"Tj" for _, op in blocks[0])


def test_duplex_none_puts_the_backs_in_their_own_file(fixture, tmp_path):
    result = build(fixture, tmp_path, duplex="none")
    paths = [(e.path, e.kind, e.pages, e.cards) for e in result.entries]
    assert ("deck.pdf", "deck", 2, 12) in paths
    assert ("deck-backs.pdf", "backs", 2, 0) in paths
    fronts = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    backs = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck-backs.pdf")
    for f, b in zip(card_clips(fronts.pages[0]), card_clips(backs.pages[0])):
        assert b.x == pytest.approx(210 - f.x - f.w) and b.y == f.y  # laid out as for long-edge
    # the backs file has crop marks of its own, for printing it separately
    assert len(line_segments(backs.pages[0])) >= 2 * 12


def test_fold_puts_backs_beside_their_fronts(fixture, tmp_path):
    result = build(fixture, tmp_path, fold=True)
    deck = result.entries[0]
    assert deck.path == "deck-fold.pdf"
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / deck.path)
    # poker on A4 fold: landscape, halves 148.5 × 210: 2 × 2 = 4 cards a page → 12 cards: 3 pages
    assert len(reader.pages) == deck.pages == math.ceil(12 / 4)
    clips = card_clips(reader.pages[0])
    fronts, backs = clips[0::2], clips[1::2]  # each front is followed by its back
    for f, b in zip(fronts, backs):
        assert f.x + f.w <= 148.5 <= b.x
        assert b.x == pytest.approx(297 - f.x - f.w) and b.y == f.y and not b.rotated
    # the fold line is marked, dashed, at 148.5 mm
    dashes = [args for args, op in operations(reader.pages[0]) if op == b"d" and args[0]]
    assert dashes
    assert any(s[0] == s[2] == 148.5 for s in line_segments(reader.pages[0]))
    # folded, the sheet is its front half, and the fold its edge, with no margin for crop marks:
    # the lines parallel to the fold go first (crop marks top and bottom), then on each strip the
    # horizontal lines, a tick on each at every strip edge: at every corner of the fronts
    trims = card_trims(fronts, BLEED, POKER)
    corners = {(round(x, 2), round(y, 2)) for x0, y0, w, h in trims for x in (x0, x0 + w) for y in (y0, y0 + h)}
    ticks = {(round(s[0] + 1.5, 2), round(s[1], 2)) for s in line_segments(reader.pages[0], forms=True)
             if s[1] == s[3] and s[2] - s[0] == pytest.approx(3.0)}
    assert ticks == corners
    top = " ".join(text_in(tmp_path / "fixture_deck" / deck.path, 0, (0, 200, 297, 10)).split())
    assert top.startswith("Ordre de coupe : pliez sur la ligne pointillée, puis coupez les deux épaisseurs : "
                          "1. les 4 lignes verticales, toute la feuille (traits en haut et en bas)"), top


def test_a_later_build_removes_deck_files_of_another_mode(fixture, tmp_path):
    from cardforge.render.output import write_manifest

    first = build(fixture, tmp_path, duplex="none")
    write_manifest(tmp_path / "fixture_deck", "fixture_deck", first.entries)
    second = build(fixture, tmp_path, fold=True)
    files = sorted(p.name for p in (tmp_path / "fixture_deck").glob("*.pdf"))
    assert files == sorted(e.path for e in second.entries)


def test_the_stamp_prints_version_and_fingerprint_in_the_safe_zone(fixture, tmp_path):
    build(fixture, tmp_path)
    path = tmp_path / "fixture_deck" / "deck.pdf"
    clips = card_clips(pypdf.PdfReader(path).pages[0])
    # the safe zone's bottom strip, 3 to 6 mm above the bottom trim, right half of the card
    strips = [(x + w / 2, y + 3, w / 2 - 3, 3) for x, y, w, h in card_trims(clips, BLEED, POKER)]
    stamps = page_texts_by_rect(path, 0, strips)
    assert all(s.startswith("v1.3 · ") and len(s) == len("v1.3 · ") + 6 for s in stamps), stamps
    assert stamps[0] == stamps[1] == stamps[2]  # copies of one card
    assert stamps[3] != stamps[0]  # another card


def test_missing_art_prints_a_placeholder_and_warns(fixture, tmp_path):
    game, data = fixture
    card = data.card("bouclier")
    object.__setattr__(card, "art", "art/absente.png")
    try:
        result = build(fixture, tmp_path)
        [warning] = result.warnings
        assert str(warning).endswith(
            "layout 'spell', box 'art': art 'art/absente.png': image not found (looked for "
            f"{FIXTURE_DATA / 'fixture_deck' / 'art' / 'absente.png'}); printed a placeholder")
        assert "card 'bouclier' (#2)" in str(warning)
        with pytest.raises(RenderError) as info:
            build(fixture, tmp_path / "strict", strict=True)
        assert "(--strict)" in str(info.value)
        assert not (tmp_path / "strict" / "fixture_deck" / "deck.pdf").exists()
    finally:
        object.__setattr__(card, "art", None)


def test_golden_content_stream(fixture, tmp_path, update_goldens):
    """The first sheet (front and back page) and every form it uses, uncompressed."""
    build(fixture, tmp_path, compress=False)
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    parts = []
    for index in (0, 1):
        page = reader.pages[index]
        parts.append(f"=== page {index + 1}\n" + page.get_contents().get_data().decode("latin-1"))
    forms = {}

    def collect(res):
        xobjects = res.get_object().get("/XObject") if res is not None else None
        for name, ref in (xobjects.get_object().items() if xobjects is not None else []):
            xo = ref.get_object()
            if xo.get("/Subtype") == "/Form" and name not in forms:
                forms[name] = xo.get_data().decode("latin-1")
                collect(xo.get("/Resources"))

    for index in (0, 1):
        collect(reader.pages[index].get("/Resources"))
    for name in sorted(forms):
        parts.append(f"=== form {name}\n{forms[name]}")
    text = "\n".join(parts) + "\n"
    if update_goldens or not GOLDEN.exists():
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="latin-1")
        if not update_goldens:
            pytest.skip("golden written; run again to compare")
    assert text == GOLDEN.read_text(encoding="latin-1"), (
        "the deck's drawing changed; if intended, regenerate with: pytest --update-goldens "
        "tests/test_render_decks.py::test_golden_content_stream")


@pytest.mark.slow
def test_a_one_card_edit_samples_only_that_card_s_faces_again(tmp_path, monkeypatch):
    """The edges of each face are kept under everything that draws it; an edit to one card's
    text is no change to the other faces' keys (the card files are not among the game's
    drawing files: issue 32, every face had been sampled again on each watch-mode rebuild)."""
    import shutil

    from cardforge.games import find_game
    from cardforge.render.builds.build import build_game
    from cardforge.render.cards import edges

    shutil.copytree(ROOT / "card_data" / "maphr", tmp_path / "data" / "maphr")
    drawn: list[str] = []
    real = edges._draw

    def counting(art, faces, size, bleed):
        drawn.extend(f"{side}:{card.id}" for side, card in faces)
        return real(art, faces, size, bleed)

    monkeypatch.setattr(edges, "_draw", counting)
    settings = BuildSettings(only=frozenset({"decks"}), out_dir=tmp_path / "out", data_root=tmp_path / "data")
    game = find_game("maphr")
    build_game(game, settings)
    first = len(drawn)
    assert first >= 70  # Maphr's 79 distinct fronts and its backs, sampled once
    path = tmp_path / "data" / "maphr" / "improvements.yaml"
    text = path.read_text(encoding="utf-8")
    effect = "Votre mine passe au niveau III pour 10 :coin: au lieu de 30."
    assert text.count(effect) == 1
    path.write_text(text.replace(effect, effect + " (bis)"), encoding="utf-8")
    drawn.clear()
    build_game(game, settings)
    assert len(drawn) == 1 and drawn[0].startswith("front:")  # the edited card's front, no other face
