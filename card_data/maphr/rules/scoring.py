"""End-game scoring of Les Mines de Maphr (rulebook, «Comptage des points»).

The final-state file (``cardforge score maphr FILE``)::

    players:
      - name: Alice
        clan: irongradd           # optional: a clan id; a grey clan needs 2 fewer galleries
        grey: false               # optional, when no clan is given
        coins: 47
        galleries: 12             # gallery + vein cards in the mine
        first_to_finish: true     # optional; needed only if several players reached their requirement
        improvements:             # each: a card id from the data, or {name, colour, vp}
          - etayage
          - {name: Forge runique, colour: red, vp: 3}
        veins: {coal: 4, gold: 2, mithril: 1}   # units of ore in the mine (a double coal vein = 2)
        miners: 3

Field-level mistakes (types, negative numbers, more than 12 galleries or 5 miners, an unknown
colour) are located by the model with their line; ``check_final_state`` adds the rule-level
rejections, all of them at once.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import AfterValidator, BeforeValidator, Discriminator, Field, Tag

from cardforge import sheet
from cardforge.data.models import Model
from cardforge.limits import limit  # issue 21: bounded inputs
from cardforge.problems import Problem, short_repr
from cardforge.scores import PlayerResult, ScoreResult

from .cards import COLOURS, MAX_VEIN_SIZE, ORE_VALUE, Colour, Improvement, Vein
from .names import fold_name
from .rules import (
    COLOUR_SQUARE_CAP,
    MAX_GALLERIES,
    MAX_MINERS,
    MINER_POINTS,
    MINERS_IN_BOX,
    RACE_CLOSE,
    RACE_FIRST,
    SERIES_BONUS,
    galleries_required,
)
from .setup_rules import player_label, unknown_clan_message

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import MaphrCard


def _at_most(limit: int, why: str) -> AfterValidator:
    def check(value: int) -> int:
        if value > limit:
            raise ValueError(f"at most {limit} ({why}), got {value}")
        return value

    return AfterValidator(check)


def _card_id(value: Any) -> Any:
    if not isinstance(value, str):
        raise ValueError(f"must be an improvement card id or {{name, colour, vp}}, got {short_repr(value)}")
    return value


class InlineImprovement(Model):
    """An improvement not taken from the data: its printed name, colour and victory points."""

    name: str = Field(min_length=1)
    colour: Colour
    vp: int = Field(ge=0)


def _ref_kind(value: Any) -> str:
    return "dict" if isinstance(value, dict) else "str"


#: An improvement of a mine: a card id of the deck, or an inline {name, colour, vp}. (The tags
#: are named like pydantic's own branch markers so problems read ``improvements[1].colour``.)
ImprovementRef = Annotated[
    Union[Annotated[InlineImprovement, Tag("dict")], Annotated[str, BeforeValidator(_card_id), Tag("str")]],
    Discriminator(_ref_kind),
]


class Veins(Model):
    """Units of ore in the mine: a double coal vein counts 2 coal."""

    coal: int = Field(0, ge=0)
    gold: int = Field(0, ge=0)
    mithril: int = Field(0, ge=0)


class PlayerState(Model):
    name: str = Field(min_length=1)
    clan: str | None = Field(None, json_schema_extra=sheet.section("clans"))
    grey: bool | None = Field(None, json_schema_extra=sheet.skip("the clan says whether it is a grey-dwarf clan"))
    coins: int = Field(ge=0)
    galleries: Annotated[int, Field(ge=0), _at_most(MAX_GALLERIES, "a level-IV mine holds 12 galleries and veins")]
    first_to_finish: bool = False
    # picked by name from the deck, or typed in with their colour and VP
    improvements: list[ImprovementRef] = Field(max_length=limit("inline_cards"),
                                               json_schema_extra=sheet.cards("improvement", inline=True))
    veins: Veins
    miners: Annotated[int, Field(ge=0), _at_most(MAX_MINERS, "a level-IV mine holds level + 1 = 5 miners")]


class FinalState(Model):
    players: list[PlayerState] = Field(max_length=limit("players"))
    partial: bool = False  # scored before anyone reached the requirement (issue 18: else rejected)


@dataclass(frozen=True)
class Built:
    """An improvement of a mine, resolved: from the deck or given inline."""

    name: str
    colour: str
    vp: int


# --- rule-level rejections ---------------------------------------------------------------------

def check_final_state(data: GameData[MaphrCard], state: FinalState) -> list[Problem]:
    # the player count and distinct names are the engine's (engine/scoring.py, check_players)
    problems: list[Problem] = _check_clans(data, state)
    for i, player in enumerate(state.players):
        problems += _check_improvements(data, i, player)
        problems += _check_veins(i, player)
    problems += _check_copies(data, state)
    total_miners = sum(p.miners for p in state.players)
    if total_miners > MINERS_IN_BOX:
        problems.append(Problem(f"{total_miners} miners in all the mines; the box has {MINERS_IN_BOX}",
                                field="players"))
    problems += _check_coins(data, state)
    problems += _check_race(data, state)
    return problems


def _item(i: int, player: PlayerState) -> str:
    return player_label(i, player.name)


def _check_clans(data: GameData[MaphrCard], state: FinalState) -> list[Problem]:
    clans = {c.id: c for c in data.sections["clans"]}
    holder: dict[str, int] = {}
    problems: list[Problem] = []
    for i, player in enumerate(state.players):
        if player.clan is None:
            continue
        item = _item(i, player)
        clan = clans.get(player.clan)
        if clan is None:
            problems.append(Problem(unknown_clan_message(player.clan, set(clans)), item=item, field="clan"))
            continue
        if player.clan in holder:
            j = holder[player.clan]
            problems.append(Problem(f"clan '{player.clan}' is already {_item(j, state.players[j])}'s; "
                                    "each player has a different clan", item=item, field="clan"))
        holder.setdefault(player.clan, i)
        if player.grey is not None and player.grey != clan.grey:
            kind = "a grey-dwarf clan" if clan.grey else "not a grey-dwarf clan"
            problems.append(Problem(f"{str(player.grey).lower()} contradicts clan '{clan.id}', which is "
                                    f"{kind} (leave grey out when a clan is given)", item=item, field="grey"))
    return problems


def _check_improvements(data: GameData[MaphrCard], i: int, player: PlayerState) -> list[Problem]:
    # «On ne peut avoir qu'un seul aménagement d'un nom donné.»
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for j, ref in enumerate(player.improvements):
        field = f"improvements[{j}]"
        built, problem = _resolve(data, ref)
        if problem:
            problems.append(Problem(problem, item=_item(i, player), field=field))
            continue
        key = fold_name(built.name)
        if key in seen:
            problems.append(Problem(
                f"'{built.name}' is already in this mine (improvements[{seen[key]}]); a mine holds only one "
                "improvement of a given name", item=_item(i, player), field=field))
        else:
            seen[key] = j
    return problems


def _deck_improvement(data: GameData[MaphrCard], name: str) -> Improvement | None:
    """The deck's improvement printed with this name (accents and case aside), if any."""
    key = fold_name(name)
    for card in data.cards_as("improvement", Improvement):
        if fold_name(card.name) == key:
            return card
    return None


def _resolve(data: GameData[MaphrCard], ref: str | InlineImprovement) -> tuple[Built, str | None]:
    """The improvement a reference names, or why it names none."""
    if isinstance(ref, InlineImprovement):
        card = _deck_improvement(data, ref.name)
        if card is not None and (card.colour, card.vp) != (ref.colour, ref.vp):
            # «Étayage» is red: an inline card named like a deck card must print what the card prints
            return Built(ref.name, ref.colour, ref.vp), (
                f"'{ref.name}' is {card.colour} with {card.vp} VP in the deck (card '{card.id}'), not "
                f"{ref.colour} with {ref.vp} VP: write {card.id}, or give the card you built its own name")
        return Built(ref.name, ref.colour, ref.vp), None
    nothing = Built("", "", 0)
    if not data.has_card(ref):
        ids = [c.id for c in data.cards_of("improvement")]
        close = difflib.get_close_matches(ref, ids, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        return nothing, (f"unknown improvement card '{ref}' (give a card id of the maphr deck, or "
                         f"{{name, colour, vp}}){hint}")
    found = data.card(ref)
    if not isinstance(found, Improvement):
        return nothing, f"'{ref}' is a {found.kind} card ({found.name}), not an improvement"
    return Built(found.name, found.colour, found.vp), None


def _check_veins(i: int, player: PlayerState) -> list[Problem]:
    # Each vein card holds at most 3 units (mithril 2) and is one of the mine's galleries.
    veins = player.veins
    cards = sum(-(-getattr(veins, ore) // MAX_VEIN_SIZE[ore]) for ore in ORE_VALUE)
    if cards <= player.galleries:
        return []
    return [Problem(
        f"{veins.coal} coal, {veins.gold} gold and {veins.mithril} mithril need at least {cards} vein cards "
        f"(3 units a card at most, 2 for mithril), but the mine has {player.galleries} galleries and veins",
        item=_item(i, player), field="veins")]


def _check_copies(data: GameData[MaphrCard], state: FinalState) -> list[Problem]:
    """No improvement more often across all mines than the deck holds (by id, an inline card named
    like a deck card counting as that card), and no more ore units than the deck's veins hold."""
    problems: list[Problem] = []
    held: dict[str, list[str]] = {}
    for player in state.players:
        for ref in player.improvements:
            card_id = ref if isinstance(ref, str) else getattr(_deck_improvement(data, ref.name), "id", None)
            if card_id and data.has_card(card_id):
                held.setdefault(card_id, []).append(player.name)
    for card_id, names in held.items():
        card = data.card(card_id)
        if len(names) > card.copies:
            who = ", ".join(f"{n} {names.count(n)}" if names.count(n) > 1 else n for n in dict.fromkeys(names))
            problems.append(Problem(
                f"{len(names)} '{card_id}' ({card.name}) across all mines ({who}), the deck holds "
                f"{card.copies}", field="improvements"))
    for ore in ORE_VALUE:
        units = sum(getattr(p.veins, ore) for p in state.players)
        in_deck = sum(v.size * v.copies for v in data.cards_as("vein", Vein) if v.ore == ore)
        if units > in_deck:
            who = ", ".join(f"{p.name} {getattr(p.veins, ore)}" for p in state.players if getattr(p.veins, ore))
            problems.append(Problem(
                f"{units} units of {ore} across all mines ({who}), the deck's {ore} veins hold {in_deck}",
                field=f"veins.{ore}"))
    return problems


def _check_coins(data: GameData[MaphrCard], state: FinalState) -> list[Problem]:
    """«Contenu : 20 pièces de 1, 16 pièces de 5, 16 pièces de 10, 8 pièces de 50»: the players
    hold at most the box's coins (components.yaml: count × value); the rulebook makes no other
    money, and it never calls its pieces unlimited."""
    coins = [c for c in data.sections.get("components", []) if getattr(c, "value", None)]
    if not coins:
        return []
    in_box = sum(c.count * c.value for c in coins)
    held = sum(p.coins for p in state.players)
    if held <= in_box:
        return []
    who = ", ".join(f"{p.name} {p.coins}" for p in state.players if p.coins)
    pieces = ", ".join(f"{c.count}×{c.value}" for c in sorted(coins, key=lambda c: c.value))
    # on the richest player's coins, so the score sheet shows it beside an input
    richest = max(range(len(state.players)), key=lambda i: (state.players[i].coins, -i))
    return [Problem(f"{held} coins across all players ({who}), the box holds {in_box} ({pieces}) (rules: "
                    "«Contenu»: the coins are the box's)", item=_item(richest, state.players[richest]),
                    field="coins")]


def requirements(data: GameData[MaphrCard], state: FinalState) -> list[int]:
    """The galleries each player needed to end the game (grey from the clan, else ``grey``)."""
    clans = {c.id: c for c in data.sections["clans"]}
    out = []
    for player in state.players:
        clan = clans.get(player.clan) if player.clan else None
        grey = clan.grey if clan is not None else bool(player.grey)
        out.append(galleries_required(len(state.players), grey))
    return out


def _check_race(data: GameData[MaphrCard], state: FinalState) -> list[Problem]:
    # «finir le premier en nombre de galeries à atteindre, +25 points»: the first is whoever
    # reached the requirement; when several did, the file must say who was first.
    needs = requirements(data, state)
    marked = [i for i, p in enumerate(state.players) if p.first_to_finish]
    reached = [i for i, p in enumerate(state.players) if p.galleries >= needs[i]]
    problems: list[Problem] = []
    for i in marked:
        p = state.players[i]
        if i not in reached:
            problems.append(Problem(
                f"{p.name} has {p.galleries} of the {needs[i]} galleries required; only a player who reached "
                "the requirement can be first to finish", item=_item(i, p), field="first_to_finish"))
    if len(marked) > 1:
        names = ", ".join(state.players[i].name for i in marked)
        problems.append(Problem(f"set on {len(marked)} players ({names}); only one player can be first to "
                                "finish", field="first_to_finish"))
    if not reached and not state.partial:
        # «En fin de partie quand un joueur atteint la 12ème galerie/filon (ou moins selon le
        # nombre de joueurs), on fait le compte des points»: nobody there, the game goes on.
        who = ", ".join(f"{p.name} {p.galleries}/{needs[i]}" for i, p in enumerate(state.players))
        problems.append(Problem(
            f"nobody reached the galleries required ({who}): the game ends when a player does; write "
            "partial: true to score a game before its end", field="galleries"))
    if len(reached) > 1 and not marked:
        who = ", ".join(f"{state.players[i].name} ({state.players[i].galleries}/{needs[i]})" for i in reached)
        problems.append(Problem(f"missing: several players reached their requirement ({who}); set "
                                "first_to_finish: true on the one who got there first", field="first_to_finish"))
    return problems


# --- scoring -----------------------------------------------------------------------------------

def score(data: GameData[MaphrCard], state: FinalState) -> ScoreResult:
    needs = requirements(data, state)
    first = _first_to_finish(state, needs)
    results, details = [], []
    for i, player in enumerate(state.players):
        built = [_resolve(data, ref)[0] for ref in player.improvements]
        colours = Counter(b.colour for b in built)
        counts = {c: colours[c] for c in COLOURS}
        race = RACE_FIRST if i == first else (RACE_CLOSE if player.galleries >= needs[i] - 1 else 0)
        v = player.veins
        # coins ÷ 6, the improvements' VP, colour squares and series: game.yaml declares them
        breakdown = {
            "gallery_race": race,
            "veins_and_miners": sum(getattr(v, ore) * value for ore, value in ORE_VALUE.items())
            + MINER_POINTS * player.miners,
        }
        results.append(PlayerResult(player.name, breakdown, tiebreak=(player.coins,)))
        details.append({"name": player.name, "clan": player.clan, "galleries": player.galleries,
                        "galleries_required": needs[i], "first_to_finish": i == first, "colours": counts})
    report = _colour_report(state, details) + _race_report(state, needs, first)
    if state.partial:
        report.append("Partial: scored before anyone reached the requirement (partial: true).")
    return ScoreResult(results, details={"players": details}, report=report, partial=state.partial)


def _colour_report(state: FinalState, details: list[dict[str, Any]]) -> list[str]:
    """Per player, the improvements of each colour, its square, where the cap of 16 applied
    («Limité au maximum à 16 points par couleur») and the 5-colour series."""
    lines = ["Colours (count² each, at most 16; +10 a series of 5 colours):"]
    for player, d in zip(state.players, details):
        parts = []
        for colour, k in d["colours"].items():
            if k:
                square = k * k
                capped = f" = {square}, capped at {COLOUR_SQUARE_CAP}" if square > COLOUR_SQUARE_CAP else f" = {square}"
                parts.append(f"{colour} {k}²{capped}")
        series = min(d["colours"].values())
        tail = f"; {series} series of 5 colours (+{SERIES_BONUS * series})" if series else ""
        lines.append(f"  {player.name}: " + (", ".join(parts) if parts else "no improvement") + tail)
    return lines


def _first_to_finish(state: FinalState, needs: list[int]) -> int | None:
    """Index of the player who reached the requirement first (checked: at most one candidate)."""
    marked = [i for i, p in enumerate(state.players) if p.first_to_finish]
    if marked:
        return marked[0]
    reached = [i for i, p in enumerate(state.players) if p.galleries >= needs[i]]
    return reached[0] if reached else None


def _race_report(state: FinalState, needs: list[int], first: int | None) -> list[str]:
    parts = []
    for i, p in enumerate(state.players):
        if i == first:
            parts.append(f"{p.name} first to reach {p.galleries}/{needs[i]} (+{RACE_FIRST})")
        elif p.galleries >= needs[i]:  # reached it too, but not first
            parts.append(f"{p.name} {p.galleries}/{needs[i]}, reached but not first (+{RACE_CLOSE})")
        elif p.galleries >= needs[i] - 1:  # «ceux au nombre requis -1 ont +10 points»
            parts.append(f"{p.name} {p.galleries}/{needs[i]}, one short (+{RACE_CLOSE})")
        else:
            parts.append(f"{p.name} {p.galleries}/{needs[i]}")
    line = "Gallery race: " + "; ".join(parts)
    if first is None:
        line += " — nobody reached the requirement, so no one gets the +25"
    return [line]
