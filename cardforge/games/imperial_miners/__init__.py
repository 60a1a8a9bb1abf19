"""Imperial Miners: metadata and hooks (see ../shared/RULES.md)."""

from __future__ import annotations

from typing import ClassVar

from cardforge.games.base import Game
from cardforge.games.imperial_miners.cards import CARD_MODELS
from cardforge.scores import Category, TieBreaker


class ImperialMiners(Game):
    id = "imperial_miners"
    title = "Imperial Miners"
    min_players = 1
    max_players = 5
    card_size = "poker"
    status = "published"
    prints = "blank mine-card template deck, surface/progress board blanks, score pad, player aids, setup sheet"
    categories: ClassVar[tuple[Category, ...]] = (
        Category("vp_tokens", "Jetons PV", "VP tokens"),
        Category("carts", "Chariots complets", "Complete carts"),
    )
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = (
        TieBreaker("coins", "Égalité : le plus de pièces l'emporte", "more coins"),
        TieBreaker("carts", "puis le plus de chariots complets", "more complete carts"),
    )
    setup_flags = frozenset({'first_game'})
    card_models = CARD_MODELS


GAME = ImperialMiners()
