"""Problems found in user input: where, what is wrong, what was allowed.

Every ``check_*`` function returns a list of :class:`Problem`; nothing raises on bad
user input until a caller decides to abort (see :mod:`cardforge.errors`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    """One problem, located as precisely as the input allows.

    ``str(problem)`` reads ``file:line: item: field: message`` with the empty parts left out,
    e.g. ``card_data/maphr/cards.yaml:34: card 'etayage' (#12): cost: must be ≥ 0, got -3``.
    """

    message: str
    file: str | None = None
    item: str | None = None  # "card 'etayage' (#12)", "player 'Ben' (#2)", "zone 'levels'"
    field: str | None = None  # dotted field path: "cost", "veins.coal"
    line: int | None = None
    severity: str = "error"  # "error" | "warning"

    def __str__(self) -> str:
        parts = []
        if self.file:
            parts.append(f"{self.file}:{self.line}" if self.line else self.file)
        if self.item:
            parts.append(self.item)
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return ": ".join(parts)

    @property
    def is_warning(self) -> bool:
        return self.severity == "warning"


@dataclass
class Problems:
    """An accumulator that stamps a common location on what it collects."""

    items: list[Problem] = field(default_factory=list)

    def add(self, message: str, **where) -> None:
        self.items.append(Problem(message, **where))

    def warn(self, message: str, **where) -> None:
        self.items.append(Problem(message, severity="warning", **where))

    def extend(self, problems) -> None:
        self.items.extend(problems)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if not p.is_warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.is_warning]

    def __bool__(self) -> bool:
        return bool(self.items)

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def plural(n: int, word: str, plural_form: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural_form or word + 's')}"
