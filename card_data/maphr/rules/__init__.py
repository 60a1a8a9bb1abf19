"""Les Mines de Maphr's rules: the hooks cardforge calls (what the game *is* — players,
score categories, tie-breaker — is data: ``card_data/maphr/game.yaml``).

cards.py card models · sections.py clans, mine levels, draw die, components · data_checks.py
the deck's invariants · setup_rules.py · scoring.py · their numbers in rules.py.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from . import setup_rules
from .cards import CARD_MODELS as card_models
from .data_checks import check_data
from .scoring import FinalState as score_model
from .scoring import check_final_state, score
from .sections import SECTIONS as sections
from .setup_rules import DescribedDeal as setup_model
from .setup_rules import check_setup

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import MaphrCard

__all__ = ["card_models", "sections", "check_data", "setup_counts", "setup_steps", "deal", "setup_model",
           "check_setup", "score_model", "check_final_state", "score"]


def setup_counts(players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    return setup_rules.setup_counts(players)


def setup_steps(players: int, mode: str, options: dict[str, Any], counts: dict[str, Any]) -> list[str]:
    return setup_rules.setup_steps(players, counts)


def deal(data: GameData[MaphrCard], players: int, mode: str, options: dict[str, Any],
         rng: random.Random) -> dict[str, Any]:
    return setup_rules.deal(data, players, rng)
