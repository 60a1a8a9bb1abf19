"""The bundled DejaVu fonts (French accents, œ, ♚ ♬ ♯ ♪), registered on first use.

No system font is ever used: every PDF embeds subsets of these TrueType files.
"""

from __future__ import annotations

import hashlib
import io
import marshal
import os
import pickle
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

from cardforge import cache
from cardforge.render import rl_internals as rl
from cardforge.resources import FONTS_DIR

if TYPE_CHECKING:
    from cardforge.assets import FontFamily

#: family → files for (regular, bold, italic, bold italic)
FAMILIES: dict[str, tuple[str, str, str, str]] = {
    "sans": ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSans-BoldOblique"),
    "condensed": ("DejaVuSansCondensed", "DejaVuSansCondensed-Bold",
                  "DejaVuSansCondensed-Oblique", "DejaVuSansCondensed-BoldOblique"),
}
DEFAULT_FAMILY = "sans"


_NO_FAMILIES: Mapping[str, FontFamily] = {}


def font_name(family: str = DEFAULT_FAMILY, bold: bool = False, italic: bool = False,
              families: Mapping[str, FontFamily] = _NO_FAMILIES) -> str:
    """The registered ReportLab name of a face, registering the TTF the first time. A bundled
    family, else one of ``families`` (the game's ``fonts/``, passed by whoever draws for it:
    ``render/drawing_assets.py``); a bundled family name always means the bundled font."""
    if family in FAMILIES or not families:
        return _font_name(family, bool(bold), bool(italic))
    return _game_font(family, bool(bold), bool(italic), families)


@lru_cache(maxsize=None)
def _font_name(family: str, bold: bool, italic: bool) -> str:
    # one cache key per face, however the caller spelt the arguments: parsing a TTF costs ~35 ms
    files = FAMILIES.get(family)
    if files is None:
        return _game_font(family, bold, italic, _NO_FAMILIES)
    file = files[(2 if italic else 0) + (1 if bold else 0)]
    pdfmetrics.registerFont(_load_ttf(file, FONTS_DIR / f"{file}.ttf"))
    return file


def _game_font(family: str, bold: bool, italic: bool, families: Mapping[str, FontFamily]) -> str:
    """A face of the game's own family: registered under a name made from the file's content,
    so two games' fonts of the same name never clash and the PDF does not depend on paths."""
    fam = families.get(family) or next(
        (f for k, f in families.items() if k.lower() == family.lower()), None)
    if fam is None:
        own = f"; the game's fonts/: {', '.join(families)}" if families else \
            "; or put the family's .ttf files in the game folder's fonts/"
        raise ValueError(f"unknown font family {family!r} (bundled: {', '.join(FAMILIES)}{own})")
    path = fam.face(bold, italic)
    problem = font_file_problem(path)
    if problem:
        raise ValueError(f"font family {family!r}: fonts/{path.name}: {problem}")
    digest = hashlib.blake2b(path.read_bytes(), digest_size=4).hexdigest()
    name = f"{path.stem.replace(' ', '')}-{digest}"
    try:
        if name not in pdfmetrics.getRegisteredFontNames():
            if is_cff(path):  # PostScript outlines: a TrueType copy, made once (render/otf.py)
                from cardforge.render.otf import truetype_copy

                source = truetype_copy(path)
                font = (_load_ttf(name, source) if isinstance(source, Path)
                        else TTFont(name, io.BytesIO(source), asciiReadable=False))  # caches off: in memory
            else:
                font = _load_ttf(name, path)
            pdfmetrics.registerFont(font)
    except Exception as exc:  # ReportLab's TTFError, a failed conversion, a damaged file
        raise ValueError(f"font family {family!r}: fonts/{path.name} cannot be used "
                         f"({str(exc).strip() or type(exc).__name__})") from None
    return name


def is_cff(path: Path) -> bool:
    """An OpenType font with PostScript (CFF) outlines."""
    with open(path, "rb") as f:
        return f.read(4) == b"OTTO"


def font_file_problem(path: Path) -> str | None:
    """Why a font file cannot be embedded (read from its first bytes; a regular file of a
    bounded size: it is read whole when used), or None."""
    from cardforge.limits import env_name, limit
    from cardforge.paths import read_head, too_big

    head, why = read_head(path, 4)  # a FIFO: refused, never waited on
    if head is None:
        return why
    size = os.stat(path).st_size
    if size > limit("game_file_bytes"):
        return too_big(size, limit("game_file_bytes"), env_name("game_file_bytes"))
    if head == b"OTTO":  # PostScript outlines: converted to TrueType when drawn (render/otf.py)
        return None
    if head in (b"ttcf",):
        return "a font collection (.ttc); extract the face you want as a .ttf"
    if head not in (b"\x00\x01\x00\x00", b"true"):
        return "not a TrueType/OpenType font file"
    return None


#: the face's large tables, stored with marshal (twice as fast to read as pickle)
_TABLES = rl.FACE_TABLES
#: read only by ReportLab's HarfBuzz shaping (not used here): loaded on first access
_LAZY = rl.LAZY_FACE_TABLES


class _CachedFace(TTFontFace):  # type: ignore[misc, unused-ignore]  # ReportLab ships no type stubs
    """A face read from the cache: ``glyphToChar`` is unmarshalled on first access."""

    def __getattr__(self, name: str) -> Any:
        lazy = self.__dict__.get("_lazy_tables")
        if lazy is not None and name in _LAZY:
            self.__dict__.update(marshal.loads(lazy))
            del self.__dict__["_lazy_tables"]
            return self.__dict__[name]
        raise AttributeError(name)


def _parse(name: str, path: Path) -> TTFont:
    """The font, its subsets numbered in order of first use: ReportLab's default keeps codes
    32–126 for ASCII ("readable" strings), which puts every ASCII glyph in the first subset
    whether printed or not, with a width for each: 13–38 % of a deck's PDF for glyphs no card
    prints. Text is still extracted, searched and copied through each subset's ToUnicode map."""
    return TTFont(name, str(path), asciiReadable=False)


def _load_ttf(name: str, path: Path) -> TTFont:
    """A parsed TrueType font, from the cache when the file is unchanged.

    ReportLab parses the whole file (cmap, widths, glyph offsets) on every start: ~12 ms a
    face, four faces a build. The parsed state is stored once in the cache
    (:mod:`cardforge.cache`: ``CARDFORGE_NO_CACHE``, ``CARDFORGE_CACHE``) and read back in
    ~2 ms; the font, and so every PDF, is the same either way."""
    try:
        key = cache.key("fonts", [name, str(path.resolve())], [path, Path(__file__), Path(rl.__file__)],
                        ("reportlab",))
    except OSError:
        return _parse(name, path)
    cached = cache.entry("fonts", f"{name}-{key[:16]}.bin")
    if cached is None:
        return _parse(name, path)
    font = cache.read(cached, _font_from_blob)  # missing, stale or damaged: parse the file
    if font is not None:
        return font
    font = _parse(name, path)
    cache.prune(cached.parent, f"{name}-*", 0)
    cache.write(cached, lambda: _font_blob(font))  # an unpicklable font or a read-only home: no cache
    return font


def _font_blob(font: TTFont) -> bytes:
    font_attrs, face_attrs = rl.face_state(font)
    del font_attrs["face"]
    tables = {k: face_attrs.pop(k) for k in _TABLES}
    lazy = marshal.dumps({k: face_attrs.pop(k) for k in _LAZY})
    return marshal.dumps((pickle.dumps((font_attrs, face_attrs), protocol=pickle.HIGHEST_PROTOCOL), tables, lazy))


def _font_from_blob(blob: bytes) -> TTFont:
    rest, tables, lazy = marshal.loads(blob)
    font_attrs, face_attrs = pickle.loads(rest)
    face_attrs.update(tables)
    face_attrs["_lazy_tables"] = lazy
    return rl.rebuild_font(font_attrs, rl.bare_face(face_attrs, _CachedFace))


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
