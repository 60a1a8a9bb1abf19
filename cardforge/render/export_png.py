"""``cardforge export GAME png``: one PNG per card face, rasterised from the print's vector
drawing (``render/faces.py``). Sizes are exact: round((trim + 2 × bleed) in inches × dpi)."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from cardforge.paths import check_output_names, output_file
from cardforge.render.faces import DeckFaces, Face, check_pixels, faces_pdf, png_bytes, rasterise
from cardforge.render.output import atomic_path
from cardforge.transaction import checkpoint, folder_transaction

MIN_DPI, MAX_DPI = 36, 1200
FACES_JSON = "faces.json"


@dataclass
class Written:
    path: Path
    face: Face
    size: tuple[int, int]


def export_pngs(faces: DeckFaces, out_dir: Path, dpi: float, *, compress_level: int = 3,
                progress: Callable[[int], None] | None = None, own_folder: bool = True) -> list[Written]:
    """Write ``<out_dir>/<face>.png`` for every face (fronts, then backs) and ``faces.json``
    (each card's front and back image and its copies), as one transaction
    (:func:`cardforge.transaction.folder_transaction`: staged, then switched in whole;
    ``own_folder``: ``out_dir`` is cardforge's, exchanged in one step). Returns what was
    written (paths in ``out_dir``)."""
    out_dir = Path(out_dir)
    which = faces.all
    check_output_names(out_dir, [f"{f.name}.png" for f in which] + [FACES_JSON], "PNG export")
    sizes = [f.pixels(dpi, faces.bleed_mm) for f in which]
    check_pixels(sizes, faces.game_id, "a card's image", "export at a lower --dpi")
    pdf = faces_pdf(faces, which, strict=faces.strict)  # RenderError before any file is written
    written: list[Written] = []

    def write(path: Path, raw: bytes, stride: int, size: tuple[int, int]) -> None:
        blob = png_bytes(raw, size, dpi, compress_level, stride)  # zlib runs without the GIL
        with atomic_path(path) as tmp:
            tmp.write_bytes(blob)

    with folder_transaction(out_dir, whole=own_folder, what="PNG export") as staging:
        # pdfium renders the next face while a worker compresses the last one (both release the
        # GIL); at most a few images wait, so memory stays flat
        with ThreadPoolExecutor(max_workers=1) as pool:
            pending: deque[Future[None]] = deque()
            for face, size, (raw, stride) in zip(which, sizes, rasterise(pdf, sizes, raw=True)):
                name = f"{face.name}.png"
                pending.append(pool.submit(write, output_file(staging, name), raw, stride, size))
                while len(pending) > 3:
                    pending.popleft().result()
                written.append(Written(out_dir / name, face, size))
                if len(written) == 1:
                    checkpoint("export-writing")
                if progress:
                    progress(1)
            while pending:
                pending.popleft().result()
        index = {
            "game": faces.game_id, "dpi": dpi, "bleed_mm": faces.bleed_mm,
            "cards": [{"id": f.name, "copies": f.card.copies, "front": f"{f.name}.png", "back": f"{f.back_of}.png",
                       "size_mm": list(f.size_mm), "pixels": list(f.pixels(dpi, faces.bleed_mm))}
                      for f in faces.fronts],
        }
        with atomic_path(output_file(staging, FACES_JSON)) as tmp:
            tmp.write_text(json.dumps(index, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return written
