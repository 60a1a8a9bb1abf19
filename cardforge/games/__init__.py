"""The game registry: one lookup that fails with the bad name and the known ones."""

from __future__ import annotations

import difflib
import importlib
from functools import lru_cache
from typing import TYPE_CHECKING

from cardforge.errors import UnknownGameError

if TYPE_CHECKING:
    from cardforge.games.base import Game

#: game id → module defining ``GAME`` (a Game instance). Imported on first use only.
GAME_MODULES: dict[str, str] = {
    "maphr": "cardforge.games.maphr",
    "tunhell": "cardforge.games.tunhell",
    "mine_all_mine": "cardforge.games.mine_all_mine",
    "cristaux": "cardforge.games.cristaux",
    "imperial_miners": "cardforge.games.imperial_miners",
}


def game_ids() -> list[str]:
    return list(GAME_MODULES)


def normalise_game_id(name: str) -> str:
    """'Mine-All-Mine' → 'mine_all_mine'."""
    return name.strip().lower().replace("-", "_").replace(" ", "_")


@lru_cache(maxsize=None)
def _load(game_id: str) -> Game:
    from cardforge.startup import import_pydantic

    import_pydantic()  # ~50 ms less start-up (cardforge/startup.py)
    module = importlib.import_module(GAME_MODULES[game_id])
    game = module.GAME
    assert game.id == game_id, f"{GAME_MODULES[game_id]} registers {game.id!r}, expected {game_id!r}"
    return game


def find_game(name: str) -> Game:
    """The registered game called ``name`` (ids with - or _ alike); UnknownGameError otherwise."""
    key = normalise_game_id(name)
    if key in GAME_MODULES:
        return _load(key)
    close = difflib.get_close_matches(key, GAME_MODULES, n=1, cutoff=0.6)
    raise UnknownGameError(name, game_ids(), close[0] if close else None)


def all_games() -> list[Game]:
    return [_load(g) for g in GAME_MODULES]
