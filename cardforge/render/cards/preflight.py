"""``cardforge check`` draws every card as ``build`` would, without writing a PDF.

Every layout is resolved and every card's front and back is drawn by the print's own painter
(``render/cards/cards.py``) on a scratch canvas that is never saved, so each problem ``build`` would
stop on — a template that fails, unclosed markup, an unknown font family or icon, art that
cannot be read, text that does not fit, a style value a card makes wrong, a card larger than
the paper — is found by ``check`` first, with the same message (issue 28: "check means it
builds"). The cards' sheets are planned too (a card that fits no sheet).
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from cardforge.layout.geometry import Placement, Rect, SheetError
from cardforge.problems import Problem
from cardforge.render import rl_internals as rl
from cardforge.render.cards.cards import Painter
from cardforge.render.cards.decks import _layout_for, prepare_cards
from cardforge.render.fonts import font_name
from cardforge.settings import BuildSettings

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game


def card_problems(game: Game, data: GameData, settings: BuildSettings | None = None, *,
                  templates_dir: Path | None = None) -> list[Problem]:
    """Every problem (errors and warnings) building ``game``'s decks from ``data`` would
    report, found by drawing each printed card's faces on a canvas that is never saved."""
    settings = settings or BuildSettings()
    art, groups, spares = prepare_cards(game, data, settings, templates_dir)
    issues = art.issues
    if issues.errors:
        return issues.items
    # the sheets, as build plans them (their edges are not sampled: that decides butting only)
    quick = replace(settings, ignore_edges=True)
    for group in groups:
        try:
            _layout_for(group, quick, art, spares.get(group.name, []))
        except SheetError as exc:
            issues.add(Problem(f"{exc}", item=f"{', '.join(group.kinds)} cards"))
    for card in data.cards:  # every card's stamp (build records them all, copies: 0 too)
        art.fingerprint(card)
    canvas = Canvas(io.BytesIO(), invariant=1, initialFontName=font_name())
    painter = Painter(canvas, art, ink_saver=settings.ink_saver)
    for group in groups:
        place = Placement(Rect(0.0, 0.0, *group.size))
        for card in group.cards:
            painter.front(place, card)
            painter.back(place, card)
            if len(rl.page_operators(canvas)) > 20_000:  # a page's operators: start another (memory)
                canvas.showPage()
    return issues.items
