"""Les Mines de Maphr: metadata and hooks (see ../shared/RULES.md)."""

from __future__ import annotations

from typing import ClassVar

from cardforge.games.base import Game
from cardforge.games.maphr.cards import CARD_MODELS
from cardforge.scores import Category, TieBreaker


class Maphr(Game):
    id = "maphr"
    title = "Les Mines de Maphr"
    min_players = 2
    max_players = 4
    card_size = "square"
    status = "prototype"
    prints = "250-card square deck, 10 clan boards, score pad, player aids"
    categories: ClassVar[tuple[Category, ...]] = (
        Category("coins", "Pièces ÷ 6", "Coins ÷ 6"),
        Category("improvement_vp", "PV des aménagements", "Improvement VP"),
        Category("colour_squares", "Carrés de couleurs", "Colour squares"),
        Category("colour_series", "Séries de 5 couleurs", "5-colour series"),
        Category("gallery_race", "Course aux galeries", "Gallery race"),
        Category("veins_and_miners", "Filons et mineurs", "Veins and miners"),
    )
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = (
        TieBreaker("coins", "Égalité : le plus riche l'emporte", "more coins"),
    )
    card_models = CARD_MODELS


GAME = Maphr()
