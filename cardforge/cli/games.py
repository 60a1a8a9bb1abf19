"""cardforge games"""

from __future__ import annotations

import click

from cardforge.cli.common import echo_json, every_game


@click.command(epilog="\b\nExamples:\n  cardforge games\n  cardforge games --json")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def games(as_json: bool) -> None:
    """List the games: id, title, players and what cardforge prints for each."""
    found = every_game()
    rows = [
        {"id": g.id, "title": g.title, "min_players": g.min_players, "max_players": g.max_players,
         "status": g.status, "prints": g.prints, "modes": list(g.modes)}
        for g in found
    ]
    if as_json:
        echo_json(rows)
        return
    w_id = max(len(g.id) for g in found)
    w_title = max(len(g.title) for g in found)
    click.echo(f"{'id':<{w_id}}  {'title':<{w_title}}  players  prints")
    for r in rows:
        click.echo(f"{r['id']:<{w_id}}  {r['title']:<{w_title}}  {_players(r):<7}  {r['prints']}")


def _players(row: dict) -> str:
    lo, hi = row["min_players"], row["max_players"]
    return str(lo) if lo == hi else f"{lo}–{hi}"
