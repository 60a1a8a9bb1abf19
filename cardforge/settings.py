"""Build settings shared by every renderer (decks, boards, pads, aids): one object, set by the CLI
(or any caller of :func:`cardforge.render.build.build_game`), never written into the environment."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

PAPERS_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4),
                                             "a3": (297.0, 420.0), "tabloid": (279.4, 431.8),
                                             "legal": (215.9, 355.6), "a5": (148.0, 210.0)}
CUSTOM_PAPER = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$", re.IGNORECASE)
PAPER_MM_RANGE = (50.0, 1500.0)  # a custom paper's sides, in mm
PAPER_HELP = f"{', '.join(PAPERS_MM)}, or WxH in mm (e.g. 320x450)"


def paper_size(paper: str) -> tuple[float, float]:
    """A paper's (width, height) in mm: a name of ``PAPERS_MM`` or ``WxH`` in mm (``320x450``,
    ``330×488mm``). Raises ValueError saying what is allowed."""
    named = PAPERS_MM.get(str(paper).strip().lower())
    if named is not None:
        return named
    m = CUSTOM_PAPER.match(str(paper))
    if not m:
        raise ValueError(f"unknown paper {paper!r} (allowed: {PAPER_HELP})")
    w, h = float(m.group(1)), float(m.group(2))
    lo, hi = PAPER_MM_RANGE
    if not (lo <= w <= hi and lo <= h <= hi):
        raise ValueError(f"paper {paper!r}: each side must be between {lo:g} and {hi:g} mm")
    return (w, h)
#: the band along each paper edge a home printer cannot print, by default: 5 mm; 1/4 in on the US
#: papers (Letter lasers and inkjets leave about 6 mm)
PRINTER_MARGIN_MM = 5.0
US_PAPERS = ("letter", "legal", "tabloid")
US_PRINTER_MARGIN_MM = 6.35


def default_printer_margin(paper: str) -> float:
    """The printer margin assumed for ``paper`` when ``--printer-margin`` is not given."""
    return US_PRINTER_MARGIN_MM if str(paper).strip().lower() in US_PAPERS else PRINTER_MARGIN_MM


DUPLEX_MODES = ("long-edge", "short-edge", "none")
ORIENTATIONS = ("portrait", "landscape", "auto")
PRINTABLE_KINDS = ("decks", "boards", "pads", "aids")


@dataclass(frozen=True)
class BuildSettings:
    """What a build makes and how: the CLI's options, ``cardforge.toml``'s table, a web request's."""

    paper: str = "a4"  # a4 | letter | a3 | tabloid | legal | a5 | WxH (mm)
    orientation: str = "auto"  # portrait | landscape | auto (whichever fits more cards)
    bleed_mm: float = 3.0
    # None: cards butted (shared bleed) where that fits more per sheet; a number: each card its
    # own bleed, this far apart (``--gutter``)
    gutter_mm: float | None = None
    # the border kept clear of cards and their bleed; None: automatic (every card's trim inside
    # the printable area, its bleed free to run into the printer margin, where it is cut off)
    margin_mm: float | None = None
    # the band along every paper edge the printer cannot print: no mark, label or caption goes
    # there (only card bleed); None: the paper's default (default_printer_margin)
    printer_margin_mm: float | None = None
    # card ids whose extra copies fill the empty slots of each deck file's last sheet
    spares: tuple[str, ...] = ()
    # butt neighbouring cards whatever their edges look like (fewer sheets; a mis-cut may then
    # show a sliver of the neighbour); default: only where their edges meet (render/edges.py)
    ignore_edges: bool = False
    crop_marks: bool = True
    cut_lines: bool = False
    duplex: str = "long-edge"  # long-edge | short-edge | none (backs in a separate file)
    # printer registration correction, in the printer's frame (geometry.page_offset): the same
    # numbers for portrait and landscape files
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    landscape_turn: str = "ccw"  # how the print driver turns a landscape page onto the paper
    fold: bool = False  # gutter-fold layout: fronts and backs side by side
    strict: bool = False  # warnings (missing art…) fail the build
    only: frozenset[str] = field(default_factory=lambda: frozenset(PRINTABLE_KINDS))
    out_dir: Path = Path("output")
    changed_since: Path | None = None  # an earlier build's cards.json: also print only what changed
    restamp: bool = False  # with changed_since: reprint cards whose stamp changed only its version
    templates_dir: Path | None = None  # a designer's templates: DIR/<game>/ and DIR/_shared/ first
    data_root: Path | None = None  # card data from DIR/<game>/; None: the data folder in use
    lock_wait: float = 10.0  # seconds a build waits for another build of the same folder to end
    pure_black: bool = False  # black text in K only (DeviceCMYK 0 0 0 1), marks in registration colour
    per_card: bool = False  # one card side per page, the page the card with its bleed (print shops)
    sheet_labels: bool = True  # sheet N/M, side, game and file, a scale bar and the cutting order
    cmyk: bool = False  # every file CMYK PDF/X-1a (render/colour.py): colours through the FOGRA39 profile
    ink_saver: bool = False  # cards' backgrounds keep a quarter of their ink; frames, icons, text kept
    # the edition printed (``--lang``): cardforge's words and each card's text in this language;
    # None: the game's own language (game.yaml ``language``)
    lang: str | None = None

    def __post_init__(self) -> None:
        paper_size(self.paper)
        if self.duplex not in DUPLEX_MODES:
            raise ValueError(f"unknown duplex mode {self.duplex!r} (allowed: {', '.join(DUPLEX_MODES)})")
        if self.orientation not in ORIENTATIONS:
            raise ValueError(f"unknown orientation {self.orientation!r} (allowed: {', '.join(ORIENTATIONS)})")
        if self.landscape_turn not in ("ccw", "cw"):
            raise ValueError(f"unknown landscape turn {self.landscape_turn!r} (allowed: ccw, cw)")
        unknown = set(self.only) - set(PRINTABLE_KINDS)
        if unknown:
            raise ValueError(f"unknown printables {sorted(unknown)} (allowed: {', '.join(PRINTABLE_KINDS)})")
        if self.bleed_mm < 0 or (self.gutter_mm or 0) < 0 or (self.margin_mm or 0) < 0 \
                or (self.printer_margin_mm or 0) < 0:
            raise ValueError("bleed, gutter, margin and printer margin must not be negative")
        if self.lock_wait < 0:
            raise ValueError("lock_wait must not be negative")

    @property
    def paper_mm(self) -> tuple[float, float]:
        return paper_size(self.paper)

    @property
    def printer_margin(self) -> float:
        """The printer margin in mm: ``--printer-margin``, else the paper's default."""
        return self.printer_margin_mm if self.printer_margin_mm is not None else default_printer_margin(self.paper)
