"""Rich-text layout: breaking, French no-break rules, shrink-to-fit and overflow."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardforge.render.drawing.richtext import TextOverflow, TextStyle, break_lines, fit_text, measure
from cardforge.units import mm


def words_of(layout):
    out = []
    for line in layout.lines:
        if line is None:
            continue
        out.append(" ".join("".join(a[1] if a[0] == "t" else (" " if a[0] == "s" else ":" + a[1] + ":")
                                    for a in w.atoms) for w in line.words))
    return out


def test_text_that_fits_keeps_its_size():
    layout = fit_text("Court.", mm(50), mm(20), TextStyle(size=10, min_size=6))
    assert layout.size == 10 and layout.line_count == 1


def test_long_text_shrinks_in_quarter_points_down_to_the_floor():
    text = "Un texte assez long pour ne pas tenir dans la boîte à sa taille nominale. " * 4
    style = TextStyle(size=12, min_size=6)
    layout = fit_text(text, mm(40), mm(30), style)
    assert 6 <= layout.size < 12 and (layout.size * 4).is_integer()
    assert layout.height <= mm(30)
    # a quarter point larger would not fit
    bigger, _ = break_lines(measure(text), mm(40), layout.size + 0.25, style)
    assert bigger.height > mm(30)


def test_overflow_below_the_floor_reports_needed_and_available():
    with pytest.raises(TextOverflow) as info:
        fit_text("mot " * 200, mm(30), mm(10), TextStyle(size=10, min_size=7))
    exc = info.value
    assert exc.size == 7 and exc.available == pytest.approx(mm(10)) and exc.needed > mm(10)
    assert "at the 7 pt floor" in str(exc) and "has 10.0 mm" in str(exc)


def test_word_wider_than_the_box_is_named():
    with pytest.raises(TextOverflow, match="Anticonstitutionnellement"):
        fit_text("Anticonstitutionnellement", mm(10), mm(30), TextStyle(size=10, min_size=8))


def test_no_line_starts_with_french_high_punctuation():
    text = "Effet : gagnez deux pièces ; puis piochez ! Vraiment ? « Oui » dit-il : bien."
    for width in range(25, 60, 3):
        layout = fit_text(text, mm(width), mm(200), TextStyle(size=9))
        for line in words_of(layout):
            assert line[0] not in ":;!?»", (width, line)
            assert not line.endswith("«")


def test_number_and_its_icon_stay_together():
    text = "Gagnez 2 :coin: puis 3 :vp: et encore 10 :die: maintenant."
    for width in range(25, 60, 2):
        layout = fit_text(text, mm(width), mm(200), TextStyle(size=9))
        for line in words_of(layout):
            assert not line.startswith((":coin:", ":vp:", ":die:")), (width, line)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcdéèœ", min_size=1, max_size=9), min_size=1, max_size=40),
       st.integers(min_value=30, max_value=80))
def test_every_line_fits_the_box_width(words, width_mm):
    text = " ".join(words)
    layout, too_wide = break_lines(measure(text), mm(width_mm), 9.0, TextStyle(size=9))
    assert too_wide is None  # 9 letters at 9 pt are narrower than 30 mm
    for line in layout.lines:
        assert line is None or line.width <= mm(width_mm) + 1e-6
    # nothing lost, order kept
    assert " ".join(words_of(layout)) == text
