"""Issue 42: one rule for names. A field or kind written `Action`, `Coût total` or `cout-total`
is the declared `action` / `cout_total` in a card file, a spreadsheet and a scoring, balance or
score-sheet declaration alike (case, accents, surrounding spaces folded; inner spaces and
hyphens as '_')."""

from __future__ import annotations

from pathlib import Path

from cardforge.data.loading import check_game_data
from cardforge.data.names import fold, resolve
from cardforge.games import load_game_folder

GAME = """\
title: Names
language: en
players: 2-4
holdings:
  played: {widget: cards, kinds: [Action]}
categories:
  - {id: points, label: Points, score: {sum: Victory Points, where: {Kind: ACTION}}}
  - {id: dear, label: Dear cards, score: {count: {Coût-Total: 3}}}
deck:
  version: '1'
  card_size: poker
  card_files: [cards.yaml, more.csv]
  kinds:
    action:
      label: Action
      fields:
        victory_points: {type: int}
        cout_total: {type: int}
"""


def _game(tmp_path: Path) -> Path:
    folder = tmp_path / "names"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    # a YAML card file: the kind and fields as a designer types them
    (folder / "cards.yaml").write_text(
        "- {id: merchant, kind: Action, name: Merchant, Victory Points: 2, Coût total: 3}\n"
        "- {id: scout, kind: ACTION, name: Scout, victory-points: 1, cout_total: 1}\n", encoding="utf-8")
    # a spreadsheet: headers and the kind column the same way
    (folder / "more.csv").write_text("Id,Kind,Name,VICTORY POINTS,Cout Total\nbanker,Action,Banker,5,3\n",
                                     encoding="utf-8")
    return folder


def test_fold_and_resolve():
    assert fold("  Coût total ") == fold("cout-total") == fold("COUT_TOTAL") == "cout_total"
    assert resolve("Action", ["action", "boss"]) == "action"
    assert resolve("action", ["action", "Action"]) == "action"  # the name as declared first
    assert resolve("ACTION", ["action", "Action"]) is None  # two fold alike: neither is guessed
    assert resolve("bos", ["action", "boss"]) is None


def test_cards_and_sheets_fold_names(tmp_path):
    data, problems = check_game_data(load_game_folder(_game(tmp_path)))
    assert [p for p in problems if not p.is_warning] == []
    assert [(c.id, c.kind, c.victory_points, c.cout_total) for c in data.cards] == [
        ("merchant", "action", 2, 3), ("scout", "action", 1, 1), ("banker", "action", 5, 3)]


def test_scoring_folds_names_the_same_way(cli, tmp_path, write_yaml):
    folder = _game(tmp_path)
    r = cli("check", str(folder))
    assert r.code == 0, r.err
    final = write_yaml("final.yaml", "players:\n  - {name: Ann, played: [merchant, banker]}\n"
                                     "  - {name: Bob, played: [scout]}\n")
    r = cli("score", str(folder), str(final), "--json")
    assert r.code == 0, r.err
    import json

    players = {p["name"]: p for p in json.loads(r.out)["players"]}
    # Ann: 2 + 5 victory points, 2 cards costing 3; Bob: 1 point, none costing 3
    assert (players["Ann"]["breakdown"]["points"], players["Ann"]["breakdown"]["dear"]) == (7, 2)
    assert (players["Bob"]["breakdown"]["points"], players["Bob"]["breakdown"]["dear"]) == (1, 0)


def test_a_name_that_folds_to_nothing_known_is_still_refused(cli, tmp_path):
    folder = _game(tmp_path)
    text = (folder / "game.yaml").read_text(encoding="utf-8").replace("sum: Victory Points", "sum: Victory")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    r = cli("check", str(folder))
    assert r.code == 1
    assert "categories[0].score.sum: no card held here has a field 'victory'" in r.err
