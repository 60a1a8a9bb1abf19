"""The inline icon vocabulary: tokens written ``:name:`` in card data and templates.

This module is pure data (no ReportLab): the data layer checks tokens against it, the
renderer (``cardforge.render.drawing.icons``) draws each as a vector icon at text size, and player
aids print legends from the labels. cardforge has a few generic icons; a game brings its own
as files in its folder's ``icons/`` (``cardforge/assets.py``), as the shipped games do. A game's
icons are passed wherever they count (``extra``: their names; ``files``: name → file, for an
SVG's ``<title>`` label): no module holds a "current game".
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path

from cardforge.i18n import N_, messages

#: the built-in icons, shared by every game: name → (legend label, English description); the
#: label is a message id, printed in the game's language (``cardforge/i18n.py``). A game's own
#: icons are files in its folder's ``icons/`` (``cardforge/assets.py``): an SVG's ``<title>`` is
#: its legend label.
ICONS: dict[str, tuple[str, str]] = {
    "coin": (N_("coin"), "a coin"),
    "vp": (N_("victory point"), "a victory point"),
    "card": (N_("card"), "a card"),
    "die": (N_("die"), "the die"),
    "hand": (N_("hand"), "the hand"),
}

#: ``:name:`` — lowercase letters, digits and hyphens between colons, no spaces.
ICON_TOKEN = re.compile(r"(?<![\\\w]):([a-z][a-z0-9-]*):")


def is_icon(name: str, extra: Collection[str] = ()) -> bool:
    """A built-in icon, or one of ``extra`` (the game's own icon names)."""
    return name in ICONS or name in extra


def unknown_icons(text: str, extra: Collection[str] = ()) -> list[str]:
    """Icon tokens in ``text`` that are neither built in nor in ``extra`` (the game's own)."""
    return [m.group(1) for m in ICON_TOKEN.finditer(text)
            if m.group(1) not in ICONS and m.group(1) not in extra]


def closest_icon(name: str, extra: Iterable[str] = ()) -> str | None:
    """The known icon name nearest to ``name`` (for "did you mean"), or None."""
    import difflib

    close = difflib.get_close_matches(name, [*ICONS, *sorted(extra)], n=1)
    return close[0] if close else None


def unknown_icon_note(name: str, extra: Collection[str], token: bool = True) -> str:
    """What follows "unknown icon 'x'" in a message: where icons come from (``extra``: the
    game's own icon names), and the closest known name."""
    where = f"the game's icons/ folder has {len(extra)}" if extra else "a game adds its own as icons/NAME.svg or .png"
    close = closest_icon(name, extra)
    hint = (f"; did you mean ':{close}:'?" if token else f"; did you mean '{close}'?") if close else ""
    return f" (built in: {', '.join(ICONS)}; {where}){hint}"


def icon_label(name: str, files: Mapping[str, Path] | None = None, lang: str = "fr") -> str:
    """The legend label of an icon: a game's SVG icon's ``<title>`` (``files``: the game's
    icons, name → file), else a built-in icon's name in ``lang``, else the icon's name."""
    path = (files or {}).get(name)
    if path is not None and path.suffix.lower() == ".svg":
        from cardforge.assets import svg_title

        title = svg_title(path)
        if title:
            return title
    if name in ICONS:
        return messages(lang).gettext(ICONS[name][0])
    return name.replace("-", " ")
