"""TunHell card data: the 110 cards of the rulebook, their models and the checks against it."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.resources import shipped_data_root

GAME = find_game("tunhell")


@pytest.fixture(scope="module")
def data():
    return load_game_data(GAME)


def test_check_passes_and_counts_the_kinds(cli):
    r = cli("check", "tunhell")
    assert r.code == 0, r.err
    assert "cards 56×88 mm" in r.out
    for line in ("110 cards", "44  dwarf (Nains)", "60  mine (Mine)", "4  end_of_mine (Fins de Mine)",
                 "2  trophy (Trophées)", "1 board", "1 aid", "provisional: 1 of 36 entries"):
        assert line in r.out
    assert "tunhell: OK" in r.out


def test_the_issue_ids_exist(data):
    ids = ["terre", "tresor", "rat", "gobelin", "orc", "troll", "dragon", "machin", "dwouarf", "nawak",
           "vieille-pioche", "biere-du-courage", "anneau-unique", "coeur-d-or", "fantome-de-grodur",
           "porte-de-derriere", "salle-du-trone", "grosse-araignee-poilue", "demon-des-profondeurs",
           "employe-du-mois", "deratiseur"]
    assert all(data.has_card(i) for i in ids)
    assert all(c.provenance == "rulebook" for c in data.cards)


def test_dwarves_as_the_rulebook_lists_them(data):
    dwarves = data.cards_of("dwarf")
    by_type = Counter()
    for c in dwarves:
        by_type[c.type] += c.copies
    assert by_type == {"guerrier": 18, "piocheur": 19, "eclaireur": 5, "dynamiteur": 2}
    recruited = {c.id: c.copies for c in dwarves if c.played_on_recruit}
    # Guerrier 1 ×7, Piocheur 2/0 ×4, Éclaireur 3 ×3 are played when recruited
    assert recruited == {"guerrier-1": 7, "piocheur-2-0": 4, "eclaireur-3": 3}
    assert [(c.id, c.combat, c.copies) for c in dwarves if c.proud] == [("guerrier-4", 4, 2)]
    assert (data.card("piocheur-2-5").dig, data.card("piocheur-2-5").bonus) == (2, 5)


def test_mine_cards_as_the_rulebook_lists_them(data):
    mine = data.cards_of("mine")
    assert sum(c.copies for c in mine if c.plus) == 11
    to_hand = {c.id: c.copies for c in mine if c.goes_to == "hand"}
    assert to_hand == {"machin": 1, "dwouarf": 1, "nawak": 1, "vieille-pioche": 1, "biere-du-courage": 2,
                       "anneau-unique": 2}
    encounters = {c.id: (c.combat, c.vp) for c in data.cards if getattr(c, "encounter", False)}
    assert encounters == {"rat": (1, 0), "gobelin": (2, 2), "orc": (3, 3), "troll": (4, 4), "dragon": (6, 6),
                          "grosse-araignee-poilue": (5, 5), "demon-des-profondeurs": (7, 7)}
    assert (data.card("machin").plays_as, data.card("machin").dig) == ("piocheur", 4)
    assert data.card("dwouarf").plays_as == "guerrier"
    assert data.card("fantome-de-grodur").goes_to == "discard"
    assert [(t.id, t.vp, t.most) for t in data.cards_of("trophy")] == [
        ("employe-du-mois", 1, "terre"), ("deratiseur", 2, "rat")]


def test_three_decks_with_their_own_backs(data):
    meta = data.meta
    assert (meta.card_size.width, meta.card_size.height) == (56, 88)
    assert {kind: spec.back for kind, spec in meta.kinds.items()} == {
        "dwarf": "nain", "mine": "mine", "end_of_mine": "fin-de-mine", "trophy": "trophee"}
    assert set(meta.backs) == {"nain", "mine", "fin-de-mine", "trophee"}
    assert {spec.label for spec in meta.kinds.values()} == {"Nain", "Mine", "Fin de Mine", "Trophée"}


# --- the data checked against the rulebook --------------------------------------------------

@pytest.fixture
def data_copy(tmp_path) -> Path:
    """A writable copy of the shipped data, for --data."""
    shutil.copytree(shipped_data_root() / "tunhell", tmp_path / "tunhell")
    return tmp_path


def _edit(root: Path, name: str, old: str, new: str) -> Path:
    path = root / "tunhell" / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _errors(r) -> list[str]:
    return [line.removeprefix("error: ") for line in r.err.splitlines() if line.startswith("error: ")]


def test_a_wrong_copy_count_is_caught(cli, data_copy):
    path = _edit(data_copy, "mine.yaml", "name: Rat\n    copies: 7", "name: Rat\n    copies: 6")
    r = cli("--data", data_copy, "check", "tunhell")
    assert r.code == 1
    errors = _errors(r)
    wrong = f"{path.name}:15: card 'rat' (#3): copies: the rulebook says 7, got 6"
    assert any(e.endswith(wrong) for e in errors), errors
    total = "mine.yaml: 59 mine cards in the data, the rulebook has 60"
    assert any(e.endswith(total) for e in errors), errors
    assert len(errors) == 2


def test_a_wrong_dwarf_is_caught(cli, data_copy):
    _edit(data_copy, "nains.yaml", "copies: 4\n    combat: 3", "copies: 4\n    combat: 5")
    r = cli("--data", data_copy, "check", "tunhell")
    assert r.code == 1
    errors = _errors(r)
    assert len(errors) == 2, errors
    assert errors[0].endswith("tunhell/nains.yaml: the rulebook has 4 × guerrier combat 3, the data 0")
    assert "card 'guerrier-3' (#3): copies: the rulebook has 0 × guerrier combat 5, the data 4 " \
           "(no such dwarf in the rulebook)" in errors[1]


@pytest.mark.parametrize(("file", "old", "new", "message"), [
    ("nains.yaml", "combat: 2\n", "combat: 2\n    dig: 2\n",
     "card 'guerrier-2' (#2): dig: a guerrier has no dig value (it prints combat)"),
    ("nains.yaml", "dig: 4\n    bonus: 3\n", "dig: 4\n",
     "card 'piocheur-4-3' (#9): bonus: required for a piocheur (it prints dig, bonus)"),
    ("nains.yaml", "explore: 5\n", "explore: 5\n    proud: true\n",
     "card 'eclaireur-5' (#11): proud: only a guerrier can be proud, this card is an eclaireur"),
    ("nains.yaml", "type: dynamiteur\n", "type: dynamite\n",
     "card 'dynamiteur' (#13): type: must be one of 'guerrier', 'piocheur', 'eclaireur' or 'dynamiteur', "
     "got 'dynamite'"),
    ("mine.yaml", "encounter: true\n    combat: 4\n", "encounter: true\n",
     "card 'troll' (#6): combat: required for an encounter (encounter: true)"),
    ("mine.yaml", "name: Trésor\n", "name: Trésor\n    combat: 1\n",
     "card 'tresor' (#2): combat: only encounters have a combat value (set encounter: true)"),
    ("mine.yaml", "plays_as: guerrier\n", "plays_as: guerrier\n    dig: 1\n",
     "card 'dwouarf' (#9): dig: only a card played as a piocheur has a dig value (plays_as: piocheur)"),
    ("mine.yaml", "goes_to: hand\n    plays_as: piocheur", "plays_as: piocheur",
     "card 'machin' (#8): plays_as: a card played as a piocheur must join the hand (goes_to: hand), "
     "got goes_to: loot"),
    ("trophees.yaml", "most: rat\n", "most: Rats\n",
     "card 'deratiseur' (#2): most: must be a kebab-case id"),
])
def test_model_errors_name_the_card_and_field(cli, data_copy, file, old, new, message):
    _edit(data_copy, file, old, new)
    r = cli("--data", data_copy, "check", "tunhell")
    assert r.code == 1
    errors = _errors(r)
    assert any(message in e for e in errors), errors
