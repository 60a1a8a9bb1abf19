"""Simulated Maphr-like play logs for the lab's statistics (issue 39): 40 improvements, 4 clans,
2–4 players, a recorded first player, and a winner drawn from a conditional logit in which
**holding more cards wins more often** (the confounder that made every card's raw rate look
good) — plus, when asked, one card or one clan planted stronger.

- every seat holds 2–9 distinct cards of the 40 (dealt without replacement within the play) and
  a clan of its own (4 clans, so at most 4 players);
- seat i wins with probability exp(ηᵢ) / Σ exp(η) with ηᵢ = 0.25 × cards held (+ the planted
  effect); in 4 % of the plays a second seat, drawn at random, shares the win.

:func:`planted_logodds` gives the log odds that make a card worth +10 points of win
probability at the log's typical table (the same conversion the lab reports in).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardforge.lab.facts import Deck, SeatFacts
from cardforge.lab.stats import GameInfo, Play, SeatResult

CARDS = [f"c{i:02d}" for i in range(40)]
CLANS = ["irongradd", "pic-ardent", "taillepierre", "grisfer"]
MAPHR_CLANS = ["irongradd", "pic-ardent", "taillepierre", "runegarde"]  # the same, as Maphr's clans
#: players per play: 2, 3 and 4 in these proportions
PLAYERS = (2, 3, 4)
PLAYER_WEIGHTS = (0.2, 0.4, 0.4)
PER_CARD = 0.25
SHARED = 0.04


def info() -> GameInfo:
    cards = {c: {"name": f"Amélioration {c[1:]}", "kind": "improvement", "copies": 1, "data": {}} for c in CARDS}
    deck = Deck("sim", "0.1", "00000000", "data", cards)
    return GameInfo("sim", "Simulated", [("vp", "Points")], [("clan", "Clan")],
                    {"clan": {c: c.capitalize() for c in CLANS}}, {"improvements": ["improvement"]}, [], deck)


def card_names() -> dict[str, str]:
    return {c: f"Amélioration {c[1:]}" for c in CARDS}


def typical_base() -> float:
    """The mean of 1/players of the simulated mix."""
    return sum(w / n for n, w in zip(PLAYERS, PLAYER_WEIGHTS))


def planted_logodds(points: float = 0.10) -> float:
    from cardforge.lab.effects import target_logodds

    return target_logodds(typical_base(), points)


@dataclass
class Plant:
    card: str | None = None
    clan: str | None = None
    logodds: float = 0.0


def simulate(plays: int, seed: int, plant: Plant | None = None, players: tuple[int, ...] = PLAYERS,
             weights: tuple[float, ...] = PLAYER_WEIGHTS, version: str = "0.1", start_id: int = 1) -> list[Play]:
    import math

    rng = random.Random(seed)
    plant = plant or Plant()
    out = []
    for i in range(plays):
        n = rng.choices(players, weights)[0]
        clans = rng.sample(CLANS, n)
        held_counts = [rng.randint(2, 9) for _ in range(n)]
        deck = CARDS[:]
        rng.shuffle(deck)
        hands, at = [], 0
        for k in held_counts:
            hands.append(deck[at:at + k])
            at += k
        eta = []
        for clan, hand in zip(clans, hands):
            e = PER_CARD * len(hand)
            if plant.card is not None and plant.card in hand:
                e += plant.logodds
            if plant.clan is not None and clan == plant.clan:
                e += plant.logodds
            eta.append(e)
        mx = max(eta)
        w = [math.exp(e - mx) for e in eta]
        winner = rng.choices(range(n), w)[0]
        winners = {winner}
        if rng.random() < SHARED:
            winners.add(rng.choice([j for j in range(n) if j != winner] or [winner]))
        seats = []
        for j in range(n):
            facts = SeatFacts({"clan": clans[j]}, {"improvements": {c: 1 for c in sorted(hands[j])}})
            seats.append(SeatResult(j, f"P{j + 1}", 10.0 + len(hands[j]), 1 if j in winners else 2, j in winners,
                                    {"vp": 10.0 + len(hands[j])}, facts))
        out.append(Play(start_id + i, f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}", None, rng.randrange(n), 60,
                        version, None, None, seats))
    return out


def log_rows(plays: list[Play]) -> list[dict]:
    """Simulated plays as Maphr plays of the log (``PlayLog.add_plays``' keyword arguments): the
    shipped improvements' ids for the 40 cards, Maphr's clans (:data:`MAPHR_CLANS`), the points in
    its improvement_vp category, the facts `plays add` records — a log its CSV export and import
    read back."""
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game
    from cardforge.lab.facts import deck_of_data
    from cardforge.playlog.store import Details

    game = find_game("maphr")
    data = load_game_data(game)
    deck = deck_of_data(game.id, data)
    ids = [c.id for c in data.cards if c.kind == "improvement"][:40]
    card_of = dict(zip(CARDS, ids))
    clan_of = dict(zip(CLANS, MAPHR_CLANS))
    out = []
    for p in plays:
        names = [f"Joueur {s.seat + 1}" for s in p.seats]
        result = {"ok": True, "game": "maphr", "categories": ["improvement_vp"],
                  "winners": [n for n, s in zip(names, p.seats) if s.winner],
                  "players": [{"name": n, "total": s.total, "rank": s.rank, "breakdown": {"improvement_vp": s.total}}
                              for n, s in zip(names, p.seats)]}
        facts = {"format": 1, "choices": [{"clan": clan_of[s.facts.choices["clan"]]} for s in p.seats
                                          if s.facts is not None],
                 "cards": [{"improvements": {card_of[c]: k for c, k in (s.facts.cards or {})["improvements"].items()}}
                           for s in p.seats if s.facts is not None]}
        out.append({"game": "maphr", "title": game.title, "mode": None, "state_yaml": "", "result": result,
                    "details": Details(p.played_on, first_seat=p.first_seat, duration_min=p.duration_min),
                    "source": "cli", "uid": f"sim-{p.id}", "deck": deck, "facts": facts})
    return out
