"""Laying cards out (layout/imposition.py): the printable band, butted and partly butted grids,
turned blocks, the cutting plan and its marks, the margins' free areas, gutter-fold butting
and placing cards so that unlike edges never meet. Pure geometry: expected numbers are worked
out by hand in the comments."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cardforge.layout.geometry import Placement, Rect, SheetError, back_placements, clip_boxes, mirror, mirror_axis
from cardforge.layout.imposition import (
    CROP_GAP_MM,
    CROP_MIN_MM,
    INK_CLEARANCE_MM,
    PRINTABLE_BLEED_MM,
    TEXT_BAND_MM,
    choose,
    contacts,
    cutting_plan,
    fold_options,
    fold_sheet,
    free_areas,
    impose,
    label_room,
    marks_print,
    printable_area,
    segment_box,
    sequence,
    sheet_options,
    sheet_plan,
    sheets_needed,
    trim_area,
)
from cardforge.settings import BuildSettings, default_printer_margin, paper_size

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
DEFAULT = BuildSettings()  # 3 mm bleed, automatic margin, 5 mm printer margin, no gutter given


def default_sheet(paper, card, printer=5.0, **options):
    return impose(paper, card, bleed=DEFAULT.bleed_mm, gutter=DEFAULT.gutter_mm, margin=DEFAULT.margin_mm,
                  printer=printer, **options)


def test_printer_margins_by_paper():
    assert default_printer_margin("a4") == default_printer_margin("a3") == 5.0
    assert default_printer_margin("letter") == default_printer_margin("Tabloid") == 6.35  # 1/4 in
    assert default_printer_margin("320x450") == 5.0
    assert BuildSettings(paper="letter").printer_margin == 6.35
    assert BuildSettings(paper="letter", printer_margin_mm=3).printer_margin == 3
    with pytest.raises(ValueError, match="must not be negative"):
        BuildSettings(printer_margin_mm=-1)


def test_trims_go_inside_the_printable_area_and_their_bleed_into_its_margin():
    # automatic margin: 2 mm of the bleed inside the printable area (a cut 2 mm off shows no
    # white), so the trims 5 + 2 = 7 mm from the edge, the last 1 mm of bleed in the band
    assert PRINTABLE_BLEED_MM == 2.0
    assert trim_area(A4, 3.0, None, 5.0) == Rect(7, 7, 196, 283)
    # a bleed narrower than 2 mm: all of it printable (5 + 1)
    assert trim_area(A4, 1.0, None, 5.0) == Rect(6, 6, 198, 285)
    # asked for none (the fallback when nothing fits): the trims at the band, as before issue 38
    assert trim_area(A4, 3.0, None, 5.0, printable_bleed=0.0) == Rect(5, 5, 200, 287)
    # a printer margin narrower than the bleed: 2 + 2 = 4 mm, and the bleed still on the paper
    assert trim_area(A4, 3.0, None, 2.0) == Rect(4, 4, 202, 289)
    assert trim_area(A4, 3.0, None, 0.5) == Rect(3, 3, 204, 291)
    # a margin given: the cards with their bleed that far from the edge (4 + 3)
    assert trim_area(A4, 3.0, 4.0, 5.0) == Rect(7, 7, 196, 283)


def test_letter_poker_keeps_two_mm_of_printable_bleed():
    # Letter 215.9 × 279.4, 6.35 mm printer margin, 2 mm of printable bleed: trims 8.35 mm from
    # the edges, within 199.2 × 262.7; 3 × 88 = 264 no longer fits (the issue: the 3 × 3 grid's
    # trims 7.7 mm from the edge left 1.35 mm of bleed printable). Landscape: 262.7 / 63 → 4
    # columns butted (4 × 63 + 3 × 6 = 270 apart does not fit), 2 rows with bleed between them
    # (2 × 88 + 6 = 182 ≤ 199.2): 8
    sheet = default_sheet(LETTER, (63, 88), printer=6.35)
    assert (sheet.orientation, sheet.cols, sheet.rows, sheet.butt) == ("landscape", 4, 2, (True, False))
    assert min(t.x for t in sheet.slots) == pytest.approx((279.4 - 252) / 2)  # 13.7 ≥ 8.35
    assert min(t.y for t in sheet.slots) == pytest.approx((215.9 - 182) / 2)  # 16.95 ≥ 8.35


def test_letter_poker_nine_a_sheet_with_no_printable_bleed():
    # the old rule (trims at the printer margin: printable_bleed=0): within 203.2 × 266.7,
    # 3 × 63 = 189 and 3 × 88 = 264 fit: 9 (the old 5 mm margin around the bleed: 8)
    sheet = default_sheet(LETTER, (63, 88), printer=6.35, printable_bleed=0.0)
    assert (sheet.orientation, sheet.cols, sheet.rows, sheet.butt) == ("portrait", 3, 3, (True, True))
    # the grid's bleed comes within (279.4 - 264) / 2 - 3 = 4.7 mm of the top and bottom edges,
    # inside the printer margin: no crop mark prints above or below the cards, so the first
    # cuts are the horizontal lines, marked left and right: from 1 mm beyond the bleed
    # ((215.9 - 189) / 2 - 3 = 10.45 mm from the edge) to the printable area, 3.1 mm long
    plan = sheet_plan(sheet)
    assert plan.printable and plan.first == "horizontal"
    assert plan.first_lines == pytest.approx((271.7, 183.7, 95.7, 7.7))
    assert all(not m.vertical for m in plan.marks)
    left = sorted((m for m in plan.marks if m.x1 < 100), key=lambda m: m.y1)
    assert [(m.x1, m.x2) for m in left] == [pytest.approx((6.35, 9.45))] * 4
    assert old_letter_count() == 8


def old_letter_count():
    return impose(LETTER, (63, 88), margin=5.0, printer=6.35).per_page


@pytest.mark.parametrize("paper, card, printer, expected", [
    # (trims 7 mm from the edges, within 196 × 283)
    # poker 63 × 88 on A4: 3 × 63 = 189 ≤ 196, 3 × 88 = 264 ≤ 283: 9, butted; bleed between
    # the rows would fit too (264 + 12 = 276) but leave (297 - 276) / 2 - 3 = 7.5 mm beside the
    # cards, no room for the label: fully butted
    (A4, (63, 88), 5.0, ("portrait", 3, 3, (True, True))),
    # Maphr's 70 mm squares: 4 × 70 = 280 ≤ 283 wide in landscape, 2 rows with bleed between
    # them (146 ≤ 196): 8, as many as butting both ways; 64 - 3 mm above and below for labels
    (A4, (70, 70), 5.0, ("landscape", 4, 2, (True, False))),
    # TunHell 56 × 88 on A4: landscape 5 × 56 = 280 ≤ 283, 2 rows of 88 with bleed between
    # (182 ≤ 196): 10 (portrait 3 × 3 = 9)
    (A4, (56, 88), 5.0, ("landscape", 5, 2, (True, False))),
    # poker on Letter: see test_letter_poker_keeps_two_mm_of_printable_bleed
    (LETTER, (63, 88), 6.35, ("landscape", 4, 2, (True, False))),
])
def test_the_best_sheet_for_each_card_and_paper(paper, card, printer, expected):
    sheet = default_sheet(paper, card, printer)
    assert (sheet.orientation, sheet.cols, sheet.rows, sheet.butt) == expected
    assert marks_print(sheet) and label_room(sheet) == 2


def test_each_card_its_own_bleed_on_a_tie():
    # 8 mm margins: poker butted portrait 2 × 3 (188 / 63 → 2), landscape 4 × 2 = 8; each card
    # its own bleed, landscape 4 × 63 + 3 × 6 = 270 ≤ 275 and 2 × 88 + 6 = 182 ≤ 188: 8 as well
    sheet = impose(A4, (63, 88), margin=8.0)
    assert not sheet.shared and sheet.per_page == 8 and sheet.layout == "separate"


def test_gutter_always_gives_each_card_its_own_bleed():
    sheet = impose(A4, (63, 88), gutter=2)
    assert not sheet.shared
    assert sheet.slots[1].x - sheet.slots[0].right == pytest.approx(2 + 2 * 3)


def test_papers_beyond_a4_and_letter():
    assert paper_size("a3") == (297.0, 420.0) and paper_size("Tabloid") == (279.4, 431.8)
    assert paper_size("320x450") == (320.0, 450.0) and paper_size("330×488mm") == (330.0, 488.0)
    with pytest.raises(ValueError, match=r"unknown paper 'b5' \(allowed: a4-letter, a4, letter, a3, tabloid"):
        paper_size("b5")
    # poker on A3, trims within 287 × 410 (the printer margin alone: the old rule, so the
    # block of turned cards still fits): portrait 287 / 63 → 4, 410 / 88 → 4 = 16; landscape
    # 410 / 63 → 6, 287 / 88 → 3 = 18; or 5 columns (315), 6 mm, and a column of cards on their
    # side (88 wide: 315 + 6 + 88 = 409 ≤ 410; 287 / 63 → 4): 15 + 4 = 19
    sheet = default_sheet(paper_size("a3"), (63, 88), printable_bleed=0.0)
    assert (sheet.per_page, sheet.cols, sheet.rows, sheet.extra) == (19, 5, 3, 4)
    assert default_sheet(paper_size("a3"), (63, 88), mixed=False, printable_bleed=0.0).per_page == 18
    # with 2 mm of printable bleed (within 283 × 406): 405 ≥ 5 × 63 + 6 + 88 = 409 fails; 18
    assert default_sheet(paper_size("a3"), (63, 88)).per_page == 18
    # a 320 × 450 mm press sheet, trims within 306 × 436 (7 mm from the edges): a grid,
    # portrait 306 / 63 → 4, 436 / 88 → 4 = 16; landscape 6 columns each with its own bleed
    # (6 × 63 + 5 × 6 = 408 ≤ 436), 3 rows (3 × 88 + 2 × 6 = 276 ≤ 306) = 18. Or landscape 4
    # upright columns butted in rows (252), 3 rows with bleed between (276), 6 mm, then cards on
    # their side: 436 - 252 - 6 = 178 → 2 columns of 88, (306 + 6) / (63 + 6) → 4 rows: 12 + 8 = 20
    grid = default_sheet(paper_size("320x450"), (63, 88), mixed=False)
    assert (grid.per_page, grid.orientation, grid.cols, grid.rows, grid.butt) == (18, "landscape", 6, 3, (False, False))
    assert sheet_plan(grid).first == "horizontal"
    sheet = default_sheet(paper_size("320x450"), (63, 88))
    assert (sheet.per_page, sheet.orientation, sheet.cols, sheet.rows, sheet.extra) == (20, "landscape", 4, 3, 8)
    assert sheet_plan(sheet).printable
    with pytest.raises(ValueError):
        BuildSettings(paper="12x12")


def test_a_turned_column_beside_the_grid_when_it_fits_more():
    # tarot 70 × 120 on A4 (trims within 200 × 287): 2 × 2 = 4 upright; one column of 2 upright
    # (70 wide; 2 × 120 + 6 = 246 high) and, 6 mm on, a column of cards on their side (120 wide:
    # 70 + 6 + 120 = 196 ≤ 200; 3 × 70 + 2 × 6 = 222 ≤ 287 high): 5
    sheet = default_sheet(A4, (70, 120))
    assert (sheet.orientation, sheet.per_page, sheet.cols, sheet.rows, sheet.extra) == ("portrait", 5, 1, 2, 3)
    assert sheet.turns == (0, 0, 1, 1, 1)
    assert [(s.w, s.h) for s in sheet.slots] == [(70, 120)] * 2 + [(120, 70)] * 3
    # cut in straight lines: first the vertical lines across the whole sheet (the columns' edges,
    # marks above and below: nothing crosses them), then each column's horizontal lines
    plan = sheet_plan(sheet)
    assert plan.printable and plan.first == "vertical"
    assert plan.first_lines == pytest.approx((7, 77, 83, 203))  # 196 centred: 7, 7 + 70, +6, +120
    assert [len(p.lines) for p in plan.root.pieces] == [4, 6]
    assert impose(A4, (70, 120), mixed=False).per_page == 4
    # their backs, mirrored left to right, turned so each card turned like a book page shows its
    # back upright: the turned ones' tops point right (3 quarter turns) where the fronts' point left
    backs = sheet.back_placements("long-edge")
    assert [b.turn for b in backs] == [0, 0, 3, 3, 3]
    assert backs[2].trim == mirror(sheet.slots[2], A4, "x")


@pytest.mark.slow  # 150 impositions: ~2 s alone
@settings(max_examples=150, deadline=None)
@given(w=st.floats(30, 130), h=st.floats(30, 130), bleed=st.floats(0, 5), margin=st.floats(0, 15),
       paper=st.sampled_from([A4, LETTER, (297.0, 420.0), (279.4, 431.8)]),
       orientation=st.sampled_from(["auto", "portrait", "landscape"]),
       duplex=st.sampled_from(["long-edge", "short-edge", "none"]), used=st.integers(1, 60))
@example(w=30.0, h=30.0, bleed=0.1804375, margin=0.0, paper=A4, orientation="auto", duplex="long-edge",
         used=1)  # a back at 14.0978125 mm: rounded to 6 places one way, its slot the other
def test_butted_imposition_properties(w, h, bleed, margin, paper, orientation, duplex, used):
    """Every card once, inside the area its margin allows with its bleed; no card's artwork
    enters another card's trim; the backs (of a full or partial sheet) land exactly behind
    their fronts with the clips mirrored."""
    try:
        sheet = impose(paper, (w, h), bleed=bleed, margin=margin, orientation=orientation, mixed=False)
    except SheetError:
        return
    pw, ph = sheet.page
    area = Rect(margin, margin, pw - 2 * margin, ph - 2 * margin)
    slots = sheet.slots[:used]
    clips = clip_boxes(slots, bleed)
    assert len({(round(s.x, 6), round(s.y, 6)) for s in sheet.slots}) == len(sheet.slots)  # every card once
    for i, (slot, clip) in enumerate(zip(slots, clips)):
        assert area.contains(clip, eps=1e-6)
        assert clip.contains(slot)
        for j, other in enumerate(slots):
            if j != i:
                assert not clip.overlaps(other, eps=1e-6)  # never over a neighbour's trim
                # two bleeds may meet only in the waste: the corner of an empty slot
                if clip.overlaps(clips[j], eps=1e-6):
                    x0, y0 = max(clip.x, clips[j].x), max(clip.y, clips[j].y)
                    x1, y1 = min(clip.right, clips[j].right), min(clip.top, clips[j].top)
                    both = Rect(x0, y0, x1 - x0, y1 - y0)
                    assert not any(both.overlaps(s, eps=1e-6) for s in slots)
    ex = 0.0 if sheet.butt[0] else 2 * bleed
    ey = 0.0 if sheet.butt[1] else 2 * bleed
    # no room for one more column or row (the trim area is the margin plus the bleed in)
    assert (sheet.cols + 1) * w + sheet.cols * ex + 2 * bleed > pw - 2 * margin - 1e-6
    assert (sheet.rows + 1) * h + sheet.rows * ey + 2 * bleed > ph - 2 * margin - 1e-6
    backs = back_placements(slots, sheet.page, duplex)
    axis = mirror_axis(sheet.page, duplex)
    back_clips = clip_boxes([b.trim for b in backs], bleed)
    for slot, clip, back, back_clip in zip(slots, clips, backs, back_clips):
        expected = mirror(slot, sheet.page, axis)
        assert (back.trim.x, back.trim.y) == pytest.approx((expected.x, expected.y), abs=1e-9)
        m = mirror(clip, sheet.page, axis)
        assert (back_clip.x, back_clip.y, back_clip.w, back_clip.h) == pytest.approx((m.x, m.y, m.w, m.h), abs=1e-9)
    full = back_placements(sheet.slots, sheet.page, duplex)
    # a full sheet's backs are its slots again (in some order), to rounding: compared within a
    # tolerance, not rounded to 6 places (14.0978125 rounded either way in two computations)
    mirrored = [v for b in sorted(full, key=lambda b: (b.trim.x, b.trim.y)) for v in (b.trim.x, b.trim.y)]
    fronts = [v for s in sorted(sheet.slots, key=lambda s: (s.x, s.y)) for v in (s.x, s.y)]
    assert mirrored == pytest.approx(fronts, abs=1e-6)


@settings(max_examples=80, deadline=None)
@given(w=st.floats(35, 130), h=st.floats(35, 130), bleed=st.floats(0, 5),
       paper=st.sampled_from([(A4, 5.0), (LETTER, 6.35), ((297.0, 420.0), 4.0)]),
       fold=st.booleans(), used=st.integers(1, 30))
@pytest.mark.slow
def test_marks_and_ticks_print_and_stay_off_the_cards(w, h, bleed, paper, fold, used):
    """Whatever the layout: every crop mark and tick lies inside the printable area; a crop
    mark keeps clear of every card's printed bleed; the first cuts' marks print wherever the
    layout was free to choose."""
    size, printer = paper
    try:
        sheet = (fold_sheet if fold else impose)(size, (w, h), bleed=bleed, printer=printer)
    except SheetError:
        return
    idx = list(range(min(used, sheet.per_page)))
    plan = sheet_plan(sheet, idx)
    printable = printable_area(sheet.page, printer)
    trims = [sheet.slots[i] for i in idx] + ([sheet.backs[i].trim for i in idx] if fold else [])
    ink = clip_boxes(trims, bleed)
    for m in plan.marks:
        box = segment_box(m)
        assert printable.contains(box, eps=1e-6)
        assert (m.x2 - m.x1) + (m.y2 - m.y1) >= CROP_MIN_MM - 1e-6
        assert not any(box.overlaps(c.grow(CROP_GAP_MM - 1e-3)) for c in ink)
    for t in plan.ticks:
        assert printable.contains(segment_box(t), eps=1e-6)
    if marks_print(sheet):
        assert plan.printable


def test_the_cutting_order_follows_the_marks_that_print():
    # TunHell on A4: 5 × 56 = 280 wide, (297 - 280) / 2 - 3 = 5.5 mm beside the bleed: a mark
    # there would start 1 mm out, at 4.5 mm, in the printer margin. The rows (4 lines, fewer than
    # the 6 vertical ones) would go first; the vertical lines do, marked above and below
    sheet = default_sheet(A4, (56, 88))
    plan = sheet_plan(sheet)
    assert plan.printable and plan.first == "vertical" and len(plan.first_lines) == 6
    assert all(m.vertical for m in plan.marks)
    # the same cards with no printer margin to speak of: rows first again
    assert cutting_plan(sheet.slots, clip_boxes(sheet.slots, 3.0), page=sheet.page,
                        printable=printable_area(sheet.page, 1.0)).first == "horizontal"


def test_a_layout_whose_first_cuts_cannot_be_marked_is_taken_last():
    # 98 × 139 on A4 (trims within 196 × 283), 4 a sheet: portrait 2 × 98 = 196 wide leaves
    # (210 - 196) / 2 - 3 = 4 mm beside the bleed, 2 × 139 = 278 high (297 - 278) / 2 - 3 =
    # 6.5 mm above and below (each row its own bleed: 284 > 283); landscape the same turned. A
    # mark starts 1 mm beyond the bleed: beside the cards at 3 mm, inside the printer margin;
    # above and below from 5.5 mm to the printable area (5 mm), 0.5 mm, under the 1.5 mm
    # minimum: none prints
    options = sheet_options(A4, (98, 139))
    four = [o for o in options if o.per_page == 4]
    assert four and not any(marks_print(o) for o in four)
    # so a layout of fewer cards whose marks print: landscape, one upright card and two on their
    # side beside it (98 + 6 + 139 = 243 ≤ 283)
    sheet = impose(A4, (98, 139))
    assert marks_print(sheet) and (sheet.per_page, sheet.extra) == (3, 2)
    # without crop marks or labels the four are fine
    assert impose(A4, (98, 139), marks=False, labels=False).per_page == 4


def test_cutting_plan_rows_first_with_ticks_on_every_strip_edge():
    sheet = default_sheet(A4, (63, 88))  # 3 × 3: 4 horizontal and 4 vertical cut lines
    plan = cutting_plan(sheet.slots)
    assert plan.first == "horizontal" and plan.second == "vertical"
    assert plan.first_lines == pytest.approx((280.5, 192.5, 104.5, 16.5))
    assert plan.second_lines == pytest.approx((10.5, 73.5, 136.5, 199.5))
    # a tick on each of the 4 vertical lines at each of the 4 strip edges, 1.5 mm either side
    assert len(plan.ticks) == 16
    assert all(t.vertical and t.y2 - t.y1 == pytest.approx(3.0) for t in plan.ticks)
    # a single column of 3: the 2 vertical lines first, then horizontal ticks
    column = [Rect(10, 10 + i * 88, 63, 88) for i in range(3)]
    plan = cutting_plan(column)
    assert plan.first == "vertical" and all(not t.vertical for t in plan.ticks) and len(plan.ticks) == 8


def test_free_areas_stay_clear_of_cards_marks_and_the_printer_margin():
    for paper, card, printer in ((A4, (63, 88), 5.0), (A4, (70, 70), 5.0), (LETTER, (63, 88), 6.35),
                                 (A4, (56, 88), 5.0)):
        sheet = default_sheet(paper, card, printer)
        plan = sheet_plan(sheet)
        ink = clip_boxes(sheet.slots, 3.0)
        obstacles = [segment_box(m) for m in plan.marks + plan.ticks]
        areas = free_areas(sheet.page, printer, ink, obstacles)
        assert areas
        printable = printable_area(sheet.page, printer)
        for a in areas:
            assert printable.contains(a.rect)
            assert not any(a.rect.overlaps(c) for c in ink)
            assert not any(a.rect.overlaps(o) for o in obstacles)
    # poker on A4: the grid's bleed 13.5 mm above the paper's bottom edge; crop marks from 12.5 mm
    # down, with 12.5 - 5 = 7.5 mm to the printable area's edge: less than 5 + 3.25, so they stop
    # 3.25 mm short of it (a line of 5 pt text or the scale bar, 2.25 mm, 0.5 mm clear of the
    # marks and 0.5 mm inside the printable area), 4.25 mm long, at 8.25 mm: the area runs the
    # whole width of the label area (0.5 mm inside the printable area) from 5.5 to 7.75 mm
    assert TEXT_BAND_MM == pytest.approx(3.25) and INK_CLEARANCE_MM == 0.5
    sheet = default_sheet(A4, (63, 88))
    plan = sheet_plan(sheet)
    assert [(m.y1, m.y2) for m in plan.marks if m.vertical and m.y1 < 20] == [pytest.approx((8.25, 12.5))] * 4
    areas = free_areas(sheet.page, 5.0, clip_boxes(sheet.slots, 3.0), [segment_box(m) for m in plan.marks])
    bottom = max((a for a in areas if a.side == "bottom"), key=lambda a: a.length)
    assert (bottom.rect.x, bottom.rect.y, bottom.rect.w, bottom.rect.top) == pytest.approx((5.5, 5.5, 199, 7.75))


def test_letter_poker_labels_go_beside_the_cards():
    # Letter 3 × 3: no room above or below (4.7 mm, in the printer margin); beside the cards
    # 10.45 - 1 - 6.35 = 3.1 mm, with the crop marks of the 4 horizontal lines in it: between
    # them 88 mm gaps, where a line of text runs upwards
    sheet = default_sheet(LETTER, (63, 88), printer=6.35, printable_bleed=0.0)
    plan = sheet_plan(sheet)
    areas = free_areas(sheet.page, 6.35, clip_boxes(sheet.slots, 3.0), [segment_box(m) for m in plan.marks])
    assert {a.side for a in areas} == {"left", "right"}
    assert max(a.length for a in areas) == pytest.approx(88 - 2 * 0.5)  # each mark's 0.5 mm clear
    assert label_room(sheet) == 2


def test_butted_fold_sheets_fit_more():
    # poker on Letter, fold: landscape, each half 139.7 wide, trims from 8.35 to 139.7 - 3 =
    # 136.7: 2 × 63 = 126 butted; 2 × 88 = 176 ≤ 266.7 high: 4 a sheet (each card its own bleed
    # with the old 5 mm margins: (139.7 - 5 - 6) → 1 column of 69... 3 a sheet); 138 cards: 35
    # sheets against 46
    sheet = fold_sheet(LETTER, (63, 88), printer=6.35)
    assert (sheet.orientation, sheet.axis, sheet.per_page) == ("landscape", "vertical", 4)
    assert math.ceil(138 / sheet.per_page) == 35
    assert fold_sheet(LETTER, (63, 88), gutter=0, margin=5, printer=6.35).per_page == 3
    # Maphr's 70 mm squares on A4 (issue 38): a half 148.5 wide, trims from 7 (2 mm of printable
    # bleed) to 145.5: 138.5 < 2 × 70; portrait, folded across (each half 148.5 high): the same.
    # 3 a sheet (1 × 3 beside the vertical fold: 3 × 70 + 2 × 6 = 222 ≤ 283): 250 cards on 84
    # sheets, as on Letter; the 4 a sheet of issue 29 kept 0.25 mm of the bleed printable
    sheet = fold_sheet(A4, (70, 70))
    assert (sheet.per_page, sheet.cols, sheet.rows) == (3, 1, 3) and math.ceil(250 / 3) == 84
    assert fold_sheet(A4, (70, 70), gutter=0, margin=5).per_page == 3
    # folded, the fold is an edge without margin: the lines parallel to it go first
    assert sheet_plan(sheet).first == ("vertical" if sheet.axis == "vertical" else "horizontal")


# --- which card goes where --------------------------------------------------------------------

def judge(rules):
    """A Meets from a set of (class a, page side of a, class b) that may not touch, on both
    pages; everything else meets."""
    def meets(a, turn_a, side, b, turn_b, face):
        return (a, side, b) not in rules
    return meets


def grid(cols, rows, w=10.0, h=10.0):
    return [Placement(Rect(c * w, (rows - 1 - r) * h, w, h)) for r in range(rows) for c in range(cols)]


def test_sequence_keeps_unlike_edges_apart():
    # a 3 × 3 butted grid, two classes that may not touch at all: 8 A and 8 B. A alone fills a
    # sheet's first 8 slots; the 9th touches an A on its left and above: empty. Then B: 8 on the
    # next sheet. Two sheets, neither mixed
    fronts = grid(3, 3)
    backs = [Placement(mirror(p.trim, (30, 30), "x")) for p in fronts]
    c = contacts(fronts, backs)
    never = judge({(a, s, b) for a in "AB" for b in "AB" if a != b for s in "LRBT"})
    pages = sequence([("A", i) for i in range(8)] + [("B", i) for i in range(8)], c, never)
    assert [[x[0] if x else None for x in page] for page in pages] == [
        ["A"] * 8 + [None], ["B"] * 8 + [None]]
    # spares fill the last sheet where their edges meet: a spare B fits beside the Bs
    pages = sequence([("A", 0)], c, never, spares=[("B", "spare"), ("A", "spare")])
    assert [x[0] for x in pages[0]] == ["A"] * 9  # the B spare never fits beside an A
    assert sheets_needed([("A", 8), ("B", 8)], c, never) == 2


def test_sequence_leaves_a_gap_only_where_needed():
    # a row of 4 butted left to right, a class whose right edge differs from its own left edge
    # (a card can be placed after an empty slot only): every other slot stays empty
    fronts = grid(4, 1)
    c = contacts(fronts, fronts)
    half = judge({("X", "L", "X")})
    pages = sequence([("X", i) for i in range(4)], c, half)
    assert [[x[1] if x else None for x in page] for page in pages] == [[0, None, 1, None], [2, None, 3, None]]


def test_choose_weighs_sheets_once_cards_are_placed():
    # 16 cards of two classes that may not touch, on A4 poker: 9 a sheet butted needs 2 sheets
    # (8 + 8), as does 8 a sheet each card its own bleed (no neighbours); neither leaves a
    # mis-cut showing a neighbour; with as many sheets, the safer (each card its own bleed) wins
    options = sheet_options(A4, (63, 88))
    never = judge({(a, s, b) for a in "AB" for b in "AB" if a != b for s in "LRBT"})

    def needed(option):
        c = contacts(option.placements(), option.back_placements("long-edge"))
        return sheets_needed([("A", 8), ("B", 8)], c, never)

    best = choose(options, 16, needed)
    assert needed(best) == 2 and not best.shared


def test_fold_options_butt_each_half_and_turn_backs():
    for o in fold_options(A4, (63, 88)):
        # each back mirrored across the fold, turned when mirrored top to bottom
        axis = "x" if o.axis == "vertical" else "y"
        for f, b in zip(o.fronts, o.backs):
            assert b.trim == mirror(f, o.page, axis)
            assert b.turn == (2 if axis == "y" else 0)
