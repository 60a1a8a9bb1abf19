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


# --- every field value survives CSV and XLSX (issue 31) ---------------------------------------------

import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import yaml  # noqa: E402
from hypothesis import HealthCheck, Phase, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from conftest import run_cli  # noqa: E402

#: texts spreadsheets and CSV mangle: quotes, separators, line ends, formula triggers, blanks,
#: what looks like cardforge's own escapes or OOXML's, YAML flow syntax
NASTY = ['He said "hi", then left', "a,b;c", "line\nline", "cr\rlf\r\n", "=1+1", "+33 6", "-x", "@SUM(A1)",
         "\tindent", "'quoted", "''", "'", " ", "   ", "", " lead", "trail ", "_x000D_", "_x0041_ y", "[a, b]",
         "{a: 1}", "'=already'", "#hash", "- dash", "null", "true", "3", "-3", "1e5", ".inf", "é ♚ 😀",
         "\u2028sep", "x; y", "\\", '"', "a\x85b"]
# YAML can hold these characters (the original file is YAML)
_CHARS = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x7f\ufeff\ufffe\uffff"
                       + "".join(chr(c) for c in range(0x20) if c not in (9, 10, 13))
                       + "".join(chr(c) for c in range(0x80, 0xa0) if c != 0x85))
TEXT = st.one_of(st.sampled_from(NASTY), st.text(_CHARS, max_size=12),
                 st.lists(st.sampled_from(NASTY + ["a", " ", "="]), min_size=1, max_size=4).map("".join))
ITEM = st.one_of(st.sampled_from(NASTY), st.text(_CHARS, min_size=1, max_size=8))


def _game(tmp: Path) -> Path:
    """A `cardforge new` game with a deck.yaml whose kind has text, list, int and number fields."""
    folder = tmp / "src" / "roundtrip"
    assert run_cli("new", folder, "--lang", "fr").code == 0
    game = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    deck = game.pop("deck")
    deck["title"] = game["title"]
    deck["kinds"]["action"]["fields"] = {"cost": {"type": "int"}, "effect": {"type": "text"},
                                         "tags": {"type": "list"}, "weight": {"type": "number"}}
    (folder / "game.yaml").write_text(yaml.safe_dump(game, allow_unicode=True, sort_keys=False), encoding="utf-8")
    (folder / "deck.yaml").write_text(yaml.safe_dump(deck, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder


def _cards(folder: Path) -> tuple[list[dict] | None, list[str]]:
    from cardforge.data.loading import check_game_data
    from cardforge.games import find_game

    data, problems = check_game_data(find_game(folder))
    errors = [str(p) for p in problems if not p.is_warning]
    return ([c.model_dump() for c in data.cards] if data is not None and not errors else None), errors


@pytest.fixture(scope="module")
def roundtrip_game(tmp_path_factory):
    return _game(tmp_path_factory.mktemp("roundtrip"))


def _write_cards(folder: Path, cards: list[dict]) -> None:
    (folder / "cards.yaml").write_text(yaml.safe_dump({"cards": cards}, allow_unicode=True, sort_keys=False),
                                       encoding="utf-8")


@settings(max_examples=40, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(names=st.lists(TEXT, min_size=1, max_size=3), effects=st.lists(TEXT, min_size=3, max_size=3),
       tags=st.lists(st.lists(ITEM, max_size=3), min_size=3, max_size=3),
       weight=st.floats(allow_nan=False, width=64) | st.integers(-10 ** 6, 10 ** 6))
@pytest.mark.slow
def test_every_field_value_survives_csv_and_xlsx(roundtrip_game, tmp_path_factory, names, effects, tags, weight):
    work = tmp_path_factory.mktemp("rt")
    folder = work / "roundtrip"
    shutil.copytree(roundtrip_game, folder)
    cards = [{"id": f"c{i}", "kind": "action", "name": (names[i % len(names)] or "x"), "cost": i - 1,
              "effect": effects[i], "tags": tags[i], "weight": weight} for i in range(3)]
    _write_cards(folder, cards)
    before, errors = _cards(folder)
    assume(before is not None)  # the YAML itself must be a valid deck (markup, icons)
    for fmt in ("csv", "xlsx"):
        r = run_cli("export-data", folder, "--format", fmt, "-o", work / fmt)
        assert r.code == 0, r.err
        after, errors = _cards(work / fmt / "roundtrip")
        assert errors == [] and after == before, (fmt, errors)


def test_the_nasty_texts_print_byte_identical_decks(tmp_path):
    folder = _game(tmp_path)
    cards = [{"id": f"c{i}", "kind": "action", "name": f"Carte {i}", "cost": i % 5, "effect": text or "x",
              "tags": [NASTY[(i + 1) % len(NASTY)] or "y", text or "z"]} for i, text in enumerate(NASTY)]
    cards += [{"id": "vide", "kind": "action", "name": "Vide", "cost": 0, "effect": "", "tags": [""]},
              {"id": "blancs", "kind": "action", "name": "Blancs", "cost": 0, "effect": "  ", "tags": [" ", "", "a"]}]
    _write_cards(folder, cards)
    before, errors = _cards(folder)
    assert before is not None, errors
    assert run_cli("build", folder, "--only", "decks", "-q", "-o", tmp_path / "out-yaml").code == 0
    expected = _sha(tmp_path / "out-yaml" / "roundtrip" / "deck.pdf")
    for fmt in ("csv", "xlsx"):
        assert run_cli("export-data", folder, "--format", fmt, "-o", tmp_path / fmt).code == 0
        after, errors = _cards(tmp_path / fmt / "roundtrip")
        assert after == before, errors
        r = run_cli("build", tmp_path / fmt / "roundtrip", "--only", "decks", "-q", "-o", tmp_path / f"out-{fmt}")
        assert r.code == 0, r.err
        assert _sha(tmp_path / f"out-{fmt}" / "roundtrip" / "deck.pdf") == expected, fmt


def test_texts_at_the_limit_survive(tmp_path):
    """A text of 20,000 characters (the most a YAML file takes) and a list of two long texts:
    their cells are longer than any one text (a leading ', quotes, the separator), and load back
    the same (found by bench/fuzz.py: they were refused as too long)."""
    folder = _game(tmp_path)
    cards = [{"id": "longue", "kind": "action", "name": "Longue", "cost": 1, "effect": "'" + "é" * 19999,
              "tags": ["a" * 15000, "=" + "b" * 14999]},
             {"id": "liste", "kind": "action", "name": "Liste", "cost": 2, "tags": ["x" * 20000, "[" + "y" * 19999]}]
    _write_cards(folder, cards)
    before, errors = _cards(folder)
    assert before is not None, errors
    assert run_cli("export-data", folder, "--format", "csv", "-o", tmp_path / "csv").code == 0
    after, errors = _cards(tmp_path / "csv" / "roundtrip")
    assert errors == [] and after == before, errors
    # a workbook's cell holds at most 32,767 characters (openpyxl cut the list short, silently)
    r = run_cli("export-data", folder, "--format", "xlsx", "-o", tmp_path / "xlsx")
    assert r.code == 1 and "cards.xlsx: card 'liste': tags: 40,006 characters in one cell, more than an " \
        ".xlsx cell holds (32,767): export as csv" in r.err, r.err
    cards[1]["tags"] = ["x" * 15000, "[" + "y" * 14999]
    _write_cards(folder, cards)
    before, _ = _cards(folder)
    assert run_cli("export-data", folder, "--format", "xlsx", "-o", tmp_path / "xlsx2").code == 0
    after, errors = _cards(tmp_path / "xlsx2" / "roundtrip")
    assert errors == [] and after == before, errors
