"""Issue 42: a sheet grid for print layout — ``columns`` and ``rows`` in cardforge.toml (at
most that many cards across and down a sheet, as Squib's ``save_sheet columns:, rows:``), the
gaps between cards being ``gutter``."""

from __future__ import annotations

import shutil

import pypdf
import pytest

from cardforge.layout.imposition import sheet_options

from conftest import FIXTURES


def test_columns_and_rows_cap_the_grid_and_keep_it_centred():
    # A4 portrait fits 3 × 3 poker cards (63 × 88 mm); asked for 2 × 2 it makes 2 × 2
    free = [s for s in sheet_options((210, 297), (63, 88), orientation="portrait") if not s.pattern]
    assert max(s.cols * s.rows for s in free) == 9
    capped = sheet_options((210, 297), (63, 88), orientation="portrait", columns=2, rows=2, gutter=4)
    assert capped and all((s.cols, s.rows, len(s.slots)) == (2, 2, 4) for s in capped)
    sheet = capped[0]
    xs = sorted({round(r.x, 3) for r in sheet.slots})
    tops = sorted({round(r.top, 3) for r in sheet.slots})
    # each card its own 3 mm bleed, 4 mm apart: trims 63 + 2 × 3 + 4 = 73 mm apart
    assert xs[1] - xs[0] == pytest.approx(73) and tops[1] - tops[0] == pytest.approx(98)
    # centred on the page: as much room left of the grid as right of it
    assert xs[0] == pytest.approx(210 - (xs[1] + 63))
    assert sheet_options((210, 297), (63, 88), orientation="portrait", columns=1)[0].cols == 1


def test_cardforge_toml_columns_and_rows_reach_the_build(tmp_path, cli):
    game = tmp_path / "g"
    assert cli("import", "squib", FIXTURES / "squib" / "intro", "--out", game).code == 0
    with (game / "cardforge.toml").open("a") as toml:
        toml.write("columns = 2\nrows = 1\n")
    result = cli("build", game, "--only", "decks", "--out", tmp_path / "out", "--duplex", "none")
    assert result.code == 0, result.err
    assert "2 × 1 = 2 a sheet" in result.out
    (deck,) = [p for p in (tmp_path / "out").rglob("deck.pdf")]
    assert len(pypdf.PdfReader(deck).pages) == 2  # 4 cards, 2 a sheet


@pytest.mark.parametrize("line, expected", [("columns = 0", "columns"), ("rows = 2.5", "rows"),
                                            ('columns = "two"', "columns")])
def test_a_bad_grid_is_a_located_error(tmp_path, cli, line, expected):
    game = tmp_path / "g"
    shutil.copytree(FIXTURES / "squib" / "intro", tmp_path / "p")
    assert cli("import", "squib", tmp_path / "p", "--out", game).code == 0
    with (game / "cardforge.toml").open("a") as toml:
        toml.write(line + "\n")
    result = cli("build", game, "--only", "decks", "--out", tmp_path / "out")
    assert result.code == 1
    assert "cardforge.toml" in result.err and expected in result.err and "Traceback" not in result.err
