"""cardforge's test kit for game authors: a pytest plugin.

Active wherever cardforge is installed (the ``pytest11`` entry point ``cardforge.testing``), or
named in a ``conftest.py``: ``pytest_plugins = ["cardforge.testing"]``. Fixtures:

- ``cardforge_game(path_or_id)`` → the game, resolved as the CLI resolves it
  (:func:`cardforge.games.find_game`: a path, then a folder of that name in the current directory,
  then an installed plug-in, then a shipped game);
- ``cardforge_build(game, *options)`` → :class:`Build`: ``cardforge build`` run into the test's
  temporary folder (the PDFs written, the command's output);
- ``cardforge_cli(*args)`` → :class:`CliResult`: any command, in-process.

Helpers (plain functions): :func:`assert_scores` (score a final-state file, compare the totals with
those expected, a readable table when they differ), :func:`score_example`, :func:`rules_module` (a
module of a game's rules package, without knowing the name it is imported under).

Nothing but the standard library and pytest is imported when pytest loads the plugin: every
pytest run of an environment holding cardforge loads it (cardforge's own modules are imported when
a fixture or helper is used).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from cardforge.games.base import Game
    from cardforge.scores import ScoreSheet

__all__ = ["Build", "CliResult", "assert_scores", "build_game", "load_game", "rules_module", "run_cli",
           "score_example"]


@dataclass(frozen=True)
class CliResult:
    """What a command gave: exit code (0 ok, 1 bad input, 2 usage), standard output and error."""

    code: int
    out: str
    err: str

    @property
    def json(self) -> Any:
        """The output of a ``--json`` command, parsed."""
        return json.loads(self.out)


def run_cli(*args: str | os.PathLike[str]) -> CliResult:
    """``cardforge ARGS`` run in this process; its exit code and what it printed."""
    from cardforge.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([os.fspath(a) for a in args])
    return CliResult(code, out.getvalue(), err.getvalue())


def load_game(game: Game | str | os.PathLike[str]) -> Game:
    """The game itself, or the game a path or an id names (as ``cardforge`` resolves it)."""
    from cardforge.games import find_game
    from cardforge.games.base import Game

    return game if isinstance(game, Game) else find_game(game)


def rules_module(game: Game | str | os.PathLike[str], name: str | None = None) -> ModuleType:
    """A game's rules module, or the submodule ``name`` of its rules package (``"scoring"``).
    A game folder's rules are imported under a name of cardforge's choosing (one per folder, so
    two copies of a game never share modules): tests reach them through the game."""
    found = load_game(game)
    if found.rules is None:
        raise LookupError(f"the game {found.id} ({found.folder}) has no rules module (game.yaml names none)")
    if name is None:
        return found.rules
    if not hasattr(found.rules, "__path__"):
        raise LookupError(f"the rules of {found.id} are one module ({found.rules.__file__}), not a package: "
                          f"there is no submodule {name!r}")
    return importlib.import_module(f"{found.rules.__name__}.{name}")


def _command_target(game: Game) -> str:
    """How the command line names ``game``: its folder when it was found by path, else its id."""
    return str(game.folder) if game.origin == "folder" else game.id


@dataclass(frozen=True)
class Build:
    """What ``cardforge build`` wrote: the output folder, its PDFs (sorted), the command's result."""

    folder: Path
    pdfs: list[Path]
    result: CliResult

    def pdf(self, name: str) -> Path:
        """The PDF called ``name`` (``"cards.pdf"``, ``"score-pad.pdf"``…), wherever it is below the folder."""
        found = [p for p in self.pdfs if p.name == name]
        if not found:
            wrote = ", ".join(p.name for p in self.pdfs) or "nothing"
            raise AssertionError(f"no {name} in the build; it wrote: {wrote}")
        return found[0]


def build_game(game: Game | str | os.PathLike[str], out: Path, *options: str) -> Build:
    """``cardforge build GAME -o OUT -q OPTIONS…``; AssertionError with what it printed when it fails."""
    __tracebackhide__ = True
    target = _command_target(load_game(game))
    result = run_cli("build", target, "-o", str(out), "-q", *options)
    if result.code != 0:
        raise AssertionError(f"cardforge build {target} failed (exit {result.code}):\n{result.err}{result.out}")
    return Build(Path(out), sorted(Path(out).rglob("*.pdf")), result)


def score_example(game: Game | str | os.PathLike[str], example_file: str | os.PathLike[str]) -> ScoreSheet:
    """The score sheet of a final-state file (as ``cardforge score GAME FILE`` computes it);
    AssertionError listing every problem when the file is refused."""
    from cardforge.data.loading import load_game_data
    from cardforge.engine.scoring import score_file
    from cardforge.errors import CardforgeError

    __tracebackhide__ = True  # pytest shows the test's line, not this one
    found = load_game(game)
    try:
        return score_file(found, load_game_data(found), Path(example_file))
    except CardforgeError as exc:  # its text lists every problem, located
        raise AssertionError(f"{os.fspath(example_file)} cannot be scored as {found.id}: {exc}") from None


def assert_scores(game: Game | str | os.PathLike[str], example_file: str | os.PathLike[str],
                  expected_totals: Mapping[str, int | float]) -> ScoreSheet:
    """Score ``example_file`` and check each player's total is the expected one (players
    included: none missing, none extra). On a difference the failure is a table::

        scores of examples/final.yaml (my_game) differ from the expected totals:
          player  expected  got
          Alice         67   65   ← 2 fewer
          Ben           67   67

    Returns the score sheet (ranks, winners, details) for further checks."""
    __tracebackhide__ = True
    sheet = score_example(game, example_file)
    got = {p.name: p.total for p in sheet.players}
    if got != dict(expected_totals):
        what = f"scores of {os.fspath(example_file)} ({sheet.game})"
        raise AssertionError(_totals_table(what, dict(expected_totals), got))
    return sheet


def _totals_table(what: str, expected: dict[str, Any], got: dict[str, Any]) -> str:
    names = list(expected) + [n for n in got if n not in expected]
    rows = [("player", "expected", "got", "")]
    for name in names:
        want, have = expected.get(name), got.get(name)
        if name not in got:
            note = "← not in the file"
        elif name not in expected:
            note = "← not expected"
        elif want is not None and have is not None and want != have:
            gap = have - want
            note = f"← {abs(gap):g} {'more' if gap > 0 else 'fewer'}"
        else:
            note = ""
        rows.append((name, "—" if want is None else f"{want:g}", "—" if have is None else f"{have:g}", note))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [f"  {r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}  {r[2]:>{widths[2]}}   {r[3]}".rstrip() for r in rows]
    return f"{what} differ from the expected totals:\n" + "\n".join(lines)


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture
def cardforge_game() -> Callable[[Any], Game]:
    """``cardforge_game("my_game")`` or ``cardforge_game(Path(__file__).parents[1])`` → the game."""
    return load_game


@pytest.fixture
def cardforge_cli() -> Callable[..., CliResult]:
    """``cardforge_cli("check", "my_game")`` → :class:`CliResult` (code, out, err, json)."""
    return run_cli


@pytest.fixture
def cardforge_build(tmp_path: Path) -> Iterator[Callable[..., Build]]:
    """``cardforge_build(game, "--only", "decks")`` → :class:`Build`, built into the test's
    temporary folder (``build-1``, ``build-2``… for several builds in one test)."""
    count = 0

    def build(game: Game | str | os.PathLike[str], *options: str) -> Build:
        nonlocal count
        count += 1
        return build_game(game, tmp_path / f"build-{count}", *options)

    yield build
