"""One round of Mine, All Mine! played out: arrival, then extraction turn by turn.

Pure rules, no card data: fleets come with their summed values, the planets with the
resources of each turn in play order. The reading is card_data/mine_all_mine/RULES.md, steps 2–3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby

#: « Lorsque la vitesse d'une flotte est supérieure de 4 ou plus à la vitesse de la flotte
#: suivante, sautez un lieu ».
SKIP_LEAD = 4


@dataclass(frozen=True)
class Fleet:
    player: str
    speed: int
    attack: int
    cargo: int


@dataclass(frozen=True)
class Landing:
    """Fleets of one speed placed on one location (1-based: its turn)."""

    location: int
    players: tuple[str, ...]
    speed: int


@dataclass
class TurnPlay:
    """What happened on one turn: who arrived, who was present, who fled, who took what."""

    turn: int
    resources: int
    arrived: list[str] = field(default_factory=list)
    present: list[str] = field(default_factory=list)  # before any flight, in speed order
    fled: list[str] = field(default_factory=list)
    full: list[str] = field(default_factory=list)  # stayed (top attack) but had no cargo left
    took: dict[str, int] = field(default_factory=dict)  # every fleet that stayed, 0 included
    lost: int = 0
    split_lost: bool = False  # lost because fleets of one speed could not share them equally

@dataclass
class RoundPlay:
    landings: list[Landing]
    skipped: list[int]  # locations left empty by the skip rule, within the round's turns
    too_late: list[str]  # fleets placed after the last turn
    turns: list[TurnPlay]
    points: dict[str, int]


def arrive(fleets: Sequence[Fleet]) -> list[Landing]:
    """Fastest first, one location per speed; a lead of 4 or more leaves one location empty.

    Equal speeds share a location (« En cas d'égalité, placez les clips de flotte sur le même
    lieu »). However large the lead, one location is skipped: the rule says « sautez un lieu ».
    """
    landings: list[Landing] = []
    for speed, members in _by_speed(fleets):
        if not landings:
            location = 1
        else:
            previous = landings[-1]
            location = previous.location + (2 if previous.speed - speed >= SKIP_LEAD else 1)
        landings.append(Landing(location, tuple(f.player for f in members), speed))
    return landings


def play_round(fleets: Sequence[Fleet], resources: Sequence[int]) -> RoundPlay:
    """Arrival, then each turn in order; ``resources[i]`` is what turn i+1 offers.

    A fleet is present from its location's turn onward, until it flees. A fleet placed after
    the last turn (only possible with 4 fleets each 4+ faster than the next: locations 1, 3, 5,
    7 on a 6-turn round) never arrives: « Chaque manche est constituée de 3 ou 6 tours », and
    the planet cards hold no 7th location, so it takes nothing and chases nobody this round.
    """
    landings = arrive(fleets)
    location = {p: landing.location for landing in landings for p in landing.players}
    last = len(resources)
    occupied = {landing.location for landing in landings}
    skipped = [loc for loc in range(1, min(last, landings[-1].location) + 1) if loc not in occupied]
    too_late = [p for landing in landings if landing.location > last for p in landing.players]
    by_speed = [f for _, members in _by_speed(fleets) for f in members]
    room = {f.player: f.cargo for f in fleets}  # cargo is per round: « en une manche »
    fled: set[str] = set()
    turns = []
    for turn, offered in enumerate(resources, start=1):
        present = [f for f in by_speed if location[f.player] <= turn and f.player not in fled]
        play = TurnPlay(turn, offered, arrived=[f.player for f in by_speed if location[f.player] == turn],
                        present=[f.player for f in present])
        # Never empty: the fastest fleet is on location 1, and a fleet only flees from a
        # stronger one, which stays.
        contenders = _chase(present, play)
        fled.update(play.fled)
        play.full = [f.player for f in contenders if room[f.player] == 0]
        play.took, play.lost = _extract(offered, contenders, room)
        # the loop ends with resources left either because every cargo is full, or because fewer
        # were left than fleets of one speed still taking (« le reste est définitivement perdu »)
        play.split_lost = bool(play.lost) and any(room[f.player] > 0 for f in contenders)
        turns.append(play)
    points = {f.player: sum(t.took.get(f.player, 0) for t in turns) for f in fleets}
    return RoundPlay(landings, skipped, too_late, turns, points)


def _chase(present: list[Fleet], play: TurnPlay) -> list[Fleet]:
    """« Si les valeurs d'attaque sont différentes, la flotte qui a la plus faible est forcée de
    s'enfuir … pour le reste de la manche »: every fleet below the top attack present flees.
    A fleet with a full cargo still counts here (card_data/mine_all_mine/RULES.md: it is still present)."""
    top = max(f.attack for f in present)
    play.fled = [f.player for f in present if f.attack < top]
    return [f for f in present if f.attack == top]


def _extract(offered: int, contenders: list[Fleet], room: dict[str, int]) -> tuple[dict[str, int], int]:
    """One resource at a time, fastest first; fleets of one speed take at the same moment.

    In each pass every speed group, fastest first, takes one resource per fleet that still has
    cargo room. When fewer resources are left than a group's fleets still taking, they are
    lost (« le reste est définitivement perdu ») and the turn ends. Returns (took, lost).
    ``room`` (cargo left this round) is updated.
    """
    took = {f.player: 0 for f in contenders}
    groups = [members for _, members in _by_speed(contenders)]
    left = offered
    while left:
        # Arithmetic, not one resource a loop turn (a turn of 10⁹ resources, issue 21): k whole
        # passes in which every fleet with room takes one each are k times one pass, as long as
        # each still has room for k and k passes' worth is left. The loop then runs at most one
        # single pass per fleet filling up, plus the pass that ends the turn.
        takers_all = [f for members in groups for f in members if room[f.player] > 0]
        if takers_all:
            k = min(left // len(takers_all), min(room[f.player] for f in takers_all))
            if k:
                for f in takers_all:
                    took[f.player] += k
                    room[f.player] -= k
                left -= k * len(takers_all)
                continue
        takers_this_pass = 0
        for members in groups:
            takers = [f for f in members if room[f.player] > 0]
            if not takers:
                continue
            if left < len(takers):
                return took, left
            for f in takers:
                took[f.player] += 1
                room[f.player] -= 1
            left -= len(takers)
            takers_this_pass += len(takers)
            if not left:
                break
        if not takers_this_pass:  # every cargo is full: the rest is lost
            break
    return took, left


def _by_speed(fleets: Sequence[Fleet]) -> list[tuple[int, list[Fleet]]]:
    """(speed, [fleets]) fastest first; fleets of a speed keep their given order."""
    ordered = sorted(fleets, key=lambda f: -f.speed)
    return [(speed, list(members)) for speed, members in groupby(ordered, key=lambda f: f.speed)]
