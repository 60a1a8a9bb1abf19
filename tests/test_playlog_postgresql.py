"""The play log on PostgreSQL (issue 44, part 3), on a real server (tests/pg_support.py): a team's
server loses no play under concurrent saves, a log moves SQLite → PostgreSQL → export with every
play identical, the lab reads either alike, and a bad or unreachable URL is a clear error that
never shows its password. (The play-log suite itself runs on both: tests/test_web_playlog.py.)"""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from lab_support import maphr_two_versions

pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[test]')")

import psycopg  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from cardforge.playlog.store import SCHEMA_VERSION, PlayLog, StoreError  # noqa: E402
from cardforge.web import invites  # noqa: E402
from cardforge.web.app import Settings, create_app  # noqa: E402
from cardforge.web.invites import create_invite  # noqa: E402


@pytest.fixture
def petit_jeu(tmp_path):
    """The data-only game `cardforge new` makes: cartes, objectifs, pièces."""
    from cardforge.games import find_game
    from cardforge.games.scaffold import create_game

    folder = tmp_path / "jeu-equipe"
    create_game(folder, "Petit jeu", lang="fr")
    return find_game(folder)


def _form(csrf: str, cartes: int, names: tuple[str, str]) -> dict[str, str]:
    return {"csrf": csrf, "players[0].name": names[0], "players[0].cartes": str(cartes),
            "players[0].objectifs": "3", "players[0].pieces": "5",
            "players[1].name": names[1], "players[1].cartes": "1", "players[1].objectifs": "0",
            "players[1].pieces": "0"}


def test_200_concurrent_saves_through_20_invites_lose_nothing(pg_url, petit_jeu):
    """20 playtesters, each with an invite, save 10 plays each at once (20 threads, each its own
    client of one server): 200 plays, each under its invite with the score it was sent, and the
    roster has each name once though the same new names arrived together (the writers' lock)."""
    app = create_app(Settings(db_path=pg_url, token="t0ken-of-the-designer", local_only=False,
                              games=[petit_jeu.folder]))
    log = PlayLog(pg_url)
    made = [create_invite(log, petit_jeu.id, f"Club {n}", timedelta(days=30)) for n in range(20)]
    answers: dict[int, list[tuple[int, str]]] = {}
    start = threading.Barrier(20)

    def playtester(n: int) -> None:
        c = TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False)
        assert c.get(f"/i/{made[n][1]}").status_code == 200
        csrf = c.cookies.get("cf_csrf")
        start.wait()
        out = []
        for i in range(10):
            # names shared across the clubs, new to the roster: "Joueur 0" … "Joueur 6"
            names = (f"Joueur {(n + i) % 7}", f"Joueuse {(n * 3 + i) % 5}")
            r = c.post(f"/g/{petit_jeu.id}/save", data=_form(csrf, 100 * n + i, names), follow_redirects=False)
            out.append((r.status_code, r.headers.get("location", r.text[:300])))
        answers[n] = out

    threads = [threading.Thread(target=playtester, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == list(range(20))
    statuses = [s for out in answers.values() for s, _ in out]
    assert statuses == [303] * 200, [a for out in answers.values() for a in out if a[0] != 303][:3]
    numbers = sorted(int(loc.rsplit("=", 1)[1]) for out in answers.values() for _, loc in out)
    assert numbers == list(range(1, 201))  # one number each, none lost, none twice
    plays = log.plays(limit=1000)
    assert len(plays) == 200
    sent = {}  # Joueur's cards → the invite that sent it
    for p in plays:
        play = log.play(p.id)
        sent[play["result"]["players"][0]["breakdown"]["cartes"]] = play["invite_id"]
    assert sent == {100 * n + i: made[n][0].id for n in range(20) for i in range(10)}
    assert [i.plays for i in invites.invites(log)] == [10] * 20
    roster = sorted(p["name"] for p in log.players())
    assert roster == sorted([f"Joueur {k}" for k in range(7)] + [f"Joueuse {k}" for k in range(5)])
    assert sum(p["plays"] for p in log.players()) == 400  # two seats a play
    log.close()


def _rich_sqlite_log(cli, tmp_path):
    """Maphr over two deck versions (decks, facts, first players, minutes) plus what a log
    gathers: an edited play (its versions), a deleted one, a merged player (an alias), a colour,
    an invite and the play it sent."""
    made = maphr_two_versions(tmp_path)
    log = PlayLog(made["db"])
    invite, _ = create_invite(log, "maphr", "Club Lyon", timedelta(days=30))
    result = {"players": [{"name": "Dan", "total": 12.5, "rank": 1, "breakdown": {"points": 12.5}},
                          {"name": "Ève", "total": 3, "rank": 2, "breakdown": {"points": 3}}],
              "winners": ["Dan"], "categories": ["points"]}
    by_invite = log.add_play(game="maphr", title="Maphr", mode=None, state_yaml="", result=result, invite=invite.id)
    log.update_play(by_invite, result={**result, "players": [result["players"][0],
                                                             {**result["players"][1], "total": 4}]})
    log.delete_play(2)
    roster = {p["name"]: p["id"] for p in log.players()}
    log.merge_players(roster["Ève"], roster["Cléo"])
    log.update_player(roster["Ana"], colour="sky")
    return made, log


def test_a_log_moves_sqlite_to_postgresql_and_back_with_every_play_identical(cli, tmp_path, pg_url):
    made, sqlite_log = _rich_sqlite_log(cli, tmp_path)
    exported = tmp_path / "from-sqlite.json"
    assert cli("plays", "export", "--db", made["db"], "-o", exported).code == 0
    doc = json.loads(exported.read_text(encoding="utf-8"))
    assert len(doc["plays"]) == 8 and len(doc["decks"]) == 2 and doc["invites"][0]["name"] == "Club Lyon"
    r = cli("plays", "import", exported, "--db", pg_url, "--json")
    assert r.code == 0, r.err
    assert (r.json["added"], r.json["skipped"], r.json["renumbered"]) == (8, 0, 0)
    again = tmp_path / "from-postgresql.json"
    assert cli("plays", "export", "--db", pg_url, "-o", again).code == 0
    assert again.read_bytes() == exported.read_bytes()
    pg_log = PlayLog(pg_url)
    for n in range(1, 9):  # every play, field by field (the roster's numbers aside: a merge left a gap)
        a, b = sqlite_log.play(n), pg_log.play(n)
        for seat in (*a["players"], *b["players"]):
            seat.pop("player_id")
        assert a == b, n
    assert pg_log.play(8)["invite_id"] == invites.invites(pg_log)[0].id
    assert pg_log.csv() == sqlite_log.csv()
    assert [(p["name"], p["colour"], p["plays"], p["wins"], p["aliases"]) for p in pg_log.players()] == [
        (p["name"], p["colour"], p["plays"], p["wins"], p["aliases"]) for p in sqlite_log.players()]
    # the playtester's link still opens the log on PostgreSQL (its hash moved with it)
    assert [i.name for i in invites.invites(pg_log)] == ["Club Lyon"]
    # and back: PostgreSQL → a new SQLite file, the same backup again
    back = tmp_path / "back.db"
    assert cli("plays", "import", again, "--db", back).code == 0
    assert PlayLog(back).backup().encode() == exported.read_bytes()
    # importing twice adds nothing
    r = cli("plays", "import", exported, "--db", pg_url, "--json")
    assert (r.json["added"], r.json["skipped"]) == (0, 8)
    pg_log.close()


def test_the_lab_reads_either_log_alike(cli, tmp_path, pg_url):
    """`cardforge report` of the same plays, from SQLite and from PostgreSQL: the same numbers,
    the same PDF."""
    made = maphr_two_versions(tmp_path)
    backup = tmp_path / "log.json"
    assert cli("plays", "export", "--db", made["db"], "-o", backup).code == 0
    assert cli("plays", "import", backup, "--db", pg_url).code == 0
    reports = []
    for name, db in (("sqlite", made["db"]), ("postgresql", pg_url)):
        out = tmp_path / f"report-{name}.pdf"
        r = cli("--data", made["data"], "report", "maphr", "--db", db, "-o", out, "--json")
        assert r.code == 0, r.err
        reports.append(({k: v for k, v in r.json.items() if k != "file"}, out.read_bytes()))
    (numbers, pdf), (pg_numbers, pg_pdf) = reports
    assert numbers["plays"] == 7 and pg_numbers == numbers
    assert pg_pdf == pdf
    # the lab's own reading: every play with its deck, seats and facts
    a, b = PlayLog(made["db"]).lab_plays("maphr"), PlayLog(pg_url).lab_plays("maphr")
    assert a == b and len(a) == 7 and {p.deck_version for p in a} == {"0.2", "0.3"}


@pytest.mark.parametrize("command", [["plays", "list"], ["plays", "export"], ["invite", "list"]])
def test_an_unreachable_server_is_a_clear_error_without_the_password(cli, command):
    r = cli(*command, "--db", "postgresql://ana:s3cr3t-pw@127.0.0.1:1/plays")
    assert r.code == 1, (r.out, r.err)
    assert "cannot reach the play log postgresql://ana:***@127.0.0.1:1/plays" in r.err
    assert 'port 1 failed: Connection refused' in r.err
    assert "s3cr3t" not in r.err + r.out and "Traceback" not in r.err


def test_a_bad_url_is_a_clear_error(cli, pg_cluster):
    r = cli("plays", "list", "--db", f"postgresql://postgres:pw@127.0.0.1:{pg_cluster.port}/no_such_db?password=pw2")
    assert r.code == 1 and 'database "no_such_db" does not exist' in r.err, r.err
    assert f"postgresql://postgres:***@127.0.0.1:{pg_cluster.port}/no_such_db?password=***" in r.err
    assert "pw2" not in r.err and ":pw@" not in r.err
    r = cli("plays", "list", "--db", "postgresql://[::1")
    assert r.code == 1 and "cannot open the play log postgresql://…" in r.err and "Traceback" not in r.err
    r = cli("serve", "--db", "postgresql://ana:s3cr3t@127.0.0.1:1/plays", "--port", "1")
    assert r.code == 1 and "s3cr3t" not in r.err + r.out, r.err


def test_postgresql_migrations_are_versioned_and_a_broken_one_is_rolled_back(pg_url, monkeypatch):
    from cardforge.playlog import store

    log = PlayLog(pg_url)
    assert log.version() == SCHEMA_VERSION == 5
    broken = SCHEMA_VERSION + 1
    monkeypatch.setattr(store, "MIGRATIONS", [*store.MIGRATIONS, (broken, "INSERT INTO scores (play_id, seat,"
                                                                           " player, total, rank, winner) VALUES"
                                                                           " (99, 0, 'x', 1, 1, 1)")])
    monkeypatch.setattr(store, "SCHEMA_VERSION", broken)
    with pytest.raises(StoreError, match="cannot migrate"):
        PlayLog(pg_url)
    monkeypatch.undo()
    assert log.version() == 5  # the broken migration left nothing
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError, match="from a newer cardforge"):
        PlayLog(pg_url)
    log.close()


def test_a_page_says_the_log_is_unavailable_when_its_server_stops_answering(pg_cluster, pg_url):
    """The database refuses connections while `serve` runs: the pages answer 503 without the
    database's address, and serve again once it answers."""
    c = TestClient(create_app(Settings(db_path=pg_url)), base_url="http://127.0.0.1:8000",
                   raise_server_exceptions=False)
    assert c.get("/plays").status_code == 200
    name = pg_url.rsplit("/", 1)[1]
    with psycopg.connect(pg_cluster.url("postgres"), autocommit=True) as conn:
        conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
    r = c.get("/plays")
    assert r.status_code == 503 and "The play log is unavailable" in r.text
    assert str(pg_cluster.port) not in r.text and "127.0.0.1:" not in r.text
    with psycopg.connect(pg_cluster.url("postgres"), autocommit=True) as conn:
        conn.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
    assert c.get("/plays").status_code == 200


def test_an_old_sqlite_log_moves_to_postgresql(cli, tmp_path, pg_url):
    """A log the shipped schema 2 wrote (tests/fixtures/playlog/schema2.sql) migrates on SQLite,
    then moves to PostgreSQL: the same backup, the same roster and wins."""
    import sqlite3

    from conftest import FIXTURES

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript((FIXTURES / "playlog" / "schema2.sql").read_text(encoding="utf-8"))
    backup = tmp_path / "old.json"
    assert cli("plays", "export", "--db", path, "-o", backup).code == 0
    r = cli("plays", "import", backup, "--db", pg_url, "--json")
    assert r.code == 0 and (r.json["added"], r.json["renumbered"]) == (2, 0), r.err
    log = PlayLog(pg_url)
    assert log.backup().encode() == backup.read_bytes()
    assert [p.id for p in log.plays()] == [3, 1]  # newest first; #2 was never in the log
    assert [(p["name"], p["plays"], p["wins"]) for p in log.players()] == [("Ana", 2, 2), ("Ben", 2, 0)]
    # the next play takes the number after the highest the log gave
    assert log.add_play(game="tunhell", title="TunHell", mode="full", state_yaml="", result={
        "players": [{"name": "Ana", "total": 1, "rank": 1, "breakdown": {"loot": 1}}], "winners": ["Ana"]}) == 4
    log.close()


def test_serve_takes_the_url_as_it_is_and_prints_it_without_its_password(cli, pg_cluster, pg_url, monkeypatch):
    import socket

    import uvicorn

    seen = {}

    def run(server, sockets=None):  # the server is built; it does not listen in a test
        seen["app"] = server.config.app
        for s in sockets or []:
            s.close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = pg_url.replace("postgresql://postgres@", "postgresql://postgres:hunter2@")
    r = cli("serve", "--db", url, "--port", str(port))
    assert r.code == 0, r.err
    assert f"play log: {url.replace(':hunter2@', ':***@')}" in r.out and "hunter2" not in r.out + r.err
    c = TestClient(seen["app"], base_url="http://127.0.0.1:8000")
    assert c.get("/plays").status_code == 200
    assert PlayLog(pg_url).version() == SCHEMA_VERSION  # the server made the log's tables there
