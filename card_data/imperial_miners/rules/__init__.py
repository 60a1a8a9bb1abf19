"""Imperial Miners' rules: the hooks cardforge calls (what the game *is* — players, the
``--first-game`` option, score categories and tie-breakers — is data:
``card_data/imperial_miners/game.yaml``).

A published game (Portal Games, 2023): cardforge does not reprint its 136 illustrated cards.
It is the table companion: setup, an exact end-game count including carts, and printables
(a blank mine-card template deck, score pad, aids, setup sheet).

Only the card models and sections are imported with the package: every other hook is imported
from its module when a command first uses it (``lazy_hooks``, PEP 562), so a deck build from the
data cache never imports scoring or setup; ``cardforge check`` loads and checks them all.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardforge.api import lazy_hooks
from cardforge.data.loading import GameData
from cardforge.problems import Problem

from .cards import CARD_MODELS as card_models
from .cards import MineTemplate
from .sections import SECTIONS as sections  # its models are the cached data's: loaded with it anyway

if TYPE_CHECKING:
    from .scoring import FinalState
    from .setup_rules import DealFile

__all__ = ["card_models", "sections", "check_data", "setup_counts", "setup_steps", "deal", "setup_model",
           "check_setup", "score_model", "check_final_state", "score"]

GAME_ID = "imperial_miners"
MIN_PLAYERS, MAX_PLAYERS = 1, 5  # game.yaml's players; the rule checks name them

__getattr__ = lazy_hooks(__name__, setup_model="setup_rules:DealFile", score_model="scoring:FinalState",
                         score="scoring")


def check_data(data: GameData[MineTemplate]) -> list[Problem]:
    from . import checks  # on first use (the module docstring)

    return checks.check_data(data, MAX_PLAYERS)


def setup_counts(players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    from . import setup_rules  # on first use (the module docstring)

    return setup_rules.setup_counts(bool(options["first_game"]))


def setup_steps(players: int, mode: str, options: dict[str, Any], counts: dict[str, Any]) -> list[str]:
    from . import setup_rules

    return setup_rules.setup_steps(players, bool(options["first_game"]), counts)


def deal(data: GameData[MineTemplate], players: int, mode: str, options: dict[str, Any],
         rng: random.Random) -> dict[str, Any]:
    from . import setup_rules

    return setup_rules.deal(data, players, bool(options["first_game"]), rng)


def check_setup(data: GameData[MineTemplate], setup: DealFile) -> list[Problem]:
    from . import setup_rules

    return setup_rules.check_setup(data, setup, MIN_PLAYERS, MAX_PLAYERS)


def check_final_state(data: GameData[MineTemplate], state: FinalState) -> list[Problem]:
    from . import scoring

    return scoring.check_final_state(state, GAME_ID, MIN_PLAYERS, MAX_PLAYERS, data.sections["events"])
