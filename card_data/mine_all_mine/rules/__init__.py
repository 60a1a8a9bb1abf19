"""Mine, All Mine!'s rules: the hooks cardforge calls (what the game *is* — players, the three
round categories — is data: ``card_data/mine_all_mine/game.yaml``).

cards.py the card models and data checks · setup_rules.py counts, checklist, deal, deal check ·
rounds.py one round played out · new_cards.py phase 4's deal order · scoring.py the score
file and the game played out · report.py details and text lines.
"""

from __future__ import annotations

import random
from typing import Any

from cardforge.data.loading import GameData
from cardforge.scores import Number, PlayerResult, ScoreResult

from . import report, scoring, setup_rules
from .cards import CARD_MODELS as card_models
from .cards import SHIP_CARD_COUNT, MineAllMineCard
from .cards import check_cards as check_data
from .scoring import FinalState as score_model
from .scoring import check_final_state
from .scoring import players_of as player_names
from .setup_rules import DescribedDeal as setup_model
from .setup_rules import check_deal as check_setup

__all__ = ["card_models", "check_data", "setup_counts", "setup_steps", "deal", "setup_model", "check_setup",
           "score_model", "check_final_state", "score", "player_names"]

ROUND_CATEGORIES = ("round_1", "round_2", "round_3")  # game.yaml's categories, in round order


def setup_counts(players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
    return setup_rules.setup_counts(players)


def setup_steps(players: int, mode: str, options: dict[str, Any], counts: dict[str, Any]) -> list[str]:
    return setup_rules.setup_steps(players, counts, SHIP_CARD_COUNT)


def deal(data: GameData[MineAllMineCard], players: int, mode: str, options: dict[str, Any],
         rng: random.Random) -> dict[str, Any]:
    return setup_rules.deal(data, players, rng)


def score(data: GameData[MineAllMineCard], state: score_model) -> ScoreResult:
    logs = scoring.play_game(data, state)
    results = []
    for name in player_names(state):
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
