"""``cardforge new DIR``: a game folder that checks, builds and scores at once.

The files are in ``cardforge/games/newgame/`` (a working example game: three cards of one kind
with declared fields, a layout, an icon of its own, a player aid, a score pad of two rows and a
tie-breaker, a setup table and checklist, a finished game to score, a rules note, a README for
the designer), the shape of the shipped games' folders in ``card_data/``; ``__TITLE__``,
``__ID__`` and ``__DIR__`` in them are filled in.
"""

from __future__ import annotations

import os
from pathlib import Path

from cardforge.errors import CardforgeError
from cardforge.problems import Problem

SKELETON = Path(__file__).resolve().parent / "newgame"


def title_from(folder: Path) -> str:
    """``my-first_game`` → ``My First Game``."""
    words = folder.resolve().name.replace("_", " ").replace("-", " ").split()
    return " ".join(w[:1].upper() + w[1:] for w in words) or "Mon jeu"


def create_game(folder: Path, title: str | None = None, shown_as: str | None = None) -> list[Path]:
    """Write a new game into ``folder`` (missing or empty); returns the files written.

    CardforgeError when the folder already holds files: nothing is overwritten."""
    from cardforge.games import normalise_game_id

    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        what = "is a file" if not folder.is_dir() else "is not empty"
        raise CardforgeError(f"cannot create a game in {folder}",
                             [Problem(f"{what}; give a new or empty folder (nothing was written)", file=str(folder))])
    title = title or title_from(folder)
    shown = shown_as or os.fspath(folder)
    values = {"__TITLE__": title, "__ID__": normalise_game_id(folder.resolve().name), "__DIR__": shown}
    written: list[Path] = []
    for source in sorted(SKELETON.rglob("*")):
        if source.is_dir() or source.name.startswith(".") or "__pycache__" in source.parts:
            continue
        target = folder / source.relative_to(SKELETON)
        text = source.read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace(key, value)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written
