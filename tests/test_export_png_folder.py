"""Issue 42: `export png` takes its bleed from the game's cardforge.toml as the PDFs do, and
removes the images of cards it no longer writes — from its own folder only, the ones its
earlier faces.json lists, never a file elsewhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture
def game(cli, tmp_path) -> Path:
    folder = tmp_path / "game"
    r = cli("new", str(folder))
    assert r.code == 0, r.err
    return folder


def _faces(out: Path) -> dict:
    return json.loads((out / "faces.json").read_text(encoding="utf-8"))


def test_the_bleed_of_cardforge_toml(cli, game, tmp_path):
    (game / "cardforge.toml").write_text('[build]\nbleed = "2mm"\n', encoding="utf-8")
    r = cli("export", str(game), "png", "--dpi", "100", "-o", tmp_path / "png")
    assert r.code == 0, r.err
    index = _faces(tmp_path / "png")
    # poker 63 × 88 mm with 2 mm a side at 100 dpi: round(67 / 25.4 × 100) × round(92 / 25.4 × 100)
    assert index["bleed_mm"] == 2.0
    assert {tuple(c["pixels"]) for c in index["cards"]} == {(264, 362)}
    # the command line still wins
    r = cli("export", str(game), "png", "--dpi", "100", "--bleed-size", "3", "-o", tmp_path / "png3")
    assert {tuple(c["pixels"]) for c in _faces(tmp_path / "png3")["cards"]} == {(272, 370)}


def test_without_a_toml_the_build_default_3mm(cli, game, tmp_path):
    (game / "cardforge.toml").unlink()
    r = cli("export", str(game), "png", "--dpi", "100", "-o", tmp_path / "png")
    assert r.code == 0, r.err
    assert _faces(tmp_path / "png")["bleed_mm"] == 3.0


def _drop_architect(game: Path) -> None:
    cards = game / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    start = text.index("  - id: architect")
    cards.write_text(text[:start], encoding="utf-8")


@pytest.mark.parametrize("named", [True, False])
def test_images_of_cards_gone_are_removed_and_nothing_else(cli, game, tmp_path, monkeypatch, named):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "png" if named else Path("output") / "game" / "png"
    args = ["-o", str(out)] if named else []
    assert cli("export", str(game), "png", "--dpi", "36", *args).code == 0
    assert (out / "architect.png").is_file()
    mine = out / "my-notes.png"  # a file of the user's in a folder they named: not ours
    if named:
        mine.write_bytes(b"not cardforge's")
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"keep me")
    # an earlier faces.json naming files outside the folder (hand-edited, or planted)
    index = _faces(out)
    index["cards"] += [{"id": "x", "front": "../outside.png", "back": str(outside)},
                       {"id": "y", "front": "..", "back": "sub/../../outside.png"}]
    (out / "faces.json").write_text(json.dumps(index), encoding="utf-8")
    _drop_architect(game)
    r = cli("export", str(game), "png", "--dpi", "36", *args)
    assert r.code == 0, r.err
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["back-default.png", "faces.json", "merchant.png", "scout.png"] + (["my-notes.png"] if named else []))
    assert outside.read_bytes() == b"keep me"
    if named:
        assert mine.read_bytes() == b"not cardforge's"
