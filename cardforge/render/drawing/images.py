"""Card art: PNG and JPEG images read with Pillow, embedded once per file however many cards
show them, scaled to cover or fit their box; SVG drawn as vector (svglib → a ReportLab drawing,
defined once per PDF as a form); a crossed placeholder when an image is missing.

An image that exists but cannot be used (corrupt, truncated, over :data:`MAX_PIXELS`, not an
image) is an :class:`ArtError` with ``broken=True``: an error in ``check`` and ``build``, never
a placeholder (a missing file is only a warning while the art is being drawn)."""

from __future__ import annotations

import hashlib
import os
import re
import warnings
from contextlib import nullcontext
from dataclasses import dataclass
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, UnidentifiedImageError
from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from cardforge.errors import ArtError, reason
from cardforge.limits import LIMITS, at_most, env_name, limit
from cardforge.paths import too_big
from cardforge.render.colour import converter, is_cmyk, lightened, lightened_image
from cardforge.render.drawing.svg import read_art_bytes, svg_drawing_at
from cardforge.render.drawing.svgdraw import play, svg_program
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
    width_px: float  # pixels; an SVG: its width in points
    height_px: float
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


def _is_svg(path: str, blob: bytes) -> bool:
    return path.lower().endswith(".svg") or blob.lstrip()[:5] in (b"<?xml", b"<svg ", b"<svg\n")


@lru_cache(maxsize=512)
def _load(path: str, mtime_ns: int, size: int) -> Art:
    blob = read_art_bytes(path, path.lower().endswith(".svg"))
    digest = hashlib.blake2b(blob, digest_size=16).hexdigest()
    if _is_svg(path, blob):
        if len(blob) > limit("svg_bytes"):
            raise ArtError(f"the SVG is too large ({len(blob):,} bytes), " + at_most("svg_bytes", " bytes"),
                           broken=True)

        program = svg_program(Path(path), blob)
        return Art(Path(path), program.width, program.height, digest, "SVG")

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
        raise ArtError(f"the image is corrupt or truncated ({reason(exc)})", broken=True) from None
    return Art(Path(path), w, h, digest, fmt)


def _too_big(w: int, h: int) -> str:
    return (f"the image is too large ({w}×{h} = {w * h:,} pixels), {at_most('image_pixels', ' pixels')}: "
            "scale it down to the size it prints at (300–600 dpi)")


def svg_drawing(art: Art) -> Drawing:
    return svg_drawing_at(art.path)


def ensure_svg_form(c: Canvas, art: Art, light: bool = False) -> str:
    """Define the SVG's drawing as a form in this canvas's document once; its name. ``light``:
    the ink saver's variant, every colour lightened (``render/colour.py``), a form of its own."""
    defined = c.__dict__.setdefault("_cardforge_svgs", set())
    name = "svg-" + art.digest + ("-light" if light else "")
    if name not in defined:
        # drawn as the icons are (render/drawing/svgdraw.py): its canvas calls replayed from the cache,
        # without svglib; raster images inside as image XObjects (a form holds no inline image)
        program = svg_program(art.path)
        c.beginForm(name, 0, 0, program.width, program.height)
        with lightened(c) if light else nullcontext():
            play(c, program, art.path)
        c.endForm()
        defined.add(name)
    return name


def _raster_for(c: Canvas, art: Art, light: bool) -> Any:
    """The image to embed for raster ``art``: the file itself, or — lightened (ink saver) or
    for a CMYK file — the pixels made so, named by the file's digest and what was done."""
    cmyk = is_cmyk(c)
    if not light and not cmyk:
        return _ArtPath(str(art.path), "art-" + art.digest)

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
