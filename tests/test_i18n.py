"""The words cardforge prints come from its message catalogs (cardforge/locale/): the catalogs
match the code, the shipped .mo files match their .po, French is complete and typeset the
French way, and only French."""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path

import pytest

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from cardforge.i18n import LOCALE_DIR, languages, messages  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PUNCT = re.compile(r"(.)([;:!?])")
FR_SPACES = {" ", "\u00a0", "\u202f"}


def catalog(lang: str):
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "cardforge.po").open("rb") as fh:
        return read_po(fh)


@cache
def source_ids() -> frozenset[str]:
    """The message ids in cardforge's code, as `pybabel extract -F babel.cfg` finds them."""
    method_map = [("cardforge/**.py", "python")]
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(str(ROOT), method_map):
        found.add(message[0] if isinstance(message, tuple) else message)
    return frozenset(found)


def ids(cat) -> set[str]:
    return {m.id[0] if isinstance(m.id, tuple) else m.id for m in cat if m.id}


def test_the_languages_are_english_and_french():
    assert set(languages()) >= {"en", "fr"}
    with pytest.raises(ValueError, match="prints no 'xx'.*en, fr"):
        messages("xx")


@pytest.mark.slow
def test_every_catalog_holds_exactly_the_code_s_messages():
    in_code = source_ids()
    assert len(in_code) > 40
    with (LOCALE_DIR / "cardforge.pot").open("rb") as fh:
        assert ids(read_po(fh)) == in_code, "run pybabel extract + update (DEVELOPING.md, Languages)"
    for lang in languages():
        if lang != "en":
            assert ids(catalog(lang)) == in_code, f"{lang}: run pybabel update (DEVELOPING.md, Languages)"


@pytest.mark.parametrize("lang", [lang for lang in languages() if lang != "en"])
def test_a_catalog_is_complete_and_its_mo_is_its_po_compiled(lang):
    cat = catalog(lang)
    for m in cat:
        if not m.id:
            continue
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings), f"{lang}: {m.id!r} is not translated"
        assert "fuzzy" not in m.flags, f"{lang}: {m.id!r} is fuzzy"
        # the same {fields} as the message id (str.format would fail at print time otherwise)
        want = set(re.findall(r"\{(\w+)\}", " ".join(m.id if isinstance(m.id, tuple) else (m.id,))))
        for s in strings:
            assert set(re.findall(r"\{(\w+)\}", s)) <= want | {"n"}, (lang, m.id, s)
    compiled = io.BytesIO()
    write_mo(compiled, cat)
    shipped = (LOCALE_DIR / lang / "LC_MESSAGES" / "cardforge.mo").read_bytes()
    assert shipped == compiled.getvalue(), f"{lang}: run pybabel compile (DEVELOPING.md, Languages)"


def test_french_spacing_in_french_only():
    """English messages put no space before ; : ! ?; French ones always one (a narrow no-break
    space where the text is not typeset again, as in the score table)."""
    for msgid in source_ids():
        for before, mark in PUNCT.findall(msgid):
            assert before not in FR_SPACES, f"English {msgid!r}: a space before {mark!r}"
    for m in catalog("fr"):
        for s in (m.string if isinstance(m.string, tuple) else (m.string,)):
            if s.strip() in (";",) or not m.id:
                continue
            for match in PUNCT.finditer(s):
                assert match.group(1) in FR_SPACES, f"French {s!r}: no space before {match.group(2)!r}"


def test_messages_fill_fields_and_plurals():
    fr, en = messages("fr"), messages("en")
    assert fr.ngettext("{n} player", "{n} players", 1) == "1 joueur"
    assert fr.ngettext("{n} player", "{n} players", 3) == "3 joueurs"
    assert en.ngettext("{n} player", "{n} players", 1) == "1 player"
    assert en.gettext("Player {number}", number=2) == "Player 2"
    assert fr.gettext("Player {number}", number=2) == "Joueur 2"
    assert fr.gettext("Date:") == "Date\u202f:" and en.gettext("Date:") == "Date:"
