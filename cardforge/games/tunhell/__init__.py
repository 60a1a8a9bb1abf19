"""TunHell: metadata and hooks (see ../shared/RULES.md)."""

from __future__ import annotations

from typing import ClassVar

from cardforge.games.base import Game
from cardforge.games.tunhell.cards import CARD_MODELS
from cardforge.scores import Category, TieBreaker


class TunHell(Game):
    id = "tunhell"
    title = "TunHell"
    min_players = 2
    max_players = 4
    card_size = "custom"
    status = "published"
    prints = "110 cards 56×88 mm (dwarves, mine, end of mine, trophies), score pad, player aids"
    categories: ClassVar[tuple[Category, ...]] = (
        Category("loot", "Butin", "Loot"),
        Category("trophies", "Trophées", "Trophies"),
        Category("rings", "Anneaux uniques", "Rings"),
        Category("back_door", "Porte de derrière", "Back door"),
    )
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = ()
    modes = ('full', 'initiation')
    default_mode = "full"
    setup_flags = frozenset({'short'})
    card_models = CARD_MODELS


GAME = TunHell()
