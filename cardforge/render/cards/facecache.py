"""Watch mode's drawn faces: a card face's operators kept from one rebuild to the next.

A rebuild in watch mode (:mod:`cardforge.watch`) draws the whole deck again, into a new
document: a PDF's font subsets and names, and its forms, are numbered in the order the
document first uses them, so a face's operators are only right for a document in the same
state. Each face drawn is kept here (:data:`FACES`, off unless watch mode turns it on) with
what its operators read from its document, and written again instead of drawn only when the
new document reads the same:

- the face's **key** says everything that decides its drawing: the card (its data, copies,
  id, kind, stamp), its layout's digest, size and side, the deck (``deck.yaml`` as loaded,
  the layouts' ``vars``, the edition), the game's files and template folders by name, size
  and date (pictures, icons, fonts, layouts and templates), and the canvas's colour handling
  (``--cmyk``, ``--pure-black``);
- its **document reads** are checked before it is written again: each font it names has the
  same PDF name and, for a TrueType font, the same subset codes for every character (the
  whole table: a character new to the document earlier in the deck makes the faces after it
  drawn again); each form or image it names is defined, as the same thing;
- only a face whose drawing left its document as it found it, but for characters it gave
  their subset codes and icons it defined, is kept (when it is written again, those icons are
  defined again first, through the same ``ensure_icon``, and those characters given their
  codes again, in the same order; an icon showing text is not kept, its characters' order
  being the face's): one that defined another form or an image, used a font for the first
  time in the document, reported a problem (even one reported before), or wrote anything the
  checks do not understand (a name other than a font or a form: transparency, a spot colour,
  a link…) is drawn every time.

So a face written again is byte for byte what drawing it would write (``tests/test_watch.py``
compares a rebuilt deck with a fresh build's). The laid-out texts a kept face used count as
reused (:data:`cardforge.render.drawing.richtext.LAYOUTS`), as if it had been drawn.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from functools import cache
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfbase.ttfonts import TTFont

from cardforge.cache import file_stamps
from cardforge.render import rl_internals as rl
from cardforge.render.colour import is_cmyk
from cardforge.render.drawing.icons import ICON_LOG, ensure_icon, icon_form
from cardforge.render.drawing.richtext import LAYOUTS, KeptForBuilds

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

_XOBJECT_PREFIX = "FormXob."


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[bytes]]:
    """A PDF string literal (ReportLab escapes parentheses and backslashes inside one), a PDF
    name, a font's name, text shown in a form's operators (``Tj``, ``TJ``, ``'``, ``"``);
    compiled when watch mode first needs them, not in every build's start-up."""
    return (re.compile(r"\((?:[^()\\]|\\.)*\)", re.S), re.compile(r"/([^\s/()<>\[\]{}%]+)"),
            re.compile(r"F\d+(?:\+\d+)?"), re.compile(rb"T[jJ]\b|['\"]"))


class _Face:
    """A face kept (a plain class: a dataclass costs every build's start-up ~0.3 ms)."""

    __slots__ = ("code", "forms", "form_meaning", "fonts", "texts", "added", "icons")

    def __init__(self, code: list[str], forms: list[str], form_meaning: list[tuple[str, Any]],
                 fonts: list[tuple[str, str, dict[int, int] | None]], texts: list[tuple[Any, ...]],
                 added: list[tuple[TTFont, str]], icons: list[tuple[str, str, str]]):
        self.code = code  # the face's operators (in the card's own frame)
        self.forms = forms  # forms and images it draws, as named to ReportLab
        self.form_meaning = form_meaning  # (form, what it must be in the document)
        self.fonts = fonts  # (font, PDF name, TrueType subset codes before the face)
        self.texts = texts  # laid-out texts looked up (render/drawing/richtext.py LAYOUTS)
        self.added = added  # characters it gave codes, in that order, per TrueType font
        self.icons = icons  # icons it defined, in that order: (name, form, drawing key)


class FaceCache(KeptForBuilds):
    """Face key → the face drawn (see the module's docstring). One per process, off unless
    ``enabled`` (watch mode); ``hits`` and ``misses`` count faces written again and drawn."""

    def __init__(self) -> None:
        self.enabled = False
        self._items: dict[tuple[Any, ...], _Face] = {}
        self._tracked: set[tuple[Any, ...]] | None = None
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    def draw(self, painter: Any, key: tuple[Any, ...], draw: Callable[[], None]) -> None:
        """Write the face kept under ``key`` onto ``painter``'s current page when its document
        reads the same; else draw it (``draw``), keeping it when it may be written again."""
        if self._tracked is not None:
            self._tracked.add(key)
        face = self._items.get(key)
        if face is not None and _fits(face, painter) and LAYOUTS.touch(face.texts):
            self.hits += 1
            doc = rl.document(painter.c)
            for name, _, _ in face.icons:  # defined as it defined them: no text, nothing but the form
                ensure_icon(painter.c, name, painter.art.assets.custom)
            for font, chars in face.added:  # the same codes, given in the same order
                font.splitString(chars, doc)
            rl.page_operators(painter.c).extend(face.code)
            # every form it draws, listed again even when the page lists it already: a card
            # printed in several copies is replayed from what its first copy listed (cards.py _replay)
            rl.forms_in_use(painter.c).extend(face.forms)
            return
        self.misses += 1
        self._items.pop(key, None)
        kept = _record(painter, draw)
        if kept is not None:
            self._items[key] = kept


#: the process's kept faces (see :class:`FaceCache`)
FACES = FaceCache()


def _state(painter: Any) -> tuple[Any, ...]:
    """What drawing may add to the document and the painter, but characters given codes in
    a font's subsets: objects, fonts, the page's links, colours and shadings, the painter's
    forms and the build's problems."""
    c = painter.c
    doc = rl.document(c)
    return (len(doc.idToObject), tuple(doc.fontMapping), rl.page_additions(c), len(painter._forms),
            painter.issues.reported)


def _codes(doc: Any) -> dict[str, tuple[TTFont, int]]:
    """Each TrueType font of the document: (the font, how many characters its subsets hold)."""
    out = {}
    for name in doc.fontMapping:
        font = getFont(name)
        if isinstance(font, TTFont):
            state = font.state.get(doc)
            if state is not None:
                out[name] = (font, len(state.assignments))
    return out


def _record(painter: Any, draw: Callable[[], None]) -> _Face | None:
    c = painter.c
    doc = rl.document(c)
    code = rl.page_operators(c)
    start = len(code)
    outer = rl.forms_in_use(c)
    mine: list[str] = []
    before, codes = _state(painter), _codes(doc)
    rl.set_forms_in_use(c, mine)
    texts = LAYOUTS.record()
    icons: list[tuple[str, Any, str]] = []
    c.__dict__[ICON_LOG] = icons  # render/drawing/icons.py ensure_icon notes the icons it defines
    try:
        draw()
    finally:
        del c.__dict__[ICON_LOG]
        LAYOUTS.stop_recording()
        rl.set_forms_in_use(c, outer)
        outer.extend(mine)  # as drawing would have listed them
    after = _state(painter)
    if after[1:] != before[1:] or after[0] != before[0] + len(icons):  # no object but the icons' forms
        return None
    defined = []
    custom = painter.art.assets.custom
    for name, used, form in icons:
        if used is not custom or _patterns()[3].search(rl.form_operators(doc, form)):
            return None  # another game's icons, or an icon drawing text: its characters' codes
        defined.append((name, form, c.__dict__["_cardforge_icons"][form]))
    added = []
    for name, (font, n) in _codes(doc).items():
        if name not in codes:
            return None
        if n != codes[name][1]:
            new = list(font.state[doc].assignments)[codes[name][1]:]
            added.append((font, "".join(map(chr, new))))
    ops = code[start:]
    forms = list(dict.fromkeys(mine))
    reads = _reads(painter, ops, forms, codes)
    if reads is None:
        return None
    fonts, meaning = reads
    own = {form for _, form, _ in defined}  # checked as not defined yet instead (_fits)
    meaning = [(form, what) for form, what in meaning if form not in own]
    return _Face(ops, forms, meaning, fonts, texts, added, defined)


def _reads(painter: Any, ops: list[str], forms: list[str], codes: dict[str, tuple[TTFont, int]]
           ) -> tuple[list[tuple[str, str, dict[int, int] | None]], list[tuple[str, Any]]] | None:
    """The fonts and forms the operators name, with what each was in the document before the
    face (``codes``: how many characters each TrueType font had then); None when they name
    anything else (or a form drawn other than through ReportLab's ``doForm``)."""
    c = painter.c
    doc = rl.document(c)
    fonts_by_name = {internal: ps for ps, internal in doc.fontMapping.items()}
    xobjects = {rl.xobject_name(doc, f): f for f in forms}
    fonts: dict[str, tuple[str, str, dict[int, int] | None]] = {}
    string, pdf_name, font_name, _ = _patterns()
    for name in pdf_name.findall(string.sub("()", "\n".join(ops))):
        if font_name.fullmatch(name):
            base = "/" + name.split("+")[0]
            ps = fonts_by_name.get(base)
            if ps is None:
                return None
            if ps not in fonts:
                font = getFont(ps)
                if isinstance(font, TTFont) and ps not in codes:
                    return None
                fonts[ps] = (ps, base, _before(c, font, codes[ps][1]) if isinstance(font, TTFont) else None)
        elif name.startswith(_XOBJECT_PREFIX):
            if name not in xobjects:
                return None
        else:
            return None  # transparency, a colour space, a pattern…: not understood, drawn every time
    meaning = []
    for form in forms:
        what = _meaning(painter, form)
        if what is None:
            return None
        meaning.append((form, what))
    return list(fonts.values()), meaning


def _before(c: Canvas, font: TTFont, n: int) -> dict[int, int]:
    """The font's first ``n`` character codes in the canvas's document (its codes before a face
    added more), one copy per font and count for the document."""
    copies = c.__dict__.setdefault("_cardforge_codes", {})
    key = (font.fontName, n)
    got = copies.get(key)
    if got is None:
        assignments = font.state[rl.document(c)].assignments
        got = copies[key] = dict(islice(assignments.items(), n)) if n < len(assignments) else dict(assignments)
    return got


_ICON = "icon-"


def _meaning(painter: Any, form: str) -> Any:
    """What the form ``form`` is in the painter's document, to be the same in another one: a
    frame of the painter's (its key), an icon (its drawing's key), or named by its content (a
    picture's digest: ``svg-…``, ``art-…``); None when defined otherwise (not kept)."""
    c = painter.c
    doc = rl.document(c)
    if rl.xobject_name(doc, form) not in doc.idToObject:
        return None
    for key, name in painter._forms.items():
        if name == form:
            return ("frame", key)
    icons = c.__dict__.get("_cardforge_icons", {})
    if form.startswith(_ICON) and form in icons:
        return ("icon", icons[form])
    if form.startswith(("svg-", "art-")):
        return ("content",)
    return None


def _fits(face: _Face, painter: Any) -> bool:
    """Whether the painter's document reads as the face's did (its fonts and forms), and the
    icons it defined are not defined yet and would be named as they were."""
    c = painter.c
    doc = rl.document(c)
    custom = painter.art.assets.custom
    defined = c.__dict__.get("_cardforge_icons", {})
    for name, form, key in face.icons:
        if form in defined or icon_form(c, name, custom) != (form, key) \
                or rl.xobject_name(doc, form) in doc.idToObject:
            return False
    mapping = doc.fontMapping
    for ps, internal, codes in face.fonts:
        if mapping.get(ps) != internal:
            return False
        if codes is not None:
            state = getFont(ps).state.get(doc)
            if state is None or state.assignments != codes:
                return False
    for form, what in face.form_meaning:
        if _meaning(painter, form) != what:
            return False
    return True


def scope(art: Any, canvas: Canvas, ink_saver: bool) -> str:
    """What every face of a build shares: the deck as loaded, the layouts' variables, the
    edition, the game's files and the template folders (by name, size and date), and the
    canvas's colour handling. Computed once per build (per card art and canvas kind)."""
    flags = (is_cmyk(canvas), bool(canvas.__dict__.get("_cardforge_k_black")), ink_saver)
    cached = art.__dict__.setdefault("_face_scopes", {})
    if flags in cached:
        return str(cached[flags])
    data = art.data
    folders = [data.root, Path(art.game.folder), *art.library.folders]
    parts = [art.game.id, str(art.lang), f"{art.bleed_mm!r}", art.templates_digest or "", repr(flags),
             data.meta.model_dump_json(), json.dumps(art.vars, sort_keys=True, default=str)]
    # not the card files: each face's key holds its own card's data
    skip = [os.path.join(data.root, name) for name in data.meta.card_file_names]
    parts += file_stamps(dict.fromkeys(map(str, folders)), skip)
    value = cached[flags] = hashlib.blake2b("\x00".join(parts).encode("utf-8"), digest_size=16).hexdigest()
    return value
