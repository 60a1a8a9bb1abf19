"""TunHell's rules: the hooks cardforge calls (what the game *is* — players, modes, the
``--short`` option, score categories — is data: ``card_data/tunhell/game.yaml``).

cards.py the card models · rulebook.py the deck checked against the rulebook's «Matériel» ·
setup_rules.py counts, checklist, deal and deal check · scoring.py the final state and score.

Only the card models are imported with the package: every other hook is imported from its
module when a command first uses it (``lazy_hooks``, PEP 562), so a deck build from the data
cache never imports scoring or setup; ``cardforge check`` loads and checks them all.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardforge.api import lazy_hooks

from .cards import CARD_MODELS as card_models

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import TunhellCard

__all__ = ["card_models", "check_data", "setup_counts", "setup_steps", "deal", "setup_model", "check_setup",
           "score_model", "check_final_state", "score"]

__getattr__ = lazy_hooks(
    __name__,
    check_data="rulebook:check_against_rulebook",
    setup_model="setup_rules:DescribedDeal",
    check_setup="setup_rules:check_deal",
    score_model="scoring:FinalState",
    check_final_state="scoring",
    score="scoring:score_final_state",
)


def setup_counts(players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    from . import setup_rules  # on first use (the module docstring)

    return setup_rules.setup_counts(mode, options["short"])


def setup_steps(players: int, mode: str, options: dict[str, Any], counts: dict[str, Any]) -> list[str]:
    from . import setup_rules

    return setup_rules.setup_steps(players, mode, options["short"], counts)


def deal(data: GameData[TunhellCard], players: int, mode: str, options: dict[str, Any],
         rng: random.Random) -> dict[str, Any]:
    from . import setup_rules

    return setup_rules.deal(data, players, mode, options["short"], rng)
