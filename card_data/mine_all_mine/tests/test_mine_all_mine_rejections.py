"""Score files that break the rules: exit 1, every problem listed, each located. The rejections
are vectors of scoring_vectors.yaml (run by tests/test_scoring_vectors.py, every problem line
exact); here, what they do not say."""

from __future__ import annotations

from vectors_support import vector

from cardforge.testing import rules_module

_mine_all_mine_whereabouts = rules_module("mine_all_mine", "whereabouts")
Round = _mine_all_mine_whereabouts.Round
find_misplaced = _mine_all_mine_whereabouts.find_misplaced


def test_the_draw_case_scores_with_the_hand_it_allows(cli, write_yaml):
    # the vector a-draw-for-the-extra-card-still-bounds-both-hands: Ana holds 3 or 4 in round 2,
    # so a fleet of 4 cards is scored
    text = vector("mine_all_mine", "a-draw-for-the-extra-card-still-bounds-both-hands")["file"]
    path = write_yaml("ok.yaml", text.replace("cards: 5", "cards: 4"))
    assert cli("score", "mine_all_mine", path).code == 0


# --- issue 38: which ship card can be in which hand ------------------------------------------

def test_a_card_kept_since_setup_or_dealt_back_is_accepted(cli, write_yaml):
    # the vector issue-38-two-played-cards-back-through-one-new-card, Ana playing 4 (Ben's in
    # round 1, her one new card) and 7 (one of her two setup cards kept): it scores
    text = vector("mine_all_mine", "issue-38-two-played-cards-back-through-one-new-card")["file"]
    ok = text.replace("Ana: {ships: [{card: 4, option: 1}, {card: 5, option: 1}]}",
                      "Ana: {ships: [{card: 4, option: 1}, {card: 7, option: 1}]}")
    assert ok != text
    r = cli("score", "mine_all_mine", write_yaml("ok.yaml", ok))
    assert r.code == 0, r.err


def test_fleets_without_their_cards_are_not_traced(cli, write_yaml):
    # the issue's case with round 1's fleets given by their values: nobody knows who played what,
    # so card 7 may be in Ana's hand
    text = vector("mine_all_mine", "issue-38-a-ship-card-in-a-hand-it-cannot-be-in")["file"]
    ok = text.replace("Ana: {ships: [{card: 1, option: 1}, {card: 2, option: 1}, {card: 3, option: 1}]}",
                      "Ana: {speed: 16, attack: 3, cargo: 5, cards: 3}")
    assert ok != text
    r = cli("score", "mine_all_mine", write_yaml("ok.yaml", ok))
    assert r.code == 0, r.err


CARDS = list(range(1, 13))


def test_a_draw_decides_and_one_outcome_is_enough():
    # Three players: Ana and Ben play 1 card, Cy 2; Ana and Ben tied on 0 points and 2 cards draw
    # for the first seat of the deal (2 of the 4 new cards), Cy has 5 points and gets 1.
    first = Round({"Ana": [1], "Ben": [2], "Cy": [3, 4]}, {"Ana": 0, "Ben": 0, "Cy": 5})
    # Ana plays three cards played in round 1: she would need 3 new cards; two at most → refused
    three = Round({"Ana": [2, 3, 4], "Ben": [5], "Cy": [6]}, {"Ana": 0, "Ben": 0, "Cy": 5})
    wrong = find_misplaced(["Ana", "Ben", "Cy"], CARDS, [first, three])
    assert wrong is not None and (wrong.number, wrong.player, wrong.index, wrong.card) == (2, "Ana", 2, 4)
    assert "was dealt 1 or 2 after round 1 (a draw decided)" in wrong.message
    # two of them: the outcome where Ana won the draw fits (her 2 new cards are 2 and 3)
    two = Round({"Ana": [2, 3, 9], "Ben": [5], "Cy": [6]}, {"Ana": 0, "Ben": 0, "Cy": 5})
    assert find_misplaced(["Ana", "Ben", "Cy"], CARDS, [first, two]) is None
    # …but then Ben, who lost it, got 1: he cannot also play two cards of round 1
    both = Round({"Ana": [2, 3, 9], "Ben": [1, 4], "Cy": [6]}, {"Ana": 0, "Ben": 0, "Cy": 5})
    wrong = find_misplaced(["Ana", "Ben", "Cy"], CARDS, [first, both])
    assert wrong is not None and (wrong.player, wrong.card) == ("Ben", 4)


def test_an_undealt_card_can_come_later_at_two_players():
    # Two players hold 6 of the 12 cards: a card nobody played may still be among the undealt
    # ones, and reach Ana with her new card (she played 3, got 1 or more)
    first = Round({"Ana": [1, 2, 3], "Ben": [4]}, {"Ana": 0, "Ben": 3})
    assert find_misplaced(["Ana", "Ben"], CARDS, [first, Round({"Ana": [12], "Ben": [5]}, {})]) is None
    # two such cards need two new cards: Ana, fewer points, got 2 of the 4
    assert find_misplaced(["Ana", "Ben"], CARDS, [first, Round({"Ana": [11, 12], "Ben": [5]}, {})]) is None
    three = Round({"Ana": [10, 11, 12], "Ben": [5]}, {})
    wrong = find_misplaced(["Ana", "Ben"], CARDS, [first, three])
    assert wrong is not None and (wrong.player, wrong.card) == ("Ana", 12)
    assert "among the undealt cards for a later deal" in wrong.message
