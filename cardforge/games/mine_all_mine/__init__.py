"""Mine, All Mine!: metadata and hooks (see ../shared/RULES.md, section 3).

cards.py the card models and data checks · setup_rules.py counts, checklist, deal, deal check ·
rounds.py one round played out · new_cards.py phase 4's deal order · scoring.py the score
file and the game played out · report.py details and text lines.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from cardforge.data.loading import GameData
from cardforge.games.base import Game
from cardforge.games.mine_all_mine import report, setup_rules
from cardforge.games.mine_all_mine.cards import CARD_MODELS, SHIP_CARD_COUNT, check_cards
from cardforge.games.mine_all_mine.scoring import FinalState, check_final_state, play_game, players_of
from cardforge.problems import Problem
from cardforge.scores import Category, PlayerResult, ScoreResult, TieBreaker


class MineAllMine(Game):
    id = "mine_all_mine"
    title = "Mine, All Mine!"
    min_players = setup_rules.MIN_PLAYERS
    max_players = setup_rules.MAX_PLAYERS
    card_size = "poker"
    status = "published"
    prints = "12 ship cards, 3 double-sided planet cards, extra and score cards, per-round score pad, player aid"
    categories: ClassVar[tuple[Category, ...]] = (
        Category("round_1", "Manche 1", "Round 1", icon="resource"),
        Category("round_2", "Manche 2", "Round 2", icon="resource"),
        Category("round_3", "Manche 3", "Round 3", icon="resource"),
    )
    # « Après trois manches, le joueur qui a le plus de points remporte la partie »: no tie-breaker.
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = ()
    card_models = CARD_MODELS

    def check_data(self, data: GameData) -> list[Problem]:
        return check_cards(data)

    # --- setup ----------------------------------------------------------------------------
    setup_model = setup_rules.DescribedDeal

    def setup_counts(self, players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
        return setup_rules.setup_counts(players)

    def setup_steps(self, players: int, mode: str, options: dict[str, Any], counts: dict) -> list[str]:
        return setup_rules.setup_steps(players, counts, SHIP_CARD_COUNT)

    def deal(self, data: GameData, players: int, mode: str, options: dict[str, Any],
             rng: random.Random) -> dict[str, Any]:
        return setup_rules.deal(data, players, rng)

    def check_setup(self, data: GameData, setup: setup_rules.DescribedDeal) -> list[Problem]:
        return setup_rules.check_deal(data, setup)

    # --- scoring --------------------------------------------------------------------------
    score_model = FinalState

    def check_final_state(self, data: GameData, state: FinalState) -> list[Problem]:
        return check_final_state(data, state)

    def player_names(self, state: FinalState) -> list[str]:
        return players_of(state)

    def score(self, data: GameData, state: FinalState) -> ScoreResult:
        logs = play_game(data, state)
        categories = [c.id for c in self.categories]
        results = []
        for name in players_of(state):
            breakdown = dict.fromkeys(categories, 0)  # rounds not played score 0
            for log in logs:
                breakdown[categories[log.number - 1]] = log.play.points[name]
            results.append(PlayerResult(name, breakdown))
        lines = [line for log in logs for line in ["", *report.round_lines(log)]][1:]
        partial = len(logs) < 3  # « Une partie se joue en 3 manches »
        if partial:
            lines += ["", f"Partial: {len(logs)} of the 3 rounds played."]
        return ScoreResult(results, details={"rounds": [report.round_details(log) for log in logs]},
                           report=lines, partial=partial)


GAME = MineAllMine()
