"""Issue 40's done-when, in Chromium with a phone's touch screen: a picker keeps the card typed,
a draft comes back after a reload and a server restart (and the phone can still save), seats
added, removed and moved change the scores, no winner before the sheet is complete, no page
wider than the screen at 320 and 360 px and at 200 % zoom, and the dark mode looked at.

Every wait is for a condition (``wait``: the sheet's answer shown, a URL, an element), with the
suite's one generous deadline; nothing sleeps a fixed time."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
import yaml

from browser_support import BROWSER_TEST, CHROMIUM, DRIVER, ServerThread, free_port, open_fresh, webdriver
from conftest import ROOT
from waiting import PATIENCE, browser_wait, scored, tap

pytestmark = BROWSER_TEST

if webdriver is not None:
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select


def make_phone(width: int = 360, height: int = 740, dark: bool = False):
    """Chromium as a phone of ``width`` × ``height`` CSS px with touch (at 200 % zoom a 360 px
    phone lays pages out at 180 px), set to the dark scheme with ``dark``."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=en",
                "--hide-scrollbars"):
        options.add_argument(arg)
    if dark:
        options.add_argument("--force-dark-mode")
        options.add_argument("--blink-settings=preferredColorScheme=0")
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height,
                                                                          "pixelRatio": 1, "touch": True}})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(PATIENCE)
    driver.set_script_timeout(PATIENCE)
    return driver


@pytest.fixture(scope="module")
def phone():
    driver = make_phone()
    yield driver
    driver.quit()


def wait(d, condition, what: str):
    """Until ``condition(d)`` holds (a page replaced meanwhile is looked at again)."""
    return browser_wait(d, condition, what)


def settled(d) -> dict:
    """The sheet's answer to its latest change, shown: its score JSON (or {})."""
    return scored(d)


def type_into(d, name: str, value) -> None:
    el = d.find_element(By.NAME, name)
    tap(d, el)
    d.execute_script("arguments[0].focus(); arguments[0].select()", el)
    el.send_keys(str(value))
    wait(d, lambda _: el.get_attribute("value") == str(value), name)


def names_of_rows(box) -> list[str]:
    return [e.text for e in box.find_elements(By.CSS_SELECTOR, "li.row .card-name")]


def overflow(d) -> int:
    return d.execute_script("return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
                            " - document.documentElement.clientWidth")


# --- pickers -------------------------------------------------------------------------------------

def test_enter_in_a_picker_keeps_exactly_the_card_typed(tmp_path, phone):
    from cardforge.web.app import Settings

    with ServerThread(Settings(db_path=tmp_path / "plays.db")) as s:
        open_fresh(phone, f"{s.url}/g/maphr/sheet?name=Ana&name=Ben")
        settled(phone)
        box = phone.find_element(By.CSS_SELECTOR, '.cards[data-list="players[0].improvements"]')
        pick = box.find_element(By.CSS_SELECTOR, "input.pick")
        # « Autel » is in one name of the deck: offered, never taken in its place
        tap(phone, pick)
        pick.send_keys("Autel", Keys.ENTER)
        local = box.find_element(By.CSS_SELECTOR, ".err.local")
        wait(phone, lambda _: local.text, "the picker's message")
        assert local.text == ("'Autel' is not a name in Improvements: tap Autel de Maphr if you mean it, "
                              "or tap “+ Autel” for a card of your own")
        assert box.find_elements(By.CSS_SELECTOR, "li.row") == [] and pick.get_attribute("value") == "Autel"
        shown = [b.text for b in box.find_elements(By.CSS_SELECTOR, "ul.suggest .suggestion")]
        assert shown == ["Autel de Maphr", "+ Autel"]
        # the whole name, typed as a phone types it (no accents, a curly apostrophe): that card
        pick.clear()
        pick.send_keys("puits d’aeration", Keys.ENTER)
        wait(phone, lambda _: names_of_rows(box) == ["Puits d'aération"], "the card typed, added")
        assert local.text == "" and pick.get_attribute("value") == ""
        # « Salle » is in three names: none is taken
        pick.send_keys("Salle", Keys.ENTER)
        wait(phone, lambda _: local.text.startswith("'Salle' names 3 entries here"), "three matches said")
        assert names_of_rows(box) == ["Puits d'aération"]
        # the one meant, tapped
        tap(phone, box.find_element(By.XPATH, ".//button[contains(@class, 'suggestion') and text()='Salle des runes']"))
        wait(phone, lambda _: names_of_rows(box) == ["Puits d'aération", "Salle des runes"], "the tapped card")
        # a card of the players' own, asked for: a row to fill in, never a deck card
        pick.send_keys("Autel", Keys.ENTER)
        tap(phone, box.find_element(By.CSS_SELECTOR, "button.suggestion.own"))
        wait(phone, lambda _: box.find_elements(By.CSS_SELECTOR, 'input[data-sub=".name"]'), "the typed card's row")
        assert box.find_element(By.CSS_SELECTOR, 'input[data-sub=".name"]').get_attribute("value") == "Autel"
        assert names_of_rows(box) == ["Puits d'aération", "Salle des runes"]


# --- drafts --------------------------------------------------------------------------------------

def test_a_draft_survives_a_reload_and_a_server_restart_and_the_phone_still_saves(tmp_path, phone):
    from cardforge.web.app import Settings

    example = yaml.safe_load((ROOT / "card_data" / "imperial_miners" / "examples" / "final.yaml").read_text("utf-8"))
    names = [p["name"] for p in example["players"]]
    settings = Settings(db_path=tmp_path / "plays.db")
    port = free_port()
    query = urlencode([("name", n) for n in names])
    server = ServerThread(settings, port).__enter__()
    try:
        open_fresh(phone, f"{server.url}/g/imperial_miners/sheet?{query}")
        settled(phone)
        type_into(phone, "players[0].vp", 12)
        type_into(phone, "players[0].coins", 3)
        type_into(phone, "players[0].carts", 2)
        wait(phone, lambda d: '"12"' in (d.execute_script(
            "return localStorage.getItem('cardforge-draft:imperial_miners:new')") or ""), "the draft kept")
        phone.refresh()  # a reload: what was typed comes back
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#draft-note.restored"), "the draft brought back")
        assert phone.find_element(By.NAME, "players[0].vp").get_attribute("value") == "12"
        assert phone.find_element(By.NAME, "players[0].coins").get_attribute("value") == "3"
        assert phone.current_url == f"{server.url}/g/imperial_miners/sheet?{query}"  # a reload never re-posts
        key = phone.find_element(By.NAME, "request_key").get_attribute("value")
        type_into(phone, "players[1].vp", 9)
        type_into(phone, "players[1].carts", 1)
        server.__exit__(None, None, None)  # the server stops: the page says so, the typing goes on
        type_into(phone, "players[1].coins", 5)
        general = phone.find_element(By.ID, "general-problems")
        wait(phone, lambda _: "the server cannot be reached" in general.text, "the lost connection said")
        server = ServerThread(settings, port).__enter__()  # started again, on the same address
        phone.refresh()
        wait(phone, lambda d: d.find_elements(By.CSS_SELECTOR, "#draft-note.restored"), "the draft after a restart")
        assert [phone.find_element(By.NAME, f"players[{i}].{f}").get_attribute("value")
                for i in (0, 1) for f in ("vp", "coins", "carts")] == ["12", "3", "2", "9", "5", "1"]
        assert phone.find_element(By.NAME, "request_key").get_attribute("value") == key  # one play, however sent
        shown = settled(phone)
        assert [p["total"] for p in shown["players"]] == [14, 10]  # 12 VP + 2 carts; 9 + 1 (coins break ties)
        tap(phone, phone.find_element(By.ID, "save"))
        wait(phone, lambda d: "/plays/" in d.current_url, "the play saved")
        assert phone.execute_script("return localStorage.getItem('cardforge-draft:imperial_miners:new')") is None
        # a fresh sheet afterwards starts blank: the saved draft is gone
        phone.get(f"{server.url}/g/imperial_miners/sheet?{query}")  # as a player opens it: no clearing
        settled(phone)
        assert phone.find_elements(By.ID, "draft-note") == []
        assert phone.find_element(By.NAME, "players[0].vp").get_attribute("value") == ""
    finally:
        server.__exit__(None, None, None)


# --- seats ---------------------------------------------------------------------------------------

def test_seats_added_removed_and_moved_change_the_scores(tmp_path, phone):
    from cardforge.web.app import Settings

    with ServerThread(Settings(db_path=tmp_path / "plays.db")) as s:
        open_fresh(phone, f"{s.url}/g/imperial_miners/sheet?name=Ana&name=Ben")
        settled(phone)
        for i, (vp, coins, carts) in enumerate([(10, 2, 1), (8, 1, 0)]):
            type_into(phone, f"players[{i}].vp", vp)
            type_into(phone, f"players[{i}].coins", coins)
            type_into(phone, f"players[{i}].carts", carts)
        shown = settled(phone)  # VP + complete carts
        assert [(p["name"], p["total"]) for p in shown["players"]] == [("Ana", 11), ("Ben", 8)]
        tap(phone, phone.find_element(By.CSS_SELECTOR, 'button[name="seat"][value="add"]'))
        wait(phone, lambda d: d.find_elements(By.NAME, "players[2].name"), "a third seat")
        assert phone.current_url.endswith("/g/imperial_miners/sheet?name=Ana&name=Ben&name=Player+3")
        type_into(phone, "players[2].name", "Cy")
        type_into(phone, "players[2].vp", 20)
        # no winner while Cy's coins are not entered
        settled(phone)
        assert "Winner" not in phone.find_element(By.ID, "result").text
        type_into(phone, "players[2].coins", 0)
        type_into(phone, "players[2].carts", 0)
        shown = settled(phone)
        assert [(p["name"], p["total"]) for p in shown["players"]] == [("Ana", 11), ("Ben", 8), ("Cy", 20)]
        assert shown["winners"] == ["Cy"]
        tap(phone, phone.find_element(By.CSS_SELECTOR, 'button[name="seat"][value="up:2"]'))  # Cy one seat earlier
        wait(phone, lambda d: d.find_element(By.NAME, "players[1].name").get_attribute("value") == "Cy", "Cy moved")
        shown = settled(phone)
        assert [(p["name"], p["total"]) for p in shown["players"]] == [("Ana", 11), ("Cy", 20), ("Ben", 8)]
        tap(phone, phone.find_element(By.CSS_SELECTOR, 'button[name="seat"][value="remove:1"]'))  # Cy leaves
        wait(phone, lambda d: not d.find_elements(By.NAME, "players[2].name"), "Cy removed")
        shown = settled(phone)
        assert [(p["name"], p["total"]) for p in shown["players"]] == [("Ana", 11), ("Ben", 8)]
        assert shown["winners"] == ["Ana"]


@pytest.mark.parametrize("width, height", [(320, 640), (360, 740)])
def test_a_refusal_beside_its_counter_names_the_sheets_input(tmp_path, width, height):
    """TunHell, a full game: a find that joins the hand, counted in the loot, is refused beside
    its counter in the sheet's words (“Hand”, not "hand:")."""
    from cardforge.web.app import Settings

    d = make_phone(width, height)
    try:
        with ServerThread(Settings(db_path=tmp_path / "plays.db")) as s:
            open_fresh(d, f"{s.url}/g/tunhell/sheet?name=Ana&name=Ben&mode=full")
            settled(d)
            d.execute_script("localStorage.clear(); sessionStorage.clear()")
            counter = d.find_element(By.NAME, "players[0].loot.dwouarf").find_element(By.XPATH, "..")
            tap(d, counter.find_element(By.CSS_SELECTOR, 'button[data-step="1"]'))
            settled(d)
            err = counter.find_element(By.CSS_SELECTOR, '.err[data-err="players[0].loot.dwouarf"]')
            wait(d, lambda _: err.text, "the refusal beside the counter")
            assert err.text == "Dwouarf le chien joins the hand, never the loot: list it under “Hand”"
            assert overflow(d) <= 0
    finally:
        d.quit()


@pytest.mark.parametrize("width, height", [(320, 640), (360, 740)])
def test_the_game_page_seats_tapped_and_typed_players_in_the_order_they_join(tmp_path, width, height):
    """Roster chips and typed names take their seats as they join (a name typed between two taps
    sits between them); "+ another player" adds boxes up to the game's most (Cristaux: 5); the
    first player is chosen and marked; the sheet opens in that order with that first player."""
    from cardforge.playlog.store import PlayLog
    from cardforge.web.app import Settings

    log = PlayLog(tmp_path / "plays.db")
    for name in ("Ana", "Ben", "Cléo", "Dan"):
        log.add_player(name)
    d = make_phone(width, height)
    try:
        with ServerThread(Settings(db_path=tmp_path / "plays.db")) as s:
            d.get(f"{s.url}/g/cristaux")
            Select(d.find_element(By.NAME, "mode")).select_by_value("classique")
            chip = {n: d.find_element(By.CSS_SELECTOR, f'label.chip.pick input[value="{n}"]').find_element(
                By.XPATH, "..") for n in ("Ana", "Ben", "Cléo", "Dan")}
            boxes = lambda: d.find_elements(By.CSS_SELECTOR, "fieldset.names input[name=name]")  # noqa: E731
            rows = lambda: [(r.find_element(By.CSS_SELECTOR, ".seat").text,  # noqa: E731
                             r.find_element(By.TAG_NAME, "input").get_attribute("value"))
                            for r in d.find_elements(By.CSS_SELECTOR, ".name-row")]
            chip_seats = lambda: {n: c.find_element(By.CSS_SELECTOR, ".seat").text  # noqa: E731
                                  for n, c in chip.items()}
            assert len(boxes()) == 2  # 5 at most, 4 in the roster: 2 boxes to start with
            tap(d, chip["Ana"])
            tap(d, boxes()[0])
            boxes()[0].send_keys("Zoé")
            tap(d, chip["Ben"])
            tap(d, boxes()[1])
            boxes()[1].send_keys("Yann")
            wait(d, lambda _: rows() == [("2", "Zoé"), ("4", "Yann")], "the typed names seated as they joined")
            assert chip_seats() == {"Ana": "1", "Ben": "3", "Cléo": "", "Dan": ""}
            add = d.find_element(By.ID, "add-name")
            assert add.text == "+ another player" and add.is_enabled()
            tap(d, add)
            wait(d, lambda _: len(boxes()) == 3, "a third box")
            boxes()[2].send_keys("Xavi")
            wait(d, lambda _: rows()[2] == ("5", "Xavi"), "Xavi seated 5th")
            assert not add.is_enabled()  # five seated: the game's most
            tap(d, chip["Cléo"])  # a sixth: refused, said
            note = d.find_element(By.ID, "seats-note")
            wait(d, lambda _: note.is_displayed(), "the note")
            assert note.text == "5 players at most: untick or empty one first."
            assert chip_seats()["Cléo"] == "" and not chip["Cléo"].find_element(By.TAG_NAME, "input").is_selected()
            for _ in "Zoé":  # emptied: Zoé leaves her seat, the others move up
                boxes()[0].send_keys(Keys.BACKSPACE)
            wait(d, lambda _: rows() == [("", ""), ("3", "Yann"), ("4", "Xavi")], "the seats after Zoé left")
            first = Select(d.find_element(By.NAME, "first"))
            assert [o.text for o in first.options] == ["—", "1. Ana", "2. Ben", "3. Yann", "4. Xavi"]
            first.select_by_value("2")
            wait(d, lambda _: chip_seats()["Ben"] == "2 ★", "Ben marked first")
            assert d.execute_script("return document.documentElement.scrollWidth") <= width
            tap(d, d.find_element(By.CSS_SELECTOR, "#pick-players button[type=submit]"))
            wait(d, lambda _: "/sheet" in d.current_url, "the sheet")
            assert d.current_url.endswith("/g/cristaux/sheet?mode=classique&name=Ana&name=Ben&name=Yann&name=Xavi"
                                          "&first=2")
            names = [i.get_attribute("value") for i in d.find_elements(By.CSS_SELECTOR, "input.pname")]
            assert names == ["Ana", "Ben", "Yann", "Xavi"]
            marks = d.find_elements(By.CSS_SELECTOR, ".first-seat")
            assert len(marks) == 1
            assert d.execute_script("return arguments[0].closest('.player, th, fieldset, div')"
                                    ".querySelector('input.pname').value", marks[0]) == "Ben"
    finally:
        d.quit()


def test_no_winner_is_shown_before_the_sheet_is_complete(tmp_path, phone):
    from cardforge.web.app import Settings

    with ServerThread(Settings(db_path=tmp_path / "plays.db")) as s:
        open_fresh(phone, f"{s.url}/g/tunhell/sheet?name=Ana&name=Ben")  # no mode given
        settled(phone)
        mode = Select(phone.find_element(By.NAME, "mode"))
        assert mode.first_selected_option.text == "choose…"
        tap(phone, phone.find_element(By.CSS_SELECTOR, 'label.check input[name="partial"]').find_element(
            By.XPATH, "./ancestor::label"))
        settled(phone)
        result = phone.find_element(By.ID, "result").text
        assert "Winner" not in result and "Mode: not chosen yet" in result
        mode.select_by_value("full")
        settled(phone)
        assert phone.find_element(By.ID, "winner").text.startswith(("Winner", "Winners"))


# --- every page on every phone -------------------------------------------------------------------

PAGES = ["/", "/g/{game}", "/g/{game}/sheet?name=Ana&name=Ben&name=Cl%C3%A9o", "/g/{game}/setup?players=3&seed=1",
         "/plays", "/stats", "/players"]
GAMES = ["maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners"]


@pytest.mark.parametrize("width, zoom", [(320, 1), (360, 1), (360, 2)])
def test_no_page_scrolls_sideways(tmp_path, width, zoom):
    """At 320 px, at 360 px, and at 360 px zoomed to 200 % (a 180 px layout viewport, the text
    twice as big), no page of the five games nor of a designer's game scrolls sideways; the
    text a phone shows is at least 14 px."""
    from cardforge.games.scaffold import create_game
    from cardforge.web.app import Settings

    folder = tmp_path / "my-game"
    create_game(folder, "My game", lang="en")
    d = make_phone(width // zoom, 740 // zoom)
    try:
        with ServerThread(Settings(db_path=tmp_path / "plays.db", games=[folder])) as s:
            wide, small = [], []
            for game in [*GAMES, "my_game"]:
                for page in PAGES:
                    url = s.url + page.format(game=game)
                    d.get(url)
                    wait(d, lambda drv: drv.execute_script("return document.readyState") == "complete", url)
                    if d.find_elements(By.ID, "sheet"):
                        settled(d)
                    if overflow(d) > 0:
                        wide.append(f"{url}: {overflow(d)} px too wide")
                    small += [f"{url}: {t}" for t in d.execute_script(SMALL_TEXT)]
            assert wide == []
            assert small == []
    finally:
        d.quit()


#: visible text set smaller than 14 px (the charts' SVG text included)
SMALL_TEXT = """
const out = [];
for (const el of document.querySelectorAll('body *')) {
  if (!el.childNodes.length) continue;
  const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) continue;
  const size = parseFloat(getComputedStyle(el).fontSize);
  if (size < 13.95) out.push(el.tagName + ' "' + el.textContent.trim().slice(0, 30) + '" ' + size + 'px');
}
return out.slice(0, 10);"""


@pytest.mark.parametrize("dark", [False, True])
def test_both_colour_schemes_follow_the_system_and_read_well(tmp_path, dark):
    """The phone set to light or dark: the page follows (dark paper, light ink), and every text
    of the sheet, the game page and the log reads at 4.5:1 at least against what is behind it."""
    from cardforge.web.app import Settings

    d = make_phone(dark=dark)
    try:
        with ServerThread(Settings(db_path=tmp_path / "plays.db")) as s:
            low = []
            for page in ("/g/maphr/sheet?name=Ana&name=Ben", "/g/tunhell", "/", "/plays", "/stats"):
                d.get(s.url + page)
                wait(d, lambda drv: drv.execute_script("return document.readyState") == "complete", page)
                if d.find_elements(By.ID, "sheet"):
                    settled(d)
                assert d.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches") is dark
                low += [(page, *c) for c in d.execute_script(CONTRASTS) if c[1] < 4.5]
            assert low == []
            body = d.execute_script("return getComputedStyle(document.body).backgroundColor")
            assert body == ("rgb(18, 18, 20)" if dark else "rgb(246, 245, 242)")
    finally:
        d.quit()


#: each visible text's contrast against the nearest opaque background behind it (WCAG)
CONTRASTS = """
function rgb(s) { const m = s.match(/[\\d.]+/g); return m ? m.map(Number) : [0, 0, 0, 0]; }
function lum(c) { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); }
function bg(el) { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor);
  if (c.length < 4 || c[3] > 0.5) return c; } return [255, 255, 255]; }
const out = [];
for (const el of document.querySelectorAll('body *')) {
  const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
  if (el.closest('button:disabled')) continue;  // a disabled control: WCAG exempts it
  const a = lum(rgb(getComputedStyle(el).color)), b = lum(bg(el));
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  out.push([el.tagName + ' ' + el.textContent.trim().slice(0, 30), Math.round(ratio * 100) / 100]);
}
return out;"""


#: each shown chart's text as the screen draws it: its font size times the chart's scale (the
#: page sizes an SVG by its viewBox), and the chart's width on the screen
CHART_TEXT = """
const out = [];
for (const svg of document.querySelectorAll('svg.chart')) {
  const r = svg.getBoundingClientRect();
  if (!r.width || getComputedStyle(svg).display === 'none') continue;
  const scale = r.width / svg.viewBox.baseVal.width;
  let smallest = 1e9;
  for (const t of svg.querySelectorAll('text')) {
    if (!t.textContent.trim()) continue;
    smallest = Math.min(smallest, parseFloat(t.getAttribute('font-size')) * scale);
  }
  out.push([svg.closest('figure').id, Math.round(r.width), Math.round(smallest * 100) / 100]);
}
return out;"""


@pytest.mark.parametrize("width, dark", [(320, False), (360, True)])
def test_chart_text_is_14_px_or_more_on_a_phone(tmp_path, width, dark):
    """The stats, a player's page and the lab on a phone with plays in the log: every chart is
    the one laid out for a phone, as wide as the page allows, and its smallest text (the axes'
    numbers) shows at 14 px or more; nothing scrolls sideways. The same pages on a wide screen
    show the charts laid out for it (the ones the PDF report also draws). In the dark scheme a
    chart (print colours: dark ink) keeps a light frame."""
    from lab_support import maphr_two_versions

    from cardforge.web.app import Settings

    log = maphr_two_versions(tmp_path)
    d = make_phone(width, 740, dark=dark)
    try:
        with ServerThread(Settings(db_path=log["db"], data_root=log["data"])) as s:
            seen = {}
            for page in ("/stats", "/stats?game=maphr", "/players/1", "/g/maphr/lab"):
                d.get(s.url + page)
                wait(d, lambda drv: drv.execute_script("return document.readyState") == "complete", page)
                assert overflow(d) == 0, page
                shown = d.execute_script(CHART_TEXT)
                assert shown, f"{page}: no chart shown"
                assert d.find_elements(By.CSS_SELECTOR, "svg.chart.wide")  # there, not shown
                for figure, chart_width, smallest in shown:
                    seen[(page, figure)] = smallest
                    assert chart_width >= width - 80, (page, figure, chart_width)
                    assert smallest >= 14, (page, figure, smallest)
                paper = d.execute_script("return getComputedStyle(document.querySelector('figure.chart'))"
                                         ".backgroundColor")
                assert paper == ("rgb(246, 245, 242)" if dark else "rgb(255, 255, 255)"), (page, paper)  # light
            assert len(seen) >= 16  # overview 2, the game 4+, the player 2, the lab 10+
            d.quit()
            d = make_phone(1200, 900)  # a wide screen
            d.get(s.url + "/stats?game=maphr")
            wait(d, lambda drv: drv.execute_script("return document.readyState") == "complete", "wide")
            assert d.execute_script(CHART_TEXT)
            assert all(not c.is_displayed() for c in d.find_elements(By.CSS_SELECTOR, "svg.chart.phone"))
            assert all(c.is_displayed() for c in d.find_elements(By.CSS_SELECTOR, "svg.chart.wide"))
    finally:
        d.quit()
