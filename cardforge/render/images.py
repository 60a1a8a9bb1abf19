"""Card art: PNG and JPEG images read with Pillow, embedded once per file however many cards
show them, scaled to cover or fit their box; a crossed placeholder when an image is missing."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.render.fonts import font_name

FORMATS = ("PNG", "JPEG")
PLACEHOLDER_FILL = HexColor("#e4e0d8")
PLACEHOLDER_INK = HexColor("#8a847a")


@dataclass(frozen=True)
class Art:
    path: Path
    width_px: int
    height_px: int
    digest: str = ""  # of the file's bytes: names the image in the PDF


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
    """An image that is missing or unreadable; the message says which and why."""


def load_art(path: Path) -> Art:
    """The image at ``path`` (its pixel size read without decoding it). ArtError otherwise."""
    path = Path(path)
    try:
        stat = os.stat(path)
    except OSError:
        raise ArtError("image not found") from None
    return _load(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=512)
def _load(path: str, mtime_ns: int, size: int) -> Art:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            fmt, (w, h) = im.format, im.size
    except (UnidentifiedImageError, OSError) as exc:
        raise ArtError(f"cannot read the image ({exc.__class__.__name__})") from None
    if fmt not in FORMATS:
        raise ArtError(f"unsupported image format {fmt} (allowed: PNG, JPEG)")
    import hashlib

    with open(path, "rb") as f:
        digest = hashlib.blake2b(f.read(), digest_size=16).hexdigest()
    return Art(Path(path), w, h, digest)


def draw_art(c: Canvas, art: Art, x: float, y: float, w: float, h: float, fit: str = "cover") -> None:
    """Draw ``art`` in the box (points): ``cover`` fills it (cropping the overflow), ``contain``
    shows the whole image centred in it."""
    iw, ih = art.width_px, art.height_px
    scale = (max if fit == "cover" else min)(w / iw, h / ih)
    dw, dh = iw * scale, ih * scale
    dx, dy = x + (w - dw) / 2, y + (h - dh) / 2
    c.saveState()
    if fit == "cover":
        p = c.beginPath()
        p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
    c.drawImage(_ArtPath(str(art.path), "art-" + art.digest), dx, dy, dw, dh, mask="auto")
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
