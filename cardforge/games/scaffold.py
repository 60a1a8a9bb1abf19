"""``cardforge new DIR``: a game folder that checks, builds and scores at once.

The files are in ``cardforge/games/newgame/`` (a working example game: three cards of one kind
with declared fields, a layout, an icon of its own, a player aid, a score pad of two rows and a
tie-breaker, a setup table and checklist, a finished game to score, a rules note, a README for
the designer), the shape of the shipped games' folders in ``card_data/``; ``__TITLE__``,
``__ID__`` and ``__DIR__`` in them are filled in. What is in the game's language (game.yaml,
cards, aids, the example, the rules note, its icon) is in ``newgame/<lang>/``, one folder per
language :func:`scaffold_languages` offers; the rest (layout, build settings, README) is shared.
"""

from __future__ import annotations

import os
from pathlib import Path

from cardforge.errors import CardforgeError
from cardforge.problems import Problem

SKELETON = Path(__file__).resolve().parent / "newgame"


def scaffold_languages() -> tuple[str, ...]:
    """The languages ``cardforge new`` scaffolds in: a folder of ``newgame/`` each."""
    return tuple(sorted(p.name for p in SKELETON.iterdir() if p.is_dir() and (p / "game.yaml").is_file()))


def title_from(folder: Path) -> str:
    """``my-first_game`` → ``My First Game``."""
    words = folder.resolve().name.replace("_", " ").replace("-", " ").split()
    return " ".join(w[:1].upper() + w[1:] for w in words) or "My game"


def skeleton_files(lang: str) -> dict[Path, Path]:
    """The scaffold's files for ``lang``: path in the new game → source."""
    langs = scaffold_languages()
    if lang not in langs:
        raise ValueError(f"cardforge new scaffolds in {', '.join(langs)} (not {lang!r})")
    files: dict[Path, Path] = {}
    for source in sorted(SKELETON.rglob("*")):
        if source.is_dir() or source.name.startswith(".") or "__pycache__" in source.parts:
            continue
        rel = source.relative_to(SKELETON)
        if rel.parts[0] in langs:
            if rel.parts[0] != lang:
                continue
            rel = Path(*rel.parts[1:])
        files[rel] = source
    return dict(sorted(files.items()))


def create_game(folder: Path, title: str | None = None, shown_as: str | None = None, lang: str = "en") -> list[Path]:
    """Write a new game into ``folder`` (missing or empty), in ``lang`` (its cards, aids, pad and
    setup; one of :func:`scaffold_languages`); returns the files written.

    CardforgeError when the folder already holds files: nothing is overwritten."""
    from cardforge.games import normalise_game_id

    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        what = "is a file" if not folder.is_dir() else "is not empty"
        raise CardforgeError(f"cannot create a game in {folder}",
                             [Problem(f"{what}; give a new or empty folder (nothing was written)", file=str(folder))])
    files = skeleton_files(lang)
    title = title or title_from(folder)
    shown = shown_as or os.fspath(folder)
    values = {"__TITLE__": title, "__ID__": normalise_game_id(folder.resolve().name), "__DIR__": shown}
    written: list[Path] = []
    for rel, source in files.items():
        target = folder / rel
        text = source.read_text(encoding="utf-8")
        for key, value in values.items():
            text = text.replace(key, value)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written
