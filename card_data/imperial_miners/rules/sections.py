"""Imperial Miners' data files besides the template deck (``card_data/imperial_miners/``).

The published game's 136 mine cards and 18 events are not reprinted: these sections hold
what a table companion prints (setup sheet, player aids, score pad) and what setup and
scoring read (events, colours, progress boards, solo grades).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from cardforge.data.loading import Section
from cardforge.data.models import Entry, Model, Slug
from cardforge.data.printables import IconName  # a built-in icon or the game's own (the loader's context)

#: the four mine-card levels, as printed on the cards
Numeral = Literal["I", "II", "III", "IV"]
NUMERALS: tuple[str, ...] = ("I", "II", "III", "IV")


Text = Annotated[str, Field(min_length=1)]


class ComponentPart(Model):
    """One sort of a component: 'pièces d'or', 'cartes II'…"""

    id: Slug
    name: Text
    count: int = Field(ge=1)
    value: int | None = Field(None, ge=1)  # face value of coins and VP tokens
    level: Numeral | None = None  # mine cards: the level of this part


class Component(Entry):
    """An item of the box inventory (rulebook, « Matériel »)."""

    name: Text  # French, plural as on the inventory: "jetons Pièce"
    count: int = Field(ge=1)
    parts: list[ComponentPart] = Field(default_factory=list)
    double_sided: bool = False
    icon: IconName | None = None


class Level(Entry):
    """A mine-card level: what it costs and how its deck is drawn."""

    numeral: Numeral
    cost_min: int = Field(ge=0)
    cost_max: int = Field(ge=0)
    drawable: bool  # « piochez-les … dans un paquet Mine de n'importe quel niveau (sauf IV) »
    identical: bool = False  # « Toutes les cartes IV sont identiques »


class Faction(Entry):
    """One of the six factions and what its cards favour."""

    name: Text
    icon: IconName
    motto: Text  # the rulebook's one-liner: « Ça va coûter cher en :coin: ! »
    favours: Text  # a short French summary for the aid
    text: Text  # the rulebook's paragraph
    flavour: Text  # the rulebook's italic flavour text


class AnatomyPart(Entry):
    """A numbered part of a mine card (rulebook, « Aperçu d'une carte Mine »)."""

    number: int = Field(ge=1)
    name: Text
    text: Text


class LegendEntry(Entry):
    """An icon of the player aid's legend: the icon, its French label and meaning."""

    icon: IconName
    label: Text
    text: Text


class Board(Entry):
    """A board type as far as the rulebook describes it. (``boards.yaml`` is left free for the
    printable board blanks, cardforge.data.printables.)"""

    name: Text
    count: int = Field(ge=1)
    sides: list[Text] = Field(min_length=1, max_length=2)  # ["recto", "verso"] when double-sided
    choices: int | None = Field(None, ge=1)  # effects offered to choose from (surface board: 3)
    rules: list[Text] = Field(min_length=1)  # what the rulebook says of it, in French


class Colour(Entry):
    """A player colour: a surface board and the progress marker of the same colour."""

    name: Text


EventType = Literal["immediat", "special", "fin-de-manche"]


class Event(Entry):
    """An event card. The rulebook names none: placeholders until copied from the cards."""

    number: int = Field(ge=1)
    name: Text
    type: EventType | None = None  # None: not known yet
    text: str = ""


class Phase(Entry):
    """A step of a round or of the end of the game, for the round-structure aid."""

    name: Text
    text: Text


class Grade(Entry):
    """A solo grade: final scores from ``min`` to ``max`` (None: no upper bound)."""

    name: Text
    min: int = Field(0, ge=0)
    max: int | None = Field(None, ge=0)

    @property
    def span(self) -> str:
        if self.max is None:
            return f">{self.min - 1}"
        if self.min == 0:
            return f"<{self.max + 1}"
        return f"{self.min}–{self.max}"


SECTIONS: tuple[Section, ...] = (
    Section("components", "components.yaml", Component, key="components", item="component"),
    Section("levels", "levels.yaml", Level, key="levels", item="level"),
    Section("factions", "factions.yaml", Faction, key="factions", item="faction"),
    Section("card_parts", "anatomy.yaml", AnatomyPart, key="anatomy", item="part"),
    Section("icons", "legend.yaml", LegendEntry, key="legend", item="icon"),
    Section("board_rules", "board_rules.yaml", Board, key="boards", item="board"),
    Section("colours", "colours.yaml", Colour, key="colours", item="colour"),
    Section("events", "events.yaml", Event, key="events", item="event"),
    Section("phases", "round.yaml", Phase, key="phases", item="phase"),
    Section("grades", "solo_grades.yaml", Grade, key="grades", item="grade"),
)
