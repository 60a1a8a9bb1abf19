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
- **margin**: the border of the sheet kept clear of cards (crop marks live in it); the
  **printer margin** is the part of it the printer cannot print (see
  :mod:`cardforge.layout.imposition`, which lays sheets out);
- **crop marks**: short lines in the margin, in line with every trim edge;
- **cut ticks**: short marks on a cut line, across the edges of the strips the first cuts
  make, so every strip keeps the marks for its own cuts (see ``imposition.cutting_plan``);
- **duplex**: printing both sides of the sheet. The sheet turns over around its long edge
  (``long-edge``) or its short edge (``short-edge``); a card's back lands behind its front
  when the back page mirrors the front page across that axis.
- **fold** (gutter fold): fronts on one half of the sheet, backs mirrored on the other half;
  fold along the middle, glue, cut.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

T = TypeVar("T")

EPS = 1e-6


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
    """Where one card side goes on a page: its trim box on the page, how many quarter turns
    counter-clockwise the card is drawn turned (0: upright; 2: upside down; 1 and 3: on its side,
    the trim box then as wide as the card is tall), and the box its artwork is clipped to on the
    page (``None``: the trim grown by the full bleed)."""

    trim: Rect
    turn: int = 0
    clip: Rect | None = None

    @property
    def rotated(self) -> bool:
        """Turned 180° (upside down on the page)."""
        return self.turn % 4 == 2


#: each quarter turn's "up" direction on the page: the card's top points that way
UP = ((0, 1), (-1, 0), (0, -1), (1, 0))


def mirror_turn(turn: int, axis: str) -> int:
    """The turn of a card's back when its front, turned ``turn``, is mirrored across ``axis``
    (``"x"``: left↔right; ``"y"``: top↔bottom) onto the back page: the back's top points where
    the front's does once the sheet is turned over, so the card cut out and turned like a book
    page shows its back upright. Upright fronts mirrored in y give 2 (upside down backs)."""
    ux, uy = UP[turn % 4]
    return UP.index((-ux, uy) if axis == "x" else (ux, -uy))


def turned_size(size: tuple[float, float], turn: int) -> tuple[float, float]:
    """A card's (width, height) on the page when drawn turned ``turn`` quarter turns."""
    return (size[1], size[0]) if turn % 2 else size


def page_size(paper_mm: tuple[float, float], orientation: str) -> tuple[float, float]:
    """(width, height) of the page in the orientation (``portrait`` or ``landscape``)."""
    short, long = sorted(paper_mm)
    return (long, short) if orientation == "landscape" else (short, long)


def _edge_index(trims: list[Rect], edge: str) -> dict[int, list[int]]:
    """Trims by one edge's coordinate, in 1/1000 mm buckets."""
    out: dict[int, list[int]] = {}
    for i, t in enumerate(trims):
        out.setdefault(round(getattr(t, edge) * 1000), []).append(i)
    return out


def _near(index: dict[int, list[int]], value: float) -> list[int]:
    k = round(value * 1000)
    return index.get(k - 1, []) + index.get(k, []) + index.get(k + 1, [])


def clip_boxes(trims: Iterable[Rect], bleed: float) -> list[Rect]:
    """The box each card's artwork is clipped to: its trim, grown by ``bleed`` on every side
    where no other card of ``trims`` shares that trim edge. Butted neighbours thus meet on
    their common cut line and neither prints over the other; a card with an empty slot (or the
    margin) beside it keeps its full bleed there. Mirroring a set of trims mirrors its clips."""
    trims = list(trims)
    rights, lefts = _edge_index(trims, "right"), _edge_index(trims, "x")
    tops, bottoms = _edge_index(trims, "top"), _edge_index(trims, "y")
    out = []
    for i, t in enumerate(trims):
        left = bottom = right = top = bleed

        def meets(candidates: list[int], across: str) -> bool:
            for j in candidates:
                if j == i:
                    continue
                o = trims[j]
                if across == "y" and min(t.top, o.top) - max(t.y, o.y) > EPS:
                    return True
                if across == "x" and min(t.right, o.right) - max(t.x, o.x) > EPS:
                    return True
            return False

        if meets([j for j in _near(rights, t.x) if abs(trims[j].right - t.x) < 1e-4], "y"):
            left = 0.0
        if meets([j for j in _near(lefts, t.right) if abs(trims[j].x - t.right) < 1e-4], "y"):
            right = 0.0
        if meets([j for j in _near(tops, t.y) if abs(trims[j].top - t.y) < 1e-4], "x"):
            bottom = 0.0
        if meets([j for j in _near(bottoms, t.top) if abs(trims[j].y - t.top) < 1e-4], "x"):
            top = 0.0
        out.append(Rect(t.x - left, t.y - bottom, t.w + left + right, t.h + bottom + top))
    return out


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


def back_placements(slots: tuple[Rect, ...] | list[Rect], page: tuple[float, float], duplex: str,
                    offset: tuple[float, float] = (0.0, 0.0),
                    turns: tuple[int, ...] | list[int] = ()) -> tuple[Placement, ...]:
    """Where the back of each slot's card goes on the back page.

    ``offset`` (mm, x right and y up as the back page is seen upright) corrects a printer
    that prints the back side shifted. A back is turned so that every card, turned over like
    a book page (around its own vertical axis), shows its back upright (:func:`mirror_turn`):
    an upright front mirrored in y gets a back turned 180°. ``turns``: each slot's front turn
    (default: all upright)."""
    axis = mirror_axis(page, duplex)
    dx, dy = offset
    return tuple(Placement(mirror(s, page, axis).shift(dx, dy), mirror_turn(turns[i] if turns else 0, axis))
                 for i, s in enumerate(slots))


# --- cut lines ------------------------------------------------------------------------------------

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
