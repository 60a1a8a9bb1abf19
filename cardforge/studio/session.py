"""The studio's model: every face of a game's cards as a PNG, kept up to date.

:meth:`Studio.refresh` loads the game's data (from the data cache when unchanged), works out a
key per face — the card's printed content as ``cards.json`` records it (``render/cards/reprint.py``:
its data, its front and back layouts, the card-text templates), its stamp, the deck's settings
and the game's pictures, fonts and icons — and draws only the faces whose key changed, with the
print's own :class:`~cardforge.render.cards.Painter`, into one in-memory PDF rasterised by
pdfium (as ``cardforge preview`` does). An image is named by the hash of its PNG bytes, so a
face drawn again alike keeps its address and the page never reloads it.

Problems are placed on the card they are about: a drawing problem on the face being drawn, a
data problem on the card whose entry holds its line (the card keeps its last good picture);
what belongs to no card (a broken ``deck.yaml``, a layout file) is the page's.
No web framework here: :mod:`cardforge.studio.app` serves it.
"""

from __future__ import annotations

import copy
import gc
import hashlib
import io
import json
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge.errors import CardforgeError
from cardforge.problems import Problem
from cardforge.units import MM

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game
    from cardforge.render.cards.cards import CardArt
    from cardforge.render.cards.faces import DeckFaces, Face

DEFAULT_DPI = 150
#: PNG compression of the studio's images: speed over size (they never leave this machine)
PNG_LEVEL = 1
#: updates remembered for a page that reconnects (an older one reloads the whole page)
KEPT_UPDATES = 200
#: pictures, fonts and icons: a change redraws every face (a card's key does not name them)
_PICTURES = frozenset({".png", ".jpg", ".jpeg", ".svg", ".ttf", ".otf"})


@dataclass
class FaceState:
    """One face as the page shows it."""

    name: str
    side: str  # front | back
    card: str  # the card it is drawn from (a shared back: the first card using it)
    cards: list[str]  # the cards showing it
    kind: str
    title: str  # the card's name (or the back's)
    width_mm: float  # with the bleed
    height_mm: float
    png: str = ""  # hash of its PNG ("" until drawn)
    key: str = ""
    errors: list[Problem] = field(default_factory=list)  # drawing problems
    data_errors: list[Problem] = field(default_factory=list)  # the card's data problems (last load)
    text: str = ""  # what the filter searches: id, name, field values
    safe_mm: float = 0.0  # the layout's safe zone inside the trim

    def as_json(self) -> dict[str, Any]:
        problems = self.data_errors + self.errors
        return {"name": self.name, "side": self.side, "card": self.card, "kind": self.kind,
                "title": self.title, "src": f"/img/{self.png}.png" if self.png else "",
                "w": round(self.width_mm, 3), "h": round(self.height_mm, 3), "safe": self.safe_mm,
                "text": self.text,
                "errors": [problem_json(p) for p in problems]}


def problem_json(p: Problem) -> dict[str, Any]:
    where = f"{p.file}:{p.line}" if p.file and p.line else p.file or ""
    return {"where": where, "file": p.file or "", "line": p.line or 0, "text": str(p),
            "message": p.message, "severity": p.severity}


@dataclass
class Update:
    version: int
    changed: list[str]  # face names whose picture or problems changed
    structure: bool  # faces added, removed or reordered: the page redraws its list
    seconds: float
    cpu: float = 0.0  # CPU seconds of the refreshing thread (the work, whatever the machine's load)


class Studio:
    """A game's faces, their PNGs and problems; :meth:`refresh` after files change. Thread-safe:
    one thread refreshes (the file watcher), others read."""

    def __init__(self, game: Game, *, templates_dir: Path | None = None, dpi: float = DEFAULT_DPI,
                 bleed_mm: float = 3.0, data_root: Path | None = None) -> None:
        from cardforge.data.incremental import Memo
        from cardforge.data.loading import game_dir
        from cardforge.layout.boxes import template_folders

        self.game = game
        self.templates_dir = templates_dir
        self.data_root = data_root
        self.dpi = dpi
        self.bleed_mm = bleed_mm
        self.folders = [game_dir(game, data_root), *template_folders(game, templates_dir)]
        self.faces: dict[str, FaceState] = {}  # in page order
        self.images: dict[str, bytes] = {}  # PNG hash → bytes
        self.general: list[Problem] = []  # problems on no card
        self.version = 0
        self.updates: list[Update] = []
        self.data: GameData | None = None
        self.art: CardArt | None = None
        self._faces: DeckFaces | None = None
        self._extra_images: dict[str, bytes] = {}  # the visual diff's pictures
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._refreshing = threading.Lock()
        self.memo = Memo(defer_cache=True)
        self._dirty = False  # refreshed since the last idle()
        self._front_keys: dict[str, tuple[dict[str, Any], str]] = {}  # face → (its record, its key)
        self._kept_records: dict[str, tuple[Any, Any, str, dict[str, Any]]] = {}

    # --- reading (any thread) -------------------------------------------------------------------
    def image(self, digest: str) -> bytes | None:
        with self._lock:
            return self.images.get(digest) or self._extra_images.get(digest)

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows: the faces in order, the kinds, the page's own problems."""
        with self._lock:
            kinds = list(dict.fromkeys(f.kind for f in self.faces.values()))
            return {"game": self.game.id, "version": self.version, "kinds": kinds,
                    "faces": [f.as_json() for f in self.faces.values()],
                    "problems": [problem_json(p) for p in self.general]}

    def problems(self) -> list[dict[str, Any]]:
        """The page's own problems (on no card)."""
        with self._lock:
            return [problem_json(p) for p in self.general]

    def faces_json(self, names: Iterable[str]) -> list[dict[str, Any]]:
        with self._lock:
            return [self.faces[n].as_json() for n in names if n in self.faces]

    def changes_since(self, version: int) -> tuple[int, list[str] | None]:
        """(current version, face names changed since ``version``); None: the page must reload
        (its list of faces changed, or it is too old to tell)."""
        with self._lock:
            if version >= self.version:
                return self.version, []
            later = [u for u in self.updates if u.version > version]
            if not later or later[0].version != version + 1 or any(u.structure for u in later):
                return self.version, None
            return self.version, list(dict.fromkeys(n for u in later for n in u.changed))

    def last(self) -> Update | None:
        with self._lock:
            return self.updates[-1] if self.updates else None

    def wait(self, version: int, timeout: float) -> int:
        """Block until the version is past ``version`` (or ``timeout`` s); the current version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > version, timeout)
            return self.version

    def text_of(self, name: str) -> str:
        with self._lock:
            face = self.faces.get(name)
            return face.text if face else ""

    # --- refreshing (one thread) ----------------------------------------------------------------
    def refresh(self, changed: Iterable[str] = ()) -> Update:
        """Load the data and draw the faces that changed; never raises for bad input (the
        problems go on the cards, or on the page)."""
        with self._refreshing:
            t0, c0 = time.perf_counter(), time.thread_time()
            self._dirty = True
            try:
                names, structure = self._refresh()
            except Exception as exc:  # a bug below: said on the page, the last pictures kept
                names, structure = [], False
                with self._lock:
                    self.general = [Problem(f"internal error while redrawing: {type(exc).__name__}: {exc}")]
            with self._changed:
                self.version += 1
                update = Update(self.version, names, structure, time.perf_counter() - t0, time.thread_time() - c0)
                self.updates = [*self.updates[-KEPT_UPDATES + 1:], update]
                self._changed.notify_all()
            return update

    def idle(self) -> None:
        """Nothing changed for a while: write what the last refresh left for later (the data
        cache's entry, so that a ``build`` after the session finds it)."""
        with self._refreshing:
            try:
                self.memo.flush()
            except Exception:  # noqa: S110 - the cache only saves time; a build writes it again
                pass
            if self._dirty:
                self._dirty = False
                # Python's full garbage collection walks every object: with a 1,000-card game
                # held, one came every ~15 saves and took 0.08 s of that save's redraw. Done
                # here, while idle, and what lives then is set aside from later collections
                # (unfrozen first, so nothing frozen before is kept once it is garbage).
                gc.unfreeze()
                gc.collect()
                gc.freeze()

    def _refresh(self) -> tuple[list[str], bool]:
        from cardforge.data.loading import load_game_data

        try:
            with self.memo.active():  # one card's edit re-reads that card (data/incremental.py)
                data = load_game_data(self.game, self.data_root)
        except CardforgeError as exc:
            return self._data_failed(exc.problems), False
        try:
            faces, general = self._deck_faces(data)
        except CardforgeError as exc:
            with self._lock:
                self.general = list(exc.problems) or [Problem(exc.title)]
                for f in self.faces.values():
                    f.data_errors = []
            return list(self.faces), False
        art = faces.art
        keys = self._keys(faces, data)
        todo = [f for f in faces.all if keys[f.name] != (self.faces[f.name].key if f.name in self.faces else None)]
        drawn = self._draw(faces, todo)
        states: dict[str, FaceState] = {}
        for face in faces.fronts:
            for one in (face, faces.back_of(face)):
                if one.name not in states:
                    states[one.name] = self._state(one, art, keys[one.name])
        changed = []
        with self._lock:
            old = self.faces
            for name, state in states.items():
                state.key = keys[name]
                before = old.get(name)
                if name in drawn:
                    state.png, state.errors, _ = drawn[name]
                elif before is not None:
                    state.png, state.errors = before.png, before.errors
                if before is None or (before.png, before.errors, before.data_errors) != (
                        state.png, state.errors, state.data_errors):
                    changed.append(name)
            structure = list(old) != list(states)
            self.faces = states
            self.data, self.art, self._faces = data, art, faces
            self.general = general
            fresh = {digest: png for digest, _, png in drawn.values()}
            self.images = {f.png: fresh.get(f.png) or self.images.get(f.png, b"") for f in states.values() if f.png}
        return changed, structure

    def _data_failed(self, problems: list[Problem]) -> list[str]:
        """The data does not load: each problem on the card whose entry holds it, the rest on
        the page; the pictures stay as they were."""
        placed: dict[str, list[Problem]] = {}
        general = []
        with self._lock:
            for p in problems:
                card = self._card_at(p)
                if card is not None and card in self.faces:
                    placed.setdefault(card, []).append(p)
                elif not p.is_warning:
                    general.append(p)
            changed = []
            for name, face in self.faces.items():
                mine = placed.get(face.card, []) if face.side == "front" else []
                if mine != face.data_errors:
                    face.data_errors = mine
                    changed.append(name)
            self.general = general
        return changed

    def _card_at(self, p: Problem) -> str | None:
        """The card a data problem is about: the one whose entry in that file starts at or
        before its line (the last data that loaded says where each card is)."""
        data = self.data
        if data is None or not p.file:
            return None
        best: tuple[int, str] | None = None
        for cid, src in data.sources.items():
            if src.file == p.file and src.line is not None:
                if p.item and p.item == src.label(cid):
                    return cid
                if p.line is not None and src.line <= p.line and (best is None or src.line > best[0]):
                    best = (src.line, cid)
        return best[1] if best else None

    def _deck_faces(self, data: GameData) -> tuple[DeckFaces, list[Problem]]:
        from cardforge.layout.boxes import template_folders
        from cardforge.render.cards.faces import deck_faces
        from cardforge.render.cards.reprint import templates_digest

        faces = deck_faces(self.game, data, self.bleed_mm, templates_dir=self.templates_dir)
        faces.art.templates_digest = templates_digest(template_folders(self.game, self.templates_dir))
        general = list(faces.issues.errors) + list(data.warnings) + list(faces.issues.warnings)
        return faces, general

    def _keys(self, faces: DeckFaces, data: GameData) -> dict[str, str]:
        """Face name → what decides its picture (see the module's docstring)."""
        art = faces.art
        common = _digest(data.meta.model_dump_json(), json.dumps(art.vars, sort_keys=True, default=str),
                         self._pictures(), str(self.dpi), str(self.bleed_mm))  # hashed once, not per face
        record = self._records(art, [f.card for f in faces.fronts], common)
        keys = {}
        before, self._front_keys = self._front_keys, {}
        for face in faces.fronts:
            rec = record[face.card.id]
            found = before.get(face.name)  # the same record (kept): the same key
            if found is None or found[0] is not rec:
                found = (rec, _digest(common, "front", rec["face"], rec["stamp"]))
            keys[face.name] = found[1]
            self._front_keys[face.name] = found
        for face in faces.backs:
            card = face.card
            rec = record[card.id]
            other = art.back_face(card)
            back = None if other else art.program(art.back_layout_name(art.back_id(card)), face.size_mm, "back")
            if other is not None or (back is not None and "card" in back.uses):
                keys[face.name] = _digest(common, "back", face.name, rec["face"], rec["stamp"])
            else:  # a shared back design: its layout and settings (and the kind, when it reads it)
                spec = art.back_spec(art.back_id(card)).model_dump_json()
                kind = card.kind if back is not None and "kind" in back.uses else ""
                keys[face.name] = _digest(common, "back", face.name, back.layout.digest if back else "", spec, kind,
                                          repr(face.size_mm))
        return keys

    def _records(self, art: CardArt, cards: list[Any], common: str) -> dict[str, dict[str, Any]]:
        """What ``cards.json`` records for each card (``card_record``), taken from the last
        refresh for a card that is the very object it was then (the data's memo keeps an
        unchanged card's object), with the same card on its back and the same layouts, back
        designs, card-text templates and settings (``common``)."""
        from cardforge.render.cards.reprint import card_record

        context = self._layouts_context(art) + common
        out: dict[str, dict[str, Any]] = {}
        todo = []
        kept = self._kept_records
        for card in cards:
            found = kept.get(card.id)
            if found is not None and found[0] is card and found[2] == context and (
                    found[1] is None or found[1] is art.back_face(card)):
                out[card.id] = found[3]
            else:
                todo.append(card)
        fresh = card_record(art, todo, with_data=False)
        now = {cid: kept[cid] for cid in out}
        for card in todo:
            out[card.id] = fresh[card.id]
            now[card.id] = (card, art.back_face(card), context, fresh[card.id])
        self._kept_records = now
        return out

    @staticmethod
    def _layouts_context(art: CardArt) -> str:
        """What a card's record reads besides the card, the cards on backs and the deck's
        settings: the layout files (every layout's digest comes from their texts), the
        card-text templates, the edition."""
        return _digest(art.library.texts_digest(), art.templates_digest, art.lang)

    def _pictures(self) -> str:
        """The game's pictures, fonts and icons by name, size and date."""
        parts = []
        for folder in self.folders:
            if not folder.is_dir():
                continue
            for path in sorted(folder.rglob("*")):
                if path.suffix.lower() in _PICTURES:
                    try:
                        st = path.stat()
                    except OSError:
                        continue
                    parts.append(f"{path}:{st.st_size}:{st.st_mtime_ns}")
        return "\n".join(parts)

    def _draw(self, faces: DeckFaces, todo: list[Face]) -> dict[str, tuple[str, list[Problem], bytes]]:
        """Face name → (PNG hash, its drawing problems, PNG bytes) of each face of ``todo``."""
        from cardforge.layout.geometry import Placement, Rect
        from cardforge.render.cards.cards import Issues, Painter
        from cardforge.render.cards.faces import png_bytes, rasterise
        from cardforge.render.output import new_canvas
        from cardforge.units import mm

        if not todo:
            return {}
        b = faces.bleed_mm
        art = faces.art
        buf = io.BytesIO()
        w0, h0 = todo[0].size_mm
        c = new_canvas(buf, (mm(w0 + 2 * b), mm(h0 + 2 * b)), f"{faces.game_id} studio")
        painter = Painter(c, art)
        problems: dict[str, list[Problem]] = {}
        for face in todo:
            issues = Issues()  # this face's problems alone
            art.issues = painter.issues = issues
            w, h = face.size_mm
            c.setPageSize((mm(w + 2 * b), mm(h + 2 * b)))
            c.saveState()
            place = Placement(Rect(b, b, w, h))
            try:
                if face.side == "front":
                    painter.front(place, face.card)
                else:
                    painter.back(place, face.card)
            except Exception as exc:  # what a build would report as an internal error
                issues.add(Problem(f"cannot draw this face: {type(exc).__name__}: {exc}"))
            c.restoreState()
            c.showPage()
            problems[face.name] = issues.errors + issues.warnings
        art.issues = faces.issues
        c.save()
        _share_layout_problems(art, todo, problems)
        sizes = [f.pixels(self.dpi, b) for f in todo]
        out = {}
        for face, size, (raw, stride) in zip(todo, sizes, rasterise(buf.getvalue(), sizes, raw=True)):
            png = png_bytes(raw, size, self.dpi, PNG_LEVEL, stride)
            digest = hashlib.blake2b(png, digest_size=10).hexdigest()
            out[face.name] = (digest, problems[face.name], png)
        return out

    def _state(self, face: Face, art: CardArt, key: str = "") -> FaceState:
        before = self.faces.get(face.name)
        if before is not None and key and before.key == key and before.cards == face.cards:
            # what it shows is unchanged (the key): its words and sizes too; its data problems go
            if not before.data_errors:  # nothing of it changes: the same state
                return before
            same = copy.copy(before)
            same.errors, same.data_errors = list(before.errors), []
            return same
        card = face.card
        w, h = face.size_mm
        b = self.bleed_mm
        if face.side == "front":
            title = getattr(card, "name", "") or card.id
            text = " ".join([card.id, title, art.card_content(card)]).lower()
        else:
            title = face.name
            text = " ".join([face.name, *face.cards]).lower()
        state = FaceState(face.name, face.side, card.id, list(face.cards) or [card.id], card.kind, str(title),
                          w + 2 * b, h + 2 * b, text=text)
        state.safe_mm = self._safe(state, card, art)
        return state

    # --- a card's details ------------------------------------------------------------------------
    def details(self, name: str) -> dict[str, Any] | None:
        """The face's card: its data row (file, line, field values) and the layout's boxes in
        mm from the top-left of the image (bleed included), each with its layout file and line."""
        with self._lock:
            face = self.faces.get(name)
            data, art, faces = self.data, self.art, self._faces
            if face is None or data is None or art is None or faces is None:
                return None
            card = data.card(face.card) if data.has_card(face.card) else None
            if card is None:
                return None
            src = data.sources.get(card.id)
            values = json.loads(art.card_content(card))
            row = {"id": card.id, "file": src.file if src else "", "line": (src.line or 0) if src else 0,
                   "fields": values}
            layout, boxes = self._boxes(face, card, art)
            return {"face": face.as_json(), "card": row, "layout": layout, "boxes": boxes,
                    "bleed": self.bleed_mm, "safe": self._safe(face, card, art)}

    def _program(self, face: FaceState, card: Any, art: CardArt) -> Any:
        size = art.card_size(card)
        if face.side == "front":
            return art.program(art.front_layout_name(card.kind), size, "front")
        other = art.back_face(card)
        if other is not None:
            return art.program(art.front_layout_name(other.kind), size, "front")
        return art.program(art.back_layout_name(art.back_id(card)), size, "back")

    def _safe(self, face: FaceState, card: Any, art: CardArt) -> float:
        program = self._program(face, card, art)
        return float(program.layout.safe_zone) if program is not None else 0.0

    def _boxes(self, face: FaceState, card: Any, art: CardArt) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        from cardforge.render.cards.cards import Frame

        program = self._program(face, card, art)
        if program is None:
            return {}, []
        height_pt = program.size_mm[1] * MM
        b = self.bleed_mm
        out = []
        ctx, frame_ctx = self._contexts(face, card, art, program)
        for step in program.steps:
            for prog in (step.boxes if isinstance(step, Frame) else [step]):
                if not _shown(prog, frame_ctx if isinstance(step, Frame) else ctx):
                    continue  # its `when:` is false on this face: the painter left it out too
                x, y, w, h = prog.rect
                box = prog.box
                out.append({"name": box.name, "type": box.type, "file": box.file, "line": box.line or 0,
                            "layout": box.layout, "x": round(x / MM + b, 3),
                            "y": round((height_pt - y - h) / MM + b, 3),
                            "w": round(w / MM, 3), "h": round(h / MM, 3)})
        lay = program.layout
        return {"name": lay.name, "file": lay.file}, out

    @staticmethod
    def _contexts(face: FaceState, card: Any, art: CardArt, program: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The template context the painter draws this face's boxes in, and its shared frame's
        (``render/cards/cards.py`` ``Painter.front``/``back``/``_face``)."""
        if face.side == "front":
            ctx = art.context(card, card.kind, None, "front")
        elif (other := art.back_face(card)) is not None:
            ctx = art.context(other, other.kind, None, "front")
        else:
            back_id = art.back_id(card)
            mine = "card" in program.uses
            kind = card.kind if mine or "kind" in program.uses else None
            ctx = art.context(card if mine else None, kind, back_id, "back")
        return ctx, {**ctx, "card": None}

    # --- files the editor may open ----------------------------------------------------------------
    def may_open(self, file: str) -> Path | None:
        """``file`` (as the page shows it) when it is a file of this game's folders, else None."""
        path = Path(file)
        try:
            real = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        if not real.is_file():
            return None
        for folder in self.folders:
            try:
                if real.is_relative_to(folder.resolve()):
                    return real
            except OSError:
                continue
        return None

    # --- the visual diff ----------------------------------------------------------------------------
    def diff(self, record: Path) -> dict[str, Any]:
        """The cards ``cardforge reprint`` would print against the build record ``record``
        (``cards.json``), each as it was printed and as it is now, with the changed pixels."""
        from cardforge.render.cards.faces import deck_faces
        from cardforge.render.cards.printed_deck import printed_deck
        from cardforge.render.cards.reprint import build_record, plan, read_record

        with self._lock:
            data, art, faces = self.data, self.art, self._faces
        if data is None or art is None or faces is None:
            raise CardforgeError("the cards do not load: fix the problems shown first")
        earlier, problem = read_record(record, self.game.id, option="--printed")
        if earlier is None:
            raise CardforgeError(f"cannot read {record}", [problem] if problem else [])
        now = build_record(self.game, data, art, [f.card for f in faces.fronts], with_printables=False)
        changes = plan(now, earlier)
        _, old_data = printed_deck(self.game, data, record)
        old_ids = {c.id for c in old_data.cards}
        out = []
        changed = [line for line in changes.add if line.why in ("changed", "new")]
        ids = [line.card for line in changed]
        old_faces = deck_faces(self.game, old_data, self.bleed_mm, templates_dir=self.templates_dir,
                               only=[c for c in ids if c in old_ids]) if any(c in old_ids for c in ids) else None
        new_faces = deck_faces(self.game, data, self.bleed_mm, templates_dir=self.templates_dir,
                               only=ids) if ids else None
        old_png = self._pictures_of(old_faces)
        new_png = self._pictures_of(new_faces)
        extra: dict[str, bytes] = {}
        for line in changed:
            entry: dict[str, Any] = {"card": line.card, "name": line.name, "why": line.why, "stamp": line.stamp}
            new = new_png.get(line.card)
            old = old_png.get(line.card)
            if new is not None:
                entry["now"] = _keep(extra, _encode(new, self.dpi))
            if old is not None:
                entry["printed"] = _keep(extra, _encode(old, self.dpi))
            if new is not None and old is not None:
                marked, count = _highlight(old, new)
                entry["diff"] = _keep(extra, _encode(marked, self.dpi))
                entry["pixels"] = count
            out.append(entry)
        with self._lock:
            self._extra_images = extra
        return {"record": str(record), "version_from": changes.version_from, "version_to": changes.version_to,
                "cards": out, "take_out": [x.as_dict() for x in changes.take_out if x.why != "changed"]}

    def _pictures_of(self, faces: DeckFaces | None) -> dict[str, Any]:
        from cardforge.render.cards.faces import faces_pdf, rasterise

        if faces is None or not faces.fronts:
            return {}
        faces.art.templates_digest = self.art.templates_digest if self.art else ""  # the stamps, as built
        pdf = faces_pdf(faces, faces.fronts)
        sizes = [f.pixels(self.dpi, faces.bleed_mm) for f in faces.fronts]
        return {f.name: im for f, im in zip(faces.fronts, rasterise(pdf, sizes))}


def _share_layout_problems(art: CardArt, todo: list[Face], problems: dict[str, list[Problem]]) -> None:
    """A problem of a layout's shared part (a frame drawn once, then reused by every face of the
    layout) is found drawing the first face: it goes on every face drawn with that layout."""
    def layout_of(face: Face) -> str:
        card = face.card
        if face.side == "front":
            return art.front_layout_name(card.kind)
        other = art.back_face(card)
        return art.front_layout_name(other.kind) if other is not None else art.back_layout_name(art.back_id(card))

    shared: dict[str, list[Problem]] = {}
    for face in todo:
        for p in problems[face.name]:
            if p.item is not None and p.item.startswith("layout '"):
                shared.setdefault(layout_of(face), []).append(p)
    if shared:
        for face in todo:
            mine = problems[face.name]
            mine += [p for p in shared.get(layout_of(face), []) if p not in mine]


def _shown(prog: Any, ctx: dict[str, Any]) -> bool:
    """Whether the painter draws the box on a face of this context (its ``when:``)."""
    from cardforge.text.templating import TemplateError, is_true

    if prog.when is None:
        return True
    try:
        return bool(is_true(prog.when, ctx))
    except TemplateError:  # the painter reports it on the face; the box is shown where it would be
        return True


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\x00".join(parts).encode("utf-8"), digest_size=12).hexdigest()


def _encode(image: Any, dpi: float) -> bytes:
    from cardforge.render.cards.faces import save_png

    buf = io.BytesIO()
    save_png(image.convert("RGB"), buf, dpi, PNG_LEVEL)
    return buf.getvalue()


def _keep(store: dict[str, bytes], png: bytes) -> str:
    digest = hashlib.blake2b(png, digest_size=10).hexdigest()
    store[digest] = png
    return f"/img/{digest}.png"


def _highlight(old: Any, new: Any) -> tuple[Any, int]:
    """The new picture greyed and lightened, every pixel that differs from the old one in red;
    the number of such pixels. Pictures of different sizes: every pixel differs."""
    from PIL import Image, ImageChops

    if old.size != new.size:
        return Image.new("RGB", new.size, (220, 0, 0)), new.size[0] * new.size[1]
    changed = ImageChops.difference(old.convert("RGB"), new.convert("RGB")).convert("L").point(
        lambda v: 255 if v > 24 else 0)
    count = changed.histogram()[255]
    base = Image.blend(new.convert("L").convert("RGB"), Image.new("RGB", new.size, (255, 255, 255)), 0.6)
    base.paste(Image.new("RGB", new.size, (220, 0, 0)), mask=changed)
    return base, count
