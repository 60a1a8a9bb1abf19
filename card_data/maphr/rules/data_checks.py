"""Cross-card checks of Maphr's data: the deck's invariants from the rulebook.

Runs after every file validated (so each card is well formed); every broken invariant is one
problem, located on the card or file concerned. The rule each check enforces is quoted beside it.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from cardforge.problems import Problem, short_repr
from cardforge.resources import display_path

from .cards import (
    ACTIONS,
    COLOURS,
    IMMEDIATE_KINDS,
    ROMAN,
    Impediment,
    Improvement,
    Vein,
)
from .names import fold_name, same_name
from .rules import (
    CARDS_EACH,
    MAX_GALLERIES,
    MAX_MINERS,
    MAX_PLAYERS,
    MINERS_IN_BOX,
    TOTAL_CARDS,
)

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase

    from .cards import MaphrCard

#: The improvements the mine-level rule names, with their colour and the highest level they
#: may need (each opens the next mine level, so it must be buildable before it).
KEY_IMPROVEMENTS: tuple[tuple[str, str, int], ...] = (
    ("Étayage", "red", 2),  # level III: «10 pièces … l'aménagement "étayage"»
    ("Bureau de l'ordination logique des tunnels", "grey", 3),  # level IV: 15 coins with it
)


def check_data(data: GameData[MaphrCard]) -> list[Problem]:
    return [
        *_check_total(data),
        *_check_veins(data),
        *_check_impediments(data),
        *_check_improvement_levels(data),
        *_check_key_improvements(data),
        *_check_unique_names(data),
        *_check_starting_hands(data),
        *_check_clans(data),
        *_check_mine_levels(data),
        *_check_draw_modes(data),
        *_check_components(data),
    ]


def _file(data: GameData[MaphrCard], name: str) -> str:
    return display_path(data.root / name)


def _at(data: GameData[MaphrCard], card: CardBase, field: str | None = None) -> dict[str, Any]:
    """Where a card is: file, line and label, for a Problem."""
    source = data.sources[card.id]
    return {"file": source.file, "line": source.line, "item": source.label(card.id), "field": field}


def _check_total(data: GameData[MaphrCard]) -> list[Problem]:
    # «Contenu : 250 cartes.» A warning, not an error: a designer trying a card out must still be
    # able to build, set up and score (`cardforge check --strict` makes it fail).
    total = len(data.printed)
    if total == TOTAL_CARDS:
        return []
    by_kind = ", ".join(f"{kind} {n}" for kind, n in data.count_by_kind().items())
    return [Problem(f"the deck has {total} cards ({by_kind}); the rulebook's deck has {TOTAL_CARDS} "
                    "(change some copies)", file=_file(data, "deck.yaml"), severity="warning")]


def _check_veins(data: GameData[MaphrCard]) -> list[Problem]:
    # «Il existe des filons de charbon, d'or et de mithril. Ceux de charbon étant plus nombreux
    # que ceux d'or, qui sont plus nombreux que ceux de mithril.» (counted in cards)
    veins = [c for c in data.cards if isinstance(c, Vein)]
    counts = Counter({"coal": 0, "gold": 0, "mithril": 0})
    for vein in veins:
        counts[vein.ore] += vein.copies
    if counts["coal"] > counts["gold"] > counts["mithril"] > 0:
        return []
    where = data.sources[veins[0].id].file if veins else _file(data, "deck.yaml")
    return [Problem(f"vein cards: coal {counts['coal']}, gold {counts['gold']}, mithril {counts['mithril']}; "
                    "the rulebook wants more coal than gold and more gold than mithril (and some mithril)",
                    file=where)]


def _check_impediments(data: GameData[MaphrCard]) -> list[Problem]:
    # «Il y a un empêchement par type d'action.» One card per action (printed in copies).
    problems: list[Problem] = []
    first: dict[str, Impediment] = {}
    for card in data.cards:
        if not isinstance(card, Impediment):
            continue
        if card.action in first:
            problems.append(Problem(
                f"a second impediment for the {card.action} action (the first is '{first[card.action].id}'); "
                "the rulebook has one impediment per action type (print more copies of one card)",
                **_at(data, card, "action")))
        else:
            first[card.action] = card
    for action in ACTIONS:
        if action not in first:
            problems.append(Problem(
                f"no impediment for the {action} action; the rulebook has one per action type "
                f"({', '.join(ACTIONS)})", file=_file(data, "deck.yaml")))
    return problems


def _check_improvement_levels(data: GameData[MaphrCard]) -> list[Problem]:
    # «Il en existe 5 couleurs […] le niveau de mine nécessaire pour les construire»: every
    # colour can be built at every mine level, so no colour is out of reach at any stage.
    present = {(c.colour, c.level) for c in data.cards if isinstance(c, Improvement) and c.copies}
    missing = [f"{colour} {ROMAN[level]}" for colour in COLOURS for level in ROMAN
               if (colour, level) not in present]
    if not missing:
        return []
    return [Problem(f"no printed improvement for {', '.join(missing)}; each of the 5 colours needs "
                    "improvements at every mine level I–IV", file=_file(data, "deck.yaml"))]


def _check_key_improvements(data: GameData[MaphrCard]) -> list[Problem]:
    # Phase V: level III costs 10 with Étayage, level IV 15 with the Bureau.
    problems: list[Problem] = []
    improvements = [c for c in data.cards if isinstance(c, Improvement)]
    for name, colour, max_level in KEY_IMPROVEMENTS:
        card = next((c for c in improvements if same_name(c.name, name)), None)
        if card is None:
            problems.append(Problem(
                f"no improvement named '{name}': the mine-level rule needs it ({colour}, level "
                f"{ROMAN[max_level]} at most)", file=_file(data, "deck.yaml")))
            continue
        if card.colour != colour:
            problems.append(Problem(f"{name} is a {colour} improvement in the rulebook, got {card.colour}",
                                    **_at(data, card, "colour")))
        if card.level > max_level:
            problems.append(Problem(
                f"{name} opens mine level {ROMAN[max_level + 1]}, so it must be buildable before it: "
                f"level {ROMAN[max_level]} at most, got {card.level_roman}", **_at(data, card, "level")))
    return problems


def _check_unique_names(data: GameData[MaphrCard]) -> list[Problem]:
    # «On ne peut avoir qu'un seul aménagement d'un nom donné»: a name is one card (with copies).
    # Veins are left out: the same vein comes in several shapes under one printed name.
    problems: list[Problem] = []
    seen: dict[tuple[str, str], CardBase] = {}
    for card in data.cards:
        if isinstance(card, Vein):
            continue
        key = (card.kind, fold_name(card.name))
        if key in seen:
            other = seen[key]
            problems.append(Problem(
                f"the name '{card.name}' is already card '{other.id}' ({data.sources[other.id].file}, "
                f"#{data.sources[other.id].index}); one card per name, print more copies of it",
                **_at(data, card, "name")))
        else:
            seen[key] = card
    return problems


def _check_starting_hands(data: GameData[MaphrCard]) -> list[Problem]:
    # Starting hands hold no contract or catastrophe: the deck must have enough other cards.
    playable = sum(c.copies for c in data.cards if c.kind not in IMMEDIATE_KINDS)
    needed = CARDS_EACH * MAX_PLAYERS
    if playable >= needed:
        return []
    return [Problem(f"only {playable} cards are neither contracts nor catastrophes; {MAX_PLAYERS} starting "
                    f"hands of {CARDS_EACH} need {needed}", file=_file(data, "deck.yaml"))]


def _check_clans(data: GameData[MaphrCard]) -> list[Problem]:
    # «Il y a 10 clans de nains» and «Un des clans est considéré comme faisant partie des nains gris».
    clans = data.sections.get("clans", [])
    file = _file(data, "clans.yaml")
    problems: list[Problem] = []
    if len(clans) != 10:
        problems.append(Problem(f"{len(clans)} clans; the base game has 10 clan boards", file=file))
    grey = [c.id for c in clans if c.grey]
    if len(grey) != 1:
        shown = ", ".join(grey) if grey else "none"
        problems.append(Problem(f"exactly one clan must be a grey-dwarf clan (grey: true) in the base game, "
                                f"got {len(grey)} ({shown})", file=file))
    return problems


def _check_mine_levels(data: GameData[MaphrCard]) -> list[Problem]:
    # Phase V: four levels, I to IV; the score checks assume level IV's 12 galleries, 5 miners.
    levels = data.sections.get("mine_levels", [])
    file = _file(data, "mine_levels.yaml")
    problems: list[Problem] = []
    got = [m.level for m in levels]
    if got != [1, 2, 3, 4]:
        problems.append(Problem(f"the mine levels must be 1, 2, 3, 4 in that order, got {got}", file=file))
    for m in levels:
        item = f"mine level '{m.id}'"
        if m.roman != ROMAN.get(m.level):
            problems.append(Problem(f"level {m.level} is written {ROMAN.get(m.level)}, got {short_repr(m.roman)}",
                                    file=file, item=item, field="roman"))
        if m.level == 4 and (m.capacity, m.max_miners) != (MAX_GALLERIES, MAX_MINERS):
            problems.append(Problem(
                f"level IV holds {MAX_GALLERIES} galleries and {MAX_MINERS} miners in the rules the scorer "
                f"applies (rules/rules.py), got {m.capacity} and {m.max_miners}: change both",
                file=file, item=item))
    return problems


def _check_draw_modes(data: GameData[MaphrCard]) -> list[Problem]:
    # «Le chiffre indiqué donne le type de pioche»: one mode per face of the die.
    faces = sorted(m.face for m in data.sections.get("draw_modes", []))
    if faces == [1, 2, 3, 4, 5, 6]:
        return []
    return [Problem(f"the draw modes must cover the die faces 1–6 once each, got {faces}",
                    file=_file(data, "draw_modes.yaml"))]


def _check_components(data: GameData[MaphrCard]) -> list[Problem]:
    # The box contents agree with the deck, the clans and the miners the scorer allows.
    components = {c.id: c for c in data.sections.get("components", [])}
    expected = {
        "cartes": (TOTAL_CARDS, "cards of the rulebook's deck"),
        "plateaux-de-clans": (len(data.sections.get("clans", [])), "clans in clans.yaml"),
        "mineurs": (MINERS_IN_BOX, "miners the scorer allows (rules.py)"),
    }
    problems: list[Problem] = []
    for ident, (count, what) in expected.items():
        component = components.get(ident)
        if component is None:
            problems.append(Problem(f"no component '{ident}' ({count} {what})", file=_file(data, "components.yaml")))
        elif component.count != count:
            problems.append(Problem(f"count {component.count} differs from the {count} {what}",
                                    file=_file(data, "components.yaml"), item=f"component '{ident}'",
                                    field="count"))
    return problems
