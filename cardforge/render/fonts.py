"""The bundled DejaVu fonts (French accents, œ, ♚ ♬ ♯ ♪), registered on first use.

No system font is ever used: every PDF embeds subsets of these TrueType files.
"""

from __future__ import annotations

from functools import lru_cache

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from cardforge.resources import FONTS_DIR

#: family → files for (regular, bold, italic, bold italic)
FAMILIES: dict[str, tuple[str, str, str, str]] = {
    "sans": ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSans-BoldOblique"),
    "condensed": ("DejaVuSansCondensed", "DejaVuSansCondensed-Bold",
                  "DejaVuSansCondensed-Oblique", "DejaVuSansCondensed-BoldOblique"),
}
DEFAULT_FAMILY = "sans"


def font_name(family: str = DEFAULT_FAMILY, bold: bool = False, italic: bool = False) -> str:
    """The registered ReportLab name of a face, registering the TTF the first time."""
    return _font_name(family, bool(bold), bool(italic))


@lru_cache(maxsize=None)
def _font_name(family: str, bold: bool, italic: bool) -> str:
    # one cache key per face, however the caller spelt the arguments: parsing a TTF costs ~35 ms
    try:
        files = FAMILIES[family]
    except KeyError:
        raise ValueError(f"unknown font family {family!r} (bundled: {', '.join(FAMILIES)})") from None
    file = files[(2 if italic else 0) + (1 if bold else 0)]
    pdfmetrics.registerFont(TTFont(file, str(FONTS_DIR / f"{file}.ttf")))
    return file


@lru_cache(maxsize=None)
def metrics(name: str) -> tuple[float, float]:
    """(ascent, descent) of a registered font per point of size; descent is negative."""
    face = pdfmetrics.getFont(name).face
    return face.ascent / 1000.0, face.descent / 1000.0


_widths: dict[tuple[str, str], float] = {}


def unit_width(text: str, name: str) -> float:
    """Width of ``text`` at 1 pt (cached: a deck repeats the same words thousands of times)."""
    key = (name, text)
    w = _widths.get(key)
    if w is None:
        w = _widths[key] = pdfmetrics.stringWidth(text, name, 1000.0) / 1000.0
    return w


def has_glyphs(text: str, name: str) -> bool:
    widths = pdfmetrics.getFont(name).face.charWidths
    return all(ord(ch) in widths or ch in "\n\t" for ch in text)
