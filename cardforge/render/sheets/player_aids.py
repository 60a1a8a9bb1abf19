"""Player aids: a framed card or half page, a title band, blocks flowing top to bottom, a
footer stamp; a back side when the aid has one. Text is shrunk as a whole to fit a side."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.data.printables import Aid
from cardforge.markup import plain_text
from cardforge.problems import Problem
from cardforge.render.drawing.drawing_assets import BUILT_IN, DrawingAssets
from cardforge.render.drawing.richtext import TextLayout, TextOverflow
from cardforge.render.sheets.blocks import Flow, Overflow, Theme, fit_flow
from cardforge.render.sheets.printing import PrintContext, band_title, clamp, draw_band, draw_stamp, stamp_right
from cardforge.units import mm

GROW = 1.25  # an aid's text may grow up to this much to fill its side…
GROW_TO = 9.0  # …or, on small aids (cards), up to this body size in points


def max_scale(theme: Theme) -> float:
    """How much an aid's text may grow to fill its side."""
    return max(GROW, GROW_TO / theme.body)


@dataclass
class SidePlan:
    title: TextLayout
    flow: Flow


@dataclass
class AidPlan:
    aid: Aid
    size: tuple[float, float]  # mm
    theme: Theme
    front: SidePlan
    back: SidePlan | None
    origin: str = ""
    edge: float = 0.0  # mm: how far inside its edge the aid's ink stays (printed edge to edge with the paper)


@dataclass(frozen=True)
class AidGeometry:
    """Frame, title band and content box of an aid side, in points from its bottom-left."""

    inset: float
    band: tuple[float, float, float, float]
    content: tuple[float, float, float, float]  # x, y, w, h
    footer_y: float
    stamp_size: float


def aid_geometry(size_mm: tuple[float, float], edge: float = 0.0) -> AidGeometry:
    """The aid's frame, band and content box; ``edge`` (mm): the frame stays at least that far
    inside the aid's edge (and half its line more)."""
    W, H = mm(size_mm[0]), mm(size_mm[1])
    short = min(size_mm)
    inset = max(mm(clamp(short * 0.05, 2.2, 8.0)), mm(edge) + 0.5)
    band_h = mm(clamp(short * 0.1, 6.5, 12.0))
    pad = mm(clamp(short * 0.035, 2.0, 5.0))
    stamp = 5.0 if short < 90 else 5.5
    footer = stamp * 1.6
    band = (inset, H - inset - band_h, W - 2 * inset, band_h)
    cx = inset + pad
    cy = inset + footer + pad * 0.8  # clear of the footer stamp
    ctop = H - inset - band_h - pad * 0.8
    return AidGeometry(inset, band, (cx, cy, W - 2 * cx, ctop - cy), inset + stamp * 0.8, stamp)


def aid_theme(aid: Aid, size_mm: tuple[float, float], accent: str, assets: DrawingAssets = BUILT_IN) -> Theme:
    body = clamp(min(size_mm) * 0.07, 6.5, 9.5)
    return Theme(body=body, floor=6.0, accent=aid.colour or accent, assets=assets)


def plan_aid(aid: Aid, size_mm: tuple[float, float], ctx: PrintContext, front: list[Any], back: list[Any] | None,
             origin: str, edge: float = 0.0) -> tuple[AidPlan | None, list[Problem]]:
    """Lay out both sides; every side that does not fit is a problem naming the aid and side."""
    problems: list[Problem] = []
    geo = aid_geometry(size_mm, edge)
    theme = aid_theme(aid, size_mm, ctx.accent, ctx.assets)
    titles: dict[str, TextLayout] = {}
    flows: dict[str, Flow] = {}
    x, y, w, h = geo.content
    bx, by, bw, bh = geo.band
    for side, title, blocks in (("front", aid.title, front), ("back", aid.back_title or aid.title, back)):
        if blocks is None:
            continue
        try:
            titles[side] = band_title(title, bw - 2 * bh * 0.3, bh * 0.85, bh * 0.5, assets=ctx.assets)
        except TextOverflow as exc:
            problems.append(Problem(f"title does not fit the title band ({exc.describe()})", file=origin,
                                    item=f"aid '{aid.id}'", field=side))
        try:
            flows[side] = fit_flow(blocks, w, h, theme, max_scale=max_scale(theme))
        except Overflow as exc:
            problems.append(Problem(exc.describe(), file=origin, item=f"aid '{aid.id}'", field=side))
    if problems:
        return None, problems
    sides = {side: SidePlan(titles[side], flows[side]) for side in flows}
    return AidPlan(aid, size_mm, theme, sides["front"], sides.get("back"), origin, edge), []


def draw_aid_side(c: Canvas, plan: AidPlan, side: str, ctx: PrintContext, x: float, y: float,
                  rotated: bool = False) -> None:
    """Paint one side with its bottom-left corner at (x, y); ``rotated``: turned 180° in place."""
    sp = plan.front if side == "front" else plan.back
    if sp is None:
        return
    geo = aid_geometry(plan.size, plan.edge)
    W, H = mm(plan.size[0]), mm(plan.size[1])
    theme = plan.theme
    c.saveState()
    if rotated:
        c.translate(x + W, y + H)
        c.rotate(180)
    else:
        c.translate(x, y)
    c.setStrokeColor(HexColor(theme.accent))
    c.setLineWidth(1.0)
    c.roundRect(geo.inset, geo.inset, W - 2 * geo.inset, H - 2 * geo.inset, mm(2.2), stroke=1, fill=0)
    bx, by, bw, bh = geo.band
    draw_band(c, bx, by, bw, bh, theme.accent, mm(1.6), [(sp.title, bh * 0.3, bw - 2 * bh * 0.3)])
    cx, cy, cw, ch = geo.content
    sp.flow.paint(c, cx, cy + ch)
    title = plan.aid.title if side == "front" else (plan.aid.back_title or plan.aid.title)
    _ = ctx.t.gettext
    label = _("{title} · player aid · {aid}", title=ctx.game.title, aid=plain_text(title)) \
        + (_(" · back") if side == "back" else "")
    draw_stamp(c, label, stamp_right(ctx.version, plan.aid.provenance, ctx.t), geo.inset + mm(2.5), geo.footer_y,
               W - 2 * geo.inset - mm(5), size=geo.stamp_size, lang=ctx.t.lang)
    c.restoreState()
