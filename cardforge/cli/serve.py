"""cardforge serve: the score sheet, setup and play log in a browser (phones at the table)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from cardforge.cli import STATE

if TYPE_CHECKING:
    import socket
    from pathlib import Path

EPILOG = """\b
Examples:
  cardforge serve                          # http://127.0.0.1:8000, this machine only
  cardforge serve --host 0.0.0.0           # phones on the table's Wi-Fi: scan the QR code
  cardforge serve --db plays.db --port 8080
  cardforge serve --db postgresql://cardforge@db.example/plays   # a team's log (docs/deploy.md)
  cardforge serve ./my-game                # your own game folder too
  cardforge serve --printed my-game=output/my-game/cards.json   # the printed deck is on the table
  cardforge serve --proxy-headers --root-path /cardforge --db /srv/plays.db   # behind nginx (docs/deploy.md)

\b
With --host other than 127.0.0.1 an access token is required: made once and kept in your
config folder (so a restarted server lets the same phones in), carried by the printed address
and QR code; requests without it are refused (403). --new-token replaces it.
The play log is an SQLite file in your data folder (see the first line printed), or --db PATH,
or a team's log on PostgreSQL: --db postgresql://user@host/db (docs/deploy.md).
Every play saved records its deck's version and fingerprint (the playtest lab): the working
data's, or with --printed GAME=RECORD the printed build's (its cards.json), whose cards the
sheet then scores with.
"""

LOCAL = ("127.0.0.1", "localhost", "::1")


@click.command(epilog=EPILOG)
@click.argument("games", nargs=-1)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="TCP port.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets other devices join (with a token).")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None,
              help="The play log: an SQLite file, or a PostgreSQL URL (postgresql://user@host/db) for a "
                   "team's log. Default: cardforge.db in your user data folder.")
@click.option("--no-qr", is_flag=True, help="Do not print the QR code.")
@click.option("--printed", "printed", multiple=True, metavar="GAME=RECORD",
              help="The printed deck of GAME on the table: its build record (cards.json, or its folder). "
                   "Repeatable.")
@click.option("--new-token", is_flag=True,
              help="Make a new access token (with --host): links and QR codes given out before stop working.")
@click.option("--proxy-headers", is_flag=True,
              help="Behind a reverse proxy (TLS): trust its X-Forwarded-For/-Proto headers (from "
                   "--forwarded-allow-ips) and, as on a network, require the access token or an invite. "
                   "See docs/deploy.md.")
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True, metavar="IPS",
              help="With --proxy-headers: the proxy's addresses, comma-separated.")
@click.option("--root-path", default="", metavar="/PREFIX",
              help="Serve under this path of the proxy's address (e.g. /cardforge): links and redirects carry it.")
def serve(games: tuple[str, ...], port: int, host: str, db_path: str | None, no_qr: bool,
          printed: tuple[str, ...], new_token: bool, proxy_headers: bool = False,
          forwarded_allow_ips: str = "127.0.0.1", root_path: str = "") -> None:
    """Serve the score sheets, setups and play log on a local web server.

    GAMES: game folders (or ids) to offer besides the shipped games, e.g. your own game. The
    server serves those and the shipped games only: any other game asked for is not found.
    """
    from pathlib import Path

    from cardforge.playlog.dialect import is_url, redact
    from cardforge.playlog.store import default_path
    from cardforge.web.app import Settings, create_app

    try:
        import uvicorn
    except ImportError:  # pragma: no cover - a dependency
        raise click.ClickException("cardforge serve needs uvicorn: pip install uvicorn") from None

    from cardforge.games import find_game

    # the games named here are checked now (a typo is a usage error); the server serves them and
    # the shipped games, nothing else (a folder by its absolute path, never looked up again by name)
    found = [find_game(g) for g in games]
    extra: list[str | Path] = [g.folder.resolve() if g.origin == "folder" else g.id for g in found]
    tables, lines = _printed_decks(printed, extra)
    if root_path:
        from cardforge.web.proxy import root_path_problem

        if root_path_problem(root_path):
            raise click.BadParameter(str(root_path_problem(root_path)), param_hint="'--root-path'")
    local = host in LOCAL and not proxy_headers  # behind a proxy, the world connects: a token
    token, kept = (None, "") if local else _token(new_token)
    db: Path | str = db_path if db_path and is_url(db_path) else Path(db_path) if db_path else default_path()
    settings = Settings(db_path=db, token=token, data_root=Path(STATE.data_root) if STATE.data_root else None,
                        local_only=local, games=extra, printed=tables)
    app: Any = create_app(settings)
    if root_path:
        from cardforge.web.proxy import RootPath

        app = RootPath(app, root_path)

    sock = _listen(host, port)  # before printing the address: a port in use is said plainly
    _greet(host, port, local, token, kept, no_qr, lines, redact(db) if isinstance(db, str) else str(db))
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            server_header=False, limit_concurrency=64, timeout_keep_alive=5,
                            proxy_headers=proxy_headers, forwarded_allow_ips=forwarded_allow_ips)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops cleanly on Ctrl-C, then raises it again
        pass
    click.echo("cardforge serve: stopped.")


def _greet(host: str, port: int, local: bool, token: str | None, kept: str, no_qr: bool, lines: list[str],
           log: str) -> None:
    """What `serve` says once it listens: the log, the address (with its token and QR code for
    other devices), the printed decks served."""
    shown_host = host if local else _lan_address() if host in ("0.0.0.0", "::") else host
    if ":" in shown_host:
        shown_host = f"[{shown_host}]"
    url = f"http://{shown_host}:{port}/" + (f"?token={token}" if token else "")
    click.echo(f"play log: {log}")
    click.echo(f"cardforge serve: open {url}")
    for line in lines:
        click.echo(line)
    if token:
        click.echo(kept)
        click.echo("other devices need this address (it carries the access token); Ctrl-C stops.")
        if not no_qr:
            import segno

            qr = segno.make(url, error="m")
            qr.terminal(compact=True)
    else:
        click.echo("only this machine can connect (--host 0.0.0.0 for phones); Ctrl-C stops.")


def _token(rotate: bool) -> tuple[str, str]:
    from cardforge.web.access import serve_token

    return serve_token(rotate=rotate)


def _printed_decks(printed: tuple[str, ...], extra: list[str | Path]) -> tuple[dict[str, Path], list[str]]:
    """``--printed GAME=RECORD``: each record read and checked against its game's card models now
    (a bad one stops the server from starting: exit 1, the file and what is wrong); a game folder
    named there is served too. Returns game id → record and a line per deck to print."""
    from pathlib import Path

    from cardforge.cli.common import find_game, load_data
    from cardforge.render.cards.printed_deck import printed_deck

    tables: dict[str, Path] = {}
    lines = []
    for value in printed:
        name, sep, record = value.partition("=")
        if not sep or not name.strip() or not record.strip():
            raise click.BadParameter(f"{value!r}: GAME=RECORD, e.g. my-game=output/my-game/cards.json",
                                     param_hint="'--printed'")
        game = find_game(name.strip())
        if game.id in tables:
            raise click.BadParameter(f"{game.id} is given twice: one printed deck per game", param_hint="'--printed'")
        deck, _ = printed_deck(game, load_data(game), record.strip())
        tables[game.id] = Path(record.strip()).resolve()
        if game.origin == "folder" and game.folder.resolve() not in extra:
            extra.append(game.folder.resolve())
        lines.append(f"{game.id}: plays saved record the {deck.source} deck, {deck.label}")
    return tables, lines


def _listen(host: str, port: int) -> socket.socket:
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        hint = f" (another server there? try --port {port + 1})" if exc.errno in (98, 48, 10048) else ""
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}{hint}") from None
    sock.set_inheritable(True)
    return sock


def _lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address: str = s.getsockname()[0]
            return address
    except OSError:
        return socket.gethostname()
