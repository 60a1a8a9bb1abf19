"""bench/run.py still works: its synthetic deck is data cardforge validates and builds, and a
one-run benchmark prints the table. Nothing is timed here (the numbers are the benchmark's)."""

from __future__ import annotations

import importlib.util
import re
import sys

import pytest

from cardforge.data.loading import check_game_data
from cardforge.games import find_game

from conftest import ROOT

pytestmark = pytest.mark.slow  # in `pytest`, left out of the quick lane (`pytest -m "not slow"`)


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "bench" / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_run"] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("bench_run", None)


def test_the_synthetic_deck_is_valid_data_of_the_size_asked(bench, tmp_path):
    root = bench.make_synthetic(tmp_path, 400)
    data, problems = check_game_data(find_game("maphr"), root)
    assert data is not None and not [p for p in problems if not p.is_warning]
    assert sum(c.copies for c in data.cards) == 400
    generated = [c for c in data.cards if c.id.startswith("synthetique-")]
    assert len(generated) == 150 and all(c.copies == 1 for c in generated)  # 250 shipped + 150
    texts = [getattr(c, "effect", None) or c.text for c in generated]
    assert len(set(texts)) == len(texts)  # no two generated cards print the same text


def test_a_quick_run_prints_the_table(bench, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(bench.tempfile, "tempdir", str(tmp_path))
    assert bench.main(["--quick", "--games", "--sizes", "260"]) == 0
    out = capsys.readouterr().out
    header, rule, cf, ce = out.splitlines()[:4]
    assert header.split() == ["deck", "cards", "seconds", "cards/s", "ratio", "cpu", "ratio", "peak", "MiB",
                              "bytes/card", "fonts", "KiB"]
    assert cf.startswith("synthetic 260 (cardforge)") and ce.startswith("synthetic 260 (ceiling)")
    for row in (cf, ce):
        cards, seconds, per_s, ratio, cpu_ratio, peak, per_card, fonts = row.split(")")[1].split()
        assert cards == "260" and float(seconds) > 0 and float(peak) > 10 and int(per_card) > 0
        assert float(fonts) > 10  # the embedded DejaVu subsets, counted apart
    assert ce.split(")")[1].split()[3] == "1.00"
    assert re.search(r"medians of 1 alternating run;", out)


def test_the_startup_bench_times_help_score_and_check_of_every_game(bench):
    """``bench/run.py --startup``'s commands (listed, not timed): --help, then score of each
    game's example and check of each game."""
    games = ["maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners"]
    cmds = dict(bench.startup_commands(games))
    assert list(cmds)[0] == "cardforge --help" and cmds["cardforge --help"][-1] == "--help"
    for game in games:
        score = cmds[f"score {game}"]
        assert score[-3:-1] == ["score", game] and score[-1].endswith(f"{game}/examples/final.yaml")
        assert cmds[f"check {game}"][-3:] == ["check", game, "-q"]
    rows = [{"command": "score x", "seconds": 0.2, "floor": 0.05, "ratio": 4.0, "cpu": 0.19, "peak MiB": 40.0}]
    assert "score x" in bench.format_startup(rows) and "4.00" in bench.format_startup(rows)
