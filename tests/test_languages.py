"""A game prints in its own language: `cardforge new` scaffolds in English (or French with
--lang fr); the pads, setup sheets and aids of an English game hold no French word, the same
game with `language: fr` prints them in French, and `--lang` overrides game.yaml."""

from __future__ import annotations

import itertools
import json
import re
import string
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


# --- multilingual cards: one value per language, one edition printed ------------------------------

MULTILINGUAL = """\
defaults: {kind: action}
cards:
  - id: merchant
    name: {en: Merchant, fr: Marchand}
    cost: 2
    effect: {en: "Gain 2 :coin:.", fr: "Gagnez 2 :coin:."}
    copies: 1
  - id: scout
    name: Scout
    name.fr: Éclaireur
    cost: 1
    effect: Draw a card.
  - id: architect
    name: {en: Architect}
    cost: 4
    effect: "Score 1 :objective:."
"""
CSV = "id,kind,name,name.fr,cost,effect,effect.fr\nshoring,action,Shoring,Étayage,3,Hold the roof.,Tenez le toit.\n"


@pytest.fixture
def multilingual(tmp_path, english_game) -> Path:
    folder = tmp_path / "m"
    for path in english_game.rglob("*"):
        if path.is_file():
            target = folder / path.relative_to(english_game)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    (folder / "cards.yaml").write_text(MULTILINGUAL, encoding="utf-8")
    (folder / "more.csv").write_text(CSV, encoding="utf-8")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("card_files: [cards.yaml]",
                                                                       "card_files: [cards.yaml, more.csv]"),
                         encoding="utf-8")
    return folder


def deck(cli, folder: Path, out: Path, *extra: str):
    r = cli("build", folder, "-o", out, "--only", "decks", *extra)
    assert r.code == 0, r.err
    record = json.loads((out / folder.name / "cards.json").read_text(encoding="utf-8"))
    return pdf_text(out / folder.name / "deck.pdf"), record, r


def test_a_multilingual_card_prints_each_edition(cli, tmp_path, multilingual):
    en, en_record, r = deck(cli, multilingual, tmp_path / "en")
    assert "Merchant" in en and "Gain 2" in en and "Scout" in en and "Shoring" in en and "Hold the roof." in en
    assert not words_in(en, ["Marchand", "Gagnez", "Éclaireur", "Étayage", "Tenez"])
    assert "warning" not in r.err  # the game's own edition: every text there
    fr, fr_record, r = deck(cli, multilingual, tmp_path / "fr", "--lang", "fr")
    assert "Marchand" in fr and "Gagnez 2" in fr and "Éclaireur" in fr and "Étayage" in fr and "Tenez le toit." in fr
    assert not words_in(fr, ["Merchant", "Gain", "Shoring"])
    # what the fr edition lacks prints as given, with a warning naming the card and the field
    assert "Architect" in fr and "Draw a card." in fr
    assert "card 'architect' (#3): name: no 'fr' text: the fr edition prints its 'en' one" in r.err
    assert "card 'scout' (#2): effect: no 'fr' text (other cards of its kind have one)" in r.err
    # the stamp and the record tell the editions apart
    assert en_record["edition"] == "en" and fr_record["edition"] == "fr"
    assert en_record["cards"]["merchant"]["name"] == "Merchant" and fr_record["cards"]["merchant"]["name"] == "Marchand"
    assert re.fullmatch(r"v0\.1 · [0-9a-f]{6}", en_record["cards"]["merchant"]["stamp"])
    assert re.fullmatch(r"v0\.1 · FR · [0-9a-f]{6}", fr_record["cards"]["merchant"]["stamp"])
    assert "v0.1 · FR · " in fr and " · FR · " not in en


def test_a_reprint_compares_like_editions_only(cli, tmp_path, multilingual):
    deck(cli, multilingual, tmp_path / "en")
    r = cli("build", multilingual, "-o", tmp_path / "fr", "--only", "decks", "--lang", "fr",
            "--changed-since", tmp_path / "en" / "m")
    assert r.code == 1
    assert "this record is of the 'en' edition; this build prints the 'fr' one" in r.err
    _, _, r = deck(cli, multilingual, tmp_path / "en2", "--changed-since", tmp_path / "en" / "m")
    changes = json.loads((tmp_path / "en2" / "m" / "changes.json").read_text(encoding="utf-8"))
    assert changes["take_out"] == [] and changes["add"] == []  # the same edition, nothing changed
    md = (tmp_path / "en2" / "m" / "changes.md").read_text(encoding="utf-8")
    assert md.startswith("# Reprint of m: v0.1 → v0.1\n") and "Take out of the box" in md  # English game


def test_check_lists_what_each_language_lacks(cli, multilingual):
    r = cli("check", multilingual)
    assert r.code == 0, r.err
    assert "  en edition: 1 text missing: card 'shoring' effect" not in r.out  # en is complete
    assert "  en edition: every multilingual text given" in r.out
    assert "  fr edition: 3 texts missing: card 'scout' effect, card 'architect' name, card 'architect' effect" \
        in r.out
    out = cli("check", multilingual, "--json").json
    assert out["editions"]["fr"] == {"missing": 3, "examples": ["card 'scout' effect", "card 'architect' name",
                                                                "card 'architect' effect"]}
    assert out["editions"]["en"] == {"missing": 0, "examples": []}


#: language codes for the tests: two letters (then three), never the English game's own, nor a
#: YAML 1.1 boolean (``no``, ``on`` read as false and true)
CODES = [c for c in ["".join(p) for n in (2, 3) for p in itertools.product(string.ascii_lowercase, repeat=n)]
         if c not in ("en", "no", "on", "yes", "off")]


def _with_cards(english_game: Path, folder: Path, cards: str) -> Path:
    for path in english_game.rglob("*"):
        if path.is_file():
            target = folder / path.relative_to(english_game)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    return folder


def test_more_languages_than_the_limit_is_a_located_error(cli, tmp_path, english_game, monkeypatch):
    # alpha's name in English and 30 languages (aa … az, ba … bd), beta's in 30 others (be … cm):
    # 61 languages; en, alpha's 30 and beta's first 20 (be … bx) make 50, so 'bx' is the 51st
    names = [CODES[:30], CODES[30:60]]
    cards = "defaults: {kind: action}\ncards:\n" + "".join(
        f"  - id: {cid}\n    name: {{en: N, {', '.join(f'{c}: N' for c in codes)}}}\n    cost: 1\n    effect: x\n"
        for cid, codes in zip(("alpha", "beta"), names))
    folder = _with_cards(english_game, tmp_path / "babel", cards)
    r = cli("check", folder)
    assert r.code == 1
    assert r.err.replace(str(folder) + "/", "").splitlines() == [
        "error: cards.yaml:8: card 'beta' (#2): name: the game's texts are in 61 languages, at most 50 allowed "
        "(its own included); this text's 'bx' is the first past the limit (set CARDFORGE_LIMIT_LANGUAGES to allow "
        "more)",
        "babel: 1 problem found"]
    monkeypatch.setenv("CARDFORGE_LIMIT_LANGUAGES", "61")
    r = cli("check", folder)
    assert r.code == 0, r.err
    assert "  aa edition: 1 text missing: card 'beta' name" in r.out
    assert "  bx edition: 1 text missing: card 'alpha' name" in r.out
    assert "  en edition: every multilingual text given" in r.out
    assert sum(line.endswith(" missing: card 'beta' name") for line in r.out.splitlines()) == 30


def test_missing_texts_are_counted_per_language_with_a_few_named(cli, tmp_path, english_game, monkeypatch):
    """The issue's 1,000 languages × 450 cards: card i's name in English and 3 more languages, the
    next ones in turn (codes 3i, 3i + 1, 3i + 2 of 999, wrapping) — each language lacks nearly
    every name. Listing them all took 840 MB (1.7 GB with --json); one entry per language now."""
    cards = "defaults: {kind: action}\ncards:\n" + "".join(
        f"  - {{id: c{i}, cost: 1, effect: x, name: {{en: N, "
        + ", ".join(f"{CODES[(3 * i + j) % 999]}: N" for j in range(3)) + "}}\n"
        for i in range(450))
    folder = _with_cards(english_game, tmp_path / "babel", cards)
    r = cli("check", folder, "--json")
    assert r.code == 1
    # en and cards c0 … c15 make 49 languages; c16 brings codes 48, 49, 50 (bw, bx, by): bx is the 51st
    assert [p["message"] for p in r.json["problems"]] == [
        "the game's texts are in 1,000 languages, at most 50 allowed (its own included); this text's 'bx' is "
        "the first past the limit (set CARDFORGE_LIMIT_LANGUAGES to allow more)"]
    assert r.json["problems"][0]["item"] == "card 'c16' (#17)"
    monkeypatch.setenv("CARDFORGE_LIMIT_LANGUAGES", "1000")
    from cardforge.data.loading import check_game_data
    from cardforge.games import find_game

    data, problems = check_game_data(find_game(folder))
    assert not [p for p in problems if not p.is_warning]
    from cardforge.data.editions import Missing, missing_by_language

    missing = missing_by_language(data.translations, "en")
    assert len(missing) == 1000 and missing["en"] == Missing(0, ())
    # 1,350 places (450 × 3) over 999 codes: codes 0 … 350 are given twice, the others once.
    # aa (code 0): c0 and c333 (3 × 333 = 999) have it; the first 8 without it are c1 … c8
    assert missing["aa"] == Missing(448, tuple(f"card 'c{i}' name" for i in range(1, 9)))
    assert missing[CODES[998]] == Missing(449, tuple(f"card 'c{i}' name" for i in range(8)))  # c332 alone
    assert sum(m.count for m in missing.values()) == 999 * 450 - 1350


def test_a_game_without_multilingual_texts_lists_no_edition(cli, english_game):
    r = cli("check", english_game)
    assert r.code == 0 and "edition" not in r.out


def test_only_text_fields_take_one_value_per_language():
    from pydantic import BaseModel

    from cardforge.data.editions import gather, resolve, text_fields

    class Card(BaseModel):
        id: str
        name: str
        effect: str | None = None
        logos: dict[str, int] = {}
        cost: int = 0

    text = text_fields(Card)
    assert text == {"name", "effect"}
    raw = gather({"id": "x", "name": "Shoring", "name.fr": "Étayage", "logos": {"red": 1, "en": 2},
                  "effect": {"en": "Hold.", "fr": "Tenez."}}, "en", text)
    assert raw["name"] == {"en": "Shoring", "fr": "Étayage"}
    printed, fallbacks = resolve(raw, "fr", "en", text)
    assert printed == {"id": "x", "name": "Étayage", "logos": {"red": 1, "en": 2}, "effect": "Tenez."}
    assert fallbacks == []
    printed, fallbacks = resolve(raw, "de", "en", text)
    assert printed["name"] == "Shoring" and fallbacks == [("name", "en"), ("effect", "en")]


def test_deck_sheet_labels_and_cutting_order_speak_the_game_s_language(cli, tmp_path, english_game):
    # on A4: 3 × 3 poker cards, rows first (the cutting order below)
    r = cli("build", english_game, "-o", tmp_path / "en", "--only", "decks", "-q", "--paper", "a4")
    assert r.code == 0, r.err
    en = " ".join(pdf_text(tmp_path / "en" / "g" / "deck.pdf").split())
    assert "(g) · deck.pdf · sheet 1/2 · FRONT" in en and "50 mm at 100 %" in en
    assert "Cutting order: 1. the 4 horizontal lines across the whole sheet (crop marks left and right); 2." in en
    r = cli("build", english_game, "-o", tmp_path / "fr", "--only", "decks", "-q", "--lang", "fr", "--paper", "a4")
    assert r.code == 0, r.err
    fr = " ".join(pdf_text(tmp_path / "fr" / "g" / "deck.pdf").split())
    assert "(g) · deck.pdf · feuille 1/2 · RECTO" in fr and "50 mm à 100 %" in fr
    assert "Ordre de coupe : 1. les 4 lignes horizontales, toute la feuille (traits à gauche et à droite)" in fr
    assert not words_in(fr, ["sheet", "FRONT", "BACK", "Cutting"])


def test_a_language_cardforge_cannot_print_is_a_located_error(cli, tmp_path, english_game):
    folder = tmp_path / "d"
    folder.mkdir()
    for path in english_game.rglob("*"):
        if path.is_file():
            target = folder / path.relative_to(english_game)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("language: en ", "language: de "),
                         encoding="utf-8")
    r = cli("check", folder)
    assert r.code == 1
    assert "game.yaml:6: language: cardforge prints en, fr (not 'de')" in r.err
    assert "Traceback" not in r.err
