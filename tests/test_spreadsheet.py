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
    # two different cards named alike: each id adds the first 6 hex digits of the SHA-256 of what
    # the card says (issue 42: never a row number, so deleting a row renames no other card)
    import hashlib

    def digest(said: str) -> str:
        return hashlib.sha256(said.encode()).hexdigest()[:6]

    fire = digest('{"cost": 3, "kind": "spell", "name": "Boule de feu", "text": "Feu"}')
    big = digest('{"cost": 4, "kind": "spell", "name": "Boule de feu", "text": "Grand feu"}')
    assert [(c.id, c.copies, c.cost) for c in data.cards] == [
        (f"boule-de-feu-{fire}", 3, 3), (f"boule-de-feu-{big}", 1, 4), ("eclair", 1, 0)]
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


# --- CSV as spreadsheet programs write it; workbooks read exactly (issue 31) -------------------------

def _csv_cards(root, raw: bytes):
    from cardforge.games import find_game

    g = find_game("fixture_deck")
    (root / "fixture_deck" / "cards.csv").write_bytes(raw)
    _use(root, "cards.csv")
    data, problems = check_game_data(g, root=root)
    assert data is not None, [str(p) for p in problems]
    return {c.id: c for c in data.cards}, [str(p) for p in problems if not p.is_warning]


EXCEL_TEXT = 'Il dit "bonjour", puis part ; fin\nDeuxième ligne'


@pytest.mark.parametrize("raw", [
    # Excel (English): commas, CRLF records, quotes doubled, a comma inside a quoted field
    b'id,kind,name,cost,text\r\nb,spell,"Boule, de feu",3,"Il dit ""bonjour"", puis part ; fin\nDeuxi\xc3\xa8me ligne"\r\n',
    # Excel (French) / LibreOffice: ';', a UTF-8 BOM
    b'\xef\xbb\xbfid;kind;name;cost;text\r\nb;spell;"Boule, de feu";3;"Il dit ""bonjour"", puis part ; fin\nDeuxi\xc3\xa8me ligne"\r\n',
    # Excel's "sep=" line, then tabs; a quoted header
    b'sep=\t\r\n"id"\t"kind"\t"name"\t"cost"\t"text"\r\nb\tspell\t"Boule, de feu"\t3\t"Il dit ""bonjour"", puis part ; fin\nDeuxi\xc3\xa8me ligne"\r\n',
    # the header's separators only inside quotes: not counted
    b'"id;x",kind\n',
], ids=["excel-comma-crlf", "excel-fr-semicolon-bom", "sep-line-tabs", "quoted-separator"])
def test_csv_as_excel_and_libreoffice_write_it(game, raw):
    _, root = game
    if raw.startswith(b'"id;x"'):  # the separator is ',' (the ';' is inside quotes): one header, unknown
        (root / "fixture_deck" / "cards.csv").write_bytes(raw)
        _use(root, "cards.csv")
        _, problems = check_game_data(game[0], root=root)
        assert any("cards.csv › row 1 › column A (id;x): unknown field" in str(p) for p in problems)
        return
    cards, errors = _csv_cards(root, raw)
    assert errors == []
    card = cards["b"]
    assert (card.name, card.cost, card.text) == ("Boule, de feu", 3, EXCEL_TEXT)


def test_a_workbook_as_a_spreadsheet_program_saves_it(game, tmp_path):
    """Shared texts with rich runs and phonetic guides, a text typed with a leading ', a
    formula's saved value, a text starting with '=' (a text cell: never evaluated), OOXML's
    _x000D_ escape, a formula's error and a date cell located."""
    from fuzz import load_bench  # by path: bench/ on sys.path would shadow tests/fuzz with bench/fuzz.py

    bombs = load_bench("bombs")
    NS, xlsx = bombs.NS, bombs.xlsx

    g, root = game
    shared = (f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{NS}">'
              '<si><t>id</t></si><si><t>name</t></si><si><t>text</t></si><si><t>cost</t></si>'
              '<si><r><t>Boule </t></r><r><rPr><b/></rPr><t xml:space="preserve">de feu</t></r>'
              '<rPh><t>ruby</t></rPh></si>'
              '<si><t>=HYPERLINK("http://x","clic")</t></si><si><t>a_x000D_b</t></si></sst>')
    styles = ('<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="' + NS + '"><numFmts count="1">'
              '<numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts><cellXfs count="2"><xf numFmtId="0"/>'
              '<xf numFmtId="164"/></cellXfs></styleSheet>')
    sheet = ('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c>'
             '<c r="D1" t="s"><v>3</v></c></row>'
             '<row r="2"><c r="A2" t="inlineStr"><is><t>b</t></is></c><c r="B2" t="s"><v>4</v></c>'
             '<c r="C2" t="s"><v>5</v></c><c r="D2"><f>1+2</f><v>3</v></c></row>'
             '<row r="4"><c r="A4" t="str"><f>"e"&amp;"c"</f><v>ec</v></c><c r="B4" t="inlineStr"><is><t>Éclair'
             '</t></is></c><c r="C4" t="s"><v>6</v></c><c r="D4" t="e"><v>#DIV/0!</v></c></row>'
             '<row r="5"><c r="A5" t="inlineStr"><is><t>d</t></is></c><c r="B5" t="inlineStr"><is><t>Date</t></is>'
             '</c><c r="D5" s="1"><v>45352</v></c></row>')
    blob = xlsx(sheet, shared=shared, name="spell")
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(blob)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rId3" Type="http://schemas.openxml'
                                    b'formats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
                                    b"</Relationships>")
            dst.writestr(info, data)
        dst.writestr("xl/styles.xml", styles)
    (root / "fixture_deck" / "cards.xlsx").write_bytes(out.getvalue())
    _use(root, "cards.xlsx")
    data, problems = check_game_data(g, root=root)
    shown = [str(p).split("fixture_deck/", 1)[1] for p in problems if not p.is_warning]
    assert shown == [
        "cards.xlsx › spell › row 4 › column D (cost): the cell shows the error #DIV/0! (a formula that failed): "
        "fix the formula or type the value",
        "cards.xlsx › spell › row 5 › column D (cost): a date or time (2024-03-01 00:00:00) where a number or "
        "text was expected; format the cell as text"]


def test_a_workbook_read_exactly(game):
    from cardforge.data.spreadsheet import read_sheet

    g, root = game
    _workbook(root / "fixture_deck" / "cards.xlsx", {
        "spell": [["id", "name", "cost", "text"], ["b", "Boule de feu", 3, "x"], [], [None, None],
                  ["c", "Éclair", 2.0, "  deux espaces  "]]})
    doc = read_sheet(root / "fixture_deck" / "cards.xlsx", g.card_models)
    assert doc.problems == []
    assert doc.data == [{"kind": "spell", "id": "b", "name": "Boule de feu", "cost": 3, "text": "x"},
                        {"kind": "spell", "id": "c", "name": "Éclair", "cost": 2, "text": "  deux espaces  "}]
    assert [r.row for r in doc.rows] == [2, 5]  # the blank rows are counted, as the spreadsheet shows them


# --- exports are inert ---------------------------------------------------------------------------------

TRIGGERS = ["=HYPERLINK(\"http://evil\",\"clic\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1)", "\tx", "\rx",
            "'=déjà échappé", "'", "  ", "", "-3", "+4.5"]


def test_exports_are_inert_and_read_back_as_the_original_text(tmp_path):
    import csv
    import io
    import zipfile

    from cardforge.data.spreadsheet import Table, read_sheet, write_csv, write_xlsx

    rows = [[f"c{i}", "spell", "Nom", text] for i, text in enumerate(TRIGGERS)]
    table = Table("spell", ["id", "kind", "name", "text"], rows)
    write_csv(tmp_path / "spell.csv", table)
    write_xlsx(tmp_path / "spell.xlsx", [table])
    cells = list(csv.reader(io.StringIO((tmp_path / "spell.csv").read_text(encoding="utf-8"), newline="")))
    for (_, _, _, text), written in zip(rows, cells[1:]):
        # OWASP: no cell starts with = + - @ tab or CR (a number like -3 is a number, not a formula)
        assert written[3][:1] not in ("=", "+", "-", "@", "\t", "\r") or written[3] in ("-3", "+4.5"), written
    with zipfile.ZipFile(tmp_path / "spell.xlsx") as z:
        sheet = z.read("xl/worksheets/sheet1.xml").decode("utf-8")
    assert "<f>" not in sheet and "<f " not in sheet  # no formula in the workbook
    assert 'HYPERLINK(&quot;http://evil&quot;,&quot;clic&quot;)' in sheet or "HYPERLINK(\"http://evil\"" in sheet

    from pydantic import create_model

    model = create_model("Spell", id=(str, ...), kind=(str, ...), name=(str, ...), text=(str, ...))
    for name in ("spell.csv", "spell.xlsx"):
        doc = read_sheet(tmp_path / name, {"spell": model})
        assert doc.problems == []
        assert [raw["text"] for raw in doc.data] == TRIGGERS, name


def test_values_without_a_header_are_one_problem_a_row(game):
    """A row with values past the last header is one problem naming its first and last stray
    column and their count (it was one per cell: a mutated file printed 237,172 lines in 9 s)."""
    g, root = game
    (root / "fixture_deck" / "cards.csv").write_text(
        "id,kind,name,cost\n"
        "a,spell,A,1,x,,y,z\n"   # columns E, G, H: three strays
        "b,spell,B,2\n"
        "c,spell,C,3,,,,,w\n",   # column I alone
        encoding="utf-8")
    _use(root, "cards.csv")
    _, problems = check_game_data(g, root=root)
    shown = [str(p) for p in problems if not p.is_warning]
    assert shown == [
        f"{root / 'fixture_deck' / 'cards.csv'} › row 2 › column E: a value in a column without a header "
        "(and 2 more, up to column H): give the column a header, or clear it",
        f"{root / 'fixture_deck' / 'cards.csv'} › row 4 › column I: a value in a column without a header: "
        "give the column a header, or clear it",
    ], shown
