"""Mine, All Mine!'s printables derived from its data and rules: the score track (0 to the
score card's ``track_max``), the arrival locations as printed on the planet cards, and the
arrival rule with the skip lead the round resolver uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardforge.data.printables import Block, build_blocks
from cardforge.games.mine_all_mine.cards import SIDES, TURN_LABELS
from cardforge.games.mine_all_mine.rounds import SKIP_LEAD

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

SIDE_NOTES = {"planet": "planète", "moon": "lune (3–4 joueurs)"}


def blocks(data: GameData) -> dict[str, list[Block]]:
    out: dict[str, list[Block]] = {}
    scores = data.cards_of("score")
    if scores:
        top = scores[0].track_max  # type: ignore[attr-defined]
        out["piste-de-score"] = build_blocks([{"kind": "track", "start": 0, "end": top, "shape": "grid",
                                               "per_row": min(top + 1, 14)}])
    labels = [label for side in SIDES for label in TURN_LABELS[side]]
    notes = {label: SIDE_NOTES[side] for side in SIDES for label in TURN_LABELS[side]}
    out["lieux"] = build_blocks([{"kind": "track", "spaces": labels, "notes": notes}])
    out["regle-d-arrivee"] = build_blocks([{"kind": "text", "text": (
        f"La flotte la plus rapide :speed: arrive sur le premier lieu, la suivante sur le lieu "
        f"suivant ; à vitesse égale, même lieu. Si une flotte a **{SKIP_LEAD} :speed: ou plus** "
        f"d'avance sur la suivante, sautez un lieu (laissé vide) avant la plus lente.")}])
    return out
