"""Rich text in a box: line breaking with inline icons, shrink-to-fit, drawing.

Card text is parsed once (:mod:`cardforge.markup`), measured once at 1 pt (widths scale
linearly), then broken into lines at whatever size is tried; so shrinking a long text to fit
costs a few cheap passes, and the same text on 50 copies is laid out once (``fit_text`` caches).

French typography: no break before ``: ; ! ? »`` or after ``«``, nor between a number and the
icon after it ("2 :coin:" stays together), nor between an icon and the number after it
(":coin: 2/4/6").
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from reportlab.lib.colors import CMYKColor, Color, HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

from cardforge.markup import Break, Icon, Text, parse
from cardforge.render import rl_internals as rl
from cardforge.render.drawing.drawing_assets import BUILT_IN, DrawingAssets
from cardforge.render.fonts import metrics, unit_width
from cardforge.units import format_mm

ICON_DROP = 0.17  # icon box bottom sits this many em below the baseline
ICON_SCALE = 0.95  # icon height in em
SPLIT_CACHE = 8192  # strings kept split into font subsets, per PDF (see _TextWriter)


@dataclass(frozen=True)
class TextStyle:
    """How a box sets its text. Sizes in points."""

    size: float = 9.0
    min_size: float | None = None  # shrink-to-fit floor; None: never shrink
    leading: float = 1.2  # line height / size
    family: str = "sans"
    color: str = "#1a1a1a"
    align: str = "left"  # left | center | right | justify
    valign: str = "top"  # top | middle | bottom
    paragraph_gap: float = 0.35  # extra space between paragraphs, in lines
    bold: bool = False
    italic: bool = False
    line_spacing: float = 0.0  # points added to every line's height (Squib's ``spacing``)
    wrap: str = "word"  # word | char: a word wider than the box is broken between its letters
    #: the game's own fonts and icons the text may use (part of the layout cache's key)
    assets: DrawingAssets = BUILT_IN


class TextOverflow(Exception):
    """The text does not fit its box even at the floor size."""

    def __init__(self, needed: float, available: float, size: float, too_wide: str | None = None):
        self.needed = needed  # points of height needed at ``size``
        self.available = available
        self.size = size
        self.too_wide = too_wide  # a word wider than the box, if that is why
        super().__init__(self.describe())

    def describe(self) -> str:
        if self.too_wide is not None:
            return (f"the word {self.too_wide!r} is wider than the box even at {self.size:g} pt")
        return (f"needs {format_mm(self.needed)}, has {format_mm(self.available)} "
                f"at the {self.size:g} pt floor")


# --- measuring (size-independent) -----------------------------------------------------------

# atoms: ("t", text, font, colour, scale, width) | ("i", name, colour, scale, width) |
#        ("s", font, width, breakable)
@dataclass(frozen=True)
class Word:
    atoms: tuple[Any, ...]
    width: float  # at 1 pt
    space_before: float  # breakable space before it, at 1 pt (0 for the first)


Segment = tuple[Word, ...]  # words between hard breaks
Para = tuple[Segment, ...]

_NO_BREAK_BEFORE = set(":;!?»")
_NUMBER_END = re.compile(r"(?:\d|[+−×-]\d*)$")
_NUMBER_START = re.compile(r"[+−×-]?\d")


@lru_cache(maxsize=512)
def measure(markup: str, family: str = "sans", bold: bool = False, italic: bool = False,
            color: str = "#1a1a1a", assets: DrawingAssets = BUILT_IN) -> tuple[Para, ...]:
    """Parse and measure at 1 pt: paragraphs → segments → words (``assets``: the game's own
    fonts and icons)."""
    out = []
    for para in parse(markup, assets.names, assets.lang):
        atoms: list[Any] = []
        for piece in para:
            if isinstance(piece, Break):
                atoms.append(("n",))
            elif isinstance(piece, Icon):
                col = piece.style.color or color
                atoms.append(("i", piece.name, col, piece.style.scale,
                              assets.icon_width(piece.name) * piece.style.scale))
            elif isinstance(piece, Text):
                st = piece.style
                font = assets.font_name(family, bold or st.bold, italic or st.italic)
                col, scale = st.color or color, st.scale
                space = unit_width(" ", font) * scale
                for i, tok in enumerate(piece.text.split(" ")):  # words and the single spaces between
                    if i:
                        atoms.append(["s", font, space, True])
                    if tok:
                        atoms.append(("t", tok, font, col, scale, unit_width(tok, font) * scale))
        _french_glue(atoms)
        out.append(_segments(atoms))
    return tuple(out)


def _french_glue(atoms: list[Any]) -> None:
    """Make spaces unbreakable where French typography (and icons after numbers) want."""
    for i, atom in enumerate(atoms):
        if atom[0] != "s":
            continue
        prev = atoms[i - 1] if i else None
        nxt = atoms[i + 1] if i + 1 < len(atoms) else None
        if nxt and nxt[0] == "t" and nxt[1][0] in _NO_BREAK_BEFORE:
            atom[3] = False
        elif prev and prev[0] == "t" and prev[1].endswith("«"):
            atom[3] = False
        elif prev and nxt and prev[0] == "t" and nxt[0] == "i" and _NUMBER_END.search(prev[1]):
            atom[3] = False
        elif prev and nxt and prev[0] == "i" and nxt[0] == "t" and _NUMBER_START.match(nxt[1]):
            atom[3] = False  # ":coin: 2/4/6": an icon stays with the number it labels


def _segments(atoms: list[Any]) -> Para:
    segments: list[Segment] = []
    words: list[Word] = []
    current: list[Any] = []
    width = 0.0
    pending_space = 0.0

    def close_word() -> None:
        nonlocal current, width
        if current:
            words.append(Word(tuple(current), width, pending_space if words else 0.0))
        current, width = [], 0.0

    for atom in atoms:
        kind = atom[0]
        if kind == "n":
            close_word()
            segments.append(tuple(words))
            words.clear()
            pending_space = 0.0
        elif kind == "s":
            if atom[3]:  # breakable: ends the word
                if current:
                    close_word()
                    pending_space = atom[2]
                elif words:
                    pending_space = max(pending_space, atom[2])
            elif current:
                current.append(("s", atom[1], atom[2], False))
                width += atom[2]
        else:
            if not current and not words:
                pending_space = 0.0
            current.append(atom)
            width += atom[-1]
    close_word()
    segments.append(tuple(words))
    return tuple(segments)


# --- breaking at a size --------------------------------------------------------------------

@dataclass
class Line:
    words: list[Word]
    width: float  # at the layout's size, in points
    last: bool  # last line of its segment (not justified)


@dataclass
class TextLayout:
    size: float
    lines: list[Line | None]  # None = paragraph gap marker
    height: float
    style: TextStyle
    paragraph_starts: list[int] = field(default_factory=list)

    @property
    def line_count(self) -> int:
        return sum(1 for line in self.lines if line is not None)


#: how much text may pass its box and still fit (points): a box measured to the text, or
#: converted from px or mm and rounded, holds it exactly (issue 42: "exact fit is fit")
FIT_TOLERANCE_PT = 1e-3


def break_lines(paras: tuple[Para, ...], width: float, size: float, style: TextStyle) -> tuple[TextLayout, str | None]:
    """Greedy first-fit breaking. Returns the layout and a word too wide for the box, if any."""
    lines: list[Line | None] = []
    too_wide = None
    eps = FIT_TOLERANCE_PT
    for p_index, para in enumerate(paras):
        if p_index:
            lines.append(None)
        for segment in para:
            current: list[Word] = []
            used = 0.0
            for word in (_char_pieces(segment, width / size) if style.wrap == "char" else segment):
                w = word.width * size
                if w > width + eps and too_wide is None:
                    too_wide = _word_text(word)
                gap = word.space_before * size if current else 0.0
                if current and used + gap + w > width + eps:
                    lines.append(Line(current, used, False))
                    current, used = [word], w
                else:
                    current.append(word)
                    used += gap + w
            lines.append(Line(current, used, True))
    n_lines = sum(1 for line in lines if line is not None)
    gaps = len(paras) - 1 if paras else 0
    height = (n_lines + gaps * style.paragraph_gap) * line_height(style, size)
    return TextLayout(size, lines, height, style), too_wide


def line_height(style: TextStyle, size: float) -> float:
    """A line's height in points: ``leading`` × the size, and ``line_spacing``."""
    return style.leading * size + style.line_spacing


def _char_pieces(segment: Segment, width: float) -> list[Word]:
    """``wrap: char``: each word wider than ``width`` (points at 1 pt) cut between its letters
    into pieces that fit (the first keeps the space before it, the others join it unspaced)."""
    out: list[Word] = []
    for word in segment:
        if word.width <= width + 1e-9:
            out.append(word)
            continue
        atoms: list[Any] = []
        used = 0.0
        first = True

        def close() -> None:
            nonlocal atoms, used, first
            if atoms:
                out.append(Word(tuple(atoms), used, word.space_before if first else 0.0))
                first = False
            atoms, used = [], 0.0

        for atom in word.atoms:
            if atom[0] != "t":  # an icon or a no-break space: a piece of its own width
                if atoms and used + atom[-1] > width:
                    close()
                atoms.append(atom)
                used += atom[-1]
                continue
            _, text, font, colour, scale, _ = atom
            start = 0
            while start < len(text):
                end = start + 1  # at least one letter a piece
                while end < len(text) and used + unit_width(text[start:end + 1], font) * scale <= width + 1e-9:
                    end += 1
                piece = text[start:end]
                if atoms and used + unit_width(piece, font) * scale > width + 1e-9:
                    close()
                    continue
                atoms.append(("t", piece, font, colour, scale, unit_width(piece, font) * scale))
                used += unit_width(piece, font) * scale
                start = end
                if start < len(text):
                    close()
        close()
    return out


def _word_text(word: Word) -> str:
    return "".join(a[1] if a[0] == "t" else (" " if a[0] == "s" else f":{a[1]}:") for a in word.atoms)


def fits(layout: TextLayout, too_wide: str | None, height: float) -> bool:
    return too_wide is None and layout.height <= height + FIT_TOLERANCE_PT


def _quarter(x: float) -> float:
    return round(x * 4) / 4


class KeptForBuilds:
    """A process's cache whose entries a long-lived session keeps from build to build: it notes
    the keys one build used (:meth:`track`, :meth:`untrack`) and keeps only those (:meth:`retain`).
    Subclasses hold ``_items`` and add each key they look up or store to ``_tracked`` when set."""

    _items: dict[tuple[Any, ...], Any]
    _tracked: set[tuple[Any, ...]] | None
    hits: int
    misses: int

    def track(self) -> None:
        """Start noting the keys used (looked up or stored) — one build's."""
        self._tracked = set()

    def untrack(self) -> set[tuple[Any, ...]]:
        """Stop noting; returns the keys used since :meth:`track`."""
        used, self._tracked = self._tracked or set(), None
        return used

    def retain(self, keys: set[tuple[Any, ...]]) -> None:
        """Drop every entry whose key is not in ``keys`` (what the last good build used)."""
        for key in [k for k in self._items if k not in keys]:
            del self._items[key]

    def clear(self) -> None:
        self._items.clear()
        self.hits = self.misses = 0


class LayoutCache(KeptForBuilds):
    """Laid-out text by content: (markup, box width, box height, style) → :class:`TextLayout`.

    One per process. A build of distinct cards rarely hits it, so it stays small (the least
    recently used entries go past ``maxsize``) and a 10,000-card deck does not keep every
    card's text in memory; watch mode (:mod:`cardforge.watch`) makes it as large as the deck,
    so that a rebuild lays out only the text that changed. ``hits`` and ``misses`` count lookups (a text that does not
    fit is not kept: it is reported and the build fails anyway)."""

    def __init__(self, maxsize: int = 512):
        self.maxsize = maxsize
        self._items: OrderedDict[tuple[Any, ...], TextLayout] = OrderedDict()
        self._tracked: set[tuple[Any, ...]] | None = None
        self._recording: list[tuple[Any, ...]] | None = None  # a face's lookups (render/cards/facecache.py)
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: tuple[Any, ...]) -> TextLayout | None:
        if self._recording is not None:
            self._recording.append(key)
        layout = self._items.get(key)
        if layout is None:
            self.misses += 1
        else:
            self.hits += 1
            self._items.move_to_end(key)
            if self._tracked is not None:
                self._tracked.add(key)
        return layout

    def put(self, key: tuple[Any, ...], layout: TextLayout) -> None:
        self._items[key] = layout
        if self._tracked is not None:
            self._tracked.add(key)
        if len(self._items) > self.maxsize:
            self._items.popitem(last=False)

    def record(self) -> list[tuple[Any, ...]]:
        """Start noting every lookup into the list returned, until :meth:`stop_recording`."""
        self._recording = []
        return self._recording

    def stop_recording(self) -> None:
        self._recording = None

    def touch(self, keys: list[tuple[Any, ...]]) -> bool:
        """Count ``keys`` as looked up again, without using them (a face written again from its
        kept operators used them): hits, and noted for :meth:`retain` (not made the most recent:
        watch mode, the only user, keeps every text). False, counting nothing, when one is gone."""
        items = self._items
        for key in keys:
            if key not in items:
                return False
        self.hits += len(keys)
        if self._tracked is not None:
            self._tracked.update(keys)
        return True


#: the process's laid-out text (see :class:`LayoutCache`)
LAYOUTS = LayoutCache()


def fit_text(markup: str, width: float, height: float, style: TextStyle) -> TextLayout:
    """The largest size (in ¼ pt steps, from ``style.size`` down to ``style.min_size``) at
    which ``markup`` fits ``width`` × ``height``. Raises TextOverflow below the floor.
    Cached by content in :data:`LAYOUTS`."""
    key = (markup, width, height, style)
    layout = LAYOUTS.get(key)
    if layout is None:
        layout = _fit_text(markup, width, height, style)
        LAYOUTS.put(key, layout)
    return layout


def _fit_text(markup: str, width: float, height: float, style: TextStyle) -> TextLayout:
    paras = measure(markup, style.family, style.bold, style.italic, style.color, style.assets)
    layout, too_wide = break_lines(paras, width, style.size, style)
    if fits(layout, too_wide, height):
        return layout
    floor = style.min_size if style.min_size is not None else style.size
    if floor >= style.size:
        raise TextOverflow(layout.height, height, style.size, too_wide)
    low, low_wide = break_lines(paras, width, floor, style)
    if not fits(low, low_wide, height):
        raise TextOverflow(low.height, height, floor, low_wide)
    lo, hi = floor, style.size  # lo fits, hi does not
    best = low
    while hi - lo > 0.25:
        mid = _quarter((lo + hi) / 2)
        if mid <= lo or mid >= hi:
            break
        trial, wide = break_lines(paras, width, mid, style)
        if fits(trial, wide, height):
            lo, best = mid, trial
        else:
            hi = mid
    return best


# --- drawing -------------------------------------------------------------------------------

def layout_top(layout: TextLayout, y: float, height: float) -> float:
    """Where the first line's box starts (points, y up) in a box of ``height`` from ``y``, as
    the layout's ``valign`` places the text."""
    if layout.style.valign == "middle":
        return y + height - (height - layout.height) / 2
    if layout.style.valign == "bottom":
        return y + layout.height
    return y + height


def line_left(align: str, line_width: float, x: float, width: float) -> float:
    """Where a line of ``line_width`` starts in a box ``width`` wide from ``x``, as ``align``
    places it (a justified line starts at the left, as a left-aligned one)."""
    if align == "center":
        return x + (width - line_width) / 2
    if align == "right":
        return x + width - line_width
    return x


def draw_layout(canvas: Canvas, layout: TextLayout, x: float, y: float, width: float, height: float) -> None:
    """Draw ``layout`` in the box whose bottom-left corner is (x, y)."""
    style, size = layout.style, layout.size
    lead = line_height(style, size)
    top = layout_top(layout, y, height)
    base_font = style.assets.font_name(style.family, style.bold, style.italic)
    ascent, descent = metrics(base_font)
    # centre the glyphs' ascent+descent inside each line's leading
    first_baseline = top - (lead - (ascent - descent) * size) / 2 - ascent * size
    text = canvas.beginText()
    out = _TextWriter(canvas, text)
    icons: list[tuple[str, float, float, float]] = []
    baseline = first_baseline
    for line in layout.lines:
        if line is None:
            baseline -= style.paragraph_gap * lead
            continue
        extra = 0.0
        n_gaps = len(line.words) - 1
        cx = line_left(style.align, line.width, x, width)
        if style.align == "justify" and not line.last and n_gaps > 0:
            extra = (width - line.width) / n_gaps
        _draw_words(out, icons, line.words, cx, baseline, size, extra, style.assets)
        baseline -= lead
    canvas.saveState()  # the text object's font and colour must not leak into later drawing
    canvas.drawText(text)
    canvas.restoreState()
    for name, ix, iy, isize in icons:
        style.assets.draw_icon(canvas, name, ix, iy, isize)


@lru_cache(maxsize=256)
def _hex(colour: str) -> Color:
    return HexColor(colour)


def _hundredths(v: int) -> str:
    """An integer count of 1/100 pt as a short PDF number: 1234 → '12.34', -5 → '-.05', 0 → '0'."""
    if v % 100 == 0:
        return str(v // 100)
    sign = "-" if v < 0 else ""
    whole, frac = divmod(abs(v), 100)
    return f"{sign}{whole or ''}.{frac:02d}".rstrip("0")


K_BLACK_BELOW = 0x40  # neutral greys darker than this print as solid black ink


@lru_cache(maxsize=256)
def _k_only(colour: str) -> Color:
    """``--pure-black``: a neutral grey or black (r = g = b) in black ink only, DeviceCMYK
    0 0 0 k (near-black text, like the default #1a1a1a, as solid K: no rich black fringes on
    small type); any other colour as it is."""
    c = _hex(colour)
    r, g, b = (round(v * 255) for v in (c.red, c.green, c.blue))
    if r == g == b:
        return CMYKColor(0, 0, 0, 1 if r < K_BLACK_BELOW else round(1 - r / 255, 4))
    return c


class _TextWriter:
    """Writes runs of text into a ReportLab text object, as its ``setFont`` and ``textOut``
    would (TrueType subsets chosen by the font, ``Tf`` on a subset change, escaped ``Tj``),
    without their bookkeeping (those calls were the largest part of drawing a card). Each run
    starts with a relative ``Td`` from the previous run's origin (the text object starts at
    0 0), positions rounded to 1/100 pt (0.004 mm): a third of the bytes of ``setTextOrigin``'s
    absolute ``1 0 0 1 x y Tm``. No ``TL``: nothing here moves by lines."""

    __slots__ = ("text", "code", "doc", "escape", "split", "names", "font", "face", "size", "tf",
                 "subset", "colour", "k_black", "at")

    def __init__(self, canvas: Canvas, text: PDFTextObject) -> None:
        self.text = text
        self.code = rl.text_operators(text)
        self.doc = rl.document(canvas)
        self.escape = rl.string_escaper(canvas)
        # per document (a canvas is one PDF): (font, text) → [(subset, escaped bytes)] and
        # (font, subset) → the subset's PDF name. A font assigns a character its code in a
        # subset the first time it is drawn and never changes it, so once a string is split
        # it splits the same way for the rest of the document; a new string (or the first
        # use of a subset) still goes through the font, in drawing order, as ReportLab would.
        caches = canvas.__dict__.get("_cardforge_text")
        if caches is None:
            caches = canvas.__dict__["_cardforge_text"] = ({}, {})
        self.split, self.names = caches
        self.font: tuple[str, float] | None = None  # (font name, scale) of the current run
        self.face: Any = None  # the current run's ReportLab font
        self.size = 0.0
        self.tf = ""  # "<size> Tf <leading> TL", as textobject._formatText formats it
        self.subset = -1
        self.colour: str | None = None
        self.k_black = canvas.__dict__.get("_cardforge_k_black", False)  # output.print_preferences
        self.at = (0, 0)  # the current line origin, in 1/100 pt
        if not canvas.bottomup:
            raise ValueError("card text is drawn on bottom-up canvases only")

    def run(self, x: float, y: float, font: str, scale: float, colour: str, size: float, s: str) -> None:
        code = self.code
        ix, iy = round(x * 100), round(y * 100)
        code.append(f"{_hundredths(ix - self.at[0])} {_hundredths(iy - self.at[1])} Td")
        self.at = (ix, iy)
        if self.font != (font, scale):  # setFont: a TrueType font starts a new subset run
            self.font = (font, scale)
            self.face = getFont(font)
            self.size = size * scale
            self.tf = f"{fp_str(self.size)} Tf"
            self.subset = -1
        if self.colour != colour:
            self.text.setFillColor(_k_only(colour) if self.k_black else _hex(colour))  # ReportLab's own
            self.colour = colour
        key = (font, s)
        chunks = self.split.get(key)
        if chunks is None:
            if len(self.split) >= SPLIT_CACHE:  # a huge deck: start again rather than grow
                self.split.clear()
            escape = self.escape
            chunks = self.split[key] = [(subset, f"({escape(t)}) Tj")
                                        for subset, t in self.face.splitString(s, self.doc)]
        parts = []
        for subset, tj in chunks:
            if subset != self.subset:
                name = self.names.get((font, subset))
                if name is None:
                    name = self.names[(font, subset)] = self.face.getSubsetInternalName(subset, self.doc)
                parts.append(f"{name} {self.tf}")
                self.subset = subset
            parts.append(tj)
        code.append(" ".join(parts))


def _draw_words(out: _TextWriter, icons: list[tuple[str, float, float, float]], words: Sequence[Word], cx: float,
                baseline: float, size: float, extra: float, assets: DrawingAssets = BUILT_IN) -> None:
    """One line's words, as few runs as possible: a run (one text origin, one string) goes on
    across words while font, colour and scale stay the same and the space between them is
    that font's own space (so the viewer puts the next word where the layout did); a justified
    line's stretched spaces, an icon or a change of font start a new run."""
    run: list[str] = []
    run_x = cx
    run_key: tuple[str, str, float] | None = None  # font, colour, scale of the run

    def flush() -> None:
        if run and run_key is not None:  # a run always has its key
            out.run(run_x, baseline, run_key[0], run_key[2], run_key[1], size, "".join(run))
            run.clear()

    for i, word in enumerate(words):
        if i:
            first = word.atoms[0] if word.atoms else None
            if (run and not extra and first is not None and first[0] == "t"
                    and (first[2], first[3], first[4]) == run_key
                    and abs(word.space_before - unit_width(" ", run_key[0]) * run_key[2]) < 1e-9):
                run.append(" ")
            else:
                flush()
                run_key = None
            cx += word.space_before * size + extra
            if run_key is None:
                run_x = cx
        for atom in word.atoms:
            kind = atom[0]
            if kind == "t":
                key = (atom[2], atom[3], atom[4])
                if key != run_key:
                    flush()
                    run_key, run_x = key, cx
                run.append(atom[1])
                cx += atom[5] * size
            elif kind == "s":
                if run_key is not None and run_key[0] == atom[1]:
                    run.append(" ")
                elif run:
                    flush()
                    run_key = None
                else:
                    run_key = None
                cx += atom[2] * size
                if run_key is None:
                    run_x = cx
            else:  # icon
                flush()
                run_key = None
                isize = size * ICON_SCALE * atom[3]
                icons.append((atom[1], cx + (atom[4] * size - isize * assets.icon_width(atom[1])) / 2,
                              baseline - ICON_DROP * size * atom[3], isize))
                cx += atom[4] * size
                run_x = cx
    flush()


def draw_text(canvas: Canvas, markup: str, x: float, y: float, width: float, height: float,
              style: TextStyle) -> TextLayout:
    """Fit and draw; raises TextOverflow when the text cannot fit above the floor size."""
    layout = fit_text(markup, width, height, style)
    draw_layout(canvas, layout, x, y, width, height)
    return layout
