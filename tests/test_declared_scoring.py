"""Scoring rules as data (game.yaml's ``score:``) and the score-sheet declarations every game
makes (cardforge/sheet.py): the vocabulary worked by hand, located errors, the shipped games'
declared categories, and no game named in the web layer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from cardforge.testing import rules_module

from conftest import FIXTURES, ROOT
from sheet_support import EXPECTED, treasure_game

# --- the "done when" game: `cardforge new`, cards with points, three declared categories ---------


def test_a_new_game_scores_the_cards_players_hold(cli, tmp_path):
    folder = treasure_game(tmp_path / "tresors")
    r = cli("score", str(folder), str(folder / "examples" / "final.yaml"), "--json")
    assert r.code == 0, r.err
    out = r.json
    assert out["categories"] == ["points", "couleurs", "dragons"]
    for player in out["players"]:
        want = EXPECTED[player["name"]]
        assert player["breakdown"] == {k: want[k] for k in ("points", "couleurs", "dragons")}
        assert (player["total"], player["rank"]) == (want["total"], want["rank"])
    assert out["winners"] == ["Cleo"]
    text = cli("score", str(folder), str(folder / "examples" / "final.yaml"))
    # how it was counted: the declared rules explain themselves
    assert "Points (sum of points): Alice 3+2+4+5 = 14; Ben 3+1+5+2 = 11; Cleo 2+4+1+5+2 = 14" in text.out
    assert "Colours (sets of couleur): Alice sets of 3, 1 → 7; Ben sets of 3, 1 → 7; Cleo sets of 4, 1 → 11" in text.out
    assert ("Most dragons (most count of kind=dragon, ties share): Alice 1 card → 0; Ben 2 cards → 6; "
            "Cleo 2 cards → 6") in text.out
    # the score pad prints the same rows (one declaration of the categories)
    from cardforge.games import find_game
    from cardforge.render.sheets.score_pads import row_labels

    assert row_labels(find_game(folder)) == ["Points", "Couleurs", "Le plus de dragons"]


def test_a_final_state_naming_cards_badly_is_refused_with_located_problems(cli, tmp_path):
    folder = treasure_game(tmp_path / "tresors")
    bad = tmp_path / "bad.yaml"
    bad.write_text("players:\n"
                   "  - {name: Alice, cartes: [rubis, emeraud, dragon-rouge]}\n"
                   "  - {name: Ben, cartes: [rubis, rubis, dragon-rouge]}\n", encoding="utf-8")
    r = cli("score", str(folder), str(bad))
    assert r.code == 1 and "Traceback" not in r.err
    assert f"{bad}:2: player 'Alice' (#1): cartes[1]: unknown card 'emeraud'; did you mean 'emeraude'?" in r.err
    assert f"{bad}:1: players: 'rubis' held 3 times (Alice, Ben 2), the deck has 2" in r.err


# --- the vocabulary, one rule at a time ---------------------------------------------------------

DECK = """deck:
  version: "1"
  card_size: poker
  card_files: [cards.yaml]
  kinds:
    carte:
      label: Carte
      fields:
        points: {type: int}
        couleur: {type: choice, choices: [rouge, vert, bleu]}
        symboles: {type: list}
"""

CARDS = """defaults: {kind: carte}
cards:
  - {id: a, name: A, points: 1, couleur: rouge, symboles: [epee], copies: 9}
  - {id: b, name: B, points: 2, couleur: vert, symboles: [epee, bouclier], copies: 9}
  - {id: c, name: C, points: 3, couleur: bleu, copies: 9}
"""


def _game(tmp_path: Path, categories: str, holdings: str = "  main: {widget: cards}\n  or: {widget: number}\n"):
    folder = tmp_path / "vocab"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(f"title: Vocabulaire\nplayers: 1-5\nholdings:\n{holdings}categories:\n"
                                      f"{categories}{DECK}", encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    return folder


def _score(cli, tmp_path, categories: str, players: list[dict]) -> dict[str, dict]:
    folder = _game(tmp_path, categories)
    path = tmp_path / "final.yaml"
    path.write_text(yaml.safe_dump({"players": players}), encoding="utf-8")
    r = cli("score", str(folder), str(path), "--json")
    assert r.code == 0, r.err
    return {p["name"]: p["breakdown"] for p in r.json["players"]}


def _four(a: list[str], b: list[str], c: list[str], d: list[str]) -> list[dict]:
    return [{"name": n, "main": h} for n, h in zip("ABCD", (a, b, c, d))]


@pytest.mark.parametrize(("ties", "expected"), [
    # amounts A 3, B 3, C 1, D 0; points [6, 3] for the 1st and 2nd places
    ("share", {"A": 6, "B": 6, "C": 0, "D": 0}),  # two first places: nobody is second
    ("all", {"A": 6, "B": 6, "C": 3, "D": 0}),  # both first, C still second
    ("split", {"A": 4, "B": 4, "C": 0, "D": 0}),  # (6 + 3) // 2 each
    ("none", {"A": 0, "B": 0, "C": 0, "D": 0}),  # tied: neither scores, and the places are used up
])
def test_majorities_and_their_ties(cli, tmp_path, ties, expected):
    cat = f"  - {{id: m, label: M, score: {{most: {{count: {{couleur: rouge}}}}, points: [6, 3], ties: {ties}}}}}\n"
    got = _score(cli, tmp_path, cat, _four(["a", "a", "a"], ["a", "a", "a", "b"], ["a"], ["b"]))
    assert {n: b["m"] for n, b in got.items()} == expected


def test_fewest_counts_players_with_none_and_a_majority_needs_at_least_one(cli, tmp_path):
    cats = ("  - {id: peu, label: Peu, score: {least: {count: {}}, points: -4, ties: all}}\n"
            "  - {id: bleu, label: Bleu, score: {most: {count: {couleur: bleu}}, points: 5}}\n")
    got = _score(cli, tmp_path, cats, _four(["a", "b"], [], ["a"], []))
    # fewest cards: B and D hold none (tied, all): −4 each; nobody holds a blue card: no majority
    assert got == {"A": {"peu": 0, "bleu": 0}, "B": {"peu": -4, "bleu": 0}, "C": {"peu": 0, "bleu": 0},
                   "D": {"peu": -4, "bleu": 0}}


def test_sums_counts_values_per_and_bounds(cli, tmp_path):
    cats = ("  - {id: somme, label: S, score: {sum: points, where: {couleur: [rouge, vert]}}}\n"
            "  - {id: epees, label: E, score: {count: {symboles: epee}, points: 2}}\n"
            "  - {id: tresor, label: O, score: {value: or, per: 3, points: 2, at_most: 4}}\n"
            "  - {id: paquets, label: P, score: {count: {}, per: 2, at_least: 1}}\n")
    got = _score(cli, tmp_path, cats, [{"name": "A", "main": ["a", "b", "b", "c"], "or": 7},
                                       {"name": "B", "main": ["c"], "or": 20}])
    # A: red/green points 1+2+2 = 5; 3 cards with a sword → 6; 7 gold → 2 per 3 = 4 (≤ 4); 4 cards → 2 pairs
    # B: no red/green → 0; no sword → 0; 20 gold → 6×2 = 12, at most 4; 1 card → 0 pairs, at least 1
    assert got == {"A": {"somme": 5, "epees": 6, "tresor": 4, "paquets": 2},
                   "B": {"somme": 0, "epees": 0, "tresor": 4, "paquets": 1}}


def test_sets_groups_min_and_max(cli, tmp_path):
    cats = ("  - {id: sets, label: S, score: {sets: couleur, table: {1: 1, 2: 4, 3: 9}}}\n"
            "  - {id: groupes, label: G, score: {groups: couleur, table: {2: 5, 3: 8}}}\n"
            "  - {id: series, label: R, score: {min: [{count: {couleur: rouge}}, {count: {couleur: vert}}], points: 7}}\n"
            "  - {id: meilleur, label: M, score: {max: [{count: {couleur: bleu}}, {sum: points, per: 4}]}}\n")
    got = _score(cli, tmp_path, cats, [{"name": "A", "main": ["a", "a", "a", "b", "b", "c", "c", "c", "c"]}])
    # red 3, green 2, blue 4: the 1st and 2nd sets take all three colours, the 3rd red and blue, the
    # 4th blue: sets of 3, 3, 2, 1 → 9+9+4+1 = 23; groups: red 3 → 8, green 2 → 5,
    # blue 4 → 8 (above the table: its largest) = 21; series min(3, 2) × 7 = 14;
    # best of blue 4 and points (3 + 4 + 12 = 19) // 4 = 4 → 4
    assert got == {"A": {"sets": 23, "groupes": 21, "series": 14, "meilleur": 4}}


def test_a_tie_breaker_may_compare_a_holding(cli, tmp_path):
    folder = _game(tmp_path, "  - {id: somme, label: S, score: {sum: points}}\n")
    spec = folder / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace(
        "deck:", "tie_breakers:\n  - {id: or, label: \"Égalité : le plus d'or\", label_en: more gold}\ndeck:"),
        encoding="utf-8")
    path = tmp_path / "final.yaml"
    path.write_text("players:\n  - {name: A, main: [c], or: 1}\n  - {name: B, main: [a, b], or: 5}\n",
                    encoding="utf-8")
    r = cli("score", str(folder), str(path), "--json")
    assert r.code == 0, r.err
    assert r.json["winners"] == ["B"] and r.json["tie_break"] == "tie on 3 broken by more gold"


# --- located errors in game.yaml ---------------------------------------------------------------

@pytest.mark.parametrize(("category", "message"), [
    # what the data lacks, found by `cardforge check`
    ("{id: s, label: S, score: {sum: pionts}}",
     "game.yaml:7: categories[0].score.sum: no card held here has a field 'pionts' (fields: id, kind, name, "
     "points, couleur, symboles); did you mean 'points'?"),
    ("{id: s, label: S, score: {count: {couleur: rouj}}}",
     "game.yaml:7: categories[0].score.count.couleur: no card held here has couleur 'rouj' (values: bleu, "
     "rouge, vert); did you mean 'rouge'?"),
    ("{id: s, label: S, score: {sum: points, of: mian}}",
     "game.yaml:7: categories[0].score.of: 'mian' is not a card field of the final state (card fields: main); "
     "did you mean 'main'?"),
    ("{id: s, label: S, score: {value: ore}}",
     "game.yaml:7: categories[0].score.value: 'ore' is not a field of the player (fields: name, main, or); "
     "did you mean 'or'?"),
    ("{id: s, label: S, score: {sum: couleur}}",
     "game.yaml:7: categories[0].score.sum: 'couleur' is not a whole number on every card (card 'a': 'rouge')"),
    # and a malformed rule, refused when game.yaml is read
    ("{id: s, label: S, score: {sets: couleur}}",
     "game.yaml:7: categories[0].score: sets: needs table: {size: points, …} (e.g. {1: 1, 2: 3, 3: 6})"),
    ("{id: s, label: S, score: {sum: points, count: {}}}",
     "game.yaml:7: categories[0].score: one measure per rule, got sum and count (min: or max: combine rules)"),
    ("{id: s, label: S, score: {most: {sum: points}}}",
     "game.yaml:7: categories[0].score: most: needs points: (one number, or a list by place: [6, 3])"),
    ("{id: s, label: S, score: {sum: points, ties: split}}",
     "game.yaml:7: categories[0].score: ties: is for most and least, not sum"),
    ("{id: s, label: S, score: {sum: points, pionts: 3}}",
     "game.yaml:7: categories[0].score.pionts: unknown field (allowed: sum, count, value, sets, groups, most, least, "
     "min, max, of, where, per, points, table, ties, at_least, at_most); did you mean 'points'?"),
    ("{id: s, label: S, optional: true, score: {sum: points}}",
     "game.yaml:7: categories[0]: optional: is for a value given on the pad; this category is computed (score:)"),
])
def test_a_rule_is_checked_and_its_problems_located(cli, tmp_path, category, message):
    folder = _game(tmp_path, f"  - {category}\n")
    r = cli("check", str(folder))
    assert r.code == 1
    assert message in r.err.replace(str(folder) + "/", ""), r.err


def test_holdings_are_checked_like_any_game_yaml_field(cli, tmp_path):
    folder = _game(tmp_path, "  - {id: s, label: S, score: {sum: points}}\n",
                   holdings="  main: {widget: cards}\n  or: {widget: numbr}\n")
    r = cli("check", str(folder))
    assert r.code == 1
    assert ("game.yaml:5: holdings.or: widget: must be one of 'cards', 'counts', 'number', got 'numbr'"
            in r.err.replace(str(folder) + "/", "")), r.err
    folder = _game(tmp_path, "  - {id: s, label: S, score: {sum: points}}\n",
                   holdings="  main: {widget: cards}\n  s: {widget: number}\n")
    r = cli("check", str(folder))
    assert "'s' is both a holding and a category: a category is given or computed" in r.err
    folder = _game(tmp_path, "  - {id: s, label: S, score: {sum: points}}\n",
                   holdings="  main: {widget: cards, kinds: [cartes]}\n")
    r = cli("check", str(folder))
    assert ("game.yaml:4: holdings.main: kinds: unknown card kind 'cartes' (kinds: carte); did you mean 'carte'?"
            in r.err.replace(str(folder) + "/", "")), r.err


# --- bounded by what a game can mean (issue 38): rule size, scoring work, explanations -----------

#: the issue's bomb: each rule the max of 14 copies of the one before, through aliases — 38,416 sums
#: in b4, under 1 KB of categories. Nodes (mappings, lists and values; keys not counted), by hand:
#: b0 {sum: points} 2; b1 a mapping, a list and 14 × 2: 30; b2 2 + 14 × 30 = 422; b3 2 + 14 × 422 =
#: 5,910; b4 2 + 14 × 5,910 = 82,742
ALIAS_BOMB = "".join(
    ["  - {id: b0, label: B0, score: &r0 {sum: points}}\n"]
    + [f"  - {{id: b{d}, label: B{d}, score: &r{d} {{max: [{', '.join([f'*r{d - 1}'] * 14)}]}}}}\n"
       for d in range(1, 5)])


def test_a_rule_nested_through_aliases_is_refused_when_game_yaml_is_read(cli, tmp_path):
    folder = _game(tmp_path, ALIAS_BOMB)
    assert len((folder / "game.yaml").read_bytes()) < 2_000  # the issue's was 3 KB
    r = cli("check", str(folder))
    assert r.code == 1 and "Traceback" not in r.err
    err = r.err.replace(str(folder) + "/", "")
    assert "game.yaml is not a valid game (2 problems)" in err
    assert ("game.yaml:10: categories[3].score: category 'b3': rule has 5,910 nodes after expanding aliases, "
            "at most 1,000 allowed (set CARDFORGE_LIMIT_RULE_NODES to allow more)") in err
    assert ("game.yaml:11: categories[4].score: category 'b4': rule has 82,742 nodes after expanding aliases, "
            "at most 1,000 allowed (set CARDFORGE_LIMIT_RULE_NODES to allow more)") in err
    assert "'b2'" not in err  # 422 nodes: allowed
    r = cli("setup", str(folder), "--players", "2")  # every command reads game.yaml first
    assert r.code == 1 and "category 'b4': rule has 82,742 nodes" in r.err


def test_past_the_node_limit_the_scoring_work_is_bounded_before_any_rule_runs(cli, tmp_path, monkeypatch):
    """Raised node limit: the final state's work is refused before evaluation. Card looks, by hand,
    for 5 cards held (A a, b, c; B a, a) by 2 players: b0 5; each max adds a step per player:
    b1 2 + 14 × 5 = 72; b2 2 + 14 × 72 = 1,010; b3 2 + 14 × 1,010 = 14,142; b4 2 + 14 × 14,142 =
    197,990; in all 213,219."""
    monkeypatch.setenv("CARDFORGE_LIMIT_RULE_NODES", "100000")
    folder = _game(tmp_path, ALIAS_BOMB)
    path = tmp_path / "final.yaml"
    path.write_text(yaml.safe_dump({"players": [{"name": "A", "main": ["a", "b", "c"]},
                                                {"name": "B", "main": ["a", "a"]}]}), encoding="utf-8")
    r = cli("score", str(folder), str(path))
    assert r.code == 1 and "Traceback" not in r.err
    assert r.err.splitlines()[1:] == [
        f"  - {path}:1: players: scoring takes 213,219 card looks (the rules of game.yaml's computed categories × "
        "the 5 cards held; category 'b4' 197,990), at most 200,000 (set CARDFORGE_LIMIT_SCORE_WORK to allow more)"]
    from cardforge.data.loading import load_game_data
    from cardforge.games import declared, find_game

    game = find_game(folder)
    state = game.score_model.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    held = declared.holdings(game, load_game_data(game), state)
    assert [declared.rule_work(c.score, held) for c in game.spec.categories] == [5, 72, 1_010, 14_142, 197_990]


#: a rule within the limit: the max of 20 rules, each the max of 20 sums — 2 + 20 × (2 + 20 × 2) = 842
#: nodes, 400 sums
WIDE = "{max: [" + ", ".join(["{max: [" + ", ".join(["{sum: points}"] * 20) + "]}"] * 20) + "]}"


def test_a_long_rule_is_explained_in_a_few_words(cli, tmp_path):
    from cardforge.data.gamespec import expanded_size

    assert expanded_size(yaml.safe_load(WIDE)) == 842
    folder = _game(tmp_path, f"  - {{id: large, label: Large, score: {WIDE}}}\n")
    path = tmp_path / "final.yaml"
    path.write_text(yaml.safe_dump({"players": [{"name": "A", "main": ["a", "b", "c"]},
                                                {"name": "B", "main": ["a", "a"]}]}), encoding="utf-8")
    r = cli("score", str(folder), str(path))
    assert r.code == 0, r.err
    # 200 characters at most: "max of max of " (14) and 12 sums (12 × 13 + 11 × 2 = 178) make 192,
    # a 13th would make 207; 400 − 12 = 388 sums unsaid. A: 1 + 2 + 3 = 6; B: 1 + 1 = 2
    line = "Large (max of max of " + ", ".join(["sum of points"] * 12) + " … (388 more terms)): A 6; B 2"
    assert line in r.out.splitlines()
    assert len(r.out) < 1_000


def test_describe_cuts_a_single_long_part_and_lists_a_few_groups():
    from collections import Counter

    from cardforge.data.gamespec import ScoreRule
    from cardforge.games.declared import Held, _explain, describe, set_runs

    rule = ScoreRule.model_validate({"count": {"couleur": [f"c{i}" for i in range(100)]}})
    text = describe(rule)
    assert text.startswith("count of couleur=['c0', 'c1', ") and text.endswith("…") and len(text) == 201
    # sets by runs of equal counts, largest first: a 3 times, b and c once → a set of 3, two sets of 1
    assert set_runs(Counter({"a": 3, "b": 1, "c": 1})) == [(3, 1), (1, 2)]
    assert set_runs(Counter({"a": 10 ** 9})) == [(1, 10 ** 9)]  # one entry, not a billion
    cards = [({"id": f"k{i}", "name": "K", "couleur": f"c{i}"}, 1) for i in range(30)]
    held = Held("A", {"main": cards}, None)
    groups = ScoreRule.model_validate({"groups": "couleur", "table": {1: 1}})
    assert _explain(groups, held) == ", ".join(f"c{i} 1" for i in range(12)) + ", … (18 more)"
    sets = ScoreRule.model_validate({"sets": "couleur", "table": {1: 1}})
    many = Held("A", {"main": [({"id": "k", "name": "K", "couleur": "c"}, 10 ** 9)]}, None)
    assert _explain(sets, many) == "sets of " + ", ".join(["1"] * 12) + ", … (999,999,988 more)"


def test_rule_size_counts_each_alias_as_often_as_it_is_used():
    from cardforge.data.gamespec import expanded_size

    assert expanded_size({"sum": "points"}) == 2
    assert expanded_size({"a": [1, 2, {"b": 3}], "c": {}}) == 7  # {…}, [1, 2, {b}]: 1 + 2 + 2, {}: 1
    shared: dict = {"sum": "points"}
    for _ in range(60):  # 2^60 leaves once expanded: counted from the 61 distinct mappings
        shared = {"max": [shared, shared]}
    assert expanded_size(shared) == 2 ** 62 - 2  # 2^60 sums of 2, 2^60 − 1 maxes of a mapping and a list
    assert expanded_size("text") == 1


def test_the_shipped_rules_are_far_under_the_node_limit():
    from cardforge.data.gamespec import expanded_size
    from cardforge.data.yamlio import read_yaml
    from cardforge.limits import limit
    from cardforge.resources import shipped_data_root

    sizes = {}
    for path in sorted(shipped_data_root().glob("*/game.yaml")):
        for c in read_yaml(path).data["categories"]:
            if c.get("score") is not None:
                sizes[f"{path.parent.name}.{c['id']}"] = expanded_size(c["score"])
    # maphr's colour squares, the largest: {groups: colour, of: improvements, table: {1: 1, 2: 4, 3: 9, 4: 16}}
    # is a mapping, 2 values, a table and its 4 values: 8
    # imperial miners' VP tokens, {value: vp}: a mapping and its value, 2
    assert sizes == {"imperial_miners.vp_tokens": 2, "maphr.coins": 3, "maphr.improvement_vp": 3,
                     "maphr.colour_squares": 8, "maphr.colour_series": 5, "tunhell.loot": 3, "tunhell.rings": 3}
    assert max(sizes.values()) * 100 < limit("rule_nodes")


def test_game_yaml_has_a_json_schema_with_the_declarations():
    from cardforge.data.gamespec import GameSpec

    schema = GameSpec.model_json_schema()
    rule = schema["$defs"]["ScoreRule"]
    assert rule["additionalProperties"] is False
    assert {"sum", "count", "value", "sets", "groups", "most", "least", "min", "max", "ties", "table"} <= set(
        rule["properties"])
    holding = schema["properties"]["holdings"]["additionalProperties"]
    assert {m["$ref"].rsplit("/", 1)[1] for m in holding["oneOf"]} == {"Cards", "Counts", "Number"}
    assert schema["$defs"]["Cards"]["additionalProperties"] is False


# --- shipped games: categories declared in data, Python for the rest ---------------------------

def test_shipped_games_declare_in_data_what_data_can_say():
    from cardforge.games import find_game

    declared = {g: [c.id for c in find_game(g).spec.categories if c.score is not None] for g in ("maphr", "tunhell")}
    assert declared == {"maphr": ["coins", "improvement_vp", "colour_squares", "colour_series"],
                        "tunhell": ["loot", "rings"]}


def test_maphr_reports_the_numbers_its_game_yaml_scores_with():
    """The colour rows are game.yaml's; the report's words use the same cap and bonus."""
    from cardforge.games import find_game
    _maphr_rules = rules_module("maphr", "rules")
    COLOUR_SQUARE_CAP = _maphr_rules.COLOUR_SQUARE_CAP
    SERIES_BONUS = _maphr_rules.SERIES_BONUS

    rules = {c.id: c.score for c in find_game("maphr").spec.categories}
    assert max(rules["colour_squares"].table.values()) == COLOUR_SQUARE_CAP
    assert rules["colour_squares"].table == {k: min(k * k, COLOUR_SQUARE_CAP) for k in range(1, 5)}
    assert rules["colour_series"].table == {5: SERIES_BONUS}


def test_a_score_hook_scoring_a_declared_category_is_a_bug_said_plainly(tmp_path):
    from cardforge.data.loading import load_game_data
    from cardforge.engine.scoring import score_state
    from cardforge.games import find_game
    from cardforge.games.declared import DeclaredScoringError
    from cardforge.scores import PlayerResult, ScoreResult

    game = find_game("tunhell")
    data = load_game_data(game)
    state = game.score_model.model_validate(yaml.safe_load(
        (ROOT / "card_data" / "tunhell" / "examples" / "final.yaml").read_text(encoding="utf-8")))

    class Rules:
        def __getattr__(self, name):
            return getattr(game.rules, name)

        @staticmethod
        def score(data, state):
            return ScoreResult([PlayerResult(p.name, {"loot": 1, "trophies": 0, "back_door": 0})
                                for p in state.players])

    from cardforge.games.base import Game

    broken = Game(game.spec, game.folder, Rules(), game_id=game.id)
    with pytest.raises(DeclaredScoringError, match="score loot, which game.yaml computes"):
        score_state(broken, data, state)


# --- score-sheet declarations -------------------------------------------------------------------

def test_the_fixture_game_gets_its_relic_picker_by_declaration_only():
    """chasse_aux_reliques declares `relics` a list of relic cards on its Python model; the sheet
    offers a picker of its 9 relics (before the declaration: no sheet, only the YAML box)."""
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game
    from cardforge.web.forms import build_sheet

    game = find_game(FIXTURES / "games" / "chasse_aux_reliques")
    sheet = build_sheet(game, load_game_data(game))
    assert sheet is not None
    relics = next(w for w in sheet.player_fields if w.name == "relics")
    assert relics.kind == "cards" and relics.options["kinds"] == ["relic"]
    assert [c["name"] for c in sheet.cards["relics"]][:3] == ["Couronne", "Sceptre", "Anneau"]
    assert len(sheet.cards["relics"]) == 9
    text = (FIXTURES / "games" / "chasse_aux_reliques" / "rules" / "scoring.py").read_text(encoding="utf-8")
    assert 'json_schema_extra=sheet.cards("relic")' in text


def test_a_declaration_naming_what_the_data_lacks_is_located(tmp_path):
    import shutil

    from cardforge.data.loading import check_game_data
    from cardforge.games import find_game

    folder = tmp_path / "reliques"
    shutil.copytree(FIXTURES / "games" / "chasse_aux_reliques", folder)
    scoring = folder / "rules" / "scoring.py"
    scoring.write_text(scoring.read_text(encoding="utf-8").replace('sheet.cards("relic")', 'sheet.cards("relik")'),
                       encoding="utf-8")
    spec = folder / "game.yaml"  # its own id: its rules package is imported under its own name
    spec.write_text("id: reliques_mal_declarees\n" + spec.read_text(encoding="utf-8"), encoding="utf-8")
    game = find_game(folder)
    _, problems = check_game_data(game)
    assert [(p.item, p.field, p.message) for p in problems] == [
        ("final-state model FinalState", "players.relics",
         "kinds: unknown card kind 'relik' (kinds: relic); did you mean 'relic'?")]
    assert problems[0].file.endswith("rules/scoring.py")


def test_a_declaration_on_a_field_of_the_wrong_shape_is_refused():
    """A rules module that declares a counter on a list, or names a field its model lacks."""
    from types import SimpleNamespace

    from pydantic import Field

    from cardforge import sheet
    from cardforge.data.loading import load_game_data
    from cardforge.data.models import Model
    from cardforge.games import find_game
    from cardforge.games.base import Game
    from cardforge.games.declared import check

    class Player(Model):
        name: str
        relics: list[str] = Field(default_factory=list, json_schema_extra=sheet.counts("relic"))
        grid: list[list[dict[str, int] | None]] = Field(default_factory=list, json_schema_extra=sheet.grid(
            2, 3, junctions="tokens"))
        extra: str | None = Field(None, json_schema_extra={"sheet": {"widget": "cards", "kinds": "relic"}})

    class FinalState(Model):
        players: list[Player]

    base = find_game(FIXTURES / "games" / "chasse_aux_reliques")
    game = Game(base.spec, base.folder, SimpleNamespace(score_model=FinalState), game_id=base.id)
    found = [(p.field, p.message) for p in check(game, load_game_data(base))]
    assert found == [
        ("players.relics", "a counts widget needs a dict field, this one is list[str]"),
        ("players.grid", "junctions: 'tokens' is not a field of Player"),
        ("players.extra", "sheet declaration: cards.kinds: must be a list, got 'relic'"),
    ]


def test_every_shipped_sheet_is_declared_and_checked():
    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game
    from cardforge.games.declared import check
    from cardforge.web.forms import build_sheet

    for game_id in ("maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners"):
        game = find_game(game_id)
        data = load_game_data(game)
        assert check(game, data) == []
        assert build_sheet(game, data) is not None, game_id


@pytest.mark.slow  # a fresh process (or five games' data) a run: ~2 s alone
def test_the_web_layer_names_no_shipped_game_nor_its_fields():
    """Every widget is declared by its game: cardforge/web holds no game id, card kind, section or
    field name of the shipped games' final states (but the sheet's own words: a player's name, the
    mode, cards, rounds…)."""
    import typing

    from pydantic import BaseModel

    from cardforge.data.loading import load_game_data
    from cardforge.games import find_game

    # the sheet's own vocabulary, and Python's and cardforge's words that some game also uses as a field
    own_words = {"name", "players", "mode", "partial", "cards", "rounds", "id", "paid", "card", "kind", "score",
                 "scoring", "modes", "choices", "option", "text", "extra", "template", "side",
                 # the roster's player colours (the play log's own word and palette)
                 "colour", "colours", "green", "blue"}
    words: set[str] = set()
    for game_id in ("maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners"):
        game = find_game(game_id)
        words |= {game_id, game_id.replace("_", "-")}
        data = load_game_data(game)
        words |= {c.kind for c in data.cards} | set(data.sections)
        stack: list = [game.score_model]
        seen = set()
        while stack:
            t = stack.pop()
            if isinstance(t, type) and issubclass(t, BaseModel):
                if t in seen:
                    continue
                seen.add(t)
                for fname, info in t.model_fields.items():
                    words.add(fname)
                    stack.append(info.annotation)
            else:
                stack.extend(typing.get_args(t))
        words |= {"x_colour", "fleet", "planet", "moon", "improvement", "clan", "cart", "vein"}
    words -= own_words
    found = []
    for path in sorted((ROOT / "cardforge" / "web").rglob("*")):
        if path.suffix not in (".py", ".html", ".js", ".css"):
            continue
        text = path.read_text(encoding="utf-8")
        for word in sorted(words):
            for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {word}")
    assert found == [], "\n".join(found)
