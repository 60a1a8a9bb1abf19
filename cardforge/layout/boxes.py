"""Card layouts: the ``layout.yaml`` format, ``extends:`` inheritance and box geometry.

Pure: no ReportLab, no jinja2. Templates and colours inside boxes are strings here; the
renderer compiles them. The format is documented in docs/layouts.md.

A layout is looked up by name in the game folder's ``templates/layout.yaml`` first, then in
the shared ``templates/_shared/layout.yaml`` (``render/cards/decks.py``'s ``template_folders``).
Box positions are millimetres from the top-left corner of the card's trim box, y pointing
down (as a designer measures a card); :func:`box_rect` turns them into a rectangle in PDF
orientation.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PrivateAttr,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
    model_validator,
)

from cardforge.data.models import Model
from cardforge.data.validate import validate
from cardforge.data.yamlio import YamlDoc, read_yaml
from cardforge.layout.geometry import EPS, Rect
from cardforge.paths import path_problem
from cardforge.problems import Problem
from cardforge.resources import display_path, templates_root
from cardforge.units import DPI_RANGE, check_points, parse_length, to_mm

if TYPE_CHECKING:
    from cardforge.games.base import Game

LAYOUT_FILE = "layout.yaml"
SHARED = "_shared"
BOX_TYPES = ("rect", "ellipse", "text", "art", "icon", "stamp", "line", "polygon")
#: the most corners a polygon may have
MAX_POLYGON_POINTS = 1000
DEFAULT_SAFE_ZONE_MM = 3.0
#: the most a text style's ``leading`` (× its size) and ``paragraph_gap`` (in lines) may be
MAX_LINES = 10
#: the resolution ``px`` lengths are measured at when a layout does not say (Squib's default)
DEFAULT_DPI = 300

#: Squib's bleed: its standard 825×1125 px poker card is a 2.5×3.5 in card with 1/8 in of bleed
#: all round, and its coordinates are measured from that bleed's corner (``origin: bleed``)
DEFAULT_ORIGIN_BLEED_MM = 3.175

#: the ``dpi`` of the layout being validated (``px`` lengths are converted with it)
_DPI: ContextVar[float] = ContextVar("layout_dpi", default=DEFAULT_DPI)
#: the unit of a bare number in the layout being validated (``units: px`` as Squib, else mm)
_BARE: ContextVar[str] = ContextVar("layout_bare_unit", default="mm")


def _bare(value: Any) -> Any:
    """A bare number in the unit the layout says (``units: px``): Squib's plain pixels."""
    if _BARE.get() == "mm" or isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) or (isinstance(value, str) and re.fullmatch(r"\s*[-+]?[\d.]+\s*", value)):
        return f"{str(value).strip()}{_BARE.get()}"
    return value


def _signed_mm(value: Any) -> float:
    return round(to_mm(parse_length(_bare(value), allow_negative=True, dpi=_DPI.get())), 4)


def _mm(value: Any) -> float:
    return round(to_mm(parse_length(_bare(value), dpi=_DPI.get())), 4)


#: a value relative to the one it extends, as Squib's layout modifiers: ``+= 10``, ``"*= 1.5"``
_RELATIVE = re.compile(r"^\s*([-+*/])=\s*(.*?)\s*$", re.S)
#: the fields a relative value may change (lengths); the positional ones are measured from an
#: origin, so a ``*=`` written from the bleed's corner is turned into one from the trim's
RELATIVE_FIELDS = ("x", "y", "width", "height", "right", "bottom", "x1", "y1", "x2", "y2", "radius",
                   "padding", "stroke_width")
_POSITIONAL = frozenset({"x", "y", "right", "bottom", "x1", "y1", "x2", "y2"})


@dataclass(frozen=True)
class Relative:
    """``+= d``, ``-= d``, ``*= f`` or ``/= f`` as an affine map ``v → v × scale + offset`` (mm,
    from the trim's corner; points for ``stroke_width``), applied to the value the box extends."""

    scale: float
    offset: float
    text: str  # as written, for messages

    def apply(self, value: float) -> float:
        return round(value * self.scale + self.offset, 4)

    def then(self, other: Relative) -> Relative:
        """This, then ``other``."""
        return Relative(self.scale * other.scale, self.offset * other.scale + other.offset,
                        f"{self.text}, then {other.text}")


def parse_relative(key: str, value: str, shift: float) -> Relative:
    """A relative value of field ``key`` (``'+= 10'``, ``'*= 1.5'``) at the dpi and bare unit in
    force; ``shift``: how far the layout's origin lies outside the trim (mm). Raises ValueError
    saying what is allowed."""
    m = _RELATIVE.match(value)
    assert m is not None
    op, amount = m.group(1), m.group(2)
    if op in "+-":
        try:
            if key == "stroke_width":
                delta = float(_unit_points(amount)) if amount[-1:].isalpha() else float(amount)
            else:
                delta = to_mm(parse_length(_bare(_number(amount)), allow_negative=True, dpi=_DPI.get()))
        except ValueError as exc:
            raise ValueError(f"{op}= takes a length ({exc})") from None
        rel = Relative(1.0, round(delta if op == "+" else -delta, 4), value.strip())
    else:
        try:
            factor = float(amount)
        except ValueError:
            raise ValueError(f"{op}= takes a plain number (as in Squib: '*= 1.5', '/= 2'), "
                             f"got {amount!r}") from None
        if not math.isfinite(factor) or (op == "/" and factor == 0) or abs(factor) > 1e6:
            raise ValueError(f"{op}= takes a finite number{' other than 0' if op == '/' else ''} "
                             f"of at most 1,000,000 either way, got {amount!r}")
        rel = Relative(factor if op == "*" else 1.0 / factor, 0.0, value.strip())
    if key in _POSITIONAL and shift:
        # written from the bleed's corner: v_bleed = v_trim + shift; (s·(v+b) + o) − b
        rel = Relative(rel.scale, round(rel.offset + (rel.scale - 1.0) * shift, 4), rel.text)
    return rel


def _number(text: str) -> Any:
    try:
        return float(text)
    except ValueError:
        return text


def merge_fields(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """``own`` over ``base``: its relative values applied to the base's (or composed with a
    relative base value), its ``style`` merged field by field."""
    out = {**base, **own}
    for key, value in own.items():
        if isinstance(value, Relative):
            under = base.get(key)
            if isinstance(under, Relative):
                out[key] = under.then(value)
            elif isinstance(under, (int, float)):
                out[key] = value.apply(float(under))
    style = {**(base.get("style") or {}), **(own.get("style") or {})}
    if style:
        out["style"] = style
    return out


def _unit_points(value: Any) -> Any:
    """A size in points written with a unit ('1.5mm', '6px', '9pt') → points; a bare number
    is already points (text sizes and line widths)."""
    if isinstance(value, str) and value.strip() and value.strip()[-1].isalpha():
        return parse_length(value, dpi=_DPI.get())
    return value


def _points(value: float) -> float:
    return check_points(float(value), value)


Points = Annotated[float, BeforeValidator(_unit_points), AfterValidator(_points)]
"""A size in points (a stroke, a text size; '2px', '1mm' converted), bounded like any length (``length_mm``)."""
Dpi = Annotated[float, Field(ge=DPI_RANGE[0], le=DPI_RANGE[1])]
SignedMM = Annotated[float, BeforeValidator(_signed_mm)]
"""A length that may be negative (a box starting in the bleed): '-3mm', -3 (mm)."""
MM = Annotated[float, BeforeValidator(_mm)]


def is_template_text(value: Any) -> bool:
    """A string holding jinja syntax: a value computed per card (checked once rendered)."""
    return isinstance(value, str) and ("{{" in value or "{%" in value or "{#" in value)


def _or_template(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    return value if is_template_text(value) else handler(value)


#: a style value that may instead be a template (``colour: "{{ card.TextColor }}"``), validated
#: per card once rendered (render/cards/cards.py)
OrTemplate = WrapValidator(_or_template)


class StyleSpec(Model):
    """How a text box sets its text. Sizes in points; every field optional (inherited).
    ``extends``: a named style (the file's ``styles:``) this one starts from."""

    extends: str | None = None
    size: Annotated[Annotated[Points, Field(gt=0)] | None, OrTemplate] = None
    min_size: Annotated[Annotated[Points, Field(gt=0)] | None, OrTemplate] = None
    leading: Annotated[Annotated[float, Field(gt=0, le=MAX_LINES)] | None, OrTemplate] = None  # × size
    family: str | None = None
    colour: str | None = None
    align: Annotated[Literal["left", "center", "right", "justify"] | None, OrTemplate] = None
    valign: Annotated[Literal["top", "middle", "bottom"] | None, OrTemplate] = None
    bold: Annotated[bool | None, OrTemplate] = None
    italic: Annotated[bool | None, OrTemplate] = None
    paragraph_gap: Annotated[Annotated[float, Field(ge=0, le=MAX_LINES)] | None, OrTemplate] = None  # lines
    #: points added to every line's height (Squib's ``spacing``); '1mm', '4px' converted
    line_spacing: Annotated[Annotated[Points, Field(ge=0, le=72)] | None, OrTemplate] = None
    #: ``char``: a word wider than the box is broken between its letters (Squib's ``wrap: char``)
    wrap: Annotated[Literal["word", "char"] | None, OrTemplate] = None


def _style_name(value: Any) -> Any:
    """``style: title`` names a style of the file's ``styles:``: ``{extends: title}``."""
    return {"extends": value} if isinstance(value, str) else value


def _one_or_list(value: Any) -> Any:
    """``extends: a`` is ``extends: [a]``."""
    return [value] if isinstance(value, str) else value


class BoxSpec(Model):
    """One box of a layout as written in a file; every field optional so a layout that
    ``extends`` another can change one field of an inherited box. ``extends``: another box
    of the same layout whose fields this one starts from, or a list of them (later ones win,
    as Squib's)."""

    extends: Annotated[list[str] | None, BeforeValidator(_one_or_list), Field(min_length=1, max_length=32),
                       WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"},
                                                                      "minItems": 1, "maxItems": 32},
                                                 {"type": "null"}]})] = None
    type: Literal["rect", "ellipse", "text", "art", "icon", "stamp", "line", "polygon"] | None = None
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
    style: Annotated[StyleSpec | None, BeforeValidator(_style_name)] = None
    icon: str | None = None
    src: str | None = None
    fit: Literal["cover", "contain"] | None = None
    when: str | None = None
    z: int | None = None
    rotate: Literal[0, 90, 180, 270] | None = None
    x1: SignedMM | None = None
    y1: SignedMM | None = None
    x2: SignedMM | None = None
    y2: SignedMM | None = None
    points: list[tuple[SignedMM, SignedMM]] | None = Field(None, min_length=3, max_length=MAX_POLYGON_POINTS)
    dash: list[Annotated[Points, Field(gt=0)]] | None = Field(None, min_length=1, max_length=16)
    cap: Literal["butt", "round", "square"] | None = None
    #: relative values (``x: += 10``) by field, applied when the box is merged over what it extends
    _relative: dict[str, Relative] = PrivateAttr(default_factory=dict)

    def fields(self) -> dict[str, Any]:
        """The fields set, relative values included."""
        return {**self.model_dump(exclude_none=True, warnings=False), **self._relative}


Origin = Literal["trim", "bleed"]


class LayoutSpec(Model):
    extends: str | None = None
    dpi: Dpi | None = None
    units: Literal["mm", "px"] | None = None
    origin: Origin | None = None
    origin_bleed: MM | None = None
    safe_zone: MM | None = None
    boxes: dict[str, BoxSpec | None] = Field(default_factory=dict)


class _LayoutHead(Model):
    """A layout's own fields, its boxes validated one by one (for precise messages)."""

    extends: str | None = None
    dpi: Dpi | None = None
    units: Literal["mm", "px"] | None = None
    origin: Origin | None = None
    origin_bleed: MM | None = None
    safe_zone: MM | None = None
    boxes: dict[str, Any] = Field(default_factory=dict)


class LayoutFile(Model):
    """``layout.yaml``: shared template variables and named layouts."""

    vars: dict[str, Any] = Field(default_factory=dict)
    dpi: Dpi | None = None
    units: Literal["mm", "px"] | None = None
    origin: Origin | None = None
    origin_bleed: MM | None = None
    styles: dict[str, StyleSpec] = Field(default_factory=dict)
    layouts: dict[str, LayoutSpec] = Field(default_factory=dict)


class _FileHead(Model):
    vars: dict[str, Any] = Field(default_factory=dict)
    dpi: Dpi | None = None
    units: Literal["mm", "px"] | None = None
    origin: Origin | None = None
    origin_bleed: Any = None  # validated at the file's dpi and units
    styles: dict[str, Any] = Field(default_factory=dict)
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
#: a line or polygon is drawn from its own points: none of the box's rectangle
_ALLOWED: dict[str, set[str]] = {
    **{kind: _COMMON | extra for kind, extra in _TYPE_FIELDS.items()},
    "line": {"type", "x1", "y1", "x2", "y2", "stroke", "stroke_width", "dash", "cap", "when", "z", "rotate"},
    "polygon": {"type", "points", "fill", "stroke", "stroke_width", "dash", "when", "z", "rotate"},
}
_ALLOWED["rect"] |= {"dash"}
_ALLOWED["ellipse"] |= {"dash"}


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
    #: its fields as written, before ``extends:`` and named styles were merged in (a layout
    #: extending this one merges into these, so a box extending another follows it)
    written: dict[str, Any] | None = field(default=None, compare=False, repr=False)

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

    @cached_property
    def styles(self) -> dict[str, tuple[dict[str, Any], str, int | None]]:
        """Named styles (``styles:``): the shared file's, overridden name by name by the
        game's; each with the file and line it is written at."""
        out: dict[str, tuple[dict[str, Any], str, int | None]] = {}
        for src in reversed(self._sources):
            if src.spec is not None and src.doc is not None:
                for name, style in src.spec.styles.items():
                    out[name] = (style.model_dump(exclude_none=True, warnings=False), src.doc.display,
                                 src.doc.line_of(("styles", name)))
        return out

    def names(self) -> list[str]:
        seen: list[str] = []
        for src in self._sources:
            if src.spec is not None:
                seen += [n for n in src.spec.layouts if n not in seen]
        return seen

    def has(self, name: str) -> bool:
        return self._find(name, 0) is not None

    def texts_digest(self) -> str:
        """A fingerprint of the layout files' texts (everything a layout of the library reads)."""
        h = hashlib.blake2b(digest_size=10)
        for src in self._sources:
            h.update(b"\0" + (src.doc.text.encode("utf-8") if src.doc is not None else b"-"))
        return h.hexdigest()

    def files(self) -> list[str]:
        """The layout files looked in, as shown in messages."""
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
        doc = src.doc
        if (name, index) in chain:
            loop = " → ".join(n for n, _ in chain + [(name, index)])
            self.problems.append(Problem(f"extends: layouts extend each other in a loop ({loop})",
                                         line=doc.line_of(("layouts", name, "extends")), file=doc.display,
                                         item=f"layout '{name}'"))
            return None
        merged_ = self._merged(name, index, chain)
        if merged_ is None:
            return None
        merged, origin, safe = merged_
        resolved, problems = self._inherit(merged, origin, name)
        if problems:
            self.problems += problems
            return None
        boxes = self._boxes(name, merged, origin, resolved)
        if boxes is None:
            return None
        order = {b.name: i for i, b in enumerate(boxes)}
        boxes.sort(key=lambda b: (b.z, order[b.name]))
        return Layout(name, doc.display, safe, tuple(boxes), self.vars)

    def _merged(self, name: str, index: int, chain: list[tuple[str, int]]
                ) -> tuple[dict[str, dict[str, Any]], dict[str, tuple[str, str, int | None, str]], float] | None:
        """The layout's boxes as written over its parent's (each box's fields, where it was
        written), and its safe zone; None when its parent is unknown or broken (a problem added)."""
        src = self._sources[index]
        assert src.spec is not None and src.doc is not None
        spec = src.spec.layouts[name]
        doc = src.doc
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
                                             line=doc.line_of(("layouts", name, "extends")), file=doc.display,
                                             item=f"layout '{name}'"))
                return None
            parent = self._resolve(spec.extends, parent_index, chain + [(name, index)])
            if parent is None:
                return None
            safe = parent.safe_zone
            for b in parent.boxes:
                merged[b.name] = dict(b.written if b.written is not None else b.fields)
                origin[b.name] = (b.file, b.layout, b.line, b.folder)
        if spec.safe_zone is not None:
            safe = spec.safe_zone
        for box_name, box in spec.boxes.items():
            line = doc.line_of(("layouts", name, "boxes", box_name))
            if box is None:
                merged.pop(box_name, None)
                origin.pop(box_name, None)
                continue
            merged[box_name] = merge_fields(merged.get(box_name, {}), box.fields())
            origin[box_name] = (doc.display, name, line, str(src.folder))
        return merged, origin, safe

    def _boxes(self, name: str, merged: dict[str, dict[str, Any]],
               origin: dict[str, tuple[str, str, int | None, str]], resolved: dict[str, dict[str, Any]]
               ) -> list[Box] | None:
        """The boxes drawn, checked (None when one is wrong: its problems added)."""
        boxes: list[Box] = []
        ok = True
        extended = {p for f in merged.values() for p in _parents(f.get("extends"))}
        for box_name, fields_ in resolved.items():
            file, layout_name, line, folder = origin[box_name]
            if "type" not in fields_ and box_name in extended:
                continue  # a base other boxes extend (Squib's entries that no call draws): not drawn
            if fields_.get("type") in _ALLOWED:  # a shared style's fields this type does not use: not its
                used = _ALLOWED[fields_["type"]] | set(merged[box_name])
                fields_ = {k: v for k, v in fields_.items() if k in used}
            problems = check_box(box_name, fields_, file=file, layout=name, line=line)
            if problems:
                self.problems += problems
                ok = False
                continue
            written = merged[box_name] if merged[box_name] != fields_ else None
            boxes.append(Box(box_name, fields_["type"], fields_, file, layout_name, line, folder, written))
        return boxes if ok else None

    def _inherit(self, merged: dict[str, dict[str, Any]], origin: dict[str, tuple[str, str, int | None, str]],
                 layout: str) -> tuple[dict[str, dict[str, Any]], list[Problem]]:
        """Boxes' ``extends:`` (another box of the layout) and styles' ``extends:`` (a named
        style, ``style: title``) merged in: the result's fields hold neither."""
        boxes = _BoxInheritance(merged, origin, layout)
        problems = boxes.problems
        result: dict[str, dict[str, Any]] = {}
        for box_name in merged:
            fields_ = boxes.box(box_name, [])
            if fields_ is None:
                continue
            loose = sorted(k for k, v in fields_.items() if isinstance(v, Relative))
            if loose:
                for key in loose:
                    problems.append(Problem(f"{fields_[key].text!r} is relative but nothing this box extends "
                                            f"gives {key} a value (extends: a box that sets it, or write a "
                                            "number)", **boxes.where(box_name, key)))
                continue
            style = fields_.get("style") or {}
            if "extends" in style:
                named = self._named_style(style["extends"], [], boxes.where(box_name, "style"), problems)
                if named is None:
                    continue
                fields_ = {**fields_, "style": {**named, **{k: v for k, v in style.items() if k != "extends"}}}
            result[box_name] = fields_
        return result, problems

    def _named_style(self, name: str, chain: list[str], where: dict[str, Any],
                     problems: list[Problem]) -> dict[str, Any] | None:
        """The named style ``name`` with what it extends merged in (None: a problem added)."""
        styles = self.styles
        if name in chain:
            problems.append(Problem(f"styles extend each other in a loop ({' → '.join(chain + [name])})", **where))
            return None
        if name not in styles:
            known = ", ".join(sorted(styles)) or "none: add a styles: mapping to layout.yaml"
            problems.append(Problem(f"unknown style '{name}'{_did_you_mean(name, list(styles))} (known: {known})",
                                    **where))
            return None
        own, file, line = styles[name]
        if "extends" not in own:
            return dict(own)
        parent = self._named_style(own["extends"], chain + [name],
                                   {"file": file, "item": f"style '{name}'", "field": "extends", "line": line},
                                   problems)
        if parent is None:
            return None
        return {**parent, **{k: v for k, v in own.items() if k != "extends"}}


def _parents(extends: Any) -> list[str]:
    """A box's ``extends``: one name or a list of them."""
    if extends is None:
        return []
    return [extends] if isinstance(extends, str) else list(extends)


def _did_you_mean(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def load_layout_file(doc: YamlDoc) -> tuple[LayoutFile | None, list[Problem]]:
    """Validate a parsed ``layout.yaml`` level by level, so that every message names the
    exact box and field with the fields allowed there. Broken layouts are left out.

    Positions are kept in mm from the trim's corner: a layout (or file) written with
    ``origin: bleed`` has ``origin_bleed`` taken off its positions here, and bare numbers of
    one written with ``units: px`` are pixels at its dpi."""
    check = partial(validate, file=doc.display, line_of=doc.line_of)
    head, problems = check(_FileHead, doc.data if doc.data is not None else {})
    if head is None:
        return None, problems
    layouts: dict[str, LayoutSpec] = {}
    file_dpi = head.dpi or DEFAULT_DPI
    file_units = head.units or "mm"
    styles: dict[str, StyleSpec] = {}
    token = _DPI.set(file_dpi)
    unit_token = _BARE.set(file_units)
    try:
        file_bleed = DEFAULT_ORIGIN_BLEED_MM
        if head.origin_bleed is not None:
            try:
                file_bleed = _mm(head.origin_bleed)
            except ValueError as exc:
                problems.append(Problem(f"origin_bleed: {exc}", file=doc.display, field="origin_bleed",
                                        line=doc.line_of(("origin_bleed",))))
        for name, raw in head.styles.items():
            style, p = check(StyleSpec, _style_name(raw) if raw is not None else {}, item=f"style '{name}'",
                             loc_prefix=("styles", name))
            problems += p
            if style is not None:
                styles[name] = style
    finally:
        _BARE.reset(unit_token)
        _DPI.reset(token)
    for name, raw in head.layouts.items():
        loc = ("layouts", name)
        item = f"layout '{name}'"
        token = _DPI.set(file_dpi)
        unit_token = _BARE.set(file_units)
        try:
            lhead, p = check(_LayoutHead, raw if raw is not None else {}, item=item, loc_prefix=loc)
            if lhead is not None and ((lhead.dpi is not None and lhead.dpi != file_dpi)
                                      or (lhead.units is not None and lhead.units != file_units)):
                _DPI.set(lhead.dpi or file_dpi)  # its own dpi and units: the head again (a safe_zone in px)
                _BARE.set(lhead.units or file_units)
                lhead, p = check(_LayoutHead, raw, item=item, loc_prefix=loc)
            problems += p
            if lhead is None:
                continue
            origin = lhead.origin or head.origin or "trim"
            bleed = lhead.origin_bleed if lhead.origin_bleed is not None else file_bleed
            spec = _layout_boxes(lhead, loc, item, check, problems, doc, bleed if origin == "bleed" else 0.0)
        finally:
            _BARE.reset(unit_token)
            _DPI.reset(token)
        if spec is not None:
            layouts[name] = spec
    return LayoutFile(vars=head.vars, dpi=head.dpi, units=head.units, origin=head.origin, styles=styles,
                      layouts=layouts), problems


def _layout_boxes(lhead: _LayoutHead, loc: tuple[str, ...], item: str, check: Any,
                  problems: list[Problem], doc: YamlDoc, shift: float) -> LayoutSpec | None:
    """A layout's boxes validated one by one (``px`` at the dpi in force); None if one is broken.
    ``shift``: how far the layout's origin lies outside the trim (mm), taken off its positions."""
    boxes: dict[str, BoxSpec | None] = {}
    ok = True
    for box_name, braw in lhead.boxes.items():
        if braw is None:
            boxes[box_name] = None
            continue
        bloc = loc + ("boxes", box_name)
        relative: dict[str, Relative] = {}
        if isinstance(braw, dict):
            braw = dict(braw)
            for key, value in list(braw.items()):
                if not (isinstance(value, str) and _RELATIVE.match(value)):
                    continue
                where = partial(Problem, file=doc.display, item=item, field=f"boxes.{box_name}.{key}",
                                line=doc.line_of(bloc + (key,)))
                del braw[key]
                if key not in RELATIVE_FIELDS:
                    problems.append(where(f"{value.strip()!r} is a relative value (+=, -=, *=, /=), "
                                          f"allowed only for {', '.join(RELATIVE_FIELDS)}"))
                    ok = False
                    continue
                try:
                    relative[key] = parse_relative(key, value, shift)
                except ValueError as exc:
                    problems.append(where(str(exc)))
                    ok = False
        spec, p = check(BoxSpec, braw, item=item, loc_prefix=bloc)
        problems += [_prefixed(x, f"boxes.{box_name}") for x in p]
        if spec is None:
            ok = False
        else:
            if shift:
                spec = _shifted(spec, shift)
            spec._relative = relative
            boxes[box_name] = spec
    if not ok:
        return None
    # constructed, not validated again: its lengths are mm already (not pixels of ``units: px``)
    return LayoutSpec.model_construct(extends=lhead.extends, dpi=lhead.dpi, units=lhead.units,
                                      origin=lhead.origin, origin_bleed=lhead.origin_bleed,
                                      safe_zone=lhead.safe_zone, boxes=boxes)


def _shifted(spec: BoxSpec, shift: float) -> BoxSpec:
    """A box written from the bleed's corner, measured from the trim's: ``shift`` mm less on
    every position (``right``/``bottom`` are insets from the bleed's edges)."""
    update: dict[str, Any] = {}
    for key in _POSITIONAL:
        value = getattr(spec, key)
        if value is not None:
            update[key] = round(value - shift, 4)
    if spec.points is not None:
        update["points"] = [(round(x - shift, 4), round(y - shift, 4)) for x, y in spec.points]
    return spec.model_copy(update=update)


def _prefixed(p: Problem, prefix: str) -> Problem:
    return Problem(p.message, p.file, p.item, f"{prefix}.{p.field}" if p.field else prefix, p.line, p.severity)


def check_box(name: str, fields_: dict[str, Any], *, file: str, layout: str, line: int | None) -> list[Problem]:
    """Type known, fields fitting the type, position not over-determined."""
    problem = partial(Problem, file=file, item=f"layout '{layout}'", line=line)
    kind = fields_.get("type")
    if kind is None:
        return [problem(f"type: required (one of {', '.join(BOX_TYPES)})", field=f"boxes.{name}")]
    problems: list[Problem] = []
    allowed = _ALLOWED[kind]
    for key in sorted(set(fields_) - allowed):
        problems.append(problem(f"'{key}' is not used by a {kind} box (it uses: "
                                f"{', '.join(sorted(allowed - {'type'}))})", field=f"boxes.{name}.{key}"))
    if kind == "text":
        if ("text" in fields_) == ("template" in fields_):
            problems.append(problem("a text box needs either text: (an inline template) or template: "
                                    "(a .j2 file), not both", field=f"boxes.{name}"))
    if kind == "line" and any(k not in fields_ for k in ("x1", "y1", "x2", "y2")):
        missing = ", ".join(k for k in ("x1", "y1", "x2", "y2") if k not in fields_)
        problems.append(problem(f"a line needs x1, y1, x2 and y2 (its two ends; missing: {missing})",
                                field=f"boxes.{name}"))
    if kind == "polygon":
        if "points" not in fields_:
            problems.append(problem("a polygon needs points: (at least 3 [x, y] corners)", field=f"boxes.{name}"))
        if "fill" not in fields_ and "stroke" not in fields_:
            problems.append(problem("a polygon needs fill: or stroke: (else nothing is drawn)",
                                    field=f"boxes.{name}"))
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
    if box.type in ("line", "polygon"):  # the rectangle around its points (it may be flat)
        pts = box_points(box)
        xs, tops = [p[0] for p in pts], [p[1] for p in pts]
        return Rect(min(xs), card_h - max(tops), max(xs) - min(xs), max(tops) - min(tops))
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


def box_points(box: Box) -> list[tuple[float, float]]:
    """A line's two ends or a polygon's corners, mm from the trim's top-left, y down (as written)."""
    if box.type == "line":
        f = box.fields
        return [(f["x1"], f["y1"]), (f["x2"], f["y2"])]
    return [(float(x), float(y)) for x, y in box.fields["points"]]


def _span(start: float | None, size: float | None, end: float | None, total: float) -> tuple[float, float]:
    if start is None and size is not None and end is not None:
        start = total - end - size
    start = 0.0 if start is None else start
    if size is None:
        size = total - (end or 0.0) - start
    return start, start + size


def template_folders(game: Game, templates_dir: Path | None = None) -> list[Path]:
    """Where a game's layouts and ``*.j2`` files are looked up, first match wins:
    ``<dir>/<game>/`` and ``<dir>/_shared/`` (``--templates DIR``), the game folder's own
    ``templates/`` (every shipped game has one, as ``cardforge new`` makes), a
    ``CARDFORGE_TEMPLATES`` folder's ``<game>/`` (unless ``--templates`` is given), then the
    shared ``templates/_shared/`` (or ``CARDFORGE_TEMPLATES``'s) — so a designer's folder may
    hold only their game's layouts. ``game``: the game found (never looked up again by its id:
    a designer's copy of a shipped game has the shipped game's id)."""

    game_id = game.id

    shipped = Path(templates_root())
    folders: list[Path] = []
    if templates_dir:
        folders += [Path(templates_dir) / game_id, Path(templates_dir) / SHARED]
    if (game.folder / "templates").is_dir():
        folders.append(game.folder / "templates")
    if not templates_dir:
        folders.append(shipped / game_id)
    folders.append(shipped / SHARED)
    out: list[Path] = []
    for f in folders:
        if f.resolve() not in [o.resolve() for o in out]:
            out.append(f)
    return out


class _BoxInheritance:
    """Boxes' ``extends:`` within one layout: each box's fields with its parents' merged in."""

    def __init__(self, merged: dict[str, dict[str, Any]], origin: dict[str, tuple[str, str, int | None, str]],
                 layout: str) -> None:
        self.merged = merged
        self.origin = origin
        self.layout = layout
        self.problems: list[Problem] = []
        self.done: dict[str, dict[str, Any] | None] = {}

    def where(self, box: str, field_: str) -> dict[str, Any]:
        file, _, line, _ = self.origin[box]
        return {"file": file, "item": f"layout '{self.layout}'", "field": f"boxes.{box}.{field_}", "line": line}

    def box(self, box_name: str, chain: list[str]) -> dict[str, Any] | None:
        """The box's fields with its parents' (None: a problem added)."""
        if box_name in self.done:
            return self.done[box_name]
        merged = self.merged
        own = merged[box_name]
        out: dict[str, Any] | None = {k: v for k, v in own.items() if k != "extends"}
        for parent_name in _parents(own.get("extends")):
            if parent_name in chain + [box_name]:
                loop = " → ".join(chain + [box_name, parent_name])
                self.problems.append(Problem(f"boxes extend each other in a loop ({loop})",
                                             **self.where(box_name, "extends")))
                out = None
                break
            if parent_name not in merged:
                self.problems.append(Problem(f"unknown box '{parent_name}'"
                                             f"{_did_you_mean(parent_name, [n for n in merged if n != box_name])}",
                                             **self.where(box_name, "extends")))
                out = None
                break
            parent = self.box(parent_name, chain + [box_name])
            if parent is None:
                out = None
                break
            # as Squib: each parent in turn under the box's own fields, a later parent's
            # result winning, except a value still relative (that parent lacked the field)
            assert out is not None
            from_parent = merge_fields(parent, {k: v for k, v in own.items() if k != "extends"})
            style = {**(out.get("style") or {}), **(from_parent.get("style") or {})}
            for key, value in from_parent.items():
                if not (isinstance(value, Relative) and key in out and not isinstance(out[key], Relative)):
                    out[key] = value
            if style:
                out["style"] = style
        self.done[box_name] = out
        return out
