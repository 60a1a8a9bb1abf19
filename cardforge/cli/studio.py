"""cardforge studio GAME: a live view of a game's cards in the browser."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardforge.cli.common import GAME

if TYPE_CHECKING:
    from cardforge.games.base import Game

EPILOG = """\b
Examples:
  cardforge studio my-game                     # http://127.0.0.1:8100, this machine only
  cardforge studio my-game --editor            # click a card → open its line in $EDITOR / VS Code
  cardforge studio my-game --printed output/my_game/cards.json   # + a visual diff with that print
  cardforge studio my-game --host 0.0.0.0      # a phone on the same Wi-Fi (with the access token)

\b
Every card face (and back) is drawn as the build draws it; on each save the faces whose
content changed are drawn again and replaced on the page, errors shown on the card they are
about. With --host other than 127.0.0.1 the access token of `cardforge serve` is required.
"""


@click.command(epilog=EPILOG)
@click.argument("game", type=GAME)
@click.option("--port", default=8100, show_default=True, type=click.IntRange(1, 65535), help="TCP port.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets other devices join (with a token).")
@click.option("--dpi", type=click.IntRange(36, 300), default=150, show_default=True, help="Pictures' resolution.")
@click.option("--templates", "templates_dir", type=click.Path(file_okay=False, exists=True),
              help="Use layouts and templates from DIR/<game>/ and DIR/_shared/.")
@click.option("--editor", "editor", is_flag=True,
              help="Let a click open the file at its line: $VISUAL, $EDITOR, else VS Code (`code -g`).")
@click.option("--printed", type=click.Path(exists=True),
              help="A build record (cards.json, or its folder) to diff the cards against.")
@click.option("--poll", is_flag=True, help="Poll the folders (network drives) rather than listen to the OS.")
@click.option("--new-token", is_flag=True, help="Make a new access token (with --host).")
def studio(game: Game, port: int, host: str, dpi: int, templates_dir: str | None, editor: bool,
           printed: str | None, poll: bool, new_token: bool) -> None:
    """Show GAME's cards in the browser, redrawn on every save; click one for its source."""
    from cardforge.cli import STATE
    from cardforge.cli.serve import LOCAL, _lan_address, _listen, _token
    from cardforge.studio.app import StudioSettings, Watcher, create_app, editor_command
    from cardforge.studio.session import Studio

    try:
        import uvicorn
    except ImportError:  # pragma: no cover - a dependency
        raise click.ClickException("cardforge studio needs uvicorn: pip install uvicorn") from None

    record = None
    if printed:
        record = Path(printed)
        if record.is_dir():
            record = record / "cards.json"
        if not record.is_file():
            raise click.BadParameter(f"{printed}: no cards.json there (a build writes one)", param_hint="'--printed'")
    command = editor_command() if editor else None
    if editor and command is None:
        raise click.BadParameter("no editor found: set $EDITOR (or $VISUAL), or install VS Code's `code`",
                                 param_hint="'--editor'")
    local = host in LOCAL
    token, kept = (None, "") if local else _token(new_token)
    session = Studio(game, templates_dir=Path(templates_dir) if templates_dir else None, dpi=dpi,
                     data_root=Path(STATE.data_root) if STATE.data_root else None)
    sock = _listen(host, port)
    sock.listen(128)  # a page opened from the printed address waits for the server, never refused
    click.echo(f"{game.id}: drawing the cards…")
    first = session.refresh()
    session.idle()  # the first load's cache entry, at once
    for problem in session.general:
        click.echo(f"{problem.severity}: {problem}", err=True)
    click.echo(f"{game.id}: {len(session.faces)} faces in {first.seconds:.1f} s")
    shown = host if local else _lan_address() if host in ("0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    url = f"http://{shown}:{port}/" + (f"?token={token}" if token else "")
    click.echo(f"cardforge studio: open {url}")
    if token:
        click.echo(kept)
    settings = StudioSettings(token=token, local_only=local, editor=command, printed=record)
    watcher = Watcher(session, polling=True if poll else None).start()
    config = uvicorn.Config(create_app(session, settings), host=host, port=port, log_level="warning",
                            access_log=False, server_header=False, limit_concurrency=64, timeout_keep_alive=5,
                            timeout_graceful_shutdown=1)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    watcher.stop()
    session.idle()  # the last save's data cache entry, if no quiet second came after it
    click.echo("cardforge studio: stopped.")
