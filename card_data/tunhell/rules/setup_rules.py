"""TunHell setup: counts, the French checklist, a random deal, and checking a described deal.

A described deal (``cardforge setup tunhell --check FILE``) has the shape of the ``deal`` that
``cardforge setup tunhell --json`` prints (the whole printed object is read too); only ``piles``
is required::

    mode: full                # or initiation (default: full)
    piles:                    # the three mine piles, card ids, top first;
      - [terre, rat, …, salle-du-trone]   # in full, the end-of-mine card last (at the bottom)
      - [...]
      - [...]
    removed: [tresor, troll, …, demon-des-profondeurs]  # optional: the cards removed at random
    hands: [[guerrier-2, piocheur-1-2, …], …]         # optional: each player's 4 dwarves
    recruitment: [eclaireur-3, …]                     # optional: the 5 face-up dwarves
    dwarf_pile: [dynamiteur, …]                       # optional: the rest, top first
    seed: 42                                          # optional: the seed that made the deal, as printed

Checked: the piles are equal and of a size the mode allows (with or without ``--short``);
every id exists, in no more copies than the deck holds; no «+» card, trophy or end-of-mine
card in an initiation deal; in a full deal one end-of-mine card at the bottom of each pile;
when given, the removed cards are exactly those the setup removes, every hand holds 4
dwarves, the recruitment row 5, and with all three the dwarf deck is complete.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from cardforge.data.models import Model
from cardforge.problems import Problem, plural

from .cards import is_plus, with_article
from .rulebook import (
    DWARVES_EACH,
    END_OF_MINE_REMOVED,
    HAND_LIMIT,
    KIND_TOTALS,
    MINE,
    MINE_REMOVED,
    PILES,
    RECRUITMENT,
    SHORTER,
)

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import TunhellCard

#: mine cards each mode plays with: all 60, or the 49 without the (+) mark
MINE_DECK = {
    "full": sum(f.copies for f in MINE.values()),
    "initiation": sum(f.copies for f in MINE.values() if not f.plus),
}


def pile_size(mode: str, short: int = 0) -> int:
    """Mine cards per pile: (deck − removed) / 3 — 17 full, 14 initiation, less when shortened."""
    return (MINE_DECK[mode] - MINE_REMOVED[mode] - short) // PILES


def setup_counts(mode: str, short: int) -> dict[str, Any]:
    return {
        "mine_removed": MINE_REMOVED[mode] + short,
        "pile_size": pile_size(mode, short),
        "end_of_mine_removed": END_OF_MINE_REMOVED[mode],
        "dwarves_each": DWARVES_EACH,
        "recruitment": RECRUITMENT,
        "hand_limit": HAND_LIMIT,
    }


def setup_steps(players: int, mode: str, short: int, counts: dict[str, Any]) -> list[str]:
    """The «Mise en place» of the chosen rule set, with this game's numbers."""
    removed = str(counts["mine_removed"]) + (f" ({MINE_REMOVED[mode]} + {short} pour raccourcir la partie)"
                                             if short else "")
    size = counts["pile_size"]
    if mode == "initiation":
        first = [
            "Écartez les 4 cartes «Fin de Mine», les 2 cartes «Trophée» et les 11 cartes «Mine» "
            "portant le symbole (+) : remettez-les dans la boîte.",
            f"Écartez au hasard {removed} cartes «Mine» supplémentaires, remises dans la boîte.",
            f"Formez 3 paquets égaux de {size} cartes «Mine» face cachée au milieu de la table : "
            "ce sont les 3 mines.",
        ]
    else:
        first = [
            f"Mélangez toutes les cartes «Mine» et écartez-en {removed} au hasard ; mélangez les "
            "cartes «Fin de Mine» et écartez-en 1. Remettez-les dans la boîte.",
            f"Formez 3 paquets égaux de {size} cartes «Mine» face cachée, chacun posé sur une "
            "carte «Fin de Mine» : ce sont les 3 mines.",
            "Placez les 2 cartes «Trophée» (Employé du mois, Dératiseur) sur le côté de l'aire de jeu.",
        ]
    sides = {2: "À 2 joueurs, jouez face à face de part et d'autre des mines.",
             3: "À 3 joueurs, un côté des mines reste neutre.",
             4: "Chacun des 4 côtés des mines appartient à un joueur."}[players]
    return [
        *first,
        f"{sides} Laissez de la place pour poser des cartes devant chaque mine.",
        f"Mélangez les cartes «Nain» et distribuez-en {DWARVES_EACH} face cachée à chaque joueur.",
        f"Posez le reste du paquet «Nain» face visible sur le côté et révélez-en les {RECRUITMENT} "
        "premières cartes en ligne : le centre de recrutement.",
        "Prévoyez une défausse pour les cartes «Nain» et une pour les cartes «Mine».",
        f"Limite de main : {HAND_LIMIT} cartes. Le joueur ou la joueuse à la plus longue barbe "
        "commence, puis on joue dans le sens horaire.",
    ]


def _copies(cards: Iterable[Any]) -> list[str]:
    """One id per copy, in data order."""
    return [c.id for c in cards for _ in range(c.copies)]


def deal(data: GameData[TunhellCard], players: int, mode: str, short: int, rng: random.Random) -> dict[str, Any]:
    """Shuffle and deal with ``rng`` only: three mine piles (top first; in full, the end-of-mine
    card at the bottom), the removed cards, each hand, the recruitment row and the dwarf pile."""
    mine = _copies(c for c in data.cards_of("mine") if mode == "full" or not is_plus(c))
    rng.shuffle(mine)
    cut = MINE_REMOVED[mode] + short
    removed, kept = mine[:cut], mine[cut:]
    size = len(kept) // PILES
    piles = [kept[i * size:(i + 1) * size] for i in range(PILES)]
    if mode == "full":
        ends = _copies(data.cards_of("end_of_mine"))
        rng.shuffle(ends)
        cut = END_OF_MINE_REMOVED[mode]
        removed += ends[:cut]
        for pile, end in zip(piles, ends[cut:], strict=True):
            pile.append(end)
    dwarves = _copies(data.cards_of("dwarf"))
    rng.shuffle(dwarves)
    hands = [dwarves[i * DWARVES_EACH:(i + 1) * DWARVES_EACH] for i in range(players)]
    dealt = players * DWARVES_EACH
    return {
        "mode": mode,  # the deal alone says its rule set, so that --check reads it back as it is
        "piles": piles,
        "removed": removed,
        "hands": hands,
        "recruitment": dwarves[dealt:dealt + RECRUITMENT],
        "dwarf_pile": dwarves[dealt + RECRUITMENT:],
    }


class DescribedDeal(Model):
    """A deal to check (see the module docstring)."""

    mode: Literal["full", "initiation"] = "full"
    piles: list[list[str]] = Field(min_length=PILES, max_length=PILES)
    removed: list[str] | None = None
    hands: list[list[str]] | None = None
    recruitment: list[str] | None = None
    dwarf_pile: list[str] | None = None
    seed: int | None = None

    def setup_request(self) -> tuple[int | None, str | None, dict[str, Any] | None]:
        """(players, mode, options) this deal is for, as far as it tells: the players from the
        hands, ``--short`` from the pile size (None: piles of no size the rules allow)."""
        players = len(self.hands) if self.hands is not None else None
        per_pile = {sum(1 for c in pile if c in MINE) for pile in self.piles}
        short = None
        if len(per_pile) == 1:
            short = MINE_DECK[self.mode] - MINE_REMOVED[self.mode] - PILES * per_pile.pop()
        options = {"short": short} if short in (0, *SHORTER) else None
        return players, self.mode, options


def check_deal(data: GameData[TunhellCard], setup: DescribedDeal) -> list[Problem]:
    deal = setup  # the hook's keyword is `setup`
    problems = _check_ids(data, deal)
    problems += _check_piles(data, deal)
    problems += _check_removed(data, deal)
    problems += _check_dwarves(data, deal)
    problems += _check_copies(data, deal)
    return problems


def _kind(data: GameData[TunhellCard], card_id: str) -> str | None:
    return data.card(card_id).kind if data.has_card(card_id) else None


Place = tuple[str, list[str], tuple[str, ...]]  # where, card ids, the kinds allowed there


def _places(deal: DescribedDeal) -> list[Place]:
    """Every list of card ids the deal describes."""
    found = ("mine", "end_of_mine")
    places: list[Place] = [(f"pile {i}", pile, found) for i, pile in enumerate(deal.piles, start=1)]
    if deal.removed is not None:
        places.append(("removed", deal.removed, found))
    places += [(f"hand {i}", hand, ("dwarf",)) for i, hand in enumerate(deal.hands or [], start=1)]
    if deal.recruitment is not None:
        places.append(("recruitment", deal.recruitment, ("dwarf",)))
    if deal.dwarf_pile is not None:
        places.append(("dwarf pile", deal.dwarf_pile, ("dwarf",)))
    return places


def _check_ids(data: GameData[TunhellCard], deal: DescribedDeal) -> list[Problem]:
    problems = []
    for where, ids, kinds in _places(deal):
        for card_id in dict.fromkeys(ids):
            kind = _kind(data, card_id)
            allowed = "mine and end-of-mine cards" if "mine" in kinds else "dwarves"
            if kind is None:
                problems.append(Problem(f"unknown card '{card_id}' (allowed here: {allowed})", item=where))
            elif kind == "trophy":
                problems.append(Problem(f"'{card_id}' is a trophy: trophies never go into the deal "
                                        "(they sit beside the mines in a full game)", item=where))
            elif kind not in kinds:
                problems.append(Problem(f"'{card_id}' is a {kind.replace('_', '-')} card "
                                        f"(allowed here: {allowed})", item=where))
            elif deal.mode == "initiation" and kind == "end_of_mine":
                problems.append(Problem(f"'{card_id}' is an end-of-mine card: not used in initiation",
                                        item=where))
            elif deal.mode == "initiation" and is_plus(data.card(card_id)):
                problems.append(Problem(f"'{card_id}' is a full-game card (+): not used in initiation",
                                        item=where))
    return problems


def _check_piles(data: GameData[TunhellCard], deal: DescribedDeal) -> list[Problem]:
    problems = []
    mine_counts = [sum(1 for c in pile if _kind(data, c) == "mine") for pile in deal.piles]
    sizes = [pile_size(deal.mode)] + [pile_size(deal.mode, s) for s in SHORTER]
    if len(set(mine_counts)) > 1:
        problems.append(Problem(f"the piles hold {', '.join(map(str, mine_counts))} mine cards: "
                                "the 3 piles must be equal", field="piles"))
    elif mine_counts[0] not in sizes:
        problems.append(Problem(
            f"each pile holds {mine_counts[0]} mine cards; {with_article(deal.mode)} pile holds {sizes[0]} "
            f"(or {', '.join(map(str, sizes[1:]))} in a game shortened by {', '.join(map(str, SHORTER))})",
            field="piles"))
    if deal.mode == "full":
        for i, pile in enumerate(deal.piles, start=1):
            ends = [n for n, c in enumerate(pile) if _kind(data, c) == "end_of_mine"]
            if ends != [len(pile) - 1]:
                positions = ", ".join(str(n + 1) for n in ends)
                word = "positions" if len(ends) > 1 else "position"
                where = f"found at {word} {positions}" if ends else "none found"
                problems.append(Problem(f"a full-game pile ends with exactly one end-of-mine card, "
                                        f"at the bottom ({where} of {len(pile)})", item=f"pile {i}"))
    return problems


def _check_removed(data: GameData[TunhellCard], deal: DescribedDeal) -> list[Problem]:
    if deal.removed is None:
        return []
    problems = []
    in_piles = sum(1 for pile in deal.piles for c in pile if _kind(data, c) == "mine")
    mine_removed = sum(1 for c in deal.removed if _kind(data, c) == "mine")
    deck = MINE_DECK[deal.mode]
    expected = deck - in_piles
    if expected >= 0 and mine_removed != expected:  # (more in the piles than the deck: see _check_copies)
        problems.append(Problem(
            f"{mine_removed} mine cards removed, but {with_article(deal.mode)} game has {deck} mine cards "
            f"and the piles hold {in_piles}, which leaves {expected} to remove", item="removed"))
    if deal.mode == "full":
        ends = sum(1 for c in deal.removed if _kind(data, c) == "end_of_mine")
        if ends != END_OF_MINE_REMOVED["full"]:
            problems.append(Problem(f"{ends} end-of-mine cards removed, a full game removes "
                                    f"{END_OF_MINE_REMOVED['full']}", item="removed"))
    return problems


def _dwarves(n: int) -> str:
    return plural(n, "dwarf", "dwarves")


def _check_dwarves(data: GameData[TunhellCard], deal: DescribedDeal) -> list[Problem]:
    problems = []
    if deal.hands is not None:
        if not 2 <= len(deal.hands) <= 4:
            problems.append(Problem(f"{len(deal.hands)} hands given, tunhell supports 2–4 players",
                                    field="hands"))
        for i, hand in enumerate(deal.hands, start=1):
            if len(hand) != DWARVES_EACH:
                problems.append(Problem(f"{_dwarves(len(hand))}, each player is dealt {DWARVES_EACH}",
                                        item=f"hand {i}"))
    if deal.recruitment is not None and len(deal.recruitment) != RECRUITMENT:
        problems.append(Problem(f"{_dwarves(len(deal.recruitment))}, the recruitment row holds {RECRUITMENT}",
                                field="recruitment"))
    if deal.hands is not None and deal.recruitment is not None and deal.dwarf_pile is not None:
        total = sum(map(len, deal.hands)) + len(deal.recruitment) + len(deal.dwarf_pile)
        if total != KIND_TOTALS["dwarf"]:
            problems.append(Problem(f"hands, recruitment and dwarf pile hold {total} dwarves, the "
                                    f"deck has {KIND_TOTALS['dwarf']}", field="dwarf_pile"))
    return problems


def _check_copies(data: GameData[TunhellCard], deal: DescribedDeal) -> list[Problem]:
    """No card more often than the deck holds it (over piles, removed cards and dwarves)."""
    seen: Counter[str] = Counter(c for _, ids, _ in _places(deal) for c in ids)
    return [
        Problem(f"'{card_id}' appears {n} times, the deck holds {data.card(card_id).copies}")
        for card_id, n in seen.items()
        if data.has_card(card_id) and n > data.card(card_id).copies
    ]

