"""Watch mode's latency: from saving a card file to the rebuilt deck, Maphr, median of N.

Starts ``cardforge build maphr --only decks --watch`` on a copy of Maphr's data (its own
cache and output folders), waits for the first build, then N times edits one card's text
(a new value each time, written as an editor saves) and times until watch mode prints
``maphr: rebuilt in …`` — the deck is in place by then (a build is a transaction).

    python bench/watch_latency.py            # 5 saves
    python bench/watch_latency.py -n 9 --poll

Not a test: the number depends on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE = "improvements.yaml"
ORIGINAL = "Votre mine passe au niveau III pour 10 :coin: au lieu de 30."


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5, help="saves to time (default 5)")
    parser.add_argument("--poll", action="store_true", help="force polling (CARDFORGE_WATCH_POLL=1)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for one rebuild")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="cardforge-watch-bench-"))
    try:
        shutil.copytree(ROOT / "card_data" / "maphr", tmp / "data" / "maphr")
        # this tree's cardforge (PYTHONPATH, and -P: the working directory is not searched), so
        # that `cd OLD && python bench/watch_latency.py` times OLD, whatever is installed
        env = dict(os.environ, CARDFORGE_CACHE=str(tmp / "cache"), PYTHONUNBUFFERED="1", PYTHONPATH=str(ROOT))
        env.pop("CARDFORGE_NO_CACHE", None)
        if args.poll:
            env["CARDFORGE_WATCH_POLL"] = "1"
        cmd = [sys.executable, "-P", "-m", "cardforge", "--data", str(tmp / "data"), "build", "maphr",
               "--only", "decks", "-o", str(tmp / "out"), "--watch"]
        # SIGINT back to its default (a background job of a shell ignores it): Ctrl-C is sent at the end
        proc = subprocess.Popen(cmd, env=env, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        lines: queue.Queue[str] = queue.Queue()
        for stream in (proc.stdout, proc.stderr):
            threading.Thread(target=lambda s=stream: [lines.put(line) for line in s], daemon=True).start()

        def wait_for(text: str) -> str:
            deadline = time.monotonic() + args.timeout
            while time.monotonic() < deadline:
                try:
                    line = lines.get(timeout=0.5)
                except queue.Empty:
                    if proc.poll() is not None:
                        raise SystemExit(f"watch mode exited ({proc.returncode})") from None
                    continue
                if text in line:
                    return line
            raise SystemExit(f"no {text!r} within {args.timeout} s")

        wait_for("Ctrl-C to stop)")
        time.sleep(1.0)  # let the watcher settle
        path = tmp / "data" / "maphr" / FILE
        source = path.read_text(encoding="utf-8")
        times = []
        for i in range(args.n):
            path.write_text(source.replace(ORIGINAL, f"{ORIGINAL} ({i + 1})"), encoding="utf-8")
            t0 = time.perf_counter()
            line = wait_for("maphr: rebuilt in ")
            times.append(time.perf_counter() - t0)
            print(f"save {i + 1}: {times[-1]:.3f} s  [{line.strip()}]")
            time.sleep(1.0)
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        p90 = sorted(times)[max(0, -(-9 * len(times) // 10) - 1)]  # the value 90 % of the saves are within
        print(f"median save → rebuilt deck: {statistics.median(times):.3f} s over {args.n} saves "
              f"(min {min(times):.3f}, p90 {p90:.3f}, max {max(times):.3f}); exit {code}")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
