"""Maphr's printables derived from its data: the 10 clan boards (clans.yaml + mine_levels.yaml)
and the tables the player aid inserts (the draw die from draw_modes.yaml, the mine levels).

One data source: change a clan's power, a level's cost or a die face in ``card_data/maphr/``
and the clan boards and the aid follow in the next build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardforge.data.printables import Block, Board, build_blocks, build_board

from .rules import MAX_MINERS, galleries_required

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import MaphrCard

#: Clan boards are a set size (not in the rulebook: provisional), two to an A4 or Letter sheet.
CLAN_BOARD = {"width": "190mm", "height": "130mm"}
GREY_COLOUR = "#5d6166"
#: The setup sheet's labels for the numbers of ``setup_counts`` (setup_rules.py).
SETUP_LABELS = {"galleries_required": "Galeries et filons pour finir (nains gris : 2 de moins)"}


def _level_cost(level: Any) -> str:
    if not level.options:
        return "Niveau de départ de toutes les mines"
    parts = [f"{o.cost} :coin: · {o.condition}" for o in level.options]
    return "\n*ou* ".join(parts)


def _second_action(level: Any) -> str:
    n = level.second_action_discard
    return "gratuite" if n == 0 else f"défausser {n} :card:"


def _level_table(data: GameData[MaphrCard], *, short: bool = False) -> dict[str, Any]:
    """The mine-level table (rulebook, «Phase V»), as printed on every clan board."""
    levels = sorted(data.sections.get("mine_levels") or [], key=lambda m: m.level)
    if short:
        return {
            "kind": "table",
            "columns": ["Niveau", "Coût et condition", ":gallery: max", ":miner: max"],
            "rows": [[f"**{m.roman}**", _level_cost(m), str(m.capacity), str(m.max_miners)] for m in levels],
            "widths": [1.1, 6.8, 1.3, 1.3],
        }
    return {
        "kind": "table",
        "columns": ["Niveau", "Coût et condition", ":gallery: max", ":miner: max", "2ᵉ action"],
        "rows": [[f"**{m.roman}**", _level_cost(m), str(m.capacity), str(m.max_miners), _second_action(m)]
                 for m in levels],
        "widths": [1.1, 5.0, 1.3, 1.3, 2.6],
    }


def _die_table(data: GameData[MaphrCard]) -> dict[str, Any]:
    """The draw die (rulebook, «Phase I : Pioche»): one row per face."""
    modes = sorted(data.sections.get("draw_modes") or [], key=lambda d: d.face)
    return {
        "kind": "table",
        "columns": [":die:", "Pioche"],
        "rows": [[f"**{d.face}**", f"**{d.name}** — {d.text}"] for d in modes],
        "widths": [1, 12],
    }


def blocks(data: GameData[MaphrCard]) -> dict[str, list[Block]]:
    """Named content for ``{kind: generated, source: …}`` blocks in aids.yaml / boards.yaml."""
    out: dict[str, list[Block]] = {}
    if data.sections.get("draw_modes"):
        out["pioche-au-de"] = build_blocks([_die_table(data)])
        modes = sorted(data.sections["draw_modes"], key=lambda d: d.face)
        out["pioche-au-de-court"] = build_blocks([{
            "kind": "table", "columns": [":die:", "Pioche"], "widths": [1, 5],
            "rows": [[f"**{d.face}**", d.name] for d in modes]}])
    if data.sections.get("mine_levels"):
        out["niveaux-de-mine"] = build_blocks([_level_table(data)])
    return out


def _end_text(grey: bool) -> str:
    a, b = galleries_required(2, grey), galleries_required(4, grey)
    text = (f"La partie s'arrête quand un joueur a **{a}** :gallery: galeries et filons "
            f"(2–3 joueurs) ou **{b}** (4 joueurs).")
    if grey:
        text += " *Nains gris : 2 de moins que les autres clans.*"
    return text


def boards(data: GameData[MaphrCard]) -> list[Board]:
    """One clan board per clan (rulebook: «Les niveaux sont indiqués sur la carte de clan»)."""
    clans = data.sections.get("clans") or []
    levels = sorted(data.sections.get("mine_levels") or [], key=lambda m: m.level)
    if not clans or not levels:
        return []
    table = _level_table(data, short=True)
    track = {
        "kind": "track",
        "spaces": [m.roman for m in levels],
        "notes": {m.roman: f"{m.capacity} :gallery:\n{m.max_miners} :miner:" for m in levels},
    }
    out = []
    for clan in clans:
        subtitle = []
        if clan.city:
            subtitle.append(f"Cité de {clan.city}")
        if clan.grey:
            subtitle.append("Clan de nains gris")
        provisional = "provisional" in (clan.provenance, clan.power_provenance)
        out.append(build_board({
            "id": f"clan-{clan.id}",
            "title": clan.name,
            "subtitle": " · ".join(subtitle) or None,
            "size": CLAN_BOARD,
            "margin": "8mm",
            "colour": GREY_COLOUR if clan.grey else None,
            "provenance": "provisional" if provisional else "rulebook",
            "grid": {"columns": 12, "rows": 6, "gap": "3mm"},
            "zones": [
                {"id": "pouvoir", "title": "Pouvoir du clan", "kind": "text", "text": clan.power,
                 "cell": {"col": 1, "row": 1, "cols": 7, "rows": 2}},
                {"id": "niveaux", "title": "Niveaux de mine", "cell": {"col": 1, "row": 3, "cols": 7, "rows": 4},
                 **table},
                {"id": "niveau-actuel", "title": "Niveau de la mine",
                 "cell": {"col": 8, "row": 1, "cols": 5, "rows": 2}, **track},
                {"id": "fin-de-partie", "title": "Fin de partie", "kind": "text", "text": _end_text(clan.grey),
                 "cell": {"col": 8, "row": 3, "cols": 5, "rows": 2}},
                {"id": "mineurs", "title": "Mineurs", "kind": "text",
                 "text": (f"Le 1er :miner: est gratuit, les suivants coûtent 5 :coin:. Au plus niveau + 1 "
                          f"(:miner: {MAX_MINERS} au niveau IV). Une exploitation rapporte au plus 60 :coin:."),
                 "cell": {"col": 8, "row": 5, "cols": 5, "rows": 2}},
            ],
        }))
    return out
