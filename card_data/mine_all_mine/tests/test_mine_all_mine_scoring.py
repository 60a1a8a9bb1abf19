"""Full games through ``cardforge score mine_all_mine``: the details and report lines of the
hand-worked vectors (scoring_vectors.yaml; their breakdowns go through tests/test_scoring_vectors.py)."""

from __future__ import annotations

import yaml
from vectors_support import scored


def score(cli, write_yaml, state: dict, *flags: str):
    path = write_yaml("final.yaml", yaml.safe_dump(state, allow_unicode=True, sort_keys=False))
    return cli("score", "mine_all_mine", path, *flags)


def case_state(id_start: str) -> dict:
    return next(c["state"] for c in scored("mine_all_mine") if c["id"].startswith(id_start))


def test_details_of_a_round_with_data_cards(cli, write_yaml):
    # The second vector, round 1 (arithmetic in scoring_vectors.yaml).
    out = score(cli, write_yaml, case_state("two-players-fleets"), "--json").json
    assert out["categories"] == ["round_1", "round_2", "round_3"]
    details = out["details"]
    first = details["rounds"][0]
    assert first["planets"] == [{"card": 3, "side": "planet", "end": "low", "name": "Thalassa",
                                 "resources": [5, 3, 4]}]
    assert first["fleets"]["Ana"] == {
        "speed": 6, "attack": 1, "cargo": 6, "cards": 2,
        "ships": [{"card": 1, "option": 1, "name": "Éclaireur"}, {"card": 3, "option": 4, "name": "Soutes d'appoint"}],
    }
    assert first["hands"] == {"Ana": 3, "Ben": 3}
    assert first["arrival"] == [{"location": 1, "players": ["Ana"], "speed": 6},
                                {"location": 3, "players": ["Ben"], "speed": 2}]
    assert first["skipped"] == [2] and first["too_late"] == []
    assert first["turns"] == [
        {"turn": 1, "resources": 5, "arrived": ["Ana"], "present": ["Ana"], "fled": [], "full": [],
         "took": {"Ana": 5}, "lost": 0},
        {"turn": 2, "resources": 3, "arrived": [], "present": ["Ana"], "fled": [], "full": [],
         "took": {"Ana": 1}, "lost": 2},
        {"turn": 3, "resources": 4, "arrived": ["Ben"], "present": ["Ana", "Ben"], "fled": ["Ana"], "full": [],
         "took": {"Ben": 2}, "lost": 2},
    ]
    assert first["points"] == {"Ana": 6, "Ben": 2} and first["totals"] == {"Ana": 6, "Ben": 2}
    assert first["new_cards"] == {
        "cards": 3,
        "order": [{"players": ["Ben"], "points": 2, "cards": 2, "draw": False},
                  {"players": ["Ana"], "points": 6, "cards": 1, "draw": False}],
        "dealt": {"Ben": 2, "Ana": 1},
    }
    second = details["rounds"][1]
    assert second["hands"] == {"Ana": 2, "Ben": 4}
    assert second["fleets"]["Ben"]["speed"] == 11 and second["fleets"]["Ben"]["cargo"] == 7
    assert second["new_cards"]["dealt"] == {"Ana": 3, "Ben": 2}
    assert len(details["rounds"]) == 2


def test_new_card_order_with_fewer_cards_and_a_draw(cli, write_yaml):
    rounds = score(cli, write_yaml, case_state("three-players"), "--json").json["details"]["rounds"]
    assert rounds[0]["new_cards"] == {
        "cards": 4,
        "order": [{"players": ["Cy"], "points": 0, "cards": 2, "draw": False},
                  {"players": ["Ana"], "points": 3, "cards": 1, "draw": False},
                  {"players": ["Ben"], "points": 3, "cards": 2, "draw": False}],
        "dealt": {"Cy": 2, "Ana": 1, "Ben": 1},
    }
    assert rounds[1]["hands"] == {"Ana": 2, "Ben": 3, "Cy": 4}
    assert rounds[1]["new_cards"] == {
        "cards": 6,
        "order": [{"players": ["Ana", "Ben", "Cy"], "points": 3, "cards": 1, "draw": True}],
        "dealt": {"Ana": 2, "Ben": 2, "Cy": 2},
    }
    assert rounds[2]["hands"] == {"Ana": 3, "Ben": 3, "Cy": 3}
    assert rounds[2]["new_cards"] is None
    assert rounds[2]["turns"][2]["fled"] == ["Ana", "Ben"]


def test_text_report(cli, write_yaml):
    r = score(cli, write_yaml, case_state("three-players"))
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert "Vainqueur\u202f: Cy" in lines  # the game's language
    assert "Round 1 — a planet given by its resources (2, 2, 2) then a planet given by its resources (1, 1, 1), 6 turns" in lines
    # issue 18: locations named as on the cards, equal-attack contests said
    assert ("  Arrival: location 1 « Premier » Ana and Ben (speed 6); location 2 « Deuxième » left empty (a lead "
            "of 4 or more in speed); location 3 « Troisième » Cy (speed 2)") in lines
    assert ("  Turn 3 « Troisième » (2 resources): Cy arrives; Cy flees for the rest of the round (attack 1 < 3); "
            "Ana and Ben tie on attack 3: one resource at a time, fastest first; Ana takes 1; Ben takes 1.") in lines
    assert ("  Turn 4 « Quatrième » (1 resource): Ana takes nothing (cargo full); Ben takes nothing (cargo full); "
            "1 lost.") in lines
    assert "  Points this round: Ana 3, Ben 3, Cy 0 — so far: Ana 3, Ben 3, Cy 0" in lines
    assert "  New cards: 4 cards (as many as were played), dealt one at a time, fewest points first:" in lines
    assert "    1. Cy (0 points, 2 cards in hand) — gets 2 cards" in lines
    assert "    2. Ana (3 points, 1 card in hand) — gets 1 card" in lines
    assert ("    1. Ana, Ben and Cy, tied on 3 points and 1 card in hand: each draws a ship card, "
            "highest number first — gets 2 cards each") in lines
    assert "  Round 3 ends the game: no new cards." in lines


def test_text_report_names_the_cards_and_the_late_fleet(cli, write_yaml):
    out = score(cli, write_yaml, case_state("two-players-fleets")).out
    assert ("  Fleets: Ana speed 6, attack 1, cargo 6 (card 1 Éclaireur + card 3 action Soutes d'appoint); "
            "Ben speed 2, attack 4, cargo 2 (card 2 Croiseur)") in out
    assert "Round 1 — Thalassa (planet card 3, planet face, low end up: 5, 3, 4), 3 turns" in out
    out = score(cli, write_yaml, case_state("four-players")).out
    assert "Dan (speed 2) after the last turn: too late to mine this round" in out
    assert ("Orvane (planet card 2, planet face, low end up: 2, 4, 4) then Lune de Thalassa (planet card 3, moon "
            "face, low end up: 1, 3, 3)") in out


def test_unknown_hands_and_a_draw_that_decides_an_extra_card(cli, write_yaml):
    # 3 players, [3, 0, 0] + [0, 0, 0]. Ana (5, 2, 9) on 1; Ben and Cy (4, 2, 9) share 2 (lead 1).
    #   t1 (3): Ana alone takes 3; nothing more to take. Ana 3, Ben 0, Cy 0.
    # Ben's fleet gives no cards: his hand is unknown, so Ben and Cy (tied on 0) share a place
    # and the number of new cards is unknown.
    state = {"rounds": [{"planets": [{"turns": [3, 0, 0]}, {"turns": [0, 0, 0]}],
                         "fleets": {"Ana": {"speed": 5, "attack": 2, "cargo": 9, "cards": 2},
                                    "Ben": {"speed": 4, "attack": 2, "cargo": 9},
                                    "Cy": {"speed": 4, "attack": 2, "cargo": 9, "cards": 1}}}]}
    r = score(cli, write_yaml, state, "--json")
    assert r.json["details"]["rounds"][0]["new_cards"] == {
        "cards": None,
        "order": [{"players": ["Ben", "Cy"], "points": 0, "cards": None, "draw": True},
                  {"players": ["Ana"], "points": 3, "cards": 1, "draw": False}],
        "dealt": {"Ben": None, "Cy": None, "Ana": None},
    }
    out = score(cli, write_yaml, state).out
    assert ("  New cards: as many cards as were played (how many is not known: a fleet is given by its "
            "values, without cards: N), dealt one at a time, fewest points first:") in out
    assert ("    1. Ben and Cy, tied on 0 points: their hands are not known from the file, so fewer "
            "cards first; still tied, each draws a ship card, highest number first") in out
    # Ben played 1 card: hands Ana 3 - 2 = 1, Ben 2, Cy 2. Ben and Cy draw for seats 1-2, Ana
    # sits 3rd. 2 + 1 + 1 = 4 cards to 3 seats: 4 // 3 = 1 each, plus 1 for the first 4 % 3 = 1
    # seat: seats get 2, 1, 1 — the draw decides which of Ben and Cy gets 2; Ana gets 1.
    state["rounds"][0]["fleets"]["Ben"]["cards"] = 1
    new_cards = score(cli, write_yaml, state, "--json").json["details"]["rounds"][0]["new_cards"]
    assert new_cards["cards"] == 4
    assert new_cards["dealt"] == {"Ben": None, "Cy": None, "Ana": 1}
    out = score(cli, write_yaml, state).out
    assert ("    1. Ben and Cy, tied on 0 points and 2 cards in hand: each draws a ship card, highest number "
            "first — the draw decides who gets one card more") in out
    assert "    2. Ana (3 points, 1 card in hand) — gets 1 card" in out


def test_score_from_stdin(cli, write_yaml, monkeypatch):
    import io

    text = yaml.safe_dump(case_state("two-players-tied"))
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    r = cli("score", "mine-all-mine", "-", "--json")
    assert r.code == 0 and r.json["winners"] == ["Ana", "Ben"]


def test_the_end_up_changes_the_round_and_the_text_says_why(cli, write_yaml):
    # issue 18: the same round with the low end up ([3, 3, 2]) gives Ana 3, Ben 3
    state = case_state("issue-18-a-planet-card-with-its-high-end-up")
    low = {"rounds": [{**state["rounds"][0], "planets": [{"card": 1, "side": "planet", "end": "low"}]}]}
    out = score(cli, write_yaml, low).out
    assert "Manche 1      3      3" in out
    out = score(cli, write_yaml, state).out
    assert out.splitlines()[0] == "Mine, All Mine! — score — partie incomplète"
    assert "Round 1 — Kessara (planet card 1, planet face, high end up: 4, 5, 3), 3 turns" in out
    assert ("  Turn 2 « Deuxième » (5 resources): Ana and Ben tie on attack 2: one resource at a time, fastest "
            "first; Ana takes 2; Ben takes 2; 1 lost (fleets of equal speed share equally, « le reste est "
            "définitivement perdu »).") in out
    assert ("  Turn 3 « Troisième » (3 resources): Ana and Ben tie on attack 2: one resource at a time, fastest "
            "first; Ana takes 2; Ben takes 1.") in out
    assert "Partial: 1 of the 3 rounds played." in out


def test_end_is_only_for_a_planet_card(cli, write_yaml):
    path = write_yaml("final.yaml", "rounds:\n  - planets: [{turns: [1, 2, 3], end: high}]\n"
                      "    fleets: {Ana: {speed: 1, attack: 1, cargo: 1}, Ben: {speed: 1, attack: 1, cargo: 1}}\n")
    r = cli("score", "mine_all_mine", path)
    assert r.code == 1
    assert "end is for a planet card (card: N, side: …); turns: already gives the resources" in r.err
