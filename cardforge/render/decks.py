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
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.pdfgen.canvas import Canvas

from cardforge.data.loading import GameData
from cardforge.data.models import CardBase
from cardforge.errors import RenderError
from cardforge.layout.boxes import SHARED
from cardforge.layout.geometry import (
    CuttingPlan,
    FoldSheet,
    Placement,
    Rect,
    Segment,
    Sheet,
    SheetError,
    back_offset_for,
    back_placements,
    chunks,
    clip_boxes,
    crop_marks,
    cutting_plan,
    fold_marks,
    fold_sheet,
    impose,
)
from cardforge.paths import output_file
from cardforge.problems import Problem, short_repr
from cardforge.render import reprint
from cardforge.render.buildcache import layout_library
from cardforge.render.canvas import draw_crop_marks, draw_cut_lines, draw_cut_ticks, draw_fold_marks, shared
from cardforge.render.cards import CardArt, Issues, Painter
from cardforge.render.output import ManifestEntry, atomic_path, entry_for, new_canvas, print_preferences, set_boxes
from cardforge.render.reprint import Reprint, templates_digest
from cardforge.render.sheetmarks import SheetInfo, draw_sheet_extras
from cardforge.resources import display_path, templates_root
from cardforge.settings import BuildSettings
from cardforge.text.templating import Templates
from cardforge.units import mm

if TYPE_CHECKING:
    from cardforge.games.base import Game

DECK_KINDS = ("deck", "backs")
Progress = Callable[[int], None]


@dataclass
class DeckGroup:
    """Cards of one size, printed into one file (plus its backs file)."""

    name: str  # "deck" or "deck-<kind>"
    size: tuple[float, float]
    cards: list[CardBase] = field(default_factory=list)  # definitions, in data order
    kinds: list[str] = field(default_factory=list)
    preface: Callable[[Canvas, tuple[float, float], bool], int] | None = None  # preface(canvas, page size in
    # pt, duplex) → pages drawn first

    @property
    def count(self) -> int:
        return sum(c.copies for c in self.cards)

    def printed(self) -> Iterator[CardBase]:
        """Every card once per copy, in data order (lazily: nothing grows with the deck)."""
        for c in self.cards:
            for _ in range(c.copies):
                yield c


@dataclass
class DeckResult:
    entries: list[ManifestEntry]
    warnings: list[Problem]
    changes: Reprint | None = None  # with ``changed_since``: the reprint plan (render/reprint.py)
    # per file: how its sheets are laid out ("landscape, 4 × 2 = 8 per sheet, butted…"), for the
    # build's summary (the orientation tells which way --back-offset was turned for it)
    layouts: dict[str, str] = field(default_factory=dict)


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
    folders = template_folders(game, templates_dir)
    library = layout_library(folders)  # validated and resolved, cached by content
    issues = Issues()
    art = CardArt(game, data, library, Templates(folders), settings.bleed_mm, issues)
    for p in library.problems:
        issues.add(p)
    _check_backs(data, issues)
    groups = group_cards(art, data)
    sheets: dict[str, Sheet | FoldSheet] = {}
    for group in groups:
        try:
            sheets[group.name] = _sheet_for(group.size, settings)
        except SheetError as exc:
            issues.add(Problem(f"{exc}", item=f"{', '.join(group.kinds)} cards"))
    _raise_if_failed(game, issues, settings)

    # what this build prints, recorded beside the PDFs (render/reprint.py); with
    # ``changed_since``, the reprint pack: a changelog and pull list, then the cards to add
    art.templates_digest = templates_digest(folders)
    record = reprint.build_record(game, data, art, data.cards,  # copies: 0 too (a diff shows them)
                                  with_printables=bool(settings.only - {"decks"}) or settings.changed_since is not None)
    changes = None
    if settings.changed_since is not None:
        changes = reprint.plan_against(record, settings.changed_since, game.id, settings.restamp, issues,
                                       settings.only)
        _raise_if_failed(game, issues, settings)
        groups += reprint.pack_groups(changes, groups, sheets, settings, DeckGroup)

    entries: list[ManifestEntry] = []
    game_dir = Path(game_dir)
    with ExitStack() as stack:
        written: list[tuple[Path, Path, str, int, int]] = []  # (tmp, final, kind, pages, cards)
        for group in groups:
            sheet = sheets[group.name]
            stem = group.name
            title = f"{data.meta.title} — {group.name} (v{data.meta.version})"
            total = -(-group.count // sheet.per_page)
            if settings.per_card:
                final = output_file(game_dir, f"{stem}-cards.pdf")
                tmp = stack.enter_context(atomic_path(final))
                pages = _draw_per_card(tmp, title, group, art, settings, progress, compress)
                written.append((tmp, final, "deck", pages, group.count))
            elif isinstance(sheet, FoldSheet):
                final = output_file(game_dir, f"{stem}-fold.pdf")
                tmp = stack.enter_context(atomic_path(final))
                labels = _Labels(game, data, final.name, total, sheet, settings, "fold")
                pages = _draw_fold(tmp, title, sheet, group, art, settings, progress, compress, labels)
                written.append((tmp, final, "deck", pages, group.count))
            elif settings.duplex == "none":
                final, final_b = output_file(game_dir, f"{stem}.pdf"), output_file(game_dir, f"{stem}-backs.pdf")
                tmp = stack.enter_context(atomic_path(final))
                tmp_b = stack.enter_context(atomic_path(final_b))
                pair = (_Labels(game, data, final.name, total, sheet, settings, "none"),
                        _Labels(game, data, final_b.name, total, sheet, settings, "none"))
                pages, pages_b = _draw_separate(tmp, tmp_b, title, sheet, group, art, settings, progress,
                                                compress, pair)
                written += [(tmp, final, "deck", pages, group.count), (tmp_b, final_b, "backs", pages_b, 0)]
            else:
                final = output_file(game_dir, f"{stem}.pdf")
                tmp = stack.enter_context(atomic_path(final))
                labels = _Labels(game, data, final.name, total, sheet, settings, settings.duplex)
                pages = _draw_duplex(tmp, title, sheet, group, art, settings, progress, compress, labels)
                written.append((tmp, final, "deck", pages, group.count))
        _raise_if_failed(game, issues, settings)
        for tmp, final, kind, pages, cards in written:
            entries.append(_entry(tmp, final, game_dir, kind, pages, cards, settings.paper))
    entries += reprint.build_printables_pack(game, data, settings, game_dir, changes)
    _remove_stale(game_dir, {e.path for e in entries})
    reprint.write_outputs(game_dir, record, changes)
    layouts = {}
    for group in groups:
        if group.name not in sheets:  # the reprint pack's groups are laid out like their deck's
            continue
        how = _describe(sheets[group.name], settings)
        if settings.per_card:
            w, h = (v + 2 * settings.bleed_mm for v in group.size)
            how = f"one card side a page, {w:g} × {h:g} mm with its bleed"
        for e in entries:
            if Path(e.path).stem.removesuffix("-backs").removesuffix("-fold").removesuffix("-cards") == group.name:
                layouts[e.path] = how
    return DeckResult(entries, issues.warnings, changes, layouts)


def template_folders(game: Game | str, templates_dir: Path | None = None) -> list[Path]:
    """Where a game's layouts and ``*.j2`` files are looked up, first match wins:
    ``<dir>/<game>/`` and ``<dir>/_shared/`` (``--templates DIR``), the game folder's own
    ``templates/`` (every shipped game has one, as ``cardforge new`` makes), a
    ``CARDFORGE_TEMPLATES`` folder's ``<game>/`` (unless ``--templates`` is given), then the
    shared ``templates/_shared/`` (or ``CARDFORGE_TEMPLATES``'s) — so a designer's folder may
    hold only their game's layouts. ``game``: a Game, or the id of a game already found."""
    from cardforge.games import loaded_game

    game_id = game if isinstance(game, str) else game.id
    found = loaded_game(game_id) if isinstance(game, str) else game
    shipped = Path(templates_root())
    folders: list[Path] = []
    if templates_dir:
        folders += [Path(templates_dir) / game_id, Path(templates_dir) / SHARED]
    if found is not None and (found.folder / "templates").is_dir():
        folders.append(found.folder / "templates")
    if not templates_dir:
        folders.append(shipped / game_id)
    folders.append(shipped / SHARED)
    out: list[Path] = []
    for f in folders:
        if f.resolve() not in [o.resolve() for o in out]:
            out.append(f)
    return out


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


def _sheet_for(size: tuple[float, float], s: BuildSettings) -> Sheet | FoldSheet:
    kwargs: dict[str, Any] = {"bleed": s.bleed_mm, "gutter": s.gutter_mm, "margin": s.margin_mm,
                              "orientation": s.orientation}
    if s.fold:
        kwargs["gutter"] = s.gutter_mm or 0.0
        return fold_sheet(s.paper_mm, size, **kwargs)
    return impose(s.paper_mm, size, **kwargs)


def _describe(sheet: Sheet | FoldSheet, s: BuildSettings) -> str:
    """'landscape, 4 × 2 = 8 a sheet, butted; backs shifted 0.5, -1 mm on the page'."""
    how = "gutter fold" if isinstance(sheet, FoldSheet) else (
        "butted" if sheet.shared else "each card its own bleed")
    out = f"{sheet.orientation}, {sheet.cols} × {sheet.rows} = {sheet.per_page} a sheet, {how}"
    if any(s.back_offset_mm) and not isinstance(sheet, FoldSheet):
        dx, dy = back_offset_for(s, sheet.page)
        out += f"; backs shifted {dx:g}, {dy:g} mm on the page"
    return out


@dataclass
class _Labels:
    """The sheet label of each page of one file (see render/sheetmarks.py)."""

    game: Game
    data: GameData
    file: str
    total: int
    sheet: Sheet | FoldSheet
    settings: BuildSettings
    duplex: str

    def info(self, index: int, side: str) -> SheetInfo:
        return SheetInfo(self.data.meta.title, self.game.id, self.file, index, self.total, side,
                         self.settings.paper, self.sheet.orientation, self.duplex)


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


def _marks(c: Canvas, marks: list[Segment], plan: CuttingPlan, registration: bool) -> None:
    """Crop marks and cut ticks: alike on every full sheet of a file, so drawn once (shared)."""
    def draw() -> None:
        draw_crop_marks(c, marks, registration)
        draw_cut_ticks(c, plan.ticks, registration)

    if registration:  # a separation colour: ReportLab lists colour spaces in a page's resources only
        draw()
    else:
        shared(c, ("marks", tuple(marks), plan.ticks), draw)


def _front_page(c: Canvas, painter: Painter, sheet: Sheet, batch: list[CardBase], s: BuildSettings,
                progress: Progress | None, labels: _Labels | None = None, index: int = 0) -> None:
    slots = sheet.slots[:len(batch)]
    _sheet_boxes(c, sheet, slots, sheet.bleed)
    for slot, clip, card in zip(slots, clip_boxes(slots, sheet.bleed), batch):
        painter.front(Placement(slot, clip=clip), card)
    if s.cut_lines:
        draw_cut_lines(c, list(slots))
    plan = cutting_plan(slots) if s.crop_marks else None
    if plan is not None:  # crop marks
        _marks(c, crop_marks(slots, sheet.bleed, sheet.page), plan, s.pure_black)
    if s.sheet_labels and labels is not None:
        draw_sheet_extras(c, sheet.page, slots, sheet.bleed, labels.info(index, "front"), marks=s.crop_marks,
                          plan=plan, k_black=s.pure_black, registration=s.pure_black)
    if progress:
        progress(len(batch))
    c.showPage()


def _back_page(c: Canvas, painter: Painter, sheet: Sheet, backs: tuple[Placement, ...], batch: list[CardBase],
               marks: bool, s: BuildSettings, labels: _Labels | None = None, index: int = 0) -> None:
    placed = backs[:len(batch)]
    trims = [p.trim for p in placed]
    _sheet_boxes(c, sheet, trims, sheet.bleed)
    for placement, clip, card in zip(placed, clip_boxes(trims, sheet.bleed), batch):
        painter.back(Placement(placement.trim, placement.rotated, clip), card)
    plan = cutting_plan(trims) if marks else None
    if plan is not None:  # marks
        _marks(c, crop_marks(trims, sheet.bleed, sheet.page), plan, s.pure_black)
    if s.sheet_labels and labels is not None:
        draw_sheet_extras(c, sheet.page, trims, sheet.bleed, labels.info(index, "back"), marks=marks,
                          plan=plan, bar=marks, k_black=s.pure_black, registration=s.pure_black)
    c.showPage()


def _draw_duplex(path: Path, title: str, sheet: Sheet, group: DeckGroup, art: CardArt, s: BuildSettings,
                 progress: Progress | None, compress: bool, labels: _Labels | None = None) -> int:
    """Front page, back page, front page… The back page mirrors the front for the duplex mode;
    back pages carry no crop marks (the sheet is cut from the front)."""
    c = _canvas(path, sheet.page, title, compress, s, s.duplex)
    painter = Painter(c, art, ink_saver=s.ink_saver)
    backs = back_placements(sheet.slots, sheet.page, s.duplex, back_offset_for(s, sheet.page))
    pages = group.preface(c, (mm(sheet.page[0]), mm(sheet.page[1])), True) if group.preface else 0
    for n, batch in enumerate(chunks(group.printed(), sheet.per_page), 1):
        _front_page(c, painter, sheet, batch, s, progress, labels, n)
        _back_page(c, painter, sheet, backs, batch, False, s, labels, n)
        pages += 2
    c.save()
    return pages


def _draw_separate(path: Path, path_b: Path, title: str, sheet: Sheet, group: DeckGroup, art: CardArt,
                   s: BuildSettings, progress: Progress | None, compress: bool,
                   labels: tuple[_Labels, _Labels] | None = None) -> tuple[int, int]:
    """Fronts in one file, backs (laid out as for long-edge duplex, with crop marks) in another."""
    c = _canvas(path, sheet.page, title, compress, s, "none")
    cb = _canvas(path_b, sheet.page, title + " — backs", compress, s, "none")
    painter, painter_b = Painter(c, art, ink_saver=s.ink_saver), Painter(cb, art, ink_saver=s.ink_saver)
    backs = back_placements(sheet.slots, sheet.page, "none", back_offset_for(s, sheet.page))
    preface = group.preface(c, (mm(sheet.page[0]), mm(sheet.page[1])), False) if group.preface else 0
    front_labels, back_labels = labels if labels else (None, None)
    pages = 0
    for n, batch in enumerate(chunks(group.printed(), sheet.per_page), 1):
        _front_page(c, painter, sheet, batch, s, progress, front_labels, n)
        _back_page(cb, painter_b, sheet, backs, batch, s.crop_marks, s, back_labels, n)
        pages += 1
    c.save()
    cb.save()
    return preface + pages, pages


def _draw_fold(path: Path, title: str, sheet: FoldSheet, group: DeckGroup, art: CardArt, s: BuildSettings,
               progress: Progress | None, compress: bool, labels: _Labels | None = None) -> int:
    """Fronts on one half, backs mirrored on the other; fold marks on the fold line."""
    c = _canvas(path, sheet.page, title, compress, s, "none")
    painter = Painter(c, art, ink_saver=s.ink_saver)
    pages = group.preface(c, (mm(sheet.page[0]), mm(sheet.page[1])), False) if group.preface else 0
    for n, batch in enumerate(chunks(group.printed(), sheet.per_page), 1):
        fronts = sheet.fronts[:len(batch)]
        backs = sheet.backs[:len(batch)]
        trims = list(fronts) + [b.trim for b in backs]
        _sheet_boxes(c, sheet, trims, sheet.bleed)
        for slot, back, card in zip(fronts, backs, batch):
            painter.front(Placement(slot), card)
            painter.back(back, card)
        if s.cut_lines:
            draw_cut_lines(c, trims)
        # folded, the sheet is its front half: the cutting order and the ticks are the fronts'
        plan = cutting_plan(fronts) if s.crop_marks else None
        if plan is not None:
            _marks(c, crop_marks(trims, sheet.bleed, sheet.page), plan, s.pure_black)
        draw_fold_marks(c, fold_marks(sheet))
        if s.sheet_labels and labels is not None:
            draw_sheet_extras(c, sheet.page, trims, sheet.bleed, labels.info(n, "front"), marks=s.crop_marks,
                              plan=plan, k_black=s.pure_black, registration=s.pure_black)
        if progress:
            progress(len(batch))
        c.showPage()
        pages += 1
    c.save()
    return pages


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
