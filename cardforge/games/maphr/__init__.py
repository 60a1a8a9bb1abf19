"""Les Mines de Maphr: metadata and hooks (see ../shared/RULES.md, section 1).

The rules live beside this module: ``cards.py`` (card models), ``sections.py`` (clans, mine
levels, draw die, components), ``data_checks.py`` (the deck's invariants), ``setup_rules.py``
and ``scoring.py``; their numbers in ``rules.py``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from cardforge.games.base import Game
from cardforge.games.maphr import data_checks, scoring, setup_rules
from cardforge.games.maphr.cards import CARD_MODELS
from cardforge.games.maphr.rules import MAX_PLAYERS, MIN_PLAYERS
from cardforge.games.maphr.sections import SECTIONS
from cardforge.scores import Category, ScoreResult, TieBreaker

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.problems import Problem


class Maphr(Game):
    id = "maphr"
    title = "Les Mines de Maphr"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    card_size = "square"
    status = "prototype"
    prints = "250-card square deck, 10 clan boards, score pad, player aids"
    categories: ClassVar[tuple[Category, ...]] = (
        Category("coins", "Pièces ÷ 6", "Coins ÷ 6", icon="coin"),
        Category("improvement_vp", "PV des aménagements", "Improvement VP", icon="vp"),
        Category("colour_squares", "Carrés de couleurs", "Colour squares", icon="blue"),
        Category("colour_series", "Séries de 5 couleurs", "5-colour series", icon="build"),
        Category("gallery_race", "Course aux galeries", "Gallery race", icon="gallery"),
        Category("veins_and_miners", "Filons et mineurs", "Veins and miners", icon="miner"),
    )
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = (
        TieBreaker("coins", "Égalité : le plus riche l'emporte", "more coins", row="Pièces"),
    )
    card_models = CARD_MODELS
    sections = SECTIONS
    setup_model = setup_rules.DescribedDeal
    score_model = scoring.FinalState

    def check_data(self, data: GameData) -> list[Problem]:
        return data_checks.check_data(data)

    def setup_counts(self, players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
        return setup_rules.setup_counts(players)

    def setup_steps(self, players: int, mode: str, options: dict[str, Any], counts: dict) -> list[str]:
        return setup_rules.setup_steps(players, counts)

    def deal(self, data: GameData, players: int, mode: str, options: dict[str, Any],
             rng: random.Random) -> dict[str, Any]:
        return setup_rules.deal(data, players, rng)

    def check_setup(self, data: GameData, setup: setup_rules.DescribedDeal) -> list[Problem]:
        return setup_rules.check_setup(data, setup)

    def check_final_state(self, data: GameData, state: scoring.FinalState) -> list[Problem]:
        return scoring.check_final_state(data, state)

    def score(self, data: GameData, state: scoring.FinalState) -> ScoreResult:
        return scoring.score(data, state)


GAME = Maphr()
