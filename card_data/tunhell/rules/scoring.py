"""TunHell scoring: the loot's VP, the trophies, the rings in hand and the back door.

Final-state file (``cardforge score tunhell FILE``)::

    mode: full                  # or initiation: required unless the cards make it certain (issue 18)
    short: 0                    # optional: 3, 6 or 9 more mine cards removed (the shorter game)
    partial: false              # optional: true scores a game before its end (no end checks)
    players:
      - name: Ana
        loot: {terre: 5, tresor: 3, rat: 2, gobelin: 1, dragon: 1, coeur-d-or: 1, salle-du-trone: 1}
        hand: [anneau-unique]       # the cards in hand at the end (only rings score)
        back_door: false            # found la Porte de derrière
        trophies: [employe-du-mois] # optional: needed only to settle a tie

«Chaque joueur fait alors le total des points de victoire des cartes de son butin,
éventuellement des trophées, des Anneaux de sa main et de la Porte dérobée qu'il a obtenu.»
No tie-breaker: tied players share the rank.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from cardforge import sheet
from cardforge.data.models import Model
from cardforge.problems import Problem
from cardforge.scores import PlayerResult, ScoreResult

from .cards import Trophy, destination, is_plus, with_article
from .rulebook import BACK_DOOR, HAND_LIMIT
from .setup_rules import MINE_DECK, pile_size

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import TunhellCard


class PlayerState(Model):
    name: str = Field(min_length=1)
    # la Porte de derrière is set before a mine, never looted: its own checkbox (back_door)
    loot: dict[str, Annotated[int, Field(ge=0)]] = Field(
        default_factory=dict, json_schema_extra=sheet.counts("mine", "end_of_mine", exclude=[BACK_DOOR]))
    # «recrutez un Nain […] et l'ajoute à sa main»; the finds marked for the hand join it too
    hand: list[str] = Field(default_factory=list, json_schema_extra=sheet.cards("dwarf", "mine"))
    back_door: bool = False
    trophies: list[str] = Field(default_factory=list, json_schema_extra=sheet.cards("trophy"))


class FinalState(Model):
    mode: Literal["full", "initiation"] | None = None
    short: Literal[0, 3, 6, 9] = 0
    partial: bool = False
    players: list[PlayerState]


# --- the mode ------------------------------------------------------------------------------

def full_game_evidence(data: GameData[TunhellCard], state: FinalState) -> str | None:
    """What in the final state exists only in a full game (None: nothing does).

    «Écartez les cartes fin de mine, trophée et toutes les cartes Mine portant le symbole (+)
    [...] Ces cartes [...] ne seront pas utilisées dans les règles d'initiation.»"""
    for player in state.players:
        if player.back_door:
            return f"{player.name} found la Porte de derrière"
        if player.trophies:
            return f"{player.name} names a trophy"
        for card_id in [*player.loot, *player.hand]:
            if data.has_card(card_id):
                card = data.card(card_id)
                if is_plus(card) or card.kind == "end_of_mine":
                    return f"{player.name} holds {card.name}, " + (
                        "a (+) card" if is_plus(card) else "an end-of-mine card")
    return None


def effective_mode(data: GameData[TunhellCard], state: FinalState) -> str | None:
    """The mode given, else ``full`` when the cards make it certain, else None (must be given):
    an initiation 8–8 tie scored as a full game gives a trophy to one of them."""
    if state.mode is not None:
        return state.mode
    return "full" if full_game_evidence(data, state) else None


def _item(index: int, player: PlayerState) -> str:
    return f"player '{player.name}' (#{index + 1})"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _unknown(data: GameData[TunhellCard], card_id: str, kinds: tuple[str, ...]) -> str:
    ids = [c.id for c in data.cards if c.kind in kinds]
    close = difflib.get_close_matches(card_id, ids, n=1)
    return f"unknown card '{card_id}'" + (f"; did you mean '{close[0]}'?" if close else "")


# --- where cards may be at the end --------------------------------------------------------

def _loot_problem(data: GameData[TunhellCard], card_id: str) -> str | None:
    """Why ``card_id`` cannot be in a loot (None: it can)."""
    if not data.has_card(card_id):
        return _unknown(data, card_id, ("mine", "end_of_mine"))
    card = data.card(card_id)
    if card.kind == "dwarf":
        return f"'{card_id}' is a dwarf, not loot"
    if card.kind == "trophy":
        return f"'{card_id}' is a trophy, not loot (name it under trophies: only to settle a tie)"
    goes_to = destination(card)
    if goes_to == "hand":  # «ils rejoignent obligatoirement votre main et non votre butin»
        return f"'{card_id}' ({card.name}) joins the hand, never the loot: list it under hand:"
    if goes_to == "discard":
        return f"'{card_id}' ({card.name}) is discarded once drawn, it never reaches the loot"
    if goes_to == "mine":
        return f"'{card_id}' ({card.name}) is set before a mine, not in the loot: write back_door: true"
    return None


def _hand_problem(data: GameData[TunhellCard], card_id: str) -> str | None:
    """Why ``card_id`` cannot be in a hand: only dwarves and the finds that join the hand can."""
    if not data.has_card(card_id):
        return _unknown(data, card_id, ("dwarf", "mine"))
    card = data.card(card_id)
    if card.kind == "dwarf" or destination(card) == "hand":
        return None
    return f"'{card_id}' ({card.name}) never joins a hand (only dwarves and the finds marked for the hand do)"


def check_final_state(data: GameData[TunhellCard], state: FinalState) -> list[Problem]:
    """Every rule the final state breaks."""
    problems = _check_players(state)
    mode = effective_mode(data, state)
    if mode is None:
        return problems + [Problem(
            "missing: write mode: full or mode: initiation (nothing in the loots and hands tells which "
            "rules were played, and they score differently: trophies only in a full game)", field="mode")]
    for index, player in enumerate(state.players):
        problems += _check_player(data, mode, index, player)
    problems += _check_copies(data, state, mode)
    problems += _check_end_of_mine(data, state)
    problems += _check_third_pile(data, state, mode)
    if not state.partial:
        problems += _check_game_ended(data, state, mode)
    _, trophy_problems = resolve_trophies(data, state)
    return problems + trophy_problems


def _check_players(state: FinalState) -> list[Problem]:
    return []  # the player count and distinct names are the engine's (engine/scoring.py, check_players)


def _check_player(data: GameData[TunhellCard], mode: str, index: int, player: PlayerState) -> list[Problem]:
    item = _item(index, player)
    problems = []
    for card_id in player.loot:
        why = _loot_problem(data, card_id)
        if why:
            problems.append(Problem(why, item=item, field=f"loot.{card_id}"))
    for card_id in dict.fromkeys(player.hand):
        why = _hand_problem(data, card_id)
        if why:
            problems.append(Problem(why, item=item, field="hand"))
    if len(player.hand) > HAND_LIMIT:
        problems.append(Problem(f"{len(player.hand)} cards in hand, the hand limit is {HAND_LIMIT}",
                                item=item, field="hand"))
    for card_id, n in Counter(player.trophies).items():
        if not (data.has_card(card_id) and data.card(card_id).kind == "trophy"):
            trophies = ", ".join(c.id for c in data.cards_of("trophy"))
            problems.append(Problem(f"'{card_id}' is not a trophy (trophies: {trophies})",
                                    item=item, field="trophies"))
        elif n > 1:
            problems.append(Problem(f"'{card_id}' named {n} times", item=item, field="trophies"))
    if mode == "initiation":
        problems += _initiation_problems(data, item, player)
    return problems


def _initiation_problems(data: GameData[TunhellCard], item: str, player: PlayerState) -> list[Problem]:
    """«Écartez les cartes fin de mine, trophée et toutes les cartes Mine portant le symbole (+)»."""
    problems = []
    for field, ids in (("loot", list(player.loot)), ("hand", list(dict.fromkeys(player.hand)))):
        for card_id in ids:
            if not data.has_card(card_id):
                continue
            card = data.card(card_id)
            where = f"{field}.{card_id}" if field == "loot" else field
            if is_plus(card):
                problems.append(Problem(f"'{card_id}' ({card.name}) is a full-game card (+), "
                                        "not used in initiation", item=item, field=where))
            elif card.kind == "end_of_mine":
                problems.append(Problem(f"'{card_id}' ({card.name}) is an end-of-mine card, "
                                        "not used in initiation", item=item, field=where))
    if player.trophies:
        problems.append(Problem("trophies are not used in initiation", item=item, field="trophies"))
    if player.back_door:
        problems.append(Problem("the back door is an end-of-mine card, not used in initiation",
                                item=item, field="back_door"))
    return problems


def _holdings(player: PlayerState) -> Counter[str]:
    """Every card a player holds at the end: loot and hand."""
    return Counter(player.loot) + Counter(player.hand)


def _check_copies(data: GameData[TunhellCard], state: FinalState, mode: str) -> list[Problem]:
    """No card more often, across all players, than the deck holds; no more mine cards than the
    piles held. (End-of-mine cards are counted by ``_check_end_of_mine``.)"""
    problems = []
    by_player = [(p.name, _holdings(p)) for p in state.players]
    total: Counter[str] = sum((h for _, h in by_player), Counter())
    for card_id, n in total.items():
        if not data.has_card(card_id) or data.card(card_id).kind in ("end_of_mine", "trophy"):
            continue
        copies = data.card(card_id).copies
        if n > copies:
            who = ", ".join(f"{name} {h[card_id]}" for name, h in by_player if h[card_id])
            problems.append(Problem(f"{n} '{card_id}' cards across all players ({who}), "
                                    f"the deck holds {copies}"))
    # The piles hold at most the mine deck minus the cards removed at setup (a shortened game
    # holds fewer still, but the final state does not say whether it was shortened).
    held = sum(n for card_id, n in total.items()
               if data.has_card(card_id) and data.card(card_id).kind == "mine")
    in_play = 3 * pile_size(mode, state.short)
    if held > in_play:
        problems.append(Problem(
            f"the players hold {held} mine cards, but {with_article(mode)} game puts only {in_play} "
            f"into the piles ({MINE_DECK[mode]} minus {MINE_DECK[mode] - in_play} removed)"))
    return problems


def _found_end_of_mine(data: GameData[TunhellCard], state: FinalState) -> list[tuple[str, str]]:
    """(player, card name) of every end-of-mine card with the players: in a loot, or the back door."""
    found = []
    for player in state.players:
        if player.back_door:
            found.append((player.name, data.card(BACK_DOOR).name))
        for card_id, n in player.loot.items():
            if card_id != BACK_DOOR and data.has_card(card_id) and data.card(card_id).kind == "end_of_mine":
                found += [(player.name, data.card(card_id).name)] * n
    return found


def _check_game_ended(data: GameData[TunhellCard], state: FinalState, mode: str) -> list[Problem]:
    """«Le jeu prend fin immédiatement lorsque 2 des 3 tas de cartes «Mine» sont vides.»

    Full game: «La dernière carte de chaque pile est une carte spéciale «Fin de Mine»», and an
    encounter that is not defeated «est remis à sa place» — so a pile is empty only once its
    end-of-mine card is with a player, and the game stops when the second one is: exactly 2 of
    them at the end (more is refused by ``_check_end_of_mine``, even for a partial game).
    Initiation: every card of the two emptied piles reached a loot (an undefeated encounter goes
    back on its pile, and without the (+) cards every find joins the loot), so the loots hold at
    least 2 piles' cards (the most is ``_check_third_pile``'s)."""
    hint = "; write partial: true to score a game before its end"
    if mode == "full":
        found = _found_end_of_mine(data, state)
        if len(found) < 2:
            which = ("none" if not found else
                     "only " + ", ".join(f"{card} ({name})" for name, card in found))
            return [Problem(
                f"a full game ends when 2 of the 3 mines are empty, each emptied on its end-of-mine card, "
                f"so exactly 2 end-of-mine cards are with the players; found: {which} (la Porte de "
                f"derrière counts through back_door:){hint}", field="players")]
        return []
    pile = pile_size(mode, state.short)
    in_loots = _mine_cards_in_loots(data, state)
    if in_loots < 2 * pile:
        short = f" after removing {state.short} more" if state.short else ""
        return [Problem(
            f"the loots hold {in_loots} mine cards, but an initiation game ends only when 2 of the 3 piles "
            f"({pile} cards each{short}) are empty, their cards all in the loots: at least {2 * pile} "
            f"(short: 3, 6 or 9 for a shorter game){hint}", field="players")]
    return []


def _mine_cards_in_loots(data: GameData[TunhellCard], state: FinalState) -> int:
    return sum(n for p in state.players for card_id, n in p.loot.items()
               if data.has_card(card_id) and data.card(card_id).kind == "mine")


def _check_third_pile(data: GameData[TunhellCard], state: FinalState, mode: str) -> list[Problem]:
    """Initiation: the game stops the moment a second pile is empty, so the third still holds at
    least one card — the loots hold at most the piles' total − 1 mine cards (true of a game
    scored before its end too). ``short: 3|6|9`` makes every pile smaller."""
    if mode != "initiation":
        return []
    pile = pile_size(mode, state.short)
    in_loots = _mine_cards_in_loots(data, state)
    most = 3 * pile - 1
    if in_loots <= most:
        return []
    short = f", {state.short} more removed" if state.short else ""
    return [Problem(
        f"the loots hold {in_loots} mine cards, but an initiation game stops as soon as a second pile is "
        f"empty, so the third still holds at least 1 card: at most 3 × {pile} − 1 = {most} in the loots "
        f"(3 piles of {pile}{short})", field="players")]


def _check_end_of_mine(data: GameData[TunhellCard], state: FinalState) -> list[Problem]:
    """Each end-of-mine card is found at most once, and at most 2 of them are with the players:
    the game stops the moment the second mine is empty (the third pile's end-of-mine card stays
    at its bottom). The back door counts through ``back_door`` (in a loot it is rejected by
    ``_loot_problem``)."""
    found: Counter[str] = Counter()
    finders: dict[str, list[str]] = {}
    for player in state.players:
        mine = Counter({c: n for c, n in player.loot.items()
                        if n and c != BACK_DOOR and data.has_card(c) and data.card(c).kind == "end_of_mine"})
        mine[BACK_DOOR] += int(player.back_door)
        for card_id, n in (+mine).items():
            found[card_id] += n
            finders.setdefault(card_id, []).append(player.name + (f" {n}" if n > 1 else ""))
    problems = [
        Problem(f"'{card_id}' ({data.card(card_id).name}) found {n} times "
                f"({', '.join(finders[card_id])}), each end-of-mine card exists once")
        for card_id, n in found.items() if n > 1
    ]
    if found.total() > 2:
        who = "; ".join(f"{data.card(c).name} ({', '.join(finders[c])})" for c in found)
        problems.append(Problem(
            f"{found.total()} end-of-mine cards found ({who}), but a full game stops as soon as a second "
            "mine is empty: at most 2 are with the players (the third stays at the bottom of its pile)",
            field="players"))
    return problems


# --- trophies -----------------------------------------------------------------------------

@dataclass(frozen=True)
class TrophyHolder:
    """Who holds a trophy at the end, and why (for the report)."""

    trophy: Trophy
    holder: str | None
    count: int  # the holder's count of the trophy's card (the lead)
    tied: tuple[str, ...] = ()  # the other players with as many, when the holder was named


def resolve_trophies(data: GameData[TunhellCard], state: FinalState) -> tuple[list[TrophyHolder], list[Problem]]:
    """«Il le conserve devant lui tant qu'il a plus de cartes [Terre / Rat] dans son butin que les
    autres joueurs. Dès qu'un autre joueur obtient autant ou plus, il s'empare alors du trophée.»

    So a strict leader (with at least one) holds it; on a tie for the lead the holder depends on
    who got there last, which only the players know: one of the tied players must name it.
    """
    if effective_mode(data, state) != "full":
        return [], []
    holders, problems = [], []
    for trophy in data.cards_of("trophy"):
        assert isinstance(trophy, Trophy)
        holder, trophy_problems = _resolve(data, state, trophy)
        holders.append(holder)
        problems += trophy_problems
    return holders, problems


def _resolve(data: GameData[TunhellCard], state: FinalState, trophy: Trophy) -> tuple[TrophyHolder, list[Problem]]:
    counts = {p.name: p.loot.get(trophy.most, 0) for p in state.players}
    lead = max(counts.values(), default=0)
    leaders = [name for name, n in counts.items() if n == lead] if lead else []
    naming = [p.name for p in state.players if trophy.id in p.trophies]
    what = data.card(trophy.most).name
    strangers = [name for name in naming if name not in leaders]
    problems = []
    if strangers:
        if not leaders:
            why = f"nobody has a {what} card, so nobody holds it"
        elif len(leaders) == 1:
            runner_up = max((n for n in counts.values() if n != lead), default=0)
            why = f"{leaders[0]} leads in {what} cards ({lead} against {runner_up}) and holds it"
        else:
            why = f"{_names(leaders)} are tied for the lead in {what} cards ({lead} each)"
        problems.append(Problem(f"{_names(strangers)} name{'s' if len(strangers) == 1 else ''} "
                                f"{trophy.name} in trophies:, but {why}", field="trophies"))
    if len(leaders) < 2:
        return TrophyHolder(trophy, leaders[0] if leaders else None, lead), problems
    named = [name for name in naming if name in leaders]
    if len(named) != 1:
        said = ("none of them names it" if not named
                else f"{_names(named)} {'both' if len(named) == 2 else 'all'} name it")
        problems.append(Problem(
            f"{_names(leaders)} are tied for {trophy.name} ({lead} {what} cards each) and {said}: "
            f"write {trophy.id} under trophies: of the one who holds it (the last to reach {lead})",
            field="trophies"))
        return TrophyHolder(trophy, None, lead), problems
    others = tuple(name for name in leaders if name != named[0])
    return TrophyHolder(trophy, named[0], lead, others), problems


# --- scores -------------------------------------------------------------------------------

def score_final_state(data: GameData[TunhellCard], state: FinalState) -> ScoreResult:
    """The trophies and the back door; the loot and the rings (sums of the cards' VP — only the
    rings have VP among the cards a hand can hold) are declared in game.yaml."""
    holders, _ = resolve_trophies(data, state)
    back_door_vp = getattr(data.card(BACK_DOOR), "vp", 0)
    results = []
    for player in state.players:
        results.append(PlayerResult(player.name, {
            "trophies": sum(h.trophy.vp for h in holders if h.holder == player.name),
            "back_door": back_door_vp if player.back_door else 0,
        }))
    mode = effective_mode(data, state)
    details = {"trophies": {h.trophy.id: h.holder for h in holders}} if mode == "full" else None
    report = [_report(data, h) for h in holders]
    if state.mode is None:
        report.insert(0, f"Mode: full, not given but certain: {full_game_evidence(data, state)}.")
    if state.partial:
        report.append("Partial: scored before the end of the game (partial: true), the end checks skipped.")
    return ScoreResult(results, details, report, mode=mode, partial=state.partial)


def _report(data: GameData[TunhellCard], h: TrophyHolder) -> str:
    trophy = h.trophy
    what = data.card(trophy.most).name
    head = f"{trophy.name} ({trophy.vp} VP): "
    if h.holder is None:
        return head + f"nobody (no {what} card in any loot)"
    if h.tied:
        tied = _names(list(h.tied))
        return head + f"{h.holder}, tied with {tied} on {h.count} {what} cards (named in trophies:)"
    return head + f"{h.holder}, most {what} cards ({h.count})"
