"""Print-ready decks: cards imposed on sheets with bleed and crop marks, backs mirrored for
duplex printing (or in their own file, or gutter-folded beside the fronts).

Output, in ``<out>/<game>/``:

- ``deck.pdf``: a front page, then its back page, sheet after sheet (``--duplex long-edge``
  or ``short-edge``); fronts only with ``--duplex none``, whose backs go to
  ``deck-backs.pdf``; with ``--fold``, ``deck-fold.pdf``: fronts and backs on one page, to
  fold along the middle;
- kinds printed at another card size than the deck's get their own files,
  ``deck-<kind>.pdf`` (and ``-backs``/``-fold``).

Every file is written to a temporary name and renamed only when the whole game built without
errors: a failed build leaves no partial PDF (and keeps the previous good one).
"""

from __future__ import annotations

import json
import math
import pickle
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.pdfgen.canvas import Canvas

from cardforge import cache
from cardforge.data.loading import GameData
from cardforge.data.models import CardBase
from cardforge.errors import RenderError
from cardforge.i18n import messages
from cardforge.layout.boxes import template_folders
from cardforge.layout.geometry import (
    Placement,
    Rect,
    Segment,
    SheetError,
    back_offset_for,
    chunks,
    clip_boxes,
)
from cardforge.layout.imposition import (
    PRINTABLE_BLEED_MM,
    Contacts,
    CuttingPlan,
    FoldSheet,
    Sheet,
    best_by_count,
    choose,
    contacts,
    cutting_plan,
    fold_marks,
    fold_options,
    marks_print,
    no_fit_message,
    printable_area,
    segment_box,
    sequence,
    sheet_options,
    sheet_plan,
    sheets_needed,
)
from cardforge.paths import output_file
from cardforge.problems import Problem, short_repr
from cardforge.render.canvas import draw_crop_marks, draw_cut_lines, draw_cut_ticks, draw_fold_marks, shared
from cardforge.render.cards import reprint
from cardforge.render.cards.buildcache import layout_library
from cardforge.render.cards.cards import CardArt, Issues, Painter
from cardforge.render.cards.deckgroup import DeckGroup
from cardforge.render.cards.edges import EdgeBook, edge_book
from cardforge.render.cards.reprint import Reprint, templates_digest
from cardforge.render.cards.sheetmarks import SheetInfo, cutting_text, draw_sheet_extras, plan_extras
from cardforge.render.output import ManifestEntry, atomic_path, entry_for, new_canvas, print_preferences, set_boxes
from cardforge.resources import display_path
from cardforge.settings import BuildSettings, paper_words
from cardforge.text.templating import Templates
from cardforge.units import mm

if TYPE_CHECKING:
    from cardforge.games.base import Game

DECK_KINDS = ("deck", "backs")
Progress = Callable[[int], None]


@dataclass
class DeckResult:
    entries: list[ManifestEntry]
    warnings: list[Problem]
    changes: Reprint | None = None  # with ``changed_since``: the reprint plan (render/cards/reprint.py)
    # per file: how its sheets are laid out ("landscape, 4 × 2 = 8 per sheet, butted…"), for the
    # build's summary (the orientation tells which way --back-offset was turned for it)
    layouts: dict[str, str] = field(default_factory=dict)
    files: list[FilePlan] = field(default_factory=list)  # for the instructions page


def deck_card_count(data: GameData) -> int:
    return sum(c.copies for c in data.cards)


#: a deck file's stem made of its kinds' names stays under this (bytes), so that
#: ``reprint-<kinds>-backs.pdf`` and its temporary name fit every platform's file names
MAX_GROUP_NAME = 120


def group_cards(art: CardArt, data: GameData) -> list[DeckGroup]:
    """Cards grouped by printed size; the deck's own size first, as ``deck``."""
    deck_size = (data.meta.card_size.width, data.meta.card_size.height)
    groups: dict[tuple[float, float], DeckGroup] = {deck_size: DeckGroup("deck", deck_size)}
    for card in data.cards:
        if card.copies <= 0:
            continue
        size = art.card_size(card)
        group = groups.get(size)
        if group is None:
            group = groups[size] = DeckGroup("", size)
        group.cards.append(card)
        if card.kind not in group.kinds:
            group.kinds.append(card.kind)
    out = []
    for size, group in groups.items():
        if not group.cards:
            continue
        if size != deck_size:
            group.name = "deck-" + "-".join(k.replace("_", "-") for k in group.kinds)
            if len(group.name.encode("utf-8")) > MAX_GROUP_NAME:  # many kinds: named by the size
                group.name = f"deck-{size[0]:g}x{size[1]:g}"
        out.append(group)
    return out


def build_decks(game: Game, data: GameData, settings: BuildSettings, game_dir: Path, *,
                templates_dir: Path | None = None, progress: Progress | None = None,
                compress: bool = True) -> DeckResult:
    """Build the game's deck PDFs into ``game_dir``; returns their manifest entries and the
    warnings. Raises RenderError listing every problem (each card that does not fit, each
    missing image under ``strict``…) and then writes nothing."""
    art, groups, spares = prepare_cards(game, data, settings, templates_dir)
    issues = art.issues
    _raise_if_failed(game, issues, settings)
    layouts: dict[str, Layout] = {}
    for group in groups:
        try:
            layouts[group.name] = _layout_for(group, settings, art, spares.get(group.name, []))
        except SheetError as exc:
            issues.add(Problem(f"{exc}", item=f"{', '.join(group.kinds)} cards"))
    _raise_if_failed(game, issues, settings)
    record, changes = _reprint_plan(game, data, art, settings, groups, layouts)

    entries: list[ManifestEntry] = []
    files: list[FilePlan] = []
    game_dir = Path(game_dir)
    with ExitStack() as stack:
        written: list[tuple[Path, Path, str, int, int]] = []  # (tmp, final, kind, pages, cards)
        for group in groups:
            plan = _write_group(stack, written, game, data, group, layouts[group.name], art, settings, game_dir,
                                progress, compress)
            files.append(plan)
            if plan.layout is not None:
                _layout_problems(game, plan, art, settings, spares.get(group.name, []))
        _raise_if_failed(game, issues, settings)
        for tmp, final, kind, pages, cards in written:
            entries.append(_entry(tmp, final, game_dir, kind, pages, cards, settings.paper))
    entries += reprint.build_printables_pack(game, data, settings, game_dir, changes)
    _remove_stale(game_dir, {e.path for e in entries})
    reprint.write_outputs(game_dir, record, changes)
    described = {}
    for f in files:
        described[f.file] = f.how
        if f.backs is not None:
            described[f.backs] = f.how
    return DeckResult(entries, issues.warnings, changes, described, files)


def _reprint_plan(game: Game, data: GameData, art: CardArt, settings: BuildSettings, groups: list[DeckGroup],
                  layouts: dict[str, Layout]) -> tuple[dict[str, Any], Reprint | None]:
    """What this build prints, recorded beside the PDFs (render/cards/reprint.py); with
    ``changed_since``, the reprint pack: a changelog and pull list, then the cards to add (their
    groups and layouts appended to ``groups`` and ``layouts``)."""
    issues = art.issues
    record = reprint.build_record(game, data, art, data.cards,  # copies: 0 too (a diff shows them)
                                  with_printables=bool(settings.only - {"decks"}) or settings.changed_since is not None)
    changes = None
    if settings.changed_since is not None:
        changes = reprint.plan_against(record, settings.changed_since, game.id, settings.restamp, issues,
                                       settings.only)
        _raise_if_failed(game, issues, settings)
        sheets = {name: layout.sheet for name, layout in layouts.items()}
        for pack in reprint.pack_groups(changes, groups, sheets, settings, DeckGroup):
            deck = next(g for g in groups if g.size == pack.size and g.name in layouts)
            layouts[pack.name] = layouts[deck.name].again(pack, settings)
            groups.append(pack)
    return record, changes


def _write_group(stack: ExitStack, written: list[tuple[Path, Path, str, int, int]], game: Game, data: GameData,
                 group: DeckGroup, layout: Layout, art: CardArt, settings: BuildSettings, game_dir: Path,
                 progress: Progress | None, compress: bool) -> FilePlan:
    """Draw one group's file(s) into staging paths entered on ``stack`` (each appended to
    ``written``: tmp, final, kind, pages, cards); returns the file's plan."""
    sheet = layout.sheet
    stem = group.name
    title = f"{data.meta.title} — {group.name} (v{data.meta.version})"
    total = len(layout.pages)
    count = layout.count
    if settings.per_card:
        final = output_file(game_dir, f"{stem}-cards.pdf")
        tmp = stack.enter_context(atomic_path(final))
        pages = _draw_per_card(tmp, title, group, art, settings, progress, compress)
        written.append((tmp, final, "deck", pages, group.count))
        return FilePlan(final.name, None, group, None, _per_card_how(group, settings), 0, pages, 0, group.count, 0, "")
    if isinstance(sheet, FoldSheet):
        final = output_file(game_dir, f"{stem}-fold.pdf")
        tmp = stack.enter_context(atomic_path(final))
        labels = _Labels(game, data, final.name, total, sheet, settings, "fold")
        pages, preface = _draw_fold(tmp, title, layout, group, art, settings, progress, compress, labels)
        written.append((tmp, final, "deck", pages, count))
        back_name = None
    elif settings.duplex == "none":
        final, final_b = output_file(game_dir, f"{stem}.pdf"), output_file(game_dir, f"{stem}-backs.pdf")
        tmp = stack.enter_context(atomic_path(final))
        tmp_b = stack.enter_context(atomic_path(final_b))
        pair = (_Labels(game, data, final.name, total, sheet, settings, "none"),
                _Labels(game, data, final_b.name, total, sheet, settings, "none"))
        pages, pages_b, preface = _draw_separate(tmp, tmp_b, title, layout, group, art, settings, progress,
                                                 compress, pair)
        written += [(tmp, final, "deck", pages, count), (tmp_b, final_b, "backs", pages_b, 0)]
        back_name = final_b.name
    else:
        final = output_file(game_dir, f"{stem}.pdf")
        tmp = stack.enter_context(atomic_path(final))
        labels = _Labels(game, data, final.name, total, sheet, settings, settings.duplex)
        pages, preface = _draw_duplex(tmp, title, layout, group, art, settings, progress, compress, labels)
        written.append((tmp, final, "deck", pages, count))
        back_name = None
    return FilePlan(final.name, back_name, group, layout, _describe(sheet, settings), total, pages, preface, count,
                    layout.spares, cutting_text(sheet_plan(sheet), fold=isinstance(sheet, FoldSheet)))


def _layout_problems(game: Game, plan: FilePlan, art: CardArt, settings: BuildSettings,
                     spares: list[CardBase]) -> None:
    """A file's cards that found no room, and a bleed cut short, as problems of the build."""
    layout, group = plan.layout, plan.group
    assert layout is not None
    if layout.missing:
        hint = _room_hint(group, settings, art, spares, layout)
        for what, n in layout.missing.items():
            art.issues.add(_missing_problem(f"{game.id}/{plan.file}", what, n, plan.sheets, settings, hint))
    if layout.short_bleed is not None:
        art.issues.add(_short_bleed_problem(f"{game.id}/{plan.file}", group.size, layout.short_bleed, settings))


def prepare_cards(game: Game, data: GameData, settings: BuildSettings, templates_dir: Path | None = None
                  ) -> tuple[CardArt, list[DeckGroup], dict[str, list[CardBase]]]:
    """What drawing a game's cards starts from (``build_decks`` and ``check``'s
    ``render/cards/preflight.py``): the layouts (validated and resolved, cached by content) and the
    card art, the cards grouped by size, and each group's spares; problems in ``art.issues``."""
    folders = template_folders(game, templates_dir)
    library = layout_library(folders)
    issues = Issues()
    art = CardArt(game, data, library, Templates(folders), settings.bleed_mm, issues, settings.lang)
    art.templates_digest = templates_digest(folders)
    for p in library.problems:
        issues.add(p)
    _check_backs(data, issues)
    groups = group_cards(art, data)
    spares = _spares(art, data, settings, groups, issues)
    return art, groups, spares


def _entry(tmp: Path, final: Path, game_dir: Path, kind: str, pages: int, cards: int, paper: str) -> ManifestEntry:
    e = entry_for(tmp, tmp.parent, kind, pages, cards, paper)
    return ManifestEntry(final.relative_to(game_dir).as_posix(), e.kind, e.pages, e.cards, e.paper, e.sha256)


def _check_backs(data: GameData, issues: Issues) -> None:
    """Backs named by kinds exist; a ``back_face`` field names a card of the game."""
    deck_file = display_path(data.root / "deck.yaml")
    for kind, spec in data.meta.kinds.items():
        if spec.back is not None and spec.back not in data.meta.backs:
            issues.add(Problem(f"unknown back '{spec.back}' (deck.yaml backs: {', '.join(data.meta.backs)})",
                               file=deck_file, field=f"kinds.{kind}.back"))
        if not spec.back_face:
            continue
        for card in data.cards_of(kind):
            if not card.copies:
                continue
            src = data.sources.get(card.id)
            where: dict[str, Any] = {"file": src.file if src else None, "line": src.line if src else None,
                                     "item": src.label(card.id) if src else f"card '{card.id}'",
                                     "field": spec.back_face}
            if spec.back_face not in type(card).model_fields:
                issues.add(Problem(f"kinds.{kind}.back_face names the field '{spec.back_face}', which "
                                   f"{kind} cards do not have", file=deck_file, field=f"kinds.{kind}.back_face"))
                break
            other = getattr(card, spec.back_face)
            if other is None:
                continue  # this card has a plain back
            if not isinstance(other, str) or not data.has_card(other):
                issues.add(Problem("the card on this card's back must be a card id of the game, "
                                   f"got {short_repr(other)}",
                                   **where))


def _raise_if_failed(game: Game, issues: Issues, settings: BuildSettings) -> None:
    failing = issues.errors + (issues.warnings if settings.strict else [])
    if failing:
        as_errors = [p if not p.is_warning else Problem(p.message + " (--strict)", p.file, p.item, p.field,
                                                        p.line) for p in failing]
        raise RenderError(f"cannot build the deck of {game.id}; no PDF written", as_errors)


def _spares(art: CardArt, data: GameData, s: BuildSettings, groups: list[DeckGroup],
            issues: Issues) -> dict[str, list[CardBase]]:
    """``--spares``: each id's card, in the file of its size (group name → cards, in the
    order given); an unknown id is a problem saying which ids there are."""
    out: dict[str, list[CardBase]] = {}
    ids = [c.id for c in data.cards]
    for spare in s.spares:
        if not data.has_card(spare):
            close = get_close_matches(spare, ids, n=3)
            hint = f"did you mean {', '.join(repr(c) for c in close)}?" if close else \
                f"cards of {data.meta.title}: {', '.join(ids[:6])}{'…' if len(ids) > 6 else ''}"
            issues.add(Problem(f"--spares: no card '{spare}' ({hint})", field="--spares"))
            continue
        card = data.card(spare)
        size = art.card_size(card)
        group = next((g for g in groups if g.size == size), None)
        if group is None:
            issues.add(Problem(f"--spares: '{spare}' is {size[0]:g}×{size[1]:g} mm and no deck file holds cards of "
                               "that size: no spare printed", field="--spares", severity="warning"))
            continue
        out.setdefault(group.name, []).append(card)
    return out


@dataclass
class Layout:
    """How one deck file is laid out: the sheet, and which card each slot of each sheet
    holds (``None``: empty, for lack of cards or to keep unlike edges apart)."""

    sheet: Sheet | FoldSheet
    pages: list[list[CardBase | None]]
    book: EdgeBook | None = None  # the cards' edges, when the layout weighed them
    spares: int = 0  # copies added to fill the last sheet (--spares)
    missing: dict[str, int] = field(default_factory=dict)  # sheet extras left out → pages
    # the printable bleed (mm) when no layout leaves PRINTABLE_BLEED_MM of it inside the printable area
    short_bleed: float | None = None

    @property
    def count(self) -> int:
        return sum(1 for page in self.pages for c in page if c is not None)

    def again(self, group: DeckGroup, s: BuildSettings) -> Layout:
        """Another file's cards (the reprint pack's) on this file's sheet."""
        return Layout(self.sheet, _place(group, self.sheet, self.book, [], s)[0], self.book)


def _layout_for(group: DeckGroup, s: BuildSettings, art: CardArt, spares: list[CardBase],
                book: EdgeBook | None = None) -> Layout:
    """The sheet for a group of cards and the card in each slot. With ``--gutter`` every card
    has its own bleed and the cards go in data order; with ``--ignore-edges``, as many as fit,
    in data order. Otherwise the layout weighs the cards'
    edges (render/cards/edges.py): of every layout that fits, the one needing fewest sheets once the
    cards are placed so that no butted neighbours' edges differ (imposition.sequence); a
    deck whose edges all meet prints as many a sheet as fit, in data order."""
    common: dict[str, Any] = {"bleed": s.bleed_mm, "gutter": s.gutter_mm, "margin": s.margin_mm,
                              "printer": s.printer_margin, "orientation": s.orientation}
    weigh = s.gutter_mm is None and not s.per_card and not s.ignore_edges
    lay_out = fold_options if s.fold else sheet_options
    fail = "does not fit twice (gutter fold)" if s.fold else "does not fit"
    if not s.fold and (s.columns or s.rows):  # the sheet grid cardforge.toml asks for
        common.update(columns=s.columns, rows=s.rows)
    options: list[Sheet | FoldSheet] = list(lay_out(s.paper_mm, group.size, patterns=weigh, **common))
    short_bleed = False
    if not options and s.margin_mm is None:  # no room for 2 mm of printable bleed: the trims at the band
        options = list(lay_out(s.paper_mm, group.size, patterns=weigh, printable_bleed=0.0, **common))
        short_bleed = bool(options)
    if not options:
        raise SheetError(no_fit_message(s.paper_mm, group.size, s.bleed_mm, s.margin_mm, s.printer_margin,
                                        s.orientation, fail))
    plain = [o for o in options if not o.pattern]
    if book is None and weigh:
        book = edge_book(art, group.cards + spares, group.size, s.bleed_mm)
    if not weigh:
        book = None
    if book is None or book.uniform:
        sheet = best_by_count(plain, s.crop_marks, s.sheet_labels)
        book = None
    else:
        counts: dict[int, int] = {}
        for card in group.printed():
            key = book.key(card)
            counts[key] = counts.get(key, 0) + 1
        order = list(counts.items())
        edges = book

        def needed(option: Sheet | FoldSheet) -> int:
            return sheets_needed(order, _contacts(option, s), edges)

        sheet = _chosen(options, group.count, needed, s, order, book)
    pages, added = _place(group, sheet, book, spares, s)
    layout = Layout(sheet, pages, book, added)
    if s.crop_marks and not marks_print(sheet):  # no layout of these cards has room for them
        layout.missing[MARKS_MISSING] = len(pages)
    if short_bleed:
        layout.short_bleed = printable_bleed(sheet, s)
    return layout


MARKS_MISSING = "crop marks of the first cuts"


def printable_bleed(sheet: Sheet | FoldSheet, s: BuildSettings) -> float:
    """How much of the cards' bleed lies inside the printable area on a full sheet, at the
    card nearest the paper's edge (mm; the whole bleed when none comes near)."""
    trims = list(sheet.slots) + ([p.trim for p in sheet.backs] if isinstance(sheet, FoldSheet) else [])
    pw, ph = sheet.page
    nearest = min(min(t.x, t.y, pw - t.right, ph - t.top) for t in trims)
    return max(0.0, min(s.bleed_mm, nearest - s.printer_margin))


def _chosen(options: list[Sheet | FoldSheet], count: int, needed: Callable[[Sheet | FoldSheet], int],
            s: BuildSettings, order: list[tuple[int, int]], book: EdgeBook) -> Sheet | FoldSheet:
    """:func:`choose`, kept in the cache under what decides it: the options, the edge classes
    (their counts in print order and their faces' samples) and the settings the placing reads.
    An edit that changes no card's edges (a text, a number) finds the sheet without placing
    the deck on every option again (~40 ms of a 250-card deck's rebuild)."""
    def compute() -> int:
        return options.index(choose(options, count, needed, s.crop_marks, s.sheet_labels))

    faces = [[(k, side[k].sides) for k in sorted(side)] for side in (book.fronts, book.backs)]
    parts: list[bytes | str] = [repr(options), repr(order), repr((count, s.crop_marks, s.sheet_labels, s.duplex)),
             pickle.dumps(faces, protocol=pickle.HIGHEST_PROTOCOL)]
    try:
        code = cache.code_files("layout/", "render/cards/decks.py", "render/cards/edges.py")
        index = cache.memo("sheet-choice", parts, code, compute, codec="json", expect=int)
    except OSError:
        index = compute()
    if not 0 <= index < len(options):  # not this choice's entry: chosen again
        index = compute()
    return options[index]


def _contacts(sheet: Sheet | FoldSheet, s: BuildSettings) -> Contacts:
    backs = sheet.backs if isinstance(sheet, FoldSheet) else sheet.back_placements(s.duplex)
    return contacts(sheet.placements(), backs)


def _place(group: DeckGroup, sheet: Sheet | FoldSheet, book: EdgeBook | None, spares: list[CardBase],
           s: BuildSettings) -> tuple[list[list[CardBase | None]], int]:
    """The cards of each sheet, slot by slot; and how many spares filled the last one."""
    n = sheet.per_page
    if book is None:
        pages: list[list[CardBase | None]] = [[*batch, *([None] * (n - len(batch)))]
                                              for batch in chunks(group.printed(), n)]
        added = 0
        if spares and pages:
            last = pages[-1]
            for i in range(n):
                if last[i] is None:
                    last[i] = spares[added % len(spares)]
                    added += 1
        return pages, added
    edges = book
    placed = sequence([(edges.key(c), c) for c in group.printed()], _contacts(sheet, s), edges,
                      [(edges.key(c), c) for c in spares])
    pages = [[x[1] if x is not None else None for x in page] for page in placed]
    return pages, max(0, sum(1 for page in pages for c in page if c is not None) - group.count)


@dataclass
class FilePlan:
    """What the instructions page says about one deck file."""

    file: str
    backs: str | None  # its backs file (--duplex none)
    group: DeckGroup
    layout: Layout | None  # None: --per-card
    how: str  # "landscape, 4 × 2 = 8 a sheet, butted"
    sheets: int
    pages: int
    preface: int  # pages before the first sheet (the reprint pack's changelog)
    cards: int  # printed, spares included
    spares: int
    cutting: str  # the cutting order of a full sheet


def _per_card_how(group: DeckGroup, s: BuildSettings) -> str:
    w, h = (v + 2 * s.bleed_mm for v in group.size)
    return f"one card side a page, {w:g} × {h:g} mm with its bleed"


def _missing_problem(where: str, what: str, pages: int, total: int, s: BuildSettings, hint: str) -> Problem:
    """A warning that some sheet extras found no room, saying what would make room."""
    on = "every sheet" if pages >= total else f"{pages} of {total} sheets"
    margin = "automatic" if s.margin_mm is None else f"{s.margin_mm:g} mm"
    return Problem(f"no room for the {what} on {on} inside the printable area ({s.printer_margin:g} mm printer "
                   f"margin, margin {margin}); {hint}, or leave the labels out with --no-sheet-labels",
                   item=where, severity="warning")


def _short_bleed_problem(where: str, size: tuple[float, float], printable: float, s: BuildSettings) -> Problem:
    """A warning that the cards come closer to the paper's edge than leaves ``PRINTABLE_BLEED_MM``
    of their bleed printable: the sheets built anyway, and which ones and why."""
    return Problem(f"every sheet: a {size[0]:g}×{size[1]:g} mm card fits on {paper_words(s.paper)} only "
                   f"with {printable:.2f} mm of its {s.bleed_mm:g} mm bleed inside the printable area "
                   f"({s.printer_margin:g} mm printer margin), not {PRINTABLE_BLEED_MM:g}: a cut more than "
                   f"{printable:.2f} mm off the line shows white; a larger --paper or a smaller --printer-margin "
                   "gives it more", item=where, severity="warning")


def _room_hint(group: DeckGroup, s: BuildSettings, art: CardArt, spares: list[CardBase], layout: Layout) -> str:
    """The smallest ``--margin`` (whole mm) whose layout of these cards holds every sheet extra,
    if one up to 25 mm more does."""
    sheet = layout.sheet
    now = s.margin_mm if s.margin_mm is not None else max(0.0, s.printer_margin - s.bleed_mm)
    for m in range(math.floor(now) + 1, math.floor(now) + 26):
        trial = replace(s, margin_mm=float(m))
        try:
            other = _layout_for(group, trial, art, spares, layout.book).sheet
        except SheetError:
            break
        if not _extras_missing(other, trial) and (not trial.crop_marks or marks_print(other)):
            n = other.per_page
            return f"--margin {m} leaves room ({n} card{'s' if n != 1 else ''} a sheet against {sheet.per_page})"
    return "no --margin leaves room: a smaller --printer-margin or --bleed, or larger --paper, may"


def _extras_missing(sheet: Sheet | FoldSheet, s: BuildSettings) -> list[str]:
    plan = sheet_plan(sheet, crop_marks=s.crop_marks)
    info = SheetInfo("Game title of some length", "game", "deck.pdf", 10, 10, "front", s.paper, sheet.orientation,
                     "fold" if isinstance(sheet, FoldSheet) else s.duplex)
    trims = list(sheet.fronts) + [p.trim for p in sheet.backs] if isinstance(sheet, FoldSheet) else list(sheet.slots)
    obstacles = _obstacles(plan, fold_marks(sheet) if isinstance(sheet, FoldSheet) else [])
    return plan_extras(sheet.page, s.printer_margin, clip_boxes(trims, sheet.bleed), obstacles, info,
                       plan if s.crop_marks else None, True).missing


def _describe(sheet: Sheet | FoldSheet, s: BuildSettings) -> str:
    """'landscape, 4 × 2 = 8 a sheet, butted; backs shifted 0.5, -1 mm on the page'."""
    out = f"{sheet.orientation}, {sheet.describe()}"
    if any(s.back_offset_mm) and not isinstance(sheet, FoldSheet):
        dx, dy = back_offset_for(s, sheet.page)
        out += f"; backs shifted {dx:g}, {dy:g} mm on the page"
    return out


@dataclass
class _Labels:
    """The sheet label of each page of one file (see render/cards/sheetmarks.py)."""

    game: Game
    data: GameData
    file: str
    total: int
    sheet: Sheet | FoldSheet
    settings: BuildSettings
    duplex: str

    def info(self, index: int, side: str) -> SheetInfo:
        return SheetInfo(self.data.meta.title, self.game.id, self.file, index, self.total, side,
                         self.settings.paper, self.sheet.orientation, self.duplex,
                         messages(self.settings.lang or self.game.language))


def _canvas(path: Path, page: tuple[float, float], title: str, compress: bool, s: BuildSettings,
            duplex: str) -> Canvas:
    c = new_canvas(path, (mm(page[0]), mm(page[1])), title, subject="cards", cmyk=s.cmyk)
    if not compress:
        c.setPageCompression(0)
    print_preferences(c, duplex, k_black=s.pure_black)
    return c


def _sheet_boxes(c: Canvas, sheet: Sheet | FoldSheet, trims: Sequence[Rect], bleed: float) -> None:
    """A sheet is printed and cut whole: TrimBox and BleedBox are the page; the ArtBox is the
    cards with their bleed (what a preflight checks for content)."""
    set_boxes(c, sheet.page, None, art=_bounds(trims, bleed) if trims else None)


def _bounds(trims: Sequence[Rect], bleed: float) -> Rect:
    x0, y0 = min(t.x for t in trims) - bleed, min(t.y for t in trims) - bleed
    x1, y1 = max(t.right for t in trims) + bleed, max(t.top for t in trims) + bleed
    return Rect(x0, y0, x1 - x0, y1 - y0)


def _marks(c: Canvas, plan: CuttingPlan, registration: bool) -> None:
    """Crop marks and cut ticks: alike on every full sheet of a file, so drawn once (shared)."""
    def draw() -> None:
        draw_crop_marks(c, list(plan.marks), registration)
        draw_cut_ticks(c, plan.ticks, registration)

    if registration:  # a separation colour: ReportLab lists colour spaces in a page's resources only
        draw()
    else:
        shared(c, ("marks", plan.marks, plan.ticks), draw)


def _obstacles(plan: CuttingPlan | None, more: Sequence[Segment] = ()) -> list[Rect]:
    """What the sheet's labels keep clear of: its marks, ticks and fold line."""
    segs = list(plan.marks) + list(plan.ticks) if plan is not None else []
    return [segment_box(m) for m in segs + list(more)]


def _extras(c: Canvas, layout: Layout, sheet: Sheet | FoldSheet, ink: Sequence[Rect], obstacles: Sequence[Rect],
            info: SheetInfo, plan: CuttingPlan | None, bar: bool, s: BuildSettings) -> None:
    missing = draw_sheet_extras(c, sheet.page, s.printer_margin, ink, obstacles, info, plan=plan, bar=bar,
                                k_black=s.pure_black, registration=s.pure_black)
    for what in missing:
        layout.missing[what] = layout.missing.get(what, 0) + 1


def _used(page: list[CardBase | None]) -> list[int]:
    return [i for i, card in enumerate(page) if card is not None]


def _front_page(c: Canvas, painter: Painter, layout: Layout, page: list[CardBase | None], s: BuildSettings,
                progress: Progress | None, labels: _Labels | None = None, index: int = 0) -> None:
    sheet = layout.sheet
    used = _used(page)
    slots = [sheet.slots[i] for i in used]
    clips = clip_boxes(slots, sheet.bleed)
    _sheet_boxes(c, sheet, slots, sheet.bleed)
    for i, clip in zip(used, clips):
        card = page[i]
        assert card is not None
        painter.front(Placement(sheet.slots[i], sheet.turn(i), clip), card)
    if s.cut_lines:
        draw_cut_lines(c, slots)
    plan = sheet_plan(sheet, used, crop_marks=s.crop_marks)
    if s.crop_marks:
        _marks(c, plan, s.pure_black)
    if s.sheet_labels and labels is not None:
        _extras(c, layout, sheet, clips, _obstacles(plan if s.crop_marks else None), labels.info(index, "front"),
                plan if s.crop_marks else None, True, s)
    if progress:
        progress(len(used))
    c.showPage()


def _back_page(c: Canvas, painter: Painter, layout: Layout, backs: tuple[Placement, ...],
               page: list[CardBase | None], marks: bool, s: BuildSettings, labels: _Labels | None = None,
               index: int = 0) -> None:
    sheet = layout.sheet
    used = _used(page)
    placed = [backs[i] for i in used]
    trims = [p.trim for p in placed]
    clips = clip_boxes(trims, sheet.bleed)
    _sheet_boxes(c, sheet, trims, sheet.bleed)
    for i, placement, clip in zip(used, placed, clips):
        card = page[i]
        assert card is not None
        painter.back(Placement(placement.trim, placement.turn, clip), card)
    plan = None
    if marks:  # a backs file of its own (--duplex none) is cut from its own marks
        plan = cutting_plan(trims, clips, page=sheet.page, printable=printable_area(sheet.page, s.printer_margin))
        _marks(c, plan, s.pure_black)
    if s.sheet_labels and labels is not None:
        _extras(c, layout, sheet, clips, _obstacles(plan), labels.info(index, "back"), plan, marks, s)
    c.showPage()


def _draw_duplex(path: Path, title: str, layout: Layout, group: DeckGroup, art: CardArt, s: BuildSettings,
                 progress: Progress | None, compress: bool, labels: _Labels | None = None) -> tuple[int, int]:
    """Front page, back page, front page… The back page mirrors the front for the duplex mode;
    back pages carry no crop marks (the sheet is cut from the front). Returns (pages, of
    which before the first sheet)."""
    sheet = layout.sheet
    assert isinstance(sheet, Sheet)
    c = _canvas(path, sheet.page, title, compress, s, s.duplex)
    painter = Painter(c, art, ink_saver=s.ink_saver)
    backs = sheet.back_placements(s.duplex, back_offset_for(s, sheet.page))
    preface = group.preface(c, (mm(sheet.page[0]), mm(sheet.page[1])), True) if group.preface else 0
    pages = preface
    for n, page in enumerate(layout.pages, 1):
        _front_page(c, painter, layout, page, s, progress, labels, n)
        _back_page(c, painter, layout, backs, page, False, s, labels, n)
        pages += 2
    c.save()
    return pages, preface


def _draw_separate(path: Path, path_b: Path, title: str, layout: Layout, group: DeckGroup, art: CardArt,
                   s: BuildSettings, progress: Progress | None, compress: bool,
                   labels: tuple[_Labels, _Labels] | None = None) -> tuple[int, int, int]:
    """Fronts in one file, backs (laid out as for long-edge duplex, with crop marks) in another."""
    sheet = layout.sheet
    assert isinstance(sheet, Sheet)
    c = _canvas(path, sheet.page, title, compress, s, "none")
    cb = _canvas(path_b, sheet.page, title + " — backs", compress, s, "none")
    painter, painter_b = Painter(c, art, ink_saver=s.ink_saver), Painter(cb, art, ink_saver=s.ink_saver)
    backs = sheet.back_placements("none", back_offset_for(s, sheet.page))
    preface = group.preface(c, (mm(sheet.page[0]), mm(sheet.page[1])), False) if group.preface else 0
    front_labels, back_labels = labels if labels else (None, None)
    pages = 0
    for n, page in enumerate(layout.pages, 1):
        _front_page(c, painter, layout, page, s, progress, front_labels, n)
        _back_page(cb, painter_b, layout, backs, page, s.crop_marks, s, back_labels, n)
        pages += 1
    c.save()
    cb.save()
    return preface + pages, pages, preface


def _draw_fold(path: Path, title: str, layout: Layout, group: DeckGroup, art: CardArt, s: BuildSettings,
               progress: Progress | None, compress: bool, labels: _Labels | None = None) -> tuple[int, int]:
    """Fronts on one half, backs mirrored on the other; fold marks on the fold line."""
    sheet = layout.sheet
    assert isinstance(sheet, FoldSheet)
    c = _canvas(path, sheet.page, title, compress, s, "none")
    painter = Painter(c, art, ink_saver=s.ink_saver)
    preface = group.preface(c, (mm(sheet.page[0]), mm(sheet.page[1])), False) if group.preface else 0
    pages = preface
    for n, page in enumerate(layout.pages, 1):
        used = _used(page)
        fronts = [sheet.fronts[i] for i in used]
        backs = [sheet.backs[i] for i in used]
        trims = fronts + [b.trim for b in backs]
        clips = clip_boxes(trims, sheet.bleed)
        _sheet_boxes(c, sheet, trims, sheet.bleed)
        for k, i in enumerate(used):
            card = page[i]
            assert card is not None
            painter.front(Placement(sheet.fronts[i], sheet.turn(i), clips[k]), card)
            painter.back(Placement(backs[k].trim, backs[k].turn, clips[len(used) + k]), card)
        if s.cut_lines:
            draw_cut_lines(c, trims)
        # folded, the sheet is its front half: the cutting order and the ticks are the fronts'
        plan = sheet_plan(sheet, used, crop_marks=s.crop_marks)
        if s.crop_marks:
            _marks(c, plan, s.pure_black)
        folds = fold_marks(sheet, used)
        draw_fold_marks(c, folds)
        if s.sheet_labels and labels is not None:
            _extras(c, layout, sheet, clips, _obstacles(plan if s.crop_marks else None, folds),
                    labels.info(n, "front"), plan if s.crop_marks else None, True, s)
        if progress:
            progress(len(used))
        c.showPage()
        pages += 1
    c.save()
    return pages, preface


def _draw_per_card(path: Path, title: str, group: DeckGroup, art: CardArt, s: BuildSettings,
                   progress: Progress | None, compress: bool) -> int:
    """One card side per page, the page the card with its bleed (what print shops take): the
    front, then the back, upright (the shop registers the sides), card after card. TrimBox is
    the card, BleedBox the page; no marks, no label."""
    w, h = group.size
    b = s.bleed_mm
    page = (w + 2 * b, h + 2 * b)
    c = _canvas(path, page, title, compress, s, "long-edge" if s.duplex != "none" else "none")
    painter = Painter(c, art, ink_saver=s.ink_saver)
    trim = Rect(b, b, w, h)
    set_boxes(c, page, trim, Rect(0, 0, *page))
    pages = 0
    for card in group.printed():
        painter.front(Placement(trim), card)
        c.showPage()
        painter.back(Placement(trim), card)
        c.showPage()
        pages += 2
        if progress:
            progress(1)
    c.save()
    return pages


def _remove_stale(game_dir: Path, current: set[str]) -> None:
    """Deck files of an earlier build that this one did not make (another duplex or fold mode)
    are removed, so the folder and its manifest hold one consistent deck."""
    manifest = game_dir / "manifest.json"
    if not manifest.exists():
        return
    try:
        old = json.loads(manifest.read_text(encoding="utf-8")).get("files", [])
    except (ValueError, AttributeError):
        return
    for entry in old:
        if isinstance(entry, dict) and entry.get("kind") in DECK_KINDS and entry.get("path") not in current:
            stale = game_dir / str(entry["path"])
            if stale.is_file() and stale.resolve().parent == game_dir.resolve():
                stale.unlink()
