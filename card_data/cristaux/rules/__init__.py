"""Cristaux Élémentaires Joailliers' rules: the hooks cardforge calls (what the game *is* —
players, modes, the ``--opale`` option, score categories — is data:
``card_data/cristaux/game.yaml``).

cards.py card models · data_checks.py · setup_rules.py · points.py and optimise.py the
school-by-school scoring with the best choices · scoring.py the final state and score.

Only the card models are imported with the package: every other hook is imported from its
module when a command first uses it (``lazy_hooks``, PEP 562), so a deck build from the data
cache never imports scoring or setup; ``cardforge check`` loads and checks them all.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardforge.api import lazy_hooks
from cardforge.data.loading import Section

from .cards import CARD_MODELS as card_models
from .cards import Component

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.problems import Problem

    from .cards import CristauxCard
    from .setup_rules import DescribedDeal

__all__ = ["card_models", "sections", "check_data", "setup_counts", "setup_steps", "deal", "setup_model",
           "check_setup", "score_model", "check_final_state", "score"]

sections = (Section("components", "components.yaml", Component, key="components", item="component"),)
MIN_PLAYERS, MAX_PLAYERS = 2, 5  # game.yaml's players; the deal check names them

__getattr__ = lazy_hooks(
    __name__,
    check_data="data_checks:check_cards",
    setup_model="setup_rules:DescribedDeal",
    score_model="scoring:FinalState",
    check_final_state="scoring",
    score="scoring:score_final_state",
)


def setup_counts(players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    from . import setup_rules  # on first use (the module docstring)

    return setup_rules.setup_counts(players, mode)


def setup_steps(players: int, mode: str, options: dict[str, Any], counts: dict[str, Any]) -> list[str]:
    from . import setup_rules

    return setup_rules.setup_steps(players, mode, bool(options["opale"]), counts)


def deal(data: GameData[CristauxCard], players: int, mode: str, options: dict[str, Any],
         rng: random.Random) -> dict[str, Any]:
    from . import setup_rules

    return setup_rules.deal(data, players, mode, bool(options["opale"]), rng)


def check_setup(data: GameData[CristauxCard], setup: DescribedDeal) -> list[Problem]:
    from . import setup_rules

    return setup_rules.check_deal(data, setup, MIN_PLAYERS, MAX_PLAYERS)
