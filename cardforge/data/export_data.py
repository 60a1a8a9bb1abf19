"""``cardforge export-data``: a game's data folder written again with its card files as
spreadsheets (the cells: :mod:`cardforge.data.spreadsheet`), as one transaction.

Which files go into ``OUT/<game>/``:

- each card file as a ``.csv`` or ``.xlsx`` at the same place in the folder (``sub/cards.yaml``
  → ``sub/cards.csv``): two card files of the same name in different folders stay two files;
  a name taken twice (``cards.yaml`` and ``cards.xlsx`` both card files, or a file of that
  name already in the folder) is numbered (``cards-2.csv``);
- the deck — ``deck.yaml``, or ``game.yaml`` when the deck is written inline under ``deck:`` (as
  ``cardforge new`` makes it) — rewritten with ``card_files`` naming the new files;
- every other file of the folder, copied, if it obeys the game folder's one rule
  (:func:`cardforge.paths.regular_inside`: inside the folder once links are resolved, a
  regular file, at most ``game_file_bytes``); hidden files and folders (``.git/``…), Python
  caches and earlier build output (the ``output`` folder of ``cardforge.toml``, any folder
  holding a cardforge lock or build manifest) are left out. Every file left out for breaking
  the rule is reported (a warning), never followed, never read.

Everything is written into a staging folder beside ``OUT/<game>`` and switched in whole
(:func:`cardforge.transaction.folder_transaction`): an error, an interrupt or a full disk leave
the previous export as it was.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from cardforge.data.spreadsheet import Table, split_by_kind, tables_for, write_csv, write_xlsx
from cardforge.data.yamlio import read_yaml
from cardforge.errors import DataError, OutputError
from cardforge.limits import env_name, limit
from cardforge.paths import output_file, path_problem, read_regular, regular_inside
from cardforge.problems import Problem
from cardforge.resources import display_path
from cardforge.transaction import folder_transaction

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase

#: at most this many files are copied (a game folder holds tens)
MAX_FILES = 20_000
#: folders nested deeper than this are not copied
MAX_DEPTH = 32
_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules"})


@dataclass
class DataExport:
    """What ``export-data`` wrote (paths in ``OUT/<game>/``) and what it left out."""

    folder: Path
    deck_file: Path  # deck.yaml or game.yaml, rewritten
    card_files: list[Path] = field(default_factory=list)
    copied: list[Path] = field(default_factory=list)
    left_out: list[Problem] = field(default_factory=list)  # warnings: files not copied, and why

    @property
    def files(self) -> list[Path]:
        return [self.deck_file, *self.card_files]


def export_game(data: GameData[CardBase], out: Path, fmt: str, *, own_folder: bool = True) -> DataExport:
    """Write ``data``'s game folder to ``out`` (``OUT/<game>``) with its card files as ``fmt``
    (``csv``: one file per card file; ``xlsx``: one workbook per card file, a sheet per kind
    when each kind's cards follow each other); see the module's docstring. DataError when the
    deck cannot be read; OutputError when ``out`` cannot be written."""
    out = Path(out)
    root = Path(data.root)
    deck_name, deck_doc = _deck_document(root)
    card_paths = _card_file_paths(root, data.meta.card_file_names)
    copies, left_out = _files_to_copy(root, set(card_paths.values()) | {deck_name})
    new_names = _new_names(card_paths, fmt, set(copies))
    by_file = _cards_by_file(data, card_paths)
    result = DataExport(out, out / deck_name, left_out=left_out)
    with folder_transaction(out, whole=own_folder, what="data export") as staging:
        for name, rel in card_paths.items():
            target = _target(staging, new_names[name])
            _write_cards(target, by_file.get(name, []), fmt)
            result.card_files.append(out / new_names[name])
        for rel in copies:
            problem = _copy(root, rel, _target(staging, rel))
            if problem is not None:
                result.left_out.append(problem)
            else:
                result.copied.append(out / rel)
        _write_deck(_target(staging, deck_name), deck_name, deck_doc,
                    [new_names[n] for n in data.meta.card_file_names if n in new_names])
    return result


def _target(staging: Path, rel: str) -> Path:
    """``staging/rel`` (a clean relative path: its folders made), each step checked."""
    parts = PurePosixPath(rel).parts
    folder = staging
    for part in parts[:-1]:
        if not (folder / part).is_dir():
            output_file(folder, part, "folder").mkdir()
        folder = folder / part
    return output_file(folder, parts[-1], "file")


def _deck_document(root: Path) -> tuple[str, Any]:
    """("deck.yaml" or "game.yaml", its data): where the deck is written."""
    name = "deck.yaml" if os.path.lexists(root / "deck.yaml") else "game.yaml"
    doc = read_yaml(root / name, inside=root)
    if doc.data is None or doc.problems:
        raise DataError("cannot export the data", doc.problems or [Problem("the file is empty", file=doc.display)])
    if name == "game.yaml" and not isinstance(doc.data.get("deck") if isinstance(doc.data, dict) else None, dict):
        raise DataError("cannot export the data", [Problem(
            "no deck: give the deck in game.yaml (deck:) or in a deck.yaml", file=doc.display)])
    return name, doc.data


def _card_file_paths(root: Path, card_files: list[str]) -> dict[str, str]:
    """deck.yaml's card file name → its clean path below the folder (``a/../b.yaml`` → ``b.yaml``)."""
    base = root.resolve()
    out: dict[str, str] = {}
    for name in card_files:
        path, problem = path_problem(root, name, "card file")
        if problem is not None or path is None:
            raise DataError("cannot export the data", [problem or Problem(f"card file '{name}' cannot be read")])
        out[name] = path.relative_to(base).as_posix()
    return out


def _new_names(card_paths: dict[str, str], fmt: str, taken: set[str]) -> dict[str, str]:
    """Each card file's new name: its path with the new suffix; a name taken twice (by another
    card file or by a copied file) numbered ``-2``, ``-3``…"""
    used = {t.lower() for t in taken}
    out: dict[str, str] = {}
    for name, rel in card_paths.items():
        stem = PurePosixPath(rel).with_suffix("")
        candidate, n = f"{stem}.{fmt}", 1
        while candidate.lower() in used:
            n += 1
            candidate = f"{stem}-{n}.{fmt}"
        used.add(candidate.lower())
        out[name] = candidate
    return out


def _cards_by_file(data: GameData[CardBase], card_paths: dict[str, str]) -> dict[str, list[CardBase]]:
    """Each card file's cards, in order (a card's source says its file's display path)."""
    shown = {display_path(Path(data.root) / name): name for name in card_paths}
    out: dict[str, list[CardBase]] = {}
    for card in data.cards:
        src = data.sources.get(card.id)
        name = shown.get(src.file.split(" › ")[0]) if src else None
        if name is not None:
            out.setdefault(name, []).append(card)
    return out


def _write_cards(target: Path, cards: list[CardBase], fmt: str) -> None:
    if fmt == "csv":
        write_csv(target, tables_for(cards, with_kind=True))
        return
    runs = split_by_kind(cards)
    if len({r[0].kind for r in runs}) == len(runs) and all(not r[0].kind.startswith("_") for r in runs):
        tables = []
        for run in runs:
            t = tables_for(run, with_kind=False)
            t.name = run[0].kind
            tables.append(t)
    else:
        t = tables_for(cards, with_kind=True)
        t.name = "cards"
        tables = [t]
    write_xlsx(target, tables or [Table("cards", ["id", "kind", "name"], [])])


def _write_deck(target: Path, name: str, data: Any, card_files: list[str]) -> None:
    import yaml

    data = json.loads(json.dumps(data, default=str))  # a plain copy (dates as text)
    if name == "game.yaml":
        data["deck"]["card_files"] = card_files
        what = "game.yaml (its deck: names the spreadsheets)"
    else:
        data["card_files"] = card_files
        what = "deck.yaml"
    text = (f"# Written by `cardforge export-data`: {what}; the card files are spreadsheets (see\n"
            "# docs/data.md, \"Card files as spreadsheets\"); the comments of the original file are not kept.\n")
    text += yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    target.write_text(text, encoding="utf-8")


# --- the other files ----------------------------------------------------------------------------

def _files_to_copy(root: Path, skip: set[str]) -> tuple[list[str], list[Problem]]:
    """The folder's other files to copy (paths below ``root``, sorted), and a warning per file
    left out for breaking the game folder's rule (a link leading out, a FIFO or device…)."""
    base = root.resolve()
    skipped_dirs = _build_output_dirs(root)
    out: list[str] = []
    left_out: list[Problem] = []
    seen_dirs: set[Path] = set()

    def leave(rel: str, why: str) -> None:
        left_out.append(Problem(f"not copied: {why}", file=display_path(root / rel), severity="warning"))

    def walk(rel_dir: str, depth: int) -> None:
        real = (root / rel_dir).resolve() if rel_dir else base
        if real in seen_dirs or depth > MAX_DEPTH:
            return
        seen_dirs.add(real)
        try:
            entries = sorted(os.scandir(root / rel_dir if rel_dir else root), key=lambda e: e.name)
        except OSError as exc:
            leave(rel_dir or ".", f"the folder cannot be read ({exc.strerror or exc})")
            return
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if entry.name.startswith(".") or entry.name in _SKIPPED_DIRS or rel in skip:
                continue
            try:
                st = os.lstat(entry.path)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                target, refused = path_problem(root, rel, "file")
                if refused is not None or target is None:
                    leave(rel, "a symbolic link leading outside the game's folder")
                    continue
                try:
                    st = os.stat(target)
                except OSError:
                    leave(rel, "a symbolic link to nothing")
                    continue
            if stat.S_ISDIR(st.st_mode):
                if (root / rel).resolve() not in skipped_dirs:
                    walk(rel, depth + 1)
                continue
            if not stat.S_ISREG(st.st_mode):
                what = {stat.S_IFIFO: "a FIFO (named pipe)", stat.S_IFCHR: "a character device",
                        stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket"}.get(stat.S_IFMT(st.st_mode),
                                                                                       "not a regular file")
                leave(rel, f"{what}, not a regular file")
                continue
            if len(out) >= MAX_FILES:
                raise OutputError("cannot export the data", [Problem(
                    f"the game's folder holds more than {MAX_FILES:,} files; move what is not the game's "
                    "elsewhere", file=display_path(root))])
            out.append(rel)

    walk("", 0)
    return out, left_out


def _build_output_dirs(root: Path) -> set[Path]:
    """Folders of the game's folder holding earlier cardforge output: ``cardforge.toml``'s
    ``output``, and any folder with a cardforge lock (``.<game>.lock``) or whose sub-folder
    holds a build manifest (``<game>/manifest.json``)."""
    out: set[Path] = set()
    try:
        from cardforge.data.project import read_project

        table = read_project(root)
        if table is not None and table.output:
            out.add((root / table.output).resolve())
    except Exception:  # an invalid cardforge.toml is check's to report; it is copied as it is
        pass
    for dirpath, dirnames, filenames in os.walk(root):
        depth = len(Path(dirpath).relative_to(root).parts)
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in _SKIPPED_DIRS] \
            if depth < MAX_DEPTH else []
        here = Path(dirpath)
        if any(f.startswith(".") and f.endswith(".lock") for f in filenames):
            out.add(here.resolve())
        if "manifest.json" in filenames and _is_build_manifest(here / "manifest.json"):
            out.update((here.resolve(), here.parent.resolve()))  # OUT/<game>/, and OUT/
    return {p for p in out if p != root.resolve()}


def _is_build_manifest(path: Path) -> bool:
    blob, problem = read_regular(path, str(path), 1 << 20)
    if blob is None:
        return False
    try:
        data = json.loads(blob)
    except ValueError:
        return False
    return isinstance(data, dict) and "game" in data and isinstance(data.get("files"), list)


def _copy(root: Path, rel: str, target: Path) -> Problem | None:
    """Copy the regular file ``root/rel`` (checked by the one rule, size bounded) to ``target``."""
    most = limit("game_file_bytes")
    shown = display_path(root / rel)
    path, problem = regular_inside(root, rel, "file", max_bytes=most, variable=env_name("game_file_bytes"),
                                   file=shown)
    if problem is not None or path is None:
        return Problem(f"not copied: {problem.message if problem else 'cannot be read'}", file=shown,
                       severity="warning")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        return Problem(f"not copied: cannot read it ({exc.strerror or exc})", file=shown, severity="warning")
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return Problem("not copied: not a regular file", file=shown, severity="warning")
        os.set_blocking(fd, True)
        copied = 0
        with open(target, "xb") as dst:
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                copied += len(chunk)
                if copied > most:  # grew while copied
                    raise OutputError("cannot export the data", [Problem(
                        f"grew past {most:,} bytes while copied", file=shown)])
                dst.write(chunk)
        return None
    finally:
        os.close(fd)
