"""Score files that break the rules: exit 1, every problem listed, each located. The rejections
are vectors of scoring_vectors.yaml (run by tests/test_scoring_vectors.py, every problem line
exact); here, what they do not say."""

from __future__ import annotations

from vectors_support import vector


def test_the_draw_case_scores_with_the_hand_it_allows(cli, write_yaml):
    # the vector a-draw-for-the-extra-card-still-bounds-both-hands: Ana holds 3 or 4 in round 2,
    # so a fleet of 4 cards is scored
    text = vector("mine_all_mine", "a-draw-for-the-extra-card-still-bounds-both-hands")["file"]
    path = write_yaml("ok.yaml", text.replace("cards: 5", "cards: 4"))
    assert cli("score", "mine_all_mine", path).code == 0
