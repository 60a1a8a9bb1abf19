"""cardforge diff GAME --from A [--to B] [--json]"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from cardforge.cli.common import GAME, echo_json

if TYPE_CHECKING:
    from cardforge.games.base import Game

EPILOG = """\b
A and B are each a git revision (HEAD~1, a tag…) of the repository holding the game's data,
a data folder (the game's folder or one holding it), or a build record (cards.json, written
by every `cardforge build`, or its folder). B defaults to the working data.

\b
Examples:
  cardforge diff my-game --from HEAD~1                  # since the last commit
  cardforge diff my-game --from v0.2 --to v0.3          # between two tags
  cardforge diff my-game --from printed-v3.json --json  # since the build that was printed
"""


@click.command(epilog=EPILOG)
@click.argument("game", type=GAME)
@click.option("--from", "source_from", required=True, metavar="A", help="The earlier version.")
@click.option("--to", "source_to", metavar="B", help="The later version (default: the working data).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def diff(game: Game, source_from: str, source_to: str | None, as_json: bool) -> None:
    """What changed in GAME's cards between two versions: cards added, removed and changed
    (field by field, old → new), copies, the deck version, boards, aids, the score pad's rows
    and the setup numbers. Exits 0 whether or not anything changed; 1 on a source that cannot
    be read."""

    from cardforge.diff import diff_game, text_lines

    result = diff_game(game, source_from, source_to)
    if as_json:
        echo_json(result.as_json())
        return
    for line in text_lines(result):
        click.echo(line)
