"""SVG files made safe to draw: checked and bounded before svglib turns them into a ReportLab
drawing (:func:`cardforge.render.drawing.images.load_art`), and drawn with their raster images.

A few kilobytes of SVG can ask for a lot. Before svglib sees the tree (:func:`check_tree`):

- the file's size (``svg_bytes``; read by the caller) and the tree's **cost**: every element
  counts once, and a ``<use>`` counts as the elements it copies, through any depth of ``<use>``
  of ``<use>`` (``svg_elements``: 1.7 KB of nested ``<use>`` drew 10^8 shapes in 30 s); a
  ``<use>`` that reaches itself, or names another file, is refused;
- the ``<style>`` sheets' selectors, by an estimate of their matching work: a selector with
  ``k`` descendant (or sibling) steps may try every way to pick ``k`` ancestors (siblings), so
  it costs elements × depth^k (siblings^k) (``svg_css_work``: 376 bytes of CSS ran for minutes);
- every ``<image>``: a ``data:`` PNG or JPEG, or a PNG/JPEG file in the SVG's folder (a regular
  file, read within ``image_bytes``, never a FIFO), each within ``image_pixels`` (a 169-megapixel
  raster skipped the 50 MP limit) and decoded whole; a file is embedded as a ``data:`` URI, so
  svglib never opens a file itself;
- every number of its geometry and style attributes (:func:`check_numbers`): ``nan``, ``inf``
  or past :data:`MAX_SVG_NUMBER` either way is refused, naming the element, its line and the
  attribute (ReportLab cannot write ``1e308`` and writes ``nan`` as is: a broken PDF); a denormal
  such as ``1e-320`` is left alone, it is written as 0;
- then the drawing is tried (:func:`trial_render`): numbers no PDF can hold (one that svglib's
  or ReportLab's arithmetic made from allowed ones) fail ``check`` with a message, not the build
  with a ValueError, and so does a ``nan`` written in the trial PDF. A drawing smaller than
  :data:`MIN_SVG_POINTS` either way is refused too: scaled to a box, its factor would be past
  what a PDF holds.

Raster images are drawn as image XObjects (:func:`draw_drawing`): ReportLab's own renderer
draws them inline, which a form (how an SVG is drawn, once per PDF) cannot hold (the build
failed with ``TypeError: sequence item N: expected str instance, bytes found``).
"""

from __future__ import annotations

import base64
import binascii
import io
import math
import os
import re
import warnings
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, UnidentifiedImageError
from reportlab.lib.utils import ImageReader

from cardforge.data.yamlio import read_bytes
from cardforge.errors import ArtError, reason
from cardforge.limits import at_most, env_name, limit
from cardforge.problems import short_repr
from cardforge.render.fonts import font_name

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing
    from reportlab.pdfgen.canvas import Canvas

XLINK = "{http://www.w3.org/1999/xlink}href"
_DATA_URI = re.compile(r"^\s*data:([^,;]*)((?:;[^,;]*)*),", re.IGNORECASE)
#: what svglib reads from a ``data:`` URI (anything else it would take for a file name)
_DATA_TYPES = {"image/png": "PNG", "image/jpeg": "JPEG", "image/jpg": "JPEG"}


#: the largest number (either way) an SVG's geometry may hold: far past any drawing (a billion
#: points is 350 km), far below what ReportLab can write (1e20) once scaled to a box
MAX_SVG_NUMBER = 1e9
#: the smallest width and height (points) of an SVG: scaled up to a box (at most ``length_mm``,
#: 5,669 pt) its factor stays below 10^6
MIN_SVG_POINTS = 0.01
#: the attributes (and style properties) whose numbers reach ReportLab
NUMERIC_ATTRIBUTES = frozenset({
    "x", "y", "width", "height", "rx", "ry", "cx", "cy", "r", "x1", "y1", "x2", "y2", "fx", "fy", "fr", "dx",
    "dy", "d", "points", "transform", "gradientTransform", "patternTransform", "viewBox", "offset",
    "stroke-width", "stroke-dasharray", "stroke-dashoffset", "stroke-miterlimit", "font-size", "opacity",
    "fill-opacity", "stroke-opacity", "stop-opacity", "letter-spacing", "word-spacing", "rotate", "textLength",
    "startOffset", "refX", "refY", "markerWidth", "markerHeight", "pathLength", "baseline-shift"})
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|(?<![A-Za-z])(?:nan|inf(?:inity)?)(?![A-Za-z])",
                     re.IGNORECASE)
_DECLARATION = re.compile(r"([A-Za-z-]+)\s*:\s*([^;{}]*)")
#: what a value needs to hold a number past MAX_SVG_NUMBER or not finite (an exponent, ten digits
#: in a row, the letters of nan or inf): only such values are scanned number by number (path data
#: rarely has any)
_SUSPECT = re.compile(r"[eEnNiI]|(?<![0-9])[0-9]{10}")


class SvgRefused(Exception):
    """The SVG asks for what cardforge does not do or allow; the message says what and why."""


def _local(el: Any) -> str:
    tag = el.tag
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def _href(el: Any) -> str | None:
    value = el.get(XLINK)
    return value if value is not None else el.get("href")


def count_elements(blob: bytes) -> None:
    """Count the SVG's elements as it streams through expat, before any tree is built: past
    ``svg_elements`` SvgRefused (a tree of a million elements takes 300 MB and seconds). Bad
    XML is left to the tree's parser, which says where."""
    from xml.parsers import expat

    most = limit("svg_elements")
    parser = expat.ParserCreate()
    count = [0]

    def start(*_: Any) -> None:
        count[0] += 1
        if count[0] > most:
            raise SvgRefused(f"too many elements (more than {most:,}): {at_most('svg_elements')}")

    parser.StartElementHandler = start
    try:
        parser.Parse(blob, True)
    except expat.ExpatError:
        pass


def check_tree(root: Any, folder: Path) -> None:
    """Check the parsed SVG ``root`` (lxml) in place: cost, selectors and images (see the
    module's doc); its ``<image>`` files become ``data:`` URIs. SvgRefused otherwise."""
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    max_elements = limit("svg_elements")
    if len(elements) > max_elements:
        raise SvgRefused(f"too many elements ({len(elements):,}): {at_most('svg_elements')}")
    ids = {}
    for el in elements:
        ident = el.get("id")
        if ident is not None and ident not in ids:
            ids[ident] = el
    cost = _cost(root, ids, max_elements * _UNIT)
    if cost > max_elements * _UNIT:
        raise SvgRefused(f"it draws more than {max_elements:,} elements, counting what its <use> elements "
                         f"copy and one more per {_UNIT} levels of nesting past {_FREE_LEVELS}: "
                         + at_most("svg_elements"))
    texts = sum(len(el.text or "") + len(el.tail or "") for el in elements if _local(el) in _TEXT)
    if texts > limit("svg_text_chars"):
        raise SvgRefused(f"it holds {texts:,} characters of text, " + at_most("svg_text_chars", " characters"))
    _check_css(root, elements)
    check_numbers(elements)
    for el in elements:
        if _local(el) == "image":
            _embed_image(el, folder)


def check_numbers(elements: list[Any]) -> None:
    """Refuse a number no PDF can hold in the geometry and style of ``elements`` (lxml): not
    finite (``nan``, ``inf``, ``1e400``) or past :data:`MAX_SVG_NUMBER` either way, in the
    attributes of :data:`NUMERIC_ATTRIBUTES`, the same properties in a ``style`` attribute and
    in ``<style>`` sheets. SvgRefused naming the element, its line and the attribute."""
    for el in elements:
        for name, value in el.attrib.items():
            if name in NUMERIC_ATTRIBUTES:
                _check_value(el, name, value)
            elif name == "style":
                for prop, text in _DECLARATION.findall(value):
                    if prop in NUMERIC_ATTRIBUTES:
                        _check_value(el, f"style {prop}", text)
        if _local(el) == "style" and el.text:
            for prop, text in _DECLARATION.findall(el.text):
                if prop in NUMERIC_ATTRIBUTES:
                    _check_value(el, prop, text)


def _check_value(el: Any, attribute: str, value: str) -> None:
    if not _SUSPECT.search(value):
        return
    for token in _NUMBER.findall(value):
        number = float(token)
        if math.isfinite(number) and abs(number) <= MAX_SVG_NUMBER:
            continue
        ident = el.get("id")
        where = f"<{_local(el)}>" + (f" #{ident[:40]}" if ident else "") + (
            f" (line {el.sourceline})" if el.sourceline else "")
        what = ("is not a number" if math.isnan(number) else "is infinite" if token.lower().lstrip("+-")[:1] == "i"
                else "is too large for a PDF")
        raise SvgRefused(f"{where}: {attribute}: {short_repr(token)} {what} (allowed: a finite number, at most "
                         f"{MAX_SVG_NUMBER:,.0f} either way)")


def _use_target(el: Any, ids: dict[str, Any]) -> Any:
    """The element a ``<use>`` copies (None: no target); SvgRefused for another file."""
    href = _href(el)
    if not href:
        return None
    href = href.strip()
    if not href.startswith("#"):
        raise SvgRefused(f"a <use> names another file ({href[:80]!r}); only a #fragment of the same SVG "
                         "can be used")
    return ids.get(href[1:])


#: an element's cost in units: _UNIT, plus one per level of nesting above it past the first
#: _FREE_LEVELS (svglib looks an inherited attribute up through every ancestor: a rect 200 groups
#: deep costs 9 shallow ones)
_UNIT = 16
_FREE_LEVELS = 4  # a few levels of groups cost nothing more
_TEXT = {"text", "tspan", "textPath", "tref"}


def _cost(root: Any, ids: dict[str, Any], cap: int) -> int:
    """What the tree costs to draw, in units (:data:`_UNIT` per element, one more per level of
    nesting), a ``<use>`` counting as what it copies; at most ``cap + 1``. Iterative (no
    recursion, however deep the chain of ``<use>``)."""
    depth: dict[Any, int] = {root: 0}
    walk = [root]
    while walk:
        el = walk.pop()
        for child in el:
            if isinstance(child.tag, str):
                depth[child] = depth[el] + 1
                walk.append(child)
    done: dict[Any, int] = {}
    entered: set[Any] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        el, finished = stack.pop()
        if finished:
            total = _UNIT + max(0, depth.get(el, 0) - _FREE_LEVELS)
            for dep in _deps(el, ids):
                total += done[dep]
                if total > cap:
                    total = cap + 1
                    break
            done[el] = total
            continue
        if el in done:
            continue
        if el in entered:  # entered and not finished: an ancestor of itself
            raise SvgRefused(f"a <use> copies an element that contains it (#{el.get('id') or '?'}): "
                             "the drawing would never end")
        entered.add(el)
        stack.append((el, True))
        for dep in _deps(el, ids):
            if dep not in done:
                if dep in entered:
                    raise SvgRefused(f"a <use> copies an element that contains it (#{dep.get('id') or '?'}): "
                                     "the drawing would never end")
                stack.append((dep, False))
    return done[root]


def _deps(el: Any, ids: dict[str, Any]) -> list[Any]:
    out = [child for child in el if isinstance(child.tag, str)]
    if _local(el) == "use":
        target = _use_target(el, ids)
        if target is not None:
            out.append(target)
    return out


def _check_css(root: Any, elements: list[Any]) -> None:
    """Refuse selectors whose matching could take too long: a selector whose last step may
    match ``m`` elements and that has ``k`` descendant steps (``s`` sibling steps ``~``) may try
    every way to pick ``k`` ancestors for each: m × depth^k × siblings^s steps, summed over the
    selectors, at most ``svg_css_work``. A selector without such steps costs 1 (matchers index
    them by tag, class and id)."""
    sheets = [el.text for el in elements if _local(el) == "style" and el.text]
    if not sheets:
        return
    import tinycss2

    depth = _depth(root)
    widest = max((len(el) for el in elements), default=1)
    tags: dict[str, int] = {}
    classes: dict[str, int] = {}
    for el in elements:
        tags[_local(el)] = tags.get(_local(el), 0) + 1
        for name in (el.get("class") or "").split():
            classes[name] = classes.get(name, 0) + 1
    n = len(elements)
    budget = limit("svg_css_work")
    work = 0
    for text in sheets:
        for rule in tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True):
            if rule.type != "qualified-rule":
                continue
            for descendant, sibling, last in _selector_steps(rule.prelude):
                if descendant or sibling:
                    m = tags.get(last[1], 0) if last and last[0] == "tag" else \
                        classes.get(last[1], 0) if last and last[0] == "class" else n
                    work += m * max(depth, 1) ** descendant * max(widest, 1) ** sibling
                else:
                    work += 1
                if work > budget:
                    raise SvgRefused("its CSS selectors would take too long to match (a selector with many "
                                     f"descendant or sibling steps over {n:,} elements, {depth} levels deep): "
                                     f"simplify the <style>, or set {env_name('svg_css_work')} (now "
                                     f"{budget:,}) to allow more")


def _selector_steps(tokens: list[Any]) -> list[tuple[int, int, tuple[str, str] | None]]:
    """(descendant steps, sibling steps, the last step's tag or class) of each comma-separated
    selector of a prelude; steps inside ``:not()``/``:is()``/``:has()`` added to their selector's."""
    out: list[tuple[int, int, tuple[str, str] | None]] = []
    descendant = sibling = 0
    pending_space = False
    seen = False
    last: tuple[str, str] | None = None
    dot = False
    for tok in tokens:
        kind = tok.type
        if kind == "literal" and tok.value == ",":
            out.append((descendant, sibling, last))
            descendant = sibling = 0
            pending_space = seen = dot = False
            last = None
            continue
        if kind == "whitespace":
            pending_space = seen
            continue
        if kind == "literal" and tok.value in (">", "+", "~"):
            if tok.value == "~":
                sibling += 1
            pending_space = seen = False  # the spaces around a combinator are not a descendant step
            last = None
            continue
        if pending_space:
            descendant += 1
            pending_space = False
            last = None
        if kind == "ident" and last is None:
            last = ("class", tok.value) if dot else ("tag", tok.value)
        dot = kind == "literal" and tok.value == "."
        seen = True
        if kind == "function":
            last = ("other", "")
            for d, s, _ in _selector_steps(tok.arguments):
                descendant += d
                sibling += s
    out.append((descendant, sibling, last))
    return out


def _depth(root: Any) -> int:
    deepest = 0
    stack = [(root, 1)]
    while stack:
        el, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((child, d + 1) for child in el if isinstance(child.tag, str))
    return deepest


def _embed_image(el: Any, folder: Path) -> None:
    """Check an ``<image>``'s raster and leave it as a ``data:`` URI svglib reads."""
    href = _href(el)
    if href is None or not href.strip():
        return  # nothing drawn
    m = _DATA_URI.match(href)
    if m:
        media = m.group(1).strip().lower()
        if media not in _DATA_TYPES or ";base64" not in m.group(2).lower():
            raise SvgRefused(f"an embedded image of type {media or 'unknown'!r}"
                             f"{'' if ';base64' in m.group(2).lower() else ' not in base64'}: only PNG and "
                             "JPEG images in base64 are drawn; convert it")
        try:
            blob = base64.b64decode("".join(href[m.end():].split()), validate=True)
        except (binascii.Error, ValueError):
            raise SvgRefused("an embedded image whose base64 data is damaged") from None
        fmt = _check_raster(blob, "an embedded image")
        _set_href(el, fmt, blob)
        return
    name = href.strip()
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", name) or name.startswith(("/", "\\")) or os.path.isabs(name):
        raise SvgRefused(f"an image named {name[:80]!r}: only PNG or JPEG files in the SVG's folder "
                         "(a relative name) or data: URIs are drawn")
    blob = _read_beside(folder, name)
    fmt = _check_raster(blob, f"the image {name!r}")
    _set_href(el, fmt, blob)


def _set_href(el: Any, fmt: str, blob: bytes) -> None:
    uri = f"data:image/{fmt.lower()};base64," + base64.b64encode(blob).decode("ascii")
    if el.get("href") is not None:
        del el.attrib["href"]
    el.set(XLINK, uri)


def _read_beside(folder: Path, name: str) -> bytes:
    """A file named by the SVG, inside its folder: a regular file, within ``image_bytes``."""
    base = os.path.realpath(folder)
    path = os.path.realpath(os.path.join(base, name))
    if os.path.commonpath([base, path]) != base:
        raise SvgRefused(f"the image {name!r} is outside the SVG's folder")
    if not os.path.exists(path):
        raise SvgRefused(f"the image {name!r} is not found (looked beside the SVG)")
    blob, problem = read_bytes(Path(path), name, "image_bytes")
    if problem is not None or blob is None:
        raise SvgRefused(f"the image {name!r}: {problem.message if problem else 'cannot be read'}")
    return blob


def _check_raster(blob: bytes, what: str) -> str:
    """The raster's format (PNG or JPEG), after checking its size and decoding it whole."""
    most = limit("image_pixels")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(blob)) as im:
                fmt, (w, h) = im.format, im.size
                if fmt not in ("PNG", "JPEG"):
                    raise SvgRefused(f"{what} is {fmt}: only PNG and JPEG images are drawn")
                if w * h > most:
                    raise SvgRefused(f"{what} is too large ({w}×{h} = {w * h:,} pixels), "
                                     + at_most("image_pixels", " pixels"))
                im.load()
    except SvgRefused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        size = re.search(r"\((\d+) pixels\)", str(exc))  # Pillow refused it before its size could be read
        got = f" ({int(size.group(1)):,} pixels)" if size else ""
        raise SvgRefused(f"{what} is too large{got}, " + at_most("image_pixels", " pixels")) from None
    except UnidentifiedImageError:
        raise SvgRefused(f"{what} is not an image Pillow can read (PNG or JPEG)") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise SvgRefused(f"{what} is corrupt or truncated ({str(exc)[:80] or type(exc).__name__})") from None
    return str(fmt)


def draw_drawing(drawing: Drawing, canvas: Canvas, images: bool = True) -> None:
    """``renderPDF.draw(drawing, canvas, 0, 0)``, raster images drawn as image XObjects
    (``images=False``: left out, for a trial drawing)."""
    from reportlab.graphics.renderbase import renderScaledDrawing

    _renderer_class(images)().draw(renderScaledDrawing(drawing), canvas, 0, 0, showBoundary=False)


@lru_cache(maxsize=2)
def _renderer_class(images: bool) -> Any:
    from reportlab.graphics.renderPDF import _PDFRenderer

    class Renderer(_PDFRenderer):
        def drawImage(self, image: Any) -> None:  # noqa: N802  (ReportLab's name)
            source = image.path
            if source is None or not hasattr(source, "mode"):
                return  # only the images check_tree embedded (svglib made them PIL images)
            if not images:  # a trial: the image's place written, its pixels not
                self._canvas.rect(image.x, image.y, image.width, image.height, stroke=0, fill=0)
                return
            self._canvas.drawImage(ImageReader(source), image.x, image.y, image.width, image.height,
                                   mask="auto")

    return Renderer


def trial_render(drawing: Drawing) -> None:
    """Draw ``drawing`` on a scratch canvas: SvgRefused when ReportLab cannot (a number no PDF
    holds, a shape svglib built badly), so ``check`` says it rather than the build."""
    from reportlab.pdfgen.canvas import Canvas

    out = io.BytesIO()
    canvas = Canvas(out, pageCompression=0)
    try:  # drawn as a form, then the file saved: shadings and other objects are written too
        canvas.beginForm("trial", 0, 0, drawing.width, drawing.height)
        draw_drawing(drawing, canvas, images=False)  # (its images were checked whole already)
        canvas.endForm()
        canvas.doForm("trial")
        canvas.showPage()
        canvas.save()
    except Exception as exc:  # ReportLab's errors have no common type
        text = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
        big = re.search(r"number too large.*", text)
        text = big.group(0) if big else text
        raise SvgRefused(f"it cannot be drawn ({text[:100]}): a number too large for a PDF, or a shape "
                         "the SVG reader did not understand") from None
    if _NAN_OPERAND.search(out.getvalue()):  # ReportLab writes a NaN as is: a PDF no reader opens
        raise SvgRefused("it cannot be drawn (a number in it works out as not a number, NaN): an infinite "
                         "or zero scale, or a shape the SVG reader did not understand")


#: a NaN among a content stream's operands, as ReportLab writes it ("nan", "-nan")
_NAN_OPERAND = re.compile(rb"(?<![^\s\[])-?nan(?=[\s\]])")


# --- an SVG file as a ReportLab drawing (svglib) ---------------------------------------------

def read_art_bytes(path: str, svg: bool) -> bytes:
    """An image file's bytes, within its limit (``svg_bytes`` or ``image_bytes``); never a
    FIFO. ArtError naming why not."""
    blob, problem = read_bytes(Path(path), path, "svg_bytes" if svg else "image_bytes")
    if problem is not None or blob is None:
        message = problem.message if problem is not None else "cannot read the file"
        raise ArtError(message.replace("file too large", "the file is too large"), broken=True)
    return blob


def svg_drawing_at(path: Path) -> Drawing:
    """The SVG at ``path`` as a ReportLab drawing, checked (svglib: ArtError when it cannot
    be read or drawn)."""
    st = os.stat(path)
    return _svg_drawing(str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=128)
def _svg_drawing(path: str, mtime_ns: int, size: int) -> Drawing:
    """The SVG as a ReportLab drawing (svglib); ArtError when it cannot be read."""
    from lxml import etree
    from svglib.svglib import SvgRenderer

    blob = read_art_bytes(path, True)
    try:
        count_elements(blob)
    except SvgRefused as exc:
        raise ArtError(f"the SVG cannot be used: {exc}", broken=True) from None
    try:  # svglib parses in lxml's recover mode: a truncated file would pass as an empty drawing
        root = etree.fromstring(blob, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False,
                                                      load_dtd=False))
    except etree.XMLSyntaxError as exc:
        raise ArtError(f"the SVG cannot be read (not well-formed XML: {reason(exc)})", broken=True) from None
    if etree.QName(root).localname != "svg":
        raise ArtError(f"the SVG cannot be read (its root element is <{etree.QName(root).localname}>, not <svg>)",
                       broken=True)
    try:  # bounded: elements, <use> copies, selectors, embedded images (render/drawing/svg.py)
        check_tree(root, Path(path).parent)
    except SvgRefused as exc:
        raise ArtError(f"the SVG cannot be used: {exc}", broken=True) from None
    _pin_fonts(root, etree)  # text in the SVG: no font looked up on this machine
    import logging  # with svglib, only when an SVG is drawn (2-3 ms of start-up otherwise)

    logger = logging.getLogger("svglib.svglib")
    previous = logger.level
    logger.setLevel(logging.CRITICAL)  # svglib logs its failures; they are reported as ArtError here
    try:
        # svglib's own svg2rlg, on the tree parsed (and fonts pinned) above; images and SVGs it
        # links to are read only from the SVG's own folder and below
        renderer = SvgRenderer(path, external_reference_root=os.path.dirname(os.path.abspath(path)))
        drawing = renderer.render(root)
    except Exception as exc:  # lxml syntax errors, bad attributes…
        raise ArtError(f"the SVG cannot be read ({reason(exc)})", broken=True) from None
    finally:
        logger.setLevel(previous)
    if drawing is not None:
        drawing.initialFontName = font_name("sans")  # renderPDF's starting font (else Helvetica)
        _embedded_text(drawing)
    if drawing is None:
        raise ArtError("the SVG cannot be read (not well-formed XML, or no <svg> root)", broken=True)
    if not (drawing.width > 0 and drawing.height > 0):
        raise ArtError("the SVG has no size (give the <svg> a width and height, or a viewBox)", broken=True)
    if not (drawing.width < 1e6 and drawing.height < 1e6):
        raise ArtError(f"the SVG's size ({drawing.width:g} × {drawing.height:g} pt) is beyond any page: "
                       "give the <svg> a width and height in points, pixels or mm", broken=True)
    if drawing.width < MIN_SVG_POINTS or drawing.height < MIN_SVG_POINTS:  # its scale to a box: past a PDF's
        raise ArtError(f"the SVG's size ({drawing.width:g} × {drawing.height:g} pt) is too small to scale to a "
                       f"box (at least {MIN_SVG_POINTS:g} pt each way): give the <svg> a width and height in "
                       "points, pixels or mm", broken=True)
    try:
        trial_render(drawing)
    except SvgRefused as exc:
        raise ArtError(f"the SVG cannot be used: {exc}", broken=True) from None
    return drawing


_FONT_FAMILY = re.compile(r"font-family\s*:\s*[^;}]+")


def _pin_fonts(root: Any, etree: Any) -> bool:
    """Every ``font-family`` of the SVG set to Helvetica, which svglib takes as is (otherwise
    it asks fontconfig for the machine's fonts: a PDF that would differ from one computer to
    the next, with fonts that are not embedded); :func:`_embedded_text` then draws that text
    in the bundled DejaVu. True when the SVG has text."""
    has_text = False
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        name = etree.QName(el).localname
        if name in ("text", "tspan", "textPath"):
            has_text = True
        if el.get("font-family") is not None:
            el.set("font-family", "Helvetica")
        style = el.get("style")
        if style and "font-family" in style:
            el.set("style", _FONT_FAMILY.sub("font-family:Helvetica", style))
        if name == "style" and el.text and "font-family" in el.text:
            el.text = _FONT_FAMILY.sub("font-family:Helvetica", el.text)
    return has_text


def _embedded_text(node: Any) -> None:
    """The drawing's strings set in the bundled DejaVu Sans (embedded), keeping bold/italic."""
    from reportlab.graphics.shapes import String

    if isinstance(node, String):
        current = node.fontName or ""
        node.fontName = font_name("sans", "Bold" in current, "Oblique" in current or "Italic" in current)
        return
    for child in getattr(node, "contents", ()) or ():
        _embedded_text(child)
