"""Phase 4: the order in which the new ship cards are dealt, and how many each player gets."""

from __future__ import annotations

from cardforge.testing import rules_module

_mine_all_mine_new_cards = rules_module("mine_all_mine", "new_cards")
DealPlace = _mine_all_mine_new_cards.DealPlace
after_deal = _mine_all_mine_new_cards.after_deal
after_play = _mine_all_mine_new_cards.after_play
cards_played = _mine_all_mine_new_cards.cards_played
deal_order = _mine_all_mine_new_cards.deal_order
dealt_counts = _mine_all_mine_new_cards.dealt_counts


PLAYERS = ["Ana", "Ben", "Cy", "Dan"]


def test_fewest_points_first():
    order = deal_order(PLAYERS, {"Ana": 7, "Ben": 2, "Cy": 5, "Dan": 0}, dict.fromkeys(PLAYERS, 2))
    assert [place.players for place in order] == [("Dan",), ("Ben",), ("Cy",), ("Ana",)]


def test_tied_on_points_fewer_cards_first_then_a_draw():
    # Ben and Cy on 3 points: Cy holds 1 card, Ben 2 -> Cy first. Ana and Dan on 5 points with
    # 2 cards each: they draw.
    order = deal_order(PLAYERS, {"Ana": 5, "Ben": 3, "Cy": 3, "Dan": 5},
                       {"Ana": 2, "Ben": 2, "Cy": 1, "Dan": 2})
    assert order == [DealPlace(("Cy",), 3, 1), DealPlace(("Ben",), 3, 2), DealPlace(("Ana", "Dan"), 5, 2)]
    assert order[2].is_tie and not order[0].is_tie


def test_an_unknown_hand_in_a_points_tie_leaves_the_place_shared():
    order = deal_order(["Ana", "Ben", "Cy"], {"Ana": 4, "Ben": 4, "Cy": 1}, {"Ana": None, "Ben": 2, "Cy": None})
    assert order == [DealPlace(("Cy",), 1, None), DealPlace(("Ana", "Ben"), 4, None)]


def test_cards_dealt_one_at_a_time_round_the_order():
    # 5 cards to 3 players: seats 1, 2 get 2 (5 // 3 = 1, plus 1 for the first 5 % 3 = 2 seats),
    # seat 3 gets 1.
    order = [DealPlace(("Ben",), 0, 1), DealPlace(("Ana",), 2, 1), DealPlace(("Cy",), 4, 1)]
    assert dealt_counts(order, 5) == {"Ben": 2, "Ana": 2, "Cy": 1}


def test_a_draw_decides_who_gets_one_more_card():
    # 4 cards to 3 players: seat 1 gets 2, seats 2 and 3 get 1. Ben and Cy draw for seats 1-2:
    # the draw decides who gets 2 (unknown); Ana on seat 3 gets 1.
    order = [DealPlace(("Ben", "Cy"), 3, 2), DealPlace(("Ana",), 5, 1)]
    assert dealt_counts(order, 4) == {"Ben": None, "Cy": None, "Ana": 1}
    # 6 cards: every seat gets 2, whatever the draw.
    assert dealt_counts(order, 6) == {"Ben": 2, "Cy": 2, "Ana": 2}


def test_unknown_number_of_cards():
    order = [DealPlace(("Ben",), 3, 2), DealPlace(("Ana",), 5, 1)]
    assert cards_played({"Ana": 2, "Ben": None}) is None
    assert dealt_counts(order, None) == {"Ben": None, "Ana": None}


def test_hands_follow_what_was_played_and_dealt():
    # 3 each at setup; Ana plays 2, Ben 1, Cy 1 -> 1, 2, 2; 4 new cards, Cy, Ana, Ben order:
    # Cy 2, Ana 1, Ben 1 -> hands 2, 3, 4.
    held = after_play({"Ana": 3, "Ben": 3, "Cy": 3}, {"Ana": 2, "Ben": 1, "Cy": 1})
    assert held == {"Ana": 1, "Ben": 2, "Cy": 2}
    assert cards_played({"Ana": 2, "Ben": 1, "Cy": 1}) == 4
    assert after_deal(held, {"Cy": 2, "Ana": 1, "Ben": 1}) == {"Ana": 2, "Ben": 3, "Cy": 4}
    assert after_play({"Ana": 3, "Ben": None}, {"Ana": None, "Ben": 1}) == {"Ana": None, "Ben": None}
