"""What a sheet of cards carries besides the cards, in its margins and outside every bleed:

- a **label**: game, file, sheet N/M, front or back, paper and duplex mode, so loose sheets
  find their file and a back page its front;
- a **scale bar** (50 mm, else 30 or 20 where the margin is short) with its length printed
  beside it: a sheet printed with "fit to page" shows a bar that does not measure what it says;
- the **cutting order** (:func:`cardforge.layout.geometry.cutting_plan`).

Where they go comes from :func:`cardforge.layout.geometry.label_areas`; the scale bar is drawn
as filled rectangles (no stroked lines), so it is never mistaken for a crop mark.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.layout.geometry import CuttingPlan, Rect, label_areas
from cardforge.render.canvas import K_BLACK, mark_colour, shared
from cardforge.render.fonts import font_name, unit_width
from cardforge.units import mm

LABEL_PT = 6.0
LABEL_MIN_PT = 5.0
SCALE_BARS_MM = (50, 30, 20)
GAP_MM = 5.0
TEXT_COLOUR = "#1a1a1a"
PT_MM = 25.4 / 72


@dataclass(frozen=True)
class SheetInfo:
    """What the label says about one page of a deck file."""

    title: str  # the game's title
    game: str  # its id
    file: str  # the file's name
    index: int  # 1-based sheet number
    total: int
    side: str  # front | back
    paper: str
    orientation: str
    duplex: str  # long-edge | short-edge | none | fold

    def parts(self) -> list[str]:
        """The label, most important first (trailing parts are dropped when space is short)."""
        how = {"long-edge": "two-sided, flip on long edge", "short-edge": "two-sided, flip on short edge",
               "none": "backs printed separately", "fold": "fold along the dashed line"}[self.duplex]
        return [f"{self.title} ({self.game})", self.file, f"sheet {self.index}/{self.total}",
                "FRONT" if self.side == "front" else "BACK", f"{self.paper.upper()} {self.orientation}", how]


def cutting_text(plan: CuttingPlan, fold: bool = False) -> str:
    """The cutting order; on a gutter-fold sheet, folding and cutting the folded sheet."""
    first, second = plan.first, plan.second
    ends = "left and right" if first == "horizontal" else "top and bottom"
    start = "Cutting order: fold on the dashed line, then cut both layers: " if fold else "Cutting order: "
    return (f"{start}1. the {len(plan.first_lines)} {first} lines across the whole sheet "
            f"(crop marks {ends}); 2. on each strip, the {len(plan.second_lines)} {second} lines "
            f"(ticks on the edges of each strip). Print at 100 % (actual size).")


def _width(text: str, font: str, size: float) -> float:
    return unit_width(text, font) * size * PT_MM


def _text(c: Canvas, text: str, x: float, baseline: float, font: str, size: float, k_black: bool) -> None:
    c.setFillColor(K_BLACK if k_black else HexColor(TEXT_COLOUR))
    c.setFont(font, size)
    c.drawString(mm(x), mm(baseline), text)


def _baseline(area: Rect, side: str, size: float) -> float:
    """Next to the grid: the top of the bottom margin's area, the bottom of the top one's."""
    h = size * PT_MM
    return area.top - 0.8 * h if side == "bottom" else area.y + 0.25 * h


def _fit(parts: list[str], width: float, font: str, reserve: float) -> tuple[str, float] | None:
    """The label at the largest size (6, then 5 pt) with as many parts as fit in ``width``."""
    for size in (LABEL_PT, LABEL_MIN_PT):
        for n in range(len(parts), 1, -1):
            text = " · ".join(parts[:n])
            if _width(text, font, size) + reserve <= width:
                return text, size
    return None


def scale_bar(c: Canvas, x: float, baseline: float, length: int, font: str, size: float,
              k_black: bool, registration: bool) -> float:
    """A ``length`` mm bar from x, ticks every 10 mm, its length written after it. Returns its
    right end (mm)."""
    c.saveState()
    c.setFillColor(mark_colour(registration))
    y = baseline + 0.2
    r = c.rect
    r(mm(x), mm(y), mm(length), mm(0.3), stroke=0, fill=1)
    for d in range(0, length + 1, 10):
        tall = 1.6 if d in (0, length) else 1.0
        r(mm(x + d - 0.1), mm(y), mm(0.2), mm(tall), stroke=0, fill=1)
    c.restoreState()
    text = f"{length} mm at 100 %"
    _text(c, text, x + length + 1.2, baseline, font, size, k_black)
    return x + length + 1.2 + _width(text, font, size)


def _bar_width(length: int, font: str, size: float) -> float:
    return length + 1.2 + _width(f"{length} mm at 100 %", font, size)


def draw_sheet_extras(c: Canvas, page: tuple[float, float], trims: Sequence[Rect], bleed: float, info: SheetInfo, *,
                      marks: bool, plan: CuttingPlan | None = None, bar: bool = True,
                      k_black: bool = False, registration: bool = False) -> None:
    """The label (and on a front page the scale bar and cutting order) in the margins."""
    areas = label_areas(page, trims, bleed, True)  # placed as with crop marks: the same on every page
    font = font_name("sans")
    bottom, top = areas["bottom"], areas["top"]
    c.saveState()
    if bottom is not None:
        placed = False
        for length in (SCALE_BARS_MM if bar else (0,)):
            reserve = (GAP_MM + _bar_width(length, font, LABEL_PT)) if length else 0.0
            fitted = _fit(info.parts(), bottom.w, font, reserve)
            if fitted is None:
                continue
            text, size = fitted
            base = _baseline(bottom, "bottom", size)
            _text(c, text, bottom.x, base, font, size, k_black)
            if length:
                x = bottom.right - _bar_width(length, font, size)
                if registration:  # a separation colour: see render/decks.py _marks
                    scale_bar(c, x, base, length, font, size, k_black, registration)
                else:
                    shared(c, ("scale bar", x, base, length, font, size, k_black),
                           lambda: scale_bar(c, x, base, length, font, size, k_black, False))
            placed = True
            break
        if not placed and bar:  # room for the label alone
            fitted = _fit(info.parts(), bottom.w, font, 0.0)
            if fitted:
                _text(c, fitted[0], bottom.x, _baseline(bottom, "bottom", fitted[1]), font, fitted[1], k_black)
    if top is not None and plan is not None:
        fitted = _cutting_order(cutting_text(plan, fold=info.duplex == "fold"), top.w, font)
        if fitted is not None:
            text, size = fitted
            where = (top.x, _baseline(top, "top", size))
            shared(c, ("cutting order", text, where, size, k_black),
                   lambda: _text(c, text, *where, font, size, k_black))
    c.restoreState()


def _cutting_order(text: str, width: float, font: str) -> tuple[str, float] | None:
    """The cutting order at 6 or 5 pt, else its short form at 5 pt, if it fits in ``width``."""
    for size in (LABEL_PT, LABEL_MIN_PT):
        if _width(text, font, size) <= width:
            return text, size
    short = re.sub(r"Cutting order: (.*)1\.", r"\1cut first", text.split("; 2.")[0]) + ", then each strip"
    short = short[0].upper() + short[1:]
    return (short, LABEL_MIN_PT) if _width(short, font, LABEL_MIN_PT) <= width else None
