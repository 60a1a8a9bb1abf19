"""cardforge build [GAME…]"""

from __future__ import annotations

import itertools
import os
import signal
import sys
import time
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cardforge.cli import STATE
from cardforge.cli.common import GAME, ParamType, echo_json, echo_problem, echo_warnings, every_game, is_tty, refind
from cardforge.errors import CardforgeError
from cardforge.i18n import languages
from cardforge.problems import Problem, plural
from cardforge.settings import (
    DEFAULT_PAPER,
    DUPLEX_MODES,
    PAPER_OPTION_HELP,
    PRINTABLE_KINDS,
    BuildSettings,
    locale_paper,
    paper_mismatch,
    paper_size,
    paper_words,
)

if TYPE_CHECKING:
    from cardforge.games.base import Game
    from cardforge.render.cards.reprint import Reprint
    from cardforge.render.output import ManifestEntry

#: a game that failed to build: (game id, its problems, the error's title)
Failure = tuple[str, list[Problem], str]

EPILOG = """\b
Examples:
  cardforge build                          # every game, into output/<game>/
  cardforge build my-game --paper letter --duplex short-edge
  cardforge build my-game --fold --cut-lines -o ~/print
  cardforge build my-game --duplex none      # backs in their own file
  cardforge build my-game --back-offset 0.8,-0.5   # after printing `cardforge calibrate`
  cardforge build --only boards,pads
  cardforge build my-game --only decks --watch   # rebuild on every save, Ctrl-C to stop
  cardforge build my-game --changed-since printed-v3.json   # reprint.pdf: changelog + what changed
  cardforge build my-game --per-card --cmyk    # one card side a page, CMYK PDF/X-1a, for a print shop
  cardforge build my-game --ink-saver          # pale backgrounds for a home printer

\b
Duplex: the back page of each sheet is mirrored so every back lands behind its front when
printed two-sided, turned over around the long edge (default) or the short edge. A card
drawn upside down on a back page is intended: it reads upright once cut and turned over.
"""

F = TypeVar("F", bound=Callable[..., Any])

# What a manifest entry's count counts, per kind, for the summary ("10 boards", "1 pad").
COUNT_NOUNS = {"deck": "card", "backs": "card", "board": "board", "pad": "pad", "aid": "aid", "setup": "setup"}


class LengthMM(ParamType[float]):
    """A length in mm: '3', '3mm', '0.2in'. Negative values are refused."""

    name = "MM"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        from cardforge.units import parse_length, to_mm

        if isinstance(value, (int, float)):
            value = str(value)
        try:
            return round(to_mm(parse_length(value)), 4)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


class Offset(ParamType[tuple[float, float]]):
    """'X,Y' in mm (each may be negative): '0.8,-0.5', '1mm,0'."""

    name = "X,Y"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> tuple[float, float]:
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


class Paper(ParamType[str]):
    """A paper name (a4, letter, a3, tabloid…) or a custom 'WxH' in mm."""

    name = "PAPER"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            paper_size(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)
        return str(value).strip().lower()


class CardList(ParamType[tuple[str, ...]]):
    """Card ids, comma-separated (checked against the game's cards when it builds)."""

    name = "IDS"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[str, ...]:
        if isinstance(value, tuple):
            return value
        return tuple(dict.fromkeys(v.strip() for v in str(value).split(",") if v.strip()))


class KindList(ParamType[frozenset[str]]):
    name = "KINDS"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> frozenset[str]:
        if isinstance(value, frozenset):
            return value
        items = [v.strip() for v in str(value).split(",") if v.strip()]
        unknown = [v for v in items if v not in PRINTABLE_KINDS]
        if unknown or not items:
            self.fail(f"unknown printable {', '.join(map(repr, unknown)) or repr(value)} "
                      f"(allowed: {', '.join(PRINTABLE_KINDS)}, comma-separated)", param, ctx)
        return frozenset(items)


#: the options of `cardforge build`, in order, by parameter name (`cardforge watch` shares them)
OPTIONS: list[tuple[str, Callable[[F], F]]] = [
    ("out_dir", click.option(
        "-o", "--out", "out_dir", type=click.Path(file_okay=False), default="output", show_default=True,
        help="Folder to build into (one sub-folder per game).")),
    ("paper", click.option(
        "--paper", type=Paper(), default=DEFAULT_PAPER, show_default=True, help=PAPER_OPTION_HELP)),
    ("orientation", click.option(
        "--orientation", type=click.Choice(["auto", "portrait", "landscape"]), default="auto", show_default=True,
        help="auto: whichever fits more cards per sheet.")),
    ("bleed", click.option(
        "--bleed", type=LengthMM(), default="3", show_default=True,
        help="Artwork past the trim line on every side, in mm.")),
    ("gutter", click.option(
        "--gutter", type=LengthMM(), default=None,
        help="Give each card its own bleed, this far apart (mm; 0: bleed to bleed). Default: "
             "cards butted with one shared cut and bleed only around the grid, where that "
             "fits more cards per sheet.")),
    ("margin", click.option(
        "--margin", type=LengthMM(), default=None,
        help="Border of the sheet kept clear of cards and their bleed, in mm. Default: automatic, "
             "every card inside the printable area (its bleed may run into the printer margin, "
             "where it is cut off anyway).")),
    ("printer_margin", click.option(
        "--printer-margin", type=LengthMM(), default=None,
        help="The band along every paper edge your printer cannot print, in mm: no mark, label or "
             "caption goes there. Default: 5, or 6.35 (1/4 in) on Letter, Legal and Tabloid.")),
    ("spares", click.option(
        "--spares", type=CardList(), default="",
        help="Fill the empty slots of each deck file's last sheet with extra copies of these "
             "cards, comma-separated ids, taken in turn (where their edges suit their "
             "neighbours).")),
    ("ignore_edges", click.option(
        "--ignore-edges", is_flag=True,
        help="Butt cards whatever their edges look like: as many a sheet as fit, in data order (a "
             "cut off the line may show a sliver of the neighbour). Default: cards are butted only "
             "where their edges match, else given bleed between them or kept apart.")),
    ("duplex", click.option(
        "--duplex", type=click.Choice(list(DUPLEX_MODES)), default="long-edge", show_default=True,
        help="How the sheet turns over when printed two-sided; none: backs in their own file.")),
    ("back_offset", click.option(
        "--back-offset", type=Offset(), default="0,0", show_default=True,
        help="Shift the backs by X,Y mm to correct the printer, in the printer's frame (X towards "
             "the paper's right edge, Y towards its leading edge): the same numbers for portrait "
             "and landscape files (see `cardforge calibrate`).")),
    ("landscape_turn", click.option(
        "--landscape-turn", type=click.Choice(["ccw", "cw"]), default="ccw", show_default=True,
        help="How your printer turns a landscape page onto the paper (for --back-offset).")),
    ("fold", click.option(
        "--fold", is_flag=True, help="Gutter fold: fronts and backs side by side on one sheet.")),
    ("no_crop_marks", click.option("--no-crop-marks", is_flag=True, help="Leave out the crop marks.")),
    ("cut_lines", click.option("--cut-lines", is_flag=True, help="Draw a thin line on every trim line.")),
    ("pure_black", click.option(
        "--pure-black", is_flag=True,
        help="Black text in black ink only (CMYK 0 0 0 100) and crop marks in registration colour.")),
    ("cmyk", click.option(
        "--cmyk", is_flag=True,
        help="Every file in CMYK, PDF/X-1a:2003 for print shops: colours converted through the "
             "FOGRA39 coated profile (embedded as the output intent), greys and black text in black "
             "ink only.")),
    ("ink_saver", click.option(
        "--ink-saver", is_flag=True,
        help="Cards' backgrounds (bands, panels, full-bleed fills and art) printed with a quarter of "
             "their ink; frames, icons and text kept, light text on a background made pale turned "
             "dark.")),
    ("per_card", click.option(
        "--per-card", is_flag=True,
        help="deck-cards.pdf: one card side per page (front, back, front…), each page the card "
             "with its bleed, TrimBox on the card: the file print shops ask for.")),
    ("no_sheet_labels", click.option(
        "--no-sheet-labels", is_flag=True,
        help="Leave out the sheet label, scale bar and cutting order printed in the margins.")),
    ("strict", click.option(
        "--strict", is_flag=True, help="Warnings (missing art, missing layouts…) fail the build.")),
    ("only", click.option(
        "--only", type=KindList(), default=",".join(PRINTABLE_KINDS), show_default=True,
        help="Build only these, comma-separated: decks, boards, pads, aids.")),
    ("lang", click.option(
        "--lang", type=click.Choice(list(languages())), default=None,
        help="The edition to print: cardforge's words (pads, setup sheets, sheet labels…) and each "
             "card's text in this language (a multilingual field's value for it). Default: the "
             "game's `language` (game.yaml).")),
    ("playtest", click.option(
        "--playtest", metavar="URL", callback=lambda ctx, param, value: _playtest_url(value),
        help="Print a QR code and short address on the score pad and setup sheets: URL/p/GAME/VERSION/"
             "FINGERPRINT, the score sheet of `cardforge serve` at URL for this very deck (see "
             "docs/playtests.md).")),
    ("templates_dir", click.option(
        "--templates", "templates_dir", type=click.Path(file_okay=False, exists=True),
        help="Use layouts and templates from DIR/<game>/ and DIR/_shared/.")),
    ("quiet", click.option("-q", "--quiet", is_flag=True, help="No progress bar and no summary.")),
    ("as_json", click.option(
        "--json", "as_json", is_flag=True,
        help="Print one JSON object: {ok, games: [{game, ok, files, problems}]} (implies --quiet).")),
    ("changed_since", click.option(
        "--changed-since", "changed_since", type=click.Path(exists=True),
        help="Also write a reprint pack against the build recorded in this cards.json (or its "
             "folder): reprint.pdf opens with a changelog and pull list (also in changes.md/.json), "
             "then only the new faces and extra copies.")),
    ("restamp", click.option(
        "--restamp", is_flag=True,
        help="With --changed-since: also reprint cards whose stamp changed only its deck version.")),
    ("watch", click.option(
        "--watch", is_flag=True,
        help="Keep running: rebuild whenever the game's data or templates change (Ctrl-C stops); "
             "as `cardforge watch`.")),
    ("poll", click.option(
        "--poll", is_flag=True,
        help="Watching: look at the files every 0.3 s rather than wait for the system to say what "
             "changed, for folders on a network drive (automatic on NFS, SMB, sshfs…; or set "
             "CARDFORGE_WATCH_POLL=1).")),
]
#: what `cardforge watch` leaves out: it always watches, and prints as it goes
NOT_WATCH_OPTIONS = frozenset({"as_json", "watch"})


def build_options(leave_out: Collection[str] = ()) -> Callable[[F], F]:
    """Decorate a command with :data:`OPTIONS` (but ``leave_out``), in their order."""

    def apply(f: F) -> F:
        for name, option in reversed(OPTIONS):
            if name not in leave_out:
                f = option(f)
        return f

    return apply


@click.command(epilog=EPILOG)
@click.argument("games", metavar="[GAME]...", nargs=-1, type=GAME)
@build_options()
@click.pass_context
def build(ctx: click.Context, /, games: tuple[Any, ...], **options: Any) -> None:
    """Build print-ready PDFs for each GAME (every game when none is given) into OUT/<game>/.

    Decks are imposed on the paper chosen with bleed and crop marks; backs follow each sheet,
    mirrored for duplex printing. Each game's files are listed in OUT/<game>/manifest.json.
    A game's build is all or nothing: on any problem (bad data, text that does not fit…),
    error or interruption, exits 1 listing every problem and leaves OUT/<game>/ as it was.
    """
    run_build(ctx, games, **options)


def run_build(ctx: click.Context, games, *, out_dir, paper, orientation, bleed, gutter, margin, printer_margin, spares,
              ignore_edges, duplex, back_offset, landscape_turn, fold, no_crop_marks, cut_lines, pure_black, per_card,
              no_sheet_labels, strict, only, templates_dir, quiet, changed_since, restamp, cmyk=False, ink_saver=False,
              watch=False, poll=False, as_json=False, lang=None, playtest=None) -> None:
    """`cardforge build` and `cardforge watch` (``watch=True``): the options parsed, build each
    game, print, and exit (or watch on)."""
    from cardforge.paths import check_output_folder

    problem = check_output_folder(Path(out_dir), what="output folder (-o)")
    if problem is not None:
        raise click.BadParameter(f"{problem}", param_hint="'-o' / '--out'")
    settings = BuildSettings(paper=paper, orientation=orientation, bleed_mm=bleed, gutter_mm=gutter,
                             margin_mm=margin, printer_margin_mm=printer_margin, spares=spares,
                             ignore_edges=ignore_edges,
                             crop_marks=not no_crop_marks, cut_lines=cut_lines,
                             duplex=duplex, back_offset_mm=back_offset, landscape_turn=landscape_turn,
                             fold=fold, strict=strict,
                             only=only, out_dir=Path(out_dir), pure_black=pure_black, cmyk=cmyk,
                             ink_saver=ink_saver,
                             sheet_labels=not no_sheet_labels, per_card=per_card,
                             changed_since=Path(changed_since) if changed_since else None, restamp=restamp,
                             templates_dir=Path(templates_dir) if templates_dir else None, lang=lang,
                             playtest_url=playtest)
    if restamp and not changed_since:
        raise click.UsageError("--restamp goes with --changed-since RECORD")
    chosen = list(dict.fromkeys(games)) if games else every_game()
    if watch:
        from cardforge.watch import keep_texts

        keep_texts()  # from the first build on: the rebuilds reuse its laid-out texts
    if as_json and watch:
        raise click.UsageError("--json is not used with --watch")
    if poll and not watch:
        raise click.UsageError("--poll goes with --watch")

    quiet = quiet or as_json or STATE.quiet  # `cardforge -q build` as `cardforge build -q`
    failures: list[Failure] = []
    progress = Progress(enabled=not quiet and is_tty())
    given = {name for name in ctx.params
             if ctx.get_parameter_source(name) not in (click.core.ParameterSource.DEFAULT, None)}
    built: dict[str, list[ManifestEntry]] = {}
    try:
        _build_games(chosen, settings, given, progress, quiet, built, failures)
    except KeyboardInterrupt as exc:
        progress.close()
        ctx.exit(_interrupted(exc, settings))
    progress.close()
    if as_json:
        from cardforge.cli.build_json import build_json

        echo_json(build_json(chosen, settings.out_dir, built, failures))
        ctx.exit(1 if failures else 0)
    if failures:
        _echo_failures(failures)
    if watch:
        ctx.exit(_watch(chosen, lambda game: _project_settings(game, settings, given), quiet, poll))
    if failures:
        ctx.exit(1)


def _build_games(chosen: list[Game], settings: BuildSettings, given: set[str], progress: Progress, quiet: bool,
                 built: dict[str, list[ManifestEntry]], failures: list[Failure]) -> None:
    """Build each game with its project's settings (cardforge.toml), each paper said once."""
    papers: set[str] = set()  # said in the summary
    warned: set[str] = set()  # checked against this computer's paper
    for game in chosen:
        try:
            game_settings = _project_settings(game, settings, given)
        except CardforgeError as exc:  # its cardforge.toml: that game fails, the others build
            failures.append((game.id, exc.problems or [Problem(exc.title)], exc.title))
            continue
        header = None
        if game_settings.paper not in papers:  # said once for each paper of the run
            header = _say_paper(game_settings, warn=game_settings.paper not in warned)
            warned.add(game_settings.paper)
        failure = build_one(game, game_settings, progress, quiet, built, header)
        if failure:
            failures.append(failure)
        elif header is not None:
            papers.add(game_settings.paper)


def _playtest_url(value: str | None) -> str | None:
    from cardforge.settings import playtest_url_problem

    problem = playtest_url_problem(value) if value is not None else None
    if problem is not None:
        raise click.BadParameter(problem, param_hint="'--playtest'")
    return value


def _say_paper(settings: BuildSettings, warn: bool = True) -> str:
    """Warn (``warn``) when this computer's settings name a paper the build's will not print
    whole on; returns the summary's line naming the paper the files are laid out for."""
    warning = paper_mismatch(settings.paper, locale_paper(os.environ)) if warn else None
    if warning is not None:
        echo_problem(Problem(warning, severity="warning"))
    return f"paper: {paper_words(settings.paper)}, printer margin {settings.printer_margin:g} mm"


def _project_settings(game: Game, settings: BuildSettings, given: set[str]) -> BuildSettings:
    """The game folder's cardforge.toml fills in what the command line left at its default."""
    if not os.path.lexists(os.path.join(game.folder, "cardforge.toml")):  # data/project.py's PROJECT_FILE
        return settings  # no file: neither its model nor tomllib is imported (~5 ms)
    from cardforge.data.project import settings_for

    return settings_for(game, settings, given)


def _interrupted(exc: KeyboardInterrupt, settings: BuildSettings) -> int:
    """Ctrl-C or SIGTERM: say what became of the folder; exit 128 + the signal's number."""
    from cardforge.render.builds.build import BuildInterrupted

    signum = exc.signum if isinstance(exc, BuildInterrupted) else signal.SIGINT
    name = signal.Signals(signum).name
    if isinstance(exc, BuildInterrupted) and exc.committed:
        click.echo(f"interrupted ({name}) as the build was being put in place; it was finished first", err=True)
    else:
        click.echo(f"interrupted ({name}): the game being built was left as it was in {settings.out_dir}", err=True)
    return 128 + int(signum)


def _echo_failures(failures: list[Failure]) -> None:
    for game_id, problems, title in failures:
        errors = [p for p in problems if not p.is_warning]
        click.echo(f"error: {title} ({plural(len(errors), 'problem')}):", err=True)
        for p in errors:
            click.echo(f"  - {p}", err=True)
    total = sum(len([p for p in f[1] if not p.is_warning]) for f in failures)
    click.echo(f"build failed: {plural(total, 'problem')} in {', '.join(f[0] for f in failures)}", err=True)


def _watch(games: list[Game], settings_of: Callable[[Game], BuildSettings], quiet: bool, poll: bool = False) -> int:
    """``cardforge watch``, ``--watch``: rebuild each game when a file of its data or templates changes, until
    Ctrl-C (exit 0). A failed rebuild — bad data, or any error at all — prints what went wrong
    and keeps the previous PDFs; watching goes on."""
    from cardforge.resources import display_path
    from cardforge.watch import Rebuild, Target, WatchSession, game_target, must_poll

    def target(game: Game) -> Target:
        def rebuild() -> Failure | None:  # the game read again: an edited game.yaml (categories, kinds…) counts too
            try:
                fresh = refind(game)
                settings = settings_of(fresh)
            except CardforgeError as exc:  # game.yaml deleted or broken, a bad cardforge.toml: said, watching on
                return game.id, exc.problems or [Problem(str(exc))], exc.title
            return build_one(fresh, settings, Progress(False), True)

        return game_target(game, settings_of(game), rebuild)

    def report(r: Rebuild, t: Target) -> None:
        changed = f"{plural(len(r.changed), 'file')} changed; " if r.changed else ""
        if r.ok:
            if not quiet:
                click.echo(f"{t.name}: rebuilt in {r.seconds:.2f} s ({changed}{plural(r.texts_laid_out, 'text')} "
                           f"laid out, {r.texts_reused} reused)")
        elif isinstance(r.failure, BaseException):  # a bug: said as such, and watching goes on
            exc = r.failure
            click.echo(f"internal error: {type(exc).__name__}: {exc}", err=True)
            click.echo(f"{t.name}: previous PDFs kept; watching on", err=True)
        else:
            _echo_failures([r.failure])
            click.echo(f"{t.name}: previous PDFs kept; fix the problems and save again", err=True)

    targets = [target(g) for g in games]
    folders = list(dict.fromkeys(display_path(f) for t in targets for f in t.folders if f.is_dir()))
    polling = must_poll([f for t in targets for f in t.folders], poll)  # --poll, or a network drive
    session = WatchSession(targets, report, polling=polling)
    how = f"polling every {session.interval:g} s, " if polling else ""
    click.echo(f"watching {', '.join(folders)} ({how}Ctrl-C to stop)", err=True)
    code = session.run(first_build=False)
    click.echo("stopped watching", err=True)
    return code


def build_one(game: Game, settings: BuildSettings, progress: Progress, quiet: bool,
              built: dict[str, list[ManifestEntry]] | None = None, header: str | None = None) -> Failure | None:
    """Build one game (:func:`cardforge.render.builds.build.build_game`) and print what it wrote
    (after ``header``, when given); returns (game id, problems, title) on failure, None on
    success. ``built``: the entries written, by game id (for ``--json``)."""
    from cardforge.render.builds.build import build_game

    try:
        result = build_game(game, settings, progress)
    except CardforgeError as exc:
        echo_warnings(exc.problems)
        return game.id, [p for p in exc.problems if not p.is_warning] or [Problem(exc.title)], exc.title
    echo_warnings(result.warnings)
    if built is not None:
        built[game.id] = result.entries
    if not quiet:
        if header is not None:
            click.echo(header)
        for e in result.entries:
            cards = f", {plural(e.cards, COUNT_NOUNS.get(e.kind, 'card'))}" if e.cards else ""
            how = f": {result.layouts[e.path]}" if e.path in result.layouts else ""
            click.echo(f"{game.id}: {(result.folder / e.path).as_posix()} ({plural(e.pages, 'page')}{cards}){how}")
        for name in result.removed:
            click.echo(f"{game.id}: {(result.folder / name).as_posix()} removed (not part of this build)")
        if result.changes is not None:
            _echo_changes(game.id, result.changes)
    return None


def _echo_changes(game_id: str, changes: Reprint) -> None:
    """--changed-since: the pull list (render/cards/reprint.py writes it to changes.md/.json too)."""
    from cardforge.render.cards.reprint import changelog_lines

    if changes.empty:
        click.echo(f"{game_id}: nothing prints differently; nothing to reprint")
        return
    for style, text in changelog_lines(changes, "en")[1:]:  # the tool speaks English
        click.echo(f"{game_id}: {'  - ' if style == 'item' else ''}{text}")


class Progress:
    """The build's progress bar (:func:`click.progressbar`) on stderr: only on a terminal, only
    once a build has run for over a second (a quick build shows none), cleared when done — it
    never stays in the output.

    Renderers call it with the number of items just finished: ``progress(6)``; a phase with no
    known total (the printables) shows a moving bar and the count."""

    DELAY = 1.0
    WIDTH = 30

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.t0 = time.monotonic()
        self.label = ""
        self.total: int | None = None
        self.done = 0
        self.bar: Any = None  # click's ProgressBar, once shown

    def start(self, label: str, total: int | None) -> None:
        self.clear()
        self.label, self.total, self.done = label, total, 0

    def __call__(self, advance: int = 1, *args: Any, **kwargs: Any) -> None:
        steps = advance if isinstance(advance, int) else 1
        self.done += steps
        if not self.enabled or time.monotonic() - self.t0 < self.DELAY:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=self.total, iterable=None if self.total else itertools.repeat(None),
                                         label=f"{self.label:<16}", width=self.WIDTH, show_pos=True,
                                         file=sys.stderr)
            self.bar.make_step(self.done)  # everything done so far…
            self.bar.__enter__()  # …shown from here
        else:
            self.bar.update(steps)

    def clear(self) -> None:
        """Take the bar off the screen (not click's finish, which leaves it on a line of its own)."""
        if self.bar is not None:
            self.bar = None
            click.echo("\r\x1b[K\x1b[?25h", file=sys.stderr, nl=False)  # the line wiped, the cursor back

    def close(self) -> None:
        self.clear()
