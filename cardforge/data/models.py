"""Shared data models. Games subclass :class:`CardBase` for their card kinds.

All models forbid unknown fields: a typo in a data file is an error, never ignored.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from cardforge.limits import env_name, limit
from cardforge.paths import name_problem
from cardforge.problems import short_repr
from cardforge.units import parse_length, to_mm

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _check_slug(value: str) -> str:
    if not _SLUG.match(value):
        raise ValueError(
            f"must be a kebab-case id (lowercase letters, digits and single hyphens, "
            f"e.g. 'vieille-pioche'), got {short_repr(value)}"
        )
    return value


Slug = Annotated[str, AfterValidator(_check_slug)]


def _check_card_id(value: str) -> str:
    why = name_problem(value, "card id")  # <id>.png, <id>-back.png: a length every platform takes
    if why is not None:
        raise ValueError(why)
    return value


#: a card's id: kebab-case, and a name its image files can have (``export png``: ``<id>.png``)
CardId = Annotated[str, AfterValidator(_check_slug), AfterValidator(_check_card_id)]
Provenance = Literal["rulebook", "provisional"]


def _length_mm(value: Any) -> float:
    """'63mm' / '6.3cm' / 63 → millimetres (float)."""
    return round(to_mm(parse_length(value)), 4)


LengthMM = Annotated[float, BeforeValidator(_length_mm)]
"""A length written with a unit in the data ('63mm', '1in'; bare numbers are mm), held in mm."""


class Model(BaseModel):
    # defer_build: schemas are built on first validation, so a run served from the data cache
    # (cardforge/data/cache.py) never pays for them.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, defer_build=True)


CARD_SIZE_PRESETS: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "tarot": (70.0, 120.0),
    "mini": (44.0, 63.0),
    "square": (70.0, 70.0),
}


class CardSize(Model):
    """Trim size of a card in millimetres. Written as a preset name (``poker``, ``bridge``,
    ``tarot``, ``mini``, ``square``) or ``{width: 56mm, height: 88mm}``."""

    width: LengthMM = Field(gt=0)
    height: LengthMM = Field(gt=0)
    preset: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _preset(cls, value: Any) -> Any:
        if isinstance(value, str):
            if value not in CARD_SIZE_PRESETS:
                raise ValueError(
                    f"unknown card size {short_repr(value)} (presets: {', '.join(CARD_SIZE_PRESETS)}; "
                    "or give {width: …mm, height: …mm})"
                )
            w, h = CARD_SIZE_PRESETS[value]
            return {"width": w, "height": h, "preset": value}
        return value

    @property
    def label(self) -> str:
        dims = f"{self.width:g}×{self.height:g} mm"
        return f"{self.preset} {dims}" if self.preset else dims


#: the bounds a declared number field's min and max must keep (integers past 2^53 lose digits as floats)
FIELD_BOUND = 10**15


class FieldSpec(Model):
    """A card field declared as data (``kinds: {spell: {fields: {cost: {type: int, min: 0}}}}``).

    Types: ``text`` (card text: markup and icon tokens), ``int``, ``number``, ``bool``,
    ``choice`` (one of ``choices``), ``list`` (of texts). Not ``required``: the field may be
    left out (``default`` then, else nothing)."""

    type: Literal["text", "int", "number", "bool", "choice", "list"] = "text"
    required: bool = False
    default: Any = None
    min: float | None = None
    max: float | None = None
    choices: list[int | str] | None = None
    max_length: int | None = Field(None, ge=1)
    help: str | None = None
    #: the field holds card-text markup (``**bold**``, ``*italics*``, ``<color=…>``); otherwise
    #: its text prints as written (see ``DeckMeta.markup``)
    markup: bool = False

    @field_validator("min", "max")
    @classmethod
    def _bound(cls, value: float | None) -> float | None:
        if value is not None and not (math.isfinite(value) and abs(value) <= FIELD_BOUND):
            raise ValueError(f"must be a finite number between {-FIELD_BOUND:,.0f} and {FIELD_BOUND:,.0f}, "
                             f"got {short_repr(value)}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> FieldSpec:
        fractions = [f"{name} {v:g}" for name, v in (("min", self.min), ("max", self.max))
                     if v is not None and v != int(v)]
        if self.type == "int" and fractions:
            raise ValueError(f"min and max of an int field must be whole numbers, got {', '.join(fractions)}")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min:g}) is more than max ({self.max:g})")
        if self.type == "choice" and not self.choices:
            raise ValueError("a choice field needs choices: [...]")
        if self.type != "choice" and self.choices is not None:
            raise ValueError(f"choices: only for type: choice (this field is type: {self.type})")
        if (self.min is not None or self.max is not None) and self.type not in ("int", "number"):
            raise ValueError(f"min/max: only for type: int or number (this field is type: {self.type})")
        if self.markup and self.type not in ("text", "list"):
            raise ValueError(f"markup: only for type: text or list (this field is type: {self.type})")
        return self


class KindSpec(Model):
    """How one card kind is printed: its French label, layout and back design — and, for a
    kind declared in data (no Python model), its fields."""

    label: str  # French, singular: "Aménagement"
    plural: str | None = None
    layout: str | None = None  # layout name in the game's templates/layout.yaml; default: the kind
    back: str | None = None  # a key of DeckMeta.backs; default: "default"
    card_size: CardSize | None = None  # overrides the deck's size for this kind
    #: two-sided cards listed as two entries: the name of a card field holding the id of the
    #: card printed on this card's back (its front face, with its own layout)
    back_face: str | None = None
    #: the kind's own fields, declared as data (every card also has id, kind, name, copies,
    #: provenance, art and back)
    fields: dict[str, FieldSpec] | None = None
    #: the field that is this kind's cards' title (overrides the deck's ``title_field``)
    title_field: str | None = Field(None, min_length=1)
    #: this kind's fields that hold card-text markup (besides the deck's ``markup``)
    markup: list[str] = Field(default_factory=list)
    #: the deck these cards form on a virtual table (``export tts``): kinds naming the same
    #: group share one deck; default: a deck of their own per kind
    group: str | None = Field(None, min_length=1)


def _check_back_colour(value: str) -> str:
    """A back's colour as the card-text markup and layouts take it: ``#rrggbb`` or a palette
    name. Checked with the data, so ``check`` catches what would stop the build."""
    from cardforge.markup import PALETTE, resolve_color

    try:
        resolve_color(value)
    except Exception:
        raise ValueError(f"must be a colour '#rrggbb' or one of {', '.join(PALETTE)}, "
                         f"got {short_repr(value)}") from None
    return value


BackColour = Annotated[str, AfterValidator(_check_back_colour)]


class BackSpec(Model):
    """A card back design (drawn once per sheet side and reused).

    A back layout that reads ``card`` is drawn for each card from its own data instead: the
    back face of a double-sided card (see docs/layouts.md, "Templates")."""

    layout: str = "back"
    title: str | None = None
    colour: BackColour | None = None
    art: str | None = None  # image path relative to the game's data folder, for the back layout
    #: the back's own data (the extra columns of a ``back_files`` row): ``back.<name>`` in layouts
    fields: dict[str, Any] = Field(default_factory=dict)


class CardFile(Model):
    """A card file of ``card_files`` with how to read it (a plain name reads it as it is):
    ``{file: player.csv, kind: player, columns: {Action: name, Qty: copies}}``.

    Declared on the file, not on the kind: a column map describes one file's headers (one file
    may hold several kinds, and two files of one kind may be laid out differently)."""

    file: str = Field(min_length=1)
    #: the kind of the file's cards when no ``kind`` column or sheet named after a kind says
    #: otherwise (a workbook's ``Sheet1``, a CSV not named after its kind)
    kind: str | None = Field(None, min_length=1)
    #: the file's header → the card field it fills (a spreadsheet's own names: ``Action: name``)
    columns: dict[str, str] = Field(default_factory=dict)


def _entry_tag(value: Any) -> str:
    return "dict" if isinstance(value, (dict, CardFile)) else "str"  # (tags validate.py leaves out of locations)


#: a ``card_files`` entry: a name, or a mapping read as :class:`CardFile` (its errors told as such)
CardFileEntry = Annotated[Annotated[str, Tag("str")] | Annotated[CardFile, Tag("dict")], Discriminator(_entry_tag)]


class DeckMeta(Model):
    """``card_data/<game>/deck.yaml``: what the game's deck is made of."""

    title: str
    version: str = Field(min_length=1)
    card_size: CardSize
    #: each a file name, or ``{file: …, kind: …, columns: {header: field}}`` (:class:`CardFile`)
    card_files: list[CardFileEntry] = Field(min_length=1)
    kinds: dict[str, KindSpec] = Field(default_factory=dict)
    backs: dict[str, BackSpec] = Field(default_factory=lambda: {"default": BackSpec()})
    #: tables of back designs, one row per back (``data/backs.py``): Squib's ``card_back.csv``
    back_files: list[str] = Field(default_factory=list)
    provenance: Provenance = "provisional"
    #: cards must say where their text comes from (``provenance``); optional otherwise
    require_provenance: bool = False
    #: the field that is a card's title when it is not ``name`` (a spreadsheet's ``Action``): a
    #: card giving no ``name`` takes it from there, and derived ids come from it. (``title:``
    #: above is the deck's own title.) A kind may name its own (``kinds.<kind>.title_field``).
    title_field: str | None = Field(None, min_length=1)
    #: the card fields (in every kind) that hold card-text markup: ``**bold**``, ``*italics*``,
    #: ``<color=…>``, ``<small>``, ``<br>``, ``\*`` escapes. Card data is text otherwise: a
    #: ``*``, ``<`` or ``\`` in it prints as written (``:icon:`` tokens, checked when the data
    #: loads, stay icons). Templates and layouts keep their markup.
    markup: list[str] = Field(default_factory=list)

    def markup_fields(self, kind: str) -> frozenset[str]:
        """The fields of ``kind``'s cards that hold markup (deck, kind, declared fields)."""
        spec = self.kinds.get(kind)
        own: list[str] = []
        if spec is not None:
            own = list(spec.markup) + [n for n, f in (spec.fields or {}).items() if f.markup]
        return frozenset(self.markup) | frozenset(own)

    @property
    def card_file_names(self) -> list[str]:
        """``card_files`` as file names."""
        return [f if isinstance(f, str) else f.file for f in self.card_files]

    def card_file(self, index: int) -> CardFile:
        """How to read the ``index``-th card file (a plain name: as it is)."""
        entry = self.card_files[index]
        return CardFile(file=entry) if isinstance(entry, str) else entry

    def title_field_of(self, kind: str | None) -> str | None:
        """The field that is a card's title for ``kind`` (None: ``name``)."""
        spec = self.kinds.get(kind) if kind is not None else None
        return (spec.title_field if spec is not None else None) or self.title_field


def check_copies(value: int) -> int:
    """``copies:`` of a card, board or aid: at most the ``copies`` limit."""
    most = limit("copies")
    if value > most:
        raise ValueError(f"must be ≤ {most:,} (set {env_name('copies')} to allow more), got {short_repr(value)}")
    return value


Copies = Annotated[int, Field(ge=0), AfterValidator(check_copies)]


class CardBase(Model):
    """Fields every card has. A game's card kinds subclass this and fix ``kind``."""

    kind_label: ClassVar[str] = ""

    id: CardId
    kind: str
    name: str = Field(min_length=1)
    copies: Copies = 1  # 0 keeps the card in the data but out of the print
    provenance: Provenance | None = None  # required when deck.yaml says require_provenance: true
    art: str | None = None  # image path relative to the game's data folder
    back: str | None = None  # a back design from deck.yaml, overriding the kind's


class Entry(Model):
    """A non-card entry with an id and a provenance (board, clan, aid...)."""

    id: Slug
    provenance: Provenance
