"""Benchmark: how fast `cardforge serve` answers at the table.

    python bench/serve.py                # server side, and in headless Chromium when it is there
    python bench/serve.py --runs 50 --no-browser

The server runs in a thread (uvicorn, 127.0.0.1, a free port, a temporary play log), its game
data already loaded by one first request per page (a server at the table has long been
started). Reported, medians and 90th percentiles in milliseconds:

- **server side** (``time.perf_counter`` around each HTTP request, from this process): the
  score sheet page (GET), and a score update (the POST the sheet sends as you type) of the
  shipped example of Maphr, Cristaux (cards, optimised choices), Imperial Miners (a mine grid)
  and Mine, All Mine! (posted as its YAML sheet);
- **in the browser** (Chromium, Selenium): page load from the Navigation Timing API
  (``responseEnd - startTime``, ``domContentLoadedEventEnd``, ``loadEventEnd``) and an input →
  update: a digit typed into a cell until the new total is shown (the sheet waits 300 ms
  after the last keystroke before it asks, so that is in the figure; the script's own
  measure of the request alone is given too).
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(db: Path):
    import uvicorn

    from cardforge.web.app import Settings, create_app

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(Settings(db_path=db)), host="127.0.0.1", port=port,
                                           log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return server, thread, port


def flatten(prefix: str, value, out: list[tuple[str, str]]) -> None:
    """A final-state value → the sheet's input names (what the browser would post)."""
    if isinstance(value, dict):
        for k, v in value.items():
            flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, str) and prefix.endswith(("improvements", "cards", "hand", "trophies")):
                out.append((f"{prefix}[{i}].id", v))
            else:
                flatten(f"{prefix}[{i}]", v, out)
    elif isinstance(value, bool):
        if value:
            out.append((prefix, "1"))
    else:
        out.append((prefix, str(value)))


def forms(csrf: str) -> dict[str, list[tuple[str, str]]]:
    out = {}
    for game in ("maphr", "cristaux"):
        state = yaml.safe_load((ROOT / "card_data" / game / "examples" / "final.yaml").read_text(encoding="utf-8"))
        pairs = [("csrf", csrf)]
        flatten("", state, pairs)
        out[game] = pairs
    im = [("csrf", csrf), ("players[0].name", "Aurore"), ("players[0].vp", "31"), ("players[0].coins", "7"),
          ("players[0].carts", "8"), ("players[1].name", "Chloé"), ("players[1].vp", "30"), ("players[1].coins", "7")]
    for r, row in enumerate([["R", "L", "R", "LR"], ["R", "", "L", "none", "L"]]):
        im += [(f"players[1].mine[{r}].cell[{i}]", st) for i, st in enumerate(row)]
    out["imperial_miners"] = im + [("players[1].mine[1].token[0]", "1")]
    example = ROOT / "card_data" / "mine_all_mine" / "examples" / "final.yaml"
    out["mine_all_mine"] = [("csrf", csrf), ("yaml", example.read_text())]
    return out


def timed(conn: http.client.HTTPConnection, method: str, url: str, body: bytes | None,
          headers: dict) -> tuple[float, int, bytes]:
    t0 = time.perf_counter()
    conn.request(method, url, body=body, headers=headers)
    r = conn.getresponse()
    data = r.read()
    return (time.perf_counter() - t0) * 1000, r.status, data


def summary(ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[min(len(ms) - 1, int(round(0.9 * (len(ms) - 1))))]
    return f"median {statistics.median(ms):7.1f}   p90 {p90:7.1f}"


def server_side(port: int, runs: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    _, _, _ = timed(conn, "GET", "/", None, {})
    conn.request("GET", "/g/maphr/sheet")
    r = conn.getresponse()
    r.read()
    csrf = r.getheader("set-cookie").split("cf_csrf=", 1)[1].split(";", 1)[0]
    cookie = {"Cookie": f"cf_csrf={csrf}"}
    print("server side (ms, from the request sent to the last byte received)")
    for game in ("maphr", "cristaux", "imperial_miners", "mine_all_mine"):
        url = f"/g/{game}/sheet?players=3"
        timed(conn, "GET", url, None, cookie)  # the game's data and sheet, loaded once per server
        ms = [timed(conn, "GET", url, None, cookie)[0] for _ in range(runs)]
        print(f"  {game:16} sheet page        {summary(ms)}")
    for game, pairs in forms(csrf).items():
        body = urllib.parse.urlencode(pairs).encode()
        headers = {**cookie, "Content-Type": "application/x-www-form-urlencoded"}
        ms0, status, data = timed(conn, "POST", f"/g/{game}/score", body, headers)
        answer = json.loads(data)
        assert status == 200 and answer["ok"], (game, answer["problems"])
        ms = [timed(conn, "POST", f"/g/{game}/score", body, headers)[0] for _ in range(runs)]
        print(f"  {game:16} score update      {summary(ms)}")


def in_browser(port: int, runs: int) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        chromium = None
    if not chromium or not driver_path:
        print("in the browser: skipped (needs selenium, chromium and chromedriver)")
        return
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=430,932"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        print("in the browser (headless Chromium, ms)")
        base = f"http://127.0.0.1:{port}"
        for game in ("maphr", "cristaux"):
            url = f"{base}/g/{game}/sheet?name=Ana&name=Ben&name=Cid"
            driver.get(url)
            loads, dcl, resp = [], [], []
            for _ in range(runs):
                driver.get(url)
                nav = driver.execute_script("return performance.getEntriesByType('navigation')[0].toJSON()")
                resp.append(nav["responseEnd"] - nav["startTime"])
                dcl.append(nav["domContentLoadedEventEnd"] - nav["startTime"])
                loads.append(nav["loadEventEnd"] - nav["startTime"])
            print(f"  {game:16} page: response   {summary(resp)}")
            print(f"  {game:16} page: DOM ready  {summary(dcl)}")
            print(f"  {game:16} page: loaded     {summary(loads)}")
            form = driver.find_element(By.ID, "sheet")
            WebDriverWait(driver, 30).until(lambda _, f=form: f.get_attribute("data-updated")
                                            and not f.get_attribute("data-pending"))
            cell = driver.find_element(By.NAME, "players[0].coins" if game == "maphr" else "players[0].stock.red")
            typed, request = [], []
            for i in range(runs):
                t0 = time.perf_counter()
                cell.send_keys(str(i % 2 + 1) if i % 2 else "\b\b\b12")
                WebDriverWait(driver, 30, poll_frequency=0.005).until(
                    lambda _, f=form: not f.get_attribute("data-pending"))
                typed.append((time.perf_counter() - t0) * 1000)
                request.append(float(form.get_attribute("data-update-ms")))
            print(f"  {game:16} keystroke → total shown (300 ms debounce included) {summary(typed)}")
            print(f"  {game:16} the update's request + render alone               {summary(request)}")
    finally:
        driver.quit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cardforge-bench-serve-") as tmp:
        server, thread, port = start(Path(tmp) / "plays.db")
        try:
            server_side(port, args.runs)
            if not args.no_browser:
                in_browser(port, max(5, args.runs // 2))
        finally:
            server.should_exit = True
            thread.join(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
