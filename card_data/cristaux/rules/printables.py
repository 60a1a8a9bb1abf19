"""Cristaux's printables derived from its setup tables: the round track (5 rounds, 4 in
initiation) and the offer table per mode and player count, as the setup rules use them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardforge.data.printables import Block, build_blocks

from .setup_rules import MODE_LABELS, OFFER, RAMEKIN_CRYSTALS, ROUNDS, TROUVAILLES

#: The setup sheet's labels for the numbers of ``setup_counts`` (setup_rules.py).
SETUP_LABELS = {"offer": "Cartes projet de l'offre", "ramekin_crystals": "Cristaux par ramequin",
                "trouvailles": "Trouvailles des mineurs par manche",
                "cursed_removed": "Cristaux maudits retirés du paquet", "gifts": "Cadeaux au roi par joueur"}

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import CristauxCard


def _round_notes(rounds: int) -> dict[str, str]:
    """What each space of the round track reminds (rulebook, «Mise en place des manches 2-3-4-5»,
    «Décompte final»)."""
    notes = {}
    for r in range(1, rounds + 1):
        if r == 1:
            text = "Mise en place de la manche 1"
        else:
            text = ":king: aux enchères"
        if r == rounds - 1:
            text += " ; puis médaillons face :vp:"
        if r == rounds:
            text += " ; décompte final"
        notes[str(r)] = text
    return notes


def blocks(data: GameData[CristauxCard]) -> dict[str, list[Block]]:
    out: dict[str, list[Block]] = {}
    for mode, rounds in ROUNDS.items():
        out[f"manches-{mode}"] = build_blocks([{"kind": "track", "start": 1, "end": rounds,
                                                "notes": _round_notes(rounds)}])
    players = sorted(next(iter(OFFER.values())))
    modes = [m for m in ("initiation", "classique", "avance") if m in OFFER]
    out["offre-de-projets"] = build_blocks([{
        "kind": "table",
        "columns": ["Joueurs", *[f"Offre {MODE_LABELS.get(m, m)}" for m in modes], "Trouvailles"],
        "rows": [[f"**{p}**", *[str(OFFER[m][p]) for m in modes], str(TROUVAILLES[p])] for p in players],
    }, {
        "kind": "text",
        "text": "Ramequins : " + ", ".join(f"**{RAMEKIN_CRYSTALS[m]}** cristaux en {MODE_LABELS.get(m, m)}"
                                          for m in modes if m in RAMEKIN_CRYSTALS) + ".",
    }])
    return out
