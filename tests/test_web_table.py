"""Issue 40, a table you can trust, on the server's side: the access token kept across restarts,
seats added, removed and moved, no silent defaults (the mode, blanks, dates in the future) and
TunHell's counters. The browser's side (pickers, drafts, layouts) is tests/test_web_browser_table.py."""

from __future__ import annotations

import os
import re
import stat
from datetime import date, timedelta
from html import unescape
from urllib.parse import urlencode

import pytest
from starlette.testclient import TestClient

from cardforge.web.access import TOKEN_FILE, serve_token
from cardforge.web.app import Settings, create_app
from cardforge.web.sheet import move_seat


def client(tmp_path, **settings) -> TestClient:
    app = create_app(Settings(db_path=tmp_path / "plays.db", **settings))
    return TestClient(app, base_url="http://127.0.0.1:8000", raise_server_exceptions=False)


def csrf_of(c: TestClient, url: str) -> str:
    r = c.get(url)
    assert r.status_code == 200, r.text
    return c.cookies.get("cf_csrf")


# --- the token: one per user, kept ---------------------------------------------------------------

def test_the_token_is_kept_across_restarts_and_changes_only_on_request(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDFORGE_CONFIG", str(tmp_path / "config"))
    path = tmp_path / "config" / TOKEN_FILE
    first, said = serve_token()
    assert said == f"new access token kept in {path} (phones with an older link must scan again)"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_text() == first + "\n"
    again, said = serve_token()  # the server started again
    assert again == first and said.startswith(f"access token kept in {path}")
    rotated, _ = serve_token(rotate=True)
    assert rotated != first and serve_token()[0] == rotated


def test_a_token_file_others_can_read_or_a_link_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDFORGE_CONFIG", str(tmp_path / "config"))
    path = tmp_path / "config" / TOKEN_FILE
    kept, _ = serve_token()
    os.chmod(path, 0o644)
    token, said = serve_token()
    assert token != kept and said == (f"{path}: the access token's file is another user's, or others can read it "
                                      "(remove it); a token for this run only")
    path.unlink()
    (tmp_path / "elsewhere").write_text("x" * 30)
    path.symlink_to(tmp_path / "elsewhere")
    token, said = serve_token()
    assert token != "x" * 30 and "a symbolic link is refused" in said


def test_a_phone_with_an_older_token_gets_a_page_that_says_so(tmp_path):
    c = client(tmp_path, token="new-t0ken-0123456789", local_only=False)
    c.cookies.set("cf_access", "old-t0ken-0123456789")
    r = c.get("/g/maphr/sheet")
    assert r.status_code == 403 and "This link has expired" in r.text
    assert "Scan the QR code" in unescape(r.text)
    assert 'cf_access=""' in r.headers["set-cookie"]  # the old one is dropped: the next scan sets the new
    assert "Access token required" in client(tmp_path, token="new-t0ken-0123456789", local_only=False).get("/").text


# --- seats ---------------------------------------------------------------------------------------

def test_seat_operations_move_their_players_and_the_first_player_follows():
    ana, ben, cy = {"name": "Ana", "coins": 3}, {"name": "Ben"}, {"name": "Cy"}
    assert move_seat([ana, ben, cy], "up:1", 0, 4) == ([ben, ana, cy], 1)
    assert move_seat([ana, ben, cy], "down:2", 2, 4) == ([ana, ben, cy], 2)  # the last seat stays last
    assert move_seat([ana, ben, cy], "remove:0", 1, 4) == ([ben, cy], 0)
    assert move_seat([ana, ben, cy], "remove:0", 0, 4) == ([ben, cy], None)  # the first player left
    assert move_seat([ana, ben, cy], "add", None, 4) == ([ana, ben, cy, {"name": "Player 4"}], None)
    assert move_seat([ana, ben, cy], "add", None, 3)[0] == [ana, ben, cy]  # the game's most players
    assert move_seat([ana], "remove:0", None, 4)[0] == [ana]  # never no one
    assert move_seat([ana, ben], "up:x", None, 4)[0] == [ana, ben]


def post(c: TestClient, url: str, pairs: list[tuple[str, str]]):
    return c.post(url, content=urlencode(pairs), headers={"content-type": "application/x-www-form-urlencoded"})


def _maphr_form(csrf: str, players: list[tuple[str, str]]) -> list[tuple[str, str]]:
    form = [("csrf", csrf), ("request_key", "k3y-of-this-sheet")]
    for i, (name, coins) in enumerate(players):
        form += [(f"players[{i}].name", name), (f"players[{i}].coins", coins)]
    return form


def test_a_seat_moved_on_the_sheet_keeps_what_was_typed_and_the_forms_key(tmp_path):
    c = client(tmp_path)
    csrf = csrf_of(c, "/g/maphr/sheet?name=Ana&name=Ben")
    r = post(c, "/g/maphr/sheet", _maphr_form(csrf, [("Ana", "7"), ("Ben", "4")]) + [("seat", "up:1")])
    assert r.status_code == 200
    page = r.text
    assert page.index('value="Ben"') < page.index('value="Ana"')
    assert re.search(r'<input name="players\[0\]\.coins"[^>]* value="4"', page)  # Ben's coins, with Ben
    assert re.search(r'<input name="players\[1\]\.coins"[^>]* value="7"', page)
    assert 'name="request_key" value="k3y-of-this-sheet"' in page  # a save sent twice is still one play
    assert 'data-redrawn="1"' in page
    r = post(c, "/g/maphr/sheet", _maphr_form(csrf, [("Ana", "7"), ("Ben", "4")]) + [("seat", "add")])
    assert 'name="players[2].name" value="Player 3"' in r.text
    r = post(c, "/g/maphr/sheet", _maphr_form(csrf, [("Ana", "7"), ("Ben", "4")]) + [("seat", "remove:0")])
    assert 'value="Ana"' not in r.text and 'name="players[0].name" value="Ben"' in r.text


def test_the_sheet_offers_seat_controls_and_marks_the_first_player(tmp_path):
    c = client(tmp_path)
    page = c.get("/g/maphr/sheet?name=Ana&name=Ben&first=2").text
    assert 'value="up:1"' in page and 'value="remove:0"' in page and 'value="add"' in page
    assert page.count('class="first-seat"') == 1
    assert page.index('class="first-seat"') > page.index('value="Ben"')
    assert 'value="add"' not in c.get("/g/maphr/sheet?players=4").text  # Maphr: 4 players at most
    assert 'name="seat"' not in c.get("/g/mine_all_mine/sheet?name=Ana&name=Ben").text  # a game of rounds


# --- no silent defaults --------------------------------------------------------------------------

def test_a_game_of_modes_is_scored_only_once_its_mode_is_chosen(tmp_path):
    c = client(tmp_path)
    page = c.get("/g/tunhell/sheet?name=Ana&name=Ben").text
    assert '<option value="" selected>choose…</option>' in page
    assert '<option value="full" selected' not in page.replace("  ", " ")
    csrf = c.cookies.get("cf_csrf")
    form = {"csrf": csrf, "players[0].name": "Ana", "players[1].name": "Ben", "partial": "1",
            "players[0].loot.terre": "2"}
    body = c.post("/g/tunhell/score", data=form).json()
    assert not body["ok"] and {"field": "mode", "message": "not chosen yet: Partie complète, Partie d'initiation",
                               "text": "mode: not chosen yet: Partie complète, Partie d'initiation",
                               "severity": "error"} in body["problems"]
    assert "Winner" not in body["html"]
    body = c.post("/g/tunhell/score", data={**form, "mode": "full"}).json()
    assert body["ok"], body["problems"]


def test_the_game_page_brings_the_last_plays_mode_and_says_so(tmp_path):
    c = client(tmp_path)
    page = c.get("/g/cristaux").text
    assert '<option value="" disabled selected>choose…</option>' in page and "mode-remembered" not in page
    csrf = c.cookies.get("cf_csrf")
    yaml_text = (tmp_path / "final.yaml")
    from conftest import ROOT

    example = (ROOT / "card_data" / "cristaux" / "examples" / "final.yaml").read_text(encoding="utf-8")
    r = c.post("/g/cristaux/save", data={"csrf": csrf, "yaml": example}, follow_redirects=False)
    assert r.status_code == 303, r.text
    mode = next(line.split(":", 1)[1].strip() for line in example.splitlines() if line.startswith("mode:"))
    page = c.get("/g/cristaux").text
    assert f'<option value="{mode}" selected' in page and "Mode as in the last play of" in page
    del yaml_text


def test_a_blank_number_is_not_entered_and_blocks_the_result(tmp_path):
    c = client(tmp_path)
    csrf = csrf_of(c, "/g/imperial_miners/sheet?name=Aurore&name=Chlo%C3%A9")
    body = c.post("/g/imperial_miners/score", data={"csrf": csrf, "players[0].name": "Aurore",
                                                    "players[1].name": "Chloé", "players[0].vp": "12",
                                                    "players[0].coins": "3", "players[1].vp": "9"}).json()
    assert not body["ok"] and "Winner" not in body["html"]
    assert {"field": "players[1].coins", "message": "not entered yet"} in [
        {k: p[k] for k in ("field", "message")} for p in body["problems"]]


@pytest.mark.parametrize("days, refused", [(0, False), (1, False), (2, True), (400, True)])
def test_a_date_in_the_future_needs_to_be_confirmed(tmp_path, days, refused):
    from cardforge.playlog.store import details_from_form, unconfirmed_date

    day = (date.today() + timedelta(days=days)).isoformat()
    details, problems = details_from_form([("play_date", day)], 2)
    assert problems == []  # a date (a file of plays imported keeps its dates)
    said = [p.message for p in unconfirmed_date(details, [("play_date", day)]) if p.field == "play_date"]
    assert said == ([f"{day} is in the future (today is {date.today().isoformat()}): correct it, or tick "
                     "“this date is right”"] if refused else [])
    assert unconfirmed_date(details, [("play_date", day), ("play_date_confirm", "1")]) == []


def test_a_save_dated_next_year_is_refused_until_confirmed(tmp_path):
    from conftest import ROOT

    c = client(tmp_path)
    csrf = csrf_of(c, "/g/maphr/sheet?yaml=1")
    example = (ROOT / "card_data" / "maphr" / "examples" / "final.yaml").read_text(encoding="utf-8")
    day = (date.today() + timedelta(days=365)).isoformat()
    r = c.post("/g/maphr/save", data={"csrf": csrf, "yaml": example, "play_date": day}, follow_redirects=False)
    assert r.status_code == 422 and "is in the future" in unescape(r.text)
    assert '<label class="check" id="date-confirm">' in r.text  # the box to tick, shown
    r = c.post("/g/maphr/save", data={"csrf": csrf, "yaml": example, "play_date": day, "play_date_confirm": "1"},
               follow_redirects=False)
    assert r.status_code == 303


# --- TunHell's counters --------------------------------------------------------------------------

def test_tunhells_sheet_offers_no_counter_the_rules_refuse(tmp_path):
    """La Porte de derrière is set before a mine, never looted: its own checkbox, no loot counter
    (a counter there was refused whatever was typed)."""
    c = client(tmp_path)
    page = c.get("/g/tunhell/sheet?name=Ana&name=Ben&mode=full").text
    assert 'name="players[0].back_door"' in page
    assert "loot.porte-de-derriere" not in page
    assert 'name="players[0].loot.salle-du-trone"' in page  # the other end-of-mine cards are looted


# --- refusals in the sheet's words ---------------------------------------------------------------

def _messages(body: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p in body["problems"]:
        out.setdefault(p["field"], []).append(p["message"])
    return out


def test_a_refusal_on_the_sheet_names_the_sheets_inputs_and_the_file_keeps_its_words(tmp_path):
    c = client(tmp_path)
    csrf = csrf_of(c, "/g/tunhell/sheet?name=Ana&name=Ben")
    form = {"csrf": csrf, "players[0].name": "Ana", "players[1].name": "Ben", "mode": "full",
            "players[0].loot.terre": "2"}
    said = _messages(c.post("/g/tunhell/score", data=form).json())["players"]
    assert said == ["a full game ends when 2 of the 3 mines are empty, each emptied on its end-of-mine card, "
                    "so exactly 2 end-of-mine cards are with the players; found: none (la Porte de derrière "
                    "counts through “Back door”); tick “Partial” to score a game before its end"]
    # the same state as a file (the sheet's YAML box, as `cardforge score`): the file's words
    yaml_text = "mode: full\nplayers:\n  - name: Ana\n    loot: {terre: 2}\n  - name: Ben\n"
    said = _messages(c.post("/g/tunhell/score", data={"csrf": csrf, "yaml": yaml_text}).json())["players"]
    assert said == ["a full game ends when 2 of the 3 mines are empty, each emptied on its end-of-mine card, "
                    "so exactly 2 end-of-mine cards are with the players; found: none (la Porte de derrière "
                    "counts through back_door:); write partial: true to score a game before its end"]


def test_maphr_and_cristaux_refusals_say_what_to_tick(tmp_path):
    c = client(tmp_path)
    csrf = csrf_of(c, "/g/maphr/sheet?name=Ana&name=Ben")
    form = {"csrf": csrf, "players[0].name": "Ana", "players[1].name": "Ben",
            "players[0].clan": "irongradd", "players[1].clan": "pic-ardent"}
    for key in ("coins", "galleries", "veins.coal", "veins.gold", "veins.mithril", "miners"):
        form[f"players[0].{key}"], form[f"players[1].{key}"] = "0", "0"
    said = _messages(c.post("/g/maphr/score", data=form).json())["galleries"]
    assert said == ["nobody reached the galleries required (Ana 0/12, Ben 0/12): the game ends when a player "
                    "does; tick “Partial” to score a game before its end"]
    form = {"csrf": csrf, "mode": "classique", "players[0].name": "Ana", "players[1].name": "Ben",
            "players[0].king": "1", "players[1].king": "1"}
    said = _messages(c.post("/g/cristaux/score", data=form).json())
    assert said["players"] == ["exactly one player holds the ♚ (“King” ticked), got Ana and Ben"]
    assert said["players[0].cards"] == [
        "missing the Warhammer every player starts with («Chaque joueur se munit des cadeaux au roi : 1 carte "
        "Warhammer»): list the side it ends on (Warhammer (grandes familles) or Warhammer (forges)), or tick "
        "“Partial” for a hand that is not a whole game"]


@pytest.mark.parametrize("game, message, sheet_words", [
    ("tunhell", "missing: write mode: full or mode: initiation (nothing tells which)",
     "missing: choose “Partie complète” or “Partie d'initiation” under “Mode” (nothing tells which)"),
    ("tunhell", "'biere-du-courage' (La Bière du Courage) joins the hand, never the loot: list it under hand:",
     "La Bière du Courage joins the hand, never the loot: list it under “Hand”"),
    ("tunhell", "'porte-de-derriere' (La Porte de derrière) is set before a mine, not in the loot: write "
     "back_door: true", "La Porte de derrière is set before a mine, not in the loot: tick “Back door”"),
    ("tunhell", "tied for Dératiseur and none of them names it: write deratiseur under trophies: of the one "
     "who holds it", "tied for Dératiseur and none of them names it: pick Dératiseur under “Trophies” of the one "
     "who holds it"),
    ("cristaux", "Opale bonuses need a game played façon Opale: write opale: true at the top of the file",
     "Opale bonuses need a game played façon Opale: tick “Opale”"),
    ("maphr", "several players reached their requirement (x); set first_to_finish: true on the one who got there "
     "first", "several players reached their requirement (x); tick “First to finish” on the one who got there first"),
    ("maphr", "'Étayage' is red with 2 VP in the deck (card 'etayage'), not blue with 1 VP: write etayage, or give "
     "the card you built its own name", "'Étayage' is red with 2 VP in the deck (card 'Étayage'), not blue with 1 "
     "VP: pick Étayage, or give the card you built its own name"),
    ("mine_all_mine", "missing: which end of planet card 3's day face (Thalassa) was up — write end: low (2, 1: 3 "
     "resources) or end: high (4, 2: 6 resources); the cards are turned at random",
     "missing: which end of planet card 3's day face (Thalassa) was up — choose “low” (2, 1: 3 resources) or "
     "“high” (4, 2: 6 resources) under “End”; the cards are turned at random"),
    # a field the sheet does not have is left as the rules said it
    ("maphr", "write end: low or end: high", "write end: low or end: high"),
])
def test_the_rules_messages_in_the_sheets_words(game, message, sheet_words):
    """The rules' own messages (grep "write " in cardforge/games/), as the sheet shows them."""
    from cardforge.problems import Problem
    from cardforge.web.service import Served, context, named_problems

    assert [p.message for p in named_problems(context(Served(game)), [Problem(message)])] == [sheet_words]


def test_the_game_page_offers_more_boxes_up_to_the_games_most_and_a_first_player(tmp_path):
    c = client(tmp_path)
    page = c.get("/g/cristaux").text
    assert '<fieldset class="names" data-most="5">' in page  # the script adds boxes up to 5
    assert '<button type="button" class="secondary" id="add-name" hidden>+ another player</button>' in page
    assert '<select name="first"><option value="">—</option></select>' in page
    assert page.count('<div class="name-row"><span class="seat" aria-hidden="true"></span><input name="name"') == 5


# --- a player renamed: one name ------------------------------------------------------------------

@pytest.mark.parametrize("game, old, seat", [("maphr", "Alice", 0), ("mine_all_mine", "Cy", 2)])
def test_a_renamed_player_shows_one_name_everywhere(tmp_path, game, old, seat):
    """Renamed on /players/N after the play: the play page (its table, how it was counted, its
    file), the sheet it opens to correct it, the lists and the stats all say the new name, and
    the scores are the same."""
    import json as json_

    from conftest import ROOT

    c = client(tmp_path)
    csrf = csrf_of(c, f"/g/{game}/sheet?yaml=1")
    example = (ROOT / "card_data" / game / "examples" / "final.yaml").read_text(encoding="utf-8")
    r = c.post(f"/g/{game}/save", data={"csrf": csrf, "yaml": example}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/plays/1"

    def score_json() -> dict:
        page = c.get("/plays/1").text
        return json_.loads(unescape(re.search(r'<script type="application/json" id="score-json">(.*?)</script>',
                                              page, re.S).group(1)))

    before = score_json()
    from cardforge.playlog.store import PlayLog

    number = next(p["player_id"] for p in PlayLog(tmp_path / "plays.db").play(1)["players"] if p["seat"] == seat)
    r = c.post(f"/players/{number}/edit", data={"csrf": csrf, "name": "Zéphyrine"}, follow_redirects=False)
    assert r.status_code == 303
    for url in ("/plays/1", f"/g/{game}/sheet?play=1", f"/g/{game}/sheet?play=1&yaml=1", "/plays/1.yaml",
                "/plays", "/stats", f"/stats?game={game}", f"/players/{number}", "/"):
        text = unescape(c.get(url).text)
        assert re.search(rf"\b{old}\b", text) is None, url
        assert "Zéphyrine" in text, url
    after = score_json()
    assert [p["name"] for p in after["players"]] == [
        "Zéphyrine" if p["name"] == old else p["name"] for p in before["players"]]
    assert [p["total"] for p in after["players"]] == [p["total"] for p in before["players"]]
    assert after["winners"] == ["Zéphyrine" if w == old else w for w in before["winners"]]


def test_the_words_around_the_labels_are_a_table_another_language_can_give():
    from cardforge.web.forms import card_labels
    from cardforge.web.service import Served, context
    from cardforge.web.words import ENGLISH, rewriter

    ctx = context(Served("maphr"))
    french = {"tick": "cochez {label}", "pick": "choisissez {card}"}
    say = rewriter(ctx.sheet, card_labels(ctx.data), french)
    assert say("write partial: true to score a game before its end") == "cochez “Partial” to score a game before its end"
    assert say("write etayage, or give the card you built its own name") == (
        "choisissez etayage, or give the card you built its own name")  # card names come after, as everywhere
    assert set(french) <= set(ENGLISH)
