"""Issue 42: a game made in English prints no French. A scaffolded English game
(`cardforge new`, `--lang en`) is built whole and checked, scored, set up and balanced; every
text of every PDF and every line printed to the terminal is searched for the French words
cardforge uses — its French catalogue's words that are not English, and the French scaffold's
— and for French accented letters: none may appear."""

from __future__ import annotations

import re

import pypdfium2
import pytest
import yaml
from babel.messages.pofile import read_po

from cardforge.resources import PACKAGE_DIR

WORD = re.compile(r"[^\W\d_]+")
#: French words of the catalogue that English uses too
ALSO_ENGLISH = {"main", "part", "plus", "construction", "distribution", "court", "non", "rang", "balance"}
ACCENTS = re.compile(r"[àâçéèêëîïôûùüÿœæÀÂÇÉÈÊËÎÏÔÛÙÜŸŒÆ«»]")


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", "", text))}


def french_words() -> set[str]:
    """The French words cardforge prints: its catalogue's msgstrs less their msgids' words, and
    the French scaffold's texts less the English scaffold's (at least 3 letters; not English too)."""
    root = PACKAGE_DIR
    with open(root / "locale" / "fr" / "LC_MESSAGES" / "cardforge.po", "rb") as fh:
        catalogue = read_po(fh)
    english: set[str] = set()
    french: set[str] = set()
    for message in catalogue:
        if not message.id:
            continue
        for text in message.id if isinstance(message.id, tuple) else (message.id,):
            english |= _words(text)
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            french |= _words(text or "")
    scaffold = root / "games" / "newgame"
    for lang, into in (("en", english), ("fr", french)):  # the texts its files give (not their comments)
        for path in sorted((scaffold / lang).rglob("*.yaml")):
            into |= set().union(*map(_words, _texts(yaml.safe_load(path.read_text(encoding="utf-8")))))
    return {w for w in french - english if len(w) >= 3} - ALSO_ENGLISH


def _texts(value: object) -> list[str]:
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return [value] if isinstance(value, str) else []


BALANCE = """
balance:
  cards: {kinds: [action], cost: cost, value: points}
  by_name: {kinds: [action], cost: cost, value: points, group: name}
"""


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, str]:
    """Every text the English game's commands print, and every PDF's text, by where it came from."""
    from conftest import run_cli

    tmp = tmp_path_factory.mktemp("english")
    folder = tmp / "my-game"
    seen: dict[str, str] = {}

    def run(*args: object) -> None:
        r = run_cli(*args)
        assert r.code == 0, (args, r.out, r.err)
        name = str(args[0])
        seen[name if name not in seen else f"{name} #{len(seen)}"] = r.out + "\n" + r.err

    run("new", folder, "--lang", "en")
    # a designer's next step: cards with points, to compare value against cost
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8").replace(
        "        effect: {type: text, required: true}",
        "        effect: {type: text, required: true}\n        points: {type: int, min: 0}")
    game.write_text(text + BALANCE, encoding="utf-8")
    cards = folder / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    for cost, points in (("2", "3"), ("1", "1"), ("4", "6")):
        text = text.replace(f"    cost: {cost}\n", f"    cost: {cost}\n    points: {points}\n", 1)
    cards.write_text(text, encoding="utf-8")
    run("check", folder)
    run("build", folder, "-o", tmp / "out")
    run("score", folder, folder / "examples" / "final.yaml")
    for players in (2, 3, 4):
        run("setup", folder, "--players", players, "--seed", 7)
    run("balance", folder)
    run("export", folder, "png", "--dpi", 36, "-o", tmp / "png")
    pdfs = sorted((tmp / "out").rglob("*.pdf"))
    assert {p.name for p in pdfs} >= {"deck.pdf", "score-pad.pdf", "aids.pdf", "setup.pdf", "instructions.pdf"}
    for pdf_path in pdfs:
        pdf = pypdfium2.PdfDocument(str(pdf_path))
        seen[pdf_path.name] = "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
        pdf.close()
    return seen


def test_the_list_of_french_words_is_real():
    words = french_words()
    assert {"joueurs", "provisoire", "verso", "mise", "égalité", "marchand", "pièces"} <= words
    assert not words & {"players", "score", "setup", "the", "cards"}


def test_an_english_game_prints_no_french(outputs):
    french = french_words()
    assert len(outputs) >= 12  # 8 commands and 5 PDFs at least
    found = {where: sorted(_words(text) & french) for where, text in outputs.items()}
    assert {where: words for where, words in found.items() if words} == {}
    accented = {where: sorted(set(ACCENTS.findall(text))) for where, text in outputs.items()}
    assert {where: chars for where, chars in accented.items() if chars} == {}


def test_what_was_searched_is_what_was_printed(outputs):
    # the searched texts are the commands' real outputs
    assert "Checklist:" in outputs["setup"] and "Shuffle the cards" in outputs["setup"]
    balance = outputs["balance"]
    assert "points = " in balance and "(3 cards" in balance and "(1 card)" in balance and "(1 cards)" not in balance
    assert "Winner: Alice" in outputs["score"] and "my_game: OK" in outputs["check"]
    assert "Cards played" in outputs["score-pad.pdf"] and "Your turn" in outputs["aids.pdf"]
    assert "Merchant" in outputs["deck.pdf"]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_scaffold_points_to_the_designers_docs(cli, tmp_path, lang):
    folder = tmp_path / "g"
    assert cli("new", str(folder), "--lang", lang).code == 0
    texts = {p.name: p.read_text(encoding="utf-8") for p in folder.rglob("*") if p.is_file() and p.suffix != ".svg"}
    assert not [name for name, text in texts.items() if "DEVELOPING" in text]
    named = set(re.findall(r"docs/[\w-]+\.md", "\n".join(texts.values())))
    assert named and all((PACKAGE_DIR.parent / doc).is_file() for doc in named), named


def test_balance_never_writes_infinity():
    from cardforge.lab.balance import fmt, fmt_signed

    assert (fmt(float("inf")), fmt(float("-inf"))) == ("unbounded", "−unbounded")
    assert (fmt_signed(float("inf")), fmt_signed(float("-inf"))) == ("+unbounded", "−unbounded")
    assert (fmt(2.5), fmt_signed(-0.25)) == ("2.5", "−0.25")
