"""Cristaux Élémentaires Joailliers' rules: the hooks cardforge calls (what the game *is* —
players, modes, the ``--opale`` option, score categories — is data:
``card_data/cristaux/game.yaml``).

cards.py card models · data_checks.py · setup_rules.py · points.py and optimise.py the
school-by-school scoring with the best choices · scoring.py the final state and score.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardforge.data.loading import Section

from . import setup_rules
from .cards import CARD_MODELS as card_models
from .cards import Component
from .data_checks import check_cards as check_data
from .scoring import FinalState as score_model
from .scoring import check_final_state
from .scoring import score_final_state as score
from .setup_rules import DescribedDeal as setup_model

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.problems import Problem

    from .cards import CristauxCard

__all__ = ["card_models", "sections", "check_data", "setup_counts", "setup_steps", "deal", "setup_model",
           "check_setup", "score_model", "check_final_state", "score"]

sections = (Section("components", "components.yaml", Component, key="components", item="component"),)
MIN_PLAYERS, MAX_PLAYERS = 2, 5  # game.yaml's players; the deal check names them


def setup_counts(players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    return setup_rules.setup_counts(players, mode)


def setup_steps(players: int, mode: str, options: dict[str, Any], counts: dict[str, Any]) -> list[str]:
    return setup_rules.setup_steps(players, mode, bool(options["opale"]), counts)


def deal(data: GameData[CristauxCard], players: int, mode: str, options: dict[str, Any],
         rng: random.Random) -> dict[str, Any]:
    return setup_rules.deal(data, players, mode, bool(options["opale"]), rng)


def check_setup(data: GameData[CristauxCard], setup: setup_model) -> list[Problem]:
    return setup_rules.check_deal(data, setup, MIN_PLAYERS, MAX_PLAYERS)
