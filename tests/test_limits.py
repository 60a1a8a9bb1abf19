"""Each limit of cardforge/limits.py, refused with a clear message, and raised by its
environment variable; ReportLab's user settings ignored."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cardforge.limits import LIMITS, env_name, limit
from cardforge.problems import short_repr
from cardforge.text.templating import TemplateError, Templates, render

from conftest import ROOT, run_cli


def test_every_limit_is_documented():
    text = (ROOT / "docs" / "internals" / "hostile-input.md").read_text(encoding="utf-8")
    for name in LIMITS:
        assert env_name(name) in text, name


def test_override(monkeypatch):
    assert limit("copies") == 1000
    monkeypatch.setenv("CARDFORGE_LIMIT_COPIES", "5_000")
    assert limit("copies") == 5000
    monkeypatch.setenv("CARDFORGE_LIMIT_COPIES", "nonsense")
    assert limit("copies") == 1000
    monkeypatch.setenv("CARDFORGE_LIMIT_YAML_DEPTH", "100000")
    assert limit("yaml_depth") == 200  # the hard ceiling


def test_short_repr():
    assert short_repr("abc") == "'abc'"
    assert short_repr("x" * 1000) == "'" + "x" * 80 + "…' (1,000 characters)"
    big = [[list(range(10))] * 10] * 10
    assert len(short_repr(big)) < 140 and short_repr(big).endswith("(10 items)")
    assert short_repr(10 ** 5000) == "a whole number of about 5,000 digits"
    assert short_repr(10 ** 100) == "1" + "0" * 79 + "… (101 digits)"


@pytest.fixture
def tunhell(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "card_data" / "tunhell", data / "tunhell")
    return data


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("copies", ["1000000000", "1000000", "1001"])
def test_copies_limit(tunhell, copies):
    edit(tunhell / "tunhell" / "mine.yaml", "copies: 18", f"copies: {copies}")
    r = run_cli("--data", tunhell, "check", "tunhell")
    assert r.code == 1
    assert ("card 'terre' (#1): copies: must be ≤ 1,000 (set CARDFORGE_LIMIT_COPIES to allow more), got "
            + copies) in r.err


def test_cards_per_deck_limit(tunhell, monkeypatch):
    r = run_cli("--data", tunhell, "check", "tunhell")  # 110 printed cards
    assert r.code == 0, r.err
    monkeypatch.setenv("CARDFORGE_LIMIT_CARDS_PER_DECK", "100")
    r = run_cli("--data", tunhell, "check", "tunhell")
    assert r.code == 1
    assert ("deck.yaml: card_files: 110 printed cards (copies counted): at most 100 "
            "(set CARDFORGE_LIMIT_CARDS_PER_DECK to allow more)") in r.err


def test_empty_deck_yaml_fails_check_and_build(tunhell):
    (tunhell / "tunhell" / "deck.yaml").write_text("", encoding="utf-8")
    r = run_cli("--data", tunhell, "check", "tunhell")
    assert r.code == 1
    assert "deck.yaml: the file is empty: deck.yaml needs title, version, card_size and card_files" in r.err
    r = run_cli("--data", tunhell, "build", "tunhell", "--only", "decks", "--out", tunhell.parent / "out")
    assert r.code == 1 and "the file is empty" in r.err and "Traceback" not in r.err


def test_deck_with_no_cards(tunhell):
    for name in ("nains.yaml", "mine.yaml", "fin-de-mine.yaml", "trophees.yaml"):
        (tunhell / "tunhell" / name).write_text("[]\n", encoding="utf-8")
    r = run_cli("--data", tunhell, "check", "tunhell")
    assert r.code == 1 and "the deck has no cards to print" in r.err


def test_bad_back_colour_fails_check(tunhell):
    edit(tunhell / "tunhell" / "deck.yaml", '"#8b5a2b"', "'#zzzzzz'")
    r = run_cli("--data", tunhell, "check", "tunhell")
    assert r.code == 1
    assert "backs.nain.colour: must be a colour '#rrggbb' or one of" in r.err and "got '#zzzzzz'" in r.err


def test_text_length_limit(tunhell):
    edit(tunhell / "tunhell" / "mine.yaml", "name: Terre", "name: " + "T" * 30000)
    r = run_cli("--data", tunhell, "check", "tunhell")
    assert r.code == 1
    assert "mine.yaml:8: a text of 30,000 characters: at most 20,000 (set CARDFORGE_LIMIT_TEXT_CHARS" in r.err


def test_players_limit(tmp_path):
    players = [{"name": f"p{i}", "coins": 0, "galleries": 0, "improvements": [], "veins": {}, "miners": 0}
               for i in range(101)]
    path = tmp_path / "final.yaml"
    path.write_text(yaml.safe_dump({"players": players}), encoding="utf-8")
    r = run_cli("score", "maphr", path)
    assert r.code == 1 and "players: must have at most 100 item(s), got 101" in r.err


def test_rounds_limit(tmp_path):
    path = tmp_path / "final.yaml"
    path.write_text(yaml.safe_dump({"rounds": [{}] * 1001, "planets": []}), encoding="utf-8")
    r = run_cli("score", "mine_all_mine", path)
    assert r.code == 1 and "rounds: must have at most 1000 item(s), got 1001" in r.err


def test_score_stdin_not_utf8_leaves_nothing(monkeypatch, tmp_path):
    import io
    import tempfile

    before = set(os.listdir(tempfile.gettempdir()))
    stream = io.TextIOWrapper(io.BytesIO(b"players:\n  - name: \xff\xfe\n"), encoding="utf-8",
                              errors="surrogateescape")
    monkeypatch.setattr("sys.stdin", stream)
    r = run_cli("score", "maphr", "-")
    assert r.code == 1
    assert "<stdin>:2: not UTF-8 text: byte 0xff at offset 19" in r.err
    assert set(os.listdir(tempfile.gettempdir())) - before == set()


# --- templates --------------------------------------------------------------------------------

def render_inline(source: str) -> str:
    return render(Templates([]).inline(source), {})


@pytest.mark.parametrize("source, message", [
    ("{% for i in range(10**9) %}x{% endfor %}", "range() of 1,000,000,000 numbers: at most 10,000"),
    ("{{ 10.0**400 }}", "a number too large for a card"),
    ("{{ 10**100000 }}", "a power too large for a card"),
    ("{{ 'a'*10**9 }}", "a repeated text or list too long for a card: at most 10,000"),
    ("{{ [0]*10**9 }}", "a repeated text or list too long for a card"),
    ("{{ lipsum(100000) }}", "'lipsum' is undefined"),
    ("{% for i in range(10000) %}{% for j in range(10000) %}{% endfor %}{% endfor %}",
     "too many loop turns in one template: at most 100,000"),
    ("{% macro f(n) %}{{ f(n+1) }}{% endmacro %}{{ f(1) }}", "too deeply nested"),
    ("{{ 'x'|center(10**9) }}", "'center' width too long for a card"),
    ("{{ '%0999999999d' % 1 }}", "a formatted value too long for a card"),
    ("{{ '{:>999999999}'.format(1) }}", "a formatted value too long for a card"),
    ("{% set ns = namespace(x='a') %}{% for i in range(40) %}{% set ns.x = ns.x ~ ns.x %}{% endfor %}",
     "a joined text too long for a card"),
    ("{% set ns = namespace(x=[1]) %}{% for i in range(40) %}{% set ns.x = ns.x + ns.x %}{% endfor %}",
     "a joined text or list too long for a card"),
    ("{{ range(10000)|join('x'*5000) }}", "a joined text too long for a card"),
    ("{{ ('a'*5000)|replace('a', 'bbbbbbbbbb') }}", "a replaced text too long for a card"),
    ("{% for i in range(9000) %}{{ 'x' * 9 }}{% endfor %}",
     "the template's text is too long for a card: at most 10,000 (set CARDFORGE_LIMIT_TEMPLATE_OUTPUT_CHARS"),
])
def test_template_limits(source, message):
    with pytest.raises(TemplateError) as err:
        render_inline(source)
    assert message in str(err.value)


def test_templates_still_work():
    assert render_inline("{% for i in range(3) %}{{ loop.index }}{{ '-' if not loop.last }}{% endfor %}") == "1-2-3"
    assert render_inline("{{ 'ab' ~ 1 }} {{ [1, 2]|join(', ') }} {{ 'aa'|replace('a', 'b') }} {{ 2**10 }}") == \
        "ab1 1, 2 bb 1024"
    assert render_inline("{{ '%3d' % 7 }}|{{ '{:>4}'.format('x') }}|{{ 'x'|center(5) }}") == "  7|   x|  x  "


def test_template_loop_items_limit(monkeypatch):
    monkeypatch.setenv("CARDFORGE_LIMIT_TEMPLATE_LOOP_ITEMS", "50")
    with pytest.raises(TemplateError, match="a loop over too many items: at most 50 "
                                            "\\(set CARDFORGE_LIMIT_TEMPLATE_LOOP_ITEMS"):
        render_inline("{% for c in 'x' * 100 %}{% endfor %}")


def test_template_loop_limit_raised(monkeypatch):
    monkeypatch.setenv("CARDFORGE_LIMIT_TEMPLATE_LOOP_ITEMS", "20000")
    assert render_inline("{% for i in range(15000) %}{% endfor %}{{ range(15000)|length }}") == "15000"


def test_self_include_caught(tmp_path):
    (tmp_path / "me.j2").write_text("x{% include 'me.j2' %}", encoding="utf-8")
    templates = Templates([tmp_path])
    with pytest.raises(TemplateError, match="too deeply nested|too long"):
        render(templates.file("me.j2"), {})


# --- ReportLab's user settings ----------------------------------------------------------------

def test_reportlab_user_settings_ignored(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".reportlab_mods").write_text("import sys; sys.stderr.write('MODS RAN\\n')\n", encoding="utf-8")
    (home / ".reportlab_settings").write_text("pageCompression = 0\n", encoding="utf-8")
    env = {**os.environ, "HOME": str(home), "RL_pageCompression": "0"}
    code = ("import cardforge.render.cards.decks, reportlab.rl_config as c, os;"
            "print(c.pageCompression, os.environ.get('RL_pageCompression'))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert "MODS RAN" not in out.stderr
    assert out.stdout.split() == ["1", "0"]  # defaults; the variable itself left in place
    raw = subprocess.run([sys.executable, "-c", "import reportlab.rl_config as c; print(c.pageCompression)"],
                         env=env, capture_output=True, text=True, check=True)
    assert "MODS RAN" in raw.stderr and raw.stdout.strip() == "0"  # what it would have done


def test_rule_nodes_limit(monkeypatch):
    """Issue 38's rule (tests/fixtures/bad_games/rule_alias_bomb): 38,416 sums in under 1 KB,
    measured before any of it is built; 82,742 nodes worked out in its comment and in
    tests/test_declared_scoring.py."""
    folder = ROOT / "tests" / "fixtures" / "bad_games" / "rule_alias_bomb"
    r = run_cli("check", folder)
    assert r.code == 1 and "Traceback" not in r.err
    assert r.err.splitlines()[1].endswith(
        "rule_alias_bomb/game.yaml:11: categories[0].score: category 'bombe': rule has 82,742 nodes after expanding "
        "aliases, at most 1,000 allowed (set CARDFORGE_LIMIT_RULE_NODES to allow more)")
    monkeypatch.setenv("CARDFORGE_LIMIT_RULE_NODES", "82742")
    r = run_cli("check", folder)
    assert r.code == 1 and "rule has" not in r.err and "cards.yaml" in r.err  # read; its deck has no card file


def test_a_raised_limit_keys_the_cache_apart(monkeypatch, tmp_path):
    """What a raised limit let through is not taken from the cache once the limit is back."""
    from cardforge.errors import DataError
    from cardforge.games import read_game_spec

    folder = tmp_path / "bomb"
    shutil.copytree(ROOT / "tests" / "fixtures" / "bad_games" / "rule_alias_bomb", folder)
    monkeypatch.setenv("CARDFORGE_LIMIT_RULE_NODES", "100000")
    assert [c.id for c in read_game_spec(folder).categories] == ["bombe"]  # validated, and cached
    monkeypatch.delenv("CARDFORGE_LIMIT_RULE_NODES")
    with pytest.raises(DataError) as refused:
        read_game_spec(folder)
    assert [p.message for p in refused.value.problems] == [
        "category 'bombe': rule has 82,742 nodes after expanding aliases, at most 1,000 allowed "
        "(set CARDFORGE_LIMIT_RULE_NODES to allow more)"]
