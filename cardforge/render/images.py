"""Card art: PNG and JPEG images read with Pillow, embedded once per file however many cards
show them, scaled to cover or fit their box; SVG drawn as vector (svglib → a ReportLab drawing,
defined once per PDF as a form); a crossed placeholder when an image is missing.

An image that exists but cannot be used (corrupt, truncated, over :data:`MAX_PIXELS`, not an
image) is an :class:`ArtError` with ``broken=True``: an error in ``check`` and ``build``, never
a placeholder (a missing file is only a warning while the art is being drawn)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.limits import LIMITS, at_most, env_name, limit
from cardforge.paths import too_big
from cardforge.render.fonts import font_name

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing

FORMATS = ("PNG", "JPEG")
#: the largest raster image accepted by default (width × height; the ``image_pixels`` limit):
#: 50 megapixels, a tarot card with bleed at 1200 dpi (~3,500 × 6,000). Above it decoding alone
#: takes seconds and hundreds of MiB; Pillow's own bomb limit (89 MP warns, 179 MP fails) is
#: kept as a second fence.
MAX_PIXELS = LIMITS["image_pixels"][0]
PLACEHOLDER_FILL = HexColor("#e4e0d8")
PLACEHOLDER_INK = HexColor("#8a847a")


@dataclass(frozen=True)
class Art:
    path: Path
    width_px: int  # an SVG: its width in points
    height_px: int
    digest: str = ""  # of the file's bytes: names the image in the PDF
    format: str = "PNG"  # PNG | JPEG | SVG


class _ArtPath(str):
    """The image's path for ReportLab, which opens it by this value but names the image
    XObject after ``str()`` of it: the content digest, so the PDF does not depend on where
    the data folder lives (same data → same bytes in any checkout)."""

    key: str

    def __new__(cls, path: str, key: str) -> "_ArtPath":
        obj = super().__new__(cls, path)
        obj.key = key
        return obj

    def __str__(self) -> str:
        return self.key


class ArtError(Exception):
    """An image that is missing or unreadable; the message says which and why. ``broken``: the
    file exists but cannot be used (an error, not a placeholder)."""

    def __init__(self, message: str, broken: bool = False):
        super().__init__(message)
        self.broken = broken


def load_art(path: Path) -> Art:
    """The image at ``path``, checked whole (a truncated file fails here, not mid-PDF).
    ArtError otherwise."""
    path = Path(path)
    try:
        stat = os.stat(path)
    except OSError:
        raise ArtError("image not found") from None
    if not path.is_file():
        raise ArtError("not a file", broken=True)
    most = limit("game_file_bytes")  # read whole below: its size is checked first
    if stat.st_size > most:
        raise ArtError(too_big(stat.st_size, most, env_name("game_file_bytes")), broken=True)
    return _load(str(path), stat.st_mtime_ns, stat.st_size)


def _read(path: str, svg: bool) -> bytes:
    """The file's bytes, within its limit (``svg_bytes`` or ``image_bytes``); never a FIFO."""
    from cardforge.data.yamlio import read_bytes

    blob, problem = read_bytes(Path(path), path, "svg_bytes" if svg else "image_bytes")
    if problem is not None or blob is None:
        reason = problem.message if problem is not None else "cannot read the file"
        raise ArtError(reason.replace("file too large", "the file is too large"), broken=True)
    return blob


def _is_svg(path: str, blob: bytes) -> bool:
    return path.lower().endswith(".svg") or blob.lstrip()[:5] in (b"<?xml", b"<svg ", b"<svg\n")


@lru_cache(maxsize=512)
def _load(path: str, mtime_ns: int, size: int) -> Art:
    import hashlib
    import warnings

    blob = _read(path, path.lower().endswith(".svg"))
    digest = hashlib.blake2b(blob, digest_size=16).hexdigest()
    if _is_svg(path, blob):
        if len(blob) > limit("svg_bytes"):
            raise ArtError(f"the SVG is too large ({len(blob):,} bytes), " + at_most("svg_bytes", " bytes"),
                           broken=True)
        drawing = _svg_drawing(path, mtime_ns, size)
        return Art(Path(path), drawing.width, drawing.height, digest, "SVG")
    from io import BytesIO

    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(BytesIO(blob)) as im:
                fmt, (w, h) = im.format, im.size
                if fmt not in FORMATS:
                    raise ArtError(f"unsupported image format {fmt} (allowed: PNG, JPEG, SVG)", broken=True)
                if w * h > limit("image_pixels"):
                    raise ArtError(_too_big(w, h), broken=True)
                if fmt == "JPEG":
                    im.draft("RGB", (max(1, w // 8), max(1, h // 8)))  # decode at 1/8: the whole file is read
                im.load()
    except ArtError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        size_txt = re.search(r"\((\d+) pixels\)", str(exc))
        raise ArtError(f"the image is too large ({size_txt.group(1) if size_txt else 'too many'} pixels), "
                       + at_most("image_pixels", " pixels"), broken=True) from None
    except UnidentifiedImageError:
        raise ArtError("not an image Pillow can read (allowed: PNG, JPEG, SVG)", broken=True) from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:  # truncated, bad CRC, bad header
        raise ArtError(f"the image is corrupt or truncated ({_reason(exc)})", broken=True) from None
    return Art(Path(path), w, h, digest, fmt)


def _too_big(w: int, h: int) -> str:
    return (f"the image is too large ({w}×{h} = {w * h:,} pixels), {at_most('image_pixels', ' pixels')}: "
            "scale it down to the size it prints at (300–600 dpi)")


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or exc.__class__.__name__
    return text if len(text) < 80 else text[:77] + "…"


@lru_cache(maxsize=128)
def _svg_drawing(path: str, mtime_ns: int, size: int) -> Drawing:
    """The SVG as a ReportLab drawing (svglib); ArtError when it cannot be read."""
    import logging

    from lxml import etree
    from svglib.svglib import SvgRenderer

    from cardforge.render.svg import SvgRefused, check_tree, count_elements, trial_render

    blob = _read(path, True)
    try:
        count_elements(blob)
    except SvgRefused as exc:
        raise ArtError(f"the SVG cannot be used: {exc}", broken=True) from None
    try:  # svglib parses in lxml's recover mode: a truncated file would pass as an empty drawing
        root = etree.fromstring(blob, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False,
                                                      load_dtd=False))
    except etree.XMLSyntaxError as exc:
        raise ArtError(f"the SVG cannot be read (not well-formed XML: {_reason(exc)})", broken=True) from None
    if etree.QName(root).localname != "svg":
        raise ArtError(f"the SVG cannot be read (its root element is <{etree.QName(root).localname}>, not <svg>)",
                       broken=True)
    try:  # bounded: elements, <use> copies, selectors, embedded images (render/svg.py)
        check_tree(root, Path(path).parent)
    except SvgRefused as exc:
        raise ArtError(f"the SVG cannot be used: {exc}", broken=True) from None
    _pin_fonts(root, etree)  # text in the SVG: no font looked up on this machine
    logger = logging.getLogger("svglib.svglib")
    previous = logger.level
    logger.setLevel(logging.CRITICAL)  # svglib logs its failures; they are reported as ArtError here
    try:
        # svglib's own svg2rlg, on the tree parsed (and fonts pinned) above; images and SVGs it
        # links to are read only from the SVG's own folder and below
        renderer = SvgRenderer(path, external_reference_root=os.path.dirname(os.path.abspath(path)))
        drawing = renderer.render(root)
    except Exception as exc:  # lxml syntax errors, bad attributes…
        raise ArtError(f"the SVG cannot be read ({_reason(exc)})", broken=True) from None
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


def svg_drawing(art: Art) -> Drawing:
    st = os.stat(art.path)
    return _svg_drawing(str(art.path), st.st_mtime_ns, st.st_size)


def ensure_svg_form(c: Canvas, art: Art, light: bool = False) -> str:
    """Define the SVG's drawing as a form in this canvas's document once; its name. ``light``:
    the ink saver's variant, every colour lightened (``render/colour.py``), a form of its own."""
    from contextlib import nullcontext

    from cardforge.render.colour import lightened
    from cardforge.render.svg import draw_drawing

    defined = c.__dict__.setdefault("_cardforge_svgs", set())
    name = "svg-" + art.digest + ("-light" if light else "")
    if name not in defined:
        drawing = svg_drawing(art)
        c.beginForm(name, 0, 0, drawing.width, drawing.height)
        with lightened(c) if light else nullcontext():
            draw_drawing(drawing, c)  # raster images inside as image XObjects (a form holds no inline image)
        c.endForm()
        defined.add(name)
    return name


def _raster_for(c: Canvas, art: Art, light: bool) -> Any:
    """The image to embed for raster ``art``: the file itself, or — lightened (ink saver) or
    for a CMYK file — the pixels made so, named by the file's digest and what was done."""
    from cardforge.render.colour import converter, is_cmyk, lightened_image

    cmyk = is_cmyk(c)
    if not light and not cmyk:
        return _ArtPath(str(art.path), "art-" + art.digest)
    from PIL import Image
    from reportlab.lib.utils import ImageReader

    with Image.open(art.path) as im:
        im.load()
        image = lightened_image(im) if light else im.copy()
    if cmyk:
        image = converter().image(image)
    return ImageReader(image)  # named by ReportLab after its pixels


def draw_art(c: Canvas, art: Art, x: float, y: float, w: float, h: float, fit: str = "cover",
             light: bool = False) -> None:
    """Draw ``art`` in the box (points): ``cover`` fills it (cropping the overflow), ``contain``
    shows the whole image centred in it. ``light``: the ink saver's lightened variant."""
    iw, ih = art.width_px, art.height_px
    scale = (max if fit == "cover" else min)(w / iw, h / ih)
    dw, dh = iw * scale, ih * scale
    dx, dy = x + (w - dw) / 2, y + (h - dh) / 2
    c.saveState()
    if fit == "cover":
        p = c.beginPath()
        p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
    if art.format == "SVG":
        form = ensure_svg_form(c, art, light)
        c.transform(scale, 0, 0, scale, dx, dy)
        c.doForm(form)
    else:
        c.drawImage(_raster_for(c, art, light), dx, dy, dw, dh, mask="auto")
    c.restoreState()


def draw_placeholder(c: Canvas, x: float, y: float, w: float, h: float, label: str) -> None:
    """A grey crossed box naming the missing image, so a test print shows what is missing."""
    c.saveState()
    c.setFillColor(PLACEHOLDER_FILL)
    c.setStrokeColor(PLACEHOLDER_INK)
    c.setLineWidth(0.5)
    c.rect(x, y, w, h, stroke=1, fill=1)
    p = c.beginPath()
    p.moveTo(x, y)
    p.lineTo(x + w, y + h)
    p.moveTo(x, y + h)
    p.lineTo(x + w, y)
    c.drawPath(p, stroke=1, fill=0)
    size = min(6.0, h / 3)
    font = font_name("sans")
    text = label
    from reportlab.pdfbase.pdfmetrics import stringWidth

    while text and stringWidth(text, font, size) > w - 4:
        text = text[:-2] + "…" if len(text) > 2 else ""
    if text:
        tw = stringWidth(text, font, size)
        c.setFillColor(HexColor("#ffffff"))
        c.rect(x + (w - tw) / 2 - 1.5, y + h / 2 - size * 0.45, tw + 3, size * 1.25, stroke=0, fill=1)
        c.setFillColor(PLACEHOLDER_INK)
        c.setFont(font, size)
        c.drawCentredString(x + w / 2, y + h / 2 - size * 0.15, text)
    c.restoreState()
