"""No file of the package names a shipped game (issues 27 and 41): its id or title, its icons or
its modes. A shipped game is one folder like a designer's (``card_data/<game>/``: data,
templates, icons, examples, its rules package ``rules/`` and its own ``tests/``); the core serves
every game alike, so it never needs to know one by name, and no test or benchmark imports a
game's rules by a module path of cardforge's (they go through the game: ``cardforge.testing.
rules_module``).

The scan reads every text file of the package. A game's names: its id (also written with
hyphens or spaces) and its title, any case. Its vocabulary: its icon names (the files of its
``icons/``, less cardforge's built-in ones) as ``:icon:`` tokens or quoted strings, its mode ids
as quoted strings and its mode labels anywhere. ``ALLOWED`` lists the few hits that are the
core's own words, each with why."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardforge.games import find_game, game_ids
from cardforge.icons import ICONS

from conftest import ROOT

PACKAGE = ROOT / "cardforge"
SHIPPED = game_ids()
#: folders left out of the scan (none: the web sheet renders every game's declarations alike)
NOT_YET: tuple[str, ...] = ()

#: (file, term) → why the core may say it: the core's own words that a game also uses
ALLOWED: dict[tuple[str, str], str] = {
    # colour names of the card-text palette (`<color=red>`), also Maphr's colour icons
    **{("cardforge/markup.py", c): "a palette colour" for c in ("red", "green", "blue", "yellow", "grey", "gold")},
    ("cardforge/render/canvas.py", "red"): "a palette colour, in a docstring",
    ("cardforge/render/canvas.py", "gold"): "a palette colour, in a docstring",
    ("cardforge/cli/__init__.py", "build"): "the `cardforge build` command",
    ("cardforge/layout/squib.py", "build"): "Squib's own deck-script call `build` (import squib)",
    ("cardforge/layout/squib.py", "grey"): "Squib's colour names mapped to the palette (gray → grey)",
    ("cardforge/data/printables.py", "level"): "a heading block's field",
    ("cardforge/render/sheets/blocks.py", "level"): "a heading block's field",
    ("cardforge/render/cards/reprint.py", "note"): "a line style of the reprint instructions",
    ("cardforge/transaction.py", "build"): "the build lock's default name",
    ("cardforge/testing.py", "build"): "the `cardforge build` command the build fixture runs",
    # the play log's free-text note on a play (also Cristaux's music icon)
    **{(f"cardforge/{f}", "note"): "a play's note field"
       for f in ("web/sheet.py", "playlog/importer.py", "web/service.py", "playlog/store.py", "web/templates/play.html",
                 "web/templates/play_fields.html")},
    # the playtest lab's own words: a report part's note style, a heading's level, a fit's note
    # and a play's note (also Cristaux's music icon, Maphr's level icons)
    **{(f"cardforge/{f}", "note"): "a lab report's note paragraph, a fit's note, a play's --note"
       for f in ("render/reports/lab_report.py", "web/templates/lab.html", "cli/balance.py", "cli/plays.py")},
    ("cardforge/web/lab.py", "level"): "a report heading's level",
    # the players' colours (Okabe–Ito), also Maphr's colour icons
    **{("cardforge/playlog/store.py", c): "a player colour" for c in ("blue", "green", "yellow")},
}


def _names(game_id: str) -> list[tuple[str, re.Pattern[str]]]:
    """A game's id (as an id, with hyphens, with spaces) and its title."""
    game = find_game(game_id)
    words = {game_id, game_id.replace("_", "-"), game_id.replace("_", " "), game.title}
    return [(w, re.compile(re.escape(w).replace(r"\ ", r"[\s,-]+"), re.I)) for w in sorted(words)]


def _vocabulary(game_id: str) -> list[tuple[str, re.Pattern[str]]]:
    """A game's icons and modes."""
    game = find_game(game_id)
    terms = []
    icons = sorted(p.stem for p in (game.folder / "icons").glob("*.*") if p.stem not in ICONS)
    terms += [(name, re.compile(rf"(?<![\w-])(:{re.escape(name)}:|[\"']{re.escape(name)}[\"'])")) for name in icons]
    for mode_id, spec in game.spec.modes.items():
        if mode_id != "standard":
            terms.append((mode_id, re.compile(rf"[\"']{re.escape(mode_id)}[\"']")))
        if spec.label:
            terms.append((spec.label, re.compile(re.escape(spec.label), re.I)))
    return terms


def _files() -> list[tuple[str, str]]:
    out = []
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(ROOT).as_posix()
        if not path.is_file() or "__pycache__" in rel or rel.startswith(NOT_YET):
            continue
        try:
            out.append((rel, path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:
            continue  # fonts
    return out


def _hits(game_id: str) -> list[str]:
    found = []
    for rel, text in _files():
        terms = _names(game_id) + _vocabulary(game_id)
        for term, pattern in terms:
            for m in pattern.finditer(text):
                if (rel, term) in ALLOWED:
                    continue
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{rel}:{line}: {term!r}: {text.splitlines()[line - 1].strip()[:100]}")
    return found


def test_the_scan_finds_the_games_and_their_terms():
    """The scan is not vacuous: five games, their names, icons and mode labels; a line naming
    Maphr and its coal icon is found twice."""
    assert set(SHIPPED) >= {"maphr", "tunhell", "mine_all_mine", "cristaux", "imperial_miners"}
    terms = {g: [t for t, _ in _names(g) + _vocabulary(g)] for g in SHIPPED}
    assert "coal" in terms["maphr"] and "coin" not in terms["maphr"]  # built-in icons are shared
    assert "Partie complète" in terms["tunhell"] and "avancé" in terms["cristaux"]
    assert "Imperial Miners" in terms["imperial_miners"] and "mine all mine" in terms["mine_all_mine"]
    line = 'draw(":coal:")  # as in Les Mines de Maphr'
    assert sorted(t for t, p in _names("maphr") + _vocabulary("maphr") if p.search(line)) == \
        ["Les Mines de Maphr", "coal", "maphr"]
    assert [t for t, p in _names("mine_all_mine") if p.search("(e.g. Mine, All Mine! after a round)")]
    scanned = {rel for rel, _ in _files()}
    assert {"cardforge/games/declared.py", "cardforge/sheet.py", "cardforge/render/reports/charts.py",
            "cardforge/web/sheet.py", "cardforge/web/templates/sheet.html", "cardforge/web/static/sheet.js",
            "cardforge/pod_profiles/thegamecrafter-bridge.yaml"} <= scanned  # web/ and data files too


@pytest.mark.slow
@pytest.mark.parametrize("game_id", SHIPPED)
def test_no_core_module_names_a_shipped_game(game_id):
    assert _hits(game_id) == []


def test_every_allowance_is_still_needed():
    """An allow-list entry whose word is gone from its file is dropped, not kept."""
    texts = dict(_files())
    for (rel, term), why in ALLOWED.items():
        assert rel in texts and re.search(rf"[\"':]{re.escape(term)}[\"':]", texts[rel]), (rel, term, why)


def test_the_shipped_games_rules_are_in_their_folders():
    """Each shipped game's rules are its folder's own ``rules/`` package (game.yaml says
    ``rules: rules``), and no Python file of the tests, the benchmarks or a game names a module
    path ``cardforge.games.<game>``."""
    for game_id in SHIPPED:
        game = find_game(game_id)
        assert game.spec.rules == "rules"
        assert game.rules is not None and Path(game.rules.__file__) == game.folder / "rules" / "__init__.py"
        assert not (PACKAGE / "games" / game_id).exists()
    pattern = re.compile(r"cardforge[./]games[./](" + "|".join(map(re.escape, SHIPPED)) + r")\b")
    sources = [*ROOT.glob("tests/**/*.py"), *ROOT.glob("bench/**/*.py"), *ROOT.glob("card_data/**/*.py"),
               *PACKAGE.rglob("*.py")]
    assert len(sources) > 100
    assert [f"{p.relative_to(ROOT)}:{m.group(0)}" for p in sources
            for m in pattern.finditer(p.read_text(encoding="utf-8"))] == []
