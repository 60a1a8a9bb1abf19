"""One test per function of cardforge/render/rl_internals.py: each fails if ReportLab changes
the private internal the function relies on (ReportLab is pinned <5 in pyproject.toml)."""

from __future__ import annotations

import io
from weakref import WeakKeyDictionary

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFDocument, PDFPage
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace
from reportlab.pdfgen.canvas import Canvas

from cardforge.render import rl_internals as rl
from cardforge.resources import FONTS_DIR


def _canvas() -> tuple[Canvas, io.BytesIO]:
    out = io.BytesIO()
    return Canvas(out, pagesize=(200, 200), pageCompression=0, invariant=1), out


def test_page_operators_are_the_pages_content():
    c, out = _canvas()
    c.line(1, 2, 3, 4)
    ops = rl.page_operators(c)
    assert ops is rl.page_operators(c) and any(op.endswith(" l S") or op.endswith(" l") for op in ops)
    ops.append("0.5 w 7 8 m 9 10 l S")  # appended: written to the page as if drawn
    c.showPage()
    c.save()
    assert b"0.5 w 7 8 m 9 10 l S" in out.getvalue()


def test_forms_in_use_name_the_pages_forms():
    c, out = _canvas()
    c.beginForm("cfx")
    c.rect(0, 0, 5, 5)
    c.endForm()
    assert rl.forms_in_use(c) == []
    c.doForm("cfx")
    assert rl.forms_in_use(c) == ["cfx"]
    c.showPage()
    c.beginForm("cfy")
    c.endForm()
    rl.page_operators(c).append("/FormXob.cfy Do")  # a replayed form: listed by hand
    rl.forms_in_use(c).append("cfy")
    c.showPage()
    c.save()
    assert out.getvalue().count(b"/FormXob.cfy") >= 2  # in the second page's resources too


def test_set_forms_in_use_collects_what_is_drawn_meanwhile():
    c, out = _canvas()
    c.beginForm("cfa")
    c.endForm()
    page = rl.forms_in_use(c)
    mine: list[str] = []
    rl.set_forms_in_use(c, mine)
    c.doForm("cfa")
    assert mine == ["cfa"] and page == []
    rl.set_forms_in_use(c, page)
    page.extend(mine)
    c.showPage()
    c.save()
    assert b"/FormXob.cfa" in out.getvalue().split(b"/Resources", 1)[1]  # in the page's resources


def test_page_additions_count_links_colours_and_shadings():
    from reportlab.lib.colors import CMYKColorSep

    c, _ = _canvas()
    assert rl.page_additions(c) == (0, 0, 0)
    c.linkURL("https://example.org", (0, 0, 10, 10))
    c.setFillColor(CMYKColorSep(0, 0, 0, 1, spotName="Gold"))
    c.linearGradient(0, 0, 10, 10, ("#ff0000", "#0000ff"))
    assert rl.page_additions(c) == (1, 1, 1)


def test_xobject_name_is_the_forms_key_in_the_document():
    c, _ = _canvas()
    c.beginForm("cfz")
    c.endForm()
    name = rl.xobject_name(rl.document(c), "cfz")
    assert name == "FormXob.cfz" and name in rl.document(c).idToObject


def test_form_operators_are_the_forms_content():
    c, _ = _canvas()
    c.beginForm("cfo")
    c.rect(1, 2, 3, 4)
    c.endForm()
    ops = rl.form_operators(rl.document(c), "cfo")
    assert isinstance(ops, bytes) and b"1 2 3 4 re" in ops


def test_text_operators_are_the_text_objects_content():
    c, out = _canvas()
    t = c.beginText(10, 10)
    ops = rl.text_operators(t)
    ops.append("(hello) Tj")
    c.drawText(t)
    c.showPage()
    c.save()
    assert b"(hello) Tj" in out.getvalue()


def test_document_is_the_canvas_pdf_document():
    c, _ = _canvas()
    doc = rl.document(c)
    assert isinstance(doc, PDFDocument)
    font = TTFont("RlTest", str(FONTS_DIR / "DejaVuSans.ttf"), asciiReadable=False)  # as cardforge registers it
    pdfmetrics.registerFont(font)
    subsets = font.splitString("abc", doc)  # the per-document subset assignment
    assert [s for s, _ in subsets] == [0]
    assert font.getSubsetInternalName(0, doc).startswith("/F")


def test_string_escaper_escapes_a_pdf_literal():
    c, _ = _canvas()
    escape = rl.string_escaper(c)
    assert escape("a(b)c\\") == "a\\(b\\)c\\\\"
    assert escape("plain") == "plain"


def test_current_matrix_follows_transformations():
    c, _ = _canvas()
    assert rl.current_matrix(c) == (1, 0, 0, 1, 0, 0)
    c.translate(10, 20)
    c.scale(2, 3)
    assert rl.current_matrix(c) == (2, 0, 0, 3, 10, 20)


def test_set_art_box_writes_the_art_box():
    c, out = _canvas()
    rl.set_art_box(c, [1, 2, 30, 40])
    c.showPage()
    rl.set_art_box(c, None)
    c.showPage()
    c.save()
    pdf = out.getvalue()
    assert pdf.count(b"/ArtBox") == 1 and b"/ArtBox [ 1 2 30 40 ]" in pdf


def test_page_transition_is_empty_unless_set():
    c, _ = _canvas()
    assert not rl.page_transition(c)
    c.setPageTransition("Dissolve", 1)
    assert rl.page_transition(c)


def test_finished_pages_end_with_the_page_just_shown():
    c, _ = _canvas()
    assert rl.finished_pages(c) == []
    c.drawString(10, 10, "one")
    c.showPage()
    pages = rl.finished_pages(c)
    assert len(pages) == 1 and isinstance(pages[0], PDFPage)
    assert pages[0].stream  # the page's operators, not yet encoded
    c.showPage()
    assert len(rl.finished_pages(c)) == 2


def test_a_font_rebuilt_from_its_state_is_the_same_font():
    font = TTFont("RlState", str(FONTS_DIR / "DejaVuSans-Oblique.ttf"), asciiReadable=False)
    font_attrs, face_attrs = rl.face_state(font)
    assert "state" not in font_attrs and "_pdfScale" not in face_attrs
    assert {"charToGlyph", "charWidths", "hmetrics", "glyphPos", "_ttf_data", "glyphToChar"} <= set(face_attrs)
    assert set(rl.FACE_TABLES) | set(rl.LAZY_FACE_TABLES) <= set(face_attrs)

    class Sub(TTFontFace):
        pass

    face = rl.bare_face(dict(face_attrs), Sub)
    assert type(face) is Sub and face._pdfScale(face.unitsPerEm) == 1000
    rebuilt = rl.rebuild_font({k: v for k, v in font_attrs.items() if k != "face"}, face)
    assert isinstance(rebuilt.state, WeakKeyDictionary) and rebuilt.face is face
    assert rebuilt.stringWidth("Œuvre ♪", 12) == font.stringWidth("Œuvre ♪", 12)

    def pdf(f: TTFont) -> bytes:  # the same PDF from either font
        pdfmetrics.registerFont(f)
        c, out = _canvas()
        c.setFont("RlState", 12)
        c.drawString(10, 10, "Œuvre ♪ café")
        c.showPage()
        c.save()
        return out.getvalue()

    assert pdf(rebuilt) == pdf(TTFont("RlState", str(FONTS_DIR / "DejaVuSans-Oblique.ttf"), asciiReadable=False))


def _doc_with_forms(pages_using_big: int) -> tuple[Canvas, io.BytesIO]:
    """A small form drawn on the first page only, and a large one on ``pages_using_big`` pages."""
    c, out = _canvas()
    c.beginForm("small")
    c.rect(1, 1, 5, 5, fill=1)
    c.endForm()
    c.beginForm("big")
    for i in range(120):  # ~2 KB of operators zlib cannot shrink much
        c.line(i * 1.37 % 97, i * 2.71 % 89, i * 3.14 % 83, i * 1.61 % 79)
    c.endForm()
    c.doForm("small")
    c.doForm("small")
    for page in range(max(pages_using_big, 1)):
        if page < pages_using_big:
            c.doForm("big")
        c.showPage()
    return c, out


def test_inline_cheap_forms_draws_in_place_the_forms_that_do_not_pay():
    import pypdf

    c, out = _doc_with_forms(pages_using_big=3)
    assert rl.inline_cheap_forms(c, unclipped=["small"]) == 1
    c.save()
    reader = pypdf.PdfReader(io.BytesIO(out.getvalue()), strict=True)
    first = reader.pages[0]
    names = list(first["/Resources"]["/XObject"])
    assert names == ["/FormXob.big"]  # the small one is gone from the resources…
    ops = first.get_contents().get_data()
    assert b"FormXob.small" not in out.getvalue()  # …and from the file
    assert ops.count(b"re") == 2 and b" re W n" not in ops  # drawn twice in place, no clip (unclipped)
    assert all(list(p["/Resources"]["/XObject"]) == ["/FormXob.big"] for p in reader.pages)
    # object numbers stay dense: every object in the cross-reference table is there
    size = reader.trailer["/Size"]
    assert sorted(reader.xref[0]) == list(range(1, size)) and all(reader.get_object(n) is not None
                                                                  for n in range(1, size))


def test_inline_cheap_forms_keeps_a_large_form_many_pages_share_and_clips_what_it_inlines():
    c, out = _doc_with_forms(pages_using_big=1)
    assert rl.inline_cheap_forms(c) == 2  # on one page, even the large form does not pay
    c.save()
    pdf = out.getvalue()
    assert b"/XObject" not in pdf and b"FormXob" not in pdf
    assert b"n 0 0 200 200 re W n" in pdf  # each drawn in place clipped to its box, as Do does


def test_share_page_resources_gives_every_page_one_dictionary():
    import pypdf

    c, out = _canvas()
    for name in ("a", "b"):
        c.beginForm(name)
        c.rect(1, 1, 5, 5)
        c.endForm()
    c.doForm("a")
    c.showPage()
    c.doForm("b")
    c.showPage()
    assert rl.share_page_resources(c)
    c.save()
    reader = pypdf.PdfReader(io.BytesIO(out.getvalue()), strict=True)
    refs = [p.get_object().get("/Resources") for p in reader.pages]
    assert all(isinstance(r, pypdf.generic.IndirectObject) for r in refs) and refs[0] == refs[1]
    assert sorted(refs[0].get_object()["/XObject"]) == ["/FormXob.a", "/FormXob.b"]
    assert "/Font" in refs[0].get_object()


def test_share_page_resources_leaves_pages_with_colour_spaces_alone():
    from reportlab.lib.colors import CMYKColorSep

    c, out = _canvas()
    c.setFillColor(CMYKColorSep(1, 1, 1, 1, spotName="All"))
    c.rect(1, 1, 5, 5, fill=1)
    c.showPage()
    c.rect(1, 1, 5, 5)
    c.showPage()
    assert not rl.share_page_resources(c)
    c.save()
    assert b"/ColorSpace" in out.getvalue()


def test_add_output_intent_writes_it_in_the_catalog():
    import pypdf

    c, out = _canvas()
    rl.add_output_intent(c, b"\x00\x00\x00\x10" + b"profile!" * 2, n=4, identifier="FOGRA39", info="Coated",
                         registry="http://www.color.org")
    c.rect(0, 0, 5, 5)
    c.showPage()
    c.save()
    reader = pypdf.PdfReader(io.BytesIO(out.getvalue()))
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4 and profile.get_data().endswith(b"profile!profile!")


def test_set_info_entries_adds_keys_to_the_info_dictionary():
    import pypdf

    c, out = _canvas()
    rl.set_info_entries(c, {"GTS_PDFXVersion": "PDF/X-1a:2003"}, trapped="False")
    c.showPage()
    c.save()
    info = pypdf.PdfReader(io.BytesIO(out.getvalue())).metadata
    assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003" and info["/Trapped"] == "/False"
    assert info["/Title"] == "untitled"  # ReportLab's own keys still there


def test_colour_enforcer_sees_every_colour_set():
    from reportlab.lib.colors import CMYKColor

    c, out = _canvas()
    assert rl.colour_enforcer(c) is None
    seen = []

    def enforce(colour):
        seen.append(colour)
        return CMYKColor(0, 0, 0, 1)

    rl.set_colour_enforcer(c, enforce)
    assert rl.colour_enforcer(c) is enforce
    c.setFillColorRGB(1, 0, 0)
    c.setStrokeColor("#00ff00")
    t = c.beginText(10, 10)  # a text object takes the canvas's enforcer
    t.setFillColor("#0000ff")
    c.drawText(t)
    c.showPage()
    c.save()
    assert len(seen) == 3
    assert b"rg" not in out.getvalue().split(b"stream")[1] and out.getvalue().count(b"0 0 0 1 k") >= 2
