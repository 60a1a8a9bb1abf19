"""Laying cards out on paper: which grid, which card goes in which slot, how the sheet is cut
and where its marks may print. Pure maths in millimetres (no ReportLab); the words are those
of :mod:`cardforge.layout.geometry`, plus:

- **printer margin**: the band along every paper edge a home printer cannot print (5 mm by
  default, 6.35 mm on Letter). Nothing cardforge adds to a sheet (crop marks, ticks, the fold
  line, labels, captions) goes there; only card bleed may run into it, and is cut off anyway;
- **trim area**: where cards' trims may lie. With the automatic margin (``margin=None``) it is
  the printable area shrunk by ``PRINTABLE_BLEED_MM`` (2 mm of every card's bleed prints, so a
  cut that far off the line shows no white; the rest of the bleed may run into the printer
  margin), and at least the bleed from the paper's edge; with a margin given (``--margin``),
  the cards *with their bleed* keep that far from the edges, as before;
- **label area**: the printable area less ``INK_CLEARANCE_MM``: where labels go (a glyph's
  anti-aliasing and accents never reach the printer margin); marks, ticks and fold dashes, thin
  strokes that still mark their line if the printer clips a little, go up to the printable
  area's edge;
- **options**: every grid that fits (portrait or landscape; neighbours butted or each card its
  own bleed, per direction; every other row or column turned 180°; a block of upright cards
  with a block of turned cards beside it). :func:`impose` picks the one with most cards a
  sheet; :func:`choose` the one needing fewest sheets once :func:`sequence` has placed the
  cards so that no mis-cut shows a sliver of a differently coloured neighbour;
- **cutting plan**: a guillotine plan (:func:`cutting_plan`): cut lines straight across a
  piece of paper, the first ones across the whole sheet, following crop marks that print.

Coordinates follow PDF: origin at the bottom-left corner of the page, y pointing up.
"""

from __future__ import annotations

import math
from bisect import bisect
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, Protocol, TypeVar

from cardforge.layout.geometry import (
    EPS,
    Placement,
    Rect,
    Segment,
    SheetError,
    back_placements,
    clip_boxes,
    mirror,
    mirror_axis,
    mirror_turn,
    page_size,
)

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")
KC = TypeVar("KC", bound=Hashable, contravariant=True)

CROP_GAP_MM = 1.0  # marks start this far from any ink (a card's bleed)
CROP_LENGTH_MM = 5.0  # and run this long, or to the printable area's edge
CROP_MIN_MM = 1.5  # shorter than this: no mark
TICK_MM = 1.5  # a cut tick runs this far either side of the strip edge it crosses
CLEAR_MM = 0.5  # labels keep this far from marks (and from the fold line)
TEXT_MIN_MM = 2.1  # the height of a line of 5 pt text
INK_CLEARANCE_MM = 0.5  # labels (and printables' ink) keep this far inside the printable area
# a line of 5 pt text or the scale bar beside it (2.22 mm deep) beyond the marks, CLEAR_MM clear of
# them, inside the label area
TEXT_BAND_MM = 2.25 + CLEAR_MM + INK_CLEARANCE_MM
TOUCH = 1e-4  # two edges closer than this are one line

SIDES = ("L", "R", "B", "T")
OPPOSITE = {"L": "R", "R": "L", "B": "T", "T": "B"}


PRINTABLE_BLEED_MM = 2.0  # of a card's bleed, this much at least lies inside the printable area


def trim_area(page: tuple[float, float], bleed: float, margin: float | None, printer: float,
              printable_bleed: float = PRINTABLE_BLEED_MM) -> Rect:
    """Where the cards' trims may lie on a page (``margin=None``): ``printable_bleed`` of their
    bleed (all of it when it is narrower) inside the printable area, all of it on the paper;
    with a ``margin``, ``margin + bleed`` from every edge."""
    d = max(printer + min(bleed, printable_bleed), bleed) if margin is None else margin + bleed
    pw, ph = page
    return Rect(d, d, pw - 2 * d, ph - 2 * d)


def printable_area(page: tuple[float, float], printer: float) -> Rect:
    pw, ph = page
    return Rect(printer, printer, pw - 2 * printer, ph - 2 * printer)


def label_area(page: tuple[float, float], printer: float) -> Rect:
    """Where labels may go: ``INK_CLEARANCE_MM`` inside the printable area."""
    return printable_area(page, printer + INK_CLEARANCE_MM)


def fit_run(available: float, size: float, extra: float) -> int:
    """How many cards of ``size`` fit in a row of ``available`` mm, ``extra`` apart."""
    if size <= 0:
        raise SheetError("a card must have a positive size")
    if available + EPS < size:
        return 0
    return int(math.floor((available + extra + EPS) / (size + extra)))


def run_length(n: int, size: float, extra: float) -> float:
    return n * size + max(n - 1, 0) * extra


# --- sheets ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Layout:
    """What every layout of a sheet knows: the page (mm) and how it was asked for."""

    page: tuple[float, float]
    orientation: str
    card: tuple[float, float]
    bleed: float
    gutter: float
    margin: float | None
    printer: float

    def _fronts(self) -> tuple[tuple[Rect, ...], tuple[int, ...]]:
        """The fronts' trims in fill order, and their turns (empty: all upright)."""
        raise NotImplementedError

    @property
    def per_page(self) -> int:
        return len(self._fronts()[0])

    def turn(self, index: int) -> int:
        turns = self._fronts()[1]
        return turns[index] if turns else 0

    def placements(self, count: int | None = None) -> tuple[Placement, ...]:
        n = self.per_page if count is None else count
        return tuple(Placement(s, self.turn(i)) for i, s in enumerate(self._fronts()[0][:n]))


@dataclass(frozen=True)
class Sheet(_Layout):
    """Cards imposed on one side of a sheet, in print order (rows top to bottom, each row left
    to right; a turned block after the main grid). ``slots`` are the cards' trim boxes on the
    page, ``turns`` each card's quarter turns (empty: all upright).

    ``butt``: (neighbours in a row touch, rows touch): where two cards touch, one cut separates
    them and each is clipped to its trim on that edge; elsewhere each card has its own bleed,
    ``gutter`` apart. ``pattern``: ``"rows"``/``"cols"`` when every other row/column is turned
    180° (so like edges meet), ``"column"``/``"row"`` when ``extra`` turned cards sit in a block
    beside (or below) the main ``cols × rows`` grid."""

    cols: int
    rows: int
    slots: tuple[Rect, ...]
    turns: tuple[int, ...] = ()
    butt: tuple[bool, bool] = (True, True)
    pattern: str = ""
    extra: int = 0

    def _fronts(self) -> tuple[tuple[Rect, ...], tuple[int, ...]]:
        return self.slots, self.turns

    @property
    def shared(self) -> bool:
        """Some neighbours are butted (share a cut line)."""
        return any(self.butt)

    @property
    def layout(self) -> str:
        if all(self.butt):
            return "butted"
        if not any(self.butt):
            return "separate"
        return "butted in rows" if self.butt[0] else "butted in columns"

    def back_placements(self, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> tuple[Placement, ...]:
        """Where each slot's back goes on the back page (:func:`geometry.back_placements`)."""
        return back_placements(self.slots, self.page, duplex, offset, self.turns)

    def describe(self) -> str:
        """'4 × 2 = 8 a sheet, butted' (plus what is turned)."""
        how = {"butted": "butted", "separate": "each card its own bleed",
               "butted in rows": "butted in rows, bleed between rows",
               "butted in columns": "butted in columns, bleed between columns"}[self.layout]
        grid = f"{self.cols} × {self.rows}"
        if self.extra:
            grid += f" + {self.extra} turned"
        out = f"{grid} = {self.per_page} a sheet, {how}"
        if self.pattern in ("rows", "cols"):
            out += f", every other {'row' if self.pattern == 'rows' else 'column'} turned"
        return out


def _grid_slots(x0: float, top: float, cols: int, rows: int, size: tuple[float, float], ex: float,
                ey: float) -> list[Rect]:
    w, h = size
    return [Rect(x0 + c * (w + ex), top - (r + 1) * h - r * ey, w, h) for r in range(rows) for c in range(cols)]


def _centred_grid(area: Rect, card: tuple[float, float], bleed: float, g: float, bx: bool, by: bool,
                  grid: tuple[int | None, int | None] = (None, None)) -> tuple[float, float, tuple[Rect, ...]]:
    """The largest grid of ``card`` whose trims fit ``area`` (at most ``grid``'s columns and
    rows), centred in it: (the gap between columns, between rows, the trims). Butted (``bx``: in
    a row, ``by``: rows) or ``2 × bleed + g`` apart."""
    w, h = card
    ex = 0.0 if bx else 2 * bleed + g
    ey = 0.0 if by else 2 * bleed + g
    cols, rows = _capped(fit_run(area.w, w, ex), grid[0]), _capped(fit_run(area.h, h, ey), grid[1])
    if cols * rows == 0:
        return ex, ey, ()
    gw, gh = run_length(cols, w, ex), run_length(rows, h, ey)
    return ex, ey, tuple(_grid_slots(area.x + (area.w - gw) / 2, area.top - (area.h - gh) / 2, cols, rows, card,
                                     ex, ey))


def _capped(n: int, most: int | None) -> int:
    return n if most is None else min(n, most)


def _butts(gutter: float | None) -> list[tuple[bool, bool]]:
    if gutter is not None:  # --gutter: every card its own bleed
        return [(False, False)]
    return [(True, True), (True, False), (False, True), (False, False)]


def sheet_options(paper_mm: tuple[float, float], card: tuple[float, float], *, bleed: float = 3.0,
                  gutter: float | None = None, margin: float | None = None, printer: float = 5.0,
                  printable_bleed: float = PRINTABLE_BLEED_MM,
                  orientation: str = "auto", mixed: bool = True, patterns: bool = False,
                  columns: int | None = None, rows: int | None = None) -> list[Sheet]:
    """Every layout of ``card`` on the paper: for each orientation and each way of butting, the
    largest centred grid; with ``patterns``, the same grids with every other row or column
    turned 180°; with ``mixed``, an upright block beside (or above) a turned block when that
    fits more. ``gutter=None``: butted or not, decided per direction; a number: every card its
    own bleed, ``gutter`` apart. ``columns``, ``rows``: the most a sheet may have (a sheet grid
    as the designer wants it; no mixed blocks then)."""
    if card[0] <= 0 or card[1] <= 0:
        raise SheetError("a card must have a positive size")
    choices = ("portrait", "landscape") if orientation == "auto" else (orientation,)
    out: list[Sheet] = []
    w, h = card
    g = gutter or 0.0
    for o in choices:
        page = page_size(paper_mm, o)
        pw, ph = page
        area = trim_area(page, bleed, margin, printer, printable_bleed)
        best_uniform = 0
        for bx, by in _butts(gutter):
            ex, ey, slots = _centred_grid(area, card, bleed, g, bx, by, (columns, rows))
            if not slots:
                continue
            n_cols, n_rows = _capped(fit_run(area.w, w, ex), columns), _capped(fit_run(area.h, h, ey), rows)
            best_uniform = max(best_uniform, len(slots))
            base = Sheet(page, o, card, bleed, g, margin, printer, n_cols, n_rows, slots, (), (bx, by))
            out.append(base)
            if patterns and by and n_rows > 1:
                out.append(_with(base, tuple(2 * ((i // n_cols) % 2) for i in range(len(slots))), "rows"))
            if patterns and bx and n_cols > 1:
                out.append(_with(base, tuple(2 * ((i % n_cols) % 2) for i in range(len(slots))), "cols"))
        if mixed and w != h and columns is None and rows is None:
            for bx, by in _butts(gutter):
                mix = _mixed(page, o, card, bleed, g, margin, printer, area, bx, by)
                if mix is not None and mix.per_page > best_uniform:
                    out.append(mix)
    return out


def _with(sheet: Sheet, turns: tuple[int, ...], pattern: str) -> Sheet:
    return Sheet(sheet.page, sheet.orientation, sheet.card, sheet.bleed, sheet.gutter, sheet.margin, sheet.printer,
                 sheet.cols, sheet.rows, sheet.slots, turns, sheet.butt, pattern)


def _mixed(page: tuple[float, float], orientation: str, card: tuple[float, float], bleed: float, g: float,
           margin: float | None, printer: float, area: Rect, bx: bool, by: bool) -> Sheet | None:
    """The best two-block layout: upright cards in a grid, turned cards (a quarter turn) in a
    grid beside it (``column``) or below it (``row``), each block with its own bleed where
    they meet, so one straight cut across the whole sheet separates them."""
    w, h = card
    ex = 0.0 if bx else 2 * bleed + g
    ey = 0.0 if by else 2 * bleed + g
    gap = 2 * bleed + g
    pw, ph = page
    best: tuple[int, Sheet] | None = None
    for split in ("column", "row"):
        across = area.w if split == "column" else area.h
        step_a = (w, ex) if split == "column" else (h, ey)
        for n in range(1, fit_run(across, *step_a) + 1):
            used = run_length(n, *step_a)
            rest = across - used - gap
            if split == "column":
                ca, ra = n, fit_run(area.h, h, ey)
                cb, rb = fit_run(rest, h, ex), fit_run(area.h, w, ey)
            else:
                ca, ra = fit_run(area.w, w, ex), n
                cb, rb = fit_run(area.w, h, ex), fit_run(rest, w, ey)
            if ca * ra == 0 or cb * rb == 0:
                continue
            total = ca * ra + cb * rb
            if best is not None and total <= best[0]:
                continue
            wa, ha = run_length(ca, w, ex), run_length(ra, h, ey)
            wb, hb = run_length(cb, h, ex), run_length(rb, w, ey)
            if split == "column":
                x0 = (pw - (wa + gap + wb)) / 2
                a = _grid_slots(x0, ph - (ph - ha) / 2, ca, ra, (w, h), ex, ey)
                b = _grid_slots(x0 + wa + gap, ph - (ph - hb) / 2, cb, rb, (h, w), ex, ey)
            else:
                top = ph - (ph - (ha + gap + hb)) / 2
                a = _grid_slots((pw - wa) / 2, top, ca, ra, (w, h), ex, ey)
                b = _grid_slots((pw - wb) / 2, top - ha - gap, cb, rb, (h, w), ex, ey)
            turns = (0,) * len(a) + (1,) * len(b)
            best = (total, Sheet(page, orientation, card, bleed, g, margin, printer, ca, ra, tuple(a + b), turns,
                                 (bx, by), split, len(b)))
    return best[1] if best else None


def _room(sheet: Sheet | FoldSheet) -> float:
    """The height left above and below the cards with their bleed."""
    trims = sheet.slots if isinstance(sheet, Sheet) else sheet.fronts + tuple(p.trim for p in sheet.backs)
    top = max(t.top for t in trims) + sheet.bleed
    bottom = min(t.y for t in trims) - sheet.bleed
    return sheet.page[1] - (top - bottom)


HARD = 2  # rank()'s first entries: what a layout must offer before the number of cards counts


def rank(sheet: Sheet | FoldSheet, marks: bool = True, labels: bool = True) -> tuple[float, ...]:
    """What decides between layouts. The first ``HARD`` entries before the number of cards or
    sheets (see :func:`impose`, :func:`choose`): the first cuts' crop marks print (``marks``:
    when the sheet has crop marks), and there is room beside the cards for the sheet label and
    the cutting order (``labels``: when the sheet has them; :func:`label_room`). The others
    between layouts holding as many: fewer butted directions (a mis-cut then shows no
    neighbour); no turned cards; more room above and below the grid; portrait."""
    return (0 if not marks or marks_print(sheet) else 1, 2 - label_room(sheet) if labels else 0,
            sum(sheet.butt), 1 if sheet.pattern else 0, -round(_room(sheet), 6),
            0 if sheet.orientation == "portrait" else 1)


LABEL_LENGTH_MM = 60.0  # a band this long holds a sheet label (or the cutting order in a few words)


@lru_cache(maxsize=1024)
def label_room(sheet: Sheet | FoldSheet) -> int:
    """How many (up to 2) separate bands of a full sheet's printable margins hold a line of
    5 pt text ``LABEL_LENGTH_MM`` long, clear of its marks: one for the sheet label, one for
    the cutting order."""
    plan = sheet_plan(sheet)
    if isinstance(sheet, FoldSheet):
        trims = list(sheet.fronts) + [p.trim for p in sheet.backs]
        extra = fold_marks(sheet)
    else:
        trims, extra = list(sheet.slots), []
    obstacles = [segment_box(m) for m in list(plan.marks) + list(plan.ticks) + extra]
    areas = [a for a in free_areas(sheet.page, sheet.printer, clip_boxes(trims, sheet.bleed), obstacles)
             if a.length >= LABEL_LENGTH_MM and a.depth >= TEXT_MIN_MM]
    if not areas:
        return 0
    first = max(areas, key=lambda a: a.length)
    return 2 if any(not a.rect.overlaps(first.rect) for a in areas) else 1


def impose(paper_mm: tuple[float, float], card: tuple[float, float], *, bleed: float = 3.0,
           gutter: float | None = None, margin: float | None = None, printer: float = 5.0,
           orientation: str = "auto", mixed: bool = True, marks: bool = True, labels: bool = True,
           printable_bleed: float = PRINTABLE_BLEED_MM) -> Sheet:
    """The layout fitting most cards a sheet, ignoring what the cards look like (:func:`choose`
    weighs their edges), among those whose first cuts' crop marks print and that leave room
    for the labels, if any does (``marks``, ``labels``: the sheet carries them); ties by
    :func:`rank`."""
    options = sheet_options(paper_mm, card, bleed=bleed, gutter=gutter, margin=margin, printer=printer,
                            printable_bleed=printable_bleed, orientation=orientation, mixed=mixed)
    if not options:
        raise SheetError(no_fit_message(paper_mm, card, bleed, margin, printer, orientation))
    sheet = best_by_count(options, marks, labels)
    assert isinstance(sheet, Sheet)
    return sheet


def best_by_count(options: Sequence[Sheet | FoldSheet], marks: bool = True,
                  labels: bool = True) -> Sheet | FoldSheet:
    """``min(options, key=by_count)``, ranking only the layouts that could still win: once one
    with every hard requirement met is found, those holding fewer cards are not looked at."""
    best: tuple[tuple[float, ...], Sheet | FoldSheet] | None = None
    for option in sorted(options, key=lambda o: -o.per_page):
        if best is not None and best[0][:HARD] == (0, 0) and option.per_page < best[1].per_page:
            break
        key = by_count(option, marks, labels)
        if best is None or key < best[0]:
            best = (key, option)
    assert best is not None, "best_by_count() needs at least one option"
    return best[1]


def by_count(s: Sheet | FoldSheet, marks: bool = True, labels: bool = True) -> tuple[float, ...]:
    """The order :func:`impose` ranks layouts in: :func:`rank`'s first entries, most cards a
    sheet, then its others."""
    r = rank(s, marks, labels)
    return (*r[:HARD], -s.per_page, *r[HARD:])


def no_fit_message(paper_mm: tuple[float, float], card: tuple[float, float], bleed: float, margin: float | None,
                   printer: float, orientation: str, what: str = "does not fit") -> str:
    short, long = sorted(paper_mm)
    where = "" if orientation == "auto" else f" in {orientation}"
    room = (f"with {margin:g} mm margins" if margin is not None
            else f"inside its printable area ({printer:g} mm printer margin)")
    return (f"a {card[0]:g}×{card[1]:g} mm card with {bleed:g} mm bleed {what} on a {short:g}×{long:g} mm "
            f"page{where} {room}")


# --- gutter fold --------------------------------------------------------------------------------

@dataclass(frozen=True)
class FoldSheet(_Layout):
    """Fronts on one half of the page, their backs mirrored on the other half across the fold.

    ``axis`` is ``"vertical"`` (fronts left, backs right) or ``"horizontal"`` (fronts top,
    backs bottom). Within each half the cards are butted (``butt``) or each has its own bleed,
    as on a :class:`Sheet`; across the fold each half keeps its bleed (``gutter`` apart)."""

    axis: str
    cols: int
    rows: int
    fronts: tuple[Rect, ...]
    backs: tuple[Placement, ...]
    fold: Segment
    turns: tuple[int, ...] = ()
    butt: tuple[bool, bool] = (False, False)
    pattern: str = ""

    def _fronts(self) -> tuple[tuple[Rect, ...], tuple[int, ...]]:
        return self.fronts, self.turns

    @property
    def slots(self) -> tuple[Rect, ...]:
        return self.fronts

    @property
    def shared(self) -> bool:
        return any(self.butt)

    @property
    def extra(self) -> int:
        return 0

    def back_placements(self, duplex: str = "fold", offset: tuple[float, float] = (0.0, 0.0)) -> tuple[Placement, ...]:
        return self.backs

    @property
    def front_half(self) -> Rect:
        pw, ph = self.page
        return Rect(0, 0, pw / 2, ph) if self.axis == "vertical" else Rect(0, ph / 2, pw, ph / 2)

    def describe(self) -> str:
        how = {(True, True): "butted", (False, False): "each card its own bleed",
               (True, False): "butted in rows, bleed between rows",
               (False, True): "butted in columns, bleed between columns"}[self.butt]
        out = f"gutter fold, {self.cols} × {self.rows} = {self.per_page} a sheet, {how}"
        if self.pattern:
            out += f", every other {'row' if self.pattern == 'rows' else 'column'} turned"
        return out


def fold_options(paper_mm: tuple[float, float], card: tuple[float, float], *, bleed: float = 3.0,
                 gutter: float | None = None, margin: float | None = None, printer: float = 5.0,
                 printable_bleed: float = PRINTABLE_BLEED_MM,
                 orientation: str = "auto", patterns: bool = False) -> list[FoldSheet]:
    """Every gutter-fold layout: for each orientation, fold axis and way of butting, the
    largest grid of fronts on one half (centred in it), the backs mirrored on the other."""
    choices = ("portrait", "landscape") if orientation == "auto" else (orientation,)
    out: list[FoldSheet] = []
    g = gutter or 0.0
    w, h = card
    for o in choices:
        page = page_size(paper_mm, o)
        pw, ph = page
        area = trim_area(page, bleed, margin, printer, printable_bleed)
        for axis in ("vertical", "horizontal"):
            if axis == "vertical":  # fronts left of the fold, their bleed at most up to it (less half the gutter)
                half = Rect(area.x, area.y, pw / 2 - g / 2 - bleed - area.x, area.h)
            else:  # fronts above
                bottom = ph / 2 + g / 2 + bleed
                half = Rect(area.x, bottom, area.w, area.top - bottom)
            for bx, by in _butts(gutter):
                ex, ey, fronts = _centred_grid(half, card, bleed, g, bx, by)
                if not fronts:
                    continue
                cols, rows = fit_run(half.w, w, ex), fit_run(half.h, h, ey)
                variants: list[tuple[tuple[int, ...], str]] = [((), "")]
                if patterns and by and rows > 1:
                    variants.append((tuple(2 * ((i // cols) % 2) for i in range(len(fronts))), "rows"))
                if patterns and bx and cols > 1:
                    variants.append((tuple(2 * ((i % cols) % 2) for i in range(len(fronts))), "cols"))
                m = "x" if axis == "vertical" else "y"
                fold = Segment(pw / 2, 0, pw / 2, ph) if axis == "vertical" else Segment(0, ph / 2, pw, ph / 2)
                for turns, pattern in variants:
                    backs = tuple(Placement(mirror(f, page, m), mirror_turn(turns[i] if turns else 0, m))
                                  for i, f in enumerate(fronts))
                    out.append(FoldSheet(page, o, card, bleed, g, margin, printer, axis, cols, rows, fronts, backs,
                                         fold, turns, (bx, by), pattern))
    return out


def fold_sheet(paper_mm: tuple[float, float], card: tuple[float, float], *, bleed: float = 3.0,
               gutter: float | None = None, margin: float | None = None, printer: float = 5.0,
               orientation: str = "auto", marks: bool = True, labels: bool = True,
               printable_bleed: float = PRINTABLE_BLEED_MM) -> FoldSheet:
    """The gutter-fold layout fitting most cards a page (ties: :func:`rank`)."""
    options = fold_options(paper_mm, card, bleed=bleed, gutter=gutter, margin=margin, printer=printer,
                           printable_bleed=printable_bleed, orientation=orientation)
    if not options:
        raise SheetError(no_fit_message(paper_mm, card, bleed, margin, printer, orientation,
                                        "does not fit twice (gutter fold)"))
    sheet = best_by_count(options, marks, labels)
    assert isinstance(sheet, FoldSheet)
    return sheet


# --- which card goes where: edges that meet ------------------------------------------------------

class Meets(Protocol[KC]):
    """Whether card class ``a``, turned ``turn_a`` and touching its neighbour with its page side
    ``side`` (L, R, B, T), may be butted against class ``b`` turned ``turn_b`` on the page
    showing ``face`` ("front" or "back"): a cut a little off the line then shows no sliver of
    another colour."""

    def __call__(self, a: KC, turn_a: int, side: str, b: KC, turn_b: int, face: str) -> bool: ...


@dataclass(frozen=True)
class Contacts:
    """Which slots touch which, on the fronts' page and on the backs': per slot, (other slot,
    the page side of this slot that touches it), and each slot's turn on either page."""

    front: tuple[tuple[tuple[int, str], ...], ...]
    back: tuple[tuple[tuple[int, str], ...], ...]
    front_turns: tuple[int, ...]
    back_turns: tuple[int, ...]

    @property
    def slots(self) -> int:
        return len(self.front)


def touching(rects: Sequence[Rect]) -> tuple[tuple[tuple[int, str], ...], ...]:
    """For each rectangle, the others sharing an edge with it (over some length), and on
    which of its sides."""
    out: list[list[tuple[int, str]]] = [[] for _ in rects]
    by_x: dict[int, list[int]] = {}
    by_y: dict[int, list[int]] = {}
    for j, b in enumerate(rects):
        by_x.setdefault(round(b.x * 1000), []).append(j)
        by_y.setdefault(round(b.y * 1000), []).append(j)

    def near(index: dict[int, list[int]], v: float) -> list[int]:
        k = round(v * 1000)
        return index.get(k - 1, []) + index.get(k, []) + index.get(k + 1, [])

    for i, a in enumerate(rects):
        for j in near(by_x, a.right):  # b starts where a ends: b on a's right, a on b's left
            b = rects[j]
            if j != i and abs(b.x - a.right) < TOUCH and min(a.top, b.top) - max(a.y, b.y) > EPS:
                out[i].append((j, "R"))
                out[j].append((i, "L"))
        for j in near(by_y, a.top):
            b = rects[j]
            if j != i and abs(b.y - a.top) < TOUCH and min(a.right, b.right) - max(a.x, b.x) > EPS:
                out[i].append((j, "T"))
                out[j].append((i, "B"))
    return tuple(tuple(sorted(x)) for x in out)


def contacts(fronts: Sequence[Placement], backs: Sequence[Placement]) -> Contacts:
    return Contacts(touching([p.trim for p in fronts]), touching([p.trim for p in backs]),
                    tuple(p.turn for p in fronts), tuple(p.turn for p in backs))


class _Filler(Generic[K]):
    def __init__(self, c: Contacts, meets: Meets[K]):
        self.c = c
        self.meets = meets

    def fits(self, keys: list[K | None], i: int, k: K) -> bool:
        c = self.c
        for j, side in c.front[i]:
            other = keys[j]
            if other is not None and not self.meets(k, c.front_turns[i], side, other, c.front_turns[j], "front"):
                return False
        for j, side in c.back[i]:
            other = keys[j]
            if other is not None and not self.meets(k, c.back_turns[i], side, other, c.back_turns[j], "back"):
                return False
        return True

    def fills_page(self, k: K) -> bool:
        keys: list[K | None] = [k] * self.c.slots
        return all(self.fits(keys, i, k) for i in range(self.c.slots))


def sequence(items: Iterable[tuple[K, T]], c: Contacts, meets: Meets[K],
             spares: Sequence[tuple[K, T]] = ()) -> list[list[tuple[K, T] | None]]:
    """The cards on each sheet, slot by slot, as (class, card) (``None``: an empty slot).
    ``items``: (class, card) in print order. Cards are taken class by class (classes in order
    of first appearance, so like edges sit together); each slot gets the first waiting class
    whose edges meet every neighbour already placed, on the fronts' page and on the backs'
    (:class:`Meets`), else stays empty. Then the empty slots of the last sheet take
    ``spares`` (tried in turn, each where its edges meet all its neighbours)."""
    queues: dict[K, deque[T]] = {}
    for key, item in items:
        queues.setdefault(key, deque()).append(item)
    order = list(queues)
    filler = _Filler(c, meets)
    n = c.slots
    whole: dict[K, bool] = {}
    pages: list[list[tuple[K, T] | None]] = []
    while True:
        live = [k for k in order if queues[k]]
        if not live:
            break
        head = live[0]
        if len(queues[head]) >= n:
            if head not in whole:
                whole[head] = filler.fills_page(head)
            if whole[head]:  # whole sheets of one class, as the slot-by-slot fill would make them
                for _ in range(len(queues[head]) // n):
                    pages.append([(head, queues[head].popleft()) for _ in range(n)])
                continue
        page: list[tuple[K, T] | None] = [None] * n
        keys: list[K | None] = [None] * n
        for i in range(n):
            for k in live:
                if queues[k] and filler.fits(keys, i, k):
                    page[i] = (k, queues[k].popleft())
                    keys[i] = k
                    break
        pages.append(page)
    if spares and pages:
        last = pages[-1]
        keys = [x[0] if x is not None else None for x in last]
        turn = 0
        for i in range(n):
            if last[i] is not None:
                continue
            for t in range(len(spares)):
                k, item = spares[(turn + t) % len(spares)]
                if filler.fits(keys, i, k):
                    last[i] = (k, item)
                    keys[i] = k
                    turn = (turn + t + 1) % len(spares)
                    break
    return pages


def sheets_needed(counts: Sequence[tuple[K, int]], c: Contacts, meets: Meets[K]) -> int:
    """How many sheets :func:`sequence` fills with ``counts[i][1]`` cards of class
    ``counts[i][0]`` (classes in print order)."""
    return len(sequence(((k, None) for k, n in counts for _ in range(n)), c, meets))


def choose(options: Sequence[Sheet | FoldSheet], count: int, sheets_for: Callable[[Sheet | FoldSheet], int],
           marks: bool = True, labels: bool = True) -> Sheet | FoldSheet:
    """The option needing fewest sheets for ``count`` cards (``sheets_for`` says how many once
    its cards are placed), among those whose crop marks print and that leave room for the
    labels if any does (:func:`rank`, which also breaks ties). Options are tried from the
    fewest sheets they could need (``count`` over cards a sheet), so most are never placed."""
    def least(option: Sheet | FoldSheet) -> int:  # sheets it needs at the very least
        return -(-count // option.per_page)

    best: tuple[tuple[float, ...], Sheet | FoldSheet] | None = None
    for option in sorted(options, key=least):
        if best is not None and best[0][:HARD] == (0, 0) and least(option) > best[0][HARD]:
            break  # it cannot beat the best: no need to rank it or place its cards
        r = rank(option, marks, labels)
        if best is not None and (*r[:HARD], float(least(option))) > best[0][:HARD + 1]:
            continue
        key = (*r[:HARD], float(sheets_for(option)), *r[HARD:])
        if best is None or key < best[0]:
            best = (key, option)
    assert best is not None, "choose() needs at least one option"
    return best[1]


# --- the cutting plan ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Cut:
    """One step of a guillotine plan: ``lines`` (y of horizontal lines, x of vertical ones)
    cut straight across ``region``, then each piece holding cards cut by its own plan."""

    region: Rect
    direction: str  # horizontal | vertical
    lines: tuple[float, ...]
    pieces: tuple[Cut, ...]
    depth: int = 0


@dataclass(frozen=True)
class CuttingPlan:
    """How to cut a sheet with a guillotine or a ruler and knife: first the ``root`` lines
    straight across the whole sheet, following crop marks at both ends (``marks``), which makes
    strips; then each strip's lines, which lost the margins where their crop marks were:
    ``ticks`` mark them across every strip edge (half on the strip, half beyond it, on the cut
    line itself). ``printable``: the first cuts' crop marks print at both ends."""

    root: Cut | None
    marks: tuple[Segment, ...]
    ticks: tuple[Segment, ...]
    printable: bool

    @property
    def first(self) -> str:
        return self.root.direction if self.root else "horizontal"

    @property
    def second(self) -> str:
        return "vertical" if self.first == "horizontal" else "horizontal"

    @property
    def first_lines(self) -> tuple[float, ...]:
        if self.root is None:
            return ()
        return tuple(sorted(self.root.lines, reverse=self.root.direction == "horizontal"))

    @property
    def second_lines(self) -> tuple[float, ...]:
        if self.root is None:
            return ()
        lines = {round(v, 6) for p in self.root.pieces for v in p.lines}
        return tuple(sorted(lines, reverse=self.second == "horizontal"))

    def steps(self) -> list[tuple[int, str, tuple[int, ...]]]:
        """(depth, direction, lines per piece) for each level of the plan."""
        out: list[tuple[int, str, tuple[int, ...]]] = []
        level = [self.root] if self.root else []
        depth = 0
        while level:
            dirs = {c.direction for c in level}
            out.append((depth, dirs.pop() if len(dirs) == 1 else "mixed", tuple(len(c.lines) for c in level)))
            level = [p for c in level for p in c.pieces]
            depth += 1
        return out


def _lines(trims: Sequence[Rect], region: Rect, axis: str) -> list[float]:
    """Trim edges (x for ``axis="x"``) strictly inside ``region`` that no card crosses."""
    lo, hi = (region.x, region.right) if axis == "x" else (region.y, region.top)
    spans = sorted(((t.x, t.right) if axis == "x" else (t.y, t.top)) for t in trims)
    values = sorted({round(v, 6) for span in spans for v in span})
    found: list[float] = []
    for v in values:
        if v <= lo + TOUCH or v >= hi - TOUCH or (found and abs(v - found[-1]) < TOUCH):
            continue
        if all(not (a < v - TOUCH and b > v + TOUCH) for a, b in spans):
            found.append(v)
    return found


@dataclass(frozen=True)
class _Frame:
    """What a plan is drawn in: the root region (the page, or a fold sheet's front half), the
    rectangle marks must stay in, and the ink they must keep ``CROP_GAP_MM`` away from."""

    root: Rect
    printable: Rect
    ink: tuple[Rect, ...]


def _length(room: float) -> float:
    """A crop mark's length where ``room`` mm lie between its start and the printable area's
    edge: ``CROP_LENGTH_MM``, shortened (not below ``CROP_MIN_MM``) to leave a line of text
    beyond it where the margin is narrow; 0 when not even ``CROP_MIN_MM`` fits."""
    if room < CROP_MIN_MM - EPS:
        return 0.0
    if CROP_MIN_MM + TEXT_BAND_MM <= room < CROP_LENGTH_MM + TEXT_BAND_MM:
        return room - TEXT_BAND_MM
    return min(CROP_LENGTH_MM, room)


def _mark(line: float, direction: str, end: str, f: _Frame) -> Segment | None:
    """The crop mark of a cut line at one end (``"low"``: left or bottom), from ``CROP_GAP_MM``
    short of the outermost ink on or near the line (within ``CROP_GAP_MM``) outwards, inside
    the printable area; None if shorter than ``CROP_MIN_MM``."""
    horizontal = direction == "horizontal"
    lo, hi = (f.printable.x, f.printable.right) if horizontal else (f.printable.y, f.printable.top)
    across = (f.printable.y, f.printable.top) if horizontal else (f.printable.x, f.printable.right)
    if not across[0] - TOUCH <= line <= across[1] + TOUCH:
        return None
    reach = CROP_GAP_MM - TOUCH  # ink this close to the line stops the mark too
    hits = [r for r in f.ink
            if (r.y if horizontal else r.x) - reach <= line <= (r.top if horizontal else r.right) + reach]
    if not hits:
        return None
    if end == "low":
        start = min((r.x if horizontal else r.y) for r in hits) - CROP_GAP_MM
        length = _length(start - lo)
        a, b = start - length, start
    else:
        start = max((r.right if horizontal else r.top) for r in hits) + CROP_GAP_MM
        length = _length(hi - start)
        a, b = start, start + length
    if length <= 0:
        return None
    return Segment(a, line, b, line) if horizontal else Segment(line, a, line, b)


def _ends(region: Rect, direction: str, root: Rect) -> tuple[bool, bool]:
    """Whether a line across ``region`` ends on the sheet's own edge (low end, high end)."""
    if direction == "horizontal":
        return abs(region.x - root.x) < TOUCH, abs(region.right - root.right) < TOUCH
    return abs(region.y - root.y) < TOUCH, abs(region.top - root.top) < TOUCH


def _plan(region: Rect, trims: list[Rect], f: _Frame, depth: int, marks: list[Segment], ticks: list[Segment],
          tick: float) -> tuple[Cut | None, bool]:
    """The plan of ``region`` (its cards ``trims``); marks and ticks it needs are appended.
    Returns (plan, whether its lines ending on the sheet's edge all have crop marks)."""
    options = []
    for direction, axis in (("horizontal", "y"), ("vertical", "x")):
        lines = _lines(trims, region, axis)
        if not lines:
            continue
        low, high = _ends(region, direction, f.root)
        found = [(_mark(v, direction, "low", f) if low else None, _mark(v, direction, "high", f) if high else None)
                 for v in lines]
        ok = all((m0 is not None or not low) and (m1 is not None or not high) for m0, m1 in found)
        options.append((not ok, len(lines), 0 if direction == "horizontal" else 1, direction, lines, found))
    if not options:
        return None, True
    options.sort(key=lambda o: o[:3])
    bad, _, _, direction, lines, found = options[0]
    low, high = _ends(region, direction, f.root)
    for v, (m0, m1) in zip(lines, found):
        marks += [m for m in (m0, m1) if m is not None]
        for is_edge, at in ((low, region.x if direction == "horizontal" else region.y),
                            (high, region.right if direction == "horizontal" else region.top)):
            if is_edge:
                continue
            seg = (Segment(at - tick, v, at + tick, v) if direction == "horizontal"
                   else Segment(v, at - tick, v, at + tick))
            clipped = _clip(seg, f.printable)
            if clipped is not None:
                ticks.append(clipped)
    if depth == 0:  # the other direction's lines across the whole sheet keep their marks too
        for other in options[1:]:
            marks += [m for pair in other[5] for m in pair if m is not None]
    pieces = []
    bounds = [region.x if direction == "vertical" else region.y, *lines,
              region.right if direction == "vertical" else region.top]
    all_ok = not bad
    groups: dict[int, list[Rect]] = {}
    for t in trims:  # each card in the piece holding its centre
        centre = t.x + t.w / 2 if direction == "vertical" else t.y + t.h / 2
        groups.setdefault(bisect(bounds, centre), []).append(t)
    for k, (a, b) in enumerate(zip(bounds, bounds[1:]), 1):
        sub = Rect(a, region.y, b - a, region.h) if direction == "vertical" else Rect(region.x, a, region.w, b - a)
        inside = groups.get(k, [])
        if not inside:
            continue
        piece, ok = _plan(sub, inside, f, depth + 1, marks, ticks, tick)
        all_ok = all_ok and ok
        if piece is not None:
            pieces.append(piece)
    return Cut(region, direction, tuple(lines), tuple(pieces), depth), all_ok


def _clip(seg: Segment, r: Rect) -> Segment | None:
    x1, x2 = sorted((seg.x1, seg.x2))
    y1, y2 = sorted((seg.y1, seg.y2))
    x1, x2, y1, y2 = max(x1, r.x), min(x2, r.right), max(y1, r.y), min(y2, r.top)
    if x2 < x1 - EPS or y2 < y1 - EPS or (x2 - x1) + (y2 - y1) < 0.3:
        return None
    return Segment(x1, y1, x2, y2)


def cutting_plan(trims: Iterable[Rect], ink: Iterable[Rect] | None = None, *, page: tuple[float, float] | None = None,
                 region: Rect | None = None, printable: Rect | None = None, tick: float = TICK_MM) -> CuttingPlan:
    """The guillotine plan for the cards ``trims``: at each step the lines straight across the
    piece in one direction, the direction whose crop marks print at both ends where a line
    meets the sheet's edge (else the one with fewer lines; horizontal on a tie), then each
    piece. ``ink``: what is printed (the cards' clip boxes; default: the trims grown by
    nothing); ``region``: the sheet (default: the page; a fold sheet's front half);
    ``printable``: where marks and ticks may go (default: the region)."""
    trims = list(trims)
    if not trims:
        return CuttingPlan(None, (), (), True)
    ink_boxes = tuple(ink) if ink is not None else tuple(trims)
    if region is None:
        if page is None:
            x0, y0 = min(t.x for t in ink_boxes) - 50, min(t.y for t in ink_boxes) - 50
            x1, y1 = max(t.right for t in ink_boxes) + 50, max(t.top for t in ink_boxes) + 50
            region = Rect(x0, y0, x1 - x0, y1 - y0)
        else:
            region = Rect(0, 0, *page)
    frame = _Frame(region, printable or region, ink_boxes)
    marks: list[Segment] = []
    ticks: list[Segment] = []
    root, ok = _plan(region, trims, frame, 0, marks, ticks, tick)
    return CuttingPlan(root, _unique(marks), _unique(ticks), ok)


def _unique(segments: list[Segment]) -> tuple[Segment, ...]:
    seen: dict[tuple[float, ...], Segment] = {}
    for s in segments:
        seen.setdefault((round(s.x1, 4), round(s.y1, 4), round(s.x2, 4), round(s.y2, 4)), s)
    return tuple(sorted(seen.values(), key=lambda s: (s.x1, s.y1, s.x2, s.y2)))


def sheet_plan(sheet: Sheet | FoldSheet, used: Sequence[int] | None = None, crop_marks: bool = True) -> CuttingPlan:
    """The cutting plan of a sheet of cards (``used``: the slots holding a card; default:
    all), its marks inside the printable area. On a fold sheet the plan is the folded sheet's
    (its front half, the fold its edge); its crop marks are mirrored onto the back half too."""
    return _sheet_plan(sheet, tuple(range(sheet.per_page)) if used is None else tuple(used), crop_marks)


@lru_cache(maxsize=256)
def _sheet_plan(sheet: Sheet | FoldSheet, idx: tuple[int, ...], crop_marks: bool) -> CuttingPlan:
    printable = printable_area(sheet.page, sheet.printer)
    if isinstance(sheet, FoldSheet):
        fronts = [sheet.fronts[i] for i in idx]
        backs = [sheet.backs[i].trim for i in idx]
        ink = clip_boxes(fronts + backs, sheet.bleed)
        half = sheet.front_half
        pw, ph = sheet.page
        if sheet.axis == "vertical":
            limit = Rect(printable.x, printable.y, pw / 2 - CLEAR_MM - printable.x, printable.h)
        else:
            limit = Rect(printable.x, ph / 2 + CLEAR_MM, printable.w, printable.top - ph / 2 - CLEAR_MM)
        plan = cutting_plan(fronts, ink, region=half, printable=limit)
        if not crop_marks:
            return CuttingPlan(plan.root, (), plan.ticks, plan.printable)
        axis = "x" if sheet.axis == "vertical" else "y"
        mirrored = [_mirror_segment(m, sheet.page, axis) for m in plan.marks]
        return CuttingPlan(plan.root, _unique(list(plan.marks) + mirrored), plan.ticks, plan.printable)
    trims = [sheet.slots[i] for i in idx]
    plan = cutting_plan(trims, clip_boxes(trims, sheet.bleed), page=sheet.page, printable=printable)
    return plan if crop_marks else CuttingPlan(plan.root, (), plan.ticks, plan.printable)


def _mirror_segment(s: Segment, page: tuple[float, float], axis: str) -> Segment:
    if axis == "x":
        return Segment(page[0] - s.x2, s.y1, page[0] - s.x1, s.y2)
    return Segment(s.x1, page[1] - s.y2, s.x2, page[1] - s.y1)


@lru_cache(maxsize=1024)
def marks_print(sheet: Sheet | FoldSheet) -> bool:
    """Whether a full sheet's first cuts have crop marks inside the printable area."""
    return sheet_plan(sheet).printable


def fold_marks(sheet: FoldSheet, used: Sequence[int] | None = None) -> list[Segment]:
    """The fold line's ends beyond the cards' bleed (drawn dashed), inside the printable area,
    stopping short of its edge where that leaves a line of text across the margin."""
    idx = range(sheet.per_page) if used is None else used
    cards = [sheet.fronts[i] for i in idx] + [sheet.backs[i].trim for i in idx]
    printable = printable_area(sheet.page, sheet.printer)
    b = sheet.bleed

    def length(room: float) -> float:
        return room - TEXT_BAND_MM if room >= CROP_MIN_MM + TEXT_BAND_MM else room

    out = []
    if sheet.axis == "vertical":
        x = sheet.fold.x1
        top = max(t.top for t in cards) + b + CROP_GAP_MM
        bottom = min(t.y for t in cards) - b - CROP_GAP_MM
        for seg in (Segment(x, top, x, top + length(printable.top - top)),
                    Segment(x, bottom - length(bottom - printable.y), x, bottom)):
            if seg.y2 - seg.y1 >= CROP_MIN_MM:
                out.append(seg)
        return out
    y = sheet.fold.y1
    left = min(t.x for t in cards) - b - CROP_GAP_MM
    right = max(t.right for t in cards) + b + CROP_GAP_MM
    for seg in (Segment(left - length(left - printable.x), y, left, y),
                Segment(right, y, right + length(printable.right - right), y)):
        if seg.x2 - seg.x1 >= CROP_MIN_MM:
            out.append(seg)
    return out


# --- the margins: where labels go -----------------------------------------------------------------

@dataclass(frozen=True)
class Area:
    """A free rectangle of the printable area beside the cards, on one ``side`` of them:
    text runs along the bottom and top ones, and up the left and right ones."""

    rect: Rect
    side: str  # bottom | top | left | right

    @property
    def along(self) -> str:
        return "x" if self.side in ("bottom", "top") else "y"

    @property
    def length(self) -> float:
        return self.rect.w if self.along == "x" else self.rect.h

    @property
    def depth(self) -> float:
        return self.rect.h if self.along == "x" else self.rect.w


def free_areas(page: tuple[float, float], printer: float, ink: Sequence[Rect], obstacles: Sequence[Rect] = (),
               min_length: float = 8.0, min_depth: float = 1.6) -> list[Area]:
    """The free rectangles between the cards (``ink``, kept ``CROP_GAP_MM`` away) and the
    printable area's edge on every side, clear of ``obstacles`` (marks, the fold line, what is
    already placed) by ``CLEAR_MM``: for each side, the sub-bands running its whole length
    beyond every obstacle, then the gaps between obstacles, each the band's whole depth."""
    return list(_free_areas(page, printer, tuple(ink), tuple(obstacles), min_length, min_depth))


@lru_cache(maxsize=512)
def _free_areas(page: tuple[float, float], printer: float, ink: tuple[Rect, ...], obstacles: tuple[Rect, ...],
                min_length: float, min_depth: float) -> tuple[Area, ...]:
    pr = label_area(page, printer)  # glyphs' side bearings and anti-aliasing stay in the printable area
    if not ink:
        return (Area(pr, "bottom"),)
    lo_x = min(r.x for r in ink) - CROP_GAP_MM
    hi_x = max(r.right for r in ink) + CROP_GAP_MM
    lo_y = min(r.y for r in ink) - CROP_GAP_MM
    hi_y = max(r.top for r in ink) + CROP_GAP_MM
    bands = {"bottom": Rect(pr.x, pr.y, pr.w, lo_y - pr.y), "top": Rect(pr.x, hi_y, pr.w, pr.top - hi_y),
             "left": Rect(pr.x, pr.y, lo_x - pr.x, pr.h), "right": Rect(hi_x, pr.y, pr.right - hi_x, pr.h)}
    grown = [o.grow(CLEAR_MM) for o in obstacles]
    out: list[Area] = []
    for side, band in bands.items():
        if band.w < min_depth - EPS or band.h < min_depth - EPS:
            continue
        along = "x" if side in ("bottom", "top") else "y"
        hits = [o for o in grown if o.overlaps(band)]
        # depth intervals free of every obstacle: bands running the whole length
        d0, d1 = (band.y, band.top) if along == "x" else (band.x, band.right)
        spans = sorted(((o.y, o.top) if along == "x" else (o.x, o.right)) for o in hits)
        cursor = d0
        free: list[tuple[float, float]] = []
        for a, b in spans:
            if a > cursor:
                free.append((cursor, min(a, d1)))
            cursor = max(cursor, b)
        if cursor < d1:
            free.append((cursor, d1))
        for a, b in free:
            if b - a >= min_depth - EPS:
                r = Rect(band.x, a, band.w, b - a) if along == "x" else Rect(a, band.y, b - a, band.h)
                out.append(Area(r, side))
        # gaps between obstacles along the band, its whole depth
        if hits:
            l0, l1 = (band.x, band.right) if along == "x" else (band.y, band.top)
            cuts = sorted(((o.x, o.right) if along == "x" else (o.y, o.top)) for o in hits)
            cursor = l0
            for a, b in cuts + [(l1, l1)]:
                if a - cursor >= min_length:
                    r = (Rect(cursor, band.y, a - cursor, band.h) if along == "x"
                         else Rect(band.x, cursor, band.w, a - cursor))
                    if not any(r.overlaps(o) for o in grown):
                        out.append(Area(r, side))
                cursor = max(cursor, b)
    return tuple(out)


def segment_box(s: Segment) -> Rect:
    return Rect(min(s.x1, s.x2), min(s.y1, s.y2), abs(s.x2 - s.x1), abs(s.y2 - s.y1))


def mirror_rect(r: Rect, page: tuple[float, float], duplex: str) -> Rect:
    """``r`` on the back page of ``duplex`` (the same spot of the paper, seen from behind)."""
    return mirror(r, page, mirror_axis(page, duplex))
