"""The shape of a Squib project ported without Python (issue 28): a layout in pixels at 300 dpi
with boxes extending each other, a colour from a column, a diagonal line, and backs from a
``card_back.csv`` — and where things land on the printed sheet, in millimetres, read back from
the PDF (the line from the content stream, the text by pdfium)."""

from __future__ import annotations

import pypdf
import pytest
from test_layout_language import page_streams

from render_helpers import card_clips, line_segments, text_in

GAME = """title: Port
language: en
players: 1-4
categories:
  - {id: vp, label: VP}
deck:
  version: "1"
  card_size: poker
  card_files: [player.csv]
  back_files: [card_back.csv]
  kinds:
    player:
      label: Player
      fields:
        TextColor: {type: text}
        Power: {type: int}
"""

# Squib's layout.yml, as a designer writes it (pixels at 300 dpi), in cardforge's words
LAYOUT = """
dpi: 300
styles:
  base: {size: 8, family: sans}
  title: {extends: base, size: 14, bold: true}
layouts:
  player:
    boxes:
      name: {type: text, x: 75px, y: 75px, width: 600px, height: 125px, text: "{{ card.name }}",
             style: {extends: title, colour: "{{ card.TextColor }}"}}
      power: {extends: name, y: 600px, height: 100px, text: "Power {{ card.Power }}", style: {size: 10}}
      slash: {type: line, x1: 75px, y1: 300px, x2: 675px, y2: 525px, stroke: "{{ card.TextColor }}", stroke_width: 3px}
  back:
    boxes:
      bg: {type: rect, bleed: true, fill: "{{ back.colour }}"}
      word: {type: text, x: 75px, y: 450px, width: 600px, height: 150px, text: "{{ back.Word }}",
             style: {extends: title, align: center}}
"""

PLAYERS = "Name,Kind,TextColor,Power\nJump,player,#b22222,3\nDash,player,#1f5fa8,5\n"
BACKS = "Name,Kind,Color,Word\nPlayer back,player,#2f4858,HERO\n"


@pytest.fixture
def built(tmp_path, cli):
    folder = tmp_path / "port"
    (folder / "templates").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "player.csv").write_text(PLAYERS.replace("Name,Kind,", "name,kind,"), encoding="utf-8")
    (folder / "card_back.csv").write_text(BACKS, encoding="utf-8")
    (folder / "templates" / "layout.yaml").write_text(LAYOUT, encoding="utf-8")
    r = cli("check", folder)
    assert r.code == 0, r.err
    r = cli("build", folder, "--only", "decks", "-o", tmp_path / "out", "--gutter", "4mm")
    assert r.code == 0, r.err
    return tmp_path / "out" / "port" / "deck.pdf"


def px(n: float) -> float:
    return n * 25.4 / 300


def test_the_line_lands_where_the_pixels_say(built):
    page = pypdf.PdfReader(built).pages[0]
    clips = card_clips(page)
    assert len(clips) == 2
    segments = line_segments(page, forms=True)
    for clip in clips:
        ox, oy = clip.origin  # the card's trim corner (bottom-left) on the page, mm
        # 75 px, 300 px from the top-left of a 63 × 88 mm card = (6.35 mm, 25.4 mm) → y up: 88 - 25.4
        start = (ox + px(75), oy + 88 - px(300))
        end = (ox + px(675), oy + 88 - px(525))
        assert any(s == pytest.approx((*start, *end), abs=0.01) for s in segments), (start, end, segments)


def test_text_and_the_extended_box_land_in_their_boxes(built):
    page = pypdf.PdfReader(built).pages[0]
    texts = []
    for clip in card_clips(page):
        ox, oy = clip.origin
        name_box = (ox + px(75), oy + 88 - px(75 + 125), px(600), px(125))
        power_box = (ox + px(75), oy + 88 - px(600 + 100), px(600), px(100))  # name's x and width, its own y
        texts.append((text_in(built, 0, name_box).strip(), text_in(built, 0, power_box).strip()))
    assert sorted(texts) == [("Dash", "Power 5"), ("Jump", "Power 3")]


def test_colours_from_the_column_and_the_back_from_the_csv(built):
    everything = page_streams(built)  # the pages and the forms they draw
    assert ".698039 .133333 .133333 RG" in everything  # the line of Jump in #b22222
    assert ".121569 .372549 .658824 RG" in everything  # and of Dash in #1f5fa8
    assert ".184314 .282353 .345098 rg" in everything  # the back's colour column
    back_text = text_in(built, 1, (0, 0, 400, 400))
    assert back_text.count("HERO") == 2
