"""Cristaux card data: what the rulebook counts (98 projects, 59 in classique, 33 in initiation),
every scoring kind present, the modes' schools, and located errors for broken data."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.testing import rules_module

_cristaux_cards = rules_module("cristaux", "cards")
SCORING_KINDS = _cristaux_cards.SCORING_KINDS

DATA = Path(__file__).resolve().parents[3] / "card_data" / "cristaux"


@pytest.fixture(scope="module")
def data():
    return load_game_data(find_game("cristaux"))


@pytest.mark.slow
def test_check_passes(cli):
    r = cli("check", "cristaux")
    assert r.code == 0, r.err
    assert "98  project" in r.out and "15  trouvaille" in r.out and "10  topaze" in r.out


def test_projects_per_mode(data):
    projects = data.cards_of("project")
    per_mode = {m: sum(c.copies for c in projects if m in c.modes)
                for m in ("initiation", "classique", "avance")}
    assert per_mode == {"initiation": 33, "classique": 59, "avance": 98}


def test_every_scoring_kind_has_a_card(data):
    kinds = {c.scoring.kind for c in data.cards_of("project")}
    assert kinds == set(SCORING_KINDS)


def test_initiation_has_no_forge_religion_music_or_multicolour_logo(data):
    for card in data.cards_of("project"):
        if "initiation" in card.modes:
            assert card.category not in ("forge", "religion", "musiciens", "maudits"), card.id
            assert not card.forge_squares and not card.logos.multi, card.id


def test_gifts(data):
    printed = Counter({c.id: c.copies for c in data.cards_of("gift") if c.copies})
    assert printed == {"warhammer-grandes-familles": 5, "harpe-des-profondeurs": 5, "encrier-des-scribes": 5}
    hammer = data.card("warhammer-forges")
    # «un côté la carte porte … 4 carrés de coopération des forges»; «Des 2 côtés … dépenser 2 ors»
    assert hammer.forge_squares == ["any"] * 4 and hammer.gold_bonus.gold == 2
    assert data.card("warhammer-grandes-familles").gold_bonus.gold == 2
    assert data.card(hammer.other_side).other_side == hammer.id


def test_rulebook_numbers_in_the_data(data):
    # Stèle d'Union 2 per card («3 points (plutôt que 2)»), Stèle de gloire 3 per card costing 4+,
    # Concorde 7 per triplet, Tambours count 2, a Cornemuse costs 3+1+1 at the end.
    assert data.card("stele-d-union").scoring.per_card == 2 and data.card("stele-d-union").copies == 2
    gloire = data.card("stele-de-gloire").scoring
    assert (gloire.per_card, gloire.min_cost) == (3, 4)
    assert data.card("concorde-des-elements").scoring.per_set == 7
    tambours = ("tambour-de-guerre", "tambour-des-collines", "tambour-des-abysses")
    assert all(data.card(t).counts_as == 2 for t in tambours)
    corne = data.card("cornemuse-des-braises")
    assert corne.cost.total == 3 and sorted(vars(corne.final_cost).values()) == [0, 1, 1, 3]
    assert all(len(c.scoring.options) == 5 for c in data.cards_of("project") if c.scoring.kind == "baton")
    cursed = [c for c in data.cards_of("project") if c.scoring.kind == "maudit"]
    assert all(c.cost.total == 1 and c.scoring.values[1] == 5 for c in cursed)
    assert sum(c.copies for c in cursed if c.cursed_deck) == 3


def _broken_copy(tmp_path: Path, file: str, old: str, new: str) -> Path:
    root = tmp_path / "data"
    shutil.copytree(DATA, root / "cristaux")
    path = root / "cristaux" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def test_a_mode_set_that_is_not_nested(cli, tmp_path):
    root = _broken_copy(tmp_path, "projets-classique.yaml", "  modes: [classique, avance]",
                        "  modes: [classique]")
    r = cli("--data", root, "check", "cristaux")
    assert r.code == 1
    assert "modes: a card is in every mode from its mode logo up" in r.err


def test_an_avance_card_moved_to_initiation(cli, tmp_path):
    root = _broken_copy(tmp_path, "projets-avance.yaml", "  modes: [avance]",
                        "  modes: [initiation, classique, avance]")
    r = cli("--data", root, "check", "cristaux")
    assert r.code == 1
    # the file's defaults move all 39 avancé cards: 98 played in classique, 72 in initiation
    assert "98 project cards are played in classique, the rulebook says 59" in r.err
    assert "72 project cards are played in initiation, the rulebook says 33" in r.err
    assert "card 'tambour-de-guerre' (#1): modes: a musicien card is not played in initiation" in r.err


def test_a_cadre_must_count_itself(cli, tmp_path):
    root = _broken_copy(tmp_path, "projets-initiation.yaml", "    nature: red\n    cost: {red: 2, blue: 1}",
                        "    nature: blue\n    cost: {red: 2, blue: 1}")
    r = cli("--data", root, "check", "cristaux")
    assert r.code == 1
    assert ("card 'cadre-de-portrait-feu' (#13): a Cadre de portrait counts itself: its nature must be red "
            "(the nature it counts), got blue") in r.err


def test_a_bad_scoring_parameter_is_located(cli, tmp_path):
    root = _broken_copy(tmp_path, "projets-initiation.yaml", "{kind: monument, nature: red, per_card: 2}",
                        "{kind: monument, colour: red, per_card: 2}")
    r = cli("--data", root, "check", "cristaux")
    assert r.code == 1
    lines = (root / "cristaux" / "projets-initiation.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, start=1) if "kind: monument, colour: red" in text)
    assert (f"projets-initiation.yaml:{line}: card 'monument-du-feu' (#27): scoring: unknown field colour for "
            "scoring kind 'monument' (allowed: kind, nature, per_card)") in r.err
