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
    assert "Winner: Aurore" in r.out
    assert "Coins score nothing; they only break ties: Aurore 7, Bruno 20." in r.out


def test_issue_example_reports_the_cart_count(cli, write_yaml):
    r = _score(cli, write_yaml, vector("imperial_miners", "issue-example-mine-and-token")["state"])
    assert r.code == 0
    # Chloé: 2 printed + 1 token = 3 complete, 1 incomplete left (see scoring_vectors.yaml).
    assert ("Chloé: 3 complete carts from the mine (2 printed + 1 completed by tokens); "
            "1 incomplete cart left, worth nothing.") in r.out
    assert "Aurore: 8 complete carts (as given)." in r.out


@pytest.mark.parametrize("vp, carts, total, grade", [
    (0, 0, 0, "Jeune pioche"),                    # 0 + 0 = 0 < 35
    (30, 4, 34, "Jeune pioche"),                  # 30 + 4 = 34 < 35
    (31, 4, 35, "Responsable des sous-sols"),     # 31 + 4 = 35, first of 35–45
    (41, 4, 45, "Responsable des sous-sols"),     # 41 + 4 = 45, last of 35–45
    (42, 4, 46, "Spécialiste des mines"),         # 42 + 4 = 46, first of 46–55
    (51, 4, 55, "Spécialiste des mines"),         # 51 + 4 = 55, last of 46–55
    (52, 4, 56, "Pro des tunnels"),               # 52 + 4 = 56, first of 56–60
    (56, 4, 60, "Pro des tunnels"),               # 56 + 4 = 60, last of 56–60
    (57, 4, 61, "Géologue des abîmes"),           # 57 + 4 = 61, first of 61–65
    (61, 4, 65, "Géologue des abîmes"),           # 61 + 4 = 65, last of 61–65
    (62, 4, 66, "Monarque des profondeurs"),      # 62 + 4 = 66 > 65
    (150, 20, 170, "Monarque des profondeurs"),   # 150 + 20 = 170 > 65
])
def test_solo_grade_boundaries(cli, write_yaml, vp, carts, total, grade):
    state = {"players": [{"name": "Solène", "vp": vp, "coins": 0, "carts": carts}]}
    r = _score(cli, write_yaml, state, "--json")
    assert r.code == 0, r.err
    player = r.json["players"][0]
    assert (player["total"], player["rank"], player["grade"]) == (total, 1, grade)
    text = _score(cli, write_yaml, state).out
    assert f"Solo grade: {grade} (" in text and f"with {total} points." in text


def test_solo_grade_line_shows_the_range(cli, write_yaml):
    # 39 + 0 = 39 → 35–45; 50 + 20 = 70 → >65; 20 + 0 = 20 → <35.
    for vp, carts, line in [(39, 0, "Solo grade: Responsable des sous-sols (35–45 points) with 39 points."),
                            (50, 20, "Solo grade: Monarque des profondeurs (>65 points) with 70 points."),
                            (20, 0, "Solo grade: Jeune pioche (<35 points) with 20 points.")]:
        r = _score(cli, write_yaml, {"players": [{"name": "S", "vp": vp, "coins": 1, "carts": carts}]})
        assert line in r.out.splitlines()
        assert "Coins score nothing" not in r.out  # no tie to break alone


# --- rejections: exit 1, every problem listed, located by player and field -------------------

MINE = """\
    mine:
      - [{carts: R}, {carts: L}, {carts: R}, {carts: LR}]
      - [{carts: R}, {carts: ""}, {carts: L}, null, {carts: L}]
"""


@pytest.mark.parametrize("tokens, message", [
    ("[[0, 1]]", "cart_tokens[0]: row 0, junction 1: nothing is printed there (neither card has a "
                 "half-cart on that edge); a token only completes an incomplete cart"),
    ("[[0, 0]]", "cart_tokens[0]: row 0, junction 0: the cart there is already complete (two halves "
                 "printed); a token only completes an incomplete cart"),
    ("[[0, 3]]", "cart_tokens[0]: row 0, junction 3: no such junction (row 0 has 4 slot(s): junctions 0–2)"),
    ("[[1, 2]]", "cart_tokens[0]: row 1, junction 2: no junction next to an empty slot (slot 3 is empty)"),
    ("[[1, 3]]", "cart_tokens[0]: row 1, junction 3: no junction next to an empty slot (slot 3 is empty)"),
    ("[[2, 0]]", "cart_tokens[0]: row 2, junction 0: no such row (the mine has rows 0–1)"),
    ("[[1, 0], [1, 0]]", "cart_tokens[1]: row 1, junction 0: two tokens on one junction (first at "
                         "cart_tokens[0])"),
])
def test_token_rejections(cli, write_yaml, tokens, message):
    text = f"players:\n  - name: Chloé\n    vp: 30\n    coins: 7\n{MINE}    cart_tokens: {tokens}\n"
    r = _score(cli, write_yaml, text)
    assert r.code == 1
    assert f"player 'Chloé' (#1): {message}" in r.err
    assert "(1 problem)" in r.err
    assert "Traceback" not in r.err


def test_token_on_a_row_end_half_is_rejected(cli, write_yaml):
    # [LR] alone: both halves on the row's outer edges, no junction at all.
    text = "players:\n  - {name: A, vp: 1, coins: 0, mine: [[{carts: LR}]], cart_tokens: [[0, 0]]}\n"
    r = _score(cli, write_yaml, text)
    assert r.code == 1
    assert "cart_tokens[0]: row 0, junction 0: no such junction (row 0 has 1 slot(s): no junction)" in r.err


def test_carts_and_mine_disagreeing(cli, write_yaml):
    # The mine shows 2 printed + 1 token = 3 complete carts; carts says 8.
    text = f"players:\n  - name: Chloé\n    vp: 30\n    coins: 7\n    carts: 8\n{MINE}    cart_tokens: [[1, 0]]\n"
    r = _score(cli, write_yaml, text)
    assert r.code == 1
    assert ("player 'Chloé' (#1): carts: says 8 complete carts but the mine shows 3 (2 printed + 1 "
            "completed by tokens); give one of them, or make them agree") in r.err


def test_negative_numbers_are_located(cli, write_yaml):
    text = ("players:\n"
            "  - {name: A, vp: -1, coins: -2, carts: -3}\n"
            "  - {name: B, vp: 1, coins: 0, mine: [[{carts: R}, {carts: ''}]], cart_tokens: [[0, -1]]}\n")
    r = _score(cli, write_yaml, text)
    assert r.code == 1
    assert "final.yaml:2: player 'A' (#1): vp: must be ≥ 0, got -1" in r.err
    assert "final.yaml:2: player 'A' (#1): coins: must be ≥ 0, got -2" in r.err
    assert "final.yaml:2: player 'A' (#1): carts: must be ≥ 0, got -3" in r.err
    assert "final.yaml:3: player 'B' (#2): cart_tokens[0][1]: must be ≥ 0, got -1" in r.err
    assert "(4 problems)" in r.err


@pytest.mark.parametrize("count", [0, 6])
def test_player_count(cli, write_yaml, count):
    players = [{"name": f"P{i}", "vp": 1, "coins": 0, "carts": 0} for i in range(count)]
    r = _score(cli, write_yaml, {"players": players})
    assert r.code == 1
    assert f"players: {count} given, imperial_miners supports 1–5" in r.err


def test_every_problem_is_collected(cli, write_yaml):
    text = ("players:\n"
            "  - {name: A, vp: 1, coins: 0}\n"
            "  - {name: A, vp: 2, coins: 0, carts: 1, cart_tokens: [[0, 0]]}\n"
            "  - name: C\n    vp: 0\n    coins: 0\n"
            "    mine: [[{carts: R}, {carts: L}], [], [], [], [{carts: ''}]]\n"
            "    cart_tokens: [[0, 0], [9, 9]]\n")
    r = _score(cli, write_yaml, text)
    assert r.code == 1
    expected = [
        "player 'A' (#1): carts: required: give carts (the number of complete carts) or mine (its layout)",
        "player 'A' (#2): name: duplicate name (also player #1); each player needs their own name",
        "player 'A' (#2): cart_tokens: tokens are placed on a mine: give mine, or count the carts they "
        "complete in carts",
        "player 'C' (#3): mine: 5 rows given, a mine has at most 4 (one per level I, II, III, IV)",
        "player 'C' (#3): cart_tokens[0]: row 0, junction 0: the cart there is already complete",
        "player 'C' (#3): cart_tokens[1]: row 9, junction 9: no such row (the mine has rows 0–4)",
    ]
    for line in expected:
        assert line in r.err
    assert "(6 problems)" in r.err


def test_malformed_mine_and_tokens(cli, write_yaml):
    text = ("players:\n"
            "  - name: A\n    vp: 1\n    coins: 0\n"
            "    mine: [[{carts: RL}, {cart: L}]]\n"
            "    cart_tokens: [[1], 5]\n")
    r = _score(cli, write_yaml, text)
    assert r.code == 1
    assert "player 'A' (#1): mine[0][0].carts: must be one of 'L', 'R', 'LR' or '', got 'RL'" in r.err
    assert "player 'A' (#1): mine[0][1].cart: unknown field (allowed: carts); did you mean 'carts'?" in r.err
    assert ("player 'A' (#1): cart_tokens[0]: must be [row, junction] (two whole numbers ≥ 0), got [1]"
            in r.err)
    assert "player 'A' (#1): cart_tokens[1]: must be [row, junction] (two whole numbers ≥ 0), got 5" in r.err


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
    assert "Winner" not in r.out and "Rang" not in r.out
    assert "Aurore: 39 — grade: Responsable des sous-sols" in r.out
