"""The play log like a score app (issue 30): migrations from the shipped schema, the roster,
plays edited in place with their versions, undoable deletes, numbers never reused, resent forms,
details, backup and restore, CSV import. Values worked out by hand."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from html import unescape
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[test]')")

from starlette.testclient import TestClient  # noqa: E402

from cardforge.playlog.dialect import is_url  # noqa: E402
from cardforge.playlog.store import SCHEMA_VERSION, Details, PlayLog, StoreError, name_key  # noqa: E402
from cardforge.web.app import Settings, create_app  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures" / "playlog"


@pytest.fixture
def db(log_db: str) -> str:
    """This test's play log, on SQLite and on PostgreSQL (tests/pg_support.py)."""
    return log_db


@pytest.fixture
def new_db(new_log_db):
    """Another play log on the same database as ``db``."""
    return new_log_db


def client(where, db: str = "plays.db", **settings) -> TestClient:
    """A client of a server on the log ``where`` names (a file, a URL), or on ``where/db``."""
    spec = where if isinstance(where, str) else where / db
    app = create_app(Settings(db_path=spec, **settings))
    c = TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False)
    c.get("/")
    return c


def csrf(c: TestClient) -> str:
    return c.cookies.get("cf_csrf")


def result(rows: list[tuple[str, float, int]], categories: dict[str, list[float]] | None = None) -> dict:
    """A score JSON: (name, total, rank) per seat; winners: rank 1."""
    cats = categories or {"points": [t for _, t, _ in rows]}
    return {"ok": True, "game": "g", "categories": list(cats),
            "players": [{"name": n, "total": t, "rank": r, "breakdown": {c: v[i] for c, v in cats.items()}}
                        for i, (n, t, r) in enumerate(rows)],
            "winners": [n for n, _, r in rows if r == 1]}


def im_form(token: str, a: tuple[str, int, int], b: tuple[str, int, int], **extra: str) -> dict[str, str]:
    """An Imperial Miners sheet: (name, VP tokens, carts) for two players, 7 and 3 coins."""
    form = {"csrf": token, "players[0].name": a[0], "players[0].vp": str(a[1]), "players[0].coins": "7",
            "players[0].carts": str(a[2]), "players[1].name": b[0], "players[1].vp": str(b[1]),
            "players[1].coins": "3", "players[1].carts": str(b[2])}
    form.update(extra)
    return form


def save(c: TestClient, form: dict[str, str], game: str = "imperial_miners") -> int:
    r = c.post(f"/g/{game}/save", data=form, follow_redirects=False)
    assert r.status_code == 303, unescape(r.text)[:2000]
    return int(r.headers["location"].rsplit("/", 1)[1])


# --- migrations -----------------------------------------------------------------------------------

def test_a_log_of_schema_2_migrates(tmp_path):
    """A log written by the shipped schema 2 (the fixture's SQL was dumped from a log its own
    PlayLog wrote): after migrating, every play is there under its number, dated by its save
    day, its names on the roster ("Ana" and "ana " one player, "Ben" and "BEN" another), and a
    new play takes a number after the highest ever given."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(FIXTURES.joinpath("schema2.sql").read_text(encoding="utf-8"))
    log = PlayLog(path)
    assert log.version() == SCHEMA_VERSION == 5
    plays = {p.id: p for p in log.plays()}
    assert sorted(plays) == [1, 3]
    assert (plays[1].played_on, plays[1].note, plays[1].version) == ("2026-10-03", "chez Ben", 1)
    assert plays[3].played_on == "2026-10-10"
    roster = {p["name"]: p for p in log.players()}
    assert sorted(roster) == ["Ana", "Ben"]  # the first spelling of each name
    assert (roster["Ana"]["plays"], roster["Ana"]["wins"]) == (2, 2)
    assert (roster["Ben"]["plays"], roster["Ben"]["wins"]) == (2, 0)
    assert [s["player"] for s in log.play(3)["players"]] == ["Ana", "Ben"]
    assert [s["typed"] for s in log.play(3)["players"]] == ["ana ", "BEN"]  # as the play's file wrote them
    uids = {log.play(n)["uid"] for n in (1, 3)}
    assert len(uids) == 2 and all(re.fullmatch(r"[0-9a-f]{32}", u) for u in uids)
    new = log.add_play(game="tunhell", title="TunHell", mode="full", state_yaml="", result=result([("Ana", 1, 1)]))
    assert new == 4
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    # stats read it as they read a new log: Ana's two wins
    from cardforge.playlog.stats import overview

    o = overview(log.records(), {p["id"]: p for p in log.players()})
    assert [(p.name, p.plays, p.wins) for p in o.players] == [("Ana", 2, 2), ("Ben", 2, 0)]


def test_a_migration_that_breaks_a_reference_is_rolled_back(tmp_path, monkeypatch):
    from cardforge.playlog import store

    path = tmp_path / "p.db"
    log = PlayLog.__new__(PlayLog)
    log.path = path
    log.migrate(upto=2)
    broken = store.SCHEMA_VERSION + 1
    bad = [*store.MIGRATIONS, (broken, "INSERT INTO scores (play_id, seat, player, total, rank, winner)"
                                       " VALUES (99, 0, 'x', 1, 1, 1)")]
    monkeypatch.setattr(store, "MIGRATIONS", bad)
    monkeypatch.setattr(store, "SCHEMA_VERSION", broken)
    with pytest.raises(StoreError, match="cannot migrate"):
        log.migrate()
    assert log.version() == broken - 1  # the migrations before it stay; the broken one left nothing


def _by_hand(db: str, sql: str) -> None:
    """A statement run on the log's database directly, as someone at its prompt would."""
    if is_url(db):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(sql)
        return
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(sql)


# --- the roster -----------------------------------------------------------------------------------

def test_names_are_matched_whatever_their_case_and_spacing():
    assert name_key("  ana ") == name_key("Ana") == name_key("ANA")
    assert name_key("Cle\u0301o") == name_key("Cléo")  # a decomposed é is the same é
    assert name_key("Ana  K.") == name_key("ana k.") != name_key("Ana")


def test_roster_add_rename_colour_merge(db):
    log = PlayLog(db)
    ana = log.add_player("Ana", "orange")
    with pytest.raises(StoreError, match="has that name"):
        log.add_player(" ana ")
    with pytest.raises(StoreError, match="too long"):
        log.add_player("A" * 81)
    a1 = log.add_play(game="g", title="G", mode=None, state_yaml="", result=result([("ana", 5, 1), ("Ben", 3, 2)]))
    a2 = log.add_play(game="g", title="G", mode=None, state_yaml="", result=result([("Benoît", 4, 1), ("Cy", 2, 2)]))
    roster = {p["name"]: p for p in log.players()}
    assert roster["Ana"]["id"] == ana and roster["Ana"]["colour"] == "#E69F00" and roster["Ana"]["plays"] == 1
    assert set(roster) == {"Ana", "Ben", "Benoît", "Cy"}
    # a rename moves the name; another player's name is refused
    with pytest.raises(StoreError, match="merge the two instead"):
        log.update_player(ana, name="cy")
    log.update_player(ana, name="Ana M.", colour=None)
    assert log.player(ana)["name"] == "Ana M." and log.player(ana)["colour"] is None
    # two names of one person: Ben and Benoît never played together — merged, Benoît stays a name of Ben's
    ben, benoit, cy = roster["Ben"]["id"], roster["Benoît"]["id"], roster["Cy"]["id"]
    log.merge_players(benoit, ben)
    after = {p["name"]: p for p in log.players()}
    assert "Benoît" not in after and after["Ben"]["plays"] == 2 and after["Ben"]["wins"] == 1
    assert after["Ben"]["aliases"] == ["Benoît"]
    a3 = log.add_play(game="g", title="G", mode=None, state_yaml="", result=result([("benoît", 1, 1), ("Cy", 0, 2)]))
    assert log.play(a3)["players"][0]["player_id"] == ben  # a later play under the old name is Ben's
    # two people who played together are never merged
    with pytest.raises(StoreError, match=r"played together \(play #2, #3\)"):
        log.merge_players(cy, ben)
    assert {a1, a2, a3} == {1, 2, 3}


def test_roster_pages(db):
    c = client(db)
    r = c.post("/players/add", data={"csrf": csrf(c), "name": "Ana", "colour": "sky"}, follow_redirects=False)
    assert r.status_code == 303
    r = c.post("/players/add", data={"csrf": csrf(c), "name": "ANA", "colour": "none"})
    assert r.status_code == 422 and "is in the roster already" in unescape(r.text)
    r = c.post("/players/add", data={"csrf": csrf(c), "name": "Bo", "colour": "#12345"})
    assert r.status_code == 422 and "a colour is one of orange" in unescape(r.text)
    page = c.get("/players").text
    assert '<circle cx="5" cy="5" r="5" fill="#56B4E9"' in page and ">Ana</strong>" in page
    ana = PlayLog(db).player_by_name("ana")["id"]
    r = c.post(f"/players/{ana}/edit", data={"csrf": csrf(c), "name": "Ana K.", "colour": "green"},
               follow_redirects=False)
    assert r.status_code == 303 and "Ana K." in c.get(f"/players/{ana}").text
    # the game page offers the roster, one tap each
    game = c.get("/g/tunhell").text
    assert re.search(r'<input type="checkbox" name="name" value="Ana K.">', game)
    assert c.get("/players/99999999999999999999").status_code == 404


# --- plays: edited in place, deleted and back, numbered once, saved once --------------------------

def test_a_play_edited_in_place_is_one_play_with_its_history(db):
    """Before: opening a play in the sheet and saving made a second play, both counted. Now
    the play changes in place (its number, one row in the history and the stats) and the
    version it replaced stays viewable."""
    c = client(db)
    token = csrf(c)
    first = save(c, im_form(token, ("Aurore", 31, 8), ("Bruno", 30, 3), play_date="2026-11-20"))  # 39 – 33
    page = c.get(f"/g/imperial_miners/sheet?play={first}").text
    assert f'name="edit_play" value="{first}"' in page and 'value="2026-11-20"' in page
    # the carts were 6, not 3: Bruno 30 + 6 = 36; Aurore still 39
    again = save(c, im_form(token, ("Aurore", 31, 8), ("Bruno", 30, 6), edit_play=str(first), play_date="2026-11-20"))
    assert again == first
    log = PlayLog(db)
    assert [p.id for p in log.plays()] == [first]
    assert [(s["player"], s["total"]) for s in log.play(first)["players"]] == [("Aurore", 39), ("Bruno", 36)]
    assert log.play(first)["version"] == 2 and [v["version"] for v in log.play(first)["versions"]] == [1]
    records = log.records()
    assert len(records) == 1 and [s.total for s in records[0].seats] == [39, 36]
    old = c.get(f"/plays/{first}/v/1").text
    assert "Version 1 of 2" in old and '<td data-total="1">33</td>' in old
    assert '<td data-total="1">36</td>' in c.get(f"/plays/{first}").text
    assert c.get(f"/plays/{first}/v/2").status_code == 404  # the current version is the play itself


def test_a_form_sent_twice_is_one_play(db):
    c = client(db)
    form = im_form(csrf(c), ("Aurore", 31, 8), ("Bruno", 30, 3), request_key="k-1")
    assert save(c, form) == save(c, form) == 1
    assert len(PlayLog(db).plays()) == 1
    # an edit sent twice is one new version
    edit = {**im_form(csrf(c), ("Aurore", 31, 8), ("Bruno", 30, 6)), "edit_play": "1", "request_key": "k-2"}
    save(c, edit)
    save(c, edit)
    assert PlayLog(db).play(1)["version"] == 2
    # another key: another play
    assert save(c, {**form, "request_key": "k-3"}) == 2


def test_delete_is_undone_and_numbers_are_never_given_again(db):
    c = client(db)
    token = csrf(c)
    ids = [save(c, im_form(token, ("A", 10 + i, 0), ("B", 5, 0))) for i in range(3)]
    assert ids == [1, 2, 3]
    r = c.post("/plays/3/delete", data={"csrf": token}, follow_redirects=False)
    assert r.headers["location"] == "/plays?undo=3"
    history = c.get("/plays?undo=3").text
    assert 'action="/plays/3/restore"' in history and 'href="/plays/3"' not in history
    assert 'href="/plays/3"' in c.get("/plays?deleted=1").text
    log = PlayLog(db)
    assert [r.id for r in log.records()] == [1, 2]
    assert save(c, im_form(token, ("A", 1, 0), ("B", 2, 0))) == 4  # #3 is not given again
    r = c.post("/plays/3/restore", data={"csrf": token}, follow_redirects=False)
    assert r.headers["location"] == "/plays/3" and [r.id for r in log.records()] == [1, 2, 3, 4]
    # even a row removed by hand (the old delete): the sequence never goes back
    _by_hand(db, "DELETE FROM plays WHERE id = 4")
    assert save(c, im_form(token, ("A", 1, 0), ("B", 2, 0))) == 5
    # a deleted play is not edited (undo first)
    c.post("/plays/2/delete", data={"csrf": token})
    r = c.post("/g/imperial_miners/save", data={**im_form(token, ("A", 1, 0), ("B", 2, 0)), "edit_play": "2"})
    assert r.status_code == 404


def test_the_details_of_a_play(db):
    """Date, minutes, place, note and first player: saved with the play, refused when out of
    their limits (each problem beside its field), edited from the play's page as a new version."""
    c = client(db)
    token = csrf(c)
    play = save(c, im_form(token, ("Aurore", 31, 8), ("Bruno", 30, 3), play_date="2026-11-01", play_duration="1:30",
                           play_location="Chez Ana", note="première partie", play_first="2"))
    p = PlayLog(db).play(play)
    assert (p["played_on"], p["duration_min"], p["location"], p["note"], p["first_seat"]) == (
        "2026-11-01", 90, "Chez Ana", "première partie", 1)
    page = unescape(c.get(f"/plays/{play}").text)
    assert "2026-11-01 · 1 h 30 · Chez Ana" in page and "Bruno started" in page
    bad = im_form(token, ("A", 1, 0), ("B", 2, 0), play_date="2026-02-30", play_duration="abc",
                  play_location="x" * 81, note="n" * 501, play_first="3")
    r = c.post("/g/imperial_miners/save", data=bad)
    assert r.status_code == 422
    text = unescape(r.text)
    for message in ("a date is YYYY-MM-DD (1900–2200), got '2026-02-30'", "minutes (90) or hours:minutes (1:30), got 'abc'",
                    "at most 80 characters, got 81", "at most 500 characters, got 501",
                    "the first player is one of the 2 seats"):
        assert message in text, message
    assert len(PlayLog(db).plays()) == 1
    r = c.post(f"/plays/{play}/details", data={"csrf": token, "play_date": "2026-11-02", "play_duration": "75",
                                                "play_location": "", "note": "", "play_first": "1"},
               follow_redirects=False)
    assert r.status_code == 303
    p = PlayLog(db).play(play)
    assert (p["played_on"], p["duration_min"], p["first_seat"], p["version"]) == ("2026-11-02", 75, 0, 2)
    assert [s["total"] for s in p["players"]] == [39, 33]  # the score untouched


def test_same_players_again(db):
    c = client(db)
    save(c, im_form(csrf(c), ("Aurore", 31, 8), ("Bruno", 30, 3)))
    page = c.get("/plays/1").text
    assert 'href="/g/imperial_miners/sheet?name=Aurore&amp;name=Bruno"' in page
    game = unescape(c.get("/g/imperial_miners").text)
    assert "Same players again" in game and ">Aurore, Bruno</a>" in game


# --- backup and restore --------------------------------------------------------------------------

def _log_with_history(db: str) -> TestClient:
    c = client(db)
    token = csrf(c)
    save(c, im_form(token, ("Aurore", 31, 8), ("Bruno", 30, 3), play_date="2026-10-01", play_first="1"))
    save(c, im_form(token, ("Aurore", 31, 8), ("Bruno", 30, 6), edit_play="1", play_date="2026-10-01", play_first="1"))
    save(c, im_form(token, ("Chloé", 20, 2), ("Bruno", 25, 4), play_date="2026-10-08", note="à deux"))
    c.post("/plays/2/delete", data={"csrf": token})
    c.post("/players/add", data={"csrf": token, "name": "Dan", "colour": "purple"})
    return c


def test_backup_and_restore_round_trip(db, new_db):
    """A backup restored into an empty log gives the same log: the same backup, byte for byte
    (numbers, versions, deleted plays, players and colours); restored again, nothing is added."""
    c = _log_with_history(db)
    backup = c.get("/log/backup.json")
    assert "attachment" in backup.headers["content-disposition"]
    doc = json.loads(backup.text)
    assert [p["number"] for p in doc["plays"]] == [1, 2] and doc["plays"][1]["deleted_at"]
    assert [v["version"] for v in doc["plays"][0]["versions"]] == [1]
    other = client(new_db())
    r = other.post("/log/restore", data={"csrf": csrf(other)}, files={"file": ("backup.json", backup.content)})
    assert r.status_code == 200 and "Restored: 2 plays added" in unescape(r.text)
    assert other.get("/log/backup.json").content == backup.content
    r = other.post("/log/restore", data={"csrf": csrf(other)}, files={"file": ("backup.json", backup.content)})
    assert "Restored: 0 plays added, 2 already in the log." in unescape(r.text)
    # into a log whose number 1 is taken: a new number, nothing overwritten
    third_db = new_db()
    third = client(third_db)
    save(third, im_form(csrf(third), ("X", 1, 0), ("Y", 0, 0)))
    r = third.post("/log/restore", data={"csrf": csrf(third)}, files={"file": ("b.json", backup.content)})
    assert "2 plays added (2 under a new number" in unescape(r.text)
    assert [p.id for p in PlayLog(third_db).plays()] == [1, 2]  # today's, then 2026-10-01
    assert PlayLog(third_db).play(3)["deleted_at"]  # the deleted play, deleted still


def test_a_bad_backup_changes_nothing(db):
    c = client(db)
    token = csrf(c)
    r = c.post("/log/restore", data={"csrf": token}, files={"file": ("x.json", b"not json")})
    assert r.status_code == 422 and "x.json: not a cardforge backup" in unescape(r.text)
    doc = {"format": "cardforge play log", "schema": 3, "players": [{"name": "A" * 81}], "plays": [
        {"number": 1, "uid": "zz", "game": "g", "title": "G", "played_on": "2026-13-01", "result": {},
         "cardforge_version": "1", "played_at": "", "updated_at": "", "players": []}]}
    r = c.post("/log/restore", data={"csrf": token}, files={"file": ("b.json", json.dumps(doc).encode())})
    text = unescape(r.text)
    assert r.status_code == 422
    for where in ("b.json: players[0].name: String should have at most 80 characters",
                  "b.json: plays[0].uid: must match ^[0-9a-f]{16,64}$, got 'zz'",
                  "b.json: plays[0].played_on:", "b.json: plays[0].result.players: required field is missing",
                  "b.json: plays[0].version: required field is missing"):
        assert where in text, where
    assert PlayLog(db).plays() == []
    r = c.post("/log/restore", data={"csrf": "forged"}, files={"file": ("b.json", b"{}")})
    assert r.status_code == 403


# --- CSV import ----------------------------------------------------------------------------------

TUNHELL_CSV = """\
play;date;game;player;loot;trophies;rings;back_door;total;first;duration;note
1;2026-10-03;TunHell;Ana;17;1;2;0;20;1;45;au café
1;2026-10-03;TunHell;Ben;15;2;0;1;18;;;
2;04/10/2026;tunhell;Ben;9;0;0;0;9;;;
2;04/10/2026;tunhell;Cléo;9;1;0;0;10;1;;
2;04/10/2026;tunhell;Ana;3;0;0;0;3;;;
"""


def test_import_plays_from_a_spreadsheet(db):
    """Two TunHell plays typed in a spreadsheet (semicolons, a French date, the game by its
    title or id): their scores as given, ranks and winners from the totals, the first player
    and details kept. The same file again adds nothing."""
    c = client(db)
    r = c.post("/plays/import", data={"csrf": csrf(c)}, files={"file": ("soirées.csv", TUNHELL_CSV.encode())})
    assert r.status_code == 200, unescape(r.text)
    assert "Imported: 2 plays" in unescape(r.text)
    log = PlayLog(db)
    first, second = sorted(log.plays(), key=lambda p: p.id)
    assert (first.played_on, first.duration_min, first.note) == ("2026-10-03", 45, "au café")
    assert [(s["player"], s["total"], s["rank"], s["winner"]) for s in first.players] == [
        ("Ana", 20, 1, 1), ("Ben", 18, 2, 0)]
    assert log.play(first.id)["first_seat"] == 0 and log.play(second.id)["first_seat"] == 1
    # Ben 9, Cléo 10, Ana 3: Cléo first, Ben second, Ana third
    assert [(s["player"], s["rank"], s["winner"]) for s in second.players] == [
        ("Ben", 2, 0), ("Cléo", 1, 1), ("Ana", 3, 0)]
    assert log.play(second.id)["result"]["players"][1]["breakdown"] == {"loot": 9, "trophies": 1, "rings": 0,
                                                                         "back_door": 0}
    page = unescape(c.get(f"/plays/{first.id}").text)
    assert "imported with its scores" in page and "Butin" in page  # the pad's row label
    assert c.get(f"/plays/{first.id}.yaml").status_code == 404  # no final-state file to give
    r = c.post("/plays/import", data={"csrf": csrf(c)}, files={"file": ("soirées.csv", TUNHELL_CSV.encode())})
    assert "Imported: 0 plays, 2 already in the log" in unescape(r.text)


def test_import_problems_are_located_by_row_and_column(db):
    c = client(db)
    text = """\
play,played_on,game,player,loot,total,colour
1,2026-10-03,TunHell,Ana,17,21,
1,2026-10-03,TunHell,Ben,x,18,
2,2026-10-33,Monopoly,Ana,,5,
3,2026-10-05,TunHell,Ana,,,red
3,2026-10-05,TunHell,Ana,,4,
"""
    r = c.post("/plays/import", data={"csrf": csrf(c)}, files={"file": ("plays.csv", text.encode())})
    assert r.status_code == 422
    found = [unescape(li) for li in re.findall(r"<li>(.*?)</li>", r.text)]
    assert "plays.csv: row 2: column F (total): 21, but the categories add up to 17" in found
    assert "plays.csv: row 3: column E (loot): a number, got 'x'" in found
    assert any(p.startswith("plays.csv: row 4: column C (game): no game 'Monopoly' on this server") for p in found)
    assert any(p.startswith("plays.csv: row 5: column G (colour): not a column of TunHell (its categories: "
                            "loot (Butin)") for p in found)
    assert "plays.csv: row 5: column F (total): no score: give total, or the game's categories" in found
    assert PlayLog(db).plays() == []  # nothing imported while a problem remains
    r = c.post("/plays/import", data={"csrf": csrf(c)}, files={"file": ("p.csv", b"game,player\nTunHell,Ana\n")})
    assert "p.csv: row 1: no play column" in unescape(r.text) and "no played_on column" in unescape(r.text)


def test_the_export_imports_into_another_log(db, new_db):
    """The history's CSV holds the import's columns: exported from one log, imported into
    another, the plays have the same players, scores, ranks, dates and first players."""
    c = _log_with_history(db)
    exported = c.get("/plays.csv").content
    rows = list(csv.DictReader(io.StringIO(exported.decode())))
    assert [(r["play"], r["player"], r["total"], r["first"]) for r in rows] == [
        ("1", "Aurore", "39", "1"), ("1", "Bruno", "36", "0")]  # play 2 is deleted
    other_db = new_db()
    other = client(other_db)
    r = other.post("/plays/import", data={"csrf": csrf(other)}, files={"file": ("export.csv", exported)})
    assert "Imported: 1 play" in unescape(r.text), unescape(r.text)[:3000]
    p = PlayLog(other_db).plays()[0]
    assert (p.played_on, [(s["player"], s["total"], s["rank"]) for s in p.players]) == (
        "2026-10-01", [("Aurore", 39, 1), ("Bruno", 36, 2)])


def test_the_import_template_names_the_game_s_columns(tmp_path):
    c = client(tmp_path)
    r = c.get("/plays/import-template.csv?game=tunhell")
    header = r.text.splitlines()[0].split(",")
    assert header[:7] == ["play", "played_on", "game", "mode", "player", "seat", "first"]
    assert {"loot", "trophies", "rings", "back_door", "total"} <= set(header)
    assert c.get("/plays/import-template.csv?game=nope").status_code == 404


# --- names, never ids ----------------------------------------------------------------------------

def test_how_it_was_counted_names_the_cards(tmp_path):
    """Cristaux's report names cards by id ("autel-du-feu (Autel du feu): religion 26"); the
    page shows the names, the two Warhammer sides told apart by what their ids add."""
    c = client(tmp_path)
    example = ROOT / "card_data" / "cristaux" / "examples" / "final.yaml"
    r = c.post("/g/cristaux/score", data={"csrf": csrf(c), "yaml": example.read_text(encoding="utf-8")})
    html = unescape(re.search(r"<pre>(.*?)</pre>", r.json()["html"], re.S).group(1))  # How it was counted
    assert "Autel du feu: religion 26 (top 5 red costs 3+3+3+2+2 = 13 × 2)" in html
    assert "Warhammer (forges): forge 3 (gold bonus: 2 gold spent)" in html
    assert "autel-du-feu" not in html and "warhammer-forges" not in html
    assert "Ana: ♚ 1 + Lunettes du feu et de la terre 1 + Pinces de braise 1" in html


def test_filters_show_titles_not_ids(db):
    c = client(db)
    save(c, im_form(csrf(c), ("A", 1, 0), ("B", 0, 0)))
    example = (ROOT / "card_data" / "mine_all_mine" / "examples" / "final.yaml").read_text(encoding="utf-8")
    save(c, {"csrf": csrf(c), "yaml": example}, game="mine_all_mine")
    for url in ("/plays", "/stats"):
        page = unescape(c.get(url).text)
        assert ">Mine, All Mine!</a>" in page and ">mine_all_mine<" not in page, url
    mode = unescape(c.get("/plays").text)
    tunhell = yaml.safe_load((ROOT / "card_data" / "tunhell" / "examples" / "final.yaml").read_text(encoding="utf-8"))
    save(c, {"csrf": csrf(c), "yaml": yaml.safe_dump(tunhell)}, game="tunhell")
    mode = unescape(c.get("/plays").text)
    assert "TunHell</strong> · Partie complète" in mode  # the mode's label, not `full`


def test_store_details_problems():
    assert Details("2026-11-26", 90, "", "", 0).problems(3) == []
    assert [p.field for p in Details("26/11/2026", 0, "", "", 5).problems(3)] == [
        "play_date", "play_duration", "play_first"]


def test_the_rounds_sheet_asks_which_end_of_a_planet_card_was_up(tmp_path, cli, write_yaml):
    """Mine, All Mine! no longer reads a planet card's missing end as low: the sheet asks it
    beside the card, and a card with its end scores as the CLI scores the same file."""
    c = client(tmp_path)
    page = c.get("/g/mine_all_mine/sheet?name=Ana&name=Ben").text
    assert 'name="rounds[0].planets[0].end"' in page
    form = {"csrf": csrf(c), "players[0].name": "Ana", "players[1].name": "Ben", "rounds[0].planets[0].card": "1",
            "rounds[0].fleets[0].speed": "5", "rounds[0].fleets[0].attack": "2", "rounds[0].fleets[0].cargo": "6",
            "rounds[0].fleets[1].speed": "5", "rounds[0].fleets[1].attack": "2", "rounds[0].fleets[1].cargo": "5"}
    body = c.post("/g/mine_all_mine/score", data=form).json()
    assert [p["field"] for p in body["problems"]] == ["rounds[0].planets[0].end"]
    assert "which end of planet card 1's planet face (Kessara) was up" in body["problems"][0]["message"]
    body = c.post("/g/mine_all_mine/score", data={**form, "rounds[0].planets[0].end": "high"}).json()
    path = write_yaml("final.yaml", "rounds:\n  - planets: [{card: 1, side: planet, end: high}]\n    fleets:\n"
                                    "      Ana: {speed: 5, attack: 2, cargo: 6}\n      Ben: {speed: 5, attack: 2, cargo: 5}\n")
    assert body["score"] == cli("score", "mine_all_mine", path, "--json").json
    assert [p["total"] for p in body["score"]["players"]] == [6, 5]  # the vector issue-18-a-planet-card-with-its-high-end-up


def test_a_play_of_a_game_no_longer_served_shows_its_saved_score(db, tmp_path):
    from cardforge.games.scaffold import create_game

    folder = tmp_path / "petit-jeu-gone"
    create_game(folder, "Petit jeu", lang="fr")
    c = client(db, games=[folder])
    example = (folder / "examples" / "final.yaml").read_text(encoding="utf-8")
    play = save(c, {"csrf": csrf(c), "yaml": example}, game="petit_jeu_gone")
    later = client(db)  # the same log, served without the folder
    page = unescape(later.get(f"/plays/{play}").text)
    assert "petit_jeu_gone is not served here: the score saved with the play." in page
    assert '<td data-total="0">12</td>' in page and "Edit the score" not in page
    stats_page = unescape(later.get("/stats?game=petit_jeu_gone").text)
    assert "Stats — Petit jeu" in stats_page and "1 play · 2 players" in stats_page
