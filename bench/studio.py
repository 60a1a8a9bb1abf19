"""The studio's latency: from saving a file to the changed card's new picture shown in the page.

Starts ``cardforge studio`` (its own process, as a designer runs it) on a copy of the data, opens
its page in headless Chromium (Selenium), and N times saves a file as an editor does; the page's
own observer notes when an <img>'s ``src`` is replaced and when the new picture has loaded (what
the designer sees). The save's time is taken after the file is written and closed, by the same
clock (the epoch: the browser's ``performance.timeOrigin + now()``, Python's ``time.time()``).

Scenarios (issue 43's targets, p95):
- ``maphr``: one card's text (an improvement's effect) edited → its picture shown ≤ 0.1 s;
- ``1k``: the same on the 1,000-card designer game ``bench/run.py`` generates (a generated card) ≤ 0.1 s;
- ``layout``: TunHell's shared ``frame`` layout edited (the band's rule made thicker, then back:
  every front of its 110-card deck redrawn) → every front's new picture shown ≤ 0.5 s.

Besides the page's times, the server's own redraw (wall and CPU seconds of the refreshing
thread, sent with each update) is reported: on a loaded machine the CPU time is the work, the
wall time what the machine's load made of it.

    python bench/studio.py                       # every scenario, 50 saves each
    python bench/studio.py -n 20 --only maphr layout
    python bench/studio.py --only 1k --each      # also each save's times (which save made a tail)

Not a test: the numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

OBSERVER = """
window.benchMarks = [];
window.benchRedraws = [];
new MutationObserver(records => {
  for (const r of records) {
    const img = r.target;
    if (img.tagName !== 'IMG') continue;
    const name = img.closest('.face').dataset.face;
    const set = performance.timeOrigin + performance.now();
    img.addEventListener('load', () => window.benchMarks.push([name, set, performance.timeOrigin + performance.now()]),
                         {once: true});
  }
}).observe(document.getElementById('cards'), {subtree: true, attributes: true, attributeFilter: ['src']});
const source = new EventSource('/events?v=' + window.studioVersion);
source.onmessage = e => { const m = JSON.parse(e.data); if (m.redraw) window.benchRedraws.push(m.redraw); };
"""

MAPHR_TEXT = "Votre mine passe au niveau III pour 10 :coin: au lieu de 30."


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile, nearest rank (p95 of 50: the 48th smallest)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


class Studio:
    """``cardforge studio GAME`` in a child process, and a headless Chromium on its page."""

    def __init__(self, game: str, data: Path | None, tmp: Path) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.port = free_port()
        env = dict(os.environ, CARDFORGE_CACHE=str(tmp / "cache"), CARDFORGE_CONFIG=str(tmp / "config"),
                   PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        env.pop("CARDFORGE_NO_CACHE", None)
        cmd = [sys.executable, "-P", "-m", "cardforge", *(["--data", str(data)] if data else []), "studio", game,
               "--port", str(self.port)]
        self.proc = subprocess.Popen(cmd, env=env, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.url = f"http://127.0.0.1:{self.port}/"
        deadline = time.monotonic() + 300
        while True:
            try:
                with urllib.request.urlopen(self.url + "state", timeout=5) as r:
                    self.faces = json.load(r)["faces"]
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    said = self.proc.stdout.read() if self.proc.stdout else ""
                    raise SystemExit(f"cardforge studio did not start:\n{said}")
                time.sleep(0.2)
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
        for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    "--window-size=1280,900"):
            options.add_argument(arg)
        driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        self.driver = webdriver.Chrome(service=Service(executable_path=driver), options=options)
        self.driver.set_script_timeout(300)
        self.driver.get(self.url)
        self.wait(lambda: self.driver.execute_script(
            "return [...document.querySelectorAll('.face img')].every(i => i.complete && i.naturalWidth > 0)"), 300)
        self.driver.execute_script(OBSERVER)

    def wait(self, condition, timeout: float = 120.0):
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                raise SystemExit("the page did not show the change")
            time.sleep(0.005)

    def marks(self) -> list[list]:
        return self.driver.execute_script("return window.benchMarks")

    def redraws(self) -> list[dict]:
        return self.driver.execute_script("return window.benchRedraws")

    def close(self) -> None:
        self.driver.quit()
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def save(path: Path, text: str) -> float:
    """Write ``text`` as an editor saves (truncate and write); the epoch time once it is closed."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return time.time() * 1000


def run(label: str, studio: Studio, path: Path, variants: list[str], expect: set[str], n: int,
        each: bool = False) -> dict:
    """n saves of ``path`` cycling through ``variants``; after each, wait until every face of
    ``expect`` has a new picture loaded. Returns the times (s)."""
    shown, replaced, wall, cpu = [], [], [], []
    for i in range(n):
        before = len(studio.marks())
        redraws = len(studio.redraws())
        t0 = save(path, variants[i % len(variants)])

        def done():
            new = studio.marks()[before:]
            names = {m[0] for m in new}
            return new if expect <= names else None

        new = studio.wait(done)
        mine = [m for m in new if m[0] in expect]
        replaced.append((max(m[1] for m in mine) - t0) / 1000)
        shown.append((max(m[2] for m in mine) - t0) / 1000)
        got = studio.wait(lambda: studio.redraws()[redraws:])
        wall.append(sum(r["seconds"] for r in got))
        cpu.append(sum(r["cpu"] for r in got))
        if each:  # each save's redraws (wall, CPU s): a tail shows which save made it
            print(f"  save {i + 1}: shown {shown[-1]:.3f} s; redraws {[(r['seconds'], r['cpu']) for r in got]}",
                  flush=True)
        time.sleep(0.3)  # the next save is another save, not the same one
    out = {"label": label, "saves": n, "faces": len(expect)}
    for name, values in (("shown", shown), ("src_replaced", replaced), ("server_wall", wall), ("server_cpu", cpu)):
        out[name] = {"p50": round(statistics.median(values), 4), "p95": round(percentile(values, 95), 4),
                     "max": round(max(values), 4)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=50, help="saves per scenario (default 50)")
    parser.add_argument("--only", nargs="*", default=["maphr", "1k", "layout"], choices=["maphr", "1k", "layout"])
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--each", action="store_true", help="also print every save's times")
    args = parser.parse_args()
    from run import make_synthetic  # bench/run.py: the 1,000-card designer game

    results = []
    tmp = Path(tempfile.mkdtemp(prefix="cardforge-studio-bench-"))
    try:
        for scenario in args.only:
            data = tmp / scenario / "data"
            data.mkdir(parents=True)
            if scenario == "maphr":
                shutil.copytree(ROOT / "card_data" / "maphr", data / "maphr")
                game, path = "maphr", data / "maphr" / "improvements.yaml"
                source = path.read_text(encoding="utf-8")
                variants = [source.replace(MAPHR_TEXT, f"{MAPHR_TEXT} ({i})") for i in range(1, 4)]
                expect = {"etayage"}
            elif scenario == "1k":
                make_synthetic(data, 1000)
                game, path = "maphr", data / "maphr" / "synthetic.yaml"
                source = path.read_text(encoding="utf-8")
                assert "(n° 500)" in source
                variants = [source.replace("(n° 500)", f"(n° 500, {i})") for i in range(1, 4)]
                expect = {"synthetique-500"}
            else:
                shutil.copytree(ROOT / "card_data" / "tunhell", data / "tunhell")
                # the game's folder itself (its templates/ are the game folder's, not a --data folder's)
                game, path = str(data / "tunhell"), data / "tunhell" / "templates" / "layout.yaml"
                source = path.read_text(encoding="utf-8")
                rule = 'band_rule: {type: rect, y: 16mm, height: 0, stroke: "#2a1d12", stroke_width: 0.8, bleed: true}'
                assert rule in source
                variants = [source.replace(rule, rule.replace("0.8", w)) for w in ("1.6", "0.8")]
                expect = set()
            studio = Studio(game, None if scenario == "layout" else data, tmp / scenario)
            try:
                if scenario == "layout":
                    expect = {f["name"] for f in studio.faces if f["side"] == "front"}
                result = run(scenario, studio, path, variants, expect, args.n, args.each)
                result["faces_on_page"] = len(studio.faces)
                results.append(result)
            finally:
                studio.close()
            if not args.json:
                r = result
                print(f"{scenario}: {args.n} saves, {r['faces']} face(s) redrawn each; "
                      f"save → shown p50 {r['shown']['p50']:.3f} s, p95 {r['shown']['p95']:.3f} s "
                      f"(src replaced p95 {r['src_replaced']['p95']:.3f} s); server redraw p50 "
                      f"{r['server_wall']['p50']:.3f} s wall, {r['server_cpu']['p50']:.3f} s CPU "
                      f"(p95 {r['server_wall']['p95']:.3f} / {r['server_cpu']['p95']:.3f})", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
