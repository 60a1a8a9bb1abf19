"""A cache of validated game data, keyed by the content of the data files and the code.

Validating a 250-card deck costs ~0.1 s; a designer runs ``score``, ``setup`` and ``build``
many times an hour on data that has not changed. A hit costs one pickle load (<1 ms), read
back only once the entry's MAC checks and through :func:`cardforge.cache.unpickle` (the
validated models have no JSON form that would not be validated again: the cost saved).
Only data without errors is cached. Entries live in the one cache (:mod:`cardforge.cache`:
``CARDFORGE_NO_CACHE=1`` turns it off, ``CARDFORGE_CACHE=DIR`` moves it).
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cardforge import cache as _cache
from cardforge.cache import cache_dir, memo
from cardforge.limits import LIMITS, limit
from cardforge.paths import read_regular, sweep_parts

if TYPE_CHECKING:
    from cardforge.data.gamedata import GameData, GameSource
    from cardforge.data.models import CardBase

__all__ = ["cache_dir", "code_files", "shared_code", "fingerprint", "limits_in_force", "load", "memo", "store"]

#: libraries whose versions shape validated data (models, YAML reading, spreadsheets)
LIBRARIES = ("pydantic", "pydantic_core", "yaml", "openpyxl")
_DATA_SUFFIXES = (".yaml", ".yml", ".csv", ".xlsx")


def shared_code() -> list[Path]:
    """The modules that shape every game's validated data (and ``game.yaml``): the shared small
    modules the data layer reads (units, icons, markup, paths…), the data layer and the game
    machinery (a test checks this covers every cardforge module that loading data imports)."""
    return _cache.code_files("*.py", "data/", "games/base.py", "games/contract.py", "games/generic.py",
                             "games/__init__.py", "games/declared.py", "games/specs.py")


def limits_in_force() -> list[str]:
    """The limits this run overrides (``CARDFORGE_LIMIT_*``), for a key of what they decide: a
    game.yaml or data accepted under a raised limit is not taken from the cache once the limit
    is back (nothing when none is overridden: the keys stay as they were)."""
    return [f"limit:{name}={limit(name)}" for name in LIMITS if limit(name) != LIMITS[name][0]]


def code_files(game: GameSource) -> list[Path]:
    """:func:`shared_code` and the game's own rules."""
    return shared_code() + game.code_files()


def fingerprint(game: GameSource, folder: Path, edition: str = "") -> str:
    """Changes when any data file's bytes, any code that shapes the data, a version, or the
    edition loaded (its language) changes."""
    other = edition and edition != game.language  # the game's own edition keys as it always did
    parts: list[bytes | str] = [game.id, str(folder.resolve()), *([f"edition:{edition}"] if other else []),
                                *limits_in_force()]
    for rel in _data_files(folder):
        parts += [rel, _content(folder / rel)]
    spec_file = game.folder / "game.yaml"  # outside ``folder`` when --data borrows a game's slot
    if spec_file.is_file() and not spec_file.resolve().is_relative_to(folder.resolve()):
        parts += ["game.yaml", _content(spec_file)]
    return _cache.key("data", parts, code_files(game), LIBRARIES)[:32]


def _data_files(folder: Path) -> list[str]:
    """The data files below ``folder`` (paths relative to it, sorted), as the loaders may read
    them: links followed only where they stay inside (the game folder's rule)."""
    root = os.path.realpath(folder)
    out = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames.sort()
        for name in filenames:
            if os.path.splitext(name)[1].lower() in _DATA_SUFFIXES:
                path = os.path.join(dirpath, name)
                real = os.path.realpath(path)
                if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
                    out.append(os.path.relpath(path, folder))
    return sorted(out)


def _content(path: Path) -> bytes:
    """A file's bytes for the key — never a FIFO's, never more than a loader would read (a file
    refused is keyed by why: the data has errors then, and is not cached)."""
    blob, problem = read_regular(path, str(path), limit("game_file_bytes"))
    return blob if blob is not None else f"(refused: {problem.message if problem else ''})".encode()


def _path(game: GameSource, key: str) -> Path | None:
    return _cache.entry("", f"{game.id}-{key}.pickle")


def load(game: GameSource, folder: Path, prepare: Callable[[], None] | None = None,
         edition: str = "") -> tuple[str | None, GameData[CardBase] | None]:
    """(key, data) — data is None on a miss; key is None when caching is off or impossible.
    ``edition``: the language the data is loaded in (one entry per edition).
    ``prepare()`` makes the card models of kinds declared in data, which an entry's cards need
    to be read back (the loader gives it: this module does not call the loader)."""
    try:
        key = fingerprint(game, folder, edition)
    except OSError:
        return None, None
    blob = _cache.read_payload(_path(game, key))  # None: a miss (missing, damaged, planted…)
    if blob is None:
        return key, None
    try:
        data = _cache.unpickle(blob)
    except AttributeError:  # cards of kinds declared in data: their models are made on first use
        if prepare is None:
            return key, None
        try:
            prepare()
            data = _cache.unpickle(blob)
        except Exception:
            return key, None
    except Exception:  # a stale entry is just a miss
        return key, None
    return key, data  # the loader checks it is a GameData


def store(game: GameSource, key: str | None, data: GameData[CardBase]) -> None:
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
