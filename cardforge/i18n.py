"""The words cardforge itself prints, in the game's language: gettext message catalogs.

Every word cardforge puts on paper (score pads, setup sheets, aids' furniture, icon legends,
deck sheet labels, the score table…) is an English message id looked up in the catalog of the
language asked for: ``cardforge/locale/<lang>/LC_MESSAGES/cardforge.mo``, compiled by Babel
from the ``.po`` beside it and shipped in the package (read here with the standard library's
``gettext``: nothing is compiled at run time). English is the source language.

The language travels as an argument: :func:`messages` gives a :class:`Messages` for one
language, which the caller passes on (a print context, a theme); nothing here holds a
"current language".

Typography is the catalog's: a French message carries French spacing (a narrow no-break space
before ``; : ! ?``), an English one none (``tests/test_i18n.py`` checks both).

A small shared module: no dependency on the rest of cardforge.
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path
from typing import Any

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "cardforge"
#: the source language of the message ids
SOURCE = "en"


def N_(msgid: str) -> str:
    """Marks ``msgid`` for the catalogs where it is defined (a table); translated where printed."""
    return msgid


@lru_cache(maxsize=1)
def languages() -> tuple[str, ...]:
    """The languages cardforge prints: one compiled catalog each, sorted."""
    found = {p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")}
    return tuple(sorted(found | {SOURCE}))


class Messages:
    """One language's catalog: ``gettext`` and ``ngettext`` with ``str.format`` values."""

    def __init__(self, lang: str, translations: gettext.NullTranslations):
        self.lang = lang
        self._t = translations

    def __repr__(self) -> str:
        return f"<Messages {self.lang}>"

    def gettext(self, msgid: str, /, **values: Any) -> str:
        """``msgid`` in this language, its ``{name}`` fields filled from ``values``."""
        text = self._t.gettext(msgid)
        return text.format(**values) if values else text

    def ngettext(self, singular: str, plural: str, n: int, /, **values: Any) -> str:
        """The form for ``n`` (``{n}`` and ``values`` filled in)."""
        return self._t.ngettext(singular, plural, n).format(n=n, **values)


@lru_cache(maxsize=None)
def messages(lang: str) -> Messages:
    """The catalog of ``lang`` (one of :func:`languages`; ValueError naming them otherwise)."""
    if lang not in languages():
        raise ValueError(f"cardforge prints no {lang!r} (it prints {', '.join(languages())}); "
                         "a language is added as a catalog: see DEVELOPING.md, 'Languages'")
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if not path.is_file():  # the source language needs no catalog
        return Messages(lang, gettext.NullTranslations())
    with path.open("rb") as fh:
        return Messages(lang, gettext.GNUTranslations(fh))


def language_problem(lang: str) -> str | None:
    """Why cardforge cannot print ``lang``, or None."""
    if lang in languages():
        return None
    return f"cardforge prints {', '.join(languages())} (not {lang!r})"
