"""Issue 42: the scale bar is what the docs say. docs/printing.md: 50 mm, or 30 or 20 mm where
the band beside the cards is short, its caption giving its length; measured on the pages of a
scaffolded game's deck (its first sheet, full, has room for a shorter bar beside the label; its
last for 50 mm)."""

from __future__ import annotations

import re

import pypdf

from cardforge.render.cards.sheetmarks import SCALE_BARS_MM
from cardforge.resources import PACKAGE_DIR

from render_helpers import operations

MM = 72 / 25.4


def test_the_docs_name_the_lengths_drawn():
    docs = " ".join((PACKAGE_DIR.parent / "docs" / "printing.md").read_text(encoding="utf-8").split())
    assert "(`50 mm at 100 %`; 30 or 20 mm where the band beside the cards is too short" in docs
    assert SCALE_BARS_MM == (50, 30, 20)


def test_each_front_sheets_bar_measures_what_its_caption_says(cli, tmp_path):
    folder = tmp_path / "bar"
    assert cli("new", str(folder)).code == 0
    r = cli("build", str(folder), "-o", tmp_path / "out", "--only", "decks", "-q")
    assert r.code == 0, r.err
    reader = pypdf.PdfReader(tmp_path / "out" / "bar" / "deck.pdf")
    lengths = []
    for index in (0, 2):  # the fronts of sheets 1 and 2
        page = reader.pages[index]
        [caption] = re.findall(r"(\d+) mm at 100 %", page.extract_text())
        fills = [tuple(float(v) / MM for v in args) for args, op in operations(page) if op == b"re"]
        bars = [r for r in fills if abs(r[3] - 0.3) < 1e-3 and r[2] > 10]
        assert [round(b[2], 3) for b in bars] == [int(caption)]
        lengths.append(int(caption))
    # the full first sheet leaves a shorter band beside its label; the last sheet holds 50 mm
    assert lengths[0] in SCALE_BARS_MM[1:] and lengths[1] == 50
