"""Plays from a spreadsheet (CSV): the scores a table kept on paper, or another log's export,
into the play log. A play imported this way keeps its scores as given — no final-state file,
so it is not scored again — and counts in the history and the stats like any other.

The columns (:data:`COLUMNS`; ``/log`` shows them, and a template per game): one row per
player per play; the rows of one play share its ``play`` value. Every problem is reported at
once, located by row and column (``plays.csv: row 7, column E (total): …``); nothing is
imported while one remains. Importing the same rows twice adds them once (a play's uid is made
from what it is).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

from cardforge.playlog.store import MAX_NAME, Details, clean_name, details_from_form, name_key, uid_of
from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.data.loading import GameData
    from cardforge.games.base import Game

MAX_BACKUP = 64 * 1024 * 1024  # bytes of a backup file to restore (the web's upload, `plays import`)
MAX_IMPORT = 4 * 1024 * 1024  # bytes of a CSV file to import
MAX_ROWS = 50_000  # 10,000 plays of 2–4 players are ~32,000 rows; the 4 MB upload limit bounds the work
MAX_CELL = 1_000

#: (column, required, what it holds) — the CSV export (/plays.csv) writes the same columns
COLUMNS: list[tuple[str, bool, str]] = [
    ("play", True, "any label shared by the rows of one play (1, 2, 3… or the export's play numbers)"),
    ("played_on", True, "the day: 2026-11-26 (or 26/11/2026); also accepted as date"),
    ("game", True, "the game's id or title, as this server serves it (my_game or My Game)"),
    ("player", True, "the player's name (at most 80 characters); the roster matches it"),
    ("total", False, "the final score; needed unless the categories are given (then their sum, or checked "
                     "against it)"),
    ("<category>", False, "a score-pad row of the game, by id or label (points, Points…): that category's points"),
    ("rank", False, "1 for the first; from the totals when left out (a tie shares the rank)"),
    ("winner", False, "1 (or yes) for a winner; the first rank when left out"),
    ("seat", False, "the seat order (1, 2…); the row order when left out"),
    ("first", False, "1 on the first player's row"),
    ("mode", False, "the mode played, when the game has modes"),
    ("version", False, "the deck version played (0.3, as printed on the cards' stamps): the playtest lab's "
                       "numbers per version"),
    ("<choice>", False, "a choice the game declares (a faction, a role…), by id or label: this player's"),
    ("duration", False, "minutes (90) or hours:minutes (1:30)"),
    ("location", False, "where"),
    ("note", False, "a note"),
]
KNOWN = {c for c, _, _ in COLUMNS if not c.startswith("<")} | {"date", "played_at"}
YES = {"1", "yes", "y", "true", "oui", "x", "✓"}
NO = {"", "0", "no", "n", "false", "non"}


class Served(Protocol):
    """A game that can take plays: its rules and its data."""

    @property
    def game(self) -> Game: ...

    @property
    def data(self) -> GameData: ...


class Site(Protocol):
    """Where the importer finds the games a file names: the web's site (the games it serves) or
    the command line's (the shipped games and those named with ``--game``)."""

    def game_ids(self) -> list[str]: ...

    def ctx_of(self, game_id: str, /) -> Served: ...


def column_letter(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _dialect(text: str) -> str:
    head = text.split("\n", 1)[0]
    return max((",", ";", "\t"), key=head.count)


def _number(text: str, decimal_comma: bool) -> float | None:
    t = text.strip().replace("\u202f", "").replace("\u00a0", "").replace(" ", "")
    if decimal_comma:
        t = t.replace(",", ".")
    if not re.fullmatch(r"[-+]?\d{1,9}(\.\d{1,6})?", t):
        return None
    return float(t)


def _date(text: str) -> str | None:
    t = text.strip()
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", t)
    if m:
        t = f"{m.group(3)}-{int(m.group(2)):02d}-{int(m.group(1)):02d}"
    t = t[:10] if re.fullmatch(r"\d{4}-\d{2}-\d{2}(T.*)?", t) else t
    try:
        day = date.fromisoformat(t)
    except ValueError:
        return None
    return t if re.fullmatch(r"\d{4}-\d{2}-\d{2}", t) and 1900 <= day.year <= 2200 else None


def _text(cell: str) -> str:
    """A cell as written, without the quote our export puts before text a spreadsheet would
    read as a formula."""
    return cell[1:] if cell[:2] in ("'=", "'+", "'-", "'@") else cell


@dataclass
class _Table:
    """A CSV file being read: its columns (as written, and normalised), where each known column
    is, how its numbers are written, and the games its plays name (looked up once a file)."""

    filename: str
    header: list[str]
    norm: list[str]
    site: Site
    decimal_comma: bool = False
    index: dict[str, int] = field(default_factory=dict)
    games: dict[str, Game | None] = field(default_factory=dict)

    def where(self, row: int, col: int) -> dict[str, Any]:
        """A cell's location for a :class:`Problem`: the file, ``row 7``, ``column E (total)``."""
        return {"file": self.filename, "item": f"row {row}",
                "field": f"column {column_letter(col)} ({self.header[col]})"}

    def cell(self, row: list[str], key: str) -> str:
        """A known column's cell in ``row`` (empty when the column or the cell is missing)."""
        col = self.index.get(key)
        return _text(row[col].strip()) if col is not None and col < len(row) else ""


def read_plays_csv(data: bytes, filename: str, site: Site) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The plays of a CSV file, ready for ``PlayLog.add_play(**play)``, and every problem."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [], [Problem(f"not UTF-8 text (byte {exc.start}): save the sheet as CSV UTF-8", file=filename)]
    delimiter = _dialect(text)
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if not rows or not any(cell.strip() for cell in rows[0]):
        return [], [Problem("the first row names the columns: play, played_on, game, player, total…", file=filename)]
    if len(rows) > MAX_ROWS + 1:
        return [], [Problem(f"at most {MAX_ROWS:,} rows, got {len(rows) - 1:,}", file=filename)]
    header = [h.strip() for h in rows[0]]
    table = _Table(filename, header, [h.casefold().replace(" ", "_") for h in header], site, delimiter != ",")
    problems = _index_columns(table)
    if problems:
        return [], problems
    groups = _groups(table, rows, problems)
    plays = []
    for label, members in groups.items():
        play, found = _play(label, members, table)
        problems += found
        if play is not None:
            plays.append(play)
    return (plays if not problems else []), problems


def _index_columns(table: _Table) -> list[Problem]:
    """Where each known column is (``date`` and ``played_at`` are ``played_on``), in
    ``table.index``; the problems of a column given twice or a required one missing."""
    problems: list[Problem] = []
    for col, name in enumerate(table.norm):
        key = {"date": "played_on", "played_at": "played_on"}.get(name, name)
        if key in table.index and key in KNOWN:
            problems.append(Problem(f"a second {key} column (first: column {column_letter(table.index[key])})",
                                    **table.where(1, col)))
        table.index.setdefault(key, col)
    for required in ("play", "played_on", "game", "player"):
        if required not in table.index:
            problems.append(Problem(f"no {required} column (the columns: " + ", ".join(
                c for c, need, _ in COLUMNS if need) + ", then total or the categories)", file=table.filename,
                item="row 1"))
    return problems


def _groups(table: _Table, rows: list[list[str]], problems: list[Problem]) -> dict[str, list[tuple[int, list[str]]]]:
    """The rows of each play (by its label), in order, each with its row number; a row that
    cannot belong to a play adds its problem to ``problems``."""
    header = table.header
    groups: dict[str, list[tuple[int, list[str]]]] = {}
    for r, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        if any(len(c) > MAX_CELL for c in row):
            col = next(i for i, c in enumerate(row) if len(c) > MAX_CELL)
            problems.append(Problem(f"at most {MAX_CELL:,} characters a cell",
                                    **table.where(r, min(col, len(header) - 1))))
            continue
        if len(row) > len(header) and any(c.strip() for c in row[len(header):]):
            problems.append(Problem(f"{len(row)} cells, the first row names {len(header)} columns",
                                    file=table.filename, item=f"row {r}"))
            continue
        label = table.cell(row, "play")
        if not label:
            problems.append(Problem("empty: the rows of one play share a play label",
                                    **table.where(r, table.index["play"])))
            continue
        groups.setdefault(label, []).append((r, row))
    return groups


def _game(text: str, site: Site, games: dict[str, Game | None]) -> Game | None:
    if text in games:
        return games[text]
    found = None
    for gid in site.game_ids():
        try:
            game = site.ctx_of(gid).game
        except Exception:  # a game whose data is broken cannot take plays
            continue
        if text.casefold() in (game.id.casefold(), game.title.casefold(), game.id.replace("_", "-").casefold()):
            found = game
            break
    games[text] = found
    return found


@dataclass
class _Play:
    """The rows of one play being read, and the problems found in them so far."""

    label: str
    members: Sequence[tuple[int, list[str]]]
    table: _Table
    problems: list[Problem] = field(default_factory=list)

    @property
    def first_row(self) -> int:
        return self.members[0][0]

    def same(self, key: str) -> str:
        """A play-level column: the first value given; another value on a later row is a problem."""
        value = ""
        for r, row in self.members:
            v = self.table.cell(row, key)
            if v and value and v != value:
                self.problems.append(Problem(f"{v!r}, but this play's first rows say {value!r}",
                                             **self.table.where(r, self.table.index[key])))
            value = value or v
        return value

    def at_first_row(self, key: str) -> dict[str, Any]:
        return self.table.where(self.first_row, self.table.index[key])


@dataclass
class _Columns:
    """A game's columns in the file: its categories and its declared choices (by column), and
    each choice's known values."""

    categories: dict[int, str]
    choices: dict[int, str]
    choice_values: dict[str, dict[str, Any]]


def _play(label: str, members: Sequence[tuple[int, list[str]]],
          table: _Table) -> tuple[dict[str, Any] | None, list[Problem]]:
    """One play from its rows (ready for ``PlayLog.add_play``), or None and its problems: the
    play-level columns, then each seat, then what the seats must agree on, then the details."""
    play = _Play(label, members, table)
    game_text, day_text = play.same("game"), play.same("played_on")
    game = _game(game_text, table.site, table.games) if game_text else None
    if game is None:
        site = table.site
        play.problems.append(Problem(f"no game {game_text!r} on this server (its id or title: "
                                     + ", ".join(site.ctx_of(g).game.title for g in site.game_ids()[:8]) + "…)"
                                     if game_text else "empty: the game's id or title", **play.at_first_row("game")))
        return None, play.problems
    played_on = _date(day_text)
    if played_on is None:
        play.problems.append(Problem(f"a date is 2026-11-26 or 26/11/2026, got {day_text[:20]!r}",
                                     **play.at_first_row("played_on")))
    columns = _game_columns(game, play)
    seats = [seat for r, row in members if (seat := _seat(r, row, game, columns, play)) is not None]
    if play.problems:
        return None, play.problems
    firsts = _check_seats(seats, game, play)
    mode = play.same("mode") or None
    if mode is not None and game.modes and mode not in game.modes:
        play.problems.append(Problem(f"{game.title}'s modes: {', '.join(game.modes)}; got {mode!r}",
                                     **play.at_first_row("mode")))
    details = _details(played_on, len(seats), play)
    if play.problems:
        return None, play.problems
    details.first_seat = firsts[0] if firsts else None
    result = _result(game, mode, seats)
    version = play.same("version") or None
    if version is not None:
        from cardforge.lab.versions import is_version, normal

        if not is_version(version):
            return None, [Problem(f"a version as on the cards' stamps (0.3, v1.2), got {version[:40]!r}",
                                  **play.at_first_row("version"))]
        version = normal(version)
    parts: list[Any] = [game.id, details.played_on, mode,
                        [(name_key(s["name"]), s["total"], s["breakdown"]) for s in seats]]
    if version is not None or columns.choices:  # (a file without them keeps the uids it always had)
        parts += [version, [s["choices"] for s in seats]]
    facts = {"format": 1, "choices": [s["choices"] for s in seats]} if columns.choices else None
    return {"game": game.id, "title": game.title, "mode": mode, "state_yaml": "", "result": result,
            "details": details, "source": "import", "uid": uid_of(parts), "deck_version": version,
            "facts": facts}, []


def _game_columns(game: Game, play: _Play) -> _Columns:
    """The columns of ``game``'s categories (by id, label or English label) and choices; a cell
    filled in a column that is none of the game's (another game's category) is a problem."""
    table = play.table
    choice_cols, choice_values = _choice_columns(game, table.norm, table.site)
    by_name = {c.id.casefold(): c.id for c in game.categories}
    by_name.update({c.label.casefold().replace(" ", "_"): c.id for c in game.categories})
    for cat in game.categories:
        if cat.label_en:
            by_name.setdefault(cat.label_en.casefold().replace(" ", "_"), cat.id)
    cat_cols = {col: by_name[name] for col, name in enumerate(table.norm) if name in by_name and name not in KNOWN}
    for col, name in enumerate(table.norm):
        if name in KNOWN or col in cat_cols or col in choice_cols:
            continue
        for r, row in play.members:  # a column of another game's categories: empty on this game's rows
            if col < len(row) and row[col].strip():
                play.problems.append(Problem(
                    f"not a column of {game.title} (its categories: "
                    + ", ".join(f"{c.id} ({c.label})" for c in game.categories)
                    + "; the other columns: " + ", ".join(sorted(KNOWN - {"date", "played_at"})) + ")",
                    **table.where(r, col)))
                break
    return _Columns(cat_cols, choice_cols, choice_values)


def _seat(r: int, row: list[str], game: Game, columns: _Columns, play: _Play) -> dict[str, Any] | None:
    """One player's row: name, score (total and categories), choices, rank, seat, winner, first;
    None when the row cannot give a seat (its problems added to the play's)."""
    table, problems = play.table, play.problems
    name = clean_name(table.cell(row, "player"))
    if not name:
        problems.append(Problem("empty: the player's name", **table.where(r, table.index["player"])))
        return None
    if len(name) > MAX_NAME:
        problems.append(Problem(f"a name is at most {MAX_NAME} characters, got {len(name):,}",
                                **table.where(r, table.index["player"])))
        return None
    breakdown: dict[str, float] = {}
    for col, category in columns.categories.items():
        raw = row[col].strip() if col < len(row) else ""
        if raw:
            value = _number(raw, table.decimal_comma)
            if value is None:
                problems.append(Problem(f"a number, got {raw[:20]!r}", **table.where(r, col)))
            else:
                breakdown[category] = value
    score = _score(r, row, breakdown, play)
    if score is None:
        return None
    seat: dict[str, Any] = {"row": r, "name": name, "total": score, "breakdown": breakdown,
                            "choices": _choices(r, row, game, columns, play)}
    for key in ("rank", "seat"):
        raw = table.cell(row, key)
        if raw:
            if not raw.isdigit() or not 1 <= int(raw) <= 100:
                problems.append(Problem(f"a whole number from 1, got {raw[:20]!r}", **table.where(r, table.index[key])))
            else:
                seat[key] = int(raw)
    for key in ("winner", "first"):
        raw = table.cell(row, key).casefold()
        if raw in YES:
            seat[key] = True
        elif raw not in NO:
            problems.append(Problem(f"1 or yes (or empty), got {raw[:20]!r}", **table.where(r, table.index[key])))
    return seat


def _score(r: int, row: list[str], breakdown: dict[str, float], play: _Play) -> float | None:
    """A row's final score: its total (checked against its categories when both are given),
    else the sum of its categories; None (and a problem) when it has neither or an unreadable total."""
    table = play.table
    total_raw = table.cell(row, "total")
    total = _number(total_raw, table.decimal_comma) if total_raw else None
    if total_raw and total is None:
        play.problems.append(Problem(f"a number, got {total_raw[:20]!r}", **table.where(r, table.index["total"])))
        return None
    if total is None and not breakdown:
        col = table.index.get("total", table.index["player"])
        play.problems.append(Problem("no score: give total, or the game's categories", **table.where(r, col)))
        return None
    if breakdown and total is not None and abs(sum(breakdown.values()) - total) > 1e-6:
        play.problems.append(Problem(f"{_n(total)}, but the categories add up to {_n(sum(breakdown.values()))}",
                                     **table.where(r, table.index["total"])))
    return total if total is not None else sum(breakdown.values())


def _choices(r: int, row: list[str], game: Game, columns: _Columns, play: _Play) -> dict[str, Any]:
    """A row's declared choices (a faction, a role…): each cell's value, or a problem naming the
    known ones."""
    chosen: dict[str, Any] = {}
    for col, cid in columns.choices.items():
        raw = _text(row[col].strip()) if col < len(row) else ""
        if not raw:
            continue
        value = _choice_value(raw, columns.choice_values[cid])
        if value is None:
            shown = ", ".join(sorted({lbl for lbl in columns.choice_values[cid].values()}, key=str.casefold)[:12])
            play.problems.append(Problem(f"{raw[:40]!r} is not a {play.table.header[col]} of {game.title} "
                                         f"(known: {shown})", **play.table.where(r, col)))
        else:
            chosen[cid] = value
    return chosen


def _check_seats(seats: list[dict[str, Any]], game: Game, play: _Play) -> list[int]:
    """What the seats of one play must agree on: each player once, the game's player count,
    seats 1 to N (then put in that order), at most one first player — whose index is returned."""
    table, label, first_row = play.table, play.label, play.first_row
    keys = [name_key(s["name"]) for s in seats]
    for i, s in enumerate(seats):
        if keys[i] in keys[:i]:
            play.problems.append(Problem(f"{s['name']} is in this play twice",
                                         **table.where(s["row"], table.index["player"])))
    if not game.min_players <= len(seats) <= game.max_players:
        play.problems.append(Problem(f"{len(seats)} players in play {label!r}, {game.title} is for "
                                     f"{game.players_label}", file=table.filename, item=f"row {first_row}"))
    if any("seat" in s for s in seats):
        if sorted(s.get("seat", 0) for s in seats) != list(range(1, len(seats) + 1)):
            play.problems.append(Problem(f"the seats of play {label!r} are 1 to {len(seats)}, each once",
                                         **play.at_first_row("seat")))
        else:
            seats.sort(key=lambda s: s["seat"])
    firsts = [i for i, s in enumerate(seats) if s.get("first")]
    if len(firsts) > 1:
        play.problems.append(Problem(f"play {label!r} has {len(firsts)} first players", **play.at_first_row("first")))
    return firsts


def _details(played_on: str | None, seats: int, play: _Play) -> Details:
    """The play's details (day, duration, location, note), checked as the sheet's form checks
    them; a problem is located at the play's first row, in its column."""
    table = play.table
    details, detail_problems = details_from_form([
        ("play_date", played_on or ""), ("play_duration", play.same("duration")),
        ("play_location", play.same("location")), ("note", play.same("note"))], seats)
    for p in detail_problems:
        key = {"play_duration": "duration", "play_location": "location", "note": "note"}.get(p.field or "", "")
        play.problems.append(Problem(p.message, **table.where(play.first_row, table.index[key])) if key in table.index
                             else Problem(p.message, file=table.filename, item=f"row {play.first_row}"))
    return details


def _result(game: Game, mode: str | None, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The play's score as the log saves one (``ScoreSheet.to_json``'s shape), from the scores
    given: ranks from the totals and winners from the first rank unless the file says them."""
    if all("rank" in s for s in seats):
        ranks = [s["rank"] for s in seats]
    else:
        ranks = [1 + sum(1 for o in seats if o["total"] > s["total"]) for s in seats]
    if any("winner" in s for s in seats):
        winners = [s["name"] for s in seats if s.get("winner")]
    else:
        winners = [s["name"] for s, rank in zip(seats, ranks) if rank == 1]
    used = [c.id for c in game.categories if any(c.id in s["breakdown"] for s in seats)]
    return {
        "ok": True, "game": game.id, **({"mode": mode} if mode else {}), "categories": used,
        "players": [{"name": s["name"], "total": _num(s["total"]), "rank": rank,
                     "breakdown": {c: _num(s["breakdown"].get(c, 0)) for c in used}}
                    for s, rank in zip(seats, ranks)],
        "winners": winners, "imported": True,
        "labels": {c.id: c.label for c in game.categories if c.id in used},
    }


#: the lab's view of a game for the import's choice columns, per (game, data) object: worked out
#: once a file, not once a play (10,000 plays: 74 s of 95 s went there); the entry keeps both
#: objects alive so their ids are not reused
_INFO: dict[tuple[int, int], tuple[Any, Any, Any]] = {}


def _choice_columns(game: Game, norm: list[str], site: Site) -> tuple[dict[int, str], dict[str, dict[str, Any]]]:
    """The columns naming a choice the game declares (by id or label), and each choice's known
    values: what a cell may say (its id, its label, case aside) → the value recorded."""
    if not game.spec.choices:
        return {}, {}
    from cardforge.lab.stats import game_info

    data = site.ctx_of(game.id).data
    hit = _INFO.get((id(game), id(data)))
    if hit is None:
        if len(_INFO) >= 16:
            _INFO.clear()
        hit = _INFO[(id(game), id(data))] = (game, data, game_info(game, data))
    info = hit[2]
    cols: dict[int, str] = {}
    names = {cid.casefold(): cid for cid in game.spec.choices}
    names.update({lbl.casefold().replace(" ", "_"): cid for cid, lbl in info.choices})
    for col, name in enumerate(norm):
        if name in names and name not in KNOWN:
            cols[col] = names[name]
    values: dict[str, dict[str, Any]] = {}
    for cid, spec in game.spec.choices.items():
        known: dict[str, Any] = {}
        for key, lbl in info.value_labels.get(cid, {}).items():
            raw: Any = key
            if spec.values is not None:
                raw = next((v for v in spec.values if str(v) == key or (isinstance(v, bool) and
                                                                          ("yes" if v else "no") == key)), key)
            known[key.casefold()] = raw
            known[lbl.casefold()] = raw
        values[cid] = known
    return cols, values


def _choice_value(text: str, known: dict[str, Any]) -> Any:
    """A cell's choice: one of the known values (by id or label), or — when the game says no
    list (a free field) — the text itself; yes/no for a choice that is one."""
    key = text.strip().casefold()
    if not known:
        if key in YES - {"1"}:
            return True
        if key in NO - {"", "0"}:
            return False
        return text.strip()
    return known.get(key)


def _num(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _n(value: float) -> str:
    return str(_num(round(value, 6)))


def template_csv(game: Game) -> str:
    """A CSV to fill in for ``game``: the columns, and one example play of two players."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\r\n")
    cats = [c.id for c in game.categories]
    out.writerow(["play", "played_on", "game", "mode", "player", "seat", "first", *cats, "total", "duration",
                  "location", "note"])
    mode = game.default_mode or ""
    for seat, name in enumerate(("Ana", "Ben"), start=1):
        out.writerow([1, date.today().isoformat(), game.id, mode, name, seat, 1 if seat == 1 else "",
                      *("" for _ in cats), 10 - seat, 60 if seat == 1 else "", "", ""])
    return buf.getvalue()
