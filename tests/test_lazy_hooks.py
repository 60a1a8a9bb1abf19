"""Lazy hooks (issue 43, decision 3): a rules package may import hooks from its submodules on
first use (``cardforge.api.lazy_hooks``, PEP 562), so a command that needs none of them (a deck
build from the data cache) never imports scoring or setup. The contract still holds in full:
each name is checked when the game loads, each hook whole before a command uses it, and
``cardforge check`` loads them all — a broken lazily loaded hook is reported there."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from cardforge.errors import DataError
from cardforge.games import load_game_folder

ROOT = Path(__file__).resolve().parent.parent

SCORING = '''from cardforge.scores import PlayerResult, ScoreResult


def score(data, state):
    return ScoreResult([PlayerResult(p.name, {"cartes": 1, "objectifs": 0}, (0,)) for p in state.players])
'''

LAZY_INIT = '''from cardforge.api import lazy_hooks

__getattr__ = lazy_hooks(__name__, {hooks})
'''


@pytest.fixture
def lazy_game(cli, tmp_path):
    """``cardforge new`` then a ``rules/`` package whose ``__init__.py`` loads hooks lazily;
    ``write(hooks, scoring=..., **other_files)`` → the folder."""
    folder = tmp_path / "jeu"
    assert cli("new", folder, "--lang", "fr").code == 0
    spec = folder / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "\nrules: rules\n", encoding="utf-8")
    (folder / "rules").mkdir()

    def write(hooks: str = 'score="scoring"', scoring: str = SCORING, **files: str) -> Path:
        (folder / "rules" / "__init__.py").write_text(LAZY_INIT.format(hooks=hooks), encoding="utf-8")
        (folder / "rules" / "scoring.py").write_text(scoring, encoding="utf-8")
        for name, text in files.items():
            (folder / "rules" / f"{name}.py").write_text(text, encoding="utf-8")
        return folder

    return write


def test_a_lazy_hook_is_imported_when_first_used_and_scores(cli, lazy_game):
    folder = lazy_game()
    game = load_game_folder(folder)
    scoring = f"{game.rules.__name__}.scoring"
    assert game.hooks.lazy == {"score": (scoring, "score")}
    assert game.has_hook("score") and game.hooks.defines("score")
    assert scoring not in sys.modules  # asked about, never imported
    assert game.hooks.get("score") is sys.modules[scoring].score
    r = cli("score", folder, folder / "examples" / "final.yaml")
    assert r.code == 0, r.err
    assert re.search(r"Total\s+1\s+1", r.out)  # the rules' score (1 each), not the pad's (12 and 12)


def test_a_lazy_hook_may_be_another_attribute_of_its_module(lazy_game):
    folder = lazy_game('score="scoring:count"', scoring=SCORING.replace("def score(", "def count("))
    game = load_game_folder(folder)
    assert game.hooks.get("score").__name__ == "count"


def test_lazy_and_eager_hooks_are_called_through_one_plug_in_manager(lazy_game):
    """Loaded before the manager is made or after, a lazy hook is called by keyword through pluggy,
    beside the package's own hooks; a lazy printables hook is one of the game's printables."""
    folder = lazy_game('score="scoring", boards="extra"', extra="def boards(data):\n    return ['plateau']\n")
    init = folder / "rules" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + "\n\ndef setup_counts(players, mode, options):\n"
                    "    return {'mains': players * 2}\n", encoding="utf-8")
    game = load_game_folder(folder)
    assert game.hooks.get("score") is not None and game.hooks._plugins is None  # loaded, no manager yet
    assert game.hooks.call("setup_counts", options={}, mode="m", players=3) == {"mains": 6}
    state = SimpleNamespace(players=[SimpleNamespace(name="Ana")])
    assert [p.name for p in game.hooks.call("score", state=state, data=None).players] == ["Ana"]
    assert "boards" in game.hooks.lazy
    assert game.printables().boards(data=None) == ["plateau"]  # loaded now, through pluggy
    assert game.hooks.load_all() == []


@pytest.mark.parametrize(("scoring", "needle", "message"), [
    (SCORING.replace("def score(data, state)", "def score(state)"), "def score",
     "'score' takes (state); the hook is called as score(data, state)"),
    (SCORING.replace("def score(", "def scores("), None, "'score' is loaded from {module}, which defines no 'score'"),
    (SCORING.replace("def score(data, state):", "def score(data, state)"), "def score",
     "'score' cannot be loaded from {module}: SyntaxError: expected ':'"),
    ("import a_module_nobody_has\n" + SCORING, "import a_module", "'score' cannot be loaded from {module}: "
     "ModuleNotFoundError: No module named 'a_module_nobody_has'"),
])
def test_check_reports_a_broken_lazy_hook(cli, lazy_game, scoring, needle, message):
    """`check` loads every lazy hook: what breaks in one is an error there, located, exit 1; a
    command that uses it refuses the same way before using it; one that never does (a deck
    build) is not stopped by it."""
    folder = lazy_game(scoring=scoring)
    module = f"{load_game_folder(folder).rules.__name__}.scoring"
    where = "rules/scoring.py" + (f":{_line(folder / 'rules' / 'scoring.py', needle)}" if needle else "")
    expected = f"{where}: {message.format(module=module)}"
    for args in (("check", folder), ("score", folder, folder / "examples" / "final.yaml")):
        r = cli(*args)
        assert r.code == 1, (args, r.out, r.err)
        assert expected in r.err, (args, r.err)
        assert "Traceback" not in r.err
    assert cli("build", folder, "-o", folder / "out", "--only", "decks", "-q").code == 0


@pytest.mark.parametrize(("hooks", "message"), [
    ('scroe="scoring"', "'scroe' is not a hook; did you mean 'score'?"),
    ('score="scorign"', "'score' is loaded lazily from {package}.scorign, which does not exist"),
    ('score="scoring", boards="scoring"', "'boards' is a printables hook: this rules package has a printables.py"),
    ('sections="sections:SECTIONS"', "'sections' cannot be loaded lazily from a module of the same name "
     "({package}.sections)"),
])
def test_lazy_names_are_checked_when_the_game_loads(lazy_game, hooks, message):
    """Without importing anything: each name a hook allowed there, its module there."""
    folder = lazy_game(hooks, printables="", sections="SECTIONS = ()\n")
    with pytest.raises(DataError) as info:
        load_game_folder(folder)
    init = (folder / "rules" / "__init__.py").resolve()
    package = next(n for n, m in list(sys.modules.items()) if getattr(m, "__file__", None) == str(init))
    assert len(info.value.problems) == 1
    assert info.value.problems[0].message.startswith(message.format(package=package))
    assert info.value.problems[0].file.endswith("rules/__init__.py")
    assert f"{package}.scoring" not in sys.modules


def test_a_deck_build_from_the_cache_imports_no_scoring_nor_setup(tmp_path):
    """What the lazy hooks are for: a fresh `cardforge build GAME --only decks` (the data cache
    warm) imports a shipped game's card models and sections, none of its scoring, setup or
    data checks, and makes no pluggy plug-in manager."""
    env = {k: v for k, v in os.environ.items() if k not in ("CARDFORGE_DATA", "CARDFORGE_NO_CACHE")}
    env.update(CARDFORGE_CACHE=str(tmp_path / "cache"), CARDFORGE_CONFIG=str(tmp_path / "config"))
    args = ["build", "maphr", "-o", str(tmp_path / "out"), "--only", "decks", "-q"]
    script = (
        "import json, sys\nfrom cardforge.cli import main\nimport cardforge.games.contract as c\n"
        "made = []\nc.GamePlugins.__init__ = (lambda init: lambda self: made.append(1) or init(self))"
        "(c.GamePlugins.__init__)\n"
        f"code = main({args!r})\n"
        "mods = sorted(n.split('.', 1)[1] for n in sys.modules if n.startswith('_cardforge_game_maphr_') and '.' in n)\n"
        "print(json.dumps([code, mods, len(made)]))\n")
    runs = [json.loads(subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True,
                                      text=True, check=True).stdout.splitlines()[-1]) for _ in range(2)]
    assert runs[0][0] == 0 and "data_checks" in runs[0][1] and runs[0][2] == 1  # cold: the data checked
    assert runs[1] == [0, ["cards", "sections"], 0]


def _line(path: Path, needle: str) -> int:
    return next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in text)
