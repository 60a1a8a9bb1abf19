"""A cache of validated game data, keyed by the content of the data files and the code.

Validating a 250-card deck costs ~0.1 s; a designer runs ``score``, ``setup`` and ``build``
many times an hour on data that has not changed. A hit costs one pickle load (<1 ms).
Only data without errors is cached. ``CARDFORGE_NO_CACHE=1`` turns it off;
``CARDFORGE_CACHE=DIR`` moves it (default ``$XDG_CACHE_HOME/cardforge`` or ``~/.cache/cardforge``).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cardforge import __version__
from cardforge.paths import sweep_parts, write_atomic

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

_PACKAGE = Path(__file__).resolve().parent.parent


def cache_dir() -> Path | None:
    if os.environ.get("CARDFORGE_NO_CACHE"):
        return None
    explicit = os.environ.get("CARDFORGE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardforge"


def fingerprint(game: Game, folder: Path) -> str:
    """Changes when any data file's bytes, or any code that shapes the data, changes."""
    h = hashlib.sha256()
    h.update(f"{__version__}|{sys.version}|{game.id}|{folder.resolve()}".encode())
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in (".yaml", ".yml"):
            h.update(str(path.relative_to(folder)).encode())
            h.update(path.read_bytes())
    code_dirs = [_PACKAGE / "data", _PACKAGE / "games" / game.id]
    code = [_PACKAGE / "games" / "base.py", _PACKAGE / "icons.py"]
    for d in code_dirs:
        code.extend(sorted(d.glob("*.py")))
    for path in code:
        st = path.stat()
        h.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:32]


def _path(game: Game, key: str) -> Path | None:
    root = cache_dir()
    return None if root is None else root / f"{game.id}-{key}.pickle"


def load(game: Game, folder: Path) -> tuple[str | None, GameData | None]:
    """(key, data) — data is None on a miss; key is None when caching is off or impossible."""
    try:
        key = fingerprint(game, folder)
    except OSError:
        return None, None
    path = _path(game, key)
    if path is None or not path.exists():
        return key, None
    try:
        with open(path, "rb") as f:
            return key, pickle.load(f)
    except Exception:  # a stale or corrupt entry is just a miss
        return key, None


def store(game: Game, key: str | None, data: GameData) -> None:
    if key is None:
        return
    path = _path(game, key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob(f"{game.id}-*.pickle"):  # keep one entry per game
            old.unlink(missing_ok=True)
        # through a temporary file removed on any failure: a full disk leaves no *.part behind
        write_atomic(path, lambda f: pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL))
        # and what a killed process left there (data changed: a few ms, on a miss only)
        root = path.parent
        sweep_parts([root, *(root / sub for sub in ("layouts", "jinja", "fonts"))])
    except OSError:
        pass  # a read-only home or a full disk must not break a build
