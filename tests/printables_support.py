"""A fixture game for the printables tests: 2–3 players, three score categories (one with an
icon), a tie-breaker, and data folders under tests/fixtures/printables/{good,bad,overflow}."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Literal

from cardforge.data.models import CardBase
from cardforge.data.printables import build_blocks
from cardforge.games.base import Game

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "printables"


class PlainCard(CardBase):
    kind: Literal["plain"]
    text: str = ""


def _setup_counts(players, mode, options):
    return {"cards_each": 5, "coins_each": 2 + players}


def _setup_steps(players, mode, options, counts):
    return [f"Donnez {counts['cards_each']} cartes à chacun des {players} joueurs.",
            f"Chaque joueur prend {counts['coins_each']} pièces.",
            "Le plus jeune commence."]


GAME = Game.define("printables_fixture", {
    "title": "Jeu d'essai",
    "players": "2-3",
    "categories": [
        {"id": "first", "label": "Première catégorie", "label_en": "First"},
        {"id": "second", "label": "Deuxième catégorie", "label_en": "Second"},
        {"id": "coins", "label": "Pièces", "label_en": "Coins", "icon": "coin"},
    ],
    "tie_breakers": [{"id": "coins", "label": "Égalité : le plus riche l'emporte", "label_en": "more coins"}],
}, rules=SimpleNamespace(card_models={"plain": PlainCard}, setup_counts=_setup_counts, setup_steps=_setup_steps))


#: What ``cardforge/games/<id>/printables.py`` would provide: one named table.
HOOKS = SimpleNamespace(blocks=lambda data: {
    "table-du-jeu": build_blocks([{"kind": "table", "columns": ["Dé", "Effet"],
                                   "rows": [["1", "Piochez"], ["2", "Rejouez"]]}])})


def use_hooks(monkeypatch, hooks=HOOKS) -> None:
    monkeypatch.setattr("cardforge.render.sheets.printables.hooks_module", lambda game: hooks)
