"""`cardforge setup imperial_miners`: counts, checklist, deal legality, --check."""

from __future__ import annotations

import json

import pytest
import yaml

from cardforge.data.loading import load_game_data
from cardforge.engine.setup import run_setup
from cardforge.games import find_game
from cardforge.testing import rules_module

_imperial_miners_setup_rules = rules_module("imperial_miners", "setup_rules")
DealFile = _imperial_miners_setup_rules.DealFile

GAME = find_game("imperial_miners")

# Rulebook « Mise en place »: 10 events; draw 2 I, 3 II, 3 III and keep 4 (first game: 2/2/2,
# keep all 6); hand limit 8; 10 rounds. The same for every player count, solo included.
NORMAL = {"events": 10, "draw": {"I": 2, "II": 3, "III": 3}, "keep": 4, "hand_limit": 8, "rounds": 10}
FIRST_GAME = {"events": 10, "draw": {"I": 2, "II": 2, "III": 2}, "keep": 6, "hand_limit": 8, "rounds": 10}


@pytest.fixture(scope="module")
def data():
    return load_game_data(GAME)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("first_game, counts", [(False, NORMAL), (True, FIRST_GAME)])
def test_counts(cli, players, first_game, counts):
    args = ["setup", "imperial_miners", "--players", players, "--seed", 1, "--json"]
    r = cli(*args, *(["--first-game"] if first_game else []))
    assert r.code == 0, r.err
    out = r.json
    assert set(out) == {"game", "player_count", "mode", "counts", "steps", "deal"}
    assert (out["game"], out["player_count"], out["mode"]) == ("imperial_miners", players, "standard")
    assert out["counts"] == counts
    assert len(out["deal"]["players"]) == players


def test_checklist_normal_game(cli):
    steps = cli("setup", "imperial_miners", "--players", 3, "--json").json["steps"]
    assert ("Mélangez les cartes Événement et piochez-en 10 pour former le paquet Événement, face "
            "cachée, à côté des cartes Mine. Rangez le reste dans la boîte.") in steps
    # 2 + 3 + 3 = 8 cards drawn, 4 kept
    assert ("Chaque joueur pioche 8 cartes Mine (2 cartes I, 3 cartes II et 3 cartes III), en conserve 4 "
            "et défausse le reste.") in steps
    assert any(s.startswith("Limite de main : 8 cartes. La partie dure 10 manches") for s in steps)
    assert not any("solo" in s for s in steps)


def test_checklist_first_game_solo(cli):
    steps = cli("setup", "imperial_miners", "--players", 1, "--first-game", "--json").json["steps"]
    # 2 + 2 + 2 = 6 cards drawn, all kept
    assert ("Première partie : piochez 6 cartes Mine (2 cartes I, 2 cartes II et 2 cartes III) et "
            "conservez-les toutes.") in steps
    assert steps[-1] == "Mode solo : mêmes règles ; comparez votre score final au tableau des grades."
    assert any(s.startswith("Prenez le marqueur Progrès et le plateau Surface de la couleur de votre choix")
               for s in steps)


@pytest.mark.parametrize("players", [0, 6])
def test_player_count_rejected(cli, players):
    r = cli("setup", "imperial_miners", "--players", players)
    assert r.code == 1
    assert f"players: {players} given, imperial_miners supports 1–5" in r.err


def test_deals_are_legal_over_many_seeds(data):
    event_ids = {e.id for e in data.sections["events"]}
    colour_ids = {c.id for c in data.sections["colours"]}
    sides_seen, events_seen = set(), set()
    for seed in range(150):
        for players in range(1, 6):
            for first_game in (False, True):
                result = run_setup(GAME, data, players, None, {"first_game": first_game}, seed)
                deal, counts = result["deal"], result["counts"]
                json.dumps(deal)  # JSON-able
                assert deal["first_game"] is first_game
                assert len(deal["events"]) == 10 == len(set(deal["events"]))
                assert set(deal["events"]) <= event_ids
                assert [b["board"] for b in deal["progress_boards"]] == [1, 2, 3]
                assert {b["side"] for b in deal["progress_boards"]} <= {"recto", "verso"}
                assert [p["player"] for p in deal["players"]] == list(range(1, players + 1))
                colours = [p["colour"] for p in deal["players"]]
                assert len(set(colours)) == players and set(colours) <= colour_ids
                assert all(p["draw"] == counts["draw"] and p["keep"] == counts["keep"] for p in deal["players"])
                assert "not in card_data" in deal["mine_cards"]
                assert GAME.check_setup(data, DealFile.model_validate(deal)) == []
                sides_seen |= {b["side"] for b in deal["progress_boards"]}
                events_seen |= set(deal["events"])
    assert sides_seen == {"recto", "verso"}
    assert events_seen == event_ids  # every event can be dealt


def test_same_seed_same_deal(data):
    first = run_setup(GAME, data, 4, None, {"first_game": False}, 99)
    again = run_setup(GAME, data, 4, None, {"first_game": False}, 99)
    assert first == again
    assert first["deal"]["seed"] == 99


def test_check_accepts_a_printed_deal(cli, write_yaml):
    r = cli("setup", "imperial_miners", "--players", 5, "--first-game", "--seed", 4, "--json")
    path = write_yaml("deal.yaml", yaml.safe_dump(r.json["deal"], allow_unicode=True))
    r = cli("setup", "imperial_miners", "--check", path)
    assert r.code == 0, r.err
    assert "the deal follows the rules of imperial_miners" in r.out


def test_check_lists_every_broken_rule(cli, write_yaml):
    path = write_yaml("deal.yaml", """\
first_game: true
events: [evenement-01, evenement-01, evenement-99]
progress_boards: [{board: 1, side: recto}, {board: 1, side: dos}]
players:
  - {player: 1, colour: rouge, draw: {I: 2, II: 3, III: 3}, keep: 4}
  - {player: 3, colour: rouge, draw: {I: 2, II: 2, III: 2, IV: 1}, keep: 6}
  - {player: 3, colour: noir, draw: {I: 2, II: 2, III: 2}, keep: 6}
""")
    r = cli("setup", "imperial_miners", "--check", path)
    assert r.code == 1
    expected = [
        "events: must hold 10 of the 18 events, got 3",
        "events[1]: 'evenement-01' is dealt twice (first at events[0])",
        "events[2]: unknown event 'evenement-99' (events: evenement-01 … evenement-18)",
        "progress_boards: must give each board 1 to 3 once, got boards [1, 1]",
        "progress_boards[1].side: must be one of recto, verso, got 'dos'",
        "player #1: draw: must be I: 2, II: 2, III: 2 in a first game, got I: 2, II: 3, III: 3",
        "player #1: keep: must be 6 in a first game, got 4",
        "player #2: player: players are numbered 1 to 3 in order, got 3",
        "player #2: colour: colour 'rouge' is taken by an earlier player",
        "player #2: draw: must be I: 2, II: 2, III: 2 in a first game, got I: 2, II: 2, III: 2, IV: 1",
        "player #3: colour: unknown colour 'noir' (colours: rouge, bleu, vert, jaune, violet)",
    ]
    for line in expected:
        assert f"deal.yaml: {line}" in r.err
    assert "(11 problems)" in r.err


def test_check_normal_game_hints_at_first_game(cli, write_yaml):
    r = cli("setup", "imperial_miners", "--players", 2, "--first-game", "--seed", 4, "--json")
    deal = r.json["deal"]
    del deal["first_game"]  # a first-game deal checked as a normal game
    r = cli("setup", "imperial_miners", "--check", write_yaml("deal.yaml", yaml.safe_dump(deal)))
    assert r.code == 1
    assert ("player #1: draw: must be I: 2, II: 3, III: 3 in a normal game (first game: first_game: true), "
            "got I: 2, II: 2, III: 2") in r.err
    assert "player #2: keep: must be 4 in a normal game (first game: first_game: true), got 6" in r.err


def test_ten_thousand_players_on_one_colour_are_each_named_once(data):
    # Issue 21: the colour check was quadratic (40,000 players: 3 min; 10,000 here). Each player after the
    # first is told once that the colour is taken; the check is one pass.
    deal = run_setup(GAME, data, 2, None, {}, 1)["deal"]
    one = deal["players"][0]
    deal["players"] = [{**one, "player": n} for n in range(1, 10_001)]
    problems = GAME.check_setup(data, DealFile.model_validate(deal))
    taken = [p for p in problems if p.field == "colour"]
    assert len(taken) == 9_999
    assert taken[0].item == "player #2" and taken[0].message == f"colour {one['colour']!r} is taken by an earlier player"
