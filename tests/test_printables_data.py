"""boards.yaml and aids.yaml: loaded for any game by the data layer, every problem located."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cardforge.data.loading import Section, check_game_data, common_sections
from cardforge.data.models import Entry
from cardforge.data.printables import Aid, Board, SheetSize, build_board
from cardforge.games.base import Game

from printables_support import FIXTURES, GAME


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch):
    monkeypatch.setenv("CARDFORGE_NO_CACHE", "1")


def test_boards_and_aids_land_in_the_sections():
    data, problems = check_game_data(GAME, FIXTURES / "good")
    assert [p for p in problems if not p.is_warning] == []
    boards, aids = data.sections["boards"], data.sections["aids"]
    assert [b.id for b in boards] == ["plateau-grille", "plateau-flux"]
    assert all(isinstance(b, Board) for b in boards)
    assert [a.id for a in aids] == ["resume", "carte-aide"]
    resume, card = aids
    assert resume.double_sided and not card.double_sided
    assert resume.printed_copies(GAME.max_players) == 3 and card.printed_copies(GAME.max_players) == 2
    grid = boards[0]
    assert [z.kind for z in grid.zones] == ["text", "track", "slots"]
    assert grid.zones[1].space_labels == [str(i) for i in range(12)]
    assert grid.zones[2].count == 2  # taken from its labels
    # boards and aids count as entries with a provenance
    assert data.provisional_count() == 1 + 1 + 1  # the card, a board, an aid


def test_every_problem_is_reported_with_file_line_item_and_field():
    _, problems = check_game_data(GAME, FIXTURES / "bad")
    shown = [str(p) for p in problems]
    boards = "tests/fixtures/printables/bad/printables_fixture/boards.yaml"
    aids = "tests/fixtures/printables/bad/printables_fixture/aids.yaml"
    assert shown == [
        f"{boards}:2: board 'plateau' (#1): zone 'hors-grille': its cell spans columns 2–3 and row 1, "
        "outside the 2×2 grid",
        f"{boards}:15: board 'plateau-2' (#2): zones[0]: table row 2 has 1 cells, must match the 2 columns",
        f"{boards}:22: board 'plateau-2' (#2): zones[1].colour: unknown field (allowed: kind, text, level, "
        "items, start, columns, rows, widths, header_column, icons, end, spaces, notes, shape, per_row, "
        "count, label, labels, slot, source, size, align, id, title, cell, at, height, frame, fill, blocks); "
        "did you mean 'columns'?",
        f"{boards}:23: board 'plateau-2' (#2): zones[2]: end (1) must not be below start (5)",
        f"{boards}:33: board 'plateau-3' (#3): zones[0].text: unknown icon ':coni:' (built in: coin, vp, "
        "card, die, hand; a game adds its own as icons/NAME.svg or .png); did you mean ':coin:'?",
        f"{aids}:4: aid 'aide' (#1): size: unknown size 'a9' (allowed: page, half-page, card, a3, a4, a5, a6, "
        "letter, poker, bridge, tarot, mini, square; or {width: …mm, height: …mm})",
        f"{aids}:5: aid 'aide' (#1): copies: must be ≥ 0 or 'per-player', got -1",
        f"{aids}:8: aid 'aide' (#1): front[0]: a steps block needs 'items'",
        f"{aids}:9: aid 'aide' (#1): front[1]: kind: must be one of heading, text, steps, bullets, table, "
        "legend, track, slots, generated, got 'schema'",
        f"{aids}:10: aid 'aide' (#1): front[2].text: bad card-text markup: unclosed '**' (bold) opened at "
        "character 0 (write \\* for a literal asterisk)",
    ]


def test_cardforge_check_reports_them_and_exits_1(cli, tmp_path):
    """Any game's check validates its aids.yaml: a copy of TunHell's data with a bad one."""
    import shutil

    from cardforge.resources import shipped_data_root

    shutil.copytree(shipped_data_root() / "tunhell", tmp_path / "tunhell")
    shutil.copy(FIXTURES / "bad" / GAME.id / "aids.yaml", tmp_path / "tunhell" / "aids.yaml")
    r = cli("--data", str(tmp_path), "check", "tunhell")
    assert r.code == 1
    assert "aids.yaml:5: aid 'aide' (#1): copies: must be ≥ 0 or 'per-player', got -1" in r.err
    assert "aids.yaml:8: aid 'aide' (#1): front[0]: a steps block needs 'items'" in r.err
    assert "Traceback" not in r.err


def test_a_game_section_of_the_same_name_or_file_wins():
    class Own(Entry):
        pass

    def with_sections(*sections):
        return Game(GAME.spec, GAME.folder, SimpleNamespace(sections=sections), game_id=GAME.id)

    with_boards = with_sections(Section("boards", "my_boards.yaml", Own, key="boards", required=False))
    with_file = with_sections(Section("board_rules", "boards.yaml", Own, key="boards", required=False))
    assert [s.name for s in common_sections(GAME)] == ["boards", "aids"]
    assert [s.name for s in common_sections(with_boards)] == ["aids"]
    assert [s.name for s in common_sections(with_file)] == ["aids"]


def test_missing_files_are_no_problem(tmp_path):
    folder = tmp_path / GAME.id
    folder.mkdir()
    for name in ("deck.yaml", "cards.yaml"):
        (folder / name).write_text((FIXTURES / "good" / GAME.id / name).read_text(encoding="utf-8"),
                                   encoding="utf-8")
    data, problems = check_game_data(GAME, tmp_path)
    assert problems == [] and "boards" not in data.sections and "aids" not in data.sections


@pytest.mark.parametrize("raw, expected", [
    ("a4", (210.0, 297.0)),
    ("page", (215.9, 279.4)),  # follows the build's paper (letter here)
    ("half-page", (139.7, 215.9)),
    ("card", (56.0, 88.0)),
    ("poker", (63.0, 88.0)),
    ({"width": "19cm", "height": 130}, (190.0, 130.0)),
])
def test_sizes_resolve_for_the_build(raw, expected):
    size = SheetSize.model_validate({"preset": raw} if isinstance(raw, str) else raw)
    assert size.resolve((215.9, 279.4), (56.0, 88.0)) == pytest.approx(expected)


def test_landscape_turns_presets():
    size = SheetSize(preset="a5")
    assert size.resolve((210, 297), (63, 88), landscape=True) == (210.0, 148.0)


def test_boards_built_in_code_are_validated_like_data():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="a table zone needs 'rows'"):
        build_board({"id": "b", "title": "B", "provenance": "rulebook", "zones": [{"id": "z", "kind": "table"}]})


def test_aid_and_board_defaults():
    aid = Aid.model_validate({"id": "a", "title": "A", "provenance": "rulebook",
                              "front": [{"kind": "text", "text": "x"}]})
    assert aid.size.preset == "half-page" and aid.copies == "per-player" and aid.back is None
    board = Board.model_validate({"id": "b", "title": "B", "provenance": "rulebook",
                                  "zones": [{"id": "z", "kind": "text", "text": "x"}]})
    assert board.size.preset == "page" and board.copies == 1 and board.margin == 10.0
