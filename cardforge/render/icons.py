"""Vector icons for the ``:name:`` tokens, drawn once per PDF as form XObjects and reused.

Every icon is drawn in a 100 × 100 box (y up, origin bottom-left) and placed by
:func:`draw_icon` with a scale, so a deck of 250 cards with 600 coins embeds one coin.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from cardforge.markup import PALETTE
from cardforge.render.fonts import font_name

UNIT = 100.0
#: icon width in em (most icons are square)
WIDTHS: dict[str, float] = {"arrow": 1.0, "half-cart": 0.7, "speed": 1.1}

C = {k: HexColor(v) for k, v in PALETTE.items()}
INK = HexColor("#1a1a1a")
GOLD_FILL = HexColor("#f2c230")
GOLD_EDGE = HexColor("#a8780a")
SILVER = HexColor("#d8e4ea")
COLOURS = {
    "red": HexColor("#c0392b"), "green": HexColor("#2e8b3e"), "blue": HexColor("#2563b0"),
    "yellow": HexColor("#e8b90c"), "grey": HexColor("#8a8a8a"), "gold": GOLD_FILL,
    "purple": HexColor("#7b3fa0"), "orange": HexColor("#e07b24"), "white": HexColor("#f4f1ea"),
}


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


def _gem(c: Canvas, fill: Color, edge: Color = INK) -> None:
    outer = [(50, 96), (90, 66), (50, 4), (10, 66)]
    _poly(c, outer, fill=fill, stroke=edge, width=5)
    _poly(c, [(10, 66), (90, 66)], stroke=edge, width=3, close=False)
    _poly(c, [(30, 66), (50, 96), (70, 66), (50, 4), (30, 66)], stroke=edge, width=2.5, close=False)


def _shield(c: Canvas, fill: Color | None, edge: Color = INK) -> None:
    p = c.beginPath()
    p.moveTo(12, 92)
    p.lineTo(88, 92)
    p.lineTo(88, 50)
    p.curveTo(88, 22, 62, 10, 50, 4)
    p.curveTo(38, 10, 12, 22, 12, 50)
    p.close()
    _paint(c, p, fill, edge, 5)


def _pick(c: Canvas, colour: Color = INK) -> None:
    # handle
    _poly(c, [(20, 10), (28, 4), (74, 70), (66, 76)], fill=HexColor("#8b5a2b"), stroke=colour, width=3)
    # head
    p = c.beginPath()
    p.moveTo(30, 78)
    p.curveTo(48, 96, 78, 96, 96, 72)
    p.curveTo(80, 84, 58, 84, 42, 70)
    p.close()
    _paint(c, p, HexColor("#9aa5ad"), colour, 3)


def _sword(c: Canvas, angle: float = 45.0, colour: Color = INK) -> None:
    c.saveState()
    c.translate(50, 50)
    c.rotate(angle)
    _poly(c, [(-5, -10), (5, -10), (5, 38), (0, 48), (-5, 38)], fill=HexColor("#c9d3da"), stroke=colour, width=3)
    _poly(c, [(-18, -14), (18, -14), (18, -9), (-18, -9)], fill=HexColor("#8b5a2b"), stroke=colour, width=2.5)
    _poly(c, [(-4, -14), (4, -14), (4, -40), (-4, -40)], fill=HexColor("#6d4c2f"), stroke=colour, width=2.5)
    c.restoreState()


def _meeple(c: Canvas, fill: Color, edge: Color = INK) -> None:
    p = c.beginPath()
    p.moveTo(22, 4)
    p.lineTo(40, 40)
    p.lineTo(10, 52)
    p.curveTo(4, 58, 10, 68, 22, 66)
    p.lineTo(36, 64)
    p.curveTo(30, 96, 70, 96, 64, 64)
    p.lineTo(78, 66)
    p.curveTo(90, 68, 96, 58, 90, 52)
    p.lineTo(60, 40)
    p.lineTo(78, 4)
    p.close()
    _paint(c, p, fill, edge, 4)


def _cart(c: Canvas, left: bool = True, right: bool = True) -> None:
    x0 = 8 if left else 50
    x1 = 92 if right else 50
    body = [(max(x0, 8), 70), (min(x1, 92), 70), (min(x1, 82), 28), (max(x0, 18), 28)]
    _poly(c, body, fill=HexColor("#8b5a2b"), stroke=INK, width=4)
    _poly(c, [(body[0][0] + 4, 70), (body[1][0] - 4, 70), (body[1][0] - 8, 84), (body[0][0] + 8, 84)],
          fill=HexColor("#3a3a3a"), stroke=INK, width=3)
    if left:
        _circle(c, 30, 20, 11, fill=HexColor("#555555"), stroke=INK, width=3)
    if right:
        _circle(c, 70, 20, 11, fill=HexColor("#555555"), stroke=INK, width=3)


def _coin(c: Canvas) -> None:
    _circle(c, 50, 50, 46, fill=GOLD_FILL, stroke=GOLD_EDGE, width=6)
    _circle(c, 50, 50, 32, stroke=GOLD_EDGE, width=4)


def _vp(c: Canvas) -> None:
    _poly(c, _star(50, 50, 48, 21, 5), fill=COLOURS["blue"], stroke=INK, width=3.5)


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


def _ore(fill: Color, edge: Color) -> Drawer:
    def draw(c: Canvas) -> None:
        _poly(c, [(10, 38), (28, 80), (62, 92), (90, 62), (84, 22), (46, 8), (18, 14)], fill=fill,
              stroke=edge, width=5)
        _poly(c, [(28, 80), (44, 50), (84, 22)], stroke=edge, width=3, close=False)
        _poly(c, [(44, 50), (62, 92)], stroke=edge, width=3, close=False)
    return draw


def _colour_square(name: str) -> Drawer:
    def draw(c: Canvas) -> None:
        _rrect(c, 8, 8, 84, 84, 14, fill=COLOURS[name], stroke=INK, width=5)
    return draw


def _gallery(c: Canvas) -> None:
    _rrect(c, 6, 6, 88, 88, 8, fill=HexColor("#c8b08a"), stroke=INK, width=4)
    _poly(c, [(38, 6), (62, 6), (62, 38), (94, 38), (94, 62), (62, 62), (62, 94), (38, 94), (38, 62),
              (6, 62), (6, 38), (38, 38)], fill=HexColor("#3b2a1a"))


def _contract(c: Canvas) -> None:
    _coin(c)
    _poly(c, [(30, 52), (45, 36), (72, 66)], stroke=GOLD_EDGE, width=8, close=False)


def _catastrophe(c: Canvas) -> None:
    _poly(c, _star(50, 50, 49, 22, 9, rot=80), fill=COLOURS["orange"], stroke=HexColor("#8b1a10"), width=4)
    _poly(c, _star(50, 50, 26, 12, 9, rot=100), fill=COLOURS["yellow"])


def _impediment(c: Canvas) -> None:
    _circle(c, 50, 50, 45, fill=HexColor("#ffffff"), stroke=COLOURS["red"], width=8)
    _poly(c, [(30, 30), (70, 70)], stroke=COLOURS["red"], width=12, close=False)
    _poly(c, [(30, 70), (70, 30)], stroke=COLOURS["red"], width=12, close=False)


def _prospect(c: Canvas) -> None:
    _circle(c, 42, 58, 28, fill=HexColor("#e6f2f8"), stroke=INK, width=8)
    _poly(c, [(62, 38), (90, 10)], stroke=INK, width=14, close=False)


def _build(c: Canvas) -> None:
    _poly(c, [(44, 4), (56, 4), (56, 62), (44, 62)], fill=HexColor("#8b5a2b"), stroke=INK, width=3)
    _rrect(c, 14, 60, 72, 28, 4, fill=HexColor("#9aa5ad"), stroke=INK, width=4)


def _level(c: Canvas) -> None:
    for i in range(4):
        _poly(c, [(8 + i * 22, 8), (28 + i * 22, 8), (28 + i * 22, 26 + i * 20), (8 + i * 22, 26 + i * 20)],
              fill=HexColor("#8b6b4a"), stroke=INK, width=3)


def _dwarf(c: Canvas) -> None:
    _circle(c, 50, 62, 26, fill=HexColor("#f1c9a5"), stroke=INK, width=4)
    _poly(c, [(24, 58), (76, 58), (50, 4)], fill=HexColor("#b5651d"), stroke=INK, width=4)
    _poly(c, [(22, 70), (50, 98), (78, 70)], fill=COLOURS["red"], stroke=INK, width=4)


def _plus(c: Canvas) -> None:
    _circle(c, 50, 50, 45, fill=HexColor("#ffffff"), stroke=INK, width=6)
    _glyph(c, "+", size=86, y=20)


def _proud(c: Canvas) -> None:
    _poly(c, [(8, 24), (8, 78), (30, 52), (50, 86), (70, 52), (92, 78), (92, 24)], fill=GOLD_FILL,
          stroke=INK, width=5)


def _recruit(c: Canvas) -> None:
    _rrect(c, 8, 20, 44, 66, 6, fill=HexColor("#ffffff"), stroke=INK, width=4)
    _poly(c, [(52, 50), (92, 50)], stroke=INK, width=8, close=False)
    _poly(c, [(78, 66), (96, 50), (78, 34)], fill=INK)


def _speed(c: Canvas) -> None:
    for dx in (0, 30):
        _poly(c, [(10 + dx, 90), (50 + dx, 50), (10 + dx, 10), (26 + dx, 10), (66 + dx, 50), (26 + dx, 90)],
              fill=COLOURS["orange"], stroke=INK, width=3)


def _attack(c: Canvas) -> None:
    _sword(c, 40)
    _sword(c, -40)


def _cargo(c: Canvas) -> None:
    _rrect(c, 8, 12, 84, 70, 4, fill=HexColor("#c8a064"), stroke=INK, width=5)
    _poly(c, [(8, 47), (92, 47)], stroke=INK, width=4, close=False)
    _poly(c, [(50, 12), (50, 82)], stroke=INK, width=4, close=False)


def _resource(c: Canvas) -> None:
    _poly(c, [(50, 96), (90, 73), (90, 27), (50, 4), (10, 27), (10, 73)], fill=HexColor("#45c4b0"),
          stroke=INK, width=5)
    _poly(c, [(50, 70), (70, 50), (50, 30), (30, 50)], fill=HexColor("#bff0e6"))


def _ship(c: Canvas) -> None:
    p = c.beginPath()
    p.moveTo(50, 98)
    p.curveTo(72, 76, 72, 40, 66, 24)
    p.lineTo(34, 24)
    p.curveTo(28, 40, 28, 76, 50, 98)
    p.close()
    _paint(c, p, HexColor("#d8dde3"), INK, 4)
    _poly(c, [(34, 40), (14, 14), (36, 24)], fill=COLOURS["red"], stroke=INK, width=3)
    _poly(c, [(66, 40), (86, 14), (64, 24)], fill=COLOURS["red"], stroke=INK, width=3)
    _circle(c, 50, 62, 9, fill=COLOURS["blue"], stroke=INK, width=3)
    _poly(c, [(40, 22), (50, 2), (60, 22)], fill=COLOURS["orange"])


def _gem_of(name: str) -> Drawer:
    return lambda c: _gem(c, COLOURS[name])


def _nugget(c: Canvas) -> None:
    p = c.beginPath()
    p.moveTo(14, 30)
    p.curveTo(4, 60, 30, 88, 56, 82)
    p.curveTo(90, 78, 98, 44, 80, 22)
    p.curveTo(62, 4, 24, 8, 14, 30)
    p.close()
    _paint(c, p, GOLD_FILL, GOLD_EDGE, 5)
    _circle(c, 40, 58, 8, fill=HexColor("#fff2b0"))


def _crystal_any(c: Canvas) -> None:
    _poly(c, [(50, 96), (90, 66), (50, 4)], fill=COLOURS["blue"])
    _poly(c, [(50, 96), (10, 66), (50, 4)], fill=COLOURS["red"])
    _poly(c, [(30, 66), (70, 66), (50, 4)], fill=COLOURS["green"])
    _poly(c, [(50, 96), (90, 66), (50, 4), (10, 66)], stroke=INK, width=5)


def _promise(c: Canvas) -> None:
    p = c.beginPath()
    p.ellipse(6, 18, 94, 82)
    _paint(c, p, HexColor("#a0a4a8"), INK, 5)


def _logo_of(name: str) -> Drawer:
    return lambda c: _shield(c, COLOURS[name])


def _logo_multi(c: Canvas) -> None:
    _shield(c, COLOURS["white"])
    for i, name in enumerate(("red", "green", "blue")):
        x = 24 + i * 18
        _poly(c, [(x, 84), (x + 16, 84), (x + 16, 26), (x, 34)], fill=COLOURS[name])
    _shield(c, None)


def _rune_of(name: str) -> Drawer:
    def draw(c: Canvas) -> None:
        _poly(c, [(50, 98), (92, 50), (50, 2), (8, 50)], fill=COLOURS[name], stroke=INK, width=4)
        _poly(c, [(50, 78), (50, 22)], stroke=HexColor("#ffffff"), width=8, close=False)
        _poly(c, [(50, 62), (66, 46)], stroke=HexColor("#ffffff"), width=7, close=False)
        _poly(c, [(50, 50), (34, 34)], stroke=HexColor("#ffffff"), width=7, close=False)
    return draw


def _glyph_icon(text: str, colour: Color = INK, size: float = 88, y: float = 14) -> Drawer:
    return lambda c: _glyph(c, text, colour, size=size, y=y, bold=False)


def _eclat(c: Canvas) -> None:
    _poly(c, _star(50, 50, 48, 12, 4), fill=HexColor("#fff3a0"), stroke=GOLD_EDGE, width=4)


def _forge(c: Canvas) -> None:
    _poly(c, [(6, 70), (94, 70), (94, 60), (70, 50), (64, 24), (80, 8), (20, 8), (36, 24), (30, 50), (6, 60)],
          fill=HexColor("#555a60"), stroke=INK, width=4)


def _cursed(c: Canvas) -> None:
    _gem(c, COLOURS["purple"])
    _poly(c, [(38, 56), (62, 32)], stroke=HexColor("#ffffff"), width=7, close=False)
    _poly(c, [(38, 32), (62, 56)], stroke=HexColor("#ffffff"), width=7, close=False)


def _machine(c: Canvas) -> None:
    _poly(c, _star(50, 50, 47, 36, 8, rot=0), fill=HexColor("#7d868c"), stroke=INK, width=4)
    _circle(c, 50, 50, 16, fill=HexColor("#ffffff"), stroke=INK, width=4)


def _cave_in(c: Canvas) -> None:
    _poly(c, [(50, 96), (96, 8), (4, 8)], fill=COLOURS["yellow"], stroke=INK, width=5)
    for x, y, r in ((36, 28, 10), (58, 26, 12), (48, 48, 9)):
        _circle(c, x, y, r, fill=HexColor("#6d4c2f"), stroke=INK, width=2.5)


def _event(c: Canvas) -> None:
    _rrect(c, 14, 6, 72, 88, 8, fill=HexColor("#f4e4c1"), stroke=INK, width=5)
    _glyph(c, "!", COLOURS["red"], size=70, y=24)


def _arrow(c: Canvas) -> None:
    _poly(c, [(6, 50), (70, 50)], stroke=INK, width=10, close=False)
    _poly(c, [(60, 76), (96, 50), (60, 24)], fill=INK)


DRAW: dict[str, Drawer] = {
    "coin": _coin, "vp": _vp, "card": _card, "die": _die, "hand": _hand,
    "coal": _ore(HexColor("#2b2b2b"), HexColor("#000000")),
    "gold": _ore(GOLD_FILL, GOLD_EDGE),
    "mithril": _ore(SILVER, HexColor("#4f8fb0")),
    "blue": _colour_square("blue"), "green": _colour_square("green"), "yellow": _colour_square("yellow"),
    "red": _colour_square("red"), "grey": _colour_square("grey"),
    "miner": lambda c: _meeple(c, HexColor("#c8a064")), "gallery": _gallery, "contract": _contract,
    "catastrophe": _catastrophe, "impediment": _impediment, "prospect": _prospect,
    "exploit": _pick, "build": _build, "level": _level,
    "combat": lambda c: _sword(c, -35), "dig": _pick, "dwarf": _dwarf, "plus": _plus, "proud": _proud,
    "recruit": _recruit,
    "speed": _speed, "attack": _attack, "cargo": _cargo, "resource": _resource, "ship": _ship,
    "crystal-red": _gem_of("red"), "crystal-green": _gem_of("green"), "crystal-blue": _gem_of("blue"),
    "nugget": _nugget, "crystal-any": _crystal_any, "promise": _promise,
    "logo-red": _logo_of("red"), "logo-green": _logo_of("green"), "logo-blue": _logo_of("blue"),
    "logo-multi": _logo_multi,
    "rune-red": _rune_of("red"), "rune-green": _rune_of("green"), "rune-blue": _rune_of("blue"),
    "king": _glyph_icon("♚", size=124, y=5),  # the glyph is small in its em: fill the box
    # the music glyphs stand about 0.73 em tall: at 112 pt from y 8 they fill the box (Cristaux)
    "double-note": _glyph_icon("♬", size=112, y=8), "sharp": _glyph_icon("♯", size=112, y=8),
    "note": _glyph_icon("♪", size=112, y=8), "eclat": _eclat, "forge": _forge,
    "topaze": _gem_of("orange"), "opale": lambda c: _gem(c, HexColor("#e8eef5")), "cursed": _cursed,
    "cart": _cart, "half-cart": lambda c: _cart(c, left=True, right=False), "machine": _machine,
    "cave-in": _cave_in, "event": _event, "worker": lambda c: _meeple(c, COLOURS["blue"]), "arrow": _arrow,
}



# --- Imperial Miners: the six factions, any faction, the event types, advance ---------------
# Added for the player aids (legend, factions table); ``setdefault``: a drawing defined above
# wins.

def _faction_scottish(c: Canvas) -> None:  # a saltire on a shield
    _shield(c, COLOURS["blue"])
    _poly(c, [(24, 80), (76, 26)], stroke=HexColor("#ffffff"), width=12, close=False)
    _poly(c, [(76, 80), (24, 26)], stroke=HexColor("#ffffff"), width=12, close=False)


def _faction_egyptian(c: Canvas) -> None:  # a pyramid under the sun
    _circle(c, 74, 76, 14, fill=COLOURS["yellow"], stroke=INK, width=3)
    _poly(c, [(6, 10), (94, 10), (50, 78)], fill=HexColor("#e2b45a"), stroke=INK, width=5)
    _poly(c, [(50, 78), (60, 10)], stroke=INK, width=3, close=False)


def _faction_atlantean(c: Canvas) -> None:  # a trident
    teal = HexColor("#1f8a8a")
    _poly(c, [(50, 4), (50, 78)], stroke=teal, width=10, close=False)
    _poly(c, [(22, 60), (22, 84), (78, 84), (78, 60)], stroke=teal, width=9, close=False)
    for x in (22, 50, 78):
        _poly(c, [(x - 9, 80), (x, 97), (x + 9, 80)], fill=teal)


def _faction_barbarian(c: Canvas) -> None:  # a horned helmet
    _poly(c, [(20, 56), (6, 92), (30, 64)], fill=HexColor("#efe6d2"), stroke=INK, width=3)
    _poly(c, [(80, 56), (94, 92), (70, 64)], fill=HexColor("#efe6d2"), stroke=INK, width=3)
    p = c.beginPath()
    p.moveTo(14, 30)
    p.curveTo(14, 84, 86, 84, 86, 30)
    p.close()
    _paint(c, p, HexColor("#9aa5ad"), INK, 5)
    _rrect(c, 10, 18, 80, 14, 4, fill=HexColor("#8b5a2b"), stroke=INK, width=4)


def _faction_japanese(c: Canvas) -> None:  # a red sun
    _rrect(c, 6, 14, 88, 72, 8, fill=HexColor("#ffffff"), stroke=INK, width=5)
    _circle(c, 50, 50, 22, fill=COLOURS["red"])


def _faction_roman(c: Canvas) -> None:  # an arch
    red = HexColor("#9c2a1f")
    p = c.beginPath()
    p.moveTo(8, 6)
    p.lineTo(8, 70)
    p.lineTo(92, 70)
    p.lineTo(92, 6)
    p.lineTo(68, 6)
    p.lineTo(68, 36)
    p.curveTo(68, 60, 32, 60, 32, 36)
    p.lineTo(32, 6)
    p.close()
    _paint(c, p, HexColor("#e9dcc0"), INK, 5)
    _rrect(c, 2, 70, 96, 20, 3, fill=red, stroke=INK, width=4)


def _faction_any(c: Canvas) -> None:  # six wedges, one per faction colour
    colours = ("#1f5fa8", "#e2b45a", "#1f8a8a", "#9aa5ad", "#c0392b", "#9c2a1f")
    for i, colour in enumerate(colours):
        p = c.beginPath()
        p.moveTo(50, 50)
        p.arcTo(4, 4, 96, 96, startAng=90 + i * 60, extent=60)
        p.close()
        _paint(c, p, HexColor(colour), None)
    _circle(c, 50, 50, 46, stroke=INK, width=5)


def _event_with(mark: Drawer) -> Drawer:
    def draw(c: Canvas) -> None:
        _rrect(c, 14, 6, 72, 88, 8, fill=HexColor("#f4e4c1"), stroke=INK, width=5)
        mark(c)
    return draw


def _bolt(c: Canvas) -> None:
    _poly(c, [(56, 84), (30, 46), (48, 46), (40, 16), (70, 56), (52, 56)], fill=COLOURS["yellow"], stroke=INK,
          width=3)


def _cog(c: Canvas) -> None:
    _poly(c, _star(50, 50, 26, 19, 8, rot=0), fill=HexColor("#7d868c"), stroke=INK, width=3)
    _circle(c, 50, 50, 8, fill=HexColor("#f4e4c1"), stroke=INK, width=3)


def _hourglass(c: Canvas) -> None:
    _poly(c, [(32, 80), (68, 80), (50, 50), (68, 20), (32, 20), (50, 50)], fill=HexColor("#e2b45a"), stroke=INK,
          width=4)


def _advance(c: Canvas) -> None:
    _rrect(c, 4, 14, 92, 72, 14, fill=COLOURS["green"], stroke=INK, width=5)
    _poly(c, [(22, 70), (44, 50), (22, 30)], stroke=HexColor("#ffffff"), width=10, close=False)
    _poly(c, [(52, 70), (74, 50), (52, 30)], stroke=HexColor("#ffffff"), width=10, close=False)


# --- TunHell: the dwarf types and the encounter symbol (drawn for the dwarf table) ----------

def _dynamite(c: Canvas) -> None:
    _rrect(c, 30, 6, 40, 70, 6, fill=COLOURS["red"], stroke=INK, width=5)
    _poly(c, [(50, 76), (56, 88), (66, 90)], stroke=INK, width=4, close=False)
    _poly(c, _star(72, 91, 9, 4, 6), fill=COLOURS["orange"])


def _crossed_swords(c: Canvas) -> None:
    _sword(c, 40)
    _sword(c, -40)


for _name, _draw in {
    "warrior": lambda c: _sword(c, -35), "digger": _pick, "scout": _prospect, "blaster": _dynamite,
    "encounter": _crossed_swords,
    "faction-scottish": _faction_scottish, "faction-egyptian": _faction_egyptian,
    "faction-atlantean": _faction_atlantean, "faction-barbarian": _faction_barbarian,
    "faction-japanese": _faction_japanese, "faction-roman": _faction_roman, "faction-any": _faction_any,
    "event-immediate": _event_with(_bolt), "event-special": _event_with(_cog),
    "event-end-round": _event_with(_hourglass), "advance": _advance,
}.items():
    DRAW.setdefault(_name, _draw)


# --- Cristaux: card natures (a white sign on a disc of the element's colour), the
# multi-element nature, and the two kinds of in-game effect (manœuvre, action libre) ---------

def _nature_disc(colour: Color) -> Callable[[Canvas, Drawer], None]:
    def draw(c: Canvas, sign: Drawer) -> None:
        _circle(c, 50, 50, 46, fill=colour, stroke=INK, width=5)
        sign(c)
    return draw


def _flame_sign(c: Canvas) -> None:
    p = c.beginPath()
    p.moveTo(54, 88)
    p.curveTo(50, 70, 76, 62, 74, 38)
    p.curveTo(73, 22, 62, 13, 50, 13)
    p.curveTo(37, 13, 26, 23, 26, 38)
    p.curveTo(26, 50, 32, 56, 38, 62)
    p.curveTo(38, 54, 42, 48, 46, 46)
    p.curveTo(46, 62, 52, 74, 54, 88)
    p.close()
    _paint(c, p, HexColor("#ffffff"), None)
    q = c.beginPath()
    q.moveTo(50, 50)
    q.curveTo(50, 40, 62, 36, 60, 26)
    q.curveTo(58, 20, 54, 18, 50, 18)
    q.curveTo(44, 18, 39, 22, 39, 29)
    q.curveTo(39, 36, 48, 40, 50, 50)
    q.close()
    _paint(c, q, COLOURS["orange"], None)


def _mountain_sign(c: Canvas) -> None:
    _poly(c, [(12, 26), (40, 74), (54, 52), (63, 64), (88, 26)], fill=HexColor("#ffffff"))
    _poly(c, [(40, 74), (33, 62), (40, 58), (47, 62)], fill=HexColor("#cfe3cf"))


def _waves_sign(c: Canvas) -> None:
    white = HexColor("#ffffff")
    for y in (64, 46, 28):
        p = c.beginPath()
        p.moveTo(16, y)
        p.curveTo(26, y + 10, 34, y + 10, 42, y)
        p.curveTo(50, y - 10, 58, y - 10, 66, y)
        p.curveTo(72, y + 8, 80, y + 8, 86, y)
        _paint(c, p, None, white, 8)


def _nature_multi(c: Canvas) -> None:
    for i, name in enumerate(("red", "green", "blue")):
        p = c.beginPath()
        p.moveTo(50, 50)
        p.arcTo(4, 4, 96, 96, startAng=90 + i * 120, extent=120)
        p.close()
        _paint(c, p, COLOURS[name], None)
    for i in range(3):
        a = math.radians(90 + i * 120)
        _poly(c, [(50, 50), (50 + 46 * math.cos(a), 50 + 46 * math.sin(a))], stroke=HexColor("#ffffff"),
              width=4, close=False)
    _circle(c, 50, 50, 15, fill=HexColor("#ffffff"), stroke=INK, width=3)
    _circle(c, 50, 50, 46, stroke=INK, width=5)


def _manoeuvre(c: Canvas) -> None:  # the rulebook's purple frame, with a turn-over arrow
    _rrect(c, 5, 5, 90, 90, 16, fill=COLOURS["purple"], stroke=INK, width=5)
    white = HexColor("#ffffff")
    p = c.beginPath()
    p.arc(24, 24, 76, 76, startAng=120, extent=280)
    _paint(c, p, None, white, 10)
    a = math.radians(40)
    tip = (50 + 26 * math.cos(a), 50 + 26 * math.sin(a))
    _poly(c, [(tip[0] - 16, tip[1] + 4), (tip[0] + 12, tip[1] + 14), (tip[0] + 6, tip[1] - 16)], fill=white)


def _free_action(c: Canvas) -> None:  # a lightning bolt on a gold disc: no action spent
    _circle(c, 50, 50, 46, fill=HexColor("#f6d55c"), stroke=INK, width=5)
    _poly(c, [(58, 90), (28, 44), (48, 44), (38, 10), (74, 58), (54, 58)], fill=INK)


for _name, _draw in {
    "nature-red": lambda c: _nature_disc(COLOURS["red"])(c, _flame_sign),
    "nature-green": lambda c: _nature_disc(COLOURS["green"])(c, _mountain_sign),
    "nature-blue": lambda c: _nature_disc(COLOURS["blue"])(c, _waves_sign),
    "nature-multi": _nature_multi, "manoeuvre": _manoeuvre, "free-action": _free_action,
}.items():
    DRAW.setdefault(_name, _draw)


# --- Cristaux: one shape per crystal colour, so that no colour is told by its hue alone -------
# (greyscale, deuteranopia). The shape follows the colour's nature: red / fire a triangle
# (the alchemists' fire, a "trillion" cut), green / earth a square (an emerald cut), blue /
# water a drop; gold is the nugget (a rounded lump). Crystals are filled shapes; runes and royal
# logos carry the same shape as a white mark; an empty forge square shows it hollow.

def _shape_path(c: Canvas, colour: str, box: tuple[float, float, float] = (0.0, 0.0, 100.0)) -> PDFPathObject:
    """The outline of ``colour``'s shape in the square ``box`` = (x, y, size) of the 100 box."""
    x0, y0, k = box[0], box[1], box[2] / 100.0

    def pt(x: float, y: float) -> Point:
        return x0 + x * k, y0 + y * k
    p = c.beginPath()
    if colour == "red":
        pts = [(50, 96), (95, 12), (5, 12)]
    elif colour == "green":
        pts = [(27, 92), (73, 92), (92, 73), (92, 27), (73, 8), (27, 8), (8, 27), (8, 73)]
    elif colour == "blue":
        p.moveTo(*pt(50, 97))
        p.curveTo(*pt(60, 74), *pt(88, 56), *pt(88, 38))
        p.curveTo(*pt(88, 16), *pt(70, 3), *pt(50, 3))
        p.curveTo(*pt(30, 3), *pt(12, 16), *pt(12, 38))
        p.curveTo(*pt(12, 56), *pt(40, 74), *pt(50, 97))
        p.close()
        return p
    else:  # gold: the nugget's lump
        p.moveTo(*pt(14, 30))
        p.curveTo(*pt(4, 60), *pt(30, 88), *pt(56, 82))
        p.curveTo(*pt(90, 78), *pt(98, 44), *pt(80, 22))
        p.curveTo(*pt(62, 4), *pt(24, 8), *pt(14, 30))
        p.close()
        return p
    p.moveTo(*pt(*pts[0]))
    for q in pts[1:]:
        p.lineTo(*pt(*q))
    p.close()
    return p


def _crystal_of(colour: str) -> Drawer:
    def draw(c: Canvas) -> None:
        _paint(c, _shape_path(c, colour), COLOURS[colour], INK, 5)
        light = HexColor("#ffffff")
        if colour == "red":  # facets: an inner triangle joined to the corners
            _poly(c, [(50, 66), (70, 27), (30, 27)], stroke=INK, width=2.5)
            for a, b in (((50, 96), (50, 66)), ((95, 12), (70, 27)), ((5, 12), (30, 27))):
                _poly(c, [a, b], stroke=INK, width=2.5, close=False)
        elif colour == "green":  # the emerald cut's table and steps
            _poly(c, [(30, 70), (70, 70), (70, 30), (30, 30)], stroke=INK, width=2.5)
            for a, b in (((27, 92), (30, 70)), ((73, 92), (70, 70)), ((73, 8), (70, 30)), ((27, 8), (30, 30))):
                _poly(c, [a, b], stroke=INK, width=2.5, close=False)
        else:  # a drop's highlight
            p = c.beginPath()
            p.ellipse(30, 22, 48, 46)
            _paint(c, p, light, None)
    return draw


def _mark(c: Canvas, colour: str, box: tuple[float, float, float]) -> None:
    """``colour``'s shape as a white mark (on a rune or a royal logo)."""
    _paint(c, _shape_path(c, colour, box), HexColor("#ffffff"), INK, 2.5)


def _rune_marked(colour: str) -> Drawer:
    def draw(c: Canvas) -> None:
        _poly(c, [(50, 98), (92, 50), (50, 2), (8, 50)], fill=COLOURS[colour], stroke=INK, width=4)
        _mark(c, colour, (27, 27, 46))
    return draw


def _logo_marked(colour: str) -> Drawer:
    def draw(c: Canvas) -> None:
        _shield(c, COLOURS[colour])
        _mark(c, colour, (27, 36, 46))
    return draw


def _slot_of(colour: str) -> Drawer:
    """An empty forge square for a crystal of ``colour``: its shape, hollow."""
    def draw(c: Canvas) -> None:
        _paint(c, _shape_path(c, colour, (8, 8, 84)), None, COLOURS[colour] if colour != "gold" else GOLD_EDGE, 9)
    return draw


def _slot_any(c: Canvas) -> None:
    """A wild forge square: the three shapes, small, in their colours."""
    for colour, box in (("red", (2, 52, 46)), ("green", (52, 52, 46)), ("blue", (27, 2, 46))):
        _paint(c, _shape_path(c, colour, box), COLOURS[colour], INK, 3)


DRAW.update({
    "crystal-red": _crystal_of("red"), "crystal-green": _crystal_of("green"), "crystal-blue": _crystal_of("blue"),
    "rune-red": _rune_marked("red"), "rune-green": _rune_marked("green"), "rune-blue": _rune_marked("blue"),
    "logo-red": _logo_marked("red"), "logo-green": _logo_marked("green"), "logo-blue": _logo_marked("blue"),
    "slot-red": _slot_of("red"), "slot-green": _slot_of("green"), "slot-blue": _slot_of("blue"),
    "slot-gold": _slot_of("gold"), "slot-any": _slot_any,
})


# --- TunHell: the Terre card's clod of earth, the Fantôme de Grödur, the Porte de derrière -----

def _earth(c: Canvas) -> None:  # a mound of earth with pebbles
    p = c.beginPath()
    p.moveTo(4, 12)
    p.curveTo(8, 50, 30, 78, 52, 78)
    p.curveTo(76, 78, 92, 48, 96, 12)
    p.close()
    _paint(c, p, HexColor("#8b5a2b"), INK, 5)
    for x, y, r, fill in ((32, 30, 7, "#5c3a1c"), (58, 48, 6, "#b08050"), (70, 24, 8, "#5c3a1c"),
                          (44, 58, 4, "#b08050"), (22, 18, 4, "#b08050")):
        _circle(c, x, y, r, fill=HexColor(fill), stroke=INK, width=2.5)


def _ghost(c: Canvas) -> None:  # a sheet ghost with a wavy hem
    p = c.beginPath()
    p.moveTo(16, 8)
    p.lineTo(16, 56)
    p.curveTo(16, 104, 84, 104, 84, 56)
    p.lineTo(84, 8)
    for x0 in (84, 70, 56, 42, 28):  # five arches between the hem's points
        p.curveTo(x0 - 1, 24, x0 - 13, 24, x0 - 14 + (2 if x0 == 28 else 0), 8)
    p.close()
    _paint(c, p, HexColor("#eef2f6"), INK, 5)
    _circle(c, 38, 62, 7, fill=INK)
    _circle(c, 62, 62, 7, fill=INK)
    _circle(c, 50, 40, 6, fill=INK)


def _arch(c: Canvas, left: float, right: float, crown: float, fill: str, width: float) -> None:
    """A round-topped shape standing on y = 4, straight sides up to y = 60."""
    p = c.beginPath()
    p.moveTo(left, 4)
    p.lineTo(left, 60)
    p.curveTo(left, crown, right, crown, right, 60)
    p.lineTo(right, 4)
    p.close()
    _paint(c, p, HexColor(fill), INK, width)


def _door(c: Canvas) -> None:  # an arched wooden door with its frame and knob
    _arch(c, 14, 86, 108, "#5a5a5a", 5)  # the frame
    _arch(c, 24, 76, 94, "#a0673a", 4)   # the door
    for x in (41, 59):  # planks
        _poly(c, [(x, 6), (x, 84)], stroke=INK, width=3, close=False)
    _circle(c, 66, 40, 5, fill=GOLD_FILL, stroke=INK, width=2.5)


for _name, _draw in {"earth": _earth, "ghost": _ghost, "door": _door}.items():
    DRAW.setdefault(_name, _draw)


def _fallback(name: str) -> Drawer:
    """An icon added to the vocabulary before its drawing: a labelled disc (tests flag it)."""
    def draw(c: Canvas) -> None:
        _circle(c, 50, 50, 46, fill=HexColor("#ffffff"), stroke=INK, width=5)
        _glyph(c, name[:1].upper(), size=60, y=30)
    return draw


def has_drawing(name: str) -> bool:
    return name in DRAW


class CustomIcon(Protocol):
    """A game's own icon (``render/game_assets.py``'s ``CustomIcon``)."""

    @property
    def width(self) -> float: ...  # em

    @property
    def key(self) -> str: ...  # content digest

    def draw(self, canvas: Canvas) -> None: ...  # into its ``width × 100`` box


#: a game's own icons (``icons/*.svg|png`` in its folder), passed by whoever draws for the game
#: (``render/drawing_assets.py``): name → ``width`` (em), ``key`` (content digest), ``draw(canvas)``
Custom = Mapping[str, CustomIcon]
_NONE: Custom = {}


def icon_width(name: str, custom: Custom = _NONE) -> float:
    """Advance width of an icon, in em (``custom``: the game's own icons, which win)."""
    own = custom.get(name)
    return own.width if own is not None else WIDTHS.get(name, 1.0)


def _form_name(name: str, custom: Custom = _NONE) -> str:
    own = custom.get(name)
    return "icon-" + name if own is None else f"icon-{name}-{own.key}"


def ensure_icon(canvas: Canvas, name: str, custom: Custom = _NONE) -> str:
    """Define the icon's form in this canvas's document once; returns the form name. A game's
    icon's form is named after its content: two games' icons of one name never share a form."""
    defined = canvas.__dict__.setdefault("_cardforge_icons", set())
    form = _form_name(name, custom)
    if form not in defined:
        w = icon_width(name, custom) * UNIT
        canvas.beginForm(form, 0, 0, w, UNIT)
        canvas.saveState()
        own = custom.get(name)
        if own is not None:  # drawn in its own w × 100 box
            own.draw(canvas)
        else:
            if w != UNIT:
                canvas.scale(w / UNIT, 1.0)
            DRAW.get(name, _fallback(name))(canvas)
        canvas.restoreState()
        canvas.endForm()
        defined.add(form)
    return form


def draw_icon(canvas: Canvas, name: str, x: float, y: float, size: float, custom: Custom = _NONE) -> None:
    """Draw icon ``name`` with its box's bottom-left at (x, y), ``size`` points tall."""
    form = ensure_icon(canvas, name, custom)
    k = size / UNIT
    canvas.saveState()
    canvas.transform(k, 0, 0, k, x, y)
    canvas.doForm(form)
    canvas.restoreState()
