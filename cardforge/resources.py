"""Where the shipped games, the shared templates and the fonts are.

In a source checkout (or an editable install) ``card_data/`` (one folder a game: its data,
``templates/``, ``icons/``, ``examples/``) and ``templates/`` (what every game shares:
``templates/_shared/``) sit at the top of the repository; an installed wheel carries them in
``cardforge/_bundled/``. ``CARDFORGE_DATA`` (or the CLI's ``--data DIR``) points at a
designer's own ``card_data`` folder instead; ``CARDFORGE_TEMPLATES`` replaces the shared
templates folder (its ``_shared/``, and any ``<game>/`` beside it, read after the game's own).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
FONTS_DIR = PACKAGE_DIR / "fonts"


def _first_existing(*candidates: Path) -> Path:
    for c in candidates:
        if c.is_dir():
            return c
    return candidates[0]


@lru_cache(maxsize=None)
def shipped_data_root() -> Path:
    return _first_existing(PACKAGE_DIR / "_bundled" / "card_data", PACKAGE_DIR.parent / "card_data")


@lru_cache(maxsize=None)
def templates_root() -> Path:
    override = os.environ.get("CARDFORGE_TEMPLATES")
    if override:
        return Path(override)
    return _first_existing(PACKAGE_DIR / "_bundled" / "templates", PACKAGE_DIR.parent / "templates")


def data_root() -> Path:
    """The card_data folder in use: ``CARDFORGE_DATA`` if set, else the shipped one."""
    override = os.environ.get("CARDFORGE_DATA")
    return Path(override) if override else shipped_data_root()


def display_path(path: Path) -> str:
    """A path for messages: relative to the current directory when below it, else
    ``card_data/<game>/<file>`` for shipped data, else as is."""
    path = Path(path)
    real = path.resolve()  # once (a long-lived process asks for many paths: each resolve is syscalls)
    try:
        return str(real.relative_to(_resolved(os.getcwd())))
    except ValueError:
        pass
    for root in (shipped_data_root(), templates_root()):
        try:
            return str(Path(root.name) / real.relative_to(_resolved(str(root))))
        except ValueError:
            continue
    return str(path)


@lru_cache(maxsize=64)
def _resolved(folder: str) -> Path:
    """``folder`` resolved, remembered: the current directory and the package's own folders."""
    return Path(folder).resolve()
