"""Cristaux Élémentaires Joailliers: metadata and hooks (see ../shared/RULES.md §4 and
rules/cristaux.fr.txt)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from cardforge.data.loading import Section
from cardforge.games.base import Game
from cardforge.games.cristaux import scoring, setup_rules
from cardforge.games.cristaux.cards import CARD_MODELS, Component
from cardforge.games.cristaux.data_checks import check_cards
from cardforge.scores import Category, ScoreResult, TieBreaker

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.problems import Problem


class Cristaux(Game):
    id = "cristaux"
    title = "Cristaux Élémentaires Joailliers"
    min_players = 2
    max_players = 5
    card_size = "poker"
    status = "prototype"
    # The rulebook says «134 cartes» but its own parts add up to 138 (98 + 5 + 10 + 15 + 10): the
    # build prints 138 (card_data/cristaux/deck.yaml). Aids: one per player (aids.yaml), not the
    # box's «trois aides de jeu».
    prints = ("138 cards (98 projects, 15 two-sided gifts, 15 trouvailles, 10 Topaze/Opale), "
              "2 round-track supports, score pad, a player aid per player")
    categories: ClassVar[tuple[Category, ...]] = (
        Category("medallions", "Médaillons", "Medallions", icon="logo-multi"),
        Category("esthetes", "Esthètes", "Esthetes", icon="eclat"),
        Category("noblesse", "Noblesse", "Nobility", icon="king"),
        Category("memoriss", "Mémoriss-Urbanistes", "Memoriss-Urbanists", icon="nature-multi"),
        Category("forge", "Forge", "Forge", icon="forge"),
        Category("religion", "Religion", "Religion", icon="crystal-any"),
        Category("musiciens", "Musiciens", "Musicians", icon="note"),
        Category("maudits", "Cristaux maudits", "Cursed crystals", icon="cursed"),
    )
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = ()  # the rulebook gives none: shared rank
    modes = ('classique', 'initiation', 'avance')
    default_mode = "classique"
    setup_flags = frozenset({'opale'})
    card_models = CARD_MODELS
    sections = (
        Section("components", "components.yaml", Component, key="components", item="component"),
    )

    def check_data(self, data: GameData) -> list[Problem]:
        return check_cards(data)

    def setup_counts(self, players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
        return setup_rules.setup_counts(players, mode)

    def setup_steps(self, players: int, mode: str, options: dict[str, Any], counts: dict) -> list[str]:
        return setup_rules.setup_steps(players, mode, bool(options.get("opale")), counts)

    def deal(self, data: GameData, players: int, mode: str, options: dict[str, Any],
             rng: random.Random) -> dict[str, Any]:
        return setup_rules.deal(data, players, mode, bool(options.get("opale")), rng)

    setup_model = setup_rules.DescribedDeal

    def check_setup(self, data: GameData, setup: setup_rules.DescribedDeal) -> list[Problem]:
        return setup_rules.check_deal(data, setup, self.min_players, self.max_players)

    score_model = scoring.FinalState

    def check_final_state(self, data: GameData, state: scoring.FinalState) -> list[Problem]:
        return scoring.check_final_state(data, state)

    def score(self, data: GameData, state: scoring.FinalState) -> ScoreResult:
        return scoring.score_final_state(data, state)


GAME = Cristaux()
