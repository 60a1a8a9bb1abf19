"""The round resolver on hand-worked rounds (card_data/mine_all_mine/RULES.md, steps 2–3).

Each case shows its arithmetic: fleets as (speed, attack, cargo), resources per turn.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardforge.testing import rules_module

_mine_all_mine_rounds = rules_module("mine_all_mine", "rounds")
Fleet = _mine_all_mine_rounds.Fleet
Landing = _mine_all_mine_rounds.Landing
arrive = _mine_all_mine_rounds.arrive
play_round = _mine_all_mine_rounds.play_round


def fleets(**values: tuple[int, int, int]) -> list[Fleet]:
    return [Fleet(name, *v) for name, v in values.items()]


def took(play, turn: int) -> dict[str, int]:
    return play.turns[turn - 1].took


# --- arrival ------------------------------------------------------------------------------------

def test_a_lead_of_4_skips_one_location():
    # Ana (9, 1, 10), Ben (5, 4, 10) on [3, 2, 4]. Lead 9 - 5 = 4 >= 4: Ana on 1, location 2
    # left empty, Ben on 3.
    #   turn 1: Ana alone, takes 3 (cargo left 10 - 3 = 7)
    #   turn 2: Ana alone, takes 2 (cargo left 5)
    #   turn 3: Ben arrives; attack 1 < 4, Ana flees; Ben alone takes 4
    # Ana 3 + 2 = 5, Ben 4.
    play = play_round(fleets(Ana=(9, 1, 10), Ben=(5, 4, 10)), [3, 2, 4])
    assert play.landings == [Landing(1, ("Ana",), 9), Landing(3, ("Ben",), 5)]
    assert play.skipped == [2]
    assert [took(play, t) for t in (1, 2, 3)] == [{"Ana": 3}, {"Ana": 2}, {"Ben": 4}]
    assert play.turns[2].fled == ["Ana"] and play.turns[2].arrived == ["Ben"]
    assert play.points == {"Ana": 5, "Ben": 4}


def test_a_lead_of_3_skips_nothing():
    # Same fleets but Ana at speed 8: lead 8 - 5 = 3 < 4, Ben on location 2.
    #   turn 1: Ana takes 3; turn 2: Ben arrives, Ana (attack 1) flees, Ben takes 2;
    #   turn 3: Ben alone takes 4.  Ana 3, Ben 2 + 4 = 6.
    play = play_round(fleets(Ana=(8, 1, 10), Ben=(5, 4, 10)), [3, 2, 4])
    assert [landing.location for landing in play.landings] == [1, 2]
    assert play.skipped == []
    assert play.points == {"Ana": 3, "Ben": 6}


def test_a_lead_of_8_still_skips_one_location_and_cargo_carries_across_turns():
    # Ana (9, 2, 4), Ben (1, 2, 9) on [3, 3, 3]. Lead 9 - 1 = 8: one location skipped
    # (« sautez un lieu »), Ben on 3.
    #   turn 1: Ana takes 3, cargo left 4 - 3 = 1
    #   turn 2: Ana takes 1 of 3 (cargo now full), 2 lost
    #   turn 3: Ben arrives; equal attack 2, nobody flees; Ana is full, Ben takes 3
    # Ana 4, Ben 3.
    play = play_round(fleets(Ana=(9, 2, 4), Ben=(1, 2, 9)), [3, 3, 3])
    assert [landing.location for landing in play.landings] == [1, 3]
    assert took(play, 2) == {"Ana": 1} and play.turns[1].lost == 2
    assert took(play, 3) == {"Ana": 0, "Ben": 3}
    assert play.turns[2].full == ["Ana"] and play.turns[2].fled == []
    assert play.points == {"Ana": 4, "Ben": 3}


def test_equal_speeds_share_a_location():
    landings = arrive(fleets(Ana=(5, 1, 1), Ben=(9, 1, 1), Cy=(5, 2, 2), Dan=(4, 0, 0)))
    # 9 first; 9 - 5 = 4: skip, Ana and Cy share location 3; 5 - 4 = 1: Dan on 4.
    assert landings == [Landing(1, ("Ben",), 9), Landing(3, ("Ana", "Cy"), 5), Landing(4, ("Dan",), 4)]


# --- extraction ---------------------------------------------------------------------------------

def test_equal_speeds_take_together_and_the_remainder_is_lost():
    # Ana (5, 3, 10), Ben (5, 3, 10) both on location 1, resources [5, 2, 3].
    #   turn 1 (5): both take 1 (3 left), both take 1 (1 left), 1 < 2 fleets: 1 lost -> 2 each
    #   turn 2 (2): both take 1 -> 1 each
    #   turn 3 (3): both take 1 (1 left), 1 lost -> 1 each
    # Ana 2 + 1 + 1 = 4, Ben 4; 2 lost in all.
    play = play_round(fleets(Ana=(5, 3, 10), Ben=(5, 3, 10)), [5, 2, 3])
    assert play.landings == [Landing(1, ("Ana", "Ben"), 5)]
    assert [took(play, t) for t in (1, 2, 3)] == [{"Ana": 2, "Ben": 2}, {"Ana": 1, "Ben": 1}, {"Ana": 1, "Ben": 1}]
    assert [t.lost for t in play.turns] == [1, 0, 1]
    assert play.points == {"Ana": 4, "Ben": 4}


def test_a_full_fleet_of_equal_speed_lets_the_other_go_on():
    # Ana (5, 3, 1), Ben (5, 3, 10), one turn of 5 (then 0, 0).
    #   pass 1: both take 1 (3 left), Ana is full; passes 2-4: Ben alone takes 1 each (0 left)
    # Ana 1, Ben 4, nothing lost.
    play = play_round(fleets(Ana=(5, 3, 1), Ben=(5, 3, 10)), [5, 0, 0])
    assert took(play, 1) == {"Ana": 1, "Ben": 4} and play.turns[0].lost == 0


def test_faster_group_first_then_a_group_of_equal_speeds_loses_the_remainder():
    # Ana (7, 3, 10) on 1; Ben and Cy (5, 3, 10) share location 2 (lead 2). [1, 5, 2, 0, 0, 0]
    #   turn 1 (1): Ana alone takes 1
    #   turn 2 (5): pass 1: Ana 1 (4 left), Ben + Cy 1 each (2 left);
    #               pass 2: Ana 1 (1 left), Ben + Cy need 2 > 1: 1 lost
    #   turn 3 (2): pass 1: Ana 1 (1 left), Ben + Cy need 2 > 1: 1 lost
    # Ana 1 + 2 + 1 = 4, Ben 1, Cy 1.
    play = play_round(fleets(Ana=(7, 3, 10), Ben=(5, 3, 10), Cy=(5, 3, 10)), [1, 5, 2, 0, 0, 0])
    assert took(play, 2) == {"Ana": 2, "Ben": 1, "Cy": 1} and play.turns[1].lost == 1
    assert took(play, 3) == {"Ana": 1, "Ben": 0, "Cy": 0} and play.turns[2].lost == 1
    assert play.points == {"Ana": 4, "Ben": 1, "Cy": 1}


def test_flight_a_later_fleet_joining_a_contest_and_full_cargo_on_six_turns():
    # Planet [2, 3, 1] then moon [4, 2, 3]. Ana (10, 2, 4), Ben (7, 5, 6), Cy (6, 5, 3).
    # Arrival: Ana on 1; 10 - 7 = 3: Ben on 2; 7 - 6 = 1: Cy on 3.
    #   turn 1 (2): Ana alone takes 2 (cargo left 2)
    #   turn 2 (3): Ben arrives; attack 2 < 5: Ana flees for the round, keeping her 2; Ben takes 3 (left 3)
    #   turn 3 (1): Cy arrives and joins; equal attack 5, Ben faster (7 > 6) takes the 1 (left 2)
    #   turn 4 (4): Ben 1, Cy 1 (2 left); Ben 1 (now full), Cy 1 (0 left) -> Ben 2, Cy 2 (left 1)
    #   turn 5 (2): Ben full, still present (attack 5); Cy takes 1 (full), nobody can take: 1 lost
    #   turn 6 (3): both full: 3 lost
    # Ana 2, Ben 3 + 1 + 2 = 6, Cy 2 + 1 = 3; taken 11 + lost 4 = 15 = 2+3+1+4+2+3.
    play = play_round(fleets(Ana=(10, 2, 4), Ben=(7, 5, 6), Cy=(6, 5, 3)), [2, 3, 1, 4, 2, 3])
    assert [landing.location for landing in play.landings] == [1, 2, 3]
    assert took(play, 1) == {"Ana": 2}
    assert play.turns[1].fled == ["Ana"] and took(play, 2) == {"Ben": 3}
    assert play.turns[2].arrived == ["Cy"] and took(play, 3) == {"Ben": 1, "Cy": 0}
    assert took(play, 4) == {"Ben": 2, "Cy": 2}
    assert play.turns[4].full == ["Ben"] and took(play, 5) == {"Ben": 0, "Cy": 1} and play.turns[4].lost == 1
    assert play.turns[5].full == ["Ben", "Cy"] and play.turns[5].lost == 3
    assert all("Ana" not in t.present for t in play.turns[2:])
    assert play.points == {"Ana": 2, "Ben": 6, "Cy": 3}


def test_a_full_fleet_still_chases_weaker_fleets():
    # Ana (8, 6, 2), Ben (3, 4, 10) on [3, 3, 3]. Lead 5: Ana on 1, Ben on 3.
    #   turn 1: Ana takes 2 of 3 (full), 1 lost; turn 2: Ana full, 3 lost;
    #   turn 3: Ben arrives, attack 4 < 6: Ben flees though Ana takes nothing; 3 lost.
    # Ana 2, Ben 0.
    play = play_round(fleets(Ana=(8, 6, 2), Ben=(3, 4, 10)), [3, 3, 3])
    assert [t.lost for t in play.turns] == [1, 3, 3]
    assert play.turns[2].fled == ["Ben"] and play.turns[2].full == ["Ana"]
    assert play.points == {"Ana": 2, "Ben": 0}


def test_a_fleet_placed_after_the_last_turn_never_arrives():
    # 4 fleets each 4 faster than the next: locations 1, 3, 5, 7; a 6-turn round has no 7th
    # location, so Dan (speed 2, attack 9) takes nothing and chases nobody. [2, 2, 2, 2, 2, 2]
    #   turns 1-2: Ana alone: 2 + 2
    #   turns 3-4: Ben joins, equal attack 1, Ana faster: Ana 1, Ben 1 each turn
    #   turns 5-6: Cy joins: Ana 1, Ben 1, none left for Cy
    # Ana 2+2+1+1+1+1 = 8, Ben 4, Cy 0, Dan 0.
    play = play_round(fleets(Ana=(14, 1, 20), Ben=(10, 1, 20), Cy=(6, 1, 20), Dan=(2, 9, 20)), [2] * 6)
    assert [landing.location for landing in play.landings] == [1, 3, 5, 7]
    assert play.skipped == [2, 4, 6] and play.too_late == ["Dan"]
    assert all(t.fled == [] and "Dan" not in t.present for t in play.turns)
    assert play.points == {"Ana": 8, "Ben": 4, "Cy": 0, "Dan": 0}


def test_three_turns_with_zero_cargo_and_zero_resources():
    # Ana (6, 0, 0) on 1, Ben (2, 0, 5) on 3 (lead 4), resources [3, 1, 0].
    #   turns 1-2: Ana alone has no cargo: 3 and 1 lost; turn 3: Ben arrives, 0 offered.
    play = play_round(fleets(Ana=(6, 0, 0), Ben=(2, 0, 5)), [3, 1, 0])
    assert [t.lost for t in play.turns] == [3, 1, 0]
    assert play.points == {"Ana": 0, "Ben": 0}


# --- invariants ---------------------------------------------------------------------------------

FLEET = st.tuples(st.integers(0, 15), st.integers(0, 8), st.integers(0, 12))


@settings(max_examples=300, deadline=None)
@given(st.lists(FLEET, min_size=2, max_size=4), st.sampled_from([3, 6]).flatmap(
    lambda n: st.lists(st.integers(0, 6), min_size=n, max_size=n)), st.randoms())
def test_every_resource_is_taken_once_or_lost_and_order_in_the_file_does_not_matter(values, resources, rnd):
    named = [Fleet(f"P{i}", *v) for i, v in enumerate(values)]
    play = play_round(named, resources)
    for t, offered in zip(play.turns, resources):
        assert sum(t.took.values()) + t.lost == offered
        assert set(t.took) == set(t.present) - set(t.fled)
    for fleet in named:
        assert play.points[fleet.player] <= fleet.cargo
    shuffled = named[:]
    rnd.shuffle(shuffled)
    assert play_round(shuffled, resources).points == play.points


def test_a_turn_of_a_billion_resources_is_shared_by_arithmetic():
    # Issue 21: a turn is no longer played one resource a loop turn. Ana and Ben (same speed and
    # attack) share 1,000,000,001 resources one at a time: 500,000,000 each, the last one lost
    # (« S'il y a égalité pour la vitesse, les ressources sont réparties de manière équivalente,
    # le reste est définitivement perdu »); Cy (slower) fills his cargo of 7 first on turn 2.
    _mine_all_mine_rounds = rules_module("mine_all_mine", "rounds")
    Fleet = _mine_all_mine_rounds.Fleet
    play_round = _mine_all_mine_rounds.play_round

    big = 10**12
    fleets = [Fleet("Ana", 3, 2, big), Fleet("Ben", 3, 2, big), Fleet("Cy", 2, 2, 7)]
    play = play_round(fleets, [1_000_000_001, 10**9, 0])
    assert play.turns[0].took == {"Ana": 500_000_000, "Ben": 500_000_000} and play.turns[0].lost == 1
    # turn 2: Cy (lead 1: the next location) has arrived, same attack: passes of 3 (Ana and Ben
    # together, then Cy) until Cy's cargo of 7 is full: 21 taken; then passes of 2 over the
    # 999,999,979 left: 499,999,989 each, the last one lost. Ana: 7 + 499,999,989 = 499,999,996.
    assert play.turns[1].took == {"Ana": 499_999_996, "Ben": 499_999_996, "Cy": 7}
    assert play.turns[1].lost == 1
    assert play.points == {"Ana": 999_999_996, "Ben": 999_999_996, "Cy": 7}
