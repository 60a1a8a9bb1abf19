"""The game registry: games are *found*, never listed by hand, and by ONE function,
:func:`find_game`, in one order (the first that has the name wins):

1. **a path** — ``cardforge build ./my-game``, ``/x/y``, ``~/g`` (a separator, or a leading
   ``.`` or ``~``): always that folder, which must hold a ``game.yaml``;
2. **a folder of that name in the current directory** holding a ``game.yaml`` (a designer's copy
   of a shipped game, ``cardforge new <id>`` then ``cardforge preview <id>``, is the copy);
3. **``--data DIR``** (or ``CARDFORGE_DATA``): a ``DIR/<id>/`` with a ``game.yaml`` is that game;
   one without borrows the game found next (its ``game.yaml`` and rules) and reads its data
   files from there;
4. **an installed plug-in**: the ``cardforge.games`` entry point group. An entry point names a
   module (or package); its game folder is the module's ``GAME_FOLDER`` if it has one, else the
   folder the module lives in, which must hold a ``game.yaml``;
5. **a shipped game**: every folder of the shipped ``card_data/`` that holds a ``game.yaml``
   (its rules are the folder's own ``rules/`` package, as a designer's);
6. a game found by path earlier in this process (by its id).

Renderers and the engine receive the :class:`~cardforge.games.base.Game` found; they never look
an id up again. ``find_game`` fails with the bad name, the known ones and the closest match.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from cardforge.errors import DataError, UnknownGameError
from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.data.gamespec import GameSpec
    from cardforge.games.base import Game

GAME_FILE = "game.yaml"
ENTRY_POINT_GROUP = "cardforge.games"


def normalise_game_id(name: str) -> str:
    """'My-Big Game' → 'my_big_game'."""
    return name.strip().lower().replace("-", "_").replace(" ", "_")


@lru_cache(maxsize=None)
def _shipped() -> dict[str, Path]:
    from cardforge.resources import shipped_data_root

    root = shipped_data_root()
    found: dict[str, Path] = {}
    if root.is_dir():
        for folder in sorted(root.iterdir()):
            if (folder / GAME_FILE).is_file():
                found[normalise_game_id(folder.name)] = folder
    return found


class _EntryPoint:
    """An entry point of the ``cardforge.games`` group, as ``importlib.metadata.EntryPoint``
    loads it (``module`` or ``module:attr.attr``), read from the cache of what is installed
    (:func:`cardforge.cache.installed`): finding the games scans no distribution on a run whose
    environment did not change."""

    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value

    def load(self) -> Any:
        module, _, attrs = self.value.partition(":")
        obj: Any = importlib.import_module(module.strip())
        for attr in filter(None, attrs.split("[")[0].strip().split(".")):
            obj = getattr(obj, attr)
        return obj


@lru_cache(maxsize=None)
def _entry_points() -> dict[str, _EntryPoint]:
    from cardforge.cache import installed

    found = installed()["entry_points"].get(ENTRY_POINT_GROUP, [])
    return {normalise_game_id(name): _EntryPoint(name, value) for name, value in found}


#: games found by path in this process (``cardforge build ./my-game``), by id
_BY_PATH: dict[str, Game] = {}


def game_ids() -> list[str]:
    """Every game cardforge can find by id: shipped, then entry points (sorted in each; a
    plug-in with a shipped game's id replaces it)."""
    ids = list(_shipped())
    ids += [g for g in sorted(_entry_points()) if g not in ids]
    return ids


def all_games() -> list[Game]:
    return [find_game(g) for g in game_ids()]


def is_game_path(name: str | os.PathLike[str]) -> bool:
    """Whether ``name`` is meant as a folder (``./my-game``, ``/x/y``, ``~/g``, or a folder of
    that name in the current directory holding a ``game.yaml``) rather than an id."""
    text = os.fspath(name)
    return (os.sep in text or "/" in text or text.startswith((".", "~"))
            or (Path(text) / GAME_FILE).is_file())


def find_game(name: str | os.PathLike[str], data_root: Path | None = None) -> Game:
    """The game called ``name`` (an id — ``-`` and ``_`` alike — or a folder holding a
    ``game.yaml``), in the order the module's docstring gives: a path, the current directory's
    folder of that name, ``data_root`` (a ``--data`` folder whose ``<id>/`` replaces the game's
    data), an installed plug-in, a shipped game. UnknownGameError (a usage error) when there is
    no such game; DataError when its ``game.yaml`` or rules are broken."""
    if data_root is None and os.environ.get("CARDFORGE_DATA"):
        data_root = Path(os.environ["CARDFORGE_DATA"])
    if is_game_path(name):
        return load_game_folder(Path(os.path.expanduser(os.fspath(name))))
    key = normalise_game_id(os.fspath(name))
    if data_root is not None and (Path(data_root) / key / GAME_FILE).is_file():
        return _load_folder(str(Path(data_root, key).resolve()), "data folder")
    base = _by_id(key)
    if base is None:
        known = game_ids() + [g for g in _BY_PATH if g not in game_ids()]
        import difflib

        close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
        raise UnknownGameError(os.fspath(name), known, close[0] if close else None)
    if data_root is not None:
        return _with_data_folder(base, Path(data_root) / key)
    return base


def _by_id(key: str) -> Game | None:
    """An installed plug-in, else a shipped game, else a game found by path in this process."""
    if key in _entry_points():
        return _load_entry_point(key)
    if key in _shipped():
        return _load_folder(str(_shipped()[key]), "shipped")
    return _BY_PATH.get(key)


@lru_cache(maxsize=None)
def _with_data_folder(base: Game, data_folder: Path) -> Game:
    from cardforge.games.base import Game

    return Game(base.spec, base.folder, base.rules, game_id=base.id, data_folder=data_folder,
                origin=base.origin, hooks=base.hooks)


def load_game_folder(folder: Path) -> Game:
    """The game in ``folder`` (which must hold a ``game.yaml``)."""
    folder = Path(folder)
    if not (folder / GAME_FILE).is_file():
        hint = ""
        if folder.is_dir():
            hint = f"; create one with `cardforge new {folder}`" if not any(folder.iterdir()) else \
                   f" (a game folder holds a {GAME_FILE}: `cardforge new DIR` makes one)"
        raise UnknownGameError(os.fspath(folder), game_ids(), None,
                               message=f"no {GAME_FILE} in {os.fspath(folder)}{hint}")
    game = _load_folder(str(folder.resolve()), "folder")
    _BY_PATH.setdefault(game.id, game)
    return game


def _load_folder(folder: str, origin: str) -> Game:
    """The game in ``folder``, read again when its game.yaml changed (watch mode, tests)."""
    try:
        st = (Path(folder) / GAME_FILE).stat()
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = (0, 0)
    return _load_folder_at(folder, origin, stamp)


@lru_cache(maxsize=64)
def _load_folder_at(folder: str, origin: str, stamp: tuple[int, int]) -> Game:
    from cardforge.games.base import Game

    path = Path(folder)
    spec = read_game_spec(path)
    game_id = normalise_game_id(spec.id or path.name)
    rules = _load_rules(spec, path, game_id)
    return Game(spec, path, rules, game_id=game_id, origin=origin)


@lru_cache(maxsize=None)
def _load_entry_point(key: str) -> Game:
    from cardforge.games.base import Game

    ep = _entry_points()[key]
    try:
        module = ep.load()
    except Exception as exc:  # a broken plug-in must say which one
        raise DataError(f"the game plug-in '{key}' ({ep.value}) cannot be loaded",
                        [Problem(f"{type(exc).__name__}: {exc}", item=f"entry point '{key}'")]) from exc
    folder = Path(getattr(module, "GAME_FOLDER", None) or Path(module.__file__).parent)
    spec = read_game_spec(folder)
    rules = module if spec.rules is None else _load_rules(spec, folder, key)
    return Game(spec, folder, rules, game_id=key, origin="entry point")


def read_game_spec(folder: Path) -> GameSpec:
    """``folder/game.yaml`` validated (from the cache when the file and the code are
    unchanged: validating costs ~80 ms of schema building); DataError with every problem
    located otherwise."""
    from cardforge.startup import import_pydantic

    import_pydantic()  # ~50 ms less start-up (cardforge/startup.py)
    from cardforge.data import cache
    from cardforge.data.gamespec import GameSpec
    from cardforge.limits import limit
    from cardforge.paths import read_regular

    path = Path(folder) / GAME_FILE
    content = read_regular(path, str(path), limit("file_bytes"))[0] or b""  # never a FIFO, never huge
    return cache.memo("game-spec", [str(path.resolve()).encode(), content, *cache.limits_in_force()],
                      cache.shared_code(),
                      lambda: _validate_game_spec(folder), cache.LIBRARIES, expect=GameSpec)


def _validate_game_spec(folder: Path) -> GameSpec:
    from cardforge.data.gamespec import GameSpec
    from cardforge.data.validate import validate
    from cardforge.data.yamlio import read_yaml

    doc = read_yaml(folder / GAME_FILE, inside=folder)  # a game.yaml linked from elsewhere: refused
    problems = list(doc.problems)
    spec: GameSpec | None = None
    if doc.data is not None:
        spec, found = validate(GameSpec, doc.data, file=doc.display, line_of=doc.line_of)
        problems += found
    elif not problems:
        problems.append(Problem("the file is empty (it needs at least title, players and categories)",
                                file=doc.display))
    if spec is None or any(not p.is_warning for p in problems):
        raise DataError(f"{doc.display} is not a valid game", problems)
    return spec


def _load_rules(spec: GameSpec, folder: Path, game_id: str) -> ModuleType | None:
    """The game's rules module: a module path, or a ``.py`` file or package in its folder."""
    from cardforge.cache import RULES_MODULE_PREFIX
    from cardforge.resources import display_path

    if spec.rules is None:
        return None
    file = display_path(folder / GAME_FILE)
    target = spec.rules
    local = folder / target
    try:
        if target.endswith(".py") or "/" in target or local.exists():
            resolved = local.resolve()
            if not resolved.is_relative_to(folder.resolve()):
                raise DataError(f"the rules of {game_id} cannot be loaded",
                                [Problem(f"'{target}' is outside the game folder", file=file, field="rules")])
            # one module name per folder: two copies of a game (same id) never share submodules
            digest = hashlib.sha1(str(resolved).encode("utf-8")).hexdigest()[:10]
            return _import_file(resolved, f"{RULES_MODULE_PREFIX}{game_id}_{digest}")
        return importlib.import_module(target)
    except DataError:
        raise
    except ModuleNotFoundError as exc:
        if exc.name and target.startswith(exc.name):
            raise DataError(f"the rules of {game_id} cannot be loaded",
                            [Problem(f"no module or file '{target}' (a module path, or a .py file or "
                                     "package folder inside the game folder)", file=file, field="rules")]) from exc
        raise DataError(f"the rules of {game_id} cannot be loaded",
                        [Problem(f"{type(exc).__name__}: {exc}", file=file, field="rules")]) from exc
    except (ImportError, SyntaxError) as exc:
        raise DataError(f"the rules of {game_id} cannot be loaded",
                        [Problem(f"{type(exc).__name__}: {exc}", file=file, field="rules")]) from exc


def _import_file(path: Path, name: str) -> ModuleType:
    """Import ``rules.py`` or a ``rules/`` package from a game folder under ``name``."""
    if name in sys.modules:
        existing = sys.modules[name]
        if Path(getattr(existing, "__file__", "")).resolve() in (path, path / "__init__.py"):
            return existing
        for stale in [m for m in sys.modules if m.startswith(name + ".")]:  # another folder's package
            del sys.modules[stale]
    if path.is_dir():
        spec = importlib.util.spec_from_file_location(name, path / "__init__.py",
                                                      submodule_search_locations=[str(path)])
    else:
        spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def loaded_game(game_id: str) -> Game | None:
    """The game an id names (plug-in, shipped, or found by path in this process), else None."""
    return _by_id(normalise_game_id(game_id))
