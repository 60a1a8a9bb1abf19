"""Shared ranking: competition numbering, tie-breakers in order, invariants."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from cardforge.engine.scoring import competition_ranks, rank_players
from cardforge.scores import PlayerResult, TieBreaker, as_number

COINS = TieBreaker("coins", "Égalité : le plus riche l'emporte", "more coins")
CARTS = TieBreaker("carts", "puis le plus de chariots", "more complete carts")


def result(name, total, *tiebreak):
    return PlayerResult(name, {"points": total}, tuple(tiebreak))


def test_competition_numbering():
    assert competition_ranks([(10,), (8,), (8,), (5,)]) == [1, 2, 2, 4]
    assert competition_ranks([(5,), (5,), (5,)]) == [1, 1, 1]


def test_no_tie_breaker_shares_the_rank():
    ranks, how = rank_players([result("A", 30), result("B", 30), result("C", 12)], [])
    assert ranks == [1, 1, 3] and how == "shared: no tie-breaker"


def test_first_tie_breaker_decides():
    ranks, how = rank_players([result("A", 52, 7), result("B", 52, 9), result("C", 40, 20)], [COINS])
    assert ranks == [2, 1, 3] and how == "tie on 52 broken by more coins"


def test_second_tie_breaker_decides_when_the_first_ties():
    players = [result("A", 39, 7, 8), result("B", 39, 7, 9)]
    ranks, how = rank_players(players, [COINS, CARTS])
    assert ranks == [2, 1] and how == "tie on 39 broken by more complete carts"


def test_still_tied_after_every_tie_breaker():
    ranks, how = rank_players([result("A", 39, 7, 8), result("B", 39, 7, 8)], [COINS, CARTS])
    assert ranks == [1, 1] and how == "shared: still tied after more coins, more complete carts"


def test_numbers_print_as_integers_or_two_decimals():
    assert as_number(Fraction(3, 2)) == 1.5 and as_number(Fraction(12, 5)) == 2.4
    assert as_number(Fraction(6, 3)) == 2 and isinstance(as_number(Fraction(6, 3)), int)
    assert as_number(Fraction(2, 3)) == 0.67


players_st = st.lists(
    st.tuples(st.integers(0, 60), st.integers(0, 10), st.integers(0, 5)), min_size=1, max_size=6)


@given(players_st)
def test_ranks_are_consistent_with_totals_and_tie_breakers(rows):
    results = [result(f"P{i}", t, a, b) for i, (t, a, b) in enumerate(rows)]
    ranks, _ = rank_players(results, [COINS, CARTS])
    for r1, k1 in zip(ranks, rows):
        for r2, k2 in zip(ranks, rows):
            if k1 > k2:
                assert r1 < r2
            if k1 == k2:
                assert r1 == r2
    assert min(ranks) == 1


@given(players_st, st.randoms())
def test_ranks_do_not_depend_on_player_order(rows, rnd):
    results = [result(f"P{i}", t, a, b) for i, (t, a, b) in enumerate(rows)]
    ranks = dict(zip((r.name for r in results), rank_players(results, [COINS, CARTS])[0]))
    shuffled = results[:]
    rnd.shuffle(shuffled)
    ranks2 = dict(zip((r.name for r in shuffled), rank_players(shuffled, [COINS, CARTS])[0]))
    assert ranks == ranks2
