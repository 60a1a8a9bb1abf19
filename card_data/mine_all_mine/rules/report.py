"""The played-out rounds as JSON-able details (``--json``'s ``"details"``) and as English lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardforge.problems import plural

from .cards import ACTION_OPTION, TURN_LABELS
from .new_cards import DealPlace
from .rounds import TurnPlay
from .scoring import FleetPlay, NewCards, PlanetPlay, RoundLog

# --- details --------------------------------------------------------------------------------


def round_details(log: RoundLog) -> dict[str, Any]:
    play = log.play
    return {
        "round": log.number,
        "planets": [_planet_details(p) for p in log.planets],
        "fleets": {name: {"speed": f.fleet.speed, "attack": f.fleet.attack, "cargo": f.fleet.cargo,
                          "cards": f.played, **({"ships": f.picks} if f.picks is not None else {})}
                   for name, f in log.fleets.items()},
        "hands": dict(log.hands),
        "arrival": [{"location": landing.location, "players": list(landing.players), "speed": landing.speed}
                    for landing in play.landings],
        "skipped": list(play.skipped),
        "too_late": list(play.too_late),
        "turns": [{"turn": t.turn, "resources": t.resources, "arrived": t.arrived, "present": t.present,
                   "fled": t.fled, "full": t.full, "took": t.took, "lost": t.lost} for t in play.turns],
        "points": dict(play.points),
        "totals": dict(log.totals),
        "new_cards": _new_cards_details(log.new_cards),
    }


def _planet_details(planet: PlanetPlay) -> dict[str, Any]:
    if planet.card is None:
        return {"resources": planet.resources}
    return {"card": planet.card, "side": planet.side, "end": planet.end, "name": planet.name,
            "resources": planet.resources}


def _new_cards_details(deal: NewCards | None) -> dict[str, Any] | None:
    if deal is None:
        return None
    return {
        "cards": deal.cards,
        "order": [{"players": list(place.players), "points": place.points, "cards": place.cards,
                   "draw": place.is_tie} for place in deal.order],
        "dealt": dict(deal.dealt),
    }


# --- text -----------------------------------------------------------------------------------


def round_lines(log: RoundLog) -> list[str]:
    play = log.play
    lines = [f"Round {log.number} — {_planets_line(log.planets)}"]
    lines.append("  Fleets: " + "; ".join(_fleet_text(name, f) for name, f in log.fleets.items()))
    lines.append("  Arrival: " + _arrival_line(log))
    attack = {name: f.fleet.attack for name, f in log.fleets.items()}
    speed = {name: f.fleet.speed for name, f in log.fleets.items()}
    labels = _labels(log)
    lines += [f"  Turn {t.turn} « {labels[t.turn - 1]} » ({plural(t.resources, 'resource')}): "
              f"{_turn_line(t, attack, speed)}" for t in play.turns]
    lines.append("  Points this round: " + _scores(play.points) + " — so far: " + _scores(log.totals))
    lines += _new_cards_lines(log)
    return lines


def _fleet_text(name: str, fleet: FleetPlay) -> str:
    values = f"{name} speed {fleet.fleet.speed}, attack {fleet.fleet.attack}, cargo {fleet.fleet.cargo}"
    if fleet.picks is None:
        return values if fleet.played is None else f"{values} ({plural(fleet.played, 'card')})"
    picks = " + ".join(f"card {p['card']} {'action ' if p['option'] == ACTION_OPTION else ''}{p['name']}"
                       for p in fleet.picks)
    return f"{values} ({picks})"


def _planets_line(planets: list[PlanetPlay]) -> str:
    parts = []
    for planet in planets:
        values = ", ".join(map(str, planet.resources))
        if planet.card is None:
            parts.append(f"a planet given by its resources ({values})")
        else:
            parts.append(f"{planet.name} (planet card {planet.card}, {planet.side} face, {planet.end} end up: "
                         f"{values})")
    turns = sum(len(p.resources) for p in planets)
    return " then ".join(parts) + f", {turns} turns"


def _labels(log: RoundLog) -> list[str]:
    """Each turn's location as printed on the cards: « Premier », « Deuxième »… (a planet given
    by its resources: the labels of its position, planet then moon)."""
    out: list[str] = []
    for index, planet in enumerate(log.planets):
        printed = TURN_LABELS["planet" if index == 0 else "moon"]
        out += planet.labels or list(printed[:len(planet.resources)])
    return out


def _arrival_line(log: RoundLog) -> str:
    play = log.play
    labels = _labels(log)
    last = len(play.turns)
    spots = {landing.location: landing for landing in play.landings}
    parts = []
    for location in range(1, max(spots) + 1):
        landing = spots.get(location)
        if landing is None:
            if location <= last:
                parts.append(f"location {location} « {labels[location - 1]} » left empty (a lead of 4 or more "
                             "in speed)")
            continue
        names = _names(landing.players)
        if location > last:
            parts.append(f"{names} (speed {landing.speed}) after the last turn: too late to mine this round")
        else:
            parts.append(f"location {location} « {labels[location - 1]} » {names} (speed {landing.speed})")
    return "; ".join(parts)


def _turn_line(turn: TurnPlay, attack: dict[str, int], speed: dict[str, int]) -> str:
    parts = []
    if turn.arrived:
        parts.append(f"{_names(turn.arrived)} {'arrives' if len(turn.arrived) == 1 else 'arrive'}")
    top = max(attack[name] for name in turn.present)
    for name in turn.fled:
        parts.append(f"{name} flees for the rest of the round (attack {attack[name]} < {top})")
    stayed = [name for name in turn.present if name not in turn.fled and name not in turn.full]
    if len(stayed) > 1 and turn.resources:
        # « S'il y a égalité pour les attaques, les flottes vont creuser chacune leur tour »
        parts.append(f"{_names(stayed)} tie on attack {top}: one resource at a time, fastest first")
    for name, took in turn.took.items():
        if name in turn.full:
            parts.append(f"{name} takes nothing (cargo full)")
        else:
            parts.append(f"{name} takes {took}")
    if turn.lost:
        if turn.split_lost:
            parts.append(f"{turn.lost} lost (fleets of equal speed share equally, « le reste est "
                         "définitivement perdu »)")
        else:
            parts.append(f"{turn.lost} lost")
    return "; ".join(parts) + "."


def _names(names: Sequence[str]) -> str:
    """'Ana', 'Ana and Ben', 'Ana, Ben and Cy'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _scores(points: dict[str, int]) -> str:
    return ", ".join(f"{name} {value}" for name, value in points.items())


def _new_cards_lines(log: RoundLog) -> list[str]:
    deal = log.new_cards
    if deal is None:
        return [f"  Round {log.number} ends the game: no new cards."]
    many = (f"{plural(deal.cards, 'card')} (as many as were played)" if deal.cards is not None
            else "as many cards as were played (how many is not known: a fleet is given by its values, "
               "without cards: N)")
    lines = [f"  New cards: {many}, dealt one at a time, fewest points first:"]
    for rank, place in enumerate(deal.order, start=1):
        lines.append(f"    {rank}. {_place_line(place, deal)}")
    return lines


def _place_line(place: DealPlace, deal: NewCards) -> str:
    names = _names(place.players)
    points = plural(place.points, "point")
    gets = {deal.dealt[p] for p in place.players}
    only = next(iter(gets)) if len(gets) == 1 else None
    if only is not None:
        receives = f" — gets {plural(only, 'card')}" + (" each" if place.is_tie else "")
    elif deal.cards is not None and place.cards is not None:
        receives = " — the draw decides who gets one card more"
    else:
        receives = ""
    if not place.is_tie:
        hand = f", {plural(place.cards, 'card')} in hand" if place.cards is not None else ""
        return f"{names} ({points}{hand}){receives}"
    if place.cards is None:
        return (f"{names}, tied on {points}: their hands are not known from the file, so fewer cards "
                f"first; still tied, each draws a ship card, highest number first{receives}")
    return (f"{names}, tied on {points} and {plural(place.cards, 'card')} in hand: each draws a ship "
            f"card, highest number first{receives}")
