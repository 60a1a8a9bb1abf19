"""Card models of Cristaux Élémentaires Joailliers.

A card holds what it prints (French name and text, parchment cost, royal-fidelity logos, runes,
music symbols, éclats, forge squares, mode logo) and how it scores at the end: ``scoring`` is one
of the scoring kinds below, each with its parameters. The same fields describe an inline card in
a final-state file (:class:`CardFields`), so a card the data lacks can still be scored.

Colours: the three elements red (fire), green (earth) and blue (water); ``gold`` is the fourth
crystal («cristal : rouge ou vert ou bleu ou or», iconography), used in costs and on the forge.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BeforeValidator, Field, SerializeAsAny, model_validator

from cardforge.data.models import CardBase, Model, Slug
from cardforge.problems import short_repr

Count = Annotated[int, Field(ge=0)]
Element = Literal["red", "green", "blue"]
Crystal = Literal["red", "green", "blue", "gold"]
Nature = Literal["red", "green", "blue", "multi", "none"]
Mode = Literal["initiation", "classique", "avance"]
Symbol = Literal["double", "sharp", "single"]

ELEMENTS: tuple[str, ...] = ("red", "green", "blue")
CRYSTALS: tuple[str, ...] = ("red", "green", "blue", "gold")
SYMBOLS: tuple[str, ...] = ("double", "sharp", "single")
MODES: tuple[str, ...] = ("classique", "initiation", "avance")

#: «Lors d'une partie dans le mode avancé, vous jouez avec toutes les cartes projet. À l'inverse
#: pour une partie classique, vous ne jouez qu'avec les cartes portant un logo [classique] ou
#: [initiation] ... et seulement celles avec [initiation] pour les parties en mode initiation.»
#: A card prints one mode logo (or none), so its modes are one of these nested sets.
MODE_SETS: dict[str, frozenset[str]] = {
    "initiation": frozenset({"initiation", "classique", "avance"}),
    "classique": frozenset({"classique", "avance"}),
    "avance": frozenset({"avance"}),
}


def mode_logo(modes: list[str]) -> str | None:
    """The mode logo a card with these modes prints, or None when the set is not a nested one."""
    for logo, wanted in MODE_SETS.items():
        if frozenset(modes) == wanted:
            return logo
    return None


def _check_modes(modes: list[str]) -> list[str]:
    if len(set(modes)) != len(modes):
        raise ValueError(f"each mode once, got {modes}")
    if mode_logo(modes) is None:
        raise ValueError(
            "a card is in every mode from its mode logo up (rulebook, «Mise en place»): "
            "[initiation, classique, avance], [classique, avance] or [avance]; "
            f"got {modes}")
    return modes


Modes = Annotated[list[Mode], AfterValidator(_check_modes)]


def _check_square(value: str) -> str:
    """A forge square: a crystal colour, ``any`` (wild), or ``filled:<colour>`` (pre-filled)."""
    colour = value.removeprefix("filled:")
    if value == "any" or colour in CRYSTALS:
        return value
    raise ValueError(f"a forge square is one of {', '.join(CRYSTALS)}, any, or filled:<colour> "
                     f"(e.g. filled:red), got {short_repr(value)}")


ForgeSquare = Annotated[str, AfterValidator(_check_square)]


class Cost(Model):
    """The parchment: crystals paid for the card."""

    red: Count = 0
    green: Count = 0
    blue: Count = 0
    gold: Count = 0

    def of(self, colour: str) -> int:
        value: int = getattr(self, colour)
        return value

    @property
    def total(self) -> int:
        return self.red + self.green + self.blue + self.gold


class Logos(Model):
    """Royal-fidelity logos; a ``multi`` logo counts 1 in each of the four medallion counts."""

    red: Count = 0
    green: Count = 0
    blue: Count = 0
    multi: Count = 0


class Runes(Model):
    red: Count = 0
    green: Count = 0
    blue: Count = 0


class Music(Model):
    """Music symbols on the card's frieze: ♬ ``double``, ♯ ``sharp``, ♪ ``single``."""

    double: Count = 0
    sharp: Count = 0
    single: Count = 0


# --- scoring kinds ---------------------------------------------------------------------------

class Scoring(Model):
    """Base of the scoring kinds; ``kind`` names one of :data:`SCORING_KINDS`."""

    kind: str


class Raw(Scoring):
    """Esthètes: points printed on the card."""

    kind: Literal["raw"]
    points: int


class Cocarde(Scoring):
    """1 point per éclat on the player's cards (the Cocarde's own logo is not an éclat)."""

    kind: Literal["cocarde"]


class CadrePortrait(Scoring):
    """1 point per card of ``nature``, itself included."""

    kind: Literal["cadre_portrait"]
    nature: Element


class Stele(Scoring):
    """``per_card`` points per card owned, every card counted (the Warhammer too)."""

    kind: Literal["stele"]
    per_card: int = Field(ge=1)


class SteleGloire(Scoring):
    """``per_card`` points per card whose total crystal cost is at least ``min_cost``."""

    kind: Literal["stele_gloire"]
    per_card: int = Field(ge=1)
    min_cost: int = Field(ge=1)


class Monument(Scoring):
    """``per_card`` points per card of ``nature`` (a Tambour counts as 2)."""

    kind: Literal["monument"]
    nature: Element
    per_card: int = Field(ge=1)


class ConcordeNatures(Scoring):
    """``per_set`` points per red + green + blue nature triplet."""

    kind: Literal["concorde_natures"]
    per_set: int = Field(ge=1)


def _check_table(table: dict[int, int]) -> dict[int, int]:
    if not table:
        raise ValueError("a table needs at least one threshold (runes: points)")
    if min(table) < 1:
        raise ValueError(f"thresholds start at 1, got {min(table)}")
    keys = sorted(table)
    if any(table[a] > table[b] for a, b in zip(keys, keys[1:])):
        raise ValueError("points must not decrease as the threshold rises")
    return dict(sorted(table.items()))


Table = Annotated[dict[int, Annotated[int, Field(ge=0)]], AfterValidator(_check_table)]


class RuneTable(Scoring):
    """Runes of ``rune`` (or ``any`` colour) on the player's cards → points of the highest
    threshold of ``table`` reached."""

    kind: Literal["rune_table"]
    rune: Literal["red", "green", "blue", "any"]
    table: Table


class ConcordeRunes(Scoring):
    """Rune triplets (1 red + 1 green + 1 blue) → points of the highest column reached."""

    kind: Literal["concorde_runes"]
    table: Table


class Religion(Scoring):
    """The ``top`` cards that cost the most in ``colour``: their ``colour`` cost summed × ``factor``."""

    kind: Literal["religion"]
    colour: Element
    top: int = Field(ge=1)
    factor: int = Field(ge=1)


class Calice(Scoring):
    """Cost X in ``colour``: 2, 4, 7, 9, 12, 14 points for 1–6 crystals paid, +2 per further one."""

    kind: Literal["calice"]
    colour: Element


class Socle(Scoring):
    """The 3 cards with the highest cost in the two ``colours`` together: the sum of those costs."""

    kind: Literal["socle"]
    colours: tuple[Element, Element]

    @model_validator(mode="after")
    def _two_colours(self) -> Socle:
        if self.colours[0] == self.colours[1]:
            raise ValueError(f"a Socle names two different colours, got {list(self.colours)}")
        return self


class Musicien(Scoring):
    """(♬ capped at 5) × (♯ capped at 5) × (♪ capped at 5), once per player."""

    kind: Literal["musicien"]


class Lunettes(Scoring):
    """4 points per placed pair of the two ``colours``."""

    kind: Literal["lunettes"]
    colours: tuple[Crystal, Crystal]

    @model_validator(mode="after")
    def _two_colours(self) -> Lunettes:
        if self.colours[0] == self.colours[1]:
            raise ValueError(f"Lunettes name two different colours, got {list(self.colours)}")
        return self


class Pinces(Scoring):
    """1 point per 2 crystals placed on the player's forge squares."""

    kind: Literal["pinces"]


class Maudit(Scoring):
    """A cursed crystal: ``values[n]`` points each when the player owns n cursed crystals
    (a count beyond the table scores its last entry)."""

    kind: Literal["maudit"]
    values: dict[Annotated[int, Field(ge=1)], int]

    @model_validator(mode="after")
    def _from_one(self) -> Maudit:
        keys = sorted(self.values)
        if keys != list(range(1, len(keys) + 1)):
            raise ValueError(f"values give the points for 1, 2, 3… cursed crystals owned, got keys {keys}")
        return self


# Bâton options: «Les éléments dans le grand cadre sont 5 options différentes, vous ne pouvez en
# choisir qu'une.» The Tambour and Cornemuse effects are among them («vous retrouverez ces 2
# effets parmi les options des Bâtons»); the Bâton «alimente le scoring d'autres cartes de leur
# nature». None of them is a logo: a choice never changes the medallion counts, so each player's
# choices can be made alone.

class BatonOption(Model):
    effect: str


class TambourOption(BatonOption):
    """The Bâton counts as 2 cards of its nature."""

    effect: Literal["tambour"]


class CornemuseOption(BatonOption):
    """The Bâton's cost counts as ``cost`` at the end (like a Cornemuse's 3+1+1)."""

    effect: Literal["cornemuse"]
    cost: Cost


class RuneOption(BatonOption):
    effect: Literal["rune"]
    colour: Element


class EclatOption(BatonOption):
    effect: Literal["eclat"]
    count: int = Field(1, ge=1)


class ForgeOption(BatonOption):
    """One more forge square."""

    effect: Literal["forge"]
    square: ForgeSquare


BATON_OPTIONS: dict[str, type[BatonOption]] = {
    "tambour": TambourOption,
    "cornemuse": CornemuseOption,
    "rune": RuneOption,
    "eclat": EclatOption,
    "forge": ForgeOption,
}


def _pick(models: dict[str, type[Model]], tag: str, what: str) -> BeforeValidator:
    """A before-validator that validates a mapping with the model its ``tag`` names, so errors
    point at the field itself (``scoring.colour``), never at a union branch."""

    def pick(value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        name = value.get(tag)
        if name is None:
            raise ValueError(f"'{tag}' is missing (allowed {what}s: {', '.join(models)})")
        model = models.get(name) if isinstance(name, str) else None
        if model is None:
            raise ValueError(f"unknown {what} {short_repr(name)} (allowed: {', '.join(models)})")
        allowed = list(model.model_fields)
        extra = [str(k) for k in value if k not in allowed]
        if extra:
            raise ValueError(f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(extra)} "
                             f"for {what} '{name}' (allowed: {', '.join(allowed)})")
        return model.model_validate(value)

    return BeforeValidator(pick)


AnyBatonOption = Annotated[SerializeAsAny[BatonOption], _pick(BATON_OPTIONS, "effect", "Bâton effect")]


class Baton(Scoring):
    """A Bâton de mage: never scores itself; one of its 5 options is chosen at the end, and its
    frieze counts as 1 music symbol of the player's choice."""

    kind: Literal["baton"]
    options: list[AnyBatonOption] = Field(min_length=5, max_length=5)


class NoScoring(Scoring):
    """A card that scores nothing itself (Investissement, Passe-Droit, gifts…)."""

    kind: Literal["none"]


SCORING_KINDS: dict[str, type[Scoring]] = {
    "raw": Raw,
    "cocarde": Cocarde,
    "cadre_portrait": CadrePortrait,
    "stele": Stele,
    "stele_gloire": SteleGloire,
    "monument": Monument,
    "concorde_natures": ConcordeNatures,
    "rune_table": RuneTable,
    "concorde_runes": ConcordeRunes,
    "religion": Religion,
    "calice": Calice,
    "socle": Socle,
    "musicien": Musicien,
    "lunettes": Lunettes,
    "pinces": Pinces,
    "maudit": Maudit,
    "baton": Baton,
    "none": NoScoring,
}

#: The school (score category) each kind counts in; Bâtons and cards without scoring in none.
KIND_CATEGORY: dict[str, str | None] = {
    "raw": "esthetes",
    "cocarde": "esthetes",
    "cadre_portrait": "memoriss",
    "stele": "memoriss",
    "stele_gloire": "memoriss",
    "monument": "memoriss",
    "concorde_natures": "memoriss",
    "rune_table": "noblesse",
    "concorde_runes": "noblesse",
    "religion": "religion",
    "calice": "religion",
    "socle": "religion",
    "musicien": "musiciens",
    "lunettes": "forge",
    "pinces": "forge",
    "maudit": "maudits",
    "baton": None,
    "none": None,
}

AnyScoring = Annotated[SerializeAsAny[Scoring], _pick(SCORING_KINDS, "kind", "scoring kind")]

#: Score categories a gift's gold bonus may count in (medallions come from logos only).
BonusCategory = Literal["esthetes", "noblesse", "memoriss", "forge", "religion", "musiciens"]


class GoldBonus(Model):
    """«Des 2 côtés, vous avez la possibilité de dépenser 2 ors pour bénéficier d'un bonus
    supplémentaire» (Warhammer): spend ``gold`` from the stock at the end for ``points``."""

    gold: int = Field(2, ge=1)
    points: int = Field(ge=1)
    category: BonusCategory


# --- cards -----------------------------------------------------------------------------------

class CardFields(Model):
    """What a card prints and how it scores; shared by data cards and inline score-file cards.

    ``x_colour``: the card costs X crystals of that colour (Calices, Reliquaires); what was paid
    is recorded at the end and counts as its cost in that colour. ``final_cost``: the cost the
    card counts as at the end when it differs from the parchment (a Cornemuse: 3+1+1).
    ``counts_as``: how many cards of its nature it counts as (a Tambour: 2). ``obsession``: a
    Géode d'obsession's colour — «au moment où vous passez, vous devez perdre tous les cristaux
    de la couleur indiqués que vous avez en stock», each compatible forge square protecting 1.
    """

    nature: Nature = "none"
    cost: Cost = Field(default_factory=Cost)
    x_colour: Element | None = None
    final_cost: Cost | None = None
    counts_as: int = Field(1, ge=1, le=2)
    logos: Logos = Field(default_factory=Logos)
    runes: Runes = Field(default_factory=Runes)
    music: Music = Field(default_factory=Music)
    eclats: Count = 0
    forge_squares: list[ForgeSquare] = Field(default_factory=list)
    scoring: AnyScoring
    court: bool = False  # the court's blason (Soutien de la cour): logos, points in its other school
    obsession: Element | None = None  # a Géode d'obsession: the colour lost from the stock when passing
    text: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> CardFields:
        scoring = self.scoring
        if isinstance(scoring, Calice):
            if self.x_colour is None:
                self.x_colour = scoring.colour  # a Calice costs X in the colour it scores
            elif self.x_colour != scoring.colour:
                raise ValueError(f"a Calice costs X in the colour it scores ({scoring.colour}), "
                                 f"got x_colour: {self.x_colour}")
        if isinstance(scoring, CadrePortrait) and self.nature != scoring.nature:
            # «1 point pour chaque carte de la bonne couleur, dont elle-même»
            raise ValueError(f"a Cadre de portrait counts itself: its nature must be "
                             f"{scoring.nature} (the nature it counts), got {self.nature}")
        if isinstance(scoring, Baton) and self.nature not in ELEMENTS:
            raise ValueError(f"a Bâton feeds the cards of its nature: red, green or blue, got {self.nature}")
        return self

    @property
    def category(self) -> str | None:
        return KIND_CATEGORY[self.scoring.kind]


class ProjectCard(CardBase, CardFields):
    """A project card (🂠), bought from the offer. ``cursed_deck``: one of the gold Cristaux
    maudits of the separate deck that avancé setup trims by player count."""

    kind_label: ClassVar[str] = "Projet"

    kind: Literal["project"]
    modes: Modes
    cursed_deck: bool = False


class GiftCard(CardBase, CardFields):
    """A starting gift (cadeau au roi), two-sided: ``other_side`` is the id of its other face.
    Only the face in play is listed at the end. An ``active: false`` face (a Harpe or an Encrier
    turned over) is not part of the player's game: «Sinon vous devez considérer qu'ils ne font
    plus partie de votre jeu»."""

    kind_label: ClassVar[str] = "Cadeau au roi"

    kind: Literal["gift"]
    modes: list[Mode] = Field(min_length=1)  # gifts carry no mode logo: the setup says who gets them
    other_side: Slug
    active: bool = True
    gold_bonus: GoldBonus | None = None
    scoring: AnyScoring = Field(default_factory=lambda: NoScoring(kind="none"))


class TrouvailleCard(CardBase):
    """An event «trouvaille des mineurs»: what it puts on the miner card, line by line (the first
    line only in initiation; the last only in avancé), its ♚ logos and the bonus crystal for whoever
    pays 2 gold or more for the ♚."""

    kind_label: ClassVar[str] = "Trouvaille des mineurs"

    kind: Literal["trouvaille"]
    lines: list[str] = Field(min_length=1, max_length=3)
    king_logos: Count = 0
    bonus: Crystal


School = Literal["esthete", "noblesse", "memoriss", "cour", "forge", "religion", "musicien"]


class TopazeCard(CardBase):
    """A Topaze / Opale card: the Topaze face names the school where Topazes are jokers this
    round; the Opale face the extra cost and bonus of an Opale of that school."""

    kind_label: ClassVar[str] = "Topaze et Opale"

    kind: Literal["topaze"]
    school: School
    modes: Modes
    topaze_text: str
    opale_text: str


def baton_options(card: CardFields) -> list[BatonOption]:
    """The 5 options of a Bâton's scoring (none for any other card)."""
    return card.scoring.options if isinstance(card.scoring, Baton) else []


def gold_bonus_of(card: CardFields) -> GoldBonus | None:
    """The gold bonus of a gift (no other card has one)."""
    return card.gold_bonus if isinstance(card, GiftCard) else None


#: every card of the game's deck (``GameData[CristauxCard]``: its rules read their cards' fields)
CristauxCard = ProjectCard | GiftCard | TrouvailleCard | TopazeCard

CARD_MODELS: dict[str, type[CardBase]] = {
    "project": ProjectCard,
    "gift": GiftCard,
    "trouvaille": TrouvailleCard,
    "topaze": TopazeCard,
}


# --- other data ------------------------------------------------------------------------------

Gem = Literal["red", "green", "blue", "gold", "promise", "topaze", "opale"]


class Component(Model):
    """An item of the box (``components.yaml``): gems, tokens, bags, ramekins… ``gem``: what a
    gem is called in a deal; ``in_bag``: kept in the opaque bag, from which ramekins are filled at
    random; ``count`` None when the rulebook does not say."""

    id: Slug
    name: str = Field(min_length=1)
    count: Count | None = None
    gem: Gem | None = None
    in_bag: bool = False
    text: str = ""
    provenance: Literal["rulebook", "provisional"]
