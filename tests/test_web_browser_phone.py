"""Issue 30's done-when for the sheet: one game of each shipped game entered on a phone.

Headless Chromium in Chrome's mobile emulation at 360 × 740 with touch (a desktop window cannot
be made narrower than ~485 px). Each game is entered through the sheet's own controls — taps on
the counters, the grid, the names the pickers offer, the checkboxes and the choices, digits on
the numeric keypad; never a line of YAML — and at each step the page is checked: no horizontal
scroll, every control at least 44 × 44 px (WCAG 2.5.5). The totals shown are the CLI's: the page's
score JSON equals `cardforge score --json` of the same final state, written out here, and of the
play saved (its `/plays/N.yaml`). The totals were also worked out by hand from the rules: in
the examples' comments (TunHell, Maphr, Mine, All Mine!), in the Cristaux scoring vector named
below, and here for Imperial Miners (its three mines). While a sheet is incomplete, the totals
of the players who read well are shown, the others named. `--update-goldens` writes
docs/serve.png (the README's screenshot).
"""

from __future__ import annotations

import urllib.request

import pytest
import yaml
from test_web_browser import cli_json
from test_web_browser_log import phone  # noqa: F401 — the 360 × 740 touch browser

from browser_support import BROWSER_TEST, ServerThread, open_fresh, webdriver
from conftest import ROOT
from waiting import browser_wait, quiet, scored, tap, touch_at

pytestmark = BROWSER_TEST

if webdriver is not None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

#: every control of the sheet a finger may tap, visible: at least 44 × 44 px (a checkbox is
#: tapped through its label)
TARGETS = """
const out = [];
const sel = 'button, input:not([type=hidden]):not([type=checkbox]), select, summary, label.check, '
          + 'header a, .refused a, .save a, a.button';
for (const el of document.querySelectorAll(sel)) {
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) continue;  // not shown
  if (r.height < 43.5 || r.width < 43.5)
    out.push(el.tagName + ' ' + (el.name || el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40)
             + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
}
for (const box of document.querySelectorAll('input[type=checkbox]'))
  if (!box.closest('label.check')) out.push('a checkbox outside a 44 px label: ' + box.name);
return out;"""


def check_fits(d, where: str) -> None:
    width = d.execute_script("return Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)")
    assert width <= 360, f"{where}: {width} px wide on a 360 px screen"
    assert d.execute_script(TARGETS) == [], where


def named(d, name: str):
    return d.find_element(By.NAME, name)


def digits(d, name: str, value) -> None:
    """A number typed on the numeric keypad: the input tapped, its text selected (a phone's
    keyboard types into the focused input; chromedriver's synthetic tap can leave the caret in
    the input's label when the page redraws under it, and its keys are then lost), typed over."""
    el = named(d, name)
    tap(d, el)
    quiet(d)
    d.execute_script("arguments[0].focus(); arguments[0].select()", el)
    el.send_keys(str(value))
    assert el.get_attribute("value") == str(value), name


def choose(d, name: str, value) -> None:
    """An option tapped in a choice's list."""
    el = named(d, name)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
    Select(el).select_by_value(str(value))


def check(d, name: str) -> None:
    box = named(d, name)
    tap(d, box.find_element(By.XPATH, "./ancestor::label"))
    assert box.is_selected()


def count_up(d, name: str, n: int) -> None:
    """`+` tapped n times beside a card's counter."""
    plus = d.find_element(By.CSS_SELECTOR, f'[name="{name}"] ~ .step[data-step="1"]')
    for _ in range(n):
        tap(d, plus)
    assert named(d, name).get_attribute("value") == str(n)


def box_of(d, field: str):
    return d.find_element(By.CSS_SELECTOR, f'.cards[data-list="{field}"]')


def pick(d, field: str, label: str, typed: str | None = None) -> None:
    """A name of a list picked: a few letters typed (or none, a short list shows them all),
    then the name tapped among the matches."""
    quiet(d)  # the sheet's last answer shown (a message appearing above would move the list)
    box = box_of(d, field)
    before = len(box.find_elements(By.CSS_SELECTOR, "li.row"))
    box_input = box.find_element(By.CSS_SELECTOR, "input.pick")
    tap(d, box_input)
    if typed:
        box_input.send_keys(typed)
    shown = {b.text: b for b in box.find_elements(By.CSS_SELECTOR, "ul.suggest .suggestion")}
    assert label in shown, f"{field}: {label!r} not among {list(shown)}"
    tap(d, shown[label])
    rows = box.find_elements(By.CSS_SELECTOR, "li.row")
    assert len(rows) == before + 1 and rows[-1].find_element(By.CSS_SELECTOR, ".card-name").text == label


def updated(d) -> str | None:
    return d.find_element(By.ID, "sheet").get_attribute("data-updated")


def so_far(d) -> list[str]:
    """The totals so far, one per player of the sheet ("—": not scored yet)."""
    return [td.text for td in d.find_elements(By.CSS_SELECTOR, "#standing-table [data-so-far]")]


def still_to_fix(d) -> list[str]:
    """Whom the list under the score names (the game, a player, a round)."""
    return [li.text.split("\n")[0] for li in d.find_elements(By.CSS_SELECTOR, "ul.todo > li")]


def open_sheet(d, server, game: str, names: list[str], mode: str | None = None) -> str | None:
    query = "&".join(f"name={n}" for n in names) + (f"&mode={mode}" if mode else "")
    open_fresh(d, f"{server.url}/g/{game}/sheet?{query}")
    scored(d, None)
    check_fits(d, f"{game}: the fresh sheet")
    return updated(d)


def save_and_score(d, server, cli, game: str, expected: dict, tmp_path) -> None:
    """Saved, the play's final-state file scores the same with the CLI."""
    tap(d, d.find_element(By.ID, "save"))
    browser_wait(d, lambda drv: "/plays/" in drv.current_url, "the saved play's page")
    path = tmp_path / f"{game}-saved.yaml"
    with urllib.request.urlopen(d.current_url + ".yaml") as r:
        path.write_bytes(r.read())
    assert cli_json(cli, game, path) == expected


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from cardforge.web.app import Settings

    with ServerThread(Settings(db_path=tmp_path_factory.mktemp("phone") / "plays.db")) as s:
        yield s


def test_tunhell_on_a_phone(server, phone, cli, tmp_path):  # noqa: F811
    """The example's game (totals worked out by hand in card_data/tunhell/examples/final.yaml: Ana 15,
    Ben 18, Cleo 19): the loots counted with `+`, the hands and trophies picked by name. A name
    that is not one (« Guerrier »: four Guerriers are in the deck) is said under the box and
    stays said through the live updates, until the one meant is tapped."""
    d = phone
    example = ROOT / "card_data" / "tunhell" / "examples" / "final.yaml"
    first = open_sheet(d, server, "tunhell", ["Ana", "Ben", "Cleo"], mode="full")
    loots = [{"terre": 6, "tresor": 2, "rat": 2, "orc": 2, "troll": 1},
             {"terre": 4, "tresor": 3, "rat": 2, "gobelin": 2, "dragon": 1},
             {"terre": 3, "tresor": 4, "rat": 1, "gobelin": 1, "orc": 1, "demon-des-profondeurs": 1, "coeur-d-or": 1}]
    for card, n in loots[0].items():
        count_up(d, f"players[0].loot.{card}", n)
    # « Guerrier » typed in Ana's hand: refused where it was typed, the text kept
    box = box_of(d, "players[0].hand")
    typed = box.find_element(By.CSS_SELECTOR, "input.pick")
    tap(d, typed)
    typed.send_keys("Guerrier", Keys.ENTER)
    local = box.find_element(By.CSS_SELECTOR, ".err.local")
    assert local.text == "'Guerrier' names 4 entries here: tap the one you mean"
    before = updated(d)
    count_up(d, "players[1].loot.terre", 4)  # a change elsewhere: the sheet is scored again
    scored(d, before)
    assert local.text.startswith("'Guerrier' names 4") and typed.get_attribute("value") == "Guerrier"
    assert "bad" in typed.get_attribute("class")
    check_fits(d, "tunhell: a refused name and its matches")
    tap(d, typed)  # back in the box: its matches, to tap
    tap(d, box.find_element(By.XPATH, ".//button[@class='suggestion' and text()='Guerrier (2)']"))
    assert local.text == "" and typed.get_attribute("value") == ""
    pick(d, "players[0].hand", "L'Anneau unique", "anneau")
    pick(d, "players[0].trophies", "Employé du mois")  # two trophies: both shown on a tap
    for card, n in loots[1].items():
        if card != "terre":
            count_up(d, f"players[1].loot.{card}", n)
    pick(d, "players[1].hand", "L'Anneau unique", "ann")
    check(d, "players[1].back_door")
    pick(d, "players[1].trophies", "Dératiseur")
    for card, n in loots[2].items():
        count_up(d, f"players[2].loot.{card}", n)
    shown = scored(d, first)
    check_fits(d, "tunhell: the whole game")
    expected = cli_json(cli, "tunhell", example)
    assert shown == expected
    assert [p["total"] for p in shown["players"]] == [15, 18, 19]
    assert d.find_element(By.ID, "winner").text.startswith("Winner: Cleo")
    save_and_score(d, server, cli, "tunhell", expected, tmp_path)


def test_maphr_on_a_phone(server, phone, cli, tmp_path, update_goldens):  # noqa: F811
    """The example's game (worked out by hand in card_data/maphr/examples/final.yaml: Alice 67, Ben 67 —
    Ben wins on coins —, Cid 10). An improvement not in the deck is typed in: its colour is a
    required choice, asked (never a silent first colour) until chosen."""
    d = phone
    example = ROOT / "card_data" / "maphr" / "examples" / "final.yaml"
    state = yaml.safe_load(example.read_text(encoding="utf-8"))
    first = open_sheet(d, server, "maphr", [p["name"] for p in state["players"]])
    labels = _labels("maphr", "improvements")
    for i, p in enumerate(state["players"]):
        choose(d, f"players[{i}].clan", p["clan"])
        for key in ("coins", "galleries", "miners"):
            digits(d, f"players[{i}].{key}", p[key])
        for ore, n in p["veins"].items():
            digits(d, f"players[{i}].veins.{ore}", n)
        for item in p["improvements"]:
            if isinstance(item, str):
                pick(d, f"players[{i}].improvements", labels[item], labels[item][:5])
                continue
            box = box_of(d, f"players[{i}].improvements")
            typed = box.find_element(By.CSS_SELECTOR, "input.pick")
            tap(d, typed)
            typed.send_keys(item["name"], Keys.ENTER)  # not in the deck: typed in, with its fields
            k = len(box.find_elements(By.CSS_SELECTOR, "li.row")) - 1
            colour = Select(named(d, f"players[{i}].improvements[{k}].colour"))
            assert colour.first_selected_option.text == "choose…"
            before = updated(d)
            digits(d, f"players[{i}].improvements[{k}].vp", item["vp"])
            scored(d, before)
            assert any(t.endswith("Colour: not entered yet") for t in _todo_items(d)), _todo_items(d)
            choose(d, f"players[{i}].improvements[{k}].colour", item["colour"])
    shown = scored(d, first)
    check_fits(d, "maphr: the whole game")
    expected = cli_json(cli, "maphr", example)
    assert [(p["total"], p["breakdown"]) for p in shown["players"]] == [(p["total"], p["breakdown"]) for p in expected["players"]]
    assert shown == expected
    assert [p["total"] for p in shown["players"]] == [67, 67, 10] and shown["winners"] == ["Ben"]
    if update_goldens:  # the README's screenshot: the top of the Maphr sheet on a phone
        _screenshot(d, 1480)
    save_and_score(d, server, cli, "maphr", expected, tmp_path)


def test_mine_all_mine_on_a_phone(server, phone, cli, tmp_path):  # noqa: F811
    """The example's three rounds (worked out by hand in card_data/mine_all_mine/examples/final.yaml).
    Round 1 alone already gives totals so far — Ana 3, Ben 3, Cy 0 (the example's round 1) —
    with rounds 2 and 3 named as still to fix; then Ana 5, Ben 5, Cy 6."""
    d = phone
    example = ROOT / "card_data" / "mine_all_mine" / "examples" / "final.yaml"
    state = yaml.safe_load(example.read_text(encoding="utf-8"))
    names = list(state["rounds"][0]["fleets"])
    first = open_sheet(d, server, "mine_all_mine", names)
    for r, rnd in enumerate(state["rounds"]):
        before = updated(d)
        for k, planet in enumerate(rnd["planets"]):
            for t, n in enumerate(planet["turns"]):
                digits(d, f"rounds[{r}].planets[{k}].turns[{t}]", n)
        for i, name in enumerate(names):
            for key, value in rnd["fleets"][name].items():
                digits(d, f"rounds[{r}].fleets[{i}].{key}", value)
        if r == 0:
            scored(d, before)
            assert so_far(d) == ["3", "3", "0"]
            assert "(round 1 of 3)" in d.find_element(By.ID, "so-far").text
            assert still_to_fix(d) == ["Round 2", "Round 3"]
            assert d.find_element(By.ID, "totals-bar").text.replace("\n", " ").startswith("Ana 3 Ben 3 Cy 0")
            check_fits(d, "mine_all_mine: round 1 scored so far")
    shown = scored(d, first)
    check_fits(d, "mine_all_mine: the whole game")
    expected = cli_json(cli, "mine_all_mine", example)
    assert shown == expected
    assert [p["total"] for p in shown["players"]] == [5, 5, 6]
    save_and_score(d, server, cli, "mine_all_mine", expected, tmp_path)


def test_cristaux_on_a_phone(server, phone, cli, tmp_path):  # noqa: F811
    """Cristaux avancé façon Opale, the hands of the scoring vector
    `issue-30-opale-musician-counts-one-symbol-and-raises-another` (worked out by hand there:
    Ana 124, Bob 0): the musician bonus's two choices — the symbol the gold counts as, and the
    symbol whose maximum rises — both asked on the sheet."""
    d = phone
    first = open_sheet(d, server, "cristaux", ["Ana", "Bob"], mode="avance")
    check(d, "opale")
    # nobody holds the ♚ yet: said as a problem of the whole game, nothing scored
    scored(d, first)
    assert still_to_fix(d) == ["The game"] and "exactly one player holds the ♚" in _todo_items(d)[0]
    check(d, "players[0].king")
    labels = _labels("cristaux", "cards")
    cards = ["harpe-des-profondeurs", "tambour-de-guerre", "tambour-des-collines", "tambour-des-abysses", "orgue-royal"]
    for card in cards:
        pick(d, "players[0].cards", labels[card], labels[card][:9])
    tap(d, d.find_element(By.CSS_SELECTOR, '[data-items][data-list="players[0].opale"] .add-item'))
    choose(d, "players[0].opale[0].card", "orgue-royal")
    assert Select(named(d, "players[0].opale[0].school")).first_selected_option.text == "choose…"
    choose(d, "players[0].opale[0].school", "musicien")
    choose(d, "players[0].opale[0].symbol", "double")
    choose(d, "players[0].opale[0].raises", "single")
    shown = scored(d, first)
    check_fits(d, "cristaux: the whole game")
    path = tmp_path / "cristaux.yaml"
    path.write_text(yaml.safe_dump({"mode": "avance", "opale": True, "players": [
        {"name": "Ana", "king": True, "cards": cards,
         "opale": [{"card": "orgue-royal", "school": "musicien", "symbol": "double", "raises": "single"}]},
        {"name": "Bob"}]}, allow_unicode=True), encoding="utf-8")
    expected = cli_json(cli, "cristaux", path)
    assert shown == expected
    assert [p["total"] for p in shown["players"]] == [124, 0]
    assert shown["players"][0]["breakdown"]["musiciens"] == 72
    save_and_score(d, server, cli, "cristaux", expected, tmp_path)


def test_imperial_miners_on_a_phone(server, phone, cli, tmp_path):  # noqa: F811
    """Three mines, worked out by hand from the rules (« chaque chariot complet rapporte 1 PV »;
    two half-carts meeting at a junction make a complete cart, a token completes a lone half):

    - Aurore: 31 VP tokens + 8 carts counted at the table = 39.
    - Chloé (the example's mine): row 1 [R, L, R, LR]: junctions 1 and 3 complete; row 2
      [R, —, L, empty, L] with a token on junction 1: 1 complete. 30 + 3 = 33.
    - Dan: one row of 7 cards (the grid grows past its 6 columns) [R, LR, L, R, L, LR, L]:
      junctions 1, 2, 4, 6 complete (R meets L), junction 3 none (L then R), junction 5 one half
      (L then LR) completed by a token: 5. 12 + 5 = 17.

    While Chloé and Dan have no carts, Aurore's 39 is shown and they are named. A save then is
    refused: "Not saved" at the top, the page scrolled to the first problem. Dan's mine is
    tapped by position (a touch at each place's centre): no tap reaches another player's grid
    nor makes a stray token."""
    d = phone
    names = ["Aurore", "Chloé", "Dan"]
    open_sheet(d, server, "imperial_miners", names)
    for key, value in (("vp", 31), ("coins", 7), ("carts", 8)):
        digits(d, f"players[0].{key}", value)
    before = updated(d)
    for key, value in (("vp", 30), ("coins", 7)):
        digits(d, f"players[1].{key}", value)
    scored(d, before)
    assert so_far(d) == ["39", "—", "—"] and still_to_fix(d) == ["Chloé", "Dan"]
    # a refused save: said at the top, scrolled to the first problem
    tap(d, d.find_element(By.ID, "save"))
    browser_wait(d, lambda drv: drv.find_elements(By.ID, "not-saved"), "the refused save's banner")
    banner = d.find_element(By.ID, "not-saved")
    # Chloé's carts; Dan's VP, coins (not entered yet: never a silent 0) and carts
    assert banner.text.startswith("Not saved: 4 problems to fix (Chloé, Dan)")
    kept = [named(d, f"players[{i}].{k}").get_attribute("value") for i, k in ((0, "vp"), (0, "carts"), (1, "vp"))]
    assert kept == ["31", "8", "30"]  # what was typed is still there
    scored(d, None)
    focused = d.switch_to.active_element.get_attribute("name")
    assert focused == "players[1].carts", focused
    assert d.execute_script("return window.scrollY") > 300
    top = d.execute_script("return arguments[0].getBoundingClientRect().top", banner)
    assert 0 <= top < 60  # the banner stays at the top of the screen
    err = d.find_element(By.CSS_SELECTOR, '.err[data-err="players[1].carts"]')
    assert "required: give carts" in err.text and err.is_displayed()
    check_fits(d, "imperial_miners: a refused save")
    # Chloé's mine, the example's, tapped: a place, then its half-carts; a token on a junction
    mine_chloe = [["R", "L", "R", "LR"], ["R", "", "L", None, "L"]]
    grid = d.find_element(By.CSS_SELECTOR, '.grid[data-grid="players[1].mine"]')
    for r, row in enumerate(mine_chloe):
        for c, carts in enumerate(row):
            if carts is None:
                continue
            tap(d, _slot(grid, r, c))
            for side in carts:
                tap(d, grid.find_element(By.CSS_SELECTOR, f'.cell-tools [data-act="{side}"]'))
            if (r, c) == (1, 0):
                tap(d, grid.find_element(By.CSS_SELECTOR, '.cell-tools [data-act="tokR"]'))
    check_fits(d, "imperial_miners: a place's tools open")
    tap(d, grid.find_element(By.CSS_SELECTOR, '.cell-tools [data-act="done"]'))
    # Dan's mine: tapped by position, seven places in a row of six (the row grows)
    digits(d, "players[2].vp", 12)
    digits(d, "players[2].coins", 3)
    others = _grids_state(d, ["players[0].mine", "players[1].mine"])
    grid = d.find_element(By.CSS_SELECTOR, '.grid[data-grid="players[2].mine"]')
    dan = ["R", "LR", "L", "R", "L", "LR", "L"]
    for c, carts in enumerate(dan):
        slot = _slot(grid, 0, c)
        quiet(d)  # the page still: the point read is where the place stays
        d.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", slot)
        x, y = d.execute_script("const r = arguments[0].getBoundingClientRect();"
                                "return [r.left + r.width / 2, r.top + r.height / 2]", slot)
        assert d.execute_script("return document.elementFromPoint(arguments[0], arguments[1])", x, y) == slot
        touch_at(d, x, y)
        assert f"row 1, place {c + 1}: card" in grid.find_element(By.CSS_SELECTOR, ".cell-tools .where").text
        for side in carts:
            tap(d, grid.find_element(By.CSS_SELECTOR, f'.cell-tools [data-act="{side}"]'))
        if c == 4:
            tap(d, grid.find_element(By.CSS_SELECTOR, '.cell-tools [data-act="tokR"]'))
        check_fits(d, f"imperial_miners: Dan's place {c + 1}")
    assert len(grid.find_elements(By.CSS_SELECTOR, '.grid-row[data-row="0"] .slot')) == 8  # one more to go on
    assert _grids_state(d, ["players[0].mine", "players[1].mine"]) == others
    # between two places only the places answer a tap: no token is ever tapped by position
    joints = grid.find_elements(By.CSS_SELECTOR, ".joint")
    for joint in joints[:3]:
        d.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", joint)
        x, y = d.execute_script("const r = arguments[0].getBoundingClientRect();"
                                "return [r.left + r.width / 2, r.top + r.height / 2]", joint)
        hit = d.execute_script("const e = document.elementFromPoint(arguments[0], arguments[1]);"
                               "return [e.className, e.closest('.grid').getAttribute('data-grid')]", x, y)
        assert hit in (["grid-row", "players[2].mine"], ["slot", "players[2].mine"]), hit
    for label in ("Événement 3 (à recopier de la carte)", "Événement 1 (à recopier de la carte)",
                  "Événement 7 (à recopier de la carte)"):
        pick(d, "events", label)
    shown = scored(d, None)
    check_fits(d, "imperial_miners: the whole game")
    path = tmp_path / "imperial_miners.yaml"
    path.write_text(yaml.safe_dump({"players": [
        {"name": "Aurore", "vp": 31, "coins": 7, "carts": 8},
        {"name": "Chloé", "vp": 30, "coins": 7, "mine": [[{"carts": c} if c is not None else None for c in row]
                                                         for row in mine_chloe], "cart_tokens": [[1, 0]]},
        {"name": "Dan", "vp": 12, "coins": 3, "mine": [[{"carts": c} for c in dan]], "cart_tokens": [[0, 4]]}],
        "events": ["evenement-03", "evenement-01", "evenement-07"]}, allow_unicode=True), encoding="utf-8")
    expected = cli_json(cli, "imperial_miners", path)
    assert shown == expected
    assert [p["total"] for p in shown["players"]] == [39, 33, 17]
    save_and_score(d, server, cli, "imperial_miners", expected, tmp_path)


def _slot(grid, r: int, c: int):
    return grid.find_elements(By.CSS_SELECTOR, f'.grid-row[data-row="{r}"] .slot')[c]


def _grids_state(d, grids: list[str]) -> list[tuple[str, str]]:
    """The hidden inputs of these grids (their places and tokens), as the form posts them."""
    return d.execute_script("""
        return Array.from(document.querySelectorAll('input[data-cell], input[data-token]'))
          .filter(i => arguments[0].some(g => i.name.startsWith(g + '[')))
          .map(i => [i.name, i.value]);""", grids)


def _labels(game_id: str, field: str) -> dict[str, str]:
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game
    from cardforge.web.forms import build_sheet

    game = find_game(game_id)
    return {c["id"]: c["name"] for c in build_sheet(game, load_game_data(game)).cards[field]}


def _todo_items(d) -> list[str]:
    return [b.text for b in d.find_elements(By.CSS_SELECTOR, "ul.todo button.jump")]


def _screenshot(d, height: int) -> None:
    from PIL import Image

    d.execute_script("window.scrollTo(0, 0)")
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": 360, "height": height, "deviceScaleFactor": 1, "mobile": True})
    shot = ROOT / "output" / "serve-phone.png"
    shot.parent.mkdir(exist_ok=True)
    d.save_screenshot(str(shot))
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
    with Image.open(shot) as im:
        assert im.size[0] == 360
        im.convert("RGB").quantize(64).save(ROOT / "docs" / "serve.png", optimize=True)
