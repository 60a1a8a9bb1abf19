"""``cardforge export GAME png``: one PNG per card face, rasterised from the print's vector
drawing (``render/cards/faces.py``). Sizes are exact: round((trim + 2 × bleed) in inches × dpi).

Rasterising and encoding run over the machine's cores (issue 32): the faces' PDF is drawn once,
then worker processes (forked, so they share it and the loaded rasteriser without a copy or an
import) each render and encode runs of its pages; this process writes the PNGs they send back,
in order, into the export's transaction (a worker never writes a file: an interrupt or a crash
leaves what one process would).
A face's PNG depends on its page alone, so the files are the same bytes whichever process
made them (a test compares against one process). A small export (fewer than
:data:`MIN_FACES_PER_WORKER` faces a worker) stays in one process, where pdfium renders the
next face while a thread compresses the last one. Encoder settings, measured on a 250-card
shipped deck's 80 faces at 300 dpi (827 px, CPU per face; rasterising is 4.9 ms): rows
unfiltered, zlib level 3 — 7.4 ms and 62.7 KiB; level 1 is 6.9 ms and 65.2 KiB, level 4
12.0 ms and 57.2 KiB, level 6 13.8 ms and 55.1 KiB, level 9 53.6 ms and 51.9 KiB: level 3 is
the knee (4 % bigger than 6 for half the time). DEVELOPING.md has the figures."""

from __future__ import annotations

import json
import math
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardforge.paths import check_output_names, output_file
from cardforge.render.cards.faces import DeckFaces, Face, check_pixels, faces_pdf, png_bytes, rasterise
from cardforge.render.output import atomic_path
from cardforge.transaction import checkpoint, folder_transaction

MIN_DPI, MAX_DPI = 36, 1200
FACES_JSON = "faces.json"
#: a worker process pays ~20-40 ms to start: below this many faces each, fewer workers
MIN_FACES_PER_WORKER = 8


@dataclass
class Written:
    path: Path
    face: Face
    size: tuple[int, int]


def export_pngs(faces: DeckFaces, out_dir: Path, dpi: float, *, compress_level: int = 3,
                progress: Callable[[int], None] | None = None, own_folder: bool = True,
                workers: int | None = None) -> list[Written]:
    """Write ``<out_dir>/<face>.png`` for every face (fronts, then backs) and ``faces.json``
    (each card's front and back image and its copies), as one transaction
    (:func:`cardforge.transaction.folder_transaction`: staged, then switched in whole;
    ``own_folder``: ``out_dir`` is cardforge's, exchanged in one step). Returns what was
    written (paths in ``out_dir``). ``workers``: processes rasterising and encoding (default:
    :func:`worker_count`; 1: this process only) — the files are the same bytes either way."""
    out_dir = Path(out_dir)
    which = faces.all
    check_output_names(out_dir, [f"{f.name}.png" for f in which] + [FACES_JSON], "PNG export")
    sizes = [f.pixels(dpi, faces.bleed_mm) for f in which]
    check_pixels(sizes, faces.game_id, "a card's image", "export at a lower --dpi")
    pdf = faces_pdf(faces, which, strict=faces.strict)  # RenderError before any file is written
    written: list[Written] = []
    jobs = [(face, size, f"{face.name}.png") for face, size in zip(which, sizes)]
    count = worker_count(len(jobs), workers)
    stale = earlier_images(out_dir) - {name for _, _, name in jobs}
    with folder_transaction(out_dir, whole=own_folder, what="PNG export") as staging:
        targets = [output_file(staging, name) for _, _, name in jobs]
        done = 0
        for n in (_write_in_workers(pdf, sizes, targets, dpi, compress_level, count) if count > 1
                  else _write_here(pdf, sizes, targets, dpi, compress_level)):
            for face, size, name in jobs[done:done + n]:
                written.append(Written(out_dir / name, face, size))
            if done == 0 and n:
                checkpoint("export-writing")
            done += n
            if progress:
                progress(n)
        index = {
            "game": faces.game_id, "dpi": dpi, "bleed_mm": faces.bleed_mm,
            "cards": [{"id": f.name, "copies": f.card.copies, "front": f"{f.name}.png", "back": f"{f.back_of}.png",
                       "size_mm": list(f.size_mm), "pixels": list(f.pixels(dpi, faces.bleed_mm))}
                      for f in faces.fronts],
        }
        with atomic_path(output_file(staging, FACES_JSON)) as tmp:
            tmp.write_text(json.dumps(index, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    remove_images(out_dir, stale)
    return written


def earlier_images(out_dir: Path) -> set[str]:
    """The images an earlier export wrote into ``out_dir``, as its ``faces.json`` lists them:
    plain ``<name>.png`` names only (a name with a path in it, ``..`` or a link is never one of
    ours: a hand-edited or planted faces.json makes cardforge remove nothing outside the folder)."""
    from cardforge.paths import read_regular

    blob, _ = read_regular(out_dir / FACES_JSON, str(out_dir / FACES_JSON), 16 * 1024 * 1024)
    if not blob:
        return set()
    try:
        index = json.loads(blob)
        cards = index.get("cards", []) if isinstance(index, dict) else []
        names = {c.get(side) for c in cards if isinstance(c, dict) for side in ("front", "back")}
    except (ValueError, AttributeError):
        return set()
    return {n for n in names if isinstance(n, str) and n.endswith(".png") and n not in (".png", "..png")
            and "/" not in n and "\\" not in n and "\0" not in n and not n.startswith(".")}


def remove_images(out_dir: Path, names: set[str]) -> list[str]:
    """Remove the images ``names`` (from :func:`earlier_images`) that this export no longer
    writes, from ``out_dir`` itself: regular files only, never through a link. Returns those
    removed."""
    import stat

    removed = []
    for name in sorted(names):
        path = out_dir / name
        try:
            if path.parent.resolve() != out_dir.resolve() or not stat.S_ISREG(os.lstat(path).st_mode):
                continue
            path.unlink()
            removed.append(name)
        except OSError:  # gone already, or not ours to remove: left as it is
            continue
    return removed


def worker_count(faces: int, asked: int | None = None) -> int:
    """Processes for an export of ``faces`` faces: ``asked``, else one a core this process may
    use with at least :data:`MIN_FACES_PER_WORKER` faces each; never more than the faces, and
    1 where processes cannot be forked."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    if asked is not None:
        return max(1, min(asked, faces))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cores, faces // MIN_FACES_PER_WORKER))


def _write_png(path: Path, raw: bytes, stride: int, size: tuple[int, int], dpi: float, level: int) -> None:
    blob = png_bytes(raw, size, dpi, level, stride)  # zlib runs without the GIL
    with atomic_path(path) as tmp:
        tmp.write_bytes(blob)


def _write_here(pdf: bytes, sizes: list[tuple[int, int]], targets: list[Path], dpi: float,
                level: int) -> Iterator[int]:
    """One process: pdfium renders the next face while a thread compresses the last one (both
    release the GIL); at most a few images wait, so memory stays flat. Yields 1 a face written."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending: deque[Future[None]] = deque()
        for path, size, (raw, stride) in zip(targets, sizes, rasterise(pdf, sizes, raw=True)):
            pending.append(pool.submit(_write_png, path, raw, stride, size, dpi, level))
            while len(pending) > 3:
                pending.popleft().result()
                yield 1
        while pending:
            pending.popleft().result()
            yield 1


#: the faces' PDF, set in the parent before its workers are forked (they inherit it: no copy)
_PDF: bytes = b""
_DOC: Any = None


def _write_in_workers(pdf: bytes, sizes: list[tuple[int, int]], targets: list[Path], dpi: float,
                      level: int, count: int) -> Iterator[int]:
    """``count`` forked processes, each rendering and encoding runs of consecutive pages; this
    process writes their PNGs, run by run in order, and yields the faces written (so progress,
    the first-file checkpoint and every file of the transaction are this process's, as with
    one process: a worker never touches the file system). An error in a worker is raised
    here; leaving early ends the workers."""
    import multiprocessing

    import pypdfium2  # noqa: F401  # loaded once here, inherited by the forked workers

    global _PDF
    chunk = max(1, min(16, math.ceil(len(targets) / (count * 4))))  # a few runs each: even finish
    runs = [(a, min(a + chunk, len(targets))) for a in range(0, len(targets), chunk)]
    _PDF = pdf
    try:
        with multiprocessing.get_context("fork").Pool(count, initializer=_worker_start) as pool:
            tasks = [(a, sizes[a:b], dpi, level) for a, b in runs]
            for (a, b), blobs in zip(runs, pool.imap(_worker_run, tasks)):
                for path, blob in zip(targets[a:b], blobs):
                    with atomic_path(path) as tmp:
                        tmp.write_bytes(blob)
                yield b - a
    finally:
        _PDF = b""


def _worker_start() -> None:
    """In a worker: signals are the parent's business (it ends the workers on SIGINT/SIGTERM);
    the faces' PDF, inherited, is opened once."""
    global _DOC
    import pypdfium2 as pdfium

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        signal.set_wakeup_fd(-1)  # the parent's watchdog pipe is not this process's
    except ValueError:
        pass
    _DOC = pdfium.PdfDocument(_PDF)


def _worker_run(task: tuple[int, list[tuple[int, int]], float, int]) -> list[bytes]:
    """The PNGs of pages ``a``… of the inherited PDF, one a size given."""
    a, sizes, dpi, level = task
    return [png_bytes(raw, size, dpi, level, stride)
            for size, (raw, stride) in zip(sizes, rasterise(_DOC, sizes, raw=True, first=a))]
