"""Exports as designers expect them (issue 28): ``export png`` with the bleed by default
(``--trim`` for the cut size); ``export tts`` one deck per card kind (or declared group)."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

GAME = "title: Port\nlanguage: en\nplayers: 1-4\ncategories:\n  - {id: points, label: Points}\n"
CARDS = """\
- {id: hero, kind: player, name: Hero, copies: 2}
- {id: sidekick, kind: player, name: Sidekick}
- {id: metal-man, kind: boss, name: Metal Man}
- {id: wood-man, kind: boss, name: Wood Man}
- {id: level-1, kind: level, name: Level 1}
"""


def _game(tmp_path: Path, size: str = "poker", kinds: str | None = None) -> Path:
    folder = tmp_path / "port"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(
        f"title: Port\nversion: '2'\ncard_size: {size}\ncard_files: [cards.yaml]\n"
        + (kinds or "kinds:\n  player: {label: Player, plural: Players}\n  boss: {label: Boss, plural: Bosses}\n"
                    "  level: {label: Level}\n"), encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return folder


def _size(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        return im.size


def test_png_has_the_bleed_by_default_and_trim_gives_the_cut_size(cli, tmp_path):
    folder = _game(tmp_path)
    r = cli("export", str(folder), "png", "-o", tmp_path / "bleed")
    assert r.code == 0, r.err
    assert _size(tmp_path / "bleed" / "hero.png") == (815, 1110)  # (63 + 2×3) × (88 + 2×3) mm at 300 dpi
    assert "with bleed" in r.out
    r = cli("export", str(folder), "png", "--trim", "-o", tmp_path / "trim")
    assert r.code == 0, r.err
    assert _size(tmp_path / "trim" / "hero.png") == (744, 1039)  # 63 × 88 mm
    r = cli("export", str(folder), "png", "--no-bleed", "-o", tmp_path / "old")  # the earlier spelling
    assert r.code == 0 and _size(tmp_path / "old" / "hero.png") == (744, 1039)


def test_png_of_a_2_5_by_3_5_in_card_with_an_eighth_inch_bleed_is_825_by_1125(cli, tmp_path):
    folder = _game(tmp_path, size="{width: 2.5in, height: 3.5in}")
    r = cli("export", str(folder), "png", "--bleed-size", "3.175", "-o", tmp_path / "png")
    assert r.code == 0, r.err
    assert _size(tmp_path / "png" / "hero.png") == (825, 1125)  # what The Game Crafter and Squib use
    r = cli("export", str(folder), "png", "--trim", "-o", tmp_path / "cut")
    assert _size(tmp_path / "cut" / "hero.png") == (750, 1050)


def _objects(out: Path) -> list[dict]:
    return json.loads((out / "port.json").read_text(encoding="utf-8"))["ObjectStates"]


def test_tts_one_deck_per_kind(cli, tmp_path):
    folder = _game(tmp_path)
    out = tmp_path / "tts"
    r = cli("export", str(folder), "tts", "-o", out)
    assert r.code == 0, r.err
    players, bosses, level = _objects(out)
    assert (players["Name"], players["Nickname"], len(players["DeckIDs"])) == ("DeckCustom", "Port — Players (v2)", 3)
    assert sorted(o["Description"] for o in players["ContainedObjects"]) == ["hero", "hero", "sidekick"]
    assert (bosses["Name"], bosses["Nickname"], len(bosses["DeckIDs"])) == ("DeckCustom", "Port — Bosses (v2)", 2)
    assert (level["Name"], level["Description"]) == ("Card", "level-1")  # a lone card: a card, not a deck
    assert [o["Transform"]["posX"] for o in (players, bosses, level)] == [0.0, 3.0, 6.0]  # side by side
    assert sorted(p.name for p in out.glob("*.json")) == ["port.json"]
    assert (out / "port-player-1.png").exists() and (out / "port-boss-1.png").exists()
    assert "Players: 3 cards on 1 sheet" in r.out


def test_tts_kinds_declaring_a_group_share_a_deck(cli, tmp_path):
    folder = _game(tmp_path, kinds="kinds:\n  player: {label: Player}\n  boss: {label: Boss, group: Enemies}\n"
                                   "  level: {label: Level, group: Enemies}\n")
    out = tmp_path / "tts"
    r = cli("export", str(folder), "tts", "-o", out)
    assert r.code == 0, r.err
    players, enemies = _objects(out)
    assert len(players["DeckIDs"]) == 3
    assert enemies["Nickname"] == "Port — Enemies (v2)"
    assert [o["Description"] for o in enemies["ContainedObjects"]] == ["metal-man", "wood-man", "level-1"]
