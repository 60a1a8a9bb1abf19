"""Build settings shared by every renderer (decks, boards, pads, aids): one object, set by the CLI
(or any caller of :func:`cardforge.render.builds.build.build_game`), never written into the environment."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

#: ``a4-letter``: what A4 and Letter have in common (A4's width, Letter's height), the default: a
#: file laid out on it prints whole on either paper at 100 %, centred or not
PAPERS_MM: dict[str, tuple[float, float]] = {"a4-letter": (210.0, 279.4), "a4": (210.0, 297.0),
                                             "letter": (215.9, 279.4), "a3": (297.0, 420.0),
                                             "tabloid": (279.4, 431.8), "legal": (215.9, 355.6),
                                             "a5": (148.0, 210.0)}
DEFAULT_PAPER = "a4-letter"
CUSTOM_PAPER = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$", re.IGNORECASE)
PAPER_MM_RANGE = (50.0, 1500.0)  # a custom paper's sides, in mm
PAPER_HELP = f"{', '.join(PAPERS_MM)}, or WxH in mm (e.g. 320x450)"
PAPER_OPTION_HELP = ("Paper: a4-letter (210 × 279.4 mm, what A4 and Letter share: the files print whole on "
                     f"either), {', '.join(p for p in PAPERS_MM if p != 'a4-letter')}, or WxH in mm (e.g. 320x450).")


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


def paper_name(paper: str) -> str:
    """How labels and messages name a paper: ``A4``, ``LETTER``, ``A4/LETTER``, ``320X450``."""
    key = str(paper).strip().lower()
    return "A4/LETTER" if key == "a4-letter" else key.upper()


def paper_words(paper: str) -> str:
    """The paper as a sentence says it: ``A4 paper``, ``Letter paper``, ``80 × 130 mm paper``;
    ``A4/Letter paper (210 × 279.4 mm: prints whole on A4 and on Letter)``."""
    key = str(paper).strip().lower()
    if key == "a4-letter":
        w, h = PAPERS_MM["a4-letter"]
        return f"A4/Letter paper ({w:g} × {h:g} mm: prints whole on A4 and on Letter)"
    if key in PAPERS_MM:
        return f"{key.capitalize()} paper"
    w, h = paper_size(key)
    return f"{w:g} × {h:g} mm paper"


#: the band along each paper edge a home printer cannot print, by default: 5 mm; 1/4 in on the US
#: papers (Letter lasers and inkjets leave about 6 mm), and on A4/Letter, whose top and bottom
#: edges are a Letter sheet's
PRINTER_MARGIN_MM = 5.0
US_PAPERS = ("letter", "legal", "tabloid", "a4-letter")
US_PRINTER_MARGIN_MM = 6.35


def default_printer_margin(paper: str) -> float:
    """The printer margin assumed for ``paper`` when ``--printer-margin`` is not given."""
    return US_PRINTER_MARGIN_MM if str(paper).strip().lower() in US_PAPERS else PRINTER_MARGIN_MM


#: territories whose locales print on Letter (glibc's LC_PAPER: the rest of the world is A4)
LETTER_TERRITORIES = frozenset({"US", "CA", "MX", "PH", "CL", "CO", "CR", "GT", "NI", "PA", "PR", "SV", "VE",
                                "DO", "BZ", "HN"})


def locale_paper(environ: Mapping[str, str], papersize_file: Path | None = Path("/etc/papersize")) -> str | None:
    """The paper this computer's settings name, ``a4`` or ``letter`` (None: they name neither,
    or nothing): libpaper's ``PAPERSIZE`` when set, else the locale's territory (``LC_ALL``, ``LC_PAPER``,
    ``LANG``: ``en_US.UTF-8`` prints on Letter, ``fr_FR.UTF-8`` on A4), else ``papersize_file``
    (``paperconf``'s, ``/etc/papersize``)."""
    named = environ.get("PAPERSIZE", "").strip().lower()
    if named:  # libpaper's: it decides (another paper, a3 or a custom size: neither)
        return named if named in ("a4", "letter") else None
    for var in ("LC_ALL", "LC_PAPER", "LANG"):
        value = environ.get(var, "")
        if not value:
            continue
        m = re.match(r"^[A-Za-z]{2,3}_([A-Za-z]{2})\b", value)
        if m is None:
            break  # C, POSIX, C.UTF-8: no territory
        return "letter" if m.group(1).upper() in LETTER_TERRITORIES else "a4"
    if papersize_file is not None:
        try:  # a regular file only (a FIFO would block), its first bytes
            if not papersize_file.is_file():
                return None
            with papersize_file.open("rb") as f:
                text = f.read(200).decode("utf-8", errors="replace")
        except OSError:
            return None
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip().lower()
            if line:
                return line if line in ("a4", "letter") else None
    return None


def paper_mismatch(paper: str, local: str | None) -> str | None:
    """What to say when a build's paper will not print whole on the paper this computer's
    settings name (:func:`locale_paper`); None when it will, or when ``paper`` is neither A4
    nor Letter (A3, a custom size: the user chose a printer for it)."""
    if local is None or str(paper).strip().lower() not in ("a4", "letter"):
        return None
    w, h = sorted(paper_size(paper))
    lw, lh = PAPERS_MM[local]
    if w <= lw + 1e-9 and h <= lh + 1e-9:
        return None
    cut = [f"{v:g} mm of its {what}" for v, what in ((round(w - lw, 1), "width"), (round(h - lh, 1), "height"))
           if v > 0]
    return (f"--paper {paper}: this computer's settings print on {paper_words(local)}, which leaves out "
            f"{' and '.join(cut)} at 100 % (cards cut); use --paper {local}, or --paper a4-letter (the "
            "default), which prints whole on both")


PLAYTEST_URL_MAX = 120  # characters: the printed address stays short, its QR code small enough to scan
_PLAYTEST_URL = re.compile(r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*)?$")


def playtest_url_problem(url: str) -> str | None:
    """What is wrong with a ``--playtest`` address (None: nothing): ``http(s)://host[:port][/path]``,
    no query or fragment (the game and the deck's fingerprint are added to its path), at most
    ``PLAYTEST_URL_MAX`` characters."""
    if len(url) > PLAYTEST_URL_MAX:
        return f"must be at most {PLAYTEST_URL_MAX} characters, got {len(url)}"
    if not _PLAYTEST_URL.match(url):
        return (f"must be http(s)://host[:port][/path] without a query or fragment "
                f"(e.g. https://plays.example.org), got {url!r}")
    return None


DUPLEX_MODES = ("long-edge", "short-edge", "none")
ORIENTATIONS = ("portrait", "landscape", "auto")
PRINTABLE_KINDS = ("decks", "boards", "pads", "aids")


@dataclass(frozen=True)
class BuildSettings:
    """What a build makes and how: the CLI's options, ``cardforge.toml``'s table, a web request's."""

    paper: str = DEFAULT_PAPER  # a4-letter | a4 | letter | a3 | tabloid | legal | a5 | WxH (mm)
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
    # the sheet grid (cardforge.toml): at most this many columns and rows of cards a sheet; None: as many as fit
    columns: int | None = None
    rows: int | None = None
    # card ids whose extra copies fill the empty slots of each deck file's last sheet
    spares: tuple[str, ...] = ()
    # butt neighbouring cards whatever their edges look like (fewer sheets; a mis-cut may then
    # show a sliver of the neighbour); default: only where their edges meet (render/cards/edges.py)
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
    # ``--playtest URL``: the score pad and setup sheets carry a QR code and this address for the
    # game and the deck's fingerprint (render/sheets/playtest.py), where a playtester records a play
    playtest_url: str | None = None

    def __post_init__(self) -> None:
        paper_size(self.paper)
        if self.playtest_url is not None and playtest_url_problem(self.playtest_url):
            raise ValueError(playtest_url_problem(self.playtest_url))
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
        if any(n is not None and n < 1 for n in (self.columns, self.rows)):
            raise ValueError("columns and rows must be at least 1")
        if self.lock_wait < 0:
            raise ValueError("lock_wait must not be negative")

    @property
    def paper_mm(self) -> tuple[float, float]:
        return paper_size(self.paper)

    @property
    def printer_margin(self) -> float:
        """The printer margin in mm: ``--printer-margin``, else the paper's default."""
        return self.printer_margin_mm if self.printer_margin_mm is not None else default_printer_margin(self.paper)
