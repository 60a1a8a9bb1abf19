"""Card-text markup: styles, icons, breaks, errors."""

from __future__ import annotations

import pytest

from cardforge.markup import Break, Icon, MarkupError, Text, parse, plain_text


def test_bold_italic_icons_and_colour():
    (para,) = parse("Gagnez **2** :coin: et *une* <color=red>carte</color>.")
    kinds = [type(p).__name__ for p in para]
    assert kinds == ["Text", "Text", "Text", "Icon", "Text", "Text", "Text", "Text", "Text"]
    assert para[1] == Text("2", para[1].style) and para[1].style.bold
    assert isinstance(para[3], Icon) and para[3].name == "coin"
    assert para[5].style.italic and para[5].text == "une"
    assert para[7].style.color == "#b3261e" and para[7].text == "carte"


def test_newline_breaks_and_blank_line_starts_a_paragraph():
    paras = parse("un\ndeux\n\n  trois   quatre ")
    assert len(paras) == 2
    assert isinstance(paras[0][1], Break)
    assert paras[1] == (Text("trois quatre", paras[1][0].style),)


def test_escapes():
    assert plain_text(r"5 \* 3 \:coin: \<b>") == "5 * 3 :coin: <b>"


def test_plain_text_names_icons_in_french():
    assert plain_text("2 :coin: et :vp:") == "2 [pièce] et [point de victoire]"


@pytest.mark.parametrize("markup, message", [
    ("**gras", "unclosed '**' (bold) opened at character 0"),
    ("un *italique", "unclosed '*' (italic) opened at character 3"),
    ("3 :coinn:", "unknown icon ':coinn:' at character 2; did you mean ':coin:'?"),
    ("<color=fuchsia>x</color>", "unknown colour 'fuchsia'"),
    ("x</color>", "'</color>' without '<color=…>'"),
])
def test_errors_say_what_and_where(markup, message):
    with pytest.raises(MarkupError, match=message.replace("*", r"\*").replace("(", r"\(").replace(")", r"\)")):
        parse(markup)
