"""The ceiling: a minimal hand-written ReportLab script printing the same deck.

It reads a game's card YAML directly (no cardforge code), and draws every card once per copy
the way a careful programmer would by hand: DejaVu TrueType fonts embedded as subsets, a
coloured band and the name, the card's texts as one rich-text ``Paragraph`` (bold, italic,
icons as a glyph), crop marks, and a back page mirrored for long-edge duplex whose back design
is drawn once as a form and reused. No layouts, no templates, no validation, no shrink-to-fit:
what cardforge adds on top is what the ratio measures.

    python bench/ceiling.py card_data/maphr out.pdf
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml
from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

MM = 72 / 25.4
FONTS = Path(__file__).resolve().parent.parent / "cardforge" / "fonts"
SIZES = {"poker": (63, 88), "bridge": (57, 89), "tarot": (70, 120), "mini": (44, 63), "square": (70, 70)}
SKIP = {"id", "kind", "name", "copies", "provenance", "art", "back"}


def load_cards(folder: Path):
    deck = yaml.safe_load((folder / "deck.yaml").read_text(encoding="utf-8"))
    size = deck["card_size"]
    size = SIZES[size] if isinstance(size, str) else tuple(float(str(v).rstrip("m")) for v in size.values())
    cards = []
    for name in deck["card_files"]:
        raw = yaml.safe_load((folder / name).read_text(encoding="utf-8"))
        defaults = raw.get("defaults", {}) if isinstance(raw, dict) else {}
        for card in raw["cards"] if isinstance(raw, dict) else raw:
            card = {**defaults, **card}
            texts = [str(v) for k, v in card.items() if k not in SKIP and isinstance(v, (str, int))]
            cards += [(card["name"], " · ".join(texts))] * card.get("copies", 1)
    return size, deck.get("title", ""), cards


def to_paragraph_markup(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;")
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"\*(.+?)\*", r"<i>\1</i>", text)
    text = re.sub(r":[a-z][a-z0-9-]*:", "●", text)
    return text.replace("\n\n", "<br/><br/>").replace("\n", "<br/>")


def main(folder: str, out: str) -> int:
    (w, h), title, cards = load_cards(Path(folder))
    for face in ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSans-BoldOblique"):
        pdfmetrics.registerFont(TTFont(face, str(FONTS / f"{face}.ttf")))
    pdfmetrics.registerFontFamily("DejaVuSans", normal="DejaVuSans", bold="DejaVuSans-Bold",
                                  italic="DejaVuSans-Oblique", boldItalic="DejaVuSans-BoldOblique")
    style = ParagraphStyle("body", fontName="DejaVuSans", fontSize=8.5, leading=10.2)
    bleed, margin = 3.0, 8.0
    pw, ph = 210.0, 297.0
    cw, ch = w + 2 * bleed, h + 2 * bleed
    cols, rows = int((pw - 2 * margin) // cw), int((ph - 2 * margin) // ch)
    if cols * rows < int((ph - 2 * margin) // cw) * int((pw - 2 * margin) // ch):
        pw, ph = ph, pw
        cols, rows = int((pw - 2 * margin) // cw), int((ph - 2 * margin) // ch)
    x0, top = (pw - cols * cw) / 2, ph - (ph - rows * ch) / 2
    slots = [(x0 + c * cw + bleed, top - r * ch - bleed - h) for r in range(rows) for c in range(cols)]
    c = Canvas(out, pagesize=(pw * MM, ph * MM), invariant=1, pageCompression=1,
               initialFontName="DejaVuSans")
    c.beginForm("back", -bleed * MM, -bleed * MM, (w + bleed) * MM, (h + bleed) * MM)
    c.setFillColor(HexColor("#4a3b2a"))
    c.rect(-bleed * MM, -bleed * MM, cw * MM, ch * MM, stroke=0, fill=1)
    c.setStrokeColor(HexColor("#efe6d2"))
    c.roundRect(4 * MM, 4 * MM, (w - 8) * MM, (h - 8) * MM, 2.5 * MM, stroke=1, fill=0)
    c.setFillColor(HexColor("#f6f1e6"))
    c.setFont("DejaVuSans-Bold", 15)
    c.drawCentredString(w / 2 * MM, h / 2 * MM, title)
    c.endForm()
    per = len(slots)
    for start in range(0, len(cards), per):
        batch = cards[start:start + per]
        for (x, y), (name, text) in zip(slots, batch):
            c.saveState()
            c.translate(x * MM, y * MM)
            c.setFillColor(HexColor("#f6f1e6"))
            c.rect(-bleed * MM, -bleed * MM, cw * MM, ch * MM, stroke=0, fill=1)
            c.setFillColor(HexColor("#6b3a4f"))
            c.rect(-bleed * MM, (h - 12.5) * MM, cw * MM, (12.5 + bleed) * MM, stroke=0, fill=1)
            c.setFillColor(HexColor("#ffffff"))
            c.setFont("DejaVuSans-Bold", 10.5)
            c.drawCentredString(w / 2 * MM, (h - 7.5) * MM, name)
            p = Paragraph(to_paragraph_markup(text), style)
            _, ph_ = p.wrap((w - 8) * MM, (h - 22) * MM)
            p.drawOn(c, 4 * MM, (h - 15) * MM - ph_)
            c.restoreState()
        c.setLineWidth(0.3)
        used = slots[:len(batch)]
        for x, y in used:
            for xx in (x, x + w):
                c.line(xx * MM, (top + 1) * MM, xx * MM, (top + 6) * MM)
                c.line(xx * MM, (top - rows * ch - 1) * MM, xx * MM, (top - rows * ch - 6) * MM)
            for yy in (y, y + h):
                c.line((x0 - 1) * MM, yy * MM, (x0 - 6) * MM, yy * MM)
                c.line((x0 + cols * cw + 1) * MM, yy * MM, (x0 + cols * cw + 6) * MM, yy * MM)
        c.showPage()
        for x, y in used:  # long-edge duplex: mirrored across the vertical axis
            c.saveState()
            c.translate((pw - x - w) * MM, y * MM)
            c.doForm("back")
            c.restoreState()
        c.showPage()
    c.save()
    return len(cards)


if __name__ == "__main__":
    n = main(sys.argv[1], sys.argv[2])
    print(n)
