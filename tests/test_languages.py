"""A game prints in its own language: `cardforge new` scaffolds in English (or French with
--lang fr); the pads, setup sheets and aids of an English game hold no French word, the same
game with `language: fr` prints them in French, and `--lang` overrides game.yaml."""

from __future__ import annotations

import re
from pathlib import Path

import pypdf
import pytest

#: the French words cardforge itself printed on pads, setup sheets and aids (and the scaffold's
#: aid and setup) before its words came from catalogs
FRENCH = ["feuille", "score de", "Joueur", "Joueurs", "joueurs", "Égalité", "égalité", "sinon", "partagent",
          "Mise en place", "mise en place", "Chiffres", "partie", "graine", "Distribution", "aide de jeu",
          "verso", "provisoire", "Tour de jeu", "Fin de partie", "pièce", "pièces", "plateau", "oui", "non",
          "Manches", "Limite", "Cartes", "Mélangez", "Piochez", "Jouez", "Appliquez", "Distribuez"]
#: and the English words that replace them
ENGLISH = ["score pad", "Players", "Player 1", "Setup", "Numbers for this game", "player aid", "provisional",
           "otherwise", "share the place"]


def words_in(text: str, words: list[str]) -> list[str]:
    return [w for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def build(cli, folder: Path, out: Path, *extra: str) -> dict[str, str]:
    r = cli("build", folder, "-o", out, "--only", "pads,aids", "-q", *extra)
    assert r.code == 0, r.err
    made = out / folder.name
    return {name: pdf_text(made / name) for name in ("score-pad.pdf", "setup.pdf", "aids.pdf")}


@pytest.fixture(scope="module")
def english_game(tmp_path_factory) -> Path:
    from cardforge.games.scaffold import create_game

    folder = tmp_path_factory.mktemp("en") / "g"
    create_game(folder, "G")
    return folder


def test_cardforge_new_scaffolds_in_english_and_its_printables_hold_no_french_word(cli, tmp_path):
    folder = tmp_path / "g"
    assert cli("new", folder).code == 0
    assert "language: en " in (folder / "game.yaml").read_text(encoding="utf-8")
    texts = build(cli, folder, tmp_path / "out")
    for name, text in texts.items():
        assert not words_in(text, FRENCH), (name, words_in(text, FRENCH))
        assert "\u202f" not in text  # no French spacing in English
    assert "G — score pad" in texts["score-pad.pdf"] and "Player 4" in texts["score-pad.pdf"]
    assert "Date:" in texts["score-pad.pdf"]
    assert "Ties: most coins wins; otherwise, players who tie share the place." in texts["score-pad.pdf"]
    assert "2 players" in texts["setup.pdf"] and "Numbers for this game" in texts["setup.pdf"]
    assert "G · player aid · Your turn" in texts["aids.pdf"] and "v0.1 · provisional" in texts["aids.pdf"]


def test_the_same_game_with_language_fr_prints_french(cli, tmp_path, english_game):
    folder = tmp_path / "g"
    folder.mkdir()
    for path in english_game.rglob("*"):
        if path.is_file():
            target = folder / path.relative_to(english_game)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("language: en ", "language: fr "),
                         encoding="utf-8")
    texts = build(cli, folder, tmp_path / "out")
    assert "G — feuille de score" in texts["score-pad.pdf"] and "Joueur 4" in texts["score-pad.pdf"]
    assert "Date\u202f:" in texts["score-pad.pdf"]  # French spacing
    assert "sinon, les joueurs à égalité partagent la place" in texts["score-pad.pdf"]
    assert "2 joueurs" in texts["setup.pdf"] and "Chiffres pour cette partie" in texts["setup.pdf"]
    assert "G · aide de jeu · Your turn" in texts["aids.pdf"] and "v0.1 · provisoire" in texts["aids.pdf"]
    for name, text in texts.items():  # the game's own words stay as written; none of cardforge's English
        assert not words_in(text, ENGLISH), (name, words_in(text, ENGLISH))


def test_lang_overrides_the_game_s_language(cli, tmp_path, english_game):
    texts = build(cli, english_game, tmp_path / "out", "--lang", "fr")
    assert "G — feuille de score" in texts["score-pad.pdf"]
    assert cli("build", english_game, "-o", tmp_path / "x", "--lang", "xx").code == 2


def test_cardforge_new_lang_fr_scaffolds_a_french_game(cli, tmp_path):
    folder = tmp_path / "jeu"
    assert cli("new", folder, "--lang", "fr").code == 0
    assert "language: fr " in (folder / "game.yaml").read_text(encoding="utf-8")
    assert (folder / "icons" / "objectif.svg").is_file() and not (folder / "icons" / "objective.svg").exists()
    texts = build(cli, folder, tmp_path / "out")
    assert "Jeu — feuille de score" in texts["score-pad.pdf"]
    assert "Tour de jeu" in texts["aids.pdf"] and "Mise en place" in texts["setup.pdf"]
    for name, text in texts.items():
        assert not words_in(text, ENGLISH), (name, words_in(text, ENGLISH))


def test_score_speaks_the_game_s_language_or_lang(cli, english_game):
    final = english_game / "examples" / "final.yaml"
    lines = cli("score", english_game, final).out.splitlines()
    assert lines[0] == "G — score"
    assert lines[3].split() == ["Cards", "played", "7", "9"]
    assert lines[7].split() == ["Coins", "(tie-break)", "5", "2"]
    assert lines[8].split() == ["Rank", "1", "2"]
    assert lines[-1] == "Winner: Alice (tie on 12 broken by more coins)"
    fr = cli("score", english_game, final, "--lang", "fr").out.splitlines()
    assert fr[7].split() == ["Coins", "(départage)", "5", "2"] and fr[8].split() == ["Rang", "1", "2"]
    assert fr[-1].startswith("Vainqueur\u202f: Alice")
