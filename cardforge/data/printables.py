"""Boards and player aids: the models of ``boards.yaml`` and ``aids.yaml`` (any game).

A **board** is a sheet-sized component (the build's page, A4/Letter/A5…, or a set size such as
a clan board) made of **zones**: boxes placed on a grid (``cell``), at a position in mm
(``at``), or stacked top to bottom (neither). An **aid** is a card-sized, half-page or
page-sized reference sheet made of **blocks** flowing top to bottom, on one or two sides.

Zones and blocks share one vocabulary of content kinds::

    heading   text (level 1|2)          text      text
    steps     items (numbered; start)   bullets   items
    table     rows (columns, widths)    legend    icons [{icon, label, text}]
    track     start..end or spaces      slots     count (label | labels, per_row, slot)
    generated source (filled from the game's own data by cardforge/games/<id>/printables.py)
    blocks    blocks (zones only: several blocks in one box)

Every text is card-text markup with ``:icon:`` tokens (``cardforge.markup``). The models
are pure data: the renderer (``cardforge.render.sheets.printables``) decides sizes, fonts and fitting.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BeforeValidator, Field, ValidationInfo, field_validator, model_validator

from cardforge.assets import ICON_NAME
from cardforge.data.models import CARD_SIZE_PRESETS, Copies, Entry, LengthMM, Model, Slug, check_copies
from cardforge.icons import ICON_TOKEN, ICONS, icon_label, is_icon, unknown_icon_note
from cardforge.problems import short_repr


def _check_markup(value: str) -> str:
    """The text must parse as card-text markup. Icons other than the built-in ones are left to
    the loader's icon check (which knows the game's own, names the field and suggests the
    closest icon)."""
    from cardforge.markup import MarkupError, parse

    probe = ICON_TOKEN.sub(lambda m: m.group(0) if m.group(1) in ICONS else "?", value)
    try:
        parse(probe)
    except MarkupError as exc:
        raise ValueError(f"bad card-text markup: {exc}") from None
    return value


Markup = Annotated[str, AfterValidator(_check_markup)]
"""French text in card-text markup (``**gras**``, ``*italique*``, ``:coin:``…)."""

_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def _check_colour(value: str) -> str:
    from cardforge.markup import PALETTE

    if value in PALETTE:
        return PALETTE[value]
    if not _HEX.match(value):
        raise ValueError(f"must be a colour '#rrggbb' or one of {', '.join(PALETTE)}, got {short_repr(value)}")
    return value.lower()


Colour = Annotated[str, AfterValidator(_check_colour)]


def _known_icon(name: str, info: ValidationInfo) -> str:
    """A built-in icon or one of the game's own: the loader gives their names in the validation
    context (``{"icons": …}``). Without one (boards and aids a game's ``printables`` hooks build
    in code), any well-formed name passes here: the build checks those against the game's icons
    (``render/sheets/printables.py``)."""
    context = info.context if isinstance(info.context, dict) else None
    if context is None:
        if is_icon(name) or (isinstance(name, str) and ICON_NAME.match(name)):
            return name
    elif is_icon(name, context.get("icons") or ()):
        return name
    extra = (context or {}).get("icons") or frozenset()
    raise ValueError(f"unknown icon {short_repr(name)}{unknown_icon_note(name, extra, token=False)}")


IconName = Annotated[str, AfterValidator(_known_icon)]

# --- sizes ---------------------------------------------------------------------------------

#: Sheet presets in mm, portrait (``landscape: true`` turns them).
SHEET_PRESETS: dict[str, tuple[float, float]] = {
    "a3": (297.0, 420.0),
    "a4": (210.0, 297.0),
    "a5": (148.0, 210.0),
    "a6": (105.0, 148.0),
    "letter": (215.9, 279.4),
}
#: Sizes that depend on the build: the paper's page, half of it (cut across), the game's card.
RELATIVE_SIZES = ("page", "half-page", "card")


def _sheet_size(value: Any) -> Any:
    if isinstance(value, str):
        key = value.strip().lower()
        if key in RELATIVE_SIZES or key in SHEET_PRESETS or key in CARD_SIZE_PRESETS:
            return {"preset": key}
        allowed = ", ".join([*RELATIVE_SIZES, *SHEET_PRESETS, *CARD_SIZE_PRESETS])
        raise ValueError(f"unknown size {short_repr(value)} (allowed: {allowed}; or {{width: …mm, height: …mm}})")
    return value


class SheetSize(Model):
    """A component's trim size: ``page`` (the build's paper), ``half-page``, ``card`` (the
    game's card size from deck.yaml), a preset (``a4``, ``a5``, ``letter``, ``poker``…) or
    ``{width: 190mm, height: 130mm}``."""

    preset: str | None = None
    width: LengthMM | None = Field(None, gt=0)
    height: LengthMM | None = Field(None, gt=0)

    @model_validator(mode="after")
    def _complete(self) -> SheetSize:
        if self.preset is None and (self.width is None or self.height is None):
            raise ValueError("give a preset name or both width and height")
        return self

    def resolve(self, paper_mm: tuple[float, float], card_mm: tuple[float, float],
                landscape: bool = False) -> tuple[float, float]:
        """(width, height) in mm for this build."""
        if self.preset is None:
            assert self.width is not None and self.height is not None  # the validator: a preset or both
            w, h = float(self.width), float(self.height)
            return (max(w, h), min(w, h)) if landscape and h > w else (w, h)
        if self.preset == "page":
            w, h = paper_mm
        elif self.preset == "half-page":  # the page cut across: two per sheet
            w, h = paper_mm[1] / 2, paper_mm[0]
        elif self.preset == "card":
            w, h = card_mm
        elif self.preset in SHEET_PRESETS:
            w, h = SHEET_PRESETS[self.preset]
        else:
            w, h = CARD_SIZE_PRESETS[self.preset]
        if landscape:
            w, h = max(w, h), min(w, h)
        else:
            w, h = min(w, h), max(w, h)
        return w, h

    @property
    def label(self) -> str:
        return self.preset or f"{self.width:g}×{self.height:g} mm"


SizeField = Annotated[SheetSize, BeforeValidator(_sheet_size)]

# --- content: what a zone or a block holds -------------------------------------------------

ContentKind = Literal["heading", "text", "steps", "bullets", "table", "legend", "track", "slots",
                      "generated"]
CONTENT_KINDS: tuple[str, ...] = ("heading", "text", "steps", "bullets", "table", "legend", "track",
                                  "slots", "generated")

#: kind → (required fields, optional fields). ``track`` needs start+end or spaces.
#: the largest relative width of a table column (a share: [1, 2] and [30, 60] are the same)
MAX_RELATIVE_WIDTH = 1_000_000
KIND_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "heading": (("text",), ("level",)),
    "text": (("text",), ()),
    "steps": (("items",), ("start",)),
    "bullets": (("items",), ()),
    "table": (("rows",), ("columns", "widths", "header_column")),
    "legend": (("icons",), ()),
    "track": ((), ("start", "end", "spaces", "notes", "shape", "per_row")),
    "slots": ((), ("count", "label", "labels", "per_row", "slot")),
    "generated": (("source",), ()),
    "blocks": (("blocks",), ()),
}
STYLE_FIELDS = ("size", "align")
CONTENT_FIELDS = tuple(sorted({f for req, opt in KIND_FIELDS.values() for f in (*req, *opt)}))


class LegendItem(Model):
    """One line of an icon legend: the icon, its label (default: the icon's label, see
    :meth:`shown_label`) and what it means."""

    icon: IconName
    label: Markup | None = None
    text: Markup | None = None

    def shown_label(self, files: Mapping[str, Path] | None = None, lang: str = "fr") -> str:
        """The label printed: the one given, else the icon's (``files``: the game's icon files,
        an SVG's ``<title>`` is its label; a built-in icon's name in ``lang``; the icon's name)."""
        if self.label is not None:
            return self.label
        name = icon_label(self.icon, files, lang)
        return name[:1].upper() + name[1:]


class SlotSize(Model):
    width: LengthMM = Field(gt=0)
    height: LengthMM = Field(gt=0)


class Content(Model):
    """Fields of every content kind; ``kind`` says which apply (checked after validation)."""

    kind: str
    # heading / text
    text: Markup | None = None
    level: Literal[1, 2] | None = None
    # steps / bullets
    items: list[Markup] | None = Field(None, min_length=1)
    start: int | None = None  # steps: first number; track: first space
    # table
    columns: list[Markup] | None = Field(None, min_length=1)
    rows: list[list[Markup]] | None = Field(None, min_length=1)
    widths: list[float] | None = Field(None, min_length=1)
    header_column: bool | None = None  # first column set in bold
    # legend
    icons: list[LegendItem] | None = Field(None, min_length=1)
    # track
    end: int | None = None
    spaces: list[Markup] | None = Field(None, min_length=1, max_length=200)
    notes: dict[str, Markup] | None = None
    shape: Literal["row", "column", "grid", "border"] | None = None
    per_row: int | None = Field(None, ge=1)
    # slots
    count: int | None = Field(None, ge=1, le=60)
    label: Markup | None = None
    labels: list[Markup] | None = Field(None, min_length=1)
    slot: SlotSize | None = None
    # generated
    source: Slug | None = None
    # style
    size: float | None = Field(None, ge=4, le=72)  # base text size in pt (shrunk to fit)
    align: Literal["left", "center", "right"] | None = None

    @field_validator("notes", mode="before")
    @classmethod
    def _note_keys(cls, value: Any) -> Any:
        if isinstance(value, dict):
            return {str(k): v for k, v in value.items()}
        return value

    @field_validator("widths")
    @classmethod
    def _positive(cls, value: list[float] | None) -> list[float] | None:
        if value is not None and not all(0 < w <= MAX_RELATIVE_WIDTH for w in value):  # (False for nan)
            raise ValueError(f"column widths are relative and must be > 0 and at most {MAX_RELATIVE_WIDTH:,}, "
                             f"got {short_repr(value)}")
        return value

    @model_validator(mode="after")
    def _fields_fit_kind(self) -> Content:
        kinds = KIND_FIELDS if self.allows_blocks else {k: v for k, v in KIND_FIELDS.items() if k != "blocks"}
        if self.kind not in kinds:
            raise ValueError(f"kind: must be one of {', '.join(kinds)}, got {short_repr(self.kind)}")
        required, optional = kinds[self.kind]
        noun = "zone" if self.allows_blocks else "block"
        missing = [f for f in required if getattr(self, f) is None]
        if missing:
            raise ValueError(f"a {self.kind} {noun} needs {' and '.join(repr(f) for f in missing)}")
        allowed = set(required) | set(optional)
        stray = [f for f in CONTENT_FIELDS if f not in allowed and getattr(self, f, None) is not None]
        if stray:
            fields = ", ".join(sorted(allowed)) or "none"
            raise ValueError(f"{', '.join(repr(f) for f in stray)} not used by a {self.kind} {noun} "
                             f"(its fields: {fields})")
        check = getattr(self, f"_check_{self.kind}", None)
        if check is not None:
            check()
        return self

    allows_blocks: ClassVar[bool] = False

    def _check_table(self) -> None:
        assert self.rows is not None  # a table's required field (checked before its _check_table)
        n = len(self.columns) if self.columns else len(self.rows[0])
        for i, row in enumerate(self.rows or [], start=1):
            if len(row) != n:
                what = f"the {n} columns" if self.columns else f"row 1 ({n} cells)"
                raise ValueError(f"table row {i} has {len(row)} cells, must match {what}")
        if self.widths is not None and len(self.widths) != n:
            raise ValueError(f"widths has {len(self.widths)} values for {n} columns")

    def _check_track(self) -> None:
        if self.spaces is None:
            if self.start is None or self.end is None:
                raise ValueError("a track needs 'start' and 'end' (numbered spaces) or 'spaces' (labels)")
            if self.end < self.start:
                raise ValueError(f"end ({self.end}) must not be below start ({self.start})")
            if self.end - self.start >= 200:
                raise ValueError(f"a track has at most 200 spaces, got {self.end - self.start + 1}")
        elif self.start is not None or self.end is not None:
            raise ValueError("give either 'spaces' or 'start' and 'end', not both")
        for key in self.notes or {}:
            if key not in self.space_labels:
                raise ValueError(f"notes: no space {short_repr(key)} on this track "
                                 f"(spaces {self.space_labels[0]}…{self.space_labels[-1]})")

    def _check_slots(self) -> None:
        if self.count is None and self.labels is None:
            raise ValueError("a slots zone or block needs 'count' (and a 'label' for all) or 'labels' "
                             "(one per slot)")
        if self.count is None and self.labels is not None:  # (one of the two is given, as checked above)
            self.count = len(self.labels)
        if self.labels is not None and self.label is not None:
            raise ValueError("give either 'label' (every slot) or 'labels' (one per slot), not both")
        if self.labels is not None and len(self.labels) != self.count:
            raise ValueError(f"labels has {len(self.labels)} entries for {self.count} slots")

    @property
    def space_labels(self) -> list[str]:
        if self.spaces is not None:
            return list(self.spaces)
        return [str(i) for i in range(self.start or 0, (self.end or 0) + 1)]

    @property
    def slot_labels(self) -> list[str]:
        if self.labels is not None:
            return list(self.labels)
        return [self.label or ""] * (self.count or 0)


class Block(Content):
    """A block of an aid (or of a ``blocks`` zone), in flowing layout."""


class Cell(Model):
    """A zone's place on its board's grid, 1-based: column, row, and how many it spans."""

    col: int = Field(ge=1)
    row: int = Field(ge=1)
    cols: int = Field(1, ge=1)
    rows: int = Field(1, ge=1)


class Box(Model):
    """A zone's place in mm from the board's top-left corner (trim)."""

    x: LengthMM
    y: LengthMM
    width: LengthMM = Field(gt=0)
    height: LengthMM = Field(gt=0)


class Grid(Model):
    columns: int = Field(ge=1, le=48)
    rows: int = Field(ge=1, le=48)
    gap: LengthMM = 3.0


class Zone(Content):
    """A titled box of a board holding one kind of content (or ``blocks``)."""

    allows_blocks: ClassVar[bool] = True

    id: Slug
    title: Markup | None = None
    cell: Cell | None = None
    at: Box | None = None
    height: LengthMM | None = Field(None, gt=0)  # flowing zones: its height (default: a share)
    frame: bool = True
    fill: Colour | None = None
    blocks: list[Block] | None = Field(None, min_length=1)

    @model_validator(mode="after")
    def _one_place(self) -> Zone:
        if self.cell is not None and self.at is not None:
            raise ValueError("give the zone a 'cell' on the grid or an 'at' box, not both")
        if self.height is not None and (self.cell is not None or self.at is not None):
            raise ValueError("'height' is for flowing zones; a placed zone takes its cell's or box's height")
        return self

    @property
    def content(self) -> list[Content]:
        return list(self.blocks or ()) if self.kind == "blocks" else [self]


def _span(what: str, first: int, count: int) -> str:
    return f"{what} {first}" if count == 1 else f"{what}s {first}–{first + count - 1}"


class Board(Entry):
    """``boards.yaml``: a sheet-sized component made of zones."""

    title: Markup
    subtitle: Markup | None = None
    size: SizeField = Field(default_factory=lambda: SheetSize(preset="page"))
    landscape: bool = False
    copies: Copies = 1
    margin: LengthMM = 10.0  # inside the trim: the frame sits at about half of it
    grid: Grid | None = None
    colour: Colour | None = None
    zones: list[Zone] = Field(min_length=1)

    @model_validator(mode="after")
    def _zones_fit_grid(self) -> Board:
        seen: set[str] = set()
        for index, zone in enumerate(self.zones):
            if zone.id in seen:
                raise ValueError(f"zones[{index}]: duplicate zone id '{zone.id}'")
            seen.add(zone.id)
            if zone.cell is not None:
                if self.grid is None:
                    raise ValueError(f"zone '{zone.id}' has a cell but the board has no grid "
                                     "(add grid: {columns: …, rows: …})")
                c = zone.cell
                if c.col + c.cols - 1 > self.grid.columns or c.row + c.rows - 1 > self.grid.rows:
                    raise ValueError(
                        f"zone '{zone.id}': its cell spans {_span('column', c.col, c.cols)} and "
                        f"{_span('row', c.row, c.rows)}, outside the {self.grid.columns}×{self.grid.rows} grid")
            elif zone.at is None and self.grid is not None:
                raise ValueError(f"zone '{zone.id}' needs a 'cell' (or an 'at' box) on a board with a grid")
        return self


class Aid(Entry):
    """``aids.yaml``: a reference sheet, one or two sides of blocks."""

    title: Markup
    back_title: Markup | None = None  # the back side's title (default: the title)
    size: SizeField = Field(default_factory=lambda: SheetSize(preset="half-page"))
    landscape: bool = False
    copies: int | Literal["per-player"] = "per-player"
    colour: Colour | None = None
    front: list[Block] = Field(min_length=1)
    back: list[Block] | None = Field(None, min_length=1)

    @field_validator("copies")
    @classmethod
    def _copies(cls, value: Any) -> Any:
        if isinstance(value, int) and value < 0:
            raise ValueError(f"must be ≥ 0 or 'per-player', got {value}")
        if isinstance(value, int):
            check_copies(value)  # 1,000,000,000 copies of an aid grew a build to 8.9 GB
        return value

    @property
    def double_sided(self) -> bool:
        return self.back is not None

    def printed_copies(self, max_players: int) -> int:
        return max_players if self.copies == "per-player" else int(self.copies)


def build_board(raw: dict[str, Any]) -> Board:
    """A board built in code (a game's ``printables.py``), validated like data."""
    return Board.model_validate(raw)


def build_aid(raw: dict[str, Any]) -> Aid:
    return Aid.model_validate(raw)


def build_blocks(raw: list[dict[str, Any]]) -> list[Block]:
    return [Block.model_validate(b) for b in raw]
