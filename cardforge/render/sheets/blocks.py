"""Content blocks laid out in a column: headings, text, numbered steps, bullets, tables, icon
legends, tracks of numbered spaces and empty slots.

Aids, board zones and setup sheets all use this one engine. A flow of blocks is laid out at a
*scale* (every text size multiplied by it); :func:`fit_flow` finds the largest scale, down to
the theme's floor size, at which the flow fits its box, or raises :class:`Overflow` with what
was needed. Laying out is separate from drawing: a :class:`Laid` block knows its height and
paints itself later, so a whole build can be checked before a single file is written.

Text goes through the shared rich-text engine (:mod:`cardforge.render.drawing.richtext`), which caches
layouts by content: the same aid printed for five players is laid out once.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import Color, HexColor, white
from reportlab.pdfgen.canvas import Canvas

from cardforge.i18n import messages
from cardforge.render.drawing.drawing_assets import BUILT_IN, DrawingAssets
from cardforge.render.drawing.richtext import TextLayout, TextOverflow, TextStyle, draw_layout, fit_text, measure
from cardforge.render.fonts import font_name, metrics
from cardforge.units import format_mm, mm

BIG = 1e6  # "no height limit" for measuring


@dataclass(frozen=True)
class Theme:
    """Sizes (pt) and colours of a printable. ``body`` is the text size at scale 1; ``floor``
    the smallest size shrinking may reach."""

    body: float = 9.0
    floor: float = 6.0
    accent: str = "#4a3b2a"
    ink: str = "#1a1a1a"
    muted: str = "#6b6b6b"
    rule: str = "#b9b2a6"
    tint: str = "#f1ece3"
    #: the game's own fonts and icons (its ``icons/`` tokens in the text, its legend icons)
    assets: DrawingAssets = BUILT_IN

    @property
    def min_scale(self) -> float:
        return min(1.0, self.floor / self.body)


class Overflow(Exception):
    """Content does not fit its box even at the floor size."""

    def __init__(self, needed: float, available: float, size: float, too_wide: str | None = None,
                 where: str | None = None):
        self.needed, self.available, self.size, self.too_wide, self.where = needed, available, size, too_wide, where
        super().__init__(self.describe())

    def describe(self) -> str:
        what = f"{self.where}: " if self.where else ""
        if self.too_wide is not None:
            return f"{what}{self.too_wide!r} is too wide for its box even at {self.size:g} pt"
        return (f"{what}text does not fit (needs {format_mm(self.needed)}, has {format_mm(self.available)} "
                f"at the {self.size:g} pt floor)")


Painter = Callable[[Canvas, float, float], None]  # (canvas, x, top)


@dataclass
class Laid:
    """A block laid out at one width and scale: its height and how to paint it."""

    height: float
    paint: Painter
    gap_after: float = 0.0


class _TooWide(Exception):
    def __init__(self, word: str, where: str | None = None):
        self.word, self.where = word, where
        super().__init__(word)


# --- text helpers ----------------------------------------------------------------------------

def text_layout(markup: str, width: float, size: float, *, bold: bool = False, italic: bool = False,
                color: str = "#1a1a1a", align: str = "left", leading: float = 1.2,
                where: str | None = None, assets: DrawingAssets = BUILT_IN) -> TextLayout:
    """Lay out ``markup`` at exactly ``size`` in ``width`` (any height). _TooWide if a word
    does not fit the width."""
    style = TextStyle(size=round(size * 4) / 4 or 0.25, min_size=None, leading=leading, color=color,
                      align=align, bold=bold, italic=italic, assets=assets)
    try:
        return fit_text(markup, max(width, 1.0), BIG, style)
    except TextOverflow as exc:
        raise _TooWide(exc.too_wide or markup, where) from None


def paint_text(c: Canvas, layout: TextLayout, x: float, top: float, width: float) -> None:
    draw_layout(c, layout, x, top - layout.height, width, layout.height)


def first_line_middle(layout: TextLayout) -> float:
    """Distance from the top of a layout to the middle of its first line."""
    return layout.style.leading * layout.size / 2


def fit_box_text(markup: str, width: float, height: float, size: float, floor: float, *,
                 bold: bool = False, color: str = "#1a1a1a", align: str = "center",
                 valign: str = "middle", assets: DrawingAssets = BUILT_IN) -> TextLayout:
    """Shrink-to-fit in a fixed box (track and slot labels). TextOverflow below ``floor``."""
    style = TextStyle(size=max(round(size * 4) / 4, 0.25), min_size=min(floor, size), leading=1.15,
                      color=color, align=align, valign=valign, bold=bold, assets=assets)
    return fit_text(markup, max(width, 1.0), max(height, 1.0), style)


def _natural_widths(markup: str, bold: bool, assets: DrawingAssets = BUILT_IN) -> tuple[float, float]:
    """(longest word, longest line) of ``markup`` at 1 pt."""
    longest_word = longest_line = 0.0
    for para in measure(markup, "sans", bold, False, "#1a1a1a", assets):
        for segment in para:
            line = 0.0
            for i, word in enumerate(segment):
                longest_word = max(longest_word, word.width)
                line += word.width + (word.space_before if i else 0.0)
            longest_line = max(longest_line, line)
    return longest_word, longest_line


def _rgb(value: str) -> Color:
    return HexColor(value)


# --- blocks ----------------------------------------------------------------------------------

def block_size(block: Any, theme: Theme, scale: float) -> float:
    return (getattr(block, "size", None) or theme.body) * scale


def lay_block(block: Any, width: float, scale: float, theme: Theme, fill_height: float | None = None) -> Laid:
    """Lay out one block. ``fill_height``: tracks and slots stretch to it (a zone of their own)."""
    kind = block.kind
    size = max(round(block_size(block, theme, scale) * 4) / 4, 1.0)  # quarter points, as set
    if kind == "heading":
        return _heading(block, width, size, theme)
    if kind == "text":
        align = getattr(block, "align", None) or "left"
        layout = text_layout(block.text, width, size, color=theme.ink, align=align, assets=theme.assets)
        return Laid(layout.height, lambda c, x, top: paint_text(c, layout, x, top, width), 0.55 * size)
    if kind in ("steps", "checklist"):
        return _steps(block, width, size, theme, numbered=True, boxes=kind == "checklist")
    if kind == "bullets":
        return _steps(block, width, size, theme, numbered=False)
    if kind == "table":
        return _table(block, width, size, theme)
    if kind == "legend":
        return _legend(block, width, size, theme)
    if kind == "track":
        return _track(block, width, size, theme, fill_height)
    if kind == "slots":
        return _slots(block, width, size, theme, fill_height)
    raise ValueError(f"block kind {kind!r} cannot be laid out (unresolved 'generated' block?)")


def _heading(block: Any, width: float, size: float, theme: Theme) -> Laid:
    level = getattr(block, "level", None) or 1
    hsize = size * (1.28 if level == 1 else 1.1)
    layout = text_layout(block.text, width, hsize, bold=True, color=theme.accent,
                         align=getattr(block, "align", None) or "left", assets=theme.assets)
    rule_gap = 0.22 * size if level == 1 else 0.0
    height = layout.height + rule_gap

    def paint(c: Canvas, x: float, top: float) -> None:
        paint_text(c, layout, x, top, width)
        if level == 1:
            y = top - layout.height - rule_gap * 0.4
            c.saveState()
            c.setStrokeColor(_rgb(theme.accent))
            c.setLineWidth(0.7)
            c.line(x, y, x + width, y)
            c.restoreState()

    return Laid(height, paint, 0.3 * size)


def _steps(block: Any, width: float, size: float, theme: Theme, *, numbered: bool, boxes: bool = False) -> Laid:
    lead = 1.2 * size
    if numbered:
        badge = 1.2 * size
        indent = badge + 0.45 * size
    else:
        badge = 0.36 * size
        indent = 0.95 * size
    box = 1.0 * size if boxes else 0.0
    if boxes:
        indent += box + 0.4 * size
    start = getattr(block, "start", None) or 1
    items = [(i, text_layout(t, width - indent, size, color=theme.ink, assets=theme.assets))
             for i, t in enumerate(block.items, start)]
    gap = 0.28 * size
    height = sum(layout.height for _, layout in items) + gap * (len(items) - 1)

    def paint(c: Canvas, x: float, top: float) -> None:
        y = top
        for number, layout in items:
            mid = y - lead / 2
            c.saveState()
            bx = x
            if boxes:
                c.setStrokeColor(_rgb(theme.ink))
                c.setLineWidth(0.8)
                c.rect(bx, mid - box / 2, box, box, stroke=1, fill=0)
                bx += box + 0.4 * size
            if numbered:
                c.setFillColor(_rgb(theme.accent))
                c.circle(bx + badge / 2, mid, badge / 2, stroke=0, fill=1)
                label = str(number)
                fs = size * (0.78 if len(label) < 2 else 0.62)
                fname = font_name("sans", True)
                asc, desc = metrics(fname)
                c.setFillColor(white)
                c.setFont(fname, fs)
                c.drawCentredString(bx + badge / 2, mid - (asc + desc) * fs / 2, label)
            else:
                c.setFillColor(_rgb(theme.accent))
                c.circle(bx + badge / 2 + 0.1 * size, mid, badge / 2, stroke=0, fill=1)
            c.restoreState()
            paint_text(c, layout, x + indent, y, width - indent)
            y -= layout.height + gap

    return Laid(height, paint, 0.55 * size)


def _column_widths(cells: list[list[tuple[str, bool]]], n: int, width: float, size: float, pad: float,
                   weights: Sequence[float] | None, assets: DrawingAssets = BUILT_IN) -> list[float]:
    lo = [0.0] * n
    hi = [0.0] * n
    for row in cells:
        for j, (markup, bold) in enumerate(row):
            word, line = _natural_widths(markup, bold, assets)
            lo[j] = max(lo[j], word * size + 2 * pad)
            hi[j] = max(hi[j], line * size + 2 * pad)
    if sum(lo) > width + 1e-6:
        # name the column's longest word: that is what does not fit
        j = max(range(n), key=lambda k: lo[k])
        longest = max((m for row in cells for k, (m, _) in enumerate(row) if k == j),
                      key=lambda m: _natural_widths(m, False, assets)[0])
        raise _TooWide(longest, f"table column {j + 1}")
    if weights:
        return _weighted(width, [width * w / sum(weights) for w in weights], lo)
    if sum(hi) <= width:
        extra = width - sum(hi)
        total = sum(hi) or 1.0
        return [h + extra * h / total for h in hi]
    spread = sum(top - low for top, low in zip(hi, lo)) or 1.0
    room = width - sum(lo)
    return [low + room * (top - low) / spread for top, low in zip(hi, lo)]


def _weighted(width: float, wanted: list[float], lo: list[float]) -> list[float]:
    """The designer's proportions, except that no column gets narrower than its longest word:
    those are widened and the others give up room in proportion."""
    widths = list(wanted)
    for _ in range(len(widths)):
        short = [j for j, w in enumerate(widths) if w < lo[j] - 1e-6]
        if not short:
            break
        for j in short:
            widths[j] = lo[j]
        free = [j for j in range(len(widths)) if widths[j] > lo[j] + 1e-6]
        excess = sum(widths) - width
        room = sum(widths[j] - lo[j] for j in free)
        if room <= 0:
            break
        for j in free:
            widths[j] -= excess * (widths[j] - lo[j]) / room
    return widths


_SHORT_CELL = 7


def _plain(markup: str) -> str:
    return re.sub(r":[a-z][a-z0-9-]*:", "#", re.sub(r"\*\*|\*|<[^>]+>", "", markup))


def _table(block: Any, width: float, size: float, theme: Theme) -> Laid:
    columns = list(block.columns) if getattr(block, "columns", None) else None
    rows = [list(r) for r in block.rows]
    n = len(columns) if columns else len(rows[0])
    header_col = bool(getattr(block, "header_column", None))
    pad = 0.35 * size
    vpad = 0.22 * size
    cells = ([[(m, True) for m in columns]] if columns else []) + [
        [(m, header_col and j == 0) for j, m in enumerate(r)] for r in rows]
    widths = _column_widths(cells, n, width, size, pad, getattr(block, "widths", None), theme.assets)
    # centre short columns (numbers, numerals), left-align prose
    align = []
    for j in range(n):
        short = all(len(_plain(r[j]).strip()) <= _SHORT_CELL for r in rows)
        align.append("center" if short else "left")
    laid_rows: list[tuple[float, list[TextLayout], bool]] = []
    for i, row in enumerate(cells):
        is_header = columns is not None and i == 0
        layouts = [text_layout(m, widths[j] - 2 * pad, size, bold=b, color=theme.ink,
                               align="center" if is_header and align[j] == "center" else align[j],
                               where=f"table column {j + 1}", assets=theme.assets)
                   for j, (m, b) in enumerate(row)]
        laid_rows.append((max(lay.height for lay in layouts) + 2 * vpad, layouts, is_header))
    height = sum(h for h, _, _ in laid_rows)

    def paint(c: Canvas, x: float, top: float) -> None:
        c.saveState()
        y = top
        for index, (h, layouts, is_header) in enumerate(laid_rows):
            if is_header:
                c.setFillColor(_rgb(theme.tint))
                c.rect(x, y - h, width, h, stroke=0, fill=1)
            elif (index - (1 if columns else 0)) % 2 == 1:
                c.setFillColor(_rgb("#f8f6f2"))
                c.rect(x, y - h, width, h, stroke=0, fill=1)
            cx = x
            for j, lay in enumerate(layouts):
                inner = widths[j] - 2 * pad
                # centre vertically in the row
                ty = y - vpad - (h - 2 * vpad - lay.height) / 2
                paint_text(c, lay, cx + pad, ty, inner)
                cx += widths[j]
            y -= h
            if index < len(laid_rows) - 1:
                c.setStrokeColor(_rgb(theme.rule))
                c.setLineWidth(0.9 if is_header else 0.4)
                c.line(x, y, x + width, y)
        c.setStrokeColor(_rgb(theme.rule))
        c.setLineWidth(0.4)
        cx = x
        for w in widths[:-1]:
            cx += w
            c.line(cx, top, cx, top - height)
        c.setLineWidth(0.7)
        c.rect(x, top - height, width, height, stroke=1, fill=0)
        c.restoreState()

    return Laid(height, paint, 0.6 * size)


def _legend(block: Any, width: float, size: float, theme: Theme) -> Laid:
    icon = 1.45 * size
    col = icon * max(theme.assets.icon_width(i.icon) for i in block.icons) + 0.5 * size
    lead = 1.2 * size
    entries = []
    for item in block.icons:
        label = f"**{item.shown_label(theme.assets.files, theme.assets.lang)}**"
        text = messages(theme.assets.lang).gettext("{key}: {value}", key=label, value=item.text) if item.text \
            else label
        lay = text_layout(text, width - col, size, color=theme.ink, assets=theme.assets)
        entries.append((item.icon, lay, max(lay.height, icon)))
    gap = 0.3 * size
    height = sum(h for _, _, h in entries) + gap * (len(entries) - 1)

    def paint(c: Canvas, x: float, top: float) -> None:
        y = top
        for name, lay, h in entries:
            mid = y - max(lead, icon) / 2
            w = icon * theme.assets.icon_width(name)
            theme.assets.draw_icon(c, name, x + (col - 0.5 * size - w) / 2, mid - icon / 2, icon)
            text_top = y - (max(lead, icon) - lead) / 2
            paint_text(c, lay, x + col, text_top, width - col)
            y -= h + gap

    return Laid(height, paint, 0.55 * size)


# --- tracks and slots -------------------------------------------------------------------------

def _best_grid(n: int, width: float, height: float, aspect: float) -> tuple[int, int, float]:
    """Columns, rows and cell width that make the largest cells of ``aspect`` (h/w) fit."""
    best = (n, 1, 0.0)
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        w = min(width / cols, height / (rows * aspect))
        if w > best[2] + 1e-9:
            best = (cols, rows, w)
    return best


def _border_cells(n: int, width: float, height: float) -> tuple[float, float, list[tuple[float, float]]]:
    """Cells around the edge of a width × height box, clockwise from the top-left, as square
    as the box allows; returns the cell width and height and each cell's top-left offset
    (x right, y down)."""
    lo, hi = 1.0, min(width, height) / 2
    for _ in range(40):
        mid = (lo + hi) / 2
        cols, rows = int(width // mid), int(height // mid)
        count = 2 * cols + 2 * max(rows - 2, 0) if rows >= 2 else cols
        if count >= n:
            lo = mid
        else:
            hi = mid
    side = lo
    cols, rows = max(int(width // side), 1), max(int(height // side), 1)
    sx = width / cols  # stretch to close the ring exactly
    sy = height / rows
    cells = [(i * sx, 0.0) for i in range(cols)]
    cells += [((cols - 1) * sx, r * sy) for r in range(1, rows)]
    if rows > 1:
        cells += [(i * sx, (rows - 1) * sy) for i in range(cols - 2, -1, -1)]
        cells += [(0.0, r * sy) for r in range(rows - 2, 0, -1)]
    return sx, sy, cells[:n]


def _track(block: Any, width: float, size: float, theme: Theme, fill_height: float | None) -> Laid:
    labels = block.space_labels
    notes = dict(getattr(block, "notes", None) or {})
    aspect = 1.45 if notes else 1.0  # cell height / width
    cw, ch, cells, height, x_shift = _track_cells(block, len(labels), width, size, fill_height, aspect)
    inset = min(cw, ch) * 0.08
    label_h = (ch if not notes else ch * 0.42) - 2 * inset
    tpad = max(2.0, 0.07 * (cw - 2 * inset))  # text keeps clear of the rounded border
    label_size, note_size = min(size * 1.6, min(cw, ch) * 0.45, label_h * 0.7), size * 0.95
    laid = _track_texts(labels, notes, cells, (cw, ch, inset, label_h, tpad), (label_size, note_size), theme)

    def paint(c: Canvas, x: float, top: float) -> None:
        c.saveState()
        c.setLineWidth(0.8)
        for ox, oy, lab, note in laid:
            bx, by = x + x_shift + ox + inset, top - oy - ch + inset
            c.setStrokeColor(_rgb(theme.accent))
            c.setFillColor(_rgb("#fbfaf7"))
            c.roundRect(bx, by, cw - 2 * inset, ch - 2 * inset, min(cw, ch) * 0.08, stroke=1, fill=1)
            ltop = by + ch - 2 * inset
            draw_layout(c, lab, bx + 1, ltop - label_h, cw - 2 * inset - 2, label_h)
            if note is not None:
                nh = ch - label_h - 3 * inset
                draw_layout(c, note, bx + 1, by + inset / 2, cw - 2 * inset - 2, nh)
        c.restoreState()

    return Laid(height, paint, 0.55 * size)


def _track_cells(block: Any, n: int, width: float, size: float, fill_height: float | None,
                 aspect: float) -> tuple[float, float, list[tuple[float, float]], float, float]:
    """A track's cells: their width and height, each one's offset from the block's top left, the
    block's height and the shift that centres the cells."""
    shape = getattr(block, "shape", None) or "row"
    per_row = getattr(block, "per_row", None)
    if shape == "border" and fill_height is not None:
        cw, ch, cells = _border_cells(n, width, fill_height)
        return cw, ch, cells, fill_height, 0.0
    if shape == "column":
        cols = 1
    elif per_row:
        cols = min(per_row, n)
    elif shape in ("grid", "border"):
        cols = (_best_grid(n, width, fill_height, aspect)[0] if fill_height is not None
                else math.ceil(math.sqrt(n)))
    else:
        cols = n
    rows = math.ceil(n / cols)
    if fill_height is not None:
        cw = width / cols
        ch = min(fill_height / rows, cw * aspect * 1.3)
        cw = min(cw, ch / aspect * 1.6)  # no very wide, flat cells
    else:
        cw = min(width / cols, mm(16) * size / 9)
        ch = cw * aspect
    cells = [((i % cols) * cw, (i // cols) * ch) for i in range(n)]
    return cw, ch, cells, ch * rows, (width - cols * cw) / 2


def _track_texts(labels: list[str], notes: dict[str, str], cells: list[tuple[float, float]],
                 box: tuple[float, float, float, float, float], sizes: tuple[float, float], theme: Theme
                 ) -> list[tuple[float, float, Any, Any]]:
    """Each space's label (and note) laid out, all at the smallest size one of them needed.
    ``box``: a cell's width and height, its inset, its label's height and the text's padding."""
    cw, ch, inset, label_h, tpad = box
    label_size, note_size = sizes
    floor = theme.floor
    for _ in range(2):  # a second pass sets every space at the smallest size one of them needed
        laid: list[tuple[float, float, Any, Any]] = []
        for (ox, oy), label in zip(cells, labels):
            try:
                lab = fit_box_text(label, cw - 2 * inset - 2 * tpad, label_h, label_size, floor, bold=True,
                                   color=theme.ink, assets=theme.assets)
            except TextOverflow as exc:
                raise _TooWide(exc.too_wide or label, f"track space {label!r}") from None
            note = None
            if label in notes:
                nh = ch - label_h - 3 * inset
                try:
                    note = fit_box_text(notes[label], cw - 2 * inset - 2 * tpad, nh, note_size, floor,
                                        color=theme.ink, valign="top", assets=theme.assets)
                except TextOverflow as exc:
                    raise Overflow(exc.needed, exc.available, exc.size, exc.too_wide,
                                   f"note of track space {label!r}") from None
            laid.append((ox, oy, lab, note))
        smallest = (min(lab.size for _, _, lab, _ in laid),
                    min((note.size for _, _, _, note in laid if note is not None), default=note_size))
        if smallest == (label_size, note_size):
            break
        label_size, note_size = smallest
    return laid


def _slots(block: Any, width: float, size: float, theme: Theme, fill_height: float | None) -> Laid:
    labels = block.slot_labels
    n = len(labels)
    per_row = min(getattr(block, "per_row", None) or n, n)
    rows = math.ceil(n / per_row)
    gap = mm(2)
    fixed = getattr(block, "slot", None)
    if fixed is not None:
        sw, sh = mm(fixed.width), mm(fixed.height)
        if per_row * sw + (per_row - 1) * gap > width + 0.5:
            raise Overflow(per_row * sw + (per_row - 1) * gap, width, size,
                           where="slots", too_wide=f"{per_row} slots of {fixed.width:g} mm")
    else:
        sw = (width - (per_row - 1) * gap) / per_row
        sh = ((fill_height - (rows - 1) * gap) / rows) if fill_height is not None else mm(18) * size / 9
    height = rows * sh + (rows - 1) * gap
    if fill_height is not None and fixed is not None and height > fill_height + 0.5:
        raise Overflow(height, fill_height, size)
    total_w = per_row * sw + (per_row - 1) * gap
    laid = []
    for i, label in enumerate(labels):
        lab = None
        if label:
            try:
                lab = fit_box_text(label, sw - mm(3), sh - mm(3), size, theme.floor, color=theme.muted,
                                   assets=theme.assets)
            except TextOverflow as exc:
                raise Overflow(exc.needed, exc.available, exc.size, exc.too_wide, f"slot {i + 1}") from None
        laid.append(((i % per_row) * (sw + gap), (i // per_row) * (sh + gap), lab))

    def paint(c: Canvas, x: float, top: float) -> None:
        x0 = x + (width - total_w) / 2
        c.saveState()
        c.setStrokeColor(_rgb(theme.rule))
        c.setLineWidth(0.8)
        c.setDash(3, 2)
        for ox, oy, lab in laid:
            c.roundRect(x0 + ox, top - oy - sh, sw, sh, min(sw, sh) * 0.06, stroke=1, fill=0)
        c.setDash()
        for ox, oy, lab in laid:
            if lab is not None:
                draw_layout(c, lab, x0 + ox + mm(1.5), top - oy - sh + mm(1.5), sw - mm(3), sh - mm(3))
        c.restoreState()

    return Laid(height, paint, 0.55 * size)


# --- flows -----------------------------------------------------------------------------------

@dataclass
class Flow:
    """Blocks laid out at one scale: total height and how to paint them."""

    blocks: list[Laid]
    height: float
    scale: float

    def paint(self, c: Canvas, x: float, top: float) -> None:
        y = top
        for i, laid in enumerate(self.blocks):
            laid.paint(c, x, y)
            y -= laid.height + (laid.gap_after if i < len(self.blocks) - 1 else 0.0)


def lay_flow(blocks: Sequence[Any], width: float, scale: float, theme: Theme,
             fill_height: float | None = None) -> Flow:
    """Lay out blocks top to bottom. A single track or slots block fills ``fill_height``."""
    if fill_height is not None and len(blocks) == 1 and blocks[0].kind in ("track", "slots"):
        laid = [lay_block(blocks[0], width, scale, theme, fill_height)]
    else:
        laid = [lay_block(b, width, scale, theme) for b in blocks]
    height = sum(b.height for b in laid) + sum(b.gap_after for b in laid[:-1])
    return Flow(laid, height, scale)


def fit_flow(blocks: Sequence[Any], width: float, height: float, theme: Theme,
             min_scale: float | None = None, max_scale: float = 1.0) -> Flow:
    """The largest scale (``max_scale`` down to the theme's floor, in 2 % steps) at which the
    blocks fit ``width`` × ``height``; Overflow otherwise."""
    floor_scale = min(theme.min_scale if min_scale is None else min_scale, max_scale)

    def attempt(scale: float) -> Flow | _TooWide | Overflow:
        try:
            flow = lay_flow(blocks, width, scale, theme, height)
        except (_TooWide, Overflow) as exc:
            return exc
        return flow if flow.height <= height + 0.01 else Overflow(flow.height, height, theme.body * scale)

    first = attempt(max_scale)
    if isinstance(first, Flow):
        return first
    if max_scale > 1.0:
        at_one = attempt(1.0)
        if isinstance(at_one, Flow):
            return _search(attempt, 1.0, max_scale, at_one)
    last = attempt(floor_scale)
    if not isinstance(last, Flow):
        size = round(theme.body * floor_scale * 4) / 4
        if isinstance(last, _TooWide):
            raise Overflow(0.0, width, size, last.word, last.where)
        if isinstance(last, Overflow) and (last.too_wide or last.where):
            raise last
        raise Overflow(last.needed, height, size)
    return _search(attempt, floor_scale, min(1.0, max_scale), last)


def _search(attempt: Callable[[float], Flow | _TooWide | Overflow], lo: float, hi: float, best: Flow) -> Flow:
    """Bisect between ``lo`` (fits, laid out as ``best``) and ``hi`` (does not fit)."""
    while hi - lo > 0.02:
        mid = (lo + hi) / 2
        trial = attempt(mid)
        if isinstance(trial, Flow):
            lo, best = mid, trial
        else:
            hi = mid
    return best
