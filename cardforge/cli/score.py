"""cardforge score GAME FILE"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardforge.cli.common import GAME, echo_json, load_data, read_stdin
from cardforge.errors import ScoreInputError
from cardforge.i18n import languages, messages
from cardforge.problems import Problem

LANGUAGES = list(languages())

if TYPE_CHECKING:
    from cardforge.games.base import Game
    from cardforge.scores import ScoreSheet

EPILOG = """\b
Examples:
  cardforge score my-game final.yaml
  cardforge score my-game final.yaml --json
  cardforge score my-game -  < final.yaml      # read the file from stdin

The file format of each game is in docs/at-the-table.md ("Score files").
"""


@click.command(epilog=EPILOG)
@click.argument("game", type=GAME)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the score contract).")
@click.option("--lang", type=click.Choice(LANGUAGES), default=None,
              help="The table's language (its words and row labels). Default: the game's (game.yaml's "
                   "`language`).")
def score(game: Game, file: str, as_json: bool, lang: str | None) -> None:
    """Score a finished game of GAME from its final-state YAML FILE.

    Prints the breakdown per score category, the totals, ranks and winner(s).
    Exits 1 when the final state breaks the rules (every problem listed).
    """
    from cardforge.engine.scoring import score_file, score_text

    data = load_data(game)
    path = Path(file)
    if file == "-":  # stdin: the text itself is scored (no file written)
        text, problem = read_stdin("<stdin>")
        if problem is not None or text is None:
            raise ScoreInputError("cannot score <stdin>", [problem] if problem else [])
        sheet = score_text(game, data, text, "<stdin>")
    elif not path.exists() and not path.is_symlink():
        raise ScoreInputError(f"cannot score {file}", [Problem("file not found", file=file)])
    else:
        sheet = score_file(game, data, path)
    if as_json:
        echo_json(sheet.to_json())
    else:
        click.echo(render_table(sheet, lang or game.language, game.language))


def render_table(sheet: ScoreSheet, lang: str, game_lang: str) -> str:
    """The score pad as text, in ``lang``: categories as rows (labels as on the printed pad in
    the game's language ``game_lang``, else their English labels), players as columns, a total
    row, then the tie-break values that decide equal totals."""
    from cardforge.scores import format_number

    _ = messages(lang).gettext
    native = lang == game_lang
    names = [p.name for p in sheet.players]
    labels = [c.label if native else c.label_en for c in sheet.categories]
    tb_labels = [_("{label} (tie-break)", label=tb.row_label("fr" if native else "en")) for tb in sheet.tie_breakers]
    total, rank = _("Total"), _("Rank")
    label_w = max([len(x) for x in labels + tb_labels] + [len(total), len(rank), 5])
    col_w = max([len(n) for n in names] + [5])
    head = _("{title} — score", title=sheet.title)
    if sheet.mode:
        head += _(" (mode {mode})", mode=sheet.mode)
    if sheet.partial:
        head += _(" — partial game")
    lines = [head, ""]
    lines.append(" " * label_w + "".join(f"  {n:>{col_w}}" for n in names))
    for c, label in zip(sheet.categories, labels):
        cells = "".join(f"  {format_number(p.breakdown.get(c.id, 0)):>{col_w}}" for p in sheet.players)
        lines.append(f"{label:<{label_w}}{cells}")
    lines.append("-" * (label_w + (col_w + 2) * len(names)))
    lines.append(f"{total:<{label_w}}" + "".join(f"  {format_number(p.total):>{col_w}}" for p in sheet.players))
    for i, label in enumerate(tb_labels):
        lines.append(f"{label:<{label_w}}" + "".join(
            f"  {format_number(p.tiebreak[i]) if i < len(p.tiebreak) else '':>{col_w}}" for p in sheet.players))
    if len(sheet.players) > 1:
        lines.append(f"{rank:<{label_w}}" + "".join(f"  {p.rank:>{col_w}}" for p in sheet.players))
    extras = sorted({k for p in sheet.players for k in p.extra})
    if len(sheet.players) > 1:
        for key in extras:
            cells = "  ".join(str(p.extra.get(key, "")) for p in sheet.players)
            lines.append(f"{key.capitalize():<{label_w}}  " + cells)
    lines.append("")
    if len(sheet.players) == 1:  # a solo game has a grade (or just a score), no winner
        p = sheet.players[0]
        grade = p.extra.get("grade")
        lines.append(_("{name}: {total}", name=p.name, total=format_number(p.total))
                     + (_(" — grade: {grade}", grade=grade) if grade else ""))
    else:
        who = _(" and ").join(sheet.winners)
        verb = _("Winners: {names}", names=who) if len(sheet.winners) > 1 else _("Winner: {names}", names=who)
        lines.append(verb + (f" ({sheet.tie_break})" if sheet.tie_break else ""))
    if sheet.report:
        lines.append("")
        lines.extend(sheet.report)
    return "\n".join(lines)
