"""Setup of Cristaux Élémentaires Joailliers: the tables of «Mise en place», the French checklist,
a random deal and the check of a described deal (``cardforge setup cristaux --check FILE``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from cardforge.data.models import Model
from cardforge.problems import Problem, plural, short_name

from .cards import CristauxCard, GiftCard, ProjectCard, TopazeCard

if TYPE_CHECKING:
    from cardforge.data.loading import GameData

# --- the rulebook's tables ------------------------------------------------------------------

#: «Préparez l'offre de cartes projets» — per mode, per player count.
OFFER: dict[str, dict[int, int]] = {
    "classique": {2: 7, 3: 9, 4: 10, 5: 11},
    "avance": {2: 8, 3: 10, 4: 12, 5: 15},
    "initiation": {2: 5, 3: 6, 4: 7, 5: 8},
}
#: «remplis de 7 cristaux tirés au hasard du sac (8 pour le mode avancé et 6 pour le mode initiation)»
RAMEKIN_CRYSTALS: dict[str, int] = {"classique": 7, "avance": 8, "initiation": 6}
#: «Tirez 1 carte «trouvaille des mineurs» à 2 / 3 joueurs, 2 cartes à 4 / 5 joueurs.»
TROUVAILLES: dict[int, int] = {2: 1, 3: 1, 4: 2, 5: 2}
#: Avancé: «à 2 / 3 joueurs : -2 … à 4 joueurs : -1 … à 5 joueurs : Ø modif. paquet»
CURSED_REMOVED: dict[int, int] = {2: 2, 3: 2, 4: 1, 5: 0}
#: «5 manches (4 en initiation)» (the round track; «après l'attribution des médaillons de la 4e
#: manche (3e en mode initiation)» the medallions turn to their points side).
ROUNDS: dict[str, int] = {"classique": 5, "avance": 5, "initiation": 4}
#: Starting gifts per player: 1 Warhammer; in avancé a Harpe and an Encrier; none in initiation.
GIFTS: dict[str, int] = {"classique": 1, "avance": 2, "initiation": 0}
#: Crystals taken out of the bag into the initial bank («sortez du sac 5 rouges, 5 verts et 5 bleus.
#: En mode avancé, sortez à la place 2 rouges, 2 verts, 2 bleus et 12 or, mais en mode initiation
#: c'est 15 or»).
BANK_FROM_BAG: dict[str, dict[str, int]] = {
    "classique": {"red": 5, "green": 5, "blue": 5},
    "avance": {"red": 2, "green": 2, "blue": 2, "gold": 12},
    "initiation": {"gold": 15},
}
#: «dans l'ordre, le 2e et 3e joueur prennent 1 or de la réserve, le 4e et 5e en prennent 2»
GOLD_BY_POSITION: tuple[int, ...] = (0, 1, 1, 2, 2)
DIRECTIONS = ("clockwise", "anticlockwise")
MODE_LABELS = {"initiation": "initiation", "classique": "classique", "avance": "avancé"}


def setup_counts(players: int, mode: str) -> dict[str, Any]:
    return {
        "offer": OFFER[mode][players],
        "ramekin_crystals": RAMEKIN_CRYSTALS[mode],
        "trouvailles": TROUVAILLES[players],
        "cursed_removed": CURSED_REMOVED[players] if mode == "avance" else 0,
        "rounds": ROUNDS[mode],
        "gifts": GIFTS[mode],
    }


def _gems(counts: dict[str, int]) -> str:
    names = {"red": "rouge", "green": "vert", "blue": "bleu", "gold": "or"}
    parts = [f"{n} {names[c]}{'s' if n > 1 and c != 'gold' else ''}" for c, n in counts.items()]
    return ", ".join(parts[:-1]) + " et " + parts[-1] if len(parts) > 1 else parts[0]


def setup_steps(players: int, mode: str, opale: bool, counts: dict[str, Any]) -> list[str]:
    """The French checklist («Mise en place»), in the rulebook's order."""
    steps = _material_steps(mode, opale, counts)
    bank = (f"Banque initiale : tous les jetons de mise en place, plus {_gems(BANK_FROM_BAG[mode])} "
            "tirés du sac")
    if opale and mode != "avance":
        bank += ", et 1 Opale bleue et 1 Opale violette du sac rose"
    steps.append(bank + ".")
    ramekins = (f"Donnez un ramequin à chaque joueur et remplissez-le de {counts['ramekin_crystals']} "
                "cristaux tirés au hasard du sac")
    if opale:
        ramekins += " (un Topaze tiré est remplacé par une Opale tirée du sac rose)"
    steps.append(ramekins + ".")
    steps.append(f"Offre : {counts['offer']} cartes projet face visible.")
    if players > 2:
        steps.append("Tirez au hasard le côté de la pièce roi : il fixe le sens de l'ordre du tour.")
    gold = {2: "1 or le 2e joueur",
            3: "1 or les 2e et 3e joueurs",
            4: "1 or les 2e et 3e joueurs, 2 or le 4e",
            5: "1 or les 2e et 3e joueurs, 2 or les 4e et 5e"}[players]
    steps.append(f"Donnez la faveur du roi ♚ à un joueur au hasard. Dans l'ordre du tour à partir "
                 f"de lui, prennent de la réserve : {gold}.")
    steps.append(_trouvailles(players, mode, opale, counts))
    return steps


def _material_steps(mode: str, opale: bool, counts: dict[str, Any]) -> list[str]:
    """The checklist's first steps: the project cards, the king's gifts, the board, the Topaze deck."""
    steps = [{
        "avance": "Mode avancé : jouez avec les 98 cartes projet.",
        "classique": "Mode classique : gardez les 59 cartes projet portant le logo classique ou "
                     "initiation ; rangez les autres.",
        "initiation": "Mode initiation : gardez seulement les 33 cartes projet portant le logo "
                      "initiation ; rangez les autres.",
    }[mode]]
    if mode == "avance":
        removed = counts["cursed_removed"]
        kept = 3 - removed
        what = (f"retirez-en {removed} au hasard (il en reste {kept})" if removed
                else "gardez les 3")
        steps.append(f"Paquet des 3 Cristaux maudits dorés : {what} ; mélangez-les avec les "
                     f"cartes projet, comme les Cristaux maudits rouge, vert et bleu.")
    steps.append({
        "classique": "Donnez à chaque joueur 1 Warhammer, face « pour les grandes familles » visible.",
        "avance": "Donnez à chaque joueur 1 Harpe et 1 Encrier, côté actif visible.",
        "initiation": "Pas de cadeau au roi en initiation.",
    }[mode])
    board = "le petit support de jeu" if mode == "initiation" else "le support de jeu"
    steps.append(f"Sortez {board} et placez le jeton suivi de jeu sur la manche 1 "
                 f"(la partie dure {counts['rounds']} manches).")
    removed_topaze = {
        "avance": "",
        "classique": "retirez-en la carte des Musiciens, ",
        "initiation": "retirez-en les cartes des Musiciens, de la Forge et de la Religion, ",
    }[mode]
    steps.append(f"Paquet Topaze : {removed_topaze}mélangez-le et posez-le face Topaze visible "
                 "au centre de la table.")
    if opale:
        steps.append("Façon Opale : donnez à chaque joueur un exemplaire de chacune de ces cartes "
                     "côté Opale (aides de jeu) ; gardez l'excédent à portée de main.")
    return steps


def _trouvailles(players: int, mode: str, opale: bool, counts: dict[str, Any]) -> str:
    """The step of the miners' finds («trouvailles des mineurs»)."""
    lines = {
        "initiation": "en n'appliquant que la 1re ligne",
        "classique": "en ignorant la dernière ligne",
        "avance": "en appliquant toutes les lignes",
    }[mode]
    n = counts["trouvailles"]
    trouvailles = (f"Tirez {n} carte{'s' if n > 1 else ''} « trouvaille des mineurs » et approvisionnez "
                   f"la carte mineur {lines}. ")
    if players % 2 == 0:
        trouvailles += f"À {players} joueurs, ignorez les logos ♚."
    else:
        per = 1 if players == 3 else 2
        trouvailles += (f"À {players} joueurs : 3 (ou 6) logos ♚ → {per} rouge, vert et bleu de la "
                        f"banque ; 4 (ou 8) logos ♚ → {per} rouge, vert, bleu et or.")
    if opale:
        trouvailles += " Façon Opale : un Topaze représenté devient une Opale tirée du sac rose."
    return trouvailles


# --- the deal -----------------------------------------------------------------------------------

def mode_projects(data: GameData[CristauxCard], mode: str) -> list[str]:
    """Project card ids of a mode, once per copy, in data order."""
    return [c.id for c in data.cards_as("project", ProjectCard) for _ in range(c.copies) if mode in c.modes]


def cursed_deck(data: GameData[CristauxCard]) -> list[str]:
    return [c.id for c in data.cards_as("project", ProjectCard) for _ in range(c.copies) if c.cursed_deck]


def topaze_deck(data: GameData[CristauxCard], mode: str) -> list[str]:
    """The Topaze cards of a mode, once per copy, in data order."""
    return [c.id for c in data.cards_as("topaze", TopazeCard) for _ in range(c.copies) if mode in c.modes]


def mode_gifts(data: GameData[CristauxCard], mode: str) -> list[str]:
    """The starting gifts each player receives in a mode, in data order."""
    return [c.id for c in data.cards_as("gift", GiftCard) if c.copies and mode in c.modes]


def bag_contents(data: GameData[CristauxCard], mode: str) -> Counter[str]:
    """What the opaque bag holds once the initial bank is taken out of it."""
    bag: Counter[str] = Counter({c.gem: c.count or 0 for c in data.sections["components"] if c.in_bag})
    bag.subtract(BANK_FROM_BAG[mode])
    return bag


def turn_order(players: int, king: int, direction: str | None) -> list[int]:
    """Seats (1..N, numbered clockwise) in turn order from the ♚ holder."""
    step = -1 if direction == "anticlockwise" else 1
    return [(king - 1 + step * i) % players + 1 for i in range(players)]


def gold_by_seat(players: int, order: list[int]) -> list[int]:
    gold = [0] * players
    for position, seat in enumerate(order):
        gold[seat - 1] = GOLD_BY_POSITION[position]
    return gold


def deal(data: GameData[CristauxCard], players: int, mode: str, opale: bool, rng: random.Random) -> dict[str, Any]:
    counts = setup_counts(players, mode)
    deck = mode_projects(data, mode)
    removed: list[str] = []
    if mode == "avance":
        cursed = cursed_deck(data)
        removed = rng.sample(cursed, counts["cursed_removed"])
        for card_id in removed:
            deck.remove(card_id)
    rng.shuffle(deck)
    offer = deck[:counts["offer"]]
    bag = bag_contents(data, mode)
    pool = [gem for gem, n in sorted(bag.items()) for _ in range(n)]
    rng.shuffle(pool)
    ramekins = []
    for seat in range(players):
        drawn = pool[seat * counts["ramekin_crystals"]:(seat + 1) * counts["ramekin_crystals"]]
        if opale:  # «En façon Opale, si un Topaze est tiré du sac, remplacez-le par une Opale»
            drawn = ["opale" if gem == "topaze" else gem for gem in drawn]
        ramekins.append(dict(sorted(Counter(drawn).items())))
    # The Topaze deck without the cards removed in this mode («retirez … la carte se référant aux
    # musiciens (sauf en mode avancé) (en mode initiation … la Forge et … le Religieux)»): their
    # ``modes`` leave it out.
    topaze = topaze_deck(data, mode)
    rng.shuffle(topaze)
    trouvailles = [c.id for c in data.cards_of("trouvaille") for _ in range(c.copies)]
    drawn_trouvailles = rng.sample(trouvailles, counts["trouvailles"])
    # «Tirez au hasard la pièce roi … (abstenez-vous à 2 joueurs)»: no direction at 2 players.
    direction = rng.choice(DIRECTIONS) if players > 2 else None
    king = rng.randint(1, players)
    order = turn_order(players, king, direction)
    gifts = mode_gifts(data, mode)
    return {
        # the deal alone says its rule set, so that --check reads it back as it is
        "mode": mode,
        "opale": opale,
        "offer": offer,
        "ramekins": ramekins,
        "direction": direction,
        "king": king,
        "turn_order": order,
        "gold": gold_by_seat(players, order),
        "trouvailles": drawn_trouvailles,
        "topaze_deck": topaze,
        "cursed_removed": removed,
        "gifts": gifts,
    }


# --- a described deal (--check) -------------------------------------------------------------------

class DescribedDeal(Model):
    """A deal made at the table, to check against the rules. Seats are numbered 1..N clockwise.

    The ``deal`` that ``cardforge setup cristaux --json`` prints (or the whole printed object),
    or a hand-written one. ``players`` may be left out: one ramekin per player tells it.
    ``ramekins``: one mapping per seat of the gems drawn (red, green, blue, gold, topaze, opale);
    ``gold``: the gold each seat took; ``direction`` omitted at 2 players. The derived fields
    ``turn_order``, ``topaze_deck`` and ``gifts`` are optional and checked when given; ``seed``
    is the record of the seed that made the deal, accepted as it is.
    """

    players: int | None = None
    mode: Literal["initiation", "classique", "avance"] = "classique"
    opale: bool = False
    offer: list[str]
    ramekins: list[dict[Literal["red", "green", "blue", "gold", "topaze", "opale"],
                        Annotated[int, Field(ge=0)]]]
    direction: Literal["clockwise", "anticlockwise"] | None = None
    king: int
    turn_order: list[int] | None = None
    gold: list[int]
    trouvailles: list[str] = Field(default_factory=list)
    topaze_deck: list[str] | None = None
    cursed_removed: list[str] = Field(default_factory=list)
    gifts: list[str] | None = None
    seed: int | None = None

    @property
    def player_count(self) -> int:
        return self.players if self.players is not None else len(self.ramekins)

    def setup_request(self) -> tuple[int | None, str | None, dict[str, Any] | None]:
        """(players, mode, options) this deal is for: the engine checks the printed counts and
        checklist of a whole ``--json`` object against them."""
        return self.player_count, self.mode, {"opale": self.opale}


def check_deal(data: GameData[CristauxCard], deal: DescribedDeal, min_players: int, max_players: int) -> list[Problem]:
    n, mode = deal.player_count, deal.mode
    if not min_players <= n <= max_players:
        if deal.players is None:
            return [Problem(f"{plural(n, 'ramekin')} (one per player): cristaux supports "
                            f"{min_players}–{max_players} players", field="ramekins")]
        return [Problem(f"{n} given, cristaux supports {min_players}–{max_players}", field="players")]
    deal = deal.model_copy(update={"players": n})
    counts = setup_counts(n, mode)
    problems: list[Problem] = []
    problems += _check_offer(data, deal, counts)
    problems += _check_ramekins(data, deal, counts)
    problems += _check_king(deal)
    problems += _check_trouvailles(data, deal, counts)
    problems += _check_decks(data, deal)
    return problems


def _check_offer(data: GameData[CristauxCard], deal: DescribedDeal, counts: dict[str, Any]) -> list[Problem]:
    problems = []
    mode = deal.mode
    if len(deal.offer) != counts["offer"]:
        problems.append(Problem(f"{len(deal.offer)} cards, the offer holds {counts['offer']} in "
                                f"{MODE_LABELS[mode]} at {deal.players} players", field="offer"))
    available = Counter(mode_projects(data, mode))
    if mode == "avance":
        removed = Counter(deal.cursed_removed)
        cursed = Counter(cursed_deck(data))
        if sum(removed.values()) != counts["cursed_removed"] or removed - cursed:
            problems.append(Problem(
                f"{counts['cursed_removed']} card(s) of the gold cursed-crystal deck "
                f"({', '.join(sorted(cursed))}) are removed at {deal.players} players, "
                f"got {deal.cursed_removed}", field="cursed_removed"))
        available -= removed
    elif deal.cursed_removed:
        problems.append(Problem("cursed crystals are removed in avancé only", field="cursed_removed"))
    used: Counter[str] = Counter()
    for i, card_id in enumerate(deal.offer):
        used[card_id] += 1
        card = data.card(card_id) if data.has_card(card_id) else None
        if not isinstance(card, ProjectCard):
            problems.append(Problem(f"unknown project card '{short_name(card_id)}'", field=f"offer[{i}]"))
        elif mode not in card.modes:
            problems.append(Problem(f"'{short_name(card_id)}' is not played in {MODE_LABELS[mode]}",
                                    field=f"offer[{i}]"))
        elif used[card_id] > available[card_id]:
            problems.append(Problem(f"'{short_name(card_id)}' is in the offer {used[card_id]} times, the deck "
                                    f"has {available[card_id]}", field=f"offer[{i}]"))
    return problems


def _check_ramekins(data: GameData[CristauxCard], deal: DescribedDeal, counts: dict[str, Any]) -> list[Problem]:
    problems = []
    size = counts["ramekin_crystals"]
    if len(deal.ramekins) != deal.players:
        problems.append(Problem(f"{len(deal.ramekins)} ramekins for {deal.players} players "
                                "(one each)", field="ramekins"))
    for seat, ramekin in enumerate(deal.ramekins, start=1):
        if sum(ramekin.values()) != size:
            problems.append(Problem(f"holds {sum(ramekin.values())} gems, a ramekin is filled with "
                                    f"{size} in {MODE_LABELS[deal.mode]}", field=f"ramekins[{seat - 1}]"))
        if ramekin.get("opale") and not deal.opale:
            problems.append(Problem("an Opale comes out of a ramekin only in façon Opale (opale: true)",
                                    field=f"ramekins[{seat - 1}]"))
        if ramekin.get("topaze") and deal.opale:
            problems.append(Problem("façon Opale: a Topaze drawn is replaced by an Opale",
                                    field=f"ramekins[{seat - 1}]"))
    total: Counter[str] = Counter()
    for ramekin in deal.ramekins:
        total.update({("topaze" if g == "opale" else g): v for g, v in ramekin.items()})
    bag = bag_contents(data, deal.mode)
    for gem, n in sorted(total.items()):
        if n > bag[gem]:
            problems.append(Problem(f"{n} {gem} drawn, the bag holds {bag[gem]} once the bank is out",
                                    field="ramekins"))
    return problems


def _check_king(deal: DescribedDeal) -> list[Problem]:
    problems = []
    n = deal.player_count  # check_deal has set players
    if not 1 <= deal.king <= n:
        return [Problem(f"seat {deal.king}: seats are numbered 1 to {n}", field="king")]
    if n > 2 and deal.direction is None:
        problems.append(Problem("the king coin gives the turn order at 3 players or more: "
                                "clockwise or anticlockwise", field="direction"))
    if n == 2 and deal.direction is not None:
        problems.append(Problem("no king coin at 2 players («abstenez-vous à 2 joueurs»)",
                                field="direction"))
    order = turn_order(n, deal.king, deal.direction)
    if deal.turn_order is not None and deal.turn_order != order:
        way = f", {deal.direction}" if deal.direction else ""
        problems.append(Problem(f"got {deal.turn_order}, expected {order} (seats from the ♚ holder, seat "
                                f"{deal.king}{way})", field="turn_order"))
    wanted = gold_by_seat(n, order)
    if deal.gold != wanted:
        problems.append(Problem(f"got {deal.gold}; in turn order {order} from the ♚ the 2nd and 3rd "
                                f"players take 1 gold, the 4th and 5th 2: {wanted} by seat",
                                field="gold"))
    return problems


def _check_trouvailles(data: GameData[CristauxCard], deal: DescribedDeal, counts: dict[str, Any]) -> list[Problem]:
    problems = []
    if len(deal.trouvailles) != counts["trouvailles"]:
        problems.append(Problem(f"{len(deal.trouvailles)} drawn, {counts['trouvailles']} at "
                                f"{deal.players} players", field="trouvailles"))
    for i, card_id in enumerate(deal.trouvailles):
        if not data.has_card(card_id) or data.card(card_id).kind != "trouvaille":
            problems.append(Problem(f"unknown trouvaille '{short_name(card_id)}'", field=f"trouvailles[{i}]"))
    if len(set(deal.trouvailles)) != len(deal.trouvailles):
        problems.append(Problem("each trouvaille card is drawn once", field="trouvailles"))
    return problems



def _check_decks(data: GameData[CristauxCard], deal: DescribedDeal) -> list[Problem]:
    """The Topaze deck and the starting gifts, which follow from the mode."""
    problems = []
    label = MODE_LABELS[deal.mode]
    if deal.topaze_deck is not None:
        wanted = Counter(topaze_deck(data, deal.mode))
        given = Counter(deal.topaze_deck)
        if given != wanted:
            diff = [f"{n} × {c} too many" for c, n in sorted((given - wanted).items())]
            diff += [f"{n} × {c} missing" for c, n in sorted((wanted - given).items())]
            problems.append(Problem(
                f"{', '.join(diff)}; the Topaze deck in {label} is, in any order: "
                f"{', '.join(f'{n} × {c}' for c, n in sorted(wanted.items()))}", field="topaze_deck"))
    if deal.gifts is not None:
        wanted_gifts = mode_gifts(data, deal.mode)
        if Counter(deal.gifts) != Counter(wanted_gifts):
            problems.append(Problem(f"got {deal.gifts}, expected {wanted_gifts} (each player's starting gifts "
                                    f"in {label})", field="gifts"))
    return problems
