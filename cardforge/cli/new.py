"""cardforge new DIR"""

from __future__ import annotations

import click

EPILOG = """\b
Examples:
  cardforge new my-game
  cardforge new ~/jeux/carto --title "Carto"
"""


@click.command(epilog=EPILOG)
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--title", help="The game's title (default: from the folder's name).")
def new(folder: str, title: str | None) -> None:
    """Create a new game in FOLDER that checks, builds and scores at once.

    FOLDER must be new or empty. It gets a game.yaml (players, score pad, setup, the deck and
    its card kinds), three example cards, a layout, an icon of its own, a player aid, a
    finished game to score, build settings (cardforge.toml), a rules note and a README with
    the next steps: the same shape as the games cardforge ships.
    """
    from pathlib import Path

    from cardforge.games.scaffold import create_game

    written = create_game(Path(folder), title)
    click.echo(f"created {folder}/ with {len(written)} files:")
    for path in written:
        click.echo(f"  {path.relative_to(folder).as_posix()}")
    click.echo("\nnext:")
    click.echo(f"  cardforge check {folder}")
    click.echo(f"  cardforge build {folder}            # output/{Path(folder).resolve().name.replace('-', '_')}/")
    click.echo(f"  cardforge score {folder} {folder}/examples/final.yaml")
