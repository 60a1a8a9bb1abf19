"""The ``rotate`` box field: allowed values, the turned card's frame (width and height swapped
at 90° and 270°), the safe zone checked in that frame, inheritance, and the drawing itself
(pdfium reads the characters at the turned angle, where the frame puts them)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdf
import pytest
import yaml

from cardforge.data.loading import load_game_data
from cardforge.layout.boxes import Box, LayoutLibrary, box_card_rect, box_rect, frame_matrix
from cardforge.layout.geometry import Rect
from cardforge.render.cards.decks import build_decks
from cardforge.settings import BuildSettings

from render_helpers import FIXTURE_DATA, FIXTURE_TEMPLATES, card_clips, page_chars, register_fixture_game

BLEED = 3.0


def box(**fields) -> Box:
    fields.setdefault("type", "text")
    return Box("b", fields["type"], fields, "layout.yaml", "l")


def write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "layout.yaml").write_text(text, encoding="utf-8")
    return folder


def test_rotate_takes_quarter_turns_only(tmp_path):
    game = write(tmp_path / "g", """
layouts:
  card:
    boxes:
      label: {type: text, text: hi, x: 4, y: 3, width: 20, height: 6, rotate: 45}
      ok: {type: text, text: hi, x: 4, y: 3, width: 20, height: 6, rotate: 270}
""")
    lib = LayoutLibrary([game])
    [problem] = lib.problems
    assert str(problem).endswith(
        "g/layout.yaml:5: layout 'card': boxes.label.rotate: must be one of 0, 90, 180 or 270, got 45")
    assert lib.get("card") is None


def test_turned_90_the_box_is_measured_on_the_card_seen_88_wide():
    # a 63 × 88 card turned 90° counter-clockwise is seen 88 wide, 63 high (its right edge on
    # top): x 4 and right 4 make a strip 80 mm long (it could not be longer than 55 upright)
    b = box(x=4, right=4, y=3, height=10, rotate=90)
    assert box_rect(b, 63, 88) == Rect(4, 50, 80, 10)  # in that frame, y up: 63 - 3 - 10 = 50
    # on the upright card: along the right edge, 3 to 13 mm in, 4 mm short of top and bottom
    assert box_card_rect(b, 63, 88) == Rect(50, 4, 10, 80)
    # the same box turned 270° lies along the left edge, turned 180° along the bottom edge
    assert box_card_rect(box(x=4, right=4, y=3, height=10, rotate=270), 63, 88) == Rect(3, 4, 10, 80)
    assert box_card_rect(box(x=4, width=20, y=3, height=10, rotate=180), 63, 88) == Rect(39, 3, 20, 10)
    # rotate 0 (or none) is the upright card
    assert box_card_rect(box(x=4, width=20, y=3, height=10, rotate=0), 63, 88) == Rect(4, 75, 20, 10)
    # the frame's map: its top-left corner is the card's top-right corner at 90°
    a, b_, c, d, e, f = frame_matrix(90, 63, 88)
    assert (a * 0 + c * 63 + e, b_ * 0 + d * 63 + f) == (63, 88)


def test_turned_bleed_runs_out_of_the_edge_the_box_touches_in_its_frame():
    # a band on the top edge of the card turned 90°: the card's right edge, pushed 3 mm out
    b = box(type="rect", x=10, right=10, height=8, bleed=True, fill="#000000", rotate=90)
    assert box_rect(b, 63, 88, bleed=3) == Rect(10, 55, 68, 11)
    assert box_card_rect(b, 63, 88, bleed=3) == Rect(55, 10, 11, 68)


def test_a_turned_box_without_area_names_the_turned_card():
    with pytest.raises(ValueError, match=r"resolves to 0\.0×5\.0 mm on a 88×63 mm card \(turned 90°\)"):
        box_rect(box(x=40, right=48, height=5, rotate=90), 63, 88)


def test_rotate_is_inherited_and_can_be_undone(tmp_path):
    shared = write(tmp_path / "_shared", """
layouts:
  card:
    boxes:
      side: {type: text, text: hi, x: 4, right: 4, y: 3, height: 6, rotate: 90}
      foot: {type: text, text: hi, x: 4, right: 4, y: 3, height: 6, rotate: 180}
""")
    game = write(tmp_path / "g", """
layouts:
  card:
    extends: card
    boxes:
      side: {y: 5}
      foot: {rotate: 0}
""")
    layout = LayoutLibrary([game, shared]).get("card")
    side, foot = layout.box("side"), layout.box("foot")
    assert side.fields["rotate"] == 90 and side.fields["y"] == 5
    assert box_card_rect(side, 63, 88) == Rect(63 - 5 - 6, 4, 6, 80)
    assert foot.fields["rotate"] == 0 and box_card_rect(foot, 63, 88) == box_rect(foot, 63, 88)


@pytest.fixture
def turned_build(monkeypatch, tmp_path):
    """The fixture deck with three turned boxes added to its `spell` layout: the card's name
    along the right edge (90°, per card), a fixed note along the bottom edge (180°, drawn once
    into a form) and a label too close to the left edge (270°, outside the safe zone)."""
    register_fixture_game(monkeypatch)
    from cardforge.games import find_game

    templates = tmp_path / "templates"
    shutil.copytree(FIXTURE_TEMPLATES, templates)
    path = templates / "fixture_deck" / "layout.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["layouts"]["spell"]["boxes"].update({
        # 80 mm long: fits the card seen turned (88 wide), would not fit it upright (63)
        "side_name": {"type": "text", "x": 4, "right": 4, "y": 3.5, "height": 6, "rotate": 90,
                      "text": "{{ card.name }}", "style": {"size": 9, "align": "center", "valign": "middle"}},
        "foot_note": {"type": "text", "x": 4, "width": 30, "y": 3.5, "height": 5, "rotate": 180,
                      "text": "Retournée", "style": {"size": 8, "valign": "middle"}},
        "too_close": {"type": "text", "x": 30, "width": 30, "y": 1, "height": 5, "rotate": 270,
                      "text": "Bord", "style": {"size": 8, "valign": "middle"}},
    })
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    game = find_game("fixture_deck")
    data = load_game_data(game, root=FIXTURE_DATA)
    out = tmp_path / "out"
    result = build_decks(game, data, BuildSettings(out_dir=out, gutter_mm=0), out / game.id, templates_dir=templates)
    return result, out / game.id / "deck.pdf"


def test_the_safe_zone_is_checked_in_the_turned_frame(turned_build):
    result, _ = turned_build
    # only the label 1 mm from the top of its frame (the card's left edge) is outside the 3 mm
    # safe zone; the 80 mm long name turned 90° is inside it
    [warning] = result.warnings
    assert str(warning).endswith(
        "layout 'spell': boxes.too_close: the box reaches outside the 3 mm safe zone on a 88×63 mm card "
        "turned 270° (text there may be cut off)")


def test_turned_boxes_are_drawn_turned_where_their_frame_puts_them(turned_build):
    result, path = turned_build
    clip = card_clips(pypdf.PdfReader(path).pages[0])[0]  # « Boule de feu », upright on the sheet
    x0, y0, w, h = clip.trim(BLEED)
    chars = [c for c in page_chars(path, 0) if x0 <= c.centre[0] <= x0 + w and y0 <= c.centre[1] <= y0 + h]

    def text_at(angle):
        return [c for c in chars if c.angle == angle]

    # 90°: the name, read from the top of the card down, 3.5 to 9.5 mm in from the right edge
    side = text_at(90)
    assert "".join(c.text for c in sorted(side, key=lambda c: -c.centre[1])) == "Bouledefeu"
    assert all(x0 + w - 9.5 <= c.centre[0] <= x0 + w - 3.5 for c in side)
    # 180°: the fixed note (drawn once into a form, reused by every spell), along the bottom
    # edge from the right: 3.5 to 8.5 mm above the bottom, within 4 to 34 mm of the right edge
    foot = text_at(180)
    assert "".join(c.text for c in sorted(foot, key=lambda c: -c.centre[0])) == "Retournée"
    assert all(y0 + 3.5 <= c.centre[1] <= y0 + 8.5 and x0 + w - 34 <= c.centre[0] <= x0 + w - 4 for c in foot)
    # 270°: read from the bottom of the card up, 1 to 6 mm in from the left edge
    left = text_at(270)
    assert "".join(c.text for c in sorted(left, key=lambda c: c.centre[1])) == "Bord"
    assert all(x0 + 1 <= c.centre[0] <= x0 + 6 for c in left)
    # everything else on the card stays upright
    assert {c.angle for c in chars} == {0, 90, 180, 270}
