"""A deck file's cards: one size, printed into one file (plus its backs file). Its own module so
that the reprint record (``reprint.py``) names it without importing ``decks.py``, which calls it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.data.models import CardBase


@dataclass
class DeckGroup:
    """Cards of one size, printed into one file (plus its backs file)."""

    name: str  # "deck" or "deck-<kind>"
    size: tuple[float, float]
    cards: list[CardBase] = field(default_factory=list)  # definitions, in data order
    kinds: list[str] = field(default_factory=list)
    preface: Callable[[Canvas, tuple[float, float], bool], int] | None = None  # preface(canvas, page size in
    # pt, duplex) → pages drawn first

    @property
    def count(self) -> int:
        return sum(c.copies for c in self.cards)

    def printed(self) -> Iterator[CardBase]:
        """Every card once per copy, in data order (lazily: nothing grows with the deck)."""
        for c in self.cards:
            for _ in range(c.copies):
                yield c
