"""Imperial Miners' printables derived from its data: the surface and progress board blanks
(board_rules.yaml, colours.yaml) and the content the aids insert — the round structure
(round.yaml), the icon legend (legend.yaml), the factions (factions.yaml), the mine-card
levels (levels.yaml) and the solo grade table the scorer uses (solo_grades.yaml)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardforge.data.printables import Block, Board, build_blocks, build_board

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import MineTemplate

#: Not in the rulebook (the pictures are lost): provisional sizes and progress-track length.
SURFACE_BOARD = {"width": "190mm", "height": "125mm"}
PROGRESS_BOARD = {"width": "190mm", "height": "125mm"}
PROGRESS_SPACES = 10
#: The setup sheet's labels for the numbers of ``setup_counts`` (setup_rules.py).
SETUP_LABELS = {"events": "Cartes Événement", "draw": "Cartes Mine piochées par niveau",
                "keep": "Cartes Mine gardées"}
#: Band colours for the surface boards, by the colour names of colours.yaml.
COLOUR_HEX = {"rouge": "#b3261e", "bleu": "#1f5fa8", "vert": "#2e7d32", "jaune": "#84600a",
              "violet": "#6a3d9a", "noir": "#333333", "blanc": "#6b6b6b", "orange": "#d9661f"}


def _rules(board: Any) -> dict[str, Any]:
    return {"kind": "bullets", "items": list(board.rules)}


def boards(data: GameData[MineTemplate]) -> list[Board]:
    out: list[Board] = []
    rules = {b.id: b for b in data.sections.get("board_rules") or []}
    colours = list(data.sections.get("colours") or [])
    surface = rules.get("surface")
    if surface is not None:
        names = [c.name for c in colours][: surface.count]
        names += [None] * (surface.count - len(names))
        for i, name in enumerate(names, start=1):
            choices = surface.choices or 3
            out.append(build_board({
                "id": f"surface-{i}",
                "title": surface.name,
                "subtitle": f"Couleur : {name}" if name else f"Plateau {i}",
                "size": SURFACE_BOARD,
                "provenance": "provisional",
                "colour": COLOUR_HEX.get((name or "").lower()),
                "grid": {"columns": 1, "rows": 5},
                "zones": [
                    {"id": "effets", "title": f"Effets (choisissez-en 1 sur {choices})",
                     "cell": {"col": 1, "row": 1, "rows": 3}, "kind": "slots",
                     "labels": [f"Effet {k}" for k in range(1, choices + 1)]},
                    {"id": "regles", "cell": {"col": 1, "row": 4, "rows": 2}, "frame": False, **_rules(surface)},
                ],
            }))
    progress = rules.get("progres")
    if progress is not None:
        spaces = [str(k) for k in range(1, PROGRESS_SPACES + 1)]
        for i in range(1, progress.count + 1):
            for side in progress.sides:
                out.append(build_board({
                    "id": f"progres-{i}-{side}",
                    "title": f"{progress.name} {i}",
                    "subtitle": side,
                    "size": PROGRESS_BOARD,
                    "provenance": "provisional",
                    "grid": {"columns": 1, "rows": 5},
                    "zones": [
                        {"id": "cases", "title": "Cases (effet de la case d'arrivée)",
                         "cell": {"col": 1, "row": 1, "rows": 3}, "kind": "track", "spaces": spaces,
                         "per_row": 5, "notes": {s: " " for s in spaces}},
                        {"id": "regles", "cell": {"col": 1, "row": 4, "rows": 2}, "frame": False,
                         **_rules(progress)},
                    ],
                }))
    return out


def _span(grade: Any) -> str:
    if grade.max is None:
        return f"{grade.min} et plus"
    if grade.min == 0:
        return f"moins de {grade.max + 1}"
    return f"{grade.min} à {grade.max}"


def blocks(data: GameData[MineTemplate]) -> dict[str, list[Block]]:
    s = data.sections
    out: dict[str, list[Block]] = {}
    if s.get("phases"):
        out["manche"] = build_blocks([{"kind": "steps",
                                       "items": [f"**{p.name}** — {p.text}" for p in s["phases"]]}])
    if s.get("icons"):
        out["legende"] = build_blocks([{"kind": "legend",
                                        "icons": [{"icon": e.icon, "label": e.label, "text": e.text}
                                                  for e in s["icons"]]}])
    if s.get("factions"):
        out["factions"] = build_blocks([{
            "kind": "table", "columns": ["Faction", "Devise", "Ses cartes"], "widths": [2.2, 2.6, 4.6],
            "rows": [[f":{f.icon}: **{f.name}**", f"*{f.motto}*", f.favours] for f in s["factions"]]}])
    if s.get("grades"):
        out["grades"] = build_blocks([{
            "kind": "table", "columns": ["Score final", "Grade"], "widths": [1.2, 1.6],
            "rows": [[_span(g), f"**{g.name}**"] for g in s["grades"]]}])
    if s.get("levels"):
        def cost(level: Any) -> str:
            if level.cost_min == level.cost_max:
                return "gratuit" if level.cost_min == 0 else f"{level.cost_min} :coin:"
            return f"{level.cost_min} à {level.cost_max} :coin:"

        out["niveaux"] = build_blocks([{
            "kind": "table", "columns": ["Niveau", "Coût", "Pioche"], "widths": [1, 1.6, 3],
            "rows": [[f"**{lv.numeral}**", cost(lv),
                      "au choix" if lv.drawable else "seulement par un plateau Progrès ou un événement"]
                     for lv in s["levels"]]}])
    return out
