"""Mine, All Mine!'s printables derived from its data and rules: the score track (0 to the
score card's ``track_max``), the arrival locations as printed on the planet cards, and the
arrival rule with the skip lead the round resolver uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardforge.data.printables import Block, build_blocks

from .cards import SIDES, TURN_LABELS, ScoreCard
from .rounds import SKIP_LEAD, Fleet, arrive, play_round

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import MineAllMineCard

#: The setup sheet's labels for the numbers of ``setup_counts`` (setup_rules.py).
SETUP_LABELS = {"planets": "Cartes planète", "turns": "Tours par manche", "ships_each": "Cartes vaisseau par joueur"}
SIDE_NOTES = {"planet": "planète", "moon": "lune (3–4 joueurs)"}
#: The aid's worked example of arrival: four fleets' speeds, placed by the round resolver itself.
EXAMPLE_SPEEDS = (("Ana", 9), ("Ben", 5), ("Cy", 5), ("Dora", 3))


def _arrival_example() -> str:
    """The example, in French, as ``rounds.arrive`` places the fleets (ties share a location,
    a lead of SKIP_LEAD or more leaves one empty)."""
    labels = [label for side in SIDES for label in TURN_LABELS[side]]
    landings = arrive([Fleet(name, speed, 0, 0) for name, speed in EXAMPLE_SPEEDS])
    speeds = ", ".join(str(speed) for _, speed in EXAMPLE_SPEEDS[:-1]) + f" et {EXAMPLE_SPEEDS[-1][1]}"
    parts = []
    previous = None
    for landing in landings:
        who = " et ".join(landing.players)
        where = f"« {labels[landing.location - 1]} »"
        if previous is not None and landing.location > previous.location + 1:
            gap = previous.speed - landing.speed
            empty = ", ".join(f"« {labels[i - 1]} »" for i in range(previous.location + 1, landing.location))
            parts.append(f"{empty} reste vide ({previous.speed}\u00a0−\u00a0{landing.speed}\u00a0=\u00a0{gap})")
        if len(landing.players) > 1:
            parts.append(f"{who} ({landing.speed}), à égalité, partagent {where}")
        else:
            parts.append(f"{who} ({landing.speed}) arrive sur {where}")
        previous = landing
    return f"*Exemple* — vitesses {speeds} : " + " ; ".join(parts) + "."


#: The aid's worked example of extraction (a 2-player round on one planet), played out by the
#: round resolver: (player, speed, attack, cargo) and the resources of each turn.
EXAMPLE_FLEETS = (("Ana", 7, 1, 3), ("Ben", 6, 2, 4))
EXAMPLE_RESOURCES = (2, 3, 3)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n > 1 else ''}"


def _extraction_example() -> str:
    """The example, in French, as ``rounds.play_round`` plays it out."""
    labels = [label for side in SIDES for label in TURN_LABELS[side]]
    fleets = [Fleet(*f) for f in EXAMPLE_FLEETS]
    by_name = {f.player: f for f in fleets}
    play = play_round(fleets, EXAMPLE_RESOURCES)
    room = {f.player: f.cargo for f in fleets}
    who = " et ".join(f"{f.player} ({f.speed} :speed:, {f.attack} :attack:, {f.cargo} :cargo:)" for f in fleets)
    offered = ", ".join(str(n) for n in EXAMPLE_RESOURCES[:-1]) + f" et {EXAMPLE_RESOURCES[-1]}"
    turns = []
    for t in play.turns:
        stayed = [p for p in t.present if p not in t.fled]
        parts = []
        top = max((by_name[p].attack for p in t.present), default=0)
        parts += [f"{p} fuit ({by_name[p].attack} :attack: contre {top})" for p in t.fled]
        for p in stayed:
            n = t.took.get(p, 0)
            room[p] -= n
            alone = "seule flotte présente, " if len(t.present) == 1 else ""
            took = f"prend {n}" if n else "ne prend rien"
            parts.append(f"{alone}{p} {took}" + (" : sa :cargo: est pleine" if n and room[p] == 0 else ""))
        if t.lost:
            s = "s" if t.lost > 1 else ""
            parts.append(f"{t.lost} ressource{s} perdue{s}")
        turns.append(f"« {labels[t.turn - 1]} » : " + (", ".join(parts) if parts else "personne"))
    points = ", ".join(f"{p} {_plural(n, 'point')}" for p, n in play.points.items())
    return (f"*Exemple* — {who} ; tours de {offered} :resource: : " + " ; ".join(turns)
            + f". Total : {points}.")


def blocks(data: GameData[MineAllMineCard]) -> dict[str, list[Block]]:
    out: dict[str, list[Block]] = {}
    scores = data.cards_as("score", ScoreCard)
    if scores:
        top = scores[0].track_max
        out["piste-de-score"] = build_blocks([{"kind": "track", "start": 0, "end": top, "shape": "grid",
                                               "per_row": min(top + 1, 14)}])
    labels = [label for side in SIDES for label in TURN_LABELS[side]]
    notes = {label: SIDE_NOTES[side] for side in SIDES for label in TURN_LABELS[side]}
    out["lieux"] = build_blocks([{"kind": "track", "spaces": labels, "notes": notes}])
    out["regle-d-arrivee"] = build_blocks([{"kind": "text", "text": (
        f"La flotte la plus rapide :speed: arrive sur le premier lieu, la suivante sur le lieu "
        f"suivant ; à vitesse égale, même lieu. Si une flotte a **{SKIP_LEAD} :speed: ou plus** "
        f"d'avance sur la suivante, sautez un lieu (laissé vide) avant la plus lente.")}])
    out["exemple-d-arrivee"] = build_blocks([{"kind": "text", "text": _arrival_example()}])
    out["exemple-d-extraction"] = build_blocks([{"kind": "text", "text": _extraction_example()}])
    return out
