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
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

from cardforge.playlog.store import MAX_NAME, clean_name, details_from_form, name_key, uid_of
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


def read_plays_csv(data: bytes, filename: str, site: Site) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The plays of a CSV file, ready for ``PlayLog.add_play(**play)``, and every problem."""
    problems: list[Problem] = []
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
    norm = [h.casefold().replace(" ", "_") for h in header]

    def where(row: int, col: int) -> dict[str, Any]:
        return {"file": filename, "item": f"row {row}", "field": f"column {column_letter(col)} ({header[col]})"}

    index: dict[str, int] = {}
    for col, name in enumerate(norm):
        key = {"date": "played_on", "played_at": "played_on"}.get(name, name)
        if key in index and key in KNOWN:
            problems.append(Problem(f"a second {key} column (first: column {column_letter(index[key])})",
                                    **where(1, col)))
        index.setdefault(key, col)
    for required in ("play", "played_on", "game", "player"):
        if required not in index:
            problems.append(Problem(f"no {required} column (the columns: " + ", ".join(
                c for c, need, _ in COLUMNS if need) + ", then total or the categories)", file=filename, item="row 1"))
    if problems:
        return [], problems
    decimal_comma = delimiter != ","

    def cell(row: list[str], key: str) -> str:
        col = index.get(key)
        return _text(row[col].strip()) if col is not None and col < len(row) else ""

    # the rows of each play, in order
    groups: dict[str, list[tuple[int, list[str]]]] = {}
    for r, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        if any(len(c) > MAX_CELL for c in row):
            col = next(i for i, c in enumerate(row) if len(c) > MAX_CELL)
            problems.append(Problem(f"at most {MAX_CELL:,} characters a cell", **where(r, min(col, len(header) - 1))))
            continue
        if len(row) > len(header) and any(c.strip() for c in row[len(header):]):
            problems.append(Problem(f"{len(row)} cells, the first row names {len(header)} columns", file=filename,
                                    item=f"row {r}"))
            continue
        label = cell(row, "play")
        if not label:
            problems.append(Problem("empty: the rows of one play share a play label", **where(r, index["play"])))
            continue
        groups.setdefault(label, []).append((r, row))

    plays = []
    games: dict[str, Game | None] = {}
    for label, members in groups.items():
        play, found = _play(label, members, cell, index, header, norm, site, games, decimal_comma, where, filename)
        problems += found
        if play is not None:
            plays.append(play)
    return (plays if not problems else []), problems


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


def _play(label: str, members: Sequence[tuple[int, list[str]]], cell: Any, index: dict[str, int],
          header: list[str], norm: list[str], site: Site, games: dict[str, Game | None], decimal_comma: bool,
          where: Any, filename: str) -> tuple[dict[str, Any] | None, list[Problem]]:
    problems: list[Problem] = []
    first_row = members[0][0]

    def same(key: str) -> str:
        """A play-level column: the first value given; another value on a later row is a problem."""
        value = ""
        for r, row in members:
            v = cell(row, key)
            if v and value and v != value:
                problems.append(Problem(f"{v!r}, but this play's first rows say {value!r}", **where(r, index[key])))
            value = value or v
        return value

    game_text, day_text = same("game"), same("played_on")
    game = _game(game_text, site, games) if game_text else None
    if game is None:
        problems.append(Problem(f"no game {game_text!r} on this server (its id or title: "
                                + ", ".join(site.ctx_of(g).game.title for g in site.game_ids()[:8]) + "…)"
                                if game_text else "empty: the game's id or title", **where(first_row, index["game"])))
        return None, problems
    played_on = _date(day_text)
    if played_on is None:
        problems.append(Problem(f"a date is 2026-11-26 or 26/11/2026, got {day_text[:20]!r}",
                                **where(first_row, index["played_on"])))
    categories = [c.id for c in game.categories]
    choice_cols, choice_values = _choice_columns(game, norm, site)
    by_name = {c.id.casefold(): c.id for c in game.categories}
    by_name.update({c.label.casefold().replace(" ", "_"): c.id for c in game.categories})
    for cat in game.categories:
        if cat.label_en:
            by_name.setdefault(cat.label_en.casefold().replace(" ", "_"), cat.id)
    cat_cols = {col: by_name[name] for col, name in enumerate(norm) if name in by_name and name not in KNOWN}
    for col, name in enumerate(norm):
        if name in KNOWN or col in cat_cols or col in choice_cols:
            continue
        for r, row in members:  # a column of another game's categories: empty on this game's rows
            if col < len(row) and row[col].strip():
                problems.append(Problem(f"not a column of {game.title} (its categories: "
                                        + ", ".join(f"{c.id} ({c.label})" for c in game.categories)
                                        + "; the other columns: " + ", ".join(sorted(KNOWN - {"date", "played_at"}))
                                        + ")", **where(r, col)))
                break
    seats: list[dict[str, Any]] = []
    for r, row in members:
        name = clean_name(cell(row, "player"))
        if not name:
            problems.append(Problem("empty: the player's name", **where(r, index["player"])))
            continue
        if len(name) > MAX_NAME:
            problems.append(Problem(f"a name is at most {MAX_NAME} characters, got {len(name):,}",
                                    **where(r, index["player"])))
            continue
        breakdown: dict[str, float] = {}
        for col, category in cat_cols.items():
            raw = row[col].strip() if col < len(row) else ""
            if raw:
                value = _number(raw, decimal_comma)
                if value is None:
                    problems.append(Problem(f"a number, got {raw[:20]!r}", **where(r, col)))
                else:
                    breakdown[category] = value
        total_raw = cell(row, "total")
        total = _number(total_raw, decimal_comma) if total_raw else None
        if total_raw and total is None:
            problems.append(Problem(f"a number, got {total_raw[:20]!r}", **where(r, index["total"])))
            continue
        if total is None and not breakdown:
            col = index.get("total", index["player"])
            problems.append(Problem("no score: give total, or the game's categories", **where(r, col)))
            continue
        if breakdown and total is not None and abs(sum(breakdown.values()) - total) > 1e-6:
            problems.append(Problem(f"{_n(total)}, but the categories add up to {_n(sum(breakdown.values()))}",
                                    **where(r, index["total"])))
        score = total if total is not None else sum(breakdown.values())
        chosen: dict[str, Any] = {}
        for col, cid in choice_cols.items():
            raw = _text(row[col].strip()) if col < len(row) else ""
            if not raw:
                continue
            value = _choice_value(raw, choice_values[cid])
            if value is None:
                shown = ", ".join(sorted({lbl for lbl in choice_values[cid].values()}, key=str.casefold)[:12])
                problems.append(Problem(f"{raw[:40]!r} is not a {header[col]} of {game.title} (known: {shown})",
                                        **where(r, col)))
            else:
                chosen[cid] = value
        seat: dict[str, Any] = {"row": r, "name": name, "total": score, "breakdown": breakdown, "choices": chosen}
        for key in ("rank", "seat"):
            raw = cell(row, key)
            if raw:
                if not raw.isdigit() or not 1 <= int(raw) <= 100:
                    problems.append(Problem(f"a whole number from 1, got {raw[:20]!r}", **where(r, index[key])))
                else:
                    seat[key] = int(raw)
        for key in ("winner", "first"):
            raw = cell(row, key).casefold()
            if raw in YES:
                seat[key] = True
            elif raw not in NO:
                problems.append(Problem(f"1 or yes (or empty), got {raw[:20]!r}", **where(r, index[key])))
        seats.append(seat)
    if problems:
        return None, problems
    keys = [name_key(s["name"]) for s in seats]
    for i, s in enumerate(seats):
        if keys[i] in keys[:i]:
            problems.append(Problem(f"{s['name']} is in this play twice", **where(s["row"], index["player"])))
    if not game.min_players <= len(seats) <= game.max_players:
        problems.append(Problem(f"{len(seats)} players in play {label!r}, {game.title} is for {game.players_label}",
                                file=filename, item=f"row {first_row}"))
    if any("seat" in s for s in seats):
        if sorted(s.get("seat", 0) for s in seats) != list(range(1, len(seats) + 1)):
            problems.append(Problem(f"the seats of play {label!r} are 1 to {len(seats)}, each once",
                                    **where(first_row, index["seat"])))
        else:
            seats.sort(key=lambda s: s["seat"])
    firsts = [i for i, s in enumerate(seats) if s.get("first")]
    if len(firsts) > 1:
        problems.append(Problem(f"play {label!r} has {len(firsts)} first players", **where(first_row, index["first"])))
    mode = same("mode") or None
    if mode is not None and game.modes and mode not in game.modes:
        problems.append(Problem(f"{game.title}'s modes: {', '.join(game.modes)}; got {mode!r}",
                                **where(first_row, index["mode"])))
    details, detail_problems = details_from_form([
        ("play_date", played_on or ""), ("play_duration", same("duration")), ("play_location", same("location")),
        ("note", same("note"))], len(seats))
    for p in detail_problems:
        key = {"play_duration": "duration", "play_location": "location", "note": "note"}.get(p.field or "", "")
        problems.append(Problem(p.message, **where(first_row, index[key])) if key in index
                        else Problem(p.message, file=filename, item=f"row {first_row}"))
    if problems:
        return None, problems
    details.first_seat = firsts[0] if firsts else None
    if all("rank" in s for s in seats):
        ranks = [s["rank"] for s in seats]
    else:
        ranks = [1 + sum(1 for o in seats if o["total"] > s["total"]) for s in seats]
    if any("winner" in s for s in seats):
        winners = [s["name"] for s in seats if s.get("winner")]
    else:
        winners = [s["name"] for s, rank in zip(seats, ranks) if rank == 1]
    used = [c for c in categories if any(c in s["breakdown"] for s in seats)]
    result = {
        "ok": True, "game": game.id, **({"mode": mode} if mode else {}), "categories": used,
        "players": [{"name": s["name"], "total": _num(s["total"]), "rank": rank,
                     "breakdown": {c: _num(s["breakdown"].get(c, 0)) for c in used}}
                    for s, rank in zip(seats, ranks)],
        "winners": winners, "imported": True,
        "labels": {c.id: c.label for c in game.categories if c.id in used},
    }
    version = same("version") or None
    if version is not None:
        from cardforge.lab.versions import is_version, normal

        if not is_version(version):
            return None, [Problem(f"a version as on the cards' stamps (0.3, v1.2), got {version[:40]!r}",
                                  **where(first_row, index["version"]))]
        version = normal(version)
    parts: list[Any] = [game.id, details.played_on, mode,
                        [(name_key(s["name"]), s["total"], s["breakdown"]) for s in seats]]
    if version is not None or choice_cols:  # (a file without them keeps the uids it always had)
        parts += [version, [s["choices"] for s in seats]]
    facts = {"format": 1, "choices": [s["choices"] for s in seats]} if choice_cols else None
    return {"game": game.id, "title": game.title, "mode": mode, "state_yaml": "", "result": result,
            "details": details, "source": "import", "uid": uid_of(parts), "deck_version": version,
            "facts": facts}, []


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
