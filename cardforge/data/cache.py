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
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from cardforge import __version__
from cardforge.paths import sweep_parts, write_atomic

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase
    from cardforge.games.base import Game

T = TypeVar("T")

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
        if path.is_file() and path.suffix.lower() in (".yaml", ".yml", ".csv", ".xlsx"):
            h.update(str(path.relative_to(folder)).encode())
            h.update(path.read_bytes())
    spec_file = game.folder / "game.yaml"  # outside ``folder`` when --data borrows a game's slot
    if spec_file.is_file() and not spec_file.resolve().is_relative_to(folder.resolve()):
        h.update(spec_file.read_bytes())
    # every module that shapes validated data: the data layer, the shared small modules it
    # reads (units, icons, markup…), the game machinery and the game's own rules
    code = sorted(_PACKAGE.glob("*.py")) + sorted((_PACKAGE / "data").glob("*.py"))
    code += [_PACKAGE / "games" / "base.py", _PACKAGE / "games" / "generic.py", _PACKAGE / "games" / "__init__.py"]
    code += game.code_files()
    for path in code:
        st = path.stat()
        h.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:32]


def _path(game: Game, key: str) -> Path | None:
    root = cache_dir()
    return None if root is None else root / f"{game.id}-{key}.pickle"


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
        with open(path, "rb") as f:
            return key, pickle.load(f)
    except AttributeError:  # cards of kinds declared in data: their models are made on first use
        try:
            _prepare_models(game, folder)
            with open(path, "rb") as f:
                return key, pickle.load(f)
        except Exception:
            return key, None
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
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob(f"{game.id}-*.pickle"):  # keep one entry per game
            old.unlink(missing_ok=True)
        # through a temporary file removed on any failure: a full disk leaves no *.part behind
        write_atomic(path, lambda f: pickle.dump(data, f, protocol=pickle.HIGHEST_PROTOCOL))
        # and what a killed process left there (data changed: a few ms, on a miss only)
        root = path.parent
        sweep_parts([root, *(root / sub for sub in ("layouts", "jinja", "fonts"))])
    except (OSError, pickle.PicklingError, AttributeError, TypeError):
        pass  # a read-only home, a full disk (or data that cannot be pickled) must not break a build


def memo(namespace: str, parts: list[bytes], code: list[Path], compute: Callable[[], T]) -> T:
    """``compute()``, kept on disk under a key made of ``parts`` (file bytes…), the code files
    that shape the result (size and mtime) and the versions; errors from ``compute`` propagate
    and are never kept. A corrupt or unreadable entry is a miss; a read-only cache folder only
    costs the computation."""
    root = cache_dir()
    if root is None:
        return compute()
    h = hashlib.sha256(f"{__version__}|{sys.version}|{namespace}".encode())
    for part in parts:
        h.update(hashlib.sha256(part).digest())
    for path in code:
        st = path.stat()
        h.update(f"{path}:{st.st_size}:{st.st_mtime_ns}".encode())
    path = root / f"{namespace}-{h.hexdigest()[:32]}.pickle"
    try:
        with open(path, "rb") as f:
            cached: T = pickle.load(f)
            return cached
    except Exception:  # a miss
        pass
    value = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, lambda f: pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL))
    except (OSError, pickle.PicklingError, AttributeError, TypeError):
        pass
    return value
