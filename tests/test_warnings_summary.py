"""Warnings summarised (issue 28): one line per box and kind with the count of cards, in build,
export and watch; cardforge's own version stamp inside every print service's safe zone; a box
with ``bleed: true`` is meant to bleed (no safe-zone warning)."""

from __future__ import annotations

from pathlib import Path

import pytest

GAME = "title: Warned\nlanguage: en\nplayers: 1-4\ncategories:\n  - {id: points, label: Points}\n"
LAYOUT = """\
layouts:
  note:
    boxes:
      edge: {type: text, x: 1mm, y: 10mm, width: 40mm, height: 6mm, text: "{{ card.name }}"}
      band: {type: text, x: 0mm, y: 30mm, width: 63mm, height: 6mm, bleed: true, text: "{{ card.name }}",
             style: {align: center}}
      pic: {type: art, x: 10mm, y: 45mm, width: 20mm, height: 20mm}
"""


def _game(tmp_path: Path, cards: int = 6) -> Path:
    folder = tmp_path / "warned"
    (folder / "templates").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text("title: Warned\nversion: '1'\ncard_size: poker\ncard_files: [cards.yaml]\n"
                                      "kinds:\n  note: {label: Note}\n", encoding="utf-8")
    (folder / "cards.yaml").write_text("".join(f"- {{id: n{i}, kind: note, name: Note {i}, art: art/n{i}.png}}\n"
                                               for i in range(1, cards + 1)), encoding="utf-8")
    (folder / "templates" / "layout.yaml").write_text(LAYOUT, encoding="utf-8")
    return folder


def _warnings(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.startswith("warning:")]


def test_a_build_says_each_warning_once_per_box_and_kind(cli, tmp_path):
    folder = _game(tmp_path)
    r = cli("build", str(folder), "-o", tmp_path / "out", "--only", "decks")
    assert r.code == 0, r.err
    lines = _warnings(r.err)
    # the box outside the safe zone (a layout's box: one line), the six missing pictures (one
    # line with the count); not the band (bleed: true), not the auto-placed stamp
    assert len(lines) == 2, lines
    [art] = [ln for ln in lines if "placeholder" in ln]
    assert "6 cards of kind 'note' (n1, n2, n3, n4 and 2 more)" in art
    assert "layout 'note', box 'pic': art not found (" in art and "printed placeholders" in art
    [edge] = [ln for ln in lines if "safe zone" in ln]
    assert "boxes.edge" in edge and "band" not in r.err


def test_one_card_keeps_its_located_warning(cli, tmp_path):
    folder = _game(tmp_path, cards=1)
    r = cli("build", str(folder), "-o", tmp_path / "out", "--only", "decks")
    [art] = [ln for ln in _warnings(r.err) if "placeholder" in ln]
    assert "card 'n1' (#1): layout 'note', box 'pic': art 'art/n1.png'" in art


@pytest.mark.parametrize("profile", ["thegamecrafter-poker", "drivethrucards-poker", "makeplayingcards-poker"])
def test_pod_export_one_line_per_box_and_kind_and_no_stamp_warning(cli, tmp_path, profile):
    folder = _game(tmp_path)
    r = cli("export", str(folder), "pod", "--profile", profile, "-o", tmp_path / "pod")
    assert r.code == 0, r.err
    unsafe = [ln for ln in _warnings(r.err) if "unsafe margin" in ln]
    # the edge box on the six cards: one line; the band is meant to bleed; cardforge's own
    # stamp (auto-placed) sits inside the service's safe zone
    assert len(unsafe) == 1, unsafe
    assert unsafe[0].startswith("warning: 6 faces of kind 'note' (n1, n2, n3, n4 and 2 more): box 'edge': text ")
    assert "stamp" not in r.err and "'band'" not in r.err


def test_the_stamp_inset_is_inside_every_bundled_service_safe_zone():
    from cardforge.render.cards.cards import STAMP_INSET_MM
    from cardforge.render.exports.pod import SHIPPED, load_profile

    names = sorted(p.stem for p in SHIPPED.glob("*.yaml"))
    assert len(names) >= 8
    for name in names:
        prof = load_profile(name).profile
        # a card up to 4 % larger than the service's trim is printed shrunk: its safe zone
        # grows by as much in the card's own millimetres
        assert prof.safe / 0.96 < STAMP_INSET_MM, name
