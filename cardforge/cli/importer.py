"""cardforge import squib FOLDER"""

from __future__ import annotations

import click

EPILOG = """\b
Examples:
  cardforge import squib ~/squib/my-game
  cardforge import squib ~/squib/my-game --out my-game
"""


@click.group(name="import", epilog=EPILOG)
def import_group() -> None:
    """Make a cardforge game from another tool's project."""


@import_group.command(epilog=EPILOG)
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--out", "out", type=click.Path(file_okay=False),
              help="The game folder to write (new or empty; default: the project's name here).")
@click.option("--title", help="The game's title (default: from the project's folder name).")
def squib(folder: str, out: str | None, title: str | None) -> None:
    """Write a game folder that builds a Squib project's cards.

    Reads the project's layout YAML files, its CSV or XLSX data and what its deck script says
    plainly (Squib::Deck.new's width, height, dpi, cards and layout; csv/xlsx file:; text, rect,
    circle, svg, png and background calls with layout:), never running Ruby. The layout keeps
    Squib's numbers as they are (units: px, origin: bleed). What could not be carried over is
    listed.
    """
    from pathlib import Path

    from cardforge.layout.squib import import_squib

    target = Path(out) if out else Path(Path(folder).resolve().name.replace("-", "_"))
    result = import_squib(Path(folder), target, title=title)
    click.echo(f"created {target}/ with {len(result.written)} files:")
    for path in result.written:
        click.echo(f"  {path.relative_to(target).as_posix()}")
    for note in result.notes:
        click.echo(f"note: {note}")
    click.echo("\nnext:")
    click.echo(f"  cardforge check {target}")
    click.echo(f"  cardforge build {target}")
