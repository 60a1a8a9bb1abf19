"""``cardforge export GAME tts``: Tabletop Simulator deck sheets and the saved object that
loads them.

TTS reads a deck from sheet images of up to 10 × 7 cards, at most 4096 px a side, whose last
slot (the 70th on a full sheet) holds the image shown for a card hidden in another player's
hand (``BackIsHidden``). A ``DeckCustom`` saved object lists its sheets in ``CustomDeck``
(``"1": {FaceURL, BackURL, NumWidth, NumHeight, BackIsHidden, UniqueBack}``), every card in
``ContainedObjects`` with its ``CardID`` (sheet number × 100 + slot) and the deck's order in
``DeckIDs`` (a card printed in 3 copies is listed 3 times).

One TTS deck per card kind (kinds declaring the same ``group:`` in deck.yaml share one; a
group holding cards of two sizes makes a deck per size), all in one saved object
``<game>.json``, laid side by side on the table. A deck's sheets are grouped by back design:
cards sharing a back design get one back image; cards whose back shows their own data get a
back sheet laid out like their face sheet (``UniqueBack``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw, ImageFont

from cardforge.paths import check_output_names, output_file
from cardforge.render.cards.faces import DeckFaces, Face, faces_pdf, rasterise, save_png
from cardforge.render.output import atomic_path
from cardforge.resources import FONTS_DIR
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
    name: str  # file stem of its sheets: <game>-<kind or group>[-<W>x<H>]
    size_mm: tuple[float, float]
    sheets: list[Sheet] = field(default_factory=list)
    json_file: str = ""  # the saved object holding it (every deck's: <game>.json)
    cards: int = 0  # printed, copies counted
    label: str = ""  # its name on the table: the kind's plural label, or the group's name


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


def deck_of(faces: DeckFaces, kind: str) -> tuple[str, str]:
    """(name, label) of the TTS deck a kind's cards go into: its ``group``, else the kind."""
    spec = faces.art.data.meta.kinds.get(kind)
    if spec is not None and spec.group:
        return spec.group, spec.group
    label = (spec.plural or spec.label) if spec is not None else kind
    return kind, label


def plan(faces: DeckFaces, dpi: float = DEFAULT_DPI) -> list[TtsDeck]:
    """The decks and sheets, before drawing anything: a deck per kind (or declared group) and
    size, in the order of the cards."""
    decks: dict[tuple[str, tuple[float, float]], TtsDeck] = {}
    groups: dict[tuple[str, tuple[float, float], str | None], list[Face]] = {}
    labels: dict[str, str] = {}
    sizes: dict[str, set[tuple[float, float]]] = {}
    for front in faces.fronts:
        back = faces.back_of(front)
        shared = len(back.cards) > 1 or back.name.startswith("back-")
        name, labels[name] = deck_of(faces, front.card.kind)
        sizes.setdefault(name, set()).add(front.size_mm)
        groups.setdefault((name, front.size_mm, back.name if shared else None), []).append(front)
    number = 0
    for (name, size, back_name), fronts in groups.items():
        deck = decks.get((name, size))
        if deck is None:
            stem = f"{faces.game_id}-{name.replace('_', '-')}"
            if len(sizes[name]) > 1:
                stem += f"-{size[0]:g}x{size[1]:g}"
            deck = decks[(name, size)] = TtsDeck(stem, size, label=labels[name], json_file=f"{faces.game_id}.json")
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
    transaction, as :func:`cardforge.render.exports.export_png.export_pngs`."""
    out_dir = Path(out_dir)
    decks = plan(faces, dpi)
    # every image drawn once per cell size it is shown at (decks of a size may be shrunk
    # differently): fronts, then each back wanted
    wanted: dict[tuple[str, tuple[int, int]], tuple[Face, tuple[int, int]]] = {}
    for deck in decks:
        for sheet in deck.sheets:
            for f in sheet.faces:
                wanted.setdefault((f.name, sheet.cell), (f, sheet.cell))
                b = faces.back_of(f)
                wanted.setdefault((b.name, sheet.cell), (b, sheet.cell))
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
                names.append(_back_file(deck, i, sheet))
    return names + sorted({deck.json_file for deck in decks})


def _back_file(deck: TtsDeck, number: int, sheet: Sheet) -> str:
    """The image of a sheet's one back: ``<deck>-<back>.png``, shared by the deck's sheets with
    that back — unless they show it at different cell sizes: then ``<deck>-<n>-<back>.png``."""
    assert sheet.back is not None
    cells = {s.cell for s in deck.sheets if s.back is not None and s.back.name == sheet.back.name}
    return f"{deck.name}-{sheet.back.name}.png" if len(cells) == 1 else f"{deck.name}-{number}-{sheet.back.name}.png"


def _write_decks(decks: list[TtsDeck], faces: DeckFaces, images: dict[tuple[str, tuple[int, int]], Image.Image],
                 staging: Path,
                 out_dir: Path, dpi: float, url_base: str | None) -> None:
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
            hidden = images[(sheet.back.name, sheet.cell)] if sheet.back is not None else hidden_card(sheet.cell)
            canvas = Image.new("RGB", sheet.pixels, "white")
            backs = Image.new("RGB", sheet.pixels, "white") if sheet.back is None else None
            for slot, f in enumerate(sheet.faces):
                at = ((slot % sheet.cols) * cw, (slot // sheet.cols) * ch)
                canvas.paste(images[(f.name, sheet.cell)], at)
                if backs is not None:
                    backs.paste(images[(faces.back_of(f).name, sheet.cell)], at)
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
                sheet.back_file = _back_file(deck, i, sheet)
                if sheet.back_file not in backs_written:  # one image per back design
                    backs_written.add(sheet.back_file)
                    write(sheet.back_file, images[(sheet.back.name, sheet.cell)])
    for json_file in sorted({deck.json_file for deck in decks}):  # (one: <game>.json)
        saved = saved_object([d for d in decks if d.json_file == json_file], faces, url)
        with atomic_path(output_file(staging, json_file)) as tmp:
            tmp.write_text(json.dumps(saved, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def hidden_card(size: tuple[int, int]) -> Image.Image:
    """A neutral card (dark, a frame and a question mark) for a sheet whose cards have backs of
    their own: TTS shows it for cards hidden in another player's hand."""
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


#: how far apart the decks lie on the table (TTS units; a poker card is ~2.2 wide)
DECK_SPACING = 3.0


def saved_object(decks: list[TtsDeck], faces: DeckFaces, url: Callable[[str], str]) -> dict[str, Any]:
    """The TTS saved object (``Saves/Saved Objects/<name>.json``): every deck, side by side."""
    title = faces.art.data.meta.title
    states = [_deck_state(deck, faces, url, i * DECK_SPACING) for i, deck in enumerate(decks)]
    return {"SaveName": title, "GameMode": "", "Gravity": 0.5, "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": states,
            "TabStates": {}, "VersionNumber": ""}


def _deck_state(deck: TtsDeck, faces: DeckFaces, url: Callable[[str], str], x: float) -> dict[str, Any]:
    """One deck's object (a lone card's: a card, as TTS decks hold two cards or more)."""
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
    meta = faces.art.data.meta
    if len(contained) == 1:
        return {**contained[0], "Transform": _transform(x=x)}
    return {
        "Name": "DeckCustom",
        "Nickname": f"{meta.title} — {deck.label} (v{meta.version})",
        "Description": f"cardforge export of {faces.game_id}: {len(ids)} cards",
        "Transform": _transform(x=x),
        "DeckIDs": ids,
        "CustomDeck": custom,
        "ContainedObjects": contained,
        "HideWhenFaceDown": True,
        "Hands": False,
        "SidewaysCard": False,
    }
