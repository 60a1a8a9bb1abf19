"""The shipped example (``examples/final.yaml``, the README's tour scores it) gives the totals
worked out by hand from the rules (the example's own comments; also a scoring vector of
``scoring_vectors.yaml``), checked with cardforge's test kit as any game author's tests would."""

from __future__ import annotations

from pathlib import Path

from cardforge.testing import assert_scores

GAME = Path(__file__).resolve().parents[1]
EXAMPLE = GAME / "examples" / "final.yaml"


def test_the_example_scores_the_hand_worked_totals(cardforge_game):
    game = cardforge_game(GAME)
    assert game.id == "cristaux"
    sheet = assert_scores(game, EXAMPLE, {"Ana": 93, "Bruno": 52, "Chloé": 62})
    assert sheet.winners == ["Ana"]


def test_the_shipped_game_by_its_id_scores_the_same(cardforge_cli):
    r = cardforge_cli("score", "cristaux", EXAMPLE, "--json")
    assert r.code == 0, r.err
    assert {p["name"]: p["total"] for p in r.json["players"]} == {"Ana": 93, "Bruno": 52, "Chloé": 62}
