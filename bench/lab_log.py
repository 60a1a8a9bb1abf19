"""The playtest lab at 10,000 plays (issue 39): how long the lab page takes (cold, then from the
cache a log that has not changed keeps), how long an import of that many plays takes, and how big
the export is against the log.

The log: Maphr-like plays from tests/lab_sim.py (2–4 players, 40 improvements and 4 clans —
the shipped improvements' ids, so the page names them), written with their facts as
`cardforge plays add` records them (``lab_sim.log_rows``).

    python bench/lab_log.py [--plays 10000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def plays_of(n: int, seed: int = 1) -> list[dict]:
    import lab_sim

    return lab_sim.log_rows(lab_sim.simulate(n, seed))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--plays", type=int, default=10_000)
    ap.add_argument("--keep", default=None, help="write the log here and keep it")
    a = ap.parse_args()
    from starlette.testclient import TestClient

    from cardforge.playlog.store import PlayLog
    from cardforge.web.app import Settings, create_app

    folder = Path(a.keep or tempfile.mkdtemp(prefix="lab-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "plays.db"
    db.unlink(missing_ok=True)
    plays = plays_of(a.plays)
    t = time.perf_counter()
    added, _ = PlayLog(db).add_plays(plays)
    print(f"add_plays: {added} plays in {time.perf_counter() - t:.1f} s (one transaction)")
    cli = [sys.executable, "-m", "cardforge"]
    csv = folder / "plays.csv"
    t = time.perf_counter()
    subprocess.run([*cli, "plays", "export", "--db", str(db), "-o", str(csv)], check=True, capture_output=True)
    print(f"export CSV: {time.perf_counter() - t:.1f} s, {csv.stat().st_size / 1e6:.1f} MB")
    backup = folder / "plays.json"
    t = time.perf_counter()
    subprocess.run([*cli, "plays", "export", "--db", str(db), "-o", str(backup)], check=True, capture_output=True)
    log_size = db.stat().st_size + sum(p.stat().st_size for p in folder.glob("plays.db-wal"))
    print(f"export JSON: {time.perf_counter() - t:.1f} s, {backup.stat().st_size / 1e6:.1f} MB for a "
          f"{log_size / 1e6:.1f} MB log ({backup.stat().st_size / log_size:.2f}×)")
    fresh = folder / "imported.db"
    fresh.unlink(missing_ok=True)
    t = time.perf_counter()
    r = subprocess.run([*cli, "plays", "import", str(csv), "--db", str(fresh)], capture_output=True, text=True)
    print(f"import CSV ({a.plays} plays, a fresh process): {time.perf_counter() - t:.1f} s — {r.stdout.strip()}"
          f"{r.stderr.strip()[:300]}")
    client = TestClient(create_app(Settings(db_path=db)), base_url="http://127.0.0.1:8000")
    for label in ("lab page, cold", "lab page, cached", "lab page, cached"):
        t = time.perf_counter()
        page = client.get("/g/maphr/lab")
        print(f"{label}: {time.perf_counter() - t:.2f} s ({page.status_code}, {len(page.content) / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()
