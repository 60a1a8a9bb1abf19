"""TunHell setup: counts for both rule sets and --short, legal deals for any seed, --check."""

from __future__ import annotations

import random
from collections import Counter
from itertools import chain
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.testing import rules_module

_tunhell_setup_rules = rules_module("tunhell", "setup_rules")
DescribedDeal = _tunhell_setup_rules.DescribedDeal
check_deal = _tunhell_setup_rules.check_deal
deal = _tunhell_setup_rules.deal

DEALS = Path(__file__).parent / "deals"
GAME = find_game("tunhell")
DATA = load_game_data(GAME)

# The mine deck as the rulebook lists it (card_data/tunhell/RULES.md), written out here independently of the
# code: 49 cards without the (+) mark, 11 with it, and the 4 end-of-mine cards.
BASIC = {"terre": 18, "tresor": 10, "rat": 7, "gobelin": 4, "orc": 4, "troll": 3, "dragon": 3}
PLUS = {"machin": 1, "dwouarf": 1, "nawak": 1, "vieille-pioche": 1, "biere-du-courage": 2,
        "anneau-unique": 2, "coeur-d-or": 1, "fantome-de-grodur": 2}
END_OF_MINE = {"porte-de-derriere", "salle-du-trone", "grosse-araignee-poilue", "demon-des-profondeurs"}


# --- counts -------------------------------------------------------------------------------

# full: 60 mine cards − 9 removed = 51 = 3 × 17; --short 3/6/9: 48 = 3 × 16, 45 = 3 × 15, 42 = 3 × 14
# initiation: 60 − 11 (+) = 49 − 7 removed = 42 = 3 × 14; --short: 39 = 3 × 13, 36 = 3 × 12, 33 = 3 × 11
COUNTS = [
    ("full", None, 9, 17, 1),
    ("full", "3", 12, 16, 1),
    ("full", "6", 15, 15, 1),
    ("full", "9", 18, 14, 1),
    ("initiation", None, 7, 14, 0),
    ("initiation", "3", 10, 13, 0),
    ("initiation", "6", 13, 12, 0),
    ("initiation", "9", 16, 11, 0),
]


@pytest.mark.parametrize(("mode", "short", "removed", "size", "end_removed"), COUNTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_counts(cli, players, mode, short, removed, size, end_removed):
    args = ["setup", "tunhell", "--players", players, "--mode", mode, "--seed", 7, "--json"]
    r = cli(*args, *(["--short", short] if short else []))
    assert r.code == 0, r.err
    out = r.json
    assert (out["game"], out["player_count"], out["mode"]) == ("tunhell", players, mode)
    assert out["counts"] == {"mine_removed": removed, "pile_size": size, "end_of_mine_removed": end_removed,
                             "dwarves_each": 4, "recruitment": 5, "hand_limit": 6}
    d = out["deal"]
    assert set(d) == {"mode", "piles", "removed", "hands", "recruitment", "dwarf_pile", "seed"}
    assert d["mode"] == mode  # the deal alone says its rule set, so --check reads it back as it is
    bottom = 1 if mode == "full" else 0
    assert [len(p) for p in d["piles"]] == [size + bottom] * 3
    assert len(d["removed"]) == removed + end_removed
    assert [len(h) for h in d["hands"]] == [4] * players
    assert len(d["recruitment"]) == 5
    assert len(d["dwarf_pile"]) == 44 - 4 * players - 5


def test_default_mode_is_full(cli):
    r = cli("setup", "tunhell", "--players", 2, "--json")
    assert r.code == 0 and r.json["mode"] == "full"


def test_steps_follow_the_rule_set(cli):
    full = cli("setup", "tunhell", "--players", 3, "--seed", 1, "--json").json["steps"]
    assert full[0] == ("Mélangez toutes les cartes «Mine» et écartez-en 9 au hasard ; mélangez les cartes "
                       "«Fin de Mine» et écartez-en 1. Remettez-les dans la boîte.")
    assert "17 cartes «Mine» face cachée, chacun posé sur une carte «Fin de Mine»" in full[1]
    assert "Trophée" in full[2]
    assert full[3].startswith("À 3 joueurs, un côté des mines reste neutre.")
    short = cli("setup", "tunhell", "--players", 2, "--mode", "initiation", "--short", 6, "--json").json
    assert short["steps"][0].startswith("Écartez les 4 cartes «Fin de Mine», les 2 cartes «Trophée» "
                                        "et les 11 cartes «Mine» portant le symbole (+)")
    assert short["steps"][1] == ("Écartez au hasard 13 (7 + 6 pour raccourcir la partie) cartes «Mine» "
                                 "supplémentaires, remises dans la boîte.")
    assert "12 cartes «Mine»" in short["steps"][2]
    assert all("Trophée» (Employé" not in s for s in short["steps"])


def test_text_output(cli):
    r = cli("setup", "tunhell", "--players", 4, "--mode", "initiation", "--seed", 3)
    assert r.code == 0
    assert "TunHell — setup for 4 players, mode initiation" in r.out
    assert "pile size: 14" in r.out and "Deal (seed 3):" in r.out


def test_same_seed_same_deal(cli):
    first = cli("setup", "tunhell", "--players", 3, "--seed", 42, "--json").json
    again = cli("setup", "tunhell", "--players", 3, "--seed", 42, "--json").json
    other = cli("setup", "tunhell", "--players", 3, "--seed", 43, "--json").json
    assert first == again
    assert first["deal"]["piles"] != other["deal"]["piles"]


@pytest.mark.parametrize(("args", "message"), [
    (["--players", 5], "players: 5 given, tunhell supports 2–4"),
    (["--players", 1], "players: 1 given, tunhell supports 2–4"),
])
def test_unplayable_requests(cli, args, message):
    r = cli("setup", "tunhell", *args)
    assert r.code == 1
    assert message in r.err


def test_unknown_mode_is_a_usage_error(cli):
    r = cli("setup", "tunhell", "--players", 2, "--mode", "classique")
    assert r.code == 2
    assert "Invalid value for --mode: 'classique' is not a mode of tunhell (modes: full, initiation)" in r.err


def test_short_is_only_3_6_or_9(cli):
    r = cli("setup", "tunhell", "--players", 2, "--short", 4)
    assert r.code == 2


# --- deal legality, for any seed ----------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 4),
       mode=st.sampled_from(["full", "initiation"]), short=st.sampled_from([0, 3, 6, 9]))
def test_every_deal_is_legal(seed, players, mode, short):
    d = deal(DATA, players, mode, short, random.Random(seed))
    piles = d["piles"]
    from_mines = [*chain.from_iterable(piles), *d["removed"]]
    in_use = dict(BASIC) if mode == "initiation" else {**BASIC, **PLUS}
    # the piles and the removed cards are exactly the mine cards in use…
    dealt_mine = Counter(c for c in from_mines if c not in END_OF_MINE)
    assert dealt_mine == Counter(in_use)
    # …the piles are equal, and in full each sits on one end-of-mine card
    removed = {"full": 9, "initiation": 7}[mode] + short
    size = (sum(in_use.values()) - removed) // 3
    ends = [c for c in from_mines if c in END_OF_MINE]
    if mode == "full":
        assert sorted(ends) == sorted(END_OF_MINE)
        assert all(len(p) == size + 1 and p[-1] in END_OF_MINE for p in piles)
        assert all(c not in END_OF_MINE for p in piles for c in p[:-1])
    else:
        assert ends == []
        assert all(len(p) == size for p in piles)
    assert len([c for c in d["removed"] if c not in END_OF_MINE]) == removed
    # every dwarf dealt once: 4 each, 5 to recruit, the rest in the pile
    assert [len(h) for h in d["hands"]] == [4] * players and len(d["recruitment"]) == 5
    dwarves = Counter([*chain.from_iterable(d["hands"]), *d["recruitment"], *d["dwarf_pile"]])
    assert dwarves == Counter({c.id: c.copies for c in DATA.cards_of("dwarf")})
    # and the checker agrees
    assert check_deal(DATA, DescribedDeal.model_validate({"mode": mode, **d})) == []


# --- --check FILE -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["good_initiation_piles_only.yaml", "good_full_3_players.yaml"])
def test_check_accepts_a_legal_deal(cli, name):
    r = cli("setup", "tunhell", "--check", DEALS / name)
    assert r.code == 0, r.err
    assert "the deal follows the rules of tunhell" in r.out


def test_check_accepts_a_printed_deal(cli, tmp_path):
    out = cli("setup", "tunhell", "--players", 4, "--mode", "initiation", "--short", 3, "--json").json
    path = tmp_path / "deal.yaml"
    path.write_text(yaml.safe_dump({"mode": out["mode"], **out["deal"]}), encoding="utf-8")
    r = cli("setup", "tunhell", "--check", path)
    assert r.code == 0, r.err


@pytest.mark.parametrize(("name", "messages"), [
    ("bad_plus_card_in_initiation.yaml",
     ["pile 1: 'coeur-d-or' is a full-game card (+): not used in initiation"]),
    ("bad_trophy_in_pile.yaml",
     ["pile 2: 'deratiseur' is a trophy: trophies never go into the deal (they sit beside the mines "
      "in a full game)"]),
    ("bad_end_of_mine_in_initiation.yaml",
     ["pile 3: 'salle-du-trone' is an end-of-mine card: not used in initiation"]),
    ("bad_unequal_piles.yaml",
     ["piles: the piles hold 15, 14, 13 mine cards: the 3 piles must be equal"]),
    ("bad_too_many_copies.yaml",
     ["'dragon' appears 4 times, the deck holds 3"]),
    ("bad_end_of_mine_not_at_bottom.yaml",
     ["pile 2: a full-game pile ends with exactly one end-of-mine card, at the bottom "
      "(found at position 1 of 18)"]),
    ("bad_dwarves_dealt.yaml",
     ["hand 1: 5 dwarves, each player is dealt 4",
      "recruitment: 4 dwarves, the recruitment row holds 5"]),
    ("bad_removed_cards.yaml",
     ["removed: 8 mine cards removed, but a full game has 60 mine cards and the piles hold 51, "
      "which leaves 9 to remove",
      "removed: 0 end-of-mine cards removed, a full game removes 1"]),
])
def test_check_rejects(cli, name, messages):
    path = DEALS / name
    r = cli("setup", "tunhell", "--check", path)
    assert r.code == 1
    listed = [line.removeprefix("  - ") for line in r.err.splitlines() if line.startswith("  - ")]
    assert listed == [f"{path}: {m}" for m in messages]


def test_check_rejects_an_illegal_pile_size_and_unknown_cards(cli, write_yaml):
    # 3 piles of 15 basic cards: an initiation game keeps 42 (14 per pile); 2 Orcs per pile make
    # 6 Orcs, the deck has 4 (5 Terre, 3 Trésors, 2 Rats... per pile stay within the deck)
    pile = ["terre"] * 5 + ["tresor"] * 3 + ["rat"] * 2 + ["gobelin", "orc", "troll", "dragon", "orc"]
    path = write_yaml("deal.yaml", yaml.safe_dump({"mode": "initiation", "piles": [pile] * 3,
                                                   "hands": [["guerrier-9"], []]}))
    r = cli("setup", "tunhell", "--check", path)
    assert r.code == 1
    listed = [line.removeprefix(f"  - {path}: ") for line in r.err.splitlines() if line.startswith("  - ")]
    assert listed == [
        "hand 1: unknown card 'guerrier-9' (allowed here: dwarves)",
        "piles: each pile holds 15 mine cards; an initiation pile holds 14 (or 13, 12, 11 in a game "
        "shortened by 3, 6, 9)",
        "hand 1: 1 dwarf, each player is dealt 4",
        "hand 2: 0 dwarves, each player is dealt 4",
        "'orc' appears 6 times, the deck holds 4",
    ]


def test_check_file_errors_are_located(cli, write_yaml):
    path = write_yaml("deal.yaml", "mode: full\npiles: [[terre], [terre]]\nbogus: 1\n")
    r = cli("setup", "tunhell", "--check", path)
    assert r.code == 1
    assert f"{path}:2: piles: must have at least 3 item(s), got 2" in r.err
    assert (f"{path}:3: bogus: unknown field "
            "(allowed: mode, piles, removed, hands, recruitment, dwarf_pile, seed)") in r.err
