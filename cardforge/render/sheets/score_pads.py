"""Score pads: one row per score category, exactly the game's ``categories`` in order (the very
list its scoring engine emits), one column per possible player, a total row and the
tie-breakers under it; several pads per sheet when they fit.

``pad_layout`` is the geometry alone (no drawing), so tests can check it without a PDF.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.games.base import Game
from cardforge.i18n import Messages, messages
from cardforge.problems import Problem
from cardforge.render.drawing.richtext import TextLayout, TextOverflow, draw_layout
from cardforge.render.fonts import font_name
from cardforge.render.sheets.blocks import fit_box_text
from cardforge.render.sheets.playtest import BAND_MM as PLAYTEST_BAND_MM
from cardforge.render.sheets.playtest import draw_link
from cardforge.render.sheets.printing import (
    PrintContext,
    band_title,
    clamp,
    draw_band,
    draw_stamp,
    ink_inset,
    stamp_right,
)
from cardforge.settings import BuildSettings
from cardforge.units import mm

# natural heights in mm; rows stretch (up to ROW_MAX) when a sheet holds fewer pads
BAND = 10.0
DATE = 8.0
HEADER = 11.0
ROW = 8.5
ROW_MAX = 12.0
TOTAL = 9.5
TIE_LINE = 4.2
FOOTER = 4.5
GAP = 2.0
MAX_PER_SHEET = 4


def tie_break_lines(game: Game, t: Messages | None = None) -> list[str]:
    """What prints under the total: the tie-breakers in order, or that ties are shared (in
    ``t``'s language; default: the game's)."""
    _ = (t or messages(game.language)).gettext
    if not game.tie_breakers:
        return [_("Ties: players who tie share the place.")]
    labels = [tb.label for tb in game.tie_breakers]
    text = labels[0] + "".join(f", {label}" for label in labels[1:])
    return [_("{tie_breakers}; otherwise, players who tie share the place.", tie_breakers=text)]


def row_labels(game: Game) -> list[str]:
    """Each category's label as printed: its icon (when set) then its label (the game's words)."""
    return [(f":{c.icon}: " if c.icon else "") + c.label for c in game.categories]


@dataclass(frozen=True)
class PadLayout:
    """One pad's geometry in points, from its top-left corner (y grows downwards)."""

    width: float
    height: float
    players: int
    label_w: float
    col_w: float
    band_h: float
    date_h: float
    header_h: float
    row_h: float
    total_h: float
    tie_h: float
    footer_h: float

    @property
    def columns(self) -> int:
        """Label column + one per player."""
        return 1 + self.players

    def column_x(self, index: int) -> float:
        """Left edge of column ``index`` (0 = labels) from the pad's left."""
        return 0.0 if index == 0 else self.label_w + (index - 1) * self.col_w

    @property
    def table_top(self) -> float:
        return self.band_h + self.date_h

    def row_top(self, index: int) -> float:
        """Top of category row ``index`` (0-based) from the pad's top."""
        return self.table_top + self.header_h + index * self.row_h


def natural_height(game: Game) -> float:
    lines = len(tie_break_lines(game))
    return mm(BAND + DATE + HEADER + ROW * len(game.categories) + TOTAL + TIE_LINE * lines + 2 + FOOTER)


def pad_layout(game: Game, width: float, height: float) -> PadLayout:
    """The pad's geometry in a ``width`` × ``height`` box (points)."""
    n = len(game.categories)
    players = game.max_players
    label_w = clamp(width * 0.3, mm(38), mm(62))
    col_w = (width - label_w) / players
    lines = len(tie_break_lines(game))
    fixed = mm(BAND + DATE + HEADER + TOTAL + TIE_LINE * lines + 2 + FOOTER)
    row_h = clamp((height - fixed) / max(n, 1), mm(ROW) * 0.9, mm(ROW_MAX))
    used = fixed + row_h * n
    return PadLayout(width, used, players, label_w, col_w, mm(BAND), mm(DATE), mm(HEADER), row_h, mm(TOTAL),
                     mm(TIE_LINE) * lines + mm(2), mm(FOOTER))


def pads_per_sheet(game: Game, sheet_h: float) -> int:
    return int(clamp(math.floor((sheet_h + mm(GAP)) / (natural_height(game) + mm(GAP))), 1, MAX_PER_SHEET))


@dataclass
class PadPlan:
    layout: PadLayout
    per_sheet: int
    page: tuple[float, float]
    origin: tuple[float, float]  # top-left of the first pad, points from the page's bottom-left
    slot_h: float
    labels: list[TextLayout]
    title: TextLayout
    players: list[TextLayout]
    tie: list[TextLayout]
    total: TextLayout
    joueurs: TextLayout


def pad_margin(settings: BuildSettings) -> float:
    """The sheet's border around the pads (mm): ``--margin`` (5 by default), and at least the
    printer margin with a little to spare."""
    return max(settings.margin_mm if settings.margin_mm is not None else 5.0, ink_inset(settings))


def plan_pads(ctx: PrintContext) -> tuple[PadPlan | None, list[Problem]]:
    game = ctx.game
    _ = ctx.t.gettext
    problems: list[Problem] = []
    item = "score pad"
    pw, ph = (mm(v) for v in ctx.settings.paper_mm)
    m = mm(pad_margin(ctx.settings))
    usable_w, usable_h = pw - 2 * m, ph - 2 * m
    if ctx.playtest is not None:  # the playtest link's band at the bottom of the sheet
        usable_h -= mm(PLAYTEST_BAND_MM + GAP)
    k = pads_per_sheet(game, usable_h)
    slot_h = (usable_h - (k - 1) * mm(GAP) * 2) / k
    layout = pad_layout(game, usable_w, slot_h - mm(1))
    if layout.height > slot_h + 0.5:
        problems.append(Problem(f"the pad needs {layout.height / mm(1):.1f} mm, the sheet has "
                                f"{slot_h / mm(1):.1f} mm", item=item))
        return None, problems
    size = 9.5
    labels = []
    for cat, markup in zip(game.categories, row_labels(game)):
        try:
            labels.append(fit_box_text(markup, layout.label_w - mm(4), layout.row_h - mm(1.5), size, 6.0,
                                       color="#1a1a1a", align="left", assets=ctx.assets))
        except TextOverflow as exc:
            problems.append(Problem(f"label does not fit its row ({exc.describe()})", item=item,
                                    field=f"category '{cat.id}'"))
    title = None
    try:
        title = band_title(_("{title} — score pad", title=game.title), usable_w - mm(6), layout.band_h * 0.8, 13.0,
                           assets=ctx.assets)
    except TextOverflow as exc:
        problems.append(Problem(f"title does not fit ({exc.describe()})", item=item))
    players = [fit_box_text(_("Player {number}", number=i), layout.col_w - mm(2), mm(3.2), 6.5, 6.0, color="#2f2f2f",
                            align="left", valign="top", assets=ctx.assets) for i in range(1, layout.players + 1)]
    tie = []
    for line in tie_break_lines(game, ctx.t):
        try:
            tie.append(fit_box_text(f"*{line}*", usable_w - mm(2), mm(TIE_LINE), 8.5, 6.0, color="#3a3a3a",
                                    align="left", assets=ctx.assets))
        except TextOverflow as exc:
            problems.append(Problem(f"tie-breaker does not fit ({exc.describe()})", item=item))
    total = fit_box_text("**" + _("Total") + "**", layout.label_w - mm(4), layout.total_h - mm(2), 10.5, 6.0,
                         align="left", assets=ctx.assets)
    joueurs = fit_box_text("**" + _("Players") + "**", layout.label_w - mm(4), layout.header_h - mm(2), 9.5, 6.0,
                           align="left", assets=ctx.assets)
    if problems or title is None:  # no title: a problem was reported
        return None, problems
    return PadPlan(layout, k, (pw, ph), (m, ph - m), slot_h + mm(GAP) * 2, labels, title, players, tie,
                   total, joueurs), []


def draw_pad_sheet(c: Canvas, plan: PadPlan, ctx: PrintContext) -> None:
    """The pads of one sheet, each centred in its share of the page, cut lines between."""
    ox, oy = plan.origin
    for i in range(plan.per_sheet):
        top = oy - i * plan.slot_h
        _draw_pad(c, plan, ctx, ox, top - (plan.slot_h - mm(GAP) * 2 - plan.layout.height) / 2)
        if i:  # a dashed cut line between pads
            c.saveState()
            c.setStrokeColor(HexColor("#9a9a9a"))
            c.setLineWidth(0.5)
            c.setDash(4, 3)
            y = top + mm(GAP)
            inset = mm(ink_inset(ctx.settings))
            c.line(inset, y, plan.page[0] - inset, y)
            c.restoreState()
    if ctx.playtest is not None:
        m = mm(pad_margin(ctx.settings))
        draw_link(c, ctx.playtest, ox, m, plan.page[0] - 2 * m, mm(PLAYTEST_BAND_MM))


def _draw_pad(c: Canvas, plan: PadPlan, ctx: PrintContext, x: float, top: float) -> None:
    L = plan.layout
    accent = ctx.accent

    def Y(d: float) -> float:  # distance from the pad's top → page y
        return top - d

    draw_band(c, x, Y(L.band_h), L.width, L.band_h, accent, mm(1.5), [(plan.title, mm(3), L.width - mm(6))])
    # date line
    c.saveState()
    c.setFont(font_name("sans"), 9)
    c.setFillColor(HexColor("#1a1a1a"))
    base = Y(L.band_h + L.date_h * 0.62)
    c.drawString(x + mm(1), base, ctx.t.gettext("Date:"))
    c.setStrokeColor(HexColor("#8a8a8a"))
    c.setLineWidth(0.5)
    c.line(x + mm(13), base - 1.5, x + mm(70), base - 1.5)
    c.restoreState()
    t0 = L.table_top
    n = len(plan.labels)
    table_h = L.header_h + n * L.row_h + L.total_h
    c.saveState()
    # fills: header tint, zebra rows, total row
    c.setFillColor(HexColor("#f1ece3"))
    c.rect(x, Y(t0 + L.header_h), L.width, L.header_h, stroke=0, fill=1)
    c.setFillColor(HexColor("#f8f6f2"))
    for r in range(1, n, 2):
        c.rect(x, Y(L.row_top(r) + L.row_h), L.width, L.row_h, stroke=0, fill=1)
    c.setFillColor(HexColor("#e9e2d4"))
    c.rect(x, Y(t0 + table_h), L.width, L.total_h, stroke=0, fill=1)
    # grid
    c.setStrokeColor(HexColor("#8f887c"))
    c.setLineWidth(0.5)
    for r in range(1, n + 1):
        y = Y(L.row_top(r - 1))
        c.line(x, y, x + L.width, y)
    c.setLineWidth(1.3)
    c.line(x, Y(L.row_top(n)), x + L.width, Y(L.row_top(n)))
    c.setLineWidth(0.5)
    for col in range(1, L.columns):
        cx = x + L.column_x(col)
        c.line(cx, Y(t0), cx, Y(t0 + table_h))
    c.setLineWidth(1.0)
    c.rect(x, Y(t0 + table_h), L.width, table_h, stroke=1, fill=0)
    c.restoreState()
    # texts
    pad = mm(2)
    draw_layout(c, plan.joueurs, x + pad, Y(t0 + L.header_h) + mm(1), L.label_w - 2 * pad, L.header_h - mm(2))
    for i, lay in enumerate(plan.players):
        cx = x + L.column_x(i + 1)
        draw_layout(c, lay, cx + mm(1), Y(t0) - mm(1) - mm(3.2), L.col_w - mm(2), mm(3.2))
    for r, lay in enumerate(plan.labels):
        draw_layout(c, lay, x + pad, Y(L.row_top(r) + L.row_h) + mm(0.75), L.label_w - 2 * pad, L.row_h - mm(1.5))
    draw_layout(c, plan.total, x + pad, Y(t0 + table_h) + mm(1), L.label_w - 2 * pad, L.total_h - mm(2))
    ty = t0 + table_h + mm(1)
    for lay in plan.tie:
        draw_layout(c, lay, x + mm(1), Y(ty + mm(TIE_LINE)), L.width - mm(2), mm(TIE_LINE))
        ty += mm(TIE_LINE)
    draw_stamp(c, ctx.t.gettext("{title} · score pad", title=ctx.game.title), stamp_right(ctx.version, None, ctx.t),
               x + mm(1), Y(L.height) + mm(1.2), L.width - mm(2), size=5.5, lang=ctx.t.lang)
