"""One rule for the names a designer writes (issue 42): a field or card kind named in a card
file, a spreadsheet's header or sheet, or a scoring, balance or score-sheet declaration matches
the declared one ignoring case, accents, surrounding spaces, and spaces or hyphens inside
(``Coût total``, ``cout-total`` and ``cout_total`` are one name). The name as declared is
always found first; a folded match is used only when exactly one declared name folds alike.
docs/data.md ("Names") says it for designers."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache


@lru_cache(maxsize=4096)
def fold(name: str) -> str:
    """A name as names are compared: no accents, case or surrounding spaces; inner runs of
    spaces and hyphens as ``_`` (``Coût total`` → ``cout_total``)."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch)).casefold().strip()
    return re.sub(r"[\s\-]+", "_", plain)


def resolve(name: str, known: Iterable[str]) -> str | None:
    """The declared name among ``known`` that ``name`` names: itself, else the only one that
    folds alike (None: none does, or several do)."""
    names = list(known)
    if name in names:
        return name
    if not isinstance(name, str):
        return None
    wanted = fold(name)
    found = [k for k in names if isinstance(k, str) and fold(k) == wanted]
    return found[0] if len(found) == 1 else None


def same(a: object, b: object) -> bool:
    """Whether two names are one name by :func:`fold` (anything else: equal)."""
    if isinstance(a, str) and isinstance(b, str):
        return a == b or fold(a) == fold(b)
    return a == b
