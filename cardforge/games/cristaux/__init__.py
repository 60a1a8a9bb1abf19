"""Cristaux Élémentaires Joailliers: metadata and hooks (see ../shared/RULES.md)."""

from __future__ import annotations

from typing import ClassVar

from cardforge.games.base import Game
from cardforge.games.cristaux.cards import CARD_MODELS
from cardforge.scores import Category, TieBreaker


class Cristaux(Game):
    id = "cristaux"
    title = "Cristaux Élémentaires Joailliers"
    min_players = 2
    max_players = 5
    card_size = "poker"
    status = "prototype"
    prints = "134 cards (projects, gifts, trouvailles, Topaze/Opale), round-track support, score pad, 3 player aids"
    categories: ClassVar[tuple[Category, ...]] = (
        Category("medallions", "Médaillons", "Medallions"),
        Category("esthetes", "Esthètes", "Esthetes"),
        Category("noblesse", "Noblesse", "Nobility"),
        Category("memoriss", "Mémoriss-Urbanistes", "Memoriss-Urbanists"),
        Category("forge", "Forge", "Forge"),
        Category("religion", "Religion", "Religion"),
        Category("musiciens", "Musiciens", "Musicians"),
        Category("maudits", "Cristaux maudits", "Cursed crystals"),
    )
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = ()
    modes = ('classique', 'initiation', 'avance')
    default_mode = "classique"
    setup_flags = frozenset({'opale'})
    card_models = CARD_MODELS


GAME = Cristaux()
