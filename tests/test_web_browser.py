"""`cardforge serve` in a real browser: headless Chromium (Debian's package) driven by Selenium.

A server runs in a thread on 127.0.0.1 and a free port; games are typed into the score sheet the
way a player would, and the page's result is compared with `cardforge score --json` for the same
final-state file. Skipped, with the reason, where Chromium or its driver is missing (`.ci/run`
installs them).
"""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

from browser_support import BROWSER_TEST, ServerThread, chrome, open_fresh, webdriver
from conftest import ROOT
from waiting import browser_wait, scored, tap

if webdriver is not None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

pytestmark = BROWSER_TEST


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from cardforge.web.app import Settings

    db = tmp_path_factory.mktemp("serve") / "plays.db"
    with ServerThread(Settings(db_path=db)) as s:
        yield s


@pytest.fixture(scope="module")
def browser():
    driver = chrome("--window-size=430,1400", "--force-device-scale-factor=1")
    yield driver
    driver.quit()


def card_names(game_id, field: str) -> dict[str, str]:
    """Each card's name as the sheet offers it (a name two cards share carries the id)."""
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game
    from cardforge.web.forms import build_sheet

    game = find_game(game_id)
    return {c["id"]: c["name"] for c in build_sheet(game, load_game_data(game)).cards[field]}


def fill(driver, name: str, value) -> None:
    el = driver.find_element(By.NAME, name)
    if el.tag_name == "select":
        Select(el).select_by_value(str(value))
    elif el.get_attribute("type") == "checkbox":
        if bool(value) != el.is_selected():
            tap(driver, el)
    else:
        el.clear()
        el.send_keys(str(value))


def add_card(driver, player: int, field: str, text: str) -> None:
    box = driver.find_element(By.CSS_SELECTOR, f'.cards[data-list="players[{player}].{field}"]')
    pick = box.find_element(By.CSS_SELECTOR, "input.pick")
    pick.send_keys(text)
    pick.send_keys(Keys.ENTER)


def open_sheet(driver, server, game: str, names: list[str], mode: str | None = None) -> None:
    query = "&".join(f"name={n}" for n in names) + (f"&mode={mode}" if mode else "")
    open_fresh(driver, f"{server.url}/g/{game}/sheet?{query}")
    scored(driver)


def cli_json(cli, game: str, path: Path) -> dict:
    r = cli("score", game, str(path), "--json")
    assert r.code == 0, r.err
    return r.json


def type_maphr(driver, state: dict) -> None:
    names = card_names("maphr", "improvements")
    for i, p in enumerate(state["players"]):
        if p.get("clan"):
            fill(driver, f"players[{i}].clan", p["clan"])
        for key in ("coins", "galleries", "miners"):
            fill(driver, f"players[{i}].{key}", p[key])
        for ore, n in p.get("veins", {}).items():
            fill(driver, f"players[{i}].veins.{ore}", n)
        for item in p["improvements"]:
            if isinstance(item, str):
                add_card(driver, i, "improvements", names[item])
            else:  # a card typed in: its name, colour and VP
                add_card(driver, i, "improvements", item["name"])
                rows = driver.find_elements(By.CSS_SELECTOR, f'.cards[data-list="players[{i}].improvements"] li.row')
                k = len(rows) - 1
                fill(driver, f"players[{i}].improvements[{k}].colour", item["colour"])
                fill(driver, f"players[{i}].improvements[{k}].vp", item["vp"])


def test_maphr_scored_in_the_page_as_by_the_cli(server, browser, cli, tmp_path):
    example = ROOT / "card_data" / "maphr" / "examples" / "final.yaml"
    state = yaml.safe_load(example.read_text(encoding="utf-8"))
    open_sheet(browser, server, "maphr", [p["name"] for p in state["players"]])
    first = browser.find_element(By.ID, "sheet").get_attribute("data-updated")
    type_maphr(browser, state)
    shown = scored(browser, first)
    expected = cli_json(cli, "maphr", example)
    assert shown == expected
    # the table the player reads says the same
    totals = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "#result-table [data-total]")]
    assert totals == [str(p["total"]) for p in expected["players"]]
    winner = browser.find_element(By.ID, "winner").text
    assert winner.startswith("Winner: " + expected["winners"][0])

    shot = tmp_path / "serve.png"
    browser.set_window_size(430, 932)  # a phone
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(shot))
    browser.set_window_size(430, 1400)
    from PIL import Image

    with Image.open(shot) as im:  # (the README's screenshot is test_web_browser_phone.py's, at 360 px)
        assert im.size[0] >= 400 and im.size[1] > 600

    # save the play: it is in the history, and its YAML scores the same with the CLI
    fill(browser, "note", "browser test")
    tap(browser, browser.find_element(By.ID, "save"))
    browser_wait(browser, lambda d: "/plays/" in d.current_url, "the saved play's page")
    play_url = browser.current_url
    assert browser.find_element(By.ID, "winner").text.startswith("Winner: " + expected["winners"][0])
    browser.get(f"{server.url}/plays")
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "ul.plays a")]
    assert play_url in links
    assert "Les Mines de Maphr" in browser.find_element(By.CSS_SELECTOR, "ul.plays").text
    exported = tmp_path / "play.yaml"
    with urllib.request.urlopen(play_url + ".yaml") as r:
        exported.write_bytes(r.read())
    assert cli_json(cli, "maphr", exported) == expected
    # opened again in the sheet, it shows the same values and the same score
    browser.get(play_url)
    tap(browser, browser.find_element(By.ID, "edit"))
    assert scored(browser) == expected
    assert browser.find_element(By.NAME, "players[0].improvements[2].name").get_attribute("value") == "Forge runique"
    # the stats count it
    browser.get(f"{server.url}/stats?game=maphr")
    table = browser.find_element(By.CSS_SELECTOR, "table.stats").text
    assert "Alice" in table and "Ben" in table


def test_cristaux_scored_in_the_page_as_by_the_cli(server, browser, cli):
    example = ROOT / "card_data" / "cristaux" / "examples" / "final.yaml"
    state = yaml.safe_load(example.read_text(encoding="utf-8"))
    names = card_names("cristaux", "cards")
    open_sheet(browser, server, "cristaux", [p["name"] for p in state["players"]], mode=state["mode"])
    first = browser.find_element(By.ID, "sheet").get_attribute("data-updated")
    for i, p in enumerate(state["players"]):
        fill(browser, f"players[{i}].king", p.get("king", False))
        for card in p["cards"]:
            add_card(browser, i, "cards", names[card])
        for colour, n in p.get("stock", {}).items():
            fill(browser, f"players[{i}].stock.{colour}", n)
    shown = scored(browser, first)
    assert shown == cli_json(cli, "cristaux", example)
    assert [p["total"] for p in shown["players"]] == [93, 52, 62]  # worked out by hand in the example


def test_cristaux_x_cost_paid_and_a_rejection_beside_its_field(server, browser, cli, tmp_path):
    """A Calice asks what was paid; an unknown-to-the-rules value is shown beside its input."""
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game

    data = load_game_data(find_game("cristaux"))
    calice = next(c for c in data.cards if c.kind == "project" and getattr(c, "x_colour", None)
                  and "avance" in c.modes)
    open_sheet(browser, server, "cristaux", ["Ana", "Bruno"], mode="avance")
    first = browser.find_element(By.ID, "sheet").get_attribute("data-updated")
    fill(browser, "players[0].king", True)
    add_card(browser, 0, "cards", calice.name)
    fill(browser, "players[0].cards[0].paid", 4)
    fill(browser, "players[1].stock.gold", "two")
    scored(browser, first)
    err = browser.find_element(By.CSS_SELECTOR, '.err[data-err="players[1].stock.gold"]').text
    assert "must be a whole number" in err and "'two'" in err
    assert not browser.find_elements(By.ID, "score-json")  # nothing scored while a field is wrong
    before = browser.find_element(By.ID, "sheet").get_attribute("data-updated")
    fill(browser, "players[1].stock.gold", 2)
    shown = scored(browser, before)
    path = tmp_path / "calice.yaml"
    path.write_text(yaml.safe_dump({"mode": "avance", "players": [
        {"name": "Ana", "king": True, "cards": [{"id": calice.id, "paid": 4}]},
        {"name": "Bruno", "stock": {"gold": 2}}]}), encoding="utf-8")
    assert shown == cli_json(cli, "cristaux", path)


def test_a_data_only_game_sheet_keeps_pad_sums(server, browser, cli, tmp_path):
    """A game folder made by `cardforge new` (no rule code): one cell per score-pad category,
    short sums kept as typed, the tie-breaker asked beside them."""
    from cardforge.games import find_game
    from cardforge.games.scaffold import create_game

    folder = tmp_path / "petit-jeu-browser"
    create_game(folder, "Petit jeu", lang="fr")
    game = find_game(folder)
    example = folder / "examples" / "final.yaml"
    state = yaml.safe_load(example.read_text(encoding="utf-8"))
    from cardforge.web.app import Settings

    # a server of its own: only the folders named when it starts are served (`cardforge serve FOLDER`)
    with ServerThread(Settings(db_path=tmp_path / "p.db", games=[folder])) as own:
        _type_the_pad(browser, own, cli, game, folder, example, state)


def _type_the_pad(browser, server, cli, game, folder, example, state) -> None:
    open_sheet(browser, server, game.id, [p["name"] for p in state["players"]])
    assert browser.find_elements(By.CSS_SELECTOR, "table.pad")  # players as columns, categories as rows
    first = browser.find_element(By.ID, "sheet").get_attribute("data-updated")
    for i, p in enumerate(state["players"]):
        for key in ("cartes", "objectifs", "pieces"):
            fill(browser, f"players[{i}].{key}", p[key])
    shown = scored(browser, first)
    expected = cli_json(cli, str(folder), example)
    assert shown == expected
    assert [p["total"] for p in shown["players"]] == [12, 12] and shown["winners"] == ["Alice"]
    assert browser.find_element(By.NAME, "players[0].objectifs").get_attribute("value") == "3+2"
    assert "more coins" in browser.find_element(By.ID, "winner").text  # how the tie was broken


def test_a_request_without_the_token_is_refused(tmp_path, browser):
    from cardforge.web.app import Settings

    with ServerThread(Settings(db_path=tmp_path / "p.db", token="s3cret-token", local_only=False)) as s:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{s.url}/g/maphr/sheet")
        assert refused.value.code == 403
        browser.delete_all_cookies()
        browser.get(f"{s.url}/")
        assert "Access token required" in browser.find_element(By.TAG_NAME, "h1").text
        browser.get(f"{s.url}/?token=s3cret-token")  # the printed address: the token becomes a cookie
        assert browser.current_url == f"{s.url}/"
        assert "Les Mines de Maphr" in browser.find_element(By.TAG_NAME, "main").text
        browser.get(f"{s.url}/g/maphr")  # and the next pages need no token in the address
        assert "Score a game" in browser.find_element(By.TAG_NAME, "main").text
        browser.delete_all_cookies()


def test_imperial_miners_mine_tapped_into_the_grid(server, browser, cli):
    """The example's mine built by taps: a place (a card goes there, its tools open), its
    half-carts, a cart token on the junction to its right."""
    example = ROOT / "card_data" / "imperial_miners" / "examples" / "final.yaml"
    open_sheet(browser, server, "imperial_miners", ["Aurore", "Chloé"])
    first = browser.find_element(By.ID, "sheet").get_attribute("data-updated")
    for key, value in (("vp", 31), ("coins", 7), ("carts", 8)):
        fill(browser, f"players[0].{key}", value)
    for key, value in (("vp", 30), ("coins", 7)):
        fill(browser, f"players[1].{key}", value)
    grid = browser.find_element(By.CSS_SELECTOR, '.grid[data-grid="players[1].mine"]')
    mine = [["R", "L", "R", "LR"], ["R", "", "L", None, "L"]]
    for r, row in enumerate(mine):
        slots = grid.find_elements(By.CSS_SELECTOR, f'.grid-row[data-row="{r}"] .slot')
        for c, carts in enumerate(row):
            if carts is None:
                continue
            tap(browser, slots[c])  # a card goes there
            for side in carts:
                tap(browser, grid.find_element(By.CSS_SELECTOR, f'.cell-tools [data-act="{side}"]'))
            if (r, c) == (1, 0):
                tap(browser, grid.find_element(By.CSS_SELECTOR, '.cell-tools [data-act="tokR"]'))
    shown = scored(browser, first)
    assert shown == cli_json(cli, "imperial_miners", example)
    assert [p["total"] for p in shown["players"]] == [39, 33]


def test_a_new_game_with_declared_scoring_scored_by_picking_cards(browser, cli, tmp_path):
    """Issue 27's "done when": a game made by `cardforge new`, given cards with points and three
    declared categories (sum of points, sets of colours, most dragons with ties shared); each
    player's cards picked by name on the sheet — no YAML typed — score as the CLI scores the file
    that lists them by id (totals worked out by hand in tests/sheet_support.py)."""
    from cardforge.games import find_game

    from sheet_support import treasure_game

    folder = treasure_game(tmp_path / "tresors-browser")
    game = find_game(folder)
    from cardforge.web.app import Settings

    # a server of its own: only the folders named when it starts are served (`cardforge serve FOLDER`)
    with ServerThread(Settings(db_path=tmp_path / "p.db", games=[folder])) as own:
        _pick_treasures(browser, own, cli, folder, game)


def _pick_treasures(browser, server, cli, folder, game) -> None:
    from sheet_support import EXPECTED, HANDS

    open_sheet(browser, server, game.id, list(HANDS))
    assert not browser.find_elements(By.NAME, "yaml")
    assert not browser.find_elements(By.NAME, "players[0].points")  # computed, never asked
    names = card_names(folder, "cartes")
    first = browser.find_element(By.ID, "sheet").get_attribute("data-updated")
    for i, cards in enumerate(HANDS.values()):
        for card in cards:
            add_card(browser, i, "cartes", names[card])
    shown = scored(browser, first)
    assert shown == cli_json(cli, str(folder), folder / "examples" / "final.yaml")
    assert {p["name"]: (p["total"], p["rank"]) for p in shown["players"]} == {
        n: (e["total"], e["rank"]) for n, e in EXPECTED.items()}
    assert browser.find_element(By.ID, "winner").text.startswith("Winner: Cleo")
    rows = browser.find_elements(By.CSS_SELECTOR, '.cards[data-list="players[2].cartes"] li.row .card-name')
    assert [r.text for r in rows] == ["Émeraude", "Saphir", "Perle", "Dragon rouge", "Dragon vert"]


def test_the_fixture_game_relics_picked_by_name(browser, cli, tmp_path):
    """chasse_aux_reliques (Python rules) declares its `relics` field a list of relic cards: the
    sheet picks them by name. Ana: Couronne 5 + Sceptre 4 + Anneau 2 = 11, three of « or » → a set,
    +5 = 16; Ben: Masque 3 + Crâne 3 = 6."""
    from cardforge.games import find_game

    from conftest import FIXTURES

    folder = FIXTURES / "games" / "chasse_aux_reliques"
    game = find_game(folder)
    from cardforge.web.app import Settings

    with ServerThread(Settings(db_path=tmp_path / "p.db", games=[folder])) as server:
        _pick_relics(browser, server, cli, folder, game, tmp_path)


def _pick_relics(browser, server, cli, folder, game, tmp_path) -> None:
    open_sheet(browser, server, game.id, ["Ana", "Ben"], mode="standard")  # a game of two modes: chosen
    first = browser.find_element(By.ID, "sheet").get_attribute("data-updated")
    for i, relics in enumerate((["Couronne", "Sceptre", "Anneau"], ["Masque", "Crâne"])):
        for relic in relics:
            add_card(browser, i, "relics", relic)
    shown = scored(browser, first)
    path = tmp_path / "relics.yaml"
    path.write_text("players:\n  - {name: Ana, relics: [couronne, sceptre, anneau]}\n"
                    "  - {name: Ben, relics: [masque, crane]}\n", encoding="utf-8")
    assert shown == cli_json(cli, str(folder), path)
    assert [(p["name"], p["total"]) for p in shown["players"]] == [("Ana", 16), ("Ben", 6)]


def test_imperial_miners_mine_grows_a_seventh_column(server, browser, cli, tmp_path):
    """The grid declares 6 columns and grows as the rules allow: a row of 7 cards, each with
    half-carts on both edges, makes 6 complete carts (its two outer halves score nothing)."""
    open_sheet(browser, server, "imperial_miners", ["Aurore", "Chloé"])
    first = browser.find_element(By.ID, "sheet").get_attribute("data-updated")
    fill(browser, "players[0].vp", 10)
    fill(browser, "players[0].coins", 2)
    for key in ("vp", "coins", "carts"):
        fill(browser, f"players[1].{key}", 0)
    grid = browser.find_element(By.CSS_SELECTOR, '.grid[data-grid="players[0].mine"]')
    tap(browser, grid.find_element(By.CSS_SELECTOR, '[data-grow="col"]'))
    slots = grid.find_elements(By.CSS_SELECTOR, '.grid-row[data-row="0"] .slot')
    assert len(slots) == 7
    for slot in slots:
        tap(browser, slot)
        for side in "LR":
            tap(browser, grid.find_element(By.CSS_SELECTOR, f'.cell-tools [data-act="{side}"]'))
    # a card on the last place: the row can go on, one more place offered
    assert len(grid.find_elements(By.CSS_SELECTOR, '.grid-row[data-row="0"] .slot')) == 8
    path = tmp_path / "seven.yaml"
    path.write_text("players:\n  - {name: Aurore, vp: 10, coins: 2, mine: [[" + ", ".join(["{carts: LR}"] * 7)
                    + "]]}\n  - {name: Chloé, vp: 0, coins: 0, carts: 0}\n", encoding="utf-8")
    expected = cli_json(cli, "imperial_miners", path)
    shown = scored(browser, first)  # the answer to the last tap (every tap waited for its arrival)
    assert shown == expected
    assert [p["total"] for p in shown["players"]] == [16, 0]
