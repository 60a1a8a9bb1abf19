"""Layout numbers without a PDF: shrink-to-fit of a flow, tracks, table columns, zone placement."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardforge.data.loading import check_game_data
from cardforge.data.printables import build_blocks, build_board
from cardforge.render.sheets.blocks import Overflow, Theme, _border_cells, _weighted, fit_flow, lay_flow
from cardforge.render.sheets.boards import plan_board
from cardforge.render.sheets.printing import PrintContext
from cardforge.settings import BuildSettings
from cardforge.units import mm

from printables_support import FIXTURES, GAME

THEME = Theme(body=9.0, floor=5.5)
LONG = ("Un texte assez long pour devoir rétrécir : il parle de :coin: et de :vp:, puis recommence. " * 6).strip()


def test_a_flow_shrinks_to_the_largest_scale_that_fits():
    blocks = build_blocks([{"kind": "heading", "text": "Titre"}, {"kind": "text", "text": LONG}])
    box_w, box_h = mm(80), mm(45)
    natural = lay_flow(blocks, box_w, 1.0, THEME)
    assert natural.height > box_h  # it must shrink
    flow = fit_flow(blocks, box_w, box_h, THEME)
    assert THEME.min_scale <= flow.scale < 1.0
    assert flow.height <= box_h
    assert lay_flow(blocks, box_w, flow.scale + 0.03, THEME).height > box_h  # within one step of the best


def test_a_flow_may_grow_when_allowed():
    blocks = build_blocks([{"kind": "text", "text": "Court."}])
    assert fit_flow(blocks, mm(80), mm(80), THEME).scale == 1.0
    assert fit_flow(blocks, mm(80), mm(80), THEME, max_scale=1.25).scale == 1.25


def test_overflow_reports_needed_and_available_at_the_floor():
    blocks = build_blocks([{"kind": "text", "text": LONG * 3}])
    with pytest.raises(Overflow) as info:
        fit_flow(blocks, mm(40), mm(20), THEME)
    exc = info.value
    assert exc.available == pytest.approx(mm(20)) and exc.needed > mm(20) and exc.size == 5.5
    assert str(exc).startswith("text does not fit (needs ") and str(exc).endswith("has 20.0 mm at the 5.5 pt floor)")


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 60), w=st.floats(60, 300), h=st.floats(60, 300))
def test_border_track_cells_ring_the_box(n, w, h):
    cw, ch, cells = _border_cells(n, w, h)
    assert len(cells) == n
    assert len(set(cells)) == n
    assert 0.5 <= cw / ch <= 2.0  # roughly square
    for x, y in cells:  # inside the box, touching one of its edges
        assert -1e-6 <= x <= w - cw + 1e-6 and -1e-6 <= y <= h - ch + 1e-6
        assert min(x, y, w - cw - x, h - ch - y) < 1e-6
    assert cells[0] == (0.0, 0.0) and cells[1][1] == 0.0  # clockwise from the top-left


@given(wanted=st.lists(st.floats(1, 100), min_size=2, max_size=6),
       lo=st.lists(st.floats(0, 30), min_size=6, max_size=6))
def test_table_weights_never_cut_a_word(wanted, lo):
    lo = lo[:len(wanted)]
    width = sum(wanted)
    if sum(lo) > width:
        return
    out = _weighted(width, wanted, lo)
    assert sum(out) == pytest.approx(width, rel=1e-6)
    assert all(o >= low - 1e-6 for o, low in zip(out, lo))


def _ctx():
    data, _ = check_game_data(GAME, FIXTURES / "good")
    return PrintContext(GAME, data, BuildSettings())


def test_zone_outside_the_board_is_named():
    board = build_board({"id": "b", "title": "B", "provenance": "rulebook", "size": {"width": 100, "height": 80},
                         "zones": [{"id": "dehors", "kind": "text", "text": "x",
                                    "at": {"x": 60, "y": 10, "width": 50, "height": 20}}]})
    plan, problems = plan_board(board, (100.0, 80.0), _ctx(), {"dehors": board.zones[0].content}, "f.yaml")
    assert plan is None
    assert [str(p) for p in problems] == [
        "f.yaml: board 'b': zone 'dehors': the box at x 60 mm, y 10 mm, 50×20 mm lies outside the 100×80 mm board"]


def test_zones_are_placed_on_the_grid_and_flow():
    board = build_board({
        "id": "b", "title": "B", "provenance": "rulebook", "size": {"width": 200, "height": 150},
        "grid": {"columns": 4, "rows": 2, "gap": "4mm"},
        "zones": [
            {"id": "a", "kind": "text", "text": "a", "cell": {"col": 1, "row": 1, "cols": 3}},
            {"id": "b", "kind": "text", "text": "b", "cell": {"col": 4, "row": 1, "rows": 2}},
            {"id": "c", "kind": "text", "text": "c", "at": {"x": 20, "y": 100, "width": 30, "height": 20}},
        ]})
    plan, problems = plan_board(board, (200.0, 150.0), _ctx(), {z.id: z.content for z in board.zones}, "f")
    assert problems == []
    a, b, c = plan.zones
    # a spans 3 of 4 columns with 2 gaps; b spans both rows with 1 gap: widths computed independently
    cell_w = (b.x + b.w - a.x - 3 * mm(4)) / 4
    assert a.w == pytest.approx(3 * cell_w + 2 * mm(4))
    assert b.x == pytest.approx(a.x + a.w + mm(4))
    assert a.y + a.h == pytest.approx(b.y + b.h)  # same top
    assert (c.x, c.y, c.w, c.h) == pytest.approx((mm(20), mm(150 - 100 - 20), mm(30), mm(20)))
    flowing = build_board({"id": "f", "title": "F", "provenance": "rulebook", "size": "a5",
                           "zones": [{"id": "x", "kind": "text", "text": "x", "height": "30mm"},
                                     {"id": "y", "kind": "text", "text": "y"},
                                     {"id": "z", "kind": "text", "text": "z"}]})
    plan, problems = plan_board(flowing, (148.0, 210.0), _ctx(), {z.id: z.content for z in flowing.zones}, "f")
    x, y, z = plan.zones
    assert x.h == pytest.approx(mm(30)) and y.h == pytest.approx(z.h)
    assert x.y > y.y > z.y  # top to bottom
