"""cardforge score GAME FILE"""

from __future__ import annotations

import click

from cardforge.cli.common import GAME, echo_json, load_data

EPILOG = """\b
Examples:
  cardforge score maphr final.yaml
  cardforge score imperial_miners final.yaml --json
  cardforge score tunhell -  < final.yaml      # read the file from stdin

The file format of each game is in its issue and in README.md.
"""


@click.command(epilog=EPILOG)
@click.argument("game", type=GAME)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (the score contract).")
def score(game, file: str, as_json: bool) -> None:
    """Score a finished game of GAME from its final-state YAML FILE.

    Prints the breakdown per score category, the totals, ranks and winner(s).
    Exits 1 when the final state breaks the rules (every problem listed).
    """
    import sys
    import tempfile
    from pathlib import Path

    from cardforge.engine.scoring import score_file
    from cardforge.errors import ScoreInputError
    from cardforge.problems import Problem

    data = load_data(game)
    path = Path(file)
    if file == "-":  # stdin, read with the file size limit, checked as UTF-8 before it is kept
        from cardforge.data.yamlio import decode, read_stream

        raw, problem = read_stream(sys.stdin, "<stdin>")
        if problem is None:
            problem = decode(raw, "<stdin>")[1]
        if problem is not None:
            raise ScoreInputError("cannot score <stdin>", [problem])
        with tempfile.TemporaryDirectory(prefix="cardforge-stdin-") as folder:
            path = Path(folder) / "stdin.yaml"
            path.write_bytes(raw)
            sheet = score_file(game, data, path)
    elif not path.exists() and not path.is_symlink():
        raise ScoreInputError(f"cannot score {file}", [Problem("file not found", file=file)])
    else:
        sheet = score_file(game, data, path)
    if as_json:
        echo_json(sheet.to_json())
    else:
        click.echo(render_table(sheet))


def render_table(sheet) -> str:
    """The score pad as text: categories as rows, players as columns, a total row."""
    from cardforge.scores import format_number

    names = [p.name for p in sheet.players]
    label_w = max([len(c.label_en) for c in sheet.categories] + [len("Total"), 5])
    col_w = max([len(n) for n in names] + [5])
    lines = [f"{sheet.title} — score", ""]
    lines.append(" " * label_w + "".join(f"  {n:>{col_w}}" for n in names))
    for c in sheet.categories:
        cells = "".join(f"  {format_number(p.breakdown.get(c.id, 0)):>{col_w}}" for p in sheet.players)
        lines.append(f"{c.label_en:<{label_w}}{cells}")
    lines.append("-" * (label_w + (col_w + 2) * len(names)))
    lines.append(f"{'Total':<{label_w}}" + "".join(f"  {format_number(p.total):>{col_w}}" for p in sheet.players))
    lines.append(f"{'Rank':<{label_w}}" + "".join(f"  {p.rank:>{col_w}}" for p in sheet.players))
    extras = sorted({k for p in sheet.players for k in p.extra})
    for key in extras:
        lines.append(f"{key.capitalize():<{label_w}}  " + "  ".join(str(p.extra.get(key, "")) for p in sheet.players))
    lines.append("")
    who = " and ".join(sheet.winners)
    verb = "Winners" if len(sheet.winners) > 1 else "Winner"
    lines.append(f"{verb}: {who}" + (f" ({sheet.tie_break})" if sheet.tie_break else ""))
    if sheet.report:
        lines.append("")
        lines.extend(sheet.report)
    return "\n".join(lines)
