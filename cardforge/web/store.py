"""The play log: finished games in an SQLite database (stdlib ``sqlite3``).

- Where: ``cardforge.db`` in the user's data folder (``platformdirs``), or ``--db PATH``.
- Schema: a ``schema_version`` table and :data:`MIGRATIONS`, applied in order, each in its own
  transaction; a database newer than this cardforge is refused rather than written.
- Safety: WAL journal, ``synchronous=FULL``, every write in one transaction — a server killed
  mid-write leaves the last committed play log, never a half-saved play.
- A play keeps the final-state YAML it was scored from (``cardforge score`` reproduces it), the
  score JSON, and one row per player and per category for the history and the stats.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cardforge.errors import CardforgeError
from cardforge.problems import Problem

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
]
SCHEMA_VERSION = MIGRATIONS[-1][0]


class StoreError(CardforgeError):
    """The play log cannot be opened or written."""


def default_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("cardforge", appauthor=False) / "cardforge.db"


@dataclass
class PlaySummary:
    id: int
    game: str
    title: str
    mode: str | None
    played_at: str
    note: str
    players: list[dict[str, Any]]  # {player, total, rank, winner}


class PlayLog:
    def __init__(self, path: Path | str):
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

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA synchronous=FULL")
        return db

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        db = self._connect()
        try:
            yield db
        finally:
            db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: all of it is written, or none of it."""
        db = self._connect()
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
            has = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'").fetchone()
            if not has:
                return 0
            row = db.execute("SELECT version FROM schema_version").fetchone()
            return int(row[0]) if row else 0

    def migrate(self, upto: int | None = None) -> None:
        target = SCHEMA_VERSION if upto is None else upto
        current = self.version()
        if current > SCHEMA_VERSION:
            raise StoreError(f"the play log {self.path} is from a newer cardforge",
                             [Problem(f"schema version {current}; this cardforge knows up to {SCHEMA_VERSION}",
                                      file=str(self.path))])
        for version, sql in MIGRATIONS:
            if current < version <= target:
                with self._write() as db:
                    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                    for statement in (s.strip() for s in sql.split(";")):
                        if statement:
                            db.execute(statement)
                    db.execute("DELETE FROM schema_version")
                    db.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
                current = version

    # --- writing -----------------------------------------------------------------------------
    def add_play(self, *, game: str, title: str, mode: str | None, state_yaml: str, result: dict[str, Any],
                 note: str = "", played_at: datetime | None = None) -> int:
        from cardforge import __version__

        when = (played_at or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        with self._write() as db:
            cur = db.execute(
                "INSERT INTO plays (game, title, mode, played_at, state_yaml, result_json, cardforge_version, note)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game, title, mode, when, state_yaml, json.dumps(result, ensure_ascii=False), __version__, note))
            assert cur.lastrowid is not None  # set by an INSERT
            play_id = cur.lastrowid
            winners = set(result.get("winners", []))
            for seat, p in enumerate(result["players"]):
                db.execute("INSERT INTO scores (play_id, seat, player, total, rank, winner) VALUES (?, ?, ?, ?, ?, ?)",
                           (play_id, seat, p["name"], p["total"], p["rank"], int(p["name"] in winners)))
                for category, value in p["breakdown"].items():
                    db.execute("INSERT INTO category_scores (play_id, seat, category, value) VALUES (?, ?, ?, ?)",
                               (play_id, seat, category, value))
        return play_id

    def delete_play(self, play_id: int) -> bool:
        with self._write() as db:
            return db.execute("DELETE FROM plays WHERE id = ?", (play_id,)).rowcount > 0

    # --- reading -----------------------------------------------------------------------------
    def plays(self, game: str | None = None, limit: int = 200) -> list[PlaySummary]:
        with self._read() as db:
            rows = db.execute(
                "SELECT * FROM plays" + (" WHERE game = ?" if game else "")
                + " ORDER BY played_at DESC, id DESC LIMIT ?",
                ((game, limit) if game else (limit,))).fetchall()
            out = []
            for r in rows:
                players = [dict(s) for s in db.execute(
                    "SELECT player, total, rank, winner FROM scores WHERE play_id = ? ORDER BY seat", (r["id"],))]
                out.append(PlaySummary(r["id"], r["game"], r["title"], r["mode"], r["played_at"], r["note"], players))
            return out

    def play(self, play_id: int) -> dict[str, Any] | None:
        with self._read() as db:
            row = db.execute("SELECT * FROM plays WHERE id = ?", (play_id,)).fetchone()
            if row is None:
                return None
            out = dict(row)
            out["result"] = json.loads(out.pop("result_json"))
            return out

    def games(self) -> list[str]:
        with self._read() as db:
            return [r[0] for r in db.execute("SELECT DISTINCT game FROM plays ORDER BY game")]

    def player_stats(self, game: str | None = None) -> list[dict[str, Any]]:
        """Per player: plays, wins, win rate, average total and, for one game, average per category."""
        where = " WHERE p.game = ?" if game else ""
        args: tuple[str, ...] = (game,) if game else ()
        with self._read() as db:
            rows = db.execute(
                "SELECT s.player, COUNT(*) AS plays, SUM(s.winner) AS wins, AVG(s.total) AS average,"
                " MAX(s.total) AS best FROM scores s JOIN plays p ON p.id = s.play_id" + where +
                " GROUP BY s.player ORDER BY wins DESC, plays DESC, s.player", args).fetchall()
            stats = [dict(r) for r in rows]
            if game:
                per = db.execute(
                    "SELECT s.player, c.category, AVG(c.value) AS average FROM category_scores c"
                    " JOIN scores s ON s.play_id = c.play_id AND s.seat = c.seat"
                    " JOIN plays p ON p.id = c.play_id WHERE p.game = ? GROUP BY s.player, c.category",
                    (game,)).fetchall()
                by_player: dict[str, dict[str, float]] = {}
                for r in per:
                    by_player.setdefault(r["player"], {})[r["category"]] = r["average"]
                for s in stats:
                    s["categories"] = by_player.get(s["player"], {})
        return stats

    def csv(self, game: str | None = None) -> str:
        """One row per player per play; a column per score category (of the games in the log)."""
        with self._read() as db:
            plays = db.execute("SELECT id, game, mode, played_at, note, result_json FROM plays"
                               + (" WHERE game = ?" if game else "") + " ORDER BY played_at, id",
                               (game,) if game else ()).fetchall()
        categories: list[str] = []
        for p in plays:
            for c in json.loads(p["result_json"]).get("categories", []):
                if c not in categories:
                    categories.append(c)
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\r\n")
        out.writerow(["play", "played_at", "game", "mode", "player", "seat", "rank", "winner", "total",
                      *categories, "note"])
        for p in plays:
            result = json.loads(p["result_json"])
            winners = set(result.get("winners", []))
            for seat, player in enumerate(result["players"]):
                out.writerow([p["id"], p["played_at"], p["game"], p["mode"] or "", _cell(player["name"]), seat + 1,
                              player["rank"], int(player["name"] in winners), player["total"],
                              *(player["breakdown"].get(c, "") for c in categories), _cell(p["note"])])
        return buf.getvalue()


def _cell(text: str) -> str:
    """Text a spreadsheet must not read as a formula (a player called ``=1+1``)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
