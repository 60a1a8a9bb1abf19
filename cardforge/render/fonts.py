"""The bundled DejaVu fonts (French accents, œ, ♚ ♬ ♯ ♪), registered on first use.

A layout names them (``sans``, ``condensed``), a family of the game's own ``fonts/``, or else a
font of the system found through fontconfig (``fc-match``; :func:`cardforge.assets.system_font`).
Every PDF embeds subsets of the files it uses.
"""

from __future__ import annotations

import hashlib
import io
import marshal
import pickle
import struct
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

from cardforge import cache
from cardforge.data.yamlio import read_bytes
from cardforge.limits import at_most, limit
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
    ``render/drawing/drawing_assets.py``); a bundled family name always means the bundled font."""
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
    if fam is None:  # then the system's, through fontconfig (issue 42)
        from cardforge.assets import system_font

        system = system_font(family, bold, italic)
        if system.file is None:
            own = f"; the game's fonts/: {', '.join(families)}" if families else ""
            raise ValueError(f"unknown font family {family!r} (bundled: {', '.join(FAMILIES)}{own}); on this "
                             f"system: {system.found}; put the family's .ttf or .otf files in the game "
                             "folder's fonts/")
        path, shown = system.file, str(system.file)
    else:
        path = fam.face(bold, italic)
        shown = f"fonts/{path.name}"
    problem = font_file_problem(path)
    if problem:
        raise ValueError(f"font family {family!r}: {shown}: {problem}")
    digest = hashlib.blake2b(read_font(path), digest_size=4).hexdigest()
    name = f"{path.stem.replace(' ', '')}-{digest}"
    try:
        if name not in pdfmetrics.getRegisteredFontNames():
            if is_cff(path):  # PostScript outlines: a TrueType copy, made once (render/otf.py)
                from cardforge.render.otf import truetype_copy

                font = _load_face(name, truetype_copy(path))
            else:
                font = _load_ttf(name, path, validate=True)
            pdfmetrics.registerFont(font)
    except Exception as exc:  # ReportLab's TTFError, a failed conversion, a damaged file
        raise ValueError(f"font family {family!r}: {shown} cannot be used ({_reason(exc)})") from None
    return name


def is_cff(path: Path) -> bool:
    """An OpenType font with PostScript (CFF) outlines."""
    with open(path, "rb") as f:
        return f.read(4) == b"OTTO"


class FontRefused(ValueError):
    """A font file that cannot be read, or asks for too much (the message says which)."""


def read_font(path: Path) -> bytes:
    """The font file's bytes, within the ``font_bytes`` limit (refused from its size before
    reading: a 3 GB file was read whole for its digest); never a FIFO or a device."""
    blob, problem = read_bytes(Path(path), Path(path).name, "font_bytes")
    if problem is not None or blob is None:
        raise FontRefused(problem.message if problem is not None else "cannot read the file")
    return blob


def font_file_problem(path: Path) -> str | None:
    """Why a font file cannot be embedded, or None: its size, its kind (from its first bytes),
    its table directory (every table inside the file) and its character map (cmap: at most
    ``font_cmap_codes`` codes; a 3.9 KB font mapping 0..0xFFFFFFFE took all memory, as did
    randomly damaged copies of DejaVu Sans). Cheap: nothing is parsed beyond the headers."""
    try:
        blob = read_font(path)
    except FontRefused as exc:
        return str(exc)
    head = blob[:4]
    if head == b"ttcf":
        return "a font collection (.ttc); extract the face you want as a .ttf"
    if head not in (b"\x00\x01\x00\x00", b"true", b"OTTO"):
        return "not a TrueType/OpenType font file"
    try:
        tables = _table_directory(blob)
        if head != b"OTTO":  # PostScript outlines are converted by fontTools (render/otf.py), bounded there
            _check_cmap(blob, tables)
    except FontRefused as exc:
        return str(exc)
    return None


def font_problem(path: Path) -> str | None:
    """:func:`font_file_problem`, then the font loaded as a build would (parsed, or converted
    from PostScript outlines): what ``check`` reports, so a font that passes check builds."""
    problem = font_file_problem(path)
    if problem:
        return problem
    try:
        source: Path | bytes = path
        if is_cff(path):
            from cardforge.render.otf import truetype_copy

            source = truetype_copy(path)
        digest = hashlib.blake2b(read_font(path), digest_size=4).hexdigest()
        _load_face(f"{path.stem.replace(' ', '')}-{digest}", source)  # the build's cache entry
    except Exception as exc:  # ReportLab's TTFError, a failed conversion, a damaged file
        return f"cannot be used ({_reason(exc)})"
    return None


def _load_face(name: str, source: Path | bytes) -> TTFont:
    """A designer's face, validated: from a file, or from the bytes of a converted CFF font
    (render/otf.py); parsed once, then from the cache."""
    return _load_ttf(name, source, validate=True)


def _reason(exc: BaseException) -> str:
    """An exception as a reason: its text, with its kind when the text alone says nothing
    (ReportLab's ``KeyError(32)`` on a damaged font)."""
    text = str(exc).strip()
    return text if len(text) > 12 else f"{type(exc).__name__}{': ' + text if text else ''}; the file is damaged"


def _table_directory(blob: bytes) -> dict[bytes, tuple[int, int]]:
    """tag → (offset, length) of each table; FontRefused when one lies outside the file."""
    if len(blob) < 12:
        raise FontRefused("the file is damaged (shorter than a font's header)")
    count = struct.unpack_from(">H", blob, 4)[0]
    if 12 + 16 * count > len(blob):
        raise FontRefused(f"the file is damaged (its directory lists {count} tables past the end of the file)")
    tables = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sIII", blob, 12 + 16 * i)
        if offset + length > len(blob):
            name = tag.decode("latin-1").strip()
            raise FontRefused(f"the file is damaged (its table '{name}' of {length:,} bytes at offset "
                              f"{offset:,} runs past the end of the file, {len(blob):,} bytes)")
        tables[tag] = (offset, length)
    return tables


def _cmap_codes(at: int, end: int, u16: Callable[[int], int], u32: Callable[[int], int]) -> int:
    """How many codes the cmap subtable at ``at`` maps (formats 2, 4, 6, 10, 12 and 13; 0 for
    another), read with ``u16``/``u32`` (which refuse a read past ``end``)."""
    fmt = u16(at)
    codes = 0
    if fmt == 4:
        segments = u16(at + 6) // 2
        for n in range(segments):
            first, last = u16(at + 16 + 2 * segments + 2 * n), u16(at + 14 + 2 * n)
            codes += max(0, last - first + 1)
    elif fmt in (12, 13):
        groups = u32(at + 12)
        if at + 16 + 12 * groups > end:
            raise FontRefused(f"the file is damaged (its character map lists {groups:,} ranges past its end)")
        for n in range(groups):
            first, last = u32(at + 16 + 12 * n), u32(at + 20 + 12 * n)
            if last > 0x10FFFF and last >= first:
                raise FontRefused(f"the file is damaged (its character map reaches code {last:#x}, past "
                                  "Unicode's last, U+10FFFF)")
            codes += max(0, last - first + 1)
    elif fmt == 10:
        codes = u32(at + 16)
        if at + 20 + 2 * codes > end:
            raise FontRefused("the file is damaged (its character map is cut short)")
    elif fmt == 6:
        codes = u16(at + 8)
    elif fmt == 2:  # ReportLab takes each key as a subheader's index
        for k in [u16(at + 6 + 2 * i) for i in range(256)]:
            if k:
                codes += u16(at + 6 + 512 + 8 * k + 2)
    return codes


def _check_cmap(blob: bytes, tables: dict[bytes, tuple[int, int]]) -> None:
    """The character map ReportLab will read (the same subtable it picks) maps at most
    ``font_cmap_codes`` codes, each at most U+10FFFF, from data inside the table."""
    if b"cmap" not in tables:
        raise FontRefused("it has no character map (cmap table)")
    base, size = tables[b"cmap"]
    end = base + size

    def u16(at: int) -> int:
        if at + 2 > end:
            raise FontRefused("the file is damaged (its character map is cut short)")
        return int(struct.unpack_from(">H", blob, at)[0])

    def u32(at: int) -> int:
        if at + 4 > end:
            raise FontRefused("the file is damaged (its character map is cut short)")
        return int(struct.unpack_from(">I", blob, at)[0])

    version, count = u16(base), u16(base + 2)
    if count == 0 and version != 0:
        count = version
    chosen, enc = None, 0
    for i in range(count):  # ReportLab's choice (pdfbase/ttfonts.py, extractInfo)
        platform, encoding, offset = u16(base + 4 + 8 * i), u16(base + 6 + 8 * i), u32(base + 8 + 8 * i)
        if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0 and encoding != 5):
            enc, chosen = 1, offset
        elif platform == 1 and encoding == 0 and enc != 1:
            enc, chosen = 2, offset
    if chosen is None:
        return  # ReportLab refuses it with its own message
    at = base + chosen
    codes = _cmap_codes(at, end, u16, u32)
    most = limit("font_cmap_codes")
    if codes > most:
        raise FontRefused(f"its character map (cmap) maps {codes:,} codes, more than a font can use: "
                          + at_most("font_cmap_codes", " codes") + " (the file is probably damaged)")


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


def _parse(name: str, path: Path | bytes) -> TTFont:
    """The font, its subsets numbered in order of first use: ReportLab's default keeps codes
    32–126 for ASCII ("readable" strings), which puts every ASCII glyph in the first subset
    whether printed or not, with a width for each: 13–38 % of a deck's PDF for glyphs no card
    prints. Text is still extracted, searched and copied through each subset's ToUnicode map."""
    return TTFont(name, str(path) if isinstance(path, Path) else io.BytesIO(path), asciiReadable=False)


def _validated(font: TTFont) -> TTFont:
    """``font`` after embedding every glyph its character map reaches, in subsets as the PDF
    would (0.07 s for DejaVu Sans): a damaged font fails here, with a message, rather than
    when a PDF is saved (an IndexError on a glyph past the font's count)."""
    face = font.face
    chars = sorted(face.charToGlyph)
    glyphs = len(face.glyphPos) - 1
    bad = next((c for c in chars if not 0 <= face.charToGlyph[c] < glyphs), None)
    if bad is not None:
        raise FontRefused(f"the file is damaged (character U+{bad:04X} maps to glyph {face.charToGlyph[bad]}, "
                          f"and it has {glyphs})")
    for i in range(0, len(chars), 255):
        face.makeSubset(chars[i:i + 255])
    return font


def _load_ttf(name: str, path: Path | bytes, validate: bool = False) -> TTFont:
    """A parsed TrueType font, from the cache when the file is unchanged; ``validate``: a
    designer's font, every glyph tried once (:func:`_validated`) before it is used or cached.

    ReportLab parses the whole file (cmap, widths, glyph offsets) on every start: ~12 ms a
    face, four faces a build. The parsed state is stored once in the cache
    (:mod:`cardforge.cache`: ``CARDFORGE_NO_CACHE``, ``CARDFORGE_CACHE``) and read back in
    ~2 ms; the font, and so every PDF, is the same either way. An entry is decoded only once
    its MAC checks (:func:`cardforge.cache.read`), its pickled part through
    :func:`cardforge.cache.unpickle`."""
    def parse() -> TTFont:
        font = _parse(name, path)
        return _validated(font) if validate else font

    try:  # a file: its path and stat; bytes (a converted font): themselves
        parts: list[bytes | str] = [name, str(path.resolve()) if isinstance(path, Path) else path]
        code = [path] if isinstance(path, Path) else []
        key = cache.key("fonts", parts, [*code, Path(__file__), Path(rl.__file__)], ("reportlab",))
    except OSError:
        return parse()
    cached = cache.entry("fonts", f"{name}-{key[:16]}.bin")
    if cached is None:
        return parse()
    font = cache.read(cached, _font_from_blob, TTFont)  # missing, stale, damaged or planted: parse the file
    if font is not None:
        return font
    font = parse()
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
    rest, tables, lazy = marshal.loads(blob)  # plain data (dicts, lists, numbers, bytes), its MAC checked
    if not (isinstance(rest, bytes) and isinstance(tables, dict) and isinstance(lazy, bytes)):
        raise ValueError("not a font entry")
    font_attrs, face_attrs = cache.unpickle(rest)
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
