"""Accessibility contract over every shipped game, read from the PDFs a build writes.

- No text under 5 pt anywhere (cards, backs, boards, pads, aids, setup sheets, stamps, captions)
  and no text under 6 pt except *marks*: version stamps, footers, a deck's name and the captions
  naming a blank field on a blank card (``MARKS``). Rules text is never a mark.
- Every run of text has a contrast of at least 4.5:1 (WCAG 2) with the colour behind it.
- Cristaux: every crystal colour has its own shape (crystals, runes, royal logos, forge squares),
  so that the marks stay distinct in greyscale and under deuteranopia — compared as binarised
  masks, not as colours.
- Mine, All Mine!: the ship cards are square and their back looks the same turned any number of
  quarter turns.

How the text is read: ``tests/a11y_helpers.py`` (pypdfium2's text page for sizes and inks, the
rasterised page for the colour behind; no OCR).
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from a11y_helpers import deuteranopia, grey, read_pdf
from conftest import run_cli

GAMES = ["maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners"]
TITLES = {"maphr": "Les Mines de Maphr", "tunhell": "TunHell", "mine_all_mine": "Mine, All Mine!",
          "cristaux": "Cristaux Élémentaires Joailliers", "imperial_miners": "Imperial Miners"}

MIN_ANY = 5.0  # pt, every text
MIN_RULES = 6.0  # pt, every text that is not a mark
MIN_CONTRAST = 4.5

#: marks: text allowed between 5 and 6 pt (compared without spaces)
MARKS = [
    # version stamps « v0.1 · b3f93f » (a stamp turned 90° or 180° may be read in pieces)
    re.compile(r"(v\d[\w.]*|·|[0-9a-f]{6}|provisoire)+"),
    re.compile(r".*·(aidedejeu|plateau|feuilledescore|misenplace).*"),  # printables' footers
    # captions of the blank fields of Imperial Miners' blank card; Maphr's « niveau » under a
    # mine level; TunHell's « Partie complète » beside its :plus: mark
    re.compile(r"Nomdelacarte|coût|(faction)+|Effet[12]?|niveau|Partiecomplète"),
]


#: glyphs that are icons (cardforge/render/icons.py draws them from the font: ♚ ♬ ♯ ♪), not text
ICON_GLYPHS = set("♚♬♯♪")


def _squeeze(text: str) -> str:
    return re.sub(r"[\s\u00a0\u202f]+", "", text)


def is_mark(text: str, game: str) -> bool:
    flat = _squeeze(text)
    title = _squeeze(TITLES[game])
    if flat.startswith(title):  # a deck's name, alone or on the line of the version stamp
        flat = flat[len(title):]
    return not flat or any(m.fullmatch(flat) for m in MARKS)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("a11y")
    r = run_cli("build", *GAMES, "-o", out)
    assert r.code == 0, r.err
    return out


@pytest.mark.parametrize("game", GAMES)
def test_text_size_and_contrast_contract(built, game):
    pdfs = sorted((built / game).glob("*.pdf"))
    assert {p.name for p in pdfs} >= {"deck.pdf", "aids.pdf", "boards.pdf", "score-pad.pdf", "setup.pdf"}
    problems: list[str] = []
    runs = 0
    marks = 0
    for pdf in pdfs:
        for f in read_pdf(pdf):
            if set(f.run) <= ICON_GLYPHS:
                continue
            runs += 1
            where = f"{game}/{f.file} page {f.page + 1}: {f.run[:50]!r} (in {f.text[:40]!r})"
            if f.size < MIN_ANY - 1e-6:
                problems.append(f"{where}: {f.size:g} pt < {MIN_ANY:g} pt")
            elif f.size < MIN_RULES - 1e-6:
                if is_mark(f.run, game):
                    marks += 1
                else:
                    problems.append(f"{where}: {f.size:g} pt < {MIN_RULES:g} pt and not a stamp or caption")
            if f.ratio is not None and f.ratio < MIN_CONTRAST:
                problems.append(f"{where}: contrast {f.ratio:.2f}:1 (ink {f.ink}, behind {f.behind})")
    assert runs > 100  # the walk saw the text (every game prints hundreds of runs)
    assert marks > 0  # version stamps exist and were recognised as marks
    problems = list(dict.fromkeys(problems))
    assert not problems, "\n".join(problems[:40])


def test_marks_are_recognised_and_rules_text_is_not():
    assert is_mark("v0.1 · b3f93f", "cristaux")
    assert is_mark("TunHell · aide de jeu · verso", "tunhell")
    assert is_mark("Mine, All Mine\u202f!", "mine_all_mine")
    assert is_mark("faction", "imperial_miners")
    assert not is_mark("Défaussez cette carte\u202f: votre action", "cristaux")
    assert not is_mark("Les cartes I sont gratuites.", "imperial_miners")


def test_contrast_and_deuteranopia_maths():
    from a11y_helpers import contrast

    assert contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast((255, 255, 255), (143, 174, 94)) == pytest.approx(2.50, abs=0.01)  # the old tab
    # Machado's deuteranopia keeps greys grey and maps pure red and green to near-identical olives
    assert deuteranopia((128, 128, 128)) == pytest.approx((128, 128, 128), abs=1)
    red, green = deuteranopia((192, 57, 43)), deuteranopia((46, 139, 62))
    assert abs(grey(red) - grey(green)) < 15
