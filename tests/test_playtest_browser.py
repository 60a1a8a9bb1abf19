"""Issue 44 in the browser: the QR code printed on a build's score pad, scanned (decoded from the
rasterised PDF), opens the score sheet in headless Chromium; the play entered there is saved
under the printed version, and the lab lists it there — after the designer's data moved on."""

from __future__ import annotations

import sqlite3

import pytest
import yaml
from test_playtest_link import codes

from browser_support import BROWSER_TEST, ServerThread, chrome, free_port, open_fresh
from waiting import browser_wait, scored, tap

pytestmark = BROWSER_TEST


@pytest.fixture(scope="module")
def browser():
    driver = chrome("--window-size=430,1400", "--force-device-scale-factor=1")
    yield driver
    driver.quit()


def test_the_printed_code_leads_to_the_sheet_and_the_play_to_its_version(tmp_path, browser, cli):
    from selenium.webdriver.common.by import By

    from cardforge.web.app import Settings

    folder = tmp_path / "jeu-imprime"
    assert cli("new", folder, "--lang", "fr").code == 0
    port = free_port()
    out = tmp_path / "print"
    r = cli("build", folder, "--only", "decks,pads", "--playtest", f"http://127.0.0.1:{port}", "-o", out)
    assert r.code == 0, r.err
    ((url,),) = codes(out / "jeu_imprime" / "score-pad.pdf")
    assert url.startswith(f"http://127.0.0.1:{port}/p/jeu_imprime/0.1/")
    fingerprint = url.rsplit("/", 1)[1]
    # the designer moves on: the working data is v0.2 now, the printed decks are still v0.1
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace('version: "0.1"', 'version: "0.2"'),
                         encoding="utf-8")
    state = yaml.safe_load((folder / "examples" / "final.yaml").read_text(encoding="utf-8"))
    db = tmp_path / "plays.db"
    with ServerThread(Settings(db_path=db, games=[folder]), port=port) as s:
        open_fresh(browser, url)  # the phone's camera opens the printed address
        browser_wait(browser, lambda d: d.current_url.endswith("/g/jeu_imprime/sheet"), "the score sheet")
        assert (f"Printed deck v0.1 · {fingerprint}" in
                browser.find_element(By.ID, "printed-deck").text)
        first = scored(browser)
        for i, p in enumerate(state["players"]):
            field = browser.find_element(By.NAME, f"players[{i}].name")
            field.clear()
            field.send_keys(p["name"])
            for key in ("cartes", "objectifs", "pieces"):
                el = browser.find_element(By.NAME, f"players[{i}].{key}")
                el.clear()
                el.send_keys(str(p[key]))
        shown = scored(browser, first)
        assert [p["total"] for p in shown["players"]] == [12, 12] and shown["winners"] == ["Alice"]
        tap(browser, browser.find_element(By.ID, "save"))
        browser_wait(browser, lambda d: "/plays/" in d.current_url, "the saved play's page")
        browser.get(f"{s.url}/g/jeu_imprime/lab")
        lab = browser.find_element(By.TAG_NAME, "main").text
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT deck_version, deck_fp FROM plays").fetchall()
    assert rows == [("0.1", None)]  # the printed version; its cards are not the served ones
    lines = lab.splitlines()
    assert "the working data: v0.2" in lines[1]  # what the server serves now…
    assert "v0.1 — 1 play" in lines  # …and the play, under the printed version
    assert not any(line.startswith("v0.2") for line in lines)
