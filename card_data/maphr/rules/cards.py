"""Card models of Les Mines de Maphr: the five card types of the draw pile.

The rulebook's «galeries et filons» are two kinds here (``gallery``, ``vein``) because a vein
prints an ore and a richness a plain gallery does not have. Each model holds what its card
prints (French name and texts with ``:icon:`` tokens, values) and what the rules engine needs.
Enumerated values are English ids (the icon names of ``card_data/maphr/icons/`` for ores, colours
and actions, whose legends give the French words).
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field, ValidationInfo, field_validator

from cardforge.data.models import CardBase

Shape = Literal["straight", "corner", "tee", "cross", "dead-end"]
Ore = Literal["coal", "gold", "mithril"]
Colour = Literal["blue", "green", "yellow", "red", "grey"]
Action = Literal["prospect", "exploit", "build"]
Caravan = Literal["drow", "orc", "human", "elf"]

#: Colours and actions in the order the rules list them (French words: the icons' titles, ``card_data/maphr/icons/``).
COLOURS: tuple[str, ...] = get_args(Colour)
ACTIONS: tuple[str, ...] = get_args(Action)
ROMAN: dict[int, str] = {1: "I", 2: "II", 3: "III", 4: "IV"}

#: Coins one unit of each ore yields when mined (rulebook, «Exploiter»): coal 1/2/3, gold
#: 2/4/6, mithril 5/10 for a simple/double/triple vein. The end-game count uses the same values.
ORE_VALUE: dict[str, int] = {"coal": 1, "gold": 2, "mithril": 5}
#: The richest vein of each ore («le mithril, simple ou double»).
MAX_VEIN_SIZE: dict[str, int] = {"coal": 3, "gold": 3, "mithril": 2}


class Gallery(CardBase):
    """A «galerie»: a tunnel of one shape, placed in front of the mine entrance. No ore."""

    kind: Literal["gallery"]
    shape: Shape


class Vein(CardBase):
    """A «filon»: a tunnel holding ``size`` units of ore (1 simple, 2 double, 3 triple)."""

    kind: Literal["vein"]
    ore: Ore
    size: int = Field(ge=1, le=3)
    shape: Shape

    @field_validator("size")
    @classmethod
    def _fits_ore(cls, value: int, info: ValidationInfo) -> int:
        ore = info.data.get("ore")
        if ore is not None and value > MAX_VEIN_SIZE[ore]:
            words = "simple or double" if MAX_VEIN_SIZE[ore] == 2 else "simple, double or triple"
            raise ValueError(f"a {ore} vein is {words} (size 1–{MAX_VEIN_SIZE[ore]}), got {value}")
        return value

    @property
    def yield_coins(self) -> int:
        return ORE_VALUE[self.ore] * self.size


class Improvement(CardBase):
    """An «aménagement»: built next to the clan board for ``cost`` coins from mine ``level``
    on; scores ``vp`` and its colour. ``effect``: what it always does; ``action``: the
    «Action :» text used in phase III. Each card has one or both."""

    kind: Literal["improvement"]
    colour: Colour
    level: int = Field(ge=1, le=4)
    cost: int = Field(ge=0)
    vp: int = Field(ge=0)
    effect: str | None = Field(None, min_length=1)
    action: str | None = Field(None, min_length=1, validate_default=True)

    @field_validator("action")
    @classmethod
    def _prints_a_text(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and "effect" in info.data and info.data["effect"] is None:
            raise ValueError("an improvement prints an effect, an action or both; give effect: or action:")
        return value

    @property
    def level_roman(self) -> str:
        return ROMAN[self.level]


class Contract(CardBase):
    """A «contrat» (coin logo): played at once at the end of the draw phase. ``caravan``: the
    people of a caravan contract; ``kept``: the card stays by the clan board once accepted."""

    kind: Literal["contract"]
    text: str = Field(min_length=1)
    caravan: Caravan | None = None
    kept: bool = False


class Catastrophe(CardBase):
    """A «catastrophe» (explosion logo): played at once at the end of the draw phase."""

    kind: Literal["catastrophe"]
    text: str = Field(min_length=1)


class Impediment(CardBase):
    """An «empêchement» (cross logo): kept in hand, thrown at a player who reveals ``action``."""

    kind: Literal["impediment"]
    action: Action
    text: str = Field(min_length=1)


#: every card of the game's deck (``GameData[MaphrCard]``: its rules read their cards' fields)
MaphrCard = Gallery | Vein | Improvement | Contract | Catastrophe | Impediment

CARD_MODELS: dict[str, type[CardBase]] = {
    "gallery": Gallery,
    "vein": Vein,
    "improvement": Improvement,
    "contract": Contract,
    "catastrophe": Catastrophe,
    "impediment": Impediment,
}

#: Kinds that never stay in a starting hand (rulebook, «Début du jeu»).
IMMEDIATE_KINDS: frozenset[str] = frozenset({"contract", "catastrophe"})
