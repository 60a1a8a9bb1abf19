"""The play log: finished games in an SQLite database (stdlib ``sqlite3``), or in PostgreSQL.

- Where: ``cardforge.db`` in the user's data folder (``platformdirs``), or ``--db PATH``, or
  ``--db postgresql://…`` (psycopg 3, :mod:`.dialect`: the same SQL through a thin layer, a
  baseline schema equal to SQLite's version 5, the later migrations shared; writers one at a
  time under an advisory lock).
- Schema: a ``schema_version`` table and :data:`MIGRATIONS`, applied in order, each in its own
  transaction (with foreign keys off while it runs, as SQLite's table rebuilds need, and a
  ``foreign_key_check`` before it commits); a database newer than this cardforge is refused
  rather than written. Append a migration, never edit a shipped one.
- Safety: WAL journal, ``synchronous=FULL``, every write in one transaction — a server killed
  mid-write leaves the last committed play log, never a half-saved play. The SQL is what both
  databases read: ``ON CONFLICT`` upserts, no boolean arithmetic, ``NULLS FIRST/LAST`` spelled
  out, no ``COLLATE NOCASE`` (sorted in Python).
- A play keeps the final-state YAML it was scored from (``cardforge score`` reproduces it), the
  score JSON, and one row per player and per category for the history and the stats. Its number
  is never reused (``AUTOINCREMENT``, and deleting only marks it: undo brings it back); editing
  it changes it in place and keeps the previous version (``play_versions``); a request key sent
  with the form makes a resent form a no-op.
- Players are a roster (``players``): a play's names are matched to it (case, accents' forms and
  spacing aside), new names join it; a merge keeps the merged name as an alias.

Version 5 of the schema (4 + invites, ``web/invites.py``) is laid out in DEVELOPING.md ("The play log").
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import secrets
import sqlite3
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cardforge.errors import CardforgeError
from cardforge.playlog.dialect import BASELINE, WRITE_LOCK, Pool, is_url, redact, secrets_of
from cardforge.playlog.dialect import Connection as PgConnection
from cardforge.problems import Problem

if TYPE_CHECKING:
    from cardforge.lab.facts import Deck
    from cardforge.lab.stats import Play

MIGRATIONS: list[tuple[int, str]] = [
    (1, """
        CREATE TABLE plays (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            title TEXT NOT NULL,
            mode TEXT,
            played_at TEXT NOT NULL,          -- ISO 8601, UTC
            state_yaml TEXT NOT NULL,         -- the final-state file
            result_json TEXT NOT NULL,        -- what `cardforge score --json` prints
            cardforge_version TEXT NOT NULL
        );
        CREATE TABLE scores (
            play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            player TEXT NOT NULL,
            total REAL NOT NULL,
            rank INTEGER NOT NULL,
            winner INTEGER NOT NULL,
            PRIMARY KEY (play_id, seat)
        );
        CREATE TABLE category_scores (
            play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            category TEXT NOT NULL,
            value REAL NOT NULL,
            PRIMARY KEY (play_id, seat, category)
        );
        CREATE INDEX plays_game ON plays(game, played_at);
        CREATE INDEX scores_player ON scores(player);
    """),
    (2, """
        ALTER TABLE plays ADD COLUMN note TEXT NOT NULL DEFAULT '';
    """),
    # issue 30: plays like a score app — a roster, a date and details, edits in place with their
    # history, undoable deletes, numbers never reused, resent forms ignored
    (3, """
        CREATE TABLE players (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,               -- as shown
            key TEXT NOT NULL UNIQUE,         -- the name matched: NFC, spaces collapsed, casefolded
            colour TEXT,                      -- '#rrggbb' or NULL
            created_at TEXT NOT NULL
        );
        CREATE TABLE player_aliases (
            key TEXT PRIMARY KEY,             -- a merged player's name: plays saved under it count for player_id
            name TEXT NOT NULL,
            player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE
        );
        CREATE TABLE plays_v3 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,   -- a play's number: never given again
            uid TEXT NOT NULL UNIQUE,                -- the same play in a backup, another log
            game TEXT NOT NULL,
            title TEXT NOT NULL,
            mode TEXT,
            played_on TEXT NOT NULL,                 -- the day it was played (YYYY-MM-DD)
            duration_min INTEGER,
            location TEXT NOT NULL DEFAULT '',
            note TEXT NOT NULL DEFAULT '',
            first_seat INTEGER,                      -- the first player's seat (0-based), when known
            source TEXT NOT NULL DEFAULT 'sheet',    -- sheet | import | restore
            state_yaml TEXT NOT NULL,                -- '' for a play imported with its scores only
            result_json TEXT NOT NULL,
            cardforge_version TEXT NOT NULL,
            version INTEGER NOT NULL DEFAULT 1,      -- 1, then one more per edit
            played_at TEXT NOT NULL,                 -- first saved, UTC
            updated_at TEXT NOT NULL,                -- last saved, UTC
            deleted_at TEXT                          -- deleted (undo clears it); NULL while it counts
        );
        INSERT INTO plays_v3 (id, uid, game, title, mode, played_on, note, state_yaml, result_json,
                              cardforge_version, played_at, updated_at)
            SELECT id, lower(hex(randomblob(16))), game, title, mode, substr(played_at, 1, 10), note,
                   state_yaml, result_json, cardforge_version, played_at, played_at FROM plays;
        DROP TABLE plays;
        ALTER TABLE plays_v3 RENAME TO plays;
        CREATE INDEX plays_game ON plays(game, played_on);
        CREATE TABLE play_versions (
            play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            saved_at TEXT NOT NULL,                  -- when this version was saved, UTC
            snapshot_json TEXT NOT NULL,             -- the play as it was (see PlayLog._snapshot)
            PRIMARY KEY (play_id, version)
        );
        CREATE TABLE requests (
            key TEXT PRIMARY KEY,                    -- the form's request key
            play_id INTEGER NOT NULL,
            version INTEGER NOT NULL,
            at TEXT NOT NULL
        );
        ALTER TABLE scores ADD COLUMN player_id INTEGER REFERENCES players(id);
        CREATE INDEX scores_player_id ON scores(player_id);
    """),
    # issue 33: the playtest lab — each play knows the deck it was played with (version and
    # fingerprint, the deck's cards kept once per fingerprint) and each seat's declared choices
    # and cards; plays saved before say nothing of them (NULL: "unrecorded")
    (4, """
        CREATE TABLE decks (
            game TEXT NOT NULL,
            fingerprint TEXT NOT NULL,               -- of every card's data and copies (lab/facts.py)
            version TEXT NOT NULL,                   -- the deck's version (deck.yaml)
            source TEXT NOT NULL,                    -- data (the working data) | printed <record>
            cards_json TEXT NOT NULL,                -- id → {name, kind, copies, data}
            first_seen TEXT NOT NULL,                -- UTC
            PRIMARY KEY (game, fingerprint)
        );
        ALTER TABLE plays ADD COLUMN deck_version TEXT;   -- NULL: not recorded
        ALTER TABLE plays ADD COLUMN deck_fp TEXT;        -- a decks row of the game, or NULL
        ALTER TABLE plays ADD COLUMN deck_source TEXT;    -- data | printed <record> | import
        ALTER TABLE plays ADD COLUMN facts_json TEXT;     -- {choices: [...], cards: [...]} by seat, or NULL
        CREATE INDEX plays_deck ON plays(game, deck_version);
    """),
    # issue 44: remote playtests — per-playtester invites (web/invites.py), the token kept only
    # as its SHA-256; a play says which invite sent it
    (5, """
        CREATE TABLE invites (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game TEXT NOT NULL,
            name TEXT NOT NULL,
            token_sha256 TEXT NOT NULL UNIQUE,       -- hex; the token itself is never stored
            created_at TEXT NOT NULL,                -- UTC
            expires_at TEXT,                         -- UTC; NULL: never
            revoked_at TEXT                          -- UTC; NULL: in use
        );
        ALTER TABLE plays ADD COLUMN invite_id INTEGER REFERENCES invites(id);  -- NULL: not by invite
    """),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]

MAX_NAME = 80
MAX_LOCATION = 80
MAX_NOTE = 500
MAX_DURATION = 24 * 60  # minutes
#: the roster's colours (Okabe–Ito, told apart with colour-vision deficiencies), by name
COLOURS = {"orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
           "blue": "#0072B2", "vermilion": "#D55E00", "purple": "#CC79A7", "black": "#000000"}


class Cursor(Protocol):
    @property
    def lastrowid(self) -> int | None: ...
    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class Db(Protocol):
    """What the store's SQL runs on: an ``sqlite3.Connection`` or :class:`.dialect.Connection`."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any: ...


#: SQLite's NOCASE: ASCII letters only
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


class StoreError(CardforgeError):
    """The play log cannot be opened or written."""


class StoreUnreachable(StoreError):
    """The play log's PostgreSQL server does not answer (a page says so without its address)."""


def default_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("cardforge", appauthor=False) / "cardforge.db"


def open_log(spec: str | Path | None) -> PlayLog:
    """The play log ``--db`` names: a ``postgresql://`` URL, a file, or (None) the default file."""
    if spec is None or spec == "":
        return PlayLog(default_path())
    return PlayLog(spec if is_url(spec) else Path(spec))


def name_key(name: str) -> str:
    """How two spellings of a name are told to be the same player: Unicode NFC, spaces
    collapsed, case folded ("ana " and "Ana" are one; "Ana" and "Ana K." two)."""
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


def clean_name(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).split())


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def today() -> str:
    """The day a play is dated by default: this machine's local date."""
    return date.today().isoformat()


@dataclass
class Details:
    """What a play says besides its score: when, how long, where, a note, who started."""

    played_on: str = ""  # YYYY-MM-DD; empty: today
    duration_min: int | None = None
    location: str = ""
    note: str = ""
    first_seat: int | None = None  # 0-based seat of the first player

    def problems(self, players: int | None = None) -> list[Problem]:
        """Every limit this breaks (the server's, whatever the page allowed)."""
        out = []
        if self.played_on:
            try:
                day = date.fromisoformat(self.played_on)
                if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", self.played_on) or not 1900 <= day.year <= 2200:
                    raise ValueError
            except ValueError:
                out.append(Problem(f"a date is YYYY-MM-DD (1900–2200), got {self.played_on[:40]!r}", field="play_date"))
        if self.duration_min is not None and not 1 <= self.duration_min <= MAX_DURATION:
            out.append(Problem(f"minutes from 1 to {MAX_DURATION}, got {self.duration_min}", field="play_duration"))
        if len(self.location) > MAX_LOCATION:
            out.append(Problem(f"at most {MAX_LOCATION} characters, got {len(self.location):,}", field="play_location"))
        if len(self.note) > MAX_NOTE:
            out.append(Problem(f"at most {MAX_NOTE} characters, got {len(self.note):,}", field="note"))
        seats = players if players is not None else 100
        if self.first_seat is not None and not 0 <= self.first_seat < seats:
            out.append(Problem(f"the first player is one of the {players} seats", field="play_first"))
        return out


@dataclass
class PlaySummary:
    id: int
    game: str
    title: str
    mode: str | None
    played_on: str
    note: str
    players: list[dict[str, Any]]  # {player, player_id, colour, total, rank, winner}
    location: str = ""
    duration_min: int | None = None
    version: int = 1
    deleted_at: str | None = None
    played_at: str = ""
    mode_label: str = ""  # the mode as the game names it (set by the pages)
    deck_version: str | None = None  # the deck it was played with (the playtest lab)
    deck_fp: str | None = None
    deck_source: str | None = None


@dataclass
class Seat:
    """One player's place in a play, for the stats."""

    player_id: int
    name: str
    seat: int
    total: float
    rank: int
    winner: bool
    breakdown: dict[str, float] = field(default_factory=dict)


@dataclass
class PlayRecord:
    """A play as the stats read it."""

    id: int
    game: str
    title: str
    played_on: str
    mode: str | None
    first_seat: int | None
    seats: list[Seat]
    categories: list[str]


class PlayLog:
    """The play log: an SQLite file (``path``), or a PostgreSQL database (a ``postgresql://``
    URL, :mod:`.dialect`) — the same SQL, the same answers."""

    url: str | None = None  # a PostgreSQL log's URL (with its password: never shown)
    _pool: Pool | None = None

    def __init__(self, path: Path | str):
        if is_url(path):
            self._open_postgresql(str(path))
            return
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                db.execute("PRAGMA journal_mode=WAL")
            self.migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the play log {self.path}",
                             [Problem(str(exc), file=str(self.path))]) from None
        except OSError as exc:
            raise StoreError(f"cannot open the play log {self.path}",
                             [Problem(exc.strerror or str(exc), file=str(self.path))]) from None

    def _open_postgresql(self, url: str) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreError("a play log on PostgreSQL needs psycopg", [Problem(
                "pip install 'cardforge[postgresql]' (psycopg 3)", file=redact(url))]) from None
        self.url = url
        self.path = Path()
        self._pool = Pool(url)
        try:
            self.migrate()
        except psycopg.Error as exc:
            self._pool.close()
            raise StoreError(f"cannot open the play log {self.where}",
                             [Problem(self._scrub(exc), file=self.where)]) from None

    @property
    def spec(self) -> Path | str:
        """What opens this log again (:func:`open_log`): its file, or its URL (password and all)."""
        return self.url if self.url else self.path

    @property
    def where(self) -> str:
        """What to call this log in a message: its file, or its URL without the password."""
        return redact(self.url) if self.url else str(self.path)

    def _scrub(self, exc: BaseException) -> str:
        text = " ".join(str(exc).split()) or type(exc).__name__
        for secret in secrets_of(self.url or ""):
            text = text.replace(secret, "***")
        return text

    def close(self) -> None:
        """Close the connections kept open (PostgreSQL; an SQLite log keeps none)."""
        if self._pool is not None:
            self._pool.close()

    def _connect(self, foreign_keys: bool = True) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        db.execute("PRAGMA synchronous=FULL")
        return db

    @contextmanager
    def _postgresql(self) -> Iterator[Any]:
        """A pooled connection; the server unreachable is a StoreError naming the log (no password)."""
        import psycopg

        assert self._pool is not None
        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.OperationalError as exc:
            raise StoreUnreachable(f"cannot reach the play log {self.where}",
                                   [Problem(self._scrub(exc), file=self.where)]) from None

    @contextmanager
    def _read(self) -> Iterator[Db]:
        if self.url is not None:
            # one snapshot for every query of the read (the plays and their seats agree)
            with self._postgresql() as conn:
                conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                try:
                    yield PgConnection(conn)
                finally:
                    _rollback(conn)
            return
        db = self._connect()
        try:
            yield db
        finally:
            db.close()

    @contextmanager
    def _write(self, foreign_keys: bool = True) -> Iterator[Db]:
        """One transaction: all of it is written, or none of it. One writer at a time: SQLite's
        ``BEGIN IMMEDIATE``, PostgreSQL's advisory lock (two servers on one log included)."""
        if self.url is not None:
            with self._postgresql() as conn:
                conn.execute("BEGIN")
                try:
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                    yield PgConnection(conn)
                except BaseException:
                    _rollback(conn)
                    raise
                conn.execute("COMMIT")
            return
        db = self._connect(foreign_keys)
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        finally:
            db.close()

    # --- schema ------------------------------------------------------------------------------
    def version(self) -> int:
        with self._read() as db:
            return _version(db)

    def migrate(self, upto: int | None = None) -> None:
        target = SCHEMA_VERSION if upto is None else upto
        current = self.version()
        if current > SCHEMA_VERSION:
            raise StoreError(f"the play log {self.where} is from a newer cardforge",
                             [Problem(f"schema version {current}; this cardforge knows up to {SCHEMA_VERSION}",
                                      file=self.where)])
        if self.url is not None:
            self._migrate_postgresql(target)
            return
        for version, sql in MIGRATIONS:
            if current < version <= target:
                # foreign keys off while a migration rebuilds a table (SQLite's own procedure),
                # checked before it commits
                with self._write(foreign_keys=False) as db:
                    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                    for statement in _statements(sql):
                        db.execute(statement)
                    if version in BACKFILL:
                        BACKFILL[version](db)
                    broken = db.execute("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise StoreError(f"cannot migrate the play log {self.path}", [Problem(
                            f"migration {version} leaves {len(broken)} broken references", file=str(self.path))])
                    db.execute("DELETE FROM schema_version")
                    db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
                current = version

    def _migrate_postgresql(self, target: int) -> None:
        """A new PostgreSQL log starts at :data:`BASELINE` (SQLite's version 5); the migrations
        after it run as on SQLite, each in its own transaction under the writers' lock (two
        servers starting at once migrate once)."""
        import psycopg

        for version, sql in [BASELINE, *((v, s) for v, s in MIGRATIONS if v > BASELINE[0])]:
            if version > max(target, BASELINE[0]):
                break
            try:
                with self._write() as db:
                    if _version(db) >= version:
                        continue
                    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                    for statement in _statements(sql):
                        db.execute(statement)
                    db.execute("DELETE FROM schema_version")
                    db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
            except psycopg.IntegrityError as exc:
                raise StoreError(f"cannot migrate the play log {self.where}", [Problem(
                    f"migration {version} leaves broken references: {self._scrub(exc)}", file=self.where)]) from None

    # --- the roster --------------------------------------------------------------------------
    def players(self) -> list[dict[str, Any]]:
        """The roster, most plays first: id, name, colour, plays, wins, last (date), aliases."""
        with self._read() as db:
            rows = db.execute(
                # a shared win is shared (the lab's rule, lab.effects.win_shares): 1/k to each of k winners
                "SELECT pl.id, pl.name, pl.colour, COUNT(p.id) AS plays, COALESCE(SUM(CASE WHEN p.id IS NOT NULL AND"
                " s.winner <> 0 THEN CAST(1 AS DOUBLE PRECISION) / NULLIF((SELECT COUNT(*) FROM scores w"
                " WHERE w.play_id = s.play_id AND w.winner <> 0), 0) END), 0)"
                " AS wins,"
                " MAX(p.played_on) AS last FROM players pl"
                " LEFT JOIN scores s ON s.player_id = pl.id"
                " LEFT JOIN plays p ON p.id = s.play_id AND p.deleted_at IS NULL"
                " GROUP BY pl.id ORDER BY plays DESC, last DESC NULLS LAST, pl.name").fetchall()
            aliases: dict[int, list[str]] = {}
            for a in db.execute("SELECT player_id, name FROM player_aliases ORDER BY name"):
                aliases.setdefault(a["player_id"], []).append(a["name"])
        out = [dict(r) for r in rows]
        for p in out:
            wins = round(float(p["wins"] or 0), 2) if p["plays"] else 0.0
            p["wins"] = int(wins) if wins.is_integer() else wins
            p["aliases"] = aliases.get(p["id"], [])
        return out

    def player(self, player_id: int) -> dict[str, Any] | None:
        return next((p for p in self.players() if p["id"] == player_id), None)

    def player_by_name(self, name: str) -> dict[str, Any] | None:
        with self._read() as db:
            found = _find_player(db, name_key(name))
        return self.player(found) if found is not None else None

    def add_player(self, name: str, colour: str | None = None) -> int:
        name = clean_name(name)
        _check_name(name)
        with self._write() as db:
            if _find_player(db, name_key(name)) is not None:
                raise StoreError("a player has that name",
                                 [Problem(f"'{name}' is in the roster already", field="name")])
            return _insert_player(db, name, colour)

    def update_player(self, player_id: int, *, name: str | None = None, colour: str | None = "") -> None:
        """Rename (the name moves: plays saved later under the old name are someone else's,
        unless merged) and/or recolour (``None`` clears it; ``""`` leaves it)."""
        with self._write() as db:
            if db.execute("SELECT 1 FROM players WHERE id = ?", (player_id,)).fetchone() is None:
                raise StoreError("no such player", [Problem(f"no player #{player_id}")])
            if name is not None:
                name = clean_name(name)
                _check_name(name)
                other = _find_player(db, name_key(name))
                if other is not None and other != player_id:
                    raise StoreError("a player has that name", [Problem(
                        f"'{name}' is another player of the roster: merge the two instead", field="name")])
                db.execute("DELETE FROM player_aliases WHERE key = ?", (name_key(name),))
                db.execute("UPDATE players SET name = ?, key = ? WHERE id = ?", (name, name_key(name), player_id))
            if colour != "":
                db.execute("UPDATE players SET colour = ? WHERE id = ?", (_colour(colour), player_id))

    def merge_players(self, source: int, target: int) -> None:
        """``source`` becomes ``target``: its plays count for it, its name (and aliases) become
        aliases. Refused when they played in one play together (they are two people)."""
        if source == target:
            raise StoreError("cannot merge a player into themselves", [Problem("pick two players", field="into")])
        with self._write() as db:
            names = {r["id"]: r["name"] for r in db.execute("SELECT id, name FROM players WHERE id IN (?, ?)",
                                                           (source, target))}
            if len(names) != 2:
                raise StoreError("no such player", [Problem("both players must be in the roster", field="into")])
            together = [r[0] for r in db.execute(
                "SELECT a.play_id FROM scores a JOIN scores b ON a.play_id = b.play_id"
                " WHERE a.player_id = ? AND b.player_id = ? ORDER BY a.play_id", (source, target))]
            if together:
                plays = ", ".join(f"#{n}" for n in together[:10]) + (" …" if len(together) > 10 else "")
                raise StoreError("these are two players", [Problem(
                    f"{names[source]} and {names[target]} played together (play {plays}): they are two people",
                    field="into")])
            db.execute("UPDATE scores SET player_id = ? WHERE player_id = ?", (target, source))
            db.execute("UPDATE player_aliases SET player_id = ? WHERE player_id = ?", (target, source))
            db.execute("INSERT INTO player_aliases (key, name, player_id) VALUES (?, ?, ?) ON CONFLICT (key)"
                       " DO UPDATE SET name = excluded.name, player_id = excluded.player_id",
                       (name_key(names[source]), names[source], target))
            db.execute("DELETE FROM players WHERE id = ?", (source,))

    def recent_groups(self, game: str | None = None, limit: int = 5) -> list[dict[str, Any]]:
        """The players of recent plays, in seat order, each group once: "same players again"."""
        out: list[dict[str, Any]] = []
        seen: set[tuple[int, ...]] = set()
        with self._read() as db:
            rows = db.execute("SELECT id, game, mode FROM plays WHERE deleted_at IS NULL"
                              + (" AND game = ?" if game else "") + " ORDER BY played_on DESC, id DESC LIMIT 200",
                              (game,) if game else ()).fetchall()
            for r in rows:
                seats = db.execute("SELECT s.player_id, pl.name FROM scores s JOIN players pl ON pl.id = s.player_id"
                                   " WHERE s.play_id = ? ORDER BY s.seat", (r["id"],)).fetchall()
                ids = tuple(s["player_id"] for s in seats)
                if not ids or ids in seen:
                    continue
                seen.add(ids)
                out.append({"play": r["id"], "game": r["game"], "mode": r["mode"], "names": [s["name"] for s in seats]})
                if len(out) >= limit:
                    break
        return out

    # --- writing plays -----------------------------------------------------------------------
    def add_play(self, *, game: str, title: str, mode: str | None, state_yaml: str, result: dict[str, Any],
                 note: str = "", played_at: datetime | None = None, details: Details | None = None,
                 request_key: str | None = None, source: str = "sheet", uid: str | None = None,
                 deck: Deck | None = None, deck_version: str | None = None,
                 facts: dict[str, Any] | None = None, invite: int | None = None) -> int:
        """A new play; its number. With a ``request_key`` already seen (a form sent twice), the
        play that key made, and nothing written. ``deck``: the deck it was played with (kept once
        per fingerprint); ``deck_version`` a version without its deck (an import); ``facts``
        each seat's declared choices and cards (``lab.facts.facts_json``); ``invite`` the
        invite that sent it (``web/invites.py``)."""
        with self._write() as db:
            done = _request(db, request_key)
            if done is not None:
                return done[0]
            play_id = _insert_play(db, game=game, title=title, mode=mode, state_yaml=state_yaml, result=result,
                                   note=note, played_at=played_at, details=details, source=source, uid=uid,
                                   deck=deck, deck_version=deck_version, facts=facts, invite=invite)
            _remember(db, request_key, play_id, 1)
        return play_id

    def add_plays(self, plays: Sequence[dict[str, Any]]) -> tuple[int, int]:
        """Many new plays (each the keyword arguments of :meth:`add_play`, with a ``uid``) in one
        transaction: all or none, and one sync to disk instead of one a play (an import of
        10,000 plays). A play whose ``uid`` the log has is skipped. (added, skipped)."""
        added = skipped = 0
        known: dict[Any, int] = {}  # the roster's names and the decks met so far (one query each, not one a play)
        with self._write() as db:
            uids = [p["uid"] for p in plays if p.get("uid")]
            have: set[str] = set()
            for i in range(0, len(uids), 500):
                part = uids[i:i + 500]
                have.update(r[0] for r in db.execute(
                    f"SELECT uid FROM plays WHERE uid IN ({', '.join('?' * len(part))})", part))
            for p in plays:
                if p.get("uid") in have:
                    skipped += 1
                    continue
                _insert_play(db, **p, known=known)
                if p.get("uid"):
                    have.add(p["uid"])
                added += 1
        return added, skipped

    def numbers_of(self, uids: Sequence[str]) -> dict[str, int]:
        """The play numbers of these uids (those in the log)."""
        out: dict[str, int] = {}
        with self._read() as db:
            for i in range(0, len(uids), 500):
                part = list(uids[i:i + 500])
                out.update({r[0]: int(r[1]) for r in db.execute(
                    f"SELECT uid, id FROM plays WHERE uid IN ({', '.join('?' * len(part))})", part)})
        return out

    def update_play(self, play_id: int, *, mode: str | None = None, state_yaml: str | None = None,
                    result: dict[str, Any] | None = None, details: Details | None = None,
                    request_key: str | None = None, facts: dict[str, Any] | None = None) -> int:
        """Change a play in place (its score and/or its details): the version it replaces is kept
        in ``play_versions``. The play's new version number (the same when ``request_key`` was
        seen: a form sent twice). A new score comes with its ``facts`` (the deck played stays
        the one it was saved with)."""
        from cardforge import __version__

        with self._write() as db:
            done = _request(db, request_key)
            if done is not None:
                return done[1]
            row = db.execute("SELECT * FROM plays WHERE id = ?", (play_id,)).fetchone()
            if row is None or row["deleted_at"] is not None:
                raise StoreError("no such play", [Problem(f"no play #{play_id}" if row is None else
                                                          f"play #{play_id} is deleted: undo the delete first")])
            db.execute("INSERT INTO play_versions (play_id, version, saved_at, snapshot_json) VALUES (?, ?, ?, ?)",
                       (play_id, row["version"], row["updated_at"], json.dumps(_snapshot(row), ensure_ascii=False,
                                                                               sort_keys=True)))
            version = row["version"] + 1
            d = details or Details(row["played_on"], row["duration_min"], row["location"], row["note"],
                                   row["first_seat"])
            new_result = result if result is not None else json.loads(row["result_json"])
            db.execute(
                "UPDATE plays SET mode = ?, played_on = ?, duration_min = ?, location = ?, note = ?, first_seat = ?,"
                " state_yaml = ?, result_json = ?, cardforge_version = ?, version = ?, updated_at = ? WHERE id = ?",
                (mode if result is not None else row["mode"], d.played_on or row["played_on"], d.duration_min,
                 d.location, d.note, d.first_seat,
                 state_yaml if state_yaml is not None else row["state_yaml"],
                 json.dumps(new_result, ensure_ascii=False),
                 __version__ if result is not None else row["cardforge_version"], version, _now(), play_id))
            if result is not None:
                db.execute("UPDATE plays SET facts_json = ? WHERE id = ?", (_facts_text(facts), play_id))
                db.execute("DELETE FROM category_scores WHERE play_id = ?", (play_id,))
                db.execute("DELETE FROM scores WHERE play_id = ?", (play_id,))
                _write_scores(db, play_id, new_result)
            _remember(db, request_key, play_id, version)
        return version

    def delete_play(self, play_id: int) -> bool:
        """Mark a play deleted: it leaves the history and the stats, keeps its number, and
        :meth:`restore_play` brings it back."""
        with self._write() as db:
            return db.execute("UPDATE plays SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
                              (_now(), play_id)).rowcount > 0

    def restore_play(self, play_id: int) -> bool:
        with self._write() as db:
            return db.execute("UPDATE plays SET deleted_at = NULL WHERE id = ? AND deleted_at IS NOT NULL",
                              (play_id,)).rowcount > 0

    # --- reading plays -----------------------------------------------------------------------
    def plays(self, game: str | None = None, limit: int = 200, *, deleted: bool = False,
              player_id: int | None = None) -> list[PlaySummary]:
        where = ["p.deleted_at IS NOT NULL" if deleted else "p.deleted_at IS NULL"]
        args: list[Any] = []
        if game:
            where.append("p.game = ?")
            args.append(game)
        if player_id is not None:
            where.append("p.id IN (SELECT play_id FROM scores WHERE player_id = ?)")
            args.append(player_id)
        with self._read() as db:
            rows = db.execute("SELECT * FROM plays p WHERE " + " AND ".join(where)
                              + " ORDER BY p.played_on DESC, p.id DESC LIMIT ?", (*args, limit)).fetchall()
            return [PlaySummary(r["id"], r["game"], r["title"], r["mode"], r["played_on"], r["note"],
                                _seats(db, r["id"]), r["location"], r["duration_min"], r["version"],
                                r["deleted_at"], r["played_at"], deck_version=r["deck_version"],
                                deck_fp=r["deck_fp"], deck_source=r["deck_source"]) for r in rows]

    def play(self, play_id: int) -> dict[str, Any] | None:
        """A play (deleted ones too: ``deleted_at`` says it), with ``result`` (the score JSON)
        and ``players`` (roster ids, names and colours by seat)."""
        with self._read() as db:
            row = db.execute("SELECT * FROM plays WHERE id = ?", (play_id,)).fetchone()
            if row is None:
                return None
            out = dict(row)
            out["result"] = json.loads(out.pop("result_json"))
            out["players"] = _seats(db, play_id)
            out["versions"] = [dict(v) for v in db.execute(
                "SELECT version, saved_at FROM play_versions WHERE play_id = ? ORDER BY version", (play_id,))]
            return out

    def play_by_uid(self, uid: str) -> int | None:
        with self._read() as db:
            row = db.execute("SELECT id FROM plays WHERE uid = ?", (uid,)).fetchone()
        return int(row[0]) if row is not None else None

    def play_version(self, play_id: int, version: int) -> dict[str, Any] | None:
        """A previous version of a play, as it was saved."""
        with self._read() as db:
            row = db.execute("SELECT saved_at, snapshot_json FROM play_versions WHERE play_id = ? AND version = ?",
                             (play_id, version)).fetchone()
        if row is None:
            return None
        snapshot: dict[str, Any] = json.loads(row["snapshot_json"])
        return {**snapshot, "version": version, "saved_at": row["saved_at"]}

    def games(self) -> list[tuple[str, str]]:
        """(id, title) of the games in the log, by title."""
        with self._read() as db:
            rows = db.execute("SELECT game, MAX(title) AS title FROM plays WHERE deleted_at IS NULL"
                              " GROUP BY game").fetchall()
        # by title, ASCII letters' case aside (SQLite's NOCASE), then id: the same on either database
        return sorted(((r["game"], r["title"]) for r in rows), key=lambda g: (g[1].translate(_ASCII_LOWER), g[0]))

    def records(self, game: str | None = None) -> list[PlayRecord]:
        """Every play that counts (not deleted), oldest first, for the stats."""
        with self._read() as db:
            rows = db.execute("SELECT id, game, title, played_on, mode, first_seat, result_json FROM plays"
                              " WHERE deleted_at IS NULL" + (" AND game = ?" if game else "")
                              + " ORDER BY played_on, id", (game,) if game else ()).fetchall()
            seats: dict[int, list[Any]] = {}
            for s in db.execute("SELECT s.*, pl.name AS roster_name FROM scores s"
                                " JOIN players pl ON pl.id = s.player_id JOIN plays p ON p.id = s.play_id"
                                " WHERE p.deleted_at IS NULL"
                                + (" AND p.game = ?" if game else "") + " ORDER BY s.play_id, s.seat",
                                (game,) if game else ()):
                seats.setdefault(s["play_id"], []).append(s)
            cats: dict[tuple[int, int], dict[str, float]] = {}
            for c in db.execute("SELECT c.* FROM category_scores c JOIN plays p ON p.id = c.play_id"
                                " WHERE p.deleted_at IS NULL" + (" AND p.game = ?" if game else ""),
                                (game,) if game else ()):
                cats.setdefault((c["play_id"], c["seat"]), {})[c["category"]] = c["value"]
        out = []
        for r in rows:
            result = json.loads(r["result_json"])
            out.append(PlayRecord(r["id"], r["game"], r["title"], r["played_on"], r["mode"], r["first_seat"], [
                Seat(s["player_id"], s["roster_name"], s["seat"], s["total"], s["rank"], bool(s["winner"]),
                     cats.get((r["id"], s["seat"]), {}))
                for s in seats.get(r["id"], [])], list(result.get("categories", []))))
        return out

    # --- the playtest lab ---------------------------------------------------------------------
    def decks(self, game: str) -> dict[str, Deck]:
        """The decks the game's plays were played with, by fingerprint."""
        from cardforge.lab.facts import Deck

        with self._read() as db:
            rows = db.execute("SELECT * FROM decks WHERE game = ? ORDER BY first_seen, fingerprint", (game,)).fetchall()
        return {r["fingerprint"]: Deck(r["game"], r["version"], r["fingerprint"], r["source"],
                                       json.loads(r["cards_json"])) for r in rows}

    def deck_versions(self, game: str) -> list[str | None]:
        """The deck versions the game's plays (that count) were played with (None: not recorded)."""
        with self._read() as db:
            return [r[0] for r in db.execute("SELECT DISTINCT deck_version FROM plays WHERE game = ? AND"
                                             " deleted_at IS NULL ORDER BY deck_version NULLS FIRST", (game,))]

    def lab_stamp(self, game: str) -> tuple[Any, ...]:
        """What changes whenever the game's plays that count change (added, edited, deleted,
        restored, a deck kept): the lab's cache key, one cheap query."""
        with self._read() as db:
            row = db.execute("SELECT COUNT(*), MAX(id), MAX(updated_at),"
                             " SUM(CASE WHEN deleted_at IS NULL THEN 1 ELSE 0 END), MAX(deleted_at),"
                             " (SELECT COUNT(*) FROM decks WHERE game = ?) FROM plays WHERE game = ?",
                             (game, game)).fetchone()
        return tuple(row)

    def lab_plays(self, game: str) -> list[Play]:
        """The game's plays that count, oldest first, as the lab reads them: each seat with its
        score, breakdown and facts (None when the play did not record them: then its final
        state, which the lab may read them from)."""
        from cardforge.lab.facts import seats_of
        from cardforge.lab.stats import Play, SeatResult

        records = {r.id: r for r in self.records(game)}
        with self._read() as db:
            rows = db.execute("SELECT id, duration_min, deck_version, deck_fp, deck_source, facts_json, state_yaml"
                              " FROM plays WHERE deleted_at IS NULL AND game = ? ORDER BY played_on, id",
                              (game,)).fetchall()
        out = []
        for r in rows:
            rec = records.get(r["id"])
            if rec is None:
                continue
            facts = seats_of(json.loads(r["facts_json"]) if r["facts_json"] else None, len(rec.seats))
            seats = [SeatResult(s.seat, s.name, s.total, s.rank, s.winner, s.breakdown,
                                facts[i] if facts is not None and i < len(facts) else None)
                     for i, s in enumerate(rec.seats)]
            out.append(Play(rec.id, rec.played_on, rec.mode, rec.first_seat, r["duration_min"], r["deck_version"],
                            r["deck_fp"], r["deck_source"], seats, "" if r["facts_json"] else r["state_yaml"]))
        return out

    def csv(self, game: str | None = None) -> str:
        """One row per player per play; a column per score category (of the games in the log).
        The columns :func:`cardforge.playlog.importer.read_plays_csv` reads back."""
        with self._read() as db:
            plays = db.execute("SELECT * FROM plays WHERE deleted_at IS NULL"
                               + (" AND game = ?" if game else "") + " ORDER BY played_on, id",
                               (game,) if game else ()).fetchall()
            seats = {p["id"]: _seats(db, p["id"]) for p in plays}
        categories: list[str] = []
        for p in plays:
            for c in json.loads(p["result_json"]).get("categories", []):
                if c not in categories:
                    categories.append(c)
        facts = {p["id"]: json.loads(p["facts_json"]) if p["facts_json"] else {} for p in plays}
        choices: list[str] = []  # the declared choices the plays recorded (a faction…), a column each
        for f in facts.values():
            for seat in f.get("choices") or []:
                choices += [c for c in seat if c not in choices and c not in categories]
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\r\n")
        out.writerow(["play", "played_on", "game", "mode", "player", "seat", "first", "rank", "winner", "total",
                      "version", *choices, *categories, "duration", "location", "note"])
        for p in plays:
            result = json.loads(p["result_json"])
            winners = set(result.get("winners", []))
            names = {s["seat"]: s["player"] for s in seats[p["id"]]}
            said = facts[p["id"]].get("choices") or []
            for seat, player in enumerate(result["players"]):
                first = int(p["first_seat"] == seat) if p["first_seat"] is not None else ""
                own = said[seat] if seat < len(said) and isinstance(said[seat], dict) else {}
                out.writerow([p["id"], p["played_on"], p["game"], p["mode"] or "",
                              _cell(names.get(seat, player["name"])), seat + 1, first,
                              player["rank"], int(player["name"] in winners), player["total"],
                              p["deck_version"] or "",
                              *(_cell(_choice_cell(own.get(c))) for c in choices),
                              *(player["breakdown"].get(c, "") for c in categories),
                              p["duration_min"] if p["duration_min"] is not None else "", _cell(p["location"]),
                              _cell(p["note"])])
        return buf.getvalue()

    # --- backup and restore ------------------------------------------------------------------
    def backup(self) -> str:
        """The whole log as one JSON file (players, plays with their versions, deleted ones
        too, decks, invites): :meth:`restore` reads it back. The same log gives the same bytes
        (on SQLite or PostgreSQL alike). A log without invites says nothing of them (its backup
        is the one an earlier cardforge wrote and reads)."""
        with self._read() as db:
            players = []
            aliases: dict[int, list[str]] = {}
            for a in db.execute("SELECT player_id, name FROM player_aliases ORDER BY key"):
                aliases.setdefault(a["player_id"], []).append(a["name"])
            for p in db.execute("SELECT * FROM players ORDER BY id"):
                players.append({"name": p["name"], "colour": p["colour"], "aliases": aliases.get(p["id"], [])})
            invites = {i["id"]: {"game": i["game"], "name": i["name"], "token_sha256": i["token_sha256"],
                                 "created_at": i["created_at"], "expires_at": i["expires_at"],
                                 "revoked_at": i["revoked_at"]}
                       for i in db.execute("SELECT * FROM invites ORDER BY id")}
            # every play's seats and versions in one query each (not two a play)
            seat_names: dict[int, list[str]] = {}
            for s in db.execute("SELECT s.play_id, pl.name FROM scores s JOIN players pl ON pl.id = s.player_id"
                                " ORDER BY s.play_id, s.seat"):
                seat_names.setdefault(s[0], []).append(s[1])
            versions: dict[int, list[dict[str, Any]]] = {}
            for v in db.execute("SELECT * FROM play_versions ORDER BY play_id, version"):
                versions.setdefault(v["play_id"], []).append(
                    {"version": v["version"], "saved_at": v["saved_at"], **json.loads(v["snapshot_json"])})
            plays = []
            for r in db.execute("SELECT * FROM plays ORDER BY id").fetchall():
                plays.append({
                    "number": r["id"], "uid": r["uid"], **_snapshot(r), "game": r["game"], "title": r["title"],
                    "deck_version": r["deck_version"], "deck_fp": r["deck_fp"], "deck_source": r["deck_source"],
                    "facts": json.loads(r["facts_json"]) if r["facts_json"] else None,
                    "source": r["source"], "version": r["version"], "played_at": r["played_at"],
                    "updated_at": r["updated_at"], "deleted_at": r["deleted_at"],
                    "players": seat_names.get(r["id"], []), "versions": versions.get(r["id"], [])})
                if r["invite_id"] is not None:  # the invite that sent it, by its token's hash
                    plays[-1]["invite"] = invites[r["invite_id"]]["token_sha256"]
            decks = [{"game": d["game"], "fingerprint": d["fingerprint"], "version": d["version"],
                      "source": d["source"], "cards": json.loads(d["cards_json"]), "first_seen": d["first_seen"]}
                     for d in db.execute("SELECT * FROM decks ORDER BY game, first_seen, fingerprint")]
        doc = {"format": BACKUP_FORMAT, "schema": SCHEMA_VERSION, "players": players, "plays": plays, "decks": decks}
        if invites:
            doc["invites"] = list(invites.values())
        return _compact_doc(doc)

    def restore(self, doc: BackupDoc) -> dict[str, int]:
        """Add what a backup holds and this log does not: plays by their ``uid`` (a play
        already here is left as it is), players by name (colours and aliases kept), invites by
        their token's hash (a playtester's link still works). Its number when free, else the
        next one. One transaction. Counts of what was done."""
        added = kept = renumbered = 0
        with self._write() as db:
            for d in doc.decks:
                db.execute("INSERT INTO decks (game, fingerprint, version, source, cards_json, first_seen)"
                           " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                           (d.game, d.fingerprint, d.version, d.source,
                            json.dumps(d.cards, ensure_ascii=False, sort_keys=True), d.first_seen))
            for i in doc.invites:
                db.execute("INSERT INTO invites (game, name, token_sha256, created_at, expires_at, revoked_at)"
                           " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                           (i.game, i.name, i.token_sha256, i.created_at, i.expires_at, i.revoked_at))
            invite_ids = {r["token_sha256"]: int(r["id"]) for r in db.execute("SELECT id, token_sha256 FROM invites")}
            for p in doc.players:
                pid = _find_player(db, name_key(p.name))
                if pid is None:
                    pid = _insert_player(db, clean_name(p.name), p.colour)
                for alias in p.aliases:
                    if _find_player(db, name_key(alias)) is None:
                        db.execute("INSERT INTO player_aliases (key, name, player_id) VALUES (?, ?, ?)",
                                   (name_key(alias), clean_name(alias), pid))
            for play in doc.plays:
                if db.execute("SELECT 1 FROM plays WHERE uid = ?", (play.uid,)).fetchone():
                    kept += 1
                    continue
                # its own number if this log never gave it (above its sequence), else the next one
                last = _last_number(db, "plays")
                free = last is None or play.number > last
                values: tuple[Any, ...] = (play.uid, play.game, play.title, play.mode, play.played_on,
                          play.duration_min, play.location, play.note, play.first_seat, play.source, play.state_yaml,
                          json.dumps(play.result, ensure_ascii=False), play.cardforge_version, play.version,
                          play.played_at, play.updated_at, play.deleted_at, play.deck_version,
                          play.deck_fp if play.deck_fp and db.execute(
                              "SELECT 1 FROM decks WHERE game = ? AND fingerprint = ?",
                              (play.game, play.deck_fp)).fetchone() else None,
                          play.deck_source, _facts_text(play.facts), invite_ids.get(play.invite or ""))
                columns = ("uid, game, title, mode, played_on, duration_min, location, note, first_seat, source,"
                           " state_yaml, result_json, cardforge_version, version, played_at, updated_at, deleted_at,"
                           " deck_version, deck_fp, deck_source, facts_json, invite_id")
                if free:
                    columns, values = "id, " + columns, (play.number, *values)
                cur = db.execute(f"INSERT INTO plays ({columns}) VALUES ({', '.join('?' * len(values))})", values)
                assert cur.lastrowid is not None
                if free:
                    _number_given(db, "plays", play.number)
                renumbered += not free
                _write_scores(db, cur.lastrowid, play.result, play.players)
                for v in play.versions:
                    db.execute("INSERT INTO play_versions (play_id, version, saved_at, snapshot_json)"
                               " VALUES (?, ?, ?, ?)", (cur.lastrowid, v.version, v.saved_at,
                                json.dumps(v.snapshot(), ensure_ascii=False, sort_keys=True)))
                added += 1
        return {"added": added, "kept": kept, "renumbered": renumbered}


BACKUP_FORMAT = "cardforge play log"


def _compact_doc(doc: dict[str, Any]) -> str:
    """The backup as JSON with sorted keys, one player, play or deck a line and no indentation
    inside them: an indented backup was 12× its log (a 43 MB log, 528 MB), this is about its size,
    and still the same bytes for the same log and a readable diff per play."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    parts = []
    for key, value in sorted(doc.items()):
        body = "[\n" + ",\n".join(one(v) for v in value) + "\n]" if isinstance(value, list) and value else one(value)
        parts.append(f"{one(key)}:{body}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _statements(sql: str) -> list[str]:
    """The statements of a migration (``;``-separated; comments dropped)."""
    text = re.sub(r"--[^\n]*", "", sql)
    return [s.strip() for s in text.split(";") if s.strip()]


def _check_name(name: str) -> None:
    if not name:
        raise StoreError("a player needs a name", [Problem("a player needs a name", field="name")])
    if len(name) > MAX_NAME:
        raise StoreError("the name is too long", [Problem(f"a name is at most {MAX_NAME} characters, got {len(name):,}",
                                                          field="name")])


def _colour(colour: str | None) -> str | None:
    if colour is None or colour == "":
        return None
    if colour in COLOURS:
        return COLOURS[colour]
    if re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
        return colour.upper()
    raise StoreError("not a colour", [Problem(
        f"a colour is one of {', '.join(COLOURS)} or #rrggbb, got {colour[:20]!r}", field="colour")])


def _version(db: Db) -> int:
    """The log's schema version (0: a new log)."""
    if isinstance(db, sqlite3.Connection):
        has = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'").fetchone()
    else:
        has = db.execute("SELECT to_regclass('schema_version')").fetchone()[0]
    if not has:
        return 0
    row = db.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def _rollback(conn: Any) -> None:
    """End a PostgreSQL transaction that failed (a connection lost meanwhile: the pool drops it)."""
    import psycopg

    try:
        conn.execute("ROLLBACK")
    except psycopg.Error:
        conn.close()


def _last_number(db: Db, table: str) -> int | None:
    """The highest number the log ever gave in ``table`` (deleted or rolled back ones too)."""
    if isinstance(db, sqlite3.Connection):
        row = db.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
        return int(row[0]) if row is not None else None
    value = db.execute(f"SELECT pg_sequence_last_value(pg_get_serial_sequence('{table}', 'id'))").fetchone()[0]
    return int(value) if value is not None else None


def _number_given(db: Db, table: str, number: int) -> None:
    """A number written by hand (a restored play) is given: the next one comes after it
    (SQLite's AUTOINCREMENT does it itself; a PostgreSQL sequence is moved on)."""
    if not isinstance(db, sqlite3.Connection):
        db.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), GREATEST(?,"
                   f" COALESCE(pg_sequence_last_value(pg_get_serial_sequence('{table}', 'id')), 0)))", (number,))


def _find_player(db: Db, key: str) -> int | None:
    row = db.execute("SELECT id FROM players WHERE key = ?", (key,)).fetchone()
    if row is None:
        row = db.execute("SELECT player_id FROM player_aliases WHERE key = ?", (key,)).fetchone()
    return int(row[0]) if row is not None else None


def _insert_player(db: Db, name: str, colour: str | None = None) -> int:
    cur = db.execute("INSERT INTO players (name, key, colour, created_at) VALUES (?, ?, ?, ?)",
                     (name, name_key(name), _colour(colour), _now()))
    assert cur.lastrowid is not None
    return cur.lastrowid


def _player_id(db: Db, name: str, known: dict[Any, int] | None = None) -> int:
    """The roster's player for a name in a play, added when new (``known``: the names one
    transaction has met, when nothing else changes the roster meanwhile)."""
    key = name_key(name)
    if known is not None and ("player", key) in known:
        return known["player", key]
    found = _find_player(db, key)
    number = found if found is not None else _insert_player(db, clean_name(name) or name)
    if known is not None:
        known["player", key] = number
    return number


def _insert_play(db: Db, *, game: str, title: str, mode: str | None, state_yaml: str,
                 result: dict[str, Any], note: str = "", played_at: datetime | None = None,
                 details: Details | None = None, source: str = "sheet", uid: str | None = None,
                 deck: Deck | None = None, deck_version: str | None = None,
                 facts: dict[str, Any] | None = None, invite: int | None = None,
                 known: dict[Any, int] | None = None) -> int:
    """One play's rows, in the caller's transaction; its number."""
    from cardforge import __version__

    details = details or Details(note=note)
    when = (played_at or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if deck is not None and (known is None or ("deck", deck.game, deck.fingerprint) not in known):
        _keep_deck(db, deck)
        if known is not None:
            known["deck", deck.game, deck.fingerprint] = 1
    cur = db.execute(
        "INSERT INTO plays (uid, game, title, mode, played_on, duration_min, location, note, first_seat,"
        " source, state_yaml, result_json, cardforge_version, version, played_at, updated_at,"
        " deck_version, deck_fp, deck_source, facts_json, invite_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)",
        (uid or secrets.token_hex(16), game, title, mode,
         details.played_on or (when[:10] if played_at is not None else today()),
         details.duration_min, details.location, details.note, details.first_seat,
         source, state_yaml, json.dumps(result, ensure_ascii=False), __version__, when, when,
         deck.version if deck is not None else deck_version, deck.fingerprint if deck is not None else None,
         deck.source if deck is not None else ("import" if deck_version else None),
         _facts_text(facts), invite))
    assert cur.lastrowid is not None  # set by an INSERT
    play_id = cur.lastrowid
    _write_scores(db, play_id, result, known=known)
    return play_id


def _write_scores(db: Db, play_id: int, result: dict[str, Any],
                  names: Sequence[str] | None = None, known: dict[Any, int] | None = None) -> None:
    winners = set(result.get("winners", []))
    seats = [(play_id, seat, p["name"], p["total"], p["rank"], int(p["name"] in winners),
              _player_id(db, names[seat] if names is not None and seat < len(names) else p["name"], known))
             for seat, p in enumerate(result["players"])]  # the roster's new names in seat order
    # the rows of a play at once (PostgreSQL: one round trip, not one a row)
    db.executemany("INSERT INTO scores (play_id, seat, player, total, rank, winner, player_id)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?)", seats)
    db.executemany("INSERT INTO category_scores (play_id, seat, category, value) VALUES (?, ?, ?, ?)",
                   [(play_id, seat, category, value) for seat, p in enumerate(result["players"])
                    for category, value in p["breakdown"].items()])


def _facts_text(facts: dict[str, Any] | None) -> str | None:
    return json.dumps(facts, ensure_ascii=False, sort_keys=True) if facts is not None else None


def _keep_deck(db: Db, deck: Deck) -> None:
    """The deck's cards, once per game and fingerprint (the first source that saw it stays)."""
    db.execute("INSERT INTO decks (game, fingerprint, version, source, cards_json, first_seen)"
               " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
               (deck.game, deck.fingerprint, deck.version, deck.source,
                json.dumps(deck.cards, ensure_ascii=False, sort_keys=True), _now()))


def _seats(db: Db, play_id: int) -> list[dict[str, Any]]:
    return [dict(s) for s in db.execute(
        "SELECT s.seat, s.player AS typed, pl.name AS player, s.player_id, pl.colour, s.total, s.rank, s.winner"
        " FROM scores s JOIN players pl ON pl.id = s.player_id WHERE s.play_id = ? ORDER BY s.seat", (play_id,))]


def _request(db: Db, key: str | None) -> tuple[int, int] | None:
    if not key:
        return None
    row = db.execute("SELECT play_id, version FROM requests WHERE key = ?", (key[:100],)).fetchone()
    return (int(row[0]), int(row[1])) if row is not None else None


def _remember(db: Db, key: str | None, play_id: int, version: int) -> None:
    if key:
        db.execute("INSERT INTO requests (key, play_id, version, at) VALUES (?, ?, ?, ?)",
                   (key[:100], play_id, version, _now()))


def _snapshot(row: Any) -> dict[str, Any]:
    """What a version of a play holds (and a backup's play)."""
    return {"mode": row["mode"], "played_on": row["played_on"], "duration_min": row["duration_min"],
            "location": row["location"], "note": row["note"], "first_seat": row["first_seat"],
            "state_yaml": row["state_yaml"], "result": json.loads(row["result_json"]),
            "cardforge_version": row["cardforge_version"]}


def _backfill_roster(db: Db) -> None:
    """Version 3: every name of the log joins the roster (names that differ only in case,
    accents' Unicode form or spacing are one player), and each score row points at it."""
    for row in db.execute("SELECT rowid, player FROM scores ORDER BY play_id, seat").fetchall():
        db.execute("UPDATE scores SET player_id = ? WHERE rowid = ?", (_player_id(db, row["player"]), row["rowid"]))


BACKFILL: dict[int, Callable[[Db], None]] = {3: _backfill_roster}


def uid_of(parts: Sequence[Any]) -> str:
    """A play's uid from what it is (an imported play: importing the same rows twice adds it once)."""
    return hashlib.sha256(json.dumps(list(parts), ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:32]


def _choice_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _cell(text: str) -> str:
    """Text a spreadsheet must not read as a formula (a player called ``=1+1``)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# --- the backup file, validated ----------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ResultPlayer(BaseModel):
    """A player of a score JSON (``cardforge score --json``), as far as the log reads it."""

    name: str = Field(min_length=1, max_length=MAX_NAME)
    total: float
    rank: int = Field(ge=1, le=1000)
    breakdown: dict[str, float] = Field(max_length=200)


class Result(BaseModel):
    players: list[ResultPlayer] = Field(min_length=1, max_length=100)
    winners: list[str] = Field(default_factory=list, max_length=100)
    categories: list[str] = Field(default_factory=list, max_length=200)


class BackupPlayer(_Strict):
    name: str = Field(min_length=1, max_length=MAX_NAME)
    colour: str | None = Field(default=None, pattern=r"^#[0-9A-Fa-f]{6}$")
    aliases: list[str] = Field(default_factory=list, max_length=200)


class BackupVersion(_Strict):
    version: int = Field(ge=1)
    saved_at: str = Field(max_length=40)
    mode: str | None = Field(default=None, max_length=100)
    played_on: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    duration_min: int | None = Field(default=None, ge=1, le=MAX_DURATION)
    location: str = Field(default="", max_length=MAX_LOCATION)
    note: str = Field(default="", max_length=MAX_NOTE)
    first_seat: int | None = Field(default=None, ge=0, le=100)
    state_yaml: str = Field(default="", max_length=200_000)
    result: dict[str, Any]
    cardforge_version: str = Field(max_length=40)

    @field_validator("played_on")
    @classmethod
    def _a_day(cls, value: str) -> str:
        date.fromisoformat(value)  # 2026-13-01 is no day
        return value

    @field_validator("result")
    @classmethod
    def _a_score(cls, value: dict[str, Any]) -> dict[str, Any]:
        Result.model_validate(value)  # the shape the log reads; kept whole (details, report…)
        return value

    def snapshot(self) -> dict[str, Any]:
        return self.model_dump(exclude={"version", "saved_at"})


class BackupPlay(BackupVersion):
    number: int = Field(ge=1, le=2**63 - 1)
    uid: str = Field(pattern=r"^[0-9a-f]{16,64}$")
    game: str = Field(min_length=1, max_length=100)
    title: str = Field(min_length=1, max_length=200)
    source: str = Field(default="sheet", max_length=20)
    played_at: str = Field(max_length=40)
    updated_at: str = Field(max_length=40)
    deleted_at: str | None = Field(default=None, max_length=40)
    players: list[str] = Field(max_length=100)
    versions: list[BackupVersion] = Field(default_factory=list, max_length=1000)
    saved_at: str = ""  # a play's own: its updated_at
    # schema 4 (the playtest lab): absent from older backups
    deck_version: str | None = Field(default=None, max_length=40)
    deck_fp: str | None = Field(default=None, pattern=r"^[0-9a-f]{8}$")
    deck_source: str | None = Field(default=None, max_length=300)
    facts: dict[str, Any] | None = None
    invite: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")  # schema 5: its invite's token_sha256


class BackupDeck(_Strict):
    game: str = Field(min_length=1, max_length=100)
    fingerprint: str = Field(pattern=r"^[0-9a-f]{8}$")
    version: str = Field(min_length=1, max_length=40)
    source: str = Field(max_length=300)
    cards: dict[str, Any] = Field(max_length=100_000)
    first_seen: str = Field(max_length=40)


class BackupInvite(_Strict):
    game: str = Field(min_length=1, max_length=100)
    name: str = Field(min_length=1, max_length=200)
    token_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    created_at: str = Field(max_length=40)
    expires_at: str | None = Field(default=None, max_length=40)
    revoked_at: str | None = Field(default=None, max_length=40)


class BackupDoc(_Strict):
    format: str
    schema_: int = Field(alias="schema", ge=1)
    players: list[BackupPlayer] = Field(max_length=100_000)
    plays: list[BackupPlay] = Field(max_length=1_000_000)
    decks: list[BackupDeck] = Field(default_factory=list, max_length=10_000)
    invites: list[BackupInvite] = Field(default_factory=list, max_length=100_000)  # schema 5; absent: none


#: the largest id SQLite stores (a signed 64-bit integer)
MAX_ID = 2**63 - 1


def parse_id(text: str) -> int | None:
    """A play's (or player's) number from a URL: digits within SQLite's range, else None
    (the page answers 404: never an overflow deep in the store)."""
    if not text or len(text) > 19 or not text.isascii() or not text.isdigit():
        return None
    number = int(text)
    return number if 1 <= number <= MAX_ID else None


def details_from_form(pairs: Sequence[tuple[str, str]], players: int | None) -> tuple[Details, list[Problem]]:
    """The play's details from the sheet's (or the play page's) form: the date, the minutes it
    took (``90`` or ``1:30``), where, a note, the first player's seat (1-based in the form)."""
    form = dict(pairs)
    problems: list[Problem] = []
    duration: int | None = None
    raw = form.get("play_duration", "").strip()
    if raw:
        try:
            if ":" in raw:
                hours, minutes = raw.split(":", 1)
                duration = int(hours) * 60 + int(minutes)
            else:
                duration = int(raw)
        except ValueError:
            problems.append(Problem(f"minutes (90) or hours:minutes (1:30), got {raw[:20]!r}", field="play_duration"))
    first: int | None = None
    raw = form.get("play_first", "").strip()
    if raw:
        seat = parse_id(raw)
        if seat is None:
            problems.append(Problem(f"a seat number, got {raw[:20]!r}", field="play_first"))
        else:
            first = seat - 1
    details = Details(form.get("play_date", "").strip(), duration, form.get("play_location", "").strip(),
                      form.get("note", "").strip(), first)
    return details, problems + details.problems(players)


def unconfirmed_date(details: Details, pairs: Sequence[tuple[str, str]]) -> list[Problem]:
    """A date typed at the table after tomorrow, not confirmed (``play_date_confirm``): a slip
    of the finger, most likely. (A file of plays imported keeps its dates.)"""
    if not is_future(details.played_on) or dict(pairs).get("play_date_confirm"):
        return []
    return [Problem(f"{details.played_on} is in the future (today is {today()}): correct it, or tick "
                    "“this date is right”", field="play_date")]


def is_future(day: str) -> bool:
    """A play's date after tomorrow's (a day of slack: the phone's clock may be a time zone
    ahead of the server's); not a date at all is said by :meth:`Details.problems`."""
    try:
        return (date.fromisoformat(day) - date.fromisoformat(today())).days > 1
    except ValueError:
        return False
