"""cardforge.testing, the test kit for game authors: its helpers on a shipped game and on a small
game folder, the failure a wrong total gives, and the plugin loaded both ways a game author's
pytest can load it (the pytest11 entry point, ``pytest_plugins``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pypdf
import pytest

from cardforge.testing import Build, assert_scores, rules_module, score_example

from conftest import FIXTURES, ROOT

MAPHR_EXAMPLE = ROOT / "card_data" / "maphr" / "examples" / "final.yaml"
RELICS = FIXTURES / "games" / "chasse_aux_reliques"


def test_assert_scores_gives_the_sheet_when_the_totals_are_right():
    sheet = assert_scores("maphr", MAPHR_EXAMPLE, {"Alice": 67, "Ben": 67, "Cid": 10})
    assert sheet.game == "maphr" and sheet.winners == ["Ben"]
    assert [(p.name, p.rank) for p in sheet.players] == [("Alice", 2), ("Ben", 1), ("Cid", 3)]  # file order


def test_a_wrong_total_fails_with_the_whole_table():
    with pytest.raises(AssertionError) as failed:
        assert_scores("maphr", MAPHR_EXAMPLE, {"Alice": 65, "Ben": 67, "Dana": 3})
    assert str(failed.value) == (
        f"scores of {MAPHR_EXAMPLE} (maphr) differ from the expected totals:\n"
        "  player  expected  got\n"
        "  Alice         65   67   ← 2 more\n"
        "  Ben           67   67\n"
        "  Dana           3    —   ← not in the file\n"
        "  Cid            —   10   ← not expected")


def test_a_refused_file_fails_with_every_problem(tmp_path):
    final = tmp_path / "final.yaml"
    final.write_text("players:\n  - {name: Ana, relics: [couronnne]}\n  - {name: Ben, relics: [dent, dent, dent]}\n",
                     encoding="utf-8")
    with pytest.raises(AssertionError) as failed:
        score_example(RELICS, final)
    message = str(failed.value)
    assert message.startswith(f"{final} cannot be scored as chasse_aux_reliques: ")
    assert "unknown relic 'couronnne'; did you mean 'couronne'?" in message
    assert "'dent' held 3 times, the deck has 2" in message


def test_rules_module_reaches_a_game_s_own_modules(tmp_path, cli, monkeypatch):
    scoring = rules_module("maphr", "scoring")
    assert scoring.FinalState is rules_module("maphr").score_model
    assert rules_module(RELICS, "scoring").SET_BONUS == {"standard": 5, "expert": 8}
    monkeypatch.chdir(tmp_path)
    assert cli("new", "plain").code == 0  # a game without Python rules
    with pytest.raises(LookupError, match=r"the game plain \(.*plain\) has no rules module"):
        rules_module("./plain")


def test_the_build_fixture_builds_into_the_test_s_folder(cardforge_build, cardforge_game, tmp_path):
    build = cardforge_build(cardforge_game(RELICS), "--only", "decks")
    assert isinstance(build, Build) and build.folder == tmp_path / "build-1"
    assert [p.name for p in build.pdfs] == ["deck.pdf", "instructions.pdf"]
    text = "".join(page.extract_text() for page in pypdf.PdfReader(build.pdf("deck.pdf")).pages)
    assert "Couronne" in text and "Crâne" in text
    with pytest.raises(AssertionError, match="no aids.pdf in the build; it wrote: deck.pdf, instructions.pdf"):
        build.pdf("aids.pdf")
    assert cardforge_build(RELICS, "--only", "pads").folder == tmp_path / "build-2"


def test_a_failed_build_fails_with_cardforge_s_message(cardforge_build, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(RELICS, broken)
    (broken / "relics.yaml").write_text("defaults: {kind: relic}\ncards:\n  - {id: x, name: X, value: 9, family: or}\n", encoding="utf-8")
    with pytest.raises(AssertionError, match=r"cardforge build .*broken failed \(exit 1\):\n(.|\n)*value"):
        cardforge_build(broken)


AUTHOR_TESTS = '''
from pathlib import Path

from cardforge.testing import assert_scores

GAME = Path({game!r})


def test_right(cardforge_game, tmp_path):
    final = tmp_path / "final.yaml"
    final.write_text("players:\\n  - {{name: Ana, relics: [couronne, sceptre, anneau, masque]}}\\n"
                     "  - {{name: Ben, relics: [crane, flute, dent, perle]}}\\n", encoding="utf-8")
    sheet = assert_scores(cardforge_game(GAME), final, {{"Ana": 19, "Ben": 12}})
    assert sheet.winners == ["Ana"]


def test_wrong(cardforge_game, tmp_path):
    final = tmp_path / "final.yaml"
    final.write_text("players:\\n  - {{name: Ana, relics: [couronne]}}\\n  - {{name: Ben, relics: []}}\\n",
                     encoding="utf-8")
    assert_scores(cardforge_game(GAME), final, {{"Ana": 6, "Ben": 0}})
'''


@pytest.mark.slow
@pytest.mark.parametrize("how", ["entry point", "pytest_plugins"])
def test_a_game_author_s_pytest_loads_the_kit(how, tmp_path):
    """Ana: 5+4+2+3 = 14 and a set of three gold relics, 5: 19; Ben: 3+2+1+1 = 7 and three bones, 5: 12."""
    (tmp_path / "test_my_game.py").write_text(AUTHOR_TESTS.format(game=str(RELICS)), encoding="utf-8")
    env = {**os.environ}
    if how == "pytest_plugins":  # no entry point loaded: the conftest names the plugin
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        (tmp_path / "conftest.py").write_text('pytest_plugins = ["cardforge.testing"]\n', encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                          str(tmp_path)], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 failed, 1 passed" in run.stdout, run.stdout
    assert "(chasse_aux_reliques) differ from the expected totals:" in run.stdout
    assert "  player  expected  got\n" in run.stdout and "  Ana            6    5   ← 1 fewer\n" in run.stdout
