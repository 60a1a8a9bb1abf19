"""Cross-card checks of the Cristaux data against the rulebook: how many cards each mode plays,
which schools a mode has, the gifts' two faces, the decks the setup draws from."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from cardforge.problems import Problem
from cardforge.resources import display_path

from .cards import SCORING_KINDS, CristauxCard, GiftCard, ProjectCard, TopazeCard
from .setup_rules import CURSED_REMOVED, GIFTS, ROUNDS

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase

#: «134 cartes : 98 projets collectables (pour le mode avancé, mais 59 en classique et seulement 33
#: en initiation)» — project cards (copies counted) played in each mode.
PROJECTS_PER_MODE = {"avance": 98, "classique": 59, "initiation": 33}
TROUVAILLES = 15  # «15 cartes évènements « trouvailles des mineurs »»
TOPAZE_CARDS = 10  # «10 cartes « Topaze et Opale »»
MAX_PLAYERS = 5

#: Scoring kinds a mode does not play. «En dessous de ce point, le contenu ne concerne pas les jours
#: du mode initiation» (Forge, Religion, Musiciens); musicians only in avancé (their Topaze card is
#: removed «sauf en mode avancé»); Calices and Cristaux maudits are avancé cards («cartes
#: spécifiques du mode avancé»; the cursed-crystal deck is set up in avancé).
KINDS_NOT_IN = {
    "initiation": {"lunettes", "pinces", "religion", "calice", "socle", "musicien", "baton", "maudit"},
    "classique": {"musicien", "baton", "calice", "maudit"},
}


def check_cards(data: GameData[CristauxCard]) -> list[Problem]:
    problems: list[Problem] = []
    projects = data.cards_as("project", ProjectCard)
    problems += _mode_counts(data, projects)
    problems += _kinds_present(data, projects)
    for card in projects:
        problems += _card_fits_its_modes(data, card)
    problems += _cursed_deck(data, projects)
    problems += _gifts(data)
    problems += _other_decks(data)
    return problems


def _at(data: GameData[CristauxCard], card: CardBase, message: str, field: str | None = None) -> Problem:
    src = data.sources.get(card.id)
    return Problem(message, file=src.file if src else None, item=src.label(card.id) if src else card.id,
                   field=field, line=src.line if src else None)


def _mode_counts(data: GameData[CristauxCard], projects: list[ProjectCard]) -> list[Problem]:
    problems = []
    for mode, wanted in PROJECTS_PER_MODE.items():
        n = sum(c.copies for c in projects if mode in c.modes)
        if n != wanted:
            problems.append(Problem(f"{n} project cards are played in {mode}, the rulebook says {wanted}",
                                    file=display_path(data.root), field="modes"))
    return problems


def _kinds_present(data: GameData[CristauxCard], projects: list[ProjectCard]) -> list[Problem]:
    present = {c.scoring.kind for c in projects if c.copies}
    missing = [k for k in SCORING_KINDS if k not in present]
    if missing:
        return [Problem(f"no project card scores by {', '.join(missing)} (every scoring kind needs one)",
                        file=display_path(data.root), field="scoring")]
    return []


def _card_fits_its_modes(data: GameData[CristauxCard], card: ProjectCard) -> list[Problem]:
    problems = []
    for mode, kinds in KINDS_NOT_IN.items():
        if mode not in card.modes:
            continue
        if card.scoring.kind in kinds:
            problems.append(_at(data, card, f"a {card.scoring.kind} card is not played in {mode}; "
                                            f"its modes must leave {mode} out", "modes"))
        if card.x_colour is not None and card.scoring.kind not in kinds:
            problems.append(_at(data, card, f"X-cost cards are avancé cards, not played in {mode}", "modes"))
        if any(vars(card.music).values()):
            problems.append(_at(data, card, f"music symbols belong to avancé cards, not {mode}", "music"))
    if "initiation" in card.modes:
        if card.forge_squares:
            problems.append(_at(data, card, "the forge is not played in initiation", "forge_squares"))
        if card.logos.multi:
            problems.append(_at(data, card, "no multicolour logo in initiation («absent du mode "
                                            "initiation»)", "logos.multi"))
    x = card.x_colour
    if x is not None and card.cost.of(x):
        problems.append(_at(data, card, f"costs X {x}: its {x} cost is what was paid, so the parchment "
                                        f"gives 0, got {card.cost.of(x)}", f"cost.{x}"))
    return problems


def _cursed_deck(data: GameData[CristauxCard], projects: list[ProjectCard]) -> list[Problem]:
    problems = []
    deck = [c for c in projects if c.cursed_deck]
    for card in deck:
        if card.scoring.kind != "maudit":
            problems.append(_at(data, card, "only Cristaux maudits are in the cursed-crystal deck",
                                "cursed_deck"))
    size = sum(c.copies for c in deck)
    if size != max(CURSED_REMOVED.values()) + 1:
        problems.append(Problem(f"the cursed-crystal deck has {size} cards; setup removes 2 at 2–3 "
                                "players and leaves 1, so it has 3", file=display_path(data.root),
                                field="cursed_deck"))
    return problems


def _gifts(data: GameData[CristauxCard]) -> list[Problem]:
    problems = []
    gifts = data.cards_as("gift", GiftCard)
    for card in gifts:
        other = data.card(card.other_side) if data.has_card(card.other_side) else None
        if not isinstance(other, GiftCard):
            problems.append(_at(data, card, f"unknown gift '{card.other_side}'", "other_side"))
            continue
        if other.other_side != card.id:
            problems.append(_at(data, card, f"'{other.id}' names '{other.other_side}' as its other "
                                            f"side, not '{card.id}'", "other_side"))
        if set(other.modes) != set(card.modes):
            problems.append(_at(data, card, f"both faces of a gift are played in the same modes "
                                            f"('{other.id}': {other.modes})", "modes"))
        if card.copies and other.copies:
            problems.append(_at(data, card, f"a two-sided card is printed once: one face has "
                                            f"copies 0 ('{other.id}' has {other.copies})", "copies"))
    for mode, wanted in GIFTS.items():
        printed = [c for c in gifts if mode in c.modes and c.copies]
        if len(printed) != wanted:
            problems.append(Problem(f"{len(printed)} kinds of gift in {mode}, each player gets {wanted}",
                                    file=display_path(data.root), field="gifts"))
        for card in printed:
            if card.copies != MAX_PLAYERS or not card.active:
                problems.append(_at(data, card, f"each of the {MAX_PLAYERS} players gets one, on its "
                                                "active face", "copies"))
    return problems


def _other_decks(data: GameData[CristauxCard]) -> list[Problem]:
    problems = []
    where = display_path(data.root)
    counts = data.count_by_kind()
    if counts.get("trouvaille", 0) != TROUVAILLES:
        problems.append(Problem(f"{counts.get('trouvaille', 0)} trouvailles des mineurs, the rulebook "
                                f"says {TROUVAILLES}", file=where, field="trouvaille"))
    if counts.get("topaze", 0) != TOPAZE_CARDS:
        problems.append(Problem(f"{counts.get('topaze', 0)} Topaze/Opale cards, the rulebook says "
                                f"{TOPAZE_CARDS}", file=where, field="topaze"))
    topaze = data.cards_as("topaze", TopazeCard)
    for mode, rounds in ROUNDS.items():
        n = sum(c.copies for c in topaze if mode in c.modes)
        if n < rounds:
            problems.append(Problem(f"{n} Topaze cards left in {mode}, one is needed per round ({rounds})",
                                    file=where, field="topaze"))
    schools = Counter(c.school for c in topaze)
    for school in ("esthete", "noblesse", "memoriss", "cour", "forge", "religion", "musicien"):
        if not schools[school]:
            problems.append(Problem(f"no Topaze card for the {school} school", file=where, field="topaze"))
    gems = {c.gem for c in data.sections.get("components", []) if c.in_bag and c.count}
    for gem in ("red", "green", "blue", "gold"):
        if gem not in gems:
            problems.append(Problem(f"the bag needs its {gem} crystals (a component with gem: {gem}, "
                                    "in_bag: true and a count)",
                                    file=display_path(data.root / "components.yaml"), field="components"))
    return problems
