"""cardforge export-data GAME --format csv|xlsx -o DIR"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardforge.cli.common import GAME, load_data

if TYPE_CHECKING:
    from cardforge.games.base import Game

EPILOG = """\b
Examples:
  cardforge export-data my-game --format xlsx -o sheets    # sheets/my_game/*.xlsx + deck.yaml…
  cardforge --data sheets build my_game                    # the same PDFs, from the workbooks
"""


@click.command("export-data", epilog=EPILOG)
@click.argument("game", type=GAME)
@click.option("--format", "fmt", type=click.Choice(["csv", "xlsx"]), required=True,
              help="csv: one file per card file; xlsx: one workbook per card file (a sheet per kind).")
@click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Folder to write into: OUT/<game>/ becomes a complete data folder (use it with --data).")
def export_data(game: Game, fmt: str, out_dir: str) -> None:
    """Write GAME's cards as spreadsheets that load back to the same cards.

    OUT/<game>/ gets the game's other data files as they are and a deck.yaml naming the new
    card files, so `cardforge --data OUT build GAME` prints the same PDFs.
    """
    from cardforge.data.spreadsheet import export_game
    from cardforge.resources import display_path

    data = load_data(game)
    target = Path(out_dir) / game.id
    if target.resolve() == Path(data.root).resolve():
        raise click.UsageError(f"-o {out_dir} would overwrite the data being exported ({display_path(target)})")
    files = export_game(data, target, fmt)
    cards = len(data.cards)
    click.echo(f"{game.id}: {cards} cards written to {len(files) - 1} {fmt} file(s) in {display_path(target)}")
    for f in files:
        click.echo(f"  {display_path(f)}")
