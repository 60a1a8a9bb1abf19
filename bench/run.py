"""Benchmark: building a deck with cardforge against the hand-written ReportLab ceiling.

    python bench/run.py                 # the Maphr deck, 5 runs each, alternating
    python bench/run.py --runs 9 --games maphr tunhell

Each run is a fresh process, so start-up, imports, data loading, validation and templating
are all counted, as a designer's rebuild pays them. The two builds alternate (cardforge, then
the ceiling, then the ceiling, then cardforge…) so that machine noise hits both alike. Peak
memory is the child process's maximum resident set (``wait4``); PDF bytes per card are the
file sizes divided by the cards printed. Medians are reported, and the median of the per-run
ratios cardforge / ceiling.

``--cold`` also times cardforge with its validated-data cache off (``CARDFORGE_NO_CACHE=1``):
a first build after an edit to the data.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(cmd: list[str], env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, peak MiB) of one child process; raises if it fails."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err}")
    return elapsed, usage.ru_maxrss / 1024  # Linux: KiB


def pdf_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*.pdf"))


def bench_game(game: str, runs: int, cold: bool) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env = dict(os.environ)
        cf_cmd = [sys.executable, "-m", "cardforge", "build", game, "-o", str(tmp / "cf"), "--only", "decks", "-q"]
        ceiling_out = tmp / "ceiling" / "deck.pdf"
        ceiling_out.parent.mkdir()
        ce_cmd = [sys.executable, str(ROOT / "bench" / "ceiling.py"), str(ROOT / "card_data" / game),
                  str(ceiling_out)]
        count = int(subprocess.run(ce_cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout)
        measure(cf_cmd, env)  # warm-up: file-system caches, the data cache
        cf, ce, cold_runs = [], [], []
        for i in range(runs):
            order = [("cf", cf_cmd), ("ce", ce_cmd)] if i % 2 == 0 else [("ce", ce_cmd), ("cf", cf_cmd)]
            for name, cmd in order:
                (cf if name == "cf" else ce).append(measure(cmd, env))
            if cold:
                cold_runs.append(measure(cf_cmd, {**env, "CARDFORGE_NO_CACHE": "1"}))
        rows = []
        ratios = [a[0] / b[0] for a, b in zip(cf, ce)]
        for label, samples, folder in ((f"{game} (cardforge)", cf, tmp / "cf"),
                                       (f"{game} (ceiling)", ce, ceiling_out.parent),
                                       (f"{game} (cardforge, cold)", cold_runs, tmp / "cf")):
            if not samples:
                continue
            seconds = statistics.median(s[0] for s in samples)
            rows.append({
                "deck": label, "cards": count, "seconds": seconds, "cards/s": count / seconds,
                "ratio": (statistics.median(ratios) if "cardforge)" in label else
                          seconds / statistics.median(s[0] for s in ce) if "cold" in label else 1.0),
                "peak MiB": max(s[1] for s in samples), "bytes/card": pdf_bytes(folder) / count,
            })
        return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["maphr"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="also time cardforge without its data cache")
    args = parser.parse_args(argv)
    rows = []
    for game in args.games:
        rows += bench_game(game, max(1, args.runs), args.cold)
    header = f"{'deck':<28}{'cards':>7}{'seconds':>9}{'cards/s':>9}{'ratio':>7}{'peak MiB':>10}{'bytes/card':>12}"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['deck']:<28}{r['cards']:>7}{r['seconds']:>9.3f}{r['cards/s']:>9.0f}{r['ratio']:>7.2f}"
              f"{r['peak MiB']:>10.1f}{r['bytes/card']:>12.0f}")
    print(f"\nmedians of {args.runs} alternating runs; ratio = cardforge seconds / ceiling seconds "
          f"(median of per-run ratios); {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
