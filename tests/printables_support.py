"""A fixture game for the printables tests: 2–3 players, three score categories (one with an
icon), a tie-breaker, and data folders under tests/fixtures/printables/{good,bad,overflow}."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import ClassVar, Literal

from cardforge.data.models import CardBase
from cardforge.data.printables import build_blocks
from cardforge.games.base import Game
from cardforge.scores import Category, TieBreaker

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "printables"


class PlainCard(CardBase):
    kind: Literal["plain"]
    text: str = ""


class FixtureGame(Game):
    id = "printables_fixture"
    title = "Jeu d'essai"
    min_players = 2
    max_players = 3
    categories: ClassVar[tuple[Category, ...]] = (
        Category("first", "Première catégorie", "First"),
        Category("second", "Deuxième catégorie", "Second"),
        Category("coins", "Pièces", "Coins", icon="coin"),
    )
    tie_breakers: ClassVar[tuple[TieBreaker, ...]] = (
        TieBreaker("coins", "Égalité : le plus riche l'emporte", "more coins"),
    )
    card_models = {"plain": PlainCard}

    def setup_counts(self, players, mode, options):
        return {"cards_each": 5, "coins_each": 2 + players}

    def setup_steps(self, players, mode, options, counts):
        return [f"Donnez {counts['cards_each']} cartes à chacun des {players} joueurs.",
                f"Chaque joueur prend {counts['coins_each']} pièces.",
                "Le plus jeune commence."]


GAME = FixtureGame()

#: What ``cardforge/games/<id>/printables.py`` would provide: one named table.
HOOKS = SimpleNamespace(blocks=lambda data: {
    "table-du-jeu": build_blocks([{"kind": "table", "columns": ["Dé", "Effet"],
                                   "rows": [["1", "Piochez"], ["2", "Rejouez"]]}])})


def use_hooks(monkeypatch, hooks=HOOKS) -> None:
    monkeypatch.setattr("cardforge.render.printables.hooks_module", lambda game: hooks)
