"""Accessibility contract over every shipped game, read from the PDFs a build writes.

- No text under 5 pt anywhere (cards, backs, boards, pads, aids, setup sheets, stamps, captions)
  and no text under 6 pt except *marks*: version stamps, footers, a deck's name and the captions
  naming a blank field on a blank card (``MARKS``). Rules text is never a mark.
- Every run of text has a contrast of at least 4.5:1 (WCAG 2) with the colour behind it: its
  ink as declared, and its glyphs as seen on the page rasterised at 144 dpi (issue 38: thin
  and small strokes never reach their ink; ``a11y_helpers.seen_ink``).
- Cristaux: every crystal colour has its own shape (crystals, runes, royal logos, forge squares),
  so that the marks stay distinct in greyscale and under deuteranopia — compared as binarised
  masks, not as colours.
- Mine, All Mine!: the ship cards are square and their back looks the same turned any number of
  quarter turns.

How the text is read: ``tests/a11y_helpers.py`` (pypdfium2's text page for sizes and inks, the
rasterised page for the colour behind; no OCR).
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdf
import pypdfium2 as pdfium
import pytest

from a11y_helpers import deuteranopia, grey, read_pdf
from conftest import run_cli

pytestmark = pytest.mark.slow  # in `pytest`, left out of the quick lane (`pytest -m "not slow"`)

GAMES = ["maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners"]
TITLES = {"maphr": "Les Mines de Maphr", "tunhell": "TunHell", "mine_all_mine": "Mine, All Mine!",
          "cristaux": "Cristaux Élémentaires Joailliers", "imperial_miners": "Imperial Miners"}

MIN_ANY = 5.0  # pt, every text
MIN_RULES = 6.0  # pt, every text that is not a mark
MIN_CONTRAST = 4.5

#: marks: text allowed between 5 and 6 pt (compared without spaces)
MARKS = [
    # version stamps « v0.1 · b3f93f » (a stamp turned 90° or 180° may be read in pieces)
    re.compile(r"(v\d[\w.]*|·|[0-9a-f]{6}|provisoire)+"),
    re.compile(r".*·(aidedejeu|plateau|feuilledescore|misenplace).*", re.IGNORECASE),  # printables' footers
    # a deck sheet's own label, cutting order and scale bar caption (beside the cards, 5 or 6 pt)
    re.compile(r".*\.pdf·sheet\d+/\d+.*|(Cuttingorder|Cut|Fold,thencut|Fold,cut):.*|\d+mmat100%"),
    # the same in French (the games' language): 5 pt where a narrow margin holds no more
    re.compile(r".*\.pdf·feuille\d+/\d+.*|(Ordredecoupe|Coupez|Pliez,puiscoupez|Pliez,coupez):.*|\d+mmà100%"),
    # captions of the blank fields of Imperial Miners' blank card; Maphr's « niveau » under a
    # mine level; TunHell's « Partie complète » beside its :plus: mark
    re.compile(r"Nomdelacarte|coût|(faction)+|Effet[12]?|niveau|Partiecomplète"),
]


#: glyphs that are icons (game icons whose SVG draws them as text in DejaVu Sans: ♚ ♬ ♯ ♪), not text
ICON_GLYPHS = set("♚♬♯♪")


def _squeeze(text: str) -> str:
    return re.sub(r"[\s\u00a0\u202f]+", "", text)


def is_mark(text: str, game: str) -> bool:
    flat = _squeeze(text)
    title = _squeeze(TITLES[game])
    if flat.startswith(title):  # a deck's name, alone or on the line of the version stamp
        flat = flat[len(title):]
    elif flat.endswith(title):  # …or after it (a card turned upside down beside its neighbour)
        flat = flat[:-len(title)]
    return not flat or any(m.fullmatch(flat) for m in MARKS)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("a11y")
    r = run_cli("build", *GAMES, "-o", out)
    assert r.code == 0, r.err
    return out


@pytest.fixture(scope="module")
def built_apart(tmp_path_factory) -> Path:
    """The decks with each card in its own bleed (``--gutter 0``): card images are cut from the
    sheet by their clip, which in the default butted layout runs on the neighbours' trim."""
    out = tmp_path_factory.mktemp("a11y-apart")
    r = run_cli("build", "mine_all_mine", "cristaux", "--only", "decks", "--gutter", "0", "-o", out, "--paper", "a4")
    assert r.code == 0, r.err
    return out


@pytest.mark.parametrize("game", GAMES)
def test_text_size_and_contrast_contract(built, game):
    pdfs = sorted((built / game).glob("*.pdf"))
    assert {p.name for p in pdfs} >= {"deck.pdf", "aids.pdf", "boards.pdf", "score-pad.pdf", "setup.pdf"}
    problems: list[str] = []
    runs = 0
    marks = 0
    measured = 0
    for pdf in pdfs:
        for f in read_pdf(pdf):
            if set(f.run) <= ICON_GLYPHS:
                continue
            runs += 1
            where = f"{game}/{f.file} page {f.page + 1}: {f.run[:50]!r} (in {f.text[:40]!r})"
            if f.size < MIN_ANY - 1e-6:
                problems.append(f"{where}: {f.size:g} pt < {MIN_ANY:g} pt")
            elif f.size < MIN_RULES - 1e-6:
                if is_mark(f.run, game):
                    marks += 1
                else:
                    problems.append(f"{where}: {f.size:g} pt < {MIN_RULES:g} pt and not a stamp or caption")
            if f.ratio is not None and f.ratio < MIN_CONTRAST:
                problems.append(f"{where}: contrast {f.ratio:.2f}:1 (ink {f.ink}, behind {f.behind})")
            if f.behind is not None and f.seen is None:
                problems.append(f"{where}: no glyph drawn where the text is (behind {f.behind})")
            elif f.seen_ratio is not None and f.seen_ratio < MIN_CONTRAST:
                problems.append(f"{where}: contrast seen {f.seen_ratio:.2f}:1 (glyphs {f.seen}, behind {f.behind};"
                                f" ink {f.ink}, {f.size:g} pt)")
            if f.seen_ratio is not None:
                measured += 1
    assert runs > 100  # the walk saw the text (every game prints hundreds of runs)
    assert marks > 0  # version stamps exist and were recognised as marks
    assert measured > 0.95 * runs  # the glyphs were found on the page for (nearly) every run
    problems = list(dict.fromkeys(problems))
    assert not problems, "\n".join(problems[:40])


def test_the_walk_reads_size_ink_and_background_as_printed(tmp_path):
    """The contract's reader on a page whose answers are known: 4 pt text, grey on white (2.3:1),
    white on a light green (2.5:1), black on cream — and a form drawn at half scale."""
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render.fonts import font_name

    pdf = tmp_path / "known.pdf"
    c = Canvas(str(pdf), pagesize=(200, 200))
    font = font_name("sans")
    c.setFont(font, 4)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(10, 180, "quatre points")
    c.setFont(font, 9)
    c.setFillColorRGB(0.6, 0.6, 0.6)  # #999999 on white: 2.85:1
    c.drawString(10, 150, "gris clair")
    c.setFillColorRGB(143 / 255, 174 / 255, 94 / 255)
    c.rect(0, 100, 200, 30, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.drawString(10, 110, "blanc sur vert")
    c.beginForm("half")
    c.setFont(font, 12)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(0, 0, "moitié")
    c.endForm()
    c.saveState()
    c.transform(0.5, 0, 0, 0.5, 10, 60)
    c.doForm("half")
    c.restoreState()
    c.showPage()
    c.save()
    found = {f.run: f for f in read_pdf(pdf)}
    assert found["quatre points"].size == pytest.approx(4, abs=0.01)
    for f in found.values():
        assert f.seen is not None
    assert found["moitié"].size == pytest.approx(6, abs=0.01)  # 12 pt in a form drawn at half size
    assert found["gris clair"].behind == (255, 255, 255)
    assert found["gris clair"].ratio == pytest.approx(2.85, abs=0.05)
    assert found["blanc sur vert"].behind == (143, 174, 94)
    assert found["blanc sur vert"].ratio == pytest.approx(2.50, abs=0.01)
    # seen on the page: the strokes of 9 pt text reach neither their ink nor less than it
    assert 1.0 < found["gris clair"].seen_ratio < found["gris clair"].ratio
    assert 1.0 < found["blanc sur vert"].seen_ratio < found["blanc sur vert"].ratio


def test_the_contrast_seen_is_measured_on_the_page(tmp_path):
    """Glyphs as the page shows them, whatever ink they declare: black 24 pt text under a white
    veil of opacity 0.6 declares black (21:1 on white) and shows grey 153 (0.4 × 0 + 0.6 × 255;
    relative luminance 0.319, so 1.05 / 0.369 = 2.85:1); the same text unveiled is seen black
    (21:1); 5 pt text in #6b6b6b on TunHell's beige (#f4ecdc) declares 4.54:1 and is seen
    under 3.5:1 (its strokes are under one pixel wide at 144 dpi); in #2a2a2a over 4.5:1."""
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render.fonts import font_name

    pdf = tmp_path / "seen.pdf"
    c = Canvas(str(pdf), pagesize=(300, 200))
    c.setFont(font_name("sans", bold=True), 24)
    c.setFillColorRGB(0, 0, 0)
    c.drawString(10, 160, "voilé")
    c.drawString(150, 110, "net")
    c.saveState()
    c.setFillColorRGB(1, 1, 1)
    c.setFillAlpha(0.6)
    c.rect(5, 150, 120, 40, stroke=0, fill=1)
    c.restoreState()
    c.setFillColorRGB(0xf4 / 255, 0xec / 255, 0xdc / 255)
    c.rect(0, 0, 300, 100, stroke=0, fill=1)
    c.setFont(font_name("sans"), 5)
    c.setFillColorRGB(0x6b / 255, 0x6b / 255, 0x6b / 255)
    c.drawString(10, 60, "v1.0 · 14418a gris")
    c.setFillColorRGB(0x2a / 255, 0x2a / 255, 0x2a / 255)
    c.drawString(10, 30, "v1.0 · 14418a sombre")
    c.showPage()
    c.save()
    found = {f.run: f for f in read_pdf(pdf)}
    veiled, plain = found["voilé"], found["net"]
    assert veiled.ink == plain.ink == (0, 0, 0) and veiled.ratio == pytest.approx(21.0)
    assert veiled.behind == plain.behind == (255, 255, 255)
    assert veiled.seen == pytest.approx((153, 153, 153), abs=1)
    assert veiled.seen_ratio == pytest.approx(2.85, abs=0.05)
    assert plain.seen == (0, 0, 0) and plain.seen_ratio == pytest.approx(21.0)
    grey_, dark = found["v1.0 · 14418a gris"], found["v1.0 · 14418a sombre"]
    assert grey_.behind == dark.behind == (0xf4, 0xec, 0xdc)
    assert grey_.ratio == pytest.approx(4.54, abs=0.01) and grey_.seen_ratio < 3.5
    assert dark.seen_ratio > 4.5


def test_marks_are_recognised_and_rules_text_is_not():
    assert is_mark("v0.1 · b3f93f", "cristaux")
    assert is_mark("TunHell · aide de jeu · verso", "tunhell")
    assert is_mark("Mine, All Mine\u202f!", "mine_all_mine")
    assert is_mark("faction", "imperial_miners")
    assert not is_mark("Défaussez cette carte\u202f: votre action", "cristaux")
    assert not is_mark("Les cartes I sont gratuites.", "imperial_miners")


def test_contrast_and_deuteranopia_maths():
    from a11y_helpers import contrast

    assert contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast((255, 255, 255), (143, 174, 94)) == pytest.approx(2.50, abs=0.01)  # the old tab
    # Machado's deuteranopia keeps greys grey and maps pure red and green to near-identical olives
    assert deuteranopia((128, 128, 128)) == pytest.approx((128, 128, 128), abs=1)
    red, green = deuteranopia((192, 57, 43)), deuteranopia((46, 139, 62))
    assert abs(grey(red) - grey(green)) < 15


# --- Cristaux: a shape for every crystal colour --------------------------------------------------

FAMILIES = {
    # the crystals themselves (costs, gifts, texts) and the gold nugget: told by their outline
    "crystal": ["crystal-red", "crystal-green", "crystal-blue", "nugget"],
    # runes and royal logos share an outline: told by the white mark inside
    "rune": ["rune-red", "rune-green", "rune-blue"],
    "logo": ["logo-red", "logo-green", "logo-blue"],
    # empty forge squares: the colour's shape, hollow
    "slot": ["slot-red", "slot-green", "slot-blue", "slot-gold"],
}
ICON_PT = 10.0  # about the size they print at in a cost or rune line
PX_PER_PT = 8.0  # 576 dpi


@pytest.fixture(scope="module")
def icon_images(tmp_path_factory):
    """Every icon of FAMILIES drawn at ICON_PT on white and rasterised: name → RGB image."""
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.data.loading import check_game_data
    from cardforge.games import find_game
    from cardforge.render.drawing.game_assets import drawing_assets

    data, _ = check_game_data(find_game("cristaux"))
    assets = drawing_assets(data)  # the icons are Cristaux's own (card_data/cristaux/icons/)
    names = [n for family in FAMILIES.values() for n in family]
    pdf = tmp_path_factory.mktemp("icons") / "icons.pdf"
    step = ICON_PT * 2
    c = Canvas(str(pdf), pagesize=(step * len(names), step * 2))
    for i, name in enumerate(names):
        assets.draw_icon(c, name, i * step + ICON_PT / 2, ICON_PT / 2, ICON_PT)
    c.showPage()
    c.save()
    doc = pdfium.PdfDocument(str(pdf))
    page = doc[0].render(scale=PX_PER_PT).to_pil().convert("RGB")
    doc.close()
    h = page.height
    out = {}
    for i, name in enumerate(names):
        x0 = round((i * step + ICON_PT / 2) * PX_PER_PT)
        y1 = h - round(ICON_PT / 2 * PX_PER_PT)
        out[name] = page.crop((x0, y1 - round(ICON_PT * PX_PER_PT), x0 + round(ICON_PT * PX_PER_PT), y1))
    return out


def _pixels(image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def _seen(image, vision: str):
    """The icon as a reader sees it, in grey levels: printed in greyscale, or through
    deuteranopia (simulated on linear RGB) and then judged by lightness."""
    if vision == "deuteranopia":
        return [grey(deuteranopia(p)) for p in _pixels(image)]
    return [grey(p) for p in _pixels(image)]


def _silhouette(values) -> list[bool]:
    return [v < 235 for v in values]  # anything drawn, on white paper


def _inner_mark(values) -> list[bool]:
    """The light mark inside the shape: light pixels of the icon's middle (22–78 % each way),
    where the rune's diamond and the logo's shield cover everything but the mark."""
    side = round(len(values) ** 0.5)
    lo, hi = round(side * 0.22), round(side * 0.78)
    return [values[y * side + x] > 215 for y in range(lo, hi) for x in range(lo, hi)]


def _iou(a, b) -> float:
    both = sum(1 for x, y in zip(a, b) if x and y)
    either = sum(1 for x, y in zip(a, b) if x or y)
    return both / either


@pytest.mark.parametrize("vision", ["greyscale", "deuteranopia"])
@pytest.mark.parametrize("family", list(FAMILIES))
def test_cristaux_colours_stay_distinct_by_shape(icon_images, family, vision):
    names = FAMILIES[family]
    seen = {n: _seen(icon_images[n], vision) for n in names}
    mask = _silhouette if family in ("crystal", "slot") else _inner_mark
    masks = {n: mask(v) for n, v in seen.items()}
    for n in names:
        assert 0.02 < sum(masks[n]) / len(masks[n]) < 0.98, n  # a real shape, neither empty nor full
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            # binarised masks, not colours: two marks overlap by at most 80 % of their union
            assert _iou(masks[a], masks[b]) < 0.8, (family, vision, a, b, round(_iou(masks[a], masks[b]), 3))


def test_cristaux_colours_alone_would_not_tell_red_from_green(icon_images):
    """Why the shapes are needed: through deuteranopia the red and green crystals' fills are
    about the same grey (the issue measured 96/102/89 in greyscale)."""
    def fill_grey(name):
        values = sorted(v for v in _seen(icon_images[name], "deuteranopia") if 40 < v < 235)
        return values[len(values) // 2]  # the median of the drawn, non-outline pixels
    assert abs(fill_grey("crystal-red") - fill_grey("crystal-green")) < 25


def test_every_forge_square_carries_its_colours_shape():
    """The layout gives every kind of forge square (empty of a colour, wild, already filled) an
    icon: no square is told by its colour alone."""
    import yaml

    layout = yaml.safe_load((Path(__file__).parent.parent / "card_data" / "cristaux" / "templates" / "layout.yaml")
                            .read_text(encoding="utf-8"))
    icons = layout["vars"]["square_icon"]
    colours = ["red", "green", "blue", "gold"]
    assert {c: icons[c] for c in colours} == {c: f"slot-{c}" for c in colours}
    assert icons["any"] == "slot-any"
    assert [icons[f"filled:{c}"] for c in colours] == ["crystal-red", "crystal-green", "crystal-blue", "nugget"]
    assert set(layout["vars"]["square_fill"]) == set(icons)


# --- Mine, All Mine!: the ship back under every quarter turn -------------------------------------

def _card_image(pdf: Path, page_index: int, slot: int, bleed: float = 3.0):
    """The trim box of card ``slot`` on a page, rasterised (4 px per pt, then 1 px per pt)."""
    from render_helpers import card_clips

    reader = pypdf.PdfReader(str(pdf))
    x, y, w, h = card_clips(reader.pages[page_index])[slot].trim(bleed)
    doc = pdfium.PdfDocument(str(pdf))
    page = doc[page_index]
    k = 4.0
    image = page.render(scale=k).to_pil().convert("RGB")
    height = page.get_height()
    doc.close()
    pt = 72 / 25.4
    box = (round(x * pt * k), round((height - (y + h) * pt) * k), round((x + w) * pt * k), round((height - y * pt) * k))
    card = image.crop(box)
    return card.resize((round(card.width / k), round(card.height / k)), resample=3)  # bicubic


def _difference(a, b) -> tuple[float, float]:
    """Mean absolute difference (0–255) and share of pixels off by more than 40, after a blur of
    one pixel (1 pt): the trim box does not fall on whole pixels, so a turned line may land one
    pixel row away from where it stood."""
    from PIL import ImageFilter

    a, b = a.filter(ImageFilter.GaussianBlur(1)), b.filter(ImageFilter.GaussianBlur(1))
    total, off, n = 0, 0, 0
    for p, q in zip(_pixels(a), _pixels(b)):
        d = max(abs(p[i] - q[i]) for i in range(3))
        total += d
        off += d > 40
        n += 1
    return total / n, off / n


def test_ship_back_looks_the_same_under_every_quarter_turn(built_apart):
    built = built_apart
    from PIL import Image

    ships = built / "mine_all_mine" / "deck-ship.pdf"
    back = _card_image(ships, 1, 0)
    assert back.width == back.height  # square: a quarter turn does not show in the outline
    for turn in (Image.Transpose.ROTATE_90, Image.Transpose.ROTATE_180, Image.Transpose.ROTATE_270):
        mean, off = _difference(back, back.transpose(turn))
        assert mean < 2.0 and off < 0.005, (turn, mean, off)
    # every ship card has that one back
    for slot in range(1, 6):
        mean, off = _difference(back, _card_image(ships, 1, slot))
        assert mean < 1.0, slot
    # the check sees an "up": the poker back of the other cards (its title) fails it at 180°
    other = _card_image(built / "mine_all_mine" / "deck.pdf", 1, 3)
    mean, off = _difference(other, other.transpose(Image.Transpose.ROTATE_180))
    assert off > 0.05, (mean, off)


# --- borders near the trim -----------------------------------------------------------------------

FRAME_INSET = 6.0  # mm: twice the 3 mm safe zone


def _mm(value) -> float:
    text = str(value).strip()
    return float(text[:-2]) if text.endswith("mm") else float(text)


def test_frames_and_panels_stand_well_inside_the_trim():
    """A frame or panel drawn parallel to the trim (backs' frames, Imperial Miners' panel) sits at
    least twice the safe zone inside it, so that 1 mm of duplex drift or mis-cut reads as 5
    against 7 mm (not 3 against 5) rather than as a lopsided card."""
    import yaml

    root = Path(__file__).parent.parent
    seen = []
    for folder, path in [("_shared", root / "templates" / "_shared" / "layout.yaml"),
                         *((p.parent.parent.name, p) for p in sorted(root.glob("card_data/*/templates/layout.yaml")))]:
        layouts = yaml.safe_load(path.read_text(encoding="utf-8"))["layouts"]
        for name, layout in layouts.items():
            for box_name, box in (layout.get("boxes") or {}).items():
                if box_name not in ("frame", "inner_frame", "panel") or not box or box.get("bleed"):
                    continue
                insets = [_mm(box[k]) for k in ("x", "y", "right", "bottom") if k in box]
                assert len(insets) == 4, (folder, name, box_name)
                assert min(insets) >= FRAME_INSET, (folder, name, box_name, insets)
                seen.append((folder, name, box_name))
    assert ("_shared", "back", "frame") in seen and ("imperial_miners", "carte-vierge", "panel") in seen
    assert ("maphr", "maphr-back", "frame") in seen
    # the ship back, turned to keep a secret, has no frame at all: a centred emblem
    # (card_data/mine_all_mine/tests/test_ship_back.py)
    assert not [s for s in seen if s[:2] == ("mine_all_mine", "dos-vaisseau")]


def _forge_squares_on_cards(pdf: Path):
    """The red, green and blue empty forge squares as printed on the three « Lunettes » cards
    (cristaux projets: forge squares [red, green], [green, blue], [blue, red]; the last square
    of a card at 52.6 mm from its left edge, the one before at 45.4 mm, 23.2 mm from its top,
    6.2 mm square), rasterised at 600 dpi, 1 mm inside the square's outline."""
    from render_helpers import card_clips, plain

    cards = {"Lunettes du feu et de la terre": {"green": 52.6, "red": 45.4},
             "Lunettes de la terre et de l'eau": {"blue": 52.6, "green": 45.4},
             "Lunettes de l'eau et du feu": {"red": 52.6, "blue": 45.4}}
    reader = pypdf.PdfReader(str(pdf))
    doc = pdfium.PdfDocument(str(pdf))
    k = 600 / 72
    pt = 72 / 25.4
    squares: dict[str, list] = {"red": [], "green": [], "blue": []}
    try:
        for index in range(0, len(doc), 2):  # front pages
            page = doc[index]
            textpage = page.get_textpage()
            text = plain(textpage.get_text_range())
            for name, where in cards.items():
                at = text.find(name)
                if at < 0:
                    continue
                left, bottom, _, _ = textpage.get_charbox(at)
                clip = next(c for c in card_clips(reader.pages[index])
                            if c.trim(3.0)[0] * pt <= left <= (c.trim(3.0)[0] + c.trim(3.0)[2]) * pt
                            and c.trim(3.0)[1] * pt <= bottom <= (c.trim(3.0)[1] + c.trim(3.0)[3]) * pt)
                image = page.render(scale=k).to_pil().convert("RGB")
                x0, y0, w, h = clip.trim(3.0)
                for colour, x in where.items():
                    left_mm, top_mm = x0 + x + 1.0, y0 + h - 23.2 - 1.0  # page mm, y up
                    box = (round(left_mm * pt * k), round(page.get_height() * k - top_mm * pt * k),
                           round((left_mm + 4.2) * pt * k), round(page.get_height() * k - (top_mm - 4.2) * pt * k))
                    squares[colour].append(image.crop(box))
    finally:
        doc.close()
    return squares


@pytest.mark.parametrize("vision", ["greyscale", "deuteranopia"])
def test_cristaux_forge_squares_on_the_printed_cards_differ_by_shape(built_apart, vision):
    built = built_apart
    squares = _forge_squares_on_cards(built / "cristaux" / "deck.pdf")
    assert {c: len(v) for c, v in squares.items()} == {"red": 2, "green": 2, "blue": 2}

    def mask(image):
        values = _seen(image, vision)
        lo, hi = min(values), max(values)
        return [v < (lo + hi) / 2 for v in values]  # the mark: the darker half of the square

    masks = {c: [mask(i) for i in images] for c, images in squares.items()}
    for colour, (a, b) in masks.items():
        assert _iou(a, b) > 0.9, colour  # the same colour prints the same mark on every card
    for a, b in (("red", "green"), ("green", "blue"), ("red", "blue")):
        assert _iou(masks[a][0], masks[b][0]) < 0.6, (vision, a, b, round(_iou(masks[a][0], masks[b][0]), 3))
    if vision == "deuteranopia":
        # while their backgrounds alone (the square's fill) are about the same grey
        def fill(image):
            values = sorted(_seen(image, vision))
            return values[len(values) * 9 // 10]
        assert abs(fill(squares["red"][0]) - fill(squares["green"][0])) < 12
