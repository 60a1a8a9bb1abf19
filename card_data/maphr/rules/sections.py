"""Maphr's data files besides the cards: clans, mine levels, the draw-mode die, components.

Each is a list of entries with an ``id`` and a ``provenance`` (see ``card_data/maphr/``); a
later task prints the clans as clan boards and the tables as player aids, so every text here
is the French that will be printed.
"""

from __future__ import annotations

from pydantic import Field

from cardforge.data.loading import Section
from cardforge.data.models import Entry, Model, Provenance


class Clan(Entry):
    """A dwarf clan and its board. ``grey``: a grey-dwarf clan (2 fewer galleries to finish).
    ``provenance`` is the clan's (name, city); ``power_provenance`` its power's."""

    name: str = Field(min_length=1)
    city: str | None = None
    grey: bool = False
    power: str = Field(min_length=1)
    power_provenance: Provenance


class LevelOption(Model):
    """One way to reach a mine level: pay ``cost`` coins and meet ``condition``."""

    cost: int = Field(ge=0)
    condition: str = Field(min_length=1)


class MineLevel(Entry):
    """A row of the mine-level table printed on every clan board."""

    level: int = Field(ge=1, le=4)
    roman: str = Field(min_length=1)
    options: list[LevelOption]  # empty: every mine starts at this level
    capacity: int = Field(ge=1)  # galleries and veins the mine may hold
    max_miners: int = Field(ge=1)
    second_action_discard: int = Field(ge=0)  # cards discarded for a second action
    draw_six_cards: int = Field(ge=1)  # cards drawn when the draw die shows 6


class DrawMode(Entry):
    """A face of the draw die: the way cards are drawn this turn."""

    face: int = Field(ge=1, le=6)
    name: str = Field(min_length=1)
    text: str = Field(min_length=1)


class Component(Entry):
    """A line of the box contents. ``value``: a coin's face value; ``colours``: pawn colours."""

    name: str = Field(min_length=1)
    count: int = Field(ge=1)
    value: int | None = Field(None, ge=1)
    colours: list[str] | None = None


SECTIONS: tuple[Section, ...] = (
    Section("clans", "clans.yaml", Clan, key="clans", item="clan"),
    Section("mine_levels", "mine_levels.yaml", MineLevel, key="mine_levels", item="mine level"),
    Section("draw_modes", "draw_modes.yaml", DrawMode, key="draw_modes", item="draw mode"),
    Section("components", "components.yaml", Component, key="components", item="component"),
)
