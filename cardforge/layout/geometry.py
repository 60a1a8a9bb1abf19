"""Sheet geometry for printing cards: pure maths, in millimetres, no ReportLab.

Coordinates follow PDF: origin at the bottom-left corner of the page, y pointing up.

Print-trade words, one meaning each:

- **trim**: the card's finished edge, where it is cut;
- **bleed**: artwork that runs past the trim on every side, so a cut slightly off the line
  shows no white edge;
- **safe zone**: an inset inside the trim that text keeps clear of (see the layouts);
- **gutter**: space between neighbouring cards' bleed edges on a sheet (the *separate-bleed*
  layout, each card with its own bleed);
- **butted** (shared bleed): neighbouring cards touch trim to trim, one cut separates them, and
  the bleed runs only around the grid; each card is clipped to its trim on the edges it shares
  with a neighbour and to its bleed on the others, so no card prints over its neighbour;
- **margin**: the border of the sheet kept clear of cards (home printers cannot print there;
  crop marks live in it);
- **crop marks**: short lines in the margin, in line with every trim edge;
- **cut ticks**: short marks on a cut line, across the edges of the strips the first cuts
  make, so every strip keeps the marks for its own cuts (see :func:`cutting_plan`);
- **duplex**: printing both sides of the sheet. The sheet turns over around its long edge
  (``long-edge``) or its short edge (``short-edge``); a card's back lands behind its front
  when the back page mirrors the front page across that axis.
- **fold** (gutter fold): fronts on one half of the sheet, backs mirrored on the other half;
  fold along the middle, glue, cut.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

T = TypeVar("T")

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
    """Where one card side goes on a page: its trim box, whether it is turned 180°, and the
    box its artwork is clipped to on the page (``None``: the trim grown by the full bleed)."""

    trim: Rect
    rotated: bool = False
    clip: Rect | None = None


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
    shared: bool = False  # butted: neighbours share their trim line, bleed only around the grid

    @property
    def per_page(self) -> int:
        return len(self.slots)

    @property
    def layout(self) -> str:
        return "butted" if self.shared else "separate"


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


def _grid_size(cols: int, rows: int, card: tuple[float, float], bleed: float,
               gutter: float) -> tuple[float, float]:
    w, h = card
    return (cols * (w + 2 * bleed) + (cols - 1) * gutter, rows * (h + 2 * bleed) + (rows - 1) * gutter)


def impose(paper_mm: tuple[float, float], card: tuple[float, float], *, bleed: float = 3.0,
           gutter: float | None = None, margin: float = 5.0, orientation: str = "auto") -> Sheet:
    """As many cards as fit, the grid centred on the page. ``orientation="auto"`` picks the one
    that fits more cards (portrait on a tie).

    ``gutter=None`` (the default) butts the cards (shared bleed, bleed only around the grid)
    when that fits more cards on a sheet than giving each card its own bleed, and keeps the
    separate-bleed layout otherwise (on a tie too: a mis-cut then shows no neighbour's edge).
    A number (``--gutter``, 0 included) always gives each card its own bleed, ``gutter`` apart."""
    if gutter is not None:
        return _impose(paper_mm, card, bleed, gutter, margin, orientation, shared=False)
    separate = butted = None
    error: SheetError | None = None
    try:
        separate = _impose(paper_mm, card, bleed, 0.0, margin, orientation, shared=False)
    except SheetError as exc:
        error = exc
    try:
        butted = _impose(paper_mm, card, bleed, 0.0, margin, orientation, shared=True)
    except SheetError:
        pass
    if butted is not None and (separate is None or butted.per_page > separate.per_page):
        return butted
    if separate is None:
        assert error is not None  # the separate-bleed layout failed, and said why
        raise error
    return separate


def _impose(paper_mm: tuple[float, float], card: tuple[float, float], bleed: float, gutter: float, margin: float,
            orientation: str, *, shared: bool) -> Sheet:
    choices = ("portrait", "landscape") if orientation == "auto" else (orientation,)
    best: Sheet | None = None
    for o in choices:
        pw, ph = page_size(paper_mm, o)
        if shared:  # cells are the trims; the bleed is paid once, around the grid
            cols = fit_count(pw - 2 * margin - 2 * bleed, card[0], 0.0)
            rows = fit_count(ph - 2 * margin - 2 * bleed, card[1], 0.0)
        else:
            cw, ch = card[0] + 2 * bleed, card[1] + 2 * bleed
            cols = fit_count(pw - 2 * margin, cw, gutter)
            rows = fit_count(ph - 2 * margin, ch, gutter)
        if cols * rows == 0:
            continue
        if shared:
            gw, gh = cols * card[0] + 2 * bleed, rows * card[1] + 2 * bleed
            x0, top = (pw - gw) / 2 + bleed, ph - (ph - gh) / 2 - bleed
            slots = tuple(Rect(x0 + c * card[0], top - (r + 1) * card[1], card[0], card[1])
                          for r in range(rows) for c in range(cols))
        else:
            gw, gh = _grid_size(cols, rows, card, bleed, gutter)
            slots = _grid((pw - gw) / 2, ph - (ph - gh) / 2, cols, rows, card, bleed, gutter)
        sheet = Sheet((pw, ph), o, card, bleed, gutter, margin, cols, rows, slots, shared)
        # on a tie, the orientation leaving more room above and below the grid (the sheet's
        # label, scale bar and cutting order go there), then portrait
        if best is None or (sheet.per_page, ph - gh) > (best.per_page, best.page[1] - _height(best) + EPS):
            best = sheet
    if best is None:
        raise SheetError(_no_fit(paper_mm, card, bleed, margin, orientation))
    return best


def _height(sheet: Sheet) -> float:
    """The grid's height, bleed included."""
    return max(t.top for t in sheet.slots) - min(t.y for t in sheet.slots) + 2 * sheet.bleed


def clip_boxes(trims: Iterable[Rect], bleed: float) -> list[Rect]:
    """The box each card's artwork is clipped to: its trim, grown by ``bleed`` on every side
    where no other card of ``trims`` shares that trim edge. Butted neighbours thus meet on
    their common cut line and neither prints over the other; a card with an empty slot (or the
    margin) beside it keeps its full bleed there. Mirroring a set of trims mirrors its clips."""
    trims = list(trims)
    out = []
    for t in trims:
        left = bottom = right = top = bleed
        for o in trims:
            if o is t:
                continue
            across_y = min(t.top, o.top) - max(t.y, o.y) > EPS
            across_x = min(t.right, o.right) - max(t.x, o.x) > EPS
            if across_y and abs(o.right - t.x) < 1e-4:
                left = 0.0
            if across_y and abs(o.x - t.right) < 1e-4:
                right = 0.0
            if across_x and abs(o.top - t.y) < 1e-4:
                bottom = 0.0
            if across_x and abs(o.y - t.top) < 1e-4:
                top = 0.0
        out.append(Rect(t.x - left, t.y - bottom, t.w + left + right, t.h + bottom + top))
    return out


def _no_fit(paper_mm: tuple[float, float], card: tuple[float, float], bleed: float, margin: float,
            orientation: str) -> str:
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


LANDSCAPE_TURNS = ("ccw", "cw")


def page_offset(printer_offset: tuple[float, float], page: tuple[float, float],
                landscape_turn: str = "ccw") -> tuple[float, float]:
    """A back-side correction measured in the **printer's frame** (mm: X towards the paper's
    right edge, Y towards its leading edge, as the back side is seen upright on a portrait
    sheet: what the portrait calibration sheet reads), as a shift of a back *page* of size
    ``page``.

    A portrait page lies on the paper as it is: the same numbers. A landscape page is turned a
    quarter onto the portrait paper by the print driver: counter-clockwise (``"ccw"``, the
    page's top along the paper's left edge: PostScript's and IPP's "landscape", what drivers
    do by default) or clockwise (``"cw"``, "reverse landscape"). Page x then runs along the
    paper's Y (or against it) and page y against its X (or along it), so one measured printer
    error corrects files of both orientations the same physical way."""
    if landscape_turn not in LANDSCAPE_TURNS:
        raise ValueError(f"unknown landscape turn {landscape_turn!r} (allowed: {', '.join(LANDSCAPE_TURNS)})")
    x, y = printer_offset
    if page[0] <= page[1]:
        return (x, y)
    return (y, -x) if landscape_turn == "ccw" else (-y, x)


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
               gutter: float = 0.0, margin: float = 5.0, orientation: str = "auto") -> FoldSheet:
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


def _fold(pw: float, ph: float, orientation: str, axis: str, card: tuple[float, float], bleed: float,
          gutter: float, margin: float) -> FoldSheet | None:
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


def chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Successive lists of ``size`` items (the last may be shorter), from any iterable."""
    batch: list[T] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


# --- cutting order and cut ticks --------------------------------------------------------------

TICK_MM = 1.5  # a cut tick runs this far either side of the strip edge it crosses


@dataclass(frozen=True)
class CuttingPlan:
    """How to cut a sheet with a guillotine or a ruler and knife.

    First the ``first`` cuts (``"horizontal"`` or ``"vertical"``), straight across the whole
    sheet along ``first_lines`` (their crop marks sit in the margins at both ends), which makes
    strips; then, on each strip, the ``second_lines``. The strips have lost the margins where
    those lines' crop marks were, so ``ticks`` mark each second line across every strip edge
    (half on the strip, half beyond it, all on the cut line itself)."""

    first: str
    first_lines: tuple[float, ...]
    second_lines: tuple[float, ...]
    ticks: tuple[Segment, ...]

    @property
    def second(self) -> str:
        return "vertical" if self.first == "horizontal" else "horizontal"


def cutting_plan(trims: Iterable[Rect], tick: float = TICK_MM) -> CuttingPlan:
    """The cutting order for the cards ``trims`` on a sheet: across the direction with fewer
    strips first (fewer cuts in all; rows first on a tie), ticks on every strip edge."""
    trims = list(trims)
    xs, ys = trim_lines(trims)
    first = "horizontal" if len(ys) <= len(xs) else "vertical"
    ticks: list[Segment] = []
    seen: set[tuple[float, float]] = set()
    for t in trims:
        for x in (t.x, t.right):
            for y in (t.y, t.top):
                key = (round(x, 4), round(y, 4))
                if key in seen:
                    continue
                seen.add(key)
                if first == "horizontal":  # a vertical tick across the strip's top or bottom edge
                    ticks.append(Segment(x, y - tick, x, y + tick))
                else:
                    ticks.append(Segment(x - tick, y, x + tick, y))
    ticks.sort(key=lambda s: (s.x1, s.y1, s.x2, s.y2))
    if first == "horizontal":
        return CuttingPlan(first, tuple(sorted(ys, reverse=True)), tuple(xs), tuple(ticks))
    return CuttingPlan(first, tuple(xs), tuple(sorted(ys, reverse=True)), tuple(ticks))


# --- the sheet's margins: where labels go -----------------------------------------------------

LABEL_MIN_MM = 2.8  # a margin band lower than this holds no label


def label_areas(page: tuple[float, float], trims: Iterable[Rect], bleed: float,
                marks: bool = True) -> dict[str, Rect | None]:
    """Free rectangles in the bottom and top margins for a sheet label, a scale bar and the
    cutting order: outside every card's bleed, clear of the crop marks (beyond their outer
    ends when there is room, else between two marks), at least ``CROP_EDGE_MM`` from the
    paper's edge. ``None`` where a margin is too small."""
    trims = list(trims)
    pw, ph = page
    if not trims:
        return {"bottom": Rect(CROP_EDGE_MM, CROP_EDGE_MM, pw - 2 * CROP_EDGE_MM, ph / 2 - CROP_EDGE_MM),
                "top": Rect(CROP_EDGE_MM, ph / 2, pw - 2 * CROP_EDGE_MM, ph / 2 - CROP_EDGE_MM)}
    grid_bottom = min(t.y for t in trims) - bleed
    grid_top = max(t.top for t in trims) + bleed
    xs, _ = trim_lines(trims)
    out: dict[str, Rect | None] = {}
    for side, outward in (("bottom", -1), ("top", +1)):
        start = (grid_bottom if outward < 0 else grid_top) + outward * CROP_GAP_MM
        edge = 0.0 if outward < 0 else ph
        room = (edge - start) * outward - CROP_EDGE_MM  # from the grid side to the paper's edge
        if room < LABEL_MIN_MM:
            out[side] = None
            continue
        length = min(CROP_LENGTH_MM, room) if marks else 0.0
        if length < CROP_MIN_MM:
            length = 0.0
        beyond = room - length - (0.5 if length else 0.0)
        if beyond >= LABEL_MIN_MM:  # the whole width, beyond the marks' ends
            near = start + outward * (room - beyond)
            y0 = min(near, near + outward * beyond)
            out[side] = Rect(CROP_EDGE_MM, y0, pw - 2 * CROP_EDGE_MM, beyond)
            continue
        # between two marks, next to the grid: the widest gap
        cuts = [CROP_EDGE_MM - 1.0] + xs + [pw - CROP_EDGE_MM + 1.0]
        best = max(((b - a - 2.0, a + 1.0) for a, b in zip(cuts, cuts[1:])), key=lambda g: (g[0], -g[1]))
        y0 = min(start, start + outward * room)
        out[side] = Rect(best[1], y0, best[0], room) if best[0] > 10 else None
    return out


class FrameSettings(Protocol):
    """What :func:`back_offset_for` reads of the build settings."""

    @property
    def back_offset_mm(self) -> tuple[float, float]: ...

    @property
    def landscape_turn(self) -> str: ...


def back_offset_for(settings: FrameSettings, page: tuple[float, float]) -> tuple[float, float]:
    """``settings.back_offset_mm`` (the printer's frame) as a shift of a back page of size
    ``page`` (mm), turned with the page when it is landscape."""
    return page_offset(settings.back_offset_mm, page, settings.landscape_turn)
