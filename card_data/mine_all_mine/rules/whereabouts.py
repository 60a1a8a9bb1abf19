"""Which ship card can be in which hand (issue 38).

The hand checks (``scoring.check_final_state``) count cards; a file that names the ship cards
each fleet played (``ships: [{card, option}, …]``) says more: a card a player played had to be
in that player's hand. The rules move a card in two ways only:

- « Distribuez 3 cartes vaisseau à chaque joueur »: setup deals 3 cards to each hand (at 4
  players, all 12);
- « Mélangez toutes les cartes de vaisseau que les joueurs n'ont pas. Distribuez-en autant qu'il
  y en a eu de jouées »: after a round, the new cards come from the cards no player holds — the
  cards never dealt and the cards just played.

So a card stays in the hand it was dealt to until its holder plays it, and a played card can
reach a hand only through a later deal to that hand. Whether the plays of a file fit is a
matching: every card of a deal (setup's 3 per player, then each player's new cards) is one
card, and each play of a card needs the deal that brought it to its player — between its
previous play (or setup) and this one. A card never played again may fill any deal after its
last play (or stay undealt). The plays fit when one matching covers every play and every dealt
card; by Mendelsohn–Dulmage's theorem that is when a matching covers every play and another
covers every dealt card, two augmenting-path searches on a graph of at most a few dozen nodes.

Who gets how many new cards is ``new_cards``' deal order; a draw between tied players (« chaque
joueur à égalité pioche une carte vaisseau ») is not in the file, so every outcome is tried and
a file is refused only when none fits. Only rounds where every fleet names its cards are read:
a fleet given as speed, attack and cargo plays cards nobody knows, and from there on nothing
is known of who holds what.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations

from .new_cards import STARTING_HAND, deal_order

#: the rule a refusal names
RULE = ("a ship card stays in the hand it was dealt to until it is played, and the new cards are "
        "dealt from «toutes les cartes de vaisseau que les joueurs n'ont pas»")


@dataclass(frozen=True)
class Round:
    """One round as far as cards go: the cards each player played (every fleet named its
    cards), and each player's points after the round (they order the deal that follows)."""

    played: dict[str, list[int]]
    totals: dict[str, int]


@dataclass(frozen=True)
class Misplaced:
    """A play that no deal can explain: ``card`` played by ``player`` in round ``number``
    (``index``: its place among the fleet's ships), and the facts behind the refusal."""

    number: int
    player: str
    index: int
    card: int
    message: str


def known_rounds(rounds: Sequence[dict[str, list[int] | None]]) -> int:
    """How many rounds from the first name every fleet's cards (None: a fleet given by its stats)."""
    count = 0
    for played in rounds:
        if any(cards is None for cards in played.values()):
            break
        count += 1
    return count


def find_misplaced(players: Sequence[str], cards: Sequence[int], rounds: Sequence[Round]) -> Misplaced | None:
    """The first play (round by round, in the file's order) that no deal can explain, or None
    when every play fits some deal. ``rounds``: the rounds read, every fleet naming its cards.
    Data with fewer cards than setup deals (a designer's draft) is not traced."""
    if STARTING_HAND * len(players) > len(cards):
        return None
    for number in range(1, len(rounds) + 1):
        earlier = list(rounds[: number - 1])
        current = rounds[number - 1]
        if _fits(players, cards, [*earlier, current]):
            continue
        # the play that breaks it: add this round's plays one at a time, in the file's order
        partial: dict[str, list[int]] = {name: [] for name in players}
        for name in players:
            for index, card in enumerate(current.played[name]):
                partial[name].append(card)
                trial = Round({p: list(c) for p, c in partial.items()}, current.totals)
                if not _fits(players, cards, [*earlier, trial]):
                    return Misplaced(number, name, index, card,
                                     _message(players, cards, [*earlier, current], number, name, card))
    return None


# --- the deals -------------------------------------------------------------------------------

def _deal_outcomes(players: Sequence[str], rounds: Sequence[Round]) -> Iterator[list[dict[str, int]]]:
    """Every way the new cards can have been dealt after each round but the last of ``rounds``:
    one ``{player: cards dealt}`` per deal. Tied players (points and cards) draw for their seats,
    so each order of theirs is an outcome; the hands that follow order the next deal."""
    def walk(k: int, hands: dict[str, int], so_far: list[dict[str, int]]) -> Iterator[list[dict[str, int]]]:
        if k >= len(rounds) - 1:
            yield so_far
            return
        rnd = rounds[k]
        held = {p: hands[p] - len(rnd.played[p]) for p in players}
        count = sum(len(rnd.played[p]) for p in players)
        order = deal_order(players, rnd.totals, dict(held))
        seen: set[tuple[tuple[str, int], ...]] = set()
        for seats in _seatings([list(place.players) for place in order]):
            n = len(seats)
            dealt = {p: count // n + (1 if i < count % n else 0) for i, p in enumerate(seats)}
            key = tuple(sorted(dealt.items()))
            if key in seen:
                continue
            seen.add(key)
            yield from walk(k + 1, {p: held[p] + dealt[p] for p in players}, [*so_far, dealt])

    yield from walk(0, dict.fromkeys(players, STARTING_HAND), [])


def _seatings(places: list[list[str]]) -> Iterator[list[str]]:
    if not places:
        yield []
        return
    for first in permutations(places[0]):
        for rest in _seatings(places[1:]):
            yield [*first, *rest]


# --- the matching ----------------------------------------------------------------------------

def _fits(players: Sequence[str], cards: Sequence[int], rounds: Sequence[Round]) -> bool:
    return any(_fits_deal(players, cards, rounds, dealt) for dealt in _deal_outcomes(players, rounds))


def _fits_deal(players: Sequence[str], cards: Sequence[int], rounds: Sequence[Round],
               dealt: Sequence[dict[str, int]]) -> bool:
    """Whether the plays fit these deals (deal 0 setup, deal k after round k)."""
    # the dealt cards: (player, deal) once per card dealt
    units: list[tuple[str, int]] = [(p, 0) for p in players for _ in range(STARTING_HAND)]
    units += [(p, k) for k, deal in enumerate(dealt, start=1) for p in players for _ in range(deal[p])]
    last_deal = len(rounds) - 1
    # each card's stays in a hand, one per play and one after its last play: (the player, or None
    # for any; the first and last deal that can bring it there; whether the stay must be matched)
    stays: list[tuple[str | None, int, int, bool]] = []
    for card in cards:
        since = 0
        for number, rnd in enumerate(rounds, start=1):
            for name in players:
                if card in rnd.played[name]:
                    stays.append((name, since, number - 1, True))
                    since = number
        stays.append((None, since, last_deal, False))  # dealt after its last play and kept, or never
    edges = [[u for u, (p, k) in enumerate(units) if (who is None or who == p) and low <= k <= high]
             for who, low, high, _ in stays]
    plays = [i for i, stay in enumerate(stays) if stay[3]]
    if _matched(plays, edges, len(units)) < len(plays):
        return False
    backwards: list[list[int]] = [[] for _ in units]
    for s, targets in enumerate(edges):
        for u in targets:
            backwards[u].append(s)
    return _matched(list(range(len(units))), backwards, len(stays)) == len(units)


def _matched(left: Sequence[int], edges: Sequence[Sequence[int]], right_size: int) -> int:
    """The size of a maximum matching of ``left`` into the right side (Kuhn's augmenting paths)."""
    owner: list[int | None] = [None] * right_size

    def augment(node: int, visited: list[bool]) -> bool:
        for target in edges[node]:
            if visited[target]:
                continue
            visited[target] = True
            holder = owner[target]
            if holder is None or augment(holder, visited):
                owner[target] = node
                return True
        return False

    return sum(1 for node in left if augment(node, [False] * right_size))


# --- the message -----------------------------------------------------------------------------

def _message(players: Sequence[str], cards: Sequence[int], rounds: Sequence[Round], number: int, name: str,
             card: int) -> str:
    """Why ``card`` cannot be in ``name``'s hand in round ``number``: where the card was, and the
    player's hand round by round."""
    before = [(r, p) for r, rnd in enumerate(rounds[: number - 1], start=1)
              for p in players if card in rnd.played[p]]
    if before:
        r, p = before[-1]
        who = "they" if p == name else p
        where = (f"{who} played it in round {r}, so only a deal after round {r} could bring it back to "
                 f"{name}'s hand")
    elif STARTING_HAND * len(players) == len(cards):
        where = (f"no one played it before round {number}, so it is still in the hand setup dealt it to "
                 f"(at {len(players)} players all {len(cards)} ship cards are dealt at setup)")
    else:
        where = (f"no one played it before round {number}, so it is still where setup left it: in "
                 "the hand it was dealt to, or among the undealt cards for a later deal")
    return (f"ship card {card} cannot be in {name}'s hand in round {number}: {where}; "
            f"{_hand_story(players, rounds, number, name)} (rules: {RULE})")


def _hand_story(players: Sequence[str], rounds: Sequence[Round], number: int, name: str) -> str:
    """``Ana held 3 cards at setup; played 1, 2 and 3 in round 1; was dealt 1 after round 1``."""
    steps = [f"{name} held {STARTING_HAND} cards at setup"]
    outcomes = list(_deal_outcomes(players, rounds[:number]))
    for r in range(1, number):
        steps.append(f"played {_and(rounds[r - 1].played[name])} in round {r}")
        got = sorted({outcome[r - 1][name] for outcome in outcomes})
        steps.append(f"was dealt {' or '.join(map(str, got))} after round {r}"
                     + (" (a draw decided)" if len(got) > 1 else ""))
    steps.append(f"played {_and(rounds[number - 1].played[name])} in round {number}")
    return "; ".join(steps)


def _and(numbers: Sequence[int]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
