"""What the browser tests share: Debian's headless Chromium driven by Selenium (skipped, saying
why, where either is missing), a `cardforge serve` app in a thread, the desktop and phone
browsers. How they wait is tests/waiting.py."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import socket
import threading
from pathlib import Path

import pytest

from waiting import PATIENCE, wait_until

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)

try:
    from selenium import webdriver
except ImportError:  # pragma: no cover
    webdriver = None

#: the browser tests' marks: slow, and skipped (saying why) without a browser
BROWSER_TEST = [pytest.mark.slow, pytest.mark.skipif(
    webdriver is None or not CHROMIUM or not DRIVER,
    reason="browser tests need selenium and Debian's chromium + chromium-driver "
           "(apt-get install -y chromium chromium-driver; .ci/run installs them)")]

#: a phone's layout viewport (a desktop window cannot be made 360 px wide)
PHONE = {"width": 360, "height": 740, "pixelRatio": 1, "touch": True}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: ``CARDFORGE_TEST_ANSWER_DELAY=0.6``: each live update of a sheet (``POST …/score``) answered
#: after a random 0–0.6 s, as by a loaded server: how a page race is reproduced at will
ANSWER_DELAY = float(os.environ.get("CARDFORGE_TEST_ANSWER_DELAY") or 0)


def _slowed(app):
    async def slowed(scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"].endswith("/score"):
            await asyncio.sleep(random.uniform(0, ANSWER_DELAY))
        await app(scope, receive, send)

    return slowed


class ServerThread:
    """`cardforge serve`'s app on 127.0.0.1 and a free port, in a thread: ``with
    ServerThread(Settings(...)) as s: s.url``."""

    def __init__(self, settings, port: int | None = None, app=None):
        import uvicorn

        from cardforge.web.app import create_app

        self.port = port or free_port()  # a port given: the same address after a restart
        self.app = app if app is not None else create_app(settings)  # app: another app (the studio's)
        if ANSWER_DELAY:
            self.app = _slowed(self.app)
        # as the commands run it: an open event stream (the studio's page) is cut 1 s into the
        # shutdown, not waited for (the teardown waited the whole PATIENCE, 120 s, for it)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                   log_level="warning", access_log=False,
                                                   timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        wait_until(lambda: self.server.started or not self.thread.is_alive(), "the test server's start")
        if not self.server.started:
            raise RuntimeError("the test server did not start")
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(PATIENCE)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def chrome(*args: str, phone: bool = False):
    """Headless Chromium (``phone``: in Chrome's mobile emulation at 360 × 740 with touch)."""
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=en", *args):
        options.add_argument(arg)
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": PHONE})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(PATIENCE)
    driver.set_script_timeout(PATIENCE)
    return driver


def open_fresh(driver, url: str) -> None:
    """``url`` opened with nothing kept on this origin by an earlier test: a score sheet brings
    back the draft kept for its address (static/sheet.js — what a player wants after a reload),
    and tests that share a browser and a server open the same sheets one after another."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    driver.get(f"{parts.scheme}://{parts.netloc}/static/style.css")
    driver.execute_script("localStorage.clear(); sessionStorage.clear()")
    driver.get(url)
