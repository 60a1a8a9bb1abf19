"""Every game's scoring vectors (`card_data/<game_id>/tests/scoring_vectors.yaml`), one runner.

Each vector is a final state and the result worked out BY HAND from the rules (the arithmetic in
the comment above it), scored through the CLI (`cardforge score GAME FILE --json`) and compared
value by value; a rejection vector is a file cardforge must refuse, with every problem line it must
list (FILE for the path). The format is described in DEVELOPING.md ("Tests").
"""

from __future__ import annotations

import pytest
from vectors_support import GAMES, load_vectors, state_text

from cardforge.games import game_ids

KEYS = {"id", "state", "file", "expect", "winners", "tie_break", "problems", "details"}
PLAYER_FIELDS = ("total", "rank", "grade")  # besides the categories of the breakdown


def _params():
    for game in game_ids():
        for v in load_vectors(game):
            yield pytest.param(game, v, id=f"{game}/{v['id']}")


PARAMS = list(_params())


def test_every_game_with_rules_has_vectors():
    # every vector file belongs to a game, and the five games with scoring rules have theirs
    files = {p.parent.parent.name for p in GAMES.glob("*/tests/scoring_vectors.yaml")}
    assert files <= set(game_ids())
    assert files >= {"cristaux", "imperial_miners", "maphr", "mine_all_mine", "tunhell"}


def test_vector_ids_are_unique_per_game():
    for game in game_ids():
        ids = [v["id"] for v in load_vectors(game)]
        assert len(ids) == len(set(ids)), game


@pytest.mark.parametrize(("game", "v"), PARAMS)
def test_scoring_vector(cli, write_yaml, game, v):
    assert set(v) <= KEYS, f"unknown keys {set(v) - KEYS}"
    assert ("state" in v) != ("file" in v), "a vector gives state: (a mapping) or file: (the text), not both"
    path = write_yaml("final.yaml", state_text(v))
    if "problems" in v:
        _check_rejection(cli, game, path, v)
    else:
        _check_sheet(cli, game, path, v)


def _check_sheet(cli, game, path, v):
    assert "expect" in v, "a vector gives expect: (or problems: for a rejection)"
    r = cli("score", game, path, "--json")
    assert r.code == 0, r.err
    out = r.json
    assert out["game"] == game
    categories = out["categories"]
    players = {p["name"]: p for p in out["players"]}
    assert all(list(p["breakdown"]) == categories for p in out["players"])
    for name, wanted in v["expect"].items():
        assert name in players, f"no player {name!r} in {list(players)}"
        got = players[name]
        for key, value in wanted.items():
            if key in PLAYER_FIELDS:
                actual = got.get(key)
            else:
                assert key in categories, f"{name}: {key!r} is not a category of {game} ({categories})"
                actual = got["breakdown"][key]
            assert actual == value, f"{name} {key}: got {actual!r}, expected {value!r}"
        if "grade" in got:
            assert "grade" in wanted, f"{name}: a grade ({got['grade']!r}) the vector does not give"
    if set(v["expect"]) == set(players):  # every player given: in the order of the file
        assert list(v["expect"]) == list(players)
    if "winners" in v:
        assert out["winners"] == v["winners"]
    if "tie_break" in v:  # how a tie was broken (null: there was none to break)
        assert out.get("tie_break") == v["tie_break"]


def _problem_lines(err: str) -> list[str]:
    return [line.removeprefix("  - ") for line in err.splitlines() if line.startswith("  - ")]


def _check_rejection(cli, game, path, v):
    assert "expect" not in v and "winners" not in v
    r = cli("score", game, path)
    assert r.code == 1, r.out
    assert "Traceback" not in r.err
    expected = [line.replace("FILE", str(path)) for line in v["problems"]]
    assert _problem_lines(r.err) == expected, r.err
    n = len(expected)
    assert f"cannot score {path} ({n} problem{'s' if n > 1 else ''}):" in r.err
