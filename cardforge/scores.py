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
    row: str = ""  # French score-table row for its values ("Pièces"); default: from label_en
    row_en: str = ""  # English row ("Coins"); default: label_en without "more "

    def row_label(self, lang: str = "fr") -> str:
        if lang == "fr" and self.row:
            return self.row
        en = self.row_en or self.label_en.removeprefix("more ").capitalize()
        return en if lang == "en" else (self.row or en)


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
    mode: str | None = None  # the rule set scored (printed in the header), None: the game has one
    partial: bool = False  # a game scored before its end (e.g. after some of its rounds)


@dataclass
class PlayerScore:
    name: str
    total: Number
    rank: int
    breakdown: dict[str, Number]
    extra: dict[str, Any] = field(default_factory=dict)
    tiebreak: tuple[Number, ...] = ()


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
    tie_breakers: list[TieBreaker] = field(default_factory=list)
    mode: str | None = None
    partial: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": True,  # as every command's --json: a failure prints {"ok": false, "error", "problems"}
            "game": self.game,
            **({"mode": self.mode} if self.mode else {}),
            **({"partial": True} if self.partial else {}),
            "categories": [c.id for c in self.categories],
            "players": [
                {
                    "name": p.name,
                    "total": as_number(p.total),
                    "rank": p.rank,
                    "breakdown": {c.id: as_number(p.breakdown.get(c.id, 0)) for c in self.categories},
                    **({"tiebreak": {t.id: as_number(v) for t, v in zip(self.tie_breakers, p.tiebreak)}}
                       if self.tie_breakers else {}),
                    **p.extra,
                }
                for p in self.players
            ],
            "winners": list(self.winners),
            **({"tie_break": self.tie_break} if self.tie_break else {}),
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


def annotate_sheet(sheet: ScoreSheet, game: Any, result: ScoreResult) -> ScoreSheet:
    """What the shared sheet builder leaves out and players want to see: the mode scored, a
    partial game, and each player's tie-break values (shown in the table, not only in a footer)."""
    sheet.mode = result.mode
    sheet.partial = result.partial
    sheet.tie_breakers = list(game.tie_breakers)
    by_name = {r.name: r for r in result.players}
    for p in sheet.players:
        if p.name in by_name:
            p.tiebreak = tuple(by_name[p.name].tiebreak)
    return sheet
