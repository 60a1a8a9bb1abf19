"""Where a card's text actually lands: the laid-out lines of every text box, as rectangles on
the card (mm from its bottom-left trim corner). Used to check a print service's safe zone.

A card is drawn by the print's painter on a scratch canvas (never saved) with forms turned
off, so the text of shared frames is measured on every card; each text box's lines are taken
from the same layout the print uses (``richtext.fit_text``, cached) and mapped through the
canvas's current transform (rotated boxes included)."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from reportlab.pdfgen.canvas import Canvas

from cardforge.layout.geometry import Placement, Rect
from cardforge.markup import MarkupError
from cardforge.render import rl_internals as rl
from cardforge.render.cards.cards import Painter
from cardforge.render.drawing.richtext import TextOverflow, fit_text, layout_top, line_height, line_left
from cardforge.render.fonts import font_name, metrics
from cardforge.units import mm

if TYPE_CHECKING:
    from cardforge.data.models import CardBase
    from cardforge.render.cards.cards import BoxProgram, CardArt, FaceProgram
    from cardforge.render.cards.faces import DeckFaces, Face
    from cardforge.render.drawing.richtext import TextLayout


class _Measuring(Painter):
    def __init__(self, canvas: Canvas, art: CardArt) -> None:
        super().__init__(canvas, art)
        self.extents: list[tuple[str, tuple[float, float, float, float]]] = []

    def _form(self, key: tuple[Any, ...], program: FaceProgram, draw: Callable[[], None]) -> None:  # no forms
        draw()

    def _text(self, prog: BoxProgram, markup: str, x: float, y: float, w: float, h: float, program: FaceProgram,
              card: CardBase | None, ctx: dict[str, Any] | None = None) -> None:
        if not markup or not markup.strip() or prog.box.fields.get("bleed"):  # bleed: true: meant to
            return
        style = self._style_for(prog, ctx, program, card)  # values from the card's data too
        if style is None:
            return
        try:
            layout = fit_text(markup, w, h, style)
        except (TextOverflow, MarkupError):
            return  # reported by the print itself
        box = _lines_box(layout, x, y, w, h)
        if box is None:
            return
        m = rl.current_matrix(self.c)
        xs, ys = [], []
        for px, py in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
            xs.append(m[0] * px + m[2] * py + m[4])
            ys.append(m[1] * px + m[3] * py + m[5])
        k = 1 / mm(1)
        self.extents.append((prog.name, (min(xs) * k, min(ys) * k, max(xs) * k, max(ys) * k)))


def _lines_box(layout: TextLayout, x: float, y: float, w: float, h: float) -> tuple[float, float, float, float] | None:
    """The rectangle (points) covering the glyphs of every line, as ``draw_layout`` places them."""
    style, size = layout.style, layout.size
    widths = [line.width for line in layout.lines if line is not None]
    if not widths:
        return None
    top = layout_top(layout, y, h)
    ascent, descent = metrics(style.assets.font_name(style.family, style.bold, style.italic))
    lead = line_height(style, size)
    pad = (lead - (ascent - descent) * size) / 2  # the line box above the ascent (and below the descent)
    left: float | None = None
    right: float | None = None
    for line in layout.lines:
        if line is None:
            continue
        justified = style.align == "justify" and not line.last and len(line.words) > 1
        lx = line_left(style.align, line.width, x, w)
        rx = x + w if justified else lx + line.width
        left = lx if left is None else min(left, lx)
        right = rx if right is None else max(right, rx)
    if left is None or right is None:
        return None
    return (left, top - layout.height + pad, right, top - pad)


def text_extents(faces: DeckFaces, face: Face) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(box name, (x0, y0, x1, y1) mm) for every text box drawn on ``face``."""
    c = Canvas(io.BytesIO(), pagesize=(mm(face.size_mm[0]), mm(face.size_mm[1])), invariant=1,
               initialFontName=font_name())
    painter = _Measuring(c, faces.art)
    place = Placement(Rect(0.0, 0.0, *face.size_mm))
    if face.side == "front":
        painter.front(place, face.card)
    else:
        painter.back(place, face.card)
    return painter.extents
