"""Vector icons for the ``:name:`` tokens, drawn once per PDF as form XObjects and reused.

cardforge's own icons (the generic ones of ``cardforge/icons.py``: coin, victory point, card,
die, hand) are drawn here in a 100 × 100 box (y up, origin bottom-left); a game's own icons are
the files of its ``icons/`` folder (``render/drawing/game_assets.py``), each drawn into its own form.
:func:`draw_icon` places a form with a scale, so a deck of 250 cards with 600 coins embeds one
coin.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from cardforge.render.fonts import font_name

UNIT = 100.0

INK = HexColor("#1a1a1a")
GOLD_FILL = HexColor("#f2c230")
GOLD_EDGE = HexColor("#a8780a")
BLUE = HexColor("#2563b0")


#: draws one icon into the 100 × 100 box
Drawer = Callable[[Canvas], None]
#: a point of the 100 × 100 box
Point = tuple[float, float]


def _poly(c: Canvas, pts: Sequence[Point], fill: Color | None = None, stroke: Color | None = None,
          width: float = 4.0, close: bool = True) -> None:
    p = c.beginPath()
    p.moveTo(*pts[0])
    for pt in pts[1:]:
        p.lineTo(*pt)
    if close:
        p.close()
    _paint(c, p, fill, stroke, width)


def _paint(c: Canvas, path: PDFPathObject, fill: Color | None, stroke: Color | None, width: float = 4.0) -> None:
    if fill is not None:
        c.setFillColor(fill)
    if stroke is not None:
        c.setStrokeColor(stroke)
        c.setLineWidth(width)
    c.drawPath(path, fill=1 if fill is not None else 0, stroke=1 if stroke is not None else 0)


def _circle(c: Canvas, x: float, y: float, r: float, fill: Color | None = None, stroke: Color | None = None,
            width: float = 4.0) -> None:
    p = c.beginPath()
    p.circle(x, y, r)
    _paint(c, p, fill, stroke, width)


def _rrect(c: Canvas, x: float, y: float, w: float, h: float, r: float, fill: Color | None = None,
           stroke: Color | None = None, width: float = 4.0) -> None:
    p = c.beginPath()
    p.roundRect(x, y, w, h, r)
    _paint(c, p, fill, stroke, width)


def _star(cx: float, cy: float, r_out: float, r_in: float, n: int, rot: float = 90.0) -> list[Point]:
    pts: list[Point] = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(rot + i * 180.0 / n)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def _glyph(c: Canvas, text: str, colour: Color = INK, size: float = 80, y: float = 18, bold: bool = True,
           x: float = 50) -> None:
    c.setFillColor(colour)
    c.setFont(font_name("sans", bold=bold), size)
    c.drawCentredString(x, y, text)


def _coin(c: Canvas) -> None:
    _circle(c, 50, 50, 46, fill=GOLD_FILL, stroke=GOLD_EDGE, width=6)
    _circle(c, 50, 50, 32, stroke=GOLD_EDGE, width=4)


def _vp(c: Canvas) -> None:
    _poly(c, _star(50, 50, 48, 21, 5), fill=BLUE, stroke=INK, width=3.5)


def _die(c: Canvas) -> None:
    _rrect(c, 6, 6, 88, 88, 16, fill=HexColor("#ffffff"), stroke=INK, width=5)
    for x, y in ((28, 72), (72, 72), (50, 50), (28, 28), (72, 28)):
        _circle(c, x, y, 8, fill=INK)


def _card(c: Canvas) -> None:
    _rrect(c, 20, 4, 60, 92, 8, fill=HexColor("#ffffff"), stroke=INK, width=5)
    _rrect(c, 30, 16, 40, 68, 4, stroke=HexColor("#999999"), width=3)


def _hand(c: Canvas) -> None:
    c.saveState()
    c.translate(50, 10)
    for angle, fill in ((20, "#dddddd"), (0, "#eeeeee"), (-20, "#ffffff")):
        c.saveState()
        c.rotate(angle)
        _rrect(c, -20, 0, 40, 70, 6, fill=HexColor(fill), stroke=INK, width=4)
        c.restoreState()
    c.restoreState()


DRAW: dict[str, Drawer] = {"coin": _coin, "vp": _vp, "card": _card, "die": _die, "hand": _hand}


def _fallback(name: str) -> Drawer:
    """An icon added to the vocabulary before its drawing: a labelled disc (tests flag it)."""
    def draw(c: Canvas) -> None:
        _circle(c, 50, 50, 46, fill=HexColor("#ffffff"), stroke=INK, width=5)
        _glyph(c, name[:1].upper(), size=60, y=30)
    return draw


def has_drawing(name: str) -> bool:
    return name in DRAW


class CustomIcon(Protocol):
    """A game's own icon (``render/drawing/game_assets.py``'s ``CustomIcon``)."""

    @property
    def width(self) -> float: ...  # em

    @property
    def key(self) -> str: ...  # content digest

    def draw(self, canvas: Canvas) -> None: ...  # into its ``width × 100`` box


#: a game's own icons (``icons/*.svg|png`` in its folder), passed by whoever draws for the game
#: (``render/drawing/drawing_assets.py``): name → ``width`` (em), ``key`` (content digest), ``draw(canvas)``
Custom = Mapping[str, CustomIcon]
_NONE: Custom = {}


def icon_width(name: str, custom: Custom = _NONE) -> float:
    """Advance width of an icon, in em (``custom``: the game's own icons, which win)."""
    own = custom.get(name)
    return own.width if own is not None else 1.0


#: a list set on a canvas (render/cards/facecache.py): ensure_icon appends (name, custom, form) of
#: each icon it defines
ICON_LOG = "_cardforge_icon_log"


def ensure_icon(canvas: Canvas, name: str, custom: Custom = _NONE) -> str:
    """Define the icon's form in this canvas's document once; returns the form name:
    ``icon-<name>``, or ``icon-<name>-<digest>`` for a game's icon when another drawing of
    that name is already in the document (another game's icon, or the built-in one): two
    games' icons of one name never share a form."""
    defined: dict[str, str] = canvas.__dict__.setdefault("_cardforge_icons", {})  # form → drawing key
    own = custom.get(name)
    form, key = icon_form(canvas, name, custom)
    if form not in defined:
        w = icon_width(name, custom) * UNIT
        canvas.beginForm(form, 0, 0, w, UNIT)
        canvas.saveState()
        if own is not None:  # drawn in its own w × 100 box
            own.draw(canvas)
        else:
            DRAW.get(name, _fallback(name))(canvas)
        canvas.restoreState()
        canvas.endForm()
        defined[form] = key
        log = canvas.__dict__.get(ICON_LOG)
        if log is not None:  # render/cards/facecache.py: the icons a face defined
            log.append((name, custom, form))
    return form


def icon_form(canvas: Canvas, name: str, custom: Custom = _NONE) -> tuple[str, str]:
    """(the form :func:`ensure_icon` draws icon ``name`` with in this canvas's document, the
    drawing's key), whether or not it is defined yet."""
    defined: dict[str, str] = canvas.__dict__.get("_cardforge_icons", {})
    own = custom.get(name)
    key = "" if own is None else own.key
    form = "icon-" + name
    if defined.get(form, key) != key:
        form = f"{form}-{key}"
    return form, key


def draw_icon(canvas: Canvas, name: str, x: float, y: float, size: float, custom: Custom = _NONE) -> None:
    """Draw icon ``name`` with its box's bottom-left at (x, y), ``size`` points tall."""
    form = ensure_icon(canvas, name, custom)
    k = size / UNIT
    canvas.saveState()
    canvas.transform(k, 0, 0, k, x, y)
    canvas.doForm(form)
    canvas.restoreState()
