"""Cristaux setup: the rulebook's tables for every mode and player count, the checklist, the
legality of random deals, and `setup --check` of a described deal."""

from __future__ import annotations

from collections import Counter

import pytest
import yaml

MODES = ("initiation", "classique", "avance")
PLAYERS = (2, 3, 4, 5)

# «Préparez l'offre de cartes projets» (classique 7/9/10/11, avancé 8/10/12/15, initiation 5/6/7/8)
OFFER = {"classique": (7, 9, 10, 11), "avance": (8, 10, 12, 15), "initiation": (5, 6, 7, 8)}
# ramekins 7 crystals (8 avancé, 6 initiation); trouvailles 1 at 2–3 players, 2 at 4–5;
# cursed crystals removed in avancé 2 at 2–3, 1 at 4, 0 at 5; rounds 5 (4 in initiation);
# gifts: 1 Warhammer; a Harpe and an Encrier in avancé; none in initiation.
RAMEKIN = {"classique": 7, "avance": 8, "initiation": 6}
TROUVAILLES = {2: 1, 3: 1, 4: 2, 5: 2}
CURSED_AVANCE = {2: 2, 3: 2, 4: 1, 5: 0}
ROUNDS = {"classique": 5, "avance": 5, "initiation": 4}
GIFTS = {"classique": 1, "avance": 2, "initiation": 0}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", PLAYERS)
def test_counts(cli, mode, players):
    r = cli("setup", "cristaux", "--players", players, "--mode", mode, "--json", "--seed", 1)
    assert r.code == 0, r.err
    out = r.json
    assert set(out) == {"game", "player_count", "mode", "counts", "steps", "deal"}
    assert out["counts"] == {
        "offer": OFFER[mode][players - 2],
        "ramekin_crystals": RAMEKIN[mode],
        "trouvailles": TROUVAILLES[players],
        "cursed_removed": CURSED_AVANCE[players] if mode == "avance" else 0,
        "rounds": ROUNDS[mode],
        "gifts": GIFTS[mode],
    }


def test_default_mode_is_classique(cli):
    out = cli("setup", "cristaux", "--players", 3, "--json", "--seed", 1).json
    assert out["mode"] == "classique" and out["counts"]["offer"] == 9


def test_steps_follow_the_mode(cli):
    steps = cli("setup", "cristaux", "--players", 3, "--mode", "avance", "--json", "--seed", 1).json["steps"]
    text = "\n".join(steps)
    assert "Mode avancé : jouez avec les 98 cartes projet." in text
    assert "retirez-en 2 au hasard (il en reste 1)" in text
    assert "1 Harpe et 1 Encrier" in text
    assert "plus 2 rouges, 2 verts, 2 bleus et 12 or tirés du sac" in text
    assert "remplissez-le de 8 cristaux" in text
    assert "Offre : 10 cartes projet" in text
    assert "À 3 joueurs : 3 (ou 6) logos ♚ → 1 rouge, vert et bleu" in text
    r = cli("setup", "cristaux", "--players", 2, "--mode", "initiation", "--json", "--seed", 1)
    steps = r.json["steps"]
    text = "\n".join(steps)
    assert "33 cartes projet portant le logo initiation" in text
    assert "Pas de cadeau au roi en initiation." in text
    assert "15 or tirés du sac" in text
    assert "pièce roi" not in text  # «abstenez-vous à 2 joueurs»
    assert "retirez-en les cartes des Musiciens, de la Forge et de la Religion" in text


def test_opale_steps(cli):
    steps = cli("setup", "cristaux", "--players", 4, "--opale", "--json", "--seed", 1).json["steps"]
    text = "\n".join(steps)
    assert "Façon Opale" in text and "1 Opale bleue et 1 Opale violette du sac rose" in text
    assert "un Topaze tiré est remplacé par une Opale" in text


def _data():
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game

    return load_game_data(find_game("cristaux"))


@pytest.mark.parametrize("opale", [False, True])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.slow
def test_deals_are_legal(cli, mode, players, opale):
    data = _data()
    for seed in range(5):
        args = ["setup", "cristaux", "--players", players, "--mode", mode, "--json", "--seed", seed]
        out = cli(*args, *(["--opale"] if opale else [])).json
        counts, deal = out["counts"], out["deal"]
        # the offer: card ids of the mode's project deck, each at most as often as printed
        assert len(deal["offer"]) == counts["offer"]
        for card_id in deal["offer"]:
            card = data.card(card_id)
            assert card.kind == "project" and mode in card.modes
        removed = Counter(deal["cursed_removed"])
        assert sum(removed.values()) == counts["cursed_removed"]
        assert all(data.card(c).cursed_deck for c in removed)
        for card_id, n in Counter(deal["offer"]).items():
            assert n <= data.card(card_id).copies - removed[card_id]
        # ramekins: one per player, the mode's number of gems drawn from the bag's kinds
        assert len(deal["ramekins"]) == players
        for ramekin in deal["ramekins"]:
            assert sum(ramekin.values()) == counts["ramekin_crystals"]
            allowed = {"red", "green", "blue", "gold", "opale" if opale else "topaze"}
            assert set(ramekin) <= allowed
        # the ♚ holder starts; the king coin only from 3 players; gold by turn position
        king, order = deal["king"], deal["turn_order"]
        assert 1 <= king <= players and order[0] == king and sorted(order) == list(range(1, players + 1))
        if players == 2:
            assert deal["direction"] is None
        else:
            step = 1 if deal["direction"] == "clockwise" else -1
            assert all(order[i + 1] == (order[i] - 1 + step) % players + 1 for i in range(players - 1))
        gold_in_order = [deal["gold"][seat - 1] for seat in order]
        assert gold_in_order == [0, 1, 1, 2, 2][:players]
        # trouvailles, Topaze deck, gifts
        assert len(set(deal["trouvailles"])) == counts["trouvailles"]
        assert all(data.card(c).kind == "trouvaille" for c in deal["trouvailles"])
        schools = {data.card(c).school for c in deal["topaze_deck"]}
        assert ("musicien" in schools) == (mode == "avance")
        assert ("forge" in schools) == (mode != "initiation")
        assert len(deal["gifts"]) == counts["gifts"]


def test_deal_is_reproducible(cli):
    a = cli("setup", "cristaux", "--players", 5, "--mode", "avance", "--json", "--seed", 42).json
    b = cli("setup", "cristaux", "--players", 5, "--mode", "avance", "--json", "--seed", 42).json
    assert a == b and a["deal"]["seed"] == 42


def test_bad_requests(cli):
    r = cli("setup", "cristaux", "--players", 6)
    assert r.code == 1 and "players: 6 given, cristaux supports 2–5" in r.err
    r = cli("setup", "cristaux", "--players", 3, "--mode", "expert")
    assert r.code == 2 and "'expert' is not a mode of cristaux (modes: classique, initiation, avance)" in r.err


# --- setup --check ---------------------------------------------------------------------------

GOOD_DEAL = {
    # 3 players, classique: 9 cards, ramekins of 7, the ♚ at seat 2, clockwise → order 2, 3, 1:
    # seat 3 (2nd) and seat 1 (3rd) take 1 gold each.
    "players": 3,
    "mode": "classique",
    "offer": ["broche-de-lave", "collier-d-ecume", "autel-du-feu", "pinces-de-braise", "stele-d-union",
              "stele-d-union", "cocarde-d-azur", "armoirie-runique", "monument-du-feu"],
    "ramekins": [{"red": 2, "green": 2, "blue": 1, "gold": 2}, {"red": 3, "gold": 3, "topaze": 1},
                 {"blue": 7}],
    "king": 2,
    "direction": "clockwise",
    "gold": [1, 0, 1],
    "trouvailles": ["filon-de-rubis"],
}


def test_check_accepts_a_legal_deal(cli, write_yaml):
    r = cli("setup", "cristaux", "--check", write_yaml("deal.yaml", yaml.safe_dump(GOOD_DEAL)))
    assert r.code == 0, r.err
    assert "the deal follows the rules of cristaux" in r.out


def test_check_lists_every_broken_rule(cli, write_yaml):
    deal = {**GOOD_DEAL,
            "offer": GOOD_DEAL["offer"][:8] + ["calice-ardent"],  # an avancé card
            "ramekins": GOOD_DEAL["ramekins"][:2] + [{"blue": 6}],  # 6 gems, not 7
            "direction": "anticlockwise",  # order 2, 1, 3: seats 1 and 3 take 1 each — same gold
            "gold": [0, 0, 1],
            "trouvailles": ["filon-de-rubis", "coffre-oublie"]}
    r = cli("setup", "cristaux", "--check", write_yaml("deal.yaml", yaml.safe_dump(deal)))
    assert r.code == 1
    errors = [line for line in r.err.splitlines() if line.strip().startswith("- ")]
    assert len(errors) == 4, r.err
    assert any("offer[8]: 'calice-ardent' is not played in classique" in e for e in errors)
    assert any("ramekins[2]: holds 6 gems, a ramekin is filled with 7 in classique" in e for e in errors)
    assert any("gold: got [0, 0, 1]; in turn order [2, 1, 3]" in e and "[1, 0, 1] by seat" in e for e in errors)
    assert any("trouvailles: 2 drawn, 1 at 3 players" in e for e in errors)


def test_check_the_king_coin_and_the_cursed_deck(cli, write_yaml):
    deal = {"players": 2, "mode": "avance", "direction": "clockwise", "king": 1, "gold": [0, 1],
            "offer": ["broche-de-lave", "collier-d-ecume", "autel-du-feu", "pinces-de-braise", "stele-d-union",
                      "cocarde-d-azur", "armoirie-runique", "monument-du-feu"],
            "ramekins": [{"red": 8}, {"green": 8}], "trouvailles": ["filon-de-rubis"],
            "cursed_removed": ["cristal-maudit-rouge"]}
    r = cli("setup", "cristaux", "--check", write_yaml("deal.yaml", yaml.safe_dump(deal)))
    assert r.code == 1
    assert "direction: no king coin at 2 players" in r.err
    assert ("cursed_removed: 2 card(s) of the gold cursed-crystal deck (cristal-maudit-dore) are removed "
            "at 2 players") in r.err
