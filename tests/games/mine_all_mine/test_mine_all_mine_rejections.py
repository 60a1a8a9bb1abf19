"""Score files that break the rules: exit 1, every problem listed, each located."""

from __future__ import annotations

import re

import pytest

OK_ROUND = """\
  - planets: [{turns: [3, 2, 1]}]
    fleets:
      Ana: {speed: 7, attack: 3, cargo: 5}
      Ben: {speed: 3, attack: 5, cargo: 4}
"""


def rejected(cli, write_yaml, text: str, lines: bool = False) -> list[str]:
    """The problems listed, each checked to name the file; returned without it (and without
    the line, unless ``lines``)."""
    path = write_yaml("final.yaml", text)
    r = cli("score", "mine_all_mine", path)
    assert r.code == 1, r.out
    assert "Traceback" not in r.err
    assert f"cannot score {path}" in r.err
    problems = [line.removeprefix("  - ") for line in r.err.splitlines() if line.startswith("  - ")]
    assert all(p.startswith(f"{path}") for p in problems), problems
    located = re.compile(re.escape(str(path)) + ("" if lines else r"(:\d+)?: "))
    return [located.sub("", p, count=1) for p in problems]


def test_the_issue_example_scores(cli, write_yaml):
    # Ana (7, 3, 5) on 1, lead 7 - 3 = 4: Ben (3, 5, 4) on 3. [3, 2, 1]
    #   t1: Ana 3; t2: Ana 2 (cargo 5 full); t3: Ben arrives, Ana flees (3 < 5), Ben 1.
    r = cli("score", "mine_all_mine", write_yaml("ok.yaml", "rounds:\n" + OK_ROUND), "--json")
    assert r.code == 0, r.err
    assert [p["total"] for p in r.json["players"]] == [5, 1]


def test_a_player_missing_from_a_round(cli, write_yaml):
    text = "rounds:\n" + OK_ROUND + """\
  - planets: [{turns: [3, 2, 1]}]
    fleets:
      Ana: {speed: 7, attack: 3, cargo: 5}
"""
    assert rejected(cli, write_yaml, text) == [
        "round #2: fleets: Ben is missing (every player plays a fleet each round; players: Ana, Ben)"]


def test_more_than_three_rounds(cli, write_yaml):
    assert rejected(cli, write_yaml, "rounds:\n" + OK_ROUND * 4) == ["rounds: a game is 3 rounds, got 4"]


@pytest.mark.parametrize("value, message", [
    ("-1", "must be ≥ 0, got -1"),
    ("2.5", "must be a whole number, got 2.5"),
    ("'3'", "must be a whole number, got '3'"),
    ("true", "must be a whole number, got True"),
])
def test_negative_or_non_integer_stats(cli, write_yaml, value, message):
    text = "rounds:\n" + OK_ROUND.replace("cargo: 4", f"cargo: {value}")
    assert rejected(cli, write_yaml, text, lines=True) == [f":5: round #1: fleets.Ben.cargo: {message}"]


def test_negative_or_non_integer_resources(cli, write_yaml):
    text = "rounds:\n" + OK_ROUND.replace("[3, 2, 1]", "[3, -2, 1.5]")
    assert rejected(cli, write_yaml, text) == [
        "round #1: planets[0].turns[1]: must be ≥ 0, got -2",
        "round #1: planets[0].turns[2]: must be a whole number, got 1.5",
    ]


def test_a_planet_has_three_turns(cli, write_yaml):
    assert rejected(cli, write_yaml, "rounds:\n" + OK_ROUND.replace("[3, 2, 1]", "[3, 2]")) == [
        "round #1: planets[0].turns: a planet or moon has 3 turns, got 2"]


@pytest.mark.parametrize("planets, message", [
    ("[]", "must list 1 or 2 planet cards (a planet, or a planet then a moon), got 0"),
    ("[{turns: [1, 1, 1]}, {turns: [1, 1, 1]}, {turns: [1, 1, 1]}]",
     "must list 1 or 2 planet cards (a planet, or a planet then a moon), got 3"),
    ("[{turns: [1, 1, 1]}, {turns: [1, 1, 1]}]", "2 players play on 1 planet card (3 turns), got 2"),
])
def test_planet_lists(cli, write_yaml, planets, message):
    text = "rounds:\n" + OK_ROUND.replace("[{turns: [3, 2, 1]}]", planets)
    assert rejected(cli, write_yaml, text) == [f"round #1: planets: {message}"]


def test_three_players_need_a_planet_and_a_moon(cli, write_yaml):
    text = "rounds:\n" + OK_ROUND + "      Cy: {speed: 1, attack: 1, cargo: 1}\n"
    assert rejected(cli, write_yaml, text) == [
        "round #1: planets: 3 players play on 2 planet cards (a planet then a moon: 6 turns), got 1"]


def test_unknown_cards_options_and_faces(cli, write_yaml):
    text = """\
rounds:
  - planets: [{card: 4, side: planet}, {card: 2, side: planet}]
    fleets:
      Ana: {ships: [{card: 13, option: 1}, {card: 5, option: 5}, {card: 0, option: 1}]}
      Ben: {ships: [{card: 5, option: 2}]}
      Cy: {ships: [{card: 6, option: 4}]}
"""
    assert rejected(cli, write_yaml, text) == [
        "round #1: planets[0].card: no planet card 4 (planet cards: 1–3)",
        "round #1: planets[1].side: the second planet card is played on its moon face, got planet",
        "round #1: fleets.Ana.ships[0].card: no ship card 13 (ship cards: 1–12)",
        "round #1: fleets.Ana.ships[1].option: card 5 has no option 5 (options: 1–3 its ships, 4 its action)",
        "round #1: fleets.Ana.ships[2].card: no ship card 0 (ship cards: 1–12)",
        "round #1: fleets: ship card 5 is played 2 times (Ana, Ben); a card is in one hand and is played "
        "for one option",
    ]


def test_first_card_on_its_planet_face_and_no_card_twice(cli, write_yaml):
    text = "rounds:\n" + OK_ROUND.replace("[{turns: [3, 2, 1]}]", "[{card: 1, side: moon}]") + """\
  - planets: [{card: 2, side: planet}, {card: 2, side: moon}]
    fleets:
      Ana: {speed: 7, attack: 3, cargo: 5}
      Ben: {speed: 3, attack: 5, cargo: 4}
      Cy: {speed: 3, attack: 5, cargo: 4}
"""
    assert rejected(cli, write_yaml, text) == [
        "round #1: fleets: Cy is missing (every player plays a fleet each round; players: Ana, Ben, Cy)",
        "round #1: planets: 3 players play on 2 planet cards (a planet then a moon: 6 turns), got 1",
        "round #1: planets[0].side: the first planet card is played on its planet face, got moon",
        "round #2: planets[1].card: planet card 2 is listed twice (each card is dealt once)",
    ]


def test_fleet_forms(cli, write_yaml):
    text = """\
rounds:
  - planets: [{turns: [3, 2, 1]}]
    fleets:
      Ana: {speed: 7, attack: 3}
      Ben: {speed: 3, attack: 5, cargo: 4, ships: [{card: 1, option: 1}]}
  - planets: [{turns: [3, 2, 1], card: 1, side: planet}]
    fleets:
      Ana: {ships: []}
      Ben: {speed: 3, attack: 5, cargo: 4, cards: 0}
"""
    assert rejected(cli, write_yaml, text) == [
        "round #1: fleets.Ana: missing cargo (a fleet gives speed, attack and cargo, or ships: [{card, option}, …])",
        "round #1: fleets.Ben: give either ships: [{card, option}, …] or speed, attack and cargo, not both",
        "round #2: planets[0]: give either turns: [r1, r2, r3] or card: N and side: planet|moon, not both",
        "round #2: fleets.Ana.ships: must have at least 1 item(s), got 0",
        "round #2: fleets.Ben.cards: must be ≥ 1, got 0",
    ]


def test_player_count(cli, write_yaml):
    one = "rounds:\n  - planets: [{turns: [3, 2, 1]}]\n    fleets: {Ana: {speed: 1, attack: 1, cargo: 1}}\n"
    assert rejected(cli, write_yaml, one) == ["players: 1 given, mine_all_mine supports 2–4"]
    five = ("rounds:\n  - planets: [{turns: [3, 2, 1]}, {turns: [3, 2, 1]}]\n    fleets:\n"
            + "".join(f"      {n}: {{speed: 1, attack: 1, cargo: 1}}\n" for n in ("A", "B", "C", "D", "E")))
    assert rejected(cli, write_yaml, five) == ["players: 5 given, mine_all_mine supports 2–4"]


def test_a_fleet_of_more_cards_than_the_hand(cli, write_yaml):
    # Round 1: Ana plays 4 cards but holds the 3 dealt at setup.
    four = "[{card: 1, option: 1}, {card: 3, option: 1}, {card: 6, option: 3}, {card: 2, option: 3}]"
    text = f"""\
rounds:
  - planets: [{{turns: [3, 2, 1]}}]
    fleets:
      Ana: {{ships: {four}}}
      Ben: {{speed: 1, attack: 1, cargo: 1, cards: 1}}
"""
    assert rejected(cli, write_yaml, text) == [
        "round #1: fleets.Ana: a fleet of 4 ship cards, but Ana holds 3 (the 3 cards dealt at setup)"]
    # Round 1: Ana plays 3 cards, Éclaireur (6, 1, 1) + Vedette (5, 0, 3) + Patrouilleur (3, 2, 3)
    # = (14, 3, 7); Ben (1, 1, 3) plays 3. Hands 0 and 0; Ben, fewer points, first: 6 new cards,
    # 3 each. Round 2: Ana plays 4 of her 3, Ben 3 of his 3.
    three = "[{card: 1, option: 1}, {card: 3, option: 1}, {card: 6, option: 3}]"
    text = f"""\
rounds:
  - planets: [{{turns: [3, 2, 1]}}]
    fleets:
      Ana: {{ships: {three}}}
      Ben: {{speed: 1, attack: 1, cargo: 3, cards: 3}}
  - planets: [{{turns: [3, 2, 1]}}]
    fleets:
      Ana: {{speed: 1, attack: 1, cargo: 1, cards: 4}}
      Ben: {{speed: 1, attack: 1, cargo: 1, cards: 3}}
"""
    assert rejected(cli, write_yaml, text) == [
        "round #2: fleets.Ana: a fleet of 4 ship cards, but Ana holds 3 (after the new cards of round 1: "
        "3 at setup; round 1: played 3, dealt 3)"]


def test_a_draw_for_the_extra_card_still_bounds_both_hands(cli, write_yaml):
    # Issue 18. Round 1 (3 players: a planet then a moon): Cy (speed 5, attack 5) lands first and
    # Ana and Ben (speed 1, attack 1) flee when they arrive: Ana 0, Ben 0, Cy 5. Ana and Ben
    # played 1 card, Cy 2: hands 2, 2, 1; 4 new cards, one at a time, fewest points first: Ana
    # and Ben, tied on 0 points and 2 cards, draw for the first seat (2 cards) and the second (1),
    # Cy gets 1. So Ana and Ben each hold 3 or 4 in round 2 — never 5, whoever won the draw.
    text = """\
rounds:
  - planets: [{turns: [3, 2, 1]}, {turns: [1, 1, 1]}]
    fleets:
      Ana: {speed: 1, attack: 1, cargo: 3, cards: 1}
      Ben: {speed: 1, attack: 1, cargo: 3, cards: 1}
      Cy: {speed: 5, attack: 5, cargo: 5, cards: 2}
  - planets: [{turns: [3, 2, 1]}, {turns: [1, 1, 1]}]
    fleets:
      Ana: {speed: 1, attack: 1, cargo: 1, cards: 5}
      Ben: {speed: 2, attack: 1, cargo: 1, cards: 4}
      Cy: {speed: 3, attack: 1, cargo: 1, cards: 2}
"""
    assert rejected(cli, write_yaml, text) == [
        "round #2: fleets.Ana: a fleet of 5 ship cards, but Ana holds at most 4 (3 to 4: a draw between tied "
        "players decided who got an extra card; after the new cards of round 1: 3 at setup; round 1: "
        "played 1, dealt 1 or 2)"]
    path = write_yaml("ok.yaml", text.replace("cards: 5", "cards: 4"))
    assert cli("score", "mine_all_mine", path).code == 0


def test_every_problem_is_listed(cli, write_yaml):
    text = "rounds:\n" + OK_ROUND.replace("[3, 2, 1]", "[3, 2, 1]}, {turns: [1, 1, 1]") * 2 + """\
  - planets: [{turns: [1, 1, 1]}]
    fleets: {Ana: {speed: 1, attack: 1, cargo: 1}}
  - planets: [{turns: [1, 1, 1]}]
    fleets: {Ana: {speed: 1, attack: 1, cargo: 1}, Ben: {speed: 1, attack: 1, cargo: 1}}
"""
    problems = rejected(cli, write_yaml, text)
    assert problems == [
        "rounds: a game is 3 rounds, got 4",
        "round #1: planets: 2 players play on 1 planet card (3 turns), got 2",
        "round #2: planets: 2 players play on 1 planet card (3 turns), got 2",
        "round #3: fleets: Ben is missing (every player plays a fleet each round; players: Ana, Ben)",
    ]
