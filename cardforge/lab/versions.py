"""Deck versions: their order and the selections a report or a page asks for.

Versions are ordered as people number them: ``0.2 < 0.3 < 0.10 < 1.0`` (each dot-separated
part compared as a number when it is one, else as text; a leading ``v`` ignored). A selection:

- ``0.3`` (or ``v0.3``): that version;
- ``0.2..0.4``: from 0.2 to 0.4, both included;
- ``0.3..`` or ``since 0.3``: 0.3 and every later one;
- ``..0.3``: up to 0.3;
- several, comma-separated: ``0.2, 0.4``.

Plays saved before cardforge recorded versions have none (``unrecorded``): a selection of
versions leaves them out; no selection keeps them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardforge.problems import Problem

UNRECORDED = "unrecorded"
_PART = re.compile(r"\d+|[^\d.]+")


def version_key(version: str | None) -> tuple[tuple[int, int | str], ...]:
    """A sort key: ``None`` (unrecorded) first, then as numbered (0.2 < 0.10)."""
    if version is None:
        return ((-1, -1),)
    text = version.strip()
    text = text[1:] if text[:1] in "vV" and text[1:2].isdigit() else text
    out: list[tuple[int, int | str]] = []
    for part in _PART.findall(text):
        out.append((0, int(part)) if part.isdigit() else (1, part.casefold()))
    return tuple(out)


def label(version: str | None) -> str:
    return UNRECORDED if version is None else f"v{normal(version)}"


def normal(version: str) -> str:
    """``v0.3`` → ``0.3``."""
    text = version.strip()
    return text[1:] if text[:1] in "vV" and text[1:2].isdigit() else text


@dataclass(frozen=True)
class Selection:
    """Which versions a report covers: ranges (low, high; None: open), ``None`` meaning all."""

    text: str
    ranges: tuple[tuple[str | None, str | None], ...] | None

    def __contains__(self, version: str | None) -> bool:
        if self.ranges is None:
            return True
        if version is None:
            return False
        key = version_key(version)
        for low, high in self.ranges:
            if (low is None or key >= version_key(low)) and (high is None or key <= version_key(high)):
                return True
        return False

    @property
    def describe(self) -> str:
        if self.ranges is None:
            return "every version"
        parts = []
        for low, high in self.ranges:
            if low == high:
                parts.append(f"v{low}")
            elif high is None:
                parts.append(f"v{low} and later")
            elif low is None:
                parts.append(f"up to v{high}")
            else:
                parts.append(f"v{low} to v{high}")
        return ", ".join(parts)


ALL = Selection("", None)


def parse_selection(text: str | None, option: str = "--version") -> tuple[Selection, Problem | None]:
    """A selection from its text (module docstring); the problem when it is not one."""
    if text is None or not text.strip():
        return ALL, None
    if len(text) > 200:
        return ALL, Problem(f"at most 200 characters, got {len(text):,}", field=option)
    ranges: list[tuple[str | None, str | None]] = []
    for raw in text.split(","):
        part = raw.strip()
        since = re.fullmatch(r"(?:since|from|>=)\s*(\S+)", part, re.IGNORECASE)
        if since:
            part = since.group(1) + ".."
        if ".." in part:
            low, _, high = part.partition("..")
            low, high = low.strip(), high.strip()
            if not low and not high:
                return ALL, _bad(text, option)
            if (low and not is_version(low)) or (high and not is_version(high)):
                return ALL, _bad(text, option)
            if low and high and version_key(low) > version_key(high):
                return ALL, Problem(f"{part!r}: the first version comes after the second", field=option)
            ranges.append((normal(low) if low else None, normal(high) if high else None))
        elif is_version(part):
            ranges.append((normal(part), normal(part)))
        else:
            return ALL, _bad(text, option)
    return Selection(text.strip(), tuple(ranges)), None


def is_version(version: str) -> bool:
    """A version as written on a stamp: ``0.3``, ``v1.2``, ``2026-a`` (no spaces, at most 40 characters)."""
    return bool(re.fullmatch(r"[vV]?[0-9A-Za-z][0-9A-Za-z._+-]{0,39}", version)) and ".." not in version


def _bad(text: str, option: str) -> Problem:
    return Problem(f"{text[:60]!r} is not a version selection (allowed: 0.3, 0.2..0.4, 0.3.. or since 0.3, ..0.3, "
                   "several separated by commas)", field=option)
