"""Charts of plays and scores, drawn with ReportLab's own graphics (``reportlab.graphics``):
one :class:`~reportlab.graphics.shapes.Drawing` per chart, rendered to SVG for the web pages
(:func:`to_svg`, inline in the page: readable on a phone, printable) and drawable as is into a
PDF (``renderPDF.draw(drawing, canvas, x, y)``), so a printed report shows the same charts.

The charts take plain numbers and labels (nothing of the play log): what to count is the
caller's. They are made to be read without colour — every bar and line is labelled, lines
carry markers of different shapes — and the same input always gives the same bytes.

- :func:`bar_chart`: horizontal bars, one per label (a rate per player, an average per
  category), each with its value written beside it and, optionally, an interval.
- :func:`histogram`: vertical bars of counts per bin (a score distribution).
- :func:`stacked_bars`: horizontal bars cut into segments (each player's average total, by
  category), with a legend.
- :func:`line_chart`: series of points over an x axis (scores over time), labelled at their
  last point.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.graphics import renderSVG
from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Polygon, PolyLine, Rect, String
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from cardforge.render.fonts import font_name

WIDTH = 320.0  # points (= CSS px at 100 %): the web pages' chart on a wide screen, drawn up to 40rem wide
#: the web pages' chart on a phone: the same drawing laid out in fewer points, which the page
#: scales up to the room it has (at least 280 px on a 320 px phone), so its smallest text (the
#: axes', ``SIZE - 2`` = 9 points) shows at 14 px or more
PHONE_WIDTH = 180.0
#: a bar chart narrower than this writes each bar's label on a line of its own above the bar
#: (a phone's: a label column would leave the names a few letters and the bars no room)
LABELS_ABOVE_UNDER = 240.0
FONT = "Helvetica"
BOLD = "Helvetica-Bold"
SIZE = 11.0  # the smallest text: 11 px on a 360 px phone
TITLE_SIZE = 12.5
INK = colors.HexColor("#1d1d1f")
MUTED = colors.HexColor("#5f5f66")
GRID = colors.HexColor("#d8d8dc")
ACCENT = "#1F5FA8"
#: series colours (Okabe–Ito, told apart with colour-vision deficiencies), then markers' shapes
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
MARKERS = ("circle", "square", "triangle", "diamond")

SVG_NS = "http://www.w3.org/2000/svg"
_CSS_FONTS = {"Helvetica": "Helvetica, Arial, 'Liberation Sans', sans-serif"}


@dataclass(frozen=True)
class Bar:
    """One bar: ``value`` on the axis, ``text`` written at its end (``"60 % · 3 of 5"``),
    ``interval`` (low, high) drawn as a whisker (e.g. a Wilson interval)."""

    label: str
    value: float
    text: str = ""
    colour: str | None = None
    interval: tuple[float, float] | None = None
    mark: float | None = None  # a reference drawn as a dashed tick across the bar (a fair share)


@dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[tuple[float, float]]
    colour: str | None = None


def text_width(text: str, size: float = SIZE, font: str = FONT) -> float:
    """``text``'s width in points; characters outside the standard font's encoding are
    counted as a wide letter (the browser draws them in a font of its own)."""
    try:
        return float(stringWidth(text, font, size))
    except (UnicodeEncodeError, KeyError, ValueError):
        return sum(float(stringWidth(c, font, size)) if ord(c) < 256 else 0.6 * size for c in text)


def fit(text: str, room: float, size: float = SIZE, font: str = FONT) -> str:
    """``text`` shortened with an ellipsis to fit ``room`` points."""
    if text_width(text, size, font) <= room:
        return text
    while text and text_width(text + "…", size, font) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2, 2.5, 5 × 10ⁿ) cutting ``span`` into about ``ticks`` parts."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * power:
            return float(m * power)
    return float(10 * power)


def _label(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}".rstrip("0").rstrip(".")


def _axis_step(low: float, high: float, ticks: int, room: float, unit: str = "") -> float:
    """:func:`nice_step` cutting ``low``–``high`` into about ``ticks`` parts — fewer when the
    labels of the ticks, side by side along an axis ``room`` points long, would touch: a narrow
    chart (a phone's) gets fewer ticks, not overlapping ones; a wide one the same as ever."""
    while True:
        step = nice_step(high - low or 1, ticks)
        first = math.floor(low / step) * step
        count = int(round((math.ceil(high / step) * step - first) / step)) + 1
        widest = max(text_width(_label(first + k * step) + unit, SIZE - 2) for k in range(count))
        if ticks <= 1 or (count - 1) * (widest + 4) <= room:
            return step
        ticks -= 1


def _spaced(labels: Sequence[tuple[float, str, str]], size: float, gap: float = 6) -> list[tuple[float, str, str]]:
    """The labels ``(x, text, anchor)`` along an axis, left to right, leaving out any that would
    touch the one kept before it (the last is kept over the one before it)."""
    def span(label: tuple[float, str, str]) -> tuple[float, float]:
        x, text, anchor = label
        w = text_width(text, size)
        return {"start": (x, x + w), "end": (x - w, x)}.get(anchor, (x - w / 2, x + w / 2))

    ordered = sorted(labels, key=lambda lab: lab[0])
    kept: list[tuple[float, str, str]] = []
    for i, label in enumerate(ordered):
        if kept and span(kept[-1])[1] + gap > span(label)[0]:
            if i < len(ordered) - 1:
                continue  # touches the one kept before it: left out
            while kept and span(kept[-1])[1] + gap > span(label)[0]:
                kept.pop()  # the last label (the newest date, the last play) wins over those before it
        kept.append(label)
    return kept


def _start(title: str, note: str, width: float, body: float) -> tuple[Drawing, float]:
    """A drawing ``width`` wide with its title (and a note under it) on top and ``body`` points
    below them; the height the title and note take."""
    top = 24.0 + (14.0 if note else 0.0)
    d = Drawing(width, top + body)
    d.add(String(0, d.height - 14, fit(title, width, TITLE_SIZE, BOLD), fontName=BOLD, fontSize=TITLE_SIZE,
                 fillColor=INK))
    if note:
        d.add(String(0, d.height - 29, fit(note, width), fontName=FONT, fontSize=SIZE - 1, fillColor=MUTED))
    return d, top


def bar_chart(title: str, bars: Sequence[Bar], *, max_value: float | None = None, unit: str = "",
              width: float = WIDTH, note: str = "") -> Drawing:
    """Horizontal bars, one row per bar, its label on the left and its text on the right."""
    above = width < LABELS_ABOVE_UNDER
    row, gap = 22.0, 6.0 + (SIZE + 4 if above else 0.0)
    axis = 16.0
    d, top = _start(title, note, width, len(bars) * (row + gap) + axis + 4)
    height = d.height
    label_w = 0.0 if above else min(max((text_width(b.label) for b in bars), default=0) + 8, width * 0.34)
    text_w = min(max((text_width(b.text) for b in bars), default=0) + 6, width * (0.45 if above else 0.34))
    # the labels above: the axis starts where its first number ("0 %"), centred on it, still shows
    x0, x1 = (text_width("0" + unit, SIZE - 2) / 2 + 1 if above else label_w), width - text_w
    high = max_value if max_value is not None else max((max(b.value, b.interval[1] if b.interval else 0)
                                                       for b in bars), default=1) or 1
    scale = (x1 - x0) / high
    y_axis = axis
    step = _axis_step(0, high, 4, x1 - x0, unit)
    ys = [height - top - (i + 1) * (row + gap) + (6.0 if above else gap) for i in range(len(bars))]
    # the vertical lines (grid, axis) leave the labels above the bars clear
    spans = [(y_axis, height - top)]  # bottom to top; the rows go down from the top
    for y in (ys if above else []):
        low, up = spans.pop()  # the lowest span holds this row's label band: cut it out
        label_low, label_up = y + row + 1, y + row + 4 + SIZE
        spans += [(label_up, up)] if label_up < up else []
        spans += [(low, label_low)]
    tick = 0.0
    while tick <= high + 1e-9:
        x = x0 + tick * scale
        for a, b_ in spans:
            d.add(Line(x, a, x, b_, strokeColor=GRID, strokeWidth=0.6))
        d.add(String(x, y_axis - 12, _label(tick) + unit, fontName=FONT, fontSize=SIZE - 2, fillColor=MUTED,
                     textAnchor="middle"))
        tick += step
    for b, y in zip(bars, ys):
        if above:
            d.add(String(0, y + row + 4, fit(b.label, width), fontName=FONT, fontSize=SIZE, fillColor=INK))
        else:
            d.add(String(label_w - 6, y + row / 2 - 4, fit(b.label, label_w - 8), fontName=FONT, fontSize=SIZE,
                         fillColor=INK, textAnchor="end"))
        w = max(b.value, 0) * scale
        d.add(Rect(x0, y, max(w, 0.8), row, fillColor=colors.HexColor(b.colour or ACCENT), strokeColor=INK,
                   strokeWidth=0.5))
        if b.interval is not None:
            lo, hi = (x0 + v * scale for v in b.interval)
            mid = y + row / 2
            d.add(Line(lo, mid, hi, mid, strokeColor=INK, strokeWidth=1.2))
            for x in (lo, hi):
                d.add(Line(x, mid - 5, x, mid + 5, strokeColor=INK, strokeWidth=1.2))
        if b.mark is not None:
            x = x0 + b.mark * scale
            d.add(Line(x, y - 3, x, y + row + 3, strokeColor=INK, strokeWidth=1.1, strokeDashArray=[2.5, 1.5]))
        if b.text:
            end = x0 + max(w, (b.interval[1] * scale if b.interval else 0), (b.mark or 0) * scale) + 4
            d.add(String(min(end, x1 + 2), y + row / 2 - 4, b.text, fontName=FONT, fontSize=SIZE, fillColor=INK))
    for a, b_ in spans:
        d.add(Line(x0, a, x0, b_, strokeColor=INK, strokeWidth=0.8))
    return d


def histogram(title: str, bins: Sequence[tuple[float, float, int]], *, width: float = WIDTH,
              x_label: str = "", note: str = "") -> Drawing:
    """Vertical bars, one per bin ``(low, high, count)`` (``low`` ≤ value < ``high``), the count
    above each bar and the bins' bounds along the axis."""
    bottom = 30.0 + (12.0 if x_label else 0.0)
    plot_h = 130.0
    d, _ = _start(title, note, width, plot_h + bottom)
    left = 26.0
    most = max((c for _, _, c in bins), default=1) or 1
    n = max(len(bins), 1)
    slot = (width - left - 4) / n
    y0 = bottom
    step = max(1.0, nice_step(most, 4))
    tick = 0.0
    while tick <= most + 1e-9:
        y = y0 + tick / most * plot_h
        d.add(Line(left, y, width - 4, y, strokeColor=GRID, strokeWidth=0.6))
        d.add(String(left - 4, y - 4, _label(tick), fontName=FONT, fontSize=SIZE - 2, fillColor=MUTED,
                     textAnchor="end"))
        tick += step
    every = max(1, math.ceil(n / max(1, int((width - left) // 34))))  # bounds that fit under the bars
    for i, (low, _high, count) in enumerate(bins):
        x = left + i * slot
        h = count / most * plot_h
        if count:
            d.add(Rect(x + 1.5, y0, slot - 3, h, fillColor=colors.HexColor(ACCENT), strokeColor=INK,
                       strokeWidth=0.5))
            d.add(String(x + slot / 2, y0 + h + 3, str(count), fontName=FONT, fontSize=SIZE - 1, fillColor=INK,
                         textAnchor="middle"))
        if i % every == 0:
            d.add(String(x, y0 - 13, _label(low), fontName=FONT, fontSize=SIZE - 2, fillColor=MUTED,
                         textAnchor="middle"))
    if bins and len(bins) % every == 0:
        d.add(String(left + n * slot, y0 - 13, _label(bins[-1][1]), fontName=FONT, fontSize=SIZE - 2,
                     fillColor=MUTED, textAnchor="end"))
    d.add(Line(left, y0, width - 4, y0, strokeColor=INK, strokeWidth=0.8))
    if x_label:
        d.add(String(left + (width - left) / 2, 6, fit(x_label, width - left, SIZE - 1), fontName=FONT,
                     fontSize=SIZE - 1, fillColor=MUTED, textAnchor="middle"))
    return d


def stacked_bars(title: str, rows: Sequence[tuple[str, Sequence[float]]], segments: Sequence[str], *,
                 width: float = WIDTH, note: str = "") -> Drawing:
    """Horizontal bars cut into ``segments`` (same order in every row; negative parts left
    out), each row's total written at its end, and a legend of the segments: one a line,
    numbered in the bars when a part is wide enough."""
    above = width < LABELS_ABOVE_UNDER
    row, gap = 22.0, 6.0 + (SIZE + 4 if above else 0.0)
    legend_h = len(segments) * 15.0 + 6
    d, top = _start(title, note, width, len(rows) * (row + gap) + legend_h + 6)
    height = d.height
    label_w = 0.0 if above else min(max((text_width(r[0]) for r in rows), default=0) + 8, width * 0.3)
    totals = [sum(v for v in values if v > 0) for _, values in rows]
    text_w = max((text_width(_label(round(t, 1))) for t in totals), default=0) + 8
    x0, x1 = label_w, width - text_w
    scale = (x1 - x0) / (max(totals, default=1) or 1)
    for i, (label, values) in enumerate(rows):
        y = height - top - (i + 1) * (row + gap) + (6.0 if above else gap)  # the label above: in the slot
        if above:
            d.add(String(0, y + row + 4, fit(label, width), fontName=FONT, fontSize=SIZE, fillColor=INK))
        else:
            d.add(String(label_w - 6, y + row / 2 - 4, fit(label, label_w - 8), fontName=FONT, fontSize=SIZE,
                         fillColor=INK, textAnchor="end"))
        x = x0
        for k, v in enumerate(values):
            if v <= 0:
                continue
            w = v * scale
            d.add(Rect(x, y, w, row, fillColor=colors.HexColor(PALETTE[k % len(PALETTE)]), strokeColor=colors.white,
                       strokeWidth=1))
            if w >= 14:
                d.add(String(x + w / 2, y + row / 2 - 4, str(k + 1), fontName=BOLD, fontSize=SIZE - 1,
                             fillColor=colors.white if k % len(PALETTE) in (0, 1, 2, 6) else INK, textAnchor="middle"))
            x += w
        d.add(String(x + 4, y + row / 2 - 4, _label(round(totals[i], 1)), fontName=FONT, fontSize=SIZE,
                     fillColor=INK))
    for k, name in enumerate(segments):
        y = legend_h - 14 - k * 15.0
        d.add(Rect(0, y, 11, 11, fillColor=colors.HexColor(PALETTE[k % len(PALETTE)]), strokeColor=INK,
                   strokeWidth=0.4))
        d.add(String(16, y + 2, fit(f"{k + 1} {name}", width - 16), fontName=FONT, fontSize=SIZE - 1, fillColor=INK))
    return d


def _marker(kind: str, x: float, y: float, colour: colors.Color, scale: float = 1.0) -> Group:
    g = Group()
    r = 3.6 * scale
    if kind == "circle":
        g.add(Circle(x, y, r, fillColor=colour, strokeColor=colors.white, strokeWidth=0.8))
    elif kind == "square":
        g.add(Rect(x - r, y - r, 2 * r, 2 * r, fillColor=colour, strokeColor=colors.white, strokeWidth=0.8))
    elif kind == "triangle":
        g.add(Polygon([x - r - 0.6, y - r, x + r + 0.6, y - r, x, y + r + 0.6], fillColor=colour,
                      strokeColor=colors.white, strokeWidth=0.8))
    else:
        g.add(Polygon([x, y - r - 1, x + r + 1, y, x, y + r + 1, x - r - 1, y], fillColor=colour,
                      strokeColor=colors.white, strokeWidth=0.8))
    return g


def line_chart(title: str, series: Sequence[Series], *, x_labels: Sequence[tuple[float, str]] = (),
               width: float = WIDTH, y_unit: str = "", y_range: tuple[float, float] | None = None,
               note: str = "") -> Drawing:
    """Each series a line with a marker at every point (a shape per series) and its name at
    its last point; ``x_labels`` (x, text) along the axis."""
    bottom = 22.0
    plot_h = 150.0
    d, _ = _start(title, note, width, plot_h + bottom)
    xs = [x for s in series for x, _ in s.points] or [0.0, 1.0]
    ys = [y for s in series for _, y in s.points] or [0.0, 1.0]
    lo, hi = y_range if y_range is not None else (min(0.0, min(ys)), max(ys))
    step = nice_step(hi - lo or 1, 4)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step
    if hi <= lo:
        hi = lo + step
    name_w = min(max((text_width(s.name) for s in series), default=0) + 18, width * 0.3)
    left = max(text_width(_label(hi) + y_unit, SIZE - 2), text_width(_label(lo) + y_unit, SIZE - 2)) + 8
    x_lo, x_hi = min(xs), max(xs)
    span = (x_hi - x_lo) or 1.0
    plot_w = width - left - name_w

    def px(x: float) -> float:
        return left + (x - x_lo) / span * plot_w if x_hi > x_lo else left + plot_w / 2

    def py(y: float) -> float:
        return bottom + (y - lo) / (hi - lo) * plot_h

    tick = lo
    while tick <= hi + 1e-9:
        d.add(Line(left, py(tick), left + plot_w, py(tick), strokeColor=GRID, strokeWidth=0.6))
        d.add(String(left - 4, py(tick) - 4, _label(tick) + y_unit, fontName=FONT, fontSize=SIZE - 2,
                     fillColor=MUTED, textAnchor="end"))
        tick += step
    placed_labels = [(px(x), text, "start" if px(x) - left < 30 else "end" if left + plot_w - px(x) < 30
                      else "middle") for x, text in x_labels]  # the first starts at its point, the last ends there
    for x, text, anchor in _spaced(placed_labels, SIZE - 2):
        d.add(String(x, bottom - 14, text, fontName=FONT, fontSize=SIZE - 2, fillColor=MUTED, textAnchor=anchor))
    d.add(Line(left, bottom, left + plot_w, bottom, strokeColor=INK, strokeWidth=0.8))
    ends: list[tuple[float, int]] = []  # (y of the last point, series)
    for k, s in enumerate(series):
        colour = colors.HexColor(s.colour or PALETTE[k % len(PALETTE)])
        points = [(px(x), py(y)) for x, y in s.points]
        if len(points) > 1:
            d.add(PolyLine([c for p in points for c in p], strokeColor=colour, strokeWidth=1.6))
        for x, y in points:
            d.add(_marker(MARKERS[k % len(MARKERS)], x, y, colour))
        if points:
            ends.append((points[-1][1], k))
    _name_line_ends(d, series, ends, (left + plot_w, bottom, plot_h), name_w)
    return d


def _name_line_ends(d: Drawing, series: Sequence[Series], ends: list[tuple[float, int]],
                    frame: tuple[float, float, float], name_w: float) -> None:
    """Each series' name beside its line's end, with its marker: in the order of the ends, 13
    points apart, kept within the plot (``frame``: its right edge, bottom and height)."""
    right, bottom, plot_h = frame
    ends.sort()
    placed: list[float] = []
    for y, _ in ends:
        placed.append(max(y, placed[-1] + 13) if placed else y)
    overflow = (placed[-1] - (bottom + plot_h)) if placed else 0
    if overflow > 0:
        placed = [max(bottom, y - overflow) for y in placed]
    for (_, k), y in zip(ends, placed):
        s = series[k]
        colour = colors.HexColor(s.colour or PALETTE[k % len(PALETTE)])
        d.add(_marker(MARKERS[k % len(MARKERS)], right + 9, y, colour))
        d.add(String(right + 16, y - 4, fit(s.name, name_w - 18), fontName=FONT, fontSize=SIZE, fillColor=INK))


@dataclass(frozen=True)
class ScatterGroup:
    """Points of one group (``(x, y)``), drawn with the group's marker and colour, and its
    line (``(x0, y0, x1, y1)``) when it has one."""

    name: str
    points: Sequence[tuple[float, float]]
    line: tuple[float, float, float, float] | None = None
    colour: str | None = None


def scatter_chart(title: str, groups: Sequence[ScatterGroup], *, labels: Sequence[tuple[float, float, str]] = (),
                  x_label: str = "", y_label: str = "", width: float = WIDTH, note: str = "") -> Drawing:
    """Points by group (a marker shape and colour each, named in a legend under the plot), each
    group's line, and the points of ``labels`` ringed and named (an outlier); points that fall
    on the same spot are drawn once, the marker's area times their count."""
    plot_h = 190.0
    bottom = 30.0 + (12.0 if x_label else 0.0)
    legend_h = len(groups) * 15.0 + 4
    d, _ = _start(title, note, width, plot_h + bottom + legend_h + (12.0 if y_label else 0.0))
    xs = [x for g in groups for x, _ in g.points] + [v for g in groups if g.line for v in (g.line[0], g.line[2])]
    ys = [y for g in groups for _, y in g.points] + [v for g in groups if g.line for v in (g.line[1], g.line[3])]
    xs, ys = xs or [0.0, 1.0], ys or [0.0, 1.0]
    y_step = nice_step(max(ys) - min(0.0, min(ys)) or 1, 4)
    y_lo, y_hi = math.floor(min(0.0, min(ys)) / y_step) * y_step, math.ceil(max(ys) / y_step) * y_step
    y_hi = max(y_hi, y_lo + y_step)
    base = legend_h
    left = max(text_width(_label(y_hi), SIZE - 2), text_width(_label(y_lo), SIZE - 2)) + 8
    plot_w = width - left - 6
    x_step = _axis_step(min(0.0, min(xs)), max(xs), 5, plot_w)
    x_lo, x_hi = math.floor(min(0.0, min(xs)) / x_step) * x_step, math.ceil(max(xs) / x_step) * x_step
    x_hi = max(x_hi, x_lo + x_step)

    def px(x: float) -> float:
        return left + (x - x_lo) / (x_hi - x_lo) * plot_w

    def py(y: float) -> float:
        return base + bottom + (y - y_lo) / (y_hi - y_lo) * plot_h

    _scatter_grid(d, (x_lo, x_hi, x_step), (y_lo, y_hi, y_step), px, py, (left, base + bottom, plot_w, plot_h))
    d.add(Line(left, base + bottom, left + plot_w, base + bottom, strokeColor=INK, strokeWidth=0.8))
    d.add(Line(left, base + bottom, left, base + bottom + plot_h, strokeColor=INK, strokeWidth=0.8))
    if x_label:
        d.add(String(left + plot_w / 2, base + 6, x_label, fontName=FONT, fontSize=SIZE - 1, fillColor=MUTED,
                     textAnchor="middle"))
    if y_label:
        d.add(String(0, base + bottom + plot_h + 6, y_label, fontName=FONT, fontSize=SIZE - 1, fillColor=MUTED))
    for k, g in enumerate(groups):
        colour = colors.HexColor(g.colour or PALETTE[k % len(PALETTE)])
        if g.line is not None:
            x0, y0, x1, y1 = g.line
            d.add(Line(px(x0), py(y0), px(x1), py(y1), strokeColor=colour, strokeWidth=1.4))
        spots: dict[tuple[float, float], int] = {}
        for x, y in g.points:
            spots[(x, y)] = spots.get((x, y), 0) + 1
        for (x, y), n in sorted(spots.items()):  # a marker's area grows with the cards on its spot
            d.add(_marker(MARKERS[k % len(MARKERS)], px(x), py(y), colour, math.sqrt(n)))
        yl = legend_h - 14 - k * 15.0
        d.add(_marker(MARKERS[k % len(MARKERS)], 6, yl + 5, colour))
        d.add(String(16, yl + 1, fit(g.name, width - 16), fontName=FONT, fontSize=SIZE - 1, fillColor=INK))
    _ring_outliers(d, labels, px, py, left, plot_w)
    return d


def _scatter_grid(d: Drawing, xr: tuple[float, float, float], yr: tuple[float, float, float],
                  px: Callable[[float], float], py: Callable[[float], float],
                  frame: tuple[float, float, float, float]) -> None:
    """The grid lines and tick labels of a scatter plot: ``xr``/``yr`` (low, high, step),
    ``frame`` the plot's left, bottom, width and height."""
    x_lo, x_hi, x_step = xr
    y_lo, y_hi, y_step = yr
    left, bottom, plot_w, plot_h = frame
    tick = y_lo
    while tick <= y_hi + 1e-9:
        d.add(Line(left, py(tick), left + plot_w, py(tick), strokeColor=GRID, strokeWidth=0.6))
        d.add(String(left - 4, py(tick) - 4, _label(tick), fontName=FONT, fontSize=SIZE - 2, fillColor=MUTED,
                     textAnchor="end"))
        tick += y_step
    tick = x_lo
    while tick <= x_hi + 1e-9:
        d.add(Line(px(tick), bottom, px(tick), bottom + plot_h, strokeColor=GRID, strokeWidth=0.6))
        d.add(String(px(tick), bottom - 13, _label(tick), fontName=FONT, fontSize=SIZE - 2, fillColor=MUTED,
                     textAnchor="middle"))
        tick += x_step


def _ring_outliers(d: Drawing, labels: Sequence[tuple[float, float, str]], px: Callable[[float], float],
                   py: Callable[[float], float], left: float, plot_w: float) -> None:
    """Each outlier ringed and named beside it, never over another's name."""
    placed: list[tuple[float, float]] = []  # each outlier's name beside it, never over another's
    for x, y, text in sorted(labels, key=lambda t: (-t[1], t[0], t[2])):
        cx, cy = px(x), py(y)
        d.add(Circle(cx, cy, 8, fillColor=None, strokeColor=INK, strokeWidth=1.2))
        room_right = left + plot_w - cx - 10
        shown = fit(text, max(room_right, cx - left - 10, 40.0), SIZE - 1)
        w = text_width(shown, SIZE - 1)
        ty = cy - 4
        while any(abs(ty - other) < 12 and abs(cx - ox) < w + 20 for ox, other in placed):
            ty -= 12
        placed.append((cx, ty))
        if w <= room_right:
            d.add(String(cx + 10, ty, shown, fontName=BOLD, fontSize=SIZE - 1, fillColor=INK))
        else:
            d.add(String(cx - 10, ty, shown, fontName=BOLD, fontSize=SIZE - 1, fillColor=INK, textAnchor="end"))


def for_pdf(drawing: Drawing) -> Drawing:
    """``drawing`` with its text in the bundled DejaVu Sans (embedded: every character prints,
    as in every other PDF cardforge writes), each string at the size that keeps the width the
    chart was laid out for in Helvetica (never wider, so nothing overlaps). Changes it in place."""
    faces = {FONT: font_name(), BOLD: font_name(bold=True)}

    def walk(node: object) -> None:
        for child in getattr(node, "contents", []):
            if isinstance(child, String):
                face = faces.get(child.fontName)
                if face is not None:
                    laid = text_width(child.text, child.fontSize, child.fontName)
                    real = float(stringWidth(child.text, face, child.fontSize))
                    if real > laid > 0:
                        child.fontSize = round(child.fontSize * laid / real, 2)
                    child.fontName = face
            else:
                walk(child)

    walk(drawing)
    return drawing


# --- SVG ---------------------------------------------------------------------------------------

_PRESENTATION = {"fill", "stroke", "stroke-width", "stroke-linecap", "stroke-linejoin", "stroke-dasharray",
                 "stroke-opacity", "fill-opacity", "fill-rule", "font-family", "font-size", "font-weight",
                 "font-style", "text-anchor", "clip-path", "opacity"}


def to_svg(drawing: Drawing, *, title: str, desc: str = "", css_class: str = "chart") -> str:
    """``drawing`` as an ``<svg>`` element to put inline in a page: sized by its ``viewBox``
    (the page's CSS sets its width), its ``title`` and ``desc`` for screen readers, every style
    written as presentation attributes (no inline ``style``: the pages' content security
    policy forbids it), no ids (several charts share a page). Same drawing, same text."""
    raw = renderSVG.drawToString(drawing, useClip=True)
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    root = ET.fromstring(raw.encode("utf-8") if isinstance(raw, str) else raw)
    for el in root.iter():
        style = el.attrib.pop("style", None)
        if style:
            for part in style.split(";"):
                if ":" in part:
                    key, value = (t.strip() for t in part.split(":", 1))
                    if key in _PRESENTATION and value:
                        el.set(key, value)
        el.attrib.pop("id", None)
        el.attrib.pop("clip", None)  # renderSVG's clip (not an SVG attribute): the viewBox clips
        if el.get("transform") == "":
            del el.attrib["transform"]
        family = el.get("font-family")
        if family:  # the standard PDF fonts' names → the CSS families a browser has
            if family.endswith("-Bold"):
                el.set("font-weight", "bold")
            el.set("font-family", _CSS_FONTS.get(family.removesuffix("-Bold"), family))
    for tag in ("title", "desc"):
        for el in root.findall(f"{{{SVG_NS}}}{tag}"):
            root.remove(el)
    for name in ("width", "height"):
        root.attrib.pop(name, None)
    root.set("class", css_class)
    root.set("role", "img")
    heading = ET.Element(f"{{{SVG_NS}}}title")
    heading.text = title
    root.insert(0, heading)
    if desc:
        text = ET.Element(f"{{{SVG_NS}}}desc")
        text.text = desc
        root.insert(1, text)
    out = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return re.sub(r"\s*<g\s*/>", "", out)
