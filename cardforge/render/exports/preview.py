"""``cardforge preview GAME [CARD_ID…]``: one PNG contact sheet of cards, front beside back,
each pair captioned with the card id and copies — for a quick look or a playtest chat."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from cardforge.errors import OutputError
from cardforge.paths import output_file
from cardforge.render.cards.faces import DeckFaces, check_pixels, faces_pdf, rasterise, save_png
from cardforge.render.output import atomic_path
from cardforge.resources import FONTS_DIR
from cardforge.transaction import build_folder_lock, interrupts, os_problem

DEFAULT_DPI = 100
GAP, PAIR_GAP, MARGIN, CAPTION = 8, 28, 24, 22  # pixels
MAX_WIDTH = 4000  # pixels: pairs per row chosen to stay under it
BACKGROUND, INK = (238, 235, 228), (40, 40, 40)


def contact_sheet(faces: DeckFaces, target: Path, dpi: float = DEFAULT_DPI) -> tuple[int, int]:
    """Draw the fronts (and their backs) of ``faces`` on one PNG at ``target``; its size. The
    file is written under a temporary name and renamed over ``target`` when complete (an
    interrupt or a full disk leave the previous one); in a build's folder, under its lock."""
    which = []
    for front in faces.fronts:
        which += [front, faces.back_of(front)]
    sizes = [f.pixels(dpi, 0.0) for f in which]
    cell_w = max(a[0] + GAP + b[0] for a, b in zip(sizes[::2], sizes[1::2]))
    cell_h = max(s[1] for s in sizes) + CAPTION
    per_row = max(1, min(len(faces.fronts), (MAX_WIDTH - 2 * MARGIN + PAIR_GAP) // (cell_w + PAIR_GAP)))
    rows = math.ceil(len(faces.fronts) / per_row)
    width = 2 * MARGIN + per_row * cell_w + (per_row - 1) * PAIR_GAP
    height = 2 * MARGIN + rows * cell_h + (rows - 1) * PAIR_GAP
    check_pixels([(width, height)], faces.game_id, f"the contact sheet of {len(faces.fronts):,} cards",
                 "preview fewer cards (CARD_ID…) or at a lower --dpi")
    pdf = faces_pdf(faces, which, strict=faces.strict)
    images = list(rasterise(pdf, sizes))
    sheet = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.truetype(str(FONTS_DIR / "DejaVuSans.ttf"), 13)
    for i, front in enumerate(faces.fronts):
        x = MARGIN + (i % per_row) * (cell_w + PAIR_GAP)
        y = MARGIN + (i // per_row) * (cell_h + PAIR_GAP)
        a, b = images[2 * i], images[2 * i + 1]
        sheet.paste(a, (x, y))
        sheet.paste(b, (x + a.width + GAP, y))
        for im, ix in ((a, x), (b, x + a.width + GAP)):  # a hairline round each card
            draw.rectangle((ix - 1, y - 1, ix + im.width, y + im.height), outline=(150, 150, 150))
        copies = front.card.copies
        caption = front.name + (f" ×{copies}" if copies != 1 else "")
        while draw.textlength(caption, font=font) > cell_w and len(caption) > 4:
            caption = caption[:-2] + "…"
        draw.text((x, y + max(a.height, b.height) + 5), caption, fill=INK, font=font)
    target = Path(target)
    with interrupts(), build_folder_lock(target.parent):
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with atomic_path(output_file(target.parent, target.name, "preview image")) as tmp:
                with open(tmp, "wb") as fh:
                    save_png(sheet, fh, dpi)
        except OSError as exc:  # a full disk, a read-only folder: the previous sheet stays
            raise OutputError(f"cannot write {target}; it was left as it was", [os_problem(exc, target)]) from None
    return sheet.size
