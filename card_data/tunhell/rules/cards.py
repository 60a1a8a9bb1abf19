"""Card models of TunHell: dwarves, mine cards, end-of-mine cards and trophies.

Each model holds what its card prints (values, marks, French effect text) and what the rules
engine needs (where a card goes once drawn). Cross-field rules are field validators, so a
mistake is reported on the field that is wrong, with its line.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, field_validator

from cardforge.data.models import CardBase, Slug

Count = Annotated[int, Field(ge=0)]

DwarfType = Literal["guerrier", "piocheur", "eclaireur", "dynamiteur"]

#: French name of each dwarf type, as printed ("Il existe 4 types de Nain").
DWARF_TYPE_LABELS: dict[str, str] = {
    "guerrier": "Guerrier",
    "piocheur": "Piocheur",
    "eclaireur": "Éclaireur",
    "dynamiteur": "Dynamiteur",
}

#: The values each dwarf type prints (rulebook, "Jouer un Nain"): a Guerrier its combat value,
#: a Piocheur its dig capacity and combat bonus, an Éclaireur how many cards it looks at.
DWARF_VALUES: dict[str, tuple[str, ...]] = {
    "guerrier": ("combat",),
    "piocheur": ("dig", "bonus"),
    "eclaireur": ("explore",),
    "dynamiteur": (),
}

#: Where a mine or end-of-mine card goes once drawn: the player's loot (butin), their hand
#: (the "rejoint la main" symbol), the discard (the Fantôme), or face to a mine (the Porte).
Destination = Literal["loot", "hand", "discard", "mine"]


def with_article(word: str) -> str:
    """English article for messages: 'a guerrier', 'an eclaireur', 'an initiation'."""
    return ("an " if word[0] in "aeiou" else "a ") + word


class Dwarf(CardBase):
    """A «Nain» card. ``played_on_recruit``: the mark of cards that must be played as soon as
    they are recruited; ``proud``: the mark of Guerriers that need nobody (see the rulebook)."""

    kind: Literal["dwarf"]
    type: DwarfType
    combat: Count | None = Field(None, validate_default=True)
    dig: Count | None = Field(None, validate_default=True)
    bonus: Count | None = Field(None, validate_default=True)
    explore: Count | None = Field(None, validate_default=True)
    played_on_recruit: bool = False
    proud: bool = False
    text: str = ""

    @field_validator("combat", "dig", "bonus", "explore")
    @classmethod
    def _value_fits_type(cls, value: int | None, info: ValidationInfo) -> int | None:
        dwarf_type = info.data.get("type")
        if dwarf_type is None:  # the type itself is invalid and reported on its own
            return value
        printed = DWARF_VALUES[dwarf_type]
        wanted = info.field_name in printed
        if wanted and value is None:
            raise ValueError(f"required for {with_article(dwarf_type)} (it prints {', '.join(printed)})")
        if not wanted and value is not None:
            shown = ", ".join(printed) if printed else "no value"
            raise ValueError(f"{with_article(dwarf_type)} has no {info.field_name} value (it prints {shown})")
        return value

    @field_validator("proud")
    @classmethod
    def _only_warriors_are_proud(cls, value: bool, info: ValidationInfo) -> bool:
        dwarf_type = info.data.get("type")
        if value and dwarf_type not in (None, "guerrier"):
            raise ValueError(f"only a guerrier can be proud, this card is {with_article(dwarf_type)}")
        return value


class FoundCard(CardBase):
    """A card drawn from a mine pile. ``encounter``: the «Rencontre» symbol; its ``combat``
    value must be matched to win it."""

    encounter: bool = False
    combat: Count | None = Field(None, validate_default=True)
    vp: Count = 0
    goes_to: Destination = "loot"
    text: str = ""

    @field_validator("combat")
    @classmethod
    def _combat_only_on_encounters(cls, value: int | None, info: ValidationInfo) -> int | None:
        encounter = info.data.get("encounter")
        if encounter and value is None:
            raise ValueError("required for an encounter (encounter: true)")
        if encounter is False and value is not None:
            raise ValueError("only encounters have a combat value (set encounter: true)")
        return value


MineCategory = Literal["terre", "tresor", "rencontre", "trouvaille"]


class MineCard(FoundCard):
    """A «Mine» card. ``plus``: the (+) mark of full-game cards; ``plays_as``: a find that joins
    the hand and is played later like a dwarf of that type (Machin, Dwouarf)."""

    kind: Literal["mine"]
    plus: bool = False
    plays_as: Literal["guerrier", "piocheur"] | None = None
    dig: Count | None = Field(None, validate_default=True)

    @property
    def category(self) -> MineCategory:
        """What the card is, as its band colour and its label both say (one rule for both): an
        encounter (« Rencontre »); else a full-game (+) card, a « Trouvaille » — the rulebook
        lists the two Anneaux uniques and the Cœur d'or among them, as « trésors spéciaux »,
        so their victory points do not make them Trésors; else a « Trésor » (victory points)
        or « Terre »."""
        if self.encounter:
            return "rencontre"
        if self.plus:
            return "trouvaille"
        return "tresor" if self.vp else "terre"

    @field_validator("plays_as")
    @classmethod
    def _dwarves_join_the_hand(cls, value: str | None, info: ValidationInfo) -> str | None:
        goes_to = info.data.get("goes_to")
        if value is not None and goes_to not in (None, "hand"):
            raise ValueError(f"a card played as a {value} must join the hand (goes_to: hand), "
                             f"got goes_to: {goes_to}")
        return value

    @field_validator("dig")
    @classmethod
    def _dig_only_for_diggers(cls, value: int | None, info: ValidationInfo) -> int | None:
        if "plays_as" not in info.data:  # plays_as itself is invalid and reported on its own
            return value
        plays_as = info.data["plays_as"]
        if plays_as == "piocheur" and value is None:
            raise ValueError("required for a card played as a piocheur")
        if plays_as != "piocheur" and value is not None:
            raise ValueError("only a card played as a piocheur has a dig value (plays_as: piocheur)")
        return value


class EndOfMineCard(FoundCard):
    """A «Fin de Mine» card, the last card of a pile in the full game."""

    kind: Literal["end_of_mine"]


class Trophy(CardBase):
    """A «Trophée»: held by whoever leads in the loot cards named by ``most``."""

    kind: Literal["trophy"]
    vp: int = Field(ge=1)
    most: Slug  # the mine card counted in each loot (terre, rat)
    text: str = ""


def is_plus(card: CardBase) -> bool:
    """The (+) mark: a mine card used only in the full game."""
    return isinstance(card, MineCard) and card.plus


def destination(card: CardBase) -> str | None:
    """Where a card drawn from a mine goes (None for dwarves and trophies)."""
    return card.goes_to if isinstance(card, FoundCard) else None


#: every card of the game's deck (``GameData[TunhellCard]``: its rules read their cards' fields)
TunhellCard = Dwarf | FoundCard | Trophy

CARD_MODELS: dict[str, type[CardBase]] = {
    "dwarf": Dwarf,
    "mine": MineCard,
    "end_of_mine": EndOfMineCard,
    "trophy": Trophy,
}
