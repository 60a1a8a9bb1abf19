"""The duplex calibration sheet: two pages that, printed two-sided, show the printer's
front-to-back registration error as the ``--back-offset X,Y`` that corrects it.

The front page holds five targets (the centre and four corners), each a horizontal and a
vertical scale graduated in millimetres. The back page holds a crosshair behind each target's
zero. Held against the light, front facing you, each crosshair line crosses a scale at a
value; those two values are the offset to give ``cardforge build --back-offset X,Y``.

The scales read the offset in the **printer's frame** (:func:`~cardforge.layout.geometry
.page_offset`: X towards the paper's right edge, Y towards its leading edge, as the back side
is seen upright on a portrait sheet), the one ``--back-offset`` takes for files of either
orientation, and they include the duplex mode's mirroring, so the reader never converts signs.
The sheet names its orientation. The portrait sheet measures; the landscape sheet, built with
the same offset, checks that the printer turns landscape pages the way the build assumes
(``--landscape-turn``): its crosshairs then sit on its zeros too.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.layout.geometry import Rect, mirror, mirror_axis, page_offset, page_size
from cardforge.render.fonts import font_name, unit_width
from cardforge.render.output import atomic_path, new_canvas, print_preferences
from cardforge.units import mm

#: a ruler's name ("X" or "Y") and its value (the printer-frame offset) at ``d`` mm along it
Ruler = tuple[str, Callable[[float], float]]

SCALE_MM = 6  # each scale reads from -6 to +6 mm
TARGET_INSET_MM = 38.0  # corner targets' centres, from the page edges
INK = HexColor("#1a1a1a")
RED = HexColor("#c0392b")


def scale_signs(page: tuple[float, float], duplex: str) -> tuple[int, int]:
    """How a displacement seen through the front (x right, y up) maps to the back-page offset
    that cancels it: the back page is mirrored in x or y, so one axis changes sign."""
    axis = mirror_axis(page, duplex)
    return (1, -1) if axis == "x" else (-1, 1)


def targets(page: tuple[float, float]) -> list[tuple[float, float]]:
    w, h = page
    d = TARGET_INSET_MM
    return [(w / 2, h / 2), (d, h - d), (w - d, h - d), (d, d), (w - d, d)]


def rulers(page: tuple[float, float], duplex: str, printer_offset: tuple[float, float],
           landscape_turn: str = "ccw") -> tuple[Ruler, Ruler]:
    """The two rulers' names and values: ``((h_name, h_value), (v_name, v_value))`` where
    ``h_value(d)`` is the printer-frame offset read where the back's vertical line crosses the
    horizontal ruler ``d`` mm right of the target (and ``v_value`` for the horizontal line, ``d``
    mm above it). On a portrait sheet the horizontal ruler reads X; on a landscape one, turned
    a quarter on the paper, it reads Y."""
    sx, sy = scale_signs(page, duplex)
    ox, oy = page_offset(printer_offset, page, landscape_turn)  # the page offset under test

    def printer(u: float, v: float) -> tuple[float, float]:  # page offset → printer frame
        if page[0] <= page[1]:
            return (u, v)
        return (-v, u) if landscape_turn == "ccw" else (v, -u)

    hx, hy = printer(1.0, 0.0)  # page x in the printer frame: (0, 1) ccw, (0, -1) cw
    h_name, h_sign = ("X", hx) if hx else ("Y", hy)
    vx, vy = printer(0.0, 1.0)
    v_name, v_sign = ("X", vx) if vx else ("Y", vy)
    base = printer(ox, oy)
    h_base = base[0] if h_name == "X" else base[1]
    v_base = base[0] if v_name == "X" else base[1]
    return ((h_name, lambda d: h_base + h_sign * sx * d), (v_name, lambda d: v_base + v_sign * sy * d))


def render_calibration(path: Path, paper_mm: tuple[float, float], orientation: str = "portrait",
                       duplex: str = "long-edge", offset: tuple[float, float] = (0.0, 0.0),
                       landscape_turn: str = "ccw") -> int:
    """Write the two-page sheet to ``path`` (atomically); ``offset`` is a printer-frame
    ``--back-offset`` under test. Returns the page count."""
    if duplex not in ("long-edge", "short-edge"):
        raise ValueError(f"calibration needs a two-sided mode (long-edge or short-edge), got {duplex!r}")
    page = page_size(paper_mm, "landscape" if orientation == "landscape" else "portrait")
    shift = page_offset(offset, page, landscape_turn)
    (h_name, h_value), (v_name, v_value) = rulers(page, duplex, offset, landscape_turn)
    font, bold = font_name("sans"), font_name("sans", bold=True)
    with atomic_path(Path(path)) as tmp:
        c = new_canvas(tmp, (mm(page[0]), mm(page[1])), "cardforge duplex calibration", subject="calibration")
        print_preferences(c, duplex)
        # --- front: scales ----------------------------------------------------------------------
        for tx, ty in targets(page):
            _scales(c, tx, ty, (h_name, h_value), (v_name, v_value), font)
        _instructions(c, page, duplex, offset, font, bold, landscape_turn)
        c.showPage()
        # --- back: crosshairs behind each target's zero, shifted by the offset being tested -----
        axis = mirror_axis(page, duplex)
        c.setStrokeColor(RED)
        c.setLineWidth(0.35)
        for tx, ty in targets(page):
            spot = mirror(Rect(tx, ty, 0, 0), page, axis).shift(*shift)
            # seen through the front, the vertical line crosses the X ruler (below the target)
            # and the horizontal one the Y ruler (left of it); mirrored here on the back
            p = c.beginPath()
            reach = RULER_GAP_MM + 4
            down = -1 if axis == "x" else 1  # the X ruler's side, as seen on the back page
            side = 1 if axis == "x" else -1  # the Y ruler's side, as seen on the back page
            p.moveTo(mm(spot.x), mm(spot.y + 3 * -down))
            p.lineTo(mm(spot.x), mm(spot.y + reach * down))
            p.moveTo(mm(spot.x + 3 * -side), mm(spot.y))
            p.lineTo(mm(spot.x + reach * side), mm(spot.y))
            c.drawPath(p, stroke=1, fill=0)
        c.setFillColor(HexColor("#9a9a9a"))
        c.setFont(font, 6)
        c.drawCentredString(mm(page[0] / 2), mm(CAPTION_MM),
                            f"cardforge calibration — {_orientation(page).upper()} sheet, back page ({duplex})")
        c.showPage()
        c.save()
    return 2


CAPTION_MM = 8.5  # the back page's caption baseline: above every printer margin (6.35 mm on Letter)
LABEL_PT = 5.0  # the scales' numbers: the smallest text cardforge prints anywhere
LABEL_GAP_MM = 0.6  # at least this between two numbers side by side
RULER_GAP_MM = 9.0  # each ruler sits this far from its target, clear of the other one


def _orientation(page: tuple[float, float]) -> str:
    return "portrait" if page[0] <= page[1] else "landscape"


def _scales(c: Canvas, tx: float, ty: float, horizontal: Ruler, vertical: Ruler, font: str) -> None:
    """Around a target at (tx, ty): the X ruler below it (ticks pointing up at the target's
    column) and the Y ruler to its left (ticks pointing right at its row); ticks every 0.5 mm,
    every 1 mm longer, labels every 2 mm. The back's crosshair lines run over both rulers."""
    g = RULER_GAP_MM
    c.saveState()
    c.setStrokeColor(INK)
    c.setFillColor(INK)
    c.setLineWidth(0.25)
    c.line(mm(tx - SCALE_MM), mm(ty - g), mm(tx + SCALE_MM), mm(ty - g))
    c.line(mm(tx - g), mm(ty - SCALE_MM), mm(tx - g), mm(ty + SCALE_MM))
    c.setFont(font, LABEL_PT)
    # the Y labels every 2 mm (stacked, they never touch); the X labels every 2 mm where they
    # fit side by side, else every 4 mm, in two staggered rows when a tested offset's decimals
    # ("-2.75") make them wider than that
    widest = max(unit_width(_fmt(horizontal[1](i / 2)), font) * LABEL_PT * 25.4 / 72
                 for i in range(-2 * SCALE_MM, 2 * SCALE_MM + 1) if i % 4 == 0)  # every 2 mm
    every, rows = (4, 1) if widest + LABEL_GAP_MM <= 2 else ((8, 1) if widest + LABEL_GAP_MM <= 4 else (8, 2))
    for i in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):
        d = i / 2
        length = 2.4 if i % 4 == 0 else (1.6 if i % 2 == 0 else 0.9)
        c.setLineWidth(0.35 if i == 0 else 0.2)
        c.line(mm(tx + d), mm(ty - g), mm(tx + d), mm(ty - g + length))
        c.line(mm(tx - g), mm(ty + d), mm(tx - g + length), mm(ty + d))
        if i % every == 0:
            row = (i // every) % rows
            c.drawCentredString(mm(tx + d), mm(ty - g - 2.4 - 2.2 * row), _fmt(horizontal[1](d)))
        if i % 4 == 0:
            c.drawRightString(mm(tx - g - 0.8), mm(ty + d) - 1.7, _fmt(vertical[1](d)))
    c.setFont(font, 5)
    c.drawString(mm(tx + SCALE_MM + 1), mm(ty - g) - 1.6, horizontal[0])
    c.drawCentredString(mm(tx - g), mm(ty + SCALE_MM + 1.2), vertical[0])
    # the target itself: a small grey cross where the back's lines meet when no offset is needed
    c.setStrokeColor(HexColor("#9a9a9a"))
    c.setLineWidth(0.2)
    c.line(mm(tx - 1.5), mm(ty), mm(tx + 1.5), mm(ty))
    c.line(mm(tx), mm(ty - 1.5), mm(tx), mm(ty + 1.5))
    c.restoreState()


def _fmt(v: float) -> str:
    """'-2', '0', '2': short labels so neighbours 2 mm apart never touch."""
    v = round(v, 2)
    return "0" if v == 0 else f"{v:g}"


def _instructions(c: Canvas, page: tuple[float, float], duplex: str, offset: tuple[float, float], font: str,
                  bold: str, landscape_turn: str = "ccw") -> None:
    w, h = page
    portrait = page[0] <= page[1]
    lines = [
        "1. Print both pages on one sheet, two-sided, turning over on the "
        f"{'long' if duplex == 'long-edge' else 'short'} edge, at 100 % (no 'fit to page').",
        "2. Hold the sheet against a light, this side facing you. Red lines from the back show through.",
        "3. At the centre target, read where the red lines cross the X scale and the Y scale",
        "    (to the nearest 0.25 mm). X and Y are in the printer's frame: one reading corrects",
        "    portrait and landscape decks alike.",
        f"4. Build with: cardforge build --duplex {duplex} --back-offset X,Y",
        "If the red lines sit on both zeros, your printer needs no correction. If the corner",
        "targets read differently from the centre, the printer also turns or scales the back:",
        "use the centre's values.",
    ]
    if not portrait:
        lines[2:5] = [
            "3. This LANDSCAPE sheet checks a reading taken on the PORTRAIT sheet: print it with",
            "    cardforge calibrate --orientation landscape --back-offset X,Y. Red lines on both zeros:",
            "    landscape decks are corrected too. Off by twice the reading: your printer turns",
            "    landscape pages the other way; build and calibrate with --landscape-turn "
            f"{'cw' if landscape_turn == 'ccw' else 'ccw'}.",
        ]
    if offset != (0.0, 0.0):
        lines.append(f"This sheet was printed with --back-offset {offset[0]:g},{offset[1]:g}: "
                     "the scales already include it.")
    top = h / 2 + 48
    c.setFillColor(INK)
    c.setFont(bold, 11)
    c.drawCentredString(mm(w / 2), mm(top + 12), "cardforge — duplex calibration")
    c.setFont(font, 7)
    c.drawCentredString(mm(w / 2), mm(top + 7),
                        f"{_orientation(page).upper()} sheet, {w:g}×{h:g} mm, {duplex} duplex — front page")
    y = top
    for line in lines:
        c.drawString(mm(w / 2 - 62), mm(y), line)
        y -= 3.6
