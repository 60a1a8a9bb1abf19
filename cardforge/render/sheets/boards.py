"""Boards: a title band, zones placed on a grid, at a position or flowing, and a footer stamp.

``plan_board`` lays a board out and returns every problem (a zone whose text does not fit, a
zone outside the board…) without drawing; ``draw_board`` paints a plan at a position on a page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.data.printables import Board, Zone
from cardforge.markup import plain_text
from cardforge.problems import Problem
from cardforge.render.drawing.drawing_assets import BUILT_IN, DrawingAssets
from cardforge.render.drawing.richtext import TextLayout, TextOverflow, draw_layout
from cardforge.render.sheets.blocks import Flow, Overflow, Theme, fit_box_text, fit_flow
from cardforge.render.sheets.printing import PrintContext, band_title, clamp, draw_band, draw_stamp, stamp_right
from cardforge.units import mm

ZONE_PAD = 2.2  # mm inside a framed zone
ZONE_GAP = 3.0  # mm between flowing zones
HEADER_GAP = 3.0  # mm below the title band
FOOTER = 4.0  # mm for the footer stamp


@dataclass
class ZonePlan:
    zone: Zone
    x: float  # bottom-left, points, in board coordinates
    y: float
    w: float
    h: float
    title: TextLayout | None
    title_h: float
    flow: Flow | None


@dataclass
class BoardPlan:
    board: Board
    size: tuple[float, float]  # mm
    theme: Theme
    title: TextLayout | None
    subtitle: TextLayout | None
    band: tuple[float, float, float, float]  # x, y, w, h in points
    zones: list[ZonePlan] = field(default_factory=list)
    origin: str = ""
    frame: float = 0.0  # the frame's inset from the board's edge, points
    margin: float = 0.0  # the content's, points
    name: str = ""  # what the footer calls it: its title (and subtitle where titles repeat)


def board_theme(board: Board, size_mm: tuple[float, float], accent: str,
                assets: DrawingAssets = BUILT_IN) -> Theme:
    short = min(size_mm)
    body = clamp(short * 0.072, 8.5, 11.0)
    return Theme(body=body, floor=6.0, accent=board.colour or accent, assets=assets)


def plan_board(board: Board, size_mm: tuple[float, float], ctx: PrintContext, content: dict[str, list[Any]],
               origin: str, edge: float = 0.0, name: str | None = None) -> tuple[BoardPlan | None, list[Problem]]:
    """Lay ``board`` out at ``size_mm``. ``content``: zone id → its blocks (generated blocks
    already resolved). ``edge`` (mm): how far inside its edge the board's ink must stay (a
    board printed edge to edge with the paper: the printer margin); the frame, drawn at about
    half the board's margin, moves in to it, and the content with it if it must. Returns
    (plan, problems); the plan is None when anything is wrong."""
    problems: list[Problem] = []
    item = f"board '{board.id}'"

    def problem(message: str, zone: str | None = None) -> None:
        problems.append(Problem(message, file=origin, item=item, field=f"zone '{zone}'" if zone else None))

    W, H = mm(size_mm[0]), mm(size_mm[1])
    theme = board_theme(board, size_mm, ctx.accent, ctx.assets)
    frame = max(mm(board.margin) * 0.55, mm(edge) + 0.6)  # 0.6 pt: half the frame's line
    m = max(mm(board.margin), frame + mm(1.5))
    if 2 * m >= min(W, H):
        problem(f"margin {board.margin:g} mm leaves no room on a {size_mm[0]:g}×{size_mm[1]:g} mm board")
        return None, problems
    band_h = clamp(min(W, H) * 0.085, mm(9), mm(16))
    band = (m, H - m - band_h, W - 2 * m, band_h)
    pad = band_h * 0.3
    title_w = (W - 2 * m - 2 * pad) * (0.62 if board.subtitle else 1.0)
    title = subtitle = None
    try:
        title = band_title(board.title, title_w, band_h * 0.8, band_h * 0.42, assets=ctx.assets)
    except TextOverflow as exc:
        problem(f"title does not fit the title band ({exc.describe()})")
    if board.subtitle:
        try:
            subtitle = fit_box_text(board.subtitle, W - 2 * m - 2 * pad - title_w - pad, band_h * 0.8,
                                    band_h * 0.26, 5.5, color="#ffffff", align="right", assets=ctx.assets)
        except TextOverflow as exc:
            problem(f"subtitle does not fit the title band ({exc.describe()})")
    plan = BoardPlan(board, size_mm, theme, title, subtitle, band, origin=origin, frame=frame, margin=m,
                     name=name if name is not None else plain_text(board.title))

    # the content area, below the band and above the footer
    left, right = m, W - m
    top = H - m - band_h - mm(HEADER_GAP)
    bottom = m + mm(FOOTER)
    if top - bottom < mm(5):
        problem("no room left for zones below the title band")
        return None, problems
    boxes = _place_zones(board, left, right, top, bottom, W, H, problem)
    for zone, box in zip(board.zones, boxes):
        if box is None:
            continue
        plan.zones.append(_plan_zone(zone, box, theme, content.get(zone.id, zone.content), problem))
    return (None if problems else plan), problems


def _place_zones(board: Board, left: float, right: float, top: float, bottom: float, W: float, H: float,
                 problem: Callable[..., None]) -> list[tuple[float, float, float, float] | None]:
    """Each zone's box (x, y, w, h) in points, bottom-left origin."""
    boxes: list[tuple[float, float, float, float] | None] = [None] * len(board.zones)
    width, height = right - left, top - bottom
    if board.grid is not None:
        g = board.grid
        gap = mm(g.gap)
        cw = (width - (g.columns - 1) * gap) / g.columns
        ch = (height - (g.rows - 1) * gap) / g.rows
    flowing = []
    for i, zone in enumerate(board.zones):
        if zone.cell is not None and board.grid is not None:
            c = zone.cell
            x = left + (c.col - 1) * (cw + gap)
            w = c.cols * cw + (c.cols - 1) * gap
            h = c.rows * ch + (c.rows - 1) * gap
            y = top - (c.row - 1) * (ch + gap) - h
            boxes[i] = (x, y, w, h)
        elif zone.at is not None:
            a = zone.at
            x, w, h = mm(a.x), mm(a.width), mm(a.height)
            y = H - mm(a.y) - h
            if x < -0.01 or y < -0.01 or x + w > W + 0.01 or y + h > H + 0.01:
                problem(f"the box at x {a.x:g} mm, y {a.y:g} mm, {a.width:g}×{a.height:g} mm lies outside "
                        f"the {W / mm(1):g}×{H / mm(1):g} mm board", zone.id)
                continue
            boxes[i] = (x, y, w, h)
        else:
            flowing.append(i)
    if flowing:
        gap = mm(ZONE_GAP)
        heights = [board.zones[i].height for i in flowing]
        fixed = sum(mm(zh) for zh in heights if zh is not None)
        free = [i for i in flowing if board.zones[i].height is None]
        room = height - gap * (len(flowing) - 1) - fixed
        if room < -0.01 or (free and room < mm(5) * len(free)):
            ids = ", ".join(board.zones[i].id for i in flowing)
            problem(f"the flowing zones ({ids}) need more height than the board has "
                    f"({fixed / mm(1):.1f} mm fixed of {height / mm(1):.1f} mm)")
            return boxes
        share = room / len(free) if free else 0.0
        y = top
        for i in flowing:
            zone = board.zones[i]
            h = mm(zone.height) if zone.height is not None else share
            boxes[i] = (left, y - h, width, h)
            y -= h + gap
    return boxes


def _plan_zone(zone: Zone, box: tuple[float, float, float, float], theme: Theme, blocks: list[Any],
               problem: Callable[..., None]) -> ZonePlan:
    x, y, w, h = box
    pad = mm(ZONE_PAD) if zone.frame else mm(0.5)
    title = None
    title_h = 0.0
    if zone.title:
        try:
            title = fit_box_text(zone.title, w - 2 * pad, min(h * 0.4, theme.body * 2.4), theme.body * 1.08,
                                 theme.floor, bold=True, color=theme.accent, align="left", assets=theme.assets)
            title_h = title.height + mm(1.6)
        except TextOverflow as exc:
            problem(f"title does not fit ({exc.describe()})", zone.id)
    flow = None
    inner_h = h - title_h - 2 * pad
    inner_w = w - 2 * pad
    if inner_h < mm(2) or inner_w < mm(2):
        problem(f"the zone is too small ({w / mm(1):.1f}×{h / mm(1):.1f} mm) for its content", zone.id)
    else:
        try:
            flow = fit_flow(blocks, inner_w, inner_h, theme)
        except Overflow as exc:
            problem(exc.describe(), zone.id)
    return ZonePlan(zone, x, y, w, h, title, title_h, flow)


def draw_board(c: Canvas, plan: BoardPlan, ctx: PrintContext, x: float, y: float) -> None:
    """Paint a planned board with its bottom-left corner at (x, y)."""
    W, H = mm(plan.size[0]), mm(plan.size[1])
    theme = plan.theme
    c.saveState()
    c.translate(x, y)
    m = plan.margin
    c.setStrokeColor(HexColor(theme.accent))
    c.setLineWidth(1.2)
    inset = plan.frame
    c.roundRect(inset, inset, W - 2 * inset, H - 2 * inset, mm(2.5), stroke=1, fill=0)
    bx, by, bw, bh = plan.band
    pad = bh * 0.3
    texts = []
    title_w = (bw - 2 * pad) * (0.62 if plan.subtitle else 1.0)
    if plan.title is not None:
        texts.append((plan.title, pad, title_w))
    if plan.subtitle is not None:
        texts.append((plan.subtitle, pad + title_w + pad, bw - 2 * pad - title_w - pad))
    draw_band(c, bx, by, bw, bh, theme.accent, mm(1.5), [])
    for layout, dx, lw in texts:
        draw_layout(c, layout, bx + dx, by + bh * 0.1, lw, bh * 0.8)
    for zp in plan.zones:
        _draw_zone(c, zp, theme)
    _ = ctx.t.gettext
    label = plan.name if plan.name.lower().startswith(_("board")) else _("board {name}", name=plan.name)
    draw_stamp(c, f"{ctx.game.title} · {label}",
               stamp_right(ctx.version, plan.board.provenance, ctx.t), m, m + mm(0.8), W - 2 * m, lang=ctx.t.lang)
    c.restoreState()


def _draw_zone(c: Canvas, zp: ZonePlan, theme: Theme) -> None:
    zone = zp.zone
    pad = mm(ZONE_PAD) if zone.frame else mm(0.5)
    c.saveState()
    if zone.frame or zone.fill:
        c.setStrokeColor(HexColor(theme.rule))
        c.setLineWidth(0.8)
        if zone.fill:
            c.setFillColor(HexColor(zone.fill))
        c.roundRect(zp.x, zp.y, zp.w, zp.h, mm(1.8), stroke=1 if zone.frame else 0,
                    fill=1 if zone.fill else 0)
    c.restoreState()
    top = zp.y + zp.h - pad
    if zp.title is not None:
        draw_layout(c, zp.title, zp.x + pad, top - zp.title.height, zp.w - 2 * pad, zp.title.height)
        c.saveState()
        c.setStrokeColor(HexColor(theme.accent))
        c.setLineWidth(0.5)
        ry = top - zp.title_h + mm(0.7)
        c.line(zp.x + pad, ry, zp.x + zp.w - pad, ry)
        c.restoreState()
        top -= zp.title_h
    if zp.flow is not None:
        zp.flow.paint(c, zp.x + pad, top)
