"""GameData typed over its card type: ``cards_as(kind, model)`` gives a game's cards as its own
models (no casts in the rules), and refuses a card of that kind that is not one."""

from dataclasses import replace

import pytest

from cardforge.data.loading import GameData, load_game_data
from cardforge.games import find_game
from cardforge.testing import rules_module

_mine_all_mine_cards = rules_module("mine_all_mine", "cards")
ScoreCard = _mine_all_mine_cards.ScoreCard
ShipCard = _mine_all_mine_cards.ShipCard
_tunhell_cards = rules_module("tunhell", "cards")
Dwarf = _tunhell_cards.Dwarf
EndOfMineCard = _tunhell_cards.EndOfMineCard
FoundCard = _tunhell_cards.FoundCard
MineCard = _tunhell_cards.MineCard
Trophy = _tunhell_cards.Trophy


def test_cards_as_gives_the_kind_in_data_order_as_its_model():
    data = load_game_data(find_game("tunhell"))
    dwarves = data.cards_as("dwarf", Dwarf)
    assert [c.id for c in dwarves] == [c.id for c in data.cards if c.kind == "dwarf"]
    assert dwarves and all(type(c) is Dwarf for c in dwarves)
    mines = data.cards_as("mine", FoundCard)  # a base class of the kind's model is a model of it too
    assert mines and all(type(c) is MineCard for c in mines)
    assert all(type(c) is EndOfMineCard for c in data.cards_as("end_of_mine", FoundCard))
    trophies = data.cards_as("trophy", Trophy)
    assert {t.most for t in trophies} <= {c.id for c in data.cards}
    assert data.cards_as("no-such-kind", Dwarf) == []


def test_cards_as_refuses_a_card_of_the_kind_that_is_not_the_model():
    data = load_game_data(find_game("mine_all_mine"))
    score = data.cards_as("score", ScoreCard)
    assert len(score) == 1 and score[0].track_max > 0
    with pytest.raises(TypeError, match=r"card '[^']+' of kind 'score' is a ScoreCard, not a ShipCard"):
        data.cards_as("score", ShipCard)


def test_a_plain_gamedata_is_over_cardbase_and_keeps_its_fields():
    data = load_game_data(find_game("tunhell"))
    plain: GameData = replace(data, cards=data.cards[:3])
    assert [c.id for c in plain.cards] == [c.id for c in data.cards[:3]]
    assert plain.card(data.cards[0].id) is data.cards[0]
