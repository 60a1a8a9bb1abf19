"""Phase 4, « Découvrir un nouveau système »: who gets the new ship cards, in which order.

« Distribuez-en autant qu'il y en a eu de jouées lors de la dernière manche, une à la fois, en
commençant par le joueur qui a le moins de points … Si deux joueurs sont à égalité pour les
points, commencez par le joueur qui a le moins de cartes. S'il y a toujours égalité, chaque
joueur à égalité pioche une carte vaisseau. Le joueur, qui a pioché la carte numérotée avec la
plus grande valeur, joue en premier. »

"Cards" are the ship cards in a player's hand when the new ones are dealt: the played cards
are gone (« Mélangez toutes les cartes de vaisseau que les joueurs n'ont pas »: the played ones
are shuffled back), so a hand is what it held at the round's start minus what it played. Every
hand starts at 3 (« Distribuez 3 cartes vaisseau à chaque joueur ») and grows by the cards dealt
to it, one at a time round the order. A hand is unknown (None) when the file does not say how
many cards a fleet was made of, or when a draw the file cannot know decided who got one more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby

STARTING_HAND = 3

Hand = int | None


@dataclass(frozen=True)
class DealPlace:
    """One place in the deal order. Several players: tied — on points and cards (they draw a
    ship card each, highest number first), or on points with a hand the file does not tell."""

    players: tuple[str, ...]
    points: int
    cards: Hand  # the hand of each player of the place; None: not known for all of them

    @property
    def is_tie(self) -> bool:
        return len(self.players) > 1


def deal_order(players: Sequence[str], points: dict[str, int], hands: dict[str, Hand]) -> list[DealPlace]:
    """Fewest points first; tied on points: fewer cards first; still tied: one shared place."""
    order: list[DealPlace] = []
    for total, group in groupby(sorted(players, key=lambda p: points[p]), key=lambda p: points[p]):
        tied = list(group)
        if len(tied) > 1 and any(hands[p] is None for p in tied):
            order.append(DealPlace(tuple(tied), total, None))
            continue
        for cards, same in groupby(sorted(tied, key=lambda p: hands[p] or 0), key=lambda p: hands[p]):
            order.append(DealPlace(tuple(same), total, cards))
    return order


def dealt_counts(order: Sequence[DealPlace], cards: int | None) -> dict[str, Hand]:
    """How many of ``cards`` new cards each player gets, dealt one at a time round the order.

    Seat i (0-based) of n gets cards // n, plus one when i < cards % n. Within a tied place the
    players' seats depend on their draw, so their counts are known only when those seats get
    the same number.
    """
    seats = [p for place in order for p in place.players]
    n = len(seats)
    out: dict[str, Hand] = {}
    start = 0
    for place in order:
        end = start + len(place.players)
        counts = {None} if cards is None else {cards // n + (1 if i < cards % n else 0)
                                                for i in range(start, end)}
        same = next(iter(counts)) if len(counts) == 1 else None
        out.update(dict.fromkeys(place.players, same))
        start = end
    return out


def after_play(hands: dict[str, Hand], played: dict[str, int | None]) -> dict[str, Hand]:
    return {p: None if h is None or (n := played[p]) is None else h - n for p, h in hands.items()}


def after_deal(hands: dict[str, Hand], dealt: dict[str, Hand]) -> dict[str, Hand]:
    return {p: None if h is None or (n := dealt[p]) is None else h + n for p, h in hands.items()}


def cards_played(played: dict[str, int | None]) -> int | None:
    """How many new cards are dealt: as many as were played (None if any fleet's is unknown)."""
    values = list(played.values())
    known = [v for v in values if v is not None]
    return None if len(known) < len(values) else sum(known)


# --- the smallest and largest hand (issue 18) ------------------------------------------------
# When a draw decides which of two tied players gets the extra card, neither hand is known, but
# both lie between the fewest and the most cards the draw can give: a fleet bigger than the
# largest is impossible whatever the draw.

HandRange = tuple[int, int] | None


def dealt_ranges(order: Sequence[DealPlace], cards: int | None) -> dict[str, HandRange]:
    """(fewest, most) new cards each player can get: a tied place's players take its seats in
    any order, so each gets between the smallest and the largest of those seats' counts."""
    seats = [p for place in order for p in place.players]
    n = len(seats)
    out: dict[str, HandRange] = {}
    start = 0
    for place in order:
        end = start + len(place.players)
        if cards is None:
            out.update(dict.fromkeys(place.players, None))
        else:
            counts = [cards // n + (1 if i < cards % n else 0) for i in range(start, end)]
            out.update(dict.fromkeys(place.players, (min(counts), max(counts))))
        start = end
    return out


def range_after_play(hands: dict[str, HandRange], played: dict[str, int | None]) -> dict[str, HandRange]:
    out: dict[str, HandRange] = {}
    for p, h in hands.items():
        n = played[p]
        out[p] = None if h is None or n is None else (h[0] - n, h[1] - n)
    return out


def range_after_deal(hands: dict[str, HandRange], dealt: dict[str, HandRange]) -> dict[str, HandRange]:
    out: dict[str, HandRange] = {}
    for p, h in hands.items():
        d = dealt[p]
        out[p] = None if h is None or d is None else (h[0] + d[0], h[1] + d[1])
    return out
