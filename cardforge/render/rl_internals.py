"""Every use of a ReportLab private internal, each behind one small function.

cardforge reaches below ReportLab's public API in a few places, for speed (writing card text
and replayed cards straight into the page's operator list, reading a parsed font back from the
cache) or for what the API does not offer (the ArtBox, the finished page). Those internals are
not promised to stay: ReportLab is pinned to its major version (``reportlab<5`` in
pyproject.toml) and ``tests/test_rl_internals.py`` has one test per function here that fails
if ReportLab changes what it relies on. Nowhere else in cardforge touches a ReportLab name
that starts with ``_``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from reportlab.pdfbase.pdfdoc import PDFDocument, PDFPage
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

# --- canvas and page --------------------------------------------------------------------------


def page_operators(canvas: Canvas) -> list[str]:
    """The current page's content operators, as text, in drawing order (``Canvas._code``):
    appended to, they are written to the page as if drawn."""
    code: list[str] = canvas._code
    return code


def forms_in_use(canvas: Canvas) -> list[str]:
    """Names of the forms (XObjects) the current page uses (``Canvas._formsinuse``): a form
    drawn by replaying operators must be listed here to be in the page's resources."""
    used: list[str] = canvas._formsinuse
    return used


def text_operators(text: PDFTextObject) -> list[str]:
    """A text object's operators, as text (``PDFTextObject._code``)."""
    code: list[str] = text._code
    return code


def document(canvas: Canvas) -> PDFDocument:
    """The canvas's PDF document (``Canvas._doc``): fonts assign subsets per document."""
    doc: PDFDocument = canvas._doc
    return doc


def string_escaper(canvas: Canvas) -> Callable[[str], str]:
    """The canvas's escaping of a PDF string literal (``Canvas._escape``)."""
    escape: Callable[[str], str] = canvas._escape
    return escape


def current_matrix(canvas: Canvas) -> tuple[float, float, float, float, float, float]:
    """The canvas's current transformation (a b c d e f) (``Canvas._currentMatrix``)."""
    a, b, c, d, e, f = canvas._currentMatrix
    return a, b, c, d, e, f


def set_art_box(canvas: Canvas, box: list[float] | None) -> None:
    """The ArtBox of the following pages (ReportLab has setTrimBox and setBleedBox only;
    ``Canvas._artBox`` is what it writes)."""
    canvas._artBox = box


def page_transition(canvas: Canvas) -> Any:
    """The transition set for the page being finished (``Canvas._pageTransition``), None or
    empty when there is none."""
    return canvas._pageTransition


def finished_pages(canvas: Canvas) -> list[PDFPage]:
    """The pages of the canvas's document so far, the last one just finished by ``showPage``
    (``PDFDocument.Pages.pages``)."""
    pages: list[PDFPage] = canvas._doc.Pages.pages
    return pages


# --- fonts --------------------------------------------------------------------------------------

#: the large tables of a parsed face (TTFontFace attributes), which the font cache stores apart
FACE_TABLES = ("charToGlyph", "charWidths", "hmetrics", "glyphPos", "_ttf_data")
#: the one read only by HarfBuzz shaping (not used by cardforge), which it loads on first access
LAZY_FACE_TABLES = ("glyphToChar",)


def face_state(font: TTFont) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the font's attributes but its per-document ``state``, its face's attributes but the
    unpicklable ``_pdfScale``): what :func:`rebuild_font` makes the same font from."""
    font_attrs = {k: v for k, v in vars(font).items() if k != "state"}
    face_attrs = {k: v for k, v in vars(font.face).items() if k != "_pdfScale"}
    return font_attrs, face_attrs


def bare_face(attrs: dict[str, Any], cls: type[TTFontFace] = TTFontFace) -> TTFontFace:
    """A face of class ``cls`` (TTFontFace or a subclass) holding ``attrs``, without parsing
    a file; its ``_pdfScale`` (font units → PDF units, a lambda) made as ReportLab makes it."""
    face: TTFontFace = object.__new__(cls)  # what TTFontFace.__init__ would start from
    face.__dict__.update(attrs)
    upem = face.unitsPerEm
    face._pdfScale = (lambda x: x) if upem == 1000 else (lambda x, m=1000 / upem: x * m)
    return face


def rebuild_font(font_attrs: dict[str, Any], face: TTFontFace) -> TTFont:
    """The TTFont of :func:`face_state`'s attributes around ``face``, as ``TTFont.__init__``
    would leave it (its per-document subsets in a fresh ``state``)."""
    font = TTFont.__new__(TTFont)
    font.__dict__.update(font_attrs)
    font.face = face
    font.state = WeakKeyDictionary()
    return font
