"""Contract tests over every registered game: the promises each game keeps to the engine."""

from __future__ import annotations

import re

import pytest

from cardforge.data.loading import check_game_data, game_dir
from cardforge.engine.setup import run_setup
from cardforge.games import all_games, find_game, game_ids
from cardforge.games.base import Game
from cardforge.resources import shipped_data_root

GAMES = game_ids()


@pytest.fixture(params=GAMES)
def game(request) -> Game:
    return find_game(request.param)


def test_shipped_games_are_found_by_scanning_their_folders():
    folders = sorted(f.name for f in shipped_data_root().iterdir() if (f / "game.yaml").is_file())
    assert folders and GAMES[:len(folders)] == folders
    assert [g.id for g in all_games()] == GAMES


def test_metadata(game):
    assert game.title and game.prints
    assert 1 <= game.min_players <= game.max_players <= 8
    assert game.default_mode in game.modes
    flags = [game.option_flag(o) for o in game.options]
    assert len(flags) == len(set(flags))


def test_score_categories_declared_once_with_french_labels(game):
    ids = [c.id for c in game.categories]
    assert ids and len(ids) == len(set(ids))
    for c in game.categories:
        assert re.fullmatch(r"[a-z0-9_]+", c.id)
        assert c.label and c.label_en
    assert len({t.id for t in game.tie_breakers}) == len(game.tie_breakers)


def test_data_folder_exists_and_validates(game):
    assert game_dir(game).is_dir()
    data, problems = check_game_data(game)
    errors = [str(p) for p in problems if not p.is_warning]
    assert errors == []
    assert data is not None and data.cards
    for card in data.cards:
        assert card.kind in game.card_models


def test_check_command_exits_0(game, cli):
    r = cli("check", game.id)
    assert r.code == 0, r.err
    assert f"{game.id}: OK" in r.out


def test_models_forbid_unknown_fields(game):
    for model in game.card_models.values():
        assert model.model_config.get("extra") == "forbid"
    if game.score_model is not None:
        assert game.score_model.model_config.get("extra") == "forbid"


def test_setup_contract_for_every_player_count(game):
    data, _ = check_game_data(game)
    for players in range(game.min_players, game.max_players + 1):
        for mode in game.modes:
            result = run_setup(game, data, players, mode, seed=11)
            assert list(result) == ["game", "player_count", "mode", "counts", "steps", "deal"]
            assert result["game"] == game.id and result["player_count"] == players and result["mode"] == mode
            assert result["counts"] and result["steps"] and all(isinstance(s, str) for s in result["steps"])
            again = run_setup(game, data, players, mode, seed=11)
            assert again == result  # same seed, same deal


def test_setup_rejects_player_counts_outside_the_range(game, cli):
    r = cli("setup", game.id, "--players", str(game.max_players + 1))
    assert r.code == 1
    assert f"{game.max_players + 1} given, {game.id} supports {game.players_label}" in r.err


def test_rule_code_agrees_with_game_yaml_on_player_counts(game):
    """Rule modules that name the player range (for their messages) say what game.yaml says."""
    for name, value in (("MIN_PLAYERS", game.min_players), ("MAX_PLAYERS", game.max_players)):
        if hasattr(game.rules, name):
            assert getattr(game.rules, name) == value, name


def test_every_declared_option_reaches_the_setup_hooks(game):
    data, _ = check_game_data(game)
    for option_id, option in game.options.items():
        assert game.option_flag(option_id).startswith("--")
        counts = game.setup_counts(game.min_players, game.default_mode, {})
        assert counts  # defaults filled in for every declared option
