"""TunHell scoring: the trophies and report lines of the hand-computed vectors
(scoring_vectors.yaml; their sheets go through tests/test_scoring_vectors.py) and every rejection
of issue 6."""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from vectors_support import scored, vector

from cardforge.data.loading import load_game_data
from cardforge.engine.scoring import score_state
from cardforge.errors import ScoreInputError
from cardforge.games import find_game
from cardforge.games.tunhell.scoring import FinalState

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
    assert "Winner: Ana" in r.out
    assert "Employé du mois (1 VP): Ana, tied with Ben on 5 Terre cards (named in trophies:)" in r.out
    assert "Dératiseur (2 VP): Ben, most Rat cards (3)" in r.out


def test_a_shared_win_says_there_is_no_tie_breaker(cli, write_yaml):
    four_players = vector("tunhell", "a-full-game-for-4-with-three-winners-sharing-the-rank")["state"]
    r = cli("score", "tunhell", write_yaml("final.yaml", yaml.safe_dump(four_players)))
    assert r.code == 0, r.err
    assert "Winners: Ana and Ben and Cleo (shared: no tie-breaker)" in r.out


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

REJECTIONS = [
    pytest.param(
        """
        players:
          - {name: Ana, loot: {rat: 5}}
          - {name: Ben, loot: {rat: 3}}
        """,
        ["8 'rat' cards across all players (Ana 5, Ben 3), the deck holds 7"],
        id="more-copies-than-the-deck"),
    pytest.param(
        """
        players:
          - {name: Ana, hand: [anneau-unique]}
          - {name: Ben, hand: [anneau-unique]}
          - {name: Cleo, hand: [anneau-unique]}
        """,
        ["3 'anneau-unique' cards across all players (Ana 1, Ben 1, Cleo 1), the deck holds 2"],
        id="copies-count-hands-too"),
    pytest.param(
        """
        mode: initiation
        players:
          - {name: Ana, loot: {coeur-d-or: 1}, hand: [nawak]}
          - {name: Ben}
        """,
        ["player 'Ana' (#1): loot.coeur-d-or: 'coeur-d-or' (Le Cœur d'or) is a full-game card (+), "
         "not used in initiation",
         "player 'Ana' (#1): hand: 'nawak' (Nawak, l'épée de bravoure) is a full-game card (+), "
         "not used in initiation"],
        id="plus-cards-in-initiation"),
    pytest.param(
        """
        mode: initiation
        players:
          - {name: Ana, trophies: [employe-du-mois]}
          - {name: Ben, loot: {salle-du-trone: 1}, back_door: true}
        """,
        ["player 'Ana' (#1): trophies: trophies are not used in initiation",
         "player 'Ben' (#2): loot.salle-du-trone: 'salle-du-trone' (La Salle du trône) is an "
         "end-of-mine card, not used in initiation",
         "player 'Ben' (#2): back_door: the back door is an end-of-mine card, not used in initiation"],
        id="trophies-end-of-mine-and-back-door-in-initiation"),
    pytest.param(
        """
        players:
          - {name: Ana, loot: {salle-du-trone: 1, grosse-araignee-poilue: 1}}
          - {name: Ben, loot: {demon-des-profondeurs: 1}, back_door: true}
        """,
        ["4 end-of-mine cards found, a full game uses only 3 (one of the 4 is removed at setup)"],
        id="more-than-three-end-of-mine-cards"),
    pytest.param(
        """
        players:
          - {name: Ana, loot: {salle-du-trone: 1}, back_door: true}
          - {name: Ben, loot: {salle-du-trone: 1}, back_door: true}
        """,
        ["'salle-du-trone' (La Salle du trône) found 2 times (Ana, Ben), each end-of-mine card exists once",
         "'porte-de-derriere' (La Porte de derrière) found 2 times (Ana, Ben), each end-of-mine card "
         "exists once",
         "4 end-of-mine cards found, a full game uses only 3 (one of the 4 is removed at setup)"],
        id="end-of-mine-cards-found-twice"),
    pytest.param(
        """
        players:
          - {name: Ana, loot: {demon-des-profondeurs: 2}}
          - {name: Ben}
        """,
        ["'demon-des-profondeurs' (Le Démon des profondeurs) found 2 times (Ana 2), each end-of-mine "
         "card exists once"],
        id="end-of-mine-card-twice-in-one-loot"),
    pytest.param(
        """
        players:
          - name: Ana
            hand: [anneau-unique, guerrier-1, guerrier-2, piocheur-1-2, dynamiteur, eclaireur-3, nawak]
          - {name: Ben}
        """,
        ["player 'Ana' (#1): hand: 7 cards in hand, the hand limit is 6"],
        id="hand-over-six"),
    pytest.param(
        """
        players:
          - {name: Ana, loot: {anneau-unique: 1}}
          - {name: Ben}
        """,
        ["player 'Ana' (#1): loot.anneau-unique: 'anneau-unique' (L'Anneau unique) joins the hand, "
         "never the loot: list it under hand:"],
        id="ring-in-the-loot"),
    pytest.param(
        """
        players:
          - {name: Ana, loot: {dragonn: 1}, hand: [guerier-1], trophies: [employe]}
          - {name: Ben}
        """,
        ["player 'Ana' (#1): loot.dragonn: unknown card 'dragonn'; did you mean 'dragon'?",
         "player 'Ana' (#1): hand: unknown card 'guerier-1'; did you mean 'guerrier-1'?",
         "player 'Ana' (#1): trophies: 'employe' is not a trophy (trophies: employe-du-mois, deratiseur)"],
        id="unknown-ids"),
    pytest.param(
        """
        players:
          - {name: Ana, loot: {porte-de-derriere: 1, fantome-de-grodur: 1, guerrier-3: 1, deratiseur: 1}}
          - {name: Ben, hand: [terre, salle-du-trone]}
        """,
        ["player 'Ana' (#1): loot.porte-de-derriere: 'porte-de-derriere' (La Porte de derrière) is set "
         "before a mine, not in the loot: write back_door: true",
         "player 'Ana' (#1): loot.fantome-de-grodur: 'fantome-de-grodur' (Le Fantôme de Grödur) is "
         "discarded once drawn, it never reaches the loot",
         "player 'Ana' (#1): loot.guerrier-3: 'guerrier-3' is a dwarf, not loot",
         "player 'Ana' (#1): loot.deratiseur: 'deratiseur' is a trophy, not loot (name it under "
         "trophies: only to settle a tie)",
         "player 'Ben' (#2): hand: 'terre' (Terre) never joins a hand (only dwarves and the finds "
         "marked for the hand do)",
         "player 'Ben' (#2): hand: 'salle-du-trone' (La Salle du trône) never joins a hand (only "
         "dwarves and the finds marked for the hand do)"],
        id="cards-in-the-wrong-place"),
    pytest.param(
        """
        players:
          - {name: Ana, loot: {terre: 5, rat: 2}}
          - {name: Ben, loot: {terre: 5, rat: 2}}
        """,
        ["trophies: Ana and Ben are tied for Employé du mois (5 Terre cards each) and none of them names it: "
         "write employe-du-mois under trophies: of the one who holds it (the last to reach 5)",
         "trophies: Ana and Ben are tied for Dératiseur (2 Rat cards each) and none of them names it: "
         "write deratiseur under trophies: of the one who holds it (the last to reach 2)"],
        id="tie-for-a-trophy-nobody-names"),
    pytest.param(
        """
        players:
          - {name: Ana, loot: {terre: 5}}
          - {name: Ben, loot: {terre: 5}}
          - {name: Cleo, loot: {terre: 2}, trophies: [employe-du-mois]}
        """,
        ["trophies: Cleo names Employé du mois in trophies:, but Ana and Ben are tied for the lead in "
         "Terre cards (5 each)",
         "trophies: Ana and Ben are tied for Employé du mois (5 Terre cards each) and none of them names it: "
         "write employe-du-mois under trophies: of the one who holds it (the last to reach 5)"],
        id="tie-for-a-trophy-a-non-leader-names"),
    pytest.param(
        """
        players:
          - {name: Ana, loot: {rat: 3}, trophies: [deratiseur]}
          - {name: Ben, loot: {rat: 3}, trophies: [deratiseur]}
        """,
        ["trophies: Ana and Ben are tied for Dératiseur (3 Rat cards each) and Ana and Ben both name it: "
         "write deratiseur under trophies: of the one who holds it (the last to reach 3)"],
        id="tie-for-a-trophy-both-name"),
    pytest.param(
        """
        players:
          - {name: Ana, loot: {rat: 3}}
          - {name: Ben, loot: {rat: 1, terre: 0}, trophies: [deratiseur, employe-du-mois]}
        """,
        ["trophies: Ben names Employé du mois in trophies:, but nobody has a Terre card, so nobody "
         "holds it",
         "trophies: Ben names Dératiseur in trophies:, but Ana leads in Rat cards (3 against 1) "
         "and holds it"],
        id="trophy-named-against-a-strict-leader"),
    pytest.param(
        """
        players:
          - {name: Ana}
        """,
        ["players: 1 given, tunhell supports 2–4"],
        id="one-player"),
    pytest.param(
        """
        players:
          - {name: Ana}
          - {name: Ana}
        """,
        ["player 'Ana' (#2): name: duplicate name (also player #1); each player needs their own name"],
        id="same-name-twice"),
    pytest.param(
        """
        mode: initiation
        players:
          - {name: Ana, loot: {terre: 18, tresor: 10}}
          - {name: Ben, loot: {rat: 7, gobelin: 4, orc: 4}}
        """,
        ["the players hold 43 mine cards, but an initiation game puts only 42 into the piles "
         "(49 minus 7 removed)"],
        id="more-mine-cards-than-the-piles-held"),
]


@pytest.mark.parametrize(("text", "messages"), REJECTIONS)
def test_rejection(cli, write_yaml, text, messages):
    # each case breaks the rules it names; the mode (full unless given) and a game that has not
    # ended (partial: true) are rejections of their own, tested with test_end_state_rejection
    text = _dedent(text)
    text = ("" if "mode:" in text else "mode: full\n") + ("" if "partial:" in text else "partial: true\n") + text
    path = write_yaml("final.yaml", text)
    r = cli("score", "tunhell", path)
    assert r.code == 1, r.out
    listed = [line.removeprefix("  - ") for line in r.err.splitlines() if line.startswith("  - ")]
    # a problem that names a player or field gives its line: FILE:LINE
    assert all(re.match(rf"{re.escape(str(path))}:\d+: ", line) for line in listed
               if "player '" in line or "players:" in line), listed
    assert [re.sub(rf"^{re.escape(str(path))}(:\d+)?: ", "", line) for line in listed] == messages


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

@pytest.mark.parametrize(("text", "messages"), [
    pytest.param(
        """
        players:
          - {name: Ana, loot: {terre: 6, tresor: 2, rat: 4, gobelin: 1, troll: 1}}
          - {name: Ben, loot: {terre: 6, tresor: 5, rat: 2, orc: 1}}
        """,
        ["mode: missing: write mode: full or mode: initiation (nothing in the loots and hands tells which "
         "rules were played, and they score differently: trophies only in a full game)"],
        id="mode-missing"),
    pytest.param(
        """
        mode: full
        players:
          - {name: Ana, loot: {terre: 3, salle-du-trone: 1}}
          - {name: Ben, loot: {rat: 2}}
        """,
        ["players: a full game ends when 2 of the 3 mines are empty, each emptied on its end-of-mine card, "
         "so at least 2 end-of-mine cards are with the players; found: only La Salle du trône (Ana) "
         "(la Porte de derrière counts through back_door:); write partial: true to score a game before "
         "its end"],
        id="full-game-one-end-of-mine-card"),
    pytest.param(
        """
        mode: initiation
        players:
          - {name: Ana, loot: {terre: 6, tresor: 2}}
          - {name: Ben, loot: {terre: 6, tresor: 5, rat: 2, orc: 1}}
        """,
        ["players: the loots hold 22 mine cards, but an initiation game ends only when 2 of the 3 piles "
         "(14 cards each) are empty, their cards all in the loots: at least 28 (short: 3, 6 or 9 for a "
         "shorter game); write partial: true to score a game before its end"],
        id="initiation-loots-short-of-two-piles"),
])
def test_end_state_rejection(cli, write_yaml, text, messages):
    path = write_yaml("final.yaml", _dedent(text))
    r = cli("score", "tunhell", path)
    assert r.code == 1, r.out
    listed = [line.removeprefix("  - ") for line in r.err.splitlines() if line.startswith("  - ")]
    assert [re.sub(rf"^{re.escape(str(path))}(:\d+)?: ", "", line) for line in listed] == messages


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
