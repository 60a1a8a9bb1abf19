"""Score sheets: what the scoring engine emits and the score pad prints.

Each game declares its categories once (:class:`Category`); the engine emits exactly those
rows and the printed pad shows exactly those rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

Number = int | Fraction


@dataclass(frozen=True)
class Category:
    """A score-pad row. ``label`` is in the game's language (French), ``label_en`` for the CLI."""

    id: str
    label: str
    label_en: str
    icon: str | None = None  # an icon token name drawn beside the label on the pad


@dataclass(frozen=True)
class TieBreaker:
    """A tie-breaker: players tied on total compare these values, higher first."""

    id: str
    label: str  # French, as printed under the pad's total: "Égalité : le plus riche l'emporte"
    label_en: str  # "more coins"


@dataclass
class PlayerResult:
    """What a game's ``score`` hook returns for one player."""

    name: str
    breakdown: dict[str, Number]
    tiebreak: tuple[Number, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. {"grade": "Pro des tunnels"}

    @property
    def total(self) -> Number:
        return sum(self.breakdown.values(), 0)


@dataclass
class ScoreResult:
    players: list[PlayerResult]
    details: Any = None  # JSON-able explanation (issue-specific), added as "details" to --json
    report: list[str] = field(default_factory=list)  # human lines printed after the table


@dataclass
class PlayerScore:
    name: str
    total: Number
    rank: int
    breakdown: dict[str, Number]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class ScoreSheet:
    game: str
    title: str
    categories: list[Category]
    players: list[PlayerScore]
    winners: list[str]
    tie_break: str | None  # how the winner was decided when totals tied (English)
    details: Any = None
    report: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        out: dict[str, Any] = {
            "game": self.game,
            "categories": [c.id for c in self.categories],
            "players": [
                {
                    "name": p.name,
                    "total": as_number(p.total),
                    "rank": p.rank,
                    "breakdown": {c.id: as_number(p.breakdown.get(c.id, 0)) for c in self.categories},
                    **p.extra,
                }
                for p in self.players
            ],
            "winners": list(self.winners),
        }
        if self.details is not None:
            out["details"] = self.details
        return out


def as_number(value: Number | float) -> int | float:
    """Integers where whole, else a number with at most 2 decimals (1.5, 2.4)."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return int(value)
        return round(float(value), 2)
    if isinstance(value, float):
        return int(value) if value.is_integer() else round(value, 2)
    return int(value)


def format_number(value: Number | float) -> str:
    n = as_number(value)
    return str(n) if isinstance(n, int) else f"{n:g}"
