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

import zlib
from collections.abc import Callable, Collection
from typing import Any
from weakref import WeakKeyDictionary

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFDictionary,
    PDFDocument,
    PDFFormXObject,
    PDFName,
    PDFPage,
    PDFResourceDictionary,
    PDFStream,
    PDFString,
    PDFZCompress,
)
from reportlab.pdfbase.pdfdoc import PDFDictionary as Dict
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


def set_forms_in_use(canvas: Canvas, names: list[str]) -> None:
    """Make ``names`` the list of forms the current page uses (``Canvas._formsinuse``): what
    is drawn meanwhile lists its forms there (render/cards/facecache.py notes a face's forms)."""
    canvas._formsinuse = names


def page_additions(canvas: Canvas) -> tuple[int, int, int]:
    """How many links, colours (spot colours, named colour spaces) and shadings the current
    page has (``Canvas._annotationrefs``, ``_colorsUsed``, ``_shadingUsed``): drawing that
    adds one is not written again from kept operators (render/cards/facecache.py)."""
    return len(canvas._annotationrefs), len(canvas._colorsUsed), len(canvas._shadingUsed)


def xobject_name(doc: PDFDocument, name: str) -> str:
    """The name a form or image given to ReportLab as ``name`` has in the document
    (``FormXob.<name>``), as the key of its object (``PDFDocument.idToObject``)."""
    return str(doc.getXObjectName(name))


def form_operators(doc: PDFDocument, name: str) -> bytes:
    """The operators of the form ``name`` (as given to ``beginForm``) defined in ``doc``
    (``PDFFormXObject.stream``, uncompressed until the document is written)."""
    return _holder_text(doc.idToObject[doc.getXObjectName(name)])


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


# --- forms a document does not gain by --------------------------------------------------------

#: what keeping a form costs beyond its operators: its stream dictionary (type, bounding box,
#: matrix, resources, filter, length) and the object's header and cross-reference entry
FORM_COST = 230
#: and per stream that draws it: its name and reference in that stream's resources
FORM_USE_COST = 22


_PREAMBLE = b"1 0 0 1 0 0 cm \n"


def _holder_text(holder: Any) -> bytes:
    """The operators of a page or form, decompressed if the page was compressed already
    (render/output.py compresses each page when it is finished)."""
    if isinstance(holder, PDFPage) and holder.Contents is not None:
        return zlib.decompress(holder.Contents.content)
    data = holder.stream or b""
    return data.encode("utf8") if isinstance(data, str) else data


def _set_holder_text(holder: Any, text: bytes) -> None:
    if isinstance(holder, PDFPage) and holder.Contents is not None:
        holder.Contents.content = zlib.compress(text)
    else:
        holder.stream = text


def inline_cheap_forms(canvas: Canvas, unclipped: Collection[str] = ()) -> int:
    """Draw in place the forms that cost more bytes than they save, before ``save``.

    A form (``beginForm``…``doForm``) is written once and named by every stream that draws it;
    that pays when many pages draw it, and costs bytes when one page or two do: its dictionary
    outweighs the operators a page's compression would have shared. Such a form's operators
    replace its ``Do`` (inside ``q``…``Q`` and clipped to its bounding box, which is what ``Do``
    does; left out for the forms named in ``unclipped``, whose users clip them as tightly
    already), its own forms join the stream's resources, and it leaves the document. Forms with
    a matrix or graphics-state resources are left alone. Returns how many went."""
    doc = document(canvas)
    no_clip = {doc.getXObjectName(name) for name in unclipped}
    forms = {name: obj for name, obj in doc.idToObject.items() if isinstance(obj, PDFFormXObject)}
    if not forms:
        return 0
    holders: list[Any] = [*doc.Pages.pages, *forms.values()]
    index = {name: len(doc.Pages.pages) + i for i, name in enumerate(forms)}
    users: dict[str, set[int]] = {name: set() for name in forms}  # from the resources: no page is read
    for i, holder in enumerate(holders):
        for name in holder.XObjects.dict if holder.XObjects is not None else ():
            if name in users:
                users[name].add(i)
    gone: set[str] = set()
    pending: dict[int, bytes] = {}  # the streams changed, written back (compressed) once at the end
    progress = True
    while progress:
        progress = False
        for name, form in forms.items():
            me = index[name]
            if name in gone or me in users[name] or form.Matrix is not None \
                    or getattr(form, "ExtGState", None) or getattr(form, "_colorsUsed", None):
                continue
            who = sorted(users[name])
            body = pending[me] if me in pending else _holder_text(form)
            if body.startswith(_PREAMBLE):  # ReportLab's identity matrix, first in every stream
                body = body[len(_PREAMBLE):]
            if who and (len(who) - 1) * len(zlib.compress(body)) >= FORM_COST + FORM_USE_COST * len(who):
                continue
            _inline_form(name, form, body, name not in no_clip, [holders[i] for i in who], who, pending, users)
            for other in users.values():
                other.discard(me)
            del doc.idToObject[name]
            gone.add(name)
            progress = True
    dropped = {index[name] for name in gone}
    for i, text in pending.items():
        if i not in dropped:
            _set_holder_text(holders[i], text)
    if gone:  # object numbers are given when an object is registered: close the gaps
        order = [n for _, n in sorted(doc.numberToId.items()) if n not in gone]
        doc.numberToId = dict(enumerate(order, 1))
        doc.idToObjectNumberAndVersion = {n: (i, 0) for i, n in enumerate(order, 1)}
        doc.objectcounter = len(order)
    return len(gone)


def _inline_form(name: str, form: Any, body: bytes, clip_it: bool, users_of: list[Any], who: list[int],
                 pending: dict[int, bytes], users: dict[str, set[int]]) -> None:
    """Form ``name``'s operators (``body``) in place of its ``Do`` in each stream that draws it
    (``users_of``, numbered ``who``; the new text in ``pending``), inside ``q``…``Q`` and
    clipped to its bounding box when ``clip_it``; its own forms join each user's resources."""
    clip = b""
    if clip_it:
        x0, y0, x1, y1 = form.BBoxList()
        clip = b"n %s re W n\n" % fp_str(x0, y0, x1 - x0, y1 - y0).encode()
    inline = b"q\n%s%s\nQ" % (clip, body.rstrip())
    inner = dict(form.XObjects.dict) if form.XObjects is not None else {}
    for i, user in zip(who, users_of):
        text = pending[i] if i in pending else _holder_text(user)
        pending[i] = text.replace(f"/{name} Do".encode(), inline)
        entries = dict(user.XObjects.dict)
        del entries[name]
        entries.update(inner)
        user.XObjects = PDFDictionary(entries) if entries else None
        for other in inner:
            if other in users:
                users[other].add(i)


def share_page_resources(canvas: Canvas) -> bool:
    """Give every page of the document one resource dictionary, written once: the fonts (one
    dictionary already) and every form and image any page draws, instead of a list in each
    page of the forms that page draws (~20 bytes a form a page: a third of a sheet's page
    object). A resource dictionary may name more than its page uses (ISO 32000-1, 7.8.3).
    Left alone when a page has colour spaces, shadings or graphics states of its own. Call
    before ``save``; returns whether the pages share."""
    doc = document(canvas)
    pages = doc.Pages.pages
    if len(pages) < 2:
        return False
    xobjects: dict[str, Any] = {}
    for page in pages:
        if page.Resources or page.ExtGState or getattr(page, "_colorsUsed", None) \
                or getattr(page, "_shadingUsed", None):
            return False
        if page.XObjects is not None:
            xobjects.update(page.XObjects.dict)
    resources = PDFResourceDictionary()
    resources.basicFonts()
    if xobjects:
        resources.XObject = dict(sorted(xobjects.items()))
    shared = doc.Reference(resources)
    for page in pages:
        page.Resources = shared
    return True


# --- PDF/X ---------------------------------------------------------------------------------------

def add_output_intent(canvas: Canvas, icc: bytes, *, n: int, identifier: str, info: str, registry: str) -> None:
    """Give the document's catalog an ``/OutputIntents`` array with one PDF/X output intent
    (``/S /GTS_PDFX``) and its ICC profile embedded as a Flate stream with ``/N n``
    (``PDFCatalog.__NoDefault__`` lists the catalog keys ReportLab writes: extended for this
    catalog only)."""
    doc = document(canvas)
    profile = PDFStream(dictionary=PDFDictionary({"N": n}), content=icc, filters=[PDFZCompress])
    intent = PDFDictionary({
        "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString(identifier), "OutputCondition": PDFString(info),
        "Info": PDFString(info), "RegistryName": PDFString(registry),
        "DestOutputProfile": doc.Reference(profile),
    })
    catalog = doc.Catalog
    catalog.__NoDefault__ = [*type(catalog).__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = PDFArray([doc.Reference(intent)])


def set_info_entries(canvas: Canvas, entries: dict[str, str], trapped: str = "False") -> None:
    """Add name entries (``/GTS_PDFXVersion (PDF/X-1a:2003)``…) to the document's Info
    dictionary and set ``/Trapped`` (``PDFDocument.info``, whose ``format`` writes a fixed set
    of keys: wrapped)."""
    doc = document(canvas)
    info = doc.info
    info.trapped = trapped
    plain_format = type(info).format

    def format(self: Any, document: Any) -> bytes:
        text: bytes = plain_format(self, document)
        extra = Dict({k: PDFString(v) for k, v in entries.items()}).format(document)
        return text[:-2] + extra[2:]  # "<< … >>" + "<< … >>" → one dictionary

    info.format = format.__get__(info)


def colour_enforcer(canvas: Canvas) -> Callable[[Any], Any] | None:
    """The canvas's colour enforcer (``Canvas._enforceColorSpace``, set by the constructor's
    ``enforceColorSpace``): called by ``setFillColor``/``setStrokeColor`` with every colour set,
    its result is what is written. Text objects copy it when they are made."""
    enforcer: Callable[[Any], Any] | None = canvas._enforceColorSpace
    return enforcer


def set_colour_enforcer(canvas: Canvas, enforcer: Callable[[Any], Any] | None) -> None:
    """Replace the canvas's colour enforcer (for what is drawn from now on)."""
    canvas._enforceColorSpace = enforcer
