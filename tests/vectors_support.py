"""The scoring vectors of `card_data/<game_id>/tests/scoring_vectors.yaml` (format: DEVELOPING.md,
"Tests"): read by the one runner, `tests/test_scoring_vectors.py`, and by the focused tests of a
game that check more than the score sheet (report lines, details) on the same final states."""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import yaml

GAMES = Path(__file__).resolve().parent.parent / "card_data"


def load_vectors(game: str) -> list[dict[str, Any]]:
    """The vectors of a game, in file order (none when it has no file); a fresh copy each call
    (tests may change what they get), read once."""
    return copy.deepcopy(_read_vectors(game))


@functools.cache
def _read_vectors(game: str) -> list[dict[str, Any]]:
    path = GAMES / game / "tests" / "scoring_vectors.yaml"
    if not path.exists():
        return []
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: collection reads these files
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or []


def vector(game: str, vector_id: str) -> dict[str, Any]:
    """One vector of a game by its id."""
    found = [v for v in load_vectors(game) if v["id"] == vector_id]
    assert found, f"no scoring vector {vector_id!r} for {game}"
    return found[0]


def scored(game: str) -> list[dict[str, Any]]:
    """The vectors with an expected sheet (not the rejections)."""
    return [v for v in load_vectors(game) if "expect" in v]


def state_text(v: dict[str, Any]) -> str:
    """The final-state file of a vector, as the runner writes it."""
    if "file" in v:
        return str(v["file"])
    return yaml.safe_dump(v["state"], allow_unicode=True, sort_keys=False)
