"""Problems found in user input: where, what is wrong, what was allowed.

Every ``check_*`` function returns a list of :class:`Problem`; nothing raises on bad
user input until a caller decides to abort (see :mod:`cardforge.errors`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One problem, located as precisely as the input allows.

    ``str(problem)`` reads ``file:line: item: field: message`` with the empty parts left out,
    e.g. ``my-game/cards.yaml:34: card 'marchand' (#12): cost: must be ≥ 0, got -3``.
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

    def add(self, message: str, **where: Any) -> None:
        self.items.append(Problem(message, **where))

    def warn(self, message: str, **where: Any) -> None:
        self.items.append(Problem(message, severity="warning", **where))

    def extend(self, problems: Iterable[Problem]) -> None:
        self.items.extend(problems)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if not p.is_warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.is_warning]

    def __bool__(self) -> bool:
        return bool(self.items)

    def __iter__(self) -> Iterator[Problem]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def plural(n: int, word: str, plural_form: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural_form or word + 's')}"


#: characters of a value quoted in a message at most (see :func:`short_repr`)
SHORT_REPR_CHARS = 80


def short_repr(value: object, limit: int = SHORT_REPR_CHARS) -> str:
    """``repr(value)`` cut to about ``limit`` characters (``'abc…' (5000 chars)``).

    Messages quote what the user wrote, but never a whole 5 MB string or an alias bomb: lists
    and mappings are walked only as far as the prefix needs, never formatted in full."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return repr(value[:limit]) [:-1] + "…" + repr(value)[-1] + f" ({len(value):,} characters)"
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() > 14_000:  # ~4,200 digits: past what str() may convert
            return f"a whole number of about {int(value.bit_length() * 0.30103):,} digits"
        try:
            text = str(value)
        except ValueError:  # past Python's int→str digit limit
            return "a whole number with more than 4,300 digits"
        return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} digits)"
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return _short_container(value, limit)
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real problem
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "…"


def _short_container(value: list[Any] | tuple[Any, ...] | dict[Any, Any] | set[Any] | frozenset[Any],
                     limit: int) -> str:
    if isinstance(value, dict):
        open_, close = "{", "}"
        items = iter(value.items())
    else:
        open_, close = ("[", "]") if isinstance(value, list) else (("(", ")") if isinstance(value, tuple)
                                                                  else ("{", "}"))
        items = iter(value)
    out = open_
    count = len(value)
    shown = 0
    for item in items:
        room = limit - len(out)
        if room <= 4:
            break
        if isinstance(value, dict):
            k, v = item
            part = short_repr(k, max(room // 2, 4)) + ": " + short_repr(v, max(room // 2, 4))
        else:
            part = short_repr(item, room)
        out += (", " if shown else "") + part
        shown += 1
        if len(out) > limit:
            break
    if shown < count:
        return out + ", …" + close + f" ({count:,} items)"
    return out + close


def short_name(text: object, limit: int = 40) -> str:
    """A name or id from the user's file as quoted in an item label ("player 'Ana' (#1)"): at
    most ``limit`` characters (a 19,000-character name must not fill every message)."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text):,} characters)"
