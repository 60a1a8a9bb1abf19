"""Helpers shared by the commands: the GAME argument, data loading, problem printing."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardforge.errors import UnknownGameError
from cardforge.problems import Problem

if TYPE_CHECKING:
    from click import ParamType as ParamType
    from click.shell_completion import CompletionItem

    from cardforge.data.loading import GameData
    from cardforge.games.base import Game
else:
    class ParamType(click.ParamType):
        """``click.ParamType``, subscriptable as ``ParamType[float]`` (the value it converts to)
        with every click pyproject.toml allows: click's own is generic only in recent versions."""

        def __class_getitem__(cls, item):
            return cls


class GameType(ParamType["Game"]):
    """A game: an id (``my-game`` and ``my_game`` alike) or a folder holding a
    ``game.yaml`` (``./my-game``). Unknown: exit 2; a broken game.yaml: exit 1."""

    name = "GAME"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Game:
        from cardforge.games.base import Game

        if isinstance(value, Game):
            return value
        try:
            return find_game(value)
        except UnknownGameError as exc:
            self.fail(str(exc), param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        from cardforge.games import game_ids

        return [CompletionItem(g) for g in game_ids() if g.startswith(incomplete)]


GAME = GameType()


class NumberRange(click.FloatRange):
    """``click.FloatRange`` that refuses ``nan`` (click lets it through: a NaN fails no
    comparison; ``export png --bleed-size nan`` ended in an internal error)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if number != number:  # NaN
            self.fail(f"{value} is not a number (allowed: {self.min:g} to {self.max:g})", param, ctx)
        return number


def data_root() -> Path | None:
    """``--data DIR`` of this run (None: each game's own folder)."""
    from cardforge.cli import STATE

    return Path(STATE.data_root) if STATE.data_root else None


def find_game(name: str | Path) -> Game:
    """A game by id or path, its data from ``--data DIR`` when given."""
    from cardforge.games import find_game as find

    return find(name, data_root=data_root())


def refind(game: Game) -> Game:
    """The same game found again (its game.yaml is read again if it changed)."""
    return find_game(str(game.folder) if game.origin == "folder" else game.id)


def every_game() -> list[Game]:
    """Every game found: the shipped ones, plug-ins, and with ``--data DIR`` the game folders in DIR."""
    from cardforge.games import GAME_FILE, game_ids, normalise_game_id

    ids = game_ids()
    root = data_root()
    if root is not None and root.is_dir():
        ids += [normalise_game_id(f.name) for f in sorted(root.iterdir())
                if (f / GAME_FILE).is_file() and normalise_game_id(f.name) not in ids]
    return [find_game(g) for g in ids]


def load_data(game: Game) -> GameData:
    """The game's validated data; DataError (exit 1) with every problem otherwise."""
    from cardforge.data.loading import load_game_data

    data = load_game_data(game)
    echo_warnings(data.warnings)
    return data


def read_stdin(display: str = "<stdin>") -> tuple[str | None, Problem | None]:
    """The text piped in (``FILE`` given as ``-``), read with the file size limit and checked as
    UTF-8 before it is kept: (text, None) or (None, the problem). Nothing is written: the engine
    takes the text itself."""
    from cardforge.data.yamlio import decode, read_stream

    raw, problem = read_stream(sys.stdin, display)
    if problem is not None or raw is None:
        return None, problem
    return decode(raw, display)


def echo_problem(problem: Problem) -> None:
    from cardforge.cli import STATE

    if problem.is_warning and STATE.quiet:  # -q
        return
    prefix = "warning" if problem.is_warning else "error"
    click.echo(f"{prefix}: {problem}", err=True)


def warning_kind(problem: Problem) -> tuple[str, str | None]:
    """What makes two warnings the same kind: the same message about the same field, whatever
    file, card or row each is about (``no 'id' column`` of three sheets; ``no 'fr' text`` of
    twenty cards). Messages that say different things stay apart (the renderers' own summaries,
    one line per box and kind, are never merged further)."""
    return problem.message, problem.field


def summarise_warnings(problems: list[Problem], verbose: bool) -> list[str]:
    """The lines that say ``problems``' warnings: every one with ``verbose``; else one line per
    kind (:func:`warning_kind`), the first of the kind in full and how many more there are."""
    warnings = [p for p in problems if p.is_warning]
    if verbose:
        return [f"warning: {p}" for p in warnings]
    kinds: dict[tuple[str, str | None], list[Problem]] = {}
    for p in warnings:
        kinds.setdefault(warning_kind(p), []).append(p)
    lines = []
    for same in kinds.values():
        more = len(same) - 1
        lines.append(f"warning: {same[0]}" + (f" (and {more} more like this: --verbose lists them all)"
                                              if more else ""))
    return lines


def echo_warnings(problems: list[Problem]) -> None:
    """Print the warnings among ``problems``, one line per kind with a count (all with -v;
    none with -q)."""
    from cardforge.cli import STATE

    if STATE.quiet:
        return
    for line in summarise_warnings(problems, STATE.verbose):
        click.echo(line, err=True)


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def is_tty() -> bool:
    return sys.stderr.isatty()


def output_target(named: str | None, default: Path, option: str, what: str, *, folder: bool) -> Path:
    """Where a command writes: ``-o`` (``named``) or its ``default``, checked by the one rule
    for every command (:func:`cardforge.paths.check_output`: never a device, a FIFO, a socket
    or — for a file — a symbolic link; missing folders created only below the current folder,
    or for a folder when its parent exists). A folder the user named through a symbolic link
    is used where the link leads; the default path never follows one (``output/<game>`` a
    link: refused). The folders on the way are created by the writer, once there is something
    to write. Usage error (exit 2) otherwise."""
    import os

    from cardforge.paths import check_output, describe

    target = Path(named) if named else Path(default)
    problem = check_output(target, what, folder=folder)
    if problem is None and not named:  # output/<game>/…: below output/, no step is a link
        probe = target if folder else target.parent
        while len(probe.parts) > 1:
            if probe.is_symlink():
                problem = Problem(f"{describe(os.lstat(probe))} is there, where the game's output folder goes; "
                                  "cardforge does not follow it: remove it, or write elsewhere with -o",
                                  file=str(probe))
                break
            probe = probe.parent
    if problem is not None:
        raise click.BadParameter(problem.message, param_hint=f"'{option}' {target}")
    if folder and named and target.is_symlink():
        target = Path(os.path.realpath(target))  # the user named it: where it leads is theirs
    return target


def interrupted(ctx: click.Context, exc: KeyboardInterrupt, where: Path | str) -> None:
    """SIGINT or SIGTERM during a write: say what became of ``where``; exit 128 + the signal."""
    import signal

    from cardforge.transaction import Interrupted

    signum = exc.signum if isinstance(exc, Interrupted) else signal.SIGINT
    name = signal.Signals(signum).name
    if isinstance(exc, Interrupted) and exc.committed:
        click.echo(f"interrupted ({name}) as the files were being put in place; that was finished first",
                   err=True)
    else:
        click.echo(f"interrupted ({name}): {where} was left as it was", err=True)
    ctx.exit(128 + int(signum))
