"""cardforge watch GAME… (also `cardforge build GAME --watch`)"""

from __future__ import annotations

from typing import Any

import click

from cardforge.cli.build import NOT_WATCH_OPTIONS, build_options, run_build
from cardforge.cli.common import GAME

EPILOG = """\b
Examples:
  cardforge watch my-game                  # build, then rebuild on every save; Ctrl-C stops
  cardforge watch my-game --only decks --paper letter
  cardforge watch ./my-game -o ~/print
  cardforge watch my-game --poll           # a folder on a network drive

\b
The game's data folder and its templates are watched (YAML, CSV, XLSX, templates, pictures,
fonts). A rebuild reuses every card text laid out before: a one-card edit lays out that card
only. A rebuild that fails prints its problems and keeps the previous PDFs; watching goes on.
"""


@click.command(epilog=EPILOG)
@click.argument("games", metavar="GAME...", nargs=-1, required=True, type=GAME)
@build_options(leave_out=NOT_WATCH_OPTIONS)
@click.pass_context
def watch(ctx: click.Context, /, games: tuple[Any, ...], **options: Any) -> None:
    """Build each GAME into OUT/<game>/, then rebuild it whenever its data or templates change,
    until Ctrl-C (exit 0).

    Takes the options of `cardforge build` (paper, duplex, --only…); `cardforge build GAME
    --watch` is the same command.
    """
    run_build(ctx, games, watch=True, **options)
