"""The duplex calibration sheet: the reading is the --back-offset that cancels the error."""

from __future__ import annotations

import ctypes
import re

import pypdf
import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from cardforge.layout.geometry import Rect, back_placements, mirror, mirror_axis
from cardforge.render.sheets.calibration import render_calibration, scale_signs, targets
from cardforge.units import MM

from a11y_helpers import text_lines
from render_helpers import line_segments

PAGES = [(210.0, 297.0), (297.0, 210.0)]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
@pytest.mark.parametrize("error", [(1.0, 0.0), (0.0, -0.75), (-0.5, 1.25)])
def test_the_reading_cancels_the_printers_error(page, duplex, error):
    """A printer shifts the back page by ``error`` (back-page coordinates). The back's crosshair
    is seen through the sheet at some displacement from the front's target; the scales label
    that displacement with the offset to build with; building with it puts backs in place."""
    axis = mirror_axis(page, duplex)
    tx, ty = targets(page)[1]
    printed = mirror(Rect(tx, ty, 0, 0), page, axis).shift(*error)  # where the crosshair lands
    seen = mirror(printed, page, axis)  # a back point sits behind its mirror image on the front
    sx, sy = scale_signs(page, duplex)
    reading = (sx * (seen.x - tx), sy * (seen.y - ty))
    assert reading == pytest.approx((-error[0], -error[1]))
    # a card's back built with that offset, then shifted by the printer, lands behind its front
    front = Rect(20, 30, 63, 88)
    [back] = back_placements((front,), page, duplex, reading)
    landed = mirror(back.trim.shift(*error), page, axis)
    assert (landed.x, landed.y) == pytest.approx((front.x, front.y))


def test_the_back_page_draws_a_crosshair_behind_each_target(tmp_path):
    path = tmp_path / "cal.pdf"
    render_calibration(path, (210.0, 297.0), "portrait", "long-edge")
    reader = pypdf.PdfReader(path)
    assert len(reader.pages) == 2
    assert "--back-offset X,Y" in reader.pages[0].extract_text()
    back = line_segments(reader.pages[1])
    for tx, ty in targets((210.0, 297.0)):
        # long-edge portrait: behind (tx, ty) is (210 - tx, ty)
        assert any(s[0] == s[2] == pytest.approx(210 - tx) for s in back)
        assert any(s[1] == s[3] == pytest.approx(ty) for s in back)


def test_an_offset_under_test_moves_the_crosshairs(tmp_path):
    path = tmp_path / "cal.pdf"
    render_calibration(path, (210.0, 297.0), "portrait", "long-edge", offset=(1.0, -0.5))
    back = line_segments(pypdf.PdfReader(path).pages[1])
    tx, ty = targets((210.0, 297.0))[0]
    assert any(s[0] == s[2] == pytest.approx(210 - tx + 1.0) for s in back)
    assert any(s[1] == s[3] == pytest.approx(ty - 0.5) for s in back)


def test_one_sided_modes_are_refused(tmp_path):
    with pytest.raises(ValueError, match="two-sided mode"):
        render_calibration(tmp_path / "x.pdf", (210.0, 297.0), duplex="none")


# --- the printer's frame: one offset for portrait and landscape files -------------------------

def paper_point(page, x, y):
    """Where a page point lands on the portrait paper, as the printed side is seen upright: a
    portrait page as it is; a landscape page turned a quarter counter-clockwise (its top along
    the paper's left edge), as print drivers turn landscape pages."""
    w, h = page
    if w <= h:
        return (x, y)
    return (h - y, x)


@pytest.mark.parametrize("orientation", ["portrait", "landscape"])
def test_one_printer_frame_offset_moves_backs_the_same_physical_way(monkeypatch, tmp_path, orientation):
    """--back-offset 1,0.5 moves every back 1 mm towards the paper's right edge and 0.5 mm
    towards its leading edge, in a portrait file and in a landscape one."""
    from cardforge.data.loading import load_game_data
    from cardforge.render.cards.decks import build_decks
    from cardforge.settings import BuildSettings

    from render_helpers import FIXTURE_DATA, FIXTURE_TEMPLATES, card_clips, register_fixture_game

    register_fixture_game(monkeypatch)
    from cardforge.games import find_game

    game = find_game("fixture_deck")
    data = load_game_data(game, root=FIXTURE_DATA)
    backs = {}
    for offset in ((0.0, 0.0), (1.0, 0.5)):
        out = tmp_path / f"{offset[0]}"
        settings = BuildSettings(out_dir=out, orientation=orientation, back_offset_mm=offset)
        build_decks(game, data, settings, out / game.id, templates_dir=FIXTURE_TEMPLATES)
        reader = pypdf.PdfReader(out / game.id / "deck.pdf")
        page = tuple(round(float(v) / 72 * 25.4, 1) for v in reader.pages[1].mediabox[2:])
        assert (page[0] > page[1]) == (orientation == "landscape")
        backs[offset] = [(c.x + c.w / 2, c.y + c.h / 2) for c in card_clips(reader.pages[1])]
    for (x0, y0), (x1, y1) in zip(backs[(0.0, 0.0)], backs[(1.0, 0.5)]):
        a, b = paper_point(page, x0, y0), paper_point(page, x1, y1)
        assert (b[0] - a[0], b[1] - a[1]) == pytest.approx((1.0, 0.5), abs=2e-3)


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
@pytest.mark.parametrize("error", [(1.0, 0.0), (0.0, -0.75), (-0.5, 1.25)])
def test_both_sheets_read_the_printer_frame_offset(page, duplex, error):
    """A printer puts the back image ``error`` mm off (printer's frame). On either sheet, the
    rulers crossed by the back's crosshair read the offset that cancels it: -error."""
    from cardforge.render.sheets.calibration import rulers

    # the error as a shift of the back page: turned with the landscape page (independently of
    # page_offset: a paper vector (X, Y) is the page vector (Y, -X) on a ccw-turned page)
    page_error = error if page[0] <= page[1] else (error[1], -error[0])
    axis = mirror_axis(page, duplex)
    tx, ty = targets(page)[0]
    printed = mirror(Rect(tx, ty, 0, 0), page, axis).shift(*page_error)
    seen = mirror(printed, page, axis)
    (h_name, h_value), (v_name, v_value) = rulers(page, duplex, (0.0, 0.0))
    reading = {h_name: h_value(seen.x - tx), v_name: v_value(seen.y - ty)}
    assert (reading["X"], reading["Y"]) == pytest.approx((-error[0], -error[1]))
    # on the landscape sheet the horizontal ruler reads Y (the paper's long side)
    assert (h_name, v_name) == (("X", "Y") if page[0] <= page[1] else ("Y", "X"))


def test_the_sheet_names_its_orientation(tmp_path):
    for orientation in ("portrait", "landscape"):
        path = tmp_path / f"{orientation}.pdf"
        render_calibration(path, (210.0, 297.0), orientation, "long-edge", offset=(0.5, -0.25))
        text = " ".join(pypdf.PdfReader(path).pages[0].extract_text().split())
        assert f"{orientation.upper()} sheet" in text
        back = " ".join(pypdf.PdfReader(path).pages[1].extract_text().split())
        assert f"{orientation.upper()} sheet, back page" in back
    # the landscape sheet's back is shifted by the offset turned onto the page: (-0.25, -0.5)
    back = line_segments(pypdf.PdfReader(tmp_path / "landscape.pdf").pages[1])
    tx, ty = targets((297.0, 210.0))[0]
    # landscape long-edge mirrors y: behind (tx, ty) is (tx, 210 - ty)
    assert any(s[0] == s[2] == pytest.approx(tx - 0.25) for s in back)
    assert any(s[1] == s[3] == pytest.approx(210 - ty - 0.5) for s in back)


def _scale_words(path, index: int) -> list[tuple[float, float, float, str]]:
    """The 5-pt words on a page (the scales' numbers and axis names) as a reader sees them:
    (baseline, left, right in mm, text), from the glyphs' ink boxes; glyphs less than 0.4 mm
    apart make one word (a digit's side bearings leave up to ~0.35 mm at 5 pt)."""
    doc = pdfium.PdfDocument(str(path))
    textpage = doc[index].get_textpage()
    glyphs = []
    for i in range(textpage.count_chars()):
        ch = textpage.get_text_range(i, 1)
        if ch.strip() and abs(raw.FPDFText_GetFontSize(textpage, i) - 5.0) < 0.01:
            left, _, right, _ = textpage.get_charbox(i)
            x, y = ctypes.c_double(), ctypes.c_double()
            raw.FPDFText_GetCharOrigin(textpage, i, x, y)
            glyphs.append((round(y.value / MM, 1), left / MM, right / MM, ch))
    doc.close()
    words: list[list] = []
    for g in sorted(glyphs):
        last = words[-1] if words else None
        if last is not None and last[0] == g[0] and g[1] - last[2] < 0.4:
            last[2], last[3] = g[2], last[3] + g[3]
        else:
            words.append(list(g))
    return [(b, left, right, text) for b, left, right, text in words]


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.25, -0.5), (-2.75, 3.0)])
def test_the_scales_numbers_are_5_pt_and_never_touch(tmp_path, offset):
    """No text under 5 pt (the contract of every built PDF), and two numbers side by side on a
    scale keep at least 0.5 mm apart, whatever decimals the offset under test gives them."""
    path = tmp_path / "c.pdf"
    render_calibration(path, (210.0, 297.0), "portrait", "long-edge", offset=offset)
    doc = pdfium.PdfDocument(str(path))
    sizes = [run.size for index in range(len(doc)) for line in text_lines(doc[index], index) for run in line.runs]
    doc.close()
    assert sizes and min(sizes) >= 5.0
    words = _scale_words(path, 0)
    numbers = [w for w in words if w[3] not in ("X", "Y")]
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", text) for *_, text in numbers), numbers  # none ran together
    assert len(numbers) >= 5 * 10  # five targets, at least 3 numbers on X and 7 on Y each
    rows: dict[float, list[tuple[float, float]]] = {}
    for baseline, left, right, _ in numbers:
        rows.setdefault(baseline, []).append((left, right))
    for spans in rows.values():
        spans.sort()
        assert all(b[0] - a[1] >= 0.5 for a, b in zip(spans, spans[1:])), spans
