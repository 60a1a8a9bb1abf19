"""What changed between two versions of a game's cards: the comparison ``cardforge diff``
prints (``cardforge/diff.py`` finds the versions: a data folder, a build record, a git
revision) and the playtest lab shows beside the numbers that moved (the decks its plays were
played with). Pure data: two :class:`Snapshot` in, a :class:`Diff` out."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

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
