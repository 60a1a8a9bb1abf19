"""Issue 42: a spreadsheet cell holds a language map: `name@fr` columns, or a cell written as
YAML's `{en: …, fr: …}` (read as one, never printed with its braces); any other mapping in a
text cell is a located error; text that merely has braces stays text."""

from __future__ import annotations

from pathlib import Path

import pypdfium2

from cardforge.data.loading import check_game_data
from cardforge.games import load_game_folder

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
    monster: {label: Monster, fields: {strength: {type: int}, lore: {type: text}}}
"""


def _game(tmp_path: Path, csv: str) -> Path:
    folder = tmp_path / "monsters"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "monster.csv").write_text(csv, encoding="utf-8")
    return folder


CSV = ('Id,Name,Name@FR,Strength,Lore\n'
       'goblin,Goblin,Gobelin,1,{X} marks the spot\n'
       'troll,"{en: Troll, fr: Troll des cavernes}",,5,"{en: Under the bridge, fr: Sous le pont}"\n')


def test_language_columns_and_language_map_cells(tmp_path):
    folder = _game(tmp_path, CSV)
    for lang, expected in (("en", [("goblin", "Goblin", "{X} marks the spot"), ("troll", "Troll", "Under the bridge")]),
                           ("fr", [("goblin", "Gobelin", "{X} marks the spot"),
                                   ("troll", "Troll des cavernes", "Sous le pont")])):
        data, problems = check_game_data(load_game_folder(folder), lang=lang)
        assert [p for p in problems if not p.is_warning] == [], problems
        assert [(c.id, c.name, c.lore) for c in data.cards] == expected


def test_the_printed_cards_never_show_the_map(cli, tmp_path):
    folder = _game(tmp_path, CSV)
    for lang, words in (("en", ["Goblin", "Troll", "Under the bridge"]), ("fr", ["Gobelin", "Troll des cavernes"])):
        out = tmp_path / f"out-{lang}"
        r = cli("build", str(folder), "-o", out, "--only", "decks", "--lang", lang)
        assert r.code == 0, r.err
        pdf = pypdfium2.PdfDocument(str(out / "monsters" / "deck.pdf"))
        text = " ".join(" ".join(pdf[i].get_textpage().get_text_range().split()) for i in range(len(pdf)))
        pdf.close()
        assert all(w in text for w in words), text
        assert "{en" not in text and "fr:" not in text


def test_another_mapping_in_a_text_cell_is_a_located_error(cli, tmp_path):
    folder = _game(tmp_path, 'Id,Name,Strength\nogre,"{power: 3, size: big}",5\n')
    r = cli("check", str(folder))
    assert r.code == 1
    assert ("monster.csv › row 2 › column B (name): a text cell holding a mapping ('{power: 3, size: big}'): "
            "a text field takes a text, or one text per language as {en: …, fr: …}") in r.err
    assert "give each language its own column: name@en, name@fr" in r.err


def test_a_text_that_looks_like_a_mapping_exports_and_reads_back_as_text(cli, tmp_path):
    folder = tmp_path / "monsters"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME.replace("card_files: [monster.csv]", "card_files: [monster.yaml]"),
                                      encoding="utf-8")
    texts = ["{power: 3}", "{en: Troll, fr: Troll}", "'{quoted: 1}", "{X} marks"]
    (folder / "monster.yaml").write_text("".join(
        f"- {{id: m{i}, kind: monster, name: M{i}, lore: {text!r}}}\n".replace("'{quoted: 1}'", '"\'{quoted: 1}"')
        for i, text in enumerate(texts)), encoding="utf-8")
    data, problems = check_game_data(load_game_folder(folder))
    assert [c.lore for c in data.cards] == texts, problems
    for fmt in ("csv", "xlsx"):
        r = cli("export-data", str(folder), "--format", fmt, "-o", tmp_path / fmt)
        assert r.code == 0, r.err
        again, problems = check_game_data(load_game_folder(tmp_path / fmt / "monsters"))
        assert [p for p in problems if not p.is_warning] == []
        assert [c.lore for c in again.cards] == texts
    # the CSV holds the mark spreadsheet programs use for "text as it is"
    csv = (tmp_path / "csv" / "monsters" / "monster.csv").read_text(encoding="utf-8")
    assert "'{power: 3}" in csv and "'{en: Troll, fr: Troll}" in csv and "''{quoted: 1}" in csv
    assert ",{X} marks" in csv
