"""What a print shop (and a home printer's dialog) reads from a deck PDF: page boxes, viewer
preferences, the sheet label, the scale bar, pure-black text and registration-colour marks;
and the butted imposition on the real games. Read back from the PDFs with pypdf and pdfium."""

from __future__ import annotations

import re

import pypdf
import pytest

from cardforge.data.loading import load_game_data
from cardforge.render.cards.decks import build_decks
from cardforge.settings import BuildSettings

from render_helpers import (
    FIXTURE_DATA,
    FIXTURE_TEMPLATES,
    card_clips,
    card_trims,
    operations,
    register_fixture_game,
    shown_strings,
    text_in,
)

MM = 72 / 25.4


@pytest.fixture
def fixture(monkeypatch):
    register_fixture_game(monkeypatch)
    from cardforge.games import find_game

    game = find_game("fixture_deck")
    return game, load_game_data(game, root=FIXTURE_DATA)


def build(fixture, out, **options):
    game, data = fixture
    # the fixture's cards differ at their edges (a title band on top): these tests check the
    # butted grid as such, so they butt every card (test_render_edges.py weighs the edges)
    options.setdefault("ignore_edges", True)
    options.setdefault("paper", "a4")  # the positions below are worked out on A4
    settings = BuildSettings(out_dir=out, **options)
    return build_decks(game, data, settings, out / game.id, templates_dir=FIXTURE_TEMPLATES)


def box_mm(page, name):
    return tuple(round(float(v) / MM, 2) for v in page[name])


@pytest.mark.parametrize("duplex, expected", [("long-edge", "/DuplexFlipLongEdge"),
                                              ("short-edge", "/DuplexFlipShortEdge"), ("none", "/Simplex")])
def test_viewer_preferences_preselect_duplex_and_actual_size(fixture, tmp_path, duplex, expected):
    build(fixture, tmp_path, duplex=duplex)
    prefs = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf").trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == expected
    assert prefs["/PrintScaling"] == "/None"


def test_sheets_carry_trim_bleed_and_art_boxes(fixture, tmp_path):
    build(fixture, tmp_path)
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    for page in reader.pages:
        # a sheet is printed and cut whole: trim and bleed are the page
        assert box_mm(page, "/TrimBox") == box_mm(page, "/BleedBox") == box_mm(page, "/MediaBox") == \
            (0, 0, 210, 297)
    # the art box is the cards with their bleed: 3 × 3 poker cards, butted, grid 195 × 270 centred
    assert box_mm(reader.pages[0], "/ArtBox") == (7.5, 13.5, 202.5, 283.5)
    # the last sheet holds 3 cards (one row): 88 + 6 mm high
    assert box_mm(reader.pages[2], "/ArtBox") == (7.5, 283.5 - 94, 202.5, 283.5)


def test_each_card_is_clipped_to_its_trim_where_it_meets_a_neighbour(fixture, tmp_path):
    build(fixture, tmp_path)
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    for index in (0, 1):
        clips = card_clips(reader.pages[index])
        trims = card_trims(clips, 3.0)
        for i, c in enumerate(clips):
            for j, (x, y, w, h) in enumerate(trims):
                if i != j:  # no card's artwork reaches into another card's trim
                    assert (c.x + c.w <= x + 1e-3 or c.x >= x + w - 1e-3 or c.y + c.h <= y + 1e-3
                            or c.y >= y + h - 1e-3), (index, i, j)
        # the middle card of the 3 × 3 grid is clipped to its trim on all four sides
        assert (clips[4].w, clips[4].h) == (63.0, 88.0)
        assert (clips[0].w, clips[0].h) == (66.0, 91.0)  # a corner: bleed on two sides


def test_sheet_label_scale_bar_and_cutting_order(fixture, tmp_path):
    build(fixture, tmp_path)
    path = tmp_path / "fixture_deck" / "deck.pdf"
    # the bottom margin, below the grid (13.5 mm), and the top margin above it
    bottom = " ".join(text_in(path, 0, (0, 0, 210, 13)).split())
    top = " ".join(text_in(path, 0, (0, 284, 210, 13)).split())
    # in the game's language (French; English: tests/test_languages.py)
    assert "fixture_deck" in bottom and "deck.pdf · feuille 1/2 · RECTO" in bottom
    assert "50 mm à 100 %" in bottom
    assert top.startswith("Ordre de coupe : 1. les 4 lignes horizontales, toute la feuille (traits à gauche et "
                          "à droite) ; 2. sur chaque bande, les 4 lignes verticales")
    # the last back page holds one row of 3 at the top: its label sits under that row
    back = " ".join(text_in(path, 3, (0, 0, 210, 188)).split())
    assert "deck.pdf · feuille 2/2 · VERSO" in back
    # the scale bar: a filled bar exactly 50 mm long, with a tick at each end
    fills = [tuple(float(v) / MM for v in args) for args, op in operations(pypdf.PdfReader(path).pages[0])
             if op == b"re"]
    bars = [r for r in fills if abs(r[2] - 50) < 1e-3 and abs(r[3] - 0.3) < 1e-3]
    assert len(bars) == 1
    x0 = bars[0][0]
    ticks = [r for r in fills if abs(r[2] - 0.2) < 1e-3 and r[3] > 0.9]
    assert len(ticks) == 6 and {round(r[0] + 0.1 - x0, 3) for r in ticks} == {0, 10, 20, 30, 40, 50}
    assert bars[0][1] + 0.3 < 13.5 - 1  # in the margin, below the grid's bleed


def test_no_sheet_labels(fixture, tmp_path):
    build(fixture, tmp_path, sheet_labels=False)
    path = tmp_path / "fixture_deck" / "deck.pdf"
    assert text_in(path, 0, (0, 0, 210, 13)).strip() == ""


def _content(page) -> bytes:
    return page.get_contents().get_data()


def test_pure_black_text_and_registration_marks(fixture, tmp_path):
    build(fixture, tmp_path / "rgb")
    build(fixture, tmp_path / "k", pure_black=True)
    rgb = pypdf.PdfReader(tmp_path / "rgb" / "fixture_deck" / "deck.pdf")
    k = pypdf.PdfReader(tmp_path / "k" / "fixture_deck" / "deck.pdf")
    streams_rgb = b"\n".join(_content(p) for p in rgb.pages) + b"".join(
        o.get_object().get_data() for o in _forms(rgb))
    streams_k = b"\n".join(_content(p) for p in k.pages) + b"".join(
        o.get_object().get_data() for o in _forms(k))
    # the fixture's body text is #1a1a1a: RGB .101961 in the default build, K only with --pure-black
    assert b".101961 .101961 .101961 rg" in streams_rgb
    assert b".101961 .101961 .101961 rg" not in streams_k and b"0 0 0 1 k" in streams_k
    # crop marks: black RGB by default, the /All separation (registration) with --pure-black
    assert b"/All CS" not in streams_rgb
    page = k.pages[0]
    spaces = page["/Resources"]["/ColorSpace"]
    [name] = [n for n, cs in spaces.items() if cs.get_object()[0] == "/Separation"]
    assert spaces[name].get_object()[1] == "/All"
    assert f"{name} CS".encode() in _content(page)


def _forms(reader):
    seen = {}

    def collect(res):
        xobjects = res.get_object().get("/XObject") if res is not None else None
        for name, ref in (xobjects.get_object().items() if xobjects is not None else []):
            if name not in seen:
                seen[name] = ref.get_object()
                collect(seen[name].get("/Resources"))

    for p in reader.pages:
        collect(p.get("/Resources"))
    return list(seen.values())


def test_streams_are_flate_only_and_text_is_placed_by_runs(fixture, tmp_path):
    build(fixture, tmp_path)
    raw = (tmp_path / "fixture_deck" / "deck.pdf").read_bytes()
    assert b"ASCII85Decode" not in raw
    filters = set(re.findall(rb"/Filter \[ ([^\]]*)\]", raw))
    assert filters == {b"/FlateDecode "}
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck.pdf")
    text = b"".join(o.get_data() for o in _forms(reader)) + b"".join(_content(p) for p in reader.pages)
    # "Réaction : annulez une attaque." — the words after the bold label go as one run (the
    # narrow no-break space before ":" that French typography puts there goes with them)
    streams = [(f, f.get("/Resources")) for f in _forms(reader) if f.get("/Subtype") == "/Form"]
    streams += [(p.get_contents(), p.get("/Resources")) for p in reader.pages]
    shown = [s for stream, resources in streams for s in shown_strings(stream, resources, reader)]
    assert any(s.endswith(": annulez une attaque.") for s in shown), shown
    assert not re.search(rb"\) Tj [-.\d]+ [-.\d]+ [-.\d]+ [-.\d]+ [-.\d]+ [-.\d]+ Tm", text)  # runs move by Td
    assert re.search(rb"\) Tj [-.\d]+ [-.\d]+ Td", text)


@pytest.mark.slow
@pytest.mark.parametrize("game_id, before, after", [
    # sheets per deck on A4, each card its own bleed (8 mm margins) → butted (trims 2 mm inside
    # the printable area, 7 mm from the edge), every card butted whatever its edges (--ignore-edges)
    ("maphr", 42, 32),  # 250 squares: 6 → 8 a sheet
    ("tunhell", 14, 11),  # 110 cards 56 × 88: 8 → 10 a sheet
    ("cristaux", 18, 16),  # 138 poker cards: 8 → 9
])
@pytest.mark.slow
def test_real_decks_print_on_fewer_sheets(cli, tmp_path, game_id, before, after):
    r = cli("build", game_id, "-o", tmp_path / "new", "--only", "decks", "-q", "--ignore-edges", "--paper", "a4")
    assert r.code == 0, r.err
    old = cli("build", game_id, "-o", tmp_path / "old", "--only", "decks", "-q", "--gutter", "0", "--margin", "8",
              "--paper", "a4")
    assert old.code == 0, old.err
    assert len(pypdf.PdfReader(tmp_path / "new" / game_id / "deck.pdf").pages) == 2 * after
    assert len(pypdf.PdfReader(tmp_path / "old" / game_id / "deck.pdf").pages) == 2 * before


def test_per_card_pages_carry_the_trim_box(fixture, tmp_path):
    result = build(fixture, tmp_path, per_card=True)
    deck = next(e for e in result.entries if e.path == "deck-cards.pdf")
    assert (deck.pages, deck.cards) == (24, 12)  # 12 cards: front, back, front, back…
    assert "one card side a page, 69 × 94 mm" in result.layouts["deck-cards.pdf"]
    reader = pypdf.PdfReader(tmp_path / "fixture_deck" / "deck-cards.pdf")
    for page in reader.pages:
        # poker 63 × 88 with 3 mm bleed: the page is the bleed box, the trim 3 mm inside
        assert box_mm(page, "/MediaBox") == box_mm(page, "/BleedBox") == (0, 0, 69, 94)
        assert box_mm(page, "/TrimBox") == (3, 3, 66, 91)
        [clip] = card_clips(page)
        assert (clip.x, clip.y, clip.w, clip.h, clip.rotated) == (0, 0, 69, 94, False)
    # the back follows its front, upright: the shop registers the two sides
    assert "Boule de feu" in text_in(tmp_path / "fixture_deck" / "deck-cards.pdf", 0, (3, 3, 63, 88))


def test_printables_print_at_actual_size_with_their_boxes(cli, tmp_path):
    r = cli("build", "maphr", "--only", "pads,aids", "-o", tmp_path, "-q")
    assert r.code == 0, r.err
    for name in ("score-pad.pdf", "aids.pdf"):
        reader = pypdf.PdfReader(tmp_path / "maphr" / name)
        prefs = reader.trailer["/Root"]["/ViewerPreferences"]
        assert prefs["/PrintScaling"] == "/None"
        for page in reader.pages:
            assert box_mm(page, "/TrimBox") == box_mm(page, "/BleedBox") == box_mm(page, "/MediaBox")
    # Maphr's aids are double-sided: the dialog preselects the deck's flip
    prefs = pypdf.PdfReader(tmp_path / "maphr" / "aids.pdf").trailer["/Root"]["/ViewerPreferences"]
    pad = pypdf.PdfReader(tmp_path / "maphr" / "score-pad.pdf").trailer["/Root"]["/ViewerPreferences"]
    assert (prefs["/Duplex"], pad["/Duplex"]) == ("/DuplexFlipLongEdge", "/Simplex")
