"""`cardforge serve` without a browser: the guard, the sheet's form ↔ final state, the play log."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import sqlite3
import subprocess
import sys
from html import unescape

import pytest
import yaml

from conftest import ROOT
from waiting import PATIENCE, wait_until

pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (pip install -e '.[test]')")

from starlette.testclient import TestClient  # noqa: E402

from cardforge.playlog.store import SCHEMA_VERSION, PlayLog, StoreError  # noqa: E402
from cardforge.problems import Problem  # noqa: E402
from cardforge.web.app import MAX_BODY, Settings, create_app  # noqa: E402
from cardforge.web.forms import Widget, coerce, field_key, unflatten  # noqa: E402


def client(tmp_path, *games, **settings) -> TestClient:
    """A test client of a server with the shipped games and ``games`` (Game objects of folders,
    as `cardforge serve FOLDER` names them)."""
    settings.setdefault("games", [g.folder for g in games])
    app = create_app(Settings(db_path=tmp_path / "plays.db", **settings))
    return TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False)


def csrf_of(c: TestClient, url: str = "/") -> str:
    r = c.get(url)
    assert r.status_code == 200, r.text
    return c.cookies.get("cf_csrf")


_GAME_NUMBERS = itertools.count(1)


@pytest.fixture
def petit_jeu(tmp_path):
    """The data-only game `cardforge new` makes; worked example: Alice 7 + 3+2 = 12, Ben 9 + 3 = 12."""
    from cardforge.games import find_game
    from cardforge.games.scaffold import create_game

    # a game is known by its id for the server's life: each test's folder gets its own
    folder = tmp_path / f"petit-jeu-{next(_GAME_NUMBERS)}"
    create_game(folder, "Petit jeu", lang="fr")
    return find_game(folder)


def pad_form(csrf: str, rows: list[tuple[str, str, str, str]]) -> dict[str, str]:
    form = {"csrf": csrf}
    for i, (name, cartes, objectifs, pieces) in enumerate(rows):
        form.update({f"players[{i}].name": name, f"players[{i}].cartes": cartes,
                     f"players[{i}].objectifs": objectifs, f"players[{i}].pieces": pieces})
    return form


# --- who may connect ---------------------------------------------------------------------------

def test_without_the_token_every_page_is_refused(tmp_path):
    c = client(tmp_path, token="t0ken", local_only=False)
    for url in ("/", "/g/maphr/sheet", "/plays", "/plays.csv", "/static/sheet.js"):
        r = c.get(url)
        assert r.status_code == 403, url
        assert "Access token required" in r.text
    assert c.get("/?token=wrong").status_code == 403
    r = c.get("/g/maphr?token=t0ken", follow_redirects=False)  # the printed address
    assert r.status_code == 303 and r.headers["location"] == "/g/maphr"
    assert "HttpOnly" in r.headers["set-cookie"] and "SameSite=lax" in r.headers["set-cookie"]
    assert c.get("/g/maphr").status_code == 200  # the cookie carries it from now on


def test_pages_load_nothing_from_elsewhere_and_are_never_framed(tmp_path):
    c = client(tmp_path)
    for url in ("/", "/g/maphr/sheet?players=3", "/g/cristaux/setup?players=3&seed=1", "/plays", "/stats"):
        r = c.get(url)
        assert "script-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-frame-options"] == "DENY"
        assert not re.search(r'(src|href)="(https?:)?//', r.text), url  # no CDN: works with no internet
        assert not re.search(r"\son[a-z]+=", r.text), url  # no inline handlers (the policy forbids them)
        assert '<meta name="viewport"' in r.text


def test_on_localhost_a_foreign_host_header_is_refused(tmp_path):
    c = client(tmp_path)
    assert c.get("/").status_code == 200
    assert c.get("/", headers={"host": "evil.example:8000"}).status_code == 403  # DNS rebinding
    assert c.get("/", headers={"host": "localhost:8000"}).status_code == 200


def test_forms_need_their_csrf_token_and_come_from_this_site(tmp_path, petit_jeu):
    c = client(tmp_path, petit_jeu)
    csrf = csrf_of(c, f"/g/{petit_jeu.id}/sheet?name=Alice&name=Ben")
    form = pad_form(csrf, [("Alice", "7", "3+2", "5"), ("Ben", "9", "3", "2")])
    assert c.post(f"/g/{petit_jeu.id}/score", data=form).status_code == 200
    r = c.post(f"/g/{petit_jeu.id}/score", data={**form, "csrf": "forged"})
    assert r.status_code == 403 and "security token" in r.text
    r = c.post(f"/g/{petit_jeu.id}/save", data=form, headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    r = c.post(f"/g/{petit_jeu.id}/save", data=form, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    assert PlayLog(tmp_path / "plays.db").plays() == []  # nothing saved by the refused requests


def test_input_size_limits(tmp_path, petit_jeu):
    c = client(tmp_path, petit_jeu)
    csrf = csrf_of(c)
    r = c.post(f"/g/{petit_jeu.id}/score", data={"csrf": csrf, "yaml": "x" * (MAX_BODY + 10)})
    assert r.status_code == 413
    many = "&".join(f"f{i}=1" for i in range(5000)) + f"&csrf={csrf}"
    r = c.post(f"/g/{petit_jeu.id}/score", content=many,
               headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400 and "3000 fields" in r.text
    r = c.post(f"/g/{petit_jeu.id}/score", content=b"{}", headers={"content-type": "application/json"})
    assert r.status_code == 415


def test_errors_never_show_a_traceback(tmp_path, petit_jeu, monkeypatch):
    from cardforge.web import service

    c = client(tmp_path, petit_jeu)
    csrf = csrf_of(c)

    def broken(*a, **k):
        raise RuntimeError("boom in the engine")

    monkeypatch.setattr(service, "score_form", broken)
    r = c.post(f"/g/{petit_jeu.id}/score", data=pad_form(csrf, [("A", "1", "1", "1"), ("B", "1", "1", "1")]))
    assert r.status_code == 500
    assert "Internal error" in r.text and "Traceback" not in r.text and "boom" not in r.text
    for url in ("/g/nope", "/plays/999", "/plays/abc", "/g/maphr/nothing"):
        r = c.get(url)
        assert r.status_code == 404 and "Traceback" not in r.text
    assert c.get("/g/maphr/save").status_code == 405


# --- the sheet: form ↔ final state ---------------------------------------------------------------

def test_unflatten_and_coerce_keep_sums_and_name_the_blanks():
    """A blank is "not entered", never a silent zero: a required number left blank is 0 in the
    state (the rules can say what else is wrong) and named among the blanks, which the sheet
    refuses beside their inputs."""
    raw = unflatten([("players[1].veins.coal", "4"), ("players[0].name", "Ana"), ("csrf", "x"),
                     ("players[0].cards[1].id", "b"), ("players[0].cards[0].id", "a"),
                     ("players[0].cards[0].paid", "3"), ("weird..name", "1"), ("__proto__[x]", "1")])
    assert raw["players"][1] == {"veins": {"coal": "4"}}
    assert "csrf" in raw and "weird..name" not in raw
    widgets = [Widget("text", "name", "Name", True), Widget("pad", "score", "Score", True),
               Widget("pad", "bonus", "Bonus", False), Widget("int", "coins", "Coins", True),
               Widget("bool", "king", "King", False, default=False),
               Widget("cards", "cards", "Cards", False)]
    blanks: list[str] = []
    state = coerce(widgets, {"name": " Ana ", "score": "3+6+2", "bonus": "", "coins": "",
                             "cards": {1: {"id": "b"}, 0: {"id": "a", "paid": "3"}}}, None, blanks, "players[0].")
    assert blanks == ["players[0].coins"]
    assert state == {"name": "Ana", "score": "3+6+2", "coins": 0, "king": False,
                     "cards": [{"id": "a", "paid": 3}, "b"]}
    assert coerce(widgets, {"score": "12", "coins": "x1"}) == {"score": 12, "coins": "x1", "king": False}
    # a number field of a game with rules takes a sum too: added up (its file holds numbers)
    assert coerce(widgets, {"score": "1", "coins": "40+7"})["coins"] == 47
    assert coerce(widgets, {"score": "1", "coins": "10-3"})["coins"] == 7
    assert coerce(widgets, {"score": "1", "coins": "4.5+1"})["coins"] == "4.5+1"  # refused by the model


def test_problems_go_beside_their_field():
    assert field_key(Problem("bad", field="players[1].coins")) == "players[1].coins"
    assert field_key(Problem("bad", item="player 'Ben' (#2)", field="veins.coal")) == "players[1].veins.coal"
    assert field_key(Problem("bad", item="player #3")) == "players[2]"
    assert field_key(Problem("bad", field="mode")) == "mode"


def test_a_game_with_bad_data_is_listed_with_its_problems(tmp_path, petit_jeu):
    cards = petit_jeu.folder / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("cost: ", "cost: -", 1), encoding="utf-8")
    c = TestClient(create_app(Settings(db_path=tmp_path / "p.db", games=[petit_jeu.folder])),
                   base_url="http://127.0.0.1:8000", raise_server_exceptions=False)
    home = unescape(c.get("/").text)
    assert f"{petit_jeu.id}: its data has problems" in home and "cost: must be ≥ 0" in home
    r = c.get(f"/g/{petit_jeu.id}/sheet")
    assert r.status_code == 422 and "cost: must be ≥ 0" in unescape(r.text) and "Traceback" not in r.text


def test_a_game_edited_while_serving_is_read_again(tmp_path, petit_jeu):
    """A designer serving their own folder adds a score-pad row: the next sheet has it."""
    import os

    c = client(tmp_path, petit_jeu)
    assert "bonus" not in c.get(f"/g/{petit_jeu.id}/sheet?players=2").text
    game_yaml = petit_jeu.folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8").replace(
        "  - {id: objectifs, label: Objectifs, label_en: Objectives}",
        "  - {id: objectifs, label: Objectifs, label_en: Objectives}\n  - {id: bonus, label: Bonus}")
    game_yaml.write_text(text, encoding="utf-8")
    st = game_yaml.stat()
    os.utime(game_yaml, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    assert 'name="players[1].bonus"' in c.get(f"/g/{petit_jeu.id}/sheet?players=2").text


def test_sheet_scores_like_the_cli_and_shows_problems_by_field(tmp_path, petit_jeu, cli):
    c = client(tmp_path, petit_jeu)
    csrf = csrf_of(c, f"/g/{petit_jeu.id}/sheet?name=Alice&name=Ben")
    r = c.post(f"/g/{petit_jeu.id}/score", data=pad_form(csrf, [("Alice", "7", "3+2", "5"), ("Ben", "9", "3", "2")]))
    body = r.json()
    assert body["ok"] and body["problems"] == []
    expected = cli("score", str(petit_jeu.folder), str(petit_jeu.folder / "examples" / "final.yaml"), "--json").json
    assert body["score"] == expected
    assert "Winner: Alice (tie on 12 broken by more coins)" in body["html"]
    # a tie without the tie-breaker: the problem names Ben's 'pieces' input
    r = c.post(f"/g/{petit_jeu.id}/score", data=pad_form(csrf, [("Alice", "7", "3+2", "5"), ("Ben", "9", "3", "")]))
    body = r.json()
    assert not body["ok"] and body["score"] is None
    assert [p["field"] for p in body["problems"]] == ["players[1].pieces"]
    r = c.post(f"/g/{petit_jeu.id}/score", data=pad_form(csrf, [("Alice", "7", "3+", "5"), ("Ben", "9", "3", "2")]))
    problem = r.json()["problems"][0]
    assert problem["field"] == "players[0].objectifs" and "3+6+2" in problem["message"]


def test_the_yaml_sheet_scores_mine_all_mine_like_the_cli(tmp_path, cli):
    c = client(tmp_path)
    r = c.get("/g/mine_all_mine/sheet?players=3&yaml=1")  # any game: the file typed or pasted
    assert r.status_code == 200 and '<textarea name="yaml"' in r.text
    csrf = c.cookies.get("cf_csrf")
    example = ROOT / "card_data" / "mine_all_mine" / "examples" / "final.yaml"
    r = c.post("/g/mine_all_mine/score", data={"csrf": csrf, "yaml": example.read_text(encoding="utf-8")})
    assert r.json()["score"] == cli("score", "mine_all_mine", str(example), "--json").json
    deep = "rounds: " + "{a: " * 5000 + "1" + "}" * 5000  # past libyaml's own limit: cardforge's message
    r = c.post("/g/mine_all_mine/score", data={"csrf": csrf, "yaml": deep})
    assert r.status_code == 200
    assert r.json()["problems"][0]["text"].startswith("final.yaml:1: nested too deep: at most 64 levels")
    r = c.post("/g/mine_all_mine/score", data={"csrf": csrf, "yaml": "rounds:\n  - planets: []\n    fleet: {}\n"})
    problems = r.json()["problems"]
    assert any(p["text"].startswith("final.yaml:3: round #1: fleet: unknown field") for p in problems)


def test_mine_all_mine_rounds_of_planets_and_fleets_score_like_the_cli(tmp_path, cli):
    """The example typed round by round: each planet's three turns, each player's fleet."""
    c = client(tmp_path)
    r = c.get("/g/mine_all_mine/sheet?name=Ana&name=Ben&name=Cy")
    assert "Round 3" in r.text and 'name="rounds[2].fleets[2].cargo"' in r.text
    assert 'name="rounds[0].planets[1].card"' in r.text  # 3 players: a planet, then a moon
    two = c.get("/g/mine_all_mine/sheet?name=Ana&name=Ben").text
    assert 'name="rounds[0].planets[0].card"' in two and 'name="rounds[0].planets[1].card"' not in two
    csrf = c.cookies.get("cf_csrf")
    example = ROOT / "card_data" / "mine_all_mine" / "examples" / "final.yaml"
    state = yaml.safe_load(example.read_text(encoding="utf-8"))
    names = list(state["rounds"][0]["fleets"])
    form = {"csrf": csrf, **{f"players[{i}].name": n for i, n in enumerate(names)}}
    for r_, rnd in enumerate(state["rounds"]):
        for k, planet in enumerate(rnd["planets"]):
            for t, v in enumerate(planet["turns"]):
                form[f"rounds[{r_}].planets[{k}].turns[{t}]"] = str(v)
        for i, n in enumerate(names):
            for key, v in rnd["fleets"][n].items():
                form[f"rounds[{r_}].fleets[{i}].{key}"] = str(v)
    r = c.post("/g/mine_all_mine/score", data=form)
    assert r.json()["score"] == cli("score", "mine_all_mine", str(example), "--json").json
    # a fleet left incomplete: the problem goes to that player's row of that round
    r = c.post("/g/mine_all_mine/score", data={**form, "rounds[1].fleets[1].speed": ""})
    assert [p["field"] for p in r.json()["problems"]] == ["rounds[1].fleets[1]"]
    # a planet card by its number (its faces' resources come from the data)
    r = c.post("/g/mine_all_mine/score", data={**form, "rounds[0].planets[0].card": "9"})
    problems = r.json()["problems"]
    assert problems and problems[0]["field"] == "rounds[0].planets[0].card" and "no planet card 9" in problems[0]["message"]


def test_imperial_miners_grid_counts_carts_like_the_cli(tmp_path, cli):
    """The example's mine, tapped into the grid: half-carts per card, one cart token."""
    c = client(tmp_path)
    csrf = csrf_of(c, "/g/imperial_miners/sheet?name=Aurore&name=Chloé")
    form = {"csrf": csrf, "players[0].name": "Aurore", "players[0].vp": "31", "players[0].coins": "7",
            "players[0].carts": "8", "players[1].name": "Chloé", "players[1].vp": "30", "players[1].coins": "7"}
    for r_, row in enumerate([["R", "L", "R", "LR"], ["R", "", "L", "none", "L"]]):
        for i, st in enumerate(row):
            form[f"players[1].mine[{r_}].cell[{i}]"] = st
    form["players[1].mine[1].token[0]"] = "1"
    r = c.post("/g/imperial_miners/score", data=form)
    example = ROOT / "card_data" / "imperial_miners" / "examples" / "final.yaml"
    assert r.json()["score"] == cli("score", "imperial_miners", str(example), "--json").json


def test_setup_page_deals_the_seeded_game(tmp_path, cli):
    c = client(tmp_path)
    r = c.get("/g/maphr/setup?players=3&seed=7")
    assert r.status_code == 200
    expected = cli("setup", "maphr", "--players", "3", "--seed", "7", "--json").json
    page = unescape(r.text)
    for step in expected["steps"]:
        assert step in page
    assert '<strong id="seed">7</strong>' in r.text
    hand = expected["deal"]["players"][0]["hand"]  # dealt cards are shown by name
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game

    names = {c.id: c.name for c in load_game_data(find_game("maphr")).cards}
    assert all(f'<span title="{card}">' in r.text and names[card] in page for card in hand)
    r = c.get("/g/maphr/setup?players=9")
    assert r.status_code == 200 and "9 given, maphr supports 2–4" in unescape(r.text)
    # a game's options as it declares them: TunHell's short game is a choice of 3, 6 or 9
    expected = cli("setup", "tunhell", "--players", "3", "--seed", "2", "--short", "6", "--json").json
    plain = cli("setup", "tunhell", "--players", "3", "--seed", "2", "--json").json
    page = unescape(c.get("/g/tunhell/setup?players=3&seed=2&short=6").text)
    changed = [s for s in expected["steps"] if s not in plain["steps"]]
    assert changed and all(s in page for s in changed)
    page = unescape(c.get("/g/tunhell/setup?players=3&seed=2&short=5").text)
    assert "short: must be one of 3, 6, 9, got '5'" in page


# --- the play log --------------------------------------------------------------------------------

def test_save_history_export_stats_and_csv(tmp_path, petit_jeu, cli):
    c = client(tmp_path, petit_jeu)
    csrf = csrf_of(c, f"/g/{petit_jeu.id}/sheet?name=Alice&name=Ben")
    games = [[("Alice", "7", "3+2", "5"), ("Ben", "9", "3", "2")],  # 12-12, Alice on coins
             [("Alice", "1", "1", "0"), ("Ben", "10", "0", "0")]]  # Ben 10 to 2
    ids = []
    for rows in games:
        r = c.post(f"/g/{petit_jeu.id}/save", data={**pad_form(csrf, rows), "note": "au café"}, follow_redirects=False)
        assert r.status_code == 303
        ids.append(int(r.headers["location"].rsplit("/", 1)[1]))
    history = c.get("/plays").text
    assert all(f'href="/plays/{i}"' in history for i in ids)
    exported = tmp_path / "first.yaml"
    r = c.get(f"/plays/{ids[0]}.yaml")
    assert "attachment" in r.headers["content-disposition"]
    exported.write_bytes(r.content)
    assert yaml.safe_load(r.text)["players"][0]["objectifs"] == "3+2"  # the sum as typed
    expected = cli("score", str(petit_jeu.folder), str(petit_jeu.folder / "examples" / "final.yaml"), "--json").json
    assert cli("score", str(petit_jeu.folder), str(exported), "--json").json == expected
    from cardforge.playlog.stats import game_stats

    log = PlayLog(tmp_path / "plays.db")
    roster = {p["id"]: p for p in log.players()}
    g = game_stats(petit_jeu.id, "Petit jeu", log.records(petit_jeu.id), roster)
    stats = {p.name: p for p in g.players}
    assert stats["Alice"].plays == 2 and stats["Alice"].wins == 1 and stats["Ben"].wins == 1
    assert stats["Alice"].average == (12 + 2) / 2 and stats["Ben"].average == (12 + 10) / 2
    assert stats["Alice"].category_average("cartes") == 4.0  # (7 + 1) / 2
    assert stats["Alice"].category_average("objectifs") == 3.0  # (5 + 1) / 2
    assert '<option value="Alice">' in c.get(f"/g/{petit_jeu.id}").text  # names offered for the next game
    page = c.get(f"/stats?game={petit_jeu.id}").text
    assert "Alice" in page and ">11<" in page  # Ben's average total
    rows = list(csv.DictReader(io.StringIO(c.get("/plays.csv").text)))
    assert [(r["play"], r["player"], r["total"], r["objectifs"], r["winner"]) for r in rows] == [
        (str(ids[0]), "Alice", "12", "5", "1"), (str(ids[0]), "Ben", "12", "3", "0"),
        (str(ids[1]), "Alice", "2", "1", "0"), (str(ids[1]), "Ben", "10", "0", "1")]
    assert rows[0]["note"] == "au café"
    # a play deleted (a POST with its form's token) leaves the history and the stats; undo brings it back
    r = c.post(f"/plays/{ids[1]}/delete", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/plays?undo={ids[1]}"
    assert f'href="/plays/{ids[1]}"' not in c.get("/plays").text
    assert "deleted" in c.get(f"/plays/{ids[1]}").text
    assert [p.name for p in game_stats(petit_jeu.id, "", log.records(petit_jeu.id), roster).players
            if p.plays == 1] == ["Alice", "Ben"]
    assert c.post(f"/plays/{ids[0]}/delete", data={"csrf": "x"}).status_code == 403


def test_csv_cells_are_never_formulas(tmp_path):
    log = PlayLog(tmp_path / "p.db")
    result = {"categories": ["a"], "players": [{"name": "=HYPERLINK(1)", "total": -2, "rank": 1,
                                                "breakdown": {"a": -2}}], "winners": ["=HYPERLINK(1)"]}
    log.add_play(game="g", title="G", mode=None, state_yaml="", result=result, note="@note")
    row = list(csv.DictReader(io.StringIO(log.csv())))[0]
    assert row["player"] == "'=HYPERLINK(1)" and row["note"] == "'@note" and row["total"] == "-2"


def test_a_bad_sheet_is_not_saved_and_comes_back_with_its_values(tmp_path, petit_jeu):
    c = client(tmp_path, petit_jeu)
    csrf = csrf_of(c, f"/g/{petit_jeu.id}/sheet?name=Alice&name=Ben")
    r = c.post(f"/g/{petit_jeu.id}/save", data=pad_form(csrf, [("Alice", "7", "3+", "5"), ("Ben", "9", "3", "2")]))
    assert r.status_code == 422
    assert 'value="3+"' in r.text and "3+6+2" in unescape(r.text)
    assert PlayLog(tmp_path / "plays.db").plays() == []


def test_migrations_from_an_older_log_and_a_newer_log_refused(tmp_path):
    path = tmp_path / "old.db"
    log = PlayLog.__new__(PlayLog)
    log.path = path
    log.migrate(upto=1)  # a play log written by the first schema
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO plays (game, title, played_at, state_yaml, result_json, cardforge_version)"
                   " VALUES ('maphr', 'Maphr', '2026-01-01T00:00:00Z', 'players: []', '{}', '0.1.0')")
    assert PlayLog(path).version() == SCHEMA_VERSION
    play = PlayLog(path).play(1)
    assert play["note"] == "" and play["game"] == "maphr"  # kept, with the new column
    with sqlite3.connect(path) as db:
        db.execute("UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError, match="newer cardforge"):
        PlayLog(path)
    (tmp_path / "junk.db").write_bytes(b"not a database" * 100)
    with pytest.raises(StoreError, match="cannot open"):
        PlayLog(tmp_path / "junk.db")


def test_a_failed_write_leaves_nothing_half_saved(tmp_path):
    log = PlayLog(tmp_path / "p.db")
    good = {"players": [{"name": "A", "total": 3, "rank": 1, "breakdown": {"x": 3}}], "winners": ["A"]}
    bad = {"players": [{"name": "A", "total": 3, "rank": 1, "breakdown": {"x": 3}}, {"name": "B"}], "winners": []}
    log.add_play(game="g", title="G", mode=None, state_yaml="", result=good)
    with pytest.raises(KeyError):
        log.add_play(game="g", title="G", mode=None, state_yaml="", result=bad)
    assert len(log.plays()) == 1
    with sqlite3.connect(tmp_path / "p.db") as db:
        assert db.execute("SELECT COUNT(*) FROM scores").fetchone()[0] == 1


def test_a_page_gone_while_it_posts_is_no_internal_error(tmp_path, caplog):
    """A save tapped (or the tab closed) while the sheet's live update was being posted: the
    browser drops that request mid-body. Seen under load: "internal error" and a traceback in the
    server's log. Now a 400, logged as nothing."""
    import asyncio
    import logging

    app = create_app(Settings(db_path=tmp_path / "p.db"))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/g/maphr/score", "raw_path": b"/g/maphr/score", "root_path": "", "query_string": b"",
             "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 50000),
             "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/x-www-form-urlencoded"),
                         (b"content-length", b"40"), (b"cookie", b"cf_csrf=x")]}
    sent: list = []

    async def receive():
        return {"type": "http.disconnect"}  # gone before the first byte of the body

    async def send(message):
        sent.append(message)

    with caplog.at_level(logging.DEBUG):
        asyncio.run(app(scope, receive, send))
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 400
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_killed_writer_leaves_a_sound_log(tmp_path):
    """A server killed (SIGKILL) while saving plays: the log opens, passes SQLite's integrity
    check, and every play it holds is whole (its players and their categories)."""
    path = tmp_path / "k.db"
    PlayLog(path)
    code = (
        "import sys\nfrom cardforge.playlog.store import PlayLog\n"
        f"log = PlayLog({str(path)!r})\n"
        "r = {'players': [{'name': n, 'total': 5, 'rank': 1, 'breakdown': {'a': 2, 'b': 3}} for n in 'ABCD'],"
        " 'winners': ['A']}\n"
        "print('ready', flush=True)\n"
        "while True:\n    log.add_play(game='g', title='G', mode=None, state_yaml='x' * 5000, result=r)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        with sqlite3.connect(path) as db:  # wait until some plays are in
            wait_until(lambda: db.execute("SELECT COUNT(*) FROM plays").fetchone()[0] >= 3, "three plays saved")
    finally:
        proc.kill()
        proc.wait()
    log = PlayLog(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        plays = db.execute("SELECT COUNT(*) FROM plays").fetchone()[0]
        assert plays >= 3
        assert db.execute("SELECT COUNT(*) FROM scores").fetchone()[0] == 4 * plays
        assert db.execute("SELECT COUNT(*) FROM category_scores").fetchone()[0] == 8 * plays
    assert len(log.plays(limit=10_000)) == plays


# --- the command -----------------------------------------------------------------------------------

def test_serve_is_a_command_with_help(cli):
    r = cli("--help")
    assert "serve" in r.out
    r = cli("serve", "--help")
    assert r.code == 0 and "--host" in r.out and "--db" in r.out and "token" in r.out


def test_ci_installs_the_browser_for_the_browser_tests():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"apt-get install -y -q chromium chromium-driver", ci)


def test_home_lists_the_games_and_the_sheet_asks_each_games_own_fields(tmp_path):
    c = client(tmp_path)
    home = c.get("/").text
    for title in ("Les Mines de Maphr", "TunHell", "Imperial Miners"):
        assert title in unescape(home)
    sheet = c.get("/g/maphr/sheet?name=Ana&name=Ben").text
    assert 'name="players[1].veins.mithril"' in sheet and "data-cards=\"improvements\"" in sheet
    assert '<option value="irongradd"' in sheet  # the clans of the data
    sheet = c.get("/g/cristaux/sheet?players=2").text
    assert 'name="players[0].stock.gold"' in sheet and 'name="mode"' in sheet
    assert "choices" not in sheet  # natures, bâtons, bonuses and the forge are left to the best
    cards = json.loads(unescape(re.search(r'id="cards-json">(.*?)</script>', sheet, re.S).group(1)))
    warhammers = [c["name"] for c in cards["cards"] if c["id"].startswith("warhammer-")]
    assert len(set(warhammers)) == len(warhammers)  # the two sides of a gift are told apart


def test_only_the_web_layer_imports_the_web_framework():
    """web/ (and studio/) sit beside cli/: nothing below imports Starlette, and `cardforge --help`
    stays light."""
    pkg = ROOT / "cardforge"
    for path in pkg.rglob("*.py"):
        rel = path.relative_to(pkg).as_posix()
        text = path.read_text(encoding="utf-8")
        if re.search(r"^\s*(from|import) (starlette|uvicorn)\b", text, re.M):
            assert rel.startswith(("web/", "studio/")) or rel in ("cli/serve.py", "cli/studio.py"), rel
        if rel.startswith(("web/", "studio/")):
            assert not re.search(r"^\s*(from|import) click\b", text, re.M), rel
    code = ("import sys; from cardforge.cli import main; main(['--help']); "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'segno', 'sqlite3') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


class FormValues:
    """What a browser would post for the page's sheet (inputs, checked boxes, selects, textareas)."""

    def __init__(self, html: str):
        from html.parser import HTMLParser

        pairs: list[tuple[str, str]] = []
        state: dict = {"select": None, "chosen": None, "first": None, "textarea": None, "text": ""}

        class P(HTMLParser):
            def handle_starttag(self, tag, attrs):
                a = dict(attrs)
                name = a.get("name")
                if tag == "input" and name:
                    if a.get("type") == "checkbox" and "checked" not in a:
                        return
                    pairs.append((name, a.get("value") or ""))
                elif tag == "select" and name:
                    state.update(select=name, chosen=None, first=None)
                elif tag == "option" and state["select"]:
                    if state["first"] is None:
                        state["first"] = a.get("value", "")
                    if "selected" in a:
                        state["chosen"] = a.get("value", "")
                elif tag == "textarea" and name:
                    state.update(textarea=name, text="")

            def handle_endtag(self, tag):
                if tag == "select" and state["select"]:
                    chosen = state["chosen"] if state["chosen"] is not None else state["first"]
                    pairs.append((state["select"], chosen or ""))
                    state["select"] = None
                elif tag == "textarea" and state["textarea"]:
                    pairs.append((state["textarea"], state["text"]))
                    state["textarea"] = None

            def handle_data(self, data):
                if state["textarea"]:
                    state["text"] += data

        P(convert_charrefs=True).feed(html)
        self.pairs = pairs


@pytest.mark.parametrize("game", ["maphr", "cristaux", "imperial_miners", "mine_all_mine", "tunhell"])
def test_a_saved_play_reopened_in_the_sheet_scores_the_same(tmp_path, game, cli):
    """Every shipped example saved (from its YAML), opened in that game's sheet: the inputs the
    page holds, posted back as a browser would, score as the CLI scores the example."""
    c = client(tmp_path)
    csrf = csrf_of(c, f"/g/{game}/sheet?yaml=1")
    example = ROOT / "card_data" / game / "examples" / "final.yaml"
    r = c.post(f"/g/{game}/save", data={"csrf": csrf, "yaml": example.read_text(encoding="utf-8")},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    play_id = r.headers["location"].rsplit("/", 1)[1]
    page = c.get(f"/g/{game}/sheet?play={play_id}").text
    assert '<textarea name="yaml"' not in page  # the game's own sheet, not the YAML box
    from urllib.parse import urlencode

    pairs = FormValues(page).pairs
    r = c.post(f"/g/{game}/score", content=urlencode(pairs),
               headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.json()["problems"] == []
    assert r.json()["score"] == cli("score", game, str(example), "--json").json


def test_serve_on_a_port_in_use_says_so(cli, tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = cli("serve", "--port", str(port), "--db", str(tmp_path / "p.db"))
    assert r.code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in r.err and "Traceback" not in r.err


@pytest.mark.slow
def test_serve_for_phones_prints_the_tokened_address_and_a_qr_code(tmp_path):
    """`cardforge serve --host 0.0.0.0`, as run at the table: the address carries a random token,
    a QR code of it follows, requests without it are refused and with it served."""
    import os
    import signal
    import socket
    import urllib.error
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "CARDFORGE_CONFIG": str(tmp_path / "config")}
    proc = subprocess.Popen([sys.executable, "-m", "cardforge", "serve", "--host", "0.0.0.0", "--port", str(port),
                             "--db", str(tmp_path / "p.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        url = re.search(r"open (http://\S+)", lines[1]).group(1)
        token = re.search(r"\?token=([\w-]{20,})$", url).group(1)
        assert lines[2] == f"new access token kept in {tmp_path / 'config' / 'serve-token'} (phones with an older link must scan again)\n"
        assert (tmp_path / "config" / "serve-token").read_text() == token + "\n"
        qr = proc.stdout.readline()
        assert "█" in qr or "▀" in qr  # the QR code, in the terminal
        local = f"http://127.0.0.1:{port}/"
        def refused() -> bool:  # the server is listening once the address is printed; wait for it to answer
            try:
                urllib.request.urlopen(local)
            except urllib.error.HTTPError as exc:
                assert exc.code == 403
                return True
            except OSError:
                return False
            raise AssertionError("served without the token")

        wait_until(refused, "the server's answer")
        import http.cookiejar

        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with browser.open(f"{local}?token={token}") as r:  # followed to / with the cookie it sets
            assert r.status == 200 and "Les Mines de Maphr" in r.read().decode()
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=PATIENCE)
    assert proc.returncode == 0 and "Traceback" not in err, err


_FUZZ_CLIENTS: dict = {}


@pytest.mark.parametrize("game", ["maphr", "cristaux", "mine_all_mine", "imperial_miners", "tunhell"])
@pytest.mark.slow
def test_any_sheet_input_gets_an_answer_never_an_error_page(game, tmp_path_factory):
    """Whatever is typed into a sheet's inputs (or sent under its names), the server answers
    with problems or a score: never a 500."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    c = client(tmp_path_factory.mktemp("fuzz"))
    page = c.get(f"/g/{game}/sheet?name=Ana&name=Ben&name=Cy").text
    csrf = c.cookies.get("cf_csrf")
    names = sorted(set(re.findall(r'name="([^"]+)"', page)) - {"csrf", "note", "name"})
    names += ["players[0].cards[0].id", "players[0].cards[0].paid", "players[1].improvements[0].name",
              "players[1].improvements[0].vp", "rounds[0].planets[0].card", "players[7].x", "rounds[99].fleets[0].speed"]
    values = st.one_of(st.sampled_from(["", "0", "3", "-1", "3+2", "1e9", "99999999999", "abc", "true", "LR",
                                        "none", "etayage", "calice-ardent", "Ana", "Ben"]),
                       st.text(max_size=30))

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.tuples(st.sampled_from(names), values), max_size=25))
    def post(pairs):
        from urllib.parse import urlencode

        r = c.post(f"/g/{game}/score", content=urlencode([("csrf", csrf), *pairs]),
                   headers={"content-type": "application/x-www-form-urlencoded"})
        assert r.status_code == 200, r.text[:300]
        body = r.json()
        assert body["ok"] or body["problems"]

    post()


def test_a_yaml_sheet_of_a_game_without_scoring_is_a_clean_problem(tmp_path):
    """As the form sheet: no final-state model, no scoring — said, not an internal error."""
    from types import SimpleNamespace

    from cardforge.web import service

    game = SimpleNamespace(id="no_scoring", score_model=None)
    ctx = service.GameContext(game, None, None)  # type: ignore[arg-type]
    for outcome in (service.score_yaml(ctx, "players: [{name: Ann}]\n"),
                    service.score_state_dict(ctx, {"players": [{"name": "Ann"}]})):
        assert not outcome.ok
        assert [p.message for p in outcome.problems] == ["no_scoring has no scoring"]


def test_impossible_end_states_are_shown_on_their_inputs(tmp_path):
    """Issue 38's refusals reach the sheet with the input they concern (the YAML sheet posts the
    vectors' files; the form sheet has those inputs)."""
    from vectors_support import vector
    c = client(tmp_path)
    cases = [("maphr", "issue-38-more-coins-than-the-box", "players[0].coins"),
             ("cristaux", "issue-38-a-geode-s-colour-left-beyond-its-forge-squares", "players[0].stock.red")]
    for game, case, field in cases:
        csrf = csrf_of(c, f"/g/{game}/sheet?players=3&yaml=1")
        r = c.post(f"/g/{game}/score", data={"csrf": csrf, "yaml": vector(game, case)["file"]})
        assert r.json()["problems"][0]["field"] == field
        assert f'name="{field}"' in c.get(f"/g/{game}/sheet?name=Ana&name=Ben&name=Cy").text, game
    # Mine, All Mine!: the ship cards are typed in the YAML sheet; on the form sheet a problem of
    # a fleet's cards goes to that player's row of that round (its input names: the row's)
    csrf = csrf_of(c, "/g/mine_all_mine/sheet?players=4&yaml=1")
    r = c.post("/g/mine_all_mine/score",
               data={"csrf": csrf, "yaml": vector("mine_all_mine", "issue-38-a-ship-card-in-a-hand-it-cannot-be-in")["file"]})
    problem = r.json()["problems"][0]
    assert problem["field"] == "rounds[1].fleets.Ana.ships[0].card"
    located = Problem(problem["message"], item="round #2", field="fleets.Ana.ships[0].card")
    assert field_key(located, ["Ana", "Ben", "Cy", "Dan"], ("fleets",)) == "rounds[1].fleets[0].ships[0].card"
    page = c.get("/g/mine_all_mine/sheet?name=Ana&name=Ben&name=Cy&name=Dan").text
    assert 'name="rounds[1].fleets[0].speed"' in page
