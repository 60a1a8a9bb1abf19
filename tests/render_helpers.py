"""Reading built PDFs back for the rendering tests: card positions from the content stream,
crop marks, text inside a rectangle (pypdfium2), fonts. Independent of cardforge's code."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pypdf
from pypdf.generic import ContentStream

from conftest import FIXTURES

MM = 72 / 25.4
RENDER_FIXTURES = FIXTURES / "render"
FIXTURE_DATA = RENDER_FIXTURES / "card_data"
FIXTURE_TEMPLATES = RENDER_FIXTURES / "templates"


def register_fixture_game(monkeypatch) -> None:
    """Make ``fixture_deck`` (the game folder tests/fixtures/render/card_data/fixture_deck/)
    known by id for this test, as ``cardforge build tests/fixtures/…/fixture_deck`` would."""
    from cardforge import games

    monkeypatch.setattr(games, "_BY_PATH", dict(games._BY_PATH))
    games.load_game_folder(FIXTURE_DATA / "fixture_deck")


def _mul(a, b):
    """PDF matrices [a b c d e f]: a then b."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def _apply(m, x, y):
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


@dataclass(frozen=True)
class Clip:
    """A card's bleed box on the page (mm), whether it is drawn turned 180°, and where the
    card's own origin (its trim's bottom-left corner, as the card sees it) lands on the page."""

    x: float
    y: float
    w: float
    h: float
    rotated: bool
    origin: tuple[float, float] = (0.0, 0.0)
    turn: int = 0  # quarter turns anticlockwise

    def trim(self, bleed: float) -> tuple[float, float, float, float]:
        return (round(self.x + bleed, 3), round(self.y + bleed, 3), round(self.w - 2 * bleed, 3),
                round(self.h - 2 * bleed, 3))


def card_trims(clips: list[Clip], bleed: float, size: tuple[float, float] | None = None
               ) -> list[tuple[float, float, float, float]]:
    """Trim boxes (x, y, w, h, mm) of the cards of a sheet. With the cards' ``size``: exactly,
    from where each card's origin lands and how it is turned. Without: for sheets whose cards
    are butted or not at all, an edge of a clip that meets another card's clip edge to edge is
    the shared cut line itself (the card is clipped to its trim there), every other edge is the
    trim plus ``bleed`` (not for sheets with separate bleeds meeting: there, neighbours' bleed
    boxes also meet)."""
    if size is not None:
        exact = []
        for c in clips:
            w, h = (size[1], size[0]) if c.turn % 2 else size
            ox, oy = c.origin
            x0 = {0: ox, 1: ox - w, 2: ox - w, 3: ox}[c.turn]
            y0 = {0: oy, 1: oy, 2: oy - h, 3: oy - h}[c.turn]
            exact.append((round(x0, 3), round(y0, 3), round(w, 3), round(h, 3)))
        return exact
    out = []
    for c in clips:
        x0, y0, x1, y1 = c.x, c.y, c.x + c.w, c.y + c.h
        left = bottom = right = top = bleed
        for o in clips:
            if o is c:
                continue
            ox0, oy0, ox1, oy1 = o.x, o.y, o.x + o.w, o.y + o.h
            across_y = min(y1, oy1) - max(y0, oy0) > 1e-3
            across_x = min(x1, ox1) - max(x0, ox0) > 1e-3
            if across_y and abs(ox1 - x0) < 2e-3:
                left = 0.0
            if across_y and abs(ox0 - x1) < 2e-3:
                right = 0.0
            if across_x and abs(oy1 - y0) < 2e-3:
                bottom = 0.0
            if across_x and abs(oy0 - y1) < 2e-3:
                top = 0.0
        out.append((round(x0 + left, 3), round(y0 + bottom, 3), round(x1 - x0 - left - right, 3),
                    round(y1 - y0 - bottom - top, 3)))
    return out


def operations(page) -> list[tuple[list, bytes]]:
    return ContentStream(page.get_contents(), page.pdf).operations


def card_clips(page) -> list[Clip]:
    """Every ``re W n`` clip on the page itself, one graphics-state level deep (a card opens
    with ``q … cm … re W n``; clips inside a card's own drawing are deeper), in page
    millimetres: the cards' bleed boxes."""
    ctm = [1, 0, 0, 1, 0, 0]
    stack = []
    previous = None
    out = []
    for args, op in operations(page):
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul([float(a) for a in args], ctm)
        elif op in (b"W", b"W*") and previous is not None and previous[1] == b"re" and len(stack) == 1:
            x, y, w, h = (float(a) for a in previous[0])
            corners = [_apply(ctm, x, y), _apply(ctm, x + w, y + h)]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            ox, oy = _apply(ctm, 0, 0)
            turn = {(1, 0): 0, (0, 1): 1, (-1, 0): 2, (0, -1): 3}[(round(ctm[0]), round(ctm[1]))]
            out.append(Clip(round(min(xs) / MM, 3), round(min(ys) / MM, 3), round((max(xs) - min(xs)) / MM, 3),
                            round((max(ys) - min(ys)) / MM, 3), rotated=ctm[0] < 0,
                            origin=(round(ox / MM, 3), round(oy / MM, 3)), turn=turn))
        previous = (args, op)
    return out


def card_blocks(page) -> list[tuple]:
    """The operators of each card drawn on the page (each ``q … Q`` at the page's level), less
    its position and clip (``cm``, ``re W n``): identical for two copies of one card."""
    out = []
    depth, block = 0, []
    for args, op in operations(page):
        if depth >= 1:
            block.append((tuple(str(a) for a in args), op))
        if op == b"q":
            depth += 1
        elif op == b"Q":
            depth -= 1
            if depth == 0:
                ops = [o for _, o in block]
                if ops and ops[0] == b"cm" and (b"W*" in ops or b"W" in ops):
                    clip = ops.index(b"W*") if b"W*" in ops else ops.index(b"W")
                    out.append(tuple(block[clip + 2:-1]))  # after "re W n", before the closing Q
                block = []
    return out


def line_segments(page, forms: bool = False) -> list[tuple[float, float, float, float]]:
    """Every straight ``m … l`` segment drawn on the page itself, in mm; with ``forms``, those
    of the forms it draws too (crop marks shared by a file's full sheets are one form)."""
    out: list[tuple[float, float, float, float]] = []

    def walk(ops, resources, ctm) -> None:
        stack = []
        start = None
        for args, op in ops:
            if op == b"q":
                stack.append(ctm)
            elif op == b"Q":
                ctm = stack.pop()
            elif op == b"cm":
                ctm = _mul([float(a) for a in args], ctm)
            elif op == b"m":
                start = _apply(ctm, float(args[0]), float(args[1]))
            elif op == b"l" and start is not None:
                end = _apply(ctm, float(args[0]), float(args[1]))
                out.append(tuple(round(v / MM, 3) for v in (*start, *end)))
                start = end
            elif op == b"Do" and forms and resources is not None:
                xobject = resources.get_object().get("/XObject")
                form = xobject.get_object()[args[0]].get_object() if xobject is not None else None
                if form is not None and form.get("/Subtype") == "/Form":
                    walk(ContentStream(form, page.pdf).operations, form.get("/Resources"), ctm)

    walk(operations(page), page.get("/Resources"), [1, 0, 0, 1, 0, 0])
    return out


def plain(text: str) -> str:
    """Card text as a data author typed it: the typography cardforge applies when laying out
    (’ for ', a narrow no-break space inside « » and before ; : ! ?) read back as ' and a
    space, for tests about content (tests/test_typography.py checks the typography itself)."""
    return text.replace("\u2019", "'").replace("\u202f", " ")


def text_in(pdf_path: Path, page_index: int, rect_mm: tuple[float, float, float, float]) -> str:
    """The text pdfium finds inside a rectangle (x, y, w, h in mm) of a page."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        textpage = doc[page_index].get_textpage()
        x, y, w, h = rect_mm
        return plain(textpage.get_text_bounded(left=x * MM, bottom=y * MM, right=(x + w) * MM, top=(y + h) * MM))
    finally:
        doc.close()


def page_texts_by_rect(pdf_path: Path, page_index: int, rects) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        textpage = doc[page_index].get_textpage()
        out = []
        for x, y, w, h in rects:
            out.append(plain(textpage.get_text_bounded(left=x * MM, bottom=y * MM, right=(x + w) * MM,
                                                       top=(y + h) * MM)))
        return out
    finally:
        doc.close()


def fonts_of(reader: pypdf.PdfReader) -> dict[str, bool]:
    """Every font used (pages and forms): base name → embedded (has a font file)."""
    found: dict[str, bool] = {}
    seen = set()

    def visit_resources(res):
        if res is None:
            return
        res = res.get_object()
        fonts = res.get("/Font")
        if fonts is not None:
            for ref in fonts.get_object().values():
                font = ref.get_object()
                desc = font.get("/FontDescriptor")
                embedded = False
                if desc is not None:
                    d = desc.get_object()
                    embedded = any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                found[str(font.get("/BaseFont"))] = embedded
        xobjects = res.get("/XObject")
        if xobjects is not None:
            for ref in xobjects.get_object().values():
                key = getattr(ref, "idnum", id(ref))
                if key in seen:
                    continue
                seen.add(key)
                xo = ref.get_object()
                if xo.get("/Subtype") == "/Form":
                    visit_resources(xo.get("/Resources"))

    for page in reader.pages:
        visit_resources(page.get("/Resources"))
    return found


def form_count(reader: pypdf.PdfReader) -> int:
    """Form XObjects reachable from the pages (each counted once)."""
    seen = set()
    forms = set()

    def visit(res):
        if res is None:
            return
        xobjects = res.get_object().get("/XObject")
        if xobjects is None:
            return
        for ref in xobjects.get_object().values():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            xo = ref.get_object()
            if xo.get("/Subtype") == "/Form":
                forms.add(ref.idnum)
                visit(xo.get("/Resources"))

    for page in reader.pages:
        visit(page.get("/Resources"))
    return len(forms)


@dataclass(frozen=True)
class Char:
    """One character pdfium reads on a page: its text, its turn (degrees clockwise, as pdfium
    gives it: text drawn for a card turned 90° counter-clockwise reads 90), its font size (pt)
    and its box (page mm, y up)."""

    text: str
    angle: int
    size: float
    box: tuple[float, float, float, float]  # left, bottom, right, top

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)


def page_chars(pdf_path: Path, page_index: int) -> list[Char]:
    """Every printed character of a page (not the spaces and line breaks pdfium makes up)."""
    import math

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        textpage = doc[page_index].get_textpage()
        out = []
        for i in range(textpage.count_chars()):
            if raw.FPDFText_IsGenerated(textpage, i):
                continue
            text = plain(textpage.get_text_range(i, 1))
            if not text.strip():
                continue
            angle = round(math.degrees(raw.FPDFText_GetCharAngle(textpage, i))) % 360
            left, bottom, right, top = textpage.get_charbox(i)
            out.append(Char(text, angle, round(raw.FPDFText_GetFontSize(textpage, i), 2),
                            (left / MM, bottom / MM, right / MM, top / MM)))
        return out
    finally:
        doc.close()


def _to_unicode(font) -> dict[int, str]:
    """A simple font's ToUnicode map (the bfchar and bfrange entries ReportLab writes)."""
    stream = font.get("/ToUnicode")
    if stream is None:
        return {}
    data = stream.get_object().get_data().decode("latin-1")
    out: dict[int, str] = {}
    for block in re.findall(r"beginbfchar(.*?)endbfchar", data, re.S):
        for code, uni in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            out[int(code, 16)] = bytes.fromhex(uni).decode("utf-16-be")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", data, re.S):
        for lo, hi, start in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            for k, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                out[code] = chr(int(start, 16) + k)
    return out


def shown_strings(stream, resources, pdf) -> list[str]:
    """Every string a content stream shows with Tj, as text (through its font's ToUnicode:
    cardforge's fonts number their glyphs in order of use, so the bytes are not the text)."""
    fonts = resources.get_object().get("/Font") if resources is not None else None
    maps: dict[str, dict[int, str]] = {}
    current: dict[int, str] = {}
    out = []
    for args, op in ContentStream(stream, pdf).operations:
        if op == b"Tf" and fonts is not None:
            name = str(args[0])
            if name not in maps:
                maps[name] = _to_unicode(fonts.get_object()[name].get_object())
            current = maps[name]
        elif op == b"Tj":
            data = bytes(args[0]) if isinstance(args[0], bytes) else args[0].original_bytes
            out.append("".join(current.get(b, "\ufffd") for b in data))
    return out
