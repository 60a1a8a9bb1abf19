"""Mine, All Mine!: metadata and hooks (see ../shared/RULES.md)."""

from __future__ import annotations

from typing import ClassVar

from cardforge.games.base import Game
from cardforge.games.mine_all_mine.cards import CARD_MODELS
from cardforge.scores import Category, TieBreaker


class MineAllMine(Game):
    id = "mine_all_mine"
    title = "Mine, All Mine!"
    min_players = 2
    max_players = 4
    card_size = "poker"
    status = "published"
    prints = "12 ship cards, 3 double-sided planet cards, extra and score cards, per-round score pad, player aid"
    categories: ClassVar[tuple[Category, ...]] = (
        Category("round_1", "Manche 1", "Round 1"),
        Category("round_2", "Manche 2", "Round 2"),
        Category("round_3", "Manche 3", "Round 3"),
    )
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = ()
    card_models = CARD_MODELS


GAME = MineAllMine()
