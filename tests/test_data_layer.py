"""The data layer on a small fixture game: located problems, all at once; defaults; copies."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Literal

import pytest

from cardforge.data.loading import Section, check_game_data, load_game_data
from cardforge.data.models import CardBase, CardSize, Entry
from cardforge.data.yamlio import read_yaml
from cardforge.errors import DataError
from cardforge.games.base import Game


class Token(CardBase):
    kind: Literal["token"]
    value: int = 0
    text: str = ""


class Clan(Entry):
    name: str


GAME = Game.define("fixture", {
    "title": "Fixture", "players": "2-4",
    "categories": [{"id": "points", "label": "Points", "label_en": "Points"}],
}, rules=SimpleNamespace(card_models={"token": Token},
                         sections=(Section("clans", "clans.yaml", Clan, key="clans", item="clan"),)))



def make(tmp_path, cards: str, deck: str | None = None, clans: str | None = None):
    folder = tmp_path / "fixture"
    folder.mkdir()
    (folder / "deck.yaml").write_text(deck or (
        "title: Fixture\nversion: '1'\ncard_size: poker\ncard_files: [cards.yaml]\n"
        "kinds:\n  token: {label: Jeton}\n"), encoding="utf-8")
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    (folder / "clans.yaml").write_text(clans or "clans:\n  - {id: a, name: A, provenance: rulebook}\n",
                                       encoding="utf-8")
    return tmp_path


def messages(problems):
    return [str(p) for p in problems]


def test_defaults_copies_and_counts(tmp_path):
    root = make(tmp_path, """\
defaults: {kind: token, provenance: provisional}
cards:
  - {id: un, name: Un, copies: 3}
  - {id: deux, name: Deux, provenance: rulebook}
  - {id: zero, name: Zéro, copies: 0}
""")
    data = load_game_data(GAME, root)
    assert [c.id for c in data.printed] == ["un", "un", "un", "deux"]
    assert data.count_by_kind() == {"token": 4}
    assert data.provisional_count() == 2  # un, zero (deux and the clan are rulebook)
    assert data.card("deux").provenance == "rulebook"
    assert data.meta.card_size == CardSize(width=63, height=88, preset="poker")


def test_all_problems_of_a_file_at_once_with_lines(tmp_path):
    root = make(tmp_path, """\
- id: un
  kind: token
  name: Un
  value: beaucoup
  provenance: rulebook
- id: deux
  kind: jeton
  name: Deux
  provenance: rulebook
- id: trois
  kind: token
  name: "3 :coinn:"
  provenance: rulebook
  valeur: 2
""")
    data, problems = check_game_data(GAME, root)
    text = "\n".join(messages(problems))
    assert "cards.yaml:4: card 'un' (#1): value: must be a whole number, got 'beaucoup'" in text
    assert "cards.yaml:7: card 'deux' (#2): kind: unknown card kind 'jeton' (allowed: token)" in text
    assert "cards.yaml:14: card 'trois' (#3): valeur: unknown field (allowed:" in text
    assert "did you mean 'value'?" in text
    assert "cards.yaml:12: card 'trois' (#3): name: unknown icon ':coinn:'" in text
    assert len(problems) == 4
    with pytest.raises(DataError) as info:
        load_game_data(GAME, root)
    assert "card data for fixture is invalid (4 problems):" in str(info.value)


def test_yaml_duplicate_keys_and_syntax_errors_are_located(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("a: 1\nb: 2\na: 3\n", encoding="utf-8")
    doc = read_yaml(path, "x.yaml")
    assert messages(doc.problems) == ["x.yaml:3: duplicate key 'a' (YAML keeps only the last one)"]
    path.write_text("name: 2 :coin: par tour\n", encoding="utf-8")
    doc = read_yaml(path, "x.yaml")
    assert doc.data is None
    assert "x.yaml:1: invalid YAML: mapping values are not allowed" in str(doc.problems[0])
    assert "must be quoted" in str(doc.problems[0])


def test_section_problems_and_duplicate_ids(tmp_path):
    root = make(tmp_path, "- {id: un, kind: token, name: Un, provenance: rulebook}\n", clans="""\
clans:
  - {id: a, name: A, provenance: rulebook}
  - {id: a, name: B, provenance: rulebook}
  - {id: c, provenance: sure}
""")
    _, problems = check_game_data(GAME, root)
    text = messages(problems)
    assert any(t.endswith("fixture/clans.yaml:3: clan 'a' (#2): id: duplicate id 'a' (first at #1)")
               for t in text)
    assert any("clan 'c' (#3): name: required field is missing" in t for t in text)
    assert any("clan 'c' (#3): provenance: must be one of 'rulebook' or 'provisional', got 'sure'" in t
               for t in text)


def test_card_size_presets_and_lengths(tmp_path):
    assert CardSize.model_validate("square").width == 70
    size = CardSize.model_validate({"width": "2.5in", "height": "88mm"})
    assert size.width == pytest.approx(63.5) and size.height == 88
    with pytest.raises(ValueError, match="unknown card size 'huge'"):
        CardSize.model_validate("huge")
    with pytest.raises(ValueError, match="expected a length such as '63mm'"):
        CardSize.model_validate({"width": "63 furlongs", "height": 88})


def test_missing_data_folder_is_a_problem(tmp_path):
    data, problems = check_game_data(GAME, tmp_path)
    assert data is None and "no data folder for fixture" in str(problems[0])
