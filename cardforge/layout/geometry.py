"""Sheet geometry for printing cards: pure maths, in millimetres, no ReportLab.

Coordinates follow PDF: origin at the bottom-left corner of the page, y pointing up.

Print-trade words, one meaning each:

- **trim**: the card's finished edge, where it is cut;
- **bleed**: artwork that runs past the trim on every side, so a cut slightly off the line
  shows no white edge;
- **safe zone**: an inset inside the trim that text keeps clear of (see the layouts);
- **gutter**: space between neighbouring cards' bleed edges on a sheet;
- **margin**: the border of the sheet kept clear of cards (home printers cannot print there;
  crop marks live in it);
- **crop marks**: short lines in the margin, in line with every trim edge;
- **duplex**: printing both sides of the sheet. The sheet turns over around its long edge
  (``long-edge``) or its short edge (``short-edge``); a card's back lands behind its front
  when the back page mirrors the front page across that axis.
- **fold** (gutter fold): fronts on one half of the sheet, backs mirrored on the other half;
  fold along the middle, glue, cut.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

EPS = 1e-6
CROP_GAP_MM = 1.0  # crop marks start this far outside the outermost bleed edge
CROP_LENGTH_MM = 5.0  # and run outwards this long, or until CROP_EDGE_MM from the paper edge
CROP_EDGE_MM = 1.5
CROP_MIN_MM = 1.5  # shorter than this (margin too small): no mark


class SheetError(ValueError):
    """The cards cannot be laid out on the paper with the settings given."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: (x, y) is its bottom-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grow(self, d: float) -> Rect:
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def shift(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def contains(self, other: Rect, eps: float = EPS) -> bool:
        return (other.x >= self.x - eps and other.y >= self.y - eps
                and other.right <= self.right + eps and other.top <= self.top + eps)

    def overlaps(self, other: Rect, eps: float = EPS) -> bool:
        return (self.x < other.right - eps and other.x < self.right - eps
                and self.y < other.top - eps and other.y < self.top - eps)


@dataclass(frozen=True)
class Segment:
    """A straight line from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def vertical(self) -> bool:
        return abs(self.x1 - self.x2) < EPS


@dataclass(frozen=True)
class Placement:
    """Where one card side goes on a page: its trim box, and whether it is turned 180°."""

    trim: Rect
    rotated: bool = False


def page_size(paper_mm: tuple[float, float], orientation: str) -> tuple[float, float]:
    """(width, height) of the page in the orientation (``portrait`` or ``landscape``)."""
    short, long = sorted(paper_mm)
    return (long, short) if orientation == "landscape" else (short, long)


def fit_count(available: float, cell: float, gutter: float) -> int:
    """How many cells of size ``cell`` with ``gutter`` between them fit in ``available``."""
    if cell <= 0:
        raise SheetError("a card must have a positive size")
    if available + EPS < cell:
        return 0
    return int(math.floor((available + gutter + EPS) / (cell + gutter)))


@dataclass(frozen=True)
class Sheet:
    """Cards imposed on one side of a sheet, in print order (rows top to bottom, each row left
    to right). ``slots`` are the cards' trim boxes."""

    page: tuple[float, float]
    orientation: str
    card: tuple[float, float]
    bleed: float
    gutter: float
    margin: float
    cols: int
    rows: int
    slots: tuple[Rect, ...]

    @property
    def per_page(self) -> int:
        return len(self.slots)


def _grid(origin_x: float, origin_top: float, cols: int, rows: int, card: tuple[float, float],
          bleed: float, gutter: float) -> tuple[Rect, ...]:
    w, h = card
    step_x, step_y = w + 2 * bleed + gutter, h + 2 * bleed + gutter
    slots = []
    for r in range(rows):
        for c in range(cols):
            x = origin_x + c * step_x + bleed
            y = origin_top - r * step_y - bleed - h
            slots.append(Rect(x, y, w, h))
    return tuple(slots)


def _grid_size(cols: int, rows: int, card: tuple[float, float], bleed: float, gutter: float):
    w, h = card
    return (cols * (w + 2 * bleed) + (cols - 1) * gutter, rows * (h + 2 * bleed) + (rows - 1) * gutter)


def impose(paper_mm: tuple[float, float], card: tuple[float, float], *, bleed: float = 3.0,
           gutter: float = 0.0, margin: float = 8.0, orientation: str = "auto") -> Sheet:
    """As many cards as fit, the grid centred on the page. ``orientation="auto"`` picks the one
    that fits more cards (portrait on a tie)."""
    choices = ("portrait", "landscape") if orientation == "auto" else (orientation,)
    best: Sheet | None = None
    for o in choices:
        pw, ph = page_size(paper_mm, o)
        cw, ch = card[0] + 2 * bleed, card[1] + 2 * bleed
        cols = fit_count(pw - 2 * margin, cw, gutter)
        rows = fit_count(ph - 2 * margin, ch, gutter)
        if cols * rows == 0:
            continue
        gw, gh = _grid_size(cols, rows, card, bleed, gutter)
        slots = _grid((pw - gw) / 2, ph - (ph - gh) / 2, cols, rows, card, bleed, gutter)
        sheet = Sheet((pw, ph), o, card, bleed, gutter, margin, cols, rows, slots)
        if best is None or sheet.per_page > best.per_page:
            best = sheet
    if best is None:
        raise SheetError(_no_fit(paper_mm, card, bleed, margin, orientation))
    return best


def _no_fit(paper_mm, card, bleed, margin, orientation) -> str:
    short, long = sorted(paper_mm)
    where = "" if orientation == "auto" else f" in {orientation}"
    return (f"a {card[0]:g}×{card[1]:g} mm card with {bleed:g} mm bleed does not fit on a "
            f"{short:g}×{long:g} mm page{where} with {margin:g} mm margins")


# --- duplex ----------------------------------------------------------------------------------

def mirror_axis(page: tuple[float, float], duplex: str) -> str:
    """Which page coordinate a back page mirrors: ``"x"`` or ``"y"``.

    The sheet turns over around its long edge (``long-edge``) or its short edge
    (``short-edge``); the back page is printed upright for that turn. Turning around a vertical
    edge mirrors x; around a horizontal edge, y. On a portrait page the long edge is vertical.
    ``none`` (backs in their own file, printed on the other side by hand) is laid out like
    ``long-edge``."""
    w, h = page
    long_edge_vertical = h >= w
    if duplex in ("long-edge", "none"):
        return "x" if long_edge_vertical else "y"
    if duplex == "short-edge":
        return "y" if long_edge_vertical else "x"
    raise ValueError(f"unknown duplex mode {duplex!r}")


def mirror(rect: Rect, page: tuple[float, float], axis: str) -> Rect:
    if axis == "x":
        return Rect(page[0] - rect.x - rect.w, rect.y, rect.w, rect.h)
    return Rect(rect.x, page[1] - rect.y - rect.h, rect.w, rect.h)


def back_placements(slots: tuple[Rect, ...], page: tuple[float, float], duplex: str,
                    offset: tuple[float, float] = (0.0, 0.0)) -> tuple[Placement, ...]:
    """Where the back of each slot's card goes on the back page.

    ``offset`` (mm, x right and y up as the back page is seen upright) corrects a printer
    that prints the back side shifted. A back mirrored in y is turned 180° so that every card,
    turned over like a book page (around its own vertical axis), shows its back upright."""
    axis = mirror_axis(page, duplex)
    dx, dy = offset
    return tuple(Placement(mirror(s, page, axis).shift(dx, dy), rotated=axis == "y") for s in slots)


# --- gutter fold -------------------------------------------------------------------------------

@dataclass(frozen=True)
class FoldSheet:
    """Fronts on one half of the page, their backs mirrored on the other half across the fold.

    ``axis`` is ``"vertical"`` (fronts left, backs right) or ``"horizontal"`` (fronts top,
    backs bottom)."""

    page: tuple[float, float]
    orientation: str
    card: tuple[float, float]
    bleed: float
    gutter: float
    margin: float
    axis: str
    cols: int
    rows: int
    fronts: tuple[Rect, ...]
    backs: tuple[Placement, ...]
    fold: Segment

    @property
    def per_page(self) -> int:
        return len(self.fronts)


def fold_sheet(paper_mm: tuple[float, float], card: tuple[float, float], *, bleed: float = 3.0,
               gutter: float = 0.0, margin: float = 8.0, orientation: str = "auto") -> FoldSheet:
    """The gutter-fold layout fitting most cards per page. Across the fold, the two halves keep
    ``gutter`` between their bleed edges (0: the bleeds meet on the fold line)."""
    choices = ("portrait", "landscape") if orientation == "auto" else (orientation,)
    best: FoldSheet | None = None
    for o in choices:
        pw, ph = page_size(paper_mm, o)
        for axis in ("vertical", "horizontal"):
            sheet = _fold(pw, ph, o, axis, card, bleed, gutter, margin)
            if sheet is not None and (best is None or sheet.per_page > best.per_page):
                best = sheet
    if best is None:
        raise SheetError(_no_fit(paper_mm, card, bleed, margin, orientation).replace(
            "does not fit", "does not fit twice (gutter fold)"))
    return best


def _fold(pw, ph, orientation, axis, card, bleed, gutter, margin) -> FoldSheet | None:
    cw, ch = card[0] + 2 * bleed, card[1] + 2 * bleed
    if axis == "vertical":
        region = Rect(margin, margin, pw / 2 - gutter / 2 - margin, ph - 2 * margin)
    else:
        region = Rect(margin, ph / 2 + gutter / 2, pw - 2 * margin, ph / 2 - gutter / 2 - margin)
    cols = fit_count(region.w, cw, gutter)
    rows = fit_count(region.h, ch, gutter)
    if cols * rows == 0:
        return None
    gw, gh = _grid_size(cols, rows, card, bleed, gutter)
    fronts = _grid(region.x + (region.w - gw) / 2, region.top - (region.h - gh) / 2, cols, rows,
                   card, bleed, gutter)
    mirror_in = "x" if axis == "vertical" else "y"
    backs = tuple(Placement(mirror(f, (pw, ph), mirror_in), rotated=mirror_in == "y") for f in fronts)
    fold = Segment(pw / 2, 0, pw / 2, ph) if axis == "vertical" else Segment(0, ph / 2, pw, ph / 2)
    return FoldSheet((pw, ph), orientation, card, bleed, gutter, margin, axis, cols, rows, fronts, backs, fold)


# --- crop marks and cut lines ----------------------------------------------------------------

def trim_lines(trims: tuple[Rect, ...] | list[Rect]) -> tuple[list[float], list[float]]:
    """The distinct x of vertical trim edges and y of horizontal ones, sorted."""
    xs: list[float] = []
    ys: list[float] = []
    for t in trims:
        for x in (t.x, t.right):
            if not any(abs(x - v) < 1e-4 for v in xs):
                xs.append(x)
        for y in (t.y, t.top):
            if not any(abs(y - v) < 1e-4 for v in ys):
                ys.append(y)
    return sorted(xs), sorted(ys)


def crop_marks(trims: tuple[Rect, ...] | list[Rect], bleed: float, page: tuple[float, float]) -> list[Segment]:
    """Marks in the margins in line with every trim edge: for each vertical trim line one mark
    above and one below the cards, for each horizontal one a mark left and right. Marks start
    ``CROP_GAP_MM`` outside the outermost bleed so they never print on a card."""
    if not trims:
        return []
    xs, ys = trim_lines(trims)
    left = min(t.x for t in trims) - bleed
    right = max(t.right for t in trims) + bleed
    bottom = min(t.y for t in trims) - bleed
    top = max(t.top for t in trims) + bleed
    pw, ph = page
    marks: list[Segment] = []

    def span(start: float, limit: float, outward: int) -> tuple[float, float] | None:
        a = start + outward * CROP_GAP_MM
        room = (limit - a) * outward - CROP_EDGE_MM
        length = min(CROP_LENGTH_MM, room)
        if length < CROP_MIN_MM:
            return None
        return a, a + outward * length

    up, down = span(top, ph, +1), span(bottom, 0.0, -1)
    for x in xs:
        if up:
            marks.append(Segment(x, up[0], x, up[1]))
        if down:
            marks.append(Segment(x, down[0], x, down[1]))
    rt, lf = span(right, pw, +1), span(left, 0.0, -1)
    for y in ys:
        if lf:
            marks.append(Segment(lf[0], y, lf[1], y))
        if rt:
            marks.append(Segment(rt[0], y, rt[1], y))
    return marks


def fold_marks(sheet: FoldSheet) -> list[Segment]:
    """The fold line's ends, in the margins (drawn dashed): outside every card's bleed."""
    cards = list(sheet.fronts) + [p.trim for p in sheet.backs]
    pw, ph = sheet.page
    b = sheet.bleed
    if sheet.axis == "vertical":
        x = sheet.fold.x1
        top = max(t.top for t in cards) + b + CROP_GAP_MM
        bottom = min(t.y for t in cards) - b - CROP_GAP_MM
        return [Segment(x, top, x, ph - CROP_EDGE_MM), Segment(x, CROP_EDGE_MM, x, bottom)]
    y = sheet.fold.y1
    left = min(t.x for t in cards) - b - CROP_GAP_MM
    right = max(t.right for t in cards) + b + CROP_GAP_MM
    return [Segment(CROP_EDGE_MM, y, left, y), Segment(right, y, pw - CROP_EDGE_MM, y)]


def chunks(items, size: int):
    """Successive lists of ``size`` items (the last may be shorter), from any iterable."""
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
