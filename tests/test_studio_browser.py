"""`cardforge studio` in headless Chromium (issue 43's done-when): the studio's app and its file
watcher (the real one: watchfiles) over a copy of Maphr, a card's YAML edited on disk.

- the edited card's <img> gets a new address whose picture is the card drawn afresh from the
  edited data (its PDF holds the new words), while every other <img> keeps its address and
  was loaded once (the page's own count of load events);
- a data error appears on that card with file:line, and goes when fixed;
- the overlays draw the layout's boxes, bleed, trim and safe area where /face says they are;
- a click finds the card's data row and the box under the pointer, and "open" starts the editor
  with that file and line;
- at 360 px there is no horizontal scroll. ``--update-goldens`` writes docs/studio.png.
"""

from __future__ import annotations

import json
import shutil
import urllib.request

import pytest
from test_studio import DPI, EDITED, EFFECT, edit, fresh_face, line_of, pixels

from browser_support import BROWSER_TEST, ServerThread, chrome, webdriver
from conftest import ROOT
from waiting import browser_wait, wait_until

pytestmark = BROWSER_TEST

if webdriver is not None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By


@pytest.fixture
def studio(tmp_path, monkeypatch):
    """(server, studio, Maphr's copied folder, the editor's launches)."""
    from cardforge.games import find_game
    from cardforge.studio.app import StudioSettings, Watcher, create_app
    from cardforge.studio.session import Studio

    shutil.copytree(ROOT / "card_data" / "maphr", tmp_path / "data" / "maphr")
    monkeypatch.setenv("CARDFORGE_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    session = Studio(find_game("maphr"), dpi=DPI)
    session.refresh()
    launched: list[list[str]] = []
    app = create_app(session, StudioSettings(editor=["vim"], launch=launched.append))
    watcher = Watcher(session).start()
    wait_until(watcher.ready.is_set, "the studio's file watcher")
    try:
        with ServerThread(None, app=app) as server:
            yield server, session, tmp_path / "data" / "maphr", launched
    finally:
        watcher.stop()


@pytest.fixture(scope="module")
def desktop():
    driver = chrome("--window-size=1280,900")
    yield driver
    driver.quit()


def srcs(driver) -> dict[str, str]:
    return driver.execute_script(
        "const o = {}; document.querySelectorAll('.face').forEach(f => o[f.dataset.face] = "
        "f.querySelector('img').getAttribute('src')); return o;")


def loads(driver) -> dict[str, int]:
    return driver.execute_script("return window.studioLoads")


def face(driver, name: str):
    return driver.find_element(By.CSS_SELECTOR, f'.face[data-face="{name}"]')


def all_loaded(driver) -> bool:
    return driver.execute_script(
        "return [...document.querySelectorAll('.face img')].every(i => i.complete && i.naturalWidth > 0)")


def test_an_edit_replaces_that_card_alone_and_errors_come_and_go(studio, desktop):
    server, session, folder, _ = studio
    desktop.get(server.url + "/")
    browser_wait(desktop, all_loaded, "every card's picture")
    desktop.execute_script("window.scrollTo(0, 600)")
    before = srcs(desktop)
    assert len(before) == 80
    assert set(loads(desktop).values()) == {1}

    edit(folder / "improvements.yaml", EFFECT, EDITED)
    browser_wait(desktop, lambda d: srcs(d)["etayage"] != before["etayage"], "étayage's new picture")
    browser_wait(desktop, lambda d: loads(d)["etayage"] == 2, "étayage's new picture loaded")
    after = srcs(desktop)
    assert {n: s for n, s in after.items() if n != "etayage"} == {n: s for n, s in before.items() if n != "etayage"}
    counts = loads(desktop)
    assert {n: c for n, c in counts.items() if n != "etayage"} == {n: 1 for n in before if n != "etayage"}
    assert desktop.execute_script("return window.scrollY") == 600  # the page did not move
    with urllib.request.urlopen(server.url + after["etayage"]) as response:
        served = response.read()
    image, text = fresh_face(session, "etayage")
    assert "Désormais" in " ".join(text.split())
    assert pixels(served).tobytes() == image.tobytes()

    cards = folder / "improvements.yaml"
    where = f"improvements.yaml:{line_of(cards, 'cost: 5')}"
    edit(cards, "cost: 5", 'cost: "beaucoup"')
    shown = browser_wait(desktop, lambda d: face(d, "etayage").find_elements(By.CSS_SELECTOR, ".errors li"),
                         "the error on étayage")
    assert where in shown[0].get_attribute("data-where") and "cost" in shown[0].text
    assert "has-errors" in face(desktop, "etayage").get_attribute("class")
    assert not desktop.find_elements(By.CSS_SELECTOR, ".face:not([data-face=etayage]) .errors li")
    edit(cards, 'cost: "beaucoup"', "cost: 5")
    browser_wait(desktop, lambda d: not face(d, "etayage").find_elements(By.CSS_SELECTOR, ".errors li"),
                 "étayage's error cleared")
    assert "has-errors" not in face(desktop, "etayage").get_attribute("class")
    assert {n: c for n, c in loads(desktop).items() if n != "etayage"} == {n: 1 for n in before if n != "etayage"}


def test_overlays_and_a_click_to_the_source(studio, desktop):
    server, session, folder, launched = studio
    desktop.get(server.url + "/kind/improvement")
    browser_wait(desktop, all_loaded, "every card's picture")
    with urllib.request.urlopen(server.url + "/face/etayage") as response:
        details = json.load(response)
    boxes = details["boxes"]
    w, h, bleed, safe = details["face"]["w"], details["face"]["h"], details["bleed"], details["safe"]

    for name in ("bleed", "trim", "safe", "boxes"):
        desktop.find_element(By.CSS_SELECTOR, f'[data-overlay="{name}"]').click()
    card = face(desktop, "etayage")
    browser_wait(desktop, lambda d: len(card.find_elements(By.CSS_SELECTOR, "svg.overlay rect.box")) == len(boxes),
                 "étayage's boxes drawn")
    drawn = desktop.execute_script(
        "return [...arguments[0].querySelectorAll('svg.overlay rect')].map(r => [r.getAttribute('class'),"
        " +r.getAttribute('x'), +r.getAttribute('y'), +r.getAttribute('width'), +r.getAttribute('height')])", card)
    assert [d for d in drawn if d[0] == "trim"] == [["trim", bleed, bleed, w - 2 * bleed, h - 2 * bleed]]
    assert [d for d in drawn if d[0] == "safe"] == [["safe", bleed + safe, bleed + safe, w - 2 * (bleed + safe),
                                                     h - 2 * (bleed + safe)]]
    assert len([d for d in drawn if d[0] == "bleed"]) == 4
    assert [d[1:] for d in drawn if d[0] == "box"] == [
        [b["x"], b["y"], max(b["w"], 0.2), max(b["h"], 0.2)] for b in boxes]
    # only improvements on this deck's page
    kinds = desktop.execute_script("return [...document.querySelectorAll('.face:not([hidden])')]"
                                   ".map(f => f.dataset.kind)")
    assert set(kinds) == {"improvement"}

    # the last box drawn that holds a point well inside it (and no later box holds it) is the one named
    target = None
    for i, b in enumerate(boxes):
        x, y = b["x"] + b["w"] / 2, b["y"] + b["h"] / 2
        later = [o for o in boxes[i + 1:] if o["x"] <= x <= o["x"] + o["w"] and o["y"] <= y <= o["y"] + o["h"]]
        if not later and b["w"] > 4 and b["h"] > 4:
            target = (b, x, y)
    assert target is not None
    box, x, y = target
    img = card.find_element(By.CSS_SELECTOR, "img")
    size = img.size
    ActionChains(desktop).move_to_element_with_offset(
        img, int(x / w * size["width"] - size["width"] / 2), int(y / h * size["height"] - size["height"] / 2)
    ).click().perform()
    panel = browser_wait(desktop, lambda d: d.find_element(By.ID, "details") if d.find_element(
        By.ID, "details").is_displayed() and d.find_elements(By.CSS_SELECTOR, "#details li.element") else None,
        "the card's details")
    row_line = line_of(folder / "improvements.yaml", "- id: etayage")
    assert f"improvements.yaml:{row_line}" in panel.find_element(By.CSS_SELECTOR, ".row-source").text
    first = panel.find_elements(By.CSS_SELECTOR, "li.element")[0]
    assert first.get_attribute("data-box") == box["name"]
    assert f"{box['file']}:{box['line']}" in first.text
    assert "Étayage" in panel.find_element(By.CSS_SELECTOR, ".fields").text
    first.find_element(By.CSS_SELECTOR, "button.open").click()
    wait_until(lambda: launched, "the editor started")
    assert launched[0][:2] == ["vim", f"+{box['line']}"] and launched[0][2].endswith(box["file"].split("/")[-1])


def test_a_phone_sees_the_cards_without_scrolling_sideways(studio, update_goldens):
    server, _, _, _ = studio
    phone = chrome("--hide-scrollbars", phone=True)
    try:
        phone.get(server.url + "/")
        browser_wait(phone, all_loaded, "every card's picture")
        assert phone.execute_script("return document.documentElement.scrollWidth") <= 360
        widths = phone.execute_script("return [...document.querySelectorAll('.face')].map(f => f.offsetWidth)")
        assert max(widths) <= 360
        if update_goldens:
            phone.save_screenshot(str(ROOT / "docs" / "studio-phone.png"))
    finally:
        phone.quit()
