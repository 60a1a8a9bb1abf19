"""A cache of validated game data, keyed by the content of the data files and the code.

Validating a 250-card deck costs ~0.1 s; a designer runs ``score``, ``setup`` and ``build``
many times an hour on data that has not changed. A hit costs one pickle load (<1 ms).
Only data without errors is cached. Entries live in the one cache (:mod:`cardforge.cache`:
``CARDFORGE_NO_CACHE=1`` turns it off, ``CARDFORGE_CACHE=DIR`` moves it).
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import TYPE_CHECKING

from cardforge import cache as _cache
from cardforge.cache import cache_dir, memo
from cardforge.paths import sweep_parts

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase
    from cardforge.games.base import Game

__all__ = ["cache_dir", "code_files", "shared_code", "fingerprint", "load", "memo", "store"]

#: libraries whose versions shape validated data (models, YAML reading, spreadsheets)
LIBRARIES = ("pydantic", "pydantic_core", "yaml", "openpyxl")
_DATA_SUFFIXES = (".yaml", ".yml", ".csv", ".xlsx")


def shared_code() -> list[Path]:
    """The modules that shape every game's validated data (and ``game.yaml``): the shared small
    modules the data layer reads (units, icons, markup, paths…), the data layer and the game
    machinery (a test checks this covers every cardforge module that loading data imports)."""
    return _cache.code_files("*.py", "data/", "games/base.py", "games/generic.py", "games/__init__.py",
                             "games/declared.py")


def code_files(game: Game) -> list[Path]:
    """:func:`shared_code` and the game's own rules."""
    return shared_code() + game.code_files()


def fingerprint(game: Game, folder: Path) -> str:
    """Changes when any data file's bytes, any code that shapes the data, or a version changes."""
    parts: list[bytes | str] = [game.id, str(folder.resolve())]
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() in _DATA_SUFFIXES and path.is_file():
            parts += [str(path.relative_to(folder)), path.read_bytes()]
    spec_file = game.folder / "game.yaml"  # outside ``folder`` when --data borrows a game's slot
    if spec_file.is_file() and not spec_file.resolve().is_relative_to(folder.resolve()):
        parts += ["game.yaml", spec_file.read_bytes()]
    return _cache.key("data", parts, code_files(game), LIBRARIES)[:32]


def _path(game: Game, key: str) -> Path | None:
    return _cache.entry("", f"{game.id}-{key}.pickle")


def load(game: Game, folder: Path) -> tuple[str | None, GameData[CardBase] | None]:
    """(key, data) — data is None on a miss; key is None when caching is off or impossible."""
    try:
        key = fingerprint(game, folder)
    except OSError:
        return None, None
    path = _path(game, key)
    if path is None or not path.exists():
        return key, None
    try:
        return key, pickle.loads(path.read_bytes())
    except AttributeError:  # cards of kinds declared in data: their models are made on first use
        try:
            _prepare_models(game, folder)
        except Exception:
            return key, None
        return key, _cache.read(path, pickle.loads)
    except Exception:  # a stale or corrupt entry is just a miss
        return key, None


def _prepare_models(game: Game, folder: Path) -> None:
    from cardforge.data.loading import _load_meta

    meta, _, _ = _load_meta(game, folder)
    if meta is not None:
        game.card_models_for(meta)


def store(game: Game, key: str | None, data: GameData[CardBase]) -> None:
    if key is None:
        return
    path = _path(game, key)
    if path is None:
        return
    root = path.parent
    _cache.prune(root, f"{game.id}-*.pickle", 0)  # keep one entry per game
    # through a temporary file removed on any failure: a full disk leaves no *.part behind
    if _cache.write(path, lambda: pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)):
        # and what a killed process left there (data changed: a few ms, on a miss only)
        sweep_parts([root, *(root / sub for sub in ("layouts", "jinja", "fonts"))])
