"""Issue 38: sheets a home printer prints whole, on either paper.

- the default paper ``a4-letter`` (210 × 279.4 mm, what A4 and Letter share) with Letter's
  6.35 mm printer margin: a default deck's pages fit inside both papers whatever the print
  dialog does with them, and the build says which paper it laid its files out for;
- which paper this computer's settings name (libpaper's ``PAPERSIZE``, the locale's territory,
  ``/etc/papersize``), and the warning when the build's paper will not print whole on it;
- a card that cannot keep 2 mm of its bleed printable still builds, with a warning saying so."""

from __future__ import annotations

import os

import pypdf
import pytest

from cardforge.settings import (
    DEFAULT_PAPER,
    PAPERS_MM,
    BuildSettings,
    default_printer_margin,
    locale_paper,
    paper_mismatch,
    paper_words,
)

from conftest import run_cli
from render_helpers import FIXTURE_DATA, FIXTURE_TEMPLATES, register_fixture_game, text_in

MM = 72 / 25.4
A4, LETTER = PAPERS_MM["a4"], PAPERS_MM["letter"]


def test_the_default_paper_is_what_a4_and_letter_share():
    assert DEFAULT_PAPER == "a4-letter" == BuildSettings().paper
    assert PAPERS_MM["a4-letter"] == (min(A4[0], LETTER[0]), min(A4[1], LETTER[1])) == (210.0, 279.4)
    # its top and bottom edges are a Letter sheet's: Letter's printer margin
    assert default_printer_margin("a4-letter") == default_printer_margin("letter") == 6.35
    assert paper_words("a4-letter") == "A4/Letter paper (210 × 279.4 mm: prints whole on A4 and on Letter)"
    assert (paper_words("a4"), paper_words("letter"), paper_words("320x450")) == (
        "A4 paper", "Letter paper", "320 × 450 mm paper")


@pytest.mark.parametrize("environ, expected", [
    ({"LANG": "en_US.UTF-8"}, "letter"),
    ({"LANG": "fr_CA.UTF-8"}, "letter"),
    ({"LANG": "es_MX"}, "letter"),
    ({"LANG": "fr_FR.UTF-8"}, "a4"),
    ({"LANG": "en_GB.UTF-8"}, "a4"),
    ({"LANG": "de_DE@euro"}, "a4"),
    # glibc's order: LC_ALL over LC_PAPER over LANG
    ({"LANG": "fr_FR.UTF-8", "LC_PAPER": "en_US.UTF-8"}, "letter"),
    ({"LC_ALL": "de_DE.UTF-8", "LC_PAPER": "en_US.UTF-8"}, "a4"),
    # libpaper's variable decides, whatever the locale: another paper is neither
    ({"PAPERSIZE": "Letter", "LANG": "fr_FR.UTF-8"}, "letter"),
    ({"PAPERSIZE": "a4", "LANG": "en_US.UTF-8"}, "a4"),
    ({"PAPERSIZE": "a3", "LANG": "en_US.UTF-8"}, None),
])
def test_the_paper_this_computer_names(tmp_path, environ, expected):
    assert locale_paper(environ, tmp_path / "missing") == expected


def test_without_a_territory_the_papersize_file_decides(tmp_path):
    papersize = tmp_path / "papersize"
    papersize.write_text("# written by the installer\n\nletter\n", encoding="utf-8")
    assert locale_paper({"LANG": "C.UTF-8"}, papersize) == "letter"
    assert locale_paper({}, papersize) == "letter"
    papersize.write_text("a4\n", encoding="utf-8")
    assert locale_paper({"LANG": "POSIX"}, papersize) == "a4"
    papersize.write_text("a5\n", encoding="utf-8")
    assert locale_paper({}, papersize) is None
    assert locale_paper({}, tmp_path / "missing") is None and locale_paper({}, None) is None
    # a folder, a FIFO: never read (a FIFO would block)
    assert locale_paper({}, tmp_path) is None
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert locale_paper({}, fifo) is None
    # a territory comes first
    assert locale_paper({"LANG": "en_US.UTF-8"}, tmp_path / "missing") == "letter"


def test_what_a_paper_loses_on_another():
    # A4 on Letter: 297 - 279.4 = 17.6 mm of its height; Letter on A4: 215.9 - 210 = 5.9 of its width
    assert paper_mismatch("a4", "letter") == (
        "--paper a4: this computer's settings print on Letter paper, which leaves out 17.6 mm of its height "
        "at 100 % (cards cut); use --paper letter, or --paper a4-letter (the default), which prints whole on both")
    assert "leaves out 5.9 mm of its width" in paper_mismatch("letter", "a4")
    # fits, or not a paper this check is about (the user chose a printer for A3, a press sheet)
    for paper, local in (("a4", "a4"), ("letter", "letter"), ("a4-letter", "a4"), ("a4-letter", "letter"),
                         ("a3", "letter"), ("320x450", "a4"), ("a4", None)):
        assert paper_mismatch(paper, local) is None


@pytest.fixture
def fixture_build(monkeypatch):
    register_fixture_game(monkeypatch)

    def run(*args):
        return run_cli("--data", FIXTURE_DATA, "build", "fixture_deck", "--templates", FIXTURE_TEMPLATES, *args)

    return run


def test_a_default_deck_prints_whole_on_a4_and_on_letter(fixture_build, tmp_path):
    r = fixture_build("-o", tmp_path, "--only", "decks")
    assert r.code == 0 and "warning" not in r.err, r.err
    assert r.out.startswith("paper: A4/Letter paper (210 × 279.4 mm: prints whole on A4 and on Letter), "
                            "printer margin 6.35 mm\n")
    for name in ("deck.pdf", "deck-board.pdf"):
        for page in pypdf.PdfReader(tmp_path / "fixture_deck" / name).pages:
            w, h = sorted((float(page.mediabox.width) / MM, float(page.mediabox.height) / MM))
            assert (w, h) == pytest.approx((210, 279.4), abs=0.01)
            for paper in (A4, LETTER):  # inside the paper, however the print dialog places it
                assert w <= paper[0] + 0.01 and h <= paper[1] + 0.01
            # and every card's trim 6.35 + 2 mm from the page's edges at least
            art = [float(v) / MM for v in page["/ArtBox"]]
            pw, ph = float(page.mediabox.width) / MM, float(page.mediabox.height) / MM
            assert min(art[0], art[1], pw - art[2], ph - art[3]) + 3 >= 6.35 + 2 - 0.01
    text = " ".join(text_in(tmp_path / "fixture_deck" / "instructions.pdf", 0, (0, 0, 210, 279.4)).split())
    assert "Built by cardforge" in text and "for A4/Letter paper (210 × 279.4 mm: prints whole on A4 and on Letter)" in text
    assert "Paper: A4/LETTER landscape" in text or "Paper: A4/LETTER portrait" in text


def test_a_paper_that_will_not_print_whole_here_is_warned_about(fixture_build, tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERSIZE", "letter")
    r = fixture_build("-o", tmp_path / "a4", "--only", "decks", "--paper", "a4")
    assert r.code == 0
    assert r.err.count("warning: --paper a4: this computer's settings print on Letter paper, which leaves out "
                       "17.6 mm of its height at 100 % (cards cut)") == 1
    for paper in ("letter", "a4-letter"):
        r = fixture_build("-o", tmp_path / paper, "--only", "decks", "--paper", paper)
        assert r.code == 0 and "warning" not in r.err, r.err
    monkeypatch.setenv("PAPERSIZE", "a4")
    r = fixture_build("-o", tmp_path / "letter-on-a4", "--only", "decks", "--paper", "letter", "-q")
    assert r.code == 0 and "leaves out 5.9 mm of its width" not in r.err  # -q: no warnings
    r = fixture_build("-o", tmp_path / "letter-on-a4", "--only", "decks", "--paper", "letter")
    assert "leaves out 5.9 mm of its width" in r.err and "paper: Letter paper, printer margin 6.35 mm" in r.out


def test_a_card_without_room_for_printable_bleed_builds_and_says_so(fixture_build, tmp_path):
    # the fixture's tarot-size board card (70 × 120) on an 80 × 130 mm sheet: 2 mm of printable
    # bleed asks for its trim 5 + 2 mm from every edge (70 + 14 = 84 > 80): no layout; laid out
    # at the printer margin instead (trims 5 mm from the edges, (80 - 70) / 2): none of its bleed
    # prints, said with what would give it more
    r = fixture_build("-o", tmp_path, "--only", "decks", "--paper", "80x130")
    assert r.code == 0, r.err
    assert ("warning: fixture_deck/deck-board.pdf: every sheet: a 70×120 mm card fits on 80 × 130 mm paper only "
            "with 0.00 mm of its 3 mm bleed inside the printable area (5 mm printer margin), not 2: a cut more "
            "than 0.00 mm off the line shows white; a larger --paper or a smaller --printer-margin gives it "
            "more") in r.err
    # the poker cards (63 × 88: 21 mm above and below, 8.5 beside) keep theirs: no such warning
    assert "deck.pdf: every sheet" not in r.err
