"""Butted imposition (shared bleed), clip boxes, the cutting plan and the margins' label areas:
pure geometry. Expected numbers are worked out by hand in the comments."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardforge.layout.geometry import (
    Rect,
    SheetError,
    back_placements,
    clip_boxes,
    crop_marks,
    cutting_plan,
    impose,
    label_areas,
    mirror,
    mirror_axis,
)
from cardforge.settings import BuildSettings, paper_size

A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)
DEFAULT = BuildSettings()  # 3 mm bleed, 5 mm margins, no gutter given


def default_sheet(paper, card):
    return impose(paper, card, bleed=DEFAULT.bleed_mm, gutter=DEFAULT.gutter_mm, margin=DEFAULT.margin_mm)


@pytest.mark.parametrize("paper, card, at_least, expected", [
    # poker 63 × 88 on A4: 3 × 63 + 6 = 195 ≤ 200 wide, 3 × 88 + 6 = 270 ≤ 287 high → 9 portrait
    # (each card its own bleed: 69 × 94 cells, 4 × 2 = 8)
    (A4, (63, 88), 9, ("portrait", 3, 3)),
    # poker on Letter: portrait 3 × (269.4 - 6) / 88 = 2.99 → 2 rows: 6; landscape (279.4 - 16) / 63
    # → 4, (215.9 - 16) / 88 → 2: 8 (own bleed: 3 × 2 = 6)
    (LETTER, (63, 88), 8, ("landscape", 4, 2)),
    # Maphr's 70 mm squares on A4: 4 × 70 + 6 = 286 ≤ 287 and 2 × 70 + 6 = 146: 8 either way; the
    # tie goes to landscape (64 mm left above and below the grid against 11 in portrait)
    (A4, (70, 70), 8, ("landscape", 4, 2)),
    # TunHell 56 × 88 on A4: landscape 5 × 56 + 6 = 286 ≤ 287, 2 rows: 10 (portrait 3 × 3 = 9)
    (A4, (56, 88), 9, ("landscape", 5, 2)),
])
def test_butted_cards_fit_the_targets(paper, card, at_least, expected):
    sheet = default_sheet(paper, card)
    assert sheet.shared and sheet.per_page >= at_least
    assert (sheet.orientation, sheet.cols, sheet.rows) == expected
    separate = impose(paper, card, gutter=0, margin=DEFAULT.margin_mm)
    assert not separate.shared and separate.per_page < sheet.per_page


def test_butted_grid_geometry_poker_on_a4():
    sheet = default_sheet(A4, (63, 88))
    # grid with its bleed: 195 × 270, centred: bleed edge at x 7.5, trims from x 10.5;
    # top bleed edge at 297 - 13.5 = 283.5, first trim top at 280.5, bottom at 192.5
    first = sheet.slots[0]
    assert (first.x, first.y, first.w, first.h) == pytest.approx((10.5, 192.5, 63, 88))
    assert sheet.slots[1].x == pytest.approx(first.right)  # butted: one shared cut line
    assert sheet.slots[3].top == pytest.approx(first.y)


def test_separate_bleed_is_kept_when_butting_fits_no_more():
    # 100 × 100 on A4: butted portrait 1 × 2 (2 × 100 + 6 ≤ 200? no: 206 > 200 → 1 col) = 2;
    # own bleed 106 × 106: 1 × 2 = 2: a tie keeps each card's own bleed
    sheet = default_sheet(A4, (100, 100))
    assert not sheet.shared and sheet.per_page == 2


def test_gutter_always_gives_each_card_its_own_bleed():
    sheet = impose(A4, (63, 88), gutter=2)
    assert not sheet.shared
    assert sheet.slots[1].x - sheet.slots[0].right == pytest.approx(2 + 2 * 3)


def test_papers_beyond_a4_and_letter():
    assert paper_size("a3") == (297.0, 420.0) and paper_size("Tabloid") == (279.4, 431.8)
    assert paper_size("320x450") == (320.0, 450.0) and paper_size("330×488mm") == (330.0, 488.0)
    with pytest.raises(ValueError, match=r"unknown paper 'b5' \(allowed: a4, letter, a3, tabloid"):
        paper_size("b5")
    # poker on A3 butted: portrait (297 - 16) / 63 → 4, (420 - 16) / 88 → 4 = 16;
    # landscape (420 - 16) / 63 → 6, (297 - 16) / 88 → 3 = 18
    assert default_sheet(paper_size("a3"), (63, 88)).per_page == 18
    # a 320 × 450 mm press sheet: portrait 4 × 5 = 20 (4 × 63 + 16 = 268 ≤ 320, 5 × 88 + 16 = 456 > 450
    # → 4 rows = 16); landscape (450 - 16) / 63 → 6, (320 - 16) / 88 → 3 = 18
    assert default_sheet(paper_size("320x450"), (63, 88)).per_page == 18
    with pytest.raises(ValueError):
        BuildSettings(paper="12x12")


def test_clip_boxes_stop_at_shared_trims():
    sheet = default_sheet(A4, (63, 88))  # 3 × 3
    clips = clip_boxes(sheet.slots, 3.0)
    top_left, middle, bottom_right = clips[0], clips[4], clips[8]
    t = sheet.slots
    # the top-left card keeps its bleed on its left and top only
    assert (top_left.x, top_left.top, top_left.right, top_left.y) == pytest.approx(
        (t[0].x - 3, t[0].top + 3, t[0].right, t[0].y))
    assert middle == t[4]  # surrounded: clipped to its trim
    assert (bottom_right.right, bottom_right.y) == pytest.approx((t[8].right + 3, t[8].y - 3))
    # a last sheet with an empty slot beside a card: the card keeps its bleed on that side
    partial = clip_boxes(sheet.slots[:2], 3.0)
    assert partial[1].right == pytest.approx(t[1].right + 3) and partial[0].right == pytest.approx(t[0].right)


@settings(max_examples=150, deadline=None)
@given(w=st.floats(20, 130), h=st.floats(20, 130), bleed=st.floats(0, 5), margin=st.floats(0, 15),
       paper=st.sampled_from([A4, LETTER, (297.0, 420.0), (279.4, 431.8)]),
       orientation=st.sampled_from(["auto", "portrait", "landscape"]),
       duplex=st.sampled_from(["long-edge", "short-edge", "none"]), used=st.integers(1, 60))
def test_butted_imposition_properties(w, h, bleed, margin, paper, orientation, duplex, used):
    """Every card once, inside the printable area with its bleed; no card's artwork enters
    another card's trim; the backs (of a full or partial sheet) land exactly behind their fronts
    with the clips mirrored."""
    try:
        sheet = impose(paper, (w, h), bleed=bleed, margin=margin, orientation=orientation)
    except SheetError:
        return
    pw, ph = sheet.page
    printable = Rect(margin, margin, pw - 2 * margin, ph - 2 * margin)
    slots = sheet.slots[:used]
    clips = clip_boxes(slots, bleed)
    assert len({(round(s.x, 6), round(s.y, 6)) for s in sheet.slots}) == len(sheet.slots)  # every card once
    for i, (slot, clip) in enumerate(zip(slots, clips)):
        assert printable.contains(clip, eps=1e-6)
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
    if sheet.shared:  # no room for one more column or row
        assert (sheet.cols + 1) * w + 2 * bleed > pw - 2 * margin - 1e-6
        assert (sheet.rows + 1) * h + 2 * bleed > ph - 2 * margin - 1e-6
    backs = back_placements(slots, sheet.page, duplex)
    axis = mirror_axis(sheet.page, duplex)
    back_clips = clip_boxes([b.trim for b in backs], bleed)
    for slot, clip, back, back_clip in zip(slots, clips, backs, back_clips):
        expected = mirror(slot, sheet.page, axis)
        assert (back.trim.x, back.trim.y) == pytest.approx((expected.x, expected.y), abs=1e-9)
        m = mirror(clip, sheet.page, axis)
        assert (back_clip.x, back_clip.y, back_clip.w, back_clip.h) == pytest.approx((m.x, m.y, m.w, m.h), abs=1e-9)
    # the full sheet's backs occupy exactly the front slots (the grid is centred)
    full = back_placements(sheet.slots, sheet.page, duplex)
    key = lambda r: (round(r.x, 6), round(r.y, 6))  # noqa: E731
    assert sorted(key(b.trim) for b in full) == sorted(key(s) for s in sheet.slots)


def test_cutting_plan_rows_first_with_ticks_on_every_strip_edge():
    sheet = default_sheet(A4, (63, 88))  # 3 × 3: 4 horizontal and 4 vertical cut lines
    plan = cutting_plan(sheet.slots)
    assert plan.first == "horizontal" and plan.second == "vertical"
    assert plan.first_lines == pytest.approx((280.5, 192.5, 104.5, 16.5))
    assert plan.second_lines == pytest.approx((10.5, 73.5, 136.5, 199.5))
    # a tick on each of the 4 vertical lines at each of the 4 strip edges, 1.5 mm either side
    assert len(plan.ticks) == 16
    assert all(t.vertical and t.y2 - t.y1 == pytest.approx(3.0) for t in plan.ticks)
    # 5 columns × 2 rows (TunHell landscape): rows first again (3 cut lines against 6)
    assert cutting_plan(default_sheet(A4, (56, 88)).slots).first == "horizontal"
    # a single column of 3: the 2 vertical lines first, then horizontal ticks
    column = [Rect(10, 10 + i * 88, 63, 88) for i in range(3)]
    plan = cutting_plan(column)
    assert plan.first == "vertical" and all(not t.vertical for t in plan.ticks) and len(plan.ticks) == 8


def test_label_areas_stay_clear_of_cards_and_marks():
    for paper, card in ((A4, (63, 88)), (A4, (70, 70)), (LETTER, (63, 88)), (A4, (56, 88))):
        sheet = default_sheet(paper, card)
        grid = Rect(min(s.x for s in sheet.slots) - 3, min(s.y for s in sheet.slots) - 3, 0, 0)
        top = max(s.top for s in sheet.slots) + 3
        marks = crop_marks(sheet.slots, 3.0, sheet.page)
        areas = label_areas(sheet.page, sheet.slots, 3.0)
        for side, area in areas.items():
            assert area is not None and area.h >= 2.8, (paper, card, side)
            assert area.top <= grid.y or area.y >= top  # outside the grid's bleed
            for m in marks:
                seg = Rect(min(m.x1, m.x2), min(m.y1, m.y2), abs(m.x2 - m.x1), abs(m.y2 - m.y1))
                assert not area.overlaps(seg.grow(1e-9))
            assert area.x >= 1.5 and area.right <= sheet.page[0] - 1.5
    # poker on A4 (13.5 mm below the grid): the area runs the whole width beyond the marks' ends
    sheet = default_sheet(A4, (63, 88))
    bottom = label_areas(sheet.page, sheet.slots, 3.0)["bottom"]
    assert (bottom.x, bottom.y, bottom.w, bottom.h) == pytest.approx((1.5, 1.5, 207, 5.5))
