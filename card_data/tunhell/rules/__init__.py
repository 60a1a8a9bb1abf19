"""TunHell's rules: the hooks cardforge calls (what the game *is* — players, modes, the
``--short`` option, score categories — is data: ``card_data/tunhell/game.yaml``).

cards.py the card models · rulebook.py the deck checked against the rulebook's «Matériel» ·
setup_rules.py counts, checklist, deal and deal check · scoring.py the final state and score.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from . import setup_rules
from .cards import CARD_MODELS as card_models
from .rulebook import check_against_rulebook as check_data
from .scoring import FinalState as score_model
from .scoring import check_final_state
from .scoring import score_final_state as score
from .setup_rules import DescribedDeal as setup_model
from .setup_rules import check_deal as check_setup

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import TunhellCard

__all__ = ["card_models", "check_data", "setup_counts", "setup_steps", "deal", "setup_model", "check_setup",
           "score_model", "check_final_state", "score"]


def setup_counts(players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    return setup_rules.setup_counts(mode, options["short"])


def setup_steps(players: int, mode: str, options: dict[str, Any], counts: dict[str, Any]) -> list[str]:
    return setup_rules.setup_steps(players, mode, options["short"], counts)


def deal(data: GameData[TunhellCard], players: int, mode: str, options: dict[str, Any],
         rng: random.Random) -> dict[str, Any]:
    return setup_rules.deal(data, players, mode, options["short"], rng)
