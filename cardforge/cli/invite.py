"""cardforge invite GAME --name NAME | invite list | invite revoke: per-playtester links to a
game's score sheet on `cardforge serve` (issue 44; the pages: ``web/invites.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from cardforge.cli.common import GAME, echo_json

if TYPE_CHECKING:
    from cardforge.games.base import Game
    from cardforge.playlog.store import PlayLog

EPILOG = """\b
Examples:
  cardforge invite my-game --name "Club Lyon" --url https://plays.example.org
  cardforge invite my-game --name "Convention table 3" --expires 3d
  cardforge invite list
  cardforge invite revoke 4                 # by number, or by name: revoke "Club Lyon"

\b
An invite link opens that game's score sheet on your server, and nothing else (no history,
no stats, no other game); each play saved through it records the invite. The link is shown
once: the play log keeps only a hash of it. See docs/playtests.md.
"""

DB_HELP = ("The play log: an SQLite file, or a PostgreSQL URL (postgresql://user@host/db), as `cardforge serve --db`."
           " Default: cardforge.db in your user data folder.")


def _db(path: str | None) -> PlayLog:
    from cardforge.playlog.store import open_log

    return open_log(path)


def _expiry(ctx: click.Context, param: click.Parameter, value: str) -> Any:
    from cardforge.web.invites import parse_expiry

    try:
        return parse_expiry(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


class _InviteGroup(click.Group):
    """``invite GAME …`` is ``invite add GAME …``: a word that is no subcommand is a game."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["add", *args]
        return super().parse_args(ctx, args)


@click.group(cls=_InviteGroup, epilog=EPILOG)
def invite() -> None:
    """Per-playtester links to a game's score sheet: make one (invite GAME --name NAME), list, revoke."""


@invite.command("add", epilog=EPILOG)
@click.argument("game", type=GAME)
@click.option("--name", required=True, help="Who it is for, as the list shows it (e.g. \"Club Lyon\").")
@click.option("--expires", default="90d", show_default=True, callback=_expiry, metavar="DURATION",
              help="How long it works: 12h, 30d, 2w, or never.")
@click.option("--url", default=None, metavar="URL",
              help="Your server's public address (https://plays.example.org): the link printed in full.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def add(game: Game, name: str, expires: Any, url: str | None, db_path: str | None, as_json: bool) -> None:
    """Make an invite for GAME and print its link (shown once)."""
    from cardforge.settings import playtest_url_problem
    from cardforge.web.invites import create_invite

    if url is not None and playtest_url_problem(url):
        raise click.BadParameter(str(playtest_url_problem(url)), param_hint="'--url'")
    log = _db(db_path)
    made, token = create_invite(log, game.id, name, expires)
    path = f"/i/{token}"
    link = f"{url.rstrip('/')}{path}" if url else path
    if as_json:
        echo_json({"ok": True, "id": made.id, "game": made.game, "name": made.name, "link": link,
                   "expires_at": made.expires_at, "db": log.where})
        return
    click.echo(f"invite #{made.id} for {made.name} ({made.game}), "
               + (f"until {made.expires_at}" if made.expires_at else "never expires"))
    click.echo(link if url else f"{link}   (after your server's address, e.g. https://plays.example.org{path})")
    click.echo("the link is shown once: the play log keeps only its hash. With `build --playtest "
               f"{link if url else 'URL' + path}` the printed QR code carries it.")


@invite.command("list")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def list_(db_path: str | None, as_json: bool) -> None:
    """Every invite: number, game, name, state (active, expired, revoked), plays sent."""
    from datetime import UTC, datetime

    from cardforge.web.invites import invites

    now = datetime.now(UTC)
    found = invites(_db(db_path))
    if as_json:
        echo_json({"ok": True, "invites": [{"id": i.id, "game": i.game, "name": i.name, "state": i.state(now),
                                            "created_at": i.created_at, "expires_at": i.expires_at,
                                            "revoked_at": i.revoked_at, "plays": i.plays} for i in found]})
        return
    if not found:
        click.echo("no invites yet (cardforge invite GAME --name NAME makes one)")
    for i in found:
        until = f"until {i.expires_at}" if i.expires_at else "no expiry"
        click.echo(f"#{i.id}  {i.game}  {i.name}  {i.state(now)}  {until}  {i.plays} play{'s' if i.plays != 1 else ''}")


@invite.command("revoke")
@click.argument("invite_ref", metavar="NUMBER|NAME")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
def revoke(invite_ref: str, db_path: str | None) -> None:
    """Revoke an invite (by its number, or every active invite of that name): its link stops at once;
    the plays it sent stay in the log."""
    from cardforge.web.invites import revoke_invite

    for i in revoke_invite(_db(db_path), invite_ref):
        click.echo(f"revoked invite #{i.id} for {i.name} ({i.game})")
