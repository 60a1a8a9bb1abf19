"""The inline icon vocabulary: tokens written ``:name:`` in card data and templates.

This module is pure data (no ReportLab): the data layer checks tokens against it, the
renderer (``cardforge.render.icons``) draws each as a vector icon at text size, and player
aids print legends from the French labels. A game's own icons (``icons/`` in its folder,
``cardforge/assets.py``) are passed as ``extra`` names wherever they count: no module holds
a "current game".
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

#: name → (French legend label, English description)
ICONS: dict[str, tuple[str, str]] = {
    # economy and points
    "coin": ("pièce", "a coin"),
    "vp": ("point de victoire", "a victory point"),
    "card": ("carte", "a card"),
    "die": ("dé", "the die"),
    "hand": ("main", "the hand"),
    # Maphr ores, colours and card logos
    "coal": ("charbon", "coal"),
    "gold": ("or", "gold"),
    "mithril": ("mithril", "mithril"),
    "blue": ("bleu", "blue improvement colour"),
    "green": ("vert", "green improvement colour"),
    "yellow": ("jaune", "yellow improvement colour"),
    "red": ("rouge", "red improvement colour"),
    "grey": ("gris", "grey improvement colour"),
    "miner": ("mineur", "a miner meeple"),
    "gallery": ("galerie", "a gallery card"),
    "contract": ("contrat", "contract logo"),
    "catastrophe": ("catastrophe", "catastrophe logo (explosion)"),
    "impediment": ("empêchement", "impediment logo (cross)"),
    "prospect": ("prospecter", "the prospect action"),
    "exploit": ("exploiter", "the exploit action"),
    "build": ("aménager", "the build action"),
    "level": ("niveau de mine", "mine level"),
    # TunHell
    "combat": ("combat", "combat strength"),
    "dig": ("creusage", "digging strength"),
    "dwarf": ("nain", "a dwarf"),
    "plus": ("partie complète", "full-game-only mark (+)"),
    "proud": ("fier", "proud warrior mark"),
    "recruit": ("joué au recrutement", "played when recruited"),
    "encounter": ("rencontre", "encounter symbol (mine cards to fight)"),
    "warrior": ("guerrier", "Guerrier symbol (dwarf type)"),
    "digger": ("piocheur", "Piocheur symbol (dwarf type)"),
    "scout": ("éclaireur", "Éclaireur symbol (dwarf type)"),
    "blaster": ("dynamiteur", "Dynamiteur symbol (dwarf type)"),
    "earth": ("terre", "a clod of earth (the Terre mine card)"),
    "ghost": ("fantôme", "a ghost (the Fantôme de Grödur)"),
    "door": ("porte", "a door (la Porte de derrière)"),
    # Mine, All Mine!
    "speed": ("vitesse", "speed"),
    "attack": ("attaque", "attack"),
    "cargo": ("soute", "cargo"),
    "resource": ("ressource", "a resource"),
    "ship": ("vaisseau", "a ship"),
    # Cristaux
    "crystal-red": ("cristal rouge", "red crystal (a triangle)"),
    "crystal-green": ("cristal vert", "green crystal (a square)"),
    "crystal-blue": ("cristal bleu", "blue crystal (a drop)"),
    "nugget": ("pépite d'or", "gold nugget"),
    "crystal-any": ("cristal au choix", "a crystal of any colour"),
    "promise": ("pierre de promesse", "grey promise stone"),
    "logo-red": ("logo rouge", "red royal-fidelity logo"),
    "logo-green": ("logo vert", "green royal-fidelity logo"),
    "logo-blue": ("logo bleu", "blue royal-fidelity logo"),
    "logo-multi": ("logo multicolore", "multicolour royal-fidelity logo"),
    "rune-red": ("rune rouge", "red rune"),
    "rune-green": ("rune verte", "green rune"),
    "rune-blue": ("rune bleue", "blue rune"),
    "king": ("couronne ♚", "the king's crown"),
    "double-note": ("double croche ♬", "music symbol ♬"),
    "sharp": ("dièse ♯", "music symbol ♯"),
    "note": ("croche ♪", "music symbol ♪"),
    "eclat": ("éclat", "an éclat"),
    "forge": ("case de forge", "a forge square"),
    "slot-red": ("case de forge rouge", "an empty forge square for a red crystal (hollow triangle)"),
    "slot-green": ("case de forge verte", "an empty forge square for a green crystal (hollow square)"),
    "slot-blue": ("case de forge bleue", "an empty forge square for a blue crystal (hollow drop)"),
    "slot-gold": ("case de forge or", "an empty forge square for a gold nugget (hollow nugget)"),
    "slot-any": ("case de forge au choix", "an empty forge square for a crystal of any colour"),
    "topaze": ("topaze", "a topaz"),
    "opale": ("opale", "an opal"),
    "cursed": ("cristal maudit", "a cursed crystal"),
    "nature-red": ("nature feu", "red (fire) card nature"),
    "nature-green": ("nature terre", "green (earth) card nature"),
    "nature-blue": ("nature eau", "blue (water) card nature"),
    "nature-multi": ("multiélément", "multi-nature card (nature chosen at the end)"),
    "manoeuvre": ("manœuvre", "an effect that takes a maneuver"),
    "free-action": ("action libre", "a free effect, no action needed"),
    # Imperial Miners
    "cart": ("chariot", "a complete cart"),
    "half-cart": ("demi-chariot", "half a cart"),
    "machine": ("machine", "a machine token"),
    "cave-in": ("éboulement", "a cave-in token"),
    "event": ("événement", "an event card"),
    "worker": ("ouvrier", "a worker"),
    "arrow": ("→", "then / gives"),
    "faction-scottish": ("Écossais", "Scottish faction"),
    "faction-egyptian": ("Égyptiens", "Egyptian faction"),
    "faction-atlantean": ("Atlantes", "Atlantean faction"),
    "faction-barbarian": ("Barbares", "Barbarian faction"),
    "faction-japanese": ("Japonais", "Japanese faction"),
    "faction-roman": ("Romains", "Roman faction"),
    "faction-any": ("faction au choix", "any faction of your choice"),
    "event-immediate": ("événement immédiat", "immediate event"),
    "event-special": ("événement spécial", "special event (changes the mine phase)"),
    "event-end-round": ("événement de fin de manche", "end-of-round event"),
    "advance": ("avancer", "advance on a progress board"),
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

    close = difflib.get_close_matches(name, [*ICONS, *extra], n=1)
    return close[0] if close else None


def icon_label(name: str) -> str:
    """The French legend label of an icon (a game's own icon: its name)."""
    return ICONS[name][0] if name in ICONS else name.replace("-", " ")
