"""Card data is text unless a field is declared as markup (issue 28): a literal ``*`` in card
data prints as ``*``; declared markup fields, and templates, keep their markup."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardforge.data.loading import check_game_data
from cardforge.games import load_game_folder
from cardforge.markup import Text, parse
from cardforge.render.builds.build import build_game
from cardforge.settings import BuildSettings
from cardforge.text.templating import Templates, render

from render_helpers import plain

GAME = "title: Literal\nlanguage: en\nplayers: 1-4\ncategories:\n  - {id: points, label: Points}\n"
TEXT = "TopLeft · *BottomLeft* <b>x</b> \\o/ :coin:"


def _game(tmp_path: Path, markup: str = "") -> Path:
    folder = tmp_path / "literal"
    folder.mkdir()
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "deck.yaml").write_text(
        "title: Literal\nversion: '1'\ncard_size: poker\ncard_files: [cards.yaml]\n" + markup
        + "kinds:\n  note:\n    label: Note\n    fields: {text: {type: text}, flavour: {type: text}}\n",
        encoding="utf-8")
    (folder / "cards.yaml").write_text(
        "- {id: a, kind: note, name: '*Star*', text: " + repr(TEXT).replace("\\\\", "\\") + ", flavour: '**x**'}\n",
        encoding="utf-8")
    return folder


def _card_and_meta(folder: Path):
    data, problems = check_game_data(load_game_folder(folder))
    assert [p for p in problems if not p.is_warning] == []
    return data.cards[0], data.meta


def _styled(markup: str) -> list[tuple[str, bool, bool]]:
    """(text, bold, italic) of each run of one style (neighbours of one style joined)."""
    out: list[tuple[str, bool, bool]] = []
    for para in parse(markup):
        for p in para:
            if not isinstance(p, Text):
                continue
            if out and out[-1][1:] == (p.style.bold, p.style.italic):
                out[-1] = (out[-1][0] + p.text, *out[-1][1:])
            else:
                out.append((p.text, p.style.bold, p.style.italic))
    return out


def test_card_data_prints_as_written_and_templates_keep_their_markup(tmp_path):
    card, meta = _card_and_meta(_game(tmp_path))
    assert card.text == TEXT
    templates = Templates([])
    ctx = {"card": card, "deck": meta}
    out = render(templates.inline("**{{ card.name }}** {{ card.text }}"), ctx)
    runs = _styled(out)
    # the template's ** make the name bold; the name's own * print as *
    assert runs[0] == ("*Star*", True, False)
    assert "".join(t for t, _, _ in runs[1:]) == " TopLeft · *BottomLeft* <b>x</b> \\o/ "  # then the :coin: icon
    assert not any(b or i for _, b, i in runs[1:])
    # a text a template makes from data (a filter's result) keeps markup: the template's choice
    assert _styled(render(templates.inline("{{ card.flavour | upper }}"), ctx)) == [("X", True, False)]


def test_a_field_declared_as_markup_keeps_it(tmp_path):
    card, meta = _card_and_meta(_game(tmp_path, "markup: [text]\n"))
    ctx = {"card": card, "deck": meta}
    runs = _styled(render(Templates([]).inline("{{ card.text }}|{{ card.flavour }}"), ctx))
    # text is declared: its markup applies; flavour is not: its ** print
    assert runs == [("TopLeft · ", False, False), ("BottomLeft", False, True), (" ", False, False),
                    ("x", True, False), (" \\o/ |**x**", False, False)]


def test_a_declared_field_may_say_markup_true(tmp_path):
    folder = _game(tmp_path)
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text().replace("flavour: {type: text}", "flavour: {type: text, markup: true}"))
    card, meta = _card_and_meta(folder)
    assert meta.markup_fields("note") == frozenset({"flavour"})
    runs = _styled(render(Templates([]).inline("{{ card.flavour }} {{ card.text }}"), {"card": card, "deck": meta}))
    assert runs[0] == ("x", True, False)
    assert any("*BottomLeft*" in t for t, _, _ in runs)


def test_markup_naming_no_field_is_an_error(tmp_path):
    folder = _game(tmp_path, "markup: [txt]\n")
    _, problems = check_game_data(load_game_folder(folder))
    [error] = [str(p) for p in problems if not p.is_warning]
    assert error.endswith("markup[0]: no card kind has the field 'txt' (fields: art, back, copies, flavour, id, "
                          "kind, name, provenance, text)")


@pytest.mark.parametrize("markup", ["", "markup: [text]\n"])
def test_the_pdf_shows_the_asterisks_unless_declared(tmp_path, markup):
    folder = _game(tmp_path, markup)
    out = tmp_path / "out"
    build_game(load_game_folder(folder), BuildSettings(out_dir=out, only=frozenset({"decks"}), duplex="none"))
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(out / "literal" / "deck.pdf"))
    text = plain(doc[0].get_textpage().get_text_range())
    doc.close()
    if markup:
        assert "BottomLeft" in text and "*BottomLeft*" not in text and "<b>" not in text
        assert "**x**" in text  # flavour is not declared
    else:
        assert "*BottomLeft*" in text and "<b>x</b> \\o/" in text and "**x**" in text
