"""The choice search is exact: on small hands, its best total equals a brute force over every
nature, Bâton option, frieze symbol, gold bonus and forge placement (every crystal count up to
the stock that fits the squares)."""

from __future__ import annotations

import random
from itertools import product

import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.testing import rules_module

_cristaux_cards = rules_module("cristaux", "cards")
CRYSTALS = _cristaux_cards.CRYSTALS
ELEMENTS = _cristaux_cards.ELEMENTS
SYMBOLS = _cristaux_cards.SYMBOLS
_cristaux_optimise = rules_module("cristaux", "optimise")
Fixed = _cristaux_optimise.Fixed
best_play = _cristaux_optimise.best_play
fits = _cristaux_optimise.fits
play_card = _cristaux_optimise.play_card
_cristaux_points = rules_module("cristaux", "points")
Owned = _cristaux_points.Owned
card_scores = _cristaux_points.card_scores
total = _cristaux_points.total
_cristaux_scoring = rules_module("cristaux", "scoring")
InlineCard = _cristaux_scoring.InlineCard


@pytest.fixture(scope="module")
def data():
    return load_game_data(find_game("cristaux"))


def brute_force(owned: list[Owned], stock: dict[str, int]) -> int:
    multis = [i for i, o in enumerate(owned) if o.card.nature == "multi"]
    batons = [i for i, o in enumerate(owned) if o.card.scoring.kind == "baton"]
    gifts = [i for i, o in enumerate(owned) if getattr(o.card, "gold_bonus", None)]
    best = None
    for natures in product(ELEMENTS, repeat=len(multis)):
        for options in product(range(5), repeat=len(batons)):
            for symbols in product(SYMBOLS, repeat=len(batons)):
                for bonuses in product((False, True), repeat=len(gifts)):
                    nature_of = dict(zip(multis, natures))
                    option_of = dict(zip(batons, options))
                    symbol_of = dict(zip(batons, symbols))
                    taken = {i for i, b in zip(gifts, bonuses) if b}
                    played = [play_card(o, o.card.scoring.options[option_of[i]] if i in option_of else None,
                                        i in taken, nature_of.get(i), symbol_of.get(i))
                              for i, o in enumerate(owned)]
                    gold = stock["gold"] - sum(owned[i].card.gold_bonus.gold for i in taken)
                    if gold < 0:
                        continue
                    available = {**stock, "gold": gold}
                    for counts in product(*(range(available[c] + 1) for c in CRYSTALS)):
                        placement = dict(zip(CRYSTALS, counts))
                        if not fits(placement, played):
                            continue
                        t = total(card_scores(played, placement))
                        best = t if best is None else max(best, t)
    return best


def _owned(data, entry) -> Owned:
    if isinstance(entry, str):
        return Owned(entry, data.card(entry).name, data.card(entry))
    card = InlineCard.model_validate(entry)
    return Owned(card.name, card.name, card)


HANDS = [
    # Bâton and Monument/Cadre natures; Lunettes, Pinces and wild squares
    ["baton-du-feu", "monument-du-feu", "cadre-de-portrait-terre", "couronne-elementaire",
     "lunettes-feu-terre", "pinces-de-braise"],
    # two Concordes and a multi-nature Tambour (counts 2 of the nature chosen); a Bâton's forge option
    ["concorde-des-elements", "grande-concorde", "tambour-des-collines", "baton-de-l-eau",
     "lunettes-de-l-orfevre",
     {"name": "Tambour multicolore", "nature": "multi", "counts_as": 2, "music": {"single": 1},
      "scoring": {"kind": "musicien"}}],
    # Cornemuse option vs religion and Stèle de gloire; runes; music with two friezes
    ["baton-de-la-terre", "baton-du-feu", "autel-de-la-terre", "stele-de-gloire", "sceau-du-clan-de-la-terre",
     "harpe-des-profondeurs", "luth-des-forges", "cithare-des-trois-vents"],
]


@pytest.mark.parametrize("seed, hand", list(enumerate(HANDS)),
                         ids=["natures-forge", "concordes-tambour", "costs-music"])
@pytest.mark.slow
def test_search_matches_brute_force(data, seed, hand):
    rng = random.Random(seed)
    owned = [_owned(data, entry) for entry in hand]
    for _ in range(2):
        stock = {c: rng.randint(0, 3) for c in CRYSTALS}
        play = best_play(owned, stock, Fixed())
        assert play.total == brute_force(owned, stock), stock


def test_gold_bonus_against_brute_force(data):
    owned = [Owned(i, data.card(i).name, data.card(i))
             for i in ("warhammer-forges", "pinces-de-braise", "lunettes-de-l-orfevre")]
    for gold in range(5):
        stock = {"red": 0, "green": 0, "blue": 2, "gold": gold}
        assert best_play(owned, stock, Fixed()).total == brute_force(owned, stock)
