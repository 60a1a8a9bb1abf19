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


def test_a_field_error_and_a_rule_error_come_back_together_each_with_its_line(cli, write_yaml):
    """Alice's coins are malformed (a field error, found reading the file); Ben names a card the
    deck does not have (a rule error): one run lists both, each with its line."""
    path = write_yaml("final.yaml", (
        "players:\n"
        "  - name: Alice\n"
        "    coins: -3\n"
        "    galleries: 12\n"
        "    first_to_finish: true\n"
        "    improvements: []\n"
        "    veins: {}\n"
        "    miners: 0\n"
        "  - name: Ben\n"
        "    coins: 10\n"
        "    galleries: 8\n"
        "    improvements: [nope]\n"
        "    veins: {}\n"
        "    miners: 0\n"))
    r = cli("score", "maphr", path)
    assert r.code == 1
    assert r.err.splitlines()[1:] == [
        f"  - {path}:3: player 'Alice' (#1): coins: must be ≥ 0, got -3",
        f"  - {path}:12: player 'Ben' (#2): improvements[0]: unknown improvement card 'nope' "
        "(give a card id of the maphr deck, or {name, colour, vp})",
    ]
    assert "(2 problems)" in r.err


def test_a_problem_of_the_whole_table_is_not_guessed_while_a_player_is_left_out(cli, write_yaml):
    # Ben alone, once Alice is left out, has not reached the galleries required: that «nobody
    # reached it» would be a guess, so only Alice's field error is listed
    path = write_yaml("final.yaml", (
        "players:\n"
        "  - {name: Alice, coins: -3, galleries: 12, improvements: [], veins: {}, miners: 0}\n"
        "  - {name: Ben, coins: 10, galleries: 8, improvements: [], veins: {}, miners: 0}\n"))
    r = cli("score", "maphr", path)
    assert r.code == 1
    assert r.err.splitlines()[1:] == [f"  - {path}:2: player 'Alice' (#1): coins: must be ≥ 0, got -3"]
