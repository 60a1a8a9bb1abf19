"""The finished games in card_data/<game>/examples/ (the README's tour scores them) give the results worked out
by hand from the rules: each example is one of the hand-worked scoring vectors of its game, and
scoring it through the CLI gives that vector's totals, ranks and winners."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from vectors_support import vector

ROOT = Path(__file__).resolve().parent.parent

# game → the id of the scoring vector the example copies
EXAMPLES = {
    "maphr": "full-game-tie-broken-by-coins",
    "tunhell": "a-full-game-for-3-tie-on-rats-settled-by-ben",
    "mine_all_mine": "three-players-six-turns-ties-on-the-new-card-order-shared-second-place",
    "cristaux": "full-game-classique-3-players",
    "imperial_miners": "issue-example-mine-and-token",
}


def _case(game: str) -> dict:
    return vector(game, EXAMPLES[game])


def _expected(game: str, case: dict) -> tuple[dict[str, int], dict[str, int], list[str] | None]:
    """name → total, name → rank, winners (None when the vector does not list them)."""
    per_player = case["expect"]
    totals = {n: v["total"] for n, v in per_player.items()}
    ranks = {n: v["rank"] for n, v in per_player.items()}
    return totals, ranks, case.get("winners")


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_example_is_the_hand_worked_vector(game, cli):
    path = ROOT / "card_data" / game / "examples" / "final.yaml"
    case = _case(game)
    assert yaml.safe_load(path.read_text("utf-8")) == case["state"]
    r = cli("score", game, str(path), "--json")
    assert r.code == 0, r.err
    out = r.json
    totals, ranks, winners = _expected(game, case)
    assert {p["name"]: p["total"] for p in out["players"]} == totals
    assert {p["name"]: p["rank"] for p in out["players"]} == ranks
    if winners is None:
        winners = [n for n, rank in ranks.items() if rank == 1]
    assert out["winners"] == winners
