"""Reading what a printed page shows a reader: every line of text with its size (pt), its ink and
the colour behind it, from the PDF itself (pypdfium2 text page + a rasterised page); colour
vision deficiency simulation. Used by ``test_accessibility.py``.

Sizes come from the text page (the effective size of each glyph: its font size × the scale of
its matrix, text matrix × CTM, so a form drawn scaled is measured as printed); the ink is each glyph's fill colour;
the colour behind it is the most frequent colour of the rasterised page inside the glyph's box,
leaving out pixels near the ink (the glyph itself and its anti-aliased edge). No OCR.

The contrast *seen* (issue 38) is measured on the page alone: the page rasterised at 144 dpi
(``SCALE``: one pixel is 0.18 mm, about one minute of arc — the eye's acuity — for a card read
on the table 60 cm away), the glyph's colour is the pixel of its boxes that stands out most
from the colour behind once the top tenth is left out (``GLYPH_QUANTILE``: the cores of its
strokes, not a stray pixel of a neighbour). Thin and small strokes never reach their full ink
at that size: 5 pt #6b6b6b on TunHell's beige declares 4.5:1 and is seen at 2.7:1.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw

SCALE = 2.0  # pixels per point (144 dpi) when rasterising for the background and the glyphs seen
GLYPH_QUANTILE = 0.9  # the glyph's colour: this quantile of its pixels, by contrast with the background
PT_PER_MM = 72 / 25.4


@dataclass
class Run:
    """Consecutive glyphs of one line with the same size, ink and direction."""

    size: float
    ink: tuple[int, int, int]
    angle: int
    text: str = ""
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)


@dataclass
class TextLine:
    page: int
    runs: list[Run]

    @property
    def text(self) -> str:
        return "".join(r.text for r in self.runs).strip()


def text_lines(page, index: int) -> list[TextLine]:
    textpage = page.get_textpage()
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    matrix = raw.FS_MATRIX()
    lines: list[TextLine] = []
    line: TextLine | None = None
    for i in range(textpage.count_chars()):
        ch = chr(raw.FPDFText_GetUnicode(textpage, i))
        if ch in "\r\n":
            line = None
            continue
        if raw.FPDFText_IsGenerated(textpage, i):
            continue
        raw.FPDFText_GetMatrix(textpage, i, matrix)  # text matrix × CTM: forms drawn scaled
        size = round(raw.FPDFText_GetFontSize(textpage, i) * math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c)), 2)
        raw.FPDFText_GetFillColor(textpage, i, r, g, b, a)
        ink = (r.value, g.value, b.value)
        angle = round(math.degrees(raw.FPDFText_GetCharAngle(textpage, i))) % 360
        if line is None:
            line = TextLine(index, [])
            lines.append(line)
        if not line.runs or (line.runs[-1].size, line.runs[-1].ink, line.runs[-1].angle) != (size, ink, angle):
            line.runs.append(Run(size, ink, angle))
        run = line.runs[-1]
        run.text += ch
        if not ch.isspace():
            run.boxes.append(textpage.get_charbox(i))
    return lines


def relative_luminance(rgb) -> float:
    def lin(v: float) -> float:
        v /= 255.0
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2])


def contrast(a, b) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (1 to 21)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def background(image, page_height: float, run: Run):
    """The most frequent colour behind ``run``'s glyphs (pixels close to the ink left out)."""
    counts: dict[tuple, int] = {}
    pad = max(1, round(0.2 * run.size * SCALE))  # a margin round each glyph: thin ones (I, l) too
    for left, bottom, right, top in run.boxes:
        box = (int(left * SCALE) - pad, int((page_height - top) * SCALE) - pad,
               int(math.ceil(right * SCALE)) + pad, int(math.ceil((page_height - bottom) * SCALE)) + pad)
        area = max(1, (box[2] - box[0]) * (box[3] - box[1]))
        for n, colour in image.crop(box).getcolors(area) or ():
            counts[colour] = counts.get(colour, 0) + n
    ir, ig, ib = run.ink
    counts = {c: n for c, n in counts.items() if abs(c[0] - ir) + abs(c[1] - ig) + abs(c[2] - ib) > 60}
    if not counts:
        return None
    return max(counts.items(), key=lambda item: item[1])[0]


def seen_ink(image, page_height: float, run: Run, behind) -> tuple[int, int, int] | None:
    """The colour of ``run``'s glyphs as rasterised: of the pixels inside the glyphs' boxes that
    differ from ``behind`` (the background), the one at ``GLYPH_QUANTILE`` by contrast with it.
    None when no pixel differs (nothing drawn where the text page puts the glyphs)."""
    counts: dict[tuple, int] = {}
    for left, bottom, right, top in run.boxes:
        box = (int(left * SCALE), int((page_height - top) * SCALE),
               int(math.ceil(right * SCALE)), int(math.ceil((page_height - bottom) * SCALE)))
        area = max(1, (box[2] - box[0]) * (box[3] - box[1]))
        for n, colour in image.crop(box).getcolors(area) or ():
            counts[colour] = counts.get(colour, 0) + n
    lb = relative_luminance(behind)
    ranked = sorted((abs(relative_luminance(c) - lb), c, n) for c, n in counts.items())
    ranked = [(d, c, n) for d, c, n in ranked if d > 0.005]  # the background and its noise left out
    total = sum(n for _, _, n in ranked)
    if not total:
        return None
    at, seen = GLYPH_QUANTILE * total, 0
    for _, colour, n in ranked:
        seen += n
        if seen >= at:
            return colour
    return ranked[-1][1]


@dataclass
class Finding:
    file: str
    page: int
    text: str  # the line
    run: str  # the run of that size and ink in it
    size: float
    ink: tuple
    behind: tuple | None
    ratio: float | None  # the ink declared (the text's fill colour) against the background
    seen: tuple | None = None  # the glyphs' colour as rasterised (``seen_ink``)
    seen_ratio: float | None = None  # the contrast a reader sees: ``seen`` against the background


def read_pdf(path: Path) -> list[Finding]:
    """Every text run of every page of ``path``, with its size, ink, background and contrast."""
    out = []
    doc = pdfium.PdfDocument(str(path))
    try:
        for index in range(len(doc)):
            page = doc[index]
            image = page.render(scale=SCALE).to_pil().convert("RGB")
            height = page.get_height()
            for line in text_lines(page, index):
                for run in line.runs:
                    if not run.boxes:
                        continue
                    behind = background(image, height, run)
                    ratio = seen = seen_ratio = None
                    if behind is not None:
                        ratio = contrast(run.ink, behind)
                        seen = seen_ink(image, height, run, behind)
                        seen_ratio = contrast(seen, behind) if seen is not None else None
                    out.append(Finding(path.name, index, line.text, run.text.strip(), run.size, run.ink, behind,
                                       ratio, seen, seen_ratio))
    finally:
        doc.close()
    return out


# --- colour vision ------------------------------------------------------------------------------

#: Machado, Oliveira & Fernandes (2009), deuteranomaly at severity 1.0 (deuteranopia), on linear RGB
DEUTERANOPIA = ((0.367322, 0.860646, -0.227968),
                (0.280085, 0.672501, 0.047413),
                (-0.011820, 0.042940, 0.968881))


def _to_linear(v: float) -> float:
    v /= 255.0
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _to_srgb(v: float) -> int:
    v = min(max(v, 0.0), 1.0)
    v = v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(v * 255)


def deuteranopia(rgb) -> tuple[int, int, int]:
    lin = [_to_linear(c) for c in rgb]
    return tuple(_to_srgb(sum(row[k] * lin[k] for k in range(3))) for row in DEUTERANOPIA)


def grey(rgb) -> int:
    """Luma (ITU-R 601), as a greyscale print or photocopy would."""
    return round(0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2])
