"""Final states cardforge refuses to score (exit 1), each problem named with player and field,
all of them collected at once."""

from __future__ import annotations

import pytest
import yaml

BOB = {"name": "Bob", "king": True}


def _errors(cli, write_yaml, state: dict) -> list[str]:
    path = write_yaml("final.yaml", yaml.safe_dump(state, allow_unicode=True, sort_keys=False))
    r = cli("score", "cristaux", path)
    assert r.code == 1, r.out
    assert "Traceback" not in r.err
    return [line.strip() for line in r.err.splitlines() if line.strip().startswith("- ")]


def _ana(cards: list, mode: str = "classique", **fields) -> dict:
    """A final state: Ana with these cards (and fields), Bob holding the ♚."""
    return {"mode": mode, "players": [{"name": "Ana", "cards": cards, **fields}, BOB]}


def _one(cli, write_yaml, state: dict) -> str:
    errors = _errors(cli, write_yaml, state)
    assert len(errors) == 1, errors
    return errors[0]


def test_no_king(cli, write_yaml):
    err = _one(cli, write_yaml, {"players": [{"name": "Ana"}, {"name": "Bob"}]})
    assert err.endswith("players: exactly one player holds the ♚ (king: true), got nobody")


def test_two_kings(cli, write_yaml):
    err = _one(cli, write_yaml, {"players": [{"name": "Ana", "king": True}, BOB]})
    assert err.endswith("got Ana and Bob")


def test_x_cost_card_without_paid(cli, write_yaml):
    err = _one(cli, write_yaml, _ana(["calice-ardent"], "avance"))
    assert err.endswith("player 'Ana' (#1): cards[0]: 'calice-ardent' costs X red: give what was paid, "
                        "e.g. {id: calice-ardent, paid: 3}")


def test_inline_x_cost_card_without_paid(cli, write_yaml):
    card = {"name": "Calice maison", "scoring": {"kind": "calice", "colour": "blue"}}
    err = _one(cli, write_yaml, _ana([card]))
    assert "'Calice maison' costs X blue: give what was paid" in err


def test_paid_on_a_card_without_x_cost(cli, write_yaml):
    err = _one(cli, write_yaml, _ana([{"id": "autel-du-feu", "paid": 2}]))
    assert "'autel-du-feu' has no X cost: paid is only for X-cost cards" in err


def test_inline_x_cost_disagreeing_with_paid(cli, write_yaml):
    card = {"name": "Calice ardent", "cost": {"red": 4}, "scoring": {"kind": "calice", "colour": "red"},
            "paid": 3}
    err = _one(cli, write_yaml, _ana([card], "avance"))
    assert "cost.red is 4 but 3 was paid" in err


def test_unknown_card_id_with_suggestion(cli, write_yaml):
    err = _one(cli, write_yaml, _ana(["cocard-ecarlate"]))
    assert err.endswith("player 'Ana' (#1): cards[0]: unknown card 'cocard-ecarlate'; "
                        "did you mean 'cocarde-ecarlate'?")


def test_unknown_scoring_kind(cli, write_yaml):
    card = {"name": "Truc", "scoring": {"kind": "bling"}}
    err = _one(cli, write_yaml, _ana([card]))
    assert "final.yaml:" in err
    assert "player 'Ana' (#1): cards[0].scoring: unknown scoring kind 'bling' (allowed: raw, " in err


def test_unknown_scoring_parameter(cli, write_yaml):
    card = {"name": "Truc", "scoring": {"kind": "raw", "points": 2, "bonus": 1}}
    err = _one(cli, write_yaml, _ana([card]))
    assert "cards[0].scoring: unknown field bonus for scoring kind 'raw' (allowed: kind, points)" in err


@pytest.mark.parametrize("field, value, where", [
    ("nature", "pink", "cards[0].nature: must be one of 'red', 'green', 'blue', 'multi' or 'none', got 'pink'"),
    ("logos", {"purple": 1}, "cards[0].logos.purple: unknown field (allowed: red, green, blue, multi)"),
    ("forge_squares", ["silver"], "cards[0].forge_squares[0]: a forge square is one of red, green, blue, gold"),
])
def test_unknown_colours_in_an_inline_card(cli, write_yaml, field, value, where):
    card = {"name": "Truc", "scoring": {"kind": "none"}, field: value}
    err = _one(cli, write_yaml, _ana([card]))
    assert where in err


def test_unknown_stock_colour(cli, write_yaml):
    err = _one(cli, write_yaml, {"players": [{"name": "Ana", "stock": {"violet": 2}}, BOB]})
    assert "player 'Ana' (#1): stock.violet: unknown field (allowed: red, green, blue, gold)" in err


def test_unknown_chosen_nature(cli, write_yaml):
    state = {"players": [{"name": "Ana", "cards": ["couronne-elementaire"],
                          "choices": {"natures": {"couronne-elementaire": "gold"}}}, BOB]}
    err = _one(cli, write_yaml, state)
    assert "choices.natures.couronne-elementaire: must be one of 'red', 'green' or 'blue', got 'gold'" in err


def test_more_crystals_placed_than_in_stock(cli, write_yaml):
    state = {"players": [{"name": "Ana", "cards": ["pinces-de-braise"], "stock": {"red": 1},
                          "choices": {"forge": {"red": 2}}}, BOB]}
    err = _one(cli, write_yaml, state)
    assert err.endswith("player 'Ana' (#1): choices.forge.red: 2 red placed, more than the 1 in the stock")


def test_placed_crystals_must_fit_the_squares(cli, write_yaml):
    state = {"players": [{"name": "Ana", "cards": ["lunettes-feu-terre"], "stock": {"blue": 1},
                          "choices": {"forge": {"blue": 1}}}, BOB]}
    err = _one(cli, write_yaml, state)
    assert ("choices.forge: the crystals placed do not fit this player's forge squares "
            "(1 green, 1 red; 0 wild)") in err


def test_gold_bonus_needs_the_gold(cli, write_yaml):
    state = {"players": [{"name": "Ana", "cards": ["warhammer-forges"], "stock": {"gold": 1},
                          "choices": {"bonuses": {"warhammer-forges": True}}}, BOB]}
    err = _one(cli, write_yaml, state)
    assert "choices.bonuses: the bonuses chosen spend 2 gold, the stock has 1" in err


def test_card_not_played_in_the_declared_mode(cli, write_yaml):
    # The issue's own example lists a Harpe in classique: the Harpe is the avancé gift.
    state = {"mode": "classique", "players": [
        {"name": "Gurts", "king": True, "cards": ["harpe-des-profondeurs"]}, {"name": "Odurf"}]}
    err = _one(cli, write_yaml, state)
    assert err.endswith("player 'Gurts' (#1): cards[0]: 'harpe-des-profondeurs' (Harpe des profondeurs) "
                        "is not played in classique (its modes: avancé)")


def test_inline_card_with_modes_outside_the_mode(cli, write_yaml):
    card = {"name": "Luth maison", "modes": ["avance"], "scoring": {"kind": "musicien"}}
    err = _one(cli, write_yaml, {"mode": "classique", "players": [{"name": "Ana", "cards": [card]}, BOB]})
    assert "inline card 'Luth maison' is not played in classique (its modes: avancé)" in err


def test_forge_in_initiation(cli, write_yaml):
    # «En dessous de ce point, le contenu ne concerne pas les jours du mode initiation» (the Forge).
    state = {"mode": "initiation", "players": [{"name": "Ana", "stock": {"red": 1},
                                                "choices": {"forge": {"red": 1}}}, BOB]}
    errors = _errors(cli, write_yaml, state)
    assert any(e.endswith("choices.forge: the forge is not played in initiation") for e in errors)
    err = _one(cli, write_yaml, _ana(["pinces-de-braise"], "initiation"))
    assert "'pinces-de-braise' (Pinces de braise) is not played in initiation" in err
    inline = {"name": "Pinces maison", "forge_squares": ["any"], "scoring": {"kind": "pinces"}}
    err = _one(cli, write_yaml, _ana([inline], "initiation"))
    assert "inline card 'Pinces maison' belongs to the forge, which is not played in initiation" in err


def test_inactive_gift_side(cli, write_yaml):
    err = _one(cli, write_yaml, _ana(["harpe-des-profondeurs-inactive"], "avance"))
    assert "'harpe-des-profondeurs-inactive' is the inactive side of Harpe des profondeurs" in err


def test_both_sides_of_a_warhammer(cli, write_yaml):
    err = _one(cli, write_yaml, _ana(["warhammer-forges", "warhammer-grandes-familles"]))
    assert "each player has one Warhammer, listed 2 times (warhammer-forges, warhammer-grandes-familles)" in err


def test_card_owned_more_times_than_printed(cli, write_yaml):
    err = _one(cli, write_yaml, {"players": [{"name": "Ana", "cards": ["autel-du-feu"]},
                                             {"name": "Bob", "king": True, "cards": ["autel-du-feu"]}]})
    assert err.endswith("players: 'autel-du-feu' is listed 2 times (Ana, Bob) but the game has 1 copy")


def test_a_trouvaille_is_not_owned(cli, write_yaml):
    err = _one(cli, write_yaml, _ana(["filon-de-rubis"]))
    assert "'filon-de-rubis' is a trouvaille card: players own project cards and gifts" in err


@pytest.mark.parametrize("choices, message", [
    ({"natures": {"broche-de-lave": "red"}},
     "'broche-de-lave' is of nature red: only a multi-nature card's nature is chosen"),
    ({"natures": {"orgue-royal": "red"}},
     "choices.natures.orgue-royal: no card 'orgue-royal' among this player's cards"),
    ({"batons": {"broche-de-lave": {"option": 1}}}, "'broche-de-lave' is not a Bâton"),
    ({"bonuses": {"broche-de-lave": True}}, "'broche-de-lave' has no gold bonus"),
    ({"batons": {"baton-du-feu": {"option": 6}}}, "choices.batons.baton-du-feu.option: must be ≤ 5, got 6"),
])
def test_choices_about_cards_that_cannot_take_them(cli, write_yaml, choices, message):
    state = {"mode": "avance", "players": [{"name": "Ana", "cards": ["broche-de-lave", "baton-du-feu"],
                                            "choices": choices}, BOB]}
    assert message in _one(cli, write_yaml, state)


@pytest.mark.parametrize("count", [1, 6])
def test_player_count(cli, write_yaml, count):
    players = [{"name": f"P{i}", "king": i == 0} for i in range(count)]
    err = _one(cli, write_yaml, {"players": players})
    assert err.endswith(f"players: {count} given, cristaux supports 2–5")


def test_every_rule_problem_is_reported_at_once(cli, write_yaml):
    state = {"mode": "classique", "players": [
        {"name": "Ana", "king": True, "cards": ["harpe-des-profondeurs", "calice-ardent", "cocard-ecarlate"],
         "stock": {"red": 1}, "choices": {"forge": {"red": 2}}},
        {"name": "Bob", "king": True, "cards": ["warhammer-forges", "warhammer-grandes-familles"]},
    ]}
    errors = _errors(cli, write_yaml, state)
    # two kings; Harpe and Calice not in classique; the Calice's paid; the unknown id; the forge
    # placement; Bob's two Warhammer sides.
    assert len(errors) == 7, errors
