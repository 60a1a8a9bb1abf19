"""The ink a deck prints with, with and without ``--ink-saver``: mean coverage per card side.

    python bench/ink.py                    # the five games
    python bench/ink.py --games tunhell --dpi 50

Each game's decks are built with ``--per-card`` (one card side a page: front, back, front…),
rasterised with pypdfium2 and converted to CMYK through the FOGRA39 profile of ``--cmyk``
(``render/colour.ink_coverage``): coverage is C + M + Y + K in % of one ink fully down, averaged
over every printed card side (copies counted), fronts and backs apart.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners")


def coverage(pdf: Path, dpi: float) -> tuple[list[float], list[float]]:
    import pypdfium2 as pdfium

    from cardforge.render.colour import ink_coverage

    doc = pdfium.PdfDocument(str(pdf))
    fronts, backs = [], []
    seen: dict[bytes, float] = {}
    try:
        for i in range(len(doc)):
            image = doc[i].render(scale=dpi / 72).to_pil().convert("RGB")
            key = image.tobytes()
            if key not in seen:
                seen[key] = ink_coverage(image)
            (fronts if i % 2 == 0 else backs).append(seen[key])
    finally:
        doc.close()
    return fronts, backs


def measure(game: str, dpi: float, ink_saver: bool) -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        args = [sys.executable, "-m", "cardforge", "build", game, "--only", "decks", "--per-card", "-q", "-o", tmp]
        subprocess.run(args + (["--ink-saver"] if ink_saver else []), check=True, cwd=ROOT)
        fronts: list[float] = []
        backs: list[float] = []
        for pdf in sorted(Path(tmp, game).glob("*-cards.pdf")):
            f, b = coverage(pdf, dpi)
            fronts += f
            backs += b
    return sum(fronts) / len(fronts), sum(backs) / len(backs), len(fronts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--dpi", type=float, default=50)
    args = parser.parse_args()
    print(f"{'game':<16} {'cards':>5}  {'fronts %':>9} {'saver':>7} {'saved':>6}  "
          f"{'backs %':>8} {'saver':>7} {'saved':>6}")
    for game in args.games:
        f0, b0, n = measure(game, args.dpi, False)
        f1, b1, _ = measure(game, args.dpi, True)
        print(f"{game:<16} {n:>5}  {f0:9.1f} {f1:7.1f} {1 - f1 / f0:6.0%}  {b0:8.1f} {b1:7.1f} {1 - b1 / b0:6.0%}")
    print(f"mean ink per printed card side, C+M+Y+K % of one ink (FOGRA39), rasterised at {args.dpi:g} dpi")


if __name__ == "__main__":
    main()
