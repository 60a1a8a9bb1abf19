"""Helpers shared by the commands: the GAME argument, data loading, problem printing."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from cardforge.errors import UnknownGameError
from cardforge.problems import Problem


class GameType(click.ParamType):
    """A registered game id (``mine-all-mine`` and ``mine_all_mine`` alike). Unknown: exit 2."""

    name = "GAME"

    def convert(self, value, param, ctx):
        from cardforge.games import find_game
        from cardforge.games.base import Game

        if isinstance(value, Game):
            return value
        try:
            return find_game(value)
        except UnknownGameError as exc:
            self.fail(str(exc), param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        from cardforge.games import game_ids

        return [CompletionItem(g) for g in game_ids() if g.startswith(incomplete)]


GAME = GameType()


def load_data(game):
    """The game's validated data; DataError (exit 1) with every problem otherwise."""
    from cardforge.data.loading import load_game_data

    data = load_game_data(game)
    for w in data.warnings:
        echo_problem(w)
    return data


def echo_problem(problem: Problem) -> None:
    from cardforge.cli import STATE

    if problem.is_warning and STATE.quiet:  # -q
        return
    prefix = "warning" if problem.is_warning else "error"
    click.echo(f"{prefix}: {problem}", err=True)


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def is_tty() -> bool:
    return sys.stderr.isatty()
