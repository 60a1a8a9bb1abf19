"""`cardforge check` means it builds (issue 28): over the fuzz corpus (tests/fuzz/corpus/) and
fuzzed template folders, whenever `check` says OK the deck builds, and whenever the build fails
on a layout, template, markup, font, icon or art, `check` failed first with the same message."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import run_cli
from fuzz import load_bench
from fuzz.test_surfaces import CASES, _edit, case_game

pytestmark = pytest.mark.slow  # every case is a check then a build (~0.4 s a case)

CORPUS = Path(__file__).parent / "corpus"
TEMPLATE_CASES = yaml.safe_load((CORPUS / "templates.yaml").read_text(encoding="utf-8"))
fuzz = load_bench("fuzz")


@pytest.fixture(scope="module")
def new_game(tmp_path_factory):
    """A `cardforge new` game whose kind also has a list field (`tags`), as the corpus expects."""
    folder = tmp_path_factory.mktemp("base") / "jeu"
    assert run_cli("new", folder, "--lang", "fr").code == 0  # the corpus edits the French scaffold
    game = folder / "game.yaml"
    old = "        effect: {type: text, required: true}\n"
    game.write_text(game.read_text(encoding="utf-8").replace(old, old + "        tags: {type: list}\n"),
                    encoding="utf-8")
    return folder


def problems(err: str) -> set[str]:
    """The problem lines of a failed run."""
    return {line.strip()[2:] for line in err.splitlines() if line.strip().startswith("- ")}


def gist(problem: str) -> str:
    """What a problem says, without where (check may report a broken font or picture where it
    reads the file, build where a box uses it): its last part, less a trailing file path."""
    text = re.sub(r" \((/|[A-Za-z]:\\)[^()]*\)$", "", problem)
    return text.rsplit(": ", 1)[-1][-80:]


def check_then_build(folder: Path, out: Path, *extra: str) -> None:
    """check OK ⇒ build OK; build failed ⇒ check failed, having said every problem build said."""
    checked = run_cli("check", folder, *extra)
    built = run_cli("build", folder, "--only", "decks", "-o", out, *extra)
    for r in (checked, built):
        assert "internal error" not in r.err and "Traceback" not in r.err, r.err[-3000:]
    if checked.code == 0:
        assert built.code == 0, f"check said OK, build failed:\n{built.err[-3000:]}"
    if built.code != 0:
        assert checked.code != 0, f"build failed, check said OK:\n{built.err[-3000:]}"
        missing = [p for p in problems(built.err) if gist(p) not in checked.err]
        assert not missing, f"build said what check did not: {missing}\ncheck said:\n{checked.err[-3000:]}"


SURFACES = [c for c in CASES if c.get("command", ["check"])[0] in ("check", "build")
            and not any("fifo" in (spec if isinstance(spec, dict) else {}) for spec in (c.get("files") or {}).values())]


@pytest.mark.slow
@pytest.mark.parametrize("case", SURFACES, ids=lambda c: c["name"])
def test_check_ok_means_build_ok_over_the_surface_corpus(case, new_game, tmp_path):
    check_then_build(case_game(case, new_game, tmp_path), tmp_path / "out")


@pytest.mark.parametrize("case", TEMPLATE_CASES, ids=lambda c: c["source"][:40])
def test_template_corpus_in_a_layout_is_found_by_check(case, new_game, tmp_path):
    """Each hostile template of the corpus, as a card's text box: check fails saying what build says."""
    if "include" in case["source"]:
        pytest.skip("an include needs its files: the template-folder fuzz covers it")
    folder = tmp_path / "jeu"
    shutil.copytree(new_game, folder)
    _edit(folder / "templates" / "layout.yaml", 'text: "{{ card.effect }}"',
          "text: " + yaml.safe_dump(case["source"], default_style='"', width=10_000).strip().removesuffix("..."))
    r = run_cli("check", folder)
    assert r.code == 1 and case["expect"] in r.err, r.err[-2000:]
    check_then_build(folder, tmp_path / "out")


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game", ["maphr", "cristaux"])
@pytest.mark.slow
def test_check_ok_means_build_ok_over_fuzzed_template_folders(game, seed, tmp_path, monkeypatch):
    monkeypatch.delenv("CARDFORGE_DATA", raising=False)
    fuzz.make_template_folder(random.Random(seed), game, tmp_path / "t")
    check_then_build(game, tmp_path / "out", "--templates", str(tmp_path / "t"))


@pytest.mark.parametrize("edit, message", [
    # unclosed markup in a card's text (its template): found by drawing the card
    (("templates/layout.yaml", 'text: "{{ card.effect }}"', 'text: "**{{ card.effect }}"'),
     "bad card-text markup"),
    # an unknown font family
    (("templates/layout.yaml", "style: {size: 11, min_size: 6", "style: {family: Garamond, size: 11, min_size: 6"),
     "unknown font family 'Garamond'"),
    # a layout key that does not exist
    (("templates/layout.yaml", '        text: "{{ card.effect }}"\n', '        text: "{{ card.effect }}"\n        colour: red\n'),
     "boxes.effect.colour: unknown field (allowed: extends, type"),
])
def test_what_build_trips_on_check_finds_first(edit, message, new_game, tmp_path):
    folder = tmp_path / "jeu"
    shutil.copytree(new_game, folder)
    _edit(folder / edit[0], *edit[1:])
    r = run_cli("check", folder)
    assert r.code == 1 and message in r.err, r.err[-2000:]
    assert not (tmp_path / "out").exists()
    check_then_build(folder, tmp_path / "out")
