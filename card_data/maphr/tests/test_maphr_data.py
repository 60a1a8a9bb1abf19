"""Maphr's card data: the 250-card deck and its invariants, the other sections, and the
problems ``cardforge check maphr`` reports when the data breaks a rule."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from cardforge.data.loading import load_game_data
from cardforge.games import find_game
from cardforge.resources import shipped_data_root

GAME = find_game("maphr")
DATA = load_game_data(GAME)


def test_check_shows_the_250_cards(cli):
    r = cli("check", "maphr")
    assert r.code == 0, r.err
    assert "deck version 0.2, cards square 70×70 mm" in r.out
    assert "  250 cards" in r.out
    for line in ("60  gallery (Galeries)", "39  vein (Filons)", "100  improvement (Aménagements)",
                 "22  contract (Contrats)", "20  catastrophe (Catastrophes)", "9  impediment (Empêchements)",
                 "10 clans"):
        assert line in r.out
    assert r.out.rstrip().endswith("maphr: OK")
    assert r.err == ""


def test_check_json_counts(cli):
    out = cli("check", "maphr", "--json").json
    assert out["ok"] and out["problems"] == []
    assert out["cards"] == 250
    assert out["sections"].items() >= {"clans": 10, "mine_levels": 4, "draw_modes": 6, "components": 11}.items()


def test_veins_follow_the_rulebook():
    veins = DATA.cards_of("vein")
    by_ore = Counter()
    for v in veins:
        by_ore[v.ore] += v.copies
    assert by_ore["coal"] > by_ore["gold"] > by_ore["mithril"] > 0
    assert all(v.size <= 2 for v in veins if v.ore == "mithril")
    assert {(v.ore, v.size) for v in veins} == {
        ("coal", 1), ("coal", 2), ("coal", 3), ("gold", 1), ("gold", 2), ("gold", 3), ("mithril", 1), ("mithril", 2)}
    # yields from the rulebook: coal 1/2/3, gold 2/4/6, mithril 5/10
    yields = {(v.ore, v.size): v.yield_coins for v in veins}
    assert yields == {("coal", 1): 1, ("coal", 2): 2, ("coal", 3): 3, ("gold", 1): 2, ("gold", 2): 4,
                      ("gold", 3): 6, ("mithril", 1): 5, ("mithril", 2): 10}


def test_galleries_come_in_every_shape():
    assert {g.shape for g in DATA.cards_of("gallery")} == {"straight", "corner", "tee", "cross", "dead-end"}


def test_improvements_cover_every_colour_and_level_with_unique_names():
    improvements = DATA.cards_of("improvement")
    assert {(i.colour, i.level) for i in improvements} == {
        (c, lv) for c in ("blue", "green", "yellow", "red", "grey") for lv in (1, 2, 3, 4)}
    assert len({i.name for i in improvements}) == len(improvements)
    assert all(i.effect or i.action for i in improvements)
    assert any(i.action for i in improvements)


def test_rulebook_named_cards():
    etayage = DATA.card("etayage")
    bureau = DATA.card("bureau-ordination-logique-tunnels")
    assert (etayage.name, etayage.colour, etayage.provenance) == ("Étayage", "red", "rulebook")
    assert etayage.level <= 2  # it opens level III
    assert (bureau.name, bureau.colour, bureau.provenance) == (
        "Bureau de l'ordination logique des tunnels", "grey", "rulebook")
    assert bureau.level <= 3  # it opens level IV
    assert DATA.card("autel-de-maphr").provenance == "rulebook"
    contracts = {c.id: c for c in DATA.cards_of("contract")}
    assert contracts["extension-de-couloirs"].provenance == "rulebook"
    assert {c.caravan for c in contracts.values()} >= {"drow", "orc"}
    assert contracts["caravane-drow"].provenance == contracts["caravane-orc"].provenance == "rulebook"


def test_one_impediment_per_action():
    assert sorted(i.action for i in DATA.cards_of("impediment")) == ["build", "exploit", "prospect"]


def test_clans_and_tables():
    clans = DATA.sections["clans"]
    assert len(clans) == 10
    assert [c.id for c in clans if c.grey] == ["grisonniers-de-dulgard"]
    irongradd = next(c for c in clans if c.id == "irongradd")
    assert (irongradd.city, irongradd.provenance) == ("Kadal-Zunghtorn", "rulebook")
    assert all(c.power_provenance == "provisional" for c in clans)
    levels = DATA.sections["mine_levels"]
    assert [(m.roman, m.capacity, m.max_miners, m.second_action_discard, m.draw_six_cards) for m in levels] == [
        ("I", 3, 2, 3, 4), ("II", 6, 3, 2, 3), ("III", 9, 4, 1, 2), ("IV", 12, 5, 0, 1)]
    assert [[o.cost for o in m.options] for m in levels] == [[], [4], [10, 30], [15, 45]]
    assert [m.face for m in DATA.sections["draw_modes"]] == [1, 2, 3, 4, 5, 6]
    coins = {c.value: c.count for c in DATA.sections["components"] if c.value}
    assert coins == {1: 20, 5: 16, 10: 16, 50: 8}


# --- broken copies of the data -------------------------------------------------------------------

@pytest.fixture
def broken(tmp_path):
    """broken(file, old, new, ...) → a data folder whose maphr copy has those replacements."""
    root = tmp_path / "card_data"
    shutil.copytree(shipped_data_root() / "maphr", root / "maphr")

    def _edit(*edits: tuple[str, str, str]) -> Path:
        for name, old, new in edits:
            path = root / "maphr" / name
            text = path.read_text(encoding="utf-8")
            assert old in text, f"{old!r} not in {name}"
            path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return root

    return _edit


def _errors(cli, root: Path) -> list[str]:
    """The error lines of ``cardforge check maphr`` on ``root``, paths shown from card_data/."""
    r = cli("--data", root, "check", "maphr")
    assert r.code == 1
    return [line.removeprefix("error: ").replace(f"{root.parent}/", "")
            for line in r.err.splitlines() if line.startswith("error: ")]


def test_mithril_triple_is_located(cli, broken):
    root = broken(("veins.yaml", "ore: mithril, size: 2, shape: corner", "ore: mithril, size: 3, shape: corner"))
    assert _errors(cli, root) == [
        "card_data/maphr/veins.yaml:21: card 'mithril-double-virage' (#13): size: a mithril vein is simple "
        "or double (size 1–2), got 3"]


def test_deck_invariants_are_all_reported(cli, broken):
    root = broken(
        # 4 more gold veins than before (12 → 16) and 10 fewer coal (21 → 11): gold outnumbers coal
        ("veins.yaml", "size: 1, shape: straight, copies: 10", "size: 1, shape: straight, copies: 0"),
        ("veins.yaml", "size: 1, shape: dead-end, copies: 3", "size: 1, shape: dead-end, copies: 7"),
        # the exploit impediment becomes a second prospect one
        ("impediments.yaml", "action: exploit", "action: prospect"),
        # Étayage moves to level III; the Salle des plans (grey III) takes a used name
        ("improvements.yaml", "colour: red\n    level: 1\n    cost: 5", "colour: red\n    level: 3\n    cost: 5"),
        ("improvements.yaml", "name: Salle des plans", "name: Treuil de chantier"),
        # a second grey clan
        ("clans.yaml", "name: Runegarde\n", "name: Runegarde\n    grey: true\n"),
    )
    r = cli("--data", root, "check", "maphr")
    # the card total is a warning (a designer may try a card out), the rest are errors
    assert ("warning: card_data/maphr/deck.yaml: the deck has 244 cards (gallery 60, vein 33, improvement 100, "
            "contract 22, catastrophe 20, impediment 9); the rulebook's deck has 250 (change some copies)"
            ) in r.err.replace(f"{root.parent}/", "")
    errors = _errors(cli, root)
    expected = [
        "card_data/maphr/veins.yaml: vein cards: coal 11, gold 16, mithril 6; the rulebook wants more coal than "
        "gold and more gold than mithril (and some mithril)",
        "card_data/maphr/impediments.yaml:10: card 'lendemain-de-fete' (#2): action: a second impediment for the prospect action (the first is "
        "'roche-dure'); the rulebook has one impediment per action type (print more copies of one card)",
        "card_data/maphr/deck.yaml: no impediment for the exploit action; the rulebook has one per action type "
        "(prospect, exploit, build)",
        "card_data/maphr/improvements.yaml:26: card 'etayage' (#1): level: Étayage opens mine level III, so it must be buildable before it: level II "
        "at most, got III",
        "card_data/maphr/improvements.yaml:126: card 'salle-des-plans' (#13): name: the name 'Treuil de chantier' is already card 'treuil-de-chantier' "
        "(card_data/maphr/improvements.yaml, #12); one card per name, print more copies of it",
        "card_data/maphr/clans.yaml: exactly one clan must be a grey-dwarf clan (grey: true) in the base game, "
        "got 2 (grisonniers-de-dulgard, runegarde)",
    ]
    assert sorted(errors) == sorted(expected)


def test_missing_colour_level_and_key_improvement(cli, broken):
    root = broken(("improvements.yaml", "name: Bureau de l'ordination logique des tunnels",
                   "name: Bureau des tunnels"),
                  ("improvements.yaml", "colour: green\n    level: 4\n    cost: 26",
                   "colour: green\n    level: 3\n    cost: 26"),
                  ("improvements.yaml", "colour: green\n    level: 4\n    cost: 22",
                   "colour: green\n    level: 3\n    cost: 22"))
    errors = _errors(cli, root)
    assert ("card_data/maphr/deck.yaml: no printed improvement for green IV; each of the 5 colours needs "
            "improvements at every mine level I–IV") in errors
    assert ("card_data/maphr/deck.yaml: no improvement named 'Bureau de l'ordination logique des tunnels': "
            "the mine-level rule needs it (grey, level III at most)") in errors


def test_an_improvement_prints_an_effect_or_an_action(cli, broken):
    root = broken(("improvements.yaml", '    effect: "Vendre une carte en phase III vous rapporte 1 :coin: de plus."\n',
                   ""))
    assert _errors(cli, root) == [
        "card_data/maphr/improvements.yaml:227: card 'comptoir' (#25): action: an improvement prints an "
        "effect, an action or both; give effect: or action:"]


def test_every_text_is_card_markup():
    """The deck renderer prints straight from the data: every French text parses as markup
    (with the game's own icons, ``card_data/maphr/icons/``)."""
    from cardforge.assets import icon_names
    from cardforge.markup import parse

    texts = [getattr(e, name) for e in DATA.entries()
             for name in ("name", "text", "effect", "action", "power", "city")
             if isinstance(getattr(e, name, None), str)]
    texts += [o.condition for m in DATA.sections["mine_levels"] for o in m.options]
    assert len(texts) > len(DATA.cards)  # every card name and text, every section text
    icons = icon_names(GAME.folder)
    assert {"coal", "impediment"} <= icons
    for text in texts:
        assert parse(text, icons), text
