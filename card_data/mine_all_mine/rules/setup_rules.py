"""Setup of Mine, All Mine! (« Mise en place »): counts, checklist, a deal, and the check of a
described deal.

A deal (``cardforge setup mine_all_mine --players 3 --json`` prints it under ``"deal"``, and
``--check FILE`` reads the same shape back, alone or as the whole printed object — JSON is YAML):

```yaml
planets:                        # in play order: the first on its planet face, the second on its moon
  - {card: 2, side: planet, end: high}   # end: which end is up (« tournez »), low or high
  - {card: 3, side: moon, end: low}
ships:                          # each player's 3 ship cards, by number
  player 1: [4, 9, 11]
  player 2: [1, 2, 7]
  player 3: [3, 6, 12]
unowned: [5, 8, 10]             # optional: the ship cards nobody holds (checked)
seed: 42                        # optional: the seed that made the deal, as printed
```
"""

from __future__ import annotations

import random
from typing import Annotated, Any

from pydantic import Field

from cardforge.data.loading import GameData
from cardforge.data.models import Model
from cardforge.problems import Problem, plural

from .cards import (
    ENDS,
    TURNS_PER_SIDE,
    End,
    MineAllMineCard,
    Side,
    planet_cards,
    ship_cards,
)

MIN_PLAYERS, MAX_PLAYERS = 2, 4
ROUNDS = 3  # « Une partie se joue en 3 manches »
SHIPS_EACH = 3  # « Distribuez 3 cartes vaisseau à chaque joueur »

Number = Annotated[int, Field(strict=True)]


def planets_for(players: int) -> int:
    """« 1 carte planète pour 2 joueurs ou 2 cartes planète pour 3 à 4 joueurs »."""
    return 1 if players == 2 else 2


def setup_counts(players: int) -> dict[str, Any]:
    planets = planets_for(players)
    return {"planets": planets, "turns": planets * TURNS_PER_SIDE, "ships_each": SHIPS_EACH, "rounds": ROUNDS}


def setup_steps(players: int, counts: dict[str, Any], ship_total: int) -> list[str]:
    # « Tout en mélangeant les cartes de planètes, tournez et inversez-les, pour que lorsqu'une
    # carte est choisie, le total des ressources (faible ou élevé) ait autant de chance de sortir »
    turn = ("Tout en mélangeant les cartes planète, tournez-les (d'un demi-tour) et inversez-les, pour que "
            "le total des ressources, faible ou élevé, ait autant de chance de sortir : on lit l'extrémité "
            "de la carte tournée vers soi.")
    if counts["planets"] == 1:
        planets = ("Piochez 1 carte planète et posez-la face planète visible, sans la tourner : chaque manche "
                   "se joue en 3 tours.")
    else:
        planets = ("Piochez 2 cartes planète, sans les tourner : posez la première face planète visible et "
                   "retournez la deuxième sur sa face « lune ». Chaque manche se joue en 6 tours : 3 sur la "
                   "planète, puis 3 sur la lune.")
    left = ship_total - SHIPS_EACH * players
    ships = f"Mélangez les {ship_total} cartes vaisseau et distribuez-en {SHIPS_EACH} à chaque joueur"
    ships += f" ; les {left} autres restent de côté, face cachée." if left else " : toutes sont distribuées."
    return [
        turn,
        planets,
        ships,
        "Placez la carte de score sur la table.",
        "Chaque joueur choisit une couleur de clips : il place un clip à côté de la carte de score "
        "(0 point) et l'autre à côté de la planète.",
        f"La partie se joue en {ROUNDS} manches ; chacun joue au moins 1 carte vaisseau par manche.",
    ]


def player_label(seat: int) -> str:
    return f"player {seat}"


def deal(data: GameData[MineAllMineCard], players: int, rng: random.Random) -> dict[str, Any]:
    """The planet cards drawn, which end of each is up, and each player's 3 ship cards. The first
    planet card lies on its planet face and the second is « retournée sur le côté moon »; which end
    is up is random (« tournez et inversez-les »)."""
    counts = setup_counts(players)
    chosen = rng.sample(sorted(planet_cards(data)), counts["planets"])
    ends = [rng.choice(ENDS) for _ in chosen]
    numbers = rng.sample(sorted(ship_cards(data)), len(ship_cards(data)))
    hands = [sorted(numbers[i * SHIPS_EACH:(i + 1) * SHIPS_EACH]) for i in range(players)]
    return {
        "planets": [{"card": n, "side": "planet" if i == 0 else "moon", "end": end}
                    for i, (n, end) in enumerate(zip(chosen, ends))],
        "ships": {player_label(i + 1): hand for i, hand in enumerate(hands)},
        "unowned": sorted(numbers[players * SHIPS_EACH:]),
    }


class SetupPlanet(Model):
    card: Number
    side: Side
    end: End | None = None  # which end is up; None: the deal does not say (a deal written by hand)


class DescribedDeal(Model):
    """The module docstring's deal (the whole ``--json`` object is read too)."""

    planets: list[SetupPlanet]
    ships: dict[str, list[Number]]
    unowned: list[Number] | None = None
    seed: int | None = None

    def setup_request(self) -> tuple[int | None, str | None, dict[str, Any] | None]:
        """(players, mode, options) this deal is for: the engine checks the printed counts and
        checklist of a whole ``--json`` object against them."""
        return len(self.ships), None, {}


def check_deal(data: GameData[MineAllMineCard], setup: DescribedDeal) -> list[Problem]:
    """Every rule a described deal breaks: player count, planet cards and faces, 3 distinct
    existing ship cards per player, and the unowned cards (if given) being all the others."""
    players = len(setup.ships)
    problems: list[Problem] = []
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        problems.append(Problem(f"{plural(players, 'player')} given, mine_all_mine supports "
                                f"{MIN_PLAYERS}–{MAX_PLAYERS}", field="ships"))
    problems += _planet_problems(data, setup.planets, players)
    problems += _ship_problems(data, setup)
    return problems


def _planet_problems(data: GameData[MineAllMineCard], planets: list[SetupPlanet], players: int) -> list[Problem]:
    problems: list[Problem] = []
    if MIN_PLAYERS <= players <= MAX_PLAYERS and len(planets) != planets_for(players):
        wanted = planets_for(players)
        problems.append(Problem(f"{players} players get {wanted} planet card{'s' if wanted > 1 else ''}, "
                                f"got {len(planets)}", field="planets"))
    known = planet_cards(data)
    seen: set[int] = set()
    for index, planet in enumerate(planets):
        if planet.card not in known:
            problems.append(Problem(f"no planet card {planet.card} (planet cards: 1–{len(known)})",
                                    field=f"planets[{index}].card"))
        elif planet.card in seen:
            problems.append(Problem(f"planet card {planet.card} is dealt twice", field=f"planets[{index}].card"))
        seen.add(planet.card)
        wanted_side = "planet" if index == 0 else "moon"
        if planet.side != wanted_side:
            problems.append(Problem(f"the {'first' if index == 0 else 'second'} planet card lies on its "
                                    f"{wanted_side} face, got {planet.side}", field=f"planets[{index}].side"))
    return problems


def _ship_problems(data: GameData[MineAllMineCard], setup: DescribedDeal) -> list[Problem]:
    problems: list[Problem] = []
    known = ship_cards(data)
    holders: dict[int, list[str]] = {}
    for seat, (name, hand) in enumerate(setup.ships.items(), start=1):
        item = f"player '{name}' (#{seat})"
        if len(hand) != SHIPS_EACH:
            problems.append(Problem(f"each player is dealt {SHIPS_EACH} ship cards, got {len(hand)}",
                                    item=item, field="ships"))
        for number in hand:
            if number not in known:
                problems.append(Problem(f"no ship card {number} (ship cards: 1–{len(known)})",
                                        item=item, field="ships"))
            else:
                holders.setdefault(number, []).append(name)
    for number, names in sorted(holders.items()):
        if len(names) > 1:
            problems.append(Problem(f"ship card {number} is dealt {len(names)} times ({', '.join(names)})",
                                    field="ships"))
    if setup.unowned is not None:
        others = sorted(set(known) - set(holders))
        if sorted(setup.unowned) != others:
            problems.append(Problem(f"must be the ship cards nobody holds: {others or 'none'}, "
                                    f"got {sorted(setup.unowned)}", field="unowned"))
    return problems
