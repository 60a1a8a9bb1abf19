"""`cardforge serve` serves only the games it was given, parses every id within range and
enforces its length limits itself (issue 30, "Only the games you serve")."""

from __future__ import annotations

from html import unescape

import pytest

pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[test]')")

from starlette.testclient import TestClient  # noqa: E402

from cardforge.playlog.store import (
    PlayLog,  # noqa: E402
    parse_id,  # noqa: E402
)
from cardforge.web.app import Settings, create_app  # noqa: E402

EVIL_RULES = """\
from pathlib import Path
Path({marker!r}).write_text("ran")
def score(data, state):
    return None
"""


def client(tmp_path, **settings) -> TestClient:
    app = create_app(Settings(db_path=tmp_path / "plays.db", **settings))
    return TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False)


def evil_game(folder, marker) -> None:
    """A game folder whose rules.py writes ``marker`` when it is imported."""
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text(
        "title: Evil\nplayers: {min: 2, max: 4}\nrules: rules.py\n"
        "categories:\n  - {id: points, label: Points}\n", encoding="utf-8")
    (folder / "rules.py").write_text(EVIL_RULES.format(marker=str(marker)), encoding="utf-8")


def test_a_folder_in_the_working_directory_is_not_served_and_runs_nothing(tmp_path, monkeypatch):
    """Before: `GET /g/evil` found ./evil/game.yaml (any folder of the server's working
    directory) and imported its rules.py. Now it is 404 and the marker is never written."""
    work = tmp_path / "work"
    marker = tmp_path / "marker.txt"
    evil_game(work / "evil", marker)
    monkeypatch.chdir(work)
    c = client(tmp_path)
    for url in ("/g/evil", "/g/evil/sheet", "/g/evil/setup?players=2", "/g/./evil",
                "/g/evil%2F", "/g/..%2Fwork%2Fevil", "/g/" + "x" * 5000):
        r = c.get(url)
        assert r.status_code == 404, (url, r.status_code)
        assert "Traceback" not in r.text
    csrf = c.cookies.get("cf_csrf") or _csrf(c)
    r = c.post("/g/evil/score", data={"csrf": csrf, "players[0].name": "A", "players[0].points": "1"})
    assert r.status_code == 404
    assert not marker.exists()  # nothing of the folder was executed
    # a folder named like a shipped game does not shadow it either
    evil_game(work / "maphr", marker)
    r = c.get("/g/maphr/sheet?players=2")
    assert r.status_code == 200 and "Les Mines de Maphr" in unescape(r.text)
    assert not marker.exists()


def _csrf(c: TestClient) -> str:
    c.get("/")
    return c.cookies.get("cf_csrf")


def test_a_folder_named_when_the_server_starts_is_served(tmp_path, monkeypatch):
    """`cardforge serve ./my-game`: that folder is a game of this server (its rules run: the
    designer named it), wherever the server's working directory is."""
    from cardforge.games.scaffold import create_game

    folder = tmp_path / "mon-jeu"
    create_game(folder, "Mon jeu", lang="fr")
    monkeypatch.chdir(tmp_path / "..")
    c = client(tmp_path, games=[folder])
    home = unescape(c.get("/").text)
    assert "Mon jeu" in home
    assert home.index("Mon jeu") < home.index("Les Mines de Maphr")  # the designer's own first
    assert c.get("/g/mon_jeu/sheet?players=2").status_code == 200


def test_the_command_serves_the_folders_it_names(tmp_path, cli, monkeypatch):
    """`cardforge serve FOLDER` passes the folder itself to the server (not its id to be looked
    up again): checked on the settings the command builds."""
    import cardforge.web.app as web_app
    from cardforge.games.scaffold import create_game

    folder = tmp_path / "jeu-cli"
    create_game(folder, "Jeu CLI", lang="fr")
    seen = {}

    class Stop(Exception):
        pass

    def fake_create_app(settings):
        seen["games"] = settings.games
        raise Stop  # before listening

    monkeypatch.setattr(web_app, "create_app", fake_create_app)
    cli("serve", str(folder), "maphr", "--db", str(tmp_path / "p.db"))  # stops at Stop
    assert seen["games"] == [folder.resolve(), "maphr"]


@pytest.mark.parametrize("url", ["/plays/99999999999999999999999", "/plays/9223372036854775808",
                                 "/plays/0", "/plays/-1", "/plays/1e3", "/plays/%D9%A3",  # Arabic-Indic 3
                                 "/plays/99999999999999999999999.yaml", "/plays/9223372036854775807",
                                 "/g/maphr/sheet?play=99999999999999999999999"])
def test_huge_or_odd_ids_are_404_never_500(tmp_path, url):
    c = client(tmp_path)
    r = c.get(url)
    assert r.status_code == 404, (url, r.status_code, r.text[:200])
    assert "Traceback" not in r.text and "OverflowError" not in r.text


def test_huge_ids_in_forms_are_404(tmp_path):
    c = client(tmp_path)
    csrf = _csrf(c)
    for url in ("/plays/99999999999999999999999/delete", "/plays/99999999999999999999999/restore"):
        r = c.post(url, data={"csrf": csrf})
        assert r.status_code == 404, (url, r.status_code)


def test_parse_id():
    assert parse_id("1") == 1 and parse_id("9223372036854775807") == 2**63 - 1
    for bad in ("", "0", "9223372036854775808", "1" * 30, "١", "+1", " 1", "1.0"):
        assert parse_id(bad) is None, bad


def test_a_huge_player_name_is_refused_not_stored(tmp_path):
    """Before: a 200,000-character name was saved (the 80-character limit was the browser's
    only) and /plays became 2,678,151 px wide. Now the server refuses it beside the name."""
    c = client(tmp_path)
    c.get("/g/imperial_miners/sheet?players=2")
    csrf = c.cookies.get("cf_csrf")
    huge = "A" * 200_000
    form = {"csrf": csrf, "players[0].name": huge, "players[0].vp": "31", "players[0].coins": "7",
            "players[0].carts": "8", "players[1].name": "Chloé", "players[1].vp": "30", "players[1].coins": "7",
            "players[1].carts": "3"}
    r = c.post("/g/imperial_miners/score", data=form)
    body = r.json()
    assert not body["ok"]
    assert [(p["field"], p["message"]) for p in body["problems"]] == [
        ("players[0].name", "at most 80 characters, got 200,000")]
    r = c.post("/g/imperial_miners/save", data=form, follow_redirects=False)
    assert r.status_code == 422
    assert PlayLog(tmp_path / "plays.db").plays() == []
    # 80 characters are fine
    r = c.post("/g/imperial_miners/save", data={**form, "players[0].name": "A" * 80}, follow_redirects=False)
    assert r.status_code == 303


def test_every_sheet_input_is_bounded_by_the_server(tmp_path):
    """An inline card's name of 200,000 characters (the page allows 80) was scored and would
    have been saved in the play's file: refused beside its input, like a player's name."""
    c = client(tmp_path)
    c.get("/g/maphr/sheet?players=2")
    csrf = c.cookies.get("cf_csrf")
    form = {"csrf": csrf, "players[0].name": "A", "players[0].coins": "1", "players[0].galleries": "12",
            "players[0].miners": "1", "players[0].improvements[0].name": "X" * 200_000,
            "players[0].improvements[0].colour": "red", "players[0].improvements[0].vp": "1",
            "players[1].name": "B", "players[1].coins": "1", "players[1].galleries": "1", "players[1].miners": "1"}
    body = c.post("/g/maphr/score", data=form).json()
    assert not body["ok"]
    assert [(p["field"], p["message"]) for p in body["problems"]] == [
        ("players[0].improvements[0].name", "at most 80 characters, got 200,000")]
    body = c.post("/g/maphr/score", data={**form, "players[0].improvements[0].name": "X" * 80,
                                          "players[1].coins": "1" * 201}).json()
    assert [(p["field"], p["message"]) for p in body["problems"]] == [
        ("players[1].coins", "at most 200 characters, got 201")]
    assert c.post("/g/maphr/save", data=form, follow_redirects=False).status_code == 422
    assert PlayLog(tmp_path / "plays.db").plays() == []


def test_a_long_name_in_the_yaml_sheet_is_refused(tmp_path):
    c = client(tmp_path)
    c.get("/g/imperial_miners/sheet?yaml=1")
    text = "players:\n  - {name: " + "N" * 81 + ", vp: 1, coins: 1, carts: 1}\n  - {name: B, vp: 1, coins: 1, carts: 1}\n"
    body = c.post("/g/imperial_miners/score", data={"csrf": c.cookies.get("cf_csrf"), "yaml": text}).json()
    assert [(p["field"], p["message"]) for p in body["problems"]] == [
        ("players[0].name", "a name is at most 80 characters, got 81")]
