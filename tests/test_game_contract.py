"""The game contract (cardforge/games/contract.py): one typed protocol for every hook, checked
when a game loads — a misspelled hook, a wrong signature, a value of the wrong type or a public
helper in a rules module is a located error (exit 1), never a silent fall-back."""

from __future__ import annotations

import re
import shutil
import types
from pathlib import Path

import pytest

from cardforge.errors import DataError
from cardforge.games import find_game, game_ids, load_game_folder
from cardforge.games.contract import HOOKS, PRINTABLES, GameRules, check_rules, hooks_table

from conftest import FIXTURES

ROOT = Path(__file__).resolve().parent.parent
SIXTH = FIXTURES / "games" / "chasse_aux_reliques"

GOOD_RULES = '''from cardforge.scores import PlayerResult, ScoreResult


def score(data, state):
    return ScoreResult([PlayerResult(p.name, {"cartes": 1, "objectifs": 0}, (0,)) for p in state.players])
'''


@pytest.fixture
def game_with_rules(cli, tmp_path):
    """``cardforge new`` then a ``rules.py`` named in its game.yaml; returns (folder, write)."""
    folder = tmp_path / "jeu"
    assert cli("new", folder, "--lang", "fr").code == 0
    spec = folder / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "\nrules: rules.py\n", encoding="utf-8")

    def write(source: str) -> Path:
        (folder / "rules.py").write_text(source, encoding="utf-8")
        return folder

    return folder, write


def _line(path: Path, needle: str) -> int:
    return next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in text)


def test_a_misspelled_hook_is_refused_with_the_closest_hook(cli, game_with_rules):
    folder, write = game_with_rules
    write(GOOD_RULES.replace("def score(", "def scroe("))
    line = _line(folder / "rules.py", "def scroe")
    for args in (("score", folder, folder / "examples" / "final.yaml"), ("check", folder),
                 ("setup", folder, "--players", "2")):
        r = cli(*args)
        assert r.code == 1, (args, r.out, r.err)
        assert f"rules.py:{line}: 'scroe' is not a hook; did you mean 'score'?" in r.err
        assert "Traceback" not in r.err


def test_the_same_rules_spelt_right_score(cli, game_with_rules):
    folder, write = game_with_rules
    write(GOOD_RULES)
    r = cli("score", folder, folder / "examples" / "final.yaml")
    assert r.code == 0, r.err
    assert re.search(r"Total\s+1\s+1", r.out)  # the rules' score, not the pad's (12 and 12)


@pytest.mark.parametrize(("source", "needle", "message"), [
    (GOOD_RULES.replace("def score(data, state)", "def score(state)"), "def score",
     "'score' takes (state); the hook is called as score(data, state)"),
    (GOOD_RULES + "\n\ndef setup_counts(players, mode):\n    return {}\n", "def setup_counts",
     "'setup_counts' takes (players, mode); the hook is called as setup_counts(players, mode, options)"),
    (GOOD_RULES + "\n\ndef check_data(data, *, strict):\n    return []\n", "def check_data",
     "'check_data' takes (data, strict); the hook is called as check_data(data)"),
    (GOOD_RULES + "\n\ncard_models = ['action']\n", "card_models =",
     "'card_models' must be a mapping of kind → CardBase subclass, got a list"),
    (GOOD_RULES + "\n\nscore_model = dict\n", "score_model =",
     "'score_model' must be a pydantic model class, got the class dict"),
    (GOOD_RULES + "\n\nsectoins = ()\n", "sectoins =", "'sectoins' is not a hook; did you mean 'sections'?"),
    (GOOD_RULES + "\n\ndef total(cards):\n    return sum(cards)\n", "def total",
     "'total' is not a hook (the hooks: GameHooks in cardforge.api, docs/game-api.md); a helper is private "
     "('_total') or lives in another module"),
    (GOOD_RULES + "\n\nSETUP_LABELS = {'main': 3}\n", "SETUP_LABELS =",
     "'SETUP_LABELS' must be a mapping of setup number → label, got a dict"),
])
def test_a_hook_of_the_wrong_shape_is_refused_where_it_is(cli, game_with_rules, source, needle, message):
    folder, write = game_with_rules
    write(source)
    r = cli("check", folder)
    assert r.code == 1, r.out
    assert f"rules.py:{_line(folder / 'rules.py', needle)}: {message}" in r.err


def test_every_problem_of_a_rules_module_is_listed_at_once(game_with_rules):
    folder, write = game_with_rules
    write(GOOD_RULES.replace("def score(data, state)", "def scroe(data, state)") + "\n\ndef deal(data):\n    return {}\n")
    with pytest.raises(DataError) as info:
        load_game_folder(folder)
    messages = [p.message for p in info.value.problems]
    assert len(messages) == 2 and "'scroe' is not a hook; did you mean 'score'?" in messages
    assert any(m.startswith("'deal' takes (data); the hook is called as deal(data, players, mode, options, rng)")
               for m in messages)


def test_what_a_rules_module_may_hold_besides_hooks(game_with_rules):
    """Imports, modules, constants, private helpers and the game's model classes are not hooks."""
    folder, write = game_with_rules
    write('''from __future__ import annotations

import random
from typing import Any, Literal

from cardforge.data.models import CardBase
from cardforge.scores import PlayerResult, ScoreResult

BONUS = 3


class Action(CardBase):
    kind: Literal["action"]
    cost: int = 0
    effect: str = ""


card_models = {"action": Action}


def _points(player: Any) -> int:
    return BONUS + random.Random(0).randint(0, 0)


def score(data, state, *extra):
    return ScoreResult([PlayerResult(p.name, {"cartes": _points(p), "objectifs": 0}) for p in state.players])
''')
    game = load_game_folder(folder)
    assert sorted(game.hooks.found) == ["card_models", "score"]


# --- printables.py beside a rules package ------------------------------------------------------

@pytest.fixture
def sixth(tmp_path):
    folder = tmp_path / "chasse_aux_reliques"
    shutil.copytree(SIXTH, folder)
    return folder


@pytest.mark.parametrize(("addition", "message"), [
    ("\n\ndef bocks(data):\n    return {}\n", "'bocks' is not a hook; did you mean 'blocks'?"),
    ("\n\ndef boards():\n    return []\n", "'boards' takes (); the hook is called as boards(data)"),
    ("\n\ndef score(data, state):\n    return None\n",
     "'score' is a rules hook: cardforge reads it from the rules module, not printables.py"),
    ("\n\ndef table(data):\n    return []\n",
     "'table' is not a hook (printables.py's hooks are boards, aids, blocks, SETUP_LABELS)"),
])
def test_printables_py_is_checked_when_the_game_loads(cli, sixth, addition, message):
    """Without importing it (a score needs no printables): ``score`` fails on a misspelled
    printables hook as ``build`` would."""
    path = sixth / "rules" / "printables.py"
    path.write_text(path.read_text(encoding="utf-8") + addition, encoding="utf-8")
    line = len(path.read_text(encoding="utf-8").splitlines()) - 1
    final = sixth / "final.yaml"
    final.write_text("players:\n  - {name: Ana, relics: [couronne]}\n  - {name: Ben, relics: [dent]}\n",
                     encoding="utf-8")
    for args in (("score", sixth, final), ("build", sixth, "--only", "aids", "-o", sixth / "out")):
        r = cli(*args)
        assert r.code == 1, args
        assert f"printables.py:{line}: {message}" in r.err
    path.write_text(path.read_text(encoding="utf-8").replace(addition, ""), encoding="utf-8")
    assert cli("score", sixth, final).code == 0


def test_a_printables_hook_in_the_package_init_is_refused(sixth):
    path = sixth / "rules" / "__init__.py"
    path.write_text(path.read_text(encoding="utf-8") + "\n\ndef aids(data):\n    return []\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_game_folder(sixth)
    (problem,) = info.value.problems
    assert problem.message.startswith("'aids' is a printables hook: this rules package has a printables.py")


def test_printables_py_is_checked_whole_when_imported(sixth):
    """What the source cannot tell (a hook bound to a value) is refused when it is imported."""
    path = sixth / "rules" / "printables.py"
    path.write_text(path.read_text(encoding="utf-8") + "\n\naids = []\n", encoding="utf-8")
    game = load_game_folder(sixth)  # the source check passes: an assignment
    with pytest.raises(DataError) as info:
        game.printables()
    assert [p.message for p in info.value.problems] == ["'aids' must be a function aids(data), got a list"]


# --- entry points and games made in code ---------------------------------------------------------

def test_a_plug_in_gets_the_same_check(monkeypatch, tmp_path, cli):
    from types import SimpleNamespace

    from cardforge import games

    folder = tmp_path / "plugin"
    assert cli("new", folder, "--lang", "fr").code == 0
    source = GOOD_RULES.replace("def score(", "def scroe(")
    module = types.ModuleType("reliques_plugin")
    module.__file__ = str(folder / "reliques_plugin.py")
    (folder / "reliques_plugin.py").write_text(source, encoding="utf-8")
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    module.GAME_FOLDER = str(folder)
    entry = SimpleNamespace(value="reliques_plugin", load=lambda: module)
    monkeypatch.setattr(games, "_entry_points", lambda: {"mon_plugin": entry})
    with pytest.raises(DataError) as info:
        games.find_game("mon_plugin")
    (problem,) = info.value.problems
    assert str(problem).endswith("reliques_plugin.py:4: 'scroe' is not a hook; did you mean 'score'?")


def test_a_game_made_in_code_names_only_hooks():
    from types import SimpleNamespace

    from cardforge.games.base import Game

    spec = {"title": "t", "players": "2", "categories": [{"id": "a", "label": "A"}]}
    with pytest.raises(DataError) as info:
        Game.define("t", spec, rules=SimpleNamespace(scroe=lambda data, state: None))
    assert "'scroe' is not a hook; did you mean 'score'?" in str(info.value)


# --- the shipped games and the fixtures keep the contract ---------------------------------------

@pytest.mark.parametrize("game_id", game_ids())
def test_the_shipped_games_keep_the_contract(game_id):
    game = find_game(game_id)
    assert game.hooks.found and set(game.hooks.found) <= set(HOOKS) - PRINTABLES
    printables = game.printables()  # imported and checked whole
    assert printables.blocks is not None and isinstance(printables.SETUP_LABELS, dict)


@pytest.mark.parametrize("folder", [SIXTH, FIXTURES / "render" / "card_data" / "fixture_deck"],
                         ids=lambda p: p.name)
def test_the_fixture_games_keep_the_contract(folder):
    game = load_game_folder(folder)
    assert game.hooks.found
    game.printables()


def test_check_rules_of_no_rules_is_no_hooks():
    assert check_rules(None, "x").found == {}


# --- one definition: the protocol, its checks and DEVELOPING.md ---------------------------------

def test_the_protocol_lists_every_hook_with_a_check():
    members = [n for n in vars(GameRules) if not n.startswith("_")]
    assert list(HOOKS) == members
    from cardforge.games.contract import _VALUE_CHECKS

    assert sorted(_VALUE_CHECKS) == sorted(n for n, s in HOOKS.items() if not s.is_function)
    assert PRINTABLES <= set(HOOKS)


def test_developing_md_shows_the_protocol():
    """The hooks table in the maintainers' notes (docs/internals/games.md) is the protocol's (``hooks_table()``): edit the protocol,
    then paste ``python -c 'from cardforge.games.contract import hooks_table; print(hooks_table())'``."""
    text = (ROOT / "docs" / "internals" / "games.md").read_text(encoding="utf-8")
    assert hooks_table() in text, hooks_table()


# --- pluggy: marked implementations, keyword calls ------------------------------------------------
# (each rules.py in its own folder: a rules module is imported once a process)

MARKED = GOOD_RULES.replace("from cardforge.scores import", "from cardforge.api import hookimpl\nfrom cardforge.scores import")


def test_a_marked_hook_may_take_another_name(cli, game_with_rules):
    """``@hookimpl(specname="score")`` implements score under another name, as pluggy allows."""
    folder, write = game_with_rules
    write(MARKED.replace("def score(", '@hookimpl(specname="score")\ndef my_score('))
    r = cli("score", folder, folder / "examples" / "final.yaml")
    assert r.code == 0, r.err
    assert re.search(r"Total\s+1\s+1", r.out)  # the marked function's score, not the pad's


@pytest.mark.parametrize(("source", "message"), [
    (MARKED.replace("def score(", '@hookimpl(specname="scroe")\ndef my_score('),
     "'my_score' implements 'scroe' (@hookimpl(specname=...)), which is not a hook; did you mean 'score'?"),
    (MARKED.replace("def score(", '@hookimpl(specname="score")\ndef my_score(') + "\n\n" + GOOD_RULES.split("\n\n\n")[1],
     "implements 'score', which this module implements already"),
])
def test_a_marked_hook_is_checked_too(cli, game_with_rules, source, message):
    folder, write = game_with_rules
    write(source)
    r = cli("check", folder)
    assert r.code == 1
    assert message in r.err


def test_hooks_are_called_by_keyword_through_pluggy(game_with_rules):
    """The parameters are matched by name, in any order."""
    folder, write = game_with_rules
    write(GOOD_RULES.replace("def score(data, state)", "def score(state, data)"))
    game = load_game_folder(folder)
    assert game.hooks.call("score", data=None, state=types.SimpleNamespace(players=[])).players == []


def test_a_parameter_named_otherwise_is_refused(game_with_rules):
    folder, write = game_with_rules
    write(GOOD_RULES.replace("def score(data, state)", "def score(d, s)"))
    with pytest.raises(DataError) as info:
        load_game_folder(folder)
    assert [p.message for p in info.value.problems] == [
        "'score' takes (d, s); the hook is called as score(data, state) "
        "(by keyword: 'd', 's' are not among its arguments; no parameter 'data', 'state')"]


def test_a_hook_parameter_with_a_default_is_never_given():
    """pluggy passes only the parameters without a default: ``state=None`` would never be set."""
    from types import SimpleNamespace

    from cardforge.games.base import Game

    spec = {"title": "t", "players": "2", "categories": [{"id": "a", "label": "A"}]}
    with pytest.raises(DataError) as info:
        Game.define("t", spec, rules=SimpleNamespace(score=lambda data, state=None: None))
    assert ("'score' takes (data, state); the hook is called as score(data, state) "
            "(by keyword: 'state' with a default is never given)") in str(info.value)


def test_a_spec_can_grow_a_parameter_without_breaking_a_game():
    """A parameter a spec gains later has a default there: optional for an implementation, so
    one written before it keeps working, and one written after may name it."""
    from cardforge.games.contract import HookSpec, _wrong_shape

    grown = HookSpec("score", ("data", "state", "lang"), "", "", required=("data", "state"))
    assert _wrong_shape(grown, lambda data, state: None) is None
    assert _wrong_shape(grown, lambda lang, state, data: None) is None
    assert _wrong_shape(grown, lambda data: None) == (
        "'score' takes (data); the hook is called as score(data, state, lang) (by keyword: no parameter 'state')")
