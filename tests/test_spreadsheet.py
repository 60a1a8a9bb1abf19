"""Card files as spreadsheets (cardforge/data/spreadsheet.py): CSV and XLSX decks, cell types,
repeated rows as copies, derived ids, and every problem located by sheet, row and column."""

from __future__ import annotations

import shutil

import openpyxl
import pytest

from cardforge.data.loading import check_game_data, load_game_data

from render_helpers import FIXTURE_DATA, register_fixture_game


@pytest.fixture
def game(monkeypatch, tmp_path):
    register_fixture_game(monkeypatch)
    from cardforge.games import find_game

    root = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, root)
    return find_game("fixture_deck"), root


def _use(root, *names):
    deck = root / "fixture_deck" / "deck.yaml"
    text = deck.read_text(encoding="utf-8").replace("card_files: [cards.yaml]", f"card_files: [{', '.join(names)}]")
    deck.write_text(text, encoding="utf-8")


def _workbook(path, sheets: dict[str, list[list]]):
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for r in rows:
            ws.append(r)
    wb.save(path)


CSV = """\
id,kind,name,copies,cost,text,provenance
boule-de-feu,spell,Boule de feu,3,3,"Infligez **3** dégâts ; gagnez 1 :coin: par ennemi touché.",provisional
bouclier,spell,Bouclier,,1,"*Réaction* : annulez une attaque.

Défaussez cette carte.",rulebook
jeton-or,token,Jeton d'or,4,,Vaut 1 :coin:.,
"""


def test_a_csv_deck_loads_like_yaml(game):
    g, root = game
    (root / "fixture_deck" / "cards.csv").write_text(CSV, encoding="utf-8")
    _use(root, "cards.csv")
    data = load_game_data(g, root=root)
    assert [c.id for c in data.cards] == ["boule-de-feu", "bouclier", "jeton-or"]
    fire, shield, token = data.cards
    assert (fire.copies, fire.cost, fire.provenance) == (3, 3, "provisional")
    assert (shield.copies, shield.cost) == (1, 1)  # empty cell: the default
    assert shield.text == "*Réaction* : annulez une attaque.\n\nDéfaussez cette carte."
    assert (token.copies, token.provenance) == (4, None)  # provenance is optional
    assert data.sources["jeton-or"].file.endswith("cards.csv › row 4")
    assert data.warnings == []


def test_an_xlsx_workbook_with_a_sheet_per_kind(game):
    g, root = game
    _workbook(root / "fixture_deck" / "cards.xlsx", {
        "spell": [["id", "name", "qty", "cost", "text"],
                  ["boule-de-feu", "Boule de feu", 3, 3.0, "Feu"],  # 3.0: a number typed in a workbook
                  ["eclair", "Éclair", None, 0, "Foudre"]],
        "_notes": [["anything", "at all"]],  # left out
        "planet": [["id", "name", "moon"], ["kessara", "Kessara", 7]],  # a text field given a number
    })
    _use(root, "cards.xlsx")
    data = load_game_data(g, root=root)
    assert [(c.id, c.kind, c.copies) for c in data.cards] == [
        ("boule-de-feu", "spell", 3), ("eclair", "spell", 1), ("kessara", "planet", 1)]
    assert data.card("boule-de-feu").cost == 3 and type(data.card("boule-de-feu").cost) is int
    assert data.card("kessara").moon == "7"
    assert data.sources["kessara"].file.endswith("cards.xlsx › planet › row 2")


def test_repeated_rows_are_copies_and_ids_come_from_names(game):
    g, root = game
    (root / "fixture_deck" / "spell.csv").write_text(
        "name;cost;text\n"
        "Boule de feu;3;Feu\n"
        "Boule de feu;3;Feu\n"
        "Boule de feu;4;Grand feu\n"
        "Éclair;0;Foudre\n"
        "Boule de feu;3;Feu\n", encoding="utf-8")  # semicolons: the delimiter is sniffed
    _use(root, "spell.csv")  # named like a kind: every row is a spell
    data, problems = check_game_data(g, root=root)
    assert [(c.id, c.copies, c.cost) for c in data.cards] == [
        ("boule-de-feu", 3, 3), ("boule-de-feu-2", 1, 4), ("eclair", 1, 0)]
    [warning] = [p for p in problems if p.is_warning]
    assert "ids are derived from the names" in warning.message
    assert "renaming such a card reads as one card removed and one added" in warning.message


def test_problems_are_located_by_sheet_row_and_column_all_at_once(game):
    g, root = game
    _workbook(root / "fixture_deck" / "cards.xlsx", {
        "Sheet1": [["id", "kind", "name", "cost", "txt"],
                   ["boule-de-feu", "spell", "Boule de feu", 3],
                   ["bouclier", "spell", "Bouclier", -1],
                   ["eclair", "dragon", "Éclair", 0],
                   ["jeton", "spell", "Jeton", "beaucoup"],
                   ["Bad Id", "token", "Jeton :pice:"]],
    })
    _use(root, "cards.xlsx")
    _, problems = check_game_data(g, root=root)
    shown = [str(p) for p in problems if not p.is_warning]
    where = "cards.xlsx › Sheet1 ›"
    assert any(s.endswith(f"{where} row 1 › column E (txt): unknown field (allowed: id, kind, name, copies, "
                          "provenance, art, back, cost, text, moon, other_side, qty); did you mean 'text'?")
               for s in shown), shown
    assert any(f"{where} row 3 › column D (cost): card 'bouclier' (#2): cost: must be ≥ 0, got -1" in s
               for s in shown), shown
    assert any(f"{where} row 4 › column B (kind): card 'eclair' (#3): kind: unknown card kind 'dragon'" in s
               for s in shown), shown
    assert any(f"{where} row 5 › column D (cost): card 'jeton' (#4): cost: must be a whole number, "
               "got 'beaucoup'" in s for s in shown), shown
    assert any(f"{where} row 6 › column A (id): card 'Bad Id' (#5): id: must be a kebab-case id" in s
               for s in shown), shown
    assert any(f"{where} row 6 › column C (name): card 'Bad Id' (#5): name: unknown icon ':pice:'" in s
               for s in shown), shown
    assert len(shown) == 6, shown


def test_list_and_mapping_cells(game):
    from cardforge.data.spreadsheet import _annotation_at, _convert

    # a list field: 'a; b' or YAML flow; a mapping: YAML flow; a number where any value goes
    assert _convert("red; green", list[str]) == ["red", "green"]
    assert _convert("[1, 2]", list[int]) == [1, 2]
    assert _convert("{red: 2, gold: 1}", dict[str, int]) == {"red": 2, "gold": 1}
    assert _convert("3", int | str) == 3 and _convert("true", bool) is True and _convert("2.5", float) == 2.5
    assert _convert("3", str) == "3"
    with pytest.raises(ValueError, match="cannot read '\\[a, b' as a YAML flow value"):
        _convert("[a, b", list[str])
    g, _ = game
    assert _annotation_at(g.card_models["spell"], ["cost"]) is not None


def test_required_provenance(game):
    g, root = game
    (root / "fixture_deck" / "cards.csv").write_text(CSV, encoding="utf-8")
    _use(root, "cards.csv")
    deck = root / "fixture_deck" / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "require_provenance: true\n", encoding="utf-8")
    _, problems = check_game_data(g, root=root)
    assert [str(p).split("fixture_deck/", 1)[1] for p in problems if not p.is_warning] == [
        "cards.csv › row 4: card 'jeton-or' (#3): provenance: required field is missing (deck.yaml has "
        "require_provenance: true; allowed: rulebook, provisional)"]


def test_a_csv_edit_invalidates_the_data_cache(game, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    g, root = game
    path = root / "fixture_deck" / "cards.csv"
    path.write_text(CSV, encoding="utf-8")
    _use(root, "cards.csv")
    assert load_game_data(g, root=root).card("boule-de-feu").cost == 3
    path.write_text(CSV.replace("Boule de feu,3,3,", "Boule de feu,3,5,"), encoding="utf-8")
    assert load_game_data(g, root=root).card("boule-de-feu").cost == 5


def test_watch_mode_sees_spreadsheets(tmp_path):
    from cardforge.watch import changes, snapshot

    (tmp_path / "cards.csv").write_text("id,name\n", encoding="utf-8")
    (tmp_path / "cards.xlsx").write_bytes(b"x")
    (tmp_path / "~$cards.xlsx").write_bytes(b"lock")  # Excel's lock file while the workbook is open
    before = snapshot([tmp_path])
    assert sorted(p.rsplit("/", 1)[1] for p in before) == ["cards.csv", "cards.xlsx"]
    (tmp_path / "cards.csv").write_text("id,name\nun,Un\n", encoding="utf-8")
    assert changes(before, snapshot([tmp_path])) == [str(tmp_path / "cards.csv")]


def test_a_repeated_header_a_date_and_an_unreadable_file(game):
    import datetime

    g, root = game
    _workbook(root / "fixture_deck" / "cards.xlsx", {
        "spell": [["id", "name", "name", "cost"],
                  ["boule-de-feu", "Boule de feu", "Feu", datetime.datetime(2024, 3, 1)]],
    })
    (root / "fixture_deck" / "broken.xlsx").write_bytes(b"not a zip")
    _use(root, "cards.xlsx", "broken.xlsx")
    _, problems = check_game_data(g, root=root)
    shown = [str(p).split("fixture_deck/", 1)[1] for p in problems if not p.is_warning]
    assert shown[:2] == [
        "cards.xlsx › spell › row 1 › column C (name): the column 'name' appears twice",
        "cards.xlsx › spell › row 2 › column D (cost): a date or time (2024-03-01 00:00:00) where a number "
        "or text was expected; format the cell as text",
    ]
    assert shown[2].startswith("broken.xlsx: cannot read it as an .xlsx workbook: ")
    assert len(shown) == 3
