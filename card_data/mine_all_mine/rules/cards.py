"""Card models of Mine, All Mine!: ship cards, double-sided planet cards, the extra cards and
the score card.

Rulebook, « Description d'une carte »: a ship card prints its number, the values of its ships
and an action; a planet card prints its turns and the resources available on each turn.
« Chaque carte vaisseau a 4 options : 3 vaisseaux et 1 action », and « Ajoutez les valeurs des
vaisseaux/actions de votre flotte » — so an action carries values too. The actions' effects are
not in the text: cardforge's provisional actions only add values to the fleet (written both as
numbers and in the printed French text, which :func:`check_cards` keeps in agreement), so the
round resolver stays exact.

Double-sided cards: a planet card has two printed faces, ``planet`` (played first) and
``moon`` (the second planet card of a 3–4 player game, « retournée sur le côté moon »).
``PlanetCard.faces`` names them in print order; deck.yaml gives the planet kind the ``moon``
back, whose layout draws the card's own ``moon`` face.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ValidationInfo, field_validator

from cardforge.data.loading import GameData
from cardforge.data.models import CardBase, Model
from cardforge.problems import Problem
from cardforge.resources import display_path

Stat = Annotated[int, Field(ge=0)]

#: The three fleet statistics, in print order; each is also the name of its icon token.
STATS: tuple[str, ...] = ("speed", "attack", "cargo")

#: Options of a ship card: 1–3 its ships (in data order), 4 its action.
ACTION_OPTION = 4

SHIP_CARD_COUNT = 12
PLANET_CARD_COUNT = 3
EXTRA_CARD_COUNT = 2
TURNS_PER_SIDE = 3

Side = Literal["planet", "moon"]
SIDES: tuple[str, ...] = ("planet", "moon")
#: « tournez et inversez-les, pour que lorsqu'une carte est choisie, le total des ressources
#: (faible ou élevé) ait autant de chance de sortir »: each face prints a low end and, turned
#: half a turn, a high end; which end is up is dealt at random (cardforge's reading).
End = Literal["low", "high"]
ENDS: tuple[str, ...] = ("low", "high")

#: Turn labels printed on each face. The rulebook: « Les tours sont listés (« Premier »,
#: « Deuxième », etc.) sur les cartes des planètes » — the moon, always played after the
#: planet, carries the 4th to 6th turns of a 6-turn round.
TURN_LABELS: dict[str, tuple[str, ...]] = {
    "planet": ("Premier", "Deuxième", "Troisième"),
    "moon": ("Quatrième", "Cinquième", "Sixième"),
}

#: "+3 :speed:" in an action's text: the value it adds to the fleet.
_BONUS_TOKEN = re.compile(r"\+(\d+) :(speed|attack|cargo):")


class Ship(Model):
    """One of the 3 ships of a ship card: its French name and values."""

    name: str = Field(min_length=1)
    speed: Stat
    attack: Stat
    cargo: Stat


class Action(Model):
    """The action of a ship card: its French name and text, and the values it adds."""

    name: str = Field(min_length=1)
    text: str = Field(min_length=1)
    speed: Stat = 0
    attack: Stat = 0
    cargo: Stat = 0


class ShipCard(CardBase):
    """A numbered ship card: 3 ships and 1 action; a player plays one of the 4 per card."""

    kind: Literal["ship"]
    number: int = Field(ge=1)
    ships: list[Ship] = Field(min_length=3, max_length=3)
    action: Action

    def option(self, option: int) -> Ship | Action:
        """Option 1–3: a ship; option 4: the action."""
        return self.action if option == ACTION_OPTION else self.ships[option - 1]


class Turn(Model):
    """One location of a planet face: its printed label and the resources of that turn."""

    label: str = Field(min_length=1)
    resources: Stat


class PlanetFace(Model):
    """A face of a planet card: its name and two ends — ``turns`` read with the low end up, and
    ``high`` with the card turned half a turn (« tournez […] le total des ressources (faible ou
    élevé) »), each the 3 turns of that end."""

    name: str = Field(min_length=1)
    turns: list[Turn] = Field(min_length=TURNS_PER_SIDE, max_length=TURNS_PER_SIDE)
    high: list[Turn] = Field(min_length=TURNS_PER_SIDE, max_length=TURNS_PER_SIDE)

    @property
    def resources(self) -> list[int]:
        return [t.resources for t in self.turns]

    def end(self, end: str) -> list[Turn]:
        return self.high if end == "high" else self.turns

    def resources_at(self, end: str) -> list[int]:
        return [t.resources for t in self.end(end)]


class PlanetCard(CardBase):
    """A double-sided planet card: the ``planet`` face and the ``moon`` face."""

    faces: ClassVar[tuple[str, ...]] = SIDES

    kind: Literal["planet"]
    number: int = Field(ge=1)
    planet: PlanetFace
    moon: PlanetFace

    @field_validator("planet", "moon")
    @classmethod
    def _labels(cls, face: PlanetFace, info: ValidationInfo) -> PlanetFace:
        side = str(info.field_name)
        expected = TURN_LABELS[side]
        for end, turns in (("low", face.turns), ("high", face.high)):
            got = tuple(t.label for t in turns)
            if got != expected:
                raise ValueError(f"turn labels must be {', '.join(expected)} on the {side} face ({end} end), "
                                 f"got {', '.join(got)}")
        if sum(face.resources_at("high")) < sum(face.resources_at("low")):
            raise ValueError(f"the high end of the {side} face totals {sum(face.resources_at('high'))} "
                             f"resources, less than its low end ({sum(face.resources_at('low'))})")
        return face

    def face(self, side: str) -> PlanetFace:
        return self.planet if side == "planet" else self.moon


class ExtraCard(CardBase):
    """One of the 2 extra cards: alternative setups (« lorsque vous n'avez pas de table ou pour
    jouer en ligne »)."""

    kind: Literal["extra"]
    text: str = Field(min_length=1)


class ScoreCard(CardBase):
    """The score card: a track from 0 to ``track_max`` for the players' score clips."""

    kind: Literal["score"]
    track_max: int = Field(ge=1)
    text: str = ""


#: every card of the game's deck (``GameData[MineAllMineCard]``: its rules read their cards' fields)
MineAllMineCard = ShipCard | PlanetCard | ExtraCard | ScoreCard

CARD_MODELS = {"ship": ShipCard, "planet": PlanetCard, "extra": ExtraCard, "score": ScoreCard}


def ship_cards(data: GameData[MineAllMineCard]) -> dict[int, ShipCard]:
    return {c.number: c for c in data.cards if isinstance(c, ShipCard)}


def planet_cards(data: GameData[MineAllMineCard]) -> dict[int, PlanetCard]:
    return {c.number: c for c in data.cards if isinstance(c, PlanetCard)}


def check_cards(data: GameData[MineAllMineCard]) -> list[Problem]:
    """The box's contents (« Contenu »): 12 ship cards numbered 1–12, 3 planet cards numbered
    1–3, 2 extra cards, 1 score card; and each action's text showing the values it adds."""
    ships = [c for c in data.cards if isinstance(c, ShipCard)]
    planets = [c for c in data.cards if isinstance(c, PlanetCard)]
    problems = _check_numbers(data, "ship", ships, SHIP_CARD_COUNT)
    problems += _check_numbers(data, "planet", planets, PLANET_CARD_COUNT)
    problems += _check_count(data, "extra", EXTRA_CARD_COUNT)
    problems += _check_count(data, "score", 1)
    for card in ships:
        problems += _check_action_text(data, card)
    return problems


def _where(data: GameData[MineAllMineCard], card: CardBase) -> dict[str, Any]:
    source = data.sources[card.id]
    return {"file": source.file, "item": source.label(card.id), "line": source.line}


def _check_count(data: GameData[MineAllMineCard], kind: str, wanted: int) -> list[Problem]:
    got = sum(c.copies for c in data.cards_of(kind))
    if got == wanted:
        return []
    return [Problem(f"the game has {wanted} {kind} card(s) (rulebook, « Contenu »), the data prints {got}",
                    file=display_path(data.root), field=kind)]


def _check_numbers(data: GameData[MineAllMineCard], kind: str, cards: Sequence[ShipCard | PlanetCard],
                   wanted: int) -> list[Problem]:
    """``wanted`` cards of ``kind``, one copy each, numbered 1…wanted without gaps or repeats."""
    problems = _check_count(data, kind, wanted)
    seen: dict[int, str] = {}
    for card in cards:
        number = card.number
        if card.copies != 1:
            problems.append(Problem(f"each {kind} card is printed once, got copies: {card.copies}",
                                    field="copies", **_where(data, card)))
        if number > wanted:
            problems.append(Problem(f"must be between 1 and {wanted}, got {number}",
                                    field="number", **_where(data, card)))
        elif number in seen:
            problems.append(Problem(f"number {number} is already card '{seen[number]}'",
                                    field="number", **_where(data, card)))
        else:
            seen[number] = card.id
    missing = sorted(set(range(1, wanted + 1)) - set(seen))
    if missing:
        problems.append(Problem(f"no {kind} card numbered {', '.join(map(str, missing))}",
                                file=display_path(data.root), field=kind))
    return problems


def _check_action_text(data: GameData[MineAllMineCard], card: ShipCard) -> list[Problem]:
    """The printed text says exactly what the resolver adds: '+N :stat:' for each value."""
    printed = {stat: int(n) for n, stat in _BONUS_TOKEN.findall(card.action.text)}
    values = {stat: getattr(card.action, stat) for stat in STATS if getattr(card.action, stat)}
    if printed == values:
        return []
    wanted = ", ".join(f"+{n} :{s}:" for s, n in values.items()) or "no '+N :stat:'"
    shown = ", ".join(f"+{n} :{s}:" for s, n in printed.items()) or "none"
    return [Problem(f"the text must show the values the action adds ({wanted}), it shows {shown}",
                    field="action.text", **_where(data, card))]
