"""The card data: the box's contents, double-sided planets, and the provisional design."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.testing import rules_module

_mine_all_mine_cards = rules_module("mine_all_mine", "cards")
TURN_LABELS = _mine_all_mine_cards.TURN_LABELS

GAME = find_game("mine_all_mine")
SHIPPED = Path(__file__).resolve().parents[3] / "card_data" / "mine_all_mine"


@pytest.fixture(scope="module")
def data():
    return load_game_data(GAME)


def test_check_passes_and_counts_the_box(cli):
    r = cli("check", "mine_all_mine", "--json")
    assert r.code == 0, r.err
    out = r.json
    assert out["by_kind"] == {"ship": 12, "planet": 3, "extra": 2, "score": 1}
    # card values and texts are not in the rulebook, nor is the board; the aid
    # (phases, arrival rule) is.
    assert out["entries"] == 20 and out["provisional"] == 19


def test_ship_cards_numbered_1_to_12_with_3_ships_and_an_action(data):
    ships = data.cards_of("ship")
    assert sorted(c.number for c in ships) == list(range(1, 13))
    for card in ships:
        assert len(card.ships) == 3 and card.action.text
        assert card.option(4) is card.action and card.option(1) is card.ships[0]


def test_planet_cards_have_a_planet_and_a_moon_face(data, cli):
    planets = data.cards_of("planet")
    assert sorted(c.number for c in planets) == [1, 2, 3]
    assert GAME.card_models["planet"].faces == ("planet", "moon")
    for card in planets:
        for side in ("planet", "moon"):
            face = card.face(side)
            assert tuple(t.label for t in face.turns) == TURN_LABELS[side]
            assert len(face.resources) == 3
    assert data.meta.kinds["planet"].back == "moon"
    assert data.meta.backs["moon"].layout == "moon"


def test_the_provisional_design(data):
    """Fast ships carry little, strong ships are slow, the options of a card trade off."""
    for card in data.cards_of("ship"):
        for ship in card.ships:
            assert ship.speed + ship.attack + ship.cargo == 8, (card.id, ship.name)
            if ship.speed >= 5:
                assert ship.cargo <= 3, (card.id, ship.name)
            if ship.attack >= 5:
                assert ship.speed <= 2, (card.id, ship.name)
            if ship.cargo >= 5:
                assert ship.speed <= 3 and ship.attack <= 2, (card.id, ship.name)
        assert card.action.speed + card.action.attack + card.action.cargo == 5, card.id
    for card in data.cards_of("planet"):
        assert sum(card.moon.resources) < sum(card.planet.resources), card.id


def broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    root = tmp_path / "data"
    shutil.copytree(SHIPPED, root / "mine_all_mine")
    path = root / "mine_all_mine" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def check_errors(cli, root: Path) -> list[str]:
    r = cli("--data", root, "check", "mine_all_mine")
    assert r.code == 1
    return [line.removeprefix("error: ") for line in r.err.splitlines() if line.startswith("error: ")]


def test_a_repeated_ship_number(cli, tmp_path):
    root = broken_copy(tmp_path, "ships.yaml", "number: 12", "number: 11")
    errors = check_errors(cli, root)
    assert len(errors) == 2
    assert errors[0].endswith("card 'ship-12' (#12): number: number 11 is already card 'ship-11'")
    assert errors[1].endswith("mine_all_mine: ship: no ship card numbered 12")


def test_a_ship_card_needs_3_ships(cli, tmp_path):
    root = broken_copy(tmp_path, "ships.yaml", "      - {name: Gabare, speed: 2, attack: 0, cargo: 6}\n", "")
    (error,) = check_errors(cli, root)
    assert "card 'ship-11' (#11): ships: must have at least 3 item(s), got 2" in error


def test_an_action_text_must_show_its_values(cli, tmp_path):
    root = broken_copy(tmp_path, "ships.yaml", 'text: "Votre flotte gagne +5 :speed:.", speed: 5',
                       'text: "Votre flotte gagne +4 :speed:.", speed: 5')
    (error,) = check_errors(cli, root)
    assert error.endswith("card 'ship-01' (#1): action.text: the text must show the values the action adds "
                          "(+5 :speed:), it shows +4 :speed:")


def test_planet_faces_have_their_turn_labels(cli, tmp_path):
    root = broken_copy(tmp_path, "planets.yaml", "{label: Quatrième, resources: 2}", "{label: Premier, resources: 2}")
    (error,) = check_errors(cli, root)
    assert ("card 'planet-1' (#1): moon: turn labels must be Quatrième, Cinquième, Sixième on the moon face (low end), "
            "got Premier, Cinquième, Sixième") in error


def test_the_box_holds_one_score_card_and_two_extras(cli, tmp_path):
    root = broken_copy(tmp_path, "extras.yaml", "    track_max: 40\n", "    track_max: 40\n    copies: 2\n")
    (error,) = check_errors(cli, root)
    assert error.endswith("mine_all_mine: score: the game has 1 score card(s) (rulebook, « Contenu »), "
                          "the data prints 2")
