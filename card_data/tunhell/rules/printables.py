"""TunHell's printables derived from its card data: the table of dwarf types and what each does,
the table of the cards found in the mines, and the trophy tracks (Terre and Rats counted up to
the copies in the deck). Change a card's values or copies in ``card_data/tunhell/`` and the aid
and the board follow.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from cardforge.data.printables import Block, build_blocks

from .cards import Dwarf, FoundCard, Trophy, TunhellCard

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

TYPE_LABELS = {"guerrier": "Guerrier", "piocheur": "Piocheur", "eclaireur": "Éclaireur",
               "dynamiteur": "Dynamiteur"}
TYPE_ICONS = {"guerrier": "warrior", "piocheur": "digger", "eclaireur": "scout", "dynamiteur": "blaster"}
#: The setup sheet's labels for the numbers of ``setup_counts`` (setup_rules.py).
SETUP_LABELS = {"mine_removed": "Cartes Mine écartées", "pile_size": "Cartes Mine par mine",
                "end_of_mine_removed": "Cartes Fin de Mine écartées", "dwarves_each": "Nains par joueur",
                "recruitment": "Nains du centre de recrutement"}
DESTINATIONS = {"loot": "butin", "hand": "main", "discard": "défausse", "mine": "face à une mine"}


def _icon(name: str) -> str:
    """The token of one of the game's icons (``card_data/tunhell/icons/``; the build checks
    the names against the game's icons)."""
    return f":{name}: " if name else ""


def _marks(card: Any) -> str:
    marks = ""
    if getattr(card, "proud", False):
        marks += " :proud:"
    if getattr(card, "played_on_recruit", False):
        marks += " :recruit:"
    return marks


def _values(card: Any) -> str:
    if card.type == "guerrier":
        return f"{card.combat} :combat:"
    if card.type == "piocheur":
        return f"{card.dig} :dig: +{card.bonus} :combat:"
    if card.type == "eclaireur":
        return f"voit {card.explore} :card:"
    return ""


def _dwarf_table(data: GameData[TunhellCard]) -> dict[str, Any]:
    """One row per dwarf type: its cards (values × copies, marks) and what it does."""
    rows = []
    by_type: dict[str, list[Dwarf]] = {}
    for card in data.cards_as("dwarf", Dwarf):
        by_type.setdefault(card.type, []).append(card)
    for dwarf_type, cards in by_type.items():
        texts: Counter[str] = Counter()
        for c in cards:
            if c.text:
                texts[c.text] += c.copies
        effect = texts.most_common(1)[0][0] if texts else ""
        parts = []
        for c in cards:
            value = _values(c)
            parts.append(f"{value} ×{c.copies}{_marks(c)}".strip())
        total = sum(c.copies for c in cards)
        label = f"{_icon(TYPE_ICONS.get(dwarf_type, ''))}**{TYPE_LABELS.get(dwarf_type, dwarf_type)}**\n{total} cartes"
        rows.append([label, "\n".join(parts), effect])
    return {"kind": "table", "columns": ["Nain", "Cartes", "Effet"], "rows": rows, "widths": [2.9, 2.7, 5.5]}


def _mine_table(data: GameData[TunhellCard]) -> dict[str, Any]:
    """The cards found in the mines: combat to win, VP, copies, where they go."""
    rows = []
    for card in [*data.cards_as("mine", FoundCard), *data.cards_as("end_of_mine", FoundCard)]:
        name = f"**{card.name}**" + (" :plus:" if getattr(card, "plus", False) else "")
        if card.kind == "end_of_mine":
            name += " *(fin de mine)*"
        combat = str(card.combat) if getattr(card, "combat", None) is not None else "—"
        vp = str(card.vp) if getattr(card, "vp", 0) else "—"
        rows.append([name, combat, vp, str(card.copies), DESTINATIONS.get(card.goes_to, card.goes_to)])
    return {"kind": "table", "columns": ["Carte", ":combat:", ":vp:", "×", "Va"], "rows": rows,
            "widths": [5.2, 0.9, 0.9, 0.8, 2.2]}


def _trophy_tracks(data: GameData[TunhellCard]) -> dict[str, list[Block]]:
    """A track per trophy, 0 to the number of such cards in the deck."""
    out: dict[str, list[Block]] = {}
    for trophy in data.cards_as("trophy", Trophy):
        counted = [c for c in data.cards if c.id == trophy.most]
        if not counted:
            continue
        top = counted[0].copies
        out[f"piste-{trophy.id}"] = build_blocks([{
            "kind": "track", "start": 0, "end": top, "shape": "grid", "per_row": min(top + 1, 10),
        }])
    return out


def blocks(data: GameData[TunhellCard]) -> dict[str, list[Block]]:
    out = {}
    if data.cards_of("dwarf"):
        out["nains"] = build_blocks([_dwarf_table(data)])
    if data.cards_of("mine"):
        out["cartes-mine"] = build_blocks([_mine_table(data)])
    out.update(_trophy_tracks(data))
    return out
