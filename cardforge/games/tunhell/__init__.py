"""TunHell: metadata and hooks (see ../shared/RULES.md §2 and rules/tunhell.fr.txt)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from cardforge.games.base import Game
from cardforge.games.tunhell import scoring, setup_rules
from cardforge.games.tunhell.cards import CARD_MODELS
from cardforge.games.tunhell.rulebook import check_against_rulebook
from cardforge.scores import Category, ScoreResult, TieBreaker

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.problems import Problem


class TunHell(Game):
    id = "tunhell"
    title = "TunHell"
    min_players = 2
    max_players = 4
    card_size = "custom"
    status = "published"
    prints = "110 cards 56×88 mm (dwarves, mine, end of mine, trophies), score pad, player aids"
    categories: ClassVar[tuple[Category, ...]] = (
        Category("loot", "Butin", "Loot", icon="vp"),
        Category("trophies", "Trophées", "Trophies", icon="proud"),
        Category("rings", "Anneaux uniques", "Rings", icon="hand"),
        Category("back_door", "Porte de derrière", "Back door", icon="recruit"),
    )
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = ()  # «Celui qui a le plus de points» — no tie-breaker
    modes = ("full", "initiation")
    default_mode = "full"
    setup_flags = frozenset({"short"})
    card_models = CARD_MODELS

    def check_data(self, data: GameData) -> list[Problem]:
        return check_against_rulebook(data)

    def setup_counts(self, players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
        return setup_rules.setup_counts(mode, options.get("short", 0))

    def setup_steps(self, players: int, mode: str, options: dict[str, Any], counts: dict) -> list[str]:
        return setup_rules.setup_steps(players, mode, options.get("short", 0), counts)

    def deal(self, data: GameData, players: int, mode: str, options: dict[str, Any],
             rng: random.Random) -> dict[str, Any]:
        return setup_rules.deal(data, players, mode, options.get("short", 0), rng)

    setup_model = setup_rules.DescribedDeal

    def check_setup(self, data: GameData, setup: setup_rules.DescribedDeal) -> list[Problem]:
        return setup_rules.check_deal(data, setup)

    score_model = scoring.FinalState

    def check_final_state(self, data: GameData, state: scoring.FinalState) -> list[Problem]:
        return scoring.check_final_state(data, state)

    def score(self, data: GameData, state: scoring.FinalState) -> ScoreResult:
        return scoring.score_final_state(data, state)


GAME = TunHell()
