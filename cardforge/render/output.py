"""Writing build products: atomic PDF files, reproducible canvases, the build manifest."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import PDFBase85Encode, PDFResourceDictionary, PDFStream, PDFZCompress
from reportlab.pdfgen.canvas import Canvas

from cardforge import __version__
from cardforge.errors import OutputError
from cardforge.paths import file_mode, output_file
from cardforge.problems import Problem
from cardforge.render import rl_internals as rl
from cardforge.render.colour import converter, is_cmyk, make_pdfx
from cardforge.render.fonts import font_name
from cardforge.units import mm

if TYPE_CHECKING:
    from cardforge.layout.geometry import Rect

MANIFEST_KINDS = ("deck", "backs", "board", "pad", "aid", "setup", "instructions")

# Streams are Flate-compressed binary: ReportLab's default ASCII85 wrapping (for 7-bit-clean
# transports nobody uses any more) made every stream a quarter larger.
rl_config.useA85 = 0
# /ProcSet (a PostScript-era hint, ignored since PDF 1.4) in every page's and form's resources:
# ~50 bytes each, left out (an empty list is not written).
PDFResourceDictionary.stdprocs = []

DUPLEX_PREFERENCE = {"long-edge": "DuplexFlipLongEdge", "short-edge": "DuplexFlipShortEdge", "none": "Simplex"}


@dataclass
class ManifestEntry:
    """One file built. ``path`` relative to the manifest's folder (``output/<game>/``);
    ``cards`` = card fronts in it, copies counted."""

    path: str
    kind: str  # deck | backs | board | pad | aid | setup | instructions
    pages: int
    cards: int
    paper: str
    sha256: str

    def __post_init__(self) -> None:
        if self.kind not in MANIFEST_KINDS:
            raise ValueError(f"manifest kind {self.kind!r} not in {MANIFEST_KINDS}")


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it over ``path`` only on success, with
    the permissions the umask gives a new file (``mkstemp``'s own are ``-rw-------``).

    A failed build leaves no partial file (and keeps the previous good one). The name is
    checked first (:func:`cardforge.paths.output_file`: one plain name of a length every
    platform takes, nothing but a regular file there): OutputError otherwise."""
    path = Path(path)
    if ".." in path.parts:  # a name made of names that climbs out of its folder: never written
        raise OutputError(f"cannot write {path.name}", [Problem(
            f"{path} is not a plain file name in its folder (a folder separator or '..' in a name it is made of)",
            file=str(path))])
    path = output_file(path.parent, path.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, file_mode())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class _Encoded:
    """A stream filter whose work is done already: names the filter, leaves the data as is."""

    def __init__(self, pdfname: str):
        self.pdfname = pdfname

    def encode(self, data: bytes) -> bytes:
        return data


class PageCompressingCanvas(Canvas):  # type: ignore[misc, unused-ignore]  # ReportLab ships no type stubs
    """A canvas that compresses each page's content stream as soon as the page is finished.

    ReportLab keeps every page's operators as text until ``save()`` and encodes them only
    then, so a 10,000-card deck held ~100 MiB of page text. Here each page keeps only its
    encoded bytes, so memory barely grows with the deck. The encoding is ReportLab's own (the
    filters it would apply, in its order, to the same text), so the PDF is byte-identical."""

    def showPage(self) -> None:
        super().showPage()
        pages = rl.finished_pages(self)
        page = pages[-1] if pages else None
        if page is not None and not rl.page_transition(self):  # no empty /Trans << >>, no /Rotate 0
            page.Trans = None
            if not page.Rotate:
                page.Rotate = None
        if page is None or not page.compression or page.Contents or not page.stream:
            return
        # as PDFPage.check_format and PDFStream.format would, at save time
        filters = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
        data = page.stream
        for f in reversed(filters):
            data = f.encode(data)
        stream = PDFStream()
        stream.filters = [_Encoded(f.pdfname) for f in filters]
        stream.content = data
        stream.__Comment__ = "page stream"
        page.Contents = stream
        page.stream = None

    def save(self) -> None:
        rl.inline_cheap_forms(self, self.__dict__.get(_UNCLIPPED, ()))
        rl.share_page_resources(self)
        if is_cmyk(self):
            make_pdfx(self)
        super().save()


_UNCLIPPED = "_cardforge_unclipped"


def form_needs_no_clip(c: Canvas, name: str) -> None:
    """Say that form ``name`` is only ever drawn where a clip as tight as its bounding box is
    in force (a card's frame inside the card's clip, a sheet's marks on the page): drawn in
    place at save (rl_internals.inline_cheap_forms), it needs no clip of its own."""
    c.__dict__.setdefault(_UNCLIPPED, set()).add(name)


def new_canvas(target: str | Path | BinaryIO, pagesize: tuple[float, float], title: str,
               subject: str = "", *, cmyk: bool = False) -> Canvas:
    """A canvas whose output depends only on what is drawn (invariant=1: no dates, fixed ids).

    Its initial font is the bundled DejaVu Sans: ReportLab's default (Helvetica) would be
    listed, unembedded, in every page's resources, which print-shop preflight rejects.
    ``cmyk``: every colour converted to CMYK as it is set, the file a PDF/X-1a
    (``render/colour.py``)."""
    c = PageCompressingCanvas(str(target) if isinstance(target, Path) else target, pagesize=pagesize,
                              invariant=1, pageCompression=1, initialFontName=font_name(),
                              enforceColorSpace=converter() if cmyk else None)
    # every page prints at actual size, one-sided, and is its own finished size until a renderer
    # says otherwise (decks: per sheet; duplex files: print_preferences)
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", "Simplex")
    page = [0, 0, round(pagesize[0], 4), round(pagesize[1], 4)]
    c.setTrimBox(page)
    c.setBleedBox(page)
    c.setTitle(title)
    c.setAuthor("cardforge")
    c.setCreator(f"cardforge {__version__}")
    c.setProducer("cardforge (ReportLab)")
    if subject:
        c.setSubject(subject)
    return c


def print_preferences(c: Canvas, duplex: str, k_black: bool = False) -> None:
    """Viewer preferences a print dialog reads: actual size (``/PrintScaling /None``, no "fit
    to page" that would break the card sizes and the duplex registration) and the duplex mode
    (``/Duplex``: flip on the long or short edge, or one-sided)."""
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", DUPLEX_PREFERENCE.get(duplex, "Simplex"))
    if k_black:
        c.__dict__["_cardforge_k_black"] = True  # render/drawing/richtext.py: black text in K only


def set_boxes(c: Canvas, page_mm: tuple[float, float], trim: Rect | None = None, bleed: Rect | None = None,
              art: Rect | None = None) -> None:
    """The page boxes of the page being drawn (and the next ones, until set again), from
    rectangles in mm (``geometry.Rect``): TrimBox (the finished size; default: the page),
    BleedBox (default: the page) and ArtBox (left out when ``None``)."""
    def box(r: Rect | None) -> list[float]:
        if r is None:
            return [0, 0, round(mm(page_mm[0]), 4), round(mm(page_mm[1]), 4)]
        return [round(mm(v), 4) for v in (r.x, r.y, r.x + r.w, r.y + r.h)]

    c.setTrimBox(box(trim))
    c.setBleedBox(box(bleed))
    rl.set_art_box(c, box(art) if art is not None else None)


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def entry_for(path: Path, game_dir: Path, kind: str, pages: int, cards: int, paper: str) -> ManifestEntry:
    return ManifestEntry(Path(path).relative_to(game_dir).as_posix(), kind, pages, cards, paper, sha256_of(path))


def write_manifest(game_dir: Path, game_id: str, entries: list[ManifestEntry]) -> Path:
    """``<out>/<game>/manifest.json``: {"game", "files": [{path, kind, pages, cards, paper, sha256}]}.

    Entries from an earlier build of other printables (e.g. ``--only pads``) are kept, so the
    manifest always lists every file currently in the folder."""
    path = Path(game_dir) / "manifest.json"
    files: dict[str, dict[str, Any]] = {}
    if path.exists():
        try:
            for old in json.loads(path.read_text(encoding="utf-8")).get("files", []):
                if (Path(game_dir) / old["path"]).exists():
                    files[old["path"]] = old
        except (ValueError, KeyError, TypeError):
            files = {}
    for e in entries:
        files[e.path] = asdict(e)
    data = {"game": game_id, "files": [files[k] for k in sorted(files)]}
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path
