"""What the engine checks for every game, whatever its rule code does."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from pydantic import Field

from cardforge.data.models import Model
from cardforge.engine.scoring import GameRulesError, score_state
from cardforge.errors import ScoreInputError
from cardforge.games.base import Game
from cardforge.scores import PlayerResult, ScoreResult


class Player(Model):
    name: str
    points: int = Field(0, ge=0)


class State(Model):
    players: list[Player]


def _game(score) -> Game:
    """A 2–4 player game whose rule code checks nothing: no check_final_state at all."""
    return Game.define("bare", {
        "title": "Bare", "players": "2-4",
        "categories": [{"id": "points", "label": "Points"}, {"id": "bonus", "label": "Bonus"}],
    }, rules=SimpleNamespace(score_model=State, score=score))


def _full(data, state):
    return ScoreResult([PlayerResult(p.name, {"points": p.points, "bonus": 0}) for p in state.players])


def test_one_player_for_a_two_to_four_player_game_is_refused_by_the_engine():
    with pytest.raises(ScoreInputError) as exc:
        score_state(_game(_full), None, State(players=[Player(name="Solo", points=3)]), "final.yaml")
    assert [str(p) for p in exc.value.problems] == ["final.yaml: players: 1 given, bare supports 2–4"]


def test_names_must_differ_and_the_second_is_named():
    state = State(players=[Player(name="Ana"), Player(name="ana ")])
    with pytest.raises(ScoreInputError) as exc:
        score_state(_game(_full), None, state, "final.yaml")
    assert [str(p) for p in exc.value.problems] == [
        "final.yaml: player 'ana ' (#2): name: duplicate name (also player #1); each player needs their own name"]


def test_a_category_the_rules_forget_is_a_bug_never_a_silent_zero():
    def forgetful(data, state):
        return ScoreResult([PlayerResult(p.name, {"points": p.points}) for p in state.players])

    state = State(players=[Player(name="Ana", points=2), Player(name="Ben", points=1)])
    with pytest.raises(GameRulesError, match=r"the rules of bare scored 'Ana' with no value for the declared "
                                             r"categories \['bonus'\]"):
        score_state(_game(forgetful), None, state)
    sheet = score_state(_game(_full), None, state)
    assert [(p.name, p.total, p.rank) for p in sheet.players] == [("Ana", 2, 1), ("Ben", 1, 2)]
