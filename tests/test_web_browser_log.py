"""The play log's pages in headless Chromium at a phone's size (360 × 740, touch): no
horizontal scroll, 44 px targets, the charts drawn; players picked by taps in seat order; a
delete undone. `--update-goldens` writes docs/stats.png (the README's screenshot)."""

from __future__ import annotations

import pytest

from browser_support import BROWSER_TEST, ServerThread, chrome
from conftest import ROOT
from waiting import browser_wait, tap

pytestmark = BROWSER_TEST

#: every control and every link standing on its own (not inside a sentence): ≥ 44 × 44 px
TARGETS = """
const out = [];
const sel = 'button, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, summary, .chip,'
          + ' header a, .links a, table.stats th a, ul.plays a, ul.roster-list a, a.button';
for (const el of document.querySelectorAll(sel)) {
  const r = el.getBoundingClientRect();
  if (r.width && r.height && (r.height < 43.5 || r.width < 43.5))
    out.push(el.tagName + ' ' + (el.textContent || el.name || '').trim().slice(0, 30) + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
}
return out;"""


@pytest.fixture(scope="module")
def phone():
    """Headless Chromium as a phone: 360 × 740, touch."""
    driver = chrome("--hide-scrollbars", phone=True)
    yield driver
    driver.quit()


def _seed(path) -> None:
    """Eight evenings of TunHell and Imperial Miners, four friends."""
    from cardforge.playlog.store import Details, PlayLog

    log = PlayLog(path)
    log.add_player("Ana", "orange")
    log.add_player("Ben", "sky")
    log.add_player("Cléo", "green")
    log.add_player("Dan", "purple")
    tunhell = [  # (day, first seat, [(name, loot, trophies, rings, back door)])
        ("2026-09-05", 0, [("Ana", 17, 1, 2, 0), ("Ben", 15, 2, 0, 1)]),
        ("2026-09-19", 1, [("Ana", 9, 0, 0, 0), ("Ben", 14, 1, 2, 0), ("Cléo", 12, 2, 0, 1)]),
        ("2026-10-03", 2, [("Cléo", 16, 1, 0, 0), ("Dan", 11, 0, 2, 1), ("Ana", 13, 2, 0, 0)]),
        ("2026-10-17", 0, [("Ben", 10, 0, 2, 1), ("Dan", 18, 3, 0, 0), ("Cléo", 12, 0, 2, 0), ("Ana", 15, 0, 0, 0)]),
        ("2026-10-31", 1, [("Ana", 19, 1, 2, 0), ("Cléo", 17, 2, 0, 1)]),
        ("2026-11-14", 0, [("Dan", 8, 0, 0, 1), ("Ben", 16, 3, 2, 0), ("Ana", 14, 0, 0, 0)]),
        ("2026-11-21", 2, [("Cléo", 20, 1, 2, 0), ("Ana", 12, 2, 0, 1), ("Ben", 13, 0, 0, 0)]),
        ("2026-11-26", 1, [("Ana", 16, 3, 0, 0), ("Dan", 15, 0, 2, 1)]),
    ]
    cats = ["loot", "trophies", "rings", "back_door"]
    for day, first, seats in tunhell:
        totals = [sum(s[1:]) for s in seats]
        ranks = [1 + sum(t > mine for t in totals) for mine in totals]
        result = {"ok": True, "game": "tunhell", "mode": "full", "categories": cats,
                  "players": [{"name": s[0], "total": t, "rank": r, "breakdown": dict(zip(cats, s[1:]))}
                              for s, t, r in zip(seats, totals, ranks)],
                  "winners": [s[0] for s, r in zip(seats, ranks) if r == 1]}
        log.add_play(game="tunhell", title="TunHell", mode="full", state_yaml="", result=result,
                     details=Details(day, 45, first_seat=first), source="import")


def _check_phone_page(phone, url: str) -> None:
    phone.get(url)
    width = phone.execute_script("return document.documentElement.scrollWidth")
    assert width <= 360, f"{url}: {width} px wide on a 360 px screen"
    assert phone.execute_script(TARGETS) == [], url


def test_the_log_s_pages_fit_a_phone(tmp_path, phone, update_goldens):
    from PIL import Image
    from selenium.webdriver.common.by import By

    from cardforge.web.app import Settings

    _seed(tmp_path / "plays.db")
    with ServerThread(Settings(db_path=tmp_path / "plays.db")) as s:
        for path in ("/stats?game=tunhell", "/stats", "/plays", "/plays/3", "/players", "/players/1", "/log",
                     "/g/tunhell", "/"):
            _check_phone_page(phone, s.url + path)
        phone.get(s.url + "/stats?game=tunhell")
        charts = phone.find_elements(By.CSS_SELECTOR, "svg.chart.phone")  # each chart laid out for a phone
        assert len(charts) == 5
        for chart in charts:
            assert 300 <= chart.size["width"] <= 340 and chart.size["height"] > 80
        # by hand from the seed: the winners are Ana (20), Ben (17), Cléo (17), Dan (21), Ana (22), Ben (21),
        # Cléo (23), Ana (19): Ana 3 of her 8 plays, Ben 2 of 5, Cléo 2 of 5, Dan 1 of 4
        text = charts[0].text
        assert "Win rate" in text and "38 % · 3 of 8" in text and "40 % · 2 of 5" in text and "25 % · 1 of 4" in text
        height = phone.execute_script("return document.documentElement.scrollHeight")
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": 360, "height": min(height, 1800), "deviceScaleFactor": 1, "mobile": True})
        shot = tmp_path / "stats.png"
        phone.save_screenshot(str(shot))
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": True})
        with Image.open(shot) as im:
            assert im.size[0] == 360 and im.size[1] >= 1200
            if update_goldens:  # the README's screenshot: the TunHell stats on a phone
                im.convert("RGB").quantize(64).save(ROOT / "docs" / "stats.png", optimize=True)


def test_players_tapped_in_seat_order_and_a_delete_undone(tmp_path, phone):
    from selenium.webdriver.common.by import By

    from cardforge.web.app import Settings

    _seed(tmp_path / "plays.db")
    with ServerThread(Settings(db_path=tmp_path / "plays.db")) as s:
        phone.get(s.url + "/g/tunhell")
        chips = {c.text.strip(): c for c in phone.find_elements(By.CSS_SELECTOR, "label.chip.pick")}
        for name in ("Dan", "Ana", "Cléo"):  # tapped in this order: the seats
            tap(phone, chips[name])
        tap(phone, chips["Ana"])  # untapped: Dan, Cléo
        tap(phone, chips["Ben"])
        seats = {name: chip.find_element(By.CSS_SELECTOR, ".seat").text for name, chip in chips.items()}
        assert seats == {"Dan": "1", "Cléo": "2", "Ben": "3", "Ana": ""}
        tap(phone, phone.find_element(By.CSS_SELECTOR, "#pick-players button[type=submit]"))
        browser_wait(phone, lambda d: "/sheet" in d.current_url, "the sheet of the players tapped")
        names = [i.get_attribute("value") for i in phone.find_elements(By.CSS_SELECTOR, "input.pname")]
        assert names == ["Dan", "Cléo", "Ben"]
        # a play deleted, then back with one tap
        phone.get(s.url + "/plays/2")
        tap(phone, phone.find_element(By.ID, "delete"))
        browser_wait(phone, lambda d: "undo=2" in d.current_url, "the page after the delete")
        assert "Play #2" in phone.find_element(By.ID, "undo-banner").text
        tap(phone, phone.find_element(By.ID, "undo"))
        browser_wait(phone, lambda d: d.current_url.endswith("/plays/2"), "the play undeleted")
        assert not phone.find_elements(By.ID, "deleted-banner")
