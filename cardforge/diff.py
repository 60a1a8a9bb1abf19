"""What changed in a game's cards between two versions (``cardforge diff``).

A version is a **data folder** (the game's folder, or a folder holding ``<game>/``), a
**build record** (``cards.json``, see :mod:`cardforge.render.reprint`, or the build folder
holding one) or a **git revision** of the repository holding the game's data (its data folder
is read at that revision with ``git archive``). Compared: cards added, removed, changed field
by field (old → new) and copies changed; the deck version; boards, aids, the score pad's rows
and the setup sheets' numbers.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge.errors import DataError
from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

SECTIONS = ("boards", "aids", "pad", "setup")
SECTION_TITLES = {"boards": "boards", "aids": "aids", "pad": "score pad", "setup": "setup sheets"}


@dataclass
class Snapshot:
    """One side of a diff."""

    label: str  # how it was named: "HEAD~1", "printed.json", "working data"
    version: str
    cards: dict[str, dict[str, Any]]  # id → {name, kind, copies, data}
    printables: dict[str, dict[str, Any]] | None  # section → id → {title, fp, data}; None: not known


@dataclass
class Diff:
    game: str
    old: Snapshot
    new: Snapshot
    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)  # {id, name, fields: [{field, old, new}], copies}
    printables: dict[str, dict[str, list[dict[str, Any]]]] = field(default_factory=dict)
    printables_compared: bool = True

    @property
    def empty(self) -> bool:
        return (not (self.added or self.removed or self.changed) and self.old.version == self.new.version
                and not any(v for s in self.printables.values() for v in s.values()))

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "from": {"source": self.old.label, "version": self.old.version},
            "to": {"source": self.new.label, "version": self.new.version},
            "cards": {"added": self.added, "removed": self.removed, "changed": self.changed},
            "printables": self.printables if self.printables_compared else None,
        }


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
                f"not a data folder of {game.id} (no deck.yaml in it or in {game.id}/ below it) nor a build "
                "record (cards.json)", file=source)])
        return _from_folder(game, folder, source)
    return _from_git(game, source, working, cleanup)


def _data_folder(game: Game, path: Path) -> Path | None:
    for folder in (path, path / game.id):
        if (folder / "deck.yaml").is_file():
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
    from cardforge.render.reprint import printables_record

    return printables_record(game, data)


def _from_record(game: Game, path: Path, label: str) -> Snapshot:
    from cardforge.render.reprint import read_record

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


# --- comparing ---------------------------------------------------------------------------------
def compare(game_id: str, old: Snapshot, new: Snapshot) -> Diff:
    out = Diff(game_id, old, new)
    for cid, c in new.cards.items():
        o = old.cards.get(cid)
        if o is None:
            out.added.append({"id": cid, "name": c["name"], "kind": c["kind"], "copies": c["copies"]})
            continue
        fields = field_changes(o["data"], c["data"])
        entry: dict[str, Any] = {"id": cid, "name": c["name"], "kind": c["kind"], "fields": fields}
        if o["copies"] != c["copies"]:
            entry["copies"] = {"old": o["copies"], "new": c["copies"]}
        if fields or "copies" in entry:
            out.changed.append(entry)
    for cid, o in old.cards.items():
        if cid not in new.cards:
            out.removed.append({"id": cid, "name": o["name"], "kind": o["kind"], "copies": o["copies"]})
    if old.printables is None or new.printables is None:
        out.printables_compared = False
        return out
    for section in SECTIONS:
        a, b = old.printables.get(section) or {}, new.printables.get(section) or {}
        result: dict[str, list[dict[str, Any]]] = {"added": [], "removed": [], "changed": []}
        for key, item in b.items():
            if key not in a:
                result["added"].append({"id": key, "title": item["title"]})
            elif a[key]["fp"] != item["fp"]:
                result["changed"].append({"id": key, "title": item["title"],
                                          "fields": field_changes(a[key].get("data"), item.get("data"))})
        for key, item in a.items():
            if key not in b:
                result["removed"].append({"id": key, "title": item["title"]})
        out.printables[section] = result
    return out


def field_changes(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """Leaf by leaf: ``[{field: 'cost', old: 5, new: 6}, {field: 'planet.turns[0].resources', …}]``."""
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in list(old) + [k for k in new if k not in old]:
            sub = f"{path}.{key}" if path else str(key)
            out += field_changes(old.get(key), new.get(key), sub)
        return out
    if isinstance(old, list) and isinstance(new, list) and old and new and \
            all(isinstance(v, (dict, list)) for v in old + new):
        out = []
        for i in range(max(len(old), len(new))):
            out += field_changes(old[i] if i < len(old) else None, new[i] if i < len(new) else None, f"{path}[{i}]")
        return out
    if old == new:
        return []
    return [{"field": path or "(value)", "old": old, "new": new}]


# --- text ----------------------------------------------------------------------------------------
def _show(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _copies(n: int) -> str:
    return f" ×{n}" if n != 1 else ""


def text_lines(d: Diff) -> list[str]:
    old, new = d.old, d.new
    lines = [f"{d.game}: {old.label} (v{old.version}) → {new.label} (v{new.version})"]
    if old.version != new.version:
        lines.append(f"deck version: {old.version} → {new.version} (every stamp's version changes)")
    copies_only = sum(1 for c in d.changed if not c["fields"])
    lines.append(f"cards: {len(d.added)} added, {len(d.removed)} removed, {len(d.changed) - copies_only} changed, "
                 f"{sum(1 for c in d.changed if 'copies' in c)} with other copies")
    for c in d.added:
        lines.append(f"+ {c['id']} ({c['kind']}) {_show(c['name'])}{_copies(c['copies'])}")
    for c in d.removed:
        lines.append(f"- {c['id']} ({c['kind']}) {_show(c['name'])}{_copies(c['copies'])}")
    for c in d.changed:
        copies = f": copies {c['copies']['old']} → {c['copies']['new']}" if "copies" in c else ""
        lines.append(f"~ {c['id']} {_show(c['name'])}{copies}")
        for f in c["fields"]:
            lines.append(f"    {f['field']}: {_show(f['old'])} → {_show(f['new'])}")
    if not d.printables_compared:
        lines.append("boards, aids, score pad, setup: not compared (a record written by a decks-only build)")
        return lines
    for section in SECTIONS:
        s = d.printables.get(section) or {}
        if not any(s.values()):
            continue
        lines.append(f"{SECTION_TITLES[section]}:")
        for item in s["added"]:
            lines.append(f"+ {item['id']} {_show(item['title'])}")
        for item in s["removed"]:
            lines.append(f"- {item['id']} {_show(item['title'])}")
        for item in s["changed"]:
            lines.append(f"~ {item['id']} {_show(item['title'])}")
            for f in item["fields"]:
                lines.append(f"    {f['field']}: {_show(f['old'])} → {_show(f['new'])}")
    if d.empty:
        lines.append("no difference")
    return lines


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
