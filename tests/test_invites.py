"""Remote playtests (issue 44): invites (`cardforge invite`, ``web/invites.py``), the printed
playtest link ``/p/GAME/VERSION/FINGERPRINT`` and the play log's schema 5."""

from __future__ import annotations

import itertools
import sqlite3
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest

from conftest import ROOT

pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[test]')")

from starlette.testclient import TestClient  # noqa: E402

from cardforge.lab.facts import deck_of_data  # noqa: E402
from cardforge.playlog.store import SCHEMA_VERSION, PlayLog  # noqa: E402
from cardforge.web import invites  # noqa: E402
from cardforge.web.app import MAX_BODY, Settings, create_app  # noqa: E402
from cardforge.web.invites import create_invite, revoke_invite, token_hash  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
_NUMBERS = itertools.count(1)


@pytest.fixture
def petit_jeu(tmp_path):
    """The data-only game `cardforge new` makes (Alice 7 + 3+2 + 5 coins…)."""
    from cardforge.games import find_game
    from cardforge.games.scaffold import create_game

    folder = tmp_path / f"jeu-invite-{next(_NUMBERS)}"
    create_game(folder, "Petit jeu", lang="fr")
    return find_game(folder)


@pytest.fixture
def db(log_db: str) -> str:
    """The test's play log, on SQLite and on PostgreSQL (tests/pg_support.py)."""
    return log_db


def server(db: str, *games, **settings) -> TestClient:
    """A server for phones (an access token), as `cardforge serve --host 0.0.0.0` runs it."""
    settings.setdefault("token", "t0ken-of-the-designer")
    settings.setdefault("local_only", False)
    app = create_app(Settings(db_path=db, games=[g.folder for g in games], **settings))
    return TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False)


def pad_form(csrf: str, rows: list[tuple[str, str, str, str]]) -> dict[str, str]:
    form = {"csrf": csrf}
    for i, (name, cartes, objectifs, pieces) in enumerate(rows):
        form.update({f"players[{i}].name": name, f"players[{i}].cartes": cartes,
                     f"players[{i}].objectifs": objectifs, f"players[{i}].pieces": pieces})
    return form


ROWS = [("Alice", "7", "3+2", "5"), ("Ben", "9", "3", "2")]


def plays_table(db: str) -> list[dict]:
    with PlayLog(db)._read() as conn:
        return [dict(r) for r in conn.execute(
            "SELECT id, game, invite_id, deck_version, deck_fp, deck_source FROM plays ORDER BY id")]


# --- the log: schema 5 ---------------------------------------------------------------------------

def test_a_schema_4_log_migrates_forward_keeping_every_play(tmp_path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript((FIXTURES / "playlog" / "schema4.sql").read_text(encoding="utf-8"))
    log = PlayLog(path)
    assert log.version() == SCHEMA_VERSION == 5
    (play,) = log.plays(game="maphr")
    assert (play.id, play.played_on, play.duration_min) == (1, "2026-11-20", 85)
    assert [(s["player"], s["winner"]) for s in play.players] == [
        ("Alice", 0), ("Ben", 1), ("Cid", 0)]  # Ben wins (as `plays add` said when it wrote the log)
    (row,) = _rows(path)
    assert (row["deck_version"], row["deck_fp"], row["deck_source"], row["invite_id"]) == (
        "0.2", "42802ac1", "data", None)
    assert list(log.decks("maphr")) == ["42802ac1"]
    assert invites.invites(log) == []


def _rows(path):
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    try:
        return db.execute("SELECT deck_version, deck_fp, deck_source, invite_id FROM plays").fetchall()
    finally:
        db.close()


def test_the_token_is_kept_only_as_its_hash(tmp_path):
    log = PlayLog(tmp_path / "plays.db")
    made, token = create_invite(log, "maphr", "  Club   Lyon ", timedelta(days=30))
    assert made.name == "Club Lyon" and len(token) == 32  # 24 random bytes, URL-safe base64
    dump = "\n".join(sqlite3.connect(tmp_path / "plays.db").iterdump())
    assert token not in dump and token_hash(token) in dump
    assert invites.invite_by_token(log, token) == made
    assert invites.invite_by_token(log, token[:-1] + ("A" if token[-1] != "A" else "B")) is None


# --- the CLI -------------------------------------------------------------------------------------

def test_invite_add_list_revoke(cli, db):
    r = cli("invite", "maphr", "--name", "Club Lyon", "--expires", "30d", "--url", "https://plays.example.org",
            "--db", db)
    assert r.code == 0, r.err
    link = r.out.splitlines()[1]
    assert link.startswith("https://plays.example.org/i/") and len(link.rsplit("/", 1)[1]) == 32
    r = cli("invite", "tunhell", "--name", "Convention", "--expires", "never", "--db", db, "--json")
    assert r.code == 0 and r.json["id"] == 2 and r.json["expires_at"] is None and r.json["link"].startswith("/i/")
    r = cli("invite", "list", "--db", db, "--json")
    assert [(i["id"], i["game"], i["name"], i["state"], i["plays"]) for i in r.json["invites"]] == [
        (1, "maphr", "Club Lyon", "active", 0), (2, "tunhell", "Convention", "active", 0)]
    first = r.json["invites"][0]
    made = datetime.strptime(first["created_at"], "%Y-%m-%dT%H:%M:%SZ")
    until = datetime.strptime(first["expires_at"], "%Y-%m-%dT%H:%M:%SZ")
    assert until - made == timedelta(days=30)
    r = cli("invite", "revoke", "Club Lyon", "--db", db)
    assert r.code == 0 and r.out.strip() == "revoked invite #1 for Club Lyon (maphr)"
    r = cli("invite", "revoke", "1", "--db", db)
    assert r.code == 1
    assert "no invite '1' to revoke" in r.err and "already revoked (invites in use: #2 Convention)" in r.err
    assert "#1  maphr  Club Lyon  revoked" in cli("invite", "list", "--db", db).out
    r = cli("invite", "maphr", "--name", "x", "--expires", "5y", "--db", db)
    assert r.code == 2 and "expected a number of hours, days or weeks (12h, 30d, 2w) or 'never', got '5y'" in r.err
    r = cli("invite", "maphr", "--name", "x" * 81, "--db", db)
    assert r.code == 1 and "--name: must be 1–80 characters, got 81" in r.err


# --- what an invite opens ------------------------------------------------------------------------

def test_an_invite_opens_its_games_sheet_and_nothing_else(db, petit_jeu):
    c = server(db, petit_jeu)
    log = PlayLog(db)
    made, token = create_invite(log, petit_jeu.id, "Club Lyon", timedelta(days=30))
    assert c.get("/").status_code == 403  # no invite, no server token: refused as before
    r = c.get(f"/i/{token}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/g/{petit_jeu.id}/sheet"
    assert "cf_invite=" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
    r = c.get(f"/g/{petit_jeu.id}/sheet?name=Alice&name=Ben")
    assert r.status_code == 200
    assert 'href="/plays"' not in r.text  # no navigation to the log's pages
    assert "content-security-policy" in r.headers
    for url in ("/", "/plays", "/players", "/stats", "/log", f"/g/{petit_jeu.id}", f"/g/{petit_jeu.id}/lab",
                "/g/maphr/sheet", f"/g/{petit_jeu.id}/setup", "/plays.csv"):
        r = c.get(url)
        assert r.status_code == 403, url
        assert f"An invite opens the score sheet of {petit_jeu.id} only." in unescape(r.text), url
    csrf = c.cookies.get("cf_csrf")
    r = c.post(f"/g/{petit_jeu.id}/save", data=pad_form(csrf, ROWS), follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"].startswith("/invite/saved?play=")
    number = int(r.headers["location"].rsplit("=", 1)[1])
    assert "Play #%d saved." % number in unescape(c.get(r.headers["location"]).text)
    (row,) = plays_table(db)
    assert (row["id"], row["game"], row["invite_id"]) == (number, petit_jeu.id, made.id)
    assert invites.invite_by_id(log, made.id).plays == 1
    # a saved play is not the invite's to read or change
    assert c.get(f"/g/{petit_jeu.id}/sheet?play={number}").status_code == 403
    r = c.post(f"/g/{petit_jeu.id}/save", data={**pad_form(csrf, ROWS), "edit_play": str(number)})
    assert r.status_code == 403 and "an invite saves new plays only" in r.text
    # the forms' protections hold for invites
    r = c.post(f"/g/{petit_jeu.id}/save", data=pad_form("forged", ROWS))
    assert r.status_code == 403 and "security token" in r.text
    r = c.post(f"/g/{petit_jeu.id}/save", data=pad_form(csrf, ROWS), headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and "Cross-site request refused" in r.text
    r = c.post(f"/g/{petit_jeu.id}/score", content=b"x" * (MAX_BODY + 1),
               headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    assert len(plays_table(db)) == 1
    # the designer (the server's token) still sees everything, the play under its invite
    c.cookies.clear()
    assert c.get("/plays?token=t0ken-of-the-designer").status_code == 200


def test_a_revoked_or_expired_invite_is_refused(db, petit_jeu):
    c = server(db, petit_jeu)
    log = PlayLog(db)
    made, token = create_invite(log, petit_jeu.id, "Club Lyon", timedelta(days=30))
    assert c.get(f"/i/{token}").status_code == 200  # followed to the sheet
    revoke_invite(log, str(made.id))
    r = c.get(f"/g/{petit_jeu.id}/sheet")  # the cookie
    assert r.status_code == 403 and "This invite was revoked by the designer." in unescape(r.text)
    assert c.get(f"/i/{token}").status_code == 403  # the link
    csrf = c.cookies.get("cf_csrf") or "x"
    assert c.post(f"/g/{petit_jeu.id}/save", data=pad_form(csrf, ROWS)).status_code == 403
    old, old_token = create_invite(log, petit_jeu.id, "Last month", timedelta(days=1),
                                   now=datetime.now(UTC) - timedelta(days=2))
    fresh = server(db, petit_jeu)
    r = fresh.get(f"/i/{old_token}")
    assert r.status_code == 403 and "This invite has expired." in unescape(r.text)
    r = fresh.get("/i/" + "A" * 32)
    assert r.status_code == 403 and "This invite link is not known to this server." in unescape(r.text)
    assert plays_table(db) == []


def test_each_invite_has_its_own_rate_limit(db, petit_jeu, monkeypatch):
    monkeypatch.setattr(invites, "SAVES_PER_HOUR", 2)
    log = PlayLog(db)
    _, one = create_invite(log, petit_jeu.id, "One", None)
    _, two = create_invite(log, petit_jeu.id, "Two", None)
    c = server(db, petit_jeu)
    c.get(f"/i/{one}")
    csrf = c.cookies.get("cf_csrf")
    assert [c.post(f"/g/{petit_jeu.id}/save", data=pad_form(csrf, ROWS), follow_redirects=False).status_code
            for _ in range(3)] == [303, 303, 429]
    assert "An invite may save at most 2 plays" in c.post(f"/g/{petit_jeu.id}/save", data=pad_form(csrf, ROWS)).text
    c.cookies.clear()
    c.get(f"/i/{two}")
    csrf = c.cookies.get("cf_csrf")
    assert c.post(f"/g/{petit_jeu.id}/save", data=pad_form(csrf, ROWS), follow_redirects=False).status_code == 303
    assert [r["invite_id"] for r in plays_table(db)] == [1, 1, 2]


TUNHELL_CSV = """\
play;date;game;player;loot;trophies;rings;back_door;total;first;duration;note
1;2026-10-03;TunHell;Ana;17;1;2;0;20;1;45;au café
1;2026-10-03;TunHell;Ben;15;2;0;1;18;;;
"""


def test_an_invite_imports_a_spreadsheet_of_its_game_only(db):
    log = PlayLog(db)
    made, token = create_invite(log, "tunhell", "Club Lyon", None)
    c = server(db)
    c.get(f"/i/{token}")
    r = c.get("/invite/import")
    assert r.status_code == 200 and 'action="/invite/import"' in r.text
    csrf = c.cookies.get("cf_csrf")
    r = c.post("/invite/import", data={"csrf": csrf}, files={"file": ("soirée.csv", TUNHELL_CSV.encode())})
    assert r.status_code == 200, unescape(r.text)
    assert "1 play imported" in unescape(r.text)
    assert [(r["game"], r["invite_id"]) for r in plays_table(db)] == [("tunhell", made.id)]
    other = TUNHELL_CSV.replace("TunHell", "maphr")
    r = c.post("/invite/import", data={"csrf": csrf}, files={"file": ("autre.csv", other.encode())})
    assert r.status_code == 422
    assert len(plays_table(db)) == 1
    r = c.post("/invite/import", data={"csrf": "forged"}, files={"file": ("soirée.csv", TUNHELL_CSV.encode())})
    assert r.status_code == 403


# --- the printed link ----------------------------------------------------------------------------

def test_the_printed_link_ties_a_play_to_the_printed_version(db, petit_jeu):
    """The QR code's address: the sheet says which deck, the play records it — the served deck
    when it is that print, else the printed version alone; the lab lists that version."""
    from cardforge.cli.common import load_data

    c = server(db, petit_jeu, token=None, local_only=True)
    served = deck_of_data(petit_jeu.id, load_data(petit_jeu))
    r = c.get(f"/p/{petit_jeu.id}/{served.version}/{served.fingerprint}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/g/{petit_jeu.id}/sheet"
    page = unescape(c.get(f"/g/{petit_jeu.id}/sheet?name=Alice&name=Ben").text)
    assert f"Printed deck v{served.version} · {served.fingerprint}: a play saved here records it." in page
    csrf = c.cookies.get("cf_csrf")
    assert c.post(f"/g/{petit_jeu.id}/save", data=pad_form(csrf, ROWS), follow_redirects=False).status_code == 303
    # an older print this server's data has moved on from
    c.get(f"/p/{petit_jeu.id}/0.9/deadbeef")
    assert "Printed deck v0.9 · deadbeef" in unescape(c.get(f"/g/{petit_jeu.id}/sheet").text)
    assert c.post(f"/g/{petit_jeu.id}/save", data=pad_form(csrf, ROWS), follow_redirects=False).status_code == 303
    assert [(r["deck_version"], r["deck_fp"]) for r in plays_table(db)] == [
        (served.version, served.fingerprint), ("0.9", None)]
    log = PlayLog(db)
    assert set(log.deck_versions(petit_jeu.id)) == {served.version, "0.9"}
    lab = unescape(c.get(f"/g/{petit_jeu.id}/lab").text)
    assert "0.9" in lab
    for bad in ("/p/maphr/0.2/XYZ", "/p/maphr/0.2/1234567", f"/p/{petit_jeu.id}/a b/deadbeef", "/p/nogame/1/deadbeef"):
        assert c.get(bad).status_code == 404, bad


def test_an_invites_printed_link(db, petit_jeu):
    log = PlayLog(db)
    made, token = create_invite(log, petit_jeu.id, "Club Lyon", None)
    c = server(db, petit_jeu)
    r = c.get(f"/i/{token}/p/{petit_jeu.id}/0.3/0123abcd", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/g/{petit_jeu.id}/sheet"
    assert "Printed deck v0.3 · 0123abcd" in unescape(c.get(f"/g/{petit_jeu.id}/sheet").text)
    csrf = c.cookies.get("cf_csrf")
    assert c.post(f"/g/{petit_jeu.id}/save", data=pad_form(csrf, ROWS), follow_redirects=False).status_code == 303
    assert [(r["invite_id"], r["deck_version"]) for r in plays_table(db)] == [(made.id, "0.3")]
    assert c.get(f"/i/{token}/p/maphr/0.2/42802ac1").status_code == 403  # another game's print
