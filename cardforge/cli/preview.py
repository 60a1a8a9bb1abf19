"""cardforge preview GAME [CARD_ID…]"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardforge.cli.common import GAME, echo_problem, interrupted, load_data, output_target
from cardforge.problems import plural

if TYPE_CHECKING:
    from cardforge.games.base import Game

EPILOG = """\b
Examples:
  cardforge preview my-game                    # every card: output/my_game/preview.png
  cardforge preview my-game marchand eclaireur --open
  cardforge preview my-game -o /tmp/sheet.png --dpi 150
"""


@click.command(epilog=EPILOG)
@click.argument("game", type=GAME)
@click.argument("card_ids", metavar="[CARD_ID]...", nargs=-1)
@click.option("-o", "--out", "out_file", type=click.Path(dir_okay=False),
              help="The PNG to write [default: output/<game>/preview.png].")
@click.option("--dpi", type=click.IntRange(36, 300), default=100, show_default=True)
@click.option("--open", "open_it", is_flag=True, help="Open the sheet in the image viewer.")
@click.option("--templates", "templates_dir", type=click.Path(file_okay=False, exists=True),
              help="Use layouts and templates from DIR/<game>/ and DIR/_shared/.")
@click.pass_context
def preview(ctx: click.Context, game: Game, card_ids: tuple[str, ...], out_file: str | None, dpi: int,
            open_it: bool, templates_dir: str | None) -> None:
    """A contact sheet PNG of GAME's cards (the named ones, or all), each front beside its back."""
    from cardforge.render.cards.faces import deck_faces
    from cardforge.render.exports.preview import contact_sheet

    target = output_target(out_file, Path("output") / game.id / "preview.png", "-o", "preview image", folder=False)
    data = load_data(game)
    faces = deck_faces(game, data, 0.0, templates_dir=Path(templates_dir) if templates_dir else None,
                       only=list(card_ids) or None)
    try:
        w, h = contact_sheet(faces, target, dpi)
    except KeyboardInterrupt as exc:
        interrupted(ctx, exc, target)
    for problem in faces.issues.warnings:
        echo_problem(problem)
    click.echo(f"{game.id}: {plural(len(faces.fronts), 'card')} → {target} ({w}×{h} px)")
    if open_it:
        click.launch(str(target))
