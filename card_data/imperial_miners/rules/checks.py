"""Cross-file sanity checks of Imperial Miners' data against the rulebook (card_data/imperial_miners/RULES.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardforge.data.loading import GameData
from cardforge.problems import Problem
from cardforge.resources import display_path

from .cards import MineTemplate
from .sections import NUMERALS, SECTIONS, Grade, Level

#: The box inventory of the digest: component id → (count, {part id: (count, face value)}).
DIGEST_COMPONENTS: dict[str, tuple[int, dict[str, tuple[int, int | None]]]] = {
    "cartes-mine": (136, {"cartes-i": (36, None), "cartes-ii": (43, None),
                          "cartes-iii": (43, None), "cartes-iv": (14, None)}),
    "cartes-evenement": (18, {}),
    "livret": (1, {}),
    "pieces": (60, {"pieces-argent": (42, 1), "pieces-or": (18, 5)}),
    "jetons-pv": (63, {"pv-bleus": (27, 1), "pv-verts": (21, 5), "pv-rouges": (15, 10)}),
    "jetons-machine": (45, {}),
    "jetons-eboulement": (18, {}),
    "jetons-chariot": (42, {}),
    "marqueurs-progres": (5, {}),
    "plateaux-surface": (5, {}),
    "plateaux-progres": (3, {}),
}
#: « Les Écossais, Égyptiens, Atlantes, Barbares, Japonais, Romains » (rulebook, « Les factions »)
FACTION_IDS = ("ecossais", "egyptiens", "atlantes", "barbares", "japonais", "romains")
ANATOMY_PARTS = 5  # « Aperçu d'une carte Mine »: parts 1 to 5


class _Where:
    """Locates problems in one section file: ``card_data/imperial_miners/boards.yaml``."""

    def __init__(self, data: GameData[MineTemplate], section: str, item: str):
        spec = next(s for s in SECTIONS if s.name == section)
        self.file = display_path(data.root / spec.file)
        self.item = item

    def problem(self, message: str, ident: str | None = None, field: str | None = None) -> Problem:
        item = f"{self.item} '{ident}'" if ident else None
        return Problem(message, file=self.file, item=item, field=field)


def check_data(data: GameData[MineTemplate], max_players: int) -> list[Problem]:
    s = data.sections
    return [
        *_components(data, s["components"], s["levels"]),
        *_events(data, s["events"], s["components"]),
        *_colours_and_boards(data, s["colours"], s["board_rules"], s["components"], max_players),
        *_factions(data, s["factions"]),
        *_anatomy(data, s["card_parts"]),
        *_grades(data, s["grades"]),
        *_templates(data, s["levels"]),
    ]


def _count_of(components: Sequence[Any], component_id: str) -> int | None:
    return next((c.count for c in components if c.id == component_id), None)


def _components(data: GameData[MineTemplate], components: Sequence[Any], levels: Sequence[Level]) -> list[Problem]:
    where = _Where(data, "components", "component")
    problems = []
    by_id = {c.id: c for c in components}
    for cid, (count, parts) in DIGEST_COMPONENTS.items():
        component = by_id.get(cid)
        if component is None:
            problems.append(where.problem(f"missing component '{cid}' (the rulebook lists {count})"))
            continue
        if component.count != count:
            problems.append(where.problem(f"must be {count} (rulebook), got {component.count}", cid, "count"))
        given = {p.id: (p.count, p.value) for p in component.parts}
        if given != parts:
            want = ", ".join(f"{pid} {n}" + (f"×{v}" if v else "") for pid, (n, v) in parts.items()) or "none"
            problems.append(where.problem(f"must be (count×value) {want} as in the rulebook", cid, "parts"))
        if component.parts and sum(p.count for p in component.parts) != component.count:
            total = sum(p.count for p in component.parts)
            problems.append(where.problem(f"add up to {total}, the count says {component.count}", cid,
                                          "parts"))
    mine = by_id.get("cartes-mine")
    if mine is not None:
        part_levels = [p.level for p in mine.parts]
        level_numerals = [lv.numeral for lv in levels]
        if part_levels != list(NUMERALS) or level_numerals != list(NUMERALS):
            problems.append(where.problem(
                f"mine-card parts and levels.yaml must both be levels {', '.join(NUMERALS)} in order "
                f"(parts: {part_levels}, levels: {level_numerals})", "cartes-mine", "parts"))
    return problems


def _events(data: GameData[MineTemplate], events: Sequence[Any], components: Sequence[Any]) -> list[Problem]:
    where = _Where(data, "events", "event")
    problems = []
    expected = _count_of(components, "cartes-evenement")
    if expected is not None and len(events) != expected:
        problems.append(where.problem(f"{len(events)} events given, the box holds {expected}"))
    numbers = [e.number for e in events]
    if numbers != list(range(1, len(events) + 1)):
        problems.append(where.problem(f"events must be numbered 1 to {len(events)} in order, got {numbers}"))
    return problems


def _colours_and_boards(data: GameData[MineTemplate], colours: Sequence[Any], boards: Sequence[Any],
                        components: Sequence[Any], max_players: int) -> list[Problem]:
    problems = []
    markers = _count_of(components, "marqueurs-progres")
    if len(colours) != max_players or markers != max_players:
        problems.append(_Where(data, "colours", "colour").problem(
            f"one colour per player: {max_players} players need {max_players} colours and "
            f"{max_players} progress markers, got {len(colours)} colours and {markers} markers"))
    where = _Where(data, "board_rules", "board")
    by_id = {b.id: b for b in boards}
    for board_id, component_id, sides in (("surface", "plateaux-surface", 1), ("progres", "plateaux-progres", 2)):
        board = by_id.get(board_id)
        if board is None:
            problems.append(where.problem(f"missing board '{board_id}'"))
            continue
        count = _count_of(components, component_id)
        if board.count != count:
            problems.append(where.problem(f"must match component '{component_id}' ({count}), got {board.count}",
                                          board_id, "count"))
        if len(board.sides) != sides:
            problems.append(where.problem(f"must have {sides} side(s), got {len(board.sides)}", board_id, "sides"))
    surface = by_id.get("surface")
    if surface is not None and surface.choices != 3:  # « Le plateau Surface propose trois effets »
        problems.append(where.problem(f"must be 3 (rulebook), got {surface.choices}", "surface", "choices"))
    return problems


def _factions(data: GameData[MineTemplate], factions: Sequence[Any]) -> list[Problem]:
    ids = tuple(f.id for f in factions)
    if ids == FACTION_IDS:
        return []
    return [_Where(data, "factions", "faction").problem(
        f"the six factions must be {', '.join(FACTION_IDS)} in the rulebook's order, got {', '.join(ids)}")]


def _anatomy(data: GameData[MineTemplate], parts: Sequence[Any]) -> list[Problem]:
    numbers = [p.number for p in parts]
    if numbers == list(range(1, ANATOMY_PARTS + 1)):
        return []
    return [_Where(data, "card_parts", "part").problem(
        f"the card parts must be numbered 1 to {ANATOMY_PARTS} in order, got {numbers}")]


def _grades(data: GameData[MineTemplate], grades: Sequence[Grade]) -> list[Problem]:
    """The grades must cover every score once: from 0, each starting after the previous one,
    the last without an upper bound."""
    where = _Where(data, "grades", "grade")
    problems = []
    expected_min = 0
    for i, grade in enumerate(grades):
        last = i == len(grades) - 1
        if grade.min != expected_min:
            problems.append(where.problem(f"must be {expected_min} (right after the previous grade), "
                                          f"got {grade.min}", grade.id, "min"))
        if last and grade.max is not None:
            problems.append(where.problem(f"the last grade has no upper bound (null), got {grade.max}",
                                          grade.id, "max"))
        if not last and (grade.max is None or grade.max < grade.min):
            problems.append(where.problem(f"must be a score ≥ min ({grade.min}), got {grade.max}",
                                          grade.id, "max"))
        expected_min = (grade.max or 0) + 1
    if not grades:
        problems.append(where.problem("the solo grade table is empty"))
    return problems


def _templates(data: GameData[MineTemplate], levels: Sequence[Level]) -> list[Problem]:
    """A printed cost must be one the level allows (« Les cartes II coûtent 2 »…)."""
    by_numeral = {lv.numeral: lv for lv in levels}
    problems = []
    for card in data.cards:
        if not isinstance(card, MineTemplate) or card.cost is None:
            continue
        level = by_numeral.get(card.level)
        if level is not None and not level.cost_min <= card.cost <= level.cost_max:
            source = data.sources[card.id]
            allowed = (f"{level.cost_min}" if level.cost_min == level.cost_max
                       else f"{level.cost_min}–{level.cost_max}")
            problems.append(Problem(
                f"level {card.level} cards cost {allowed} (rulebook), got {card.cost}; "
                "null leaves the box blank", file=source.file, item=source.label(card.id), field="cost",
                line=source.line))
    return problems
