"""The Game base class: class-level metadata plus hooks. One subclass per game.

A game's rules live only in ``cardforge/games/<id>/``; the engine and renderers are
game-agnostic and talk to games through this interface.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from cardforge.scores import Category, ScoreResult, TieBreaker

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cardforge.data.loading import GameData, Section
    from cardforge.data.models import CardBase
    from cardforge.problems import Problem

#: Setup flags the CLI knows (``cardforge setup``). A game lists those it uses in ``setup_flags``.
SETUP_FLAGS = ("short", "opale", "first_game")


class Game:
    # --- metadata -------------------------------------------------------------------------
    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    card_size: ClassVar[str] = "poker"  # default; deck.yaml's card_size is what prints
    status: ClassVar[str] = "prototype"  # or "published"
    prints: ClassVar[str] = ""  # what cardforge prints for it, one line (English)
    language: ClassVar[str] = "fr"

    categories: ClassVar[tuple[Category, ...]]  # score-pad rows in pad order
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = ()  # in order; none = shared rank
    modes: ClassVar[tuple[str, ...]] = ("standard",)
    default_mode: ClassVar[str] = "standard"
    setup_flags: ClassVar[frozenset[str]] = frozenset()

    # --- data -----------------------------------------------------------------------------
    #: kind → card model (a CardBase subclass whose ``kind`` is a Literal of that kind)
    card_models: ClassVar[dict[str, type[CardBase]]] = {}
    #: other data files: clans, boards, aids, components…
    sections: ClassVar[tuple[Section, ...]] = ()

    def check_data(self, data: GameData) -> list[Problem]:
        """Cross-card checks after every file validated (counts, references…)."""
        return []

    # --- setup ----------------------------------------------------------------------------
    def setup_counts(self, players: int, mode: str, options: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError(f"{self.id}: setup is not implemented")

    def setup_steps(self, players: int, mode: str, options: dict[str, Any], counts: dict) -> list[str]:
        raise NotImplementedError(f"{self.id}: setup is not implemented")

    def deal(self, data: GameData, players: int, mode: str, options: dict[str, Any],
             rng: random.Random) -> dict[str, Any]:
        raise NotImplementedError(f"{self.id}: setup is not implemented")

    #: model of a described deal for ``cardforge setup GAME --check FILE`` (None: not supported)
    setup_model: ClassVar[type[BaseModel] | None] = None

    def check_setup(self, data: GameData, setup: Any) -> list[Problem]:
        return []

    # --- scoring --------------------------------------------------------------------------
    #: model of a final-state file for ``cardforge score GAME FILE``
    score_model: ClassVar[type[BaseModel] | None] = None

    def check_final_state(self, data: GameData, state: Any) -> list[Problem]:
        """Rule-level rejections of a final state (each a Problem). Runs before ``score``."""
        return []

    def score(self, data: GameData, state: Any) -> ScoreResult:
        raise NotImplementedError(f"{self.id}: scoring is not implemented")

    def player_names(self, state: Any) -> list[str]:
        return [p.name for p in state.players]

    # --- helpers --------------------------------------------------------------------------
    @property
    def players_label(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}–{self.max_players}"

    def category(self, category_id: str) -> Category:
        for c in self.categories:
            if c.id == category_id:
                return c
        raise KeyError(category_id)

    def __repr__(self) -> str:
        return f"<Game {self.id}>"
