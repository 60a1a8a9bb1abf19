"""OpenType fonts with PostScript (CFF) outlines made embeddable: converted once to TrueType
outlines (fontTools: cubic curves approximated by quadratic ones within 1/1000 em) and kept
in the cache (:mod:`cardforge.cache`), keyed by the font file's content and fontTools' version.

ReportLab embeds TrueType outlines only; most ``.otf`` fonts a designer downloads are CFF. The
glyph shapes differ from the original by at most one font unit (invisible at card sizes)."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any

from cardforge import cache
from cardforge.data.yamlio import read_bytes
from cardforge.limits import at_most, limit

MAX_ERR = 1.0  # font units (of 1000 or 2048 per em)


def truetype_copy(path: Path) -> bytes:
    """The bytes of a TrueType-outline copy of the CFF font at ``path`` (made once, then
    reused): an entry of the cache (read back only once its MAC checks: a planted font is a
    miss), and kept in memory for the process (nothing is left in the temporary folder).
    ValueError with the reason when it cannot be converted."""
    blob, problem = read_bytes(Path(path), Path(path).name, "font_bytes")  # as fonts.read_font
    if blob is None:
        raise ValueError(problem.message if problem is not None else "cannot read the file")
    try:  # the font's bytes, this module (the conversion's options) and fontTools' version
        digest = cache.key("otf", [blob], [Path(__file__)], ("fontTools",))[:20]
    except OSError:
        digest = hashlib.blake2b(blob, digest_size=10).hexdigest()
    if digest in _CONVERTED:
        return _CONVERTED[digest]
    target = cache.entry("otf", f"{digest}.ttf")
    data = cache.read_payload(target)  # a miss when missing, damaged, planted or caching is off
    if data is None:
        data = _converted(blob)
        cache.write(target, data)  # no *.part left, even on a full disk; a read-only home is no error
    _CONVERTED[digest] = data
    return data


#: converted fonts by digest, for this process
_CONVERTED: dict[str, bytes] = {}


def _converted(blob: bytes) -> bytes:
    try:
        return _convert(blob)
    except ImportError:
        raise ValueError("an OpenType font with PostScript (CFF) outlines needs fontTools to be embedded "
                         "(pip install fonttools), or use its .ttf version") from None
    except TooMuchWork as exc:
        raise ValueError(str(exc)) from None
    except Exception as exc:  # a damaged font: fontTools' own errors
        raise ValueError(f"cannot convert its PostScript outlines ({type(exc).__name__}: {exc})") from None


#: what ReportLab reads of a TrueType font (and what the copy keeps: layout tables such as
#: GSUB/GPOS are never used, and a damaged one could cost minutes to compile)
KEEP_TABLES = {"head", "hhea", "maxp", "hmtx", "cmap", "name", "OS/2", "post", "glyf", "loca", "CFF "}
#: CFF's own limit on nested subroutine calls (Adobe Technical Note #5177)
MAX_SUBR_DEPTH = 10


class TooMuchWork(Exception):
    """The font's charstrings ask for more work than ``font_cff_ops`` allows."""


def _bounded_extractor(budget: list[int]) -> type:
    """fontTools' outline extractor, counting the charstring bytes it runs (subroutines as
    often as they are called) against ``budget`` — [whole font, this glyph], reset per glyph
    to ``font_glyph_ops`` — and their nesting against CFF's limit: a 1 KB font whose
    subroutines call each other 30 times, 9 deep, took 47 s and 1.9 GB."""
    from fontTools.misc.psCharStrings import T2OutlineExtractor

    class Bounded(T2OutlineExtractor):
        def execute(self, charString: Any) -> Any:
            code = charString.bytecode if charString.bytecode is not None else charString.program
            cost = len(code or ()) + 1
            budget[0] -= cost
            budget[1] -= cost
            if budget[1] < 0:
                raise TooMuchWork("a glyph of its PostScript outlines asks for more than "
                                  f"{limit('font_glyph_ops'):,} charstring operations: "
                                  + at_most("font_glyph_ops") + " (the file is probably damaged)")
            if budget[0] < 0:
                raise TooMuchWork("its PostScript outlines ask for more than "
                                  f"{limit('font_cff_ops'):,} charstring operations to convert: "
                                  + at_most("font_cff_ops") + " (a font this large takes minutes)")
            if len(self.callingStack) > MAX_SUBR_DEPTH:
                raise TooMuchWork(f"its PostScript outlines nest subroutines more than {MAX_SUBR_DEPTH} deep "
                                  "(CFF's own limit): the file is damaged")
            return super().execute(charString)

    return Bounded


def _truetype_maxp_and_post(font: Any, glyphs: dict[str, Any], order: list[str]) -> None:
    """The ``maxp`` (version 1.0, for TrueType outlines) and ``post`` (glyph names, else none)
    tables of the converted font."""
    from fontTools.ttLib import newTable

    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones",):
        setattr(maxp, field, 1)
    for field in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions"):
        setattr(maxp, field, 0)
    maxp.maxComponentElements = max((len(getattr(g, "components", []) or []) for g in glyphs.values()), default=0)
    maxp.compile(font)
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    try:
        post.compile(font)
    except OverflowError:
        post.formatType = 3.0


def _convert(blob: bytes) -> bytes:
    """CFF → glyf, as fontTools' ``otf2ttf`` recipe does, within ``font_cff_ops``."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    # the original's timestamps kept: fontTools sets head.modified to the clock's by default, and the
    # copy (so every PDF made without the cache, or after a miss) changed from one second to the next
    font = TTFont(io.BytesIO(blob), recalcTimestamp=False)
    if font.sfntVersion != "OTTO" or "CFF " not in font:
        raise ValueError("not a CFF OpenType font")
    for tag in list(font.keys()):
        if tag not in KEEP_TABLES and tag != "GlyphOrder":
            del font[tag]
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    char_strings = font["CFF "].cff.topDictIndex[0].CharStrings
    budget = [limit("font_cff_ops"), 0]
    extractor = _bounded_extractor(budget)
    per_glyph = limit("font_glyph_ops")
    glyphs = {}
    for name in order:
        budget[1] = per_glyph
        char_strings[name].outlineExtractor = extractor
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, MAX_ERR, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[name] = (hmtx[name][0], glyph.xMin)
    _truetype_maxp_and_post(font, glyphs, order)
    font.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()
