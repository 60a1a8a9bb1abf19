"""What the rulebook fixes: the 110 cards (card_data/tunhell/RULES.md) and the setup numbers.

``check_data`` compares the card data with these tables, so a typo in a copy count or a
printed value is caught before it reaches a print or a score.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, NamedTuple

from cardforge.problems import Problem
from cardforge.resources import display_path

from .cards import Dwarf, EndOfMineCard, MineCard, Trophy, is_plus

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.data.models import CardBase

    from .cards import TunhellCard

PILES = 3
DWARVES_EACH = 4
RECRUITMENT = 5
HAND_LIMIT = 6
#: mine cards removed at random (step 2 of each setup), before any shortening
MINE_REMOVED = {"initiation": 7, "full": 9}
END_OF_MINE_REMOVED = {"initiation": 0, "full": 1}
#: «Vous pouvez raccourcir la durée du jeu»: 3, 6 or 9 more mine cards removed
SHORTER = (3, 6, 9)

KIND_TOTALS = {"dwarf": 44, "mine": 60, "end_of_mine": 4, "trophy": 2}
KIND_NOUNS = {"dwarf": "dwarves", "mine": "mine cards", "end_of_mine": "end-of-mine cards",
              "trophy": "trophies"}


class Found(NamedTuple):
    """A mine or end-of-mine card as the rulebook lists it."""

    copies: int
    combat: int | None = None  # an encounter's combat value
    vp: int = 0
    plus: bool = False
    goes_to: str = "loot"


MINE: dict[str, Found] = {
    "terre": Found(18),
    "tresor": Found(10, vp=1),
    "rat": Found(7, combat=1),
    "gobelin": Found(4, combat=2, vp=2),
    "orc": Found(4, combat=3, vp=3),
    "troll": Found(3, combat=4, vp=4),
    "dragon": Found(3, combat=6, vp=6),
    "machin": Found(1, plus=True, goes_to="hand"),
    "dwouarf": Found(1, plus=True, goes_to="hand"),
    "nawak": Found(1, plus=True, goes_to="hand"),
    "vieille-pioche": Found(1, plus=True, goes_to="hand"),
    "biere-du-courage": Found(2, plus=True, goes_to="hand"),
    "anneau-unique": Found(2, vp=2, plus=True, goes_to="hand"),
    "coeur-d-or": Found(1, vp=3, plus=True),
    "fantome-de-grodur": Found(2, plus=True, goes_to="discard"),
}

END_OF_MINE: dict[str, Found] = {
    "porte-de-derriere": Found(1, vp=1, goes_to="mine"),
    "salle-du-trone": Found(1, vp=3),
    "grosse-araignee-poilue": Found(1, combat=5, vp=5),
    "demon-des-profondeurs": Found(1, combat=7, vp=7),
}

#: trophy id → (VP, the loot card whose count decides who holds it)
TROPHIES: dict[str, tuple[int, str]] = {
    "employe-du-mois": (1, "terre"),
    "deratiseur": (2, "rat"),
}

BACK_DOOR = "porte-de-derriere"


class DwarfSignature(NamedTuple):
    """What a dwarf prints, the identity the rulebook counts by."""

    type: str
    combat: int | None = None
    dig: int | None = None
    bonus: int | None = None
    explore: int | None = None
    played_on_recruit: bool = False
    proud: bool = False

    def describe(self) -> str:
        values = [f"{name} {value}" for name, value in zip(self._fields[1:5], self[1:5], strict=True)
                  if value is not None]
        marks = [m for m, on in (("played when recruited", self.played_on_recruit),
                                 ("proud", self.proud)) if on]
        return " ".join([self.type, ", ".join(values + marks)]).strip()


DWARVES: dict[DwarfSignature, int] = {
    DwarfSignature("guerrier", combat=1, played_on_recruit=True): 7,
    DwarfSignature("guerrier", combat=2): 5,
    DwarfSignature("guerrier", combat=3): 4,
    DwarfSignature("guerrier", combat=4, proud=True): 2,
    DwarfSignature("piocheur", dig=2, bonus=0, played_on_recruit=True): 4,
    DwarfSignature("piocheur", dig=1, bonus=2): 5,
    DwarfSignature("piocheur", dig=2, bonus=1): 4,
    DwarfSignature("piocheur", dig=3, bonus=0): 4,
    DwarfSignature("piocheur", dig=4, bonus=3): 1,
    DwarfSignature("piocheur", dig=2, bonus=5): 1,
    DwarfSignature("eclaireur", explore=5): 2,
    DwarfSignature("eclaireur", explore=3, played_on_recruit=True): 3,
    DwarfSignature("dynamiteur"): 2,
}


def signature(card: Dwarf) -> DwarfSignature:
    return DwarfSignature(card.type, card.combat, card.dig, card.bonus, card.explore,
                          card.played_on_recruit, card.proud)


def check_against_rulebook(data: GameData[TunhellCard]) -> list[Problem]:
    """Every difference between the card data and the rulebook's card list."""
    return [
        *_check_found(data, "mine", MINE),
        *_check_found(data, "end_of_mine", END_OF_MINE),
        *_check_trophies(data),
        *_check_dwarves(data),
        *_check_totals(data),
    ]


def _problem(data: GameData[TunhellCard], card: CardBase, field: str, message: str) -> Problem:
    source = data.sources[card.id]
    return Problem(message, file=source.file, item=source.label(card.id), field=field, line=source.line)


def _show(value: object) -> str:
    """A value as written in the YAML data: true, false, 'nothing' for an absent value."""
    if value is None:
        return "nothing"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _data_file(data: GameData[TunhellCard], kind: str) -> str:
    """Where a problem no single card holds is reported: the file of that kind's first card,
    else the game's data folder."""
    cards = data.cards_of(kind)
    return data.sources[cards[0].id].file if cards else display_path(data.root)


def _check_found(data: GameData[TunhellCard], kind: str, table: dict[str, Found]) -> list[Problem]:
    problems = []
    cards = {c.id: c for c in data.cards_of(kind)}
    noun = KIND_NOUNS[kind]
    for card_id, expected in table.items():
        card = cards.get(card_id)
        if card is None:
            problems.append(Problem(f"missing card '{card_id}' (the rulebook lists "
                                    f"{expected.copies} among its {noun})", file=_data_file(data, kind)))
            continue
        assert isinstance(card, MineCard | EndOfMineCard)
        got = Found(card.copies, card.combat, card.vp, is_plus(card), card.goes_to)
        for field in Found._fields:
            want, have = getattr(expected, field), getattr(got, field)
            if want != have:
                problems.append(_problem(data, card, field,
                                         f"the rulebook says {_show(want)}, got {_show(have)}"))
    for card_id, card in cards.items():
        if card_id not in table:
            problems.append(_problem(data, card, "id", f"'{card_id}' is not among the rulebook's "
                                                       f"{noun} ({', '.join(table)})"))
    return problems


def _check_trophies(data: GameData[TunhellCard]) -> list[Problem]:
    problems = []
    cards = {c.id: c for c in data.cards_of("trophy")}
    for card_id, (vp, most) in TROPHIES.items():
        card = cards.get(card_id)
        if card is None:
            problems.append(Problem(f"missing trophy '{card_id}'", file=_data_file(data, "trophy")))
            continue
        assert isinstance(card, Trophy)
        for field, want, have in (("copies", 1, card.copies), ("vp", vp, card.vp), ("most", most, card.most)):
            if want != have:
                problems.append(_problem(data, card, field, f"the rulebook says {want}, got {have}"))
    for card_id, card in cards.items():
        if card_id not in TROPHIES:
            problems.append(_problem(data, card, "id", f"'{card_id}' is not among the rulebook's "
                                                       f"trophies ({', '.join(TROPHIES)})"))
    return problems


def _check_dwarves(data: GameData[TunhellCard]) -> list[Problem]:
    problems = []
    dwarves = [c for c in data.cards_of("dwarf") if isinstance(c, Dwarf)]
    have: Counter[DwarfSignature] = Counter()
    first: dict[DwarfSignature, Dwarf] = {}
    for card in dwarves:
        sig = signature(card)
        have[sig] += card.copies
        first.setdefault(sig, card)
    for sig in [*DWARVES, *(s for s in have if s not in DWARVES)]:
        want = DWARVES.get(sig, 0)
        if have[sig] == want:
            continue
        message = (f"the rulebook has {want} × {sig.describe()}, the data {have[sig]}"
                   + ("" if want else " (no such dwarf in the rulebook)"))
        if sig in first:
            problems.append(_problem(data, first[sig], "copies", message))
        else:
            problems.append(Problem(message, file=_data_file(data, "dwarf")))
    return problems


def _check_totals(data: GameData[TunhellCard]) -> list[Problem]:
    counts = data.count_by_kind()
    return [
        Problem(f"{counts.get(kind, 0)} {KIND_NOUNS[kind]} in the data, the rulebook has {total}",
                file=_data_file(data, kind))
        for kind, total in KIND_TOTALS.items() if counts.get(kind, 0) != total
    ]
