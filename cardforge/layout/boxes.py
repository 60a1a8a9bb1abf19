"""Card layouts: the ``layout.yaml`` format, ``extends:`` inheritance and box geometry.

Pure: no ReportLab, no jinja2. Templates and colours inside boxes are strings here; the
renderer compiles them. The format is documented in DEVELOPING.md ("Layouts and templates").

A layout is looked up by name in the game folder's ``templates/layout.yaml`` first, then in
the shared ``templates/_shared/layout.yaml`` (``render/decks.py``'s ``template_folders``).
Box positions are millimetres from the top-left corner of the card's trim box, y pointing
down (as a designer measures a card); :func:`box_rect` turns them into a rectangle in PDF
orientation.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from cardforge.data.models import Model
from cardforge.data.validate import validate
from cardforge.data.yamlio import YamlDoc, read_yaml
from cardforge.layout.geometry import EPS, Rect
from cardforge.problems import Problem
from cardforge.units import check_points, parse_length, to_mm

if TYPE_CHECKING:
    from cardforge.games.base import Game

LAYOUT_FILE = "layout.yaml"
SHARED = "_shared"
BOX_TYPES = ("rect", "ellipse", "text", "art", "icon", "stamp")
DEFAULT_SAFE_ZONE_MM = 3.0


def _signed_mm(value: Any) -> float:
    return round(to_mm(parse_length(value, allow_negative=True)), 4)


def _mm(value: Any) -> float:
    return round(to_mm(parse_length(value)), 4)


def _points(value: float) -> float:
    return check_points(float(value), value)


Points = Annotated[float, AfterValidator(_points)]
"""A size in points (a stroke, a text size), bounded like any length (``length_mm``)."""
SignedMM = Annotated[float, BeforeValidator(_signed_mm)]
"""A length that may be negative (a box starting in the bleed): '-3mm', -3 (mm)."""
MM = Annotated[float, BeforeValidator(_mm)]


class StyleSpec(Model):
    """How a text box sets its text. Sizes in points; every field optional (inherited)."""

    size: Points | None = Field(None, gt=0)
    min_size: Points | None = Field(None, gt=0)
    leading: float | None = Field(None, gt=0)
    family: str | None = None
    colour: str | None = None
    align: Literal["left", "center", "right", "justify"] | None = None
    valign: Literal["top", "middle", "bottom"] | None = None
    bold: bool | None = None
    italic: bool | None = None
    paragraph_gap: float | None = Field(None, ge=0)


class BoxSpec(Model):
    """One box of a layout as written in a file; every field optional so a layout that
    ``extends`` another can change one field of an inherited box."""

    type: Literal["rect", "ellipse", "text", "art", "icon", "stamp"] | None = None
    x: SignedMM | None = None
    y: SignedMM | None = None
    width: MM | None = None
    height: MM | None = None
    right: SignedMM | None = None
    bottom: SignedMM | None = None
    bleed: bool | None = None
    fill: str | None = None
    stroke: str | None = None
    stroke_width: Points | None = Field(None, ge=0)
    radius: MM | None = None
    padding: MM | None = None
    text: str | None = None
    template: str | None = None
    style: StyleSpec | None = None
    icon: str | None = None
    src: str | None = None
    fit: Literal["cover", "contain"] | None = None
    when: str | None = None
    z: int | None = None
    rotate: Literal[0, 90, 180, 270] | None = None


class LayoutSpec(Model):
    extends: str | None = None
    safe_zone: MM | None = None
    boxes: dict[str, BoxSpec | None] = Field(default_factory=dict)


class _LayoutHead(Model):
    """A layout's own fields, its boxes validated one by one (for precise messages)."""

    extends: str | None = None
    safe_zone: MM | None = None
    boxes: dict[str, Any] = Field(default_factory=dict)


class LayoutFile(Model):
    """``layout.yaml``: shared template variables and named layouts."""

    vars: dict[str, Any] = Field(default_factory=dict)
    layouts: dict[str, LayoutSpec] = Field(default_factory=dict)


class _FileHead(Model):
    vars: dict[str, Any] = Field(default_factory=dict)
    layouts: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _mapping(cls, value: Any) -> Any:
        if value is None:
            return {}
        return value


#: which fields each box type may use, besides position, z, when and the background fields
_TYPE_FIELDS: dict[str, set[str]] = {
    "rect": set(),
    "ellipse": set(),
    "text": {"text", "template", "style", "padding"},
    "art": {"src", "fit"},
    "icon": {"icon", "padding"},
    "stamp": {"style", "padding"},
}
_COMMON = {"type", "x", "y", "width", "height", "right", "bottom", "bleed", "fill", "stroke",
           "stroke_width", "radius", "when", "z", "rotate"}


@dataclass(frozen=True)
class Box:
    """A resolved box: every inherited field merged, type known."""

    name: str
    type: str
    fields: dict[str, Any]  # the fields set (style merged into one dict)
    file: str  # display path of the file that last changed it
    layout: str  # the layout that last changed it
    line: int | None = None
    folder: str = ""  # the folder of that file (pictures of the layout may sit there)

    def get(self, key: str, default: Any = None) -> Any:
        value = self.fields.get(key)
        return default if value is None else value

    @property
    def style(self) -> dict[str, Any]:
        return self.fields.get("style") or {}

    @property
    def z(self) -> int:
        z: int = self.get("z", 0)  # BoxSpec.z: validated an int
        return z


@dataclass(frozen=True)
class Layout:
    """A resolved layout: its boxes in drawing order (by ``z``, then inheritance order)."""

    name: str
    file: str
    safe_zone: float
    boxes: tuple[Box, ...]
    vars: dict[str, Any] = field(default_factory=dict, compare=False)

    @cached_property
    def digest(self) -> str:
        """A fingerprint of everything that decides how the layout prints."""
        blob = json.dumps([self.safe_zone, [(b.name, b.type, b.fields) for b in self.boxes], self.vars],
                          sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.blake2b(blob.encode("utf-8"), digest_size=8).hexdigest()

    def box(self, name: str) -> Box:
        for b in self.boxes:
            if b.name == name:
                return b
        raise KeyError(name)


@dataclass
class _Source:
    folder: Path
    doc: YamlDoc | None
    spec: LayoutFile | None


class LayoutLibrary:
    """The layouts a game can use: its own folder's ``layout.yaml``, then the shared one.

    Problems (syntax, unknown fields, bad ``extends``) are collected in ``problems``; a layout
    that cannot be resolved is reported once and :meth:`get` returns None for it."""

    def __init__(self, folders: list[Path]):
        self.folders = [Path(f) for f in folders]
        self.problems: list[Problem] = []
        self._sources: list[_Source] = []
        self._resolved: dict[str, Layout | None] = {}
        self._done: dict[tuple[str, int], Layout | None] = {}
        for folder in self.folders:
            path = folder / LAYOUT_FILE
            if not path.exists() and not path.is_symlink():
                self._sources.append(_Source(folder, None, None))
                continue
            from cardforge.paths import path_problem  # issue 21: no layout.yaml linked from outside
            from cardforge.resources import display_path

            refused = path_problem(folder, LAYOUT_FILE, "layout file", file=display_path(path))[1]
            if refused is not None:
                self.problems.append(refused)
                self._sources.append(_Source(folder, None, None))
                continue
            doc = read_yaml(path)
            self.problems += doc.problems
            spec = None
            if doc.data is not None:
                spec, p = load_layout_file(doc)
                self.problems += p
            self._sources.append(_Source(folder, doc, spec))

    @classmethod
    def for_game(cls, templates_dir: Path, game_id: str) -> LayoutLibrary:
        return cls([Path(templates_dir) / game_id, Path(templates_dir) / SHARED])

    @property
    def vars(self) -> dict[str, Any]:
        """Template variables: the shared file's, overridden key by key by the game's."""
        out: dict[str, Any] = {}
        for src in reversed(self._sources):
            if src.spec is not None:
                out.update(src.spec.vars)
        return out

    def names(self) -> list[str]:
        seen: list[str] = []
        for src in self._sources:
            if src.spec is not None:
                seen += [n for n in src.spec.layouts if n not in seen]
        return seen

    def has(self, name: str) -> bool:
        return self._find(name, 0) is not None

    def files(self) -> list[str]:
        """The layout files looked in, as shown in messages."""
        from cardforge.resources import display_path

        return [display_path(src.folder / LAYOUT_FILE) for src in self._sources]

    def _find(self, name: str, start: int) -> int | None:
        for i in range(start, len(self._sources)):
            spec = self._sources[i].spec
            if spec is not None and name in spec.layouts:
                return i
        return None

    def get(self, name: str) -> Layout | None:
        """The resolved layout ``name`` (None if unknown or broken; broken ones add problems)."""
        if name not in self._resolved:
            index = self._find(name, 0)
            self._resolved[name] = None if index is None else self._resolve(name, index, [])
        return self._resolved[name]

    def _resolve(self, name: str, index: int, chain: list[tuple[str, int]]) -> Layout | None:
        if (name, index) not in self._done:
            self._done[(name, index)] = self._resolve_once(name, index, chain)
        return self._done[(name, index)]

    def _resolve_once(self, name: str, index: int, chain: list[tuple[str, int]]) -> Layout | None:
        src = self._sources[index]
        assert src.spec is not None and src.doc is not None
        spec = src.spec.layouts[name]
        doc = src.doc
        where = {"file": doc.display, "item": f"layout '{name}'"}
        if (name, index) in chain:
            loop = " → ".join(n for n, _ in chain + [(name, index)])
            self.problems.append(Problem(f"extends: layouts extend each other in a loop ({loop})",
                                         line=doc.line_of(("layouts", name, "extends")), **where))
            return None
        merged: dict[str, dict[str, Any]] = {}
        origin: dict[str, tuple[str, str, int | None, str]] = {}
        safe = DEFAULT_SAFE_ZONE_MM
        if spec.extends is not None:
            # `extends: X` names X in the same file, or further down (the shared file); a layout
            # extending its own name extends the shared layout of that name.
            start = index + 1 if spec.extends == name else index
            parent_index = self._find(spec.extends, start)
            if parent_index is None:
                known = ", ".join(self.names()) or "none"
                self.problems.append(Problem(f"extends: unknown layout '{spec.extends}' (known: {known})",
                                             line=doc.line_of(("layouts", name, "extends")), **where))
                return None
            parent = self._resolve(spec.extends, parent_index, chain + [(name, index)])
            if parent is None:
                return None
            safe = parent.safe_zone
            for b in parent.boxes:
                merged[b.name] = dict(b.fields)
                origin[b.name] = (b.file, b.layout, b.line, b.folder)
        if spec.safe_zone is not None:
            safe = spec.safe_zone
        for box_name, box in spec.boxes.items():
            line = doc.line_of(("layouts", name, "boxes", box_name))
            if box is None:
                merged.pop(box_name, None)
                origin.pop(box_name, None)
                continue
            own = box.model_dump(exclude_none=True)
            base = merged.get(box_name, {})
            style = {**(base.get("style") or {}), **(own.pop("style", None) or {})}
            new = {**base, **own}
            if style:
                new["style"] = style
            merged[box_name] = new
            origin[box_name] = (doc.display, name, line, str(src.folder))
        boxes: list[Box] = []
        ok = True
        for box_name, fields_ in merged.items():
            file, layout_name, line, folder = origin[box_name]
            problems = check_box(box_name, fields_, file=file, layout=name, line=line)
            if problems:
                self.problems += problems
                ok = False
                continue
            boxes.append(Box(box_name, fields_["type"], fields_, file, layout_name, line, folder))
        if not ok:
            return None
        order = {b.name: i for i, b in enumerate(boxes)}
        boxes.sort(key=lambda b: (b.z, order[b.name]))
        return Layout(name, doc.display, safe, tuple(boxes), self.vars)


def load_layout_file(doc: YamlDoc) -> tuple[LayoutFile | None, list[Problem]]:
    """Validate a parsed ``layout.yaml`` level by level, so that every message names the
    exact box and field with the fields allowed there. Broken layouts are left out."""
    check = partial(validate, file=doc.display, line_of=doc.line_of)
    head, problems = check(_FileHead, doc.data if doc.data is not None else {})
    if head is None:
        return None, problems
    layouts: dict[str, LayoutSpec] = {}
    for name, raw in head.layouts.items():
        loc = ("layouts", name)
        item = f"layout '{name}'"
        lhead, p = check(_LayoutHead, raw if raw is not None else {}, item=item, loc_prefix=loc)
        problems += p
        if lhead is None:
            continue
        boxes: dict[str, BoxSpec | None] = {}
        ok = True
        for box_name, braw in lhead.boxes.items():
            if braw is None:
                boxes[box_name] = None
                continue
            bloc = loc + ("boxes", box_name)
            spec, p = check(BoxSpec, braw, item=item, loc_prefix=bloc)
            problems += [_prefixed(x, f"boxes.{box_name}") for x in p]
            if spec is None:
                ok = False
            else:
                boxes[box_name] = spec
        if ok:
            layouts[name] = LayoutSpec(extends=lhead.extends, safe_zone=lhead.safe_zone, boxes=boxes)
    return LayoutFile(vars=head.vars, layouts=layouts), problems


def _prefixed(p: Problem, prefix: str) -> Problem:
    return Problem(p.message, p.file, p.item, f"{prefix}.{p.field}" if p.field else prefix, p.line, p.severity)


def check_box(name: str, fields_: dict[str, Any], *, file: str, layout: str, line: int | None) -> list[Problem]:
    """Type known, fields fitting the type, position not over-determined."""
    problem = partial(Problem, file=file, item=f"layout '{layout}'", line=line)
    kind = fields_.get("type")
    if kind is None:
        return [problem(f"type: required (one of {', '.join(BOX_TYPES)})", field=f"boxes.{name}")]
    problems: list[Problem] = []
    allowed = _COMMON | _TYPE_FIELDS[kind]
    for key in sorted(set(fields_) - allowed):
        problems.append(problem(f"'{key}' is not used by a {kind} box (it uses: "
                                f"{', '.join(sorted(allowed - {'type'}))})", field=f"boxes.{name}.{key}"))
    if kind == "text":
        if ("text" in fields_) == ("template" in fields_):
            problems.append(problem("a text box needs either text: (an inline template) or template: "
                                    "(a .j2 file), not both", field=f"boxes.{name}"))
    if kind == "icon" and "icon" not in fields_:
        problems.append(problem("an icon box needs icon: (an icon name or a template giving one)",
                                field=f"boxes.{name}"))
    for a, b, c in (("x", "width", "right"), ("y", "height", "bottom")):
        if all(k in fields_ for k in (a, b, c)):
            problems.append(problem(f"give at most two of {a}, {b}, {c}", field=f"boxes.{name}"))
    return problems


def frame_size(card_w: float, card_h: float, turn: int | None) -> tuple[float, float]:
    """The card's width and height as seen turned ``turn`` degrees (90 and 270 swap them)."""
    return (card_h, card_w) if turn in (90, 270) else (card_w, card_h)


def frame_matrix(turn: int | None, card_w: float, card_h: float) -> tuple[float, float, float, float, float, float]:
    """The affine map (a, b, c, d, e, f: x' = a·x + c·y + e, y' = b·x + d·y + f) taking a point
    of the frame of the card turned ``turn`` degrees counter-clockwise (y up, origin at that
    frame's bottom-left trim corner) to the upright card's frame. Any unit, as the sizes."""
    if turn == 90:  # the card's right edge on top
        return (0.0, -1.0, 1.0, 0.0, 0.0, card_h)
    if turn == 180:
        return (-1.0, 0.0, 0.0, -1.0, card_w, card_h)
    if turn == 270:  # the card's left edge on top
        return (0.0, 1.0, -1.0, 0.0, card_w, 0.0)
    return (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def box_card_rect(box: Box, card_w: float, card_h: float, bleed: float = 0.0) -> Rect:
    """:func:`box_rect` brought back to the upright card (mm from the trim's bottom-left, y
    up): where a turned box lies on the card as printed."""
    r = box_rect(box, card_w, card_h, bleed)
    a, b, c, d, e, f = frame_matrix(box.fields.get("rotate"), card_w, card_h)
    xs = [a * x + c * y + e for x in (r.x, r.right) for y in (r.y, r.top)]
    ys = [b * x + d * y + f for x in (r.x, r.right) for y in (r.y, r.top)]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def box_rect(box: Box, card_w: float, card_h: float, bleed: float = 0.0) -> Rect:
    """The box in millimetres relative to the trim box's bottom-left corner, y up.

    With ``rotate: 90|180|270`` every measure is taken on the card as seen turned that many
    degrees counter-clockwise (for 90 and 270 the card's width and height swap), and the rect
    is in that frame: :func:`frame_matrix` maps it onto the card, :func:`box_card_rect` gives
    where it lies on the upright card.

    Horizontally: ``x`` (from the left trim edge), ``width`` and ``right`` (inset from the
    right trim edge); two of them fix the box, a missing ``x`` or ``right`` is 0 when only one
    other is given, and no width means "up to the other edge". Same for ``y``/``height``/
    ``bottom`` from the top. With ``bleed: true``, an edge lying on or beyond a trim edge is
    pushed out to the bleed edge, so fills run into the bleed. Raises ValueError when the box
    has no area."""
    turn = box.fields.get("rotate")
    card_w, card_h = frame_size(card_w, card_h, turn)
    x0, x1 = _span(box.fields.get("x"), box.fields.get("width"), box.fields.get("right"), card_w)
    top0, top1 = _span(box.fields.get("y"), box.fields.get("height"), box.fields.get("bottom"), card_h)
    if box.fields.get("bleed"):
        x0 = -bleed if x0 <= EPS else x0
        x1 = card_w + bleed if x1 >= card_w - EPS else x1
        top0 = -bleed if top0 <= EPS else top0
        top1 = card_h + bleed if top1 >= card_h - EPS else top1
    w, h = x1 - x0, top1 - top0
    is_line = box.type in ("rect", "ellipse") and (w > EPS or h > EPS) and box.fields.get("stroke")
    if (w <= EPS or h <= EPS) and not is_line:
        turned = f" (turned {turn}°)" if turn else ""
        raise ValueError(f"resolves to {w:.1f}×{h:.1f} mm on a {card_w:g}×{card_h:g} mm card{turned}: "
                         "a box needs a positive width and height")
    return Rect(x0, card_h - top1, w, h)


def _span(start: float | None, size: float | None, end: float | None, total: float) -> tuple[float, float]:
    if start is None and size is not None and end is not None:
        start = total - end - size
    start = 0.0 if start is None else start
    if size is None:
        size = total - (end or 0.0) - start
    return start, start + size


def template_folders(game: Game | str, templates_dir: Path | None = None) -> list[Path]:
    """Where a game's layouts and ``*.j2`` files are looked up, first match wins:
    ``<dir>/<game>/`` and ``<dir>/_shared/`` (``--templates DIR``), the game folder's own
    ``templates/`` (every shipped game has one, as ``cardforge new`` makes), a
    ``CARDFORGE_TEMPLATES`` folder's ``<game>/`` (unless ``--templates`` is given), then the
    shared ``templates/_shared/`` (or ``CARDFORGE_TEMPLATES``'s) — so a designer's folder may
    hold only their game's layouts. ``game``: a Game, or the id of a game already found."""
    from cardforge.games import loaded_game

    game_id = game if isinstance(game, str) else game.id
    found = loaded_game(game_id) if isinstance(game, str) else game
    from cardforge.resources import templates_root

    shipped = Path(templates_root())
    folders: list[Path] = []
    if templates_dir:
        folders += [Path(templates_dir) / game_id, Path(templates_dir) / SHARED]
    if found is not None and (found.folder / "templates").is_dir():
        folders.append(found.folder / "templates")
    if not templates_dir:
        folders.append(shipped / game_id)
    folders.append(shipped / SHARED)
    out: list[Path] = []
    for f in folders:
        if f.resolve() not in [o.resolve() for o in out]:
            out.append(f)
    return out
