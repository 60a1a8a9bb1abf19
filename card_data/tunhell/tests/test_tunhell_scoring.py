"""TunHell scoring: the trophies and report lines of the hand-computed vectors
(scoring_vectors.yaml; their sheets go through tests/test_scoring_vectors.py) and every rejection
of issue 6."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from vectors_support import scored, vector

from cardforge.data.loading import load_game_data
from cardforge.engine.scoring import score_state
from cardforge.errors import ScoreInputError
from cardforge.games import find_game
from cardforge.testing import rules_module

_tunhell_scoring = rules_module("tunhell", "scoring")
FinalState = _tunhell_scoring.FinalState

CASES = scored("tunhell")
GAME = find_game("tunhell")


@pytest.fixture(scope="module")
def data():
    return load_game_data(GAME)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_trophies_of_a_vector(cli, write_yaml, case):
    # who holds each trophy: the score JSON's details (none in an initiation game)
    path = write_yaml("final.yaml", yaml.safe_dump(case["state"], allow_unicode=True))
    r = cli("score", "tunhell", path, "--json")
    assert r.code == 0, r.err
    out = r.json
    assert out["categories"] == ["loot", "trophies", "rings", "back_door"]
    trophies = case["details"]["trophies"]
    assert out.get("details") == (None if trophies is None else {"trophies": trophies})


def test_text_output_reports_the_trophies(cli, write_yaml):
    issue_example = vector("tunhell", "the-issue-s-example-with-a-tie-on-terre-settled-by-ana")["state"]
    r = cli("score", "tunhell", write_yaml("final.yaml", yaml.safe_dump(issue_example)))
    assert r.code == 0, r.err
    assert "Vainqueur\u202f: Ana" in r.out  # the game's language
    assert "Employé du mois (1 VP): Ana, tied with Ben on 5 Terre cards (named in trophies:)" in r.out
    assert "Dératiseur (2 VP): Ben, most Rat cards (3)" in r.out


def test_a_shared_win_says_there_is_no_tie_breaker(cli, write_yaml):
    four_players = vector("tunhell", "a-full-game-for-4-with-three-winners-sharing-the-rank")["state"]
    r = cli("score", "tunhell", write_yaml("final.yaml", yaml.safe_dump(four_players)))
    assert r.code == 0, r.err
    assert "Vainqueurs\u202f: Ana et Ben et Cleo (shared: no tie-breaker)" in r.out


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(CASES), data_order=st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_player_order(case, data_order):
    data = load_game_data(GAME)
    players = list(case["state"]["players"])
    data_order.shuffle(players)
    state = FinalState.model_validate({**case["state"], "players": players})
    sheet = score_state(GAME, data, state)
    for p in sheet.players:
        want = case["expect"][p.name]
        assert (p.total, p.rank) == (want["total"], want["rank"])


# --- rejections (exit 1, every problem listed) --------------------------------------------

# the rejections with every problem listed are vectors of scoring_vectors.yaml (the one runner);
# here, those checked another way


def test_every_problem_is_collected(cli, write_yaml):
    # one file breaking six rules at once (the ring twice, seven unknown ids): all 12 problems
    # are listed, in one run
    path = write_yaml("final.yaml", _dedent("""
        mode: initiation
        partial: true
        players:
          - {name: Ana, loot: {rat: 8, anneau-unique: 1}, back_door: true}
          - {name: Ben, hand: [a, b, c, d, e, f, g]}
        """))
    r = cli("score", "tunhell", path)
    assert r.code == 1
    assert "cannot score" in r.err and "(12 problems):" in r.err, r.err
    for text in ("8 'rat' cards across all players (Ana 8), the deck holds 7",
                 "loot.anneau-unique: 'anneau-unique' (L'Anneau unique) joins the hand",
                 "loot.anneau-unique: 'anneau-unique' (L'Anneau unique) is a full-game card (+)",
                 "back_door: the back door is an end-of-mine card, not used in initiation",
                 "hand: unknown card 'g'",
                 "hand: 7 cards in hand, the hand limit is 6"):
        assert text in r.err


def test_file_errors_name_the_line_player_and_field(cli, write_yaml):
    path = write_yaml("final.yaml", _dedent("""
        mode: advanced
        players:
          - name: Ana
            loot: {terre: -1}
            colour: red
          - name: Ben
            back_door: maybe
        """))
    r = cli("score", "tunhell", path)
    assert r.code == 1
    assert f"{path}:1: mode: must be one of 'full' or 'initiation', got 'advanced'" in r.err
    assert f"{path}:4: player 'Ana' (#1): loot.terre: must be ≥ 0, got -1" in r.err
    assert (f"{path}:5: player 'Ana' (#1): colour: unknown field "
            "(allowed: name, loot, hand, back_door, trophies)") in r.err
    assert f"{path}:7: player 'Ben' (#2): back_door: must be true or false, got 'maybe'" in r.err


def test_rejections_never_reach_scoring(data):
    state = FinalState.model_validate({"players": [{"name": "Ana", "loot": {"rat": 8}}, {"name": "Ben"}]})
    with pytest.raises(ScoreInputError) as exc:
        score_state(GAME, data, state)
    assert len(exc.value.problems) == 1


def _dedent(text: str) -> str:
    import textwrap

    return textwrap.dedent(text).lstrip("\n")


# --- issue 18: the mode, and a game that has ended -----------------------------------------

def test_a_shortened_initiation_game_needs_fewer_cards(cli, write_yaml):
    # short: 6 → (42 − 6) / 3 = 12 a pile: 22 cards is still short of 24; short: 9 → 11 a pile: 22 is enough
    text = ("players:\n  - {name: Ana, loot: {terre: 6, tresor: 2}}\n"
            "  - {name: Ben, loot: {terre: 6, tresor: 5, rat: 2, orc: 1}}\nmode: initiation\n")
    r = cli("score", "tunhell", write_yaml("a.yaml", text + "short: 6\n"))
    assert r.code == 1 and "(12 cards each after removing 6 more) are empty, their cards all in the loots: at least 24" in r.err
    r = cli("score", "tunhell", write_yaml("b.yaml", text + "short: 9\n"))
    assert r.code == 0, r.err


def test_a_mode_made_certain_by_the_cards_is_printed(cli, write_yaml):
    path = write_yaml("final.yaml", _dedent("""
        players:
          - {name: Ana, loot: {terre: 3, salle-du-trone: 1}}
          - {name: Ben, loot: {rat: 2}, back_door: true}
        """))
    r = cli("score", "tunhell", path)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == "TunHell — score (mode full)"
    assert "Mode: full, not given but certain: Ana holds La Salle du trône, an end-of-mine card." in r.out


def test_a_partial_game_is_marked(cli, write_yaml):
    path = write_yaml("final.yaml", "mode: full\npartial: true\nplayers:\n  - {name: Ana, loot: {orc: 1}}\n"
                      "  - {name: Ben}\n")
    r = cli("score", "tunhell", path)
    assert r.code == 0, r.err
    assert r.out.splitlines()[0] == "TunHell — score (mode full) — partie incomplète"
    assert cli("score", "tunhell", path, "--json").json["partial"] is True
