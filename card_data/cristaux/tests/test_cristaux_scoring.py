"""Cristaux scoring: the choices and forge placements of the hand-worked vectors
(scoring_vectors.yaml; their sheets go through tests/test_scoring_vectors.py), the rules' own
tables (Calice, medallion shares) and the text and JSON reports."""

from __future__ import annotations

from fractions import Fraction

import pytest
import yaml
from vectors_support import scored, vector

from cardforge.testing import rules_module

_cristaux_points = rules_module("cristaux", "points")
calice_points = _cristaux_points.calice_points
medallion = _cristaux_points.medallion


WITH_DETAILS = [v for v in scored("cristaux") if "details" in v]


def _score(cli, write_yaml, state: dict, name: str = "final.yaml"):
    path = write_yaml(name, yaml.safe_dump(state, allow_unicode=True, sort_keys=False))
    r = cli("score", "cristaux", path, "--json")
    assert r.code == 0, r.err
    return r.json


@pytest.mark.parametrize("case", WITH_DETAILS, ids=[c["id"] for c in WITH_DETAILS])
def test_choices_and_placement_of_a_vector(cli, write_yaml, case):
    # the choices cardforge must make (card → nature / option / music / bonus) and the forge
    # placement, as the vector's details: give them
    out = _score(cli, write_yaml, case["state"])
    details = {p["name"]: p for p in out["details"]["players"]}
    for name, wanted in case["details"].get("choices", {}).items():
        made = {c["card"]: c for c in details[name]["choices"]}
        for card, fields in wanted.items():
            for key, value in fields.items():
                assert made[card][key] == value, f"{name} {card} {key}: got {made[card][key]}"
    for name, placed in case["details"].get("placed", {}).items():
        assert details[name]["forge"]["placed"] == placed


# --- the rulebook's tables ---------------------------------------------------------------------

@pytest.mark.parametrize("paid, points", [
    # «1 cristal payé -> … 2 points, 2 payé -> 4 pts, 3 payé -> 7 pts, 4 payé -> 9 pts,
    # 5 payé -> 12 pts, 6 payé -> 14 pts, (puis de +2 en +2)»: 7 → 16, 8 → 18, 10 → 22.
    (0, 0), (1, 2), (2, 4), (3, 7), (4, 9), (5, 12), (6, 14), (7, 16), (8, 18), (10, 22),
])
def test_calice_table(paid, points):
    assert calice_points(paid) == points


# the Calice through the sheet: the calice-paid-N vectors of scoring_vectors.yaml


def test_medallion_shares_are_fractions():
    # 6 among 4 tied leaders = 1.5 each; 12 among 5 = 12/5; no lead bonus on a tie.
    m = medallion("green", {"A": 2, "B": 2, "C": 2, "D": 2})
    assert m.leaders == ("A", "B", "C", "D") and m.lead is None
    assert m.points == {n: Fraction(3, 2) for n in "ABCD"}
    m = medallion("polychrome", {n: 1 for n in "ABCDE"})
    assert m.points == {n: Fraction(12, 5) for n in "ABCDE"}


def test_medallion_lead_is_over_the_second():
    # red 5, 3, 1: lead 2 over the second (not 4 over the last): 6 + 2×2 = 10.
    m = medallion("red", {"A": 5, "B": 3, "C": 1})
    assert (m.leaders, m.lead, m.points) == (("A",), 2, {"A": 10})
    # polychrome 7 vs 4: 12 + 3 = 15.
    assert medallion("polychrome", {"A": 7, "B": 4}).points == {"A": 15}


def test_medallion_nobody_with_a_logo_is_not_awarded():
    m = medallion("polychrome", {"A": 0, "B": 0})
    assert m.leaders == () and m.points == {}


# --- reports -------------------------------------------------------------------------------------

def _case(case_id: str) -> dict:
    return vector("cristaux", case_id)


def test_text_report_explains_medallions_and_cards(cli, write_yaml):
    path = write_yaml("final.yaml", yaml.safe_dump(_case("medallions-rulebook-example")["state"],
                                                    allow_unicode=True))
    r = cli("score", "cristaux", path)
    assert r.code == 0, r.err
    assert "red: Odurf 3, Gurts 4 — Gurts leads by 1: 6 + 2×1 = 8" in r.out
    assert "blue: Odurf 2, Gurts 2 — tie between Odurf and Gurts: the base points are shared, 3 each" in r.out
    assert "polychrome: Odurf 5, Gurts 4 — Odurf leads by 1: 12 + 1×1 = 13" in r.out


def test_text_report_lists_choices_and_card_points(cli, write_yaml):
    path = write_yaml("final.yaml", yaml.safe_dump(_case("full-game-avance-2-players")["state"],
                                                    allow_unicode=True))
    r = cli("score", "cristaux", path)
    assert r.code == 0, r.err
    # issue 18: «best» says by how much; a choice that changes nothing says so
    assert "choice: orgue-royal as nature green (best, 2 more than the next)" in r.out
    assert "choice: baton-de-la-terre option 1 (tambour, best, 2 more than the next), frieze ♯ (best)" in r.out
    assert "choice: parure-du-roi-sous-la-montagne as nature red (no difference)" in r.out
    assert "calice-ardent (Calice ardent): religion 12 (5 red paid)" in r.out
    assert "orgue-royal (Orgue royal): musiciens 48 (♬ × ♯ × ♪ = 4 × 3 × 4)" in r.out
    assert "flute-de-cristal (Flûte de cristal): musiciens 0 (musicians count once, on orgue-royal)" in r.out


def test_json_details_hold_medallions_and_card_points(cli, write_yaml):
    out = _score(cli, write_yaml, _case("medallions-four-way-tie")["state"])
    green = next(m for m in out["details"]["medallions"] if m["medallion"] == "green")
    assert green == {"medallion": "green", "counts": {"Ana": 1, "Bea": 1, "Cid": 1, "Dan": 1},
                     "leaders": ["Ana", "Bea", "Cid", "Dan"], "lead": None,
                     "points": {"Ana": 1.5, "Bea": 1.5, "Cid": 1.5, "Dan": 1.5}}
    out = _score(cli, write_yaml, _case("religion-and-socle")["state"])
    cards = {c["card"]: c for c in out["details"]["players"][0]["cards"]}
    assert cards["autel-du-feu"] == {"card": "autel-du-feu", "name": "Autel du feu", "category": "religion",
                                     "points": 22, "why": "top 5 red costs 3+3+3+1+1 = 11 × 2"}


def test_scores_do_not_depend_on_player_order(cli, write_yaml):
    state = _case("full-game-classique-3-players")["state"]
    forward = _score(cli, write_yaml, state, "a.yaml")
    backward = _score(cli, write_yaml, {**state, "players": list(reversed(state["players"]))}, "b.yaml")
    totals = {p["name"]: (p["total"], p["rank"]) for p in forward["players"]}
    assert {p["name"]: (p["total"], p["rank"]) for p in backward["players"]} == totals


def test_a_pinned_choice_says_what_it_cost_and_medallions_name_their_cards(cli, write_yaml):
    # the same game with Dana's Orgue pinned red: the Monument de la terre counts 1 green card
    # fewer (2 points each): 2 points less than the best choice (green)
    state = _case("full-game-avance-2-players")["state"]
    dana = {**state["players"][0], "choices": {"natures": {"orgue-royal": "red"}}}
    path = write_yaml("final.yaml", yaml.safe_dump({**state, "players": [dana, state["players"][1]]},
                                                    allow_unicode=True))
    r = cli("score", "cristaux", path)
    assert r.code == 0, r.err
    assert "choice: orgue-royal as nature red (given; the best choice would score 2 more)" in r.out
    # Dana's red count 4: the ♚, the Orgue's multicolour logo, the Tambour and the Calice
    assert "    Dana: ♚ 1 + orgue-royal 1 + tambour-de-guerre 1 + calice-ardent 1" in r.out
