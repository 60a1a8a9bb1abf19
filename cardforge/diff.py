"""What changed in a game's cards between two versions (``cardforge diff``).

A version is a **data folder** (the game's folder, or a folder holding ``<game>/``), a
**build record** (``cards.json``, see :mod:`cardforge.render.cards.reprint`, or the build folder
holding one) or a **git revision** of the repository holding the game's data (its data folder
is read at that revision with ``git archive``). Compared: cards added, removed, changed field
by field (old → new) and copies changed; the deck version; boards, aids, the score pad's rows
and the setup sheets' numbers.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge.errors import DataError
from cardforge.lab.changes import SECTION_TITLES, SECTIONS, Diff, Snapshot, compare, field_changes, text_lines
from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

__all__ = ["SECTIONS", "SECTION_TITLES", "Diff", "Snapshot", "compare", "diff_game", "field_changes", "snapshot",
           "text_lines"]


# --- sources ----------------------------------------------------------------------------------
def snapshot(game: Game, source: str | None, working: Path,
             cleanup: list[tempfile.TemporaryDirectory[str]]) -> Snapshot:
    """The version named by ``source`` (None: the working data in the folder ``working``)."""
    if source is None:
        return _from_folder(game, working, "working data")
    path = Path(source)
    try:
        is_file, is_dir = path.is_file(), path.is_dir()
    except (OSError, ValueError):  # a name too long for a file (a 100,000-character revision…)
        is_file = is_dir = False
    if is_file or (is_dir and (path / "cards.json").is_file() and not _data_folder(game, path)):
        return _from_record(game, path, source)
    if is_dir:
        folder = _data_folder(game, path)
        if folder is None:
            raise DataError(f"cannot compare {source}", [Problem(
                f"not a data folder of {game.id} (no deck.yaml or game.yaml in it or in {game.id}/ below it) "
                "nor a build record (cards.json)", file=source)])
        return _from_folder(game, folder, source)
    return _from_git(game, source, working, cleanup)


def _data_folder(game: Game, path: Path) -> Path | None:
    for folder in (path, path / game.id):
        if (folder / "deck.yaml").is_file() or (folder / "game.yaml").is_file():  # a deck inline in game.yaml too
            return folder
    return None


def _from_folder(game: Game, folder: Path, label: str) -> Snapshot:
    from cardforge.data.loading import check_game_data

    data, problems = check_game_data(game, folder.parent) if folder.name == game.id else (None, [])
    if folder.name != game.id:  # a game folder under another name (a git extract, a copy)
        data, problems = _check_renamed(game, folder)
    errors = [p for p in problems if not p.is_warning]
    if errors or data is None:
        raise DataError(f"card data of {game.id} in {label} is invalid", errors or [Problem("no data", file=label)])
    return Snapshot(label, data.meta.version, _cards_of(data), _printables_of(game, data))


def _check_renamed(game: Game, folder: Path) -> tuple[GameData | None, list[Problem]]:
    from cardforge.data.loading import check_game_data

    with tempfile.TemporaryDirectory(prefix="cardforge-diff-") as tmp:
        link = Path(tmp) / game.id
        link.symlink_to(folder.resolve(), target_is_directory=True)
        return check_game_data(game, Path(tmp))


def _cards_of(data: GameData) -> dict[str, dict[str, Any]]:
    out = {}
    for card in data.cards:
        dumped = card.model_dump(mode="json")
        copies = dumped.pop("copies", 1)
        out[card.id] = {"name": card.name, "kind": card.kind, "copies": copies, "data": dumped}
    return out


def _printables_of(game: Game, data: GameData) -> dict[str, dict[str, Any]] | None:
    from cardforge.render.cards.reprint import printables_record

    return printables_record(game, data)


def _from_record(game: Game, path: Path, label: str) -> Snapshot:
    from cardforge.render.cards.reprint import read_record

    record, problem = read_record(path, game.id, option="--from/--to")
    if problem is not None:
        raise DataError(f"cannot compare {label}", [problem])
    assert record is not None  # read_record returns a record or the problem
    cards = {cid: {"name": c.get("name", cid), "kind": c.get("kind", ""), "copies": c.get("copies", 0),
                   "data": c.get("data") or {}} for cid, c in record["cards"].items()}
    return Snapshot(label, str(record.get("version")), cards, record.get("printables"))


#: a revision name longer than this is no revision (git's own refs are at most a few hundred)
MAX_REVISION_CHARS = 1_000
#: files of a revision read for a diff: the data (what ``check`` reads); others are placeholders
DIFF_SUFFIXES = (".yaml", ".yml", ".csv", ".xlsx")
#: at most this many files in the game's folder at a revision
MAX_REVISION_FILES = 20_000


def _from_git(game: Game, revision: str, folder: Path,
              cleanup: list[tempfile.TemporaryDirectory[str]]) -> Snapshot:
    """The game's data folder as it was at ``revision`` of the repository holding it. Its files
    obey the game folder's rule as the working copy's do: listed first (``git ls-tree``: sizes
    and links known before anything is read), each data file at most its limit and read alone
    (``git cat-file``), symbolic links recreated as links (so that one leading outside the
    folder is refused where it is named, never followed), other files (art, fonts) made as
    empty placeholders — a diff compares data, never reads them."""
    from cardforge.problems import short_name, short_repr

    where = f"git revision {short_repr(revision)}"
    allowed = "allowed: a commit, branch or tag, e.g. HEAD~1 or v0.2"
    if (len(revision) > MAX_REVISION_CHARS or revision.startswith("-")
            or any(c in revision for c in "\0\n\r") or not revision.strip()):
        raise DataError(f"cannot read {where}", [Problem(
            f"{short_repr(revision)} is neither a data folder, a cards.json record nor a git revision ({allowed}; "
            f"at most {MAX_REVISION_CHARS:,} characters, not starting with '-')", field="--from/--to")])

    def git(*args: str, binary: bool = False, cwd: Path = folder) -> subprocess.CompletedProcess[Any]:
        try:
            return subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, check=False,
                                  text=not binary, timeout=120)
        except FileNotFoundError:
            raise DataError(f"cannot read {where}", [Problem("git is not installed; give a data folder or a "
                                                            "cards.json record instead")]) from None
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise DataError(f"cannot read {where}", [Problem(f"git failed: {exc}", field="--from/--to")]) from None

    if not folder.is_dir():
        raise DataError(f"cannot read {where}", [Problem(f"no data folder for {game.id}", file=str(folder))])
    top = git("rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise DataError(f"cannot read {where}", [Problem(
            f"{short_repr(revision)} is neither a data folder, a cards.json record nor a git revision ({folder} "
            "is not in a git repository)", field="--from/--to")])
    rev = git("rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")
    if rev.returncode != 0:
        raise DataError(f"cannot read {where}", [Problem(
            f"{short_repr(revision)} is neither a data folder, a cards.json record nor a revision of the git "
            f"repository {top.stdout.strip()} ({allowed})", field="--from/--to")])
    commit = rev.stdout.strip()
    root = Path(top.stdout.strip())
    rel = folder.resolve().relative_to(root.resolve()).as_posix()
    listing = git("ls-tree", "-r", "-l", "-z", commit, "--", rel, binary=True, cwd=root)
    if listing.returncode != 0 or not listing.stdout:
        raise DataError(f"cannot read {where}", [Problem(
            f"{rel} does not exist at {short_repr(revision)} ({commit[:10]})", field="--from/--to")])
    tmp = tempfile.TemporaryDirectory(prefix="cardforge-diff-")
    cleanup.append(tmp)
    base = Path(tmp.name)
    _extract(listing.stdout, rel, base, lambda *a: git(*a, binary=True, cwd=root), where)
    return _from_folder(game, base / rel, f"{short_name(revision, 80)} ({commit[:10]})")


def _extract(listing: bytes, rel: str, base: Path, git: Any, where: str) -> None:
    """Recreate the folder ``rel`` of a revision below ``base`` from ``git ls-tree -r -l -z``."""
    from cardforge.limits import env_name, limit
    from cardforge.paths import too_big

    entries = [e for e in listing.split(b"\0") if e]
    if len(entries) > MAX_REVISION_FILES:
        raise DataError(f"cannot read {where}", [Problem(
            f"the game's folder holds {len(entries):,} files at that revision (at most {MAX_REVISION_FILES:,})")])
    prefix = "" if rel == "." else rel.rstrip("/") + "/"
    for entry in entries:
        head, _, name_bytes = entry.partition(b"\t")
        fields = head.split()
        if len(fields) != 4:
            continue
        mode, kind, sha, size_text = (f.decode("ascii", "replace") for f in fields)
        name = name_bytes.decode("utf-8", "surrogateescape")
        if not (name == rel or name.startswith(prefix)) or kind != "blob":
            continue  # a submodule, or a path git would never give
        parts = name.split("/")
        if any(p in ("", ".", "..") for p in parts):
            continue
        target = base.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":  # a symbolic link: made as one; the loaders refuse it if it leads out
            link = git("cat-file", "blob", sha)
            if link.returncode == 0 and len(link.stdout) < 4096 and b"\0" not in link.stdout:
                os.symlink(os.fsdecode(link.stdout), target)
            continue
        size = int(size_text) if size_text.isdigit() else 0
        if not name.lower().endswith(DIFF_SUFFIXES):
            target.touch()  # art, fonts, rules: names count (icon tokens), contents do not
            continue
        most = limit("file_bytes") if not name.lower().endswith((".csv", ".xlsx")) else limit("game_file_bytes")
        variable = env_name("file_bytes" if most == limit("file_bytes") else "game_file_bytes")
        if size > most:
            raise DataError(f"cannot read {where}", [Problem(too_big(size, most, variable), file=name)])
        blob = git("cat-file", "blob", sha)
        if blob.returncode != 0 or len(blob.stdout) != size:
            raise DataError(f"cannot read {where}", [Problem("git cannot give this file", file=name)])
        target.write_bytes(blob.stdout)


def diff_game(game: Game, source_from: str, source_to: str | None, working: Path | None = None) -> Diff:
    cleanup: list[tempfile.TemporaryDirectory[str]] = []
    try:
        working = Path(working) if working is not None else game.data_folder
        old = snapshot(game, source_from, working, cleanup)
        new = snapshot(game, source_to, working, cleanup)
        return compare(game.id, old, new)
    finally:
        for tmp in cleanup:
            tmp.cleanup()
