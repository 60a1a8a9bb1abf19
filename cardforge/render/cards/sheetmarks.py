"""What a sheet of cards carries besides the cards, all inside the printable area (never in the
printer margin) and outside every card's bleed:

- a **label**: game, file, sheet N/M, front or back, paper and duplex mode, so loose sheets
  find their file and a back page its front;
- a **scale bar** (50 mm, else 30 or 20 where room is short) with its length printed beside
  it: a sheet printed with "fit to page" shows a bar that does not measure what it says;
- the **cutting order** (:func:`cardforge.layout.imposition.cutting_plan`).

Where they go comes from :func:`cardforge.layout.imposition.free_areas`: the label and the bar
below the cards, the cutting order above, as long as those bands hold them; else any free band,
those left and right of the cards with the text running upwards. What fits nowhere is left out
and reported (:func:`plan_extras` returns it), so the build can say what to change. The scale
bar is drawn as filled rectangles (no stroked lines), so it is never mistaken for a crop mark.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.i18n import Messages, messages
from cardforge.layout.geometry import Rect
from cardforge.layout.imposition import Area, CuttingPlan, free_areas
from cardforge.render.canvas import K_BLACK, mark_colour, shared
from cardforge.render.cards.facecache import FACES
from cardforge.render.fonts import font_name, unit_width
from cardforge.settings import paper_name
from cardforge.units import mm

LABEL_PT = 6.0
LABEL_MIN_PT = 5.0
SCALE_BARS_MM = (50, 30, 20)
BAR_TALL_MM = 1.6  # the end ticks of the scale bar
GAP_MM = 5.0
TEXT_COLOUR = "#1a1a1a"
PT_MM = 25.4 / 72
ASCENT, DESCENT = 0.93, 0.24  # DejaVu Sans, in em
SIDES_LABEL = ("bottom", "top", "left", "right")
SIDES_ORDER = ("top", "bottom", "right", "left")


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
    #: the language printed (the build's ``--lang``, else the game's)
    t: Messages = field(default_factory=lambda: messages("en"))

    def parts(self) -> list[str]:
        """The label, most important first (trailing parts are dropped when space is short)."""
        _ = self.t.gettext
        how = {"long-edge": _("two-sided, flip on long edge"), "short-edge": _("two-sided, flip on short edge"),
               "none": _("backs printed separately"), "fold": _("fold along the dashed line")}[self.duplex]
        orientation = {"landscape": _("landscape"), "portrait": _("portrait")}.get(self.orientation, self.orientation)
        sheet = _("sheet {index}/{total}", index=self.index, total=self.total)
        return [f"{self.title} ({self.game})", self.file, sheet,
                _("FRONT") if self.side == "front" else _("BACK"), f"{paper_name(self.paper)} {orientation}", how]


def _lines(t: Messages, direction: str, counts: tuple[int, ...]) -> str:
    if direction == "mixed":
        return t.gettext("the lines")
    if len(set(counts)) != 1:
        return t.gettext("the horizontal lines") if direction == "horizontal" else t.gettext("the vertical lines")
    if direction == "horizontal":
        return t.ngettext("the {n} horizontal line", "the {n} horizontal lines", counts[0])
    return t.ngettext("the {n} vertical line", "the {n} vertical lines", counts[0])


def cutting_text(plan: CuttingPlan, fold: bool = False, t: Messages | None = None) -> str:
    """The cutting order (in ``t``'s language; English by default); on a gutter-fold sheet,
    folding and cutting the folded sheet."""
    t = t or messages("en")
    _ = t.gettext
    start = _("Cutting order: fold on the dashed line, then cut both layers: ") if fold else _("Cutting order: ")
    steps = []
    for depth, direction, counts in plan.steps():
        lines = _lines(t, direction, counts)
        if depth == 0:
            steps.append(_("{step}. {lines} across the whole sheet (crop marks left and right)", step=depth + 1,
                           lines=lines) if direction == "horizontal" else
                         _("{step}. {lines} across the whole sheet (crop marks top and bottom)", step=depth + 1,
                           lines=lines))
        elif depth == 1:
            steps.append(_("{step}. on each strip, {lines} (ticks on the edges of each strip)", step=depth + 1,
                           lines=lines))
        else:
            steps.append(_("{step}. on each piece, {lines} (ticks)", step=depth + 1, lines=lines))
    return start + _("; ").join(steps) + _(". Print at 100 % (actual size).")


def short_cutting_text(plan: CuttingPlan, fold: bool = False, t: Messages | None = None) -> str:
    """The cutting order in a few words, where the whole sentence does not fit."""
    t = t or messages("en")
    first = plan.steps()[0] if plan.steps() else (0, "horizontal", (0,))
    n = first[2][0]
    if first[1] == "horizontal":
        text = t.ngettext("{n} horizontal line first, then each strip · at 100 %",
                          "{n} horizontal lines first, then each strip · at 100 %", n)
    else:
        text = t.ngettext("{n} vertical line first, then each strip · at 100 %",
                          "{n} vertical lines first, then each strip · at 100 %", n)
    return (t.gettext("Fold, then cut: ") if fold else t.gettext("Cut: ")) + text


def shortest_cutting_text(plan: CuttingPlan, fold: bool = False, t: Messages | None = None) -> str:
    """The cutting order in fewest words (a narrow sheet's margins between its crop marks)."""
    t = t or messages("en")
    first = plan.steps()[0] if plan.steps() else (0, "horizontal", (0,))
    n = first[2][0]
    if first[1] == "horizontal":
        text = t.ngettext("{n} horizontal line, then each strip", "{n} horizontal lines, then each strip", n)
    else:
        text = t.ngettext("{n} vertical line, then each strip", "{n} vertical lines, then each strip", n)
    return (t.gettext("Fold, cut: ") if fold else t.gettext("Cut: ")) + text


def bar_caption(length: int, t: Messages) -> str:
    """What the scale bar says: "50 mm at 100 %"."""
    return t.gettext("{length} mm at 100 %", length=length)


def _width(text: str, font: str, size: float) -> float:
    return unit_width(text, font) * size * PT_MM


def text_depth(size: float) -> float:
    """The height a line of text at ``size`` pt needs (ascender to descender), in mm."""
    return (ASCENT + DESCENT) * size * PT_MM


def _fit(parts: list[str], width: float, font: str, reserve: float, depth: float) -> tuple[str, float] | None:
    """The label at the largest size (6, then 5 pt) with as many parts as fit in ``width``."""
    for size in (LABEL_PT, LABEL_MIN_PT):
        if text_depth(size) > depth + 1e-9:
            continue
        for n in range(len(parts), 1, -1):
            text = " · ".join(parts[:n])
            if _width(text, font, size) + reserve <= width:
                return text, size
    return None


def _bar_width(length: int, font: str, size: float, caption: str) -> float:
    return length + 1.2 + _width(caption, font, size)


def _bar_depth(size: float) -> float:
    return max(BAR_TALL_MM + 0.2 + DESCENT * size * PT_MM, text_depth(size))


@dataclass(frozen=True)
class Placed:
    """One item put in an area: where its text starts along the area and its size."""

    what: str  # label | bar | order
    area: Area
    offset: float  # mm along the area from its start (left, or bottom for the upright bands)
    size: float
    text: str = ""  # a bar's: its caption
    length: int = 0  # the bar's

    @property
    def extent(self) -> float:
        return self.length + 1.2 + _width(self.text, font_name("sans"), self.size) \
            if self.what == "bar" else _width(self.text, font_name("sans"), self.size)

    def box(self) -> Rect:
        """The rectangle it covers (to keep other items off it)."""
        a = self.area.rect
        depth = _bar_depth(self.size) if self.what == "bar" else text_depth(self.size)
        d0 = _depth_start(self.area, depth)
        if self.area.along == "x":
            return Rect(a.x + self.offset, d0, self.extent, depth)
        return Rect(d0, a.y + self.offset, depth, self.extent)


def _depth_start(area: Area, depth: float) -> float:
    """Where an item of ``depth`` starts across the area: next to the cards."""
    r = area.rect
    if area.side == "bottom":
        return r.top - depth
    if area.side == "top":
        return r.y
    if area.side == "left":
        return r.right - depth
    return r.x


@dataclass
class Extras:
    placed: list[Placed] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def plan_extras(page: tuple[float, float], printer: float, ink: Sequence[Rect], obstacles: Sequence[Rect],
                info: SheetInfo, plan: CuttingPlan | None, bar: bool) -> Extras:
    """Where the label, the scale bar (``bar``) and the cutting order (``plan``) go, and what
    found no room (named in ``missing``: "sheet label", "scale bar", "cutting order")."""
    room = _Room(page, printer, ink, list(obstacles), font_name("sans"))
    parts = info.parts()
    label_done, bar_done = False, not bar
    if bar:  # the label and the bar side by side, below the cards as before
        label_done = bar_done = _label_beside_bar(room, parts, info)
    if not label_done:
        label_done = _label_alone(room, parts)
    if not bar_done:
        bar_done = _bar_alone(room, info)
    order_done = plan is None or _cutting_order(room, plan, info)
    if not label_done:
        room.out.missing.append("sheet label")
    if not bar_done:
        room.out.missing.append("scale bar")
    if not order_done:
        room.out.missing.append("cutting order")
    return room.out


@dataclass
class _Room:
    """The free room of a sheet as extras are placed one by one (each placed one is taken)."""

    page: tuple[float, float]
    printer: float
    ink: Sequence[Rect]
    taken: list[Rect]
    font: str
    out: Extras = field(default_factory=Extras)

    def areas(self, sides: Sequence[str]) -> list[Area]:
        found = free_areas(self.page, self.printer, self.ink, self.taken)
        return sorted((a for a in found if a.side in sides),
                      key=lambda a: (sides.index(a.side), -a.length, -a.depth))

    def put(self, p: Placed) -> None:
        self.out.placed.append(p)
        self.taken.append(p.box())


def _label_beside_bar(room: _Room, parts: list[str], info: SheetInfo) -> bool:
    font = room.font
    for area in room.areas(("bottom", "top")):
        for length in SCALE_BARS_MM:
            caption = bar_caption(length, info.t)
            reserve = GAP_MM + _bar_width(length, font, LABEL_PT, caption)
            fitted = _fit(parts, area.length, font, reserve, area.depth)
            if fitted is None or _bar_depth(fitted[1]) > area.depth + 1e-9:
                continue
            text, size = fitted
            room.put(Placed("label", area, 0.0, size, text))
            room.put(Placed("bar", area, area.length - _bar_width(length, font, size, caption), size, caption,
                            length=length))
            return True
    return False


def _label_alone(room: _Room, parts: list[str]) -> bool:
    for area in room.areas(SIDES_LABEL):
        fitted = _fit(parts, area.length, room.font, 0.0, area.depth)
        if fitted is not None:
            room.put(Placed("label", area, 0.0, fitted[1], fitted[0]))
            return True
    return False


def _bar_alone(room: _Room, info: SheetInfo) -> bool:
    font = room.font
    for area in room.areas(SIDES_LABEL):
        for length in SCALE_BARS_MM:
            caption = bar_caption(length, info.t)
            for size in (LABEL_PT, LABEL_MIN_PT):
                if _bar_width(length, font, size, caption) <= area.length and _bar_depth(size) <= area.depth + 1e-9:
                    room.put(Placed("bar", area, area.length - _bar_width(length, font, size, caption), size,
                                    caption, length=length))
                    return True
    return False


def _cutting_order(room: _Room, plan: CuttingPlan, info: SheetInfo) -> bool:
    fold = info.duplex == "fold"
    texts = [cutting_text(plan, fold, info.t), short_cutting_text(plan, fold, info.t),
             shortest_cutting_text(plan, fold, info.t)]
    for area in room.areas(SIDES_ORDER):
        for text in texts:
            fits = [s for s in (LABEL_PT, LABEL_MIN_PT)
                    if _width(text, room.font, s) <= area.length and text_depth(s) <= area.depth + 1e-9]
            if fits:
                room.put(Placed("order", area, 0.0, fits[0], text))
                return True
    return False


def _text(c: Canvas, text: str, x: float, baseline: float, font: str, size: float, k_black: bool) -> None:
    c.setFillColor(K_BLACK if k_black else HexColor(TEXT_COLOUR))
    c.setFont(font, size)
    c.drawString(mm(x), mm(baseline), text)


def scale_bar(c: Canvas, x: float, baseline: float, length: int, font: str, size: float,
              k_black: bool, registration: bool, caption: str | None = None) -> float:
    """A ``length`` mm bar from x, ticks every 10 mm, its length written after it. Returns its
    right end (mm)."""
    c.saveState()
    c.setFillColor(mark_colour(registration))
    y = baseline + 0.2
    r = c.rect
    r(mm(x), mm(y), mm(length), mm(0.3), stroke=0, fill=1)
    for d in range(0, length + 1, 10):
        tall = BAR_TALL_MM if d in (0, length) else 1.0
        r(mm(x + d - 0.1), mm(y), mm(0.2), mm(tall), stroke=0, fill=1)
    c.restoreState()
    text = caption or f"{length} mm at 100 %"
    _text(c, text, x + length + 1.2, baseline, font, size, k_black)
    return x + length + 1.2 + _width(text, font, size)


def _draw_at(c: Canvas, p: Placed, draw: Callable[[float, float], None], key: tuple[object, ...] | None) -> None:
    """Draw an item with its text baseline where it belongs in its area; upright in the bands
    above and below the cards, running upwards in those beside them."""
    a = p.area.rect
    h = p.size * PT_MM
    depth = _bar_depth(p.size) if p.what == "bar" else text_depth(p.size)
    d0 = _depth_start(p.area, depth)
    descent = DESCENT * h
    if p.area.along == "x":
        def go() -> None:
            draw(a.x + p.offset, d0 + descent)
    else:  # turned a quarter anticlockwise: the glyphs' tops point left
        def go() -> None:
            c.saveState()
            c.translate(mm(d0 + depth - descent), mm(a.y + p.offset))
            c.rotate(90)
            draw(0.0, 0.0)
            c.restoreState()
    if key is None:
        go()
    else:
        shared(c, (*key, p.area.rect, p.area.side, p.offset, p.size), go)


@lru_cache(maxsize=1024)
def _planned(page: tuple[float, float], printer: float, ink: tuple[Rect, ...], obstacles: tuple[Rect, ...],
             info: SheetInfo, plan: CuttingPlan | None, bar: bool) -> Extras:
    """:func:`plan_extras`, kept for the process in watch mode (never changed by its users):
    each rebuild plans every sheet's labels again, as they were (~7 ms for a 250-card deck)."""
    return plan_extras(page, printer, ink, obstacles, info, plan, bar)


def draw_sheet_extras(c: Canvas, page: tuple[float, float], printer: float, ink: Sequence[Rect],
                      obstacles: Sequence[Rect], info: SheetInfo, *, plan: CuttingPlan | None = None,
                      bar: bool = True, k_black: bool = False, registration: bool = False) -> list[str]:
    """The label (and on a front page the scale bar and cutting order) beside the cards, in the
    printable area. Returns what found no room (see :func:`plan_extras`)."""
    extras = None
    if FACES.enabled:  # watch mode (a one-off build plans each sheet once: hashing would cost ~4 ms)
        try:
            extras = _planned(page, printer, tuple(ink), tuple(obstacles), info, plan, bar)
        except TypeError:  # something unhashable in the plan: planned afresh
            pass
    if extras is None:
        extras = plan_extras(page, printer, ink, obstacles, info, plan, bar)
    font = font_name("sans")
    c.saveState()
    for p in extras.placed:
        def text_at(x: float, y: float, p: Placed = p) -> None:
            _text(c, p.text, x, y, font, p.size, k_black)

        def bar_at(x: float, y: float, p: Placed = p) -> None:
            scale_bar(c, x, y, p.length, font, p.size, k_black, registration, p.text)

        if p.what == "label":  # its sheet number changes on every page: drawn in place
            _draw_at(c, p, text_at, None)
        elif p.what == "bar":  # a separation colour: ReportLab lists it in a page's own resources only
            _draw_at(c, p, bar_at, None if registration else ("scale bar", p.length, p.text, k_black))
        else:
            _draw_at(c, p, text_at, ("cutting order", p.text, k_black))
    c.restoreState()
    return extras.missing


