"""Reprinting only what changed, with a changelog and pull list.

Every deck build records, beside its PDFs, ``cards.json``: for each printed card its face
fingerprint (its data without ``copies``, the layouts of its faces, the card-text templates,
its back), its copies, the version stamp it carries and its data; and for the game's boards,
aids, score pad and setup sheets a fingerprint and their data. A designer keeps the record of
the build they printed (``cp output/my_game/cards.json printed-v3.json``); after changing rules,
``cardforge build my-game --changed-since printed-v3.json`` plans a reprint (:func:`plan`):

- a card whose face changed: its new copies are printed, its old ones taken out (by stamp);
- a card whose copies went up: only the extra copies; down: "take out N", nothing printed;
- a deck version bump alone changes every stamp's version but reprints nothing, unless
  ``--restamp`` (then every card is reprinted and the old ones taken out);
- new cards are printed, cards that left the deck are taken out;
- boards, aids, the score pad and the setup sheets that changed are printed again, each file
  holding only those (``reprint-boards.pdf``, ``reprint-aids.pdf``, ``reprint-score-pad.pdf``,
  ``reprint-setup.pdf``; when this build makes them).

The pack, ``reprint.pdf`` (plus ``reprint-backs.pdf``/``-fold``, ``reprint-<kind>.pdf`` for
other card sizes) opens with the changelog and pull list; the same list is written to
``changes.md`` and ``changes.json``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge.data.models import CardBase
from cardforge.data.yamlio import read_bytes
from cardforge.i18n import N_, languages, messages
from cardforge.limits import limit
from cardforge.problems import Problem
from cardforge.render.drawing.game_assets import drawing_assets
from cardforge.render.fonts import font_name
from cardforge.render.output import atomic_path, entry_for
from cardforge.resources import display_path

if TYPE_CHECKING:
    from pydantic import BaseModel
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.data.loading import GameData
    from cardforge.games.base import Game
    from cardforge.layout.imposition import FoldSheet, Sheet
    from cardforge.render.cards.cards import CardArt, Issues
    from cardforge.render.cards.deckgroup import DeckGroup
    from cardforge.render.output import ManifestEntry
    from cardforge.settings import BuildSettings

RECORD = "cards.json"
RECORD_FORMAT = 2
CHANGES_MD, CHANGES_JSON = "changes.md", "changes.json"
PRINTABLE_SECTIONS = ("boards", "aids", "pad", "setup")
SECTION_FILES = {"boards": "boards.pdf", "aids": "aids.pdf", "pad": "score-pad.pdf", "setup": "setup.pdf"}
SECTION_NOUNS = {"boards": N_("board"), "aids": N_("aid"), "pad": N_("score pad"), "setup": N_("setup sheet")}


def templates_digest(folders: list[Path]) -> str:
    """A fingerprint of the card-text templates (``*.j2``) the layouts may use."""
    h = hashlib.blake2b(digest_size=8)
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.j2")):
            h.update(path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\n".join(parts).encode("utf-8"), digest_size=8).hexdigest()


def card_record(art: CardArt, cards: list[CardBase], *, with_data: bool = True) -> dict[str, dict[str, Any]]:
    """Card id → what this build prints for it (``art``: render.cards.CardArt); ``with_data``
    False leaves out each card's ``data`` (what the studio's face keys do not read)."""
    out: dict[str, dict[str, Any]] = {}
    backs: dict[tuple[str, tuple[float, float]], str] = {}
    for card in cards:
        size = art.card_size(card)
        front = art.program(art.front_layout_name(card.kind), size, "front")
        content = art.card_content(card)
        parts = [art.fingerprint(card, front), content]
        if art.back_face(card) is None:
            back_id = art.back_id(card)
            part = backs.get((back_id, size))
            if part is None:
                back = art.program(art.back_layout_name(back_id), size, "back")
                spec = art.back_spec(back_id)
                part = backs[(back_id, size)] = (
                    "back:" + back_id + ":" + (back.layout.digest if back is not None else "")
                    + ":" + json.dumps(_plain_dump(spec), sort_keys=True, ensure_ascii=False))
            parts.append(part)
        out[card.id] = {
            "face": _digest(*parts),
            "copies": card.copies,
            "stamp": art.stamp_text(card, front) if front is not None else "",
            "name": card.name,
            "kind": card.kind,
        }
        if with_data:
            out[card.id]["data"] = json.loads(content)
    return out


def _plain_dump(spec: BaseModel) -> dict[str, Any]:
    """``spec.model_dump(mode="json")`` for a model of plain values (a back's strings), read
    from its fields: the first ``model_dump`` of a build costs ~30 ms (pydantic builds its
    serialiser, the data having come from the cache). Anything else goes through pydantic."""
    fields = {k: getattr(spec, k) for k in type(spec).model_fields}
    if all(v is None or type(v) in (str, int, bool) for v in fields.values()):
        return fields
    return spec.model_dump(mode="json")


def printables_record(game: Game, data: GameData) -> dict[str, dict[str, dict[str, Any]]]:
    """Section → item id → {title, fp, data}: the boards and aids (from the data files and the
    game's own hooks, with the generated blocks they insert), the score pad's rows and the
    setup sheets' numbers and checklists. Not the deck version (printed in their footers)."""
    # the printables' modules only when a build records them (`build --only decks` loads none)
    from cardforge.render.sheets.printables import collect, setup_results
    from cardforge.render.sheets.score_pads import row_labels, tie_break_lines

    out: dict[str, dict[str, dict[str, Any]]] = {s: {} for s in PRINTABLE_SECTIONS}
    try:
        collected = collect(game, data)
    except Exception:  # a hook failing on the data is reported by the printables build itself
        collected = None
    if collected is not None:
        sources = {name: [_jsonable(b) for b in blocks] for name, blocks in collected.sources.items()}
        for section, items in (("boards", collected.boards), ("aids", collected.aids)):
            for p in items:
                value = _jsonable(p.model)
                blob = json.dumps(value, sort_keys=True, ensure_ascii=False)
                used = {n: sources[n] for n in sources if f'"source": "{n}"' in blob}
                if used:
                    value = {**value, "generated": used}
                _put(out[section], p.model.id, getattr(p.model, "title", None) or p.model.id, value)
    pad = {"rows": row_labels(game), "under": tie_break_lines(game), "players": game.max_players}
    _put(out["pad"], "score-pad", "score pad", pad)
    try:
        results = setup_results(game)
    except Exception:
        results = []
    for r in results:
        key = f"{r['mode']}-{r['player_count']}p"
        _put(out["setup"], key, f"{r['mode']}, {r['player_count']} players",
             {"counts": _jsonable(r["counts"]), "steps": _jsonable(r["steps"])})
    return out


def _put(section: dict[str, dict[str, Any]], key: str, title: str, value: Any) -> None:
    section[key] = {"title": title, "fp": _digest(json.dumps(value, sort_keys=True, ensure_ascii=False)),
                    "data": value}


def _jsonable(value: Any) -> Any:
    """Plain JSON values from models, dataclasses, tuples… (read from their fields: no
    pydantic serialiser is built)."""
    if hasattr(type(value), "model_fields"):
        return {k: _jsonable(getattr(value, k)) for k in type(value).model_fields
                if getattr(value, k) is not None}
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_jsonable(v) for v in value]
        return sorted(items, key=str) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if hasattr(value, "__dataclass_fields__"):
        return {k: _jsonable(getattr(value, k)) for k in value.__dataclass_fields__}
    return str(value)


def write_record(path: Path, game_id: str, version: str, cards: dict[str, dict[str, Any]],
                 printables: dict[str, dict[str, Any]] | None = None) -> None:
    """The record of this build (written through a temporary file, like the PDFs)."""
    blob = json.dumps({"format": RECORD_FORMAT, "game": game_id, "version": version, "cards": cards,
                       "printables": printables or {}},
                      indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    with atomic_path(path) as tmp:
        tmp.write_text(blob, encoding="utf-8")


def read_record(path: Path, game_id: str,
                option: str = "--changed-since") -> tuple[dict[str, Any] | None, Problem | None]:
    """An earlier record (a ``cards.json`` file, or the folder holding one)."""
    path = Path(path)
    if path.is_dir():
        path = path / RECORD
    where = display_path(path)
    allowed = f"a {RECORD} written by an earlier `cardforge build` of {game_id}, or its folder"

    blob, problem = read_bytes(path, where)  # bounded, a regular file (never a FIFO)
    if problem is not None or blob is None:
        if problem is not None and problem.message == "file not found":
            return None, Problem(f"no such file (allowed: {allowed})", file=where, field=option)
        return None, Problem(f"{problem.message if problem else 'cannot read it'} (allowed: {allowed})",
                             file=where, field=option)
    try:
        data = json.loads(blob.decode("utf-8"))
    except ValueError as exc:
        return None, Problem(f"cannot read it as a build record ({str(exc)[:200]}); allowed: {allowed}",
                             file=where, field=option)
    except RecursionError:
        return None, Problem(f"cannot read it as a build record (nested too deep); allowed: {allowed}",
                             file=where, field=option)
    if isinstance(data, dict) and data.get("format") == 1:
        return None, Problem("this record was written by an older cardforge (format 1: fingerprints only, "
                             "which this version computes differently); rebuild from the data you printed "
                             "(e.g. `cardforge diff --from <git revision>`) to get a new record",
                             file=where, field=option)
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT or not isinstance(data.get("cards"), dict):
        return None, Problem(f"not a build record of this version of cardforge (allowed: {allowed})", file=where,
                             field=option)
    if data.get("game") != game_id:
        return None, Problem(f"this record is of the game {data.get('game')!r}, not {game_id!r}", file=where,
                             field=option)
    damaged = _record_damage(data)
    if damaged:
        return None, Problem(f"not a build record of this version of cardforge ({damaged}; allowed: {allowed})",
                             file=where, field=option)
    return data, None


def _record_damage(data: dict[str, Any]) -> str | None:
    """What in a record read from a file is not as a build writes it (a card entry that is not
    a mapping, copies that are not a whole number…), or None; its data nested at most
    ``yaml_depth`` deep (the comparison walks it)."""
    for cid, c in data["cards"].items():
        if not isinstance(c, dict):
            return f"card {str(cid)[:40]!r} is not a mapping"
        for key, kind in (("name", str), ("kind", str), ("stamp", str), ("face", str)):
            if not isinstance(c.get(key), kind):
                return f"card {str(cid)[:40]!r}: {key} is not a text"
        if not isinstance(c.get("copies"), int) or isinstance(c.get("copies"), bool) or c["copies"] < 0:
            return f"card {str(cid)[:40]!r}: copies is not a whole number ≥ 0"
        if c.get("data") is not None and not isinstance(c.get("data"), dict):
            return f"card {str(cid)[:40]!r}: data is not a mapping"
    printables = data.get("printables")
    if printables is not None:
        if not isinstance(printables, dict):
            return "printables is not a mapping"
        for section, items in printables.items():
            if items is None:
                continue
            if not isinstance(items, dict):
                return f"printables.{str(section)[:40]} is not a mapping"
            for key, item in items.items():
                if not isinstance(item, dict) or not isinstance(item.get("fp"), str) \
                        or not isinstance(item.get("title"), str):
                    return f"printables.{str(section)[:40]}.{str(key)[:40]}: not an entry with fp and title"
    most, stack = limit("yaml_depth"), [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > most:
            return f"nested deeper than {most} levels"
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return None


# --- planning -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One line of the pull list: ``count`` copies of a card (by name and stamp)."""

    card: str  # id
    name: str
    stamp: str
    count: int
    why: str  # "new", "changed", "more copies", "fewer copies", "removed", "restamped"

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.card, "name": self.name, "stamp": self.stamp, "count": self.count, "why": self.why}


@dataclass
class Reprint:
    """What to take out of the printed game and what to print and add."""

    game: str
    version_from: str
    version_to: str
    take_out: list[Line] = field(default_factory=list)
    add: list[Line] = field(default_factory=list)
    printables: list[dict[str, Any]] = field(default_factory=list)  # {section, id, title, why, file}
    restamp_skipped: int = 0  # cards whose stamp only changed version (not reprinted)
    printables_compared: bool = True  # False when either build was decks only
    lang: str = "en"  # the edition's language: the changelog's (page and changes.md)

    @property
    def counts(self) -> dict[str, int]:
        """Card id → copies to print."""
        return {line.card: line.count for line in self.add}

    @property
    def empty(self) -> bool:
        return not (self.take_out or self.add or self.printables)

    def as_json(self) -> dict[str, Any]:
        return {"game": self.game, "version": {"from": self.version_from, "to": self.version_to},
                "take_out": [x.as_dict() for x in self.take_out], "add": [x.as_dict() for x in self.add],
                "printables": self.printables if self.printables_compared else None,
                "stamps_only_changed": self.restamp_skipped}


def plan(now: dict[str, Any], earlier: dict[str, Any], restamp: bool = False) -> Reprint:
    """Compare this build's record with an earlier one (both as :func:`read_record` gives)."""
    out = Reprint(str(now.get("game")), str(earlier.get("version")), str(now.get("version")))
    edition = now.get("edition")
    if isinstance(edition, str) and edition in languages():
        out.lang = edition
    cards, old = now["cards"], earlier["cards"]
    for cid, c in cards.items():
        o = old.get(cid)
        if c["copies"] <= 0:
            continue
        if o is None or o.get("copies", 0) <= 0:
            out.add.append(Line(cid, c["name"], c["stamp"], c["copies"], "new"))
        elif o["face"] != c["face"]:
            out.take_out.append(Line(cid, o["name"], o["stamp"], o["copies"], "changed"))
            out.add.append(Line(cid, c["name"], c["stamp"], c["copies"], "changed"))
        elif o["stamp"] != c["stamp"] and restamp:
            out.take_out.append(Line(cid, o["name"], o["stamp"], o["copies"], "restamped"))
            out.add.append(Line(cid, c["name"], c["stamp"], c["copies"], "restamped"))
        else:
            if o["stamp"] != c["stamp"]:
                out.restamp_skipped += 1
            if c["copies"] > o["copies"]:
                out.add.append(Line(cid, c["name"], c["stamp"], c["copies"] - o["copies"], "more copies"))
            elif c["copies"] < o["copies"]:
                out.take_out.append(Line(cid, o["name"], o["stamp"], o["copies"] - c["copies"], "fewer copies"))
    for cid, o in old.items():
        if o.get("copies", 0) > 0 and (cid not in cards or cards[cid]["copies"] <= 0):
            out.take_out.append(Line(cid, o["name"], o["stamp"], o["copies"], "removed"))
    now_p, old_p = now.get("printables"), earlier.get("printables")
    if now_p is None or old_p is None:  # one of the builds was decks only: not compared
        out.printables_compared = False
        return out
    for section in PRINTABLE_SECTIONS:
        a, b = old_p.get(section) or {}, now_p.get(section) or {}
        for key, item in b.items():
            why = "new" if key not in a else "changed" if a[key]["fp"] != item["fp"] else None
            if why is None and restamp and out.version_from != out.version_to:
                why = "restamped"  # its footer prints the deck version
            if why:
                out.printables.append({"section": section, "id": key, "title": item["title"], "why": why,
                                       "file": SECTION_FILES[section]})
        for key, item in a.items():
            if key not in b:
                out.printables.append({"section": section, "id": key, "title": item["title"], "why": "removed",
                                       "file": SECTION_FILES[section]})
    return out


# --- the changelog ----------------------------------------------------------------------------------
def changelog_lines(r: Reprint, lang: str | None = None) -> list[tuple[str, str]]:
    """(style, text) lines: 'h1', 'h2', 'item', 'note', in ``lang`` (default: the edition's
    language, as on the printed changelog and in changes.md; the terminal's summary is English)."""
    _ = messages(lang or r.lang).gettext
    lines: list[tuple[str, str]] = [("h1", _("Reprint of {game}: v{old} → v{new}", game=r.game, old=r.version_from,
                                             new=r.version_to))]
    taken, added = sum(x.count for x in r.take_out), sum(x.count for x in r.add)
    lines.append(("note", _("Take out {taken} card(s), add {added} printed in this pack.", taken=taken, added=added)))
    lines.append(("h2", _("Take out of the box")))
    if not r.take_out:
        lines.append(("item", _("nothing")))
    for x in r.take_out:
        lines.append(("item", _("{count} × {name} — stamp {stamp} ({why})", count=x.count, name=x.name,
                                stamp=x.stamp, why=_why(x, _))))
    lines.append(("h2", _("Add (printed in this pack)")))
    if not r.add:
        lines.append(("item", _("nothing")))
    for x in r.add:
        lines.append(("item", _("{count} × {name} — stamp {stamp} ({why})", count=x.count, name=x.name,
                                stamp=x.stamp, why=_why(x, _))))
    if r.printables:
        lines.append(("h2", _("Boards, aids, score pad and setup sheets")))
        for p in r.printables:
            if p["why"] == "removed":
                verb = _("throw away")
            elif p.get("pack"):
                verb = _("printed in {pack}", pack=p["pack"])
            else:
                verb = _("not built by this build: build with --only {kind}", kind=KIND_OF_SECTION[p["section"]])
            noun, why = SECTION_NOUNS[p["section"]], WHY_PRINTABLE.get(p["why"], p["why"])
            lines.append(("item", _("{what} '{title}' {why}: {verb}", what=_(noun), title=p["title"], why=_(why),
                                    verb=verb)))
    if not r.printables_compared:
        lines.append(("note", _("Boards, aids, score pad and setup sheets not compared: the record was "
                                "written by a decks-only build (--only decks).")))
    if r.restamp_skipped:
        lines.append(("note", _("{n} card(s) only changed version (v{old} → v{new} in the stamp): not reprinted; "
                                "build with --restamp to reprint them.", n=r.restamp_skipped, old=r.version_from,
                                new=r.version_to)))
    return lines


#: how the changelog says why a printable is listed (message ids)
WHY_PRINTABLE = {"new": N_("new"), "changed": N_("changed"), "removed": N_("removed")}


def _why(x: Line, _: Callable[..., str]) -> str:
    return {"new": _("new card"), "changed": _("its face changed"), "more copies": _("more copies"),
            "fewer copies": _("fewer copies"), "removed": _("no longer in the deck"),
            "restamped": _("restamped")}[x.why]


def changes_markdown(r: Reprint) -> str:
    out = []
    for style, text in changelog_lines(r):
        if style == "h1":
            out.append(f"# {text}\n")
        elif style == "h2":
            out.append(f"\n## {text}\n")
        elif style == "note":
            out.append(f"\n{text}\n")
        else:
            out.append(f"- {text}")
    return "\n".join(out).replace("\n\n\n", "\n\n") + "\n"


def write_changes(game_dir: Path, r: Reprint) -> None:
    game_dir = Path(game_dir)
    game_dir.mkdir(parents=True, exist_ok=True)
    with atomic_path(game_dir / CHANGES_MD) as tmp:
        tmp.write_text(changes_markdown(r), encoding="utf-8")
    with atomic_path(game_dir / CHANGES_JSON) as tmp:
        tmp.write_text(json.dumps(r.as_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def draw_changelog(c: Canvas, r: Reprint, page: tuple[float, float], duplex: bool) -> int:
    """The pack's first page(s), on canvas ``c`` (page size in points); returns pages drawn
    (an even number when printed two-sided, so that the cards' fronts and backs stay paired)."""
    w, h = page
    margin = 42.0
    regular, bold = font_name("sans"), font_name("sans", bold=True)
    sizes = {"h1": (bold, 15, 24), "h2": (bold, 11.5, 20), "item": (regular, 9.5, 13), "note": (regular, 9.5, 15)}
    pages = 0
    y = h - margin
    for style, text in changelog_lines(r):
        font, size, step = sizes[style]
        for chunk in wrap_text(c, text, font, size, w - 2 * margin - (10 if style == "item" else 0)):
            if y - step < margin:
                c.showPage()
                pages += 1
                y = h - margin
            y -= step
            c.setFont(font, size)
            if style == "item":
                c.drawString(margin, y, "☐")
                c.drawString(margin + 10, y, chunk)
            else:
                c.drawString(margin, y, chunk)
    c.showPage()
    pages += 1
    if duplex and pages % 2:
        c.showPage()  # the changelog's blank back
        pages += 1
    return pages


def wrap_text(c: Canvas, text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` (points), broken between words."""
    words, line = text.split(" "), ""
    lines: list[str] = []
    for word in words:
        trial = f"{line} {word}" if line else word
        if line and c.stringWidth(trial, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line]


def display_path_of(path: Path) -> str:
    path = Path(path)
    return display_path(path / RECORD if path.is_dir() else path)


# --- in the deck build ------------------------------------------------------------------------------
def build_record(game: Game, data: GameData, art: CardArt, cards: list[CardBase],
                 with_printables: bool = True) -> dict[str, Any]:
    """This build's record: its printed cards and the game's printables (left out, as None,
    by a decks-only build, which then does not pay for the printables' code: ~0.15 s for
    ten player boards; a later comparison then leaves them out)."""
    return {"format": RECORD_FORMAT, "game": game.id, "version": data.meta.version,
            "edition": art.lang,  # the language printed: two editions are not two versions
            "cards": card_record(art, cards),
            "printables": printables_record(game, data) if with_printables else None}


KIND_OF_SECTION = {"boards": "boards", "aids": "aids", "pad": "pads", "setup": "aids"}


def plan_against(record: dict[str, Any], path: Path, game_id: str, restamp: bool, issues: Issues,
                 only: frozenset[str] = frozenset(KIND_OF_SECTION.values())) -> Reprint | None:
    """The reprint plan against the record at ``path``; a problem with it goes to ``issues``.
    Changed printables this build makes (``only``) are printed in ``reprint-<file>``."""
    earlier, problem = read_record(path, game_id)
    if earlier is None:  # then there is a problem saying why
        if problem is not None:
            issues.add(problem)
        return None
    if earlier.get("edition", record.get("edition")) != record.get("edition"):
        # a record written before editions were recorded is taken as this build's edition
        issues.add(Problem(f"this record is of the {earlier['edition']!r} edition; this build prints the "
                           f"{record.get('edition')!r} one: compare a build with a record of the same edition "
                           f"(--lang {earlier['edition']})", file=display_path_of(path), field="--changed-since"))
        return None
    out = plan(record, earlier, restamp)
    for p in out.printables:
        p["pack"] = f"reprint-{p['file']}" if KIND_OF_SECTION[p["section"]] in only else None
    return out


def pack_groups(changes: Reprint | None, groups: list[DeckGroup], sheets: dict[str, Sheet | FoldSheet],
                settings: BuildSettings, group_type: type[DeckGroup]) -> list[DeckGroup]:
    """The pack's deck groups: per card size, the cards to add (as many copies as to print);
    the changelog opens ``reprint.pdf`` (the deck's own size)."""
    if changes is None or changes.empty:
        return []
    counts = changes.counts
    out = []
    for group in list(groups):
        subset = [c.model_copy(update={"copies": counts[c.id]}) for c in group.cards if c.id in counts]
        name = "reprint" if group.name == "deck" else "reprint" + group.name[len("deck"):]
        if not subset and group.name != "deck":
            continue
        pack = group_type(name, group.size, subset, group.kinds)
        if group.name == "deck":
            pack.preface = lambda c, page, duplex: draw_changelog(c, changes, page, duplex)
        sheets[name] = sheets[group.name]
        out.append(pack)
    return out


def write_outputs(game_dir: Path, record: dict[str, Any], changes: Reprint | None) -> None:
    """The record, and the changelog files (``changes.md``/``.json``) when planning a reprint
    (removed otherwise, so a stale pull list is never left beside new PDFs)."""
    game_dir = Path(game_dir)
    blob = json.dumps(record, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    with atomic_path(game_dir / RECORD) as tmp:
        tmp.write_text(blob, encoding="utf-8")
    if changes is not None:
        write_changes(game_dir, changes)
    else:
        for name in (CHANGES_MD, CHANGES_JSON):
            (game_dir / name).unlink(missing_ok=True)


PACK_PRINTABLES = ("reprint-boards.pdf", "reprint-aids.pdf", "reprint-aids-backs.pdf", "reprint-score-pad.pdf",
                   "reprint-setup.pdf")


def build_printables_pack(game: Game, data: GameData, settings: BuildSettings, game_dir: Path,
                          changes: Reprint | None) -> list[ManifestEntry]:
    """The changed boards, aids, score pad and setup sheets, each file holding only those:
    ``reprint-boards.pdf``, ``reprint-aids.pdf`` (``-backs``), ``reprint-score-pad.pdf``,
    ``reprint-setup.pdf``; only for the printables this build makes (``--only``). Returns
    their manifest entries. Earlier ones are removed first. A printable that cannot be laid
    out is left out here: the build of the printables reports it."""
    game_dir = Path(game_dir)
    for name in PACK_PRINTABLES:
        (game_dir / name).unlink(missing_ok=True)
    if changes is None or not changes.printables:
        return []

    wanted: dict[str, set[str]] = {}
    for p in changes.printables:
        if p["why"] != "removed":
            wanted.setdefault(p["section"], set()).add(p["id"])
    kinds = frozenset(k for k, s in (("boards", "boards"), ("aids", "aids"), ("pads", "pad"), ("aids", "setup"))
                      if s in wanted and k in settings.only)
    if not kinds:
        return []
    from cardforge.render.sheets import printables as pr  # only for a reprint of printables
    from cardforge.render.sheets.printing import PrintContext

    # the game's own fonts and icons, as the printables' build draws them (a game's :icon: tokens)
    ctx = PrintContext(game, data, settings, drawing_assets(data, game_folder=game.folder,
                                                        lang=settings.lang or game.language))
    plans = pr.plan_printables(ctx, kinds)
    if plans.problems:
        return []
    plans.boards = [(p, s) for p, s in plans.boards if p.board.id in wanted.get("boards", ())]
    plans.aids = [(p, s) for p, s in plans.aids if p.aid.id in wanted.get("aids", ())]
    entries = []
    if plans.boards:
        path = game_dir / "reprint-boards.pdf"
        pages, count = pr._write_boards(ctx, plans, path)
        entries.append(entry_for(path, game_dir, "board", pages, count, settings.paper))
    if plans.pads is not None and "pad" in wanted:
        path = game_dir / "reprint-score-pad.pdf"
        pages, count = pr._write_pads(ctx, plans, path)
        entries.append(entry_for(path, game_dir, "pad", pages, count, settings.paper))
    if plans.aids:
        for path, pages, count in pr._write_aids(ctx, plans, game_dir / "reprint-aids.pdf",
                                                 game_dir / "reprint-aids-backs.pdf"):
            entries.append(entry_for(path, game_dir, "aid", pages, count, settings.paper))
    if "setup" in wanted and "aids" in kinds:
        results = [r for r in pr.setup_results(game) if f"{r['mode']}-{r['player_count']}p" in wanted["setup"]]
        if results:
            path = game_dir / "reprint-setup.pdf"
            entries.append(entry_for(path, game_dir, "setup", pr._write_setup(ctx, results, path), len(results),
                                     settings.paper))
    return entries
