"""Cart counting from mine layouts (rules/carts.py).

A row lists each slot's half-carts ("L", "R", "LR", "") or None for an empty slot; junction j
is between slot j and slot j+1. Each expected count below is worked out by hand.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardforge.testing import rules_module

_imperial_miners_carts = rules_module("imperial_miners", "carts")
CartCount = _imperial_miners_carts.CartCount
count_carts = _imperial_miners_carts.count_carts
junctions = _imperial_miners_carts.junctions
token_problem = _imperial_miners_carts.token_problem


_ = None  # an empty slot, for readable layouts


@pytest.mark.parametrize("mine, tokens, printed, by_tokens, incomplete", [
    # R|L face to face: 1 complete.
    ([["R", "L"]], [], 1, 0, 0),
    # A chain R, LR, LR, L: j0 R|L, j1 R|L, j2 R|L → 3 complete.
    ([["R", "LR", "LR", "L"]], [], 3, 0, 0),
    # R|"": one half → 1 incomplete; the same with a token on j0 → completed.
    ([["R", ""]], [], 0, 0, 1),
    ([["R", ""]], [(0, 0)], 0, 1, 0),
    # ""|L: the half on the right card's left edge → 1 incomplete.
    ([["", "L"]], [], 0, 0, 1),
    # L, R: L on the left end, R on the right end, nothing where they meet → 0.
    ([["L", "R"]], [], 0, 0, 0),
    # A lone LR card: both halves on the row's outer edges → 0.
    ([["LR"]], [], 0, 0, 0),
    # R, gap, L: both halves face the empty slot → no junction, 0.
    ([["R", _, "L"]], [], 0, 0, 0),
    # LR, gap, LR, LR: j0 and j1 touch the gap; j2 R|L complete → 1.
    ([["LR", _, "LR", "LR"]], [], 1, 0, 0),
    # Rows are independent: row 0 [R, L] 1 complete; row 1 [R, L, R]: j0 complete, j1 nothing,
    # the last R on the end → 1; row 2 ["", L]: incomplete → 1 left.
    ([["R", "L"], ["R", "L", "R"], ["", "L"]], [], 2, 0, 1),
    # Two incomplete carts in a row ["", "LR", ""]: j0 ""|L, j1 R|"" → both completed by tokens.
    ([["", "LR", ""]], [(0, 0), (0, 1)], 0, 2, 0),
    # Empty mine, empty rows, rows of gaps: 0.
    ([], [], 0, 0, 0),
    ([[], [_, _], ["LR"]], [], 0, 0, 0),
])
def test_count_carts(mine, tokens, printed, by_tokens, incomplete):
    count = count_carts(mine, tokens)
    assert count == CartCount(printed, by_tokens, incomplete)
    assert count.complete == printed + by_tokens


#            slot: 0    1   2    3    4  5
TOKEN_MINE = [["R", "", "R", "L", _, "L"]]


@pytest.mark.parametrize("token, reason", [
    ((0, 0), None),  # R|"": one half, an incomplete cart a token completes
    ((0, 1), "row 0, junction 1: nothing is printed there (neither card has a half-cart on that edge); "
             "a token only completes an incomplete cart"),  # ""|R: the R card has no left half
    ((0, 2), "row 0, junction 2: the cart there is already complete (two halves printed); "
             "a token only completes an incomplete cart"),  # R|L
    ((0, 3), "row 0, junction 3: no junction next to an empty slot (slot 4 is empty)"),
    ((0, 4), "row 0, junction 4: no junction next to an empty slot (slot 4 is empty)"),
    ((0, 5), "row 0, junction 5: no such junction (row 0 has 6 slot(s): junctions 0–4)"),
    ((1, 0), "row 1, junction 0: no such row (the mine has rows 0–0)"),
])
def test_token_problem(token, reason):
    assert token_problem(TOKEN_MINE, token) == reason


def test_junction_list_names_each_cart():
    # [R, L, "", L, _, R]: j0 R|L (2 halves), j1 nothing, j2 ""|L (1 half), j3/j4 gap.
    found = list(junctions([["R", "L", "", "L", _, "R"]]))
    assert [(j.row, j.index, j.halves) for j in found] == [(0, 0, 2), (0, 2, 1)]


def test_no_row_in_an_empty_mine():
    assert token_problem([], (0, 0)) == "row 0, junction 0: no such row (the mine has no rows)"


# --- properties ---------------------------------------------------------------------------------

slot = st.one_of(st.none(), st.sampled_from(["L", "R", "LR", ""]))
mines = st.lists(st.lists(slot, max_size=7), max_size=4)


@st.composite
def mines_with_tokens(draw):
    """A mine and tokens on some of its incomplete carts (every token valid)."""
    mine = draw(mines)
    open_carts = [(j.row, j.index) for j in junctions(mine) if not j.is_complete]
    tokens = draw(st.lists(st.sampled_from(open_carts), unique=True)) if open_carts else []
    return mine, tokens


@given(mines_with_tokens(), st.randoms(use_true_random=False))
def test_cart_count_is_independent_of_row_order(mine_and_tokens, rnd):
    mine, tokens = mine_and_tokens
    order = list(range(len(mine)))
    rnd.shuffle(order)  # new row i is old row order[i]
    shuffled = [mine[old] for old in order]
    new_index = {old: new for new, old in enumerate(order)}
    moved = [(new_index[r], j) for r, j in tokens]
    assert all(token_problem(shuffled, t) is None for t in moved)
    assert count_carts(shuffled, moved) == count_carts(mine, tokens)


@given(mines_with_tokens())
def test_cart_count_is_unchanged_in_a_mirror(mine_and_tokens):
    """Reading every row right to left with L and R swapped shows the same carts."""
    mine, tokens = mine_and_tokens
    swap = {"L": "R", "R": "L", "LR": "LR", "": "", None: None}
    mirrored = [[swap[s] for s in reversed(row)] for row in mine]
    moved = [(r, len(mine[r]) - 2 - j) for r, j in tokens]
    assert count_carts(mirrored, moved) == count_carts(mine, tokens)


@given(mines_with_tokens())
def test_tokens_only_turn_incomplete_carts_into_complete_ones(mine_and_tokens):
    mine, tokens = mine_and_tokens
    bare, placed = count_carts(mine), count_carts(mine, tokens)
    assert placed.printed == bare.printed
    assert placed.tokens == len(tokens)
    assert placed.tokens + placed.incomplete == bare.incomplete
    assert placed.complete == bare.complete + len(tokens)
