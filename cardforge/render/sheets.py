"""Placing boards and aids on paper: whole pages, half pages, or a grid with crop marks.

- an item the size of the page prints alone on a page of its own size;
- an item half the page (``half-page``) prints two to a sheet, edge to edge, with a dashed
  cut line between them;
- anything smaller is imposed in a grid inside the margins (portrait or landscape, whichever
  holds more, unless the settings fix the orientation), crop marks in the margins aligned to
  every trim line.

Backs land behind their fronts as the decks' do: the back page mirrors the slots across the
axis the sheet turns over (``--duplex long-edge`` or ``short-edge``), a back mirrored top to
bottom is turned 180°, and ``--back-offset`` shifts the back page.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.layout.geometry import Rect, back_offset_for, back_placements
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
    margin, gutter = settings.margin_mm, settings.gutter_mm or 0.0
    options = []
    orientations = {"portrait": [(pw, ph)], "landscape": [(ph, pw)],
                    "auto": [(pw, ph), (ph, pw)]}[settings.orientation]
    for sw, sh in orientations:
        cols = int((sw - 2 * margin + gutter + 1e-6) // (w + gutter))
        rows = int((sh - 2 * margin + gutter + 1e-6) // (h + gutter))
        options.append((cols * rows, cols, rows, sw, sh))
    count, cols, rows, sw, sh = max(options, key=lambda o: o[0])
    if count == 0:
        raise DoesNotFit(f"{w:g}×{h:g} mm does not fit on {settings.paper} paper inside the "
                         f"{margin:g} mm margins")
    grid_w = cols * w + (cols - 1) * gutter
    grid_h = rows * h + (rows - 1) * gutter
    x0 = (sw - grid_w) / 2
    y0 = (sh - grid_h) / 2
    cells: list[tuple[float, float]] = []
    for r in range(rows):  # top row first
        for c in range(cols):
            x = x0 + c * (w + gutter)
            y = sh - y0 - (r + 1) * h - r * gutter
            cells.append((mm(x), mm(y)))
    return SheetPlan((mm(sw), mm(sh)), (mm(w), mm(h)), tuple(cells), settings.crop_marks)


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
    """Crop marks in the margins at every trim line of the used slots, cut lines if asked.
    Also the page's boxes: a sheet (or a page-sized board) is printed and cut whole, so its
    TrimBox and BleedBox are the page."""
    page = [0, 0, round(plan.page[0], 4), round(plan.page[1], 4)]
    c.setTrimBox(page)
    c.setBleedBox(page)
    slots = slots if slots is not None else list(plan.slots[:used])
    iw, ih = plan.item
    pw, ph = plan.page
    c.saveState()
    if plan.cut_lines:
        c.setStrokeColor(HexColor("#9a9a9a"))
        c.setLineWidth(0.5)
        c.setDash(4, 3)
        for x0, y0, x1, y1 in plan.cut_lines:
            c.line(x0, y0, x1, y1)
        c.setDash()
    if plan.crop_marks and slots:
        xs = sorted({round(x, 3) for x, _ in slots} | {round(x + iw, 3) for x, _ in slots})
        ys = sorted({round(y, 3) for _, y in slots} | {round(y + ih, 3) for _, y in slots})
        left, right = min(xs), max(xs)
        bottom, top = min(ys), max(ys)
        gap = mm(1)
        length = max(min(mm(5), left - gap - mm(0.5), bottom - gap - mm(0.5)), mm(1.5))
        c.setStrokeColor(HexColor("#000000"))
        c.setLineWidth(0.3)
        for x in xs:
            c.line(x, top + gap, x, min(top + gap + length, ph))
            c.line(x, bottom - gap, x, max(bottom - gap - length, 0))
        for y in ys:
            c.line(left - gap, y, max(left - gap - length, 0), y)
            c.line(right + gap, y, min(right + gap + length, pw), y)
    if settings.cut_lines and slots:
        c.setStrokeColor(HexColor("#c8c8c8"))
        c.setLineWidth(0.25)
        for x, y in slots:
            c.rect(x, y, iw, ih, stroke=1, fill=0)
    c.restoreState()
