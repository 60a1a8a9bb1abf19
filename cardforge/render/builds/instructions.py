"""``instructions.pdf``: one page (more if a build makes many files) saying how to print and cut
each file of a build: the paper and its orientation, how to set the print dialog (actual size;
two-sided and which edge, or one-sided), which pages are which, the cards a file holds (spares
too) and its cutting plan.

Why a file of its own and not the first page of ``deck.pdf``: a page before the first sheet
shifts every front onto the back of the page before it when printed two-sided, unless it is
followed by a blank page, which then wastes a sheet and makes "page 1–2 is sheet 1" untrue.
Printed on its own (one-sided, any paper), it leaves every deck file's pages as they were.
The tool's own words are English (the cards and printables stay in the game's language).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor

from cardforge import __version__
from cardforge.render.cards.reprint import wrap_text
from cardforge.render.fonts import font_name
from cardforge.render.output import ManifestEntry, atomic_path, entry_for, new_canvas
from cardforge.settings import BuildSettings, paper_name, paper_words
from cardforge.units import mm

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game
    from cardforge.render.cards.decks import FilePlan

FILE = "instructions.pdf"
MARGIN_MM = 15.0  # inside every printer margin
DUPLEX_WORDS = {"long-edge": "two-sided, flip on long edge", "short-edge": "two-sided, flip on short edge"}
PRINTABLE_WORDS = {"board": "board", "pad": "score pad", "aid": "player aid", "setup": "setup"}


@dataclass
class Line:
    style: str  # title | head | text | item | warn
    text: str


def _pages(first: int, last: int) -> str:
    return f"page {first}" if first == last else f"pages {first}–{last}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def deck_lines(f: FilePlan, data: GameData, s: BuildSettings) -> list[Line]:
    """What the page says about one deck file."""
    out = [Line("head", f"{f.file}: {_plural(f.cards, 'card')} on {_plural(f.sheets, 'sheet')} "
                        f"({_plural(f.pages + (f.pages if f.backs else 0), 'page')})")]
    if f.layout is None:  # --per-card
        out.append(Line("item", f"For a print shop: {f.how}, the front then the back of each card "
                                f"({_pages(1, f.pages)}); TrimBox on the card."))
        return out
    sheet = f.layout.sheet
    paper = f"{paper_name(s.paper)} {sheet.orientation}"
    first = f.preface + 1
    if f.preface:
        out.append(Line("item", f"{_pages(1, f.preface).capitalize()}: the changelog and pull list (no cards); "
                                "print them one-sided, or with the rest."))
    if f.backs is not None:
        out.append(Line("item", f"Paper: {paper}. Print {f.file} one-sided ({_pages(first, f.pages)}); put the "
                                f"printed stack back in the tray, printed side as your printer needs it, and print "
                                f"{f.backs} ({_pages(1, f.sheets)}) on the other side: sheet N is page N of each."))
    elif f.file.endswith("-fold.pdf"):
        out.append(Line("item", f"Paper: {paper}. Print one-sided ({_pages(first, f.pages)}), one page a sheet; "
                                "fold each sheet on the dashed line, printed side out, and glue it flat."))
    else:
        p = f"{f.preface} + " if f.preface else ""
        out.append(Line("item", f"Paper: {paper}. Print {DUPLEX_WORDS[s.duplex]} ({_pages(first, f.pages)}): "
                                f"sheet N is pages {p}2N − 1 (its front) and {p}2N (its back)."))
    out.append(Line("item", f"Layout: {f.how}."))
    kinds = Counter(c.kind for page in f.layout.pages for c in page if c is not None)
    names = []
    for kind, n in kinds.items():
        spec = data.meta.kinds.get(kind)
        label = (spec.plural or spec.label) if spec is not None and n != 1 else (spec.label if spec else kind)
        names.append(f"{n} {label}")
    cards = "Cards: " + ", ".join(names)
    if f.spares:
        cards += f" (with {_plural(f.spares, 'spare')} on the last sheet, --spares)"
    empty = sum(1 for page in f.layout.pages for c in page if c is None)
    if empty:
        cards += f"; {_plural(empty, 'empty slot')}"
        last = sum(1 for c in f.layout.pages[-1] if c is not None)
        cards += f" (the last sheet holds {last} of {sheet.per_page})"
    out.append(Line("item", cards + "."))
    out.append(Line("item", f.cutting.replace("Cutting order: ", "Cutting: ")))
    for what, n in f.layout.missing.items():
        out.append(Line("warn", f"The {what} found no room on {_plural(n, 'sheet')} (see the build's warnings)."))
    return out


def other_lines(e: ManifestEntry, staged: Path, s: BuildSettings, kept: bool = False) -> list[Line]:
    """What the page says about a board, pad, aid or setup file."""
    noun = PRINTABLE_WORDS.get(e.kind, "item")
    what = _plural(e.cards, noun) if e.cards else "backs only"
    out = [Line("head", f"{e.path}: {what} ({_plural(e.pages, 'page')})" + (", from an earlier build" if kept else ""))]
    try:
        two = b"/DuplexFlip" in (staged / e.path).read_bytes()  # the print dialog's preselection
    except OSError:
        two = False
    if e.kind == "aid" and e.path.endswith("-backs.pdf"):
        how = "the aids' backs: print on the back of the aids' pages, as for a deck's backs file"
    elif two:
        how = f"{DUPLEX_WORDS[s.duplex]}: each front page is followed by its back"
    else:
        how = "one-sided"
    out.append(Line("item", f"Paper: {paper_name(s.paper)}. Print {how}; cut along the crop marks or the dashed "
                            "lines where there are several on a page."))
    return out


def instruction_lines(game: Game, data: GameData, s: BuildSettings, decks: list[FilePlan],
                      entries: list[ManifestEntry], staged: Path, kept: Sequence[ManifestEntry] = (),
                      folder: Path | None = None) -> list[Line]:
    lines = [Line("title", f"{data.meta.title}: how to print this build (v{data.meta.version})"),
             Line("text", f"Built by cardforge {__version__} for {paper_words(s.paper)}, a printer margin of "
                          f"{s.printer_margin:g} mm (nothing but card bleed is printed closer to the paper's "
                          f"edge: --printer-margin) and {s.bleed_mm:g} mm of bleed. Print every file at 100 % "
                          "(actual size), never \"fit to page\": each deck sheet's scale bar should measure what its "
                          "caption says (50 mm, or 30 or 20 mm where the margin is short)."),
             Line("text", "This page is a file of its own so that every deck file keeps its pages paired for "
                          "two-sided printing: print it one-sided.")]
    described = set()
    for f in decks:
        lines += deck_lines(f, data, s)
        described.add(f.file)
        if f.backs:
            described.add(f.backs)
    for e in entries:
        if e.path not in described and e.path != FILE:
            lines += other_lines(e, staged, s)
    for e in kept:  # files of an earlier build the folder keeps (a build of the decks alone)
        if e.kind in ("deck", "backs"):
            lines.append(Line("head", f"{e.path}: {_plural(e.pages, 'page')}, from an earlier build"))
        elif folder is not None:
            lines += other_lines(e, folder, s, kept=True)
    return lines


def write_instructions(game: Game, data: GameData, s: BuildSettings, decks: list[FilePlan],
                       entries: list[ManifestEntry], game_dir: Path, kept: list[ManifestEntry] | None = None,
                       folder: Path | None = None) -> ManifestEntry:
    """Write ``instructions.pdf`` into ``game_dir`` (where ``entries`` were written): this build's
    files, and ``kept``, an earlier build's files still in ``folder``. Returns its entry."""
    path = Path(game_dir) / FILE
    w, h = (mm(v) for v in s.paper_mm)
    regular, bold = font_name("sans"), font_name("sans", bold=True)
    styles = {"title": (bold, 14.0, 20.0, 0.0), "head": (bold, 10.5, 15.0, 0.0), "text": (regular, 9.0, 12.0, 0.0),
              "item": (regular, 9.0, 12.0, 10.0), "warn": (regular, 9.0, 12.0, 10.0)}
    lines = instruction_lines(game, data, s, decks, entries, Path(game_dir), kept or [], folder)
    m = mm(MARGIN_MM)
    pages = 0
    with atomic_path(path) as tmp:
        c = new_canvas(tmp, (w, h), f"{data.meta.title} — printing instructions", subject="printing instructions",
                       cmyk=s.cmyk)
        y = h - m
        for line in lines:
            font, size, step, indent = styles[line.style]
            if line.style in ("head", "title") and y < h - m - 1:
                y -= step * 0.4  # a little air before each file
            chunks = wrap_text(c, line.text, font, size, w - 2 * m - indent)
            for k, chunk in enumerate(chunks):
                if y - step < m:
                    c.showPage()
                    pages += 1
                    y = h - m
                y -= step
                c.setFont(font, size)
                c.setFillColor(HexColor("#8a1c1c" if line.style == "warn" else "#1a1a1a"))
                if line.style in ("item", "warn") and k == 0:
                    c.drawString(m, y, "•")
                c.drawString(m + indent, y, chunk)
        c.showPage()
        pages += 1
        c.save()
    return entry_for(path, Path(game_dir), "instructions", pages, 0, s.paper)
