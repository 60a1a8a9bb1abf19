"""export-data → import: every shipped game's cards, written as CSV and as XLSX, load back to
the same cards and print byte-identical decks; the workbook's bytes depend on the cards only."""

from __future__ import annotations

import hashlib

import pytest

GAMES = ["maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners"]


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.slow
def test_exported_spreadsheets_print_the_same_deck(cli, tmp_path, game):
    r = cli("build", game, "--only", "decks", "-q", "-o", tmp_path / "yaml")
    assert r.code == 0, r.err
    expected = _sha(tmp_path / "yaml" / game / "deck.pdf")
    for fmt in ("csv", "xlsx"):
        r = cli("export-data", game, "--format", fmt, "-o", tmp_path / fmt)
        assert r.code == 0, r.err
        files = sorted(p.name for p in (tmp_path / fmt / game).glob(f"*.{fmt}"))
        assert files, r.out
        r = cli("--data", tmp_path / fmt, "build", game, "--only", "decks", "-q", "-o", tmp_path / f"out-{fmt}")
        assert r.code == 0, r.err
        assert "warning" not in r.err  # exported files always carry their ids
        assert _sha(tmp_path / f"out-{fmt}" / game / "deck.pdf") == expected, fmt


def test_exported_cards_are_the_same_cards(cli, tmp_path):
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game

    game = find_game("mine_all_mine")  # nested models, lists of models, a double-sided kind
    r = cli("export-data", "mine_all_mine", "--format", "csv", "-o", tmp_path)
    assert r.code == 0, r.err
    assert "mine_all_mine: 18 cards written to 3 csv file(s)" in r.out
    header = (tmp_path / "mine_all_mine" / "planets.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "id,kind,name,provenance,number,planet.name,planet.turns,planet.high,moon.name,moon.turns,moon.high"
    before, after = load_game_data(game), load_game_data(game, root=tmp_path)
    assert [c.model_dump() for c in after.cards] == [c.model_dump() for c in before.cards]


def test_xlsx_export_is_deterministic(cli, tmp_path):
    for n in (1, 2):
        assert cli("export-data", "tunhell", "--format", "xlsx", "-o", tmp_path / str(n)).code == 0
    one = sorted((tmp_path / "1" / "tunhell").glob("*.xlsx"))
    assert [p.name for p in one] == ["fin-de-mine.xlsx", "mine.xlsx", "nains.xlsx", "trophees.xlsx"]
    for p in one:
        assert p.read_bytes() == (tmp_path / "2" / "tunhell" / p.name).read_bytes()
    import openpyxl

    wb = openpyxl.load_workbook(one[2], read_only=True)
    assert wb.sheetnames == ["dwarf"]  # one kind: a sheet named like it, no kind column
    rows = list(wb["dwarf"].iter_rows(values_only=True))
    assert rows[0][:3] == ("id", "name", "copies")


def test_export_refuses_to_overwrite_its_source(cli, tmp_path):
    r = cli("--data", "card_data", "export-data", "tunhell", "--format", "csv", "-o", "card_data")
    assert r.code == 2 and "would overwrite the data being exported" in r.err
