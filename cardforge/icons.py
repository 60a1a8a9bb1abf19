"""The inline icon vocabulary: tokens written ``:name:`` in card data and templates.

This module is pure data (no ReportLab): the data layer checks tokens against it, the
renderer (``cardforge.render.icons``) draws each as a vector icon at text size, and player
aids print legends from the labels. cardforge has a few generic icons; a game brings its
own as files in its folder's ``icons/`` (``cardforge/assets.py``), as the shipped games do.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

#: the built-in icons, shared by every game: name → (French legend label, English
#: description). A game's own icons are files in its folder's ``icons/`` (``cardforge/assets.py``):
#: an SVG's ``<title>`` is its legend label.
ICONS: dict[str, tuple[str, str]] = {
    "coin": ("pièce", "a coin"),
    "vp": ("point de victoire", "a victory point"),
    "card": ("carte", "a card"),
    "die": ("dé", "the die"),
    "hand": ("main", "the hand"),
}

#: ``:name:`` — lowercase letters, digits and hyphens between colons, no spaces.
ICON_TOKEN = re.compile(r"(?<![\\\w]):([a-z][a-z0-9-]*):")


#: the icons a game brings in its own ``icons/`` folder (``cardforge/assets.py``), name → file;
#: set by :func:`use_game_icons` for the game being checked or drawn
_GAME_ICONS: dict[str, Path] = {}


def use_game_icons(icons: Mapping[str, Path] | Iterable[str]) -> None:
    """Make a game's own icons known (replacing the previous game's): name → file (a bare
    list of names: icons without a file to read a label from)."""
    global _GAME_ICONS
    _GAME_ICONS = dict(icons) if isinstance(icons, Mapping) else {name: Path() for name in icons}


def game_icons() -> frozenset[str]:
    return frozenset(_GAME_ICONS)


def is_icon(name: str, extra: Collection[str] | None = None) -> bool:
    """A built-in icon, or one of the game's own (``extra``, else the game in use)."""
    return name in ICONS or name in (_GAME_ICONS if extra is None else extra)


def unknown_icons(text: str, extra: Iterable[str] | None = None) -> list[str]:
    """Icon tokens in ``text`` that are neither built in nor in ``extra`` (default: the icons
    of the game in use, see :func:`use_game_icons`)."""
    known = frozenset(_GAME_ICONS) if extra is None else frozenset(extra)
    return [m.group(1) for m in ICON_TOKEN.finditer(text)
            if m.group(1) not in ICONS and m.group(1) not in known]


def closest_icon(name: str, extra: Iterable[str] | None = None) -> str | None:
    """The known icon (built in, or the game's own: ``extra``, else the game in use) closest
    to a misspelt ``name``, if any is close."""
    import difflib

    own = sorted(_GAME_ICONS if extra is None else extra)
    close = difflib.get_close_matches(name, [*ICONS, *own], n=1)
    return close[0] if close else None


def unknown_icon_note(name: str, extra: Iterable[str] | None = None, token: bool = True) -> str:
    """What follows "unknown icon 'x'" in a message: where icons come from, and the closest
    known name."""
    own = _GAME_ICONS if extra is None else frozenset(extra)
    where = f"the game's icons/ folder has {len(own)}" if own else "a game adds its own as icons/NAME.svg or .png"
    close = closest_icon(name, extra)
    hint = (f"; did you mean ':{close}:'?" if token else f"; did you mean '{close}'?") if close else ""
    return f" (built in: {', '.join(ICONS)}; {where}){hint}"


def icon_label(name: str) -> str:
    """The legend label of an icon: a built-in icon's French name, a game's SVG icon's
    ``<title>``, else the icon's name."""
    if name in ICONS:
        return ICONS[name][0]
    path = _GAME_ICONS.get(name)
    if path is not None and path.suffix.lower() == ".svg":
        from cardforge.assets import svg_title

        title = svg_title(path)
        if title:
            return title
    return name.replace("-", " ")
