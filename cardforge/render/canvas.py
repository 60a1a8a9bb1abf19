"""Canvas helpers for sheets of cards: colours, card placement with a bleed clip, crop marks,
cut lines and fold marks. Geometry comes from :mod:`cardforge.layout.geometry` in mm."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from functools import lru_cache

from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.layout.geometry import Placement, Rect, Segment
from cardforge.markup import MarkupError, resolve_color
from cardforge.render.output import form_needs_no_clip
from cardforge.units import mm

MARK_COLOUR = "#000000"
MARK_WIDTH_PT = 0.3
CUT_COLOUR = "#9a9a9a"
CUT_WIDTH_PT = 0.25
NO_COLOUR = ("none", "transparent", "")


@lru_cache(maxsize=1024)
def colour(value: str) -> Color | None:
    """'#4a3b2a' or a palette name ('red', 'gold'…) → a ReportLab colour; 'none' → None.
    Raises ValueError naming what is allowed."""
    value = value.strip()
    if value.lower() in NO_COLOUR:
        return None
    try:
        return HexColor(resolve_color(value))
    except MarkupError as exc:
        raise ValueError(str(exc)) from None


REGISTRATION = CMYKColorSep(1, 1, 1, 1, spotName="All")  # prints on every separation
K_BLACK = CMYKColor(0, 0, 0, 1)


def mark_colour(registration: bool = False) -> Color:
    """Crop marks and cut ticks: black, or the registration colour (``/Separation /All``:
    100 % of every ink, so a print shop's plates all carry the marks)."""
    return REGISTRATION if registration else HexColor(MARK_COLOUR)


def begin_card(c: Canvas, placement: Placement, bleed_pt: float) -> None:
    """Move the origin to the card's trim bottom-left, turned as the placement says (a
    quarter turn lays the card on its side: its trim box on the page is then as wide as the
    card is tall), and clip to its bleed box (or to ``placement.clip``: the trim on edges shared
    with a butted neighbour), so nothing a layout draws can spill onto a neighbour. Pair with
    ``c.restoreState()``."""
    t = placement.trim
    x, y, w, h = mm(t.x), mm(t.y), mm(t.w), mm(t.h)  # on the page
    turn = placement.turn % 4
    c.saveState()
    c.transform(*((1, 0, 0, 1, x, y), (0, 1, -1, 0, x + w, y), (-1, 0, 0, -1, x + w, y + h),
                  (0, -1, 1, 0, x, y + h))[turn])
    cw, ch = (h, w) if turn % 2 else (w, h)  # the card's own size
    path = c.beginPath()
    k = placement.clip
    if k is None:
        path.rect(-bleed_pt, -bleed_pt, cw + 2 * bleed_pt, ch + 2 * bleed_pt)
    else:  # the clip in the card's own frame (turned 180°, the page's left edge is the card's right)
        left, bottom, kw, kh = ((k.x - t.x, k.y - t.y, k.w, k.h), (k.y - t.y, t.right - k.right, k.h, k.w),
                                (t.right - k.right, t.top - k.top, k.w, k.h),
                                (t.top - k.top, k.x - t.x, k.h, k.w))[turn]
        path.rect(mm(left), mm(bottom), mm(kw), mm(kh))
    c.clipPath(path, stroke=0, fill=0)


def shared(c: Canvas, key: Hashable, draw: Callable[[], object]) -> None:
    """Draw what many pages of a file draw alike (crop marks and cut ticks, the cutting order,
    the scale bar) once, as a form every page names (keyed by ``key``, which says all the
    drawing depends on). Where one page or two use it, writing the file puts it back in place
    (render/output.py): a form pays only when enough pages share it."""
    forms: dict[Hashable, str] = c.__dict__.setdefault("_cardforge_shared", {})
    name = forms.get(key)
    if name is None:
        name = forms[key] = f"cs{len(forms)}"
        form_needs_no_clip(c, name)  # its box is the page
        c.beginForm(name)
        draw()
        c.endForm()
    c.doForm(name)


def draw_segments(c: Canvas, segments: list[Segment], colour_hex: str | Color, width_pt: float,
                  dash: tuple[float, ...] | None = None) -> None:
    """Straight lines in page coordinates (mm), drawn as one path."""
    if not segments:
        return
    c.saveState()
    c.setStrokeColor(HexColor(colour_hex) if isinstance(colour_hex, str) else colour_hex)
    c.setLineWidth(width_pt)
    c.setLineCap(0)
    if dash:
        c.setDash(list(dash), 0)
    path = c.beginPath()
    for s in segments:
        path.moveTo(mm(s.x1), mm(s.y1))
        path.lineTo(mm(s.x2), mm(s.y2))
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def draw_crop_marks(c: Canvas, marks: list[Segment], registration: bool = False) -> None:
    draw_segments(c, marks, mark_colour(registration), MARK_WIDTH_PT)


TICK_WIDTH_PT = 0.25


def draw_cut_ticks(c: Canvas, ticks: Iterable[Segment], registration: bool = False) -> None:
    """The cut ticks of :func:`cardforge.layout.geometry.cutting_plan`: on the cut lines."""
    draw_segments(c, list(ticks), mark_colour(registration), TICK_WIDTH_PT)


def draw_cut_lines(c: Canvas, trims: list[Rect]) -> None:
    """A thin grey outline on every card's trim line, to cut along with scissors."""
    if not trims:
        return
    c.saveState()
    c.setStrokeColor(HexColor(CUT_COLOUR))
    c.setLineWidth(CUT_WIDTH_PT)
    path = c.beginPath()
    for t in trims:
        path.rect(mm(t.x), mm(t.y), mm(t.w), mm(t.h))
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()


def draw_fold_marks(c: Canvas, marks: list[Segment]) -> None:
    draw_segments(c, marks, MARK_COLOUR, MARK_WIDTH_PT, dash=(3, 2))
