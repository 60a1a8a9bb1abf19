"""Every card face of a deck as its own PDF page, and those pages rasterised: the base of the
PNG, Tabletop Simulator, print-on-demand and preview exports.

The faces are drawn by the print's own renderer (``render/cards/cards.py``: same layouts, forms,
fonts and version stamps), one page per face sized to the card's trim plus the bleed, into one
in-memory PDF; pypdfium2 then renders the pages of that one document (no process per card, no
PDF parsed twice). What is a face:

- a **front** per card printed (``copies`` > 0): named by the card id (copies of a card are
  drawn from one form and are identical, so one image serves them all);
- a **back** per back design (``back-<design>``; ``back-<design>-<kind>`` when the design's
  layout reads ``kind``), or per card when its back shows its own data or another card
  (``<card id>-back``).
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from cardforge.data.loading import GameData
from cardforge.data.models import CardBase
from cardforge.errors import RenderError
from cardforge.layout.boxes import template_folders
from cardforge.layout.geometry import Placement, Rect
from cardforge.limits import at_most, limit
from cardforge.problems import Problem
from cardforge.render.cards.buildcache import layout_library
from cardforge.render.cards.cards import CardArt, Issues, Painter, back_face_name
from cardforge.render.output import new_canvas
from cardforge.text.templating import Templates
from cardforge.units import mm

if TYPE_CHECKING:
    from PIL import Image
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.games.base import Game

MM_PER_INCH = 25.4


@dataclass
class Face:
    """One card side to draw: ``card`` is the card whose ``side`` it is (for a shared back, the
    first card using it); ``cards`` lists every card id showing it (shared backs: many)."""

    name: str
    side: str  # front | back
    card: CardBase
    size_mm: tuple[float, float]  # trim
    cards: list[str] = field(default_factory=list)
    back_of: str | None = None  # a front's back face name

    def pixels(self, dpi: float, bleed_mm: float) -> tuple[int, int]:
        """Exact pixel size: round((trim + 2 × bleed) in inches × dpi), each side."""
        w, h = self.size_mm
        return (round((w + 2 * bleed_mm) / MM_PER_INCH * dpi), round((h + 2 * bleed_mm) / MM_PER_INCH * dpi))


@dataclass
class DeckFaces:
    game_id: str
    art: CardArt
    issues: Issues
    fronts: list[Face]
    backs: list[Face]
    bleed_mm: float
    strict: bool = False  # warnings (missing art…) fail the drawing, before any file is written

    @property
    def all(self) -> list[Face]:
        return self.fronts + self.backs

    def back_of(self, front: Face) -> Face:
        return next(b for b in self.backs if b.name == front.back_of)

    def count(self, front: Face) -> int:
        return front.card.copies


def deck_faces(game: Game, data: GameData, bleed_mm: float, *, templates_dir: Path | None = None,
               only: list[str] | None = None) -> DeckFaces:
    """The faces of the game's printed cards (``only``: these card ids, in that order).
    RenderError listing every problem of the layouts."""

    folders = template_folders(game, templates_dir)
    library = layout_library(folders)
    issues = Issues()
    for p in library.problems:
        issues.add(p)
    art = CardArt(game, data, library, Templates(folders), bleed_mm, issues)
    if only:
        unknown = [c for c in only if not data.has_card(c)]
        if unknown:
            known = ", ".join(c.id for c in data.cards[:8]) + ("…" if len(data.cards) > 8 else "")
            raise RenderError(f"no such card in {game.id}", [
                Problem(f"unknown card id '{c}' (cards of {game.id}: {known})") for c in unknown])
        cards = [data.card(c) for c in dict.fromkeys(only)]
    else:
        cards = [c for c in data.cards if c.copies > 0]
    fronts: list[Face] = []
    backs: dict[str, Face] = {}
    ids = {c.id for c in data.cards}
    for card in cards:
        size = art.card_size(card)
        back_name = back_face_name(art, card)
        while back_name in ids:  # a card whose id is "back-default": its file name stays its own
            back_name += "-back"
        front = Face(card.id, "front", card, size, [card.id], back_name)
        fronts.append(front)
        back = backs.get(back_name)
        if back is None:
            back = backs[back_name] = Face(back_name, "back", card, size)
        back.cards.append(card.id)
    return DeckFaces(game.id, art, issues, fronts, list(backs.values()), bleed_mm)


def faces_pdf(faces: DeckFaces, which: list[Face], *, scale_to: dict[str, tuple[float, float]] | None = None,
              boxes: bool = False, title: str = "", strict: bool = False, cmyk: bool = False) -> bytes:
    """One page per face, the page the face's bleed box; raises RenderError with every problem.

    ``scale_to``: face name → (width, height) in mm of the trim it is printed at (a print
    service's template), the face drawn scaled to it; ``boxes``: set TrimBox and BleedBox;
    ``cmyk``: a CMYK PDF/X-1a (``render/colour.py``)."""
    b = faces.bleed_mm
    buf = io.BytesIO()
    first = which[0] if which else None
    size0 = first.size_mm if first else (63.0, 88.0)
    c = new_canvas(buf, (mm(size0[0] + 2 * b), mm(size0[1] + 2 * b)), title or f"{faces.game_id} faces",
                   subject="card faces", cmyk=cmyk)
    painter = Painter(c, faces.art)
    for face in which:
        w, h = face.size_mm
        tw, th = (scale_to or {}).get(face.name, (w, h))
        c.setPageSize((mm(tw + 2 * b), mm(th + 2 * b)))
        if boxes:
            _set_boxes(c, tw, th, b)
        c.saveState()
        if (tw, th) != (w, h):  # the card's own layout, stretched onto the service's trim
            c.translate(mm(b), mm(b))
            c.scale(tw / w, th / h)
            c.translate(-mm(b), -mm(b))
        place = Placement(Rect(b, b, w, h))
        if face.side == "front":
            painter.front(place, face.card)
        else:
            painter.back(place, face.card)
        c.restoreState()
        c.showPage()
    errors = faces.issues.errors + ([Problem(p.message + " (--strict)", p.file, p.item, p.field, p.line)
                                     for p in faces.issues.warnings] if strict else [])
    if errors:
        raise RenderError(f"cannot draw the cards of {faces.game_id}; nothing written", errors)
    c.save()
    return buf.getvalue()



def _set_boxes(c: Canvas, w: float, h: float, b: float) -> None:
    """TrimBox and BleedBox on the page being drawn (MediaBox = the bleed box)."""
    c.setTrimBox((mm(b), mm(b), mm(b + w), mm(b + h)))
    c.setBleedBox((0, 0, mm(w + 2 * b), mm(h + 2 * b)))


def check_pixels(sizes: list[tuple[int, int]], game_id: str, what: str, hint: str) -> None:
    """RenderError, before anything is drawn or written, when an image of ``sizes`` would be
    over the ``export_pixels`` limit (a 5000 mm card exported at 300 dpi asked for gigabytes)."""
    most = limit("export_pixels")
    w, h = max(sizes, key=lambda s: s[0] * s[1], default=(0, 0))
    if w * h > most:
        raise RenderError(f"cannot export {game_id}; nothing written", [Problem(
            f"{what} would be {w:,}×{h:,} = {w * h:,} pixels, {at_most('export_pixels', ' pixels')}: {hint}")])


def rasterise(pdf: bytes | Any, sizes: list[tuple[int, int]], raw: bool = False, first: int = 0) -> Iterator[Any]:
    """Yield each page of ``pdf`` as an RGB PIL image of exactly ``sizes[i]`` pixels (``raw``:
    as ``(bytes, stride)``, the RGB rows as pdfium wrote them, no image object). ``pdf``: the
    bytes, or a ``pypdfium2.PdfDocument`` already open (left open); ``first``: the page of
    ``sizes[0]``."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    own = isinstance(pdf, (bytes, bytearray))
    doc: Any = pdfium.PdfDocument(pdf) if own else pdf
    try:
        for i, (w, h) in enumerate(sizes, start=first):
            page: Any = doc[i]
            bitmap = pdfium.PdfBitmap.new_native(w, h, pdfium_c.FPDFBitmap_BGR, rev_byteorder=True)
            pdfium_c.FPDFBitmap_FillRect(bitmap.raw, 0, 0, w, h, 0xFFFFFFFF)
            pdfium_c.FPDF_RenderPageBitmap(bitmap.raw, page.raw, 0, 0, w, h, 0,
                                            pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER)
            if raw:
                yield bytes(bitmap.buffer), bitmap.stride
            else:
                image = bitmap.to_pil()
                yield image.copy() if image.readonly else image
            page.close()
    finally:
        if own:
            doc.close()


_SRGB: bytes | None = None


def srgb_profile() -> bytes:
    """The sRGB ICC profile (littleCMS's, through Pillow), embedded in every PNG written. Its
    header's creation time is fixed (littleCMS stamps the current time, which made every
    export's PNGs differ) and its optional MD5 id cleared: the same cards, the same bytes."""
    global _SRGB
    if _SRGB is None:
        from PIL import ImageCms  # only for an export's PNGs (a deck build never needs it)

        raw = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
        raw[24:36] = (2000).to_bytes(2, "big") + b"\x00\x01\x00\x01" + bytes(6)  # 2000-01-01 00:00:00
        raw[84:100] = bytes(16)  # the profile id: 0 = not computed
        _SRGB = bytes(raw)
    return _SRGB


def save_png(image: Image.Image, target: BinaryIO, dpi: float, compress_level: int = 3) -> None:
    """PNG with the sRGB profile and the resolution set (pHYs), so it prints at its size."""
    if image.mode != "RGB":
        image.save(target, "PNG", dpi=(dpi, dpi), icc_profile=srgb_profile(), compress_level=compress_level)
        return
    target.write(png_bytes(image.tobytes(), image.size, dpi, compress_level))


def png_bytes(raw: bytes, size: tuple[int, int], dpi: float, level: int = 3, stride: int | None = None) -> bytes:
    """An RGB PNG written directly: rows unfiltered, zlib at ``level``, the sRGB profile and
    the dpi. For flat card art this is smaller than Pillow's adaptive filtering at level 6
    (58 against 64 KiB for a 70 mm square card) and three times faster (15 against 48 ms), and zlib
    lets other threads run while it works."""
    w, h = size
    stride = stride or 3 * w
    view = memoryview(raw)
    rows = bytearray()
    for y in range(h):
        rows += b"\x00"
        rows += view[y * stride:y * stride + 3 * w]

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ppm = round(dpi / 0.0254)
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)),
        chunk(b"iCCP", b"sRGB\x00\x00" + zlib.compress(srgb_profile())),
        chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)),
        chunk(b"IDAT", zlib.compress(bytes(rows), level)),
        chunk(b"IEND", b""),
    ))
