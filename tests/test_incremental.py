"""Incremental loading (data/incremental.py): what a long-lived process reuses after an edit is
exactly what a fresh load gives.

Each test compares the memo's answer with a fresh parse or load of the same text: the values,
the problems (their words and lines) and the line of every value the file holds. The edits are
those a designer makes (a word changed, a field added, a card copied, deleted or moved) and
those that must not be spliced (anchors, a document marker, an indentation changed, an edit
across two cards, a quote left open); the counts of spliced files and reused cards show the
memo did its work where it may (a memo that always parsed everything would pass the equality
alone)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardforge.data.incremental import Memo
from cardforge.data.loading import check_game_data
from cardforge.data.yamlio import _line_index, parse_text
from cardforge.games import find_game

from conftest import ROOT

CARD_FILES = [ROOT / "card_data" / "maphr" / "improvements.yaml",  # defaults: and cards:
              ROOT / "card_data" / "tunhell" / "nains.yaml",
              ROOT / "card_data" / "cristaux" / "trouvailles.yaml"]


def same_as_fresh(memo: Memo, path: Path, text: str) -> None:
    got = memo.parse(text, "f.yaml", path)
    fresh = parse_text(text, "f.yaml", path)
    assert got.data == fresh.data
    assert [str(p) for p in got.problems] == [str(p) for p in fresh.problems]
    lines, _ = _line_index(text)
    for loc in lines:
        for asked in (loc, loc + ("absent",), loc + (10_000,), loc + (0, "x")):
            assert got.line_of(asked) == fresh.line_of(asked), (asked, got.line_of(asked), fresh.line_of(asked))


def card_starts(text: str) -> list[int]:
    """Line numbers (0-based) of each card's dash (the files above indent theirs by 0 or 2)."""
    lines = text.split("\n")
    return [i for i, line in enumerate(lines) if line.startswith(("- ", "  - ")) and "id:" in line]


def next_card(lines: list[str], i: int) -> int:
    return next((j for j in range(i + 1, len(lines)) if lines[j].lstrip().startswith("- ")), len(lines))


EDITS = {
    "word": lambda lines, i: lines.__setitem__(i + 1, lines[i + 1] + " x"),
    "field added": lambda lines, i: lines.insert(i + 1, lines[i + 1][:len(lines[i + 1]) - len(lines[i + 1].lstrip())]
                                                 + "note: ajoutée"),
    "field removed": lambda lines, i: lines.pop(i + 1),
    "card copied": lambda lines, i: lines.insert(i, lines[i].replace("id: ", "id: copie-")),
    "blank line": lambda lines, i: lines.insert(i + 1, ""),
    "comment": lambda lines, i: lines.insert(i + 1, "# à revoir"),
    # not to be spliced: each must give what a full parse gives (often a problem)
    "anchor": lambda lines, i: lines.__setitem__(i, lines[i] + " &ancre"),
    "alias": lambda lines, i: lines.insert(i + 1, lines[i + 1][:2 + lines[i].index("-")] + "autre: *ancre"),
    "document marker": lambda lines, i: lines.insert(i + 1, "---"),
    "directive": lambda lines, i: lines.insert(i + 1, "%YAML 1.1"),
    "indented": lambda lines, i: lines.__setitem__(i, " " + lines[i]),
    "dedented": lambda lines, i: lines.__setitem__(i + 1, lines[i + 1].lstrip()),
    "quote open": lambda lines, i: lines.__setitem__(i + 1, lines[i + 1] + ' "'),
    "duplicate key": lambda lines, i: lines.insert(i + 1, lines[i + 1]),
    "two cards": lambda lines, i: (lines.__setitem__(i + 1, lines[i + 1] + " x"),
                                   lines.__setitem__(len(lines) - 2, lines[len(lines) - 2] + " y")),
    "dash commented out": lambda lines, i: lines.__setitem__(i, "# " + lines[i]),
    "card deleted": lambda lines, i: lines.__delitem__(slice(i, next_card(lines, i))),
    "flow list": lambda lines, i: lines.insert(i, lines[i][:lines[i].index("-")] + "- [a, b]"),
}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(file=st.sampled_from(CARD_FILES), edit=st.sampled_from(sorted(EDITS)), which=st.integers(0, 10_000),
       second=st.sampled_from(sorted(EDITS)), other=st.integers(0, 10_000))
def test_an_edit_reads_as_a_fresh_parse(file, edit, which, second, other):
    """Two edits in a row (the second on the first's result), each compared with a fresh parse."""
    memo = Memo()
    text = file.read_text(encoding="utf-8")
    same_as_fresh(memo, file, text)
    for name, at in ((edit, which), (second, other)):
        lines = text.split("\n")
        starts = card_starts(text) or [0]
        try:
            EDITS[name](lines, starts[at % len(starts)])
        except (IndexError, ValueError):  # an edit that needs lines the file no longer has
            continue
        text = "\n".join(lines)
        same_as_fresh(memo, file, text)


def test_a_designers_edits_are_spliced_and_the_others_parsed_whole():
    file = CARD_FILES[0]
    original = file.read_text(encoding="utf-8")
    spliced = {}
    for name, edit in EDITS.items():
        memo = Memo()
        same_as_fresh(memo, file, original)
        lines = original.split("\n")
        edit(lines, card_starts(original)[7])
        same_as_fresh(memo, file, "\n".join(lines))
        spliced[name] = memo.spliced
    designers = {"word", "field added", "field removed", "card copied", "blank line", "comment", "card deleted"}
    refused = {"alias", "document marker", "directive", "indented", "dedented", "duplicate key", "two cards",
               "dash commented out"}
    assert {n for n in designers if spliced[n]} == designers
    assert {n for n in refused if spliced[n]} == set()


def test_the_same_text_is_the_same_document_and_each_caller_has_its_own_problems():
    memo = Memo()
    path = Path("f.yaml")
    first = memo.parse("- a: 1\n- a: 1\n  a: 2\n", "f.yaml", path)
    again = memo.parse("- a: 1\n- a: 1\n  a: 2\n", "f.yaml", path)
    assert again.data is first.data and memo.parsed == 1
    assert [str(p) for p in again.problems] == ["f.yaml:3: duplicate key 'a' (YAML keeps only the last one)"]
    again.problems.append("mine")
    assert len(memo.parse("- a: 1\n- a: 1\n  a: 2\n", "f.yaml", path).problems) == 1


@pytest.fixture
def maphr(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "card_data" / "maphr", tmp_path / "maphr")
    monkeypatch.setenv("CARDFORGE_CACHE", str(tmp_path / "cache"))
    return find_game("maphr", tmp_path), tmp_path


def load_both(memo: Memo, game, root):
    with memo.active():
        got, got_problems = check_game_data(game, root)
    fresh, fresh_problems = check_game_data(game, root)
    assert [str(p) for p in got_problems] == [str(p) for p in fresh_problems]
    if fresh is None:
        assert got is None
        return got
    assert [c.model_dump() for c in got.cards] == [c.model_dump() for c in fresh.cards]
    assert got.sources == fresh.sources
    assert got.translations == fresh.translations
    return got


def test_a_load_after_an_edit_is_a_fresh_load_and_revalidates_one_card(maphr):
    game, root = maphr
    path = root / "maphr" / "improvements.yaml"
    memo = Memo()
    first = load_both(memo, game, root)
    cards = len(first.cards)
    text = path.read_text(encoding="utf-8")
    effect = "Votre mine passe au niveau III pour 10 :coin: au lieu de 30."
    one = text.replace(effect, "Désormais, " + effect, 1)
    # a line more in one card (an unknown field: a problem): every later card's lines move
    two = one.replace(effect, effect + '"\n    note: "deux lignes', 1)
    assert "level: 3" in two.split("note:")[1]
    three = "note:".join([two.split("note:")[0], two.split("note:")[1].replace("level: 3", "level: trois", 1)])
    steps = [
        # (the file's new text, cards taken from the last load): each step edits one card; a card
        # with a problem is validated each time
        (one, cards - 1),
        (two, cards - 1),
        (three, cards - 2),  # another card's error: that card and the one with the unknown field
        (two, cards - 2),  # fixed: that card validated again (and the one still wrong)
    ]
    for new, reused in steps:
        path.write_text(new, encoding="utf-8")
        memo.reused = 0
        load_both(memo, game, root)
        assert memo.reused == reused, (steps.index((new, reused)), memo.spliced, memo.parsed)


def test_what_a_card_depends_on_outside_its_entry_revalidates_it(maphr):
    game, root = maphr
    memo = Memo()
    load_both(memo, game, root)
    deck = root / "maphr" / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    assert "version:" in text
    deck.write_text(text.replace("version:", "version: '9.9'\nold_version:", 1), encoding="utf-8")
    memo.reused = 0
    load_both(memo, game, root)  # deck.yaml's settings changed: every card validated again
    assert memo.reused == 0
    deck.write_text(text, encoding="utf-8")
    imp = root / "maphr" / "improvements.yaml"
    body = imp.read_text(encoding="utf-8")
    assert "defaults: {kind: improvement, provenance: provisional}" in body
    memo.reused = 0
    load_both(memo, game, root)
    cards_in_improvements = body.count("\n  - id:")
    imp.write_text(body.replace("provenance: provisional}", "provenance: provisional, copies: 2}", 1),
                   encoding="utf-8")
    before = memo.reused = 0
    got = load_both(memo, game, root)  # the file's defaults changed: its cards validated again
    assert memo.reused == len(got.cards) - cards_in_improvements > before


def test_a_copied_id_is_reported_as_a_fresh_load_reports_it(maphr):
    game, root = maphr
    path = root / "maphr" / "improvements.yaml"
    memo = Memo()
    load_both(memo, game, root)
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    start = card_starts(text)[3]
    end = card_starts(text)[4]
    path.write_text("\n".join(lines[:end] + lines[start:end] + lines[end:]), encoding="utf-8")
    with memo.active():
        data, problems = check_game_data(game, root)
    assert any("duplicate id" in str(p) for p in problems)
    load_both(memo, game, root)


def test_a_file_emptied_or_broken_in_between_finds_its_cards_again(maphr):
    """Editors empty a file before writing it (the watcher may load the empty file), and a
    designer breaks a file's syntax while typing: the next good text is spliced against the
    last good one, its cards taken from the load before."""
    game, root = maphr
    path = root / "maphr" / "improvements.yaml"
    memo = Memo()
    first = load_both(memo, game, root)
    text = path.read_text(encoding="utf-8")
    effect = "Votre mine passe au niveau III pour 10 :coin: au lieu de 30."
    for between in ("", text.replace(effect, effect + ' "', 1)):  # emptied; a quote left open
        path.write_text(between, encoding="utf-8")
        load_both(memo, game, root)
        path.write_text(text.replace(effect, "Ainsi, " + effect, 1), encoding="utf-8")
        memo.reused = memo.spliced = memo.parsed = 0
        load_both(memo, game, root)
        assert memo.spliced == 1 and memo.parsed == 0
        assert memo.reused == len(first.cards) - 1
        path.write_text(text, encoding="utf-8")
        load_both(memo, game, root)
