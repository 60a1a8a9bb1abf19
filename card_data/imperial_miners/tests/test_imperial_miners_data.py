"""Imperial Miners' card_data: it validates, holds the rulebook's numbers, and check_data
catches a copy that drifts from the rulebook."""

from __future__ import annotations

import shutil

import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game

from conftest import ROOT

GAME = find_game("imperial_miners")
SHIPPED = ROOT / "card_data" / "imperial_miners"


@pytest.fixture(scope="module")
def data():
    return load_game_data(GAME)


def test_check_passes(cli):
    r = cli("check", "imperial_miners")
    assert r.code == 0, r.err
    assert "32  template (Cartes Mine vierges)" in r.out
    # 18 placeholder events + 5 colour names are provisional; 86 entries in all (3 aids).
    assert "provisional: 23 of 86 entries" in r.out
    assert r.err == ""


def test_component_counts(data):
    components = {c.id: c for c in data.sections["components"]}
    mine = components["cartes-mine"]
    assert [(p.level, p.count) for p in mine.parts] == [("I", 36), ("II", 43), ("III", 43), ("IV", 14)]
    assert mine.count == 36 + 43 + 43 + 14 == 136
    coins = components["pieces"]
    assert [(p.count, p.value) for p in coins.parts] == [(42, 1), (18, 5)]
    assert coins.count == 42 + 18 == 60
    vp = components["jetons-pv"]
    assert [(p.count, p.value) for p in vp.parts] == [(27, 1), (21, 5), (15, 10)]
    assert vp.count == 27 + 21 + 15 == 63
    assert {cid: components[cid].count for cid in ("cartes-evenement", "jetons-machine", "jetons-eboulement",
                                                   "jetons-chariot", "marqueurs-progres", "plateaux-surface",
                                                   "plateaux-progres")} == {
        "cartes-evenement": 18, "jetons-machine": 45, "jetons-eboulement": 18, "jetons-chariot": 42,
        "marqueurs-progres": 5, "plateaux-surface": 5, "plateaux-progres": 3}
    assert components["plateaux-progres"].double_sided


def test_factions_and_grades(data):
    assert [f.name for f in data.sections["factions"]] == [
        "Écossais", "Égyptiens", "Atlantes", "Barbares", "Japonais", "Romains"]
    assert all(f.provenance == "rulebook" for f in data.sections["factions"])
    assert [(g.span, g.name) for g in data.sections["grades"]] == [
        ("<35", "Jeune pioche"), ("35–45", "Responsable des sous-sols"), ("46–55", "Spécialiste des mines"),
        ("56–60", "Pro des tunnels"), ("61–65", "Géologue des abîmes"), (">65", "Monarque des profondeurs")]


def test_events_are_flagged_placeholders(data):
    events = data.sections["events"]
    assert [e.id for e in events] == [f"evenement-{n:02d}" for n in range(1, 19)]
    assert all(e.provenance == "provisional" and e.type is None and "à recopier" in e.name for e in events)


def test_template_deck(data):
    cards = data.cards
    assert [(c.level, c.cost, c.back, c.copies) for c in cards] == [
        ("I", 0, "mine-i", 8), ("II", 2, "mine-ii", 8), ("III", None, "mine-iii", 8), ("IV", 0, "mine-iv", 8)]
    assert len(data.printed) == 32
    assert all((c.factions, c.half_carts, c.effects) == (2, "LR", 2) for c in cards)


def _tampered(tmp_path, file: str, old: str, new: str):
    root = tmp_path / "card_data"
    shutil.copytree(SHIPPED, root / "imperial_miners")
    path = root / "imperial_miners" / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


@pytest.mark.parametrize("file, old, new, message", [
    ("components.yaml", "pieces-argent, name: \"pièces d'argent\", count: 42",
     "pieces-argent, name: \"pièces d'argent\", count: 41",
     "components.yaml: component 'pieces': parts: must be (count×value) pieces-argent 42×1, pieces-or 18×5 "
     "as in the rulebook"),
    ("components.yaml", "count: 60", "count: 61",
     "components.yaml: component 'pieces': parts: add up to 60, the count says 61"),
    ("components.yaml", "count: 136", "count: 135",
     "components.yaml: component 'cartes-mine': count: must be 136 (rulebook), got 135"),
    ("events.yaml", "  - {id: evenement-18, number: 18, name: \"Événement 18 (à recopier de la carte)\", "
                    "type: null, provenance: provisional}\n", "",
     "events.yaml: 17 events given, the box holds 18"),
    ("solo_grades.yaml", "min: 46", "min: 47",
     # 35–45 ends at 45, so the next grade must start at 46
     "solo_grades.yaml: grade 'specialiste-des-mines': min: must be 46 (right after the previous grade), got 47"),
    ("templates.yaml", "cost: 2", "cost: 3",
     "templates.yaml:19: card 'vierge-niveau-ii' (#2): cost: level II cards cost 2 (rulebook), got 3; "
     "null leaves the box blank"),
    ("colours.yaml", "  - {id: violet, name: violet, provenance: provisional}\n", "",
     "colours.yaml: one colour per player: 5 players need 5 colours and 5 progress markers, got 4 colours "
     "and 5 markers"),
    ("factions.yaml", "id: romains", "id: gaulois",
     "factions.yaml: the six factions must be ecossais, egyptiens, atlantes, barbares, japonais, romains in "
     "the rulebook's order, got ecossais, egyptiens, atlantes, barbares, japonais, gaulois"),
    ("legend.yaml", "icon: half-cart", "icon: demi-chariot",
     "legend.yaml:25: icon 'chariot-incomplet' (#4): icon: unknown icon 'demi-chariot'"),
])
def test_check_data_catches_drift(cli, tmp_path, file, old, new, message):
    root = _tampered(tmp_path, file, old, new)
    r = cli("--data", root, "check", "imperial_miners")
    assert r.code == 1
    assert message in r.err, r.err
