"""What a game draws with beyond the bundled fonts and the built-in icons: its ``fonts/``
families and its ``icons/`` files, as one object passed to whatever draws for that game.

A :class:`DrawingAssets` travels in the text style (:class:`~cardforge.render.drawing.richtext.TextStyle`),
the printables' theme and build context, and the card painter: nothing is held process-wide,
so two games drawn in one process (the web, tests, ``build`` of several games) never see each
other's fonts or icons. It is equal to another, and hashes, by its files' names, sizes and
dates — text laid out with one game's icons is never served to another, and watch mode's laid
out texts stay valid until an asset file changes.

Built by :func:`cardforge.render.drawing.game_assets.drawing_assets`; :data:`BUILT_IN` has neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.pdfgen.canvas import Canvas

from cardforge.icons import ICONS, icon_label
from cardforge.render import fonts
from cardforge.render.drawing import icons

if TYPE_CHECKING:
    from cardforge.assets import FontFamily
    from cardforge.render.drawing.icons import CustomIcon


class DrawingAssets:
    """A game's own font families and icons, ready to draw."""

    __slots__ = ("root", "families", "custom", "names", "files", "key", "_hash", "_faces", "lang")

    def __init__(self, root: Path | None, families: Mapping[str, FontFamily],
                 custom: Mapping[str, CustomIcon], key: tuple[Any, ...], files: Mapping[str, Path] | None = None,
                 lang: str = "fr"):
        #: the language printed with these assets: its typography (French spacing only in
        #: French) and the built-in icons' legend labels
        self.lang = lang
        key = (*key, lang)
        self.root = root
        self.families = dict(families)
        #: the game's icons by name: each draws into its ``width × 100`` box (render/drawing/icons.py)
        self.custom = dict(custom)
        #: the game's own ``:name:`` tokens (markup parsing knows them besides the built-in ones)
        self.names = frozenset(custom)
        #: the game's icon files by name (an SVG's ``<title>`` is its legend label)
        self.files = dict(files or {})
        self.key = key
        self._hash = hash(key)
        self._faces: dict[tuple[str, bool, bool], str] = {}

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DrawingAssets) and other.key == self.key

    def __repr__(self) -> str:
        return (f"<DrawingAssets {self.root or 'built-in'} ({self.lang}): {len(self.families)} families, "
                f"{len(self.custom)} icons>")

    def in_language(self, lang: str) -> DrawingAssets:
        """The same fonts and icons, printing in ``lang``."""
        if lang == self.lang:
            return self
        return DrawingAssets(self.root, self.families, self.custom, self.key[:-1], self.files, lang)

    # --- fonts ---------------------------------------------------------------------------------
    def font_name(self, family: str = fonts.DEFAULT_FAMILY, bold: bool = False, italic: bool = False) -> str:
        """The registered name of a face: a bundled family, else one of the game's ``fonts/``
        (ValueError naming both when there is no such family)."""
        key = (family, bool(bold), bool(italic))
        name = self._faces.get(key)
        if name is None:
            name = self._faces[key] = fonts.font_name(family, bold, italic, self.families)
        return name

    # --- icons ---------------------------------------------------------------------------------
    def has_icon(self, name: str) -> bool:
        return name in ICONS or name in self.custom

    def icon_label(self, name: str) -> str:
        """The legend label of an icon (an SVG's ``<title>``, a built-in icon's name in the
        language printed)."""
        return icon_label(name, self.files, self.lang)

    def icon_width(self, name: str) -> float:
        """Advance width of an icon, in em."""
        return icons.icon_width(name, self.custom)

    def draw_icon(self, canvas: Canvas, name: str, x: float, y: float, size: float) -> None:
        """Draw icon ``name`` with its box's bottom-left at (x, y), ``size`` points tall."""
        icons.draw_icon(canvas, name, x, y, size, self.custom)


#: the bundled fonts and the built-in icons only (calibration sheets, tests, code without a game)
BUILT_IN = DrawingAssets(None, {}, {}, ("built-in",))
