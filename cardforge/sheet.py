"""Score-sheet declarations: how the web sheet asks for one field of a game's final state.

The sheet (``cardforge serve``) reads a game's final-state model: a whole number is a number
input, a ``bool`` a checkbox, a ``Literal`` a choice, a nested model a group of inputs — nothing
to declare. What a type cannot say (these strings are card ids of the deck; this list is a mine
grid; the engine finds the best value of this field) is **declared on the field**, the same way
for every game, and the web renders any declaration without knowing the game:

```python
from cardforge import sheet

class Player(Model):
    name: str = Field(min_length=1)
    relics: list[str] = Field(default_factory=list, json_schema_extra=sheet.cards("relic"))
```

A data-only game declares what each player holds in its ``game.yaml`` (``holdings:``) with the
same models (``relics: {widget: cards, kinds: [relic]}``): there they are also the fields its
final-state file gives and its declared scoring rules read.

The declarations are pydantic models that forbid unknown fields (``game.yaml`` errors are
located like any other field); on a Python model they travel in ``json_schema_extra`` under
``"sheet"``, so ``model_json_schema()`` shows them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator
from pydantic.fields import FieldInfo
from pydantic.json_schema import JsonDict

#: the key of ``json_schema_extra`` that holds a field's declaration
KEY = "sheet"
#: the most columns or rows a grid grows to when its game sets no bound
GRID_BOUND = 30


class Declaration(BaseModel):
    """What every declaration may say: how the input is labelled."""

    # defer_build: a declaration's schema is built when one is first made or read (a game's
    # final-state model uses a few of the twelve; a run that only unpickles a game.yaml none)
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    label: str | None = Field(None, min_length=1, max_length=80)  # default: from the field's name
    help: str | None = Field(None, min_length=1, max_length=200)  # one line beside the label


Kinds = Annotated[list[str], Field(min_length=1, max_length=50)]


class Cards(Declaration):
    """A list of cards of the deck, picked by name; written as card ids.

    ``kinds``: the deck's kinds offered (default: every card). ``inline``: a card that is not in
    the deck may be typed in, with the fields of the list's item model. ``paid``: a card field —
    a card that has it set costs X, and the sheet asks what was paid (``{id: …, paid: N}``)."""

    widget: Literal["cards"] = "cards"
    kinds: Kinds | None = None
    inline: bool = False
    paid: str | None = Field(None, min_length=1, max_length=60)


class Counts(Declaration):
    """How many of each card a player has: ``{card-id: n}``, a counter per card of ``kinds``."""

    widget: Literal["counts"] = "counts"
    kinds: Kinds | None = None
    #: cards of those kinds that are counted elsewhere in the final state (a checkbox of their
    #: own…): the sheet offers no counter for them, as the rules would refuse any count
    exclude: list[str] | None = Field(None, max_length=1000)


class Number(Declaration):
    """A whole number (a data-only game's resources: ``gold: {widget: number}``); default 0."""

    widget: Literal["number"] = "number"
    min: int = Field(0, ge=-1_000_000, le=1_000_000)
    max: int | None = Field(None, ge=-1_000_000, le=1_000_000)

    @model_validator(mode="after")
    def _order(self) -> Number:
        if self.max is not None and self.max < self.min:
            raise ValueError(f"max ({self.max}) is less than min ({self.min})")
        return self


class Section(Declaration):
    """One entry of a data section of the game (``clans.yaml``…), picked by name; written as its id."""

    widget: Literal["section"] = "section"
    section: str = Field(min_length=1, max_length=60)


class SectionList(Declaration):
    """Entries of a data section of the game picked by name, in order (the events played);
    written as their ids."""

    widget: Literal["section_list"] = "section_list"
    section: str = Field(min_length=1, max_length=60)


class Items(Declaration):
    """A list of entries, each asked with the fields of the list's item model (a bonus bought
    with a card: which card, which school, which colour): ``add`` is what the button that adds
    one says (default: "Add")."""

    widget: Literal["items"] = "items"
    add: str | None = Field(None, min_length=1, max_length=60)


class Grid(Declaration):
    """A grid of card places (a mine, a tableau): a list of rows, each a list of cells — a cell
    ``None`` (no card) or a mapping. ``rows`` × ``cols`` are shown; the grid grows to
    ``max_rows`` × ``max_cols`` as the rules allow (default: no more rows; columns up to
    :data:`GRID_BOUND`). ``edges``: the cell's field recording marks on the card's left and
    right edges (``"L"``, ``"R"``, ``"LR"``, ``""``). ``junctions``: the player's field listing
    the tokens placed where two cards of a row meet (``[row, junction]`` pairs). ``edge_name``
    and ``junction_name``: what the sheet calls an edge's mark and a junction's token."""

    widget: Literal["grid"] = "grid"
    rows: int = Field(ge=1, le=GRID_BOUND)
    cols: int = Field(ge=1, le=GRID_BOUND)
    max_rows: int | None = Field(None, ge=1, le=GRID_BOUND)
    max_cols: int | None = Field(None, ge=1, le=GRID_BOUND)
    edges: str | None = Field(None, min_length=1, max_length=60)
    junctions: str | None = Field(None, min_length=1, max_length=60)
    edge_name: str = Field("mark", min_length=1, max_length=40)
    junction_name: str = Field("token", min_length=1, max_length=40)

    @model_validator(mode="after")
    def _bounds(self) -> Grid:
        if self.max_rows is not None and self.max_rows < self.rows:
            raise ValueError(f"max_rows ({self.max_rows}) is less than rows ({self.rows})")
        if self.max_cols is not None and self.max_cols < self.cols:
            raise ValueError(f"max_cols ({self.max_cols}) is less than cols ({self.cols})")
        return self

    @property
    def row_bound(self) -> int:
        return self.max_rows or self.rows

    @property
    def col_bound(self) -> int:
        return self.max_cols or GRID_BOUND


class Rounds(Declaration):
    """The final state is a list of rounds (not a list of players): the players are named once,
    then each round's model is asked ``count`` times."""

    widget: Literal["rounds"] = "rounds"
    count: int = Field(ge=1, le=50)


class Slots(Declaration):
    """A short list of entries asked in fixed places (a round's planet, then its moon): ``count``
    places, fewer for some player counts (``by_players: {2: 1}``); ``names`` are the places'
    names, shown and written by a :class:`SlotName` field. An entry left blank is left out."""

    widget: Literal["slots"] = "slots"
    count: int = Field(ge=1, le=20)
    by_players: dict[int, Annotated[int, Field(ge=0, le=20)]] = Field(default_factory=dict)
    names: list[str] = Field(default_factory=list, max_length=20)

    def count_for(self, players: int) -> int:
        return self.by_players.get(players, self.count)

    def name(self, index: int) -> str:
        if not self.names:
            return f"#{index + 1}"
        return self.names[min(index, len(self.names) - 1)]


class CardKey(Declaration):
    """One card of ``kind``, picked by name, written as its field ``key`` (a printed number).
    ``replaces``: fields of the same entry that a picked card stands for (a planet card gives
    its turns' resources): given with a card, they are left out."""

    widget: Literal["card_key"] = "card_key"
    kind: str = Field(min_length=1, max_length=60)
    key: str = Field("id", min_length=1, max_length=60)
    replaces: list[str] = Field(default_factory=list, max_length=20)


class SlotName(Declaration):
    """Not asked: the name of the entry's place (see :class:`Slots`), written when the entry's
    field ``given_with`` is given."""

    widget: Literal["slot_name"] = "slot_name"
    given_with: str = Field(min_length=1, max_length=60)


class Numbers(Declaration):
    """A list of exactly ``count`` whole numbers (a planet's resources turn by turn); blank
    inputs are 0 once one is filled, and the list is left out when none is."""

    widget: Literal["numbers"] = "numbers"
    count: int = Field(ge=1, le=20)


class PerPlayer(Declaration):
    """A mapping keyed by the players' names (each player's fleet this round): one row per
    player, one input per field of the value's model."""

    widget: Literal["per_player"] = "per_player"


class Skip(Declaration):
    """Not asked on the sheet: the engine chooses the best (a card's options), another field
    says it (a clan says whether it is grey), or it is given in the YAML sheet."""

    widget: Literal["skip"] = "skip"
    why: str = Field(min_length=1, max_length=200)


AnyDeclaration = Annotated[
    Cards | Counts | Number | Section | SectionList | Items | Grid | Rounds | Slots | CardKey | SlotName | Numbers
    | PerPlayer | Skip,
    Field(discriminator="widget"),
]
#: what a data-only game's ``holdings:`` may declare: the fields its scoring rules read
Holding = Annotated[Cards | Counts | Number, Field(discriminator="widget")]



@lru_cache(maxsize=1)
def _adapter() -> TypeAdapter[Any]:
    """The validator of any declaration, built on first use (it builds every declaration's schema)."""
    return TypeAdapter(AnyDeclaration)


def declaration(info: FieldInfo) -> Any:
    """The declaration on a model field (one of this module's models), or None.

    ValueError when the field carries a ``"sheet"`` entry that is not a declaration."""
    extra = info.json_schema_extra
    if not isinstance(extra, dict) or KEY not in extra:
        return None
    return parse(extra[KEY])


def parse(value: Any) -> Any:
    """A declaration from its mapping (``{"widget": "cards", "kinds": ["relic"]}``)."""
    if isinstance(value, Declaration):
        return value
    return _adapter().validate_python(value)


def extra(decl: Declaration) -> JsonDict:
    """``json_schema_extra`` for a field: ``{"sheet": {...}}``."""
    dumped: JsonDict = decl.model_dump(mode="json", exclude_none=True, exclude_defaults=False)
    return {KEY: dumped}


# --- one helper per declaration, for Python final-state models --------------------------------

def cards(*kinds: str, inline: bool = False, paid: str | None = None, label: str | None = None,
          help: str | None = None) -> JsonDict:
    """Card ids of the deck picked by name (of ``kinds``; every card when none is given)."""
    return extra(Cards(kinds=list(kinds) or None, inline=inline, paid=paid, label=label, help=help))


def counts(*kinds: str, exclude: Sequence[str] = (), label: str | None = None, help: str | None = None) -> JsonDict:
    """A counter per card of ``kinds``: ``{card-id: n}`` (none for the cards ``exclude`` names)."""
    return extra(Counts(kinds=list(kinds) or None, exclude=list(exclude) or None, label=label, help=help))


def section(name: str, label: str | None = None, help: str | None = None) -> JsonDict:
    """An entry of the data section ``name``, picked by name."""
    return extra(Section(section=name, label=label, help=help))


def section_list(name: str, label: str | None = None, help: str | None = None) -> JsonDict:
    """Entries of the data section ``name`` picked by name, in order; see :class:`SectionList`."""
    return extra(SectionList(section=name, label=label, help=help))


def items(add: str | None = None, label: str | None = None, help: str | None = None) -> JsonDict:
    """A list of entries asked with the item model's fields; see :class:`Items`."""
    return extra(Items(add=add, label=label, help=help))


def grid(rows: int, cols: int, *, max_rows: int | None = None, max_cols: int | None = None,
         edges: str | None = None, junctions: str | None = None, edge_name: str = "mark",
         junction_name: str = "token", label: str | None = None, help: str | None = None) -> JsonDict:
    """A grid of card places; see :class:`Grid`."""
    return extra(Grid(rows=rows, cols=cols, max_rows=max_rows, max_cols=max_cols, edges=edges,
                      junctions=junctions, edge_name=edge_name, junction_name=junction_name, label=label,
                      help=help))


def rounds(count: int, label: str | None = None, help: str | None = None) -> JsonDict:
    """The final state's rounds, each asked with the list item's model."""
    return extra(Rounds(count=count, label=label, help=help))


def slots(count: int, *, by_players: dict[int, int] | None = None, names: list[str] | None = None,
          label: str | None = None, help: str | None = None) -> JsonDict:
    """Entries in fixed places; see :class:`Slots`."""
    return extra(Slots(count=count, by_players=by_players or {}, names=names or [], label=label, help=help))


def card_key(kind: str, key: str = "id", *, replaces: list[str] | None = None, label: str | None = None,
             help: str | None = None) -> JsonDict:
    """One card of ``kind`` picked by name, written as its field ``key``; see :class:`CardKey`."""
    return extra(CardKey(kind=kind, key=key, replaces=replaces or [], label=label, help=help))


def slot_name(given_with: str) -> JsonDict:
    """The entry's place name, written when ``given_with`` is given."""
    return extra(SlotName(given_with=given_with))


def numbers(count: int, label: str | None = None, help: str | None = None) -> JsonDict:
    """Exactly ``count`` whole numbers."""
    return extra(Numbers(count=count, label=label, help=help))


def per_player(label: str | None = None, help: str | None = None) -> JsonDict:
    """A mapping keyed by the players' names."""
    return extra(PerPlayer(label=label, help=help))


def skip(why: str) -> JsonDict:
    """Not asked on the sheet (the engine decides, another field says it, or the YAML sheet)."""
    return extra(Skip(why=why))
