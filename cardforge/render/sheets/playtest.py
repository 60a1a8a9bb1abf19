"""The playtest link printed on a build's score pad and setup sheets (``build --playtest URL``).

The address is ``URL/p/<game>/<version>/<fingerprint>``: the game, and the deck of this build as
the playtest lab knows it (``lab.facts.deck_of_data``: the version and 8 hex digits of every
card's data and copies — the same as its build record's). ``cardforge serve`` answers it with the
game's score sheet, and a play saved from there records that version (``web/invites.py``).

The QR code is drawn module by module from segno's matrix (a rectangle per run of dark modules
in a row): no image, so the same address always gives the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.render.fonts import font_name
from cardforge.units import mm

if TYPE_CHECKING:
    from cardforge.lab.facts import Deck

#: the band a page gives the link: the code's side, the caption beside it
BAND_MM = 24.0
QUIET_MODULES = 4  # the white border a QR code needs around it (ISO/IEC 18004)


@dataclass(frozen=True)
class PlaytestLink:
    url: str  # what the QR code holds
    label: str  # the deck as printed beside it: "v0.3 · 1a2b3c4d"

    @property
    def short(self) -> str:
        """The address as printed under the code: without its scheme."""
        return self.url.split("://", 1)[-1]


def playtest_link(base: str, game_id: str, deck: Deck) -> PlaytestLink:
    """The link of ``deck`` of ``game_id`` on the server at ``base`` (``--playtest``)."""
    version = quote(deck.version, safe=".-_~+")
    return PlaytestLink(f"{base.rstrip('/')}/p/{quote(game_id, safe='-_')}/{version}/{deck.fingerprint}", deck.label)


def qr_matrix(url: str) -> list[list[bool]]:
    """The code's modules, row by row (True: dark), without the quiet zone; error correction M."""
    import segno

    code = segno.make(url, error="m", micro=False, boost_error=False)
    return [[bool(v) for v in row] for row in code.matrix]


def draw_link(c: Canvas, link: PlaytestLink, x: float, y: float, width: float, height: float) -> None:
    """The code (a square of ``height``, quiet zone included) at the band's left, the address and
    the deck's version beside it. ``x, y``: the band's bottom-left corner, in points."""
    matrix = qr_matrix(link.url)
    n = len(matrix)
    side = height
    module = side / (n + 2 * QUIET_MODULES)
    c.saveState()
    c.setFillColor(HexColor("#ffffff"))
    c.rect(x, y, side, side, stroke=0, fill=1)
    c.setFillColor(HexColor("#000000"))
    left = x + QUIET_MODULES * module
    top = y + side - QUIET_MODULES * module
    for r, row in enumerate(matrix):
        start = None
        for col, dark in enumerate([*row, False]):
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                c.rect(left + start * module, top - (r + 1) * module, (col - start) * module, module, stroke=0, fill=1)
                start = None
    text_x = x + side + mm(2)
    room = width - side - mm(2)
    c.setFillColor(HexColor("#1a1a1a"))
    size = 8.0
    while size > 5.0 and c.stringWidth(link.short, font_name("sans"), size) > room:
        size -= 0.5
    c.setFont(font_name("sans"), size)
    c.drawString(text_x, y + side / 2 + 1, link.short)
    c.setFont(font_name("sans"), 7.0)
    c.setFillColor(HexColor("#3a3a3a"))
    c.drawString(text_x, y + side / 2 - 9, link.label)
    c.restoreState()
