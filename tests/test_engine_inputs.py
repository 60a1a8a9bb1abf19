"""The engine scores a text or a mapping (issue 27): stdin (`score -`, `setup --check -`) is read
as text by the hardened reader — no temporary file — with the same results and located problems
as a file."""

from __future__ import annotations

import io
import json
import tempfile

import pytest
import yaml

from conftest import ROOT, run_cli

FINAL = ROOT / "card_data" / "maphr" / "examples" / "final.yaml"


@pytest.fixture
def no_temporary_files(monkeypatch):
    """Any temporary file or folder made during the test fails it (the data cache is off: its
    entries are written atomically through a temporary file)."""
    monkeypatch.setenv("CARDFORGE_NO_CACHE", "1")

    def refuse(*args, **kwargs):
        raise AssertionError("a temporary file was made")

    for name in ("mkstemp", "mkdtemp", "TemporaryDirectory", "NamedTemporaryFile", "TemporaryFile"):
        monkeypatch.setattr(tempfile, name, refuse)


def _stdin(monkeypatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


def test_score_from_stdin_is_the_files_score(monkeypatch, no_temporary_files):
    from_file = run_cli("score", "maphr", FINAL, "--json")
    assert from_file.code == 0, from_file.err
    _stdin(monkeypatch, FINAL.read_text(encoding="utf-8"))
    from_stdin = run_cli("score", "maphr", "-", "--json")
    assert from_stdin.code == 0, from_stdin.err
    assert json.loads(from_stdin.out) == json.loads(from_file.out)


def test_a_problem_in_stdin_is_located_in_stdin(monkeypatch, no_temporary_files):
    data = yaml.safe_load(FINAL.read_text(encoding="utf-8"))
    data["players"][1]["name"] = data["players"][0]["name"]  # two players of one name
    _stdin(monkeypatch, yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    r = run_cli("score", "maphr", "-")
    assert r.code == 1
    assert "<stdin>:" in r.err and "duplicate name (also player #1)" in r.err


def test_setup_check_reads_a_deal_from_stdin(monkeypatch, no_temporary_files):
    made = run_cli("setup", "tunhell", "--players", "3", "--seed", "7", "--json")
    assert made.code == 0, made.err
    _stdin(monkeypatch, made.out)
    r = run_cli("setup", "tunhell", "--check", "-")
    assert r.code == 0, r.err
    assert "<stdin>: the deal follows the rules of tunhell" in r.out
    deal = json.loads(made.out)
    deal["player_count"] = 4
    _stdin(monkeypatch, json.dumps(deal))
    r = run_cli("setup", "tunhell", "--check", "-")
    assert r.code == 1 and "<stdin>" in r.err and "player_count" in r.err


def test_the_engine_scores_a_text_and_a_mapping_as_a_file():
    from cardforge.data.loading import load_game_data
    from cardforge.engine.scoring import score_file, score_mapping, score_text
    from cardforge.games import find_game

    game = find_game("maphr")
    data = load_game_data(game)
    text = FINAL.read_text(encoding="utf-8")
    expected = score_file(game, data, FINAL).to_json()
    assert score_text(game, data, text, "final.yaml").to_json() == expected
    assert score_mapping(game, data, yaml.safe_load(text)).to_json() == expected


def test_a_mapping_with_a_bad_field_names_the_player():
    from cardforge.data.loading import load_game_data
    from cardforge.engine.scoring import score_mapping
    from cardforge.errors import ScoreInputError
    from cardforge.games import find_game

    game = find_game("maphr")
    state = yaml.safe_load(FINAL.read_text(encoding="utf-8"))
    name = state["players"][1]["name"]
    state["players"][1]["surprise"] = 1
    with pytest.raises(ScoreInputError) as info:
        score_mapping(game, load_game_data(game), state, "partie")
    assert any(p.item == f"player '{name}' (#2)" and p.field == "surprise" and p.file == "partie"
               for p in info.value.problems)
