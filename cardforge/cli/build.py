"""cardforge build [GAME…]"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import click

from cardforge.cli.common import GAME, echo_problem, is_tty
from cardforge.problems import Problem, plural
from cardforge.settings import DUPLEX_MODES, PAPER_HELP, PRINTABLE_KINDS, BuildSettings

EPILOG = """\b
Examples:
  cardforge build                          # every game, into output/<game>/
  cardforge build tunhell --paper letter --duplex short-edge
  cardforge build maphr --fold --cut-lines -o ~/print
  cardforge build maphr --duplex none      # backs in their own file
  cardforge build maphr --back-offset 0.8,-0.5   # after printing `cardforge calibrate`
  cardforge build --only boards,pads
  cardforge build maphr --only decks --watch   # rebuild on every save, Ctrl-C to stop
  cardforge build maphr --changed-since printed-v3.json   # deck-changed.pdf: only what changed

\b
Duplex: the back page of each sheet is mirrored so every back lands behind its front when
printed two-sided, turned over around the long edge (default) or the short edge. A card
drawn upside down on a back page is intended: it reads upright once cut and turned over.
"""

PRINTABLES_MODULE = "cardforge.render.printables"
# What a manifest entry's count counts, per kind, for the summary ("10 boards", "1 pad").
COUNT_NOUNS = {"deck": "card", "backs": "card", "board": "board", "pad": "pad", "aid": "aid", "setup": "sheet"}


class LengthMM(click.ParamType):
    """A length in mm: '3', '3mm', '0.2in'. Negative values are refused."""

    name = "MM"

    def convert(self, value, param, ctx):
        from cardforge.units import parse_length, to_mm

        if isinstance(value, (int, float)):
            value = str(value)
        try:
            return round(to_mm(parse_length(value)), 4)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


class Offset(click.ParamType):
    """'X,Y' in mm (each may be negative): '0.8,-0.5', '1mm,0'."""

    name = "X,Y"

    def convert(self, value, param, ctx):
        from cardforge.units import parse_length, to_mm

        if isinstance(value, tuple):
            return value
        parts = str(value).split(",")
        if len(parts) != 2:
            self.fail(f"expected two lengths 'X,Y' in mm, e.g. '0.8,-0.5', got {value!r}", param, ctx)
        try:
            x, y = (round(to_mm(parse_length(p.strip(), allow_negative=True)), 4) for p in parts)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)
        if abs(x) > 20 or abs(y) > 20:
            self.fail(f"a printer offset is a few mm at most (between -20 and 20), got {value!r}", param, ctx)
        return (x, y)


class Paper(click.ParamType):
    """A paper name (a4, letter, a3, tabloid…) or a custom 'WxH' in mm."""

    name = "PAPER"

    def convert(self, value, param, ctx):
        from cardforge.settings import paper_size

        try:
            paper_size(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)
        return str(value).strip().lower()


class KindList(click.ParamType):
    name = "KINDS"

    def convert(self, value, param, ctx):
        if isinstance(value, frozenset):
            return value
        items = [v.strip() for v in str(value).split(",") if v.strip()]
        unknown = [v for v in items if v not in PRINTABLE_KINDS]
        if unknown or not items:
            self.fail(f"unknown printable {', '.join(map(repr, unknown)) or repr(value)} "
                      f"(allowed: {', '.join(PRINTABLE_KINDS)}, comma-separated)", param, ctx)
        return frozenset(items)


@click.command(epilog=EPILOG)
@click.argument("games", metavar="[GAME]...", nargs=-1, type=GAME)
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
              help="Folder to build into (one sub-folder per game).")
@click.option("--paper", type=Paper(), default="a4", show_default=True, help=f"Paper: {PAPER_HELP}.")
@click.option("--orientation", type=click.Choice(["auto", "portrait", "landscape"]), default="auto",
              show_default=True, help="auto: whichever fits more cards per sheet.")
@click.option("--bleed", type=LengthMM(), default="3", show_default=True,
              help="Artwork past the trim line on every side, in mm.")
@click.option("--gutter", type=LengthMM(), default=None,
              help="Give each card its own bleed, this far apart (mm; 0: bleed to bleed). Default: "
                   "cards butted with one shared cut and bleed only around the grid, where that "
                   "fits more cards per sheet.")
@click.option("--margin", type=LengthMM(), default="5", show_default=True,
              help="Border of the sheet kept clear of cards (crop marks go there), in mm.")
@click.option("--duplex", type=click.Choice(list(DUPLEX_MODES)), default="long-edge", show_default=True,
              help="How the sheet turns over when printed two-sided; none: backs in their own file.")
@click.option("--back-offset", type=Offset(), default="0,0", show_default=True,
              help="Shift the backs by X,Y mm to correct the printer, in the printer's frame (X towards "
                   "the paper's right edge, Y towards its leading edge): the same numbers for portrait "
                   "and landscape files (see `cardforge calibrate`).")
@click.option("--landscape-turn", type=click.Choice(["ccw", "cw"]), default="ccw", show_default=True,
              help="How your printer turns a landscape page onto the paper (for --back-offset).")
@click.option("--fold", is_flag=True, help="Gutter fold: fronts and backs side by side on one sheet.")
@click.option("--no-crop-marks", is_flag=True, help="Leave out the crop marks.")
@click.option("--cut-lines", is_flag=True, help="Draw a thin line on every trim line.")
@click.option("--pure-black", is_flag=True,
              help="Black text in black ink only (CMYK 0 0 0 100) and crop marks in registration colour.")
@click.option("--per-card", is_flag=True,
              help="deck-cards.pdf: one card side per page (front, back, front…), each page the card "
                   "with its bleed, TrimBox on the card: the file print shops ask for.")
@click.option("--no-sheet-labels", is_flag=True,
              help="Leave out the sheet label, scale bar and cutting order printed in the margins.")
@click.option("--strict", is_flag=True, help="Warnings (missing art, missing layouts…) fail the build.")
@click.option("--only", type=KindList(), default=",".join(PRINTABLE_KINDS), show_default=True,
              help="Build only these, comma-separated: decks, boards, pads, aids.")
@click.option("--templates", "templates_dir", type=click.Path(file_okay=False, exists=True),
              help="Use layouts and templates from DIR/<game>/ and DIR/_shared/.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")
@click.option("--changed-since", "changed_since", type=click.Path(exists=True),
              help="Also write deck-changed.pdf with only the cards that print differently from the "
                   "build recorded in this cards.json (or its folder): a reprint of what changed.")
@click.option("--watch", is_flag=True,
              help="Keep running: rebuild whenever the game's data or templates change (Ctrl-C stops).")
@click.pass_context
def build(ctx: click.Context, games, out_dir, paper, orientation, bleed, gutter, margin, duplex, back_offset,
          landscape_turn, fold, no_crop_marks, cut_lines, pure_black, per_card, no_sheet_labels, strict, only,
          templates_dir, quiet, changed_since, watch) -> None:
    """Build print-ready PDFs for each GAME (every game when none is given) into OUT/<game>/.

    Decks are imposed on the paper chosen with bleed and crop marks; backs follow each sheet,
    mirrored for duplex printing. Each game's files are listed in OUT/<game>/manifest.json.
    Exits 1 listing every problem (bad data, text that does not fit…) and then writes no PDF.
    """
    from cardforge.games import all_games

    settings = BuildSettings(paper=paper, orientation=orientation, bleed_mm=bleed, gutter_mm=gutter,
                             margin_mm=margin, crop_marks=not no_crop_marks, cut_lines=cut_lines,
                             duplex=duplex, back_offset_mm=back_offset, landscape_turn=landscape_turn,
                             fold=fold, strict=strict,
                             only=only, out_dir=Path(out_dir), pure_black=pure_black,
                             sheet_labels=not no_sheet_labels, per_card=per_card,
                             changed_since=Path(changed_since) if changed_since else None)
    chosen = list(dict.fromkeys(games)) if games else all_games()
    if watch:
        from cardforge.watch import keep_texts

        keep_texts()  # from the first build on: the rebuilds reuse its laid-out texts
    failures: list[tuple[str, list[Problem], str]] = []
    progress = Progress(enabled=not quiet and is_tty())
    for game in chosen:
        failure = _build_game(game, settings, templates_dir, progress, quiet)
        if failure:
            failures.append(failure)
    progress.close()
    if failures:
        _echo_failures(failures)
    if watch:
        ctx.exit(_watch(chosen, settings, templates_dir, quiet))
    if failures:
        ctx.exit(1)


def _echo_failures(failures: list[tuple[str, list[Problem], str]]) -> None:
    for game_id, problems, title in failures:
        errors = [p for p in problems if not p.is_warning]
        click.echo(f"error: {title} ({plural(len(errors), 'problem')}):", err=True)
        for p in errors:
            click.echo(f"  - {p}", err=True)
    total = sum(len([p for p in f[1] if not p.is_warning]) for f in failures)
    click.echo(f"build failed: {plural(total, 'problem')} in {', '.join(f[0] for f in failures)}", err=True)


def _watch(games, settings: BuildSettings, templates_dir, quiet: bool) -> int:
    """``--watch``: rebuild each game when a file of its data or templates changes, until
    Ctrl-C (exit 0). A failed rebuild prints its problems and keeps the previous PDFs."""
    from cardforge.data.loading import game_dir
    from cardforge.render.decks import template_folders
    from cardforge.resources import display_path
    from cardforge.watch import Rebuild, Target, WatchSession

    templates = Path(templates_dir) if templates_dir else None

    def target(game) -> Target:
        folders = [game_dir(game.id), *template_folders(game.id, templates)]
        return Target(game.id, lambda: _build_game(game, settings, templates_dir, Progress(False), True), folders)

    def report(r: Rebuild, t: Target) -> None:
        changed = f"{plural(len(r.changed), 'file')} changed; " if r.changed else ""
        if r.ok:
            if not quiet:
                click.echo(f"{t.name}: rebuilt in {r.seconds:.2f} s ({changed}{plural(r.texts_laid_out, 'text')} "
                           f"laid out, {r.texts_reused} reused)")
        else:
            _echo_failures([r.failure])
            click.echo(f"{t.name}: previous PDFs kept; fix the problems and save again", err=True)

    targets = [target(g) for g in games]
    folders = list(dict.fromkeys(display_path(f) for t in targets for f in t.folders if f.is_dir()))
    click.echo(f"watching {', '.join(folders)} (Ctrl-C to stop)", err=True)
    code = WatchSession(targets, report).run(first_build=False)
    click.echo("stopped watching", err=True)
    return code


def _build_game(game, settings: BuildSettings, templates_dir, progress: Progress, quiet: bool):
    """Build one game; returns (game id, problems, title) on failure, None on success."""
    from cardforge.data.loading import load_game_data
    from cardforge.errors import CardforgeError
    from cardforge.render.output import write_manifest

    try:
        data = load_game_data(game)
    except CardforgeError as exc:
        return game.id, exc.problems, exc.title
    for w in data.warnings:
        echo_problem(w)
    if settings.strict and data.warnings:
        strict = [Problem(p.message + " (--strict)", p.file, p.item, p.field, p.line) for p in data.warnings]
        return game.id, strict, f"card data for {game.id} has warnings"
    game_dir = settings.out_dir / game.id
    entries = []
    changes = None
    layouts: dict[str, str] = {}
    try:
        if "decks" in settings.only:
            from cardforge.render.decks import build_decks, deck_card_count

            progress.start(game.id, deck_card_count(data))
            result = build_decks(game, data, settings, game_dir,
                                 templates_dir=Path(templates_dir) if templates_dir else None,
                                 progress=progress)
            for w in result.warnings:
                echo_problem(w)
            entries += result.entries
            changes = result.changes
            layouts = result.layouts
        if settings.only & {"boards", "pads", "aids"} and importlib.util.find_spec(PRINTABLES_MODULE):
            from importlib import import_module

            printables = import_module(PRINTABLES_MODULE)
            progress.start(game.id, None)
            entries += printables.build_printables(game, data, settings, game_dir, progress=progress)
    except CardforgeError as exc:
        progress.clear()
        return game.id, exc.problems or [Problem(exc.title)], exc.title
    progress.clear()
    if entries:
        write_manifest(game_dir, game.id, entries)
    if not quiet:
        for e in entries:
            cards = f", {plural(e.cards, COUNT_NOUNS.get(e.kind, 'card'))}" if e.cards else ""
            how = f": {layouts[e.path]}" if e.path in layouts else ""
            click.echo(f"{game.id}: {(game_dir / e.path).as_posix()} ({plural(e.pages, 'page')}{cards}){how}")
        if changes is not None:
            _echo_changes(game.id, changes)
    return None


def _echo_changes(game_id: str, changes) -> None:
    """--changed-since: which cards to reprint and which to take out of the printed deck."""
    if changes.changed:
        click.echo(f"{game_id}: {plural(len(changes.changed), 'card')} to reprint: {', '.join(changes.changed)}")
    else:
        click.echo(f"{game_id}: no card prints differently; nothing to reprint")
    if changes.removed:
        click.echo(f"{game_id}: {plural(len(changes.removed), 'card')} no longer in the deck (take out): "
                   f"{', '.join(changes.removed)}")


class Progress:
    """A progress bar on stderr, shown only once a build has run for over a second.

    Renderers call it with the number of items just finished: ``progress(6)``."""

    DELAY = 1.0

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.t0 = time.monotonic()
        self.label = ""
        self.total: int | None = None
        self.done = 0
        self.shown = False

    def start(self, label: str, total: int | None) -> None:
        self.label, self.total, self.done = label, total, 0

    def __call__(self, advance: int = 1, *args, **kwargs) -> None:
        self.done += advance if isinstance(advance, int) else 1
        if not self.enabled or time.monotonic() - self.t0 < self.DELAY:
            return
        width = 30
        if self.total:
            filled = min(width, int(width * self.done / self.total))
            bar = f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
        else:
            bar = f"{self.done}"
        sys.stderr.write(f"\r{self.label:<16} {bar}\x1b[K")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False

    def close(self) -> None:
        self.clear()
