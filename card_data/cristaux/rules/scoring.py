"""Final count of Cristaux Élémentaires Joailliers («Décompte final»).

Final-state file (``cardforge score cristaux FILE``)::

    mode: classique                 # initiation | classique | avance
    players:
      - name: Gurts
        king: true                  # exactly one player holds the ♚
        cards:                      # every card owned at the end, the starting gift included
          - warhammer-forges        # a card id,
          - {id: calice-ardent, paid: 4}            # an X-cost card with what was paid,
          - {name: Calice ardent, nature: red, cost: {red: 4}, logos: {red: 1},
             scoring: {kind: calice, colour: red}, paid: 4}   # or an inline card
        stock: {red: 2, green: 0, blue: 1, gold: 3}   # crystals left, for the forge
        choices:                    # optional; whatever is not fixed is chosen for the best total
          natures: {couronne-elementaire: green}      # multi-nature cards
          batons: {baton-du-feu: {option: 2, music: sharp}}   # option 1–5 as printed
          bonuses: {warhammer-forges: true}           # spend the gift's gold bonus
          forge: {red: 2, blue: 1}                    # stock crystals placed on forge squares

Nothing is added implicitly: a gift counts only when listed (a Harpe or Encrier only on its
active side). Inline cards are played in every mode unless they give ``modes``; choices name a
card by its id (an inline card by its id, else its name).
"""

from __future__ import annotations

import difflib
import unicodedata
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from cardforge import sheet
from cardforge.data.models import Model, Slug
from cardforge.limits import limit  # issue 21: bounded inputs
from cardforge.problems import Problem, short_name, short_repr
from cardforge.scores import PlayerResult, ScoreResult, as_number, format_number

from .cards import (
    CRYSTALS,
    ELEMENTS,
    CardFields,
    Element,
    Modes,
    Symbol,
    baton_options,
    gold_bonus_of,
)
from .optimise import Fixed, Play, best_play, frieze_symbol, play_card, squares_of
from .points import FORGE_KINDS, Medallion, OpaleEffect, Owned, logo_counts, medallion

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import CristauxCard

Count = Annotated[int, Field(ge=0)]
MODE_LABELS = {"initiation": "initiation", "classique": "classique", "avance": "avancé"}
MEDALLIONS = (*ELEMENTS, "polychrome")
MIN_PLAYERS, MAX_PLAYERS = 2, 5


class Stock(Model):
    red: Count = 0
    green: Count = 0
    blue: Count = 0
    gold: Count = 0


class CardRef(Model):
    """A card of the data, by id; ``paid`` for an X-cost card."""

    id: str = Field(min_length=1)
    paid: Count | None = None


class InlineCard(CardFields):
    """A card described in the score file itself (every field of a project card)."""

    id: Slug | None = None
    name: str = Field(min_length=1)
    modes: Modes | None = None  # None: every mode
    paid: Count | None = None

#: the score pad's rows (game.yaml's categories): every player gets a value for each
CATEGORIES = ("medallions", "esthetes", "noblesse", "memoriss", "forge", "religion", "musiciens", "maudits")


def _entry(value: Any) -> Any:
    """A listed card: an id, ``{id, paid}``, or an inline card (a mapping with a name)."""
    if isinstance(value, str):
        return CardRef(id=value)
    if not isinstance(value, dict):
        raise ValueError("a card is an id, {id: …, paid: N} or an inline card with a name, "
                         f"got {short_repr(value)}")
    if "name" in value:
        allowed = list(InlineCard.model_fields)
        extra = [str(k) for k in value if k not in allowed]
        if extra:
            raise ValueError(f"unknown field{'s' if len(extra) > 1 else ''} {', '.join(extra)} "
                             f"of an inline card (allowed: {', '.join(allowed)})")
        return InlineCard.model_validate(value)
    extra = [str(k) for k in value if k not in ("id", "paid")]
    if extra:
        raise ValueError(f"{', '.join(extra)}: an inline card needs a name; a card of the data is "
                         "given as an id or {id: …, paid: N}")
    return CardRef.model_validate(value)


# InlineCard first: messages about an inline card's unknown fields list its fields
CardEntry = Annotated[InlineCard | CardRef, BeforeValidator(_entry)]


class BatonChoice(Model):
    option: int | None = Field(None, ge=1, le=5)  # as printed, 1–5
    music: Symbol | None = None  # the frieze's symbol


class Choices(Model):
    natures: dict[str, Element] = Field(default_factory=dict)
    batons: dict[str, BatonChoice] = Field(default_factory=dict)
    bonuses: dict[str, bool] = Field(default_factory=dict)
    forge: Stock | None = None


OpaleSchool = Literal["esthete", "noblesse", "memoriss", "cour", "forge", "religion", "musicien"]


_AID_SQUARES: list[Literal["red", "green", "blue", "gold"]] = ["red", "green", "blue", "gold"]


class OpaleBonus(Model):
    """A façon Opale bonus bought with a card («vous avez la possibilité de dépenser un coût
    supplémentaire pour bénéficier d'un bonus […] il n'est pas possible de payer plusieurs fois le
    coût supplémentaire pour une même carte»)."""

    card: str = Field(min_length=1, json_schema_extra=sheet.card_key("project", label="Card"))
    school: OpaleSchool
    colour: Element | None = None  # cour, noblesse, religion: the crystal spent
    symbol: Symbol | None = None  # musicien: the symbol the gold counts as…
    # …and the symbol whose maximum rises by 1 («Augmente d'un le maximum pouvant être compté dans
    # un symbole au choix»): a choice of its own; not given, the same as ``symbol``
    raises: Symbol | None = None
    # forge: the colours of the aid's 4 pre-filled squares (the picture is lost; provisional default)
    squares: list[Literal["red", "green", "blue", "gold"]] = Field(
        default_factory=lambda: _AID_SQUARES.copy(), min_length=4, max_length=4,
        json_schema_extra=sheet.skip("the forge aid's four squares as printed (others: in the YAML sheet)"))


class PlayerState(Model):
    name: str = Field(min_length=1)
    king: bool = False
    # «Durant l'attribution de la ♚, si le joueur a dépensé 3 ors ou plus, il gagne le jeton […]
    # donc 1 logo bonus (absent du mode initiation)»: the token the player holds at the end
    logo_bonus: bool = False
    # an X-cost card (x_colour set) asks what was paid
    cards: list[CardEntry] = Field(default_factory=list, max_length=limit("inline_cards"),
                                   json_schema_extra=sheet.cards("project", "gift", paid="x_colour"))
    stock: Stock = Field(default_factory=Stock)
    opale: list[OpaleBonus] = Field(default_factory=list,  # façon Opale bonuses (with opale: true)
                                    json_schema_extra=sheet.items(
                                        add="Add an Opale bonus", label="Opale bonuses",
                                        help="façon Opale; raises: the symbol a musicien bonus raises, "
                                             "if not its own"))
    choices: Choices = Field(default_factory=Choices, json_schema_extra=sheet.skip(
        "natures, bâtons, the gift's bonus and the forge: the engine finds the best"))


def _mode(value: Any) -> Any:
    return "avance" if value == "avancé" else value


class FinalState(Model):
    mode: Annotated[Literal["initiation", "classique", "avance"], BeforeValidator(_mode)] = "classique"
    # a hand that is not a whole game (a rule's example, a game stopped early): the checks of what
    # every player starts with are skipped, and the score is marked partial
    partial: bool = False
    opale: bool = False  # played façon Opale (setup --opale): players may list Opale bonuses
    players: list[PlayerState] = Field(min_length=1, max_length=limit("players"))


# --- from the file to each player's cards ---------------------------------------------------

@dataclass
class Player:
    name: str
    king: bool
    owned: list[Owned]
    stock: dict[str, int]
    fixed: Fixed
    logo_bonus: bool = False


def _item(index: int, player: PlayerState) -> str:
    return f"player '{player.name}' (#{index + 1})"


def _owned_of(data: GameData[CristauxCard], entry: CardRef | InlineCard, mode: str,
              where: dict[str, Any]) -> tuple[Owned | None, list[Problem]]:
    if isinstance(entry, InlineCard):
        return _inline(data, entry, mode, where)
    card_id = entry.id
    if not data.has_card(card_id):
        ids = [c.id for c in data.cards if c.kind in ("project", "gift")]
        close = difflib.get_close_matches(card_id, ids, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        return None, [Problem(f"unknown card '{short_name(card_id)}'{hint}", **where)]
    card = data.card(card_id)
    if card.kind not in ("project", "gift"):
        return None, [Problem(f"'{short_name(card_id)}' is a {card.kind} card: players own project cards and gifts",
                              **where)]
    problems = []
    if mode not in card.modes:
        problems.append(Problem(f"'{short_name(card_id)}' ({card.name}) is not played in {MODE_LABELS[mode]} "
                                f"(its modes: {', '.join(MODE_LABELS[m] for m in card.modes)})", **where))
    if card.kind == "gift" and not card.active:
        problems.append(Problem(f"'{short_name(card_id)}' is the inactive side of {card.name}: turned over at the "
                                "end, it is no longer part of your game («ils ne font plus partie de "
                                "votre jeu»); leave it out", **where))
    problems += _paid_problems(card_id, card, entry.paid, where)
    return Owned(card_id, card.name, card, entry.paid), problems


def _inline(data: GameData[CristauxCard], entry: InlineCard, mode: str,
            where: dict[str, Any]) -> tuple[Owned | None, list[Problem]]:
    key = entry.id or entry.name
    problems = []
    if entry.id is not None and data.has_card(entry.id):
        problems.append(Problem(f"inline card id '{entry.id}' is a card of the data: list that card "
                                "by its id, or give the inline card another id", **where))
    if entry.modes is not None and mode not in entry.modes:
        problems.append(Problem(f"inline card '{key}' is not played in {MODE_LABELS[mode]} "
                                f"(its modes: {', '.join(MODE_LABELS[m] for m in entry.modes)})", **where))
    if mode == "initiation" and (entry.forge_squares or entry.scoring.kind in FORGE_KINDS):
        # «En dessous de ce point, le contenu ne concerne pas les jours du mode initiation» (Forge)
        problems.append(Problem(f"inline card '{key}' belongs to the forge, which is not played in "
                                "initiation", **where))
    problems += _paid_problems(key, entry, entry.paid, where)
    problems += _box_cost_problems(key, entry, where)
    x = entry.x_colour
    if x is not None and entry.paid is not None and entry.cost.of(x) not in (0, entry.paid):
        problems.append(Problem(f"cost.{x} is {entry.cost.of(x)} but {entry.paid} was paid: an X-cost "
                                f"card's {x} cost is what was paid (leave cost.{x} out)", **where))
    return Owned(key, entry.name, entry, entry.paid), problems


#: «286 petites gemmes : (53 cristaux élémentaires de chaque couleur : rouge + vert + bleu, 52
#: pépites d'or […]»: no card can cost, nor an X be paid, more than the box holds.
BOX_CRYSTALS = {"red": 53, "green": 53, "blue": 53, "gold": 52}


def _paid_problems(key: str, card: CardFields, paid: int | None, where: dict[str, Any]) -> list[Problem]:
    if card.x_colour is not None and paid is None:
        return [Problem(f"'{key}' costs X {card.x_colour}: give what was paid, e.g. "
                        f"{{id: {key}, paid: 3}}", **where)]
    if card.x_colour is None and paid is not None:
        return [Problem(f"'{key}' has no X cost: paid is only for X-cost cards (Calices, Reliquaires)",
                        **where)]
    if paid is not None and card.x_colour is not None:  # (an X cost given a paid, as checked above)
        box = BOX_CRYSTALS[card.x_colour]
        if paid == 0:
            return [Problem(f"'{key}' paid 0: an X-cost card is bought with at least 1 {card.x_colour} "
                            f"crystal (1 to {box}, the box's {card.x_colour} crystals)", **where)]
        if paid > box:
            return [Problem(f"'{key}' paid {paid} {card.x_colour}: the box holds {box} {card.x_colour} "
                            f"crystals («53 cristaux élémentaires de chaque couleur»), so 1 to {box}", **where)]
    return []


def _box_cost_problems(key: str, card: CardFields, where: dict[str, Any]) -> list[Problem]:
    """An inline card's printed costs within what the box holds (a 2,501-digit cost is refused)."""
    problems = []
    for field in ("cost", "final_cost"):
        cost = getattr(card, field)
        if cost is None:
            continue
        for colour, box in BOX_CRYSTALS.items():
            n = cost.of(colour)
            if n > box:
                shown = str(n) if n < 10**12 else f"a {len(str(n))}-digit number"
                problems.append(Problem(f"inline card '{key}': {field}.{colour} is {shown}, more than the "
                                        f"{box} {colour} the box holds", **where))
    return problems


def resolve(data: GameData[CristauxCard], state: FinalState) -> tuple[list[Player], list[Problem]]:
    """Each player's owned cards and fixed choices, with every problem of the file."""
    problems: list[Problem] = []
    # the player count and distinct names are the engine's (engine/scoring.py, check_players)
    kings = [p.name for p in state.players if p.king]
    if len(kings) != 1:
        got = "nobody" if not kings else " and ".join(kings)
        problems.append(Problem(f"exactly one player holds the ♚ (king: true), got {got}", field="players"))
    players = []
    uses: dict[str, list[str]] = {}
    printed = _printed_names(data)
    for index, ps in enumerate(state.players):
        item = _item(index, ps)
        owned: list[Owned] = []
        player_problems: list[Problem] = []
        for i, entry in enumerate(ps.cards):
            where = {"item": item, "field": f"cards[{i}]"}
            o, p = _owned_of(data, entry, state.mode, where)
            player_problems += p
            if o is None:
                continue
            owned.append(o)
            if isinstance(entry, CardRef):
                uses.setdefault(_physical(data, o.key), []).append(ps.name)
            elif (same := printed.get(_fold(entry.name))) is not None:
                # a card typed in under a project card's printed name is that card: the deck's
                # copies bound it too (issue 38)
                uses.setdefault(same, []).append(f"{ps.name} (typed in)")
        player_problems += _gift_problems(owned, item)
        player_problems += _start_problems(data, ps, owned, state.mode, item, state.partial)
        owned, p = _opale(ps, owned, state.opale, item)
        player_problems += p
        stock = ps.stock.model_dump()
        fixed, p = _fixed(ps.choices, owned, stock, state.mode, item)
        player_problems += p
        if not player_problems:
            player_problems += search_limits(owned, fixed, item)
        if not player_problems and not state.partial:
            player_problems += _obsession_problems(ps.name, owned, stock, fixed, item)
        if not player_problems and (fixed.placement is not None or fixed.bonuses):
            player_problems += _playable(owned, stock, fixed, item)
        problems += player_problems
        players.append(Player(ps.name, ps.king, owned, stock, fixed, ps.logo_bonus))
    problems += _copies_problems(data, uses)
    problems += _cursed_gold_problems(uses, len(state.players), state.mode)
    holders = [p.name for p in state.players if p.logo_bonus]
    if len(holders) > 1:
        problems.append(Problem(f"{len(holders)} players hold the bonus-logo token ({', '.join(holders)}): "
                                "there is one token («il gagne le jeton»)", field="players"))
    return players, problems


#: The school an Opale bonus must match («[qui doit obligatoirement lui correspondre]»): the
#: card's score category, or for the court a card with the court's blason.
OPALE_CATEGORY = {"esthete": "esthetes", "noblesse": "noblesse", "memoriss": "memoriss", "forge": "forge",
                  "religion": "religion", "musicien": "musiciens"}


def _opale(ps: PlayerState, owned: list[Owned], opale: bool, item: str) -> tuple[list[Owned], list[Problem]]:
    """The player's cards with their Opale bonuses attached, and every problem of the bonuses."""
    if not ps.opale:
        return owned, []
    problems: list[Problem] = []
    if not opale:
        return owned, [Problem("Opale bonuses need a game played façon Opale: write opale: true at the top "
                               "of the file", item=item, field="opale")]
    by_key = {o.key: i for i, o in enumerate(owned)}
    out = list(owned)
    seen: dict[str, int] = {}
    for j, bonus in enumerate(ps.opale):
        field = f"opale[{j}]"

        def bad(message: str, where: str = "") -> None:
            problems.append(Problem(message, item=item, field=field + where))

        if bonus.card not in by_key:
            close = difflib.get_close_matches(bonus.card, list(by_key), n=1)
            bad(f"no card '{bonus.card}' among this player's cards"
                + (f"; did you mean '{close[0]}'?" if close else ""), ".card")
            continue
        if bonus.card in seen:
            bad(f"'{bonus.card}' already has an Opale bonus (opale[{seen[bonus.card]}]): «il n'est pas possible "
                "de payer plusieurs fois le coût supplémentaire pour une même carte»", ".card")
            continue
        seen[bonus.card] = j
        card = owned[by_key[bonus.card]].card
        school = bonus.school
        a = "an" if school[0] in "aeiou" else "a"
        matches = (getattr(card, "court", False) if school == "cour"
                   else card.category == OPALE_CATEGORY[school])
        if not matches:
            bad(f"{a} {school} bonus goes with a card of that school, and '{bonus.card}' scores in "
                f"{card.category or 'no school'}" + (" without the court's blason" if school == "cour" else ""),
                ".school")
        needs_colour = school in ("cour", "noblesse", "religion")
        if needs_colour and bonus.colour is None:
            bad(f"{a} {school} bonus says the colour of the crystal spent: colour: red, green or blue", ".colour")
        if not needs_colour and bonus.colour is not None:
            bad(f"{a} {school} bonus has no colour (colour is for cour, noblesse and religion)", ".colour")
        if school == "religion" and bonus.colour is not None:
            scored = {getattr(card.scoring, "colour", None), *getattr(card.scoring, "colours", ())} - {None}
            if bonus.colour in scored:
                bad(f"the crystal «doit être d'une couleur différente de celle(s) sur laquelle la carte achetée "
                    f"score»: '{bonus.card}' scores on {', '.join(sorted(scored))}", ".colour")
        if school == "musicien" and bonus.symbol is None:
            bad("a musicien bonus says the symbol the gold counts as: symbol: double, sharp or single",
                ".symbol")
        if school != "musicien" and bonus.symbol is not None:
            bad(f"{a} {school} bonus has no symbol (symbol is for musicien)", ".symbol")
        if school != "musicien" and bonus.raises is not None:
            bad(f"{a} {school} bonus raises no maximum (raises is for musicien)", ".raises")
        o = owned[by_key[bonus.card]]
        raises = (bonus.raises or bonus.symbol) if school == "musicien" else None
        out[by_key[bonus.card]] = Owned(o.key, o.name, o.card, o.paid, OpaleEffect(
            school, bonus.colour, bonus.symbol, tuple(bonus.squares) if school == "forge" else (), raises))
    return out, problems


#: «à 2 / 3 joueurs : -2 du paquet (soit 1 restant, + les 3 correspondants aux [rouge, vert,
#: bleu]) ; à 4 joueurs : -1 du paquet (reste 2) ; à 5 joueurs : Ø modif. paquet (reste les 3)»
CURSED_GOLD_IN_PLAY = {2: 1, 3: 1, 4: 2, 5: 3}
CURSED_GOLD = "cristal-maudit-dore"


def _cursed_gold_problems(uses: dict[str, list[str]], players: int, mode: str) -> list[Problem]:
    who = uses.get(CURSED_GOLD, [])
    left = CURSED_GOLD_IN_PLAY.get(players)
    if mode != "avance" or left is None or len(who) <= left:
        return []
    removed = 3 - left
    return [Problem(f"{len(who)} golden cursed crystals ({', '.join(who)}), but at {players} players "
                    f"setup removes {removed} of the 3 from the cursed deck, leaving {left} in play",
                    field="players")]


#: «Chaque joueur se munit des cadeaux au roi : 1 carte Warhammer» (classique; in avancé a Harpe
#: and an Encrier replace it, and they may end on their inactive side, so they are not required;
#: initiation has no gift).
WARHAMMER_SIDES = ("warhammer-grandes-familles", "warhammer-forges")


def _start_problems(data: GameData[CristauxCard], ps: PlayerState, owned: list[Owned], mode: str, item: str,
                    partial: bool) -> list[Problem]:
    problems = []
    if mode == "classique" and not partial and not any(o.key in WARHAMMER_SIDES for o in owned):
        sides = [s for s in WARHAMMER_SIDES if data.has_card(s)]
        problems.append(Problem(
            "missing the Warhammer every player starts with («Chaque joueur se munit des cadeaux au roi : "
            f"1 carte Warhammer»): list the side it ends on ({' or '.join(sides)}), or write partial: true "
            "for a hand that is not a whole game", item=item, field="cards"))
    if ps.logo_bonus and mode == "initiation":
        problems.append(Problem("the bonus-logo token is not played in initiation («absent du mode "
                                "initiation»)", item=item, field="logo_bonus"))
    return problems


#: The search tries every combination of the choices left open (optimise.py). Real hands are far
#: inside these bounds (the box has 3 Bâtons, 12 multi-nature cards, 8 wild forge squares + 1 per
#: Bâton); absurd inline hands are refused with what to fix instead of running for minutes.
MAX_FREE_BATON_COMBINATIONS = 5 ** 4 * 2 ** 2  # 4 Bâtons with a free option and 2 open gold bonuses
MAX_FREE_NATURE_CARDS = 16
MAX_WILD_SQUARES = 16


def search_limits(owned: list[Owned], fixed: Fixed, item: str) -> list[Problem]:
    problems = []
    combos = 1
    batons = 0
    for o in owned:
        if o.card.scoring.kind == "baton" and o.key not in fixed.options:
            combos *= len(baton_options(o.card))
            batons += 1
        if getattr(o.card, "gold_bonus", None) is not None and o.key not in fixed.bonuses:
            combos *= 2
    if combos > MAX_FREE_BATON_COMBINATIONS:
        problems.append(Problem(
            f"{batons} Bâtons with a free option (and the open gold bonuses) make {combos:,} combinations "
            f"to try, more than the {MAX_FREE_BATON_COMBINATIONS:,} cardforge tries (the box has 3 Bâtons): "
            "fix their options in choices.batons", item=item, field="choices.batons"))
    free = sum(1 for o in owned if o.card.nature == "multi" and o.key not in fixed.natures)
    if free > MAX_FREE_NATURE_CARDS:
        problems.append(Problem(
            f"{free} multi-nature cards with a free nature, more than the {MAX_FREE_NATURE_CARDS} cardforge "
            "chooses for (the box has 12): fix their natures in choices.natures", item=item,
            field="choices.natures"))
    if fixed.placement is None:
        wild = sum(1 for o in owned for s in o.card.forge_squares if s == "any")
        if wild > MAX_WILD_SQUARES:
            problems.append(Problem(
                f"{wild} wild forge squares, more than the {MAX_WILD_SQUARES} cardforge shares out (the box "
                "has 8): give the crystals placed in choices.forge", item=item, field="choices.forge"))
    return problems


#: «au moment où vous passez, vous devez perdre tous les cristaux de la couleur indiqués que vous
#: avez en stock. Cependant, tout « carré de prêt aux forgerons » compatible protège 1 cristal.»
OBSESSION_RULE = ("«au moment où vous passez, vous devez perdre tous les cristaux de la couleur indiqués "
                  "que vous avez en stock. Cependant, tout carré de prêt aux forgerons compatible protège "
                  "1 cristal»")


def _obsession_problems(name: str, owned: list[Owned], stock: dict[str, int], fixed: Fixed,
                        item: str) -> list[Problem]:
    """A Géode d'obsession's colour left in the stock beyond the squares that protect it.

    Every player passes in the last round (a round ends when all have passed), and nothing adds
    crystals after that pass in the last round (no medallion crystals after it), so the final
    stock of a géode's colour is at most its free forge squares of that colour plus the wild
    ones, the wild ones shared between the géodes' colours. A Bâton whose option is not fixed
    may add its forge square: every choice of the Bâtons' options is tried."""
    colours = sorted({o.card.obsession for o in owned if o.card.obsession is not None})
    if not colours:
        return []
    choices: list[list[str]] = []
    played = []
    for o in owned:
        options = baton_options(o.card)
        if options and o.key not in fixed.options:
            choices.append(sorted({getattr(opt, "square", None) or "" for opt in options}))
        played.append(play_card(o, options[fixed.options[o.key]] if o.key in fixed.options else None))
    base, base_wild = squares_of(played)
    best: tuple[int, Counter[str], int] | None = None
    for extra in product(*choices):
        coloured = base + Counter(s for s in extra if s in CRYSTALS)
        wild = base_wild + sum(1 for s in extra if s == "any")
        short = sum(max(0, stock[c] - coloured[c]) for c in colours) - wild
        if best is None or short < best[0]:
            best = (short, coloured, wild)
    assert best is not None  # product() of no choices yields one empty tuple
    short, coloured, wild = best
    if short <= 0:
        return []
    geodes = " and ".join(f"the {o.name}" for o in owned if o.card.obsession is not None)
    over = [c for c in colours if stock[c] > coloured[c]]
    left = " and ".join(f"{stock[c]} {c}" for c in colours)
    kept = sum(stock[c] for c in colours) - short
    squares = ", ".join([*(f"{coloured[c]} {c}" for c in colours), f"{wild} wild"])
    field = f"stock.{over[0]}" if len(over) == 1 else "stock"
    return [Problem(f"{name} owns {geodes}: {left} left in the stock, but passing in the last round keeps "
                    f"at most {kept} {colours[0] if len(colours) == 1 else 'of them'} (1 a free forge square "
                    f"of the colour or wild: {squares}) (rules: {OBSESSION_RULE})",
                    item=item, field=field)]


def _fold(name: str) -> str:
    """A card name compared without case, accents, typographic apostrophes or extra spaces."""
    plain = unicodedata.normalize("NFKD", name.replace("’", "'")).encode("ascii", "ignore").decode()
    return " ".join(plain.lower().split())


def _printed_names(data: GameData[CristauxCard]) -> dict[str, str]:
    """Project cards by their folded printed name (a name two cards share names neither)."""
    ids: dict[str, list[str]] = {}
    for card in data.cards:
        if card.kind == "project":
            ids.setdefault(_fold(card.name), []).append(card.id)
    return {name: found[0] for name, found in ids.items() if len(found) == 1}


def _physical(data: GameData[CristauxCard], card_id: str) -> str:
    """The printed card behind an id: a gift's back face is printed on its recto."""
    card = data.card(card_id)
    return card.other_side if card.kind == "gift" and not card.copies else card_id


def _gift_problems(owned: list[Owned], item: str) -> list[Problem]:
    """«Chaque joueur se munit des cadeaux au roi»: one of each gift, on one of its two sides."""
    sides: dict[frozenset[str], list[Owned]] = {}
    for o in owned:
        other = getattr(o.card, "other_side", None)
        if other is not None:
            sides.setdefault(frozenset((o.key, other)), []).append(o)
    return [Problem(f"each player has one {faces[0].name}, listed {len(faces)} times "
                    f"({', '.join(f.key for f in faces)}): list the side it ends on",
                    item=item, field="cards")
            for faces in sides.values() if len(faces) > 1]


def _copies_problems(data: GameData[CristauxCard], uses: dict[str, list[str]]) -> list[Problem]:
    problems = []
    for card_id, who in uses.items():
        copies = data.card(card_id).copies
        if len(who) > copies:
            problems.append(Problem(
                f"'{short_name(card_id)}' is listed {len(who)} times ({', '.join(who)}) but the game has "
                f"{copies} cop{'y' if copies == 1 else 'ies'}", field="players"))
    return problems


MAX_SUGGESTIONS = 10


def _fixed(choices: Choices, owned: list[Owned], stock: dict[str, int], mode: str,
           item: str) -> tuple[Fixed, list[Problem]]:
    """The choices the file fixes, each checked against the card it names."""
    by_key: dict[str, CardFields] = {o.key: o.card for o in owned}
    fixed = Fixed()
    problems: list[Problem] = []

    suggested = [0]  # did-you-mean for the first few unknown keys only (4,000 keys: difflib each)

    def card_for(section: str, key: str) -> CardFields | None:
        if key in by_key:
            return by_key[key]
        suggested[0] += 1
        close = difflib.get_close_matches(key, list(by_key), n=1) if suggested[0] <= MAX_SUGGESTIONS else []
        problems.append(Problem(f"no card '{key}' among this player's cards"
                                + (f"; did you mean '{close[0]}'?" if close else ""),
                                item=item, field=f"choices.{section}.{key}"))
        return None

    def refuse(section: str, key: str, message: str) -> None:
        problems.append(Problem(message, item=item, field=f"choices.{section}.{key}"))

    for key, nature in choices.natures.items():
        card = card_for("natures", key)
        if card is not None and card.nature != "multi":
            refuse("natures", key, f"'{key}' is of nature {card.nature}: only a multi-nature card's nature "
                                   "is chosen")
        elif card is not None:
            fixed.natures[key] = nature
    for key, choice in choices.batons.items():
        card = card_for("batons", key)
        if card is not None and card.scoring.kind != "baton":
            refuse("batons", key, f"'{key}' is not a Bâton")
        elif card is not None:
            if choice.option is not None:
                fixed.options[key] = choice.option - 1
            if choice.music is not None:
                fixed.symbols[key] = choice.music
    for key, spend in choices.bonuses.items():
        card = card_for("bonuses", key)
        if card is not None and getattr(card, "gold_bonus", None) is None:
            refuse("bonuses", key, f"'{key}' has no gold bonus")
        elif card is not None:
            fixed.bonuses[key] = spend
    spent = sum(bonus.gold for k, spend in fixed.bonuses.items() if spend and (bonus := gold_bonus_of(by_key[k])))
    if choices.forge is None:
        if spent > stock["gold"]:
            problems.append(Problem(f"the bonuses chosen spend {spent} gold, the stock has {stock['gold']}",
                                    item=item, field="choices.bonuses"))
    else:
        fixed.placement = choices.forge.model_dump()
        problems += _placement_problems(fixed.placement, stock, spent, mode, item)
    return fixed, problems


def _placement_problems(placement: dict[str, int], stock: dict[str, int], spent: int, mode: str,
                        item: str) -> list[Problem]:
    problems = []
    if mode == "initiation" and any(placement.values()):
        # «En dessous de ce point, le contenu ne concerne pas les jours du mode initiation» (Forge)
        problems.append(Problem("the forge is not played in initiation", item=item, field="choices.forge"))
    for colour in CRYSTALS:
        if placement[colour] > stock[colour]:
            problems.append(Problem(f"{placement[colour]} {colour} placed, more than the {stock[colour]} "
                                    "in the stock", item=item, field=f"choices.forge.{colour}"))
    if spent and placement["gold"] <= stock["gold"] < placement["gold"] + spent:
        problems.append(Problem(f"{placement['gold']} gold placed and {spent} spent on bonuses: more than "
                                f"the {stock['gold']} in the stock", item=item, field="choices.forge.gold"))
    return problems


def _playable(owned: list[Owned], stock: dict[str, int], fixed: Fixed, item: str) -> list[Problem]:
    """A fixed placement must fit the squares for some choice of the Bâtons' options."""
    if best_play(owned, stock, fixed) is not None:
        return []
    coloured, wild = squares_of([play_card(o) for o in owned])
    squares = ", ".join(f"{n} {c}" for c, n in sorted(coloured.items())) or "none of a colour"
    return [Problem(f"the crystals placed do not fit this player's forge squares ({squares}; {wild} "
                    "wild), whatever the Bâton options", item=item, field="choices.forge")]


def check_final_state(data: GameData[CristauxCard], state: FinalState) -> list[Problem]:
    return resolve(data, state)[1]


# --- scoring --------------------------------------------------------------------------------

def score_final_state(data: GameData[CristauxCard], state: FinalState) -> ScoreResult:
    players, problems = resolve(data, state)
    assert not problems, problems  # check_final_state ran first
    medallions = [medallion(m, {p.name: logo_counts(p.owned, p.king, p.logo_bonus)[m] for p in players})
                  for m in MEDALLIONS]
    plays = {p.name: _best_play(p) for p in players}
    results = []
    for p in players:
        play = plays[p.name]
        breakdown: dict[str, Any] = Counter(dict.fromkeys(CATEGORIES, 0))  # a school with no card scores 0
        breakdown["medallions"] = _whole(sum((m.points.get(p.name, 0) for m in medallions), Fraction(0)))
        for s in play.scores:
            if s.category is not None:
                breakdown[s.category] += s.points
        results.append(PlayerResult(p.name, dict(breakdown)))
    details = {
        "mode": state.mode,
        "medallions": [_medallion_json(m) for m in medallions],
        "players": [_player_json(p, plays[p.name]) for p in players],
    }
    report = _report(players, plays, medallions)
    opale_lines = [f"  {p.name}: {o.key} — {_opale_text(o.opale)}" for p in players for o in p.owned
                   if o.opale is not None]
    if opale_lines:
        report += ["", "Opale bonuses («les bonus de la façon Opale»):", *opale_lines]
    if state.partial:
        report.append("")
        report.append("Partial: not a whole game (partial: true): the Warhammer every player starts with "
                      "was not required.")
    return ScoreResult(results, details, report, mode=state.mode, partial=state.partial)


def _opale_text(o: OpaleEffect) -> str:
    return {
        "esthete": "the gold counts as 1 éclat",
        "noblesse": f"the crystal counts as 1 {o.colour} rune",
        "memoriss": "its scoring +1 a unit",
        "cour": f"the crystal counts as 1 {o.colour} logo",
        "forge": f"4 pre-filled forge squares ({', '.join(o.squares)})",
        "religion": f"1 point per {o.colour} crystal on the costs of all your cards",
        "musicien": f"the gold counts as 1 {SYMBOL_SIGNS.get(o.symbol or '', '')} and raises its maximum by 1",
    }[o.school]


def _best_play(p: Player) -> Play:
    play = best_play(p.owned, p.stock, p.fixed)
    assert play is not None  # check_final_state refuses a player whose cards allow no play
    return play


def _whole(value: Fraction | int) -> Fraction | int:
    return int(value) if value.denominator == 1 else value


def _medallion_json(m: Medallion) -> dict[str, Any]:
    return {"medallion": m.id, "counts": m.counts, "leaders": list(m.leaders), "lead": m.lead,
            "points": {name: as_number(v) for name, v in m.points.items()}}


def _choices_of(play: Play, fixed: Fixed) -> list[dict[str, Any]]:
    """What was chosen for each card, and whether the file gave it (else it is the best)."""
    out = []
    for i, p in enumerate(play.played):
        card, key = p.owned.card, p.owned.key
        if card.nature == "multi":
            out.append({"card": key, "nature": p.nature, "given": key in fixed.natures})
        if card.scoring.kind == "baton":
            option = baton_options(card)[play.options[i]]
            out.append({"card": key, "option": play.options[i] + 1, "effect": option.effect,
                        "option_given": key in fixed.options,
                        "music": frieze_symbol(p), "music_given": key in fixed.symbols})
        if getattr(card, "gold_bonus", None) is not None:
            out.append({"card": key, "bonus": p.bonus_taken, "given": key in fixed.bonuses})
    return out


def _player_json(p: Player, play: Play) -> dict[str, Any]:
    coloured, wild = squares_of(play.played)
    return {
        "name": p.name,
        "king": p.king,
        "choices": _choices_of(play, p.fixed),
        "forge": {"placed": play.placement, "given": p.fixed.placement is not None,
                  "squares": {**dict(sorted(coloured.items())), "any": wild}},
        "cards": [{"card": s.owned.key, "name": s.owned.name, "category": s.category,
                   "points": s.points, "why": s.why} for s in play.scores],
    }


SYMBOL_SIGNS = {"double": "♬", "sharp": "♯", "single": "♪"}


def _medallion_line(m: Medallion) -> str:
    counts = ", ".join(f"{name} {n}" for name, n in m.counts.items())
    label = "polychrome" if m.id == "polychrome" else m.id
    if not m.leaders:
        return f"  {label}: {counts} — nobody has a logo: not awarded"
    if len(m.leaders) > 1:
        share = format_number(next(iter(m.points.values())))
        return (f"  {label}: {counts} — tie between {' and '.join(m.leaders)}: the base points are "
                f"shared, {share} each")
    who = m.leaders[0]
    base, per = (12, 1) if m.id == "polychrome" else (6, 2)
    return (f"  {label}: {counts} — {who} leads by {m.lead}: {base} + {per}×{m.lead} = "
            f"{format_number(m.points[who])}")


def _how(given: bool, note: str | None = None) -> str:
    if note is not None:
        return note
    return "given" if given else "best"


def _pinned(fixed: Fixed, section: str, key: str, value: Any | None) -> Fixed:
    """``fixed`` with one choice pinned to ``value`` (None: left free)."""
    out = Fixed(dict(fixed.natures), dict(fixed.options), dict(fixed.symbols), dict(fixed.bonuses),
                fixed.placement)
    table = getattr(out, section)
    if value is None:
        table.pop(key, None)
    else:
        table[key] = value
    return out


def choice_notes(p: Player, play: Play) -> dict[tuple[str, str], str]:
    """What each choice did, for the report: a free choice is «best» only where another choice
    would have scored less («no difference» otherwise); a pinned (given) choice says what it cost
    against the best one. Keys: (section, card key)."""
    notes: dict[tuple[str, str], str] = {}
    alternatives: dict[str, list[tuple[str, Any]]] = {}
    for i, q in enumerate(play.played):
        card, key = q.owned.card, q.owned.key
        if card.nature == "multi":
            alternatives.setdefault(key, []).extend(("natures", n) for n in ELEMENTS if n != q.nature)
        if card.scoring.kind == "baton":
            alternatives.setdefault(key, []).extend(
                ("options", o) for o in range(len(baton_options(card))) if o != play.options[i])
        if getattr(card, "gold_bonus", None) is not None:
            alternatives.setdefault(key, []).append(("bonuses", not q.bonus_taken))
    sections: dict[str, dict[str, Any]] = {"natures": p.fixed.natures, "options": p.fixed.options,
                                           "bonuses": p.fixed.bonuses}
    for key, alts in alternatives.items():
        for section in dict.fromkeys(s for s, _ in alts):
            if key in sections[section]:
                free = best_play(p.owned, p.stock, _pinned(p.fixed, section, key, None))
                better = free.total - play.total if free is not None else 0
                notes[(section, key)] = (f"given; the best choice would score {format_number(better)} more"
                                         if better > 0 else "given, as good as any")
                continue
            others = [o for s, v in alts if s == section
                      if (o := best_play(p.owned, p.stock, _pinned(p.fixed, section, key, v))) is not None]
            if not others:
                notes[(section, key)] = "the only possible choice"
            elif all(o.total == play.total for o in others):
                notes[(section, key)] = "no difference"
            else:
                gap = play.total - max(o.total for o in others)
                notes[(section, key)] = "best" + (f", {format_number(gap)} more than the next" if gap else "")
    return notes


def _choice_text(c: dict[str, Any], notes: dict[tuple[str, str], str]) -> str:
    if "nature" in c:
        return f"{c['card']} as nature {c['nature']} ({_how(c['given'], notes.get(('natures', c['card'])))})"
    if "option" in c:
        return (f"{c['card']} option {c['option']} ({c['effect']}, "
                f"{_how(c['option_given'], notes.get(('options', c['card'])))}), frieze "
                f"{SYMBOL_SIGNS.get(c['music'], '–')} ({_how(c['music_given'])})")
    return (f"{c['card']} gold bonus {'spent' if c['bonus'] else 'not spent'} "
            f"({_how(c['given'], notes.get(('bonuses', c['card'])))})")


def _logo_sources(p: Player, medal: str) -> str:
    """Which cards gave a player's count of one medallion: «♚ 1 + autel-du-feu 2 + …»."""
    parts = []
    if p.king and medal != "polychrome":
        parts.append("♚ 1")
    for o in p.owned:
        logos = o.card.logos
        n = (logos.red + logos.green + logos.blue + logos.multi if medal == "polychrome"
             else getattr(logos, medal) + logos.multi)
        if n:
            parts.append(f"{o.key} {n}")
    if p.logo_bonus and medal == "polychrome":
        parts.append("bonus-logo token 1")
    return " + ".join(parts)


def _report(players: list[Player], plays: dict[str, Play], medallions: list[Medallion]) -> list[str]:
    lines = ["Medallions (the ♚ counts 1 in each monochrome count, not in the polychrome one):"]
    for m in medallions:
        lines.append(_medallion_line(m))
        for p in players:
            sources = _logo_sources(p, m.id)
            if sources:
                lines.append(f"    {p.name}: {sources}")
    for p in players:
        play = plays[p.name]
        lines.append("")
        lines.append(f"{p.name}{' (♚)' if p.king else ''}:")
        notes = choice_notes(p, play)
        for c in _choices_of(play, p.fixed):
            lines.append("  choice: " + _choice_text(c, notes))
        placed = {c: n for c, n in play.placement.items() if n}
        prefilled = Counter(s.removeprefix("filled:") for q in play.played for s in q.squares
                            if s.startswith("filled:"))
        if placed or any(p_.squares for p_ in play.played):
            shown = ", ".join(f"{n} {c}" for c, n in placed.items()) or "nothing"
            line = f"  forge: {shown} placed from the stock ({_how(p.fixed.placement is not None)})"
            if prefilled:
                # «Certains carrés sont représentés avec un cristal directement dedans. Ils sont
                # considérés comme déjà pleins»
                line += "; pre-filled squares: " + ", ".join(f"{n} {c}" for c, n in sorted(prefilled.items()))
            lines.append(line)
        for s in play.scores:
            category = s.category or "—"
            lines.append(f"  {s.owned.label}: {category} {s.points} ({s.why})")
    return lines
