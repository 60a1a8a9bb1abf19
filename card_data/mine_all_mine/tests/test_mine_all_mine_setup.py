"""``cardforge setup mine_all_mine``: counts, checklist, legal deals, and ``--check``."""

from __future__ import annotations

import json
import random

import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game

GAME = find_game("mine_all_mine")


@pytest.fixture(scope="module")
def data():
    return load_game_data(GAME)


@pytest.mark.parametrize("players, planets, turns", [(2, 1, 3), (3, 2, 6), (4, 2, 6)])
def test_counts(cli, players, planets, turns):
    r = cli("setup", "mine_all_mine", "--players", players, "--seed", 7, "--json")
    assert r.code == 0, r.err
    out = r.json
    assert set(out) == {"game", "player_count", "mode", "counts", "steps", "deal"}
    assert out["counts"] == {"planets": planets, "turns": turns, "ships_each": 3, "rounds": 3}
    assert all(isinstance(step, str) for step in out["steps"])
    assert out["deal"]["seed"] == 7


def test_checklist_in_french(cli):
    steps = cli("setup", "mine_all_mine", "--players", 3, "--json").json["steps"]
    # issue 18: « tournez et inversez-les » — the turning step first
    assert steps[0].startswith("Tout en mélangeant les cartes planète, tournez-les (d'un demi-tour) et "
                               "inversez-les, pour que le total des ressources, faible ou élevé,")
    assert "retournez la deuxième sur sa face « lune »" in steps[1]
    assert "les 3 autres restent de côté" in steps[2]
    steps = cli("setup", "mine_all_mine", "--players", 4, "--json").json["steps"]
    assert "toutes sont distribuées" in steps[2]
    steps = cli("setup", "mine_all_mine", "--players", 2, "--json").json["steps"]
    assert "Piochez 1 carte planète" in steps[1] and "3 tours" in steps[1]


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_2_to_4(cli, players):
    r = cli("setup", "mine_all_mine", "--players", players)
    assert r.code == 1
    assert f"players: {players} given, mine_all_mine supports 2–4" in r.err


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deals_are_legal_over_many_seeds(data, players):
    for seed in range(300):
        deal = GAME.deal(data, players, "standard", {}, random.Random(seed))
        planets = deal["planets"]
        assert len(planets) == (1 if players == 2 else 2)
        assert [p["side"] for p in planets] == ["planet", "moon"][:len(planets)]
        assert all(p["end"] in ("low", "high") for p in planets)
        assert len({p["card"] for p in planets}) == len(planets)
        assert {p["card"] for p in planets} <= {1, 2, 3}
        hands = list(deal["ships"].values())
        assert list(deal["ships"]) == [f"player {i}" for i in range(1, players + 1)]
        assert all(len(hand) == 3 and hand == sorted(hand) for hand in hands)
        dealt = [n for hand in hands for n in hand]
        assert len(set(dealt)) == 3 * players
        assert sorted(dealt + deal["unowned"]) == list(range(1, 13))
        assert GAME.check_setup(data, GAME.setup_model.model_validate(deal)) == []


def test_both_ends_of_each_planet_card_come_up(data):
    # « pour que […] le total des ressources (faible ou élevé) ait autant de chance de sortir »
    seen = {(p["card"], p["side"], p["end"]) for s in range(200)
            for p in GAME.deal(data, 3, "standard", {}, random.Random(s))["planets"]}
    assert seen == {(c, side, end) for c in (1, 2, 3) for side in ("planet", "moon") for end in ("low", "high")}


def test_every_planet_card_and_ship_card_comes_up(data):
    firsts = {GAME.deal(data, 3, "standard", {}, random.Random(s))["planets"][0]["card"] for s in range(100)}
    assert firsts == {1, 2, 3}
    held = {n for s in range(100) for hand in GAME.deal(data, 4, "standard", {}, random.Random(s))["ships"].values()
            for n in hand}
    assert held == set(range(1, 13))


def test_same_seed_same_deal(cli):
    a = cli("setup", "mine_all_mine", "--players", 3, "--seed", 11, "--json").json
    b = cli("setup", "mine_all_mine", "--players", 3, "--seed", 11, "--json").json
    assert a == b


def test_a_printed_deal_checks_back(cli, write_yaml):
    deal = cli("setup", "mine_all_mine", "--players", 4, "--seed", 3, "--json").json["deal"]
    path = write_yaml("deal.yaml", json.dumps(deal))
    r = cli("setup", "mine_all_mine", "--check", path)
    assert r.code == 0, r.err
    assert "the deal follows the rules of mine_all_mine" in r.out


def test_text_output_shows_the_deal(cli):
    r = cli("setup", "mine_all_mine", "--players", 2, "--seed", 5)
    assert r.code == 0
    assert "planets: 1" in r.out and "turns: 3" in r.out
    assert '  planets:\n    planet 1: card ' in r.out and ', side planet, end ' in r.out


def test_check_lists_every_broken_rule(cli, write_yaml):
    path = write_yaml("deal.yaml", """\
planets:
  - {card: 2, side: moon}
  - {card: 2, side: moon}
  - {card: 5, side: moon}
ships:
  Ana: [1, 2, 13]
  Ben: [2, 4]
unowned: [8]
""")
    r = cli("setup", "mine_all_mine", "--check", path)
    assert r.code == 1
    problems = [line.removeprefix(f"  - {path}: ") for line in r.err.splitlines() if line.startswith("  - ")]
    assert problems == [
        "planets: 2 players get 1 planet card, got 3",
        "planets[0].side: the first planet card lies on its planet face, got moon",
        "planets[1].card: planet card 2 is dealt twice",
        "planets[2].card: no planet card 5 (planet cards: 1–3)",
        "player 'Ana' (#1): ships: no ship card 13 (ship cards: 1–12)",
        "player 'Ben' (#2): ships: each player is dealt 3 ship cards, got 2",
        "ships: ship card 2 is dealt 2 times (Ana, Ben)",
        "unowned: must be the ship cards nobody holds: [3, 5, 6, 7, 8, 9, 10, 11, 12], got [8]",
    ]


def test_check_player_count_and_format(cli, write_yaml):
    path = write_yaml("deal.yaml", "planets: [{card: 1, side: planet}]\nships: {Ana: [1, 2, 3]}\n")
    r = cli("setup", "mine_all_mine", "--check", path)
    assert r.code == 1 and "ships: 1 player given, mine_all_mine supports 2–4" in r.err
    path = write_yaml("deal.yaml", "planets: [{card: 1, side: sun}]\nships: {Ana: [1, 2, 3.5]}\n")
    r = cli("setup", "mine_all_mine", "--check", path)
    assert r.code == 1
    assert "planets[0].side: must be one of 'planet' or 'moon', got 'sun'" in r.err
    assert "ships.Ana[2]: must be a whole number, got 3.5" in r.err
