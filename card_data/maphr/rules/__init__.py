"""Les Mines de Maphr's rules: the hooks cardforge calls (what the game *is* — players,
score categories, tie-breaker — is data: ``card_data/maphr/game.yaml``).

cards.py card models · sections.py clans, mine levels, draw die, components · data_checks.py
the deck's invariants · setup_rules.py · scoring.py · their numbers in rules.py.

Only the card models and sections are imported with the package: every other hook is imported from its
module when a command first uses it (``lazy_hooks``, PEP 562), so a deck build from the data
cache, which needs nothing else, never imports scoring or setup (~10 ms of its start-up);
``cardforge check`` loads and checks them all.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardforge.api import lazy_hooks

from .cards import CARD_MODELS as card_models
from .sections import SECTIONS as sections  # its models are the cached data's: loaded with it anyway

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import MaphrCard

__all__ = ["card_models", "sections", "check_data", "setup_counts", "setup_steps", "deal", "setup_model",
           "check_setup", "score_model", "check_final_state", "score"]

__getattr__ = lazy_hooks(
    __name__,
    check_data="data_checks",
    setup_model="setup_rules:DescribedDeal",
    check_setup="setup_rules",
    score_model="scoring:FinalState",
    check_final_state="scoring",
    score="scoring",
)


def setup_counts(players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    from . import setup_rules  # on first use (the module docstring)

    return setup_rules.setup_counts(players)


def setup_steps(players: int, mode: str, options: dict[str, Any], counts: dict[str, Any]) -> list[str]:
    from . import setup_rules

    return setup_rules.setup_steps(players, counts)


def deal(data: GameData[MaphrCard], players: int, mode: str, options: dict[str, Any],
         rng: random.Random) -> dict[str, Any]:
    from . import setup_rules

    return setup_rules.deal(data, players, rng)
