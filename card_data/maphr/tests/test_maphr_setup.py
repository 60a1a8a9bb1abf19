"""Maphr setup: counts per player count, the deal's legality over many seeds, replay by seed,
and ``--check`` of described deals."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardforge.data.loading import load_game_data
from cardforge.engine.setup import run_setup
from cardforge.games import find_game
from cardforge.testing import rules_module

_maphr_setup_rules = rules_module("maphr", "setup_rules")
DescribedDeal = _maphr_setup_rules.DescribedDeal
check_setup = _maphr_setup_rules.check_setup

FIXTURES = Path(__file__).parent / "fixtures"
GAME = find_game("maphr")
DATA = load_game_data(GAME)
IMMEDIATE = {"contract", "catastrophe"}
GREY_CLANS = {c.id for c in DATA.sections["clans"] if c.grey}


# Rulebook «Début du jeu»: 8 coins and 4 cards each, at most 6 cards in hand; the game ends at
# 12 galleries with 2 or 3 players, 11 with 4.
@pytest.mark.parametrize(("players", "required"), [(2, 12), (3, 12), (4, 11)])
def test_counts(cli, players, required):
    r = cli("setup", "maphr", "--players", players, "--seed", 1, "--json")
    assert r.code == 0, r.err
    out = r.json
    assert list(out) == ["game", "player_count", "mode", "counts", "steps", "deal"]
    assert (out["game"], out["player_count"], out["mode"]) == ("maphr", players, "standard")
    assert out["counts"] == {"coins_each": 8, "cards_each": 4, "hand_limit": 6, "galleries_required": required}
    assert len(out["deal"]["players"]) == players
    assert out["deal"]["seed"] == 1
    assert all(isinstance(step, str) and step for step in out["steps"])


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_other_player_counts_exit_1_with_the_range(cli, players):
    r = cli("setup", "maphr", "--players", players)
    assert r.code == 1
    assert f"players: {players} given, maphr supports 2–4" in r.err


def test_steps_are_the_french_checklist(cli):
    steps = cli("setup", "maphr", "--players", 4, "--seed", 3, "--json").json["steps"]
    text = "\n".join(steps)
    assert "Donnez 8 pièces à chaque joueur" in text
    assert "Distribuez 4 cartes à chaque joueur" in text
    assert "11 galeries et filons dans sa mine (9 pour le clan de nains gris)" in text
    assert "Le joueur le plus barbu commence" in text


def _check_deal(result: dict) -> None:
    players = result["player_count"]
    deal = result["deal"]
    seats = deal["players"]
    assert len(seats) == players
    clans = [s["clan"] for s in seats]
    assert len(set(clans)) == players
    base = 12 if players <= 3 else 11
    for seat in seats:
        assert seat["grey"] == (seat["clan"] in GREY_CLANS)
        assert seat["galleries_required"] == base - (2 if seat["grey"] else 0)
        assert len(seat["hand"]) == 4
        assert all(DATA.card(c).kind not in IMMEDIATE for c in seat["hand"])
    # the discarded cards are exactly the contracts and catastrophes dealt and replaced
    assert all(DATA.card(c).kind in IMMEDIATE for c in deal["discard"])
    dealt = Counter(c for s in seats for c in s["hand"]) + Counter(deal["discard"])
    assert all(n <= DATA.card(c).copies for c, n in dealt.items())
    assert deal["draw_pile"] + sum(dealt.values()) == 250
    assert deal["first_player"].startswith("Joueur 1, le joueur le plus barbu")


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**31 - 1))
def test_every_deal_is_legal(players, seed):
    result = run_setup(GAME, DATA, players, seed=seed)
    _check_deal(result)
    # and the deal, described back, passes --check
    described = DescribedDeal.model_validate(
        {"players": [{"clan": s["clan"], "hand": s["hand"]} for s in result["deal"]["players"]]})
    assert check_setup(DATA, described) == []


def test_replacements_happen_and_stay_legal():
    """Over 200 seeds some starting hands receive contracts or catastrophes (42 of the 250
    cards): each is discarded and replaced."""
    discards = [run_setup(GAME, DATA, 4, seed=s)["deal"]["discard"] for s in range(200)]
    assert sum(map(len, discards)) > 0
    assert any(len(d) >= 2 for d in discards)


def test_same_seed_same_deal(cli):
    a = cli("setup", "maphr", "--players", 3, "--seed", 1234, "--json").json
    b = cli("setup", "maphr", "--players", 3, "--seed", 1234, "--json").json
    assert a == b
    others = [cli("setup", "maphr", "--players", 3, "--seed", s, "--json").json["deal"] for s in (1, 2, 3)]
    assert any(o["players"] != a["deal"]["players"] for o in others)


def test_deal_without_seed_records_its_seed_for_replay(cli):
    first = cli("setup", "maphr", "--players", 2, "--json").json
    again = cli("setup", "maphr", "--players", 2, "--seed", first["deal"]["seed"], "--json").json
    assert again["deal"] == first["deal"]


def test_check_good_deal(cli):
    path = FIXTURES / "deal_good.yaml"
    r = cli("setup", "maphr", "--check", path)
    assert r.code == 0, r.err
    assert f"{path}: the deal follows the rules of maphr" in r.out


BAD_DEALS = {
    "deal_bad_clans.yaml": [
        "player 'Alice' (#1): clan: unknown clan 'irongrad' (clans: barbelune, brisecendre, creusemonts, "
        "fondeurs-de-khazrum, grisonniers-de-dulgard, irongradd, orfondeurs, pic-ardent, runegarde, "
        "taillepierre); did you mean 'irongradd'?",
        "player 'Cid' (#3): clan: clan 'runegarde' is already dealt to player 'Ben' (#2); each player has a "
        "different clan",
    ],
    "deal_bad_hands.yaml": [
        "player 'Alice' (#1): hand: a starting hand holds 4 cards, got 3",
        "player 'Ben' (#2): hand[0]: 'caravane-drow' is a contract (Caravane drow); a starting hand holds no "
        "contract or catastrophe (they are discarded and replaced)",
        "player 'Ben' (#2): hand[1]: 'eboulement' is a catastrophe (Éboulement); a starting hand holds no "
        "contract or catastrophe (they are discarded and replaced)",
        "player 'Ben' (#2): hand[2]: unknown card id 'galerie-droit' (not in card_data/maphr); did you mean "
        "'galerie-droite'?",
        "player 'Ben' (#2): hand[3]: 'mithril-double-virage' is dealt 2 times across the hands, the deck has "
        "1 copy of it",
    ],
    "deal_bad_player_count.yaml": ["players: 1 given, maphr supports 2–4"],
}


@pytest.mark.parametrize("name", sorted(BAD_DEALS))
def test_check_bad_deals_list_every_problem(cli, name):
    path = FIXTURES / name
    r = cli("setup", "maphr", "--check", path)
    assert r.code == 1
    got = [line[4:] for line in r.err.splitlines() if line.startswith("  - ")]
    assert got == [f"{path}: {p}" for p in BAD_DEALS[name]]


def test_check_bad_fields_are_located_by_line(cli):
    path = FIXTURES / "deal_bad_fields.yaml"
    r = cli("setup", "maphr", "--check", path)
    assert r.code == 1
    got = sorted(line[4:] for line in r.err.splitlines() if line.startswith("  - "))
    assert got == sorted([
        f"{path}:5: player 'Alice' (#1): coins: unknown field "
        "(allowed: player, name, clan, clan_name, grey, galleries_required, hand)",
        f"{path}:6: player 'Alice' (#1): hand: must be a list, got 'etayage'",
        f"{path}:7: player 'Ben' (#2): clan: required field is missing",
    ])
