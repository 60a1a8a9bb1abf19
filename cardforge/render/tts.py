"""``cardforge export GAME tts``: Tabletop Simulator deck sheets and the saved object that
loads them.

TTS reads a deck from sheet images of up to 10 × 7 cards, at most 4096 px a side, whose last
slot (the 70th on a full sheet) holds the image shown for a card hidden in another player's
hand (``BackIsHidden``). A ``DeckCustom`` saved object lists its sheets in ``CustomDeck``
(``"1": {FaceURL, BackURL, NumWidth, NumHeight, BackIsHidden, UniqueBack}``), every card in
``ContainedObjects`` with its ``CardID`` (sheet number × 100 + slot) and the deck's order in
``DeckIDs`` (a card printed in 3 copies is listed 3 times).

Sheets are grouped by card size (one TTS deck per size) and by back design: cards sharing a
back design get one back image; cards whose back shows their own data get a back sheet laid
out like their face sheet (``UniqueBack``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge.paths import check_output_names, output_file
from cardforge.render.faces import DeckFaces, Face, faces_pdf, rasterise, save_png
from cardforge.render.output import atomic_path
from cardforge.transaction import folder_transaction

if TYPE_CHECKING:
    from PIL import Image

MAX_COLS, MAX_ROWS, MAX_SIDE = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last slot is the hidden-card image
DEFAULT_DPI = 300


@dataclass
class Sheet:
    number: int  # the CustomDeck key
    faces: list[Face]
    cols: int
    rows: int
    cell: tuple[int, int]  # pixels
    back: Face | None  # the one back of every card (None: a back sheet, UniqueBack)
    face_file: str = ""
    back_file: str = ""

    @property
    def pixels(self) -> tuple[int, int]:
        return (self.cols * self.cell[0], self.rows * self.cell[1])


@dataclass
class TtsDeck:
    name: str  # file stem
    size_mm: tuple[float, float]
    sheets: list[Sheet] = field(default_factory=list)
    json_file: str = ""
    cards: int = 0  # printed, copies counted


def grid(n: int) -> tuple[int, int]:
    """Columns and rows for ``n`` cards plus the hidden-card slot: at most 10 × 7, at least
    2 × 2 (TTS's import dialog does not go lower)."""
    slots = n + 1
    cols = max(2, min(MAX_COLS, slots))
    rows = max(2, math.ceil(slots / cols))
    if rows > MAX_ROWS:
        raise ValueError(f"{n} cards do not fit on one sheet (at most {PER_SHEET})")
    return cols, rows


def cell_size(face: Face, dpi: float, cols: int, rows: int) -> tuple[int, int]:
    """The card's size at ``dpi`` (no bleed: TTS shows the trim), shrunk evenly when the sheet
    would pass 4096 px on a side."""
    w, h = face.pixels(dpi, 0.0)
    k = min(1.0, (MAX_SIDE // cols) / w, (MAX_SIDE // rows) / h)
    return max(1, math.floor(w * k)), max(1, math.floor(h * k))


def plan(faces: DeckFaces, dpi: float = DEFAULT_DPI) -> list[TtsDeck]:
    """The decks and sheets, before drawing anything."""
    decks: dict[tuple[float, float], TtsDeck] = {}
    groups: dict[tuple[tuple[float, float], str | None], list[Face]] = {}
    deck_size = (faces.art.data.meta.card_size.width, faces.art.data.meta.card_size.height)
    for front in faces.fronts:
        back = faces.back_of(front)
        shared = len(back.cards) > 1 or back.name.startswith("back-")
        groups.setdefault((front.size_mm, back.name if shared else None), []).append(front)
    number = 0
    for (size, back_name), fronts in groups.items():
        deck = decks.get(size)
        if deck is None:
            stem = faces.game_id if size == deck_size else f"{faces.game_id}-{size[0]:g}x{size[1]:g}"
            deck = decks[size] = TtsDeck(stem, size)
        one_back = next((b for b in faces.backs if b.name == back_name), None) if back_name else None
        for start in range(0, len(fronts), PER_SHEET):
            chunk = fronts[start:start + PER_SHEET]
            cols, rows = grid(len(chunk))
            number += 1
            deck.sheets.append(Sheet(number, chunk, cols, rows, cell_size(chunk[0], dpi, cols, rows), one_back))
        deck.cards += sum(f.card.copies for f in fronts)
    return list(decks.values())


def export_tts(faces: DeckFaces, out_dir: Path, *, dpi: float = DEFAULT_DPI, url_base: str | None = None,
               own_folder: bool = True) -> list[TtsDeck]:
    """Write the sheets (``<deck>-<n>.png``, ``<deck>-<n>-backs.png``), the back images
    (``<deck>-back-<design>.png``) and ``<deck>.json`` (the saved object) into ``out_dir``.
    URLs are ``url_base/<file>`` when given, else ``file://`` URLs of the written files. One
    transaction, as :func:`cardforge.render.export_png.export_pngs`."""
    out_dir = Path(out_dir)
    decks = plan(faces, dpi)
    # every image drawn once, at its cell size: fronts, then each back wanted
    wanted: dict[str, tuple[Face, tuple[int, int]]] = {}
    for deck in decks:
        for sheet in deck.sheets:
            for f in sheet.faces:
                wanted.setdefault(f.name, (f, sheet.cell))
                b = faces.back_of(f)
                wanted.setdefault(b.name, (b, sheet.cell))
    check_output_names(out_dir, file_names(decks), "Tabletop Simulator export")
    order = list(wanted.values())
    pdf = faces_pdf(faces, [f for f, _ in order], strict=faces.strict)
    images = dict(zip(wanted, rasterise(pdf, [size for _, size in order])))
    with folder_transaction(out_dir, whole=own_folder, what="Tabletop Simulator export") as staging:
        _write_decks(decks, faces, images, staging, out_dir, dpi, url_base)
    return decks


def file_names(decks: list[TtsDeck]) -> list[str]:
    """Every file the export of ``decks`` writes, as :func:`export_tts` names them."""
    names: list[str] = []
    for deck in decks:
        for i, sheet in enumerate(deck.sheets, start=1):
            names += [f"{deck.name}-{i}.png", f"{deck.name}-{i}-backs.png"]
            if sheet.back is not None:
                names.append(f"{deck.name}-{sheet.back.name}.png")
        names.append(f"{deck.name}.json")
    return names


def _write_decks(decks: list[TtsDeck], faces: DeckFaces, images: dict[str, Image.Image], staging: Path,
                 out_dir: Path, dpi: float, url_base: str | None) -> None:
    from PIL import Image

    def url(name: str) -> str:
        if url_base:
            return url_base.rstrip("/") + "/" + name
        return (out_dir / name).resolve().as_uri()

    def write(name: str, image: Image.Image) -> None:
        with atomic_path(output_file(staging, name)) as tmp:
            with open(tmp, "wb") as fh:
                save_png(image, fh, dpi)

    backs_written: set[str] = set()
    for deck in decks:
        for i, sheet in enumerate(deck.sheets, start=1):
            cw, ch = sheet.cell
            # the hidden-card image shows nothing a player's hand should not: the shared back,
            # or (cards with backs of their own) a neutral card
            hidden = images[sheet.back.name] if sheet.back is not None else hidden_card(sheet.cell)
            canvas = Image.new("RGB", sheet.pixels, "white")
            backs = Image.new("RGB", sheet.pixels, "white") if sheet.back is None else None
            for slot, f in enumerate(sheet.faces):
                at = ((slot % sheet.cols) * cw, (slot // sheet.cols) * ch)
                canvas.paste(images[f.name], at)
                if backs is not None:
                    backs.paste(images[faces.back_of(f).name], at)
            last = sheet.cols * sheet.rows - 1
            canvas.paste(hidden, ((last % sheet.cols) * cw, (last // sheet.cols) * ch))
            if backs is not None:
                backs.paste(hidden, ((last % sheet.cols) * cw, (last // sheet.cols) * ch))
            sheet.face_file = f"{deck.name}-{i}.png"
            write(sheet.face_file, canvas)
            if backs is not None:
                sheet.back_file = f"{deck.name}-{i}-backs.png"
                write(sheet.back_file, backs)
            elif sheet.back is not None:  # one back for the whole sheet (backs is None)
                sheet.back_file = f"{deck.name}-{sheet.back.name}.png"
                if sheet.back_file not in backs_written:  # one image per back design
                    backs_written.add(sheet.back_file)
                    write(sheet.back_file, images[sheet.back.name])
        deck.json_file = f"{deck.name}.json"
        saved = saved_object(deck, faces, url)
        with atomic_path(output_file(staging, deck.json_file)) as tmp:
            tmp.write_text(json.dumps(saved, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def hidden_card(size: tuple[int, int]) -> Image.Image:
    """A neutral card (dark, a frame and a question mark) for a sheet whose cards have backs of
    their own: TTS shows it for cards hidden in another player's hand."""
    from PIL import Image, ImageDraw, ImageFont

    from cardforge.resources import FONTS_DIR

    w, h = size
    image = Image.new("RGB", size, (58, 58, 62))
    draw = ImageDraw.Draw(image)
    m = max(2, min(w, h) // 14)
    draw.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius=m, outline=(150, 150, 156), width=max(1, m // 4))
    font = ImageFont.truetype(str(FONTS_DIR / "DejaVuSans-Bold.ttf"), max(8, min(w, h) // 3))
    draw.text((w / 2, h / 2), "?", fill=(150, 150, 156), font=font, anchor="mm")
    return image


def _transform(x: float = 0.0, y: float = 1.0, z: float = 0.0, face_down: bool = True) -> dict[str, float]:
    return {"posX": x, "posY": y, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def saved_object(deck: TtsDeck, faces: DeckFaces, url: Callable[[str], str]) -> dict[str, Any]:
    """The TTS saved object (``Saves/Saved Objects/<name>.json``) of one deck."""
    custom: dict[str, dict[str, Any]] = {}
    contained: list[dict[str, Any]] = []
    ids: list[int] = []
    for sheet in deck.sheets:
        entry = {
            "FaceURL": url(sheet.face_file),
            "BackURL": url(sheet.back_file),
            "NumWidth": sheet.cols,
            "NumHeight": sheet.rows,
            "BackIsHidden": True,
            "UniqueBack": sheet.back is None,
            "Type": 0,
        }
        key = str(sheet.number)
        custom[key] = entry
        for slot, f in enumerate(sheet.faces):
            card_id = sheet.number * 100 + slot
            for _ in range(f.card.copies):
                ids.append(card_id)
                contained.append({
                    "Name": "Card",
                    "Nickname": str(getattr(f.card, "name", "") or f.card.id),
                    "Description": f.card.id,
                    "CardID": card_id,
                    "CustomDeck": {key: entry},
                    "Transform": _transform(),
                })
    title = faces.art.data.meta.title
    if len(contained) == 1:  # TTS decks hold two cards or more: a lone card is saved as a card
        card = {**contained[0], "Transform": _transform()}
        return {"SaveName": title, "ObjectStates": [card]}
    deck_state = {
        "Name": "DeckCustom",
        "Nickname": f"{title} (v{faces.art.data.meta.version})",
        "Description": f"cardforge export of {faces.game_id}: {len(ids)} cards",
        "Transform": _transform(),
        "DeckIDs": ids,
        "CustomDeck": custom,
        "ContainedObjects": contained,
        "HideWhenFaceDown": True,
        "Hands": False,
        "SidewaysCard": False,
    }
    return {"SaveName": title, "GameMode": "", "Gravity": 0.5, "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": [deck_state],
            "TabStates": {}, "VersionNumber": ""}
