"""Setting up Les Mines de Maphr (rulebook, «Début du jeu»): counts, checklist, a random deal
and the check of a described deal (``cardforge setup maphr --check FILE``)."""

from __future__ import annotations

import difflib
import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from pydantic import Field

from cardforge.data.models import Model
from cardforge.problems import Problem, plural, short_repr

from .cards import IMMEDIATE_KINDS
from .rules import (
    CARDS_EACH,
    COINS_EACH,
    GREY_ALLOWANCE,
    HAND_LIMIT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MINERS_IN_BOX,
    TOTAL_CARDS,
    galleries_required,
)

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

    from .cards import MaphrCard

#: «Le joueur le plus barbu commence, puis on tourne dans le sens horaire.» The deal cannot
#: see beards: seats are numbered clockwise from the first player.
FIRST_PLAYER = "Joueur 1, le joueur le plus barbu ; on joue ensuite dans le sens horaire"


def setup_counts(players: int) -> dict[str, Any]:
    return {
        "coins_each": COINS_EACH,
        "cards_each": CARDS_EACH,
        "hand_limit": HAND_LIMIT,
        "galleries_required": galleries_required(players),
    }


def setup_steps(players: int, counts: dict[str, Any]) -> list[str]:
    """The French checklist of «Début du jeu»."""
    required = counts["galleries_required"]
    return [
        f"Mélangez les {TOTAL_CARDS} cartes : elles forment la pioche.",
        f"Attribuez au hasard un clan à chacun des {players} joueurs ; chacun pose son plateau de clan "
        "devant lui.",
        f"Donnez {counts['coins_each']} pièces à chaque joueur ; le reste des pièces forme la réserve.",
        f"Distribuez {counts['cards_each']} cartes à chaque joueur. Une catastrophe ou un contrat reçu est "
        "défaussé (pile de défausse à part) et remplacé par la carte suivante de la pioche, jusqu'à ce "
        "qu'il n'y en ait plus aucun en main.",
        f"On ne peut pas avoir plus de {counts['hand_limit']} cartes en main.",
        f"Posez près de la réserve les {MINERS_IN_BOX} mineurs, le dé et le jeton d'avancement du tour ; chaque joueur "
        "prend un pion (vert, bleu, jaune ou rouge).",
        f"La partie s'arrête quand un joueur atteint {required} galeries et filons dans sa mine "
        f"({required - GREY_ALLOWANCE} pour le clan de nains gris).",
        "Le joueur le plus barbu commence, puis on tourne dans le sens horaire. Il lance le dé de pioche "
        "au premier tour ; le lanceur change ensuite à chaque tour dans le sens horaire.",
    ]


def deal(data: GameData[MaphrCard], players: int, rng: random.Random) -> dict[str, Any]:
    """Clans at random (all different), then 4 cards each from the shuffled deck, dealt one at
    a time in seat order. Then, seat by seat, every contract or catastrophe in a hand goes to
    the discard pile and is replaced by the next card of the pile, until none is left.
    («S'il y en a elles sont défaussées et remplacées»: the replacement may itself be one, and
    is discarded and replaced in turn.)"""
    clans = rng.sample(data.sections["clans"], players)
    pile = [card.id for card in data.printed]
    rng.shuffle(pile)
    hands: list[list[str]] = [[] for _ in range(players)]
    for _ in range(CARDS_EACH):
        for hand in hands:
            hand.append(pile.pop())
    discard: list[str] = []
    for hand in hands:
        while immediate := [c for c in hand if data.card(c).kind in IMMEDIATE_KINDS]:
            for card_id in immediate:
                hand.remove(card_id)
                discard.append(card_id)
                hand.append(pile.pop())
    return {
        "players": [
            {
                "player": f"Joueur {seat}",
                "clan": clan.id,
                "clan_name": clan.name,
                "grey": clan.grey,
                "galleries_required": galleries_required(players, clan.grey),
                "hand": hand,
            }
            for seat, (clan, hand) in enumerate(zip(clans, hands), start=1)
        ],
        "first_player": FIRST_PLAYER,
        "discard": discard,
        "draw_pile": len(pile),
    }


class DealtPlayer(Model):
    """One player of a described deal: the clan id and the starting hand; optionally a name, and
    the fields ``cardforge setup maphr --json`` derives (each checked when given)."""

    player: str | None = None  # the seat, as the deal prints it: "Joueur 1", "Joueur 2"…
    name: str | None = Field(None, min_length=1)
    clan: str
    clan_name: str | None = None  # the clan's name in clans.yaml
    grey: bool | None = None  # a grey-dwarf clan
    galleries_required: int | None = None  # 12 at 2–3 players, 11 at 4; 2 fewer for a grey clan
    hand: list[str]


class DescribedDeal(Model):
    """A deal to check with ``cardforge setup maphr --check FILE``: the ``deal`` that
    ``cardforge setup maphr --json`` prints (or the whole printed object), or a YAML file::

        # players in seat order (clockwise from the first player)
        players:
          - name: Alice                 # optional
            clan: irongradd             # a clan id of card_data/maphr/clans.yaml
            hand: [etayage, galerie-droite, galerie-virage, charbon-simple]   # 4 card ids
          - name: Ben
            clan: grisonniers-de-dulgard
            hand: [comptoir, galerie-virage, or-simple-virage, roche-dure]

    Checked against the rules: 2–4 players, known and distinct clans, 4 cards in each hand,
    no contract or catastrophe in a hand, card ids of the deck, and no card dealt more times
    (across the hands and the discard pile) than the deck has copies of it. The derived fields
    the deal prints are optional and checked when given: each player's ``player`` (the seat,
    «Joueur N»), ``clan_name``, ``grey`` and ``galleries_required`` against clans.yaml and the
    rules; ``first_player``; ``discard`` (only contracts and catastrophes are discarded at setup);
    ``draw_pile`` (the cards left: 250 − the hands − the discard pile). ``seed`` is the record of
    the seed that made the deal, accepted as it is.
    """

    players: list[DealtPlayer]
    first_player: str | None = None
    discard: list[str] | None = None
    draw_pile: int | None = None
    seed: int | None = None

    def setup_request(self) -> tuple[int | None, str | None, dict[str, Any]]:
        """(players, mode, options) this deal is for: the engine checks the printed counts and
        checklist of a whole ``--json`` object against them."""
        return len(self.players), None, {}


def check_setup(data: GameData[MaphrCard], setup: DescribedDeal) -> list[Problem]:
    problems: list[Problem] = []
    count = len(setup.players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        problems.append(Problem(f"{count} given, maphr supports {MIN_PLAYERS}–{MAX_PLAYERS}", field="players"))
    problems += _check_clans(data, setup)
    problems += _check_derived(data, setup)
    problems += _check_hands(data, setup)
    problems += _check_draw_pile(data, setup)
    return problems


def player_label(index: int, name: str | None) -> str:
    """«player 'Alice' (#1)», or «player #1» for a player without a name."""
    return f"player '{name}' (#{index + 1})" if name else f"player #{index + 1}"


def _check_clans(data: GameData[MaphrCard], setup: DescribedDeal) -> list[Problem]:
    clans = {c.id for c in data.sections["clans"]}
    problems: list[Problem] = []
    holder: dict[str, int] = {}
    for i, player in enumerate(setup.players):
        item = player_label(i, player.name)
        if player.clan not in clans:
            problems.append(Problem(unknown_clan_message(player.clan, clans), item=item, field="clan"))
        elif player.clan in holder:
            first = holder[player.clan]
            problems.append(Problem(
                f"clan '{player.clan}' is already dealt to "
                f"{player_label(first, setup.players[first].name)}; each player has a different clan",
                item=item, field="clan"))
        else:
            holder[player.clan] = i
    return problems


def unknown_clan_message(clan: str, known: set[str]) -> str:
    close = difflib.get_close_matches(clan, sorted(known), n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"unknown clan '{clan}' (clans: {', '.join(sorted(known))}){hint}"


def _check_derived(data: GameData[MaphrCard], setup: DescribedDeal) -> list[Problem]:
    """The fields the deal derives from the clans and the rules, when given."""
    clans = {c.id: c for c in data.sections["clans"]}
    count = len(setup.players)
    problems: list[Problem] = []
    for i, player in enumerate(setup.players):
        item = player_label(i, player.name)
        seat = f"Joueur {i + 1}"
        if player.player is not None and player.player != seat:
            problems.append(Problem(f"got {short_repr(player.player)}, expected {short_repr(seat)} (seats are "
                                    "numbered from 1, clockwise from the first player, in the order of the list)",
                                    item=item, field="player"))
        clan = clans.get(player.clan)
        if clan is None:  # reported by _check_clans
            continue
        if player.clan_name is not None and player.clan_name != clan.name:
            problems.append(Problem(f"got {short_repr(player.clan_name)}, expected {short_repr(clan.name)} (the "
                                    f"name of clan '{clan.id}' in card_data/maphr/clans.yaml)", item=item,
                                    field="clan_name"))
        if player.grey is not None and player.grey != clan.grey:
            problems.append(Problem(f"got {_bool(player.grey)}, expected {_bool(clan.grey)} (clan '{clan.id}' is "
                                    f"{'' if clan.grey else 'not '}a grey-dwarf clan)", item=item, field="grey"))
        if player.galleries_required is not None and MIN_PLAYERS <= count <= MAX_PLAYERS:
            wanted = galleries_required(count, clan.grey)
            if player.galleries_required != wanted:
                why = f"{galleries_required(count)} at {count} players"
                if clan.grey:
                    why += f", {GREY_ALLOWANCE} fewer for the grey-dwarf clan '{clan.id}'"
                problems.append(Problem(f"got {player.galleries_required}, expected {wanted} ({why})",
                                        item=item, field="galleries_required"))
    if setup.first_player is not None and setup.first_player != FIRST_PLAYER:
        problems.append(Problem(f"got {short_repr(setup.first_player)}, expected {FIRST_PLAYER!r}",
                                field="first_player"))
    return problems


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _check_hands(data: GameData[MaphrCard], setup: DescribedDeal) -> list[Problem]:
    problems: list[Problem] = []
    discard = setup.discard or []
    totals = Counter(card_id for player in setup.players for card_id in player.hand) + Counter(discard)
    where = "across the hands and the discard pile" if discard else "across the hands"
    dealt: Counter[str] = Counter()

    def count(card_id: str, item: str | None, field: str) -> None:
        card = data.card(card_id)
        dealt[card_id] += 1
        if dealt[card_id] == card.copies + 1:  # reported once, where the deck runs out of it
            problems.append(Problem(
                f"'{card_id}' is dealt {totals[card_id]} times {where}, the deck has "
                f"{plural(card.copies, 'copy', 'copies')} of it", item=item, field=field))

    for i, player in enumerate(setup.players):
        item = player_label(i, player.name)
        if len(player.hand) != CARDS_EACH:
            problems.append(Problem(f"a starting hand holds {CARDS_EACH} cards, got {len(player.hand)}",
                                    item=item, field="hand"))
        for j, card_id in enumerate(player.hand):
            field = f"hand[{j}]"
            if not data.has_card(card_id):
                problems.append(Problem(unknown_card_message(data, card_id), item=item, field=field))
                continue
            card = data.card(card_id)
            if card.kind in IMMEDIATE_KINDS:
                problems.append(Problem(
                    f"'{card_id}' is a {card.kind} ({card.name}); a starting hand holds no contract or "
                    "catastrophe (they are discarded and replaced)", item=item, field=field))
            count(card_id, item, field)
    for j, card_id in enumerate(discard):
        field = f"discard[{j}]"
        if not data.has_card(card_id):
            problems.append(Problem(unknown_card_message(data, card_id), field=field))
            continue
        card = data.card(card_id)
        if card.kind not in IMMEDIATE_KINDS:
            problems.append(Problem(
                f"'{card_id}' is a {card.kind} ({card.name}); only contracts and catastrophes are discarded "
                "at setup (each is replaced by the next card of the pile)", field=field))
        count(card_id, None, field)
    return problems


def _check_draw_pile(data: GameData[MaphrCard], setup: DescribedDeal) -> list[Problem]:
    """The cards left in the draw pile: the deck less the hands and the discard pile."""
    if setup.draw_pile is None:
        return []
    deck = len(data.printed)
    in_hands = sum(len(p.hand) for p in setup.players)
    if setup.discard is None:
        most = deck - in_hands
        if 0 <= setup.draw_pile <= most:
            return []
        return [Problem(f"got {setup.draw_pile}, expected at most {most} ({deck} cards − {in_hands} in the "
                        "hands, less the discard pile)", field="draw_pile")]
    wanted = deck - in_hands - len(setup.discard)
    if setup.draw_pile == wanted:
        return []
    return [Problem(f"got {setup.draw_pile}, expected {wanted} ({deck} cards − {in_hands} in the hands − "
                    f"{len(setup.discard)} in the discard pile)", field="draw_pile")]


def unknown_card_message(data: GameData[MaphrCard], card_id: str) -> str:
    close = difflib.get_close_matches(card_id, [c.id for c in data.cards], n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"unknown card id '{card_id}' (not in card_data/maphr){hint}"
