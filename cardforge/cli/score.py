"""cardforge score GAME FILE"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from cardforge.cli.common import GAME, echo_json, load_data

if TYPE_CHECKING:
    from cardforge.games.base import Game
    from cardforge.scores import ScoreSheet

EPILOG = """\b
Examples:
  cardforge score my-game final.yaml
  cardforge score my-game final.yaml --json
  cardforge score my-game -  < final.yaml      # read the file from stdin

The file format of each game is in its issue and in README.md.
"""


@click.command(epilog=EPILOG)
@click.argument("game", type=GAME)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the score contract).")
@click.option("--lang", type=click.Choice(["fr", "en"]), default="fr", show_default=True,
              help="Row labels as printed on the score pad (fr) or in English.")
def score(game: Game, file: str, as_json: bool, lang: str) -> None:
    """Score a finished game of GAME from its final-state YAML FILE.

    Prints the breakdown per score category, the totals, ranks and winner(s).
    Exits 1 when the final state breaks the rules (every problem listed).
    """
    from pathlib import Path

    from cardforge.cli.common import read_stdin
    from cardforge.engine.scoring import score_file, score_text
    from cardforge.errors import ScoreInputError
    from cardforge.problems import Problem

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
        click.echo(render_table(sheet, lang))


TEXT = {
    "fr": {"score": "score", "mode": "mode", "partial": "partie incomplète", "total": "Total", "rank": "Rang",
           "tiebreak": "départage"},
    "en": {"score": "score", "mode": "mode", "partial": "partial game", "total": "Total", "rank": "Rank",
           "tiebreak": "tie-break"},
}


def render_table(sheet: ScoreSheet, lang: str = "fr") -> str:
    """The score pad as text: categories as rows (labels as on the printed pad, or English),
    players as columns, a total row, then the tie-break values that decide equal totals."""
    from cardforge.scores import format_number

    t = TEXT[lang]
    names = [p.name for p in sheet.players]
    labels = [c.label if lang == "fr" else c.label_en for c in sheet.categories]
    tb_labels = [f"{tb.row_label(lang)} ({t['tiebreak']})" for tb in sheet.tie_breakers]
    label_w = max([len(x) for x in labels + tb_labels] + [len(t["total"]), len(t["rank"]), 5])
    col_w = max([len(n) for n in names] + [5])
    head = f"{sheet.title} — {t['score']}"
    if sheet.mode:
        head += f" ({t['mode']} {sheet.mode})"
    if sheet.partial:
        head += f" — {t['partial']}"
    lines = [head, ""]
    lines.append(" " * label_w + "".join(f"  {n:>{col_w}}" for n in names))
    for c, label in zip(sheet.categories, labels):
        cells = "".join(f"  {format_number(p.breakdown.get(c.id, 0)):>{col_w}}" for p in sheet.players)
        lines.append(f"{label:<{label_w}}{cells}")
    lines.append("-" * (label_w + (col_w + 2) * len(names)))
    lines.append(f"{t['total']:<{label_w}}" + "".join(f"  {format_number(p.total):>{col_w}}" for p in sheet.players))
    for i, label in enumerate(tb_labels):
        lines.append(f"{label:<{label_w}}" + "".join(
            f"  {format_number(p.tiebreak[i]) if i < len(p.tiebreak) else '':>{col_w}}" for p in sheet.players))
    if len(sheet.players) > 1:
        lines.append(f"{t['rank']:<{label_w}}" + "".join(f"  {p.rank:>{col_w}}" for p in sheet.players))
    extras = sorted({k for p in sheet.players for k in p.extra})
    if len(sheet.players) > 1:
        for key in extras:
            cells = "  ".join(str(p.extra.get(key, "")) for p in sheet.players)
            lines.append(f"{key.capitalize():<{label_w}}  " + cells)
    lines.append("")
    if len(sheet.players) == 1:  # a solo game has a grade (or just a score), no winner
        p = sheet.players[0]
        grade = p.extra.get("grade")
        lines.append(f"{p.name}: {format_number(p.total)}" + (f" — grade: {grade}" if grade else ""))
    else:
        who = " and ".join(sheet.winners)
        verb = "Winners" if len(sheet.winners) > 1 else "Winner"
        lines.append(f"{verb}: {who}" + (f" ({sheet.tie_break})" if sheet.tie_break else ""))
    if sheet.report:
        lines.append("")
        lines.extend(sheet.report)
    return "\n".join(lines)
