"""A game is a folder: `cardforge new`, card kinds and scoring declared as data, a game with
Python rules found by path, by --data and by entry point, cardforge.toml settings."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pypdf
import pytest

from cardforge.games.generic import parse_pad_value

from conftest import FIXTURES

SIXTH = FIXTURES / "games" / "chasse_aux_reliques"


def pdf_text(path: Path) -> str:
    return "".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def manifest(out: Path, game: str) -> dict[str, dict]:
    data = json.loads((out / game / "manifest.json").read_text(encoding="utf-8"))
    return {f["path"]: f for f in data["files"]}


@pytest.fixture
def new_game(cli, tmp_path) -> Path:
    folder = tmp_path / "mon-jeu"
    r = cli("new", folder)
    assert r.code == 0, r.err
    assert "game.yaml" in r.out and "cards.yaml" in r.out and "examples/final.yaml" in r.out
    return folder


# --- one shape for every game folder (issue 27) -------------------------------------------------

#: what every game folder holds: what it is, its rules note, its looks, its icons, a game to score
SHAPE = ("game.yaml", "RULES.md", "templates/layout.yaml", "icons/*.svg", "examples/final.yaml")


def test_shipped_games_and_the_scaffold_have_one_shape():
    """A shipped game is a folder like the one `cardforge new` makes: its looks, icons and
    examples in it; the top-level templates/ keeps only what every game shares."""
    from cardforge.games import find_game, game_ids
    from cardforge.games.scaffold import SKELETON

    from conftest import ROOT

    folders = {gid: find_game(gid).folder for gid in game_ids() if find_game(gid).origin == "shipped"}
    assert len(folders) >= 5
    for name, folder in [*folders.items(), ("cardforge new", SKELETON)]:
        for entry in SHAPE:
            assert list(folder.glob(entry)), f"{name}: no {entry}"
    assert sorted(p.name for p in (ROOT / "templates").iterdir()) == ["_shared"]
    assert not (ROOT / "examples").exists()


# --- cardforge new: a game that checks, builds and scores at once ------------------------------

def test_new_game_checks_builds_and_scores(cli, new_game, tmp_path):
    r = cli("check", new_game)
    assert r.code == 0, r.err
    assert "mon_jeu: OK" in r.out and "10 cards" in r.out

    out = tmp_path / "out"
    r = cli("build", new_game, "-o", out)
    assert r.code == 0, r.err
    files = manifest(out, "mon_jeu")
    assert files["deck.pdf"]["cards"] == 10  # 4 Marchand + 4 Éclaireur + 2 Architecte
    assert files["score-pad.pdf"]["kind"] == "pad" and files["aids.pdf"]["kind"] == "aid"
    deck = pdf_text(out / "mon_jeu" / "deck.pdf")
    assert "Marchand" in deck and "Éclaireur" in deck and "Architecte" in deck
    pad = pdf_text(out / "mon_jeu" / "score-pad.pdf")
    assert "Cartes posées" in pad and "Objectifs" in pad and "le plus de pièces" in pad
    assert "Tour de jeu" in pdf_text(out / "mon_jeu" / "aids.pdf")

    r = cli("score", new_game, new_game / "examples" / "final.yaml", "--json")
    assert r.code == 0, r.err
    players = {p["name"]: p for p in r.json["players"]}
    assert players["Alice"]["breakdown"] == {"cartes": 7, "objectifs": 5} and players["Alice"]["total"] == 12
    assert players["Ben"]["total"] == 12 and players["Ben"]["rank"] == 2
    assert r.json["winners"] == ["Alice"]  # tied on 12, more coins (5 against 2)
    assert r.json["details"] == {"sums": {"Alice": {"objectifs": "3+2"}}}

    r = cli("setup", new_game, "--players", "4", "--seed", "3", "--json")
    assert r.code == 0, r.err
    assert r.json["player_count"] == 4 and r.json["counts"] == {"main": 2, "pieces": 4}
    assert r.json["steps"][0] == "Mélangez les cartes et donnez 2 cartes à chacun des 4 joueurs."
    hands = r.json["deal"]["hands"]
    assert len(hands) == 4 and all(len(h) == 2 for h in hands)


def test_new_refuses_a_folder_that_holds_files(cli, new_game):
    r = cli("new", new_game)
    assert r.code == 1
    assert "is not empty; give a new or empty folder (nothing was written)" in r.err


def test_edited_new_game_with_a_new_kind_field_copies_and_category(cli, new_game, tmp_path):
    """Add a card kind with a new field, a card with 3 copies, a score category: no Python."""
    game_yaml = new_game / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    text = text.replace("  - {id: objectifs, label: Objectifs, label_en: Objectives}\n",
                        "  - {id: objectifs, label: Objectifs, label_en: Objectives}\n"
                        "  - {id: tresors, label: Trésors, label_en: Treasures}\n")
    text = text.replace("  backs:\n", "    tresor:\n      label: Trésor\n      fields:\n"
                                      "        points: {type: int, min: 0, max: 9, required: true}\n"
                                      "        rarity: {type: choice, choices: [commun, rare]}\n  backs:\n")
    game_yaml.write_text(text, encoding="utf-8")
    with (new_game / "cards.yaml").open("a", encoding="utf-8") as f:
        f.write("  - {id: coffre, kind: tresor, name: Coffre, points: 3, rarity: rare, copies: 3}\n")
    r = cli("check", new_game)
    assert r.code == 0, r.err
    assert "13 cards" in r.out and "3  tresor (Trésor)" in r.out

    out = tmp_path / "out"
    r = cli("build", new_game, "-o", out)
    assert r.code == 0, r.err
    assert manifest(out, "mon_jeu")["deck.pdf"]["cards"] == 13
    assert "Coffre" in pdf_text(out / "mon_jeu" / "deck.pdf")
    assert "Trésors" in pdf_text(out / "mon_jeu" / "score-pad.pdf")

    final = tmp_path / "final.yaml"
    final.write_text("players:\n  - {name: Alice, cartes: 4, objectifs: 2, tresors: 3+6+2}\n"
                     "  - {name: Ben, cartes: 9, objectifs: 1, tresors: 0}\n", encoding="utf-8")
    r = cli("score", new_game, final, "--json")
    assert r.code == 0, r.err
    assert [(p["name"], p["total"], p["rank"]) for p in r.json["players"]] == [("Alice", 17, 1), ("Ben", 10, 2)]
    assert r.json["categories"] == ["cartes", "objectifs", "tresors"]

    missing = tmp_path / "missing.yaml"
    missing.write_text("players:\n  - {name: Alice, cartes: 4, objectifs: 2}\n  - {name: Ben, cartes: 1, objectifs: 1,"
                       " tresors: 1}\n", encoding="utf-8")
    r = cli("score", new_game, missing)
    assert r.code == 1
    assert f"{missing}:2: player 'Alice' (#1): tresors: required field is missing" in r.err


def test_declared_fields_are_validated_with_located_errors(cli, new_game):
    (new_game / "cards.yaml").write_text(
        "defaults: {kind: action}\n"
        "cards:\n"
        "  - {id: cher, name: Cher, cost: 12, effect: x}\n"
        "  - {id: mot, name: Mot, cost: beaucoup, effect: x}\n"
        "  - {id: muet, name: Muet, cost: 1}\n"
        "  - {id: teinte, name: Teinte, cost: 1, effect: x, colour: red}\n", encoding="utf-8")
    r = cli("check", new_game)
    assert r.code == 1
    cards = f"{new_game / 'cards.yaml'}"
    assert f"{cards}:3: card 'cher' (#1): cost: must be ≤ 10, got 12" in r.err
    assert f"{cards}:4: card 'mot' (#2): cost: must be a whole number, got 'beaucoup'" in r.err
    assert f"{cards}:5: card 'muet' (#3): effect: required field is missing" in r.err
    assert f"{cards}:6: card 'teinte' (#4): colour: unknown field (allowed: id, kind, name, copies, provenance, " \
           "art, back, cost, effect)" in r.err
    assert "mon_jeu: 4 problems found" in r.err


def test_a_broken_game_yaml_is_located(cli, new_game):
    path = new_game / "game.yaml"
    text = path.read_text(encoding="utf-8").replace("players: 2-4", "players: 4-2").replace(
        "language: fr", "language: fr\ncolour: blue")
    path.write_text(text, encoding="utf-8")
    r = cli("check", new_game)
    assert r.code == 1
    line = next(i for i, t in enumerate(text.splitlines(), start=1) if t.startswith("colour: blue"))
    assert f"{path}:{line}: colour: unknown field (allowed: id, title, language, players," in r.err
    assert "players: min (4) is more than max (2)" in r.err


def test_a_folder_without_game_yaml_says_how_to_make_one(cli, tmp_path):
    r = cli("check", tmp_path)
    assert r.code == 2
    assert f"no game.yaml in {tmp_path}; create one with `cardforge new {tmp_path}`" in r.err


# --- a sixth game with Python rules, in its own folder -----------------------------------------

def test_a_game_with_rules_is_found_by_path_and_played(cli, tmp_path):
    r = cli("check", SIXTH)
    assert r.code == 0, r.err
    assert "18 cards" in r.out
    out = tmp_path / "out"
    r = cli("build", SIXTH, "-o", out)
    assert r.code == 0, r.err
    files = manifest(out, "chasse_aux_reliques")
    assert files["deck.pdf"]["cards"] == 18 and files["aids.pdf"]["cards"] == 3  # one per player, 3 at most
    assert "Couronne" in pdf_text(out / "chasse_aux_reliques" / "aids.pdf")  # the rules' generated table
    assert "5" in pdf_text(out / "chasse_aux_reliques" / "deck.pdf")

    r = cli("setup", SIXTH, "--players", "3", "--relics", "2", "--seed", "1", "--json")
    assert r.code == 0, r.err
    assert r.json["steps"] == ["Donnez 2 reliques à chacun des 3 joueurs."]
    assert [len(h) for h in r.json["deal"]["hands"]] == [2, 2, 2]
    r = cli("setup", SIXTH, "--players", "3", "--relics", "9")
    assert r.code == 2 and "9 is not in the range 2<=x<=4" in r.err
    r = cli("setup", SIXTH, "--players", "3", "--short", "3")
    assert r.code == 2 and "--short is not an option of chasse_aux_reliques (its setup options: --relics)" in r.err

    final = tmp_path / "final.yaml"
    # Ana: 5+4+2+3 = 14, three «or» → a set, 8 in expert; Ben: 5+3+2+1+1 = 12, three «os» → 8
    final.write_text("mode: expert\nplayers:\n  - {name: Ana, relics: [couronne, sceptre, anneau, masque]}\n"
                     "  - {name: Ben, relics: [couronne, crane, flute, dent, perle]}\n", encoding="utf-8")
    r = cli("score", SIXTH, final, "--json")
    assert r.code == 0, r.err
    assert [(p["name"], p["breakdown"], p["total"]) for p in r.json["players"]] == [
        ("Ana", {"relics": 14, "sets": 8}, 22), ("Ben", {"relics": 12, "sets": 8}, 20)]
    final.write_text("players:\n  - {name: Ana, relics: [couronnne]}\n  - {name: Ben, relics: []}\n",
                     encoding="utf-8")
    r = cli("score", SIXTH, final)
    assert r.code == 1 and "player 'Ana' (#1): relics: unknown relic 'couronnne'; did you mean 'couronne'?" in r.err


def test_a_game_folder_in_a_data_root_is_found_by_id(cli, tmp_path):
    import shutil

    root = tmp_path / "games"
    shutil.copytree(SIXTH, root / "chasse_aux_reliques")
    r = cli("--data", root, "games")
    assert r.code == 0 and "chasse_aux_reliques" in r.out and "Chasse aux reliques" in r.out
    r = cli("--data", root, "check", "chasse-aux-reliques")
    assert r.code == 0, r.err


def test_a_plug_in_game_is_found_through_its_entry_point(monkeypatch):
    from cardforge import games

    module = SimpleNamespace(__file__=str(SIXTH / "plugin.py"), GAME_FOLDER=str(SIXTH))
    entry = SimpleNamespace(value="reliques_plugin", load=lambda: module)
    monkeypatch.setattr(games, "_entry_points", lambda: {"chasse_aux_reliques": entry})
    assert "chasse_aux_reliques" in games.game_ids()
    game = games.find_game("chasse_aux_reliques")
    assert game.origin == "entry point" and game.title == "Chasse aux reliques"
    assert game.score_model.__name__ == "FinalState"  # the rules named in its game.yaml


# --- cardforge.toml ----------------------------------------------------------------------------

def test_cardforge_toml_fills_what_the_command_line_leaves(cli, new_game, tmp_path):
    (new_game / "cardforge.toml").write_text('[build]\npaper = "letter"\nduplex = "none"\noutput = "print"\n',
                                            encoding="utf-8")
    r = cli("build", new_game, "--only", "decks")
    assert r.code == 0, r.err
    files = manifest(new_game / "print", "mon_jeu")
    assert files["deck.pdf"]["paper"] == "letter" and "deck-backs.pdf" in files
    r = cli("build", new_game, "--only", "decks", "--paper", "a4", "-o", tmp_path / "o")
    assert r.code == 0, r.err
    assert manifest(tmp_path / "o", "mon_jeu")["deck.pdf"]["paper"] == "a4"  # the command line wins
    (new_game / "cardforge.toml").write_text('[build]\npaper = "a2"\n', encoding="utf-8")
    r = cli("build", new_game, "--only", "decks")
    assert r.code == 1
    assert "cardforge.toml: build.paper: unknown paper 'a2' (allowed:" in r.err


# --- pad values --------------------------------------------------------------------------------

@pytest.mark.parametrize(("written", "value"), [
    (7, 7), ("3+6+2", 11), (" 10 - 2 ", 8), ("-3", -3), ("2,5+1", Fraction(7, 2)), (1.5, Fraction(3, 2)),
])
def test_pad_values_are_numbers_or_short_sums(written, value):
    assert parse_pad_value(written) == value


@pytest.mark.parametrize("written", ["3*2", "abc", "", "3++2", True, float("nan")])
def test_pad_values_refuse_anything_else(written):
    with pytest.raises(ValueError, match="expected a number or a sum such as 3\\+6\\+2"):
        parse_pad_value(written)


def test_a_tie_needs_its_tie_breaker_and_low_order_wins_lower(cli, new_game, tmp_path):
    final = tmp_path / "final.yaml"
    final.write_text("players:\n  - {name: Alice, cartes: 5, objectifs: 0}\n"
                     "  - {name: Ben, cartes: 2, objectifs: 3, pieces: 4}\n", encoding="utf-8")
    r = cli("score", new_game, final)
    assert r.code == 1
    assert "player 'Alice' (#1): pieces: tied with Ben: give 'pieces' (more coins) to break the tie" in r.err

    path = new_game / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("label_en: more coins}",
                                                             "label_en: fewer coins, order: low}"), encoding="utf-8")
    final.write_text("players:\n  - {name: Alice, cartes: 5, objectifs: 0, pieces: 1}\n"
                     "  - {name: Ben, cartes: 2, objectifs: 3, pieces: 4}\n", encoding="utf-8")
    r = cli("score", new_game, final, "--json")
    assert r.code == 0, r.err
    assert r.json["winners"] == ["Alice"]


def test_data_only_scoring_checks_player_count_and_names(cli, new_game, tmp_path):
    final = tmp_path / "final.yaml"
    final.write_text("players:\n  - {name: Alice, cartes: 5, objectifs: 0}\n", encoding="utf-8")
    r = cli("score", new_game, final)
    assert r.code == 1 and "players: 1 given, mon_jeu supports 2–4" in r.err
    final.write_text("players:\n  - {name: Alice, cartes: 5, objectifs: 0}\n"
                     "  - {name: alice, cartes: 1, objectifs: 1}\n", encoding="utf-8")
    r = cli("score", new_game, final)
    assert r.code == 1 and "player 'alice' (#2): name: the name 'alice' is also player #1's" in r.err


def test_an_option_declared_for_some_modes_is_refused_in_the_others(cli, tmp_path):
    import shutil

    game = tmp_path / "reliques"
    shutil.copytree(SIXTH, game)
    path = game / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("    flag: --relics\n",
                                                             "    flag: --relics\n    modes: [expert]\n"),
                    encoding="utf-8")
    r = cli("setup", game, "--players", "2", "--relics", "2")
    assert r.code == 1 and "relics_each: --relics is for mode expert only (this setup is mode standard)" in r.err
    r = cli("setup", game, "--players", "2", "--relics", "2", "--mode", "expert")
    assert r.code == 0, r.err
