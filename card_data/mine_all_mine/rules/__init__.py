"""Mine, All Mine!'s rules: the hooks cardforge calls (what the game *is* — players, the three
round categories — is data: ``card_data/mine_all_mine/game.yaml``).

cards.py the card models and data checks · setup_rules.py counts, checklist, deal, deal check ·
rounds.py one round played out · new_cards.py phase 4's deal order · scoring.py the score
file and the game played out · report.py details and text lines.

Only the card models are imported with the package: every other hook is imported from its
module when a command first uses it (``lazy_hooks``, PEP 562), so a deck build from the data
cache never imports scoring or setup; ``cardforge check`` loads and checks them all.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardforge.api import lazy_hooks
from cardforge.data.loading import GameData
from cardforge.scores import Number, PlayerResult, ScoreResult

from .cards import CARD_MODELS as card_models
from .cards import SHIP_CARD_COUNT, MineAllMineCard
from .cards import check_cards as check_data

if TYPE_CHECKING:
    from .scoring import FinalState

__all__ = ["card_models", "check_data", "setup_counts", "setup_steps", "deal", "setup_model", "check_setup",
           "score_model", "check_final_state", "score", "player_names"]

__getattr__ = lazy_hooks(
    __name__,
    setup_model="setup_rules:DescribedDeal",
    check_setup="setup_rules:check_deal",
    score_model="scoring:FinalState",
    check_final_state="scoring",
    player_names="scoring:players_of",
)

ROUND_CATEGORIES = ("round_1", "round_2", "round_3")  # game.yaml's categories, in round order


def setup_counts(players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    from . import setup_rules  # on first use (the module docstring)

    return setup_rules.setup_counts(players)


def setup_steps(players: int, mode: str, options: dict[str, Any], counts: dict[str, Any]) -> list[str]:
    from . import setup_rules

    return setup_rules.setup_steps(players, counts, SHIP_CARD_COUNT)


def deal(data: GameData[MineAllMineCard], players: int, mode: str, options: dict[str, Any],
         rng: random.Random) -> dict[str, Any]:
    from . import setup_rules

    return setup_rules.deal(data, players, rng)


def score(data: GameData[MineAllMineCard], state: FinalState) -> ScoreResult:
    from . import report, scoring

    logs = scoring.play_game(data, state)
    results = []
    for name in scoring.players_of(state):
        breakdown: dict[str, Number] = dict.fromkeys(ROUND_CATEGORIES, 0)  # rounds not played score 0
        for log in logs:
            breakdown[ROUND_CATEGORIES[log.number - 1]] = log.play.points[name]
        results.append(PlayerResult(name, breakdown))
    lines = [line for log in logs for line in ["", *report.round_lines(log)]][1:]
    partial = len(logs) < len(ROUND_CATEGORIES)  # « Une partie se joue en 3 manches »
    if partial:
        lines += ["", f"Partial: {len(logs)} of the {len(ROUND_CATEGORIES)} rounds played."]
    return ScoreResult(results, details={"rounds": [report.round_details(log) for log in logs]}, report=lines,
                       partial=partial)
