"""Issue 42: ids derived from a spreadsheet's content, never its row numbers. Deleting one row
of one-row-per-card data removes that card alone: `cardforge diff` and the reprint pack
(`build --changed-since`) both list it and nothing else."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

GAME = """\
title: Monsters
language: en
players: 1-4
categories:
  - {id: points, label: Points}
deck:
  version: '1'
  card_size: poker
  card_files: [monster.csv]
  kinds:
    monster: {label: Monster, fields: {strength: {type: int}}}
"""
# one row per card (the two 'Goblin,1' rows are one card, two copies), three goblins unlike
ROWS = ["Goblin,1", "Goblin,2", "Troll,5", "Goblin,3", "Goblin,1", "Orc,2"]


def _goblin(strength: int) -> str:
    said = json.dumps({"kind": "monster", "name": "Goblin", "strength": strength}, sort_keys=True)
    return "goblin-" + hashlib.sha256(said.encode()).hexdigest()[:6]


def _write(folder: Path, rows: list[str]) -> None:
    (folder / "monster.csv").write_text("Name,Strength\n" + "\n".join(rows) + "\n", encoding="utf-8")


@pytest.fixture
def printed(cli, tmp_path) -> tuple[Path, Path]:
    """The game, built once: (its folder, the cards.json of that build)."""
    folder = tmp_path / "monsters"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    _write(folder, ROWS)
    r = cli("build", str(folder), "-o", tmp_path / "out", "--only", "decks", "-q")
    assert r.code == 0, r.err
    record = tmp_path / "printed.json"
    record.write_bytes((tmp_path / "out" / "monsters" / "cards.json").read_bytes())
    cards = json.loads(record.read_text(encoding="utf-8"))["cards"]
    assert sorted((cid, c["copies"]) for cid, c in cards.items()) == sorted([
        (_goblin(1), 2), (_goblin(2), 1), ("troll", 1), (_goblin(3), 1), ("orc", 1)])
    return folder, record


@pytest.mark.parametrize("deleted, gone", [("Goblin,2", _goblin(2)), ("Troll,5", "troll")])
def test_deleting_a_row_removes_that_card_alone(cli, tmp_path, printed, deleted, gone):
    folder, record = printed
    _write(folder, [row for row in ROWS if row != deleted])
    r = cli("diff", str(folder), "--from", str(record), "--json")
    assert r.code == 0, r.err
    cards = json.loads(r.out)["cards"]
    assert [c["id"] for c in cards["removed"]] == [gone]
    assert cards["added"] == [] and cards["changed"] == []
    # the reprint pack agrees: take that card out, print nothing
    r = cli("build", str(folder), "-o", tmp_path / "again", "--only", "decks", "-q", "--changed-since", str(record))
    assert r.code == 0, r.err
    changes = json.loads((tmp_path / "again" / "monsters" / "changes.json").read_text(encoding="utf-8"))
    assert [(c["id"], c["why"]) for c in changes["take_out"]] == [(gone, "removed")]
    assert changes["add"] == []


def test_moving_rows_changes_no_id(cli, printed):
    folder, record = printed
    _write(folder, list(reversed(ROWS)))
    r = cli("diff", str(folder), "--from", str(record), "--json")
    cards = json.loads(r.out)["cards"]
    assert (cards["removed"], cards["added"], cards["changed"]) == ([], [], [])
