"""Comparing printed names as a player would: «Étayage», «etayage» and «ÉTAYAGE» are one name."""

from __future__ import annotations

import unicodedata


def fold_name(name: str) -> str:
    """Lowercase, accents dropped, ligatures expanded («œ» → «oe»), spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", name.casefold().replace("œ", "oe").replace("æ", "ae"))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.replace("’", "'").split())


def same_name(a: str, b: str) -> bool:
    return fold_name(a) == fold_name(b)
