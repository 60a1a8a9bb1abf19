"""What boards, pads, aids and setup sheets share: the build context, the title band and the
footer stamp."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.i18n import Messages, messages
from cardforge.layout.imposition import INK_CLEARANCE_MM  # printables' ink keeps this far inside the printable area
from cardforge.markup import MarkupError, resolve_color, typeset
from cardforge.problems import Problem
from cardforge.render.drawing.drawing_assets import BUILT_IN, DrawingAssets
from cardforge.render.drawing.richtext import TextLayout, draw_layout
from cardforge.render.fonts import font_name
from cardforge.render.sheets.blocks import fit_box_text
from cardforge.resources import display_path
from cardforge.settings import BuildSettings

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game
    from cardforge.render.sheets.playtest import PlaytestLink

DEFAULT_ACCENT = "#3d4b5c"


def ink_inset(settings: BuildSettings) -> float:
    """How far (mm) from the paper's edge what a printable draws must stay: the printer margin
    and a little more."""
    return settings.printer_margin + INK_CLEARANCE_MM


@dataclass(frozen=True)
class PrintContext:
    game: Game
    data: GameData
    settings: BuildSettings
    #: the game's own fonts and icons (``render/game_assets.drawing_assets``)
    assets: DrawingAssets = field(default=BUILT_IN)
    #: ``--playtest``: the link the score pad and setup sheets carry (render/sheets/playtest.py)
    playtest: PlaytestLink | None = None

    @property
    def accent(self) -> str:
        """The game's colour: its default card back's (``#rrggbb`` or a palette name, given
        as ``#rrggbb``), else a neutral slate. An unknown colour is returned as written:
        :meth:`accent_problem` reports it before anything is drawn."""
        backs = self.data.meta.backs
        for key in ("default", *backs):
            back = backs.get(key)
            if back is not None and back.colour:
                try:
                    return resolve_color(back.colour)
                except MarkupError:
                    return back.colour
        return DEFAULT_ACCENT

    def accent_problem(self) -> Problem | None:
        """The back colour the printables take as theirs, when it is not a colour."""
        try:
            resolve_color(self.accent)
        except MarkupError as exc:
            key = next(k for k in ("default", *self.data.meta.backs)
                       if self.data.meta.backs.get(k) is not None and self.data.meta.backs[k].colour)
            return Problem(f"{exc} (boards, pads and aids take this back's colour)",
                           file=display_path(self.data.root / "deck.yaml"), field=f"backs.{key}.colour")
        return None

    @property
    def t(self) -> Messages:
        """The words cardforge prints, in the build's language (``--lang``), else the game's."""
        return messages(self.settings.lang or self.game.language)

    @property
    def version(self) -> str:
        return self.data.meta.version

    @property
    def card_mm(self) -> tuple[float, float]:
        size = self.data.meta.card_size
        return float(size.width), float(size.height)


def band_title(markup: str, width: float, height: float, size: float, floor: float = 5.5,
               align: str = "left", assets: DrawingAssets = BUILT_IN) -> TextLayout:
    """The title set white on the accent band, shrunk to fit; TextOverflow below the floor."""
    return fit_box_text(markup, width, height, size, floor, bold=True, color="#ffffff", align=align,
                        assets=assets)


def draw_band(c: Canvas, x: float, y: float, w: float, h: float, colour: str, radius: float,
              layouts: list[tuple[TextLayout, float, float]]) -> None:
    """A filled band; ``layouts``: (layout, x offset, width) drawn vertically centred."""
    c.saveState()
    c.setFillColor(HexColor(colour))
    c.roundRect(x, y, w, h, radius, stroke=0, fill=1)
    c.restoreState()
    for layout, dx, lw in layouts:
        draw_layout(c, layout, x + dx, y, lw, h)


def draw_stamp(c: Canvas, left: str, right: str, x: float, y: float, w: float, size: float = 5.5,
               colour: str = "#2f2f2f", *, lang: str) -> None:
    """The small footer: what it is on the left, version and provenance on the right (with
    ``lang``'s typography)."""
    c.saveState()
    c.setFillColor(HexColor(colour))
    c.setFont(font_name("sans"), size)
    c.drawString(x, y, typeset(left, lang))
    c.drawRightString(x + w, y, typeset(right, lang))
    c.restoreState()


def stamp_right(version: str, provenance: str | None, t: Messages) -> str:
    mark = t.gettext(" · provisional") if provenance == "provisional" else ""
    return f"v{version}{mark}"


def clamp(value: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, value))

