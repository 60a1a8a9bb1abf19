"""Spreadsheets as designers keep them (issue 28): headers matched ignoring case and accents,
a per-file column map in deck.yaml, a title field, ids unique in the game whatever file they
come from, and Excel's default sheet names. Workbooks are shaped like Squib's samples."""

from __future__ import annotations

from test_spreadsheet import _workbook  # a workbook made with openpyxl

from cardforge.data.loading import check_game_data
from cardforge.games import load_game_folder

GAME = "title: Squib port\nlanguage: en\nplayers: 1-4\ncategories:\n  - {id: points, label: Points}\n"


def _game(tmp_path, deck: str):
    folder = tmp_path / "port"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text("title: Port\nversion: '1'\ncard_size: poker\n" + deck, encoding="utf-8")
    return folder


def _load(folder):
    data, problems = check_game_data(load_game_folder(folder))
    return data, [p for p in problems if not p.is_warning], [p for p in problems if p.is_warning]


def test_squib_sample_workbook_loads_as_it_is(tmp_path):
    # Squib's sample: a 'Name' header, 'Qty', the sheet Excel calls Sheet1; the file is named
    # after its kind
    folder = _game(tmp_path, "card_files: [character.xlsx]\n"
                             "kinds:\n  character: {label: Character, fields: {level: {type: int}}}\n")
    _workbook(folder / "character.xlsx", {"Sheet1": [
        ["Name", "Level", "Qty"], ["Thief", 1, 2], ["Grifter", 2, 1], ["Mastermind", 3, 1]]})
    data, errors, _ = _load(folder)
    assert errors == []
    assert [(c.id, c.name, c.level, c.copies) for c in data.cards] == [
        ("thief", "Thief", 1, 2), ("grifter", "Grifter", 2, 1), ("mastermind", "Mastermind", 3, 1)]


def test_accented_and_spaced_headers_match_fields(tmp_path):
    folder = _game(tmp_path, "card_files: [cards.csv]\n"
                             "kinds:\n  spell: {label: Sort, fields: {cout: {type: int}, texte_long: {type: text}}}\n")
    (folder / "cards.csv").write_text("NAME,Coût,Texte long,QTY\nBoule de feu,3,Brûle,2\n", encoding="utf-8")
    data, errors, _ = _load(folder)  # a single kind: the game's only kind
    assert errors == []
    [card] = data.cards
    assert (card.id, card.kind, card.cout, card.texte_long, card.copies) == ("boule-de-feu", "spell", 3, "Brûle", 2)


def test_a_column_map_a_title_field_and_a_declared_kind(tmp_path):
    folder = _game(tmp_path, "card_files:\n"
                             "  - {file: moves.xlsx, kind: move, columns: {Action: name, Qty: copies, Dmg: damage}}\n"
                             "kinds:\n  move: {label: Move, fields: {damage: {type: int}}}\n"
                             "  boss: {label: Boss}\n")
    _workbook(folder / "moves.xlsx", {"Feuil1": [["Action", "Dmg", "Qty"], ["Jump", 1, 3], ["Punch", 2, 1]]})
    data, errors, _ = _load(folder)
    assert errors == []
    assert [(c.id, c.kind, c.name, c.damage, c.copies) for c in data.cards] == [
        ("jump", "move", "Jump", 1, 3), ("punch", "move", "Punch", 2, 1)]


def test_the_title_field_names_the_cards(tmp_path):
    # title_field: a game whose cards' title is 'Action' (kept as a field of the kind here)
    folder = _game(tmp_path, "card_files: [move.csv]\ntitle_field: action\n"
                             "kinds:\n  move: {label: Move, fields: {action: {type: text}}}\n")
    (folder / "move.csv").write_text("Action,Qty\nDouble jump,2\n", encoding="utf-8")
    data, errors, _ = _load(folder)
    assert errors == []
    [card] = data.cards
    assert (card.id, card.name, card.action, card.copies) == ("double-jump", "Double jump", "Double jump", 2)


def test_derived_ids_are_unique_across_files_with_the_kind_as_prefix(tmp_path):
    folder = _game(tmp_path, "card_files: [player.csv, metal_man.csv]\n"
                             "kinds:\n  player: {label: Player}\n  metal_man: {label: Metal Man}\n")
    (folder / "player.csv").write_text("Name\nJump\nShoot\n", encoding="utf-8")
    (folder / "metal_man.csv").write_text("Name\nJump\nJump again\nJump\n", encoding="utf-8")
    data, errors, warnings = _load(folder)
    assert errors == []  # was: duplicate id 'jump' (first defined in player.csv)
    assert [(c.id, c.kind, c.copies) for c in data.cards] == [
        ("jump", "player", 1), ("shoot", "player", 1), ("metal-man-jump", "metal_man", 2),
        ("jump-again", "metal_man", 1)]
    assert len(warnings) == 2  # one per file: ids derived


def test_sheets_of_two_kinds_with_one_name_in_a_workbook(tmp_path):
    folder = _game(tmp_path, "card_files: [cards.xlsx]\nkinds:\n  hero: {label: Hero}\n  villain: {label: Villain}\n")
    _workbook(folder / "cards.xlsx", {"Hero": [["Name"], ["Shadow"]], "villain": [["name"], ["Shadow"], ["Shadow"]]})
    data, errors, _ = _load(folder)
    assert errors == []
    assert [(c.id, c.kind, c.copies) for c in data.cards] == [("shadow", "hero", 1), ("villain-shadow", "villain", 2)]


def test_a_sheet_naming_no_kind_says_exactly_what_to_write(tmp_path):
    folder = _game(tmp_path, "card_files: [cards.xlsx]\nkinds:\n  hero: {label: Hero}\n  villain: {label: Villain}\n")
    _workbook(folder / "cards.xlsx", {"Sheet1": [["Name"], ["Shadow"]]})
    _, errors, _ = _load(folder)
    [error] = errors
    assert str(error).endswith(
        "cards.xlsx › Sheet1 › row 1: sheet 'Sheet1' of " + error.file.split(" › ")[0]
        + ": no kind for its cards (its name names no card kind, and there is no 'kind' column; kinds: hero, "
        "villain): give the file's kind in deck.yaml (card_files: [{file: cards.xlsx, kind: hero}]), add a "
        "'kind' column, or name the sheet after its kind")


def test_column_map_mistakes_are_located(tmp_path):
    folder = _game(tmp_path, "card_files:\n  - {file: move.csv, columns: {Action: nme, Missing: copies}}\n"
                             "  - {file: other.csv, kind: dragon}\n"
                             "kinds:\n  move: {label: Move}\n")
    (folder / "move.csv").write_text("Action,Flavour\nJump,x\n", encoding="utf-8")
    (folder / "other.csv").write_text("Name\nA\n", encoding="utf-8")
    _, errors, _ = _load(folder)
    shown = [str(p) for p in errors]
    assert any(s.endswith("move.csv › row 1 › column A (Action): unknown field (columns: 'Action' → 'nme' in "
                          f"{folder}/deck.yaml › card_files[0]) (allowed: id, kind, name, copies, provenance, art, "
                          "back, qty); did you mean 'name'?") for s in shown), shown
    assert any(s.endswith("move.csv › row 1 › column B (Flavour): unknown field (allowed: id, kind, name, copies, "
                          "provenance, art, back, qty); or map it in deck.yaml: card_files: [{file: move.csv, "
                          "columns: {Flavour: FIELD}}]") for s in shown), shown
    assert any("card_files[0]: columns.Missing: columns: no header 'Missing' in" in s for s in shown), shown
    assert any("card_files[1].kind: unknown card kind 'dragon' (allowed: move)" in s for s in shown), shown


def test_a_card_files_entry_with_a_typo_is_located(tmp_path):
    folder = _game(tmp_path, "card_files:\n  - {file: move.csv, colums: {Action: name}}\nkinds:\n  move: {label: Move}\n")
    (folder / "move.csv").write_text("Action\nJump\n", encoding="utf-8")
    _, errors, _ = _load(folder)
    assert [f"{p.field}: {p.message}".split(" (")[0] for p in errors] == ["card_files[0].colums: unknown field"]
