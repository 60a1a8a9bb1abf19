"""The bundled DejaVu fonts (French accents, œ, ♚ ♬ ♯ ♪), registered on first use.

No system font is ever used: every PDF embeds subsets of these TrueType files.
"""

from __future__ import annotations

import hashlib
import marshal
import pickle
import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

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


#: the families of the game being drawn (its ``fonts/`` folder, ``cardforge/assets.py``), set by
#: :func:`use_game_fonts`; a bundled family name always means the bundled font
_GAME_FAMILIES: dict[str, FontFamily] = {}


def use_game_fonts(families: dict[str, FontFamily], changed: bool = False) -> None:
    """Make a game's own font families (name → ``assets.FontFamily``) usable as ``family``;
    ``changed``: a font file changed in place (watch mode), so faces are looked up again."""
    global _GAME_FAMILIES
    if changed or families != _GAME_FAMILIES:
        _GAME_FAMILIES = dict(families)
        _font_name.cache_clear()


def font_name(family: str = DEFAULT_FAMILY, bold: bool = False, italic: bool = False) -> str:
    """The registered ReportLab name of a face, registering the TTF the first time."""
    return _font_name(family, bool(bold), bool(italic))


@lru_cache(maxsize=None)
def _font_name(family: str, bold: bool, italic: bool) -> str:
    # one cache key per face, however the caller spelt the arguments: parsing a TTF costs ~35 ms
    files = FAMILIES.get(family)
    if files is None:
        return _game_font(family, bold, italic)
    file = files[(2 if italic else 0) + (1 if bold else 0)]
    pdfmetrics.registerFont(_load_ttf(file, FONTS_DIR / f"{file}.ttf"))
    return file


def _game_font(family: str, bold: bool, italic: bool) -> str:
    """A face of the game's own family: registered under a name made from the file's content,
    so two games' fonts of the same name never clash and the PDF does not depend on paths."""
    fam = _GAME_FAMILIES.get(family) or next(
        (f for k, f in _GAME_FAMILIES.items() if k.lower() == family.lower()), None)
    if fam is None:
        own = f"; the game's fonts/: {', '.join(_GAME_FAMILIES)}" if _GAME_FAMILIES else \
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
            source = path
            if is_cff(path):  # PostScript outlines: a TrueType copy, made once (render/otf.py)
                from cardforge.render.otf import truetype_copy

                source = truetype_copy(path)
            pdfmetrics.registerFont(_load_ttf(name, source))
    except Exception as exc:  # ReportLab's TTFError, a failed conversion, a damaged file
        raise ValueError(f"font family {family!r}: fonts/{path.name} cannot be used "
                         f"({str(exc).strip() or type(exc).__name__})") from None
    return name


def is_cff(path: Path) -> bool:
    """An OpenType font with PostScript (CFF) outlines."""
    with open(path, "rb") as f:
        return f.read(4) == b"OTTO"


def font_file_problem(path: Path) -> str | None:
    """Why a font file cannot be embedded (read from its first bytes), or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError as exc:
        return f"cannot read the file ({exc.strerror or type(exc).__name__})"
    if head == b"OTTO":  # PostScript outlines: converted to TrueType when drawn (render/otf.py)
        return None
    if head in (b"ttcf",):
        return "a font collection (.ttc); extract the face you want as a .ttf"
    if head not in (b"\x00\x01\x00\x00", b"true"):
        return "not a TrueType/OpenType font file"
    return None


#: the face's large tables, stored with marshal (twice as fast to read as pickle)
_TABLES = ("charToGlyph", "charWidths", "hmetrics", "glyphPos", "_ttf_data")
#: read only by ReportLab's HarfBuzz shaping (not used here): loaded on first access
_LAZY = ("glyphToChar",)


class _CachedFace(TTFontFace):  # type: ignore[misc, unused-ignore]  # ReportLab ships no type stubs
    """A face read from the cache: ``glyphToChar`` is unmarshalled on first access."""

    def __getattr__(self, name: str) -> Any:
        lazy = self.__dict__.get("_lazy_tables")
        if lazy is not None and name in _LAZY:
            self.__dict__.update(marshal.loads(lazy))
            del self.__dict__["_lazy_tables"]
            return self.__dict__[name]
        raise AttributeError(name)


def _load_ttf(name: str, path: Path) -> TTFont:
    """A parsed TrueType font, from the cache when the file is unchanged.

    ReportLab parses the whole file (cmap, widths, glyph offsets) on every start: ~12 ms a
    face, four faces a build. The parsed state is stored once in the cache folder
    (``cardforge/data/cache.py``: ``CARDFORGE_NO_CACHE``, ``CARDFORGE_CACHE``) and read back
    in ~2 ms; the font, and so every PDF, is the same either way."""
    from cardforge.data.cache import cache_dir

    root = cache_dir()
    if root is None:
        return TTFont(name, str(path))
    try:
        st = path.stat()
        key = hashlib.blake2b(f"{path.resolve()}|{st.st_size}|{st.st_mtime_ns}|{reportlab.Version}|"
                              f"{sys.version}".encode(), digest_size=8).hexdigest()
    except OSError:
        return TTFont(name, str(path))
    cached = root / "fonts" / f"{name}-{key}.bin"
    try:
        rest, tables, lazy = marshal.loads(cached.read_bytes())
        state = pickle.loads(rest)
        face = state["face"]
        face.__class__ = _CachedFace
        face.__dict__.update(tables)
        face._lazy_tables = lazy
        _set_scale(face)
        font = TTFont.__new__(TTFont)
        font.__dict__.update(state)
        font.state = WeakKeyDictionary()  # per-document subsets, as TTFont.__init__ makes it
        return font
    except Exception:  # missing, stale or from another ReportLab: parse the file
        pass
    font = TTFont(name, str(path))
    try:
        face = font.face
        tables = {k: face.__dict__[k] for k in _TABLES}
        lazy = marshal.dumps({k: face.__dict__[k] for k in _LAZY})
        kept = {k: v for k, v in face.__dict__.items() if k not in _TABLES and k not in _LAZY
                and k != "_pdfScale"}  # a lambda: rebuilt on load
        bare = TTFontFace.__new__(TTFontFace)
        bare.__dict__.update(kept)
        state = {k: v for k, v in vars(font).items() if k != "state"}
        state["face"] = bare
        blob = marshal.dumps((pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), tables, lazy))
        cached.parent.mkdir(parents=True, exist_ok=True)
        for old in cached.parent.glob(f"{name}-*"):
            old.unlink(missing_ok=True)
        from cardforge.paths import write_atomic  # no *.part left, even on a full disk

        write_atomic(cached, lambda f: f.write(blob))
    except Exception:  # an unpicklable font or a read-only home: just no cache
        pass
    return font


def _set_scale(face: TTFontFace) -> None:
    """ReportLab's font-unit → PDF-unit scale (a lambda, not pickled)."""
    upem = face.unitsPerEm
    face._pdfScale = (lambda x: x) if upem == 1000 else (lambda x, m=1000 / upem: x * m)


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
