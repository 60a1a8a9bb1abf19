"""cardforge.api, the one module a game's rules import: a small game written with it alone —
its rules import nothing else of cardforge, and neither does this test, which runs cardforge
as a user does (``python -m cardforge``). The game is docs/game-api.md's worked example."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cardforge.api as api

HERE = Path(__file__)

GAME_YAML = """\
title: Trésors du dragon
players: 2-4
rules: rules.py
categories:
  - {id: gems, label: Gemmes, label_en: Gems, score: {sum: value, of: hoard}}
  - {id: dragon, label: Dragon, label_en: Dragon}
deck:
  version: "2"
  card_size: mini
  card_files: [gems.yaml]
  kinds:
    gem:
      label: Gemme
      plural: Gemmes
      fields:
        value: {type: int, min: 1, max: 5, required: true}
        colour: {type: choice, choices: [rouge, vert, bleu], required: true}
"""

GEMS_YAML = """\
defaults: {kind: gem}
cards:
  - {id: rubis, name: Rubis, value: 3, colour: rouge, copies: 2}
  - {id: grenat, name: Grenat, value: 1, colour: rouge}
  - {id: emeraude, name: Émeraude, value: 4, colour: vert}
  - {id: jade, name: Jade, value: 2, colour: vert}
  - {id: saphir, name: Saphir, value: 2, colour: bleu}
"""

RULES = '''\
"""Trésors du dragon: gems score their value (declared in game.yaml); each dragon egg scores
the player's most valuable gem again (Python: the vocabulary has no "largest value")."""

from __future__ import annotations

from cardforge.api import Field, GameData, Model, PlayerResult, Problem, ScoreResult, hookimpl, sheet


class Player(Model):
    name: str = Field(min_length=1)
    hoard: list[str] = Field(default_factory=list, json_schema_extra=sheet.cards("gem"))
    eggs: int = Field(default=0, ge=0)


class FinalState(Model):
    players: list[Player] = Field(min_length=1)


score_model = FinalState


def check_data(data: GameData) -> list[Problem]:
    colours = {card.colour for card in data.cards}
    return [Problem(f"no gem is {colour}; the dragon wants every colour", field="colour")
            for colour in ("rouge", "vert", "bleu") if colour not in colours]


@hookimpl
def score(state: FinalState, data: GameData) -> ScoreResult:
    results = []
    for player in state.players:
        best = max((data.card(gem).value for gem in player.hoard), default=0)
        results.append(PlayerResult(player.name, {"dragon": player.eggs * best}))
    return ScoreResult(results)
'''

FINAL = """\
players:
  - {name: Alice, hoard: [rubis, emeraude, grenat], eggs: 2}
  - {name: Bruno, hoard: [saphir, jade, rubis], eggs: 1}
"""


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "tresors"
    folder.mkdir()
    for name, text in (("game.yaml", GAME_YAML), ("gems.yaml", GEMS_YAML), ("rules.py", RULES),
                       ("final.yaml", FINAL)):
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def cardforge(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardforge", *map(str, args)], capture_output=True,
                          text=True, encoding="utf-8", timeout=300, check=False)


@pytest.mark.slow  # runs cardforge in a subprocess
def test_a_game_written_with_the_api_alone_scores(game: Path) -> None:
    """Worked by hand: Alice holds rubis 3 + émeraude 4 + grenat 1 = 8 (the declared row) and
    2 eggs × her best gem 4 = 8 (the hook's row): 16; Bruno saphir 2 + jade 2 + rubis 3 = 7, and
    1 egg × 3 = 3: 10. The hook takes its arguments in its own order (called by keyword)."""
    r = cardforge("score", game, game / "final.yaml", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert [(p["name"], p["breakdown"], p["total"], p["rank"]) for p in out["players"]] == [
        ("Alice", {"gems": 8, "dragon": 8}, 16, 1), ("Bruno", {"gems": 7, "dragon": 3}, 10, 2)]
    assert out["winners"] == ["Alice"]


@pytest.mark.slow  # runs cardforge in a subprocess
def test_its_data_check_is_a_hook_too(game: Path) -> None:
    assert cardforge("check", game).returncode == 0
    gems = game / "gems.yaml"
    gems.write_text(GEMS_YAML.replace("colour: bleu", "colour: vert"), encoding="utf-8")
    r = cardforge("check", game)
    assert r.returncode == 1
    assert "no gem is bleu; the dragon wants every colour" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("old", "new", "message"), [
    ("def score(state", "def scroe(state", "'scroe' is not a hook; did you mean 'score'?"),
    ("def score(state: FinalState, data: GameData)", "def score(final: FinalState, data: GameData)",
     "'score' takes (final, data); the hook is called as score(data, state) (by keyword: 'final' is not "
     "among its arguments; no parameter 'state')"),
    ("def check_data(data: GameData)", "def check_data(data: GameData, colours)",
     "'check_data' takes (data, colours); the hook is called as check_data(data) (by keyword: 'colours' is "
     "not among its arguments)"),
])
def test_a_hook_that_is_not_the_spec_is_refused_where_it_is(game: Path, old: str, new: str, message: str) -> None:
    rules = game / "rules.py"
    rules.write_text(RULES.replace(old, new), encoding="utf-8")
    line = next(i for i, text in enumerate(rules.read_text(encoding="utf-8").splitlines(), 1) if new in text)
    r = cardforge("score", game, game / "final.yaml")
    assert r.returncode == 1, r.stdout
    assert f"rules.py:{line}: {message}" in r.stderr
    assert "Traceback" not in r.stderr


def test_the_api_names_every_hook_as_a_pluggy_spec() -> None:
    """Each function of GameHooks is marked as a spec of the project "cardforge"; the values
    (card_models, score_model…) are properties: a rules module binds them to a name."""
    functions = [n for n, v in vars(api.GameHooks).items() if not n.startswith("_") and callable(v)]
    values = [n for n, v in vars(api.GameHooks).items() if isinstance(v, property)]
    assert functions == ["check_data", "setup_counts", "setup_steps", "deal", "check_setup", "check_final_state",
                         "score", "player_names", "boards", "aids", "blocks"]
    assert values == ["card_models", "sections", "setup_model", "score_model", "SETUP_LABELS"]
    assert all(hasattr(getattr(api.GameHooks, n), "cardforge_spec") for n in functions)
    assert api.hookimpl.project_name == api.hookspec.project_name == "cardforge"


def test_everything_the_api_exports_is_there() -> None:
    assert all(hasattr(api, name) for name in api.__all__)
    assert len(set(api.__all__)) == len(api.__all__)


def test_this_test_and_its_game_import_only_the_api() -> None:
    for source in (HERE.read_text(encoding="utf-8"), RULES):
        imported = set(re.findall(r"^\s*(?:from|import)\s+(cardforge[\w.]*)", source, re.MULTILINE))
        assert imported == {"cardforge.api"}, imported
