"""What the shared rules (``games/generic.py``, ``games/declared.py``) read of a game: a protocol
that :class:`cardforge.games.base.Game` satisfies, so that they name a game's type without
importing ``games/base.py``, which calls them (no import cycle, type-only ones included)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cardforge.data.gamespec import GameSpec
    from cardforge.data.models import CardBase
    from cardforge.scores import Category


class GameView(Protocol):
    """A game as the shared rules see it: its id, folder, ``game.yaml`` and a few derived values."""

    @property
    def id(self) -> str: ...

    @property
    def folder(self) -> Path: ...

    @property
    def spec(self) -> GameSpec: ...

    @property
    def language(self) -> str: ...

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    @property
    def players_label(self) -> str: ...

    @property
    def modes(self) -> tuple[str, ...]: ...

    @property
    def default_mode(self) -> str: ...

    @property
    def card_models(self) -> dict[str, type[CardBase]]: ...

    @property
    def score_model(self) -> type[BaseModel] | None: ...

    def category(self, category_id: str) -> Category: ...

    def has_hook(self, name: str) -> bool: ...

    def __hash__(self) -> int: ...  # a key of the shared rules' caches (``lru_cache``)
