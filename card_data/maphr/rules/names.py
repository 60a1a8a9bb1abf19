"""Comparing printed names as a player would: «Étayage», «etayage» and «ÉTAYAGE» are one name."""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=4096)  # the deck's names are folded again for every improvement looked up
def fold_name(name: str) -> str:
    """Lowercase, accents dropped, ligatures expanded («œ» → «oe»), spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", name.casefold().replace("œ", "oe").replace("æ", "ae"))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(bare.replace("’", "'").split())


def same_name(a: str, b: str) -> bool:
    return fold_name(a) == fold_name(b)
