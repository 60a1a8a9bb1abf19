"""Issue 42: fonts by family. A layout's `family: "Source Sans 3"` is found in the game's
fonts/ by the family name inside the file (whatever the file is called), then on the system
through fontconfig's fc-match; otherwise a clear error lists what was found."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2
import pytest
from fontTools.ttLib import TTFont

from cardforge.assets import system_font
from cardforge.resources import FONTS_DIR


def _game(cli, tmp_path: Path, family: str) -> Path:
    folder = tmp_path / "fonted"
    r = cli("new", str(folder))
    assert r.code == 0, r.err
    layout = folder / "templates" / "layout.yaml"
    text = layout.read_text(encoding="utf-8")
    old = "style: {size: 11, min_size: 6, leading: 1.25, align: center, valign: middle}"
    assert old in text
    layout.write_text(text.replace(old, old[:-1] + f', family: "{family}"}}'), encoding="utf-8")
    return folder


def _renamed_font(target: Path, family: str) -> None:
    """DejaVu Sans Condensed saved as ``target`` whose name table says ``family``."""
    font = TTFont(FONTS_DIR / "DejaVuSansCondensed.ttf")
    for record in font["name"].names:
        if record.nameID in (1, 16):
            record.string = family
        elif record.nameID in (4, 6):
            record.string = family.replace(" ", "") + "-Regular"
    target.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(target))


def _pdf_fonts(pdf_path: Path) -> set[str]:
    import re

    return set(re.findall(rb"/BaseFont\s*/([A-Za-z0-9+\-_]+)", pdf_path.read_bytes()))


def test_a_family_found_in_the_games_fonts_by_the_name_inside_the_file(cli, tmp_path):
    folder = _game(cli, tmp_path, "Source Sans 3")
    _renamed_font(folder / "fonts" / "ss3.ttf", "Source Sans 3")  # the file's name says nothing
    r = cli("build", str(folder), "-o", tmp_path / "out", "--only", "decks", "-q")
    assert r.code == 0, r.err
    names = {n.decode().split("+", 1)[-1] for n in _pdf_fonts(tmp_path / "out" / "fonted" / "deck.pdf")}
    assert "SourceSans3-Regular" in names, names  # embedded from fonts/ss3.ttf (its PostScript name)


@pytest.mark.skipif(shutil.which("fc-match") is None, reason="no fontconfig on this machine")
def test_a_family_found_on_the_system_through_fc_match(cli, tmp_path):
    found = system_font("DejaVu Serif")
    if found.file is None:
        pytest.skip(f"DejaVu Serif is not installed here ({found.found})")
    assert found.file.suffix == ".ttf" and "DejaVu Serif" in found.found
    folder = _game(cli, tmp_path, "dejavu serif")  # case folded, as for the game's fonts
    r = cli("build", str(folder), "-o", tmp_path / "out", "--only", "decks", "-q")
    assert r.code == 0, r.err
    names = {n.decode().split("+", 1)[-1] for n in _pdf_fonts(tmp_path / "out" / "fonted" / "deck.pdf")}
    assert "DejaVuSerif" in names, names  # the system's file, embedded (cardforge bundles no serif)
    pdf = pypdfium2.PdfDocument(str(tmp_path / "out" / "fonted" / "deck.pdf"))
    assert "Gain 2" in pdf[0].get_textpage().get_text_range()
    pdf.close()


def test_an_unknown_family_says_what_was_found(cli, tmp_path):
    folder = _game(cli, tmp_path, "No Such Family 42")
    _renamed_font(folder / "fonts" / "other.ttf", "Other Face")
    r = cli("check", str(folder))
    assert r.code == 1
    assert "unknown font family 'No Such Family 42' (bundled: sans, condensed; the game's fonts/: " in r.err
    assert "Other Face" in r.err
    if shutil.which("fc-match") is None:
        assert "on this system: no fc-match on this system (fontconfig), so no system font" in r.err
    else:  # fc-match always answers with its nearest font: named, and not taken
        assert "on this system: fc-match's nearest is " in r.err and ", another family" in r.err
    assert "put the family's .ttf or .otf files in the game folder's fonts/" in r.err
