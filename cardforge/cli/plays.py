"""cardforge plays add | list | export | import: the play log from the command line (the same
log as ``cardforge serve``: ``--db PATH``, ``--db postgresql://…`` or the default file)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import click

from cardforge.cli.common import GAME, echo_json, every_game, find_game, load_data, output_target, read_stdin
from cardforge.errors import DataError, ScoreInputError
from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.games.base import Game
    from cardforge.playlog.store import PlayLog

EPILOG = """\b
Examples:
  cardforge plays add my-game final.yaml                        # played with the working data
  cardforge plays add my-game final.yaml --printed printed-v2.json --date 2026-11-26 --first 2
  cardforge plays list my-game --version 0.3
  cardforge plays export -o plays.csv                         # or plays.json: the whole log
  cardforge plays import plays.csv                            # a spreadsheet's plays, or a backup

The log is the one `cardforge serve` keeps (the path is printed by `serve`); --db PATH names another,
--db postgresql://user@host/db a team's log on PostgreSQL. Export one log and import the file into
another to move it (the JSON backup keeps every play, deck and invite as it was).
"""

DB_HELP = ("The play log: an SQLite file, or a PostgreSQL URL (postgresql://user@host/db), as `cardforge serve --db`."
           " Default: cardforge.db in your user data folder.")


def _db(path: str | None) -> PlayLog:
    from cardforge.playlog.store import open_log

    return open_log(path)


@click.group(epilog=EPILOG)
def plays() -> None:
    """The play log: add a finished game (tied to the deck it was played with), list, export, import."""


ADD_EPILOG = """\b
Examples:
  cardforge plays add my-game final.yaml
  cardforge plays add my-game final.yaml --printed output/my-game/cards.json   # the printed deck
  cardforge plays add ./my-game final.yaml --date 2026-11-26 --first Ana --minutes 75
  cardforge plays add my-game plays/*.yaml --date 2026-11-26     # many at once: one transaction

The play records the deck's version and fingerprint: the working data's, or with --printed the
build record (cards.json) of the deck on the table — then the final state is checked and scored
with that deck's cards. Adding the same file again (same game, date and deck) adds nothing.
"""


@plays.command("add", epilog=ADD_EPILOG)
@click.argument("game", type=GAME)
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@click.option("--date", "played_on", default=None, metavar="YYYY-MM-DD", help="The day it was played (default: today).")
@click.option("--printed", "printed", type=click.Path(), default=None, metavar="RECORD",
              help="The build record (cards.json, or its folder) of the printed deck that was played.")
@click.option("--first", "first", default=None, metavar="SEAT|NAME", help="The first player: a seat (1…) or a name.")
@click.option("--minutes", "duration", default=None, metavar="MIN", help="How long it took: 90 or 1:30.")
@click.option("--location", default="", help="Where.")
@click.option("--note", default="", help="A note.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def add(game: Game, files: tuple[str, ...], db_path: str | None, played_on: str | None, printed: str | None,
        first: str | None, duration: str | None, location: str, note: str, as_json: bool) -> None:
    """Add the finished game FILE (its final-state YAML, as `cardforge score` reads) to the log;
    several FILEs are added together, in one transaction (all or none: a bad one adds nothing)."""
    from cardforge.lab.facts import deck_of_data

    data = load_data(game)
    if printed is not None:
        from cardforge.render.cards.printed_deck import printed_deck

        deck, played_data = printed_deck(game, data, printed)
    else:
        deck = deck_of_data(game.id, data)
        played_data = data
    if "-" in files and len(files) > 1:
        raise click.UsageError("'-' (standard input) is one final state: give it alone")
    rows = [_play_row(game, played_data, deck, file, played_on, first, duration, location, note) for file in files]
    log = _db(db_path)
    numbers: list[tuple[int, bool]] = []
    if len(rows) == 1:
        before = log.play_by_uid(rows[0]["uid"])
        if before is not None:
            numbers.append((before, False))
        else:
            row = {k: v for k, v in rows[0].items() if k != "sheet"}
            numbers.append((log.add_play(**row), True))
    else:
        new_rows, seen = [], set()
        for row in rows:
            if row["uid"] not in seen:
                seen.add(row["uid"])
                new_rows.append({k: v for k, v in row.items() if k != "sheet"})
        log.add_plays(new_rows)  # one transaction, one sync: 10,000 final states in seconds, not minutes
        known = log.numbers_of([r["uid"] for r in rows])
        numbers = [(known.get(r["uid"], 0), True) for r in rows]
    if len(rows) > 1:
        if as_json:
            echo_json({"ok": True, "game": game.id, "plays": [n for n, _ in numbers], "files": len(rows),
                       "deck": {"version": deck.version, "fingerprint": deck.fingerprint, "source": deck.source},
                       "db": log.where})
        else:
            click.echo(f"{game.id}: {len(rows)} final states saved (plays #{min(n for n, _ in numbers)}–"
                       f"#{max(n for n, _ in numbers)}), deck {deck.label} ({_source(deck.source)})")
        return
    (number, added), sheet, day = numbers[0], rows[0]["sheet"], rows[0]["details"].played_on
    names = [p.name for p in sheet.players]
    if as_json:
        echo_json({"ok": True, "play": number, "added": added, "game": game.id, "played_on": day,
                   "deck": {"version": deck.version, "fingerprint": deck.fingerprint, "source": deck.source},
                   "winners": list(sheet.winners), "db": log.where})
        return
    if not added:
        click.echo(f"{game.id}: play #{number} is in the log already (the same final state, date and deck): "
                   "nothing added")
        return
    who = " and ".join(sheet.winners)
    click.echo(f"{game.id}: play #{number} saved — {day}, deck {deck.label} ({_source(deck.source)}), "
               f"{len(names)} players, won by {who}")


def _play_row(game: Game, played_data: Any, deck: Any, file: str, played_on: str | None, first: str | None,
              duration: str | None, location: str, note: str) -> dict[str, Any]:
    """One final state scored and read into the keyword arguments of ``PlayLog.add_play`` (plus
    ``sheet``: its score)."""
    from cardforge.data.yamlio import parse_text, read_yaml
    from cardforge.engine.inputs import load_doc
    from cardforge.engine.scoring import score_doc
    from cardforge.lab.facts import facts_json, seat_facts
    from cardforge.playlog.store import details_from_form, today, uid_of

    if file == "-":
        text, problem = read_stdin("<stdin>")
        if problem is not None or text is None:
            raise ScoreInputError("cannot read <stdin>", [problem] if problem else [])
        doc = parse_text(text, "<stdin>")
    else:
        path = Path(file)
        if not path.exists() and not path.is_symlink():
            raise ScoreInputError(f"cannot add {file}", [Problem("file not found", file=file)])
        doc = read_yaml(path, display=file)
        text = doc.text
    sheet = score_doc(game, played_data, doc)
    names = [p.name for p in sheet.players]
    pairs = [("play_date", played_on or ""), ("play_duration", duration or ""), ("play_location", location),
             ("note", note), ("play_first", _first_seat(first, names))]
    details, problems = details_from_form(pairs, len(names))
    if problems:
        options = {"play_date": "--date", "play_duration": "--minutes", "play_location": "--location",
                   "note": "--note", "play_first": "--first"}
        p = problems[0]
        raise click.BadParameter(p.message, param_hint=f"'{options.get(p.field or '', p.field or '')}'")
    state, _ = load_doc(doc, game.score_model) if game.score_model is not None else (None, [])
    facts = facts_json(seat_facts(game, played_data, state), names) if state is not None else None
    day = details.played_on or today()
    details.played_on = day
    return {"game": game.id, "title": game.title, "mode": sheet.mode, "state_yaml": text,
            "result": sheet.to_json(), "details": details, "source": "cli",
            "uid": uid_of(["cli", game.id, day, deck.fingerprint, text]), "deck": deck, "facts": facts,
            "sheet": sheet}


def _first_seat(first: str | None, names: list[str]) -> str:
    """``--first``: a seat number as it is, a player's name as their seat (1-based)."""
    if not first:
        return ""
    if first.strip().isdigit():
        return first.strip()
    from cardforge.playlog.store import name_key

    keys = [name_key(n) for n in names]
    if name_key(first) in keys:
        return str(keys.index(name_key(first)) + 1)
    raise click.BadParameter(f"{first!r} is neither a seat (1 to {len(names)}) nor a player of this play "
                             f"({', '.join(names)})", param_hint="'--first'")


def _source(source: str) -> str:
    return "working data" if source == "data" else source


@plays.command("list")
@click.argument("game", required=False)
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@click.option("--version", "versions", default=None, metavar="SEL",
              help="Only these deck versions: 0.3, 0.2..0.3, since 0.3.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 100_000), help="The latest N plays.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def list_plays(game: str | None, db_path: str | None, versions: str | None, limit: int, as_json: bool) -> None:
    """The latest plays (of GAME: an id or a game folder), newest first, with their deck version."""
    from cardforge.lab.versions import label, parse_selection

    selection, problem = parse_selection(versions)
    if problem is not None:
        raise click.BadParameter(problem.message, param_hint="'--version'")
    game_id = find_game(game).id if game else None
    log = _db(db_path)
    rows = [r for r in log.plays(game_id, limit=limit) if r.deck_version in selection]
    if as_json:
        echo_json({"ok": True, "plays": [
            {"play": r.id, "game": r.game, "played_on": r.played_on, "mode": r.mode,
             "deck": {"version": r.deck_version, "fingerprint": r.deck_fp, "source": r.deck_source},
             "players": [{"name": s["player"], "total": s["total"], "rank": s["rank"], "winner": bool(s["winner"])}
                         for s in r.players]} for r in rows]})
        return
    if not rows:
        click.echo("no play" + (f" of {game_id}" if game_id else "") + (f" ({selection.describe})" if versions else ""))
        return
    for r in rows:
        seats = ", ".join(f"{'★' if s['winner'] else ''}{s['player']} {_num(s['total'])}" for s in r.players)
        deck = label(r.deck_version) + (f" · {r.deck_fp}" if r.deck_fp else "")
        click.echo(f"#{r.id:<5} {r.played_on}  {r.game:<16} {deck:<20} {seats}")


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@plays.command("export")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@click.option("--game", "game", default=None, help="Only this game's plays (CSV).")
@click.option("--format", "fmt", type=click.Choice(["csv", "json"]), default=None,
              help="csv: a row per player per play; json: the whole log (a backup). Default: from -o, else csv.")
@click.option("-o", "--output", "output", default=None, metavar="FILE", help="Write here (default: stdout).")
def export(db_path: str | None, game: str | None, fmt: str | None, output: str | None) -> None:
    """The log as CSV (what `plays import` and the web's import read back) or as a JSON backup."""
    from cardforge.paths import write_atomic

    fmt = fmt or ("json" if output and output.lower().endswith(".json") else "csv")
    if fmt == "json" and game:
        raise click.UsageError("--game is for CSV; a JSON backup holds the whole log")
    log = _db(db_path)
    text = log.backup() if fmt == "json" else log.csv(find_game(game).id if game else None)
    if output is None:
        click.echo(text, nl=False)
        return
    target = output_target(output, Path(output), "-o", "export", folder=False)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, lambda f: f.write(text.encode("utf-8")))
    click.echo(f"{target}: {fmt.upper()}, {text.count(chr(10)) if fmt == 'csv' else 'the whole log'}"
               + (" lines" if fmt == "csv" else ""), err=True)


class _Games:
    """What the CSV importer asks of a server, for the command line: the games it knows (the
    shipped ones and those named with --game) and each one's data."""

    def __init__(self, extra: tuple[str, ...]):
        self.games: dict[str, Game] = {g.id: g for g in [*(find_game(x) for x in extra), *every_game()]}
        self._data: dict[str, Any] = {}

    def game_ids(self) -> list[str]:
        return list(self.games)

    def ctx_of(self, game_id: str) -> Any:
        game = self.games[game_id]
        if game_id not in self._data:
            from cardforge.data.loading import load_game_data

            self._data[game_id] = load_game_data(game)
        return SimpleNamespace(game=game, data=self._data[game_id])


@plays.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default=None, help=DB_HELP)
@click.option("--game", "games", multiple=True, metavar="GAME",
              help="A game folder whose plays the file holds (the shipped games are known).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def import_plays(file: str, db_path: str | None, games: tuple[str, ...], as_json: bool) -> None:
    """Plays from FILE: a CSV (a row per player per play, the columns of `plays export`; every
    problem located by row and column, nothing added while one remains) or a JSON backup
    (`plays export -o FILE.json`: the plays the log lacks are added)."""
    from pydantic import ValidationError

    from cardforge.paths import read_regular
    from cardforge.playlog.importer import MAX_BACKUP, MAX_IMPORT
    from cardforge.playlog.store import BACKUP_FORMAT, BackupDoc

    is_json = file.lower().endswith(".json")
    raw, problem = read_regular(file, file, MAX_BACKUP if is_json else MAX_IMPORT)
    if raw is None:
        raise DataError(f"cannot import {file}", [problem] if problem else [])
    log = _db(db_path)
    if is_json:
        try:
            doc = BackupDoc.model_validate(json.loads(raw.decode("utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DataError(f"cannot import {file}", [Problem(f"not a cardforge backup ({exc})", file=file)]) from None
        except ValidationError as exc:
            from cardforge.data.validate import validation_problems

            raise DataError(f"cannot import {file}", validation_problems(exc, BackupDoc, file=file)[:50]) from None
        if doc.format != BACKUP_FORMAT:
            raise DataError(f"cannot import {file}", [Problem(f"format {doc.format[:40]!r}, not a cardforge play log "
                                                              "backup", file=file, field="format")])
        done = log.restore(doc)
        summary = {"added": done["added"], "skipped": done["kept"], "renumbered": done["renumbered"]}
    else:
        from cardforge.playlog.importer import read_plays_csv

        found, problems = read_plays_csv(raw, file, _Games(games))
        if problems:
            raise DataError(f"cannot import {file}: nothing imported", problems)
        added, skipped = log.add_plays(found)  # one transaction: all or none, one sync to disk
        summary = {"added": added, "skipped": skipped}
    if as_json:
        echo_json({"ok": True, **summary, "db": log.where})
    else:
        click.echo(f"{file}: {summary['added']} play{'s' if summary['added'] != 1 else ''} added, "
                   f"{summary['skipped']} already in the log ({log.where})")


for _command in (add, list_plays, export, import_plays):
    from cardforge.cli import _add_common_options

    _add_common_options(_command)
