"""`cardforge score imperial_miners FILE`: the mine details and tie-break lines of the
hand-computed vectors (scoring_vectors.yaml; their sheets go through
tests/test_scoring_vectors.py), solo grades, rejections."""

from __future__ import annotations

import pytest
import yaml
from vectors_support import scored, vector

# the vectors with more to check than the sheet: the mine read junction by junction, the tie-break line
CASES = [v for v in scored("imperial_miners") if "details" in v or "tie_break" in v]


def _score(cli, write_yaml, state: dict | str, *flags: str):
    text = state if isinstance(state, str) else yaml.safe_dump(state, allow_unicode=True)
    return cli("score", "imperial_miners", write_yaml("final.yaml", text), *flags)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_mine_details_and_tie_break_of_a_vector(cli, write_yaml, case):
    r = _score(cli, write_yaml, case["state"], "--json")
    assert r.code == 0, r.err
    out = r.json
    assert out["categories"] == ["vp_tokens", "carts"]
    details = {d["name"]: d for d in out["details"]["players"]}
    for name, mine in case.get("details", {}).get("mine", {}).items():
        assert details[name]["mine"] == mine
    if "tie_break" in case:
        text = _score(cli, write_yaml, case["state"])
        assert f"({case['tie_break']})" in text.out


def test_rulebook_example_in_text(cli, write_yaml):
    # 31 VP tokens + 8 complete carts = 39; the 7 coins are listed only as a tie-breaker.
    r = _score(cli, write_yaml, vector("imperial_miners", "rulebook-example")["state"])
    assert r.code == 0
    lines = r.out.splitlines()
    assert lines[2].split() == ["Aurore", "Bruno"]
    assert lines[3].split() == ["Jetons", "PV", "31", "30"]  # the rows as on the printed pad
    assert lines[4].split() == ["Chariots", "complets", "8", "8"]
    assert lines[6].split() == ["Total", "39", "38"]
    assert lines[7].split() == ["Pièces", "(départage)", "7", "20"]
    assert lines[8].split() == ["Chariots", "(départage)", "8", "8"]
    assert lines[9].split() == ["Rang", "1", "2"]
    assert "Vainqueur\u202f: Aurore" in r.out  # the table speaks the game's language
    assert "Coins score nothing; they only break ties: Aurore 7, Bruno 20." in r.out


def test_issue_example_reports_the_cart_count(cli, write_yaml):
    r = _score(cli, write_yaml, vector("imperial_miners", "issue-example-mine-and-token")["state"])
    assert r.code == 0
    # Chloé: 2 printed + 1 token = 3 complete, 1 incomplete left (see scoring_vectors.yaml).
    assert ("Chloé: 3 complete carts from the mine (2 printed + 1 completed by tokens); "
            "1 incomplete cart left, worth nothing.") in r.out
    assert "Aurore: 8 complete carts (as given)." in r.out


SOLO = [v for v in scored("imperial_miners") if v["id"].startswith("solo-")]


@pytest.mark.parametrize("case", SOLO, ids=[c["id"] for c in SOLO])
def test_solo_grade_line(cli, write_yaml, case):
    # the solo vectors' grade and total (checked on the sheet by the runner), as the text says them
    [(name, want)] = case["expect"].items()
    text = _score(cli, write_yaml, case["state"]).out
    assert f"Solo grade: {want['grade']} (" in text and f"with {want['total']} points." in text


def test_solo_grade_line_shows_the_range(cli, write_yaml):
    # 39 + 0 = 39 → 35–45; 50 + 20 = 70 → >65; 20 + 0 = 20 → <35.
    for vp, carts, line in [(39, 0, "Solo grade: Responsable des sous-sols (35–45 points) with 39 points."),
                            (50, 20, "Solo grade: Monarque des profondeurs (>65 points) with 70 points."),
                            (20, 0, "Solo grade: Jeune pioche (<35 points) with 20 points.")]:
        r = _score(cli, write_yaml, {"players": [{"name": "S", "vp": vp, "coins": 1, "carts": carts}]})
        assert line in r.out.splitlines()
        assert "Coins score nothing" not in r.out  # no tie to break alone


# --- rejections: vectors of scoring_vectors.yaml, every problem line exact (the one runner) ---------

def test_each_junction_is_listed_so_a_typo_can_be_found(cli, write_yaml):
    # Row 0: R | L → complete; L | R → nothing printed at the junction; R | LR → complete.
    # Row 1: R | "" → a half, completed by the token at [1, 0]; "" | L → a half, no token;
    # then an empty slot: no junction beside it.
    path = write_yaml("final.yaml", """
players:
  - name: Chloé
    vp: 30
    coins: 7
    mine:
      - [{carts: R}, {carts: L}, {carts: R}, {carts: LR}]
      - [{carts: R}, {carts: ""}, {carts: L}, null, {carts: L}]
    cart_tokens: [[1, 0]]
  - {name: Aurore, vp: 31, coins: 7, carts: 8}
""")
    r = cli("score", "imperial_miners", path)
    assert r.code == 0, r.err
    assert "  row 0: j0 complete (R|L); j2 complete (R|L) — 2 complete\n" in r.out
    assert "  row 1: j0 half (R|·) + token; j1 half (·|L), no token — 1 complete\n" in r.out


def test_solo_shows_the_grade_not_a_winner(cli, write_yaml):
    # 31 VP tokens + 8 carts = 39: «Responsable des sous-sols» (35–45)
    path = write_yaml("final.yaml", "players:\n  - {name: Aurore, vp: 31, coins: 7, carts: 8}\n")
    r = cli("score", "imperial_miners", path)
    assert r.code == 0, r.err
    assert "Vainqueur" not in r.out and "Rang" not in r.out
    assert "Aurore\u202f: 39 — grade\u202f: Responsable des sous-sols" in r.out  # the game's language


def test_the_events_played_are_named_in_the_report_and_kept_in_the_details(cli, write_yaml):
    """Issue 30: the events played can be recorded; they score nothing, the report names them
    (by the data's names, in play order) and the JSON keeps their ids."""
    state = vector("imperial_miners", "issue-30-the-events-played-are-recorded")["state"]
    out = _score(cli, write_yaml, state, "--json").json
    assert out["details"]["events"] == ["evenement-03", "evenement-07", "evenement-11", "evenement-01",
                                        "evenement-18", "evenement-05", "evenement-09", "evenement-12",
                                        "evenement-14", "evenement-02"]
    assert [p["total"] for p in out["players"]] == [39, 38]  # as without them
    text = _score(cli, write_yaml, state).out
    line = next(x for x in text.splitlines() if x.startswith("Events played"))
    assert line.startswith("Events played (10 of the 10; they score nothing at the end): "
                           "Événement 3 (à recopier de la carte), Événement 7 (à recopier de la carte), ")
    # a file without events says nothing of them
    plain = {"players": state["players"]}
    assert "events" not in _score(cli, write_yaml, plain, "--json").json["details"]
    assert "Events" not in _score(cli, write_yaml, plain).out
