"""Sheet geometry: imposition, duplex mirroring, back offset, crop marks, gutter fold.

Expected numbers are worked out by hand in the comments, independently of the code."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardforge.layout.geometry import (
    Rect,
    SheetError,
    back_placements,
    mirror_axis,
    mirror_turn,
    trim_lines,
)
from cardforge.layout.imposition import fold_marks, fold_sheet, impose, printable_area, sheet_plan

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)


def test_poker_cards_on_a4_go_landscape_four_by_two():
    # the separate-bleed layout (--gutter 0), 8 mm margins. cell 63+6 × 88+6 = 69 × 94. Portrait: (210-16)/69 → 2 cols, (297-16)/94 → 2 rows = 4.
    # Landscape: (297-16)/69 = 4.07 → 4 cols, (210-16)/94 = 2.06 → 2 rows = 8.
    sheet = impose(A4, (63, 88), gutter=0, margin=8)
    assert (sheet.orientation, sheet.page, sheet.cols, sheet.rows, sheet.per_page) == \
        ("landscape", (297.0, 210.0), 4, 2, 8)
    # grid 276 × 188 centred: left bleed edge at (297-276)/2 = 10.5, trim at 13.5;
    # top bleed edge at 210 - (210-188)/2 = 199, first trim top at 196, trim bottom 108.
    first = sheet.slots[0]
    assert (first.x, first.y, first.w, first.h) == pytest.approx((13.5, 108.0, 63, 88))
    # second card of the row: one cell (69 mm) to the right; first of row two: 94 mm lower
    assert sheet.slots[1].x == pytest.approx(13.5 + 69)
    assert sheet.slots[4].y == pytest.approx(108.0 - 94)


def test_square_maphr_cards_on_a4_portrait_two_by_three():
    # separate bleed, 8 mm margins: 76 × 76 cells: portrait 194/76 → 2, 281/76 → 3 = 6;
    # landscape 281/76 → 3, 194/76 → 2 = 6: a tie → the one with more room above and below the
    # grid: portrait 297 - 228 = 69 mm, landscape 210 - 152 = 58 mm
    sheet = impose(A4, (70, 70), gutter=0, margin=8)
    assert (sheet.orientation, sheet.cols, sheet.rows) == ("portrait", 2, 3)


def test_explicit_orientation_and_gutter_and_no_bleed():
    # no bleed, 5 mm gutter, portrait: cols: (194+5)/(63+5) = 2.9 → 2; rows (281+5)/(88+5) = 3.07 → 3
    sheet = impose(A4, (63, 88), bleed=0, gutter=5, margin=8, orientation="portrait", mixed=False)
    assert (sheet.cols, sheet.rows) == (2, 3)
    assert sheet.slots[1].x - sheet.slots[0].right == pytest.approx(5)


def test_letter_paper():
    # Letter 215.9 × 279.4, TunHell 56 × 88, 6.35 mm printer margin and 2 mm of printable bleed:
    # the trims 8.35 mm from the edges, within 199.2 × 262.7. Portrait 3 × 88 = 264 > 262.7: 3 × 2.
    # Landscape grid: 262.7 / 56 → 4, 199.2 / 88 → 2: 8. Landscape, 3 upright columns butted in
    # rows (168), 2 rows with bleed between (182), 6 mm, then a column of cards on their side (88
    # wide: 168 + 6 + 88 = 262 ≤ 262.7; (199.2 + 6) / (56 + 6) → 3): 6 + 3 = 9
    sheet = impose(LETTER, (56, 88), printer=6.35)
    assert (sheet.orientation, sheet.per_page, sheet.butt, sheet.extra) == ("landscape", 9, (True, False), 3)
    assert impose(LETTER, (56, 88), printer=6.35, mixed=False).per_page == 8
    assert min(min(t.x, t.y) for t in sheet.slots) >= 6.35 + 2 - 1e-9
    # the old 5 mm margins around the bleed: 199.9 / 62 → 3, 263.4 / 94 → 2 each card its own
    # bleed = 6; landscape 4 × 2 = 8
    assert impose(LETTER, (56, 88), gutter=0, margin=5, printer=6.35).per_page == 8


def test_a_card_too_big_for_the_paper_is_refused_with_the_sizes():
    with pytest.raises(SheetError, match=r"a 200×300 mm card with 3 mm bleed does not fit on a 210×297 mm page"):
        impose(A4, (200, 300))


@settings(max_examples=200, deadline=None)
@given(w=st.floats(20, 130), h=st.floats(20, 130), bleed=st.floats(0, 5), gutter=st.floats(0, 8),
       margin=st.floats(0, 15), paper=st.sampled_from([A4, LETTER]),
       orientation=st.sampled_from(["auto", "portrait", "landscape"]))
@pytest.mark.slow
def test_imposition_invariants(w, h, bleed, gutter, margin, paper, orientation):
    try:
        sheet = impose(paper, (w, h), bleed=bleed, gutter=gutter, margin=margin, orientation=orientation, mixed=False)
    except SheetError:
        return
    pw, ph = sheet.page
    printable = Rect(margin, margin, pw - 2 * margin, ph - 2 * margin)
    boxes = [s.grow(bleed) for s in sheet.slots]
    assert len(boxes) == sheet.cols * sheet.rows >= 1
    for i, b in enumerate(boxes):
        assert printable.contains(b, eps=1e-6)  # every card, bleed included, inside the margins
        for other in boxes[i + 1:]:
            assert not b.overlaps(other)  # bleeds never overlap
    # maximal: one more column (or row) would not fit
    assert sheet.cols * (w + 2 * bleed) + (sheet.cols) * gutter + (w + 2 * bleed) > pw - 2 * margin - 1e-6
    assert sheet.rows * (h + 2 * bleed) + (sheet.rows) * gutter + (h + 2 * bleed) > ph - 2 * margin - 1e-6
    # centred
    left = min(b.x for b in boxes)
    right = max(b.right for b in boxes)
    assert left == pytest.approx(pw - right, abs=1e-6)


def test_long_edge_portrait_mirrors_left_and_right():
    sheet = impose(A4, (70, 70), gutter=0, margin=8)  # portrait, 2 × 3
    backs = back_placements(sheet.slots, sheet.page, "long-edge")
    for front, back in zip(sheet.slots, backs):
        assert back.trim.x == pytest.approx(210 - front.x - 70)
        assert back.trim.y == pytest.approx(front.y)
        assert not back.rotated
    # the left card of a row has its back in the right column
    assert backs[0].trim.x == pytest.approx(sheet.slots[1].x)


def test_short_edge_portrait_mirrors_top_and_bottom_and_turns_backs():
    sheet = impose(A4, (70, 70), orientation="portrait")
    backs = back_placements(sheet.slots, sheet.page, "short-edge")
    for front, back in zip(sheet.slots, backs):
        assert back.trim.x == pytest.approx(front.x)
        assert back.trim.y == pytest.approx(297 - front.y - 70)
        assert back.rotated


def test_landscape_pages_turn_over_the_other_way():
    # a landscape page's long edge is horizontal: long-edge flips top/bottom
    assert mirror_axis((297, 210), "long-edge") == "y"
    assert mirror_axis((297, 210), "short-edge") == "x"
    assert mirror_axis((210, 297), "long-edge") == "x"
    assert mirror_axis((210, 297), "none") == "x"


def test_back_offset_shifts_every_back():
    sheet = impose(A4, (63, 88), orientation="portrait")
    plain = back_placements(sheet.slots, sheet.page, "long-edge")
    shifted = back_placements(sheet.slots, sheet.page, "long-edge", (0.8, -0.5))
    for a, b in zip(plain, shifted):
        assert (b.trim.x - a.trim.x, b.trim.y - a.trim.y) == pytest.approx((0.8, -0.5))


@settings(max_examples=100, deadline=None)
@given(w=st.floats(25, 100), h=st.floats(25, 120), bleed=st.floats(0, 4),
       duplex=st.sampled_from(["long-edge", "short-edge"]), paper=st.sampled_from([A4, LETTER]))
@pytest.mark.slow
def test_backs_land_exactly_on_the_front_grid(w, h, bleed, duplex, paper):
    """Mirrored backs of a centred grid occupy exactly the set of front slots, so each back
    sits behind a card position and no back leaves the page."""
    try:
        sheet = impose(paper, (w, h), bleed=bleed, mixed=False)
    except SheetError:
        return
    backs = back_placements(sheet.slots, sheet.page, duplex)
    key = lambda r: (round(r.x, 3), round(r.y, 3), r.x, r.y)  # noqa: E731  (sorted alike, compared exactly)
    for got, want in zip(sorted(key(b.trim) for b in backs), sorted(key(s) for s in sheet.slots)):
        assert got[2:] == pytest.approx(want[2:], abs=1e-6)


def test_crop_marks_sit_on_every_trim_line_outside_the_cards():
    sheet = impose(A4, (63, 88), gutter=0, margin=8)  # separate bleed: landscape 4 × 2, bleed 3
    marks = sheet_plan(sheet).marks
    xs, ys = trim_lines(sheet.slots)
    # 4 columns → 8 vertical trim lines (bleed separates neighbours); 2 rows → 4 horizontal
    assert len(xs) == 8 and len(ys) == 4
    for x in xs:
        at = [m for m in marks if m.vertical and m.x1 == pytest.approx(x)]
        assert len(at) == 2  # one above the cards, one below
        # the grid's bleed spans y 11 to 199: marks from 1 mm beyond it towards the printable
        # area's edge (5 mm from the paper's), stopping 3.25 mm short of it for a line of text
        assert sorted((m.y1, m.y2) for m in at) == [pytest.approx((8.25, 10)), pytest.approx((200, 201.75))]
    for y in ys:
        at = [m for m in marks if not m.vertical and m.y1 == pytest.approx(y)]
        assert len(at) == 2
    bleed_boxes = [s.grow(3) for s in sheet.slots]
    printable = printable_area(sheet.page, 5.0)
    for m in marks:
        seg = Rect(min(m.x1, m.x2), min(m.y1, m.y2), abs(m.x2 - m.x1), abs(m.y2 - m.y1))
        assert not any(b.overlaps(seg.grow(1e-9)) for b in bleed_boxes)
        assert printable.contains(seg)  # never in the printer's margin


def test_without_bleed_neighbours_share_trim_lines():
    sheet = impose(A4, (63, 88), bleed=0)
    xs, ys = trim_lines(sheet.slots)
    assert len(xs) == sheet.cols + 1 and len(ys) == sheet.rows + 1


def test_gutter_fold_mirrors_fronts_across_the_middle():
    sheet = fold_sheet(A4, (70, 70), gutter=0, margin=8)
    # portrait, fold vertical: each half's trims from 8 + 3 to 105 - 3: 91 wide → 1 column; 297 -
    # 22 = 275 high: 3 × 70 + 2 × 6 = 222 → 3 rows (each card its own bleed)
    assert (sheet.orientation, sheet.axis, sheet.per_page) == ("portrait", "vertical", 3)
    for front, back in zip(sheet.fronts, sheet.backs):
        assert front.right <= 105 and back.trim.x >= 105
        assert back.trim.x == pytest.approx(210 - front.x - 70) and back.trim.y == pytest.approx(front.y)
        assert not back.rotated
    top, bottom = fold_marks(sheet)
    assert top.x1 == bottom.x1 == pytest.approx(105)
    # the cards' trims span y 37.5 to 259.5 (222 centred in 11 to 286), their bleed 34.5 to 262.5:
    # the dashes start 1 mm beyond it and stop a line of text (3.25 mm) short of the printable
    # area's edge (5 mm from the paper's)
    assert (bottom.y1, bottom.y2) == pytest.approx((5 + 3.25, 33.5))
    assert (top.y1, top.y2) == pytest.approx((263.5, 292 - 3.25))


def test_gutter_fold_picks_the_layout_that_fits_most():
    # poker on A4, each card its own bleed, 5 mm margins: landscape + vertical fold: a half's
    # trims from 8 to 145.5 (137.5: 2 × 63 + 6 = 132) and 194 high (2 × 88 + 6 = 182): 4
    sheet = fold_sheet(A4, (63, 88), gutter=0, margin=5)
    assert (sheet.orientation, sheet.axis, sheet.per_page) == ("landscape", "vertical", 4)
    # portrait: vertical fold (94 wide halves: 1 column, 3 × 88 + 12 = 276 ≤ 281: 3) beats the
    # horizontal one (2 × 1)
    assert fold_sheet(A4, (63, 88), gutter=0, margin=5, orientation="portrait").axis == "vertical"
    # a wide 100 × 40 card in portrait: a vertical half (94 wide) holds none, a horizontal half
    # (194 wide, trims from 151.5 to 289: 3 × 40 + 12 = 132) holds 1 × 3
    sheet = fold_sheet(A4, (100, 40), gutter=0, margin=5, orientation="portrait")
    assert (sheet.axis, sheet.per_page) == ("horizontal", 3)
    for front, back in zip(sheet.fronts, sheet.backs):
        assert front.y >= 148.5 and back.trim.top <= 148.5
        assert back.rotated and back.trim.y == pytest.approx(297 - front.y - 40)


def test_a_back_turns_so_the_card_turned_like_a_book_page_shows_it_upright():
    # upright fronts: mirrored left-right the back is upright, mirrored top-bottom upside down
    assert (mirror_turn(0, "x"), mirror_turn(0, "y")) == (0, 2)
    # a front lying on its side, its top to the page's left (1 quarter turn): mirrored left-right
    # its back's top points right (3), mirrored top-bottom still left (1)
    assert (mirror_turn(1, "x"), mirror_turn(1, "y")) == (3, 1)
    assert all(mirror_turn(mirror_turn(t, a), a) == t for t in range(4) for a in "xy")
