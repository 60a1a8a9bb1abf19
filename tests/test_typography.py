"""French typography applied when laying out (cardforge/markup.py ``french``): curly
apostrophes, narrow no-break spaces (U+202F) inside « » and before ; : ! ? — so data authors need
not type them; idempotent; never inside icon tokens or markup."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from cardforge.markup import Icon, Text, french, parse, plain_text

from conftest import run_cli

N = "\u202f"


@pytest.mark.parametrize("typed, printed", [
    ("l'option", "l’option"),
    ("aujourd'hui l'a", "aujourd’hui l’a"),
    ("Action : x", f"Action{N}: x"),
    ("Action: x", f"Action{N}: x"),  # missing space added
    ("quoi ?", f"quoi{N}?"),
    ("quoi?", f"quoi{N}?"),
    ("Quoi ?!", f"Quoi{N}?!"),
    ("a ; b", f"a{N}; b"),
    ("mot\u00a0!", f"mot{N}!"),  # a no-break space typed there becomes the narrow one
    ("« mot »", f"«{N}mot{N}»"),
    ("«mot»", f"«{N}mot{N}»"),  # written without inner spaces: the same result
    ("→ 9 ?", f"→ 9{N}?"),
    # left alone: times, ratios, addresses, a colon that ends nothing
    ("10:30", "10:30"),
    ("2:1", "2:1"),
    ("http://x.fr", "http://x.fr"),
])
def test_french_exact_strings(typed, printed):
    assert french(typed) == printed
    assert french(printed) == printed  # idempotent: data that already has it is unchanged


def test_already_typeset_text_is_unchanged():
    done = f"Retournez l’Encrier{N}: remplacez 2 cartes de l’offre{N}; «{N}Terre{N}»{N}!"
    assert french(done) == done


def test_icon_tokens_and_markup_are_never_touched():
    # the icon stays an icon; the colon after it is punctuation of the text
    paras = parse("Gagnez 2 :coin: : puis **Action :** l'*offre*")
    pieces = paras[0]
    assert Icon("coin", pieces[1].style) == pieces[1]
    assert [p.text for p in pieces if isinstance(p, Text)] == ["Gagnez 2 ", f"{N}: puis ", f"Action{N}:", " l’", "offre"]
    # an escaped token is printed as written, colons included
    assert plain_text(r"5 \* 3 \:coin: \<b>") == "5 * 3 :coin: <b>"
    # colour tags keep their value
    assert plain_text("<color=#b22222>Attention !</color>") == f"Attention{N}!"


def test_dejavu_has_the_glyphs_in_every_face():
    from cardforge.render.fonts import font_name, unit_width

    for family in ("sans", "condensed"):
        for bold in (False, True):
            for italic in (False, True):
                font = font_name(family, bold, italic)
                assert unit_width("\u202f", font) == pytest.approx(unit_width(" ", font) * 0.63, abs=0.08)
                assert unit_width("’", font) > 0


@pytest.mark.slow
def test_the_built_deck_carries_the_typography(tmp_path):
    r = run_cli("build", "cristaux", "--only", "decks", "-o", tmp_path)
    assert r.code == 0, r.err
    doc = pdfium.PdfDocument(str(tmp_path / "cristaux" / "deck.pdf"))
    try:
        text = "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()
    assert "'" not in text  # the data's straight apostrophes are all printed curly
    assert text.count("’") > 100
    assert f"Défaussez cette carte{N}: votre action" in text
    assert " :" not in text and " ;" not in text and " ?" not in text  # every such space is narrow
