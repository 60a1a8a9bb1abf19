"""A game's own fonts and icons, made usable for drawing; and the check of every asset file.

:func:`use_game_assets` is called when a game starts drawing (``CardArt``, printables): its
``fonts/`` families become layout ``family`` names (``render/fonts.py``), its ``icons/`` files
``:name:`` tokens (``render/icons.py``, ``cardforge/icons.py``). :func:`asset_problems` is what
``cardforge check`` adds to the data checks: every font, icon and card art file opened and
checked whole, so a corrupt image fails ``check`` rather than the print.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge.assets import GameAssets, art_file, game_assets
from cardforge.icons import game_icons, use_game_icons
from cardforge.problems import Problem
from cardforge.render import icons as icon_drawing
from cardforge.render.fonts import font_problem, use_game_fonts
from cardforge.render.images import Art, ArtError, load_art
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
    art: Art

    def draw(self, canvas: Canvas) -> None:
        from cardforge.render.images import draw_art

        draw_art(canvas, self.art, 0, 0, self.width * UNIT, UNIT, fit="contain")


_ACTIVE: tuple[str, tuple[Any, ...]] | None = None


def use_game_assets(data: GameData, report: Callable[[Problem], None] | None = None) -> GameAssets:
    """Register the game's fonts and icons for drawing (replacing another game's). Icon files
    that cannot be read are reported through ``report(Problem)`` and left out."""
    global _ACTIVE
    assets = game_assets(data)
    signature = (str(assets.root), assets.signature())
    if signature == _ACTIVE:
        return assets
    fonts_changed = _ACTIVE is not None and _ACTIVE[0] == signature[0] and \
        _font_files(_ACTIVE[1]) != _font_files(signature[1])
    use_game_fonts(assets.fonts, changed=fonts_changed)
    if fonts_changed:  # texts laid out with the old metrics (watch mode keeps them)
        from cardforge.render.richtext import LAYOUTS

        LAYOUTS.clear()
    custom: dict[str, CustomIcon] = {}
    for name, path in assets.icons.items():
        try:
            custom[name] = _custom_icon(name, path)
        except ArtError as exc:
            if report is not None:
                report(Problem(f"icon '{name}': {exc}", file=display_path(path)))
    icon_drawing.CUSTOM.clear()
    icon_drawing.CUSTOM.update(custom)
    names = frozenset(assets.icons)
    if names != game_icons():
        use_game_icons(names)
        from cardforge.markup import parse

        parse.cache_clear()  # a parse remembered with another game's icons
    _ACTIVE = signature
    return assets


def _font_files(signature: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(entry for entry in signature if Path(entry[0]).parent.name == "fonts")


def _custom_icon(name: str, path: Path) -> CustomIcon:
    art = load_art(path)
    ratio = art.width_px / art.height_px if art.height_px else 1.0
    width = min(MAX_ICON_WIDTH, max(MIN_ICON_WIDTH, ratio))
    return CustomIcon(name, path, round(width, 4), art.digest[:8], art)


def asset_problems(data: GameData) -> list[Problem]:
    """Every asset of the game checked: its fonts (embeddable TrueType), its icons and every
    image a card or back names (read whole: corrupt, truncated or oversized files are errors;
    a missing card image is a warning, printed as a placeholder)."""
    assets = game_assets(data)
    problems = [Problem(msg, file=display_path(assets.root), severity="warning") for msg in assets.problems]
    for fam in assets.fonts.values():
        for path in fam.faces.values():
            why = font_problem(path)
            if why:
                problems.append(Problem(f"font family '{fam.name}': {why}", file=display_path(path)))
    for name, path in assets.icons.items():
        try:
            load_art(path)
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
