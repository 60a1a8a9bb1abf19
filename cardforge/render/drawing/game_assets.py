"""A game's own fonts and icons, made usable for drawing; and the check of every asset file.

:func:`drawing_assets` is called when a game starts drawing (``CardArt``, printables): its
``fonts/`` families become layout ``family`` names, its ``icons/`` files ``:name:`` tokens, in a
:class:`~cardforge.render.drawing.drawing_assets.DrawingAssets` passed down to what draws (no module
holds a "current game"). :func:`asset_problems` is what ``cardforge check`` adds to the data
checks: every font, icon and card art file opened and checked whole, so a corrupt image fails
``check`` rather than the print.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge.assets import art_file, game_assets
from cardforge.problems import Problem
from cardforge.render.drawing import icons as icon_drawing
from cardforge.render.drawing.drawing_assets import DrawingAssets
from cardforge.render.drawing.images import Art, ArtError, draw_art, load_art
from cardforge.render.drawing.svgdraw import SvgProgram, play, svg_program, svg_programs
from cardforge.render.fonts import font_problem
from cardforge.resources import display_path

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.data.loading import GameData

UNIT = icon_drawing.UNIT
#: an icon is at least half and at most three times as wide as it is tall (text size)
MIN_ICON_WIDTH, MAX_ICON_WIDTH = 0.5, 3.0


@dataclass(frozen=True)
class CustomIcon:
    """An icon file drawn into its form: the image fills a ``width × 1`` em box."""

    name: str
    path: Path
    width: float  # em
    key: str  # content digest: names the form, so another game's icon of that name never clashes
    art: Art | SvgProgram  # a PNG; an SVG as a program (render/drawing/svgdraw.py)

    def draw(self, canvas: Canvas) -> None:
        if isinstance(self.art, Art):
            draw_art(canvas, self.art, 0, 0, self.width * UNIT, UNIT, fit="contain")
            return
        # an SVG is drawn straight into the icon's form (one XObject an icon, as for the
        # built-in ones), its whole drawing centred in the box
        program = self.art
        w, h = self.width * UNIT, UNIT
        scale = min(w / program.width, h / program.height)
        dx, dy = (w - program.width * scale) / 2, (h - program.height * scale) / 2
        if (scale, dx, dy) != (1, 0, 0):
            canvas.transform(scale, 0, 0, scale, dx, dy)
        play(canvas, program, self.path)


#: the assets made lately, by their files' signature: a rebuild (watch mode, the web) does not
#: read the icons again while no asset file changed; any number of games live side by side
_MADE: OrderedDict[tuple[Any, ...], tuple[DrawingAssets, tuple[Problem, ...]]] = OrderedDict()
_KEPT = 8


def drawing_assets(data: GameData | Path | str,
                   report: Callable[[Problem], None] | None = None,
                   game_folder: Path | None = None, lang: str = "fr") -> DrawingAssets:
    """The fonts and icons of the game whose data is ``data`` (or in that folder), ready to be
    passed to what draws for it. Icon files that cannot be read are reported through
    ``report(Problem)`` and left out. ``game_folder``: the game's own folder, when the data
    comes from elsewhere (``--data DIR`` without a ``game.yaml``: ``assets.game_assets``).
    ``lang``: the language printed (typography, built-in icons' labels)."""
    assets = game_assets(data, game_folder)
    key = (str(assets.root), assets.signature())
    made = _MADE.get(key)
    if made is None:
        custom: dict[str, icon_drawing.CustomIcon] = {}
        problems = []
        svgs = {name: path for name, path in assets.icons.items() if path.suffix.lower() == ".svg"}
        try:  # one cache entry for all: a game has dozens of icons
            programs = dict(zip(svgs, svg_programs(list(svgs.values()))))
        except (ArtError, OSError):
            programs = {}  # one at a time, to report the broken ones
        for name, path in assets.icons.items():
            try:
                custom[name] = _custom_icon(name, path, programs.get(name))
            except ArtError as exc:
                problems.append(Problem(f"icon '{name}': {exc}", file=display_path(path)))
        made = _MADE[key] = (DrawingAssets(assets.root, assets.usable_fonts, custom, key, files=assets.icons),
                             tuple(problems))
        while len(_MADE) > _KEPT:
            _MADE.popitem(last=False)
    if report is not None:
        for problem in made[1]:
            report(problem)
    return made[0].in_language(lang)


def _custom_icon(name: str, path: Path, program: SvgProgram | None = None) -> CustomIcon:
    art: Art | SvgProgram
    if path.suffix.lower() == ".svg":
        try:
            art = program or svg_program(path)
        except OSError as exc:
            raise ArtError(f"cannot read the file ({exc.strerror or exc.__class__.__name__})", broken=True) from None
        w, h, digest = art.width, art.height, art.digest
    else:
        art = load_art(path)
        w, h, digest = art.width_px, art.height_px, art.digest
    ratio = w / h if h else 1.0
    width = min(MAX_ICON_WIDTH, max(MIN_ICON_WIDTH, ratio))
    return CustomIcon(name, path, round(width, 4), digest[:8], art)


def asset_problems(data: GameData) -> list[Problem]:
    """Every asset of the game checked: its fonts (embeddable TrueType), its icons and every
    image a card or back names (read whole: corrupt, truncated or oversized files are errors;
    a missing card image is a warning, printed as a placeholder)."""
    assets = game_assets(data)
    problems = [Problem(msg, file=display_path(assets.root), severity="warning") for msg in assets.problems]
    problems += [Problem(p.message, file=display_path(assets.root / p.file) if p.file else None)
                 for p in assets.refused]  # outside the folder, a FIFO…: never opened
    for fam in assets.fonts.values():
        for path in fam.faces.values():
            why = font_problem(path)
            if why:
                problems.append(Problem(f"font family '{fam.name}': {why}", file=display_path(path)))
    for name, path in assets.icons.items():
        try:
            _custom_icon(name, path)  # an SVG read before is its recorded program (no svglib)
        except ArtError as exc:
            problems.append(Problem(f"icon ':{name}:': {exc}", file=display_path(path)))
    checked: dict[str, ArtError | None] = {}

    def check(src: str) -> ArtError | None:
        if src not in checked:
            try:
                load_art(art_file(data.root, src))
                checked[src] = None
            except ArtError as exc:
                checked[src] = exc
        return checked[src]

    for card in data.cards:
        src = getattr(card, "art", None)
        if not src or not isinstance(src, str) or "{" in src:
            continue
        err = check(src)
        if err is not None:
            where = data.sources.get(card.id)
            problems.append(Problem(
                f"art '{src}': {err}" + ("" if err.broken else " (a placeholder is printed)"),
                file=where.file if where else None, line=where.line if where else None,
                item=where.label(card.id) if where else f"card '{card.id}'", field="art",
                severity="error" if err.broken else "warning"))
    for back_id, spec in data.meta.backs.items():
        src = getattr(spec, "art", None)
        if not src or "{" in src:
            continue
        err = check(src)
        if err is not None:
            problems.append(Problem(
                f"art '{src}': {err}" + ("" if err.broken else " (a placeholder is printed)"),
                file=display_path(data.root / "deck.yaml"), field=f"backs.{back_id}.art",
                severity="error" if err.broken else "warning"))
    return problems
