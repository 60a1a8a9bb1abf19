"""Imperial Miners: metadata and hooks (see ../shared/RULES.md §5).

A published game (Portal Games, 2023): cardforge does not reprint its 136 illustrated cards.
It is the table companion: setup, an exact end-game count including carts, and printables
(a blank mine-card template deck, score pad, aids, setup sheet).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from cardforge.data.loading import GameData
from cardforge.games.base import Game
from cardforge.games.imperial_miners import checks, scoring, setup_rules
from cardforge.games.imperial_miners.cards import CARD_MODELS
from cardforge.games.imperial_miners.sections import SECTIONS
from cardforge.problems import Problem
from cardforge.scores import Category, ScoreResult, TieBreaker


class ImperialMiners(Game):
    id = "imperial_miners"
    title = "Imperial Miners"
    min_players = 1
    max_players = 5
    card_size = "poker"
    status = "published"
    prints = "blank mine-card template deck, surface/progress board blanks, score pad, player aids, setup sheet"
    categories: ClassVar[tuple[Category, ...]] = (
        Category("vp_tokens", "Jetons PV", "VP tokens", icon="vp"),
        Category("carts", "Chariots complets", "Complete carts", icon="cart"),
    )
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = (
        TieBreaker("coins", "Égalité : le plus de pièces l'emporte", "more coins", row="Pièces"),
        TieBreaker("carts", "puis le plus de chariots complets", "more complete carts", row="Chariots"),
    )
    setup_flags = frozenset({"first_game"})
    card_models = CARD_MODELS
    sections = SECTIONS

    def check_data(self, data: GameData) -> list[Problem]:
        return checks.check_data(data, self.max_players)

    # --- setup ----------------------------------------------------------------------------
    def setup_counts(self, players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
        return setup_rules.setup_counts(bool(options.get("first_game")))

    def setup_steps(self, players: int, mode: str, options: dict[str, Any], counts: dict) -> list[str]:
        return setup_rules.setup_steps(players, bool(options.get("first_game")), counts)

    def deal(self, data: GameData, players: int, mode: str, options: dict[str, Any],
             rng: random.Random) -> dict[str, Any]:
        return setup_rules.deal(data, players, bool(options.get("first_game")), rng)

    setup_model = setup_rules.DealFile

    def check_setup(self, data: GameData, setup: setup_rules.DealFile) -> list[Problem]:
        return setup_rules.check_setup(data, setup, self.min_players, self.max_players)

    # --- scoring --------------------------------------------------------------------------
    score_model = scoring.FinalState

    def check_final_state(self, data: GameData, state: scoring.FinalState) -> list[Problem]:
        return scoring.check_final_state(state, self.id, self.min_players, self.max_players)

    def score(self, data: GameData, state: scoring.FinalState) -> ScoreResult:
        return scoring.score(data, state)


GAME = ImperialMiners()
