"""The score file of Mine, All Mine! and the game it records, played out round by round.

```yaml
rounds:                         # 1 to 3 rounds, in order
  - planets:                    # in play order: one planet, or a planet then a moon
      - {turns: [3, 2, 1]}      # resources of the 1st, 2nd, 3rd turn; or {card: 2, side: moon, end: high}
    fleets:                     # every player, each round
      Ana: {speed: 7, attack: 3, cargo: 5}      # optional cards: N, ship cards played
      Ben: {ships: [{card: 4, option: 2}]}      # options 1–3 a ship, 4 the action
```

``check_final_state`` lists every rule the file breaks; ``play_game`` plays it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, get_args

from pydantic import AfterValidator, Field, model_validator

from cardforge import sheet
from cardforge.data.loading import GameData
from cardforge.data.models import Model
from cardforge.limits import limit  # issue 21: bounded inputs
from cardforge.problems import Problem

from . import new_cards, whereabouts
from .cards import (
    ACTION_OPTION,
    ENDS,
    STATS,
    TURNS_PER_SIDE,
    End,
    MineAllMineCard,
    PlanetCard,
    Side,
    planet_cards,
    ship_cards,
)
from .new_cards import DealPlace, Hand
from .rounds import Fleet, RoundPlay, play_round
from .setup_rules import MAX_PLAYERS, MIN_PLAYERS, ROUNDS, planets_for

#: Whole numbers only: strict, so 2.5, "3" and true are rejected rather than converted.
Count = Annotated[int, Field(strict=True, ge=0)]
Number = Annotated[int, Field(strict=True)]


def _three_turns(turns: list[int]) -> list[int]:
    if len(turns) != TURNS_PER_SIDE:
        raise ValueError(f"a planet or moon has {TURNS_PER_SIDE} turns, got {len(turns)}")
    return turns


class PlanetInput(Model):
    """``{turns: [3, 2, 1]}`` or ``{card: 2, side: moon, end: high}`` (a planet card of the data;
    ``end``: which end of the face was up, « tournez et inversez-les »: required with ``card``, the
    ends being dealt at random — never assumed)."""

    card: Number | None = Field(None, json_schema_extra=sheet.card_key("planet", key="number", replaces=["turns"],
                                                                      label="card…"))
    side: Side | None = Field(None, json_schema_extra=sheet.slot_name(given_with="card"))
    end: End | None = Field(None)  # asked beside the card: which end was up is dealt, never assumed
    turns: Annotated[list[Count], AfterValidator(_three_turns)] | None = Field(
        None, json_schema_extra=sheet.numbers(TURNS_PER_SIDE, label="or turns"))

    @model_validator(mode="after")
    def _one_form(self) -> PlanetInput:
        if self.turns is not None and self.end is not None:
            raise ValueError("end is for a planet card (card: N, side: …); turns: already gives the resources")
        if self.turns is not None and (self.card is not None or self.side is not None):
            raise ValueError("give either turns: [r1, r2, r3] or card: N and side: planet|moon, not both")
        if self.turns is None and (self.card is None or self.side is None):
            raise ValueError("give turns: [r1, r2, r3] (the resources of each turn) "
                             "or card: N and side: planet|moon")
        return self


class ShipPick(Model):
    card: Number
    option: Number


class FleetInput(Model):
    """``{speed, attack, cargo}`` (optionally ``cards``: how many ship cards were played) or
    ``{ships: [{card, option}, …]}``, summed from the card data."""

    speed: Count | None = None
    attack: Count | None = None
    cargo: Count | None = None
    cards: Annotated[int, Field(strict=True, ge=1)] | None = None
    ships: Annotated[list[ShipPick], Field(min_length=1)] | None = Field(
        None, json_schema_extra=sheet.skip("the ship cards and options played: in the YAML sheet"))

    @model_validator(mode="after")
    def _one_form(self) -> FleetInput:
        given = [s for s in STATS if getattr(self, s) is not None]
        if self.ships is not None:
            if given or self.cards is not None:
                raise ValueError("give either ships: [{card, option}, …] or speed, attack and cargo, not both")
        elif len(given) < len(STATS):
            missing = ", ".join(s for s in STATS if s not in given)
            raise ValueError(f"missing {missing} (a fleet gives speed, attack and cargo, "
                             "or ships: [{card, option}, …])")
        return self

    @property
    def played(self) -> int | None:
        """Ship cards this fleet is made of (None: inline values without ``cards``)."""
        return len(self.ships) if self.ships is not None else self.cards


class RoundInput(Model):
    # « 1 carte planète pour 2 joueurs ou 2 cartes planète pour 3 à 4 joueurs », the second a moon
    planets: list[PlanetInput] = Field(max_length=limit("inline_cards"), json_schema_extra=sheet.slots(
        2, by_players={n: planets_for(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}, names=list(get_args(Side)),
        help="the planet card by its number, or the resources of each turn"))
    fleets: dict[str, FleetInput] = Field(json_schema_extra=sheet.per_player())


class FinalState(Model):
    rounds: list[RoundInput] = Field(min_length=1, max_length=limit("rounds"), json_schema_extra=sheet.rounds(ROUNDS))


# --- rule-level checks ----------------------------------------------------------------------

def players_of(state: FinalState) -> list[str]:
    """Every player named in the file, in order of first appearance."""
    names: dict[str, None] = {}
    for rnd in state.rounds:
        names.update(dict.fromkeys(rnd.fleets))
    return list(names)


def check_final_state(data: GameData[MineAllMineCard], state: FinalState) -> list[Problem]:
    """Every rule the file breaks. Hand sizes (a fleet of more cards than its player holds)
    depend on the earlier rounds' points, so they are checked once the rest is valid."""
    players = players_of(state)
    problems: list[Problem] = []
    if len(state.rounds) > ROUNDS:
        problems.append(Problem(f"a game is {ROUNDS} rounds, got {len(state.rounds)}", field="rounds"))
    count_ok = MIN_PLAYERS <= len(players) <= MAX_PLAYERS  # the engine reports a wrong count
    for number, rnd in enumerate(state.rounds, start=1):
        item = f"round #{number}"
        for name in players:
            if name not in rnd.fleets:
                problems.append(Problem(f"{name} is missing (every player plays a fleet each round; "
                                        f"players: {', '.join(players)})", item=item, field="fleets"))
        problems += _planet_problems(data, rnd.planets, len(players) if count_ok else None, item)
        problems += _fleet_problems(data, rnd.fleets, item)
    if problems or not count_ok:  # a wrong count (no fleet at all, say): the engine's problem
        return problems
    logs = play_game(data, state)
    for log in logs:
        for name, fleet in state.rounds[log.number - 1].fleets.items():
            hand, played, span = log.hands[name], fleet.played, log.hand_ranges[name]
            if played is None:
                continue
            if hand is not None and played > hand:
                problems.append(Problem(
                    f"a fleet of {played} ship cards, but {name} holds {hand} "
                    f"({_hand_origin(log.number)}{_deal_behind(logs, log.number, name)})",
                    item=f"round #{log.number}", field=f"fleets.{name}"))
            elif hand is None and span is not None and played > span[1]:
                problems.append(Problem(
                    f"a fleet of {played} ship cards, but {name} holds at most {span[1]} ({span[0]} to "
                    f"{span[1]}: a draw between tied players decided who got an extra card; "
                    f"{_hand_origin(log.number)}{_deal_behind(logs, log.number, name)})",
                    item=f"round #{log.number}", field=f"fleets.{name}"))
    if not problems:
        problems += _whereabouts_problems(data, state, logs)
    return problems


def _whereabouts_problems(data: GameData[MineAllMineCard], state: FinalState, logs: list[RoundLog]) -> list[Problem]:
    """A ship card played by a player whose hand cannot hold it (whereabouts.py): read from the
    rounds where every fleet names its cards."""
    players = players_of(state)
    named = [{name: None if fleet.ships is None else [s.card for s in fleet.ships]
              for name, fleet in rnd.fleets.items()} for rnd in state.rounds]
    rounds = [whereabouts.Round({p: named[i][p] or [] for p in players}, logs[i].totals)
              for i in range(whereabouts.known_rounds(named))]
    wrong = whereabouts.find_misplaced(players, sorted(ship_cards(data)), rounds)
    if wrong is None:
        return []
    return [Problem(wrong.message, item=f"round #{wrong.number}",
                    field=f"fleets.{wrong.player}.ships[{wrong.index}].card")]


def _deal_behind(logs: list[RoundLog], number: int, name: str) -> str:
    """The deal that made a hand: how many cards the player played and was dealt each round."""
    if number == 1:
        return ""
    steps = []
    for log in logs[: number - 1]:
        played = log.fleets[name].played
        got = log.new_cards.dealt_range[name] if log.new_cards else None
        got_text = "?" if got is None else (str(got[0]) if got[0] == got[1] else f"{got[0]} or {got[1]}")
        steps.append(f"round {log.number}: played {played}, dealt {got_text}")
        if log.number == number - 1:
            break
    return ": 3 at setup; " + "; ".join(steps)


def _hand_origin(number: int) -> str:
    return "the 3 cards dealt at setup" if number == 1 else f"after the new cards of round {number - 1}"


def _planet_problems(data: GameData[MineAllMineCard], planets: list[PlanetInput], players: int | None,
                     item: str) -> list[Problem]:
    problems: list[Problem] = []
    if len(planets) not in (1, 2):
        problems.append(Problem(f"must list 1 or 2 planet cards (a planet, or a planet then a moon), "
                                f"got {len(planets)}", item=item, field="planets"))
    elif players is not None and len(planets) != planets_for(players):
        wanted = ("1 planet card (3 turns)" if players == 2
                  else "2 planet cards (a planet then a moon: 6 turns)")
        problems.append(Problem(f"{players} players play on {wanted}, got {len(planets)}",
                                item=item, field="planets"))
    known = planet_cards(data)
    seen: set[int] = set()
    for index, planet in enumerate(planets):
        where = f"planets[{index}]"
        if planet.card is None:
            continue
        if planet.card not in known:
            problems.append(Problem(f"no planet card {planet.card} (planet cards: {_span(known)})",
                                    item=item, field=f"{where}.card"))
        elif planet.card in seen:
            problems.append(Problem(f"planet card {planet.card} is listed twice (each card is dealt once)",
                                    item=item, field=f"{where}.card"))
        seen.add(planet.card)
        # « en retournant la deuxième carte de planète sur le côté « moon » »: the first card is
        # played on its planet face, the second on its moon face.
        wanted_side = "planet" if index == 0 else "moon"
        if planet.side != wanted_side and index < 2:
            problems.append(Problem(f"the {'first' if index == 0 else 'second'} planet card is played "
                                    f"on its {wanted_side} face, got {planet.side}",
                                    item=item, field=f"{where}.side"))
        elif planet.end is None and planet.card in known and planet.side is not None:
            problems.append(Problem(_missing_end(known[planet.card], planet.side), item=item, field=f"{where}.end"))
    return problems


def _missing_end(card: PlanetCard, side: str) -> str:
    """« tournez et inversez-les, pour que lorsqu'une carte est choisie, le total des ressources
    (faible ou élevé) ait autant de chance de sortir »: which end of the face was up is dealt at
    random, so a file naming the card must say it (issue 30: it was silently read as low)."""
    face = card.face(side)
    ends = " or ".join(f"end: {end} ({', '.join(map(str, face.resources_at(end)))}: "
                       f"{sum(face.resources_at(end))} resources)" for end in ENDS)
    return (f"missing: which end of planet card {card.number}'s {side} face ({face.name}) was up — write "
            f"{ends}; the cards are turned at random when shuffled («tournez et inversez-les»)")


def _fleet_problems(data: GameData[MineAllMineCard], fleets: dict[str, FleetInput], item: str) -> list[Problem]:
    problems: list[Problem] = []
    known = ship_cards(data)
    holders: dict[int, list[str]] = {}
    for name, fleet in fleets.items():
        for index, pick in enumerate(fleet.ships or []):
            where = f"fleets.{name}.ships[{index}]"
            if pick.card not in known:
                problems.append(Problem(f"no ship card {pick.card} (ship cards: {_span(known)})",
                                        item=item, field=f"{where}.card"))
                continue
            holders.setdefault(pick.card, []).append(name)
            if not 1 <= pick.option <= ACTION_OPTION:
                problems.append(Problem(f"card {pick.card} has no option {pick.option} "
                                        f"(options: 1–3 its ships, {ACTION_OPTION} its action)",
                                        item=item, field=f"{where}.option"))
    for card, names in holders.items():
        if len(names) > 1:
            # One option per card (« Vous pouvez choisir seulement une de ces options pour chaque
            # carte »), and a card is in one hand only.
            problems.append(Problem(f"ship card {card} is played {len(names)} times ({', '.join(names)}); "
                                    "a card is in one hand and is played for one option",
                                    item=item, field="fleets"))
    return problems


def _span(cards: dict[int, Any]) -> str:
    return f"{min(cards)}–{max(cards)}" if cards else "none in the data"


# --- playing the game out -------------------------------------------------------------------

@dataclass
class PlanetPlay:
    resources: list[int]
    card: int | None = None
    side: str | None = None
    name: str | None = None
    end: str | None = None
    labels: list[str] | None = None  # the turns as printed: « Premier », « Deuxième »…


@dataclass
class FleetPlay:
    fleet: Fleet
    played: int | None
    picks: list[dict[str, Any]] | None  # {card, option, name} when given as ships


@dataclass
class NewCards:
    """Phase 4 after a round: ``cards`` dealt (None: not known), the order, who gets how many."""

    cards: int | None
    order: list[DealPlace]
    dealt: dict[str, Hand]
    dealt_range: dict[str, new_cards.HandRange]  # (fewest, most) each could get


@dataclass
class RoundLog:
    number: int
    planets: list[PlanetPlay]
    fleets: dict[str, FleetPlay]
    hands: dict[str, Hand]  # ship cards each player holds when the round starts
    hand_ranges: dict[str, new_cards.HandRange]  # (smallest, largest) possible hand at the start
    play: RoundPlay
    totals: dict[str, int]  # points so far, this round included
    new_cards: NewCards | None  # None after round 3: the game is over


def play_game(data: GameData[MineAllMineCard], state: FinalState) -> list[RoundLog]:
    players = players_of(state)
    hands: dict[str, Hand] = dict.fromkeys(players, new_cards.STARTING_HAND)
    spans: dict[str, new_cards.HandRange] = dict.fromkeys(
        players, (new_cards.STARTING_HAND, new_cards.STARTING_HAND))
    totals = dict.fromkeys(players, 0)
    logs = []
    for number, rnd in enumerate(state.rounds, start=1):
        planets = [_planet_play(data, p) for p in rnd.planets]
        fleets = {name: _fleet_play(data, name, rnd.fleets[name]) for name in players}
        play = play_round([f.fleet for f in fleets.values()], [r for p in planets for r in p.resources])
        totals = {p: totals[p] + play.points[p] for p in players}
        played = {name: f.played for name, f in fleets.items()}
        held = new_cards.after_play(hands, played)
        held_spans = new_cards.range_after_play(spans, played)
        deal = None
        if number < ROUNDS:  # « Après trois manches, le joueur qui a le plus de points remporte la partie »
            order = new_cards.deal_order(players, totals, held)
            count = new_cards.cards_played(played)
            deal = NewCards(count, order, new_cards.dealt_counts(order, count),
                            new_cards.dealt_ranges(order, count))
        logs.append(RoundLog(number, planets, fleets, hands, spans, play, totals, deal))
        if deal is not None:
            hands = new_cards.after_deal(held, deal.dealt)
            spans = new_cards.range_after_deal(held_spans, deal.dealt_range)
    return logs


def _planet_play(data: GameData[MineAllMineCard], planet: PlanetInput) -> PlanetPlay:
    if planet.turns is not None:
        return PlanetPlay(list(planet.turns))
    assert planet.card is not None and planet.side is not None  # PlanetInput: turns, or card and side
    card = planet_cards(data)[planet.card]
    face = card.face(planet.side)
    end = planet.end
    assert end is not None  # _planet_problems asks for it
    return PlanetPlay(face.resources_at(end), planet.card, planet.side, face.name, end,
                      [t.label for t in face.end(end)])


def _fleet_play(data: GameData[MineAllMineCard], name: str, fleet: FleetInput) -> FleetPlay:
    if fleet.ships is None:
        assert fleet.speed is not None and fleet.attack is not None and fleet.cargo is not None  # FleetInput
        return FleetPlay(Fleet(name, fleet.speed, fleet.attack, fleet.cargo),
                         fleet.played, None)
    cards = ship_cards(data)
    options = [cards[p.card].option(p.option) for p in fleet.ships]
    sums = {s: sum(getattr(o, s) for o in options) for s in STATS}
    picks = [{"card": p.card, "option": p.option, "name": o.name} for p, o in zip(fleet.ships, options)]
    return FleetPlay(Fleet(name, **sums), fleet.played, picks)
