"""Placing boards and aids on paper: whole pages, half pages, or a grid with crop marks.

- an item the size of the page prints alone on a page of its own size;
- an item half the page (``half-page``) prints two to a sheet, edge to edge, with a dashed
  cut line between them;
- anything smaller is imposed in a grid (``layout/imposition.py``, as cards without bleed:
  portrait or landscape, whichever holds more, unless the settings fix the orientation), crop
  marks and cut ticks of its cutting plan inside the printable area.

Nothing is drawn in the printer margin: the dashed cut line between two halves stops at it.

Backs land behind their fronts as the decks' do: the back page mirrors the slots across the
axis the sheet turns over (``--duplex long-edge`` or ``short-edge``), a back mirrored top to
bottom is turned 180°, and ``--back-offset`` shifts the back page.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.layout.geometry import Rect, Segment, SheetError, back_offset_for, back_placements
from cardforge.layout.imposition import Sheet, cutting_plan, impose, printable_area
from cardforge.render.canvas import draw_crop_marks, draw_cut_ticks
from cardforge.render.sheets.printing import ink_inset
from cardforge.settings import BuildSettings
from cardforge.units import mm

_TOL = 0.6  # mm: "the same size as the page"


@dataclass(frozen=True)
class SheetPlan:
    """Where items of one size go on a sheet. Lengths in points, origin bottom-left."""

    page: tuple[float, float]
    item: tuple[float, float]
    slots: tuple[tuple[float, float], ...]  # bottom-left corner of each item, in fill order
    crop_marks: bool
    cut_lines: tuple[tuple[float, float, float, float], ...] = ()
    grid: Sheet | None = None  # an imposed grid (mm): its cutting plan places the marks

    @property
    def per_sheet(self) -> int:
        return len(self.slots)


class DoesNotFit(ValueError):
    pass


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= _TOL


def plan_sheet(item_mm: tuple[float, float], settings: BuildSettings) -> SheetPlan:
    """How items of ``item_mm`` (width, height) are printed on the build's paper."""
    w, h = item_mm
    pw, ph = settings.paper_mm
    for page in ((pw, ph), (ph, pw)):
        if _same(w, page[0]) and _same(h, page[1]):
            return SheetPlan((mm(w), mm(h)), (mm(w), mm(h)), ((0.0, 0.0),), False)
    # half a page: two per sheet, edge to edge
    if _same(w, ph / 2) and _same(h, pw):  # portrait halves side by side on a landscape sheet
        page = (mm(ph), mm(pw))
        slots = ((0.0, 0.0), (mm(w), 0.0))
        return SheetPlan(page, (mm(w), mm(h)), slots, False, ((mm(w), 0.0, mm(w), mm(h)),))
    if _same(w, pw) and _same(h, ph / 2):  # landscape halves stacked on a portrait sheet
        page = (mm(pw), mm(ph))
        slots = ((0.0, mm(h)), (0.0, 0.0))
        return SheetPlan(page, (mm(w), mm(h)), slots, False, ((0.0, mm(h), mm(w), mm(h)),))
    try:
        grid = impose(settings.paper_mm, (w, h), bleed=0.0, gutter=settings.gutter_mm or 0.0,
                      margin=settings.margin_mm, printer=ink_inset(settings), orientation=settings.orientation,
                      mixed=False, marks=settings.crop_marks, labels=False)
    except SheetError:
        room = (f"the {settings.margin_mm:g} mm margins" if settings.margin_mm is not None
                else f"its printable area ({settings.printer_margin:g} mm printer margin)")
        raise DoesNotFit(f"{w:g}×{h:g} mm does not fit on {settings.paper} paper inside {room}") from None
    cells = tuple((mm(t.x), mm(t.y)) for t in grid.slots)
    return SheetPlan((mm(grid.page[0]), mm(grid.page[1])), (mm(w), mm(h)), cells, settings.crop_marks, (), grid)


def back_slot(plan: SheetPlan, index: int, settings: BuildSettings) -> tuple[float, float, bool]:
    """Where the back of slot ``index`` goes on the back page (points) and whether it is
    turned 180°, by the deck's rules (:func:`cardforge.layout.geometry.back_placements`):
    mirrored across the axis the sheet turns over, shifted by ``--back-offset``."""
    x, y = plan.slots[index]
    k = 1 / mm(1)
    rect = Rect(x * k, y * k, plan.item[0] * k, plan.item[1] * k)
    page = (plan.page[0] * k, plan.page[1] * k)
    [placed] = back_placements((rect,), page, settings.duplex, back_offset_for(settings, page))
    return mm(placed.trim.x), mm(placed.trim.y), placed.rotated


def draw_sheet_marks(c: Canvas, plan: SheetPlan, used: int, settings: BuildSettings,
                     slots: list[tuple[float, float]] | None = None) -> None:
    """Crop marks and cut ticks of the used slots' cutting plan (inside the printable area),
    cut lines if asked. Also the page's boxes: a sheet (or a page-sized board) is printed and
    cut whole, so its TrimBox and BleedBox are the page."""
    page = [0, 0, round(plan.page[0], 4), round(plan.page[1], 4)]
    c.setTrimBox(page)
    c.setBleedBox(page)
    slots = slots if slots is not None else list(plan.slots[:used])
    iw, ih = plan.item
    k = 1 / mm(1)
    page_mm = (plan.page[0] * k, plan.page[1] * k)
    printable = printable_area(page_mm, ink_inset(settings))
    c.saveState()
    if plan.cut_lines:
        c.setStrokeColor(HexColor("#9a9a9a"))
        c.setLineWidth(0.5)
        c.setDash(4, 3)
        for x0, y0, x1, y1 in plan.cut_lines:  # only where the printer prints
            seg = _inside(Segment(x0 * k, y0 * k, x1 * k, y1 * k), printable)
            c.line(mm(seg.x1), mm(seg.y1), mm(seg.x2), mm(seg.y2))
        c.setDash()
    if plan.crop_marks and slots:
        trims = [Rect(x * k, y * k, iw * k, ih * k) for x, y in slots]
        cut = cutting_plan(trims, trims, page=page_mm, printable=printable)
        draw_crop_marks(c, list(cut.marks))
        draw_cut_ticks(c, cut.ticks)
    if settings.cut_lines and slots:
        c.setStrokeColor(HexColor("#c8c8c8"))
        c.setLineWidth(0.25)
        for x, y in slots:
            c.rect(x, y, iw, ih, stroke=1, fill=0)
    c.restoreState()


def _inside(s: Segment, r: Rect) -> Segment:
    """A horizontal or vertical segment cut to the rectangle ``r``."""
    return Segment(max(min(s.x1, s.x2), r.x), max(min(s.y1, s.y2), r.y), min(max(s.x1, s.x2), r.right),
                   min(max(s.y1, s.y2), r.top))
