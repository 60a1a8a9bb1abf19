"""How the tests wait: for a condition, never for a fixed time, with one generous bound.

A loaded machine (two cores shared with other jobs, a load average of 15) makes everything slow —
a server's start, a browser's page, a rebuild, a subprocess — but never wrong: a test waits for
what it needs (a file, a line of output, an element, a page's answer) and fails only when that
has not happened within ``PATIENCE``. Nothing asserts how long it took.

The browser tests' waits are here too (Selenium imported when they run): `quiet` (the score
sheet's answer to the latest change is shown), `scored`, `tap` and `touch_at` (a tap once the page
is still, waited for until the page has received it)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

#: seconds a test waits for something before failing: generous, a loaded machine is slow; a
#: passing test never waits this long, a failing one says what it waited for
PATIENCE = 120.0


def wait_until(condition: Callable[[], Any], what: str, *, poke: Callable[[], object] | None = None,
               timeout: float = PATIENCE, every: float = 0.05) -> Any:
    """``condition()``'s first true value, polled every ``every`` s (``poke()`` between two tries,
    e.g. save a file again: a watcher may not listen yet when the first save lands); fails the
    test, naming ``what``, after ``timeout`` s."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"{what}: not seen within {timeout:.0f} s")
        if poke is not None:
            poke()
        time.sleep(every)


# --- the browser ---------------------------------------------------------------------------------

def browser_wait(driver, condition: Callable[[Any], Any], what: str, timeout: float = PATIENCE) -> Any:
    """Selenium's wait for ``condition(driver)``, its failure naming ``what``."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # (an element looked for on a page still loading, or on one just replaced: not yet)
    return WebDriverWait(driver, timeout, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)
                         ).until(condition, f"{what}: not seen within {timeout:.0f} s")


def quiet(driver) -> None:
    """The score sheet shows its answer to the latest change (no update pending): nothing on the
    page moves until the next change. (`static/sheet.js` sets ``data-pending`` on the form when
    a change is made and removes it when the answer to the latest one is shown.)"""
    from selenium.webdriver.common.by import By

    browser_wait(driver, lambda d: not d.find_element(By.ID, "sheet").get_attribute("data-pending"),
                 "the sheet's answer to the latest change")


def scored(driver, previous: str | None = None) -> dict:
    """Wait for the sheet's answer to the latest change, one newer than ``previous`` (the form's
    ``data-updated`` then; None: any); the score JSON it shows, or {} while the sheet cannot be
    scored."""
    import json

    from selenium.webdriver.common.by import By

    def settled(d):
        form = d.find_element(By.ID, "sheet")
        updated = form.get_attribute("data-updated")
        return updated and updated != previous and not form.get_attribute("data-pending")

    browser_wait(driver, settled, "the sheet's score")
    found = driver.find_elements(By.ID, "score-json")
    return json.loads(found[0].get_attribute("textContent")) if found else {}


#: counts the clicks the page has received (taps included), installed once per page
_TAPS = """
if (window.__taps === undefined) {
  window.__taps = 0;
  document.addEventListener('click', function () { window.__taps++; }, true);
}
return window.__taps;"""


def on_sheet(driver) -> bool:
    from selenium.webdriver.common.by import By

    return bool(driver.find_elements(By.ID, "sheet"))


def tap(driver, el, block: str = "center") -> None:
    """A finger on the element, as a player taps: once the page is still (on a sheet, its answer
    to the last change shown: an answer arriving moves what lies below the messages it places,
    and a tap aimed before it lands beside its target), the element scrolled to the middle of
    the screen (never under the sticky bars), tapped; returns once the page has received the
    tap (a tap is a touch the browser turns into a click later: the next step must not overtake
    it)."""
    if on_sheet(driver):
        quiet(driver)
    before = driver.execute_script(_TAPS)
    driver.execute_script(f"arguments[0].scrollIntoView({{block: '{block}', inline: 'center'}})", el)
    el.click()
    _received(driver, before)


def touch_at(driver, x: float, y: float) -> None:
    """A tap by position (a touch start and end at the point, as a finger makes it), returning
    once the page has received it. The caller makes sure the page is still (`quiet`) before
    reading the point."""
    before = driver.execute_script(_TAPS)
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    _received(driver, before)


def _received(driver, before: int) -> None:
    # a tap that loads another page (a link, a form posted) starts a new count: received too
    browser_wait(driver, lambda d: d.execute_script("return window.__taps") != before, "the page receiving a tap")
