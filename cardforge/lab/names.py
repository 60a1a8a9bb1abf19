"""Small helpers the lab's modules share: how a name is alphabetised, a choice's value as a
key, ordinals."""

from __future__ import annotations

from typing import Any


def sort_name(name: str) -> str:
    """A name as it is alphabetised: accents and case aside (Émeraude between Dragon and Perle)."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


def key_of(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th") if n % 100 not in (11, 12, 13) else "th"
    return f"{n}{suffix}"
