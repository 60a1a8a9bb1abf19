"""Benchmark: ``cardforge export maphr png --dpi 300`` against the rasteriser's own speed.

    python bench/export_png.py             # 3 runs of the export, then one timed breakdown
    python bench/export_png.py --runs 5 --dpi 600 --game tunhell

The export of Maphr's 250-card deck writes 80 PNGs (its 79 distinct fronts — copies are
identical — and one back), 827 × 827 px at 300 dpi (70 mm; 898 px with ``--bleed``'s 3 mm).
Reported:

- ``export``: ``cardforge export GAME png`` in a fresh process (start-up, data, drawing,
  rasterising, PNG files), medians of ``--runs`` (after one warm-up run) of wall seconds and
  of user+system CPU seconds (``wait4``; steadier on a shared machine);
- the same export in-process, split (CPU seconds): drawing the faces' PDF (the print's painter, one page per
  face), pypdfium2 rendering those pages (the rasteriser alone: what the export cannot go
  below), and encoding + writing the PNGs;
- ``workers``: the export's own rasterise-encode-write step (``export_pngs``, the faces drawn
  once beforehand) with one process and with its worker processes (one a core), alternating,
  medians of ``--runs`` wall seconds: what the processes buy on this machine now;
- ``print PDF``: pypdfium2 rendering the print's own ``deck.pdf`` (250 cards on A4 sheets, at
  the same dpi) — the rasteriser's speed on the same cards, per card.
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


def cli_run(args: list[str], env: dict) -> tuple[float, float]:
    """(wall, user+system CPU) seconds of ``cardforge ARGS`` in a fresh process."""
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cardforge", *args],  # as the console script runs
                            env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"cardforge {' '.join(args)} failed ({proc.returncode})")
    return time.perf_counter() - t, usage.ru_utime + usage.ru_stime


def breakdown(game_id: str, dpi: int, bleed: float, out: Path) -> dict:
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game
    from cardforge.render.cards.faces import deck_faces, faces_pdf, rasterise, save_png

    game = find_game(game_id)
    data = load_game_data(game)
    t0 = time.process_time()
    faces = deck_faces(game, data, bleed)
    which = faces.all
    pdf = faces_pdf(faces, which)
    t1 = time.process_time()
    sizes = [f.pixels(dpi, bleed) for f in which]
    images = list(rasterise(pdf, sizes))
    t2 = time.process_time()
    out.mkdir(parents=True, exist_ok=True)
    total = 0
    for face, image in zip(which, images):
        path = out / f"{face.name}.png"
        with open(path, "wb") as f:
            save_png(image, f, dpi)
        total += path.stat().st_size
    t3 = time.process_time()
    return {"faces": len(which), "cards": sum(f.card.copies for f in faces.fronts), "draw": t1 - t0,
            "raster": t2 - t1, "png": t3 - t2, "bytes": total, "size": sizes[0]}


def compare_workers(game_id: str, dpi: int, bleed: float, out: Path, runs: int) -> dict:
    """Median wall seconds of ``export_pngs`` with one process and with its default workers,
    alternating (the faces' drawing done once, outside the timing)."""
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game
    from cardforge.render.cards.faces import deck_faces
    from cardforge.render.exports.export_png import export_pngs, worker_count

    game = find_game(game_id)
    faces = deck_faces(game, load_game_data(game), bleed)
    default = worker_count(len(faces.all))
    times: dict[int, list[float]] = {1: [], default: []}
    for i in range(runs + 1):
        for workers in ((1, default) if i % 2 == 0 else (default, 1)):
            t = time.perf_counter()
            export_pngs(faces, out / f"w{workers}", dpi, workers=workers)
            if i:  # the first round warms up
                times[workers].append(time.perf_counter() - t)
    return {"faces": len(faces.all), "workers": default,
            "one": statistics.median(times[1]), "pool": statistics.median(times[default])}


def print_pdf_raster(game_id: str, dpi: int, workdir: Path, env: dict) -> tuple[float, int]:
    """Seconds for pypdfium2 to render every page of the print's deck.pdf at ``dpi``; cards."""
    import pypdfium2 as pdfium

    cli_run(["build", game_id, "--only", "decks", "-q", "-o", str(workdir / "print")], env)
    doc = pdfium.PdfDocument(str(workdir / "print" / game_id / "deck.pdf"))
    t = time.process_time()
    for i in range(len(doc)):
        doc[i].render(scale=dpi / 72).to_pil()
    elapsed = time.process_time() - t
    pages = len(doc)
    doc.close()
    return elapsed, pages


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="maphr")
    ap.add_argument("--dpi", type=int, default=300)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--bleed", action="store_true", help="export with the 3 mm bleed")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="cf-bench-png-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "CARDFORGE_CACHE": str(work / "cache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        os.environ["CARDFORGE_CACHE"] = env["CARDFORGE_CACHE"]
        export = ["export", args.game, "png", "--dpi", str(args.dpi), "-q", "-o", str(work / "png")]
        if args.bleed:
            export.append("--bleed")
        cli_run(export, env)  # warm-up: caches, bytecode, file system
        runs = [cli_run(export, env) for _ in range(args.runs)]
        parts = breakdown(args.game, args.dpi, 3.0 if args.bleed else 0.0, work / "png-inproc")
        pool = compare_workers(args.game, args.dpi, 3.0 if args.bleed else 0.0, work / "png-workers", args.runs)
        raster_print, pages = print_pdf_raster(args.game, args.dpi, work, env)
    n, cards = parts["faces"], parts["cards"]
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    w, h = parts["size"]
    print(f"{args.game}: {cards} cards, {n} faces exported at {args.dpi} dpi ({w}×{h} px), "
          f"{parts['bytes'] / n / 1024:.0f} KiB a PNG")
    print(f"  export (fresh process, median of {args.runs}): {wall:6.2f} s wall, {cpu:6.2f} s CPU; "
          f"{n / wall:6.1f} faces/s, {cards / wall:6.1f} cards/s (wall)")
    inproc = parts["draw"] + parts["raster"] + parts["png"]
    print(f"  in-process CPU: {inproc:6.2f} s = draw PDF {parts['draw']:.2f} + rasterise {parts['raster']:.2f} "
          f"+ PNG encode/write {parts['png']:.2f}")
    print(f"  rasteriser alone on the faces' PDF: {parts['raster'] / n * 1000:6.1f} ms CPU a face; "
          f"export: {cpu / n * 1000:6.1f} ms CPU a face ({cpu / parts['raster']:.1f}× the rasteriser, start-up "
          f"and data loading included)")
    print(f"  rasterise + encode + write, wall (median of {args.runs}, alternating): one process "
          f"{pool['one']:.2f} s ({pool['faces'] / pool['one']:.0f} faces/s), {pool['workers']} worker processes "
          f"{pool['pool']:.2f} s ({pool['faces'] / pool['pool']:.0f} faces/s); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"  rasteriser on the print's deck.pdf ({pages} A4 pages, {cards} cards): {raster_print:6.2f} s CPU, "
          f"{raster_print / cards * 1000:6.1f} ms a card printed")


if __name__ == "__main__":
    main()
